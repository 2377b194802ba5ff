//! Plain typed stats of weapons, units, charts and fields, as the catalogue checks them
//! (shellshock.md §4). Every range below is enforced by `catalogue`.

use super::damage::InternalBox;
use super::roll::Dice;

/// The Defense Value a weapon is rolled against (dVT).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DvType {
    B,
    M,
    E,
    I,
    SA,
    P,
}

impl DvType {
    pub const ALL: [DvType; 6] = [DvType::B, DvType::M, DvType::E, DvType::I, DvType::SA, DvType::P];
    pub const NAMES: [&'static str; 6] = ["B", "M", "E", "I", "SA", "P"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<DvType> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }

    /// Whether point blank halves this DV (every type but M and P, §2).
    pub fn halved_at_point_blank(self) -> bool {
        !matches!(self, DvType::M | DvType::P)
    }
}

/// The weapon classes of "Weapons Selection" (§5): Missiles, Mini-Mortars, Grenade
/// Launchers and Rocket Pods "can only be fired one at a time when fired with other
/// weapons, or they can be fired in pairs by themselves"; every other weapon (`Other`)
/// fires with any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponClass {
    Other,
    Missile,
    MiniMortar,
    GrenadeLauncher,
    RocketPod,
}

impl WeaponClass {
    pub const ALL: [WeaponClass; 5] = [
        WeaponClass::Other,
        WeaponClass::Missile,
        WeaponClass::MiniMortar,
        WeaponClass::GrenadeLauncher,
        WeaponClass::RocketPod,
    ];
    /// The catalogue's spellings, in [`WeaponClass::ALL`] order.
    pub const NAMES: [&'static str; 5] = ["other", "missile", "mini-mortar", "grenade-launcher", "rocket-pod"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<WeaponClass> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }

    /// Whether "Weapons Selection" limits how many of it fire in one turn.
    pub fn limited(self) -> bool {
        self != WeaponClass::Other
    }
}

/// A weapon (§4): d6 counts, range in hexes.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    pub name: String,
    pub kind: DvType,
    pub damage: u32,
    pub shock: u32,
    pub penetration: u32,
    pub spreadfire: bool,
    pub indirect: bool,
    /// Maximum range, hexes.
    pub range: u32,
    /// Its "Weapons Selection" class (`FIRING_LIMITS`).
    pub class: WeaponClass,
    /// Turns of fire it carries ammunition for, each firing using one (`AMMO = CARD`);
    /// `None`: unlimited (the card gives no count, or an energy weapon).
    pub ammo: Option<u32>,
}

/// The era printed on a card, which sets its to-hit dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    Ww2,
    Modern,
    Future,
}

impl Era {
    pub const NAMES: [&'static str; 3] = ["ww2", "modern", "future"];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// One gunner: Gunnery skill (`None`: `SKILL_DEFAULT`) and weapons (indexes into the
/// catalogue's weapons), fired together on one roll.
#[derive(Debug, Clone, PartialEq)]
pub struct Gunner {
    pub skill: Option<i32>,
    pub weapons: Vec<usize>,
}

/// Armour sections the engagements use (the card's `top` is read and kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Armor {
    pub front: u32,
    pub side: u32,
    pub rear: u32,
    pub top: u32,
}

/// A unit card (§4), with the facts the card-free model needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub name: String,
    pub era: Era,
    pub dice: Dice,
    /// Front/Rear column, by [`DvType`] index.
    pub defense: [u32; 6],
    /// Sides column (the front column when the card gives none).
    pub defense_side: [u32; 6],
    /// Stealth Enhancement bonus added to every TN against the unit.
    pub stealth: u32,
    pub armor: Armor,
    pub shock_threshold: u32,
    pub penetration_factor: u32,
    pub dead_at: u32,
    /// Sorted by `from`, ascending, `from` strictly increasing.
    pub internal: Vec<InternalBox>,
    /// Index into the catalogue's charts.
    pub chart: usize,
    pub gunners: Vec<Gunner>,
    /// Estimated Combat Value (printed data, `ECV_FROM_CARD`).
    pub ecv: f64,
    /// The pilot's Piloting skill (`None`: `SKILL_DEFAULT`, the book prints none): added
    /// to the unit's DVs while it dodges, and to its own gunners' targets' (`DODGE`).
    pub piloting: Option<i32>,
    /// The gunner (from 1) who is the pilot, and so fires nothing while the unit dodges;
    /// `None`: the pilot mans no listed gunner (a tank's driver).
    pub pilot: Option<u32>,
}

/// One equipment item of an Internal Damage Chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Equipment {
    pub letter: char,
    pub name: String,
    pub kind: String,
    /// Hits that destroy it (>= 1).
    pub hits: u32,
    /// For crew and weapons: the card gunner (from 1) it belongs to (illustrative key).
    pub gunner: Option<u32>,
    /// For weapons: the catalogue weapon it is (`None`: every weapon of its gunner).
    pub weapon: Option<String>,
    /// For Halon: the defender's modifier to sympathetic explosion rolls while it works.
    pub bonus: i32,
}

/// A 100-line Internal Damage Chart: one equipment letter per line.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub name: String,
    /// Exactly 100 letters, line 01 first.
    pub lines: Vec<char>,
    pub equipment: Vec<Equipment>,
    /// The Locomotion Damage Chart: 10 rows (d10) of 6 entries (d6), upper case, each an
    /// integer loss, `SLIP`, `TURN`, `MSRP`, `X` (immobile) or `-`; `None`: no chart.
    pub locomotion: Option<Vec<Vec<String>>>,
}

/// Weighted opponents for gauntlets.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub opponents: Vec<(String, f64)>,
}
