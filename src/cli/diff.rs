//! `volley diff OLD NEW`: what a catalogue change does, per build and weapon, with
//! paired intervals (see [`crate::sweep::diff`]).

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueHint};

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::TrialArgs;
use super::{Invocation, print_table, write_stdout};
use crate::output::Format;
use crate::request::diff::{DiffRequest, diff};
use crate::rules::Ruleset;
use crate::sweep::diff::{diff_json, diff_table};

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
    /// Only the rows whose value changed: a value that appeared or disappeared, or a
    /// difference beyond float noise (1e-9 of the value); rows without a value on either
    /// side are left out
    #[arg(long)]
    pub changed: bool,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run<R: Ruleset>(args: &DiffArgs, ctx: &Invocation<'_>) -> Result<()> {
    let request = DiffRequest {
        old: args.old.clone(),
        new: args.new.clone(),
        scenario: args.scenario.clone(),
        trials: args.trial.request(),
        changed: args.changed,
    };
    let progress = Progress::new(args.quiet || args.format.format != Format::Table);
    let rows = diff::<R>(&ctx.setting, &request, &progress)?;
    progress.finish();
    match args.format.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&diff_json::<R>(&rows))? + "\n")),
        f => print_table(&diff_table::<R>(&rows), f, 4),
    }
}
