//! Weapons ("Mech sheets › Arsenal", §3) and their perks ("List of Perks").
//!
//! Plain typed stats: the catalogue reader fills them; nothing here parses files.

use super::conditions::Condition;

/// A weapon's Range: hexes, or melee ("M"; the catalogue also accepts 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeaponRange {
    Melee,
    Hexes(u32),
}

/// Damage: Integrity lost per unblocked hit (or per winning melee die).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    Fixed(u32),
    /// A d3 per hit: a d6 halved, rounded up (§1).
    D3,
}

impl Damage {
    /// Largest Integrity one hit can cost.
    pub fn max(self) -> u32 {
        match self {
            Damage::Fixed(d) => d,
            Damage::D3 => 3,
        }
    }

    /// Mean Integrity one hit costs.
    pub fn mean(self) -> f64 {
        match self {
            Damage::Fixed(d) => d as f64,
            Damage::D3 => 2.0,
        }
    }

    /// The Integrity cost for each face 1..=6 of the die behind it (fixed: the same
    /// for every face; d3: 1, 1, 2, 2, 3, 3).
    pub fn by_face(self) -> [u32; 6] {
        match self {
            Damage::Fixed(d) => [d; 6],
            Damage::D3 => [1, 1, 2, 2, 3, 3],
        }
    }
}

/// One perk of "List of Perks" (§3); X values are per weapon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Perk {
    /// X attacks per game.
    Ammo(u32),
    /// No LoS needed, ignores height, must consume a Spot token (no bonus).
    Artillery,
    /// The wielder loses X Integrity after attacking.
    Backfire(u32),
    /// +1 die per extra 1⚡.
    Barrage,
    /// When the attack misses, a hex catches fire.
    Blast,
    /// The target suffers the condition when the attack roll has >= 1 hit.
    Condition(Condition),
    /// The target suffers the condition when the attack roll has >= 1 crit.
    CriticalCondition(Condition),
    /// Each crit rolls one more attack die, which can chain.
    Flurry,
    /// +2 Stability when the wielder moved this turn (`HEAVY_MOVED_STABILITY`).
    Heavy,
    /// Dice may be split among targets (`MULTI_POLICY`: one target).
    Multi,
    /// −X to the defender's melee roll.
    Rend(u32),
    /// May consume any number of Spot tokens, −1 Stability each.
    Sniper,
    /// +1 Heat to the wielder after attacking.
    Superheated,
    /// Spot tokens on the target equal to the Integrity it lost.
    Tracker,
    /// No +2 for shooting in melee range.
    Ultralight,
    /// −X to the defender's Armour.
    Volatile(u32),
}

/// A weapon of a mech's Arsenal.
#[derive(Debug, Clone, PartialEq)]
pub struct Weapon {
    pub name: String,
    pub range: WeaponRange,
    pub damage: Damage,
    /// Dice rolled (`ATTACKS_FROM_WEAPON`), before Barrage; >= 1.
    pub attacks: u32,
    pub perks: Vec<Perk>,
    /// The unarmed melee attack of every mech (1d6, 1d3 per winning die).
    pub unarmed: bool,
}

impl Weapon {
    /// A ranged weapon with the given stats.
    pub fn ranged(name: &str, range: u32, damage: Damage, attacks: u32, perks: &[Perk]) -> Weapon {
        Weapon {
            name: name.to_string(),
            range: WeaponRange::Hexes(range),
            damage,
            attacks,
            perks: perks.to_vec(),
            unarmed: false,
        }
    }

    /// A melee weapon (Range M).
    pub fn melee(name: &str, damage: Damage, attacks: u32, perks: &[Perk]) -> Weapon {
        Weapon {
            name: name.to_string(),
            range: WeaponRange::Melee,
            damage,
            attacks,
            perks: perks.to_vec(),
            unarmed: false,
        }
    }

    /// The unarmed attack ("Melee": 1d6, 1d3 Integrity per winning die).
    pub fn unarmed() -> Weapon {
        Weapon {
            name: "Unarmed".to_string(),
            range: WeaponRange::Melee,
            damage: Damage::D3,
            attacks: 1,
            perks: Vec::new(),
            unarmed: true,
        }
    }

    /// The book's one printed weapon: Prometheus Model Flamethrower [3-2-2], Condition:
    /// Burned, Superheated (Typhon sheet).
    pub fn prometheus_flamethrower() -> Weapon {
        Weapon::ranged(
            "Prometheus Model Flamethrower",
            3,
            Damage::Fixed(2),
            2,
            &[Perk::Condition(Condition::Burned), Perk::Superheated],
        )
    }

    pub fn is_melee(&self) -> bool {
        self.range == WeaponRange::Melee
    }

    pub fn has(&self, perk: Perk) -> bool {
        self.perks.contains(&perk)
    }

    fn value(&self, f: impl Fn(&Perk) -> Option<u32>) -> Option<u32> {
        self.perks.iter().find_map(f)
    }

    pub fn ammo(&self) -> Option<u32> {
        self.value(|p| if let Perk::Ammo(x) = p { Some(*x) } else { None })
    }

    pub fn volatile(&self) -> u32 {
        self.value(|p| if let Perk::Volatile(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    pub fn rend(&self) -> u32 {
        self.value(|p| if let Perk::Rend(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    pub fn backfire(&self) -> u32 {
        self.value(|p| if let Perk::Backfire(x) = p { Some(*x) } else { None }).unwrap_or(0)
    }

    /// Conditions applied on >= 1 hit.
    pub fn on_hit(&self) -> impl Iterator<Item = Condition> + '_ {
        self.perks.iter().filter_map(|p| if let Perk::Condition(c) = p { Some(*c) } else { None })
    }

    /// Conditions applied on >= 1 crit.
    pub fn on_crit(&self) -> impl Iterator<Item = Condition> + '_ {
        self.perks.iter().filter_map(|p| if let Perk::CriticalCondition(c) = p { Some(*c) } else { None })
    }

    /// Whether the weapon can attack at `range` hexes (melee weapons only within
    /// `melee_range`).
    pub fn reaches(&self, range: u32, melee_range: u32) -> bool {
        match self.range {
            WeaponRange::Melee => range <= melee_range,
            WeaponRange::Hexes(r) => range <= r,
        }
    }
}
