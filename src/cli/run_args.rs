//! Options shared by the commands that run engagements.

use anyhow::Result;
use clap::Args;

use crate::engine::runner::MAX_TRIALS;
use crate::engine::{RunConfig, Trials};
use crate::request::{RunRequest, TrialRequest};
use crate::rules::Ruleset;
use crate::sweep::scenario::{DEFAULT_MAX_TURNS, MAX_TURNS_LIMIT};

/// How many engagements, how they are seeded, and on how many threads.
#[derive(Debug, Clone, Args)]
pub struct TrialArgs {
    /// Engagements per cell [default: 100000, or the scenario's]
    #[arg(long, value_name = "N", conflicts_with = "precision", value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS))]
    pub trials: Option<u64>,
    /// Instead of --trials: add engagements until every reported probability's 95% interval half-width is at most E (0 < E < 0.5, e.g. 0.005)
    #[arg(long, value_name = "E", value_parser = parse_precision)]
    pub precision: Option<f64>,
    /// With --precision: the most engagements per cell
    #[arg(long, value_name = "N", default_value_t = 10_000_000, requires = "precision", value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS))]
    pub max_trials: u64,
    /// Random seed: the same seed gives bit-identical results on any thread count [default: 1, or the scenario's]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores]
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
}

/// `--precision`: a 95% half-width strictly between 0 and 0.5.
fn parse_precision(text: &str) -> Result<f64, String> {
    let e: f64 = text.trim().parse().map_err(|_| "give a half-width such as 0.005".to_string())?;
    if !(e > 0.0 && e < 0.5) {
        return Err("precision must be a half-width between 0 and 0.5 (e.g. 0.005)".into());
    }
    Ok(e)
}

/// Trial options, the turn cap, the firing policy and the progress bar.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub trials: TrialArgs,
    /// Turn cap (MECHCOM: rounds): engagements still undecided after this many are censored (attack runs) or draws (duels)
    #[arg(long, value_name = "K", default_value_t = DEFAULT_MAX_TURNS, value_parser = clap::value_parser!(u32).range(1..=MAX_TURNS_LIMIT as i64))]
    pub max_turns: u32,
    /// Firing policy of the ruleset [default: the ruleset's; TechCommander: best-expected
    /// (highest expected life lost), kill-chance (highest one-action kill chance),
    /// catalog-order; MECHCOM: see `volley rulesets`]
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

impl RunArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> RunRequest {
        RunRequest { trials: self.trials.request(), max_turns: self.max_turns, policy: self.policy.clone() }
    }

    /// The ruleset's policy: `--policy`, else the ruleset's default.
    ///
    /// # Errors
    /// A usage error for a policy the ruleset does not have.
    pub fn policy<R: Ruleset>(&self) -> Result<R::Policy> {
        Ok(self.request().policy::<R>()?)
    }

    /// The run configuration.
    ///
    /// # Errors
    /// A usage error for trial options out of range.
    pub fn config(&self) -> Result<RunConfig> {
        self.trials.config()
    }
}

impl TrialArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> TrialRequest {
        TrialRequest {
            trials: self.trials,
            precision: self.precision,
            max_trials: self.max_trials,
            seed: self.seed,
            threads: self.threads,
        }
    }

    /// The run configuration, with a scenario's seed and trials where the command line
    /// gives none.
    ///
    /// # Errors
    /// A usage error for trial options out of range.
    pub fn config_over(&self, seed: u64, trials: Trials) -> Result<RunConfig> {
        Ok(self.request().config_over(seed, trials)?)
    }

    /// The run configuration.
    ///
    /// # Errors
    /// A usage error for trial options out of range.
    pub fn config(&self) -> Result<RunConfig> {
        Ok(self.request().config()?)
    }
}
