//! `[[weapon]]` entries (and `weapons.csv` rows) read into [`Weapon`].

use super::perk::{parse_perk, same_kind};
use crate::catalogue::fields::Fields;
use crate::catalogue::raw::RawValue;
use crate::rules::mechcom::weapon::{Damage, Weapon, WeaponRange};

/// Every key a weapon entry may have.
pub const WEAPON_KEYS: &[&str] = &["name", "range", "damage", "attacks", "perks"];

/// Largest Range accepted, in hexes.
pub const MAX_RANGE: i64 = 100;
/// Largest fixed Damage accepted (Integrity per unblocked hit).
pub const MAX_DAMAGE: i64 = 20;
/// Largest Attacks accepted (dice rolled before Barrage and Flurry dice).
pub const MAX_ATTACKS: i64 = 20;

/// Whether the raw value of top-level `key` is text that is not an integer (so the field
/// is read as a word, e.g. `"M"` or `"d3"`).
pub(super) fn is_word(f: &Fields<'_>, key: &str) -> bool {
    f.entry().fields.iter().any(|(k, v)| {
        k == key && matches!(&v.value, RawValue::Str(s) | RawValue::Cell(s) if s.trim().parse::<i64>().is_err())
    })
}

/// Read a weapon; `None` when it had errors (recorded in `f`).
pub fn read(mut f: Fields<'_>) -> Option<Weapon> {
    let name = f.string("name", true).unwrap_or_default();
    let range = if is_word(&f, "range") {
        let pos = f.position_of("range");
        match f.string("range", true).as_deref() {
            Some(s) if s.eq_ignore_ascii_case("M") => WeaponRange::Melee,
            Some(s) => {
                f.error(
                    Some("range"),
                    pos,
                    format!("expected hexes (0 to {MAX_RANGE}) or \"M\" for melee, found `{s}`"),
                );
                WeaponRange::Melee
            }
            None => WeaponRange::Melee,
        }
    } else {
        match f.int("range", None, 0, MAX_RANGE) {
            0 => WeaponRange::Melee,
            r => WeaponRange::Hexes(r as u32),
        }
    };
    let damage = if is_word(&f, "damage") {
        let pos = f.position_of("damage");
        match f.string("damage", true).as_deref() {
            Some(s) if s.eq_ignore_ascii_case("d3") => Damage::D3,
            Some(s) => {
                f.error(
                    Some("damage"),
                    pos,
                    format!("expected Integrity per hit (1 to {MAX_DAMAGE}) or \"d3\", found `{s}`"),
                );
                Damage::Fixed(1)
            }
            None => Damage::Fixed(1),
        }
    } else {
        Damage::Fixed(f.int("damage", None, 1, MAX_DAMAGE) as u32)
    };
    let attacks = f.int("attacks", None, 1, MAX_ATTACKS) as u32;
    let mut perks = Vec::new();
    for (i, (text, pos)) in f.string_list("perks").into_iter().enumerate() {
        match parse_perk(&text) {
            Ok(p) if perks.iter().any(|&q| same_kind(p, q)) => {
                f.error(Some(&format!("perks[{i}]")), pos, format!("perk `{text}` is listed twice"))
            }
            Ok(p) => perks.push(p),
            Err(msg) => f.error(Some(&format!("perks[{i}]")), pos, msg),
        }
    }
    let weapon = Weapon { name, range, damage, attacks, perks, unarmed: false };
    f.finish(WEAPON_KEYS).then_some(weapon)
}
