//! The rallied group actions' greedy scores at bubble-shield carriers
//! ([`super::shield`]), exactly, as [`super::rally`] scores them without shields:
//!
//! - **Rallied Attack** at a covered target (or one that would drop a shield): the walk
//!   over (shield life, life lost), member by member in group order. While the shield
//!   stands a member fires its best ready system at the shield at its life then, and the
//!   shot that breaks it loses its overflow; after, its best system at the unit at the
//!   life the unit had when the action began (as [`TcGame::rally_attack`] plays it).
//! - **Rallied Assault** on a group with carriers: the walk over (current member, its
//!   shield's life, its life); each member becomes the current one with the shield it
//!   would meet then (the one covering it, or a fresh one it would drop).
//!
//! Each scores as its shots do one by one (techcommander-battles.md §2.7; the shots'
//! scores in [`super::shield`]): [`break_value`] × P(a shield breaks), plus §2.7's terms
//! on the life the units lose. Rallied groups are troops and crew, which never bypass a
//! shield. The walks run only in battles with shields; the assault's uses scratch
//! memory kept per thread (no allocation once it has grown).

use std::cell::RefCell;

use super::game::{State, TcGame};
use super::rally_laws::{Capped, FULL, score_of};
use super::shield_tables::break_value;
use super::tables::Tables;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// Life values 0..=20 (of a unit or a shield).
const LIVES: usize = FULL + 1;

thread_local! {
    /// The Rallied Assault walk's two layers, (member, shield life, life) flattened.
    static WALK: RefCell<(Vec<f64>, Vec<f64>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

impl TcGame {
    /// The law of the life `m` takes from `t`'s shield at life `c` (its best ready system
    /// at the shield then), or `None` when no ready system can fire at it.
    fn law_at_shield(&self, shield: &Tables, s: &State, m: usize, t: usize, c: usize) -> Option<Capped> {
        let (sys, _) = self.best_system_from(shield, s, m, t, c as i32)?;
        Some(self.member_law_from(shield, s, m, t, sys, c as i32))
    }

    /// The law of the life `m` takes from unit `t` at `life` with `tables` (its best
    /// ready system at that life), or `None`.
    fn law_at_unit(&self, tables: &Tables, s: &State, m: usize, t: usize, life: i32) -> Option<Capped> {
        let (sys, _) = self.best_system_from(tables, s, m, t, life)?;
        Some(self.member_law_from(tables, s, m, t, sys, life))
    }

    /// The greedy score of `side`'s Rallied Attack at `t`, which a shield covers or
    /// would cover (see the module docs); `None` when no ready member can fire at it.
    pub(super) fn rally_attack_shielded(&self, s: &State, side: usize, t: usize) -> Option<f32> {
        let life = s.life[t].clamp(1, STARTING_LIFE as i32);
        let cap = life as usize;
        let c0 = self.shield_life(s, t) as usize;
        let shield = self.shields.base.as_ref().expect("a carrier's attackers are compiled");
        let unit = self.tables_at(&self.tables, s, t);
        // p[c][lost]: the shield at life c (0: none), the unit has lost `lost` (capped).
        let mut p = [[0.0f64; LIVES]; LIVES];
        p[c0][0] = 1.0;
        let mut first = None;
        for &m in &self.groups[side] {
            let m = m as usize;
            if !self.member_ready(s, m) {
                continue;
            }
            debug_assert!(!self.shields.bypass[m], "rallied troops and crew never bypass a shield");
            let mut next = [[0.0f64; LIVES]; LIVES];
            for (c, row) in p.iter().enumerate() {
                if row.iter().all(|&q| q == 0.0) {
                    continue;
                }
                let law =
                    if c == 0 { self.law_at_unit(unit, s, m, t, life) } else { self.law_at_shield(shield, s, m, t, c) };
                let Some(law) = law else {
                    for (n, &q) in row.iter().enumerate() {
                        next[c][n] += q;
                    }
                    continue;
                };
                first = first.or(Some(m));
                for (lost, &q) in row.iter().enumerate().filter(|(_, q)| **q != 0.0) {
                    for (n, &r) in law.iter().enumerate().filter(|(_, r)| **r != 0.0) {
                        if c == 0 {
                            next[0][(lost + n).min(cap)] += q * r;
                        } else {
                            next[c.saturating_sub(n)][lost] += q * r;
                        }
                    }
                }
            }
            p = next;
        }
        let v = self.rally.value(first?, t);
        let broken: f64 = p[0].iter().sum();
        let lost: Capped = std::array::from_fn(|n| p.iter().map(|row| row[n]).sum());
        Some((break_value(v, &self.o).kill * broken + score_of(&lost, cap, v)) as f32)
    }

    /// The greedy score of `side`'s Rallied Assault on the enemy group members
    /// `targets` (in force order, some carrying shields), exactly (see the module
    /// docs); `None` when no member of `side` is ready.
    pub(super) fn assault_shielded(&self, s: &State, side: usize, targets: &[u8]) -> Option<f32> {
        let n = targets.len();
        let life0 = |i: usize| s.life[targets[i] as usize].clamp(1, STARTING_LIFE as i32) as usize;
        let shield0 = |i: usize| self.shield_life(s, targets[i] as usize) as usize;
        let at = |i: usize, c: usize, l: usize| (i * LIVES + c) * LIVES + l;
        let base = self.assault_tables();
        let shield = self.shield_of(base);
        WALK.with_borrow_mut(|(p, next)| {
            let size = (n + 1) * LIVES * LIVES;
            p.clear();
            p.resize(size, 0.0);
            p[at(0, shield0(0), life0(0))] = 1.0;
            let mut first_member = None;
            let mut first = 0; // the lowest target index with mass
            for &m in &self.groups[side] {
                let m = m as usize;
                if !self.member_ready(s, m) {
                    continue;
                }
                debug_assert!(!self.shields.bypass[m], "rallied troops and crew never bypass a shield");
                first_member = first_member.or(Some(m));
                next.clear();
                next.resize(size, 0.0);
                next[at(n, 0, 0)] = p[at(n, 0, 0)];
                for i in first..n {
                    let t = targets[i] as usize;
                    let unit = self.tables_at(base, s, t);
                    for c in 0..LIVES {
                        for l in 1..LIVES {
                            let q = p[at(i, c, l)];
                            if q == 0.0 {
                                continue;
                            }
                            let law = if c == 0 {
                                self.law_at_unit(unit, s, m, t, l as i32)
                            } else {
                                self.law_at_shield(shield, s, m, t, c)
                            };
                            let Some(law) = law else {
                                next[at(i, c, l)] += q;
                                continue;
                            };
                            for (loss, &r) in law.iter().enumerate().filter(|(_, r)| **r != 0.0) {
                                let to = if c > 0 {
                                    at(i, c.saturating_sub(loss), l)
                                } else if loss < l {
                                    at(i, 0, l - loss)
                                } else if i + 1 == n {
                                    at(n, 0, 0)
                                } else {
                                    at(i + 1, shield0(i + 1), life0(i + 1))
                                };
                                next[to] += q * r;
                            }
                        }
                    }
                }
                std::mem::swap(p, next);
                while first < n && p[at(first, 0, 0)..at(first + 1, 0, 0)].iter().all(|&q| q == 0.0) {
                    first += 1;
                }
            }
            let a = first_member?;
            // Every member before the current one is eliminated (its shield, if it met
            // one, broken first); the current one has lost life0 - l, and its shield
            // is broken where c is 0.
            let mut score = 0.0;
            let mut killed = 0.0;
            for i in 0..=n {
                let block = &p[at(i, 0, 0)..at(i + 1, 0, 0).min(p.len())];
                let mass: f64 = block.iter().sum();
                if mass > 0.0 {
                    score += mass * killed;
                }
                if i == n {
                    break;
                }
                let v = self.rally.value(a, targets[i] as usize);
                let (l0, c0) = (life0(i), shield0(i));
                // What breaking the shield met at the start is worth (0: none was met).
                let broke = if c0 > 0 { break_value(v, &self.o).kill } else { 0.0 };
                if mass > 0.0 {
                    for c in 0..LIVES {
                        for l in 1..=l0 {
                            let q = p[at(i, c, l)];
                            score += q * v.damage * (l0 - l) as f64 / STARTING_LIFE as f64;
                            if c == 0 && c0 > 0 {
                                score += q * broke;
                            }
                        }
                    }
                }
                let per_kill = v.kill + if l0 == FULL { v.kill_from_full } else { 0.0 };
                killed += per_kill + v.damage * l0 as f64 / STARTING_LIFE as f64 + broke;
            }
            Some(score as f32)
        })
    }
}
