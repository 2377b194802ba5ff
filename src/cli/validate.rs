//! `volley validate`: check catalogue files.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueHint};

use super::args::CatalogArgs;
use crate::model::Catalogue;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Catalogue files or directories to check (default: the active catalogue)
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &ValidateArgs, catalog: &CatalogArgs) -> Result<()> {
    let cat = if args.paths.is_empty() { catalog.load()? } else { Catalogue::load(&args.paths)? };
    super::write_stdout(&format!(
        "OK: {} weapons, {} units, {} gear, {} builds, {} fields ({})\n",
        cat.weapons.len(),
        cat.units.len(),
        cat.gear.len(),
        cat.builds.len(),
        cat.fields.len(),
        cat.origin
    ))
}
