//! `volley validate`: check catalogue files.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueHint};

use super::args::CatalogArgs;
use crate::catalogue::source;
use crate::rules::techcommander::catalogue::Catalogue;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Catalogue files or directories to check (default: the active catalogue). Files that
    /// define every name they use are checked as a catalogue of their own (as --loadouts
    /// uses them); files that use names they do not define are checked as additions to the
    /// active catalogue (as --add-loadouts uses them)
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
}

pub fn run(args: &ValidateArgs, catalog: &CatalogArgs) -> Result<()> {
    let cat = if args.paths.is_empty() {
        catalog.load()?
    } else {
        let (files, read_errors) = source::read_all(&args.paths);
        let alone = || Catalogue::from_read(&source::origin_of(&args.paths), &files, read_errors.clone());
        if read_errors.is_empty() && Catalogue::refers_to_undefined(&files) {
            let mut layers = catalog.layers();
            layers.add(&args.paths);
            match layers.load(Catalogue::from_read) {
                Ok(cat) => cat,
                // Both readings fail: show the one that explains the files with fewer errors.
                Err(added) => match alone() {
                    Err(own) if own.0.len() < added.0.len() => {
                        return Err(anyhow::Error::new(own).context("checked as a catalogue of their own"));
                    }
                    _ => {
                        let context = format!("checked as additions to the {}", catalog.layers().origin());
                        return Err(anyhow::Error::new(added).context(context));
                    }
                },
            }
        } else {
            alone()?
        }
    };
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
