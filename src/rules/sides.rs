//! What every command resolves through the ruleset boundary, the same for the command
//! line and for scenario files: the sides selectors pick ([`sides`]), fields of weighted
//! opponents ([`field`]). Built on
//! the kit's selector reader ([`super::kit::select`]) and [`super::Ruleset`]; it stands
//! above the kit, so the kit names no boundary type.

use super::kit::names;
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
/// selectors separated by commas (outside the brackets of ad-hoc builds), each selected opponent weighted 1 (once, however many
/// selectors pick it).
///
/// # Errors
/// An empty text, or a selector that is unknown or selects nothing; a single word that
/// is neither a field nor a selector says both.
pub fn field<R: Ruleset>(cat: &R::Catalogue, text: &str) -> Result<Vec<Weighted>, String> {
    if let Ok(f) = R::field(cat, text) {
        return Ok(f);
    }
    let parts: Vec<&str> = crate::catalogue::adhoc::split_list(text);
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
