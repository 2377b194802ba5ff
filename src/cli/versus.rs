//! What `compare` and `gauntlet` play against: a field, targets, or a scenario's.

use anyhow::{Result, anyhow, bail};

use super::args::CatalogArgs;
use crate::rules::techcommander::Conditions;
use crate::rules::techcommander::catalogue::Catalogue;
use crate::sweep::cells::expand;
use crate::sweep::{Engagement, Scenario};

/// A field: a named `[[field]]` of the catalogue, or builds separated by commas (equal
/// weights). Returns (build, weight) pairs.
pub fn resolve_field(catalogue: &Catalogue, field: &str) -> Result<Vec<(String, f64)>> {
    if let Some(f) = catalogue.field(field) {
        return Ok(f.opponents.iter().map(|&(b, w)| (catalogue.builds[b].name.clone(), w)).collect());
    }
    let mut out: Vec<(String, f64)> = Vec::new();
    for name in field.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match catalogue.find_build(name) {
            Ok(b) => out.push((b.name.clone(), 1.0)),
            Err(e) if !field.contains(',') => {
                let fields: Vec<&str> = catalogue.fields.iter().map(|f| f.name.as_str()).collect();
                bail!(
                    "`{field}` is neither a field of the catalogue ({}) nor a build: {e}",
                    if fields.is_empty() { "none".into() } else { fields.join(", ") }
                )
            }
            Err(e) => bail!(e),
        }
    }
    if out.is_empty() {
        bail!("the field is empty");
    }
    Ok(out)
}

/// The active catalogue, extended by the scenario's `loadouts_add` when a scenario is
/// given (as `volley sweep` does), so builds defined in those additions can be named.
///
/// # Errors
/// The scenario cannot be read, or the catalogue (with its additions) is invalid.
pub fn catalogue_for(catalog: &CatalogArgs, scenario: Option<&str>) -> Result<Catalogue> {
    match scenario {
        Some(path) => catalog.load_adding(&Scenario::load(path)?.loadouts_add),
        None => catalog.load(),
    }
}

/// A scenario, its expanded grid, and its opponents (duel) or targets (attack run).
pub type ScenarioParts = (Scenario, Vec<Conditions>, Vec<String>, Vec<crate::rules::techcommander::TargetSpec>);

/// A scenario's grid and, resolved against the catalogue, its opponents (duel) or targets.
pub fn scenario_parts(catalogue: &Catalogue, path: &str) -> Result<ScenarioParts> {
    let scenario = Scenario::load(path)?;
    let resolved = scenario.resolve(catalogue).map_err(|e| anyhow!(e))?;
    let grid = expand(&scenario.grid);
    let (opponents, targets) = match scenario.engagement {
        Engagement::Duel => (resolved.opponents, Vec::new()),
        Engagement::AttackRun => (Vec::new(), resolved.targets),
    };
    Ok((scenario, grid, opponents, targets))
}
