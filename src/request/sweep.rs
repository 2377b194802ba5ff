//! `sweep`: a scenario (default: the ruleset's standard one) resolved against its
//! catalogue, ready to run whole or as one shard.

use std::path::PathBuf;

use crate::catalogue::source::SourceFile;
use crate::engine::{Observer, RunConfig};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::sweep::scenario::standard_scenario;
use crate::sweep::shard::Plays;
use crate::sweep::vary::{Plan, run_varied_with};
use crate::sweep::{Resolved, Scenario, ScenarioText, SweepOutput, run_sweep_with};

use super::setting::{Setting, TrialRequest};

/// A sweep resolved and ready to run.
pub struct SweepPlan<R: Ruleset> {
    /// The scenario as read (its text is saved in shard directories).
    pub text: ScenarioText,
    /// The scenario, with the setting's options after its own and the run's seed and
    /// trials.
    pub scenario: Scenario,
    pub catalogue: R::Catalogue,
    /// How messages name the catalogue, and its files (saved in reports, rewritten by
    /// `[vary]`).
    pub origin: String,
    pub files: Vec<SourceFile>,
    pub resolved: Resolved,
    /// A `[vary]` sweep's combinations; `None` without `[vary]`.
    pub vary: Option<Plan>,
    pub config: RunConfig,
    /// Every path read (catalogue directories and files, the scenario file): an output
    /// must not replace or change them.
    pub inputs: Vec<PathBuf>,
}

/// Resolve a sweep: read the scenario (`None`: the ruleset's standard one), load its
/// catalogue once, apply the setting's options after the scenario's (the command line
/// wins) and the trial settings over the scenario's.
///
/// # Errors
/// (failure) Every error of the scenario with its unknown names, together; a catalogue
/// that does not load; a `[vary]` or a scenario that does not match the catalogue;
/// (usage) malformed options or trial settings.
pub fn plan<R: Ruleset>(setting: &Setting, scenario: Option<&str>, trials: &TrialRequest) -> Result<SweepPlan<R>> {
    let spec = scenario.map_or_else(|| standard_scenario(R::NAME), str::to_string);
    let text = ScenarioText::load(&spec)?;
    // Errors of the file and its unknown names are reported together.
    let mut scenario = text.parse_with_names::<R>(|add| setting.catalogue.load_adding::<R>(add).ok())?;
    if !setting.options.is_empty() {
        // The setting's pairs come after the scenario's own: the command line wins.
        setting.options::<R>()?;
        for pair in &setting.options {
            if let Some((n, v)) = pair.split_once('=') {
                scenario.options.push((n.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    let (catalogue, layers) = setting.catalogue.read_adding::<R>(&scenario.loadouts_add)?;
    let (origin, files) = (layers.origin(), layers.files().to_vec());
    let vary = if scenario.vary.is_empty() {
        None
    } else {
        Some(Plan::check::<R>(&scenario, &origin, &files).map_err(|e| {
            Error::caused(format!("the [vary] of scenario {} does not match the catalogue", scenario.file), e)
        })?)
    };
    // The request overrides the scenario; the manifest records what was used.
    let config = trials.config_over(scenario.seed, scenario.trials)?;
    scenario.seed = config.seed;
    scenario.trials = config.trials;
    let resolved = scenario
        .resolve::<R>(&catalogue)
        .map_err(|e| Error::caused(format!("scenario {} does not match the catalogue", scenario.file), e))?;
    let inputs = setting
        .catalogue
        .paths()
        .into_iter()
        .chain(scenario.loadouts_add.iter().cloned())
        .chain(super::sides::scenario_file(&spec))
        .collect();
    Ok(SweepPlan { text, scenario, catalogue, origin, files, resolved, vary, config, inputs })
}

impl<R: Ruleset> SweepPlan<R> {
    /// Play the sweep with the tallies of `plays` (every stream, or one shard's share).
    ///
    /// # Errors
    /// (failure) Cells the ruleset refuses, or a cancelled run.
    pub fn run(&self, observer: &dyn Observer, plays: &Plays<'_>) -> Result<SweepOutput> {
        Ok(match &self.vary {
            None => run_sweep_with::<R>(
                &self.scenario,
                &self.resolved,
                &self.catalogue,
                &self.config,
                observer,
                &[],
                plays,
            )?,
            Some(plan) => run_varied_with::<R>(&self.scenario, plan, &self.config, observer, plays)?,
        })
    }
}
