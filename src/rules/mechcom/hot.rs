//! The attack run's hot loop: one draw per step of the plan (a group of a round's
//! attacks, see [`super::step_nodes`]) from the exact law of that step given the
//! target's Integrity and tracked state, with every node's thresholds inline in one flat
//! array; eight runs are played side by side so the unpredictable "is it destroyed yet"
//! branch leaves the loop (a lane that finishes restarts at once). A lane is just its
//! node and its step number. Same laws as the exact chain.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{SamplingTable, uniform_below};
use crate::stats::TtkTally;

use super::step_nodes::{NodeOutcome, StepNodes};

/// Most outcomes one node holds (a power of two); runs with wider nodes use the general
/// loop.
pub const HOT_SLOTS: usize = 32;
/// Most nodes of a compact run (4096 nodes take 1.5 MB).
pub const HOT_NODES: usize = 4096;
/// Runs played side by side.
const LANES: usize = 8;
/// `attack` of a kill code that counts on no attack.
const NO_ATTACK: u32 = u32::MAX;
/// Bits of a slot's packed outcome that hold the next node; the kill code is above.
const NODE_BITS: u32 = 24;

/// One node: the draw's range, the cumulative thresholds of its slots (padded with
/// `range`, which no draw reaches) and each slot's packed outcome (next node | kill code
/// << `NODE_BITS`; code 0: alive).
#[derive(Debug, Clone, PartialEq)]
#[repr(align(64))]
struct HotNode {
    cumulative: [u64; HOT_SLOTS],
    range: u64,
    reject_below: u64,
    outcome: [u32; HOT_SLOTS],
}

/// The compiled hot loop of an attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct Hot {
    nodes: Vec<HotNode>,
    start: u32,
    /// Per step: its round.
    rounds: Vec<u16>,
    /// Per step and kill code (index step · codes + code): the attack it counts on.
    attacks: Vec<u32>,
    codes: usize,
}

impl Hot {
    /// Compiles a run: `laws` yields, per law and tracked state, its sampling table and
    /// each outcome's (Integrity lost, condition bits added); `rounds` are the
    /// (start, end) plan steps of each round; `steps` are (law index, attack number) per
    /// plan step; `full` is the target's Integrity and `start` its tracked state. `None`
    /// when a node would have more than [`HOT_SLOTS`] outcomes or the run more than
    /// [`HOT_NODES`] nodes.
    pub fn new<'a>(
        laws: impl Iterator<Item = (&'a SamplingTable, &'a [(u32, u8)])>,
        rounds: &[(usize, usize)],
        steps: &[(usize, u16)],
        full: u32,
        start: u8,
    ) -> Option<Hot> {
        let chain = StepNodes::new(laws, rounds, steps, full, start, HOT_SLOTS, HOT_NODES)?;
        let nodes = chain
            .nodes
            .iter()
            .map(|n| {
                let mut h = HotNode {
                    cumulative: [n.range; HOT_SLOTS],
                    range: n.range,
                    reject_below: n.range.wrapping_neg() % n.range,
                    outcome: [chain.start; HOT_SLOTS],
                };
                let mut acc = 0;
                for (i, &(w, o)) in n.slots.iter().enumerate() {
                    acc += w;
                    h.cumulative[i] = acc;
                    h.outcome[i] = match o {
                        NodeOutcome::Next(id) => id,
                        NodeOutcome::Kill(code) => chain.start | (code as u32) << NODE_BITS,
                    };
                }
                h
            })
            .collect();
        let codes = chain.codes;
        let mut attacks = vec![NO_ATTACK; chain.steps.len() * codes];
        for (s, step) in chain.steps.iter().enumerate() {
            for (j, a) in step.attack_of_kill.iter().enumerate() {
                attacks[s * codes + j + 1] = a.map_or(NO_ATTACK, u32::from);
            }
        }
        let rounds = chain.steps.iter().map(|s| s.round).collect();
        Some(Hot { nodes, start: chain.start, rounds, attacks, codes })
    }

    /// Plays `trials` runs.
    pub fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        let len = self.rounds.len() * self.codes;
        if trials == 0 {
            return;
        }
        let mut kills = vec![0u32; LANES * len];
        let mut node = [self.start; LANES];
        let mut step = [0u32; LANES];
        let mut active = [false; LANES];
        let mut started = trials.min(LANES as u32);
        active.iter_mut().take(started as usize).for_each(|a| *a = true);
        // Steady state: every lane that finishes restarts at once.
        while trials - started >= LANES as u32 {
            for (l, lane_kills) in kills.chunks_exact_mut(len).enumerate() {
                started += self.advance(&mut node[l], &mut step[l], lane_kills, rng) as u32;
            }
        }
        // Drain: lanes go idle once no run is left to start.
        let mut running = active.iter().filter(|&&a| a).count();
        while running > 0 {
            for (l, lane_kills) in kills.chunks_exact_mut(len).enumerate() {
                if active[l] && self.advance(&mut node[l], &mut step[l], lane_kills, rng) {
                    if started < trials {
                        started += 1;
                    } else {
                        active[l] = false;
                        running -= 1;
                    }
                }
            }
        }
        for (i, &attack) in self.attacks.iter().enumerate() {
            if i % self.codes == 0 {
                continue;
            }
            let k: u64 = (0..LANES).map(|l| kills[l * len + i] as u64).sum();
            tally.kills_by_turn[self.rounds[i / self.codes] as usize] += k;
            if attack != NO_ATTACK {
                tally.kills_by_action[attack as usize] += k;
            }
        }
    }

    /// One step of one lane; returns whether its run is over (`node` and `step` then
    /// restart).
    #[inline(always)]
    fn advance(&self, node: &mut u32, step: &mut u32, kills: &mut [u32], rng: &mut Xoshiro256PlusPlus) -> bool {
        let n = &self.nodes[*node as usize];
        let u = uniform_below(rng, n.range, n.reject_below);
        // Branchless binary search: the number of thresholds <= u.
        let mut slot = 0usize;
        let mut half = HOT_SLOTS / 2;
        while half > 0 {
            slot += ((u >= n.cumulative[(slot + half - 1) % HOT_SLOTS]) as usize) * half;
            half /= 2;
        }
        let out = n.outcome[slot % HOT_SLOTS];
        let code = (out >> NODE_BITS) as usize;
        kills[*step as usize * self.codes + code] += 1;
        let next = *step + 1;
        let done = (code != 0) | (next as usize == self.rounds.len());
        *node = if done { self.start } else { out & ((1 << NODE_BITS) - 1) };
        *step = if done { 0 } else { next };
        done
    }
}
