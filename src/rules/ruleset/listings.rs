//! The listings of `volley catalog` that every game with forces or fields shares, built
//! from its [`Catalogue`] methods.

use crate::catalogue::force::Member;
use crate::output::{Cell, Table};

use super::Catalogue;

/// The catalogue's named forces as `volley catalog forces` lists them: name, members
/// (`2*Kerberos+Pythia`, passengers in brackets), units (passengers included), points
/// (the members' [`Catalogue::points`], empty when a member is not priced) and the force's
/// own budget (empty when it names none).
pub fn forces_table<R: Catalogue>(cat: &R::Catalogue) -> Table {
    let mut t = Table::new(["name", "members", "units", "points", "budget"]);
    for f in R::forces(cat) {
        let text = |m: &Member| if m.count == 1 { m.build.clone() } else { format!("{}*{}", m.count, m.build) };
        let members: Vec<String> = f
            .members
            .iter()
            .map(|m| match m.passengers.as_slice() {
                [] => text(m),
                p => format!("{}[{}]", text(m), p.iter().map(text).collect::<Vec<_>>().join("+")),
            })
            .collect();
        let points = f.members.iter().try_fold(0.0, |sum, m| {
            let own = R::points(cat, &m.build).ok()?;
            let aboard =
                m.passengers.iter().try_fold(0.0, |s, p| Some(s + p.count as f64 * R::points(cat, &p.build).ok()?))?;
            Some(sum + m.count as f64 * (own + aboard))
        });
        t.push(vec![
            f.name.as_str().into(),
            members.join("+").into(),
            f.size().into(),
            points.map_or(Cell::Null, Cell::from),
            f.budget.map_or(Cell::Null, Cell::from),
        ]);
    }
    t
}

/// The catalogue's named fields as `volley catalog fields` lists them: one row per
/// opponent (field, opponent, weight), fields and opponents in catalogue order.
pub fn fields_table<R: Catalogue>(cat: &R::Catalogue) -> Table {
    let mut t = Table::new(["field", "opponent", "weight"]);
    for name in R::field_names(cat) {
        for w in R::field(cat, &name).unwrap_or_default() {
            t.push(vec![name.as_str().into(), w.name.into(), w.weight.into()]);
        }
    }
    t
}
