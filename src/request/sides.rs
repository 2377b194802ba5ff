//! Who plays whom: fields, sides, forces and a scenario's parts, read from the names and
//! selectors a command was given (the same forms scenario files accept), and the
//! catalogue and scenario a command reads.

use std::path::{Path, PathBuf};

use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::error::{Error, Result};
use crate::rules::axis::Point;
use crate::rules::kit::names;
use crate::rules::sides;
use crate::rules::{Role, Ruleset};
use crate::sweep::forces::named_force;
use crate::sweep::run::all_specs;
use crate::sweep::{Engagement, Scenario, ScenarioText};

use super::setting::CatalogueSource;

/// A field: a named field of the catalogue (any case; its weights), or selectors
/// separated by commas (`all`, the ruleset's `kind:`/`faction:`/`era:`/`squad:` forms, or
/// names; equal weights), read as scenario files read them ([`sides::field`]). Returns
/// (name, weight) pairs, names as the catalogue spells them.
///
/// # Errors
/// (usage) An unknown field, name or selector, or a selector that selects nothing.
pub fn resolve_field<R: Ruleset>(catalogue: &R::Catalogue, field: &str) -> Result<Vec<(String, f64)>> {
    let f = sides::field::<R>(catalogue, field).map_err(Error::usage)?;
    Ok(f.into_iter().map(|w| (w.name, w.weight)).collect())
}

/// The sides a list of selectors picks (gauntlet and fit builds, compare targets), each
/// once, in the order given, as the catalogue spells them ([`sides::sides`]).
///
/// # Errors
/// (usage) A name or selector that is malformed, unknown or selects nothing.
pub fn resolve_sides<R: Ruleset>(catalogue: &R::Catalogue, role: Role, selectors: &[String]) -> Result<Vec<String>> {
    for s in selectors {
        R::check_name(role, s).map_err(Error::usage)?;
    }
    sides::sides::<R>(catalogue, role, selectors).map_err(Error::usage)
}

/// A named force of the catalogue or builds joined by `+`.
///
/// # Errors
/// (usage) An unknown force or build.
pub fn resolve_force<R: Ruleset>(catalogue: &R::Catalogue, text: &str) -> Result<ForceSpec> {
    named_force::<R>(catalogue, text).map_err(|e| Error::usage(format!("force `{text}`: {e}")))
}

/// A field of forces: a catalogue [[field]] (each opponent a one-unit force, its weight
/// kept), or forces separated by commas (equal weights), each a [[force]] name or builds
/// joined by `+`. `flag` names the argument in messages.
///
/// A name that is both a force and a field (a Skirmishers squad) is the force.
///
/// # Errors
/// (usage) An unknown force or build, or an empty field.
pub fn battle_field<R: Ruleset>(cat: &R::Catalogue, text: &str, flag: &str) -> Result<Vec<(ForceSpec, f64)>> {
    if let Some(f) = R::forces(cat).into_iter().find(|f| names::same(&f.name, text)) {
        return Ok(vec![(f, 1.0)]);
    }
    if let Ok(f) = R::field(cat, text) {
        return f
            .into_iter()
            .map(|w| ForceSpec::parse(&w.name).map(|f| (f, w.weight)).map_err(|e| Error::usage(format!("{flag}: {e}"))))
            .collect();
    }
    let out: Vec<(ForceSpec, f64)> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|f| {
            named_force::<R>(cat, f).map(|f| (f, 1.0)).map_err(|e| Error::usage(format!("{flag}: force `{f}`: {e}")))
        })
        .collect::<Result<_>>()?;
    if out.is_empty() {
        return Err(Error::usage(format!("{flag}: the field is empty")));
    }
    Ok(out)
}

/// What a command reads besides its arguments: the catalogue with the files it was
/// loaded from, and the scenario's file name and text (a merge takes them from the
/// shards, not from disk).
pub struct Sources<C> {
    pub catalogue: C,
    /// How messages name the catalogue.
    pub origin: String,
    /// The catalogue's files (saved in reports).
    pub files: Vec<SourceFile>,
    /// The scenario: the file as named and its text.
    pub scenario: Option<(String, String)>,
    /// Every path read (catalogue directories and files, the scenario file): an output
    /// must not replace or change them.
    pub inputs: Vec<PathBuf>,
}

impl<C> Sources<C> {
    /// The scenario's file name and text, empty without one.
    pub fn scenario_record(&self) -> (String, String) {
        self.scenario.clone().unwrap_or_default()
    }
}

/// The catalogue of `source`, extended by the scenario's `loadouts_add` when a scenario
/// is given; the scenario is read once.
///
/// # Errors
/// (failure) A scenario that cannot be read or parsed, a catalogue that does not load.
pub fn sources<R: Ruleset>(source: &CatalogueSource, scenario: Option<&str>) -> Result<Sources<R::Catalogue>> {
    let mut inputs = source.paths();
    let (catalogue, layers, scenario) = match scenario {
        Some(spec) => {
            let text = ScenarioText::load(spec)?;
            let extra = text.loadouts_add::<R>()?;
            let (catalogue, layers) = source.read_adding::<R>(&extra)?;
            inputs.extend(extra);
            inputs.extend(scenario_file(spec));
            (catalogue, layers, Some((text.file, text.text)))
        }
        None => {
            let (catalogue, layers) = source.read_adding::<R>(&[])?;
            (catalogue, layers, None)
        }
    };
    Ok(Sources { catalogue, origin: layers.origin(), files: layers.files().to_vec(), scenario, inputs })
}

/// The scenario file a scenario argument names, when it is a file (not a built-in name).
pub fn scenario_file(spec: &str) -> Option<PathBuf> {
    Path::new(spec).is_file().then(|| PathBuf::from(spec))
}

/// Refuse a scenario with a `[vary]` table: compare, gauntlet and fit play one catalogue,
/// and playing it while the scenario asks for several would answer another question.
///
/// # Errors
/// (usage) Naming the scenario and what to run instead.
fn refuse_vary(scenario: &Scenario) -> Result<()> {
    if scenario.vary.is_empty() {
        return Ok(());
    }
    Err(Error::usage(format!(
        "scenario {} varies catalogue stats ([vary]): compare, gauntlet and fit play one catalogue. Run \
         `volley sweep` on it for the sensitivity sweep, or write the value into a catalogue (--add-loadouts)",
        scenario.file
    )))
}

/// A scenario's grid and its opponents (duel) or targets (attack run).
pub struct ScenarioParts {
    pub scenario: Scenario,
    pub grid: Vec<Point>,
    pub opponents: Vec<String>,
    pub targets: Vec<String>,
}

/// A scenario (file name and text) read against the catalogue: its errors and unknown
/// names reported together, its grid expanded, its opponents or targets resolved.
///
/// # Errors
/// (failure) A scenario that does not parse or does not match the catalogue; (usage)
/// one with a `[vary]` table: the commands that take a scenario this way play one
/// catalogue.
pub fn scenario_parts<R: Ruleset>(catalogue: &R::Catalogue, (file, text): &(String, String)) -> Result<ScenarioParts> {
    let scenario = Scenario::parse_resolving::<R>(file, text, catalogue)?;
    refuse_vary(&scenario)?;
    let resolved = scenario.resolve::<R>(catalogue)?;
    let grid = scenario.grid.expand(&all_specs::<R>(), &[]).map_err(|e| Error::Failure(e.join("; ")))?;
    let (opponents, targets) = match scenario.engagement {
        Engagement::Duel => (resolved.opponents, Vec::new()),
        Engagement::AttackRun => (Vec::new(), resolved.targets),
        // a battle scenario lends its grid; its forces are not duel sides
        Engagement::Battle => (Vec::new(), Vec::new()),
    };
    Ok(ScenarioParts { scenario, grid, opponents, targets })
}
