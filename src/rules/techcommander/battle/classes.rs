//! Twin classes: unit slots with the same card on the same side, so the same shots,
//! tables and scores as actor and as target. The greedy search scores each distinct
//! (class, state) once per step instead of every slot ([`TcGame::see`] keeps one target
//! per class and plain state, [`TcGame::best_attack`](super::policy) one actor per class
//! and [`TcGame::same_state`]), so a step costs about the number of units plus the
//! number of distinct states squared, not the number of units squared.
//!
//! Why the choice stays the same: every table a score reads (the shots, special
//! attacks, Omega Overrides, their dug-in and offload variants) is compiled per pair of
//! slots from the two cards and the side's conditions alone, so twins' rows are equal
//! bit for bit. A later twin in the same state as an earlier one offers exactly the
//! earlier one's score, and every search keeps the first of equal scores (ties go to
//! the earlier actor, system and target): leaving the later twin out changes nothing.
//! A unit with candidates of its own (Omega Override, offload, trample: [`Facts::others`])
//! or with passengers belongs to no class, nor does a bubble-shield carrier (its shots'
//! tables depend on its shield's state: [`super::shield`]).
//!
//! [`Facts::others`]: super::game::Facts::others

use super::game::TcGame;
use crate::rules::techcommander::rulings::STARTING_LIFE;

pub use super::game::NO_CLASS;
/// The most twin classes of a battle (dense ids `0..MAX_CLASSES`); the slots of any
/// further class are searched one by one, as without classes.
pub const MAX_CLASSES: usize = 8;
/// Life buckets of the per-class actor memory of one step: life 1..=20, and 0 for a
/// unit at 0 or below that acts until removed.
pub const LIFE_BUCKETS: usize = STARTING_LIFE as usize + 1;
/// No slot in the per-class actor memory.
pub const NO_SLOT: u8 = u8::MAX;

impl TcGame {
    /// Derives [`TcGame::class`]: each slot's dense twin-class id, or [`NO_CLASS`] for a
    /// slot with no twin (or past [`MAX_CLASSES`] classes). Called by
    /// [`TcGame::note_candidates`], once every part of the battle is set.
    pub(crate) fn derive_classes(&mut self) {
        let n = self.units.len();
        // A bubble-shield carrier scores by its shield's state too: in no class.
        let carrier = |u: usize| self.shields.count.get(u).is_some_and(|&c| c > 0);
        let eligible: Vec<bool> =
            (0..n).map(|u| !self.facts[u].others && self.passengers[u].is_empty() && !carrier(u)).collect();
        // The first slot of each slot's class.
        let mut first: Vec<usize> = (0..n).collect();
        for u in 0..n {
            if !eligible[u] {
                continue;
            }
            if let Some(v) = (0..u).find(|&v| eligible[v] && first[v] == v && self.same_card(u, v)) {
                first[u] = v;
            }
        }
        let mut class = vec![NO_CLASS; n];
        let mut classes = 0;
        for v in 0..n {
            if first[v] != v || !(v + 1..n).any(|u| first[u] == v) || classes == MAX_CLASSES {
                continue;
            }
            for u in v..n {
                if first[u] == v {
                    class[u] = classes as u8;
                }
            }
            classes += 1;
        }
        debug_assert!(
            (0..n).all(|a| (0..n).all(|t| self.rows_equal(a, t, first[a], first[t]))),
            "twins' shot tables differ"
        );
        self.class = class;
    }

    /// Whether slots `u` and `v` hold the same card on the same side with the same
    /// per-slot facts (so the same rows in every table).
    fn same_card(&self, u: usize, v: usize) -> bool {
        let at = |x: &Vec<bool>, i: usize| x.get(i).copied();
        self.units[u] == self.units[v]
            && self.facts[u] == self.facts[v]
            && at(&self.attack_moves, u) == at(&self.attack_moves, v)
            && at(&self.free_dig_in, u) == at(&self.free_dig_in, v)
            && at(&self.falls_in_the_red, u) == at(&self.falls_in_the_red, v)
            && at(&self.infiltration.infiltrator, u) == at(&self.infiltration.infiltrator, v)
            && self.infiltration.scan_number.get(u) == self.infiltration.scan_number.get(v)
    }

    /// Whether the ranked shot rows of `a` at `t` equal those of `b` at `u` (a check of
    /// the twin classes in debug builds).
    fn rows_equal(&self, a: usize, t: usize, b: usize, u: usize) -> bool {
        use super::tables::Weight;
        if self.units[a].side == self.units[t].side {
            return true;
        }
        [Weight::Kept, Weight::Mixed, Weight::Lost].into_iter().all(|w| {
            [0, 1, 4, 5].into_iter().all(|st| {
                (1..LIFE_BUCKETS).all(|life| {
                    let x = self.tables.ranked(a, t, w, st, life);
                    let y = self.tables.ranked(b, u, w, st, life);
                    x.iter().zip(&y).all(|(p, q)| p.0 == q.0 && p.1.to_bits() == q.1.to_bits())
                })
            })
        })
    }
}

#[cfg(test)]
#[path = "classes_tests.rs"]
mod tests;
