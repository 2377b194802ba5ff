//! Gear: equipment that costs weight and power and changes a unit's numbers.

use crate::catalogue::fields::Fields;

/// Effects gear and units share. Summed over a unit and its gear.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Effects {
    /// Added to the target number of this unit's attacks (e.g. Wet Wire Jacks +1).
    pub to_hit_bonus: i32,
    /// Damage subtracted once per attack action against this unit, before dividing by AC.
    pub damage_reduction: u32,
    /// Thermal sight: this unit's attacks ignore smoke.
    pub ignores_smoke: bool,
    /// Defensive gear that negates the fire control of attacks against this unit.
    pub negates_fire_control: bool,
}

impl Effects {
    /// Effect keys, as on units and gear.
    pub const KEYS: [&'static str; 4] = ["to_hit_bonus", "damage_reduction", "ignores_smoke", "negates_fire_control"];

    pub fn read(f: &mut Fields<'_>) -> Effects {
        Effects {
            to_hit_bonus: f.int("to_hit_bonus", Some(0), -20, 20) as i32,
            damage_reduction: f.int("damage_reduction", Some(0), 0, 10_000) as u32,
            ignores_smoke: f.boolean("ignores_smoke", false),
            negates_fire_control: f.boolean("negates_fire_control", false),
        }
    }

    /// The effects of carrying both.
    pub fn combine(self, other: Effects) -> Effects {
        Effects {
            to_hit_bonus: self.to_hit_bonus + other.to_hit_bonus,
            damage_reduction: self.damage_reduction + other.damage_reduction,
            ignores_smoke: self.ignores_smoke || other.ignores_smoke,
            negates_fire_control: self.negates_fire_control || other.negates_fire_control,
        }
    }
}

/// A gear card, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Gear {
    pub name: String,
    /// Tons (kg for troop and crew gear).
    pub weight: f64,
    pub power: f64,
    /// Uses per game; 0 = unlimited. Informational: no simulated action uses gear yet.
    pub rounds: u32,
    /// Pops smoke (`SMOKE_POP`): in a battle, a Move action that spends one of its
    /// `rounds` and smokes the unit until Reset.
    pub smoke: bool,
    /// An infiltration system (§2.4 "infiltrate"): a troop or crew unit carrying it
    /// starts every battle turn infiltrated (`INFILTRATION`). Only troop and crew builds
    /// may carry it (checked when builds are resolved).
    pub infiltration: bool,
    /// A bubble shield projector (3rd and 2nd edition "BUBBLE SHIELD"): the carrier drops
    /// a 20-life shield when it is first attacked in a turn, one per use of its
    /// `rounds` (at least 1); attack runs and duels play it (see
    /// [`crate::rules::techcommander::attack_run`]), battles say they do not.
    pub bubble_shield: bool,
    /// Added to the scan number (12, "+gear") of the unit carrying it (§2.4 "Scanning").
    /// -20..=20, default 0.
    pub scan_bonus: i32,
    /// Repair gear (3rd and 2nd edition "Repair": "Repair equipped units only. Repair
    /// works like an attack action to a friendly unit, except that the unit gains life
    /// for the resulting damage instead of losing it"): rolled as an attack of this
    /// profile at a friend; `None` for other gear. The books print no repair gear card.
    pub repair: Option<RepairProfile>,
    pub effects: Effects,
}

/// The attack profile of repair gear: `shots` d20s, each hitting on the target number of
/// a shot with `fire_control`, each hit adding `damage` to the "damage" that the friend
/// gains as life (÷ its damage AC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RepairProfile {
    /// Repair "damage" per hitting shot, 1..=10 000 (gear key `repair_damage`).
    pub damage: u32,
    /// d20s rolled per repair, 1..=100 (`repair_shots`, default 1).
    pub shots: u32,
    /// Fire control of the repair roll, -20..=20 (`repair_fire_control`, default 0).
    pub fire_control: i32,
}

pub const GEAR_KEYS: &[&str] = &[
    "name",
    "weight",
    "power",
    "rounds",
    "smoke",
    "infiltration",
    "bubble_shield",
    "scan_bonus",
    "repair_damage",
    "repair_shots",
    "repair_fire_control",
    "to_hit_bonus",
    "damage_reduction",
    "ignores_smoke",
    "negates_fire_control",
];

impl Gear {
    pub fn read(mut f: Fields<'_>) -> Option<Gear> {
        let g = Gear {
            name: f.string("name", true).unwrap_or_default(),
            weight: f.number("weight", None),
            power: f.number("power", None),
            rounds: f.int("rounds", Some(0), 0, 1000) as u32,
            smoke: f.boolean("smoke", false),
            infiltration: f.boolean("infiltration", false),
            bubble_shield: f.boolean("bubble_shield", false),
            scan_bonus: f.int("scan_bonus", Some(0), -20, 20) as i32,
            repair: RepairProfile::read(&mut f),
            effects: Effects::read(&mut f),
        };
        f.finish(GEAR_KEYS).then_some(g)
    }
}

impl RepairProfile {
    /// The gear's repair keys: a profile when `repair_damage` is given (`repair_shots` and
    /// `repair_fire_control` then default to 1 and 0); `None` without it.
    fn read(f: &mut Fields<'_>) -> Option<RepairProfile> {
        let damage = f.int("repair_damage", Some(0), 0, 10_000) as u32;
        let shots = f.int("repair_shots", Some(1), 1, 100) as u32;
        let fire_control = f.int("repair_fire_control", Some(0), -20, 20) as i32;
        (damage > 0).then_some(RepairProfile { damage, shots, fire_control })
    }
}
