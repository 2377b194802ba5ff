//! `volley diff OLD NEW`: what a catalogue change does, per build and weapon, with
//! paired intervals (see [`crate::sweep::diff`]).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::{Args, ValueHint};

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::TrialArgs;
use super::{Invocation, print_table, write_stdout};
use crate::catalogue::Layers;
use crate::output::Format;
use crate::rules::Ruleset;
use crate::sweep::ScenarioText;
use crate::sweep::diff::{Side, diff_json, diff_table, run_diff};
use crate::sweep::scenario::standard_scenario;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old catalogue: a directory of .toml/.csv files (e.g. a report's `catalogue/`) or one file
    #[arg(value_name = "OLD_CATALOGUE", value_hint = ValueHint::AnyPath)]
    pub old: PathBuf,
    /// The new catalogue, the same way
    #[arg(value_name = "NEW_CATALOGUE", value_hint = ValueHint::AnyPath)]
    pub new: PathBuf,
    /// Scenario to play on both (a file or a built-in name; attack-run or duel)
    /// [default: the ruleset's standard scenario, as for `volley sweep`]
    #[arg(long, value_name = "SCENARIO", value_hint = ValueHint::FilePath)]
    pub scenario: Option<String>,
    #[command(flatten)]
    pub trial: TrialArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    /// Only the rows whose value changed (difference not 0)
    #[arg(long)]
    pub changed: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

/// One side's catalogue: `path` (or its `<ruleset>/` subdirectory), the command line's
/// `--add-loadouts` and the scenario's `loadouts_add`.
fn load<R: Ruleset>(path: &Path, ctx: &Invocation<'_>, extra: &[PathBuf]) -> Result<R::Catalogue> {
    let mut layers = Layers::base(Some(path), R::NAME);
    let adds: Vec<PathBuf> = ctx.catalog().add_loadouts.iter().chain(extra).cloned().collect();
    if !adds.is_empty() {
        layers.add(&adds);
    }
    layers.load(R::load).with_context(|| format!("cannot use the catalogue {}", path.display()))
}

pub fn run<R: Ruleset>(args: &DiffArgs, ctx: &Invocation<'_>) -> Result<()> {
    let spec = args.scenario.clone().unwrap_or_else(|| standard_scenario(R::NAME));
    // Errors of the file and its unknown names (in the old catalogue) are reported together.
    let scenario = ScenarioText::load(&spec)?.parse_with_names::<R>(|add| load::<R>(&args.old, ctx, add).ok())?;
    let old = load::<R>(&args.old, ctx, &scenario.loadouts_add)?;
    let new = load::<R>(&args.new, ctx, &scenario.loadouts_add)?;
    let config = args.trial.config_over(scenario.seed, scenario.trials)?;
    let resolve = |cat: &R::Catalogue, which: &PathBuf| {
        scenario
            .resolve::<R>(cat)
            .with_context(|| format!("scenario {} does not match the catalogue {}", scenario.file, which.display()))
    };
    let (ro, rn) = (resolve(&old, &args.old)?, resolve(&new, &args.new)?);
    let progress = Progress::new(args.quiet || args.format.format != Format::Table);
    let mut rows = run_diff::<R>(
        &scenario,
        Side { catalogue: &old, resolved: &ro },
        Side { catalogue: &new, resolved: &rn },
        &config,
        &progress,
    )
    .map_err(|e| anyhow!(e))?;
    progress.finish();
    if args.changed {
        rows.retain(|r| r.difference != Some(0.0));
    }
    match args.format.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&diff_json::<R>(&rows))? + "\n")),
        f => print_table(&diff_table::<R>(&rows), f, 4),
    }
}
