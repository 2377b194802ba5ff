//! Battle forces at equal ECV (shellshock.md §4 "ECV", §5 "Force vs force at equal
//! ECV"): a catalogue `[[force]]` or text (`Jagdpanther+3*Panzer IV`) resolved into
//! units, and the two forces checked against their budgets and each other.
//!
//! The book: "Typically, both sides should have the same ECV", totalled after prepping,
//! and "you do not have to have equal sides". It gives no budget and no tolerance, so
//! (Ruling `ECV_BUDGET`, `ECV_TOLERANCE`, options):
//! - A force's budget is its own `budget` key, else `ECV_BUDGET` when above 0, else the
//!   larger of the two forces' ECV (the forces as written set the budget).
//! - A force over its budget is refused, naming the force and the excess.
//! - A force under its budget by more than `ECV_TOLERANCE` percent of the budget is
//!   refused, naming the force and the shortfall; and two forces whose ECVs differ by
//!   more than `ECV_TOLERANCE` percent of the larger are refused. The default 0 reads
//!   the book's "the same ECV" literally; 100 allows the book's unequal historical sides.
//! - Forces are played as written: the book has no rule that fills a side with copies,
//!   so the rules document's "fills each side up to the budget" is read as "spends up to
//!   the budget" (where the two differ, the book wins), and the two totals are
//!   reported.
//! - A unit's `ecv` is the prepped card's total (unit, crew and components: the book's
//!   "total ECV of your army after all units have been prepped"); volley never derives
//!   one (`ECV_FROM_CARD`).

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::MAX_UNITS;

use super::super::catalogue::Catalogue;
use super::super::options::Options;
use super::super::unit::Unit;

/// A force ready to fight: its units in listing order.
#[derive(Debug, Clone, PartialEq)]
pub struct Roster {
    pub name: String,
    pub units: Vec<Unit>,
    /// Sum of the units' ECV.
    pub ecv: f64,
    /// The force's own budget, if it names one.
    pub budget: Option<f64>,
}

/// Resolve `f`'s members into units, in written order.
///
/// # Errors
/// An unknown unit (with the nearest), passengers, or an empty force.
pub fn resolve(cat: &Catalogue, f: &ForceSpec) -> Result<Roster, String> {
    let mut units = Vec::new();
    for m in &f.members {
        if !m.passengers.is_empty() {
            return Err(format!("force `{}`: `{}` carries passengers; Shellshock forces have none", f.name, m.build));
        }
        let u = cat.unit(&m.build).map_err(|e| format!("force `{}`: {e}", f.name))?;
        units.extend(std::iter::repeat_n(u.clone(), m.count as usize));
    }
    if units.is_empty() {
        return Err(format!("force `{}` has no unit", f.name));
    }
    let ecv = units.iter().map(|u| u.ecv).sum();
    Ok(Roster { name: f.name.clone(), units, ecv, budget: f.budget })
}

/// Rounding slack for sums of catalogue ECVs (numbers with a few decimals).
const SLACK: f64 = 1e-9;

/// Check two forces against their budgets and each other (module docs); returns each
/// side's budget.
///
/// # Errors
/// A force over its budget (naming it and the excess), under it by more than
/// `ECV_TOLERANCE` (naming it and the shortfall), two forces further apart than
/// `ECV_TOLERANCE`, or more than [`MAX_UNITS`] units in all.
pub fn check_pair(a: &Roster, b: &Roster, o: &Options) -> Result<[f64; 2], String> {
    let n = a.units.len() + b.units.len();
    if n > MAX_UNITS {
        return Err(format!("a Shellshock battle plays at most {MAX_UNITS} units in all, got {n}"));
    }
    let tol = f64::from(o.ecv_tolerance());
    let larger = a.ecv.max(b.ecv);
    let mut budgets = [0.0; 2];
    for (i, r) in [a, b].into_iter().enumerate() {
        let budget = r.budget.or(o.ecv_budget()).unwrap_or(larger);
        budgets[i] = budget;
        let scale = budget.max(1.0);
        if r.ecv > budget + SLACK * scale {
            return Err(format!(
                "force `{}` costs {} ECV, over its budget of {} ECV by {}",
                r.name,
                num(r.ecv),
                num(budget),
                num(r.ecv - budget)
            ));
        }
        if (budget - r.ecv) * 100.0 > tol * budget + SLACK * scale {
            return Err(format!(
                "force `{}` costs {} ECV, under its budget of {} ECV by {} ({:.1}%; ECV_TOLERANCE={tol}%: a battle is at equal ECV, §5)",
                r.name,
                num(r.ecv),
                num(budget),
                num(budget - r.ecv),
                (budget - r.ecv) * 100.0 / budget
            ));
        }
    }
    let (hi, lo) = (larger, a.ecv.min(b.ecv));
    if (hi - lo) * 100.0 > tol * hi + SLACK * hi.max(1.0) {
        return Err(format!(
            "a Shellshock battle is at equal ECV: `{}` has {} ECV and `{}` has {} ECV, {} apart (ECV_TOLERANCE={tol}%)",
            a.name,
            num(a.ecv),
            b.name,
            num(b.ecv),
            num(hi - lo)
        ));
    }
    Ok(budgets)
}

/// An ECV as people write it: no trailing `.0`, at most three decimals.
fn num(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r == r.trunc() { format!("{}", r as i64) } else { format!("{r}") }
}
