//! Everything the policies and the hot loop read, precomputed before the first battle:
//! for every ordered pair of enemy units, fire-control state (kept / lost to a failed
//! jury rig) and smoke state (the side's conditions / smoke on the line), and every
//! weapon system: the exact life-loss sampler, P(kill) and the greedy score by the
//! target's current life.

use super::units::BattleUnit;
use crate::rules::techcommander::action::{ActionSpec, DiceGroup};
use crate::rules::techcommander::conditions::{Conditions, Movement, Smoke};
use crate::rules::techcommander::odds::{moneyshot_life, system_action_with};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;
use crate::rules::techcommander::sampler::ActionSampler;

/// No sampler: the system cannot fire at that target in that state.
pub const NONE: u32 = u32::MAX;
/// Values by current life, index 0..=20 (index 0 unused: a target at 0 is not shot).
pub type ByLife = [f32; STARTING_LIFE as usize + 1];

/// The compiled tables of one battle.
#[derive(Debug, Clone)]
pub struct Tables {
    units: usize,
    /// Most systems of any unit (the stride of `entry`).
    stride: usize,
    /// `entry[((a * units + t) * STATES + state) * stride + system]`: index into the
    /// vectors below, or [`NONE`]. `state` = target's gear offline × 4 + fire control
    /// lost × 2 + smoked ([`state_of`]).
    entry: Vec<u32>,
    pub samplers: Vec<ActionSampler>,
    /// The exact law of each entry's life lost (`laws[e][n]` = P(exactly n)); read at
    /// compile time only (Omega Override's comparison, [`super::omega`]).
    pub laws: Vec<Vec<f64>>,
    /// P(loss >= life).
    pub kill: Vec<ByLife>,
    /// V(target) × (P(loss >= life) + DAMAGE_WEIGHT × E[min(loss, life)] / 20); the
    /// damage term is 0 against a target that resets to 20 life (power armour).
    pub score: Vec<ByLife>,
    /// Per table entry: the entry of the same shot with the 2nd edition's Moneyshot
    /// bonus and the target life at or below which it applies (every shot hitting would
    /// eliminate it), or ([`NONE`], 0).
    pub moneyshot: Vec<(u32, i32)>,
    /// Whether any entry has a Moneyshot variant (else the hot loop skips the check).
    pub any_moneyshot: bool,
    /// `ranked[((a * units + t) * WEIGHTS + weight) * 4 + sight][life]`: the two
    /// systems of `a` with the highest weighted score against `t` at that life, ties to
    /// the earlier system ([`NO_SYSTEM`] where fewer can fire), and their scores, exactly
    /// as the policy's loop over every system computes them. `sight` = smoked + 2 × gear
    /// offline ([`sight_of`]); `weight` is the actor's fire-control weight ([`Weight`]).
    /// Without Moneyshot variants only.
    pub ranked: Vec<[[(u8, f32); 2]; STARTING_LIFE as usize + 1]>,
    /// Per table entry of a system of n ≥ 2 shots under `SPLIT_SHOTS`: the entries of
    /// k = 1..=n of its shots at the same target (the last is the entry itself), for a
    /// split ([`super::split`]); empty otherwise.
    pub part: Vec<Vec<u32>>,
    /// Per unit slot, the first slot of the same card and side. A pair of slots shares
    /// the entries of the pair of their first slots, and its [`Tables::ranked`] rows are
    /// copies of theirs: the same shots, compiled once, and a search that reads the
    /// first slots' rows reads the same values from fewer cache lines.
    pub rep: Vec<u8>,
}

/// How an actor's shots weigh the fire-control-kept and -lost tables (§2.7 step 2: an
/// actor in the red mixes them by the jury-rig odds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Weight {
    /// Fire control kept (out of the red, or a jury rig already passed this turn).
    Kept = 0,
    /// In the red, jury rig still to roll: P(keep) × kept + P(lose) × lost.
    Mixed = 1,
    /// A jury rig already failed this turn: the lost table only.
    Lost = 2,
}

/// Fire-control weights in [`Tables::ranked`].
pub const WEIGHTS: usize = 3;

/// The probability a jury-rig roll keeps fire control, as the policies weigh it.
pub fn jury_ok(o: &Options) -> f32 {
    o.jury_rig_success_max.min(20) as f32 / 20.0
}

/// The [`Tables::ranked`] sight index of a shot state's smoke and gear bits.
#[inline(always)]
pub fn sight_of(state: usize) -> usize {
    (state & 1) | ((state & 4) >> 1)
}

/// The target's part of a [`Tables::ranked`] row for shot `state` (fire-control bit
/// clear): the smoke bit of the row is bit 0, so an actor's own smoke is or-ed in.
#[inline(always)]
pub fn ranked_target(t: usize, state: usize) -> usize {
    ranked_target_sight(t, sight_of(state))
}

/// [`ranked_target`] by the [`sight_of`] bits.
#[inline(always)]
pub fn ranked_target_sight(t: usize, sight: usize) -> usize {
    t * WEIGHTS * 4 + sight
}

/// No system in [`Tables::ranked`].
pub const NO_SYSTEM: u8 = u8::MAX;

/// Fire-control and smoke state index (the special attacks' four states).
#[inline(always)]
pub fn state(fc_lost: bool, smoked: bool) -> usize {
    (fc_lost as usize) * 2 + smoked as usize
}

/// States of a shot in [`Tables`]: [`state`] × the target's gear online or offline.
pub const STATES: usize = 8;

/// The [`Tables`] state of a shot: [`state`], plus 4 when the target's defensive gear is
/// offline (it made an Omega Override this turn).
#[inline(always)]
pub fn state_of(fc_lost: bool, smoked: bool, offline: bool) -> usize {
    (offline as usize) * 4 + state(fc_lost, smoked)
}

/// Whether a unit's gear going offline changes it as a target.
pub fn gear_matters(u: &BattleUnit) -> bool {
    u.offline_target != u.target
}

impl Tables {
    /// Compile every pair of units on different sides; `conditions[side]` are the
    /// conditions of the shots `side` fires; `value` says what a kill and damage of a
    /// target are worth to an attacker ([`skirmish_value`], [`deathmatch_value`]).
    pub fn new(
        units: &[BattleUnit],
        conditions: &[Conditions],
        o: &Options,
        value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
    ) -> Tables {
        let n = units.len();
        let stride = units.iter().map(|u| u.attacker.systems.len()).max().unwrap_or(0).max(1);
        let mut t = Tables {
            units: n,
            stride,
            entry: vec![NONE; n * n * STATES * stride],
            laws: Vec::new(),
            samplers: Vec::new(),
            kill: Vec::new(),
            score: Vec::new(),
            moneyshot: Vec::new(),
            any_moneyshot: false,
            ranked: Vec::new(),
            part: Vec::new(),
            rep: (0..n).map(|u| (0..=u).find(|&v| units[v] == units[u]).unwrap_or(u) as u8).collect(),
        };
        for (a, ua) in units.iter().enumerate() {
            for (d, ud) in units.iter().enumerate() {
                if ua.side == ud.side {
                    continue;
                }
                let (ra, rd) = (t.rep[a] as usize, t.rep[d] as usize);
                if (ra, rd) != (a, d) {
                    // Twins of an earlier pair (the same cards, sides and conditions):
                    // its entries, compiled above.
                    let (from, to) = (t.index(ra, rd, 0, 0), t.index(a, d, 0, 0));
                    t.entry.copy_within(from..from + STATES * stride, to);
                    continue;
                }
                let v = value(ua, ud, o);
                let base = conditions[ua.side];
                for offline in [false, true] {
                    let target = if offline { &ud.offline_target } else { &ud.target };
                    for fc_lost in [false, true] {
                        for smoked in [false, true] {
                            if offline && !gear_matters(ud) {
                                // The same shots as with the gear online.
                                for s in 0..ua.attacker.systems.len() {
                                    let on = t.entry[t.index(a, d, state(fc_lost, smoked), s)];
                                    let e = t.index(a, d, state_of(fc_lost, smoked, true), s);
                                    t.entry[e] = on;
                                }
                                continue;
                            }
                            let mut cond = Conditions { jury_rig_failed: fc_lost, ..base };
                            if smoked && cond.smoke == Smoke::None {
                                cond.smoke = Smoke::Smoke;
                            }
                            for s in 0..ua.attacker.systems.len() {
                                let Ok((_, spec)) = system_action_with(&ua.attacker, s, target, &cond, o, false) else {
                                    continue;
                                };
                                let i = t.push(&spec, v);
                                if o.split_shots {
                                    t.push_parts(i, &spec, v);
                                }
                                if let Some(threshold) = moneyshot_life(&ua.attacker, &spec, &cond, o)
                                    && let Ok((_, bonus)) = system_action_with(&ua.attacker, s, target, &cond, o, true)
                                {
                                    let j = t.push(&bonus, v);
                                    t.moneyshot[i as usize] = (j, threshold.min(STARTING_LIFE) as i32);
                                    t.any_moneyshot = true;
                                }
                                let e = t.index(a, d, state_of(fc_lost, smoked, offline), s);
                                t.entry[e] = i;
                            }
                        }
                    }
                }
            }
        }
        let jury = jury_ok(o);
        t.ranked = vec![[[(NO_SYSTEM, 0.0); 2]; STARTING_LIFE as usize + 1]; n * n * WEIGHTS * 4];
        for a in 0..n {
            for d in 0..n {
                let (ra, rd) = (t.rep[a] as usize, t.rep[d] as usize);
                if (ra, rd) != (a, d) {
                    let (from, to) = (t.ranked_row(ra, rd, Weight::Kept, 0), t.ranked_row(a, d, Weight::Kept, 0));
                    t.ranked.copy_within(from..from + WEIGHTS * 4, to);
                    continue;
                }
                for (w, weight) in [(Weight::Kept, 1.0f32), (Weight::Mixed, jury), (Weight::Lost, 0.0)] {
                    for st in [0, 1, 4, 5] {
                        let row = t.ranked_row(a, d, w, st);
                        for life in 1..=STARTING_LIFE as usize {
                            let mut top = [(NO_SYSTEM, 0.0f32); 2];
                            for sys in 0..stride {
                                let e = t.entry[t.index(a, d, st, sys)];
                                if e == NONE {
                                    continue;
                                }
                                // The policy's own arithmetic (TcGame::best_shot_in).
                                let mut score = t.score[e as usize][life];
                                if weight < 1.0 {
                                    let l = t.entry[t.index(a, d, st | 2, sys)];
                                    let lost = if l == NONE { 0.0 } else { t.score[l as usize][life] };
                                    score = weight * score + (1.0 - weight) * lost;
                                }
                                if top[0].0 == NO_SYSTEM || score > top[0].1 {
                                    top[1] = top[0];
                                    top[0] = (sys as u8, score);
                                } else if top[1].0 == NO_SYSTEM || score > top[1].1 {
                                    top[1] = (sys as u8, score);
                                }
                            }
                            t.ranked[row][life] = top;
                        }
                    }
                }
            }
        }
        t
    }

    /// Add the tables of one shot; returns its entry.
    fn push(&mut self, spec: &ActionSpec, v: Value) -> u32 {
        let law = spec.odds().life_lost;
        let (kill, score) = by_life(&law, v);
        self.laws.push(law);
        let i = self.samplers.len() as u32;
        self.samplers.push(ActionSampler::new(spec));
        self.kill.push(kill);
        self.score.push(score);
        self.moneyshot.push((NONE, 0));
        self.part.push(Vec::new());
        i
    }

    /// The parts of entry `whole` (one dice group of n ≥ 2 shots): k = 1..n − 1 of its
    /// shots as entries of their own, and `whole` for all n ([`Tables::part`]).
    fn push_parts(&mut self, whole: u32, spec: &ActionSpec, v: Value) {
        let [g] = spec.groups[..] else {
            return;
        };
        if g.dice < 2 {
            return;
        }
        let mut parts: Vec<u32> = (1..g.dice)
            .map(|k| self.push(&ActionSpec { groups: vec![DiceGroup { dice: k, ..g }], ..spec.clone() }, v))
            .collect();
        parts.push(whole);
        self.part[whole as usize] = parts;
    }

    /// The entry `e` as fired at a target with `life`: its Moneyshot variant when the
    /// bonus applies.
    #[inline(always)]
    pub fn at_life(&self, e: u32, life: i32) -> u32 {
        if !self.any_moneyshot {
            return e;
        }
        match self.moneyshot[e as usize] {
            (j, threshold) if j != NONE && life <= threshold => j,
            _ => e,
        }
    }

    #[inline(always)]
    fn index(&self, a: usize, t: usize, state: usize, system: usize) -> usize {
        ((a * self.units + t) * STATES + state) * self.stride + system
    }

    #[inline(always)]
    fn ranked_row(&self, a: usize, t: usize, w: Weight, state: usize) -> usize {
        ((a * self.units + t) * WEIGHTS + w as usize) * 4 + sight_of(state)
    }

    /// The actor's part of a [`Tables::ranked`] row: add [`ranked_target`] of the target
    /// (with the shot's smoke bit) to get the row.
    #[inline(always)]
    pub fn ranked_actor(&self, a: usize, w: Weight) -> usize {
        a * self.units * WEIGHTS * 4 + w as usize * 4
    }

    /// [`Tables::ranked`] by row ([`Tables::ranked_actor`] + [`ranked_target`]).
    #[inline(always)]
    pub fn ranked_at(&self, row: usize, life: usize) -> [(u8, f32); 2] {
        self.ranked[row][life]
    }

    /// The two best systems of `a` against `t` in shot `state` (fire-control bit clear)
    /// at the target's `life` (1..=20) under weight `w`, best first ([`Tables::ranked`]).
    #[inline(always)]
    pub fn ranked(&self, a: usize, t: usize, w: Weight, state: usize, life: usize) -> [(u8, f32); 2] {
        self.ranked[self.ranked_row(a, t, w, state)][life]
    }

    /// The entries of `a`'s systems against `t` in `state` (one per system, [`NONE`]
    /// where it cannot fire), padded to the widest unit.
    #[inline(always)]
    pub fn row(&self, a: usize, t: usize, state: usize) -> &[u32] {
        let start = self.index(a, t, state, 0);
        &self.entry[start..start + self.stride]
    }

    /// The table entry of `a` firing `system` at `t` in `state`, or [`NONE`].
    #[inline(always)]
    pub fn entry(&self, a: usize, t: usize, state: usize, system: usize) -> u32 {
        self.entry[self.index(a, t, state, system)]
    }
}

/// The tables of passengers' shots from an offload (§2.4: the side's conditions with the
/// movement `offload`, `OFFLOAD_PENALTY`), or `None` when no unit rides aboard a carrier.
/// Only the passengers' rows are read.
pub fn offload_tables(
    units: &[BattleUnit],
    conditions: &[Conditions],
    o: &Options,
    value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
) -> Option<Tables> {
    if units.iter().all(|u| u.carrier.is_none()) {
        return None;
    }
    let offload: Vec<Conditions> =
        conditions.iter().map(|c| Conditions { movement: Movement::Offload, ..*c }).collect();
    Some(Tables::new(units, &offload, o, value))
}

/// What destroying and damaging a target is worth to an attacker (the greedy score).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Value {
    /// Per unit of kill probability.
    pub kill: f64,
    /// Added to `kill` when the target is at full life (deathmatch bonuses B and C).
    pub kill_from_full: f64,
    /// Per unit of E[min(loss, life)] / 20.
    pub damage: f64,
}

/// §2.7: V(target) = points + `COMMAND_TARGET_WEIGHT` × command; damage is worth
/// `DAMAGE_WEIGHT` × V, and nothing against a target that resets to 20 life.
pub fn skirmish_value(_attacker: &BattleUnit, target: &BattleUnit, o: &Options) -> Value {
    let v = target.points + o.command_target_weight.0 * target.command as f64;
    let damage = if target.power_armor { 0.0 } else { o.damage_weight.0 * v };
    Value { kill: v, kill_from_full: 0.0, damage }
}

/// §3.6: the expected deathmatch points: AC per kill, +5 when bonus B (a vehicle or MSV
/// from full life in one action) or C (infantry on infantry from full life) would apply;
/// damage on AC.
pub fn deathmatch_value(attacker: &BattleUnit, target: &BattleUnit, o: &Options) -> Value {
    let ac = target.ac as f64;
    let bonus = super::dm_rules::one_action_bonus(attacker.kind, target.kind) as f64;
    let damage = if target.power_armor { 0.0 } else { o.damage_weight.0 * ac };
    Value { kill: ac, kill_from_full: bonus, damage }
}

/// P(loss >= L) and the greedy score by current life L from a life-loss distribution.
pub(super) fn by_life(life_lost: &[f64], v: Value) -> (ByLife, ByLife) {
    let mut kill = [0f32; STARTING_LIFE as usize + 1];
    let mut score = [0f32; STARTING_LIFE as usize + 1];
    for l in 1..=STARTING_LIFE as usize {
        let p_kill: f64 = life_lost.iter().skip(l).sum();
        let e_min: f64 = life_lost.iter().enumerate().map(|(n, p)| n.min(l) as f64 * p).sum();
        let per_kill = v.kill + if l == STARTING_LIFE as usize { v.kill_from_full } else { 0.0 };
        kill[l] = p_kill as f32;
        score[l] = (per_kill * p_kill + v.damage * e_min / STARTING_LIFE as f64) as f32;
    }
    (kill, score)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_example_of_section_7() {
        // 1 shot, 40 damage. AC2 target at T 12: P(hit) 0.6, a hit takes 20 life.
        let ac2 =
            [0.4, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6];
        let v = |kill: f64| Value { kill, kill_from_full: 0.0, damage: 0.25 * kill };
        let (_, s2) = by_life(&ac2, v(2.0));
        assert!((s2[20] as f64 - 1.5).abs() < 1e-6);
        // AC4 command-1 target at T 14: P(hit) 0.7, a hit takes 10 life; V = 4 + 3.
        let mut ac4 = vec![0.0; 11];
        ac4[0] = 0.3;
        ac4[10] = 0.7;
        let (_, s4) = by_life(&ac4, v(7.0));
        assert!((s4[20] as f64 - 0.6125).abs() < 1e-6);
    }
}
