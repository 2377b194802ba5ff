//! `volley validate`: check catalogue files.

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, ValueHint};

use super::Invocation;
use crate::catalogue::source;
use crate::rules::Ruleset;

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// Catalogue files or directories to check (default: the active catalogue). Files that
    /// define every name they use are checked as a catalogue of their own (as --loadouts
    /// uses them); files that use names they do not define are checked as additions to the
    /// active catalogue (as --add-loadouts uses them)
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
}

pub fn run<R: Ruleset>(args: &ValidateArgs, ctx: &Invocation<'_>) -> Result<()> {
    let catalog = ctx.catalog();
    let cat = if args.paths.is_empty() {
        catalog.load::<R>()?
    } else {
        let (files, read_errors) = source::read_all(&args.paths);
        let alone = || R::load(&source::origin_of(&args.paths), &files, read_errors.clone());
        if read_errors.is_empty() && R::refers_to_undefined(&files) {
            let mut layers = catalog.layers::<R>();
            layers.add(&args.paths);
            match layers.load(R::load) {
                Ok(cat) => cat,
                // Both readings fail: show the one that explains the files with fewer errors.
                Err(added) => match alone() {
                    Err(own) if own.0.len() < added.0.len() => {
                        return Err(anyhow::Error::new(own).context("checked as a catalogue of their own"));
                    }
                    _ => {
                        let context = format!("checked as additions to the {}", catalog.layers::<R>().origin());
                        return Err(anyhow::Error::new(added).context(context));
                    }
                },
            }
        } else {
            alone()?
        }
    };
    let (origin, _) = R::origin(&cat);
    super::write_stdout(&format!("OK: {} ({origin})\n", R::counts(&cat)))
}
