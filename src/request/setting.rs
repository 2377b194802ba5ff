//! What every command that plays the rules is given besides its own arguments: the
//! catalogue's files, the condition values, the ruleset options and the trial settings,
//! resolved here against a ruleset into validated values.

use std::path::PathBuf;

use crate::catalogue::Layers;
use crate::catalogue::adhoc::AdHocBuild;
use crate::engine::{DEFAULT_BATCH_STREAMS, RunConfig, Trials};
use crate::error::{Error, Result};
use crate::rules::axis::Point;
use crate::rules::{Role, RuleOptions, Ruleset};
use crate::sweep::run::all_specs;

/// Which catalogue to use: a base directory (`None`: the embedded default) and the
/// files or directories added to it, in order, and the ad-hoc builds
/// (`BASE[PART, N*PART]`) the command line names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CatalogueSource {
    pub base: Option<PathBuf>,
    pub additions: Vec<PathBuf>,
    /// Ad-hoc builds as written; each becomes an entry of the game's catalogue
    /// ([`crate::rules::ruleset::Builds::adhoc_entry`]) in one more file,
    /// [`ADHOC_FILE`], checked with the others.
    pub adhoc: Vec<String>,
}

/// The condition name (in [`Setting::conditions`]) that carries the weights' text, and
/// the id of the `--range-weights` flag.
pub const WEIGHTS: &str = "range_weights";

/// How messages and saved reports name the file of the command line's ad-hoc builds.
pub const ADHOC_FILE: &str = "command-line-builds.toml";

impl CatalogueSource {
    /// The paths read: the base directory (none for the embedded catalogue) and the
    /// additions.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.base.iter().chain(&self.additions).cloned().collect()
    }

    /// The active catalogue's files of ruleset `R`: the base and the additions.
    pub fn layers<R: Ruleset>(&self) -> Layers {
        let mut layers = Layers::base(self.base.as_deref(), R::NAME);
        if !self.additions.is_empty() {
            layers.add(&self.additions);
        }
        layers
    }

    /// The active catalogue.
    ///
    /// # Errors
    /// (failure) A file that cannot be read or an invalid catalogue, every error found.
    pub fn load<R: Ruleset>(&self) -> Result<R::Catalogue> {
        self.load_adding::<R>(&[])
    }

    /// The active catalogue extended by the catalogue files under `extra` too (a
    /// scenario's `loadouts_add`).
    ///
    /// # Errors
    /// As [`CatalogueSource::load`].
    pub fn load_adding<R: Ruleset>(&self, extra: &[PathBuf]) -> Result<R::Catalogue> {
        Ok(self.read_adding::<R>(extra)?.0)
    }

    /// As [`CatalogueSource::load_adding`], with the layers it was read from (each file
    /// read once: their texts are saved in reports, and `[vary]` rewrites them).
    ///
    /// # Errors
    /// As [`CatalogueSource::load`].
    pub fn read_adding<R: Ruleset>(&self, extra: &[PathBuf]) -> Result<(R::Catalogue, Layers)> {
        let mut layers = self.layers::<R>();
        if !extra.is_empty() {
            layers.add(extra);
        }
        let whose = |layers: &Layers| {
            if self.base.is_none() && self.additions.is_empty() && extra.is_empty() {
                format!("the built-in {} catalogue is invalid", R::NAME)
            } else {
                format!("cannot use the {}", layers.origin())
            }
        };
        let catalogue = layers.load(R::load).map_err(|e| Error::caused(whose(&layers), e))?;
        if self.adhoc.is_empty() {
            return Ok((catalogue, layers));
        }
        let mut entries: Vec<String> = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        // Each build is named as written (trimmed), so the command's own lookups find it.
        for text in &self.adhoc {
            let build = AdHocBuild::parse(text).map_err(Error::usage)?;
            let name = text.trim().to_string();
            if seen.contains(&name) || R::display_name(&catalogue, Role::Opponent, &name).is_ok() {
                continue;
            }
            entries.push(R::adhoc_entry(&catalogue, &build, &name).map_err(Error::usage)?);
            seen.push(name);
        }
        layers.add_text(ADHOC_FILE, entries.join("\n"));
        let catalogue = layers
            .load(R::load)
            .map_err(|e| Error::usage(format!("the ad-hoc builds {} break the rules: {e}", seen.join(", "))))?;
        Ok((catalogue, layers))
    }
}

/// How many engagements, how they are seeded, and on how many threads; `None` = not
/// given (the default, or a scenario's value).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrialRequest {
    /// Engagements per cell (default 100,000).
    pub trials: Option<u64>,
    /// Instead of `trials`: a 95% half-width every probability must reach.
    pub precision: Option<f64>,
    /// With `precision`: the most engagements per cell.
    pub max_trials: u64,
    pub seed: Option<u64>,
    pub threads: Option<u16>,
}

impl TrialRequest {
    /// The run configuration.
    ///
    /// # Errors
    /// (usage) Trial settings out of range.
    pub fn config(&self) -> Result<RunConfig> {
        let trials = match self.precision {
            Some(e) => Trials::Precision { half_width: e, max: self.max_trials },
            None => Trials::Fixed(self.trials.unwrap_or(100_000)),
        };
        trials.validate().map_err(Error::usage)?;
        Ok(RunConfig {
            seed: self.seed.unwrap_or(1),
            trials,
            threads: self.threads.map(usize::from),
            batch_streams: DEFAULT_BATCH_STREAMS,
        })
    }

    /// The run configuration, with a scenario's seed and trials where the request gives
    /// none.
    ///
    /// # Errors
    /// As [`TrialRequest::config`].
    pub fn config_over(&self, seed: u64, trials: Trials) -> Result<RunConfig> {
        let mut c = self.config()?;
        if self.seed.is_none() {
            c.seed = seed;
        }
        if self.trials.is_none() && self.precision.is_none() {
            c.trials = trials;
        }
        Ok(c)
    }
}

/// Trials, the turn cap and the policy of a command that runs engagements.
#[derive(Debug, Clone, PartialEq)]
pub struct RunRequest {
    pub trials: TrialRequest,
    /// Turn cap (the game's turns or rounds), 1 to `MAX_TURNS_LIMIT`.
    pub max_turns: u32,
    /// A policy of the ruleset by name; `None` = its default.
    pub policy: Option<String>,
}

impl RunRequest {
    /// The ruleset's policy: the one named, else the ruleset's default.
    ///
    /// # Errors
    /// (usage) A policy the ruleset does not have.
    pub fn policy<R: Ruleset>(&self) -> Result<R::Policy> {
        match &self.policy {
            None => Ok(R::Policy::default()),
            Some(p) => p.parse::<R::Policy>().map_err(|e| Error::usage(format!("--policy: {e}"))),
        }
    }

    /// See [`TrialRequest::config`].
    ///
    /// # Errors
    /// As there.
    pub fn config(&self) -> Result<RunConfig> {
        self.trials.config()
    }

    /// See [`TrialRequest::config_over`].
    ///
    /// # Errors
    /// As there.
    pub fn config_over(&self, seed: u64, trials: Trials) -> Result<RunConfig> {
        self.trials.config_over(seed, trials)
    }
}

/// The catalogue, the condition values (axis name, value as written) and the option
/// pairs (`NAME=VALUE` as written) of one command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Setting {
    pub catalogue: CatalogueSource,
    pub conditions: Vec<(&'static str, String)>,
    pub options: Vec<String>,
}

impl Setting {
    /// The conditions as ruleset `R`'s point.
    ///
    /// # Errors
    /// (usage) Values that contradict each other; a range envelope (several ranges,
    /// [`super::envelope`]), which takes [`Setting::weighted_points`].
    pub fn point<R: Ruleset>(&self) -> Result<Point> {
        if let Some(e) = self.envelope::<R>()? {
            return Err(Error::usage(format!(
                "--range {}: a list or band of ranges is taken by duel, compare, battle, gauntlet, fit and search; \
                 this takes one range",
                e.ranges.join(",")
            )));
        }
        let single: Vec<(&str, String)> = self.conditions.iter().filter(|(n, _)| *n != WEIGHTS).cloned().collect();
        Point::new(&all_specs::<R>(), &single).map_err(|e| Error::usage(e.join("; ")))
    }

    /// The conditions as ruleset `R`'s typed conditions, checked against the options.
    ///
    /// # Errors
    /// (usage) Values that contradict each other or the options.
    pub fn conditions<R: Ruleset>(&self) -> Result<R::Conditions> {
        let c = R::conditions(&self.point::<R>()?).map_err(Error::usage)?;
        R::check_conditions(&c, &self.options::<R>()?).map_err(Error::usage)?;
        Ok(c)
    }

    /// As [`Setting::conditions`], refusing conditions engagements cannot play.
    ///
    /// # Errors
    /// (usage) As there, or conditions no engagement plays.
    pub fn engagement_conditions<R: Ruleset>(&self) -> Result<R::Conditions> {
        let c = self.conditions::<R>()?;
        R::check_engagement(&c).map_err(Error::usage)?;
        Ok(c)
    }

    /// The ruleset's options with the pairs applied in order.
    ///
    /// # Errors
    /// (usage) A malformed pair, an unknown name or an unplayable value.
    pub fn options<R: Ruleset>(&self) -> Result<R::Options> {
        let mut o = R::Options::default();
        for pair in &self.options {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| Error::usage(format!("--option {pair}: give NAME=VALUE (see `volley rulesets`)")))?;
            o.set(name.trim(), value.trim()).map_err(|e| Error::usage(format!("--option {pair}: {e}")))?;
        }
        o.validate().map_err(|e| Error::usage(e.to_string()))?;
        Ok(o)
    }
}
