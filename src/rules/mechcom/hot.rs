//! The attack run's hot loop: every table inline in one flat array, and eight runs
//! played side by side so the unpredictable "is it destroyed yet" branch leaves the
//! loop (a lane that finishes restarts at once). Same laws as the exact chain.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{SamplingTable, uniform_below};
use crate::stats::TtkTally;

use super::tracked::{BURNED, SHOCKED, STATES};

/// Most outcomes one compact table holds; runs with wider tables use the general loop.
pub const HOT_SLOTS: usize = 32;
/// Runs played side by side.
const LANES: usize = 8;
/// `attack` of a step that is no attack (a round in which nothing fires).
const NO_ATTACK: u16 = u16::MAX;

/// One attack's law against one state of the target: thresholds, then per slot the
/// Integrity lost and the condition bits added.
#[derive(Debug, Clone, PartialEq)]
struct HotTable {
    range: u64,
    reject_below: u64,
    thresholds: u8,
    cumulative: [u64; HOT_SLOTS - 1],
    loss: [u16; HOT_SLOTS],
    adds: [u8; HOT_SLOTS],
}

/// One step: an attack (or a round with none), then the end of its round if it is the
/// round's last.
#[derive(Debug, Clone, Copy, PartialEq)]
struct HotStep {
    /// Index of the table for state 0; the state is added to it.
    base: u32,
    round: u16,
    /// The attack a kill at this step counts on (`NO_ATTACK`: none yet).
    attack: u16,
    end_of_round: bool,
}

/// The compiled hot loop of an attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct Hot {
    tables: Vec<HotTable>,
    steps: Vec<HotStep>,
}

impl Hot {
    /// Compile a run's laws: `laws` yields, per law and tracked state, its sampling table
    /// and each outcome's (Integrity lost, condition bits added); `rounds` are the
    /// (start, end) plan steps of each round; `steps` are (law index, attack number) per
    /// plan step. `None` when some table has more than [`HOT_SLOTS`] outcomes.
    pub fn new<'a>(
        laws: impl Iterator<Item = (&'a SamplingTable, &'a [(u32, u8)])>,
        rounds: &[(usize, usize)],
        steps: &[(usize, u16)],
    ) -> Option<Hot> {
        let mut tables = Vec::new();
        for (table, slots) in laws {
            if slots.len() > HOT_SLOTS {
                return None;
            }
            let mut t = HotTable {
                range: table.range,
                reject_below: table.reject_below,
                thresholds: table.cumulative.len() as u8,
                cumulative: [table.range; HOT_SLOTS - 1],
                loss: [0; HOT_SLOTS],
                adds: [0; HOT_SLOTS],
            };
            t.cumulative[..table.cumulative.len()].copy_from_slice(&table.cumulative);
            for (i, &(loss, adds)) in slots.iter().enumerate() {
                t.loss[i] = loss.min(u16::MAX as u32) as u16;
                t.adds[i] = adds;
            }
            tables.push(t);
        }
        // A round with no attack: a table that never takes anything.
        let null_base = tables.len() as u32;
        for _ in 0..STATES {
            tables.push(HotTable {
                range: 1,
                reject_below: 0,
                thresholds: 0,
                cumulative: [1; HOT_SLOTS - 1],
                loss: [0; HOT_SLOTS],
                adds: [0; HOT_SLOTS],
            });
        }
        let mut last_attack = NO_ATTACK;
        let mut hot_steps = Vec::new();
        for (round, &(start, end)) in rounds.iter().enumerate() {
            if start == end {
                hot_steps.push(HotStep {
                    base: null_base,
                    round: round as u16,
                    attack: last_attack,
                    end_of_round: true,
                });
            }
            for (i, &(law, attack)) in steps[start..end].iter().enumerate() {
                last_attack = attack;
                hot_steps.push(HotStep {
                    base: (law * STATES) as u32,
                    round: round as u16,
                    attack,
                    end_of_round: start + i + 1 == end,
                });
            }
        }
        Some(Hot { tables, steps: hot_steps })
    }

    /// Plays `trials` runs from full Integrity `full` and tracked state `start`.
    pub fn play(&self, start: u8, full: i32, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        let len = self.steps.len();
        if len == 0 || trials == 0 {
            return;
        }
        let mut kills = vec![0u32; LANES * len];
        let mut life = [full; LANES];
        let mut state = [start; LANES];
        let mut pos = [0usize; LANES];
        let mut active = [false; LANES];
        let mut started = trials.min(LANES as u32);
        active.iter_mut().take(started as usize).for_each(|a| *a = true);
        // Steady state: every lane that finishes restarts at once.
        while trials - started >= LANES as u32 {
            for l in 0..LANES {
                let done = self.advance(&mut life[l], &mut state[l], &mut pos[l], &mut kills[l * len..], rng);
                started += done as u32;
                life[l] = if done { full } else { life[l] };
                state[l] = if done { start } else { state[l] };
            }
        }
        // Drain: lanes go idle once no run is left to start.
        let mut running = active.iter().filter(|&&a| a).count();
        while running > 0 {
            for l in 0..LANES {
                if !active[l] {
                    continue;
                }
                let done = self.advance(&mut life[l], &mut state[l], &mut pos[l], &mut kills[l * len..], rng);
                if done {
                    if started < trials {
                        started += 1;
                    } else {
                        active[l] = false;
                        running -= 1;
                    }
                    life[l] = full;
                    state[l] = start;
                }
            }
        }
        for (p, step) in self.steps.iter().enumerate() {
            let k: u64 = (0..LANES).map(|l| kills[l * len + p] as u64).sum();
            tally.kills_by_turn[step.round as usize] += k;
            if step.attack != NO_ATTACK {
                tally.kills_by_action[step.attack as usize] += k;
            }
        }
    }

    /// One step of one lane; returns whether its run is over (`pos` then restarts at 0;
    /// the caller resets Integrity and state).
    #[inline(always)]
    fn advance(
        &self,
        life: &mut i32,
        state: &mut u8,
        pos: &mut usize,
        kills: &mut [u32],
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        let step = &self.steps[*pos];
        let t = &self.tables[step.base as usize + *state as usize];
        let u = uniform_below(rng, t.range, t.reject_below);
        let mut slot = 0usize;
        for &c in &t.cumulative[..t.thresholds as usize] {
            slot += (u >= c) as usize;
        }
        let mut s = *state | t.adds[slot];
        let burn = (step.end_of_round & (s & BURNED != 0)) as i32;
        let left = *life - t.loss[slot] as i32 - burn;
        s &= !(SHOCKED * step.end_of_round as u8);
        let dead = left <= 0;
        kills[*pos] += dead as u32;
        let next = *pos + 1;
        let done = dead | (next == self.steps.len());
        *pos = if done { 0 } else { next };
        *life = left;
        *state = s;
        done
    }
}
