//! What the kernel needs to know about an attacker and a target, taken from the
//! catalogue once (names resolved, gear effects summed).

use std::fmt;

use crate::rules::techcommander::catalogue::{Build, Catalogue, Unit, UnitKind, Weapon};
use crate::rules::techcommander::conditions::Movement;

use super::rulings::{AERIAL_ABILITY, COMBAT_AGILITY_ABILITY, JUMP_ABILITY, SHIELD_DAMAGE_AC, SHIELD_SIZE_AC};
use super::rulings::{
    COMBINED_ARMS_ABILITY, DEFENSE_MASTERS_ABILITY, MONEYSHOT_ABILITY, MSV_ACTIONS_PER_TURN, OTHER_ACTIONS_PER_TURN,
    WETWIRE_ABILITY,
};

/// One weapon system: `copies` of a weapon fired linked as one action.
#[derive(Debug, Clone, PartialEq)]
pub struct System {
    pub weapon: Weapon,
    pub copies: u32,
}

impl System {
    /// d20s rolled when the system fires: shots per copy × copies.
    pub fn dice(&self) -> u32 {
        self.weapon.shots * self.copies
    }
    /// Uses left at the start of a game; `None` = unlimited.
    pub fn rounds(&self) -> Option<u32> {
        self.weapon.is_limited().then_some(self.weapon.rounds)
    }
}

/// An attacking build.
#[derive(Debug, Clone, PartialEq)]
pub struct Attacker {
    pub name: String,
    pub kind: UnitKind,
    pub ac: u32,
    /// Unit and gear to-hit bonuses (e.g. Wet Wire Jacks +1).
    pub to_hit_bonus: i32,
    /// Thermal sight on the unit or its gear.
    pub ignores_smoke: bool,
    /// Syndicate Wetwire (+1 fire control).
    pub wetwire: bool,
    /// Pirate Combined Arms (+2 fire control with a friendly MSV).
    pub combined_arms: bool,
    /// Mercenary Moneyshot (+2 when the attack can eliminate the target).
    pub moneyshot: bool,
    /// Weapon systems in catalogue order (the policy's tie-break order).
    pub systems: Vec<System>,
    pub points: f64,
    /// Inches per full move (the unit card's `speed`): how far a special attack reaches
    /// (battles §4 `REACH_RULE`).
    pub speed: u32,
    /// Jump jets or leap: may attack by death from above (unit ability `Jump`).
    pub jump: bool,
    /// An aerial unit (unit ability `Aerial`): no overrun; a ram eliminates it.
    pub aerial: bool,
    /// The build's own damage reduction (unit and gear), for the damage a special attack
    /// does to its attacker (`DFA_SELF_ARMOUR`).
    pub damage_reduction: u32,
}

impl Attacker {
    pub fn from_build(catalogue: &Catalogue, build: &Build) -> Attacker {
        let unit = catalogue.unit_of(build);
        let effects = catalogue.effects_of(build);
        Attacker {
            name: build.name.clone(),
            kind: unit.kind,
            ac: unit.ac,
            to_hit_bonus: effects.to_hit_bonus,
            ignores_smoke: effects.ignores_smoke,
            wetwire: unit.has_ability(WETWIRE_ABILITY),
            combined_arms: unit.has_ability(COMBINED_ARMS_ABILITY),
            moneyshot: unit.has_ability(MONEYSHOT_ABILITY),
            systems: build
                .systems
                .iter()
                .map(|s| System { weapon: catalogue.weapons[s.weapon].clone(), copies: s.copies })
                .collect(),
            points: build.points,
            speed: unit.speed,
            jump: unit.has_ability(JUMP_ABILITY),
            aerial: unit.has_ability(AERIAL_ABILITY),
            damage_reduction: effects.damage_reduction,
        }
    }

    /// An attacker built in code (tests, benchmarks, tools): one copy of each weapon as
    /// its own system, no bonuses, no thermal sight or faction training, points = `ac`,
    /// speed 0 (reaches only adjacent targets), no jump, not aerial, no armour.
    pub fn simple(name: &str, kind: UnitKind, ac: u32, weapons: Vec<Weapon>) -> Attacker {
        Attacker {
            name: name.to_string(),
            kind,
            ac,
            to_hit_bonus: 0,
            ignores_smoke: false,
            wetwire: false,
            combined_arms: false,
            moneyshot: false,
            systems: weapons.into_iter().map(|weapon| System { weapon, copies: 1 }).collect(),
            points: ac as f64,
            speed: 0,
            jump: false,
            aerial: false,
            damage_reduction: 0,
        }
    }

    /// Checks that this attacker may take the attack action `movement` names: pop and
    /// shoot ("Leap and jump capable units") and jump assault ("Jump equipped units
    /// only") need the unit ability `Jump` (3rd edition "Pop and Shoot", "Jump
    /// Assault"; the 2nd edition's likewise).
    ///
    /// # Errors
    /// `pop-and-shoot` or `jump-assault` for a unit without `Jump`, naming the build.
    pub fn check_movement(&self, movement: Movement) -> Result<(), String> {
        if matches!(movement, Movement::PopAndShoot | Movement::JumpAssault) && !self.jump {
            return Err(format!(
                "`{}` cannot {}: it needs a unit with the `{JUMP_ABILITY}` ability (the book: leap and jump capable units only)",
                self.name,
                movement.name()
            ));
        }
        Ok(())
    }

    /// Actions per turn: 2 for an MSV (1 when under-crewed), else 1.
    pub fn actions_per_turn(&self, under_crewed: bool) -> u32 {
        if self.kind == UnitKind::Msv && !under_crewed { MSV_ACTIONS_PER_TURN } else { OTHER_ACTIONS_PER_TURN }
    }

    /// Index of the system firing `weapon`.
    pub fn system_index(&self, weapon: &str) -> Option<usize> {
        self.systems.iter().position(|s| s.weapon.name.eq_ignore_ascii_case(weapon))
    }
}

/// Most bubble shields a target counts (more last any run of [`super::rulings::MAX_TURNS_LIMIT`]
/// turns).
pub const MAX_SHIELDS: u32 = 1000;

/// A target: a catalogue unit, a build, or a generic `ac:N`.
#[derive(Debug, Clone, PartialEq)]
pub struct Target {
    pub name: String,
    /// `None` for a generic `ac:N` target: every status applies to it.
    pub kind: Option<UnitKind>,
    /// AC that gives the attacker its size bonus.
    pub size_ac: u32,
    /// AC that divides damage.
    pub damage_ac: u32,
    /// Subtracted once per attack action.
    pub damage_reduction: u32,
    /// Defensive gear negates attackers' fire control.
    pub negates_fire_control: bool,
    /// Resets to 20 life at the end of every turn it survives.
    pub power_armor: bool,
    /// Syndicate Defense Masters: dug in is -3.
    pub defense_masters: bool,
    /// USSC Combat Agility: dodges an overrun or trample on 14 or less.
    pub combat_agility: bool,
    /// An aerial unit (unit ability `Aerial`): it cannot be hull down, a status of a
    /// "non-flying vehicle" (`AERIAL_RULES`).
    pub aerial: bool,
    /// Bubble shields the target drops in a game ([`Catalogue::shields_of`]), 0..=1000:
    /// attack runs play them (see [`super::attack_run`]).
    pub shields: u32,
    pub points: f64,
}

impl Target {
    /// A generic target of armor class `ac`: no gear, 20 life, points = AC.
    pub fn generic(ac: u32) -> Target {
        Target {
            name: format!("ac:{ac}"),
            kind: None,
            size_ac: ac,
            damage_ac: ac,
            damage_reduction: 0,
            negates_fire_control: false,
            power_armor: false,
            defense_masters: false,
            combat_agility: false,
            aerial: false,
            shields: 0,
            points: ac as f64,
        }
    }

    /// The bubble shield as a target: targeted as AC5, damaged as AC1, no armour or gear
    /// (3rd and 2nd edition "BUBBLE SHIELD").
    pub fn bubble_shield() -> Target {
        Target {
            name: "Bubble Shield".into(),
            kind: Some(UnitKind::Terrain),
            size_ac: SHIELD_SIZE_AC,
            damage_ac: SHIELD_DAMAGE_AC,
            ..Target::generic(SHIELD_SIZE_AC)
        }
    }

    pub fn from_unit(unit: &Unit) -> Target {
        Target {
            name: unit.name.clone(),
            kind: Some(unit.kind),
            size_ac: unit.ac,
            damage_ac: unit.damage_ac,
            damage_reduction: unit.effects.damage_reduction,
            negates_fire_control: unit.effects.negates_fire_control,
            power_armor: unit.power_armor,
            defense_masters: unit.has_ability(DEFENSE_MASTERS_ABILITY),
            combat_agility: unit.has_ability(COMBAT_AGILITY_ABILITY),
            aerial: unit.has_ability(AERIAL_ABILITY),
            shields: 0,
            points: unit.points,
        }
    }

    /// A build as a target: its unit with all its gear's effects.
    pub fn from_build(catalogue: &Catalogue, build: &Build) -> Target {
        let effects = catalogue.effects_of(build);
        Target {
            name: build.name.clone(),
            damage_reduction: effects.damage_reduction,
            negates_fire_control: effects.negates_fire_control,
            shields: catalogue.shields_of(build).min(MAX_SHIELDS),
            points: build.points,
            ..Target::from_unit(catalogue.unit_of(build))
        }
    }

    /// The bubble shields an engagement under `o` plays for this target: [`Target::shields`]
    /// under `BUBBLE_SHIELD`, else 0.
    pub fn shields_played(&self, o: &super::options::Options) -> u32 {
        if o.bubble_shield { self.shields } else { 0 }
    }

    /// Whether the target may be hull down: a non-flying, non-MSV vehicle, or generic
    /// (3rd edition "Hull Down": "non-flying vehicle"; an aerial vehicle never is).
    pub fn can_be_hull_down(&self) -> bool {
        matches!(self.kind, None | Some(UnitKind::Vehicle)) && !self.aerial
    }
}

/// How a target is named on the command line and in scenarios: a unit or build name,
/// `build:NAME` for a build even when a unit has its name, or `ac:N` for a generic
/// target.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TargetSpec {
    Named(String),
    Build(String),
    Ac(u32),
}

impl TargetSpec {
    /// Parse `ac:N` (1..=1000), `build:NAME` or a name.
    pub fn parse(text: &str) -> Result<TargetSpec, String> {
        let t = text.trim();
        if let Some(name) = t.strip_prefix("build:") {
            let name = name.trim();
            return if name.is_empty() {
                Err("empty build name after build:".into())
            } else {
                Ok(TargetSpec::Build(name.into()))
            };
        }
        if let Some(n) = t.strip_prefix("ac:").or_else(|| t.strip_prefix("AC:")) {
            return match n.trim().parse::<u32>() {
                Ok(ac) if (1..=1000).contains(&ac) => Ok(TargetSpec::Ac(ac)),
                _ => Err(format!("`{t}`: a generic target is ac:N with N from 1 to 1000")),
            };
        }
        if t.is_empty() {
            return Err("empty target name".into());
        }
        Ok(TargetSpec::Named(t.to_string()))
    }

    /// Resolve against a catalogue: units first, then builds.
    pub fn resolve(&self, catalogue: &Catalogue) -> Result<Target, String> {
        match self {
            TargetSpec::Ac(ac) => Ok(Target::generic(*ac)),
            TargetSpec::Build(name) => catalogue.find_build(name).map(|b| Target::from_build(catalogue, b)),
            TargetSpec::Named(name) => {
                // units first, then builds; an exact spelling before any other case
                let exact_unit = catalogue.units.iter().find(|u| u.name == name.trim());
                let exact_build = catalogue.builds.iter().find(|b| b.name == name.trim());
                if let Some(u) = exact_unit {
                    Ok(Target::from_unit(u))
                } else if let Some(b) = exact_build {
                    Ok(Target::from_build(catalogue, b))
                } else if let Some(u) = catalogue.unit(name) {
                    Ok(Target::from_unit(u))
                } else if let Some(b) = catalogue.build(name) {
                    Ok(Target::from_build(catalogue, b))
                } else {
                    let names = catalogue
                        .units
                        .iter()
                        .map(|u| u.name.as_str())
                        .chain(catalogue.builds.iter().map(|b| b.name.as_str()));
                    Err(format!(
                        "no unit or build named `{name}` in the {} (or use ac:N){}",
                        catalogue.origin,
                        crate::catalogue::error::did_you_mean(name, names)
                    ))
                }
            }
        }
    }
}

impl fmt::Display for TargetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TargetSpec::Named(n) => f.write_str(n),
            TargetSpec::Build(n) => write!(f, "build:{n}"),
            TargetSpec::Ac(ac) => write!(f, "ac:{ac}"),
        }
    }
}
