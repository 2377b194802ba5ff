//! Mechs, pilots and the model they make together ("Mech sheets", "Pilots", §3).
//!
//! Every stat is a plain number the catalogue fills; the book prints no stat line
//! (only the Typhon's cost), so every catalogue number is illustrative.

use super::conditions::Conditions;
use super::weapon::Weapon;

/// The five factions ("Factions").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Faction {
    Icse,
    ShaViddaar,
    Herakles,
    Corpro,
    ScrapMonkeys,
}

impl Faction {
    pub const ALL: [Faction; 5] =
        [Faction::Icse, Faction::ShaViddaar, Faction::Herakles, Faction::Corpro, Faction::ScrapMonkeys];

    /// The book's spelling.
    pub fn name(self) -> &'static str {
        match self {
            Faction::Icse => "I.C.S.E.",
            Faction::ShaViddaar => "Sha'Viðaar",
            Faction::Herakles => "HERAKLES",
            Faction::Corpro => "Corpro",
            Faction::ScrapMonkeys => "Scrap Monkeys",
        }
    }
}

/// The abilities volley models (the Typhon sheet's; the documented subset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ability {
    /// At >= 6 Heat the model becomes Malfunctioning; clearing that removes all Heat.
    Programming,
    /// When targeted, +1 Heat per crit in the attack roll.
    RedHotReactor,
    /// 2d6 Damage 2 against each enemy within 3 hexes; +2 Heat (`TYPHON_ABILITY_*`).
    SearingWave,
    /// Clears all Heat (`TYPHON_ABILITY_*`).
    VentCoolant,
}

/// A mech sheet's stats (§3 "Mech sheets: fields").
#[derive(Debug, Clone, PartialEq)]
pub struct Mech {
    pub name: String,
    /// `None` for neutral terrain deployables (a Building): they never get conditions.
    pub faction: Option<Faction>,
    /// Points (`COST_IS_PRINTED`).
    pub cost: u32,
    /// ⚡ per activation.
    pub energy: u32,
    /// Hexes per Move.
    pub movement: u32,
    /// Hexes.
    pub sensors: u32,
    /// Shooting threshold (d6 face; lower is better).
    pub stability: i32,
    /// Added to every melee die; may be negative.
    pub strength: i32,
    /// Armour-roll threshold (d6 face).
    pub armour: i32,
    /// Damage capacity; destroyed below 1. >= 1.
    pub integrity: u32,
    pub weapons: Vec<Weapon>,
    pub abilities: Vec<Ability>,
}

impl Mech {
    /// A mech with the given combat stats and no weapon (other stats 0): for tests
    /// and code-built targets.
    pub fn simple(name: &str, stability: i32, strength: i32, armour: i32, integrity: u32) -> Mech {
        Mech {
            name: name.to_string(),
            faction: Some(Faction::Herakles),
            cost: 0,
            energy: 0,
            movement: 0,
            sensors: 0,
            stability,
            strength,
            armour,
            integrity,
            weapons: Vec::new(),
            abilities: Vec::new(),
        }
    }

    /// The Building of "Special terrain": a neutral deployable, Integrity 4, Armour 2
    /// (missing stats are 0).
    pub fn building() -> Mech {
        Mech { faction: None, ..Mech::simple("Building", 0, 0, 2, 4) }
    }
}

/// A pilot card's type ("Pilots").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PilotKind {
    /// A stat bonus; may repeat in a squad.
    Regular,
    /// Abilities or weapons; unique per squad (`ACES_MERCS_UNIQUE`).
    Ace,
    /// Like an Ace, with no faction requirement.
    Mercenary,
}

/// Stat changes a pilot adds to its mech, as plain numbers added to the stat (so a
/// Stability bonus that improves aim is negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatBonus {
    pub energy: i32,
    pub movement: i32,
    pub sensors: i32,
    pub stability: i32,
    pub strength: i32,
    pub armour: i32,
    pub integrity: i32,
}

/// A pilot card ("Pilots"; none is printed).
#[derive(Debug, Clone, PartialEq)]
pub struct Pilot {
    pub name: String,
    pub kind: PilotKind,
    pub cost: u32,
    /// Required faction (Mercenaries have none).
    pub faction: Option<Faction>,
    /// Mechs it may pilot (empty: any of its faction).
    pub mechs: Vec<String>,
    pub bonus: StatBonus,
    /// Weapons the card adds to the mech's Arsenal ("Aces ... often provide new
    /// abilities or equipment"; no card is printed, so none is shipped).
    pub weapons: Vec<Weapon>,
    /// Abilities the card gives the mech (the documented subset, [`Ability`]).
    pub abilities: Vec<Ability>,
}

/// A model in play: a mech with its pilot's bonuses applied, and its conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub mech: Mech,
    pub conditions: Conditions,
}

impl Model {
    /// The mech flown by `pilot` (if any): bonuses added to the stats (Energy and
    /// Integrity floored at 0 and 1), the card's weapons added to the Arsenal after the
    /// mech's and its abilities to the mech's (one that the mech already has, by name,
    /// adds nothing: a model carries each weapon and ability once).
    pub fn new(mech: &Mech, pilot: Option<&Pilot>) -> Model {
        let mut m = mech.clone();
        if let Some(p) = pilot {
            let b = p.bonus;
            let add = |x: u32, d: i32| (x as i64 + d as i64).max(0) as u32;
            m.energy = add(m.energy, b.energy);
            m.movement = add(m.movement, b.movement);
            m.sensors = add(m.sensors, b.sensors);
            m.stability += b.stability;
            m.strength += b.strength;
            m.armour += b.armour;
            m.integrity = add(m.integrity, b.integrity).max(1);
            for w in &p.weapons {
                if !m.weapons.iter().any(|x| x.name == w.name) {
                    m.weapons.push(w.clone());
                }
            }
            for a in &p.abilities {
                if !m.abilities.contains(a) {
                    m.abilities.push(*a);
                }
            }
        }
        Model { mech: m, conditions: Conditions::NONE }
    }

    pub fn with_conditions(mut self, c: Conditions) -> Model {
        self.conditions = c;
        self
    }

    /// Whether conditions can be applied to it ("enemies only": not neutral terrain).
    pub fn takes_conditions(&self) -> bool {
        self.mech.faction.is_some()
    }
}
