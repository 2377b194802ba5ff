//! `volley catalog`: list the active catalogue.

use anyhow::Result;
use clap::Args;

use super::args::FormatArgs;
use super::usage::usage;
use super::{Invocation, print_table};
use crate::rules::Ruleset;

#[derive(Debug, Args)]
pub struct CatalogListArgs {
    /// What to list: TechCommander builds (default), weapons, units, gear, fields, forces;
    /// MECHCOM mechs (default), weapons, pilots, squads, fields, forces; Skirmishers
    /// troopers (default), weapons, squads, forces; Shellshock units (default), weapons,
    /// charts, fields
    #[arg(value_name = "WHAT")]
    pub what: Option<String>,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run<R: Ruleset>(args: &CatalogListArgs, ctx: &Invocation<'_>) -> Result<()> {
    let what = args.what.as_deref().unwrap_or(R::listings()[0]);
    if !R::listings().contains(&what) {
        return Err(usage(format!("{} catalogues list {}, not `{what}`", R::NAME, R::listings().join(", "))));
    }
    let cat = ctx.setting.catalogue.load::<R>()?;
    let table = R::listing(&cat, what).map_err(usage)?;
    print_table(&table, args.format.format, 2)
}
