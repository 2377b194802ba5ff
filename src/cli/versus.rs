//! What `compare` and `gauntlet` play against: a field, targets, or a scenario's.

use anyhow::{Result, anyhow};

use super::args::CatalogArgs;
use super::usage::usage;
use crate::catalogue::force::ForceSpec;
use crate::rules::axis::Point;
use crate::rules::kit::names;
use crate::rules::sides;
use crate::rules::{Role, Ruleset};
use crate::sweep::forces::named_force;
use crate::sweep::run::all_specs;
use crate::sweep::{Engagement, Scenario, ScenarioText};

/// A field: a named field of the catalogue (any case; its weights), or selectors
/// separated by commas (`all`, the ruleset's `kind:`/`faction:`/`era:`/`squad:` forms, or
/// names; equal weights), read as scenario files read them ([`sides::field`]). Returns
/// (name, weight) pairs, names as the catalogue spells them.
///
/// # Errors
/// (usage) An unknown field, name or selector, or a selector that selects nothing.
pub fn resolve_field<R: Ruleset>(catalogue: &R::Catalogue, field: &str) -> Result<Vec<(String, f64)>> {
    let f = sides::field::<R>(catalogue, field).map_err(usage)?;
    Ok(f.into_iter().map(|w| (w.name, w.weight)).collect())
}

/// The sides a list of selectors picks (gauntlet and fit builds, compare targets), each
/// once, in the order given, as the catalogue spells them ([`sides::sides`]).
///
/// # Errors
/// (usage) A name or selector that is malformed, unknown or selects nothing.
pub fn resolve_sides<R: Ruleset>(catalogue: &R::Catalogue, role: Role, selectors: &[String]) -> Result<Vec<String>> {
    for s in selectors {
        R::check_name(role, s).map_err(usage)?;
    }
    sides::sides::<R>(catalogue, role, selectors).map_err(usage)
}

/// The active catalogue, extended by the scenario's `loadouts_add` when a scenario is
/// given (as `volley sweep` does), so names defined in those additions can be used.
///
/// # Errors
/// The scenario cannot be read, or the catalogue (with its additions) is invalid.
pub fn catalogue_for<R: Ruleset>(catalog: &CatalogArgs, scenario: Option<&str>) -> Result<R::Catalogue> {
    match scenario {
        Some(path) => catalog.load_adding::<R>(&ScenarioText::load(path)?.loadouts_add::<R>()?),
        None => catalog.load::<R>(),
    }
}

/// The source files of the catalogue [`catalogue_for`] loads (saved in reports).
///
/// # Errors
/// A scenario that cannot be read or parsed.
pub fn catalogue_files_for<R: Ruleset>(
    catalog: &CatalogArgs,
    scenario: Option<&str>,
) -> Result<Vec<crate::catalogue::source::SourceFile>> {
    let mut layers = catalog.layers::<R>();
    if let Some(path) = scenario {
        let extra = ScenarioText::load(path)?.loadouts_add::<R>()?;
        if !extra.is_empty() {
            layers.add(&extra);
        }
    }
    Ok(layers.files().to_vec())
}

/// A scenario, its expanded grid, and its opponents (duel) or targets (attack run).
pub type ScenarioParts = (Scenario, Vec<Point>, Vec<String>, Vec<String>);

/// Refuse a scenario with a `[vary]` table: compare, gauntlet and fit play one catalogue,
/// and playing it while the scenario asks for several would answer another question.
///
/// # Errors
/// A usage error naming the scenario and what to run instead.
pub fn refuse_vary(scenario: &Scenario) -> Result<()> {
    if scenario.vary.is_empty() {
        return Ok(());
    }
    Err(usage(format!(
        "scenario {} varies catalogue stats ([vary]): compare, gauntlet and fit play one catalogue. Run \
         `volley sweep` on it for the sensitivity sweep, or write the value into a catalogue (--add-loadouts)",
        scenario.file
    )))
}

/// A scenario's grid and, resolved against the catalogue, its opponents (duel) or targets.
///
/// # Errors
/// An unreadable scenario, one that does not match the catalogue, or (usage) one with a
/// `[vary]` table: the commands that take a scenario this way play one catalogue.
pub fn scenario_parts<R: Ruleset>(catalogue: &R::Catalogue, path: &str) -> Result<ScenarioParts> {
    // Errors of the file and its unknown names are reported together.
    let scenario = ScenarioText::load(path)?.parse_resolving::<R>(catalogue)?;
    refuse_vary(&scenario)?;
    let resolved = scenario.resolve::<R>(catalogue).map_err(|e| anyhow!(e))?;
    let grid = scenario.grid.expand(&all_specs::<R>(), &[]).map_err(|e| anyhow!(e.join("; ")))?;
    let (opponents, targets) = match scenario.engagement {
        Engagement::Duel => (resolved.opponents, Vec::new()),
        Engagement::AttackRun => (Vec::new(), resolved.targets),
        // a battle scenario lends its grid; its forces are not duel sides
        Engagement::Battle => (Vec::new(), Vec::new()),
    };
    Ok((scenario, grid, opponents, targets))
}

/// A field of forces: a catalogue [[field]] (each opponent a one-unit force, its weight
/// kept), or forces separated by commas (equal weights), each a [[force]] name or builds
/// joined by `+`.
///
/// A name that is both a force and a field (a Skirmishers squad) is the force.
pub fn battle_field<R: Ruleset>(cat: &R::Catalogue, text: &str, flag: &str) -> Result<Vec<(ForceSpec, f64)>> {
    if let Some(f) = R::forces(cat).into_iter().find(|f| names::same(&f.name, text)) {
        return Ok(vec![(f, 1.0)]);
    }
    if let Ok(f) = R::field(cat, text) {
        return f
            .into_iter()
            .map(|w| ForceSpec::parse(&w.name).map(|f| (f, w.weight)).map_err(|e| usage(format!("{flag}: {e}"))))
            .collect();
    }
    let out: Vec<(ForceSpec, f64)> = text
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|f| named_force::<R>(cat, f).map(|f| (f, 1.0)).map_err(|e| usage(format!("{flag}: force `{f}`: {e}"))))
        .collect::<Result<_>>()?;
    if out.is_empty() {
        return Err(usage(format!("{flag}: the field is empty")));
    }
    Ok(out)
}
