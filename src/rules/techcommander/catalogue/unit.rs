//! Units: chassis cards (MSVs, vehicles, troops, crew, terrain).

use std::fmt;
use std::str::FromStr;

use super::gear::Effects;
use crate::catalogue::error::Position;
use crate::catalogue::fields::{Checked, Fields};

/// What a unit is; decides its actions per turn and which rules apply to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// Mechanized Strike Vehicle: two actions per turn, class limits apply.
    Msv,
    /// Non-MSV vehicle: auto-stabilized, may be hull down, not bound by link limits.
    Vehicle,
    /// ECBS troop.
    Troop,
    /// Crew or pilot.
    Crew,
    /// Terrain feature or deployable (walls, buildings, bubble shields).
    Terrain,
}

impl UnitKind {
    pub const ALL: [UnitKind; 5] =
        [UnitKind::Msv, UnitKind::Vehicle, UnitKind::Troop, UnitKind::Crew, UnitKind::Terrain];

    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Msv => "msv",
            UnitKind::Vehicle => "vehicle",
            UnitKind::Troop => "troop",
            UnitKind::Crew => "crew",
            UnitKind::Terrain => "terrain",
        }
    }

    /// Whether a unit of this kind may carry passengers (an MSV or a vehicle: the
    /// carriers of 3e "Load", "Offload"). No card prints a capacity, so none is checked.
    pub fn carries(self) -> bool {
        matches!(self, UnitKind::Msv | UnitKind::Vehicle)
    }

    /// Whether a unit of this kind may ride aboard a carrier (troops and crew: 3e
    /// "Board", "Disembark").
    pub fn rides(self) -> bool {
        matches!(self, UnitKind::Troop | UnitKind::Crew)
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for UnitKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        UnitKind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown kind `{s}`: expected one of msv, vehicle, troop, crew, terrain"))
    }
}

/// A reference to a weapon from a unit or build: `count` copies, fired together as one system.
#[derive(Debug, Clone, PartialEq)]
pub struct WeaponRef {
    pub name: String,
    pub count: u32,
    pub position: Option<Position>,
}

impl WeaponRef {
    pub const KEYS: [&'static str; 2] = ["name", "count"];

    pub fn read(f: &mut Fields<'_>) -> Option<WeaponRef> {
        let position = f.position();
        let name = f.string("name", true);
        let count = f.int("count", Some(1), 1, 100) as u32;
        f.reject_unknown(&Self::KEYS);
        Some(WeaponRef { name: name?, count, position })
    }
}

/// A unit card, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub name: String,
    pub kind: UnitKind,
    /// Armor class: the size bonus attackers get (capped) and, unless `damage_ac` says
    /// otherwise, the divisor of damage. >= 1.
    pub ac: u32,
    /// AC used to divide damage (the bubble shield is targeted as AC5, damaged as AC1).
    pub damage_ac: u32,
    /// Inches per move action. Informational.
    pub speed: u32,
    /// Weight left for swappable weapons and gear; `None` = no limit (vehicles).
    pub free_weight: Option<f64>,
    pub free_power: Option<f64>,
    pub effects: Effects,
    /// ECBS power armour: resets to 20 life at the end of every turn it survives.
    pub power_armor: bool,
    /// Points cost; defaults to `ac` (forces are budgeted in AC).
    pub points: f64,
    /// Extra player actions per turn while the unit is on the field and fully crewed
    /// (`COMMAND_FIELD`; the books print no value). 0..=10, default 0.
    pub command: u32,
    /// Standard crew (free, escape on removal): default 2 for an MSV (pilot and IO), 0
    /// otherwise (a vehicle card states its count). 0..=20.
    pub crew: u32,
    /// Named abilities. Some are read by the rules (see loadouts/techcommander/README.md).
    pub abilities: Vec<String>,
    /// Weapons that come with the chassis: cost no free weight or power, cannot be removed.
    pub standard_weapons: Vec<WeaponRef>,
    /// Gear that comes with the chassis.
    pub standard_gear: Vec<(String, Option<Position>)>,
    pub position: Option<Position>,
    pub file: String,
}

pub const UNIT_KEYS: &[&str] = &[
    "name",
    "kind",
    "ac",
    "damage_ac",
    "speed",
    "free_weight",
    "free_power",
    "to_hit_bonus",
    "damage_reduction",
    "ignores_smoke",
    "negates_fire_control",
    "power_armor",
    "points",
    "command",
    "crew",
    "abilities",
    "standard_weapons",
    "standard_gear",
];

impl Unit {
    /// Read a unit card. The value is kept even when the entry had errors, so that the
    /// card checks whose fields were read still run (see [`Checked::is_bad`]).
    pub fn read(mut f: Fields<'_>) -> Checked<Unit> {
        let name = f.string("name", true).unwrap_or_default();
        let kind_text = f.string("kind", true);
        let kind = match kind_text.as_deref().map(str::parse::<UnitKind>) {
            Some(Ok(k)) => k,
            Some(Err(msg)) => {
                let pos = field_position(&f, "kind");
                f.error(Some("kind"), pos, msg);
                UnitKind::Msv
            }
            None => UnitKind::Msv,
        };
        let ac = f.int("ac", None, 1, 1_000_000) as u32;
        let damage_ac = f.int("damage_ac", Some(ac as i64), 1, 1_000_000) as u32;
        let speed = f.int("speed", Some(0), 0, 10_000) as u32;
        let free_weight = f.number_opt("free_weight");
        let free_power = f.number_opt("free_power");
        let effects = Effects::read(&mut f);
        let power_armor = f.boolean("power_armor", false);
        let points = f.positive_number("points").unwrap_or(ac as f64);
        let command = f.int("command", Some(0), 0, 10) as u32;
        let crew = f.int("crew", Some(if kind == UnitKind::Msv { 2 } else { 0 }), 0, 20) as u32;
        let abilities = f.string_list("abilities").into_iter().map(|(s, _)| s).collect();
        let standard_weapons = f.table_list("standard_weapons", WeaponRef::read);
        let standard_gear = f.string_list("standard_gear");
        if kind == UnitKind::Msv && !f.is_bad("kind") {
            for (key, value) in [("free_weight", free_weight), ("free_power", free_power)] {
                if value.is_none() {
                    f.error(Some(key), None, "missing: an MSV card lists its free weight and free power");
                }
            }
        }
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish_checked(
            UNIT_KEYS,
            Unit {
                name,
                kind,
                ac,
                damage_ac,
                speed,
                free_weight,
                free_power,
                effects,
                power_armor,
                points,
                command,
                crew,
                abilities,
                standard_weapons,
                standard_gear,
                position,
                file,
            },
        )
    }

    /// Whether the unit has the named ability (case-insensitive).
    pub fn has_ability(&self, ability: &str) -> bool {
        self.abilities.iter().any(|a| a.eq_ignore_ascii_case(ability))
    }
}

fn field_position(f: &Fields<'_>, key: &str) -> Option<Position> {
    f.entry().fields.iter().find(|(k, _)| k == key).and_then(|(_, v)| v.position)
}
