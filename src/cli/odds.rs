//! `volley odds`: exact odds of one attack of each of a side's weapons against a target.

use anyhow::{Result, anyhow};
use clap::Args;

use super::args::{FormatArgs, TargetArgs};
use super::{Invocation, options_line, print_json, print_table, with_options_json, write_stdout};
use crate::output::Format;
use crate::rules::Ruleset;

#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Attacker from the catalogue (TechCommander: a build; MECHCOM: a mech or MECH+PILOT)
    #[arg(long, value_name = "NAME")]
    pub attacker: String,
    /// Only this weapon
    #[arg(long, value_name = "NAME")]
    pub weapon: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run<R: Ruleset>(args: &OddsArgs, ctx: &Invocation<'_>) -> Result<()> {
    let target = args.target.name::<R>()?;
    let cond = ctx.setting.conditions::<R>()?;
    let options = ctx.setting.options::<R>()?;
    let cat = ctx.setting.catalogue.load::<R>()?;
    // Odds are exact values: every float is rounded as one (see `output::number`).
    let mut report =
        R::odds(&cat, &args.attacker, args.weapon.as_deref(), &target, &cond, &options).map_err(|e| anyhow!(e))?;
    report.table.round_exact();
    match args.format.format {
        Format::Json => print_json(&with_options_json(report.json, &options), true),
        Format::Table => {
            write_stdout(&format!("{}\n{}", report.header, options_line(&options)))?;
            print_table(&report.table, Format::Table, 4)
        }
        Format::Csv => print_table(&report.table, Format::Csv, 4),
    }
}
