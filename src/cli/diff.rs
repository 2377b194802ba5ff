//! `volley diff OLD NEW`: what a catalogue change does, per build and weapon, with
//! paired intervals (see [`crate::sweep::diff`]): balance patch notes first, every row
//! on request.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueEnum, ValueHint};

use super::progress::Progress;
use super::run_args::TrialArgs;
use super::{Invocation, print_table, write_stdout};
use crate::output::Format;
use crate::request::diff::{DiffRequest, diff};
use crate::rules::Ruleset;
use crate::sweep::diff::{diff_table, diff_text_table};
use crate::sweep::diff_notes::{diff_json, preamble, summary_markdown, summary_table};

/// What `diff` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    /// The per-build summary as an aligned table (and the rows with --rows or --changed)
    Table,
    /// Every row (or the changed ones with --changed) as CSV
    Csv,
    /// `summary` (per build, ranked) and `rows`
    Json,
    /// The per-build summary as Markdown, ready to paste into errata
    Markdown,
}

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
    /// Output: the per-build summary as a table, Markdown for errata, JSON (`summary` and
    /// `rows`), or every row as CSV
    #[arg(long, value_enum, default_value = "table")]
    pub format: DiffFormat,
    /// List every row (per build, weapon, matchup, cell and metric) after the summary
    #[arg(long)]
    pub rows: bool,
    /// Only the rows whose value changed: a value that appeared or disappeared, or a
    /// difference beyond float noise (1e-9 of the value); rows without a value on either
    /// side are left out. Lists the rows after the summary (as --rows)
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
    let progress = Progress::new(args.quiet || args.format != DiffFormat::Table);
    let diff = diff::<R>(&ctx.setting, &request, &progress)?;
    progress.finish();
    match args.format {
        DiffFormat::Json => write_stdout(&(serde_json::to_string_pretty(&diff_json::<R>(&diff))? + "\n")),
        DiffFormat::Markdown => write_stdout(&summary_markdown::<R>(&diff)),
        DiffFormat::Csv => print_table(&diff_table::<R>(&diff.rows), Format::Csv, 4),
        DiffFormat::Table => {
            let mut text = format!("{}\n\n{}", preamble::<R>(&diff), summary_table::<R>(&diff).to_text(4));
            if args.rows || args.changed {
                text += &format!("\n{}:\n", crate::output::wording::count(diff.rows.len() as u64, "row"));
                write_stdout(&text)?;
                write_stdout(&diff_text_table::<R>(&diff.rows).to_text(4))
            } else {
                text += &format!(
                    "\n{} rows not shown: --rows lists them, --changed only those that changed.\n",
                    diff.rows.len()
                );
                write_stdout(&text)
            }
        }
    }
}
