//! Omega Override as a battle action (techcommander-battles.md §2.4, kernel §2): an MSV
//! with no earlier action this turn fires every weapon system at one target, with no
//! fire control and no positive modifiers, its defensive gear offline for the rest of
//! the turn; it ends the MSV's turn and costs one player action.
//!
//! An Omega spends every action the MSV has this turn (two; one when its side plays
//! under-crewed, §2.2), so scoring it against one ordinary attack (a myopic score)
//! prefers it wrongly. It is compared instead with the exact value of the best
//! sequence of as many ordinary attacks as the MSV could play at the same target this
//! turn: for two actions, the
//! greedy score of the convolution of the two attacks' life-loss laws (the second
//! attack's law taken at the life the first leaves, so Moneyshot stays exact), in the
//! red mixed by the jury-rig odds per action (`JURY_RIG_PER_ACTION`) or per turn; for
//! one action (under-crewed), the best single attack's exact score. The policies play
//! an Omega only where its own exact score beats that value, and only before the MSV's
//! first action of the turn ([`Omega::fresh`]). Everything is compiled here, before the
//! first battle.
//!
//! Simplifications (documented): the comparison ignores special attacks and the smoke
//! or gear state changing between the two attacks; an Omega is offered only when every
//! system it would fire has rounds left (the compiled law fires them all); the Omega
//! fires from where the MSV stands (`stationary`), whatever the side's movement.

use super::tables::{ByLife, NONE, Tables, Value, by_life, gear_matters, state_of};
use super::units::BattleUnit;
use crate::engine::battle::slots::ones;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{AttackMode, Conditions, Movement, Smoke};
use crate::rules::techcommander::odds::{omega_action, system_action};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;
use crate::rules::techcommander::sampler::ActionSampler;

/// Omega states per (attacker, target): smoked × the target's gear offline.
const STATES: usize = 4;

/// The Omega state of a shot.
#[inline(always)]
pub fn omega_state(smoked: bool, offline: bool) -> usize {
    (offline as usize) * 2 + smoked as usize
}

/// The compiled Omega Overrides of a battle (empty when no unit may make one).
#[derive(Debug, Clone, Default)]
pub struct Omega {
    units: usize,
    stride: usize,
    /// Whether the policies need to look at unit `a`'s Omega at all: some state where
    /// it beats every two-attack sequence, or systems with limited rounds (whose
    /// exhaustion changes the comparison).
    pub look: Vec<bool>,
    /// Whether unit `a`'s Omega beats its best two attacks with every system ready
    /// somewhere (else it can win only once a system has run out).
    pub beats: Vec<bool>,
    /// Whether any unit's Omega needs looking at.
    pub any: bool,
    /// Per unit, the actions it has when its turn starts: an Omega is legal only while
    /// it still has them all (no earlier action this turn). 2 for an MSV, 1 for an MSV
    /// of an under-crewed side (then compared with its best single attack).
    pub fresh: Vec<u8>,
    /// Per unit, the actions left at which the policies look at its Omega: `fresh` when
    /// `look`, else `u32::MAX` (never): one comparison in the policy step.
    pub look_at: Vec<u32>,
    /// `entry[(a * units + t) * 4 + omega_state]`: index into the vectors below, or
    /// [`NONE`].
    entry: Vec<u32>,
    pub samplers: Vec<ActionSampler>,
    /// Bits of the systems each entry fires.
    pub systems: Vec<u32>,
    /// The Omega's greedy score by target life, out of the red `[0]` and in the red
    /// `[1]` (times the jury-rig odds under `OMEGA_NEEDS_JURY_RIG`).
    pub score: Vec<[ByLife; 2]>,
    /// The value of the best sequence of ordinary attacks (two, or one when
    /// under-crewed) with every system ready, by target life, out of and in the red.
    pub best_pair: Vec<[ByLife; 2]>,
    /// Per entry, out of and in the red: bit `life` set where the Omega's score beats
    /// the best two-attack value with every system ready.
    pub wins: Vec<[u32; 2]>,
    /// `pair[e][red][s1 * stride + s2]`: the value of attacking with `s1` then `s2`;
    /// on the diagonal, `s1` alone when `SYSTEM_ONCE_PER_TURN`; `s1` alone everywhere
    /// for an MSV with one action (under-crewed).
    pair: Vec<[Vec<ByLife>; 2]>,
}

impl Omega {
    /// Every Omega Override of an MSV at an enemy (`OMEGA_IN_BATTLES`), with the values
    /// of the MSV's two-attack sequences from `tables` (the battle's shot tables, whose
    /// conditions are `conditions`); `jury_ok` is P(a jury rig keeps fire control).
    pub fn new(
        units: &[BattleUnit],
        conditions: &[Conditions],
        tables: &Tables,
        o: &Options,
        value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
        jury_ok: f64,
    ) -> Omega {
        let n = units.len();
        let stride = units.iter().map(|u| u.attacker.systems.len()).max().unwrap_or(0).max(1);
        let mut om = Omega {
            units: n,
            stride,
            look: vec![false; n],
            beats: vec![false; n],
            fresh: units.iter().map(|u| u.attacker.actions_per_turn(conditions[u.side].under_crewed) as u8).collect(),
            entry: vec![NONE; n * n * STATES],
            ..Omega::default()
        };
        for (a, ua) in units.iter().enumerate() {
            let nsys = ua.attacker.systems.len();
            if !o.omega_in_battles || ua.kind != UnitKind::Msv || nsys == 0 {
                continue;
            }
            om.look[a] = ua.attacker.systems.iter().any(|s| s.rounds().is_some());
            for (d, ud) in units.iter().enumerate() {
                if ua.side == ud.side {
                    continue;
                }
                let v = value(ua, ud, o);
                for offline in [false, true] {
                    let target = if offline && gear_matters(ud) { &ud.offline_target } else { &ud.target };
                    for smoked in [false, true] {
                        let mut cond = Conditions {
                            mode: AttackMode::OmegaOverride,
                            movement: Movement::Stationary,
                            jury_rig_failed: false,
                            ..conditions[ua.side]
                        };
                        if smoked && cond.smoke == Smoke::None {
                            cond.smoke = Smoke::Smoke;
                        }
                        let Some(spec) = omega_action(&ua.attacker, target, &cond, o) else {
                            continue;
                        };
                        let systems = (0..nsys)
                            .filter(|&i| system_action(&ua.attacker, i, target, &cond, o).is_ok())
                            .fold(0u32, |bits, i| bits | 1 << i);
                        let (_, plain) = by_life(&spec.odds().life_lost, v);
                        let red =
                            if o.omega_needs_jury_rig { plain.map(|x| (x as f64 * jury_ok) as f32) } else { plain };
                        let one = om.fresh[a] < 2;
                        let pairs = two_attacks(tables, a, d, smoked, offline, one, nsys, stride, v, o, jury_ok);
                        let mut best = [[f32::NEG_INFINITY; STARTING_LIFE as usize + 1]; 2];
                        for (r, table) in pairs.iter().enumerate() {
                            for values in table {
                                for l in 1..=STARTING_LIFE as usize {
                                    best[r][l] = best[r][l].max(values[l]);
                                }
                            }
                        }
                        let score = [plain, red];
                        let wins = [0, 1].map(|r| {
                            (1..=STARTING_LIFE as usize)
                                .filter(|&l| score[r][l] > best[r][l])
                                .fold(0u32, |bits, l| bits | 1 << l)
                        });
                        om.beats[a] |= wins != [0, 0];
                        om.wins.push(wins);
                        om.entry[(a * n + d) * STATES + omega_state(smoked, offline)] = om.samplers.len() as u32;
                        om.samplers.push(ActionSampler::new(&spec));
                        om.systems.push(systems);
                        om.score.push(score);
                        om.best_pair.push(best);
                        om.pair.push(pairs);
                    }
                }
            }
        }
        for a in 0..n {
            om.look[a] |= om.beats[a];
        }
        om.any = om.look.iter().any(|&l| l);
        om.look_at = (0..n).map(|a| if om.look[a] { om.fresh[a] as u32 } else { u32::MAX }).collect();
        om
    }

    /// Looks at every unit the Omegas `other` (the same battle's at dug-in targets,
    /// [`super::variants`]) need looked at, so one look covers both.
    pub fn merge_look(&mut self, other: &Omega) {
        for (a, (look, beats)) in self.look.iter_mut().zip(self.beats.iter_mut()).enumerate() {
            *look |= other.look[a];
            *beats |= other.beats[a];
        }
        self.any = self.look.iter().any(|&l| l);
        self.look_at = (0..self.units).map(|a| if self.look[a] { self.fresh[a] as u32 } else { u32::MAX }).collect();
    }

    /// The Omega of `a` at `t` in `state` ([`omega_state`]), or [`NONE`].
    #[inline(always)]
    pub fn entry(&self, a: usize, t: usize, state: usize) -> u32 {
        self.entry[(a * self.units + t) * STATES + state]
    }

    /// The best two-attack value of entry `e` over the `ready` systems (bits) at `life`.
    pub fn best_over(&self, e: u32, red: usize, ready: u32, life: usize) -> f32 {
        let pairs = &self.pair[e as usize][red];
        let mut best = 0.0f32;
        for s1 in ones(ready.into()) {
            for s2 in ones(ready.into()) {
                best = best.max(pairs[s1 * self.stride + s2][life]);
            }
        }
        best
    }
}

/// The values of `a`'s two-attack sequences at `t` (one table per ordered pair of
/// systems, `s1 * stride + s2`), out of the red `[0]` and in the red `[1]`; with `one`
/// action only, every table holds `s1` alone.
#[allow(clippy::too_many_arguments)]
fn two_attacks(
    tables: &Tables,
    a: usize,
    t: usize,
    smoked: bool,
    offline: bool,
    one: bool,
    nsys: usize,
    stride: usize,
    v: Value,
    o: &Options,
    jury_ok: f64,
) -> [Vec<ByLife>; 2] {
    let empty = [f32::NEG_INFINITY; STARTING_LIFE as usize + 1];
    let mut out = [vec![empty; stride * stride], vec![empty; stride * stride]];
    let kept = |s| tables.entry(a, t, state_of(false, smoked, offline), s);
    let lost = |s| tables.entry(a, t, state_of(true, smoked, offline), s);
    let j = jury_ok;
    for s1 in 0..nsys {
        for s2 in 0..nsys {
            // Under SYSTEM_ONCE_PER_TURN the diagonal holds s1 alone; one action, s1 alone.
            let second = |e: u32| if one || s1 == s2 && o.system_once_per_turn { NONE } else { e };
            let (plain, mixed) = out.split_at_mut(1);
            let (plain, mixed) = (&mut plain[0][s1 * stride + s2], &mut mixed[0][s1 * stride + s2]);
            for (l, (p, m)) in plain.iter_mut().zip(mixed.iter_mut()).enumerate().skip(1) {
                let kk = sequence(tables, kept(s1), second(kept(s2)), v, l);
                let ll = sequence(tables, lost(s1), second(lost(s2)), v, l);
                let red = if o.jury_rig_per_action {
                    let kl = sequence(tables, kept(s1), second(lost(s2)), v, l);
                    let lk = sequence(tables, lost(s1), second(kept(s2)), v, l);
                    j * j * kk + j * (1.0 - j) * (kl + lk) + (1.0 - j) * (1.0 - j) * ll
                } else {
                    j * kk + (1.0 - j) * ll
                };
                *p = kk as f32;
                *m = red as f32;
            }
        }
    }
    out
}

/// The exact greedy value (§2.7 step 3) of entry `e1` then entry `e2` ([`NONE`]: no
/// attack) at a target with `life`: the first attack's law at `life`, then the second's
/// score at the life it leaves. Kill from full life in one action (deathmatch bonuses)
/// counts for whichever attack makes it.
pub fn sequence(tables: &Tables, e1: u32, e2: u32, v: Value, life: usize) -> f64 {
    let second = |rest: usize| {
        if e2 == NONE { 0.0 } else { tables.score[tables.at_life(e2, rest as i32) as usize][rest] as f64 }
    };
    if e1 == NONE {
        return second(life);
    }
    let per_kill = v.kill + if life == STARTING_LIFE as usize { v.kill_from_full } else { 0.0 };
    let law = &tables.laws[tables.at_life(e1, life as i32) as usize];
    let mut total = 0.0;
    for (k, &p) in law.iter().enumerate() {
        if p == 0.0 {
            continue;
        }
        total += p * if k >= life {
            per_kill + v.damage * life as f64 / STARTING_LIFE as f64
        } else {
            v.damage * k as f64 / STARTING_LIFE as f64 + second(life - k)
        };
    }
    total
}
