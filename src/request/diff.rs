//! `diff`: one scenario played on an old and a new catalogue, on paired runs.

use std::path::{Path, PathBuf};

use crate::catalogue::Layers;
use crate::engine::Observer;
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::sweep::ScenarioText;
use crate::sweep::diff::{Diff, DiffRow, Side, run_diff};
use crate::sweep::scenario::standard_scenario;

use super::setting::{Setting, TrialRequest};

/// A catalogue diff as the command line asks for it.
#[derive(Debug, Clone)]
pub struct DiffRequest {
    /// The old and the new catalogue: a directory (or its `<ruleset>/` subdirectory) or
    /// one file each.
    pub old: PathBuf,
    pub new: PathBuf,
    /// A scenario file or built-in name; `None` = the ruleset's standard scenario.
    pub scenario: Option<String>,
    pub trials: TrialRequest,
    /// Only the rows that changed ([`changed`]); the summary is made of every row.
    pub changed: bool,
}

/// The relative size of a change below which it is float noise, not a change.
pub use crate::sweep::diff::NOISE;

/// Whether a row changed: a value appeared or disappeared, or the difference is more
/// than float noise ([`NOISE`] relative to the larger value). Rows with no value on
/// either side, and differences of float noise, did not change.
pub fn changed(row: &DiffRow) -> bool {
    match (row.old, row.new) {
        (None, None) => false,
        (Some(o), Some(n)) => (n - o).abs() > NOISE * o.abs().max(n.abs()),
        _ => true,
    }
}

/// One side's catalogue: `path`, the setting's additions and the scenario's
/// `loadouts_add`.
fn load<R: Ruleset>(path: &Path, setting: &Setting, extra: &[PathBuf]) -> Result<R::Catalogue> {
    let mut layers = Layers::base(Some(path), R::NAME);
    let adds: Vec<PathBuf> = setting.catalogue.additions.iter().chain(extra).cloned().collect();
    if !adds.is_empty() {
        layers.add(&adds);
    }
    layers.load(R::load).map_err(|e| Error::caused(format!("cannot use the catalogue {}", path.display()), e))
}

/// Resolve and run a diff: its rows, per build and weapon, in the scenario's order, and
/// its per-build summary, ranked.
///
/// # Errors
/// (failure) A scenario that does not parse or match either catalogue, a catalogue that
/// does not load, catalogues whose selections differ, a cancelled run; (usage) trial
/// settings out of range.
pub fn diff<R: Ruleset>(setting: &Setting, req: &DiffRequest, observer: &dyn Observer) -> Result<Diff> {
    let spec = req.scenario.clone().unwrap_or_else(|| standard_scenario(R::NAME));
    // Errors of the file and its unknown names (in the old catalogue) are reported together.
    let scenario = ScenarioText::load(&spec)?.parse_with_names::<R>(|add| load::<R>(&req.old, setting, add).ok())?;
    let old = load::<R>(&req.old, setting, &scenario.loadouts_add)?;
    let new = load::<R>(&req.new, setting, &scenario.loadouts_add)?;
    let config = req.trials.config_over(scenario.seed, scenario.trials)?;
    let resolve = |cat: &R::Catalogue, which: &Path| {
        scenario.resolve::<R>(cat).map_err(|e| {
            Error::caused(format!("scenario {} does not match the catalogue {}", scenario.file, which.display()), e)
        })
    };
    let (ro, rn) = (resolve(&old, &req.old)?, resolve(&new, &req.new)?);
    let mut diff = run_diff::<R>(
        &scenario,
        Side { catalogue: &old, resolved: &ro },
        Side { catalogue: &new, resolved: &rn },
        &config,
        observer,
    )?;
    if req.changed {
        diff.rows.retain(changed);
    }
    Ok(diff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::axis::Point;

    fn row(old: Option<f64>, new: Option<f64>) -> DiffRow {
        DiffRow {
            build: "b".into(),
            weapon: None,
            against: "t".into(),
            point: Point::new(&[], &[]).expect("the empty point"),
            metric: "p_kill",
            method: "exact",
            old,
            new,
            difference: old.zip(new).map(|(o, n)| n - o),
            difference_ci95: None,
            trials: None,
            changed_trials: None,
        }
    }

    #[test]
    fn noise_and_rows_without_values_are_not_changes() {
        // Was: `--changed` kept 940 float-noise rows and 539 null-against-null rows.
        assert!(!changed(&row(None, None)));
        assert!(!changed(&row(Some(0.3), Some(0.3 + 1e-16))));
        assert!(!changed(&row(Some(2.0), Some(2.0))));
        assert!(changed(&row(Some(0.3), Some(0.31))));
        assert!(changed(&row(Some(0.0), Some(1e-12))), "a change from 0 is a change");
        assert!(changed(&row(None, Some(0.5))) && changed(&row(Some(0.5), None)));
    }
}
