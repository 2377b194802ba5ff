//! Argument groups shared by several commands, and their conversion to validated types.

use std::path::PathBuf;

use anyhow::Result;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueHint};

use crate::catalogue::Layers;
use crate::output::Format;
use crate::request::CatalogueSource;
use crate::rules::{Role, Ruleset};

use super::usage::usage;

/// The environment variable that names a catalogue directory like `--loadouts`.
const LOADOUTS_ENV: &str = "VOLLEY_LOADOUTS";

/// Which catalogue to use.
#[derive(Debug, Clone, Args)]
pub struct CatalogArgs {
    /// Catalogue directory of .toml/.csv files, replacing the built-in default catalogue
    /// [env: VOLLEY_LOADOUTS; set but empty = not set]
    #[arg(long, global = true, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub loadouts: Option<PathBuf>,
    /// More catalogue files (a directory or a file) added to the active catalogue;
    /// repeatable. They may use its units, weapons and gear; a name defined in both is an
    /// error naming both places
    #[arg(long = "add-loadouts", global = true, value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub add_loadouts: Vec<PathBuf>,
}

impl CatalogArgs {
    /// The base catalogue directory: `--loadouts`, else `VOLLEY_LOADOUTS` when set and not
    /// empty; `None` = the embedded default catalogue.
    fn base_dir(&self) -> Option<PathBuf> {
        self.loadouts.clone().or_else(|| std::env::var_os(LOADOUTS_ENV).filter(|v| !v.is_empty()).map(PathBuf::from))
    }

    /// The catalogue these arguments name, for the library.
    pub fn source(&self) -> CatalogueSource {
        CatalogueSource { base: self.base_dir(), additions: self.add_loadouts.clone(), adhoc: Vec::new() }
    }

    /// The active catalogue's files of ruleset `R`: the base and the `--add-loadouts`
    /// additions.
    pub fn layers<R: Ruleset>(&self) -> Layers {
        self.source().layers::<R>()
    }

    /// The active catalogue: `--loadouts`/`VOLLEY_LOADOUTS`, else the embedded default,
    /// extended by `--add-loadouts`.
    ///
    /// # Errors
    /// A catalogue that does not load.
    pub fn load<R: Ruleset>(&self) -> Result<R::Catalogue> {
        Ok(self.source().load::<R>()?)
    }
}

/// The target: a name from the catalogue, or a ruleset's generic target.
#[derive(Debug, Clone, Args)]
#[group(required = true, multiple = false)]
pub struct TargetArgs {
    /// Target from the catalogue (TechCommander: a unit, a build, build:NAME or ac:N;
    /// MECHCOM: a mech, or MECH+PILOT)
    #[arg(long, value_name = "NAME")]
    pub target: Option<String>,
    /// TechCommander: a generic target of this armor class (20 life, no gear), as --target ac:N
    #[arg(long, value_name = "AC", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub target_ac: Option<u32>,
}

impl TargetArgs {
    /// The target's name as the ruleset reads it.
    ///
    /// # Errors
    /// A usage error ([`crate::error::Error::Usage`]) for a malformed name.
    pub fn name<R: Ruleset>(&self) -> Result<String> {
        let name = match (&self.target, self.target_ac) {
            (Some(name), _) => name.clone(),
            (None, Some(ac)) => format!("ac:{ac}"),
            (None, None) => return Err(usage("give --target NAME or --target-ac N")),
        };
        R::check_name(Role::Target, &name).map_err(usage)?;
        Ok(name)
    }
}

/// Output format on stdout.
#[derive(Debug, Clone, Args)]
pub struct FormatArgs {
    /// Output format: aligned table, CSV, or JSON
    #[arg(long, default_value = "table", value_parser = PossibleValuesParser::new(Format::NAMES).map(|s| s.parse::<Format>().expect("a listed name parses")))]
    pub format: Format,
}
