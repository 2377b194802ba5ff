//! The squad fight's throws (module `blast` gives the rules and the geometry): the
//! policy that chooses between a throw and an arc (option `SQUAD_THROW`), and the
//! blasts resolved at the end of a side's turn.
//!
//! # Policy `SQUAD_THROW`
//! A trooper that survives its activation with explosives left and AP for a throw picks
//! the throw and the aimed-at enemy (one in the fight, its dot the blast's centre) with
//! the largest *throw value*: the expected number of enemy troopers the blast puts out,
//! exact for one blast from the enemies' current cards (hit, or scatter in each of the
//! six directions, each trooper caught taking its ring). Ties go to the first explosive
//! and the first enemy in roster order.
//! - `better` (default): it throws when the throw value is larger than the *arc value*,
//!   the expected number of enemies the arc it would otherwise set puts out: each gun's
//!   widest arc, one attack at each of the first `shots` enemies in the fight in roster
//!   order (the order they activate into it), from their current cards. The arc value
//!   looks one turn ahead as the throw value does; neither counts damage short of
//!   putting a trooper out, blasts already thrown this turn, or the enemy's reply.
//! - `always`: it throws whenever it can (the attack run's `grenades-first`).
//!
//! No draw is made to choose.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform_below;
use crate::engine::battle::{Ending, Outcome};

use super::super::graph::Graph;
use super::super::law::TOTAL;
use super::blast::{DIRECTIONS, MAX_THROWS, UNLIMITED_ROUNDS, dot, hex_distance};
use super::limits::{MAX_GUNS, ThrowPolicy};
use super::state::{FightGame, FightState};

/// P(out) after law `l` from state `i` of `g`.
pub(super) fn p_out_after(g: &Graph, l: usize, i: usize) -> f64 {
    g.edges(l, i).filter(|&(j, _)| g.out[j]).map(|(_, n)| n as f64).sum::<f64>() / TOTAL as f64
}

impl FightGame {
    /// The dot of unit `u` in its side's line.
    #[inline]
    fn dot_of(&self, u: usize) -> (i32, i32) {
        let side = self.fight.units[u].side as usize;
        dot(u - self.slots(side).start, self.fight.spacing)
    }

    /// Expected enemies of `enemy` side put out by a blast of `rings` at `centre`.
    fn caught(&self, s: &FightState, enemy: usize, rings: &[u32], centre: (i32, i32)) -> f64 {
        let mut v = 0.0;
        for j in self.slots(enemy) {
            if s.out[j] {
                continue;
            }
            let d = hex_distance(centre, self.dot_of(j)) as usize;
            if let Some(&x) = rings.get(d)
                && let Some(l) = self.fight.ring(j, x)
            {
                v += p_out_after(&self.fight.graphs[self.fight.units[j].graph], l as usize, s.card[j] as usize);
            }
        }
        v
    }

    /// The throw value (see the module docs) of `t`'s throw `g` aimed at enemy `c`.
    pub fn throw_value(&self, s: &FightState, t: usize, g: usize, c: usize) -> f64 {
        let th = &self.fight.units[t].throws[g];
        let enemy = 1 - self.fight.units[t].side as usize;
        let p = th.hit[s.col[t] as usize] as f64 / 36.0;
        let at = self.dot_of(c);
        let mut v = p * self.caught(s, enemy, &th.rings, at);
        if th.scatters && p < 1.0 {
            let k = self.fight.scatter;
            let around: f64 =
                DIRECTIONS.iter().map(|&(q, r)| self.caught(s, enemy, &th.rings, (at.0 + k * q, at.1 + k * r))).sum();
            v += (1.0 - p) * around / 6.0;
        }
        v
    }

    /// The arc value (see the module docs) of `t` at its current column: of the arcs
    /// (and, at range 1, the melee attack) it would set instead (module `melee`).
    pub fn arc_value(&self, s: &FightState, t: usize) -> f64 {
        self.shots_value(s, t, &self.arc_plan(s, t))
    }

    /// The throw `t` makes now under `SQUAD_THROW`, if any: (throw, aimed-at enemy).
    /// A power-armour launcher (`Throw::keeps_arcs`) is valued with the arcs the AP left
    /// pays (module `blast`).
    pub fn choose_throw(&self, s: &FightState, t: usize) -> Option<(usize, usize)> {
        let unit = &self.fight.units[t];
        let ap = unit.ap[s.col[t] as usize];
        let enemy = 1 - unit.side as usize;
        let mut best: Option<(usize, usize, f64)> = None;
        for (g, th) in unit.throws.iter().enumerate() {
            if s.rounds[t * MAX_THROWS + g] == 0 || ap < th.cost {
                continue;
            }
            let arcs =
                if th.keeps_arcs { self.shots_value(s, t, &self.arc_plan_with(s, t, ap - th.cost)) } else { 0.0 };
            for c in self.slots(enemy).filter(|&c| !s.out[c]) {
                let v = self.throw_value(s, t, g, c) + arcs;
                if best.is_none_or(|b| v > b.2) {
                    best = Some((g, c, v));
                }
            }
        }
        let (g, c, v) = best?;
        match self.fight.throw_policy {
            ThrowPolicy::Always => Some((g, c)),
            ThrowPolicy::Better => (v > self.arc_value(s, t)).then_some((g, c)),
        }
    }

    /// `t` throws `g` at `c`: one round spent (none of an unlimited launcher), its arcs
    /// gone (power armour's launcher: the arcs the AP left pays), the blast waits.
    pub fn throw(&self, s: &mut FightState, t: usize, g: usize, c: usize) {
        let th = &self.fight.units[t].throws[g];
        if u32::from(s.rounds[t * MAX_THROWS + g]) != UNLIMITED_ROUNDS {
            s.rounds[t * MAX_THROWS + g] -= 1;
        }
        s.shots[t * MAX_GUNS..(t + 1) * MAX_GUNS].fill(0);
        if th.keeps_arcs {
            let shots = self.arc_plan_with(s, t, self.fight.units[t].ap[s.col[t] as usize] - th.cost);
            s.shots[t * MAX_GUNS..(t + 1) * MAX_GUNS].copy_from_slice(&shots);
        }
        let hit = th.hit[s.col[t] as usize];
        s.pending[s.pending_n] = (t as u8, g as u8, c as u8, hit as u8);
        s.pending_n += 1;
    }

    /// Resolve the waiting blasts in the order thrown (see module `blast`): one draw of
    /// 36 for the hit, one of 6 for a scatter, one per trooper caught.
    pub fn resolve_blasts(&self, s: &mut FightState, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        let waiting = std::mem::take(&mut s.pending_n);
        for k in 0..waiting {
            if s.over.is_some() {
                break;
            }
            let (t, g, c, hit) = s.pending[k];
            let (t, c) = (t as usize, c as usize);
            let th = &self.fight.units[t].throws[g as usize];
            let mut at = self.dot_of(c);
            if uniform_below(rng, 36, 36u64.wrapping_neg() % 36) >= hit as u64 {
                if !th.scatters {
                    continue;
                }
                let (q, r) = DIRECTIONS[uniform_below(rng, 6, 6u64.wrapping_neg() % 6) as usize];
                at = (at.0 + self.fight.scatter * q, at.1 + self.fight.scatter * r);
            }
            let enemy = 1 - self.fight.units[t].side as usize;
            for j in self.slots(enemy) {
                if s.out[j] {
                    continue;
                }
                let d = hex_distance(at, self.dot_of(j)) as usize;
                let Some(l) = th.rings.get(d).and_then(|&x| self.fight.ring(j, x)) else { continue };
                let graph = &self.fight.graphs[self.fight.units[j].graph];
                let next = graph.sample(l as usize, s.card[j] as usize, rng);
                s.card[j] = next as u32;
                s.col[j] = graph.cols[next];
                if graph.out[next] {
                    self.put_out(s, j, t, out);
                }
            }
        }
    }

    /// `t` is out, put out by `f`: the tallies, and the end when its side has no one left.
    /// An out trooper does not activate (a blast can put out one that has not yet).
    pub fn put_out(&self, s: &mut FightState, t: usize, f: usize, out: &mut Outcome) {
        let (side, enemy) = (self.fight.units[t].side as usize, self.fight.units[f].side as usize);
        s.out[t] = true;
        s.done[t] = true;
        s.alive[side] -= 1;
        out.lost[t] += 1;
        out.kills[f] += 1;
        out.score[enemy] += 1;
        let pv = self.fight.units[t].pv as u64 * 1000;
        out.points_lost_milli[side] += pv;
        out.points_destroyed_milli[enemy] += pv;
        if s.alive[side] == 0 {
            s.over = Some(Ending::Winner(enemy as u8));
        }
    }
}
