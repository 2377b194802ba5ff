//! The attack run's hot loop: one draw per step of the plan (a group of a round's
//! attacks, see [`super::step_nodes`]) from the exact law of that step given the
//! target's Integrity and tracked state, read from an exact integer alias table (one
//! compare, no search), every node inline in one flat array; eight runs are played side by side so the unpredictable "is it destroyed yet"
//! branch leaves the loop (a lane that finishes restarts at once). A lane is just its
//! node and its step number. Same laws as the exact chain.

use rand::Rng;
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

/// One node as an exact integer alias table over `HOT_SLOTS` columns: a uniform column
/// c and a uniform v in `[0, range)` give the packed outcome `own[c]` when
/// `v < threshold[c]`, else `alias[c]` (next node | kill code << `NODE_BITS`; code 0:
/// alive). Column c holds `threshold[c]` of its own slot's events and the rest of its
/// `range` events for its alias, so every slot gets exactly `HOT_SLOTS` × its weight of
/// the `HOT_SLOTS` × `range` (column, v) pairs.
#[derive(Debug, Clone, PartialEq)]
#[repr(align(64))]
struct HotNode {
    threshold: [u64; HOT_SLOTS],
    own: [u32; HOT_SLOTS],
    alias: [u32; HOT_SLOTS],
    range: u64,
    /// Lemire's rejection threshold for v's source (59 bits when `one_draw`, else 64).
    reject_below: u64,
    /// Whether one u64 gives both the column (top bits) and v (the 59 others): when
    /// `range` <= [`ONE_DRAW_MAX_RANGE`], so rejections stay rarer than 2^-11.
    one_draw: bool,
}

/// Bits of the column of an alias table (`HOT_SLOTS` = 2^5).
const COLUMN_BITS: u32 = 5;
/// Bits left for v when one u64 gives both.
const SOURCE_BITS: u32 = 64 - COLUMN_BITS;
const SOURCE_MASK: u64 = (1 << SOURCE_BITS) - 1;
/// Largest node range drawn from one u64.
const ONE_DRAW_MAX_RANGE: u64 = 1 << 48;

impl HotNode {
    /// The alias table of integer `weights` (with their packed outcomes) summing to
    /// `range`; Vose's pairing in exact integers.
    fn new(range: u64, slots: &[(u64, u32)], filler: u32) -> HotNode {
        let columns = HOT_SLOTS as u128;
        let r = range as u128;
        let mut mass: Vec<u128> = (0..HOT_SLOTS).map(|i| slots.get(i).map_or(0, |s| s.0 as u128 * columns)).collect();
        let own: Vec<u32> = (0..HOT_SLOTS).map(|i| slots.get(i).map_or(filler, |s| s.1)).collect();
        let mut threshold = [range; HOT_SLOTS];
        let mut alias = [filler; HOT_SLOTS];
        let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..HOT_SLOTS).partition(|&i| mass[i] < r);
        while let (Some(&sm), Some(&lg)) = (small.last(), large.last()) {
            small.pop();
            threshold[sm] = mass[sm] as u64;
            alias[sm] = own[lg];
            mass[lg] -= r - mass[sm];
            if mass[lg] < r {
                large.pop();
                small.push(lg);
            }
        }
        debug_assert!(small.is_empty() && large.iter().all(|&i| mass[i] == r), "weights sum to the range");
        let one_draw = range <= ONE_DRAW_MAX_RANGE;
        let reject_below = if one_draw { (1u64 << SOURCE_BITS) % range } else { range.wrapping_neg() % range };
        HotNode { threshold, own: own.try_into().expect("HOT_SLOTS columns"), alias, range, reject_below, one_draw }
    }
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
                let slots: Vec<(u64, u32)> = n
                    .slots
                    .iter()
                    .map(|&(w, o)| match o {
                        NodeOutcome::Next(id) => (w, id),
                        NodeOutcome::Kill(code) => (w, chain.start | (code as u32) << NODE_BITS),
                    })
                    .collect();
                HotNode::new(n.range, &slots, chain.start)
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
        let (column, v) = if n.one_draw {
            loop {
                let x = rng.next_u64();
                let m = (x & SOURCE_MASK) as u128 * n.range as u128;
                if (m as u64 & SOURCE_MASK) >= n.reject_below {
                    break ((x >> SOURCE_BITS) as usize, (m >> SOURCE_BITS) as u64);
                }
            }
        } else {
            let column = (rng.next_u64() >> SOURCE_BITS) as usize;
            (column, uniform_below(rng, n.range, n.reject_below))
        };
        let column = column % HOT_SLOTS;
        let out = if v < n.threshold[column] { n.own[column] } else { n.alias[column] };
        let code = (out >> NODE_BITS) as usize;
        kills[*step as usize * self.codes + code] += 1;
        let next = *step + 1;
        let done = (code != 0) | (next as usize == self.rounds.len());
        *node = if done { self.start } else { out & ((1 << NODE_BITS) - 1) };
        *step = if done { 0 } else { next };
        done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every (column, v) pair of an alias table, counted by outcome.
    fn counts(node: &HotNode) -> std::collections::BTreeMap<u32, u64> {
        let mut seen = std::collections::BTreeMap::new();
        for c in 0..HOT_SLOTS {
            for v in 0..node.range {
                *seen.entry(if v < node.threshold[c] { node.own[c] } else { node.alias[c] }).or_insert(0) += 1;
            }
        }
        seen
    }

    #[test]
    fn alias_tables_give_every_outcome_exactly_its_weight() {
        let cases: Vec<Vec<(u64, u32)>> = vec![
            vec![(3, 7), (5, 8), (2, 9)],
            vec![(1, 1)],
            vec![(1, 1), (96, 2), (0, 3), (3, 4)],
            (0..32).map(|i| (i as u64 + 1, i + 100)).collect(),
        ];
        for slots in cases {
            let range = slots.iter().map(|s| s.0).sum();
            let node = HotNode::new(range, &slots, 0);
            let expected = slots.iter().filter(|s| s.0 > 0).map(|&(w, o)| (o, w * HOT_SLOTS as u64)).collect();
            assert_eq!(counts(&node), expected, "{slots:?}");
        }
    }
}
