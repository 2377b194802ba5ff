//! The bubble shield in attack runs (Ruling `BUBBLE_SHIELD`, docs/battles.md "The bubble
//! shield").
//!
//! The books (3rd and 2nd edition "BUBBLE SHIELD", "Bubbled"): the shield "May be dropped
//! … adjacent to the controlling unit any time"; "shots targeted in or out of the shield
//! will hit the shield instead"; a bubbled unit "can't be damaged by a shot from the
//! outside unless the bubble shield was destroyed first"; the shield "starts with 20
//! life, and recharges to 20 at end of round unless eliminated. If reduced to 0 life the
//! shield is immediately eliminated; however, units with the shield previously
//! intervening are not affected by damage from that particular shot or linked shots";
//! it "may be targeted as an AC5 size object but takes damage as a normal AC1
//! deployable"; "Once a shield is eliminated, another shield may not be dropped at, or
//! overlapping, the eliminated shield's area for the remainder of the turn".
//!
//! Played as:
//! - The target carries [`super::Target::shields`] shields a game (its projectors'
//!   rounds). At the first attack of a turn with no shield of its standing, it drops one
//!   if it has one left (it is attacked, so it has every reason to). A shield standing at
//!   the end of a turn is back at 20 life for the next ([`SHIELD_LIFE`]).
//! - While a shield stands, each attack is rolled at the shield: size AC5, damage AC1, no
//!   armour or defensive gear, the line's range, cover, smoke and forest and the
//!   attacker's own movement, but none of the target's postures (dug in, hull down,
//!   posted up: the shield stands between). The plan is the target's (the attacker fires
//!   the systems it fires at the unit). An attack that brings the shield to 0 eliminates
//!   it and its overflow is lost; later attacks that turn reach the unit, and no new
//!   shield is dropped before the next turn.
//! - `SHIELD_BYPASS`: an auto-stabilized attacker (a non-MSV vehicle) whose speed reaches
//!   inside the shield (speed >= range − [`SHIELD_RADIUS`]) fires at the unit from inside
//!   it during its move ("useful to get around defenses such as a bubble shield"): while
//!   a shield stands its attacks are rolled at the unit as after a half move (the
//!   auto-stabilized −1), at the run's range, and the shield takes none of them.
//! - `BUBBLE_SHIELD` off: the gear does nothing.
//! - Moneyshot (2nd edition) reads the life of what the attack hits: the shield's while it
//!   stands.
//!
//! The Monte Carlo loop plays one run at a time (the lanes of [`super::hot`] are for runs
//! without a shield, which are unchanged); [`exact`] is the Markov chain over (life,
//! shield life, shields left) through the same plan.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::stats::{ExactTtk, TtkTally};

use super::super::catalogue::UnitKind;
use super::super::compiled::{CompiledSide, FC_NORMAL, MONEYSHOT, NO_MONEYSHOT};
use super::super::conditions::{Conditions, Movement, Statuses};
use super::super::options::Options;
use super::super::policy::Policy;
use super::super::profile::{Attacker, Target};
use super::super::rulings::{SHIELD_LIFE, SHIELD_RADIUS, STARTING_LIFE};
use super::AttackRun;

/// The laws of the plan's attacks at the target's bubble shield.
#[derive(Debug, Clone, PartialEq)]
pub struct ShieldLaws {
    /// Shields the target can drop in the run (at most one a turn).
    pub shields: u32,
    /// The attacker fires at the unit from inside the shield (`SHIELD_BYPASS`).
    pub bypass: bool,
    /// The attacker compiled against the shield, or against the unit after a move when
    /// it bypasses it: its samplers and specs give each system's law while a shield
    /// stands.
    side: CompiledSide,
}

/// The conditions of an attack at the shield around a target attacked under `cond`: the
/// same, without the target's postures.
pub fn at_shield(cond: &Conditions) -> Conditions {
    let statuses = Statuses { forest: cond.statuses.forest, ..Statuses::default() };
    Conditions { statuses, ..*cond }
}

/// Whether `attacker` fires at the unit from inside its shield under `cond`
/// (`SHIELD_BYPASS`): an auto-stabilized vehicle whose speed reaches the shield.
pub fn bypasses(attacker: &Attacker, cond: &Conditions, o: &Options) -> bool {
    o.shield_bypass && attacker.kind == UnitKind::Vehicle && f64::from(attacker.speed) >= cond.range - SHIELD_RADIUS
}

/// Whether a covered `unit` fires from outside its shield during its move and returns
/// inside (`SHIELD_SORTIE`, the project's ruling): an auto-stabilized vehicle ("may take
/// shot(s) from any point during its movement path"). Any other unit leaves its shield to
/// fire ("cannot shoot from inside to the outside"). Duels and battles share it.
pub fn sorties(unit: &Attacker) -> bool {
    unit.kind == UnitKind::Vehicle
}

/// The conditions of a bypassing attack: those given, after at least a half move.
pub(crate) fn moved(cond: &Conditions) -> Conditions {
    let movement = match cond.movement {
        Movement::Stationary | Movement::AttackAndCover => Movement::Half,
        m => m,
    };
    Conditions { movement, ..*cond }
}

/// `attacker` compiled for its attacks at `target` while a bubble shield covers it: at
/// the shield, or at the unit after a half move when it bypasses the shield (the
/// `bool`, [`bypasses`]). Attack runs and duels share it.
///
/// # Errors
/// What [`CompiledSide::new`] refuses.
pub(crate) fn covered_side(
    attacker: &Attacker,
    target: &Target,
    cond: &Conditions,
    o: &Options,
    policy: Policy,
) -> Result<(CompiledSide, bool), String> {
    let bypass = bypasses(attacker, cond, o);
    let side = if bypass {
        CompiledSide::new(attacker, target, &moved(cond), o, policy)?
    } else {
        CompiledSide::new(attacker, &Target::bubble_shield(), &at_shield(cond), o, policy)?
    };
    Ok((side, bypass))
}

impl ShieldLaws {
    /// The shield laws of `attacker`'s systems under `cond`; `None` when `target` carries
    /// no shield (or `BUBBLE_SHIELD` is off).
    ///
    /// # Errors
    /// What [`CompiledSide::new`] refuses against the shield.
    pub(super) fn new(
        attacker: &Attacker,
        target: &Target,
        cond: &Conditions,
        o: &Options,
        policy: Policy,
    ) -> Result<Option<ShieldLaws>, String> {
        let shields = target.shields_played(o);
        if shields == 0 {
            return Ok(None);
        }
        let (side, bypass) = covered_side(attacker, target, cond, o, policy)?;
        Ok(Some(ShieldLaws { shields, bypass, side }))
    }

    /// Whether an attack of `system` while a shield stands takes Moneyshot's bonus at
    /// `life` (the shield's, or the unit's when it bypasses the shield).
    fn moneyshot_applies(&self, system: u8, life: i32) -> bool {
        let m = self.side.moneyshot_life[system as usize];
        m != NO_MONEYSHOT && life <= m
    }

    /// The law of the life an attack of `system` takes while a shield stands (index:
    /// life; the shield's, or the unit's when it bypasses it), with Moneyshot's bonus or
    /// without; a sure 0 when the system cannot hit.
    fn life_lost(&self, system: u8, moneyshot: bool) -> Vec<f64> {
        let i = system as usize;
        let spec = if moneyshot { self.side.specs[FC_NORMAL + MONEYSHOT][i].as_ref() } else { None };
        spec.or(self.side.specs[FC_NORMAL][i].as_ref()).map_or_else(|| vec![1.0], |s| s.odds().life_lost)
    }

    /// Life taken by one attack of `system` while a shield stands, at `life` (the
    /// shield's, or the unit's when it bypasses it: what Moneyshot reads), drawn from
    /// `rng` as [`ShieldLaws::life_lost`] gives its law; 0, drawing nothing, when the
    /// system cannot hit.
    fn sample(&self, system: u8, life: i32, rng: &mut Xoshiro256PlusPlus) -> i32 {
        let i = system as usize;
        let boosted = if self.moneyshot_applies(system, life) {
            self.side.samplers[FC_NORMAL + MONEYSHOT][i].as_ref()
        } else {
            None
        };
        boosted.or(self.side.samplers[FC_NORMAL][i].as_ref()).map_or(0, |s| s.sample(rng) as i32)
    }
}

/// Play `trials` runs of `run`, whose target carries `shield`, from `rng` into `tally`'s
/// kills (the caller counts the trials).
pub(super) fn play(
    run: &AttackRun,
    shield: &ShieldLaws,
    rng: &mut Xoshiro256PlusPlus,
    trials: u32,
    tally: &mut TtkTally,
) {
    let (full, fresh) = (STARTING_LIFE as i32, SHIELD_LIFE as i32);
    for _ in 0..trials {
        let (mut life, mut standing, mut left) = (full, 0i32, shield.shields);
        for (p, step) in run.plan.iter().enumerate() {
            if p == 0 || run.plan[p - 1].turn != step.turn {
                if standing > 0 {
                    standing = fresh;
                } else if left > 0 {
                    (standing, left) = (fresh, left - 1);
                }
            }
            if standing > 0 && !shield.bypass {
                standing = (standing - shield.sample(step.system, standing, rng)).max(0);
            } else {
                life -= if standing > 0 {
                    shield.sample(step.system, life, rng)
                } else {
                    run.sampler(run.step_index(p, life)).sample(rng) as i32
                };
                if life <= 0 {
                    tally.kills_by_turn[step.turn as usize] += 1;
                    tally.kills_by_action[step.action as usize] += 1;
                    break;
                }
            }
            if step.reset_after {
                life = full;
            }
        }
    }
}

/// The exact time-to-kill law of `run`, whose target carries `shield`: a Markov chain over
/// (target life 1..=20, shield life 0..=20, shields left) through the plan.
pub(super) fn exact(run: &AttackRun, shield: &ShieldLaws) -> ExactTtk {
    let full = STARTING_LIFE as usize;
    let fresh = SHIELD_LIFE as usize;
    // A target drops at most one shield a turn.
    let turns = run.plan.last().map_or(0, |s| s.turn as u32 + 1);
    let shields = shield.shields.min(turns) as usize;
    let (lives, sides) = (full + 1, fresh + 1);
    let at = |l: usize, s: usize, u: usize| (u * sides + s) * lives + l;
    let mut alive = vec![0.0f64; lives * sides * (shields + 1)];
    alive[at(full, 0, shields)] = 1.0;
    let mut kill_by_turn = vec![0.0; run.max_turns as usize];
    let mut kill_by_action = vec![0.0; run.plan.len()];
    let mut unit_laws: Vec<Option<[Vec<f64>; 2]>> = Vec::new();
    let mut shield_laws: Vec<Option<[Vec<f64>; 2]>> = Vec::new();
    for (i, step) in run.plan.iter().enumerate() {
        let sys = step.system as usize;
        if unit_laws.len() <= sys {
            unit_laws.resize(sys + 1, None);
            shield_laws.resize(sys + 1, None);
        }
        let unit = unit_laws[sys].get_or_insert_with(|| {
            let boosted = run.moneyshot_applies(i, 1);
            [run.step_spec(i, false).odds().life_lost, run.step_spec(i, boosted).odds().life_lost]
        });
        let standing_law = shield_laws[sys]
            .get_or_insert_with(|| [shield.life_lost(step.system, false), shield.life_lost(step.system, true)]);
        if i == 0 || run.plan[i - 1].turn != step.turn {
            // A new turn: a standing shield is back at 20; else one is dropped if left.
            let mut next = vec![0.0f64; alive.len()];
            for (l, s, u, m) in live(&alive, lives, sides) {
                let to = match (s, u) {
                    (0, 0) => at(l, 0, 0),
                    (0, _) => at(l, fresh, u - 1),
                    _ => at(l, fresh, u),
                };
                next[to] += m;
            }
            alive = next;
        }
        let mut next = vec![0.0f64; alive.len()];
        let mut killed = 0.0;
        for (l, s, u, m) in live(&alive, lives, sides) {
            if s > 0 && !shield.bypass {
                let law = &standing_law[usize::from(shield.moneyshot_applies(step.system, s as i32))];
                for (d, &p) in law.iter().enumerate() {
                    next[at(l, s.saturating_sub(d), u)] += m * p;
                }
            } else {
                let law = if s > 0 {
                    &standing_law[usize::from(shield.moneyshot_applies(step.system, l as i32))]
                } else {
                    &unit[usize::from(run.moneyshot_applies(i, l as i32))]
                };
                for (d, &p) in law.iter().enumerate() {
                    if d >= l {
                        killed += m * p;
                    } else {
                        next[at(l - d, s, u)] += m * p;
                    }
                }
            }
        }
        kill_by_turn[step.turn as usize] += killed;
        kill_by_action[step.action as usize] += killed;
        if step.reset_after {
            for u in 0..=shields {
                for s in 0..sides {
                    let survivors: f64 = (1..lives).map(|l| std::mem::take(&mut next[at(l, s, u)])).sum();
                    next[at(full, s, u)] = survivors;
                }
            }
        }
        alive = next;
    }
    ExactTtk::from_kill_pmfs(kill_by_turn, kill_by_action)
}

/// The states of `alive` with mass, in index order (shields left, then shield life, then
/// life): (life 1.., shield life, shields left, mass); `lives` and `sides` are the sizes
/// of the inner two dimensions.
fn live(alive: &[f64], lives: usize, sides: usize) -> impl Iterator<Item = (usize, usize, usize, f64)> + '_ {
    alive
        .iter()
        .enumerate()
        .filter(move |&(i, &m)| m != 0.0 && i % lives > 0)
        .map(move |(i, &m)| (i % lives, (i / lives) % sides, i / (lives * sides), m))
}

#[cfg(test)]
#[path = "shield_tests.rs"]
mod tests;
