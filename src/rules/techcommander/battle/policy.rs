//! Battle policies: how a TechCommander player picks each action it gives
//! (techcommander-battles.md §2.7). Named, documented, deterministic given the random
//! stream; each a [`BattlePolicy`] so the battle kernel is compiled per policy.

use std::fmt;
use std::str::FromStr;

use rand_xoshiro::Xoshiro256PlusPlus;

use super::best_shot::Sights;
use super::classes::{LIFE_BUCKETS, MAX_CLASSES, NO_CLASS, NO_SLOT};
use super::game::{Action, State, TcGame};
use crate::dice::uniform::roll;
use crate::engine::battle::BattlePolicy;
use crate::engine::battle::slots::ones;

/// The battle policies, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BattlePolicyName {
    /// §2.7 (`POLICY`): protect command, then the legal action with the highest greedy
    /// score (kill chance plus `DAMAGE_WEIGHT` × damage share, times the target's value).
    #[default]
    Greedy,
    /// Focus fire on the enemy with the least life (ties: force order), with the
    /// actor and system that score best against it; no smoke.
    FocusLowest,
    /// Any legal attack with one weapon system or an offload, uniformly at random (the
    /// rallied group's Weapons Free counts as one choice, each Rallied Attack target,
    /// Rallied Assault and group trample as one more); passes only when there is none.
    /// Never pops smoke, makes another special attack or an Omega Override. A baseline
    /// for how much play matters.
    Random,
}

impl BattlePolicyName {
    pub const ALL: [BattlePolicyName; 3] =
        [BattlePolicyName::Greedy, BattlePolicyName::FocusLowest, BattlePolicyName::Random];
    pub const NAMES: &'static [&'static str] = &["greedy", "focus-lowest", "random"];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl fmt::Display for BattlePolicyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BattlePolicyName {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown battle policy `{s}`: expected one of {}", Self::NAMES.join(", ")))
    }
}

/// `greedy` (the default).
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;
/// `focus-lowest`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FocusLowest;
/// `random`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomLegal;

impl TcGame {
    /// `PROTECT_COMMAND`: a friendly command unit with an action left, not smoked and
    /// with a smoke round, that an enemy able to act could kill with probability at
    /// least the threshold.
    fn threatened_command(&self, s: &State, side: usize) -> Option<usize> {
        if !(self.o.protect_command && self.o.smoke_pop && self.has_command[side] && self.dm.is_none()) {
            return None;
        }
        let threshold = self.o.protect_command_threshold.0 as f32;
        self.side_units[side].iter().map(|&c| c as usize).find(|&c| {
            let unit = &self.units[c];
            unit.command > 0
                && s.present[c]
                && s.life[c] > 0
                && s.actions[c] > 0
                && !s.smoked[c]
                && s.smoke_rounds[c] > 0
                && self.enemies[side].iter().map(|&e| e as usize).any(|e| {
                    s.present[e]
                        && s.actions[e] > 0
                        && s.left[self.units[e].side] > 0
                        && self.kill_chance(s, e, c) >= threshold
                })
        })
    }

    /// The best kill chance of `e` against `c` now, over its ready systems.
    fn kill_chance(&self, s: &State, e: usize, c: usize) -> f32 {
        let aim = self.aim(&self.tables, s, e, c);
        if aim.shield {
            // Its shield takes the shot, and the overflow of the shot that breaks it.
            return 0.0;
        }
        let life = s.life[c].clamp(1, 20) as usize;
        let st = super::tables::state_of(false, self.smoked(s, e, c), s.offline[c]);
        let tables = aim.tables;
        (0..self.units[e].attacker.systems.len())
            .filter(|&sys| self.system_ready(s, e, sys))
            .map(|sys| tables.entry(e, c, st, sys))
            .filter(|&i| i != super::tables::NONE)
            .map(|i| tables.kill[tables.at_life(i, s.life[c]) as usize][life])
            .fold(0.0, f32::max)
    }

    /// Whether the side's rallied group may act.
    fn group_ready(&self, s: &State, side: usize) -> bool {
        !s.group_acted[side] && self.groups[side].iter().any(|&m| self.member_ready(s, m as usize))
    }

    /// Whether `c` may offload now: on the field with an action left and a passenger
    /// aboard.
    #[inline(always)]
    fn offload_ready(&self, s: &State, c: usize) -> bool {
        !self.passengers[c].is_empty()
            && s.present[c]
            && s.actions[c] > 0
            && self.passengers[c].iter().any(|&p| s.aboard[p as usize])
    }

    /// §2.4 Offload scored as the sum of the passengers' best attack scores at
    /// `OFFLOAD_PENALTY` (greedy, or against the least-life enemy when `focus`).
    fn offload_score(&self, s: &State, c: usize, sights: &Sights) -> f32 {
        let Some(tables) = &self.offload else {
            return 0.0;
        };
        self.passengers[c]
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| s.aboard[p])
            .filter_map(|p| self.best_shot_in(tables, false, s, p, sights))
            .map(|b| b.2.max(0.0))
            .sum()
    }

    /// The best individual attack of `side` and its score (greedy, or against the
    /// least-life enemy when `focus`); ties go to the earlier actor, system, target.
    ///
    /// Only the weapon-system search is inline: the rarer candidates (Omega Override,
    /// offload, trample, the rallied group's actions) are out of line, so the loop over
    /// actors does not carry their tables in registers.
    ///
    /// An actor of a twin class ([`TcGame::class`]) in the same state as an earlier one
    /// ([`TcGame::same_state`]) is not searched: its best shot scores exactly the earlier
    /// one's, which the tie already gave to the earlier actor ([`super::classes`]).
    pub(super) fn best_attack(&self, s: &State, side: usize, focus: bool) -> Option<(Action, f32)> {
        // Every candidate reads the same enemies: see them once, in place.
        let mut sights = Sights::new(focus);
        self.see(s, side, false, &mut sights);
        let mut best: Option<(Action, f32)> = None;
        // Per twin class and life bucket, the last actor searched.
        let mut searched = [[NO_SLOT; LIFE_BUCKETS]; MAX_CLASSES];
        // The side's solo units on the field, in slot order (the order of `solo`).
        for au in ones(s.field & self.solo_bits[side]) {
            let a = au as u8;
            if s.actions[au] == 0 {
                continue;
            }
            let class = self.class[au];
            if class != NO_CLASS {
                let last = &mut searched[class as usize][s.life[au].clamp(0, LIFE_BUCKETS as i32 - 1) as usize];
                if *last != NO_SLOT && self.same_state(s, au, *last as usize) {
                    continue;
                }
                *last = a;
            }
            if let Some((system, target, score)) = self.best_shot_in(&self.tables, true, s, au, &sights)
                && best.is_none_or(|b| score > b.1)
            {
                best = Some((Action::Attack { actor: a, system: system as u8, target: target as u8 }, score));
            }
            if self.facts[au].others {
                self.offer_other_actions(s, a, focus, &sights, &mut best);
            }
        }
        if !focus
            && self.o.split_shots
            && let Some((Action::Attack { actor, system, target }, score)) = best
            && let Some(plan) = self.split_plan(s, actor as usize, system as usize, target as usize)
            && plan.score > score
        {
            best = Some((Action::Split { actor, system, target }, plan.score));
        }
        if !self.groups[side].is_empty() {
            self.offer_group_actions(s, side, focus, &sights, &mut best);
        }
        best.filter(|b| b.1 > 0.0)
    }

    /// Offers `a`'s Omega Override, offload and trample to `best`, in that order (after
    /// its weapon systems); for a unit that may make one ([`Facts::others`](super::game::Facts::others)).
    #[inline(never)]
    fn offer_other_actions(&self, s: &State, a: u8, focus: bool, sights: &Sights, best: &mut Option<(Action, f32)>) {
        let au = a as usize;
        if self.omega.any
            && let Some((target, score)) = self.best_omega_in(s, au, sights)
            && best.is_none_or(|b| score > b.1)
        {
            *best = Some((Action::Omega { actor: a, target: target as u8 }, score));
        }
        if self.offload.is_some() && self.offload_ready(s, au) {
            let score = self.offload_score(s, au, sights);
            if best.is_none_or(|b| score > b.1) {
                *best = Some((Action::Offload { carrier: a, focus }, score));
            }
        }
        if let Some((enemy, score)) = self.best_trample(s, au, focus)
            && super::rally_laws::beats(score, best.map(|b| b.1))
        {
            *best = Some((Action::Trample { actor: a, side: enemy as u8 }, score));
        }
    }

    /// Offers the actions of `side`'s rallied group to `best`, in order: Weapons Free
    /// (every ready member's best shot), Rallied Attack, Rallied Assault.
    #[inline(never)]
    fn offer_group_actions(
        &self,
        s: &State,
        side: usize,
        focus: bool,
        sights: &Sights,
        best: &mut Option<(Action, f32)>,
    ) {
        if self.group_ready(s, side) {
            // Summed in member order (the float sum of a fold from 0); a member standing
            // as an earlier twin does takes its best shot's score without a search.
            // The first TWINS_SEEN members' scores are kept for their twins.
            const TWINS_SEEN: usize = 8;
            let members = &self.groups[side];
            let mut seen = [None; TWINS_SEEN];
            let mut group = 0.0f32;
            for (j, &m) in members.iter().enumerate() {
                let m = m as usize;
                if !self.member_ready(s, m) {
                    continue;
                }
                let i = self.twin[m] as usize;
                let score = match seen.get(i) {
                    Some(&Some(score)) if self.same_state(s, m, members[i] as usize) => Some(score),
                    _ => self.best_shot_in(&self.tables, true, s, m, sights).map(|b| b.2),
                };
                if let Some(slot) = seen.get_mut(j) {
                    *slot = score;
                }
                if let Some(score) = score {
                    group += score;
                }
            }
            if best.is_none_or(|b| group > b.1) {
                *best = Some((Action::Group { focus }, group));
            }
        }
        if let Some((target, score)) = self.best_rally_attack(s, side, focus)
            && super::rally_laws::beats(score, best.map(|b| b.1))
        {
            *best = Some((Action::RallyAttack { target: target as u8 }, score));
        }
        if let Some((enemy, score)) = self.best_assault(s, side, focus)
            && super::rally_laws::beats(score, best.map(|b| b.1))
        {
            *best = Some((Action::Assault { side: enemy as u8 }, score));
        }
    }
}

impl BattlePolicy<TcGame> for Greedy {
    #[inline]
    fn choose(
        &self,
        g: &TcGame,
        s: &State,
        side: usize,
        _phase: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Action> {
        if let Some(c) = g.threatened_command(s, side) {
            return Some(Action::Smoke { unit: c as u8 });
        }
        let best = g.best_attack(s, side, false);
        if let Some(scan) = g.best_scan(s, side)
            && best.is_none_or(|b| scan.1 > b.1)
        {
            return Some(scan.0);
        }
        if let Some(repair) = g.best_repair(s, side)
            && best.is_none_or(|b| repair.1 > b.1)
        {
            return Some(repair.0);
        }
        if best.is_none_or(|b| b.1 <= g.o.dig_in_threshold.0 as f32)
            && let Some(u) = g.dig_in_candidate(s, side)
        {
            return Some(Action::DigIn { unit: u as u8 });
        }
        best.map(|b| b.0)
    }
}

impl BattlePolicy<TcGame> for FocusLowest {
    #[inline]
    fn choose(
        &self,
        g: &TcGame,
        s: &State,
        side: usize,
        _phase: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Action> {
        g.best_attack(s, side, true).map(|b| b.0)
    }
}

impl BattlePolicy<TcGame> for RandomLegal {
    fn choose(
        &self,
        g: &TcGame,
        s: &State,
        side: usize,
        _phase: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<Action> {
        // Count the legal attacks (offloads included), then draw one; the group's Weapons
        // Free is one more choice, then its Rallied Attacks, Rallied Assaults and the
        // tramples of rallied groups.
        let mut count = 0u64;
        g.legal_attacks(s, side, |_| {
            count += 1;
            false
        });
        let group = g.group_ready(s, side)
            && g.groups[side]
                .iter()
                .any(|&m| g.member_ready(s, m as usize) && g.best_shot(s, m as usize, false).is_some());
        let mut extra = 0u64;
        g.rally_choices(s, side, |_| {
            extra += 1;
            false
        });
        let total = count + group as u64 + extra;
        if total == 0 {
            return None;
        }
        let pick = roll(rng, total) - 1;
        if group && pick == count {
            return Some(Action::Group { focus: false });
        }
        if pick >= count {
            let mut i = count + group as u64;
            let mut chosen = None;
            g.rally_choices(s, side, |a| {
                if i == pick {
                    chosen = Some(a);
                    return true;
                }
                i += 1;
                false
            });
            return chosen;
        }
        let mut i = 0u64;
        let mut chosen = None;
        g.legal_attacks(s, side, |a| {
            if i == pick {
                chosen = Some(a);
                return true;
            }
            i += 1;
            false
        });
        chosen
    }
}

impl TcGame {
    /// Calls `f` with every legal individual attack of `side` in force order (actor,
    /// then its offload, then target, system) until it returns true.
    fn legal_attacks(&self, s: &State, side: usize, mut f: impl FnMut(Action) -> bool) {
        for &a in &self.side_units[side] {
            let au = a as usize;
            if self.offload.is_some() && self.offload_ready(s, au) && f(Action::Offload { carrier: a, focus: false }) {
                return;
            }
            if !s.present[au] || s.actions[au] == 0 || self.units[au].rallied {
                continue;
            }
            for &t in &self.enemies[side] {
                if !self.targetable_by(s, au, t as usize) {
                    continue;
                }
                for sys in 0..self.units[au].attacker.systems.len() {
                    if self.system_ready(s, au, sys)
                        && self.score(s, au, sys, t as usize).is_some()
                        && f(Action::Attack { actor: a, system: sys as u8, target: t })
                    {
                        return;
                    }
                }
            }
        }
    }
}
