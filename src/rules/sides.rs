//! What every command resolves through the ruleset boundary, the same for the command
//! line and for scenario files: the sides selectors pick ([`sides`]), fields of weighted
//! opponents ([`field`]), and the forces and fields listings of `volley catalog`. Built on
//! the kit's selector reader ([`super::kit::select`]) and [`super::Ruleset`]; it stands
//! above the kit, so the kit names no boundary type.

use super::kit::names;
use crate::catalogue::force::Member;
use crate::output::{Cell, Table};
use crate::rules::ruleset::{Role, Ruleset, Weighted};

/// The names `selectors` pick in `role`, each selector's in catalogue order, each name
/// once (first place kept), as the catalogue spells them.
///
/// # Errors
/// The first selector that is unknown or selects nothing (named in the message).
pub fn sides<R: Ruleset>(cat: &R::Catalogue, role: Role, selectors: &[impl AsRef<str>]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for s in selectors {
        let s = s.as_ref();
        let picked = R::select(cat, role, s)?;
        if picked.is_empty() {
            return Err(format!("`{}` selects nothing", s.trim()));
        }
        for n in picked {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    Ok(out)
}

/// A field of opponents: a named field of the catalogue (any case; its weights kept), or
/// selectors separated by commas, each selected opponent weighted 1 (once, however many
/// selectors pick it).
///
/// # Errors
/// An empty text, or a selector that is unknown or selects nothing; a single word that
/// is neither a field nor a selector says both.
pub fn field<R: Ruleset>(cat: &R::Catalogue, text: &str) -> Result<Vec<Weighted>, String> {
    if let Ok(f) = R::field(cat, text) {
        return Ok(f);
    }
    let parts: Vec<&str> = text.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if parts.is_empty() {
        return Err("the field is empty".into());
    }
    match sides::<R>(cat, Role::Opponent, &parts) {
        Ok(v) => Ok(v.into_iter().map(|name| Weighted { name, weight: 1.0 }).collect()),
        Err(e) if parts.len() == 1 => {
            let fields = R::field_names(cat);
            let hint = names::closest(text, fields.iter().map(String::as_str))
                .map(|f| format!(" (did you mean the field `{f}`?)"))
                .unwrap_or_default();
            Err(format!(
                "`{}` is neither a field of the catalogue ({}) nor a selector: {e}{hint}",
                text.trim(),
                if fields.is_empty() { "none".into() } else { fields.join(", ") }
            ))
        }
        Err(e) => Err(e),
    }
}

/// The catalogue's named forces as `volley catalog forces` lists them: name, members
/// (`2*Kerberos+Pythia`, passengers in brackets), units (passengers included), points
/// (the members' [`Ruleset::points`], empty when a member is not priced) and the force's
/// own budget (empty when it names none).
pub fn forces_table<R: Ruleset>(cat: &R::Catalogue) -> Table {
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
pub fn fields_table<R: Ruleset>(cat: &R::Catalogue) -> Table {
    let mut t = Table::new(["field", "opponent", "weight"]);
    for name in R::field_names(cat) {
        for w in R::field(cat, &name).unwrap_or_default() {
            t.push(vec![name.as_str().into(), w.name.into(), w.weight.into()]);
        }
    }
    t
}
