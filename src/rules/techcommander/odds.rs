//! Exact per-action odds of a build's weapon systems against a target: what
//! `volley odds` prints and what the engagements sample from.

use super::action::{ActionOdds, ActionSpec, DiceGroup};
use super::conditions::{AttackMode, Conditions};
use super::damage::{effective_reduction, life_lost};
use super::edition;
use super::options::Options;
use super::profile::{Attacker, Target};
use super::rulings::{DIE_SIDES, STARTING_LIFE};
use super::target_number::{NoShot, Shot, shot};

/// One row of odds: a weapon system (or the whole Omega Override) against a target.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemOdds {
    /// The weapon's name, or `Omega Override` for the combined row.
    pub weapon: String,
    pub copies: u32,
    /// d20s rolled.
    pub shots: u32,
    /// The shot's modifiers, or why it cannot be taken.
    pub shot: RowShot,
    /// Exact action statistics (all zero when there is no shot).
    pub odds: ActionOdds,
    /// What the action rolls; `None` when there is no shot.
    pub spec: Option<ActionSpec>,
}

/// The shot behind a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowShot {
    Fires(Shot),
    /// The Omega Override row: several target numbers, one per system.
    Combined,
    NoShot(NoShot),
}

impl SystemOdds {
    /// Unclamped target number; `None` when there is no shot or for the combined row.
    pub fn target_number(&self) -> Option<i32> {
        match self.shot {
            RowShot::Fires(s) => Some(s.target_number()),
            _ => None,
        }
    }
    /// P(one shot hits): 0 without a shot, `None` for the combined row.
    pub fn p_hit(&self) -> Option<f64> {
        match self.shot {
            RowShot::Fires(s) => Some(s.hitting_faces() as f64 / DIE_SIDES as f64),
            RowShot::Combined => None,
            RowShot::NoShot(_) => Some(0.0),
        }
    }
    /// Why there is no shot, if there is none.
    pub fn no_shot(&self) -> Option<NoShot> {
        match self.shot {
            RowShot::NoShot(n) => Some(n),
            _ => None,
        }
    }
}

fn no_action(dice: u32) -> ActionOdds {
    ActionOdds {
        dice,
        expected_hits: 0.0,
        p_any_hit: 0.0,
        expected_damage: 0.0,
        expected_life_loss: 0.0,
        life_lost: vec![1.0],
        p_one_action_kill: 0.0,
    }
}

/// What firing system `index` alone rolls at a target at full life (20), or why it
/// cannot fire: [`system_action_with`] with Moneyshot's bonus where it applies at full
/// life.
pub fn system_action(
    attacker: &Attacker,
    index: usize,
    target: &Target,
    cond: &Conditions,
    o: &Options,
) -> Result<(Shot, ActionSpec), NoShot> {
    let plain = system_action_with(attacker, index, target, cond, o, false)?;
    if moneyshot_life(attacker, &plain.1, cond, o).is_some_and(|life| life >= STARTING_LIFE) {
        system_action_with(attacker, index, target, cond, o, true)
    } else {
        Ok(plain)
    }
}

/// The life at or below which Mercenary *Moneyshot* adds `MONEYSHOT_BONUS` to the
/// action `spec` of `attacker` (ruling `MONEYSHOT`: the bonus applies when, with every
/// shot hitting, the life lost would reach the target's current life): that most life
/// the action can take. `None` when Moneyshot does not apply at all: the attacker lacks
/// it, faction training is off ([`edition::faction_training`]), the action is an Omega
/// Override (no positive modifiers), or the action can take no life.
pub fn moneyshot_life(attacker: &Attacker, spec: &ActionSpec, cond: &Conditions, o: &Options) -> Option<u32> {
    if !(attacker.moneyshot && edition::faction_training(o) && cond.mode != AttackMode::OmegaOverride) {
        return None;
    }
    let most: u32 = spec.groups.iter().map(|g| g.dice * g.damage).sum();
    Some(life_lost(most, spec.reduction, spec.damage_ac)).filter(|&l| l > 0)
}

/// What firing system `index` alone rolls, or why it cannot fire; with `moneyshot`, the
/// shot takes the Moneyshot bonus (`MONEYSHOT_BONUS`) as an attacker bonus.
pub fn system_action_with(
    attacker: &Attacker,
    index: usize,
    target: &Target,
    cond: &Conditions,
    o: &Options,
    moneyshot: bool,
) -> Result<(Shot, ActionSpec), NoShot> {
    let system = &attacker.systems[index];
    let mut shot = shot(attacker, &system.weapon, target, cond, o)?;
    if moneyshot {
        shot = shot.with_bonus(o.moneyshot_bonus as i32, o);
    }
    let splash =
        matches!(cond.mode, AttackMode::FireForEffect | AttackMode::FireForEffectBlind) && o.fire_for_effect_is_splash;
    let pierce = if splash { 0 } else { system.weapon.armor_piercing };
    let spec = ActionSpec {
        groups: vec![DiceGroup { dice: system.dice(), faces: shot.hitting_faces(), damage: system.weapon.damage }],
        reduction: effective_reduction(target.damage_reduction, pierce),
        damage_ac: target.damage_ac,
    };
    Ok((shot, spec))
}

/// The Omega Override action: every system that can fire, at once.
pub fn omega_action(attacker: &Attacker, target: &Target, cond: &Conditions, o: &Options) -> Option<ActionSpec> {
    let mut groups = Vec::new();
    // The armour piercing of the systems fired so far, combined by the Omega ruling.
    let mut pierce: Option<u32> = None;
    for (i, system) in attacker.systems.iter().enumerate() {
        if let Ok((s, _)) = system_action(attacker, i, target, cond, o) {
            groups.push(DiceGroup { dice: system.dice(), faces: s.hitting_faces(), damage: system.weapon.damage });
            let ap = system.weapon.armor_piercing;
            pierce = Some(match pierce {
                None => ap,
                Some(p) if o.omega_uses_smallest_armor_piercing => p.min(ap),
                Some(p) => p.max(ap),
            });
        }
    }
    (!groups.is_empty()).then(|| ActionSpec {
        groups,
        reduction: effective_reduction(target.damage_reduction, pierce.unwrap_or(0)),
        damage_ac: target.damage_ac,
    })
}

/// Odds of one system fired alone, played by the options `o`.
pub fn system_odds(attacker: &Attacker, index: usize, target: &Target, cond: &Conditions, o: &Options) -> SystemOdds {
    let system = &attacker.systems[index];
    let (shot, spec, odds) = match system_action(attacker, index, target, cond, o) {
        Ok((s, spec)) => {
            let odds = spec.odds();
            (RowShot::Fires(s), Some(spec), odds)
        }
        Err(e) => (RowShot::NoShot(e), None, no_action(system.dice())),
    };
    SystemOdds { weapon: system.weapon.name.clone(), copies: system.copies, shots: system.dice(), shot, odds, spec }
}

/// Odds for every weapon system of the attacker; in Omega Override mode, a last row for
/// the whole action (every system firing at once). Played by the options `o`.
pub fn all_odds(attacker: &Attacker, target: &Target, cond: &Conditions, o: &Options) -> Vec<SystemOdds> {
    let mut rows: Vec<SystemOdds> =
        (0..attacker.systems.len()).map(|i| system_odds(attacker, i, target, cond, o)).collect();
    if cond.mode == AttackMode::OmegaOverride {
        let dice = attacker.systems.iter().map(|s| s.dice()).sum();
        let (shot, odds, spec) = match omega_action(attacker, target, cond, o) {
            Some(spec) => (RowShot::Combined, spec.odds(), Some(spec)),
            // No system can fire: report the first system's reason.
            None => {
                let reason = rows.first().and_then(SystemOdds::no_shot).unwrap_or(NoShot::Blocked);
                (RowShot::NoShot(reason), no_action(dice), None)
            }
        };
        rows.push(SystemOdds {
            weapon: "Omega Override".into(),
            copies: attacker.systems.iter().map(|s| s.copies).sum(),
            shots: dice,
            shot,
            odds,
            spec,
        });
    }
    rows
}
