//! Exact odds of one special attack (battles §4 of `shared/rules/techcommander-battles.md`,
//! kernel §6): ram, death from above, overrun and trample, each one action and its own
//! system (`SPECIAL_AS_SYSTEM`), chosen by [`AttackMode`].
//!
//! Everything here is a pure function of (attacker, target, conditions, options, in the
//! red), so battle tables can be built from it once before the first trial. The rulings
//! are options (§4 block of [`Options`]): `ADJACENT_GAP`, `DAMAGE_DICE`,
//! `RAM_FIRE_CONTROL`, `RAM_SELF_ROUND`, `CLOSE_MODIFIERS`, `SMOKE_CLOSE`,
//! `DFA_SMOKE_PENALTY`, `DFA_AC_SOURCE`, `DFA_SELF_ARMOUR`, `TRAMPLE_ARMOUR`, `DODGE`,
//! `DODGE_TARGET`, `COMBAT_AGILITY_DODGE_TARGET`. `REACH_RULE` is [`reach`].
//!
//! Not in these odds: `OVERRUN_PATH` (without a map only the chosen target is on the
//! path) and `OVERRUN_FIRE` (the weapon system an overrunning unit may also fire is a
//! normal attack with the move-and-shoot modifier: see [`super::odds`]). Trample over a
//! rallied group is one trample per member ([`group_kills`]).

use std::collections::BTreeMap;

use super::conditions::{AttackMode, Conditions};
use super::options::Options;
use super::profile::{Attacker, Target};
use super::rulings::DIE_SIDES;

mod legal;
mod report;
mod roll;

pub use legal::{NoSpecial, check, reach};
pub use report::{SPECIAL_COLUMNS, special_report};
pub use roll::{HitRoll, dfa_losses, hit_roll, ram_losses};

/// `self_loss` of an attacker the attack eliminates outright (an aerial rammer): more
/// than any life.
pub const ELIMINATED: u32 = u32::MAX;

/// The four special attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    Ram,
    DeathFromAbove,
    Overrun,
    Trample,
}

impl Special {
    /// The special attack an attack mode names, if it names one.
    pub fn from_mode(mode: AttackMode) -> Option<Special> {
        match mode {
            AttackMode::Ram => Some(Special::Ram),
            AttackMode::DeathFromAbove => Some(Special::DeathFromAbove),
            AttackMode::Overrun => Some(Special::Overrun),
            AttackMode::Trample => Some(Special::Trample),
            _ => None,
        }
    }

    /// The book's name, as a row label.
    pub fn label(self) -> &'static str {
        match self {
            Special::Ram => "Ram",
            Special::DeathFromAbove => "Death from above",
            Special::Overrun => "Overrun",
            Special::Trample => "Trample",
        }
    }
}

/// One outcome of a special attack: its probability and the life (not damage) it takes
/// from the target and from the attacker, from the same action (ram's self damage comes
/// from the same d20 as the target's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpecialOutcome {
    /// Probability, in (0, 1].
    pub p: f64,
    /// Life the target loses (0 on a miss).
    pub target_loss: u32,
    /// Life the attacker loses; [`ELIMINATED`] when the attack eliminates it outright.
    pub self_loss: u32,
}

/// The exact odds of one special attack action.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecialOdds {
    /// P(the attack hits): the attacker's roll (ram, death from above) or a failed or
    /// declined dodge (overrun, trample). 0 when the attacker cannot reach.
    pub p_hit: f64,
    /// The joint distribution of (target loss, self loss), a miss included as (0, 0):
    /// sorted by (target_loss, self_loss), each pair once, probabilities summing to 1.
    pub outcomes: Vec<SpecialOutcome>,
}

impl SpecialOdds {
    /// An action that cannot hit (a failed jury rig left the attacker short: a plain
    /// move).
    pub fn plain_move() -> SpecialOdds {
        SpecialOdds { p_hit: 0.0, outcomes: vec![SpecialOutcome { p: 1.0, target_loss: 0, self_loss: 0 }] }
    }

    /// From weighted outcomes (pairs may repeat; zero weights are dropped).
    pub fn from_outcomes(p_hit: f64, outcomes: impl IntoIterator<Item = SpecialOutcome>) -> SpecialOdds {
        let mut joint: BTreeMap<(u32, u32), f64> = BTreeMap::new();
        for o in outcomes.into_iter().filter(|o| o.p > 0.0) {
            *joint.entry((o.target_loss, o.self_loss)).or_default() += o.p;
        }
        let outcomes =
            joint.into_iter().map(|((target_loss, self_loss), p)| SpecialOutcome { p, target_loss, self_loss });
        SpecialOdds { p_hit, outcomes: outcomes.collect() }
    }

    /// `w` × `a` + (1 − `w`) × `b`, `w` in [0, 1]: e.g. a jury rig that succeeds with
    /// probability `w`.
    pub fn mix(a: &SpecialOdds, w: f64, b: &SpecialOdds) -> SpecialOdds {
        let scaled =
            |s: &SpecialOdds, by: f64| s.outcomes.iter().map(|o| SpecialOutcome { p: o.p * by, ..*o }).collect();
        let (a_part, b_part): (Vec<_>, Vec<_>) = (scaled(a, w), scaled(b, 1.0 - w));
        SpecialOdds::from_outcomes(w * a.p_hit + (1.0 - w) * b.p_hit, a_part.into_iter().chain(b_part))
    }

    // Sums fold from +0.0: an empty `sum()` of f64 is −0.0, which would print as "-0".

    /// P(the target, at `life` ≥ 1, is taken to 0 or below).
    pub fn p_kill(&self, life: u32) -> f64 {
        self.outcomes.iter().filter(|o| o.target_loss >= life).fold(0.0, |s, o| s + o.p)
    }

    /// E[min(target loss, `life`)]: the life the target at `life` loses, on average.
    pub fn expected_target_loss(&self, life: u32) -> f64 {
        self.outcomes.iter().fold(0.0, |s, o| s + o.p * o.target_loss.min(life) as f64)
    }

    /// P(the attacker, at `life` ≥ 1, is taken to 0 or below by its own attack).
    pub fn p_self_eliminated(&self, life: u32) -> f64 {
        self.outcomes.iter().filter(|o| o.self_loss >= life).fold(0.0, |s, o| s + o.p)
    }

    /// E[min(self loss, `life`)]: the life the attacker at `life` loses, on average.
    pub fn expected_self_loss(&self, life: u32) -> f64 {
        self.outcomes.iter().fold(0.0, |s, o| s + o.p * o.self_loss.min(life) as f64)
    }
}

/// The odds of the special attack of `cond.mode` in one fire-control state: normal, or
/// after a failed jury rig when `cond.jury_rig_failed` (no fire control, half speed: out
/// of reach, the action is a plain move). Legality is [`check`]'s.
pub fn state_odds(
    special: Special,
    attacker: &Attacker,
    target: &Target,
    cond: &Conditions,
    o: &Options,
) -> SpecialOdds {
    if !reach(attacker, cond, o) {
        return SpecialOdds::plain_move();
    }
    roll::odds(special, attacker, target, cond, o)
}

/// The exact odds of the special attack of `cond.mode` by `attacker` on `target`.
/// `in_the_red`: the attacker rolls a jury rig for this action (kernel §4), so the odds
/// mix the normal state (d20 ≤ `JURY_RIG_SUCCESS_MAX`) and the failed one; a
/// `cond.jury_rig_failed` attacker is in the failed state either way.
///
/// # Errors
/// As [`check`].
pub fn special_odds(
    attacker: &Attacker,
    target: &Target,
    cond: &Conditions,
    o: &Options,
    in_the_red: bool,
) -> Result<SpecialOdds, NoSpecial> {
    let special = check(attacker, target, cond, o)?;
    if !in_the_red || cond.jury_rig_failed {
        return Ok(state_odds(special, attacker, target, cond, o));
    }
    let success = o.jury_rig_success_max.min(DIE_SIDES) as f64 / DIE_SIDES as f64;
    let normal = state_odds(special, attacker, target, cond, o);
    let failed = state_odds(special, attacker, target, &Conditions { jury_rig_failed: true, ..*cond }, o);
    Ok(SpecialOdds::mix(&normal, success, &failed))
}

/// How many members of one rallied group a trample may cross: at most half its speed
/// (rounded down).
pub fn trample_members(attacker: &Attacker) -> u32 {
    attacker.speed / 2
}

/// The distribution of kills when `members` units are each killed independently with
/// probability `p_kill` (a trample over a rallied group: one dodge and one damage roll
/// per member): element k is P(k kills), k = 0..=members.
pub fn group_kills(p_kill: f64, members: u32) -> Vec<f64> {
    let mut dist = vec![1.0];
    for _ in 0..members {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, &p) in dist.iter().enumerate() {
            next[k] += p * (1.0 - p_kill);
            next[k + 1] += p * p_kill;
        }
        dist = next;
    }
    dist
}

#[cfg(test)]
mod tests;
