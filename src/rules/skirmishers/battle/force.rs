//! Squad-fight forces (§4 "Squad fight at equal PV"): a catalogue `[[squad]]` or text
//! (`2*Rifleman+Grenadier`) resolved into troopers, fielded to the budget and checked
//! for equal PV.
//!
//! Fielding (option `SQUAD_BUDGET`): at 0 (default) every force is played as written.
//! Above 0 the budget is the doc's "budget": a force of one trooper kind fields
//! floor(budget / unit PV) of them whatever count was written, and a mixed roster is
//! played as written and must be within the budget.
//!
//! Equal PV (Ruling `SQUAD_EQUAL_PV`, option `SQUAD_PV_TOLERANCE`, percent, default 10):
//! the section fights "at equal PV"; two fielded forces whose PVs differ by more than
//! the tolerance (percent of the larger) are refused, the error naming both PVs.

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::MAX_UNITS;

use super::super::catalogue::Catalogue;
use super::super::options::Options;
use super::super::trooper::Trooper;

/// A force ready to fight: its troopers in roster order.
#[derive(Debug, Clone, PartialEq)]
pub struct Roster {
    pub name: String,
    pub troopers: Vec<Trooper>,
    /// Sum of the troopers' PV.
    pub pv: u32,
}

/// The catalogue's squads as forces (their names select them on the command line).
pub fn squads_as_forces(cat: &Catalogue) -> Vec<ForceSpec> {
    cat.squads
        .iter()
        .map(|s| ForceSpec {
            name: s.name.clone(),
            members: s
                .members
                .iter()
                .map(|(i, n)| crate::catalogue::force::Member::new(cat.troopers[*i].name.clone(), *n))
                .collect(),
            budget: None,
            position: None,
            file: cat.origin.clone(),
        })
        .collect()
}

/// Resolve `f`'s members into troopers and field it to `budget` (0: as written).
///
/// # Errors
/// An unknown trooper, an empty force, a mixed roster over the budget, or a one-kind
/// force whose unit PV exceeds the budget.
pub fn resolve(cat: &Catalogue, f: &ForceSpec, budget: u32) -> Result<Roster, String> {
    let mut kinds: Vec<(Trooper, u32)> = Vec::new();
    for m in &f.members {
        if !m.passengers.is_empty() {
            return Err(format!("force `{}`: `{}` carries passengers; Skirmishers squads have none", f.name, m.build));
        }
        let t = cat.trooper(&m.build).map_err(|e| format!("force `{}`: {e}", f.name))?;
        kinds.push((t.clone(), m.count));
    }
    let one_kind = kinds.iter().all(|(t, _)| t.name == kinds[0].0.name);
    if budget > 0 && one_kind && !kinds.is_empty() {
        let t = kinds[0].0.clone();
        let n = budget.checked_div(t.pv).unwrap_or(0);
        if n == 0 {
            return Err(format!(
                "force `{}`: {} costs {} PV, more than the budget of {budget} (or 0 PV: cannot fill a budget)",
                f.name, t.name, t.pv
            ));
        }
        kinds = vec![(t, n)];
    }
    let troopers: Vec<Trooper> = kinds.iter().flat_map(|(t, n)| std::iter::repeat_n(t.clone(), *n as usize)).collect();
    if troopers.is_empty() {
        return Err(format!("force `{}` has no trooper", f.name));
    }
    let pv = troopers.iter().map(|t| t.pv).sum::<u32>();
    if budget > 0 && pv > budget {
        return Err(format!("force `{}` costs {pv} PV, over the budget of {budget} by {}", f.name, pv - budget));
    }
    Ok(Roster { name: f.name.clone(), troopers, pv })
}

/// Check two rosters for equal PV (Ruling `SQUAD_EQUAL_PV`) and the unit cap.
///
/// # Errors
/// PVs further apart than `SQUAD_PV_TOLERANCE` percent of the larger, or more than
/// [`MAX_UNITS`] troopers in all.
pub fn check_pair(a: &Roster, b: &Roster, o: &Options) -> Result<(), String> {
    let n = a.troopers.len() + b.troopers.len();
    if n > MAX_UNITS {
        return Err(format!("a squad fight plays at most {MAX_UNITS} troopers in all, got {n}"));
    }
    let tol = o.int("SQUAD_PV_TOLERANCE") as u64;
    let (hi, lo) = (a.pv.max(b.pv) as u64, a.pv.min(b.pv) as u64);
    if (hi - lo) * 100 > tol * hi {
        return Err(format!(
            "a squad fight is at equal PV: `{}` has {} PV and `{}` has {} PV, {:.1}% apart (SQUAD_PV_TOLERANCE={tol}%; set SQUAD_BUDGET to field both to one budget, or raise the tolerance)",
            a.name,
            a.pv,
            b.name,
            b.pv,
            (hi - lo) as f64 * 100.0 / hi as f64
        ));
    }
    Ok(())
}
