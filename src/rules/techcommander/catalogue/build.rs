//! Builds: a unit with its swappable weapons and gear.

use super::unit::WeaponRef;
use crate::catalogue::error::Position;
use crate::catalogue::fields::{Checked, Fields};

/// A build as written: names not yet resolved (see [`super::Catalogue`]).
#[derive(Debug, Clone, PartialEq)]
pub struct BuildSpec {
    pub name: String,
    pub unit: String,
    pub unit_position: Option<Position>,
    /// Swappable weapons: each entry is one weapon system whose copies fire linked.
    pub weapons: Vec<WeaponRef>,
    pub gear: Vec<(String, Option<Position>)>,
    /// Points override; defaults to the unit's points.
    pub points: Option<f64>,
    pub position: Option<Position>,
    pub file: String,
}

pub const BUILD_KEYS: &[&str] = &["name", "unit", "weapons", "gear", "points"];

impl BuildSpec {
    /// Read a build. The value is kept even when the entry had errors: the names it
    /// refers to are still checked (the checks that need a bad field are skipped).
    pub fn read(mut f: Fields<'_>) -> Checked<BuildSpec> {
        let name = f.string("name", true).unwrap_or_default();
        let unit_position = f.entry().fields.iter().find(|(k, _)| k == "unit").and_then(|(_, v)| v.position);
        let unit = f.string("unit", true).unwrap_or_default();
        let weapons = f.table_list("weapons", WeaponRef::read);
        let gear = f.string_list("gear");
        let points = f.positive_number("points");
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish_checked(BUILD_KEYS, BuildSpec { name, unit, unit_position, weapons, gear, points, position, file })
    }
}
