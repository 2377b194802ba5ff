//! Weapons: one catalogue entry per weapon card.

use crate::catalogue::fields::Fields;

/// A weapon card, validated. Ranges are in the table's inches; penalties are magnitudes
/// (the book's "DROP -1 per 1" is `drop = 1, drop_per = 1`).
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    /// Unique within the catalogue.
    pub name: String,
    /// Damage per hitting shot, >= 1.
    pub damage: u32,
    /// d20 rolls per copy, >= 1.
    pub shots: u32,
    /// Fire control, added to the target number unless negated (may be negative).
    pub fire_control: i32,
    /// Minimum range for a line-of-sight shot.
    pub min: u32,
    /// Optimum range: no range penalty at or inside it.
    pub opt: u32,
    /// Penalty per started step beyond `opt`, >= 0.
    pub drop: u32,
    /// Length of one step, >= 1.
    pub drop_per: u32,
    /// Copies that may fire together as one action, >= 1.
    pub linkable: u32,
    /// Uses per game; 0 = unlimited ("NA").
    pub rounds: u32,
    /// Tons (kg for troop and crew gear).
    pub weight: f64,
    pub power: f64,
    /// Can fire non-line-of-sight: ignores smoke, may fire under `min`, may shoot a blocked target at -6.
    pub nlos: bool,
    /// Missile: ignores cover against a laser-designated target.
    pub missile: bool,
    /// Ignores this much of the target's damage reduction.
    pub armor_piercing: u32,
    /// Splash radius; 0 = no splash (fire for effect needs splash).
    pub splash: u32,
    /// Built-in thermal sight: ignores smoke.
    pub ignores_smoke: bool,
    /// Free text: the weapon class on the card ("MSV", "vehicle", ...).
    pub class: Option<String>,
}

/// Every key a weapon entry may have.
pub const WEAPON_KEYS: &[&str] = &[
    "name",
    "damage",
    "shots",
    "fire_control",
    "min",
    "opt",
    "drop",
    "drop_per",
    "linkable",
    "rounds",
    "weight",
    "power",
    "nlos",
    "missile",
    "armor_piercing",
    "splash",
    "ignores_smoke",
    "class",
];

/// Largest value accepted for counts and ranges; keeps every product in range.
const LIMIT: i64 = 10_000;

impl Weapon {
    /// Read and check one weapon entry; `None` when it had errors (recorded in `f`).
    pub fn read(mut f: Fields<'_>) -> Option<Weapon> {
        let w = Weapon {
            name: f.string("name", true).unwrap_or_default(),
            damage: f.int("damage", None, 1, LIMIT) as u32,
            shots: f.int("shots", None, 1, 100) as u32,
            fire_control: f.int("fire_control", None, -20, 20) as i32,
            min: f.int("min", Some(0), 0, LIMIT) as u32,
            opt: f.int("opt", None, 0, LIMIT) as u32,
            drop: f.int("drop", Some(0), 0, 20) as u32,
            drop_per: f.int("drop_per", Some(1), 1, LIMIT) as u32,
            linkable: f.int("linkable", Some(1), 1, 100) as u32,
            rounds: f.int("rounds", Some(0), 0, 1000) as u32,
            weight: f.number("weight", None),
            power: f.number("power", None),
            nlos: f.boolean("nlos", false),
            missile: f.boolean("missile", false),
            armor_piercing: f.int("armor_piercing", Some(0), 0, LIMIT) as u32,
            splash: f.int("splash", Some(0), 0, LIMIT) as u32,
            ignores_smoke: f.boolean("ignores_smoke", false),
            class: f.string("class", false),
        };
        if w.min > w.opt && !f.is_bad("min") && !f.is_bad("opt") {
            f.error(Some("min"), None, format!("minimum range {} is beyond optimum range {}", w.min, w.opt));
        }
        f.finish(WEAPON_KEYS).then_some(w)
    }

    /// A plain weapon for code (tests, benchmarks, tools): `shots` per copy, `damage` per
    /// hit, `fire_control`; no minimum range, optimum range 100 (no range penalty on a
    /// table), linkable 1, unlimited rounds, no weight or power, no special traits.
    pub fn simple(name: &str, shots: u32, damage: u32, fire_control: i32) -> Weapon {
        Weapon {
            name: name.to_string(),
            damage,
            shots,
            fire_control,
            min: 0,
            opt: 100,
            drop: 0,
            drop_per: 1,
            linkable: 1,
            rounds: 0,
            weight: 0.0,
            power: 0.0,
            nlos: false,
            missile: false,
            armor_piercing: 0,
            splash: 0,
            ignores_smoke: false,
            class: None,
        }
    }

    /// Whether the weapon can run out (`rounds` > 0).
    pub fn is_limited(&self) -> bool {
        self.rounds > 0
    }
}
