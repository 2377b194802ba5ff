//! What each special attack rolls (battles §4): its hit roll (the attacker's d20 against
//! a close-combat target number, or the target's dodge) and the life its damage takes
//! from target and attacker.

use super::{ELIMINATED, Special, SpecialOdds, SpecialOutcome};
use crate::rules::techcommander::conditions::{Conditions, Smoke};
use crate::rules::techcommander::damage::life_lost;
use crate::rules::techcommander::edition;
use crate::rules::techcommander::options::{
    AcSource, Armour, CloseModifiers, DamageDice, Dodge, Options, Rounding, SmokeClose,
};
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::rules::techcommander::rulings::{BASE_TARGET_NUMBER, DIE_SIDES};
use crate::rules::techcommander::target_number::{
    faction_fire_control, fire_control_applies, hitting_faces, status_penalty,
};

/// How a special attack decides whether it hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitRoll {
    /// Ram and death from above: the attacker hits on a d20 ≤ `target_number`
    /// (unclamped); `faces` (0..=20) of the d20 hit.
    Attacker { target_number: i32, faces: u32 },
    /// Overrun and trample: the target dodges on a d20 ≤ `dodge_target` (1..=20); `None`
    /// when it does not dodge (`DODGE=never`). A failed dodge is a hit.
    Dodge { dodge_target: Option<u32> },
}

impl HitRoll {
    /// P(the attack hits), exact in twentieths.
    pub fn p_hit(&self) -> f64 {
        let sides = DIE_SIDES as f64;
        match *self {
            HitRoll::Attacker { faces, .. } => faces as f64 / sides,
            HitRoll::Dodge { dodge_target: None } => 1.0,
            HitRoll::Dodge { dodge_target: Some(t) } => (DIE_SIDES - t.min(DIE_SIDES)) as f64 / sides,
        }
    }
}

/// Whether a ram or death from above counts as made in smoke (`SMOKE_CLOSE`).
fn in_smoke(cond: &Conditions, o: &Options) -> bool {
    o.smoke_close == SmokeClose::ScenarioSmoke && cond.smoke != Smoke::None
}

/// The hit roll of `special` (`CLOSE_MODIFIERS`): T = 10 + size (capped) + listed bonus
/// − defender statuses (dug in, hull down, forest; posted up only without its cover
/// ruling); no cover, range, movement or smoke penalty. Ram: + `RAM_FIRE_CONTROL` where
/// fire control applies and not in smoke. Death from above: no fire control, −
/// `DFA_SMOKE_PENALTY` in smoke. Overrun and trample: the target's dodge
/// (`DODGE_TARGET`; `COMBAT_AGILITY_DODGE_TARGET` where faction training applies, i.e.
/// `EDITION=2` with `FACTION_TRAINING` on: USSC Combat Agility is 2nd-edition faction
/// training, see [`edition::faction_training`]).
pub fn hit_roll(special: Special, attacker: &Attacker, target: &Target, cond: &Conditions, o: &Options) -> HitRoll {
    if matches!(special, Special::Overrun | Special::Trample) {
        let agile = edition::faction_training(o) && target.combat_agility;
        let t = if agile { o.combat_agility_dodge_target } else { o.dodge_target };
        return HitRoll::Dodge { dodge_target: (o.dodge == Dodge::AlwaysExceptProne).then_some(t.min(DIE_SIDES)) };
    }
    let bonuses = o.close_modifiers == CloseModifiers::WithAttackerBonuses;
    let mut t =
        BASE_TARGET_NUMBER + target.size_ac.min(o.size_bonus_cap) as i32 - status_penalty(target, cond, false, o);
    if bonuses {
        t += attacker.to_hit_bonus;
    }
    match special {
        Special::Ram if fire_control_applies(target, cond) && !in_smoke(cond, o) => {
            t += o.ram_fire_control as i32;
            if bonuses {
                t += faction_fire_control(attacker, cond, o);
            }
        }
        Special::DeathFromAbove if in_smoke(cond, o) => t -= o.dfa_smoke_penalty as i32,
        _ => {}
    }
    HitRoll::Attacker { target_number: t, faces: hitting_faces(t, o) }
}

/// "AC × d20" damage under `DAMAGE_DICE`, as (damage, probability) pairs: one d20 times
/// `ac`, or `ac` d20s added up.
fn ac_times_d20(ac: u32, o: &Options) -> Vec<(u32, f64)> {
    let p = 1.0 / DIE_SIDES as f64;
    match o.damage_dice {
        DamageDice::OneD20TimesAc => (1..=DIE_SIDES).map(|d| (ac.saturating_mul(d), p)).collect(),
        DamageDice::AcD20s => {
            // pmf[s] = P(the dice so far sum to s).
            let mut pmf = vec![1.0];
            for _ in 0..ac {
                let mut next = vec![0.0; pmf.len() + DIE_SIDES as usize];
                for (s, &q) in pmf.iter().enumerate().filter(|(_, q)| **q > 0.0) {
                    for d in 1..=DIE_SIDES as usize {
                        next[s + d] += q * p;
                    }
                }
                pmf = next;
            }
            pmf.into_iter().enumerate().filter(|(_, q)| *q > 0.0).map(|(s, q)| (s as u32, q)).collect()
        }
    }
}

/// Half of `damage`, rounded by `RAM_SELF_ROUND`.
fn half(damage: u32, o: &Options) -> u32 {
    match o.ram_self_round {
        Rounding::Up => damage.div_ceil(2),
        Rounding::Down => damage / 2,
    }
}

/// Life lost by target and rammer when a ram deals `damage` (AC × d20): the target
/// floor(damage / damage AC), no armour; the rammer half of it (`RAM_SELF_ROUND`) over
/// its own AC, no armour, or [`ELIMINATED`] when aerial.
pub fn ram_losses(a: &Attacker, t: &Target, damage: u32, o: &Options) -> (u32, u32) {
    let self_loss = if a.aerial { ELIMINATED } else { half(damage, o) / a.ac.max(1) };
    (life_lost(damage, 0, t.damage_ac), self_loss)
}

/// Life lost by target and attacker when death from above hits with damage d20 `d` and
/// landing d20 `landing` (1..=20): the target AC × 20 + d (`DFA_AC_SOURCE`) over its
/// damage AC, no armour; the attacker `landing` over its own AC (`DFA_SELF_ARMOUR`).
pub fn dfa_losses(a: &Attacker, t: &Target, d: u32, landing: u32, o: &Options) -> (u32, u32) {
    let ac = match o.dfa_ac_source {
        AcSource::Attacker => a.ac,
        AcSource::Target => t.damage_ac,
    };
    let armour = if o.dfa_self_armour == Armour::Applies { a.damage_reduction } else { 0 };
    (life_lost(ac.saturating_mul(DIE_SIDES).saturating_add(d), 0, t.damage_ac), life_lost(landing, armour, a.ac.max(1)))
}

/// The exact odds of `special` in the state `cond` gives (the caller checked legality
/// and reach).
pub(super) fn odds(special: Special, a: &Attacker, t: &Target, cond: &Conditions, o: &Options) -> SpecialOdds {
    let p_hit = hit_roll(special, a, t, cond, o).p_hit();
    let mut outcomes = vec![SpecialOutcome { p: 1.0 - p_hit, target_loss: 0, self_loss: 0 }];
    match special {
        Special::Ram => {
            for (damage, p) in ac_times_d20(a.ac, o) {
                let (target_loss, self_loss) = ram_losses(a, t, damage, o);
                outcomes.push(SpecialOutcome { p: p_hit * p, target_loss, self_loss });
            }
        }
        Special::DeathFromAbove => {
            let p = p_hit / (DIE_SIDES * DIE_SIDES) as f64;
            for d in 1..=DIE_SIDES {
                for landing in 1..=DIE_SIDES {
                    let (target_loss, self_loss) = dfa_losses(a, t, d, landing, o);
                    outcomes.push(SpecialOutcome { p, target_loss, self_loss });
                }
            }
        }
        Special::Overrun | Special::Trample => {
            let armour = special == Special::Overrun || o.trample_armour == Armour::Applies;
            let reduction = if armour { t.damage_reduction } else { 0 };
            for (damage, p) in ac_times_d20(a.ac, o) {
                let target_loss = life_lost(damage, reduction, t.damage_ac);
                outcomes.push(SpecialOutcome { p: p_hit * p, target_loss, self_loss: 0 });
            }
        }
    }
    SpecialOdds::from_outcomes(p_hit, outcomes)
}
