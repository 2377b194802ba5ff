//! `[[pilot]]` entries: a pilot card's type, cost, requirements, stat bonus, and the
//! weapons (by name, resolved later) and abilities it gives the mech.

use super::mech::{ABILITIES, parse_faction, unknown_faction};
use crate::catalogue::error::{Position, with_article};
use crate::catalogue::fields::{Checked, Fields};
use crate::rules::mechcom::mech::{Mech, Pilot, PilotKind, StatBonus};

/// Every key a pilot entry may have.
pub const PILOT_KEYS: &[&str] = &["name", "type", "cost", "faction", "mechs", "bonus", "weapons", "abilities"];
/// Every key of a pilot's `bonus` table.
pub const BONUS_KEYS: &[&str] = &["energy", "movement", "sensors", "stability", "strength", "armour", "integrity"];
/// Largest bonus (either sign) a pilot may give to one stat.
pub const MAX_BONUS: i64 = 10;
/// Largest pilot cost accepted.
pub const MAX_PILOT_COST: i64 = 10_000;

/// The catalogue's word for a pilot type.
pub fn kind_name(k: PilotKind) -> &'static str {
    match k {
        PilotKind::Regular => "regular",
        PilotKind::Ace => "ace",
        PilotKind::Mercenary => "mercenary",
    }
}

/// A pilot as written: the mechs it may fly not yet resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct PilotSpec {
    pub pilot: Pilot,
    pub mech_positions: Vec<Option<Position>>,
    /// The weapons it gives, by name, with their positions.
    pub weapons: Vec<(String, Option<Position>)>,
    pub position: Option<Position>,
    pub file: String,
    /// How errors name the entry (`mech "Typhon"`).
    pub label: String,
}

/// Read a pilot; the value is kept even when the entry had errors, so that its mech
/// names are still checked.
pub fn read(mut f: Fields<'_>) -> Checked<PilotSpec> {
    let name = f.string("name", true).unwrap_or_default();
    let type_pos = f.position_of("type");
    let kind = match f.string("type", true) {
        Some(t) => match t.to_lowercase().as_str() {
            "regular" => Some(PilotKind::Regular),
            "ace" => Some(PilotKind::Ace),
            "mercenary" | "merc" => Some(PilotKind::Mercenary),
            _ => {
                let hint = crate::catalogue::error::did_you_mean(&t, ["regular", "ace", "mercenary"]);
                f.error(
                    Some("type"),
                    type_pos,
                    format!("unknown pilot type `{t}`{hint}; types: regular, ace, mercenary"),
                );
                None
            }
        },
        None => None,
    };
    let cost = f.int("cost", None, 0, MAX_PILOT_COST) as u32;
    let faction_pos = f.position_of("faction");
    let faction = match f.string("faction", false) {
        Some(s) => parse_faction(&s).or_else(|| {
            f.error(Some("faction"), faction_pos, unknown_faction(&s, false));
            None
        }),
        None => None,
    };
    match kind {
        Some(PilotKind::Mercenary) if f.has("faction") => f.error(
            Some("faction"),
            faction_pos,
            "a Mercenary has no faction requirement: remove `faction` (list `mechs` to restrict it)",
        ),
        Some(k @ (PilotKind::Regular | PilotKind::Ace)) if !f.has("faction") => f.error(
            Some("faction"),
            None,
            format!("missing required field: {} pilot requires a faction", with_article(kind_name(k))),
        ),
        _ => {}
    }
    let mechs = f.string_list("mechs");
    let bonus = f
        .table("bonus", |b| {
            let mut get = |key: &str| b.int(key, Some(0), -MAX_BONUS, MAX_BONUS) as i32;
            let bonus = StatBonus {
                energy: get("energy"),
                movement: get("movement"),
                sensors: get("sensors"),
                stability: get("stability"),
                strength: get("strength"),
                armour: get("armour"),
                integrity: get("integrity"),
            };
            b.reject_unknown(BONUS_KEYS);
            bonus
        })
        .unwrap_or_default();
    let weapons = f.string_list("weapons");
    let mut abilities = Vec::new();
    for (i, (text, pos)) in f.string_list("abilities").into_iter().enumerate() {
        match ABILITIES.iter().find(|(n, _)| n.eq_ignore_ascii_case(&text)) {
            Some(&(_, a)) if abilities.contains(&a) => {
                f.error(Some(&format!("abilities[{i}]")), pos, format!("ability `{text}` is listed twice"))
            }
            Some(&(_, a)) => abilities.push(a),
            None => {
                let names = ABILITIES.map(|(n, _)| n);
                f.error(
                    Some(&format!("abilities[{i}]")),
                    pos,
                    format!(
                        "unknown ability `{text}`{}; volley plays {}",
                        crate::catalogue::error::did_you_mean(&text, names),
                        names.join(", ")
                    ),
                );
            }
        }
    }
    let pilot = Pilot {
        name,
        kind: kind.unwrap_or(PilotKind::Regular),
        cost,
        faction,
        mechs: mechs.iter().map(|(m, _)| m.clone()).collect(),
        bonus,
        weapons: Vec::new(),
        abilities,
    };
    let position = f.entry().position;
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    f.finish_checked(
        PILOT_KEYS,
        PilotSpec {
            pilot,
            mech_positions: mechs.into_iter().map(|(_, p)| p).collect(),
            weapons,
            position,
            file,
            label,
        },
    )
}

/// Why `pilot` may not fly `mech` (§3 "Pilots": faction and mech requirements), or
/// `None` when it may.
pub fn requirement_unmet(pilot: &Pilot, mech: &Mech) -> Option<String> {
    let Some(faction) = mech.faction else {
        return Some(format!("mech `{}` is neutral terrain: it takes no pilot", mech.name));
    };
    if let Some(required) = pilot.faction
        && required != faction
    {
        return Some(format!(
            "pilot `{}` requires a {} mech; `{}` is {}",
            pilot.name,
            required.name(),
            mech.name,
            faction.name()
        ));
    }
    if !pilot.mechs.is_empty() && !pilot.mechs.iter().any(|m| m == &mech.name) {
        return Some(format!("pilot `{}` flies only {}; not `{}`", pilot.name, pilot.mechs.join(", "), mech.name));
    }
    None
}
