//! Rallied group actions (techcommander-battles.md §2.4 row "rally", `RALLY_AT_DEPLOY`)
//! and a trample over several members of a rallied group (§4).
//!
//! A side's rallied troops and crew act as one group, once per turn, for one player
//! action. Besides Rallied Weapons Free ([`Action::Group`]) the group may make:
//! - **Rallied Attack** ([`Action::RallyAttack`]): every ready member fires its own
//!   weapon at one target. Each member picks its best ready system against the target at
//!   the target's life when the action begins. `RALLY_REDUCTION` = per member: each
//!   member's hits are totalled, reduced and divided on their own, so the members' life
//!   losses are independent and the law of their sum is the convolution of the members'
//!   exact laws. The greedy score is §2.7's terms on that sum:
//!   V × (P(sum ≥ life) + `DAMAGE_WEIGHT` × E[min(sum, life)] / 20).
//! - **Rallied Assault** ([`Action::Assault`]): only against an enemy rallied group:
//!   each ready member in force order attacks the current first member of that group
//!   (force order, on the field and above 0 life) with its best ready system at that
//!   member's current life, until it is eliminated, then the next. Damage beyond a
//!   member's life is lost. Scored exactly by a walk over (current member, its life).
//!
//! A trample ([`Action::Trample`]) is an MSV's special attack (`SPECIAL_AS_SYSTEM`, the
//! trample system) over the first members (force order) of one enemy rallied group, at
//! most half its speed many (at least one), each dodging on its own; one jury-rig roll
//! for the action. Scored as the sum of the crossed members' special-attack scores.
//!
//! All laws are read from tables compiled before the first battle ([`Rally::new`], the
//! trample tables in [`super::specials`]); scoring works on fixed-size arrays on the
//! stack, with no allocation per action.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::rally_laws::{
    CHOICE_MEMBERS, Capped, FIRES_NONE, FIRES_SECOND, FULL, NO_LOSS, RED_MEMBERS, TRAMPLE, choice_weight, convolve,
    score_of,
};
use super::tables::{NO_SYSTEM, NONE, Tables, Weight, ranked_target, state, state_of};
use crate::engine::battle::MAX_UNITS;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// The members' part of the common case of a Rallied Attack ([`TcGame::group_case`]):
/// the in-the-red combination (bit i: member i rolls a jury rig, so it weighs its shots
/// [`Weight::Mixed`] unless the rig cannot fail; every other member [`Weight::Kept`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct GroupCase {
    red: usize,
    /// Per member (group order): its part of the ranked rows under its weight
    /// ([`Tables::ranked_actor`]) and its ready systems ([`TcGame::ready_systems`]).
    row: [u32; CASE_MEMBERS],
    ready: [u32; CASE_MEMBERS],
}

/// The largest group whose Rallied Attack is read from [`Rally::attack`] in one step; a
/// larger one is scored member by member (the same numbers: the table is the
/// convolution).
const CASE_MEMBERS: usize = 8;

impl TcGame {
    /// Weight of the fire-control-kept tables for `a` now ([`TcGame::kept_weight`]).
    #[inline(always)]
    fn member_weight(&self, s: &State, a: usize) -> f64 {
        self.kept_weight(s, a).1 as f64
    }

    /// The exact law of the life `m` takes from `t` (at `life`) firing `sys`, capped at 20.
    fn member_law(&self, s: &State, m: usize, t: usize, sys: usize, life: i32) -> Capped {
        self.member_law_in(&self.tables, s, m, t, sys, life)
    }

    /// [`TcGame::member_law`] with the shots of `base` (the battle's tables or a variant,
    /// [`TcGame::tables_at`]).
    fn member_law_in(&self, base: &Tables, s: &State, m: usize, t: usize, sys: usize, life: i32) -> Capped {
        self.member_law_from(self.tables_at(base, s, t), s, m, t, sys, life)
    }

    /// [`TcGame::member_law`] from `tb` as they are (no variant chosen), at the life
    /// `life` the shot meets.
    pub(super) fn member_law_from(&self, tb: &Tables, s: &State, m: usize, t: usize, sys: usize, life: i32) -> Capped {
        let smoked = self.smoked(s, m, t);
        let w = self.member_weight(s, m);
        let law = |fc_lost: bool| {
            let e = tb.entry(m, t, state_of(fc_lost, smoked, s.offline[t]), sys);
            if e == NONE {
                NO_LOSS
            } else if std::ptr::eq(tb, &self.tables) {
                self.rally.capped[tb.at_life(e, life) as usize]
            } else {
                super::rally_laws::capped(&tb.laws[tb.at_life(e, life) as usize])
            }
        };
        let kept = law(false);
        if w >= 1.0 {
            return kept;
        }
        let lost = law(true);
        std::array::from_fn(|n| w * kept[n] + (1.0 - w) * lost[n])
    }

    /// Whether the side's rallied group may act (not acted this turn, a member ready).
    #[inline(always)]
    pub fn group_may_act(&self, s: &State, side: usize) -> bool {
        !self.rally.capped.is_empty()
            && !s.group_acted[side]
            && self.groups[side].iter().any(|&m| self.member_ready(s, m as usize))
    }

    /// The greedy score of `side`'s Rallied Attack at `t`, or `None` when no ready
    /// member can fire at it.
    pub fn rally_attack_score(&self, s: &State, side: usize, t: usize) -> Option<f32> {
        self.rally_attack_score_in(s, self.group_case(s, side).as_ref(), side, t)
    }

    /// [`TcGame::rally_attack_score`] given the members' part of the common case
    /// ([`TcGame::group_case`], read from the same state).
    #[inline(always)]
    fn rally_attack_score_in(&self, s: &State, g: Option<&GroupCase>, side: usize, t: usize) -> Option<f32> {
        if self.shields.any && self.shields.count[t] > 0 && self.shield_life(s, t) > 0 {
            return self.rally_attack_shielded(s, side, t);
        }
        let life = s.life[t].clamp(1, STARTING_LIFE as i32);
        let case = match g {
            Some(g) => self.common_case_at(s, g, side, t, life as usize),
            None => None,
        };
        if let Some(case) = case {
            let score = self.rally.attack_at(side, t, case, life as usize);
            return (!score.is_nan()).then_some(score);
        }
        self.rally_attack_exact(s, side, t)
    }

    /// [`TcGame::rally_attack_score`] computed member by member (the convolution).
    pub fn rally_attack_exact(&self, s: &State, side: usize, t: usize) -> Option<f32> {
        let life = s.life[t].clamp(1, STARTING_LIFE as i32);
        let cap = life as usize;
        let mut acc = NO_LOSS;
        let mut any = None;
        for &m in &self.groups[side] {
            let m = m as usize;
            if !self.member_ready(s, m) {
                continue;
            }
            if let Some((sys, _)) = self.best_system_at(s, m, t, s.life[t]) {
                convolve(&mut acc, &self.member_law(s, m, t, sys, s.life[t]), cap);
                any = any.or(Some(m));
            }
        }
        any.map(|m| score_of(&acc, cap, self.rally.value(m, t)) as f32)
    }

    /// Whether [`Rally::attack`] holds `side`'s Rallied Attack at `t` (at `life`) now,
    /// and its index there ([`TcGame::common_case_at`]): the tests' view of
    /// [`TcGame::group_case`] and [`TcGame::common_case_at`].
    #[cfg(test)]
    pub(super) fn common_case(&self, s: &State, side: usize, t: usize, life: usize) -> Option<usize> {
        match self.group_case(s, side) {
            Some(g) => self.common_case_at(s, &g, side, t, life),
            None => None,
        }
    }

    /// The members' part of [`TcGame::common_case`], the same for every target: `None`
    /// when no target can be in the common case now.
    #[inline(always)]
    pub(super) fn group_case(&self, s: &State, side: usize) -> Option<GroupCase> {
        if self.rally.attack.is_empty() || self.tables.any_moneyshot {
            return None;
        }
        let members = &self.groups[side];
        if members.len() > CASE_MEMBERS {
            return None;
        }
        let mut g = GroupCase { red: 0, row: [0; CASE_MEMBERS], ready: [0; CASE_MEMBERS] };
        let mixed = if self.jury_ok >= 1.0 { Weight::Kept } else { Weight::Mixed };
        for (i, &m) in members.iter().enumerate() {
            let m = m as usize;
            // A member's own smoke lies on every line (`SMOKE_BOTH_WAYS`).
            if !self.member_ready(s, m) || self.o.smoke_both_ways && s.smoked[m] {
                return None;
            }
            // The member's weight as TcGame::kept_weight gives it.
            let w = if !self.in_the_red(s, m) || !self.o.jury_rig_per_action && s.jury[m] == 1 {
                Weight::Kept
            } else if self.o.jury_rig_per_action || s.jury[m] == 0 {
                if i >= RED_MEMBERS {
                    return None;
                }
                g.red |= 1 << i;
                mixed
            } else {
                return None;
            };
            g.row[i] = self.tables.ranked_actor(m, w) as u32;
            g.ready[i] = self.ready_systems(s, m);
        }
        Some(g)
    }

    /// [`TcGame::common_case`] at target `t` (at `life`) given the members' part `g`:
    /// the in-the-red combination times the side's choices, plus the members' choices
    /// of system ([`Rally::attack`](super::rally_laws::Rally::attack)).
    ///
    /// A member fires its best ready system at `t`: the best of all when it is ready
    /// (or when no system reaches `t`), else (for the first two members of a group of
    /// at most [`CHOICE_GROUP`](super::rally_laws::CHOICE_GROUP)) the second best when
    /// it is ready; with the second spent too, a third may be ready, so only a member
    /// with no second ([`FIRES_NONE`]) or none ready at all stays in the case.
    #[inline(always)]
    pub(super) fn common_case_at(&self, s: &State, g: &GroupCase, side: usize, t: usize, life: usize) -> Option<usize> {
        // The table holds shots at a target out of smoke, gear online and not dug in.
        if s.offline[t] || s.smoked[t] || s.dug_in[t] {
            return None;
        }
        let target = ranked_target(t, state_of(false, false, false));
        let members = self.groups[side].len();
        let choices = self.rally.sides[side].choices;
        let choosing = if choices > 1 { CHOICE_MEMBERS } else { 0 };
        let mut choice = 0;
        for i in 0..members {
            let [(best, _), (second, _)] = self.tables.ranked_at(g.row[i] as usize + target, life);
            if best == NO_SYSTEM || g.ready[i] & (1 << best) != 0 {
                continue;
            }
            if i >= choosing {
                return None;
            }
            let fires = if second == NO_SYSTEM {
                FIRES_NONE
            } else if g.ready[i] & (1 << second) != 0 {
                FIRES_SECOND
            } else if g.ready[i] & !(1 << best | 1 << second) == 0 {
                // Nothing else ready.
                FIRES_NONE
            } else {
                return None;
            };
            choice += fires * choice_weight(i);
        }
        Some(g.red * choices + choice)
    }

    /// Whether at least two members of `side`'s group are ready.
    #[inline(always)]
    fn two_ready(&self, s: &State, side: usize) -> bool {
        self.groups[side].iter().filter(|&&m| self.member_ready(s, m as usize)).nth(1).is_some()
    }

    /// `side`'s best Rallied Attack (target, score): greedy, or only at the enemies with
    /// the least life when `focus`; ties go to the earlier target. `None` with fewer than
    /// two members ready: one member's Rallied Attack is its own attack, never better
    /// than Weapons Free.
    #[inline(always)]
    pub fn best_rally_attack(&self, s: &State, side: usize, focus: bool) -> Option<(usize, f32)> {
        if self.groups[side].is_empty() {
            return None;
        }
        self.best_rally_attack_of(s, side, focus)
    }

    /// [`TcGame::best_rally_attack`] for a side with a rallied group.
    fn best_rally_attack_of(&self, s: &State, side: usize, focus: bool) -> Option<(usize, f32)> {
        if !self.group_may_act(s, side) || !self.two_ready(s, side) {
            return None;
        }
        let enemies = &self.enemies[side];
        let least = if focus {
            enemies.iter().map(|&t| t as usize).filter(|&t| self.group_targetable(s, side, t)).map(|t| s.life[t]).min()
        } else {
            None
        };
        let group = self.group_case(s, side);
        let mut best: Option<(usize, f32)> = None;
        for &t in enemies {
            let t = t as usize;
            if !self.group_targetable(s, side, t) || least.is_some_and(|l| s.life[t] != l) {
                continue;
            }
            if let Some(score) = self.rally_attack_score_in(s, group.as_ref(), side, t)
                && best.is_none_or(|b| score > b.1)
            {
                best = Some((t, score));
            }
        }
        best
    }

    /// Rallied Attack: every ready member fires its best ready system (chosen at the
    /// target's life when the action begins) at `t`.
    pub(super) fn rally_attack(&self, s: &mut State, side: usize, t: usize, rng: &mut Xoshiro256PlusPlus) {
        s.group_acted[side] = true;
        let life = s.life[t];
        for &m in &self.groups[side] {
            let m = m as usize;
            if !self.member_ready(s, m) {
                continue;
            }
            if let Some((sys, _)) = self.best_system_at(s, m, t, life) {
                self.fire(s, m, sys, t, rng);
            }
        }
    }

    /// The members of `enemy`'s rallied group that `side`'s group may target, in force
    /// order, into `out`; returns how many.
    #[inline(always)]
    pub(super) fn standing(&self, s: &State, side: usize, enemy: usize, out: &mut [u8; MAX_UNITS]) -> usize {
        let mut n = 0;
        for &g in &self.groups[enemy] {
            if self.group_targetable(s, side, g as usize) {
                out[n] = g;
                n += 1;
            }
        }
        n
    }

    /// The greedy score of `side`'s Rallied Assault on `enemy`'s rallied group, exactly:
    /// the distribution of (current member, its life) walked member by member. `None`
    /// when that group has no targetable member.
    pub fn assault_score(&self, s: &State, side: usize, enemy: usize) -> Option<f32> {
        let mut targets = [0u8; MAX_UNITS];
        let n = self.standing(s, side, enemy, &mut targets);
        if n == 0 {
            return None;
        }
        if self.shields.any && targets[..n].iter().any(|&t| self.shields.count[t as usize] > 0) {
            return self.assault_shielded(s, side, &targets[..n]);
        }
        // p[i][l]: the current target is targets[i] at life l (i == n: all eliminated).
        let mut p = [[0.0f64; FULL + 1]; MAX_UNITS + 1];
        let life0 = |i: usize| s.life[targets[i] as usize].min(STARTING_LIFE as i32) as usize;
        p[0][life0(0)] = 1.0;
        let mut first = 0; // the lowest index with mass
        let mut attacker = None;
        // "No move modifiers apply to these attacks" (3rd edition "Rallied Assault").
        let base = self.assault_tables();
        for &m in &self.groups[side] {
            let m = m as usize;
            if !self.member_ready(s, m) {
                continue;
            }
            attacker = attacker.or(Some(m));
            let mut next = [[0.0f64; FULL + 1]; MAX_UNITS + 1];
            next[n] = p[n];
            for i in first..n {
                let t = targets[i] as usize;
                for l in 1..=FULL {
                    let q = p[i][l];
                    if q == 0.0 {
                        continue;
                    }
                    let Some((sys, _)) = self.best_system_in(base, s, m, t, l as i32) else {
                        next[i][l] += q;
                        continue;
                    };
                    let law = self.member_law_in(base, s, m, t, sys, l as i32);
                    for (loss, &r) in law.iter().enumerate() {
                        if r == 0.0 {
                            continue;
                        }
                        if loss >= l {
                            let j = i + 1;
                            if j == n {
                                next[n][0] += q * r;
                            } else {
                                next[j][life0(j)] += q * r;
                            }
                        } else {
                            next[i][l - loss] += q * r;
                        }
                    }
                }
            }
            p = next;
            while first < n && p[first].iter().all(|&q| q == 0.0) {
                first += 1;
            }
        }
        let a = attacker?;
        // Score: every member before the current one is eliminated; the current one has
        // lost life0 - l.
        let mut score = 0.0;
        let mut killed = 0.0; // value of eliminating targets[..i]
        for i in 0..=n {
            let mass: f64 = p[i].iter().sum();
            if mass > 0.0 {
                score += mass * killed;
                if i < n {
                    let v = self.rally.value(a, targets[i] as usize);
                    let l0 = life0(i);
                    for (l, &q) in p[i].iter().enumerate().take(l0 + 1).skip(1) {
                        score += q * v.damage * (l0 - l) as f64 / STARTING_LIFE as f64;
                    }
                }
            }
            if i < n {
                let v = self.rally.value(a, targets[i] as usize);
                let l0 = life0(i);
                let per_kill = v.kill + if l0 == FULL { v.kill_from_full } else { 0.0 };
                killed += per_kill + v.damage * l0 as f64 / STARTING_LIFE as f64;
            }
        }
        Some(score as f32)
    }

    /// `side`'s best Rallied Assault (enemy side, score); under `focus` only at a group
    /// whose current first member has the least life of the enemies. Ties go to the
    /// earlier side. `None` with fewer than two members ready (one member's assault is
    /// its attack at the first member, never better than Weapons Free).
    #[inline(always)]
    pub fn best_assault(&self, s: &State, side: usize, focus: bool) -> Option<(usize, f32)> {
        if !self.assault_sides[side] {
            return None;
        }
        self.best_assault_of(s, side, focus)
    }

    /// [`TcGame::best_assault`] for a side with a rallied group facing another.
    fn best_assault_of(&self, s: &State, side: usize, focus: bool) -> Option<(usize, f32)> {
        if !self.group_may_act(s, side) || !self.two_ready(s, side) {
            return None;
        }
        self.best_enemy_group(s, side, focus, true, |enemy| self.assault_score(s, side, enemy))
    }

    /// Rallied Assault on `enemy`'s group: each ready member attacks the current first
    /// member until it is eliminated, then the next.
    pub(super) fn assault(&self, s: &mut State, side: usize, enemy: usize, rng: &mut Xoshiro256PlusPlus) {
        s.group_acted[side] = true;
        let group = &self.groups[enemy];
        let mut k = 0;
        for &m in &self.groups[side] {
            let m = m as usize;
            if !self.member_ready(s, m) {
                continue;
            }
            while k < group.len() && !self.group_targetable(s, side, group[k] as usize) {
                k += 1;
            }
            let Some(&t) = group.get(k) else {
                return;
            };
            let t = t as usize;
            // "No move modifiers apply to these attacks" (3rd edition "Rallied Assault").
            let base = self.assault_tables();
            if let Some((sys, _)) = self.best_system_in(base, s, m, t, s.life[t]) {
                self.fire_in(base, s, m, sys, t, rng);
            }
        }
    }

    /// Whether a trample may cross `t`: on the field and above 0 life, infiltrated or
    /// not (3rd edition "Trample": "Target a rallied group (regardless of
    /// infiltration)"). The trample does not reveal it: the book says nothing of that.
    #[inline(always)]
    fn trampleable(&self, s: &State, t: usize) -> bool {
        s.present[t] && s.life[t] > 0
    }

    /// How many members an MSV `a` crosses in one trample: half its speed, at least 1.
    #[inline(always)]
    fn trample_cap(&self, a: usize) -> usize {
        (self.units[a].attacker.speed as usize / 2).max(1)
    }

    /// Whether `a` may trample now (on the field, an action left, the trample system
    /// unused this turn, a trample table against someone).
    #[inline(always)]
    fn trample_ready(&self, s: &State, a: usize) -> bool {
        let nsys = self.units[a].attacker.systems.len();
        self.specials.group_trample_any.get(a).copied().unwrap_or(false)
            && s.present[a]
            && s.actions[a] > 0
            && s.used[a] & (1 << (nsys + TRAMPLE)) == 0
    }

    /// The greedy score of `a` trampling `enemy`'s rallied group: the sum over the
    /// members it would cross of their special-attack scores (fire-control states mixed
    /// by the jury-rig odds). `None` when it crosses nobody.
    pub fn trample_score(&self, s: &State, a: usize, enemy: usize) -> Option<f32> {
        let w = self.member_weight(s, a) as f32;
        let mut left = self.trample_cap(a);
        let mut total = None;
        for &t in &self.groups[enemy] {
            let t = t as usize;
            if left == 0 {
                break;
            }
            if !self.trampleable(s, t) {
                continue;
            }
            let smoked = self.smoked(s, a, t);
            let e = self.specials.trample_entry(a, t, state(false, smoked));
            if e == NONE {
                continue;
            }
            let mut score = self.specials.tables[e as usize].score(s.life[t], s.life[a]);
            if w < 1.0 {
                let f = self.specials.trample_entry(a, t, state(true, smoked));
                score = w * score + (1.0 - w) * self.specials.tables[f as usize].score(s.life[t], s.life[a]);
            }
            total = Some(total.unwrap_or(0.0) + score);
            left -= 1;
        }
        total
    }

    /// `a`'s best trample (enemy side, score); under `focus` only at a group whose first
    /// member has the least life of the enemies. Ties go to the earlier side.
    #[inline(always)]
    pub fn best_trample(&self, s: &State, a: usize, focus: bool) -> Option<(usize, f32)> {
        if !self.specials.group_trample_any.get(a).copied().unwrap_or(false) {
            return None;
        }
        self.best_trample_of(s, a, focus)
    }

    /// [`TcGame::best_trample`] for a unit that may trample some rallied member.
    fn best_trample_of(&self, s: &State, a: usize, focus: bool) -> Option<(usize, f32)> {
        if !self.trample_ready(s, a) {
            return None;
        }
        let side = self.units[a].side;
        self.best_enemy_group(s, side, focus, false, |enemy| self.trample_score(s, a, enemy))
    }

    /// The enemy side whose rallied group scores best by `score` (`None`: nothing to
    /// act on), and that score; under `focus` only a group whose first targetable member
    /// has the least life of `side`'s enemies. Targetable: by `side`'s group when
    /// `by_group` ([`TcGame::group_targetable`]), else by a trample
    /// ([`TcGame::trampleable`], infiltrated or not). Ties go to the earlier side.
    fn best_enemy_group(
        &self,
        s: &State,
        side: usize,
        focus: bool,
        by_group: bool,
        score: impl Fn(usize) -> Option<f32>,
    ) -> Option<(usize, f32)> {
        let seen = |t: usize| if by_group { self.group_targetable(s, side, t) } else { self.trampleable(s, t) };
        let least = if focus {
            self.enemies[side].iter().map(|&t| t as usize).filter(|&t| seen(t)).map(|t| s.life[t]).min()
        } else {
            None
        };
        let mut best: Option<(usize, f32)> = None;
        for enemy in (0..self.groups.len()).filter(|&e| e != side) {
            if let Some(l) = least {
                let first = self.groups[enemy].iter().map(|&g| g as usize).find(|&g| seen(g));
                if first.is_none_or(|g| s.life[g] != l) {
                    continue;
                }
            }
            if let Some(score) = score(enemy)
                && best.is_none_or(|b| score > b.1)
            {
                best = Some((enemy, score));
            }
        }
        best
    }

    /// MSV `a` tramples `enemy`'s group: one jury-rig roll if in the red, the trample
    /// system spent, then one draw per crossed member (first in force order, at most
    /// [`TcGame::trample_cap`]).
    pub(super) fn trample(&self, s: &mut State, a: usize, enemy: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[a] -= 1;
        let fc_lost = self.jury_rig(s, a, rng);
        s.used[a] |= 1 << (self.units[a].attacker.systems.len() + TRAMPLE);
        let mut left = self.trample_cap(a);
        for &t in &self.groups[enemy] {
            let t = t as usize;
            if left == 0 {
                break;
            }
            if !self.trampleable(s, t) {
                continue;
            }
            let e = self.specials.trample_entry(a, t, state(fc_lost, self.smoked(s, a, t)));
            if e == NONE {
                continue;
            }
            let (loss, _) = self.specials.tables[e as usize].sample(rng);
            self.take(s, t, loss, a);
            left -= 1;
        }
    }

    /// Calls `f` with every legal group action other than Weapons Free and every group
    /// trample of `side`, in order: Rallied Attacks by target, Rallied Assaults by enemy
    /// side, tramples by actor then enemy side; stops when `f` returns true.
    pub fn rally_choices(&self, s: &State, side: usize, mut f: impl FnMut(Action) -> bool) {
        if self.group_may_act(s, side) {
            for &t in &self.enemies[side] {
                if self.group_targetable(s, side, t as usize)
                    && self.rally_attack_score(s, side, t as usize).is_some()
                    && f(Action::RallyAttack { target: t })
                {
                    return;
                }
            }
            for enemy in (0..self.groups.len()).filter(|&e| e != side) {
                if self.groups[enemy].iter().any(|&g| self.group_targetable(s, side, g as usize))
                    && f(Action::Assault { side: enemy as u8 })
                {
                    return;
                }
            }
        }
        for &a in &self.side_units[side] {
            if !self.trample_ready(s, a as usize) {
                continue;
            }
            for enemy in (0..self.groups.len()).filter(|&e| e != side) {
                if self.trample_score(s, a as usize, enemy).is_some()
                    && f(Action::Trample { actor: a, side: enemy as u8 })
                {
                    return;
                }
            }
        }
    }
}
