//! What one attack does to an attack run's target, shared by the fixed plan, the Heat
//! automaton and the token automaton: each (weapon, phase)'s exact laws against every
//! tracked-condition state ([`Laws`]), one Monte Carlo run's target ([`Struck`]), and
//! the exact chain's steps on the (Integrity, tracked state) grid.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{SamplingTable, uniform_below};
use crate::stats::TtkTally;

use super::tracked::{BURNED, SHOCKED, STATES};

/// One outcome of an attack given the target's tracked conditions: Integrity lost
/// (capped at the target's Integrity) and the condition bits it adds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Outcome {
    pub(super) loss: u32,
    pub(super) adds: u8,
    pub(super) p: f64,
}

/// The laws of one (weapon, phase) against each tracked-condition state.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Laws {
    pub(super) outcomes: [Vec<Outcome>; STATES],
    pub(super) tables: [SamplingTable; STATES],
    /// Per table slot: Integrity lost and condition bits added.
    pub(super) slots: [Vec<(u32, u8)>; STATES],
}

impl Laws {
    /// One outcome against a target in tracked state `state`: one unbiased integer read
    /// through the state's table, as (Integrity lost, condition bits added).
    #[inline(always)]
    pub(super) fn draw(&self, state: u8, rng: &mut Xoshiro256PlusPlus) -> (u32, u8) {
        let table = &self.tables[state as usize];
        let u = uniform_below(rng, table.range, table.reject_below);
        self.slots[state as usize][table.slot(u)]
    }
}

/// The target in one Monte Carlo run: its Integrity and tracked conditions.
pub(super) struct Struck {
    pub(super) life: i32,
    pub(super) state: u8,
}

impl Struck {
    /// One attack with `law`: Integrity lost and conditions landed; returns the Integrity
    /// it took. The target is destroyed when `life` is below 1 after it.
    #[inline(always)]
    pub(super) fn attack(&mut self, law: &Laws, rng: &mut Xoshiro256PlusPlus) -> u32 {
        let (loss, adds) = law.draw(self.state, rng);
        self.life -= loss as i32;
        self.state |= adds;
        loss
    }

    /// The target's activation at the end of a round (Burned costs 1, Shocked ends);
    /// whether it destroyed the target, counted in `tally` on round `round` and on the
    /// last of the `made` attacks made so far (if any).
    #[inline(always)]
    pub(super) fn end_round(&mut self, round: usize, made: usize, tally: &mut TtkTally) -> bool {
        self.life -= (self.state & BURNED != 0) as i32;
        self.state &= !SHOCKED;
        let destroyed = self.life <= 0;
        if destroyed {
            tally.kills_by_turn[round] += 1;
            if made > 0 {
                tally.kills_by_action[made - 1] += 1;
            }
        }
        destroyed
    }
}

/// The index of (Integrity, tracked state) in a chain's grid.
pub(super) fn idx(life: usize, s: usize) -> usize {
    life * STATES + s
}

/// One attack with `law` on the (Integrity, state) grid `alive`: the grid after it and
/// the mass destroyed.
pub(super) fn attack_step(law: &Laws, alive: &[f64], full: usize) -> (Vec<f64>, f64) {
    let mut next = vec![0.0f64; alive.len()];
    let killed = attack_outcomes(law, alive, full, |at, _, p| next[at] += p);
    (next, killed)
}

/// One attack with `law` on the (Integrity, state) grid `alive`, each surviving
/// outcome given to `to` as (grid index after it, Integrity it took, mass), in grid
/// then outcome order; returns the mass destroyed.
pub(super) fn attack_outcomes(law: &Laws, alive: &[f64], full: usize, mut to: impl FnMut(usize, u32, f64)) -> f64 {
    let mut killed = 0.0;
    for life in 1..=full {
        for s in 0..STATES {
            let p = alive[idx(life, s)];
            if p == 0.0 {
                continue;
            }
            for out in &law.outcomes[s] {
                if out.loss as usize >= life {
                    killed += p * out.p;
                } else {
                    to(idx(life - out.loss as usize, s | out.adds as usize), out.loss, p * out.p);
                }
            }
        }
    }
    killed
}

/// The target's activation at the end of a round on the grid `alive`: Burned costs 1,
/// Shocked ends. The grid after it and the mass destroyed.
pub(super) fn target_activation(alive: &[f64], full: usize) -> (Vec<f64>, f64) {
    let mut after = vec![0.0f64; alive.len()];
    let mut burned_out = 0.0;
    for life in 1..=full {
        for s in 0..STATES {
            let p = alive[idx(life, s)];
            let left = life - (s as u8 & BURNED != 0) as usize;
            if left == 0 {
                burned_out += p;
            } else {
                after[idx(left, s & !(SHOCKED as usize))] += p;
            }
        }
    }
    (after, burned_out)
}
