//! Split shots (`SPLIT_SHOTS`, on by default): one weapon system's shots at several
//! targets (3rd edition "Attacks": "each shot may have a different target").
//!
//! - The split is one action: one jury rig (kernel §4), one use of the system
//!   (`SYSTEM_ONCE_PER_TURN`), one round spent, and a move ends the actor's dig-in as
//!   for any attack ([`super::dig_in`]).
//! - Each target's share of the shots is an attack of its own: its to-hit from the
//!   shooter's state against it (smoke, its gear offline, dug in), its damage summed
//!   and its damage reduction subtracted once, from the exact law of that many shots
//!   ([`Tables::part`]). Targets draw in the order they were first given a shot; a
//!   dug-in target's one return attack comes after every share has resolved. A share
//!   at a covered target hits its shield ([`super::shield`]; the share is one attack,
//!   so the overflow of the share that breaks it is lost).
//! - The greedy policy weighs it ([`TcGame::split_plan`]): for the system and target
//!   its search picked, it gives the n shots out one at a time, each to the enemy the
//!   actor may target where the shot adds the most to the greedy score
//!   (V × (P(kill) + `DAMAGE_WEIGHT` × E[min(loss, life)] / 20), fire control weighed
//!   by the jury-rig odds as every score is; ties to the picked target, then slot
//!   order). A target that needs no more shots gains nothing from one, so the rest go
//!   elsewhere. It splits when the shares score more than all n shots at the picked
//!   target. Ruling (a gap): the search picks the system by its one-target score; the
//!   split then raises that system's score, so a system that would win only by being
//!   split is not found.
//! - A system of one shot, a special attack, or a shot with the 2nd edition's Moneyshot
//!   variant is never split.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{State, TcGame};
use super::shield::Aim;
use super::tables::{NONE, Tables, state_of};
use crate::engine::battle::slots::ones;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// Most targets one split attack spreads its shots over.
pub const MAX_SPLIT: usize = 8;

/// How a split gives out a system's shots.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Split {
    /// (target slot, shots), the first `len` in use, in the order each target was first
    /// given a shot (the picked target first when it gets any).
    pub parts: [(u8, u8); MAX_SPLIT],
    pub len: usize,
    /// The greedy score of the split: the sum of its shares' scores.
    pub score: f32,
}

impl TcGame {
    /// The entry of `a`'s `system` at `t` in the shot state now (fire control kept or
    /// lost), or [`NONE`].
    #[inline(always)]
    fn split_entry(&self, tables: &Tables, s: &State, a: usize, system: usize, t: usize, fc_lost: bool) -> u32 {
        tables.entry(a, t, state_of(fc_lost, self.smoked(s, a, t), s.offline[t]), system)
    }

    /// The greedy score of `k` (1..=n) of the n shots of `a`'s `system` at `t`, as
    /// [`TcGame::score`] weighs all n; 0 for `k` = 0.
    pub fn part_score(&self, s: &State, a: usize, system: usize, t: usize, k: usize) -> f32 {
        if k == 0 {
            return 0.0;
        }
        self.part_row(s, a, system, t).score(k)
    }

    /// What [`TcGame::part_score`] reads of `a`'s `system` at `t` now, read once for
    /// every k.
    #[inline(always)]
    fn part_row(&self, s: &State, a: usize, system: usize, t: usize) -> PartRow<'_> {
        let aim = self.aim(&self.tables, s, a, t);
        let kept = self.split_entry(aim.tables, s, a, system, t, false);
        self.part_row_of(aim, kept, s, a, system, t)
    }

    /// [`TcGame::part_row`] where `aim` is [`TcGame::aim`] of `a` at `t` and `kept` the
    /// entry of `system` there with fire control kept, both read already.
    #[inline(always)]
    fn part_row_of<'g>(&self, aim: Aim<'g>, kept: u32, s: &State, a: usize, system: usize, t: usize) -> PartRow<'g> {
        let tables = aim.tables;
        let life = aim.life.clamp(1, STARTING_LIFE as i32) as usize;
        let entry = |fc_lost: bool| self.split_entry(tables, s, a, system, t, fc_lost);
        let (weight, lost) = if !self.in_the_red(s, a) || s.jury[a] == 1 && !self.o.jury_rig_per_action {
            (Jury::Kept, NONE)
        } else if s.jury[a] == 2 && !self.o.jury_rig_per_action {
            (Jury::Lost, entry(true))
        } else {
            (Jury::Mixed(self.jury_ok), entry(true))
        };
        PartRow { tables, life, kept, lost, weight }
    }

    /// The greedy split of `a`'s `system` with `primary` as the picked target (see the
    /// module docs), or `None` when the system cannot split or every shot goes at one
    /// target.
    ///
    /// Each candidate's [`PartRow`] is read once; a shot's gain at a candidate is its
    /// score with one more shot (kept until that candidate is given one) less its score
    /// now: the same values [`TcGame::part_score`] gives, so the same plan.
    ///
    /// Every shot goes at `primary` (so no split) when each of its gains is at least
    /// every other candidate's first-shot score: a tie goes to `primary`, the first
    /// candidate, and another candidate's gain stays its first-shot score until it is
    /// given a shot. Only when some candidate's first shot beats the least of
    /// `primary`'s gains are the shots given out one by one.
    pub fn split_plan(&self, s: &State, a: usize, system: usize, primary: usize) -> Option<Split> {
        if system >= self.facts[a].nsys as usize {
            return None;
        }
        let aim = self.aim(&self.tables, s, a, primary);
        let e = self.split_entry(aim.tables, s, a, system, primary, false);
        if e == NONE || aim.tables.any_moneyshot {
            return None;
        }
        let n = aim.tables.part[e as usize].len();
        if n < 2 {
            return None;
        }
        let mut rows: [Option<PartRow>; MAX_SPLIT] = [None; MAX_SPLIT];
        let first = self.part_row_of(aim, e, s, a, system, primary);
        rows[0] = Some(first);
        // The least gain of `primary`'s shots, computed as the allocation below does.
        let mut least_gain = f32::INFINITY;
        let mut before = 0.0f32;
        for k in 1..=n {
            let score = first.score(k);
            least_gain = least_gain.min(score - before);
            before = score;
        }
        let mut cand = [(0u8, 0u8); MAX_SPLIT];
        cand[0] = (primary as u8, 0);
        let mut len = 1;
        let mut contested = false;
        // The enemies `a` may target ([`TcGame::targetable_by`]), in slot order.
        let sees = self.facts[a].sees;
        for t in ones(s.up & self.enemy_bits[self.units[a].side]) {
            if len == MAX_SPLIT {
                break;
            }
            if t == primary || s.hidden[t] && !sees {
                continue;
            }
            let aim = self.aim(&self.tables, s, a, t);
            let e = self.split_entry(aim.tables, s, a, system, t, false);
            if e == NONE || aim.tables.part[e as usize].len() != n {
                continue;
            }
            let row = self.part_row_of(aim, e, s, a, system, t);
            contested |= row.score(1) > least_gain;
            rows[len] = Some(row);
            cand[len] = (t as u8, 0);
            len += 1;
        }
        if len < 2 || !contested {
            return None;
        }
        let row = |i: usize| rows[i].as_ref().expect("a row per candidate");
        let mut now = [0f32; MAX_SPLIT];
        let mut next = [0f32; MAX_SPLIT];
        for (i, v) in next[..len].iter_mut().enumerate() {
            *v = row(i).score(1);
        }
        for _ in 0..n {
            let mut pick = 0;
            let mut gain = f32::NEG_INFINITY;
            for i in 0..len {
                let g = next[i] - now[i];
                if g > gain {
                    gain = g;
                    pick = i;
                }
            }
            cand[pick].1 += 1;
            let k = cand[pick].1 as usize;
            now[pick] = next[pick];
            if k < n {
                next[pick] = row(pick).score(k + 1);
            }
        }
        let mut plan = Split { parts: [(0, 0); MAX_SPLIT], len: 0, score: now[..len].iter().sum() };
        for &(t, k) in &cand[..len] {
            if k > 0 {
                plan.parts[plan.len] = (t, k);
                plan.len += 1;
            }
        }
        (plan.len >= 2).then_some(plan)
    }

    /// `a` fires `system` split as [`TcGame::split_plan`] gives its shots out (at
    /// `primary` alone when it does not split): one jury rig, one use, one round; one
    /// draw per target's share; then the dug-in targets' return attacks.
    pub(crate) fn fire_split(
        &self,
        s: &mut State,
        a: usize,
        system: usize,
        primary: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let Some(plan) = self.split_plan(s, a, system, primary) else {
            self.fire(s, a, system, primary, rng);
            return;
        };
        let fc_lost = self.jury_rig(s, a, rng);
        s.used[a] |= 1 << system;
        if self.attack_moves.get(a).copied().unwrap_or(false) {
            s.dug_in[a] = false;
        }
        self.spend_round(s, a, system);
        self.leave_shield(s, a);
        for &(t, k) in &plan.parts[..plan.len] {
            let t = t as usize;
            self.shelter(s, t);
            let aim = self.aim(&self.tables, s, a, t);
            let e = self.split_entry(aim.tables, s, a, system, t, fc_lost);
            if e == NONE {
                continue;
            }
            let part = aim.tables.part[e as usize][k as usize - 1];
            let loss = aim.tables.samplers[part as usize].sample(rng);
            self.land(s, aim.shield, t, loss, a);
        }
        if self.dug_in_tables.is_some() {
            for &(t, _) in &plan.parts[..plan.len] {
                if s.dug_in[t as usize] {
                    self.return_attack(s, t as usize, a, rng);
                }
            }
        }
    }
}

/// How a shot's fire control is weighed ([`TcGame::part_score`]): kept, lost (this
/// turn's failed rig), or mixed by the jury-rig odds of fire control kept.
#[derive(Debug, Clone, Copy)]
enum Jury {
    Kept,
    Lost,
    Mixed(f32),
}

/// One target's part scores ([`TcGame::part_row`]): its shot tables, the life the shots
/// meet (1..=20: its shield's while one stands, [`TcGame::aim`]),
/// the entries with fire control kept and lost ([`NONE`] when there is none, or when
/// `weight` never reads it) and the weighing.
#[derive(Debug, Clone, Copy)]
struct PartRow<'t> {
    tables: &'t Tables,
    life: usize,
    kept: u32,
    lost: u32,
    weight: Jury,
}

impl PartRow<'_> {
    /// The greedy score of k (1..=n) shots.
    #[inline(always)]
    fn score(&self, k: usize) -> f32 {
        let at = |e: u32| -> f32 {
            if e == NONE {
                return 0.0;
            }
            self.tables.score[self.tables.part[e as usize][k - 1] as usize][self.life]
        };
        match self.weight {
            Jury::Kept => at(self.kept),
            Jury::Lost => at(self.lost),
            Jury::Mixed(ok) => ok * at(self.kept) + (1.0 - ok) * at(self.lost),
        }
    }
}

#[cfg(test)]
#[path = "split_tests.rs"]
mod tests;
