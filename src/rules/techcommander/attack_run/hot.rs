//! The attack run's hot loop.
//!
//! [`LANES`] runs are played side by side from one generator, lane by lane in a fixed
//! order; a lane whose run ends starts the next run at once. Each attack is one unbiased
//! draw `u` of its step's first hit table ([`uniform_below`]), mapped to the life it takes
//! through the step's *life thresholds*: the outcome counts at which the life lost
//! changes. A step has at most as many as it rolls dice, usually far fewer (no hit count
//! below the armour's reduction takes life, none above the cap takes more), and they
//! are compared at one fixed width per run, so the loop has no data-dependent branch. A
//! step of several hit tables draws through its [`ActionSampler`].
//!
//! The thresholds are compared with the generator's word `x` itself, not with
//! `u = ⌊x · range / 2⁶⁴⌋`: `u >= t` exactly when `x >= ⌈t · 2⁶⁴ / range⌉`, so each
//! threshold is scaled once ([`word_at_least`], in [`HotStep::new`]) and the draw
//! ([`accepted_word`]) needs only the low half of `x · range`, for [`uniform_below`]'s
//! rejection test. The same words are drawn, the same rejected, and each maps to the
//! same life.
//!
//! Contract: every attack draws and maps exactly as [`ActionSampler::sample`] does, so a
//! tally depends only on the generator's state and the trial count, as it did before
//! this layout (pinned in `tests/library/pinning.rs`, and against the plain sampler
//! loop in this module's tests).
//!
//! [`uniform_below`]: crate::dice::uniform_below

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{accepted_word, word_at_least};
use crate::stats::TtkTally;

use super::super::dice::MAX_TABLE_DICE;
use super::super::rulings::STARTING_LIFE;
use super::super::sampler::ActionSampler;
use super::{AttackRun, PlanStep};

/// Engagements played side by side; refilling a lane when its run ends keeps the
/// unpredictable "is it dead yet" branch out of the loop.
const LANES: usize = 8;

/// One plan step laid out for the hot loop: the life thresholds of its first hit table,
/// the life lost past each, and the step's bookkeeping, in one record.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct HotStep {
    /// Ascending, in the generator's words: an accepted word `x >= thresholds[j]` (the
    /// outcome index `u >= t_j`, with `thresholds[j] = ⌈t_j · 2⁶⁴ / range⌉`) takes at
    /// least `life_at[j + 1]`. Unused slots hold `u64::MAX`, which only the word
    /// `u64::MAX` reaches, and the life past the last used slot repeats, so reaching them
    /// changes nothing.
    thresholds: [u64; MAX_TABLE_DICE as usize],
    /// Life lost (capped) by a draw that reaches exactly `k` thresholds.
    life_at: [u8; MAX_TABLE_DICE as usize + 1],
    range: u64,
    reject_below: u64,
    /// The index of the step's sampler in [`AttackRun`]'s samplers.
    pub(super) sampler: usize,
    /// Thresholds in use (0 for a step of several tables, which samples through its
    /// [`ActionSampler`]).
    pub(super) width: usize,
    /// The target life at or below which the step's Moneyshot copy applies
    /// ([`super::super::compiled::NO_MONEYSHOT`] when never); the same in both copies.
    pub(super) moneyshot_life: i32,
    turn: u16,
    action: u16,
    reset_after: bool,
    /// More than one table: sample through the general [`ActionSampler`].
    pub(super) chunked: bool,
}

impl HotStep {
    /// Plan step `step` fired through `sampler` (at `index` in the run's samplers). Its
    /// first table gives `k` hits when `u >= cumulative[k - 1]` (the counts ascend), so
    /// keeping only the `k` where `life_by_hits` changes maps every draw to the life
    /// `sampler` maps it to.
    pub(super) fn new(step: &PlanStep, sampler: &ActionSampler, index: usize, moneyshot_life: i32) -> HotStep {
        let table = &sampler.first;
        let chunked = !sampler.rest.is_empty();
        let mut thresholds = [u64::MAX; MAX_TABLE_DICE as usize];
        let mut life_at = [0u8; MAX_TABLE_DICE as usize + 1];
        life_at[0] = sampler.life_by_hits[0];
        let mut width = 0;
        if !chunked {
            for k in 1..=table.dice as usize {
                if sampler.life_by_hits[k] != sampler.life_by_hits[k - 1] {
                    let t = table.cumulative[k - 1];
                    if t >= table.range {
                        break; // no draw reaches it, nor the later ones (they ascend)
                    }
                    thresholds[width] = word_at_least(t, table.range);
                    width += 1;
                    life_at[width] = sampler.life_by_hits[k];
                }
            }
        }
        let last = life_at[width];
        life_at[width + 1..].fill(last);
        HotStep {
            thresholds,
            life_at,
            range: table.range,
            reject_below: table.reject_below(),
            sampler: index,
            width,
            moneyshot_life,
            turn: step.turn,
            action: step.action,
            reset_after: step.reset_after,
            chunked,
        }
    }

    /// This record for plan step `step`, which fires the same sampler: its turn, action
    /// and reset instead of this one's.
    pub(super) fn at(&self, step: &PlanStep) -> HotStep {
        HotStep { turn: step.turn, action: step.action, reset_after: step.reset_after, ..self.clone() }
    }
}

/// Play `trials` runs of `run` from `rng` into `tally`'s kills (the caller counts the
/// trials): the loop for the run's Moneyshot check and threshold width. A run with a step
/// of several hit tables takes the one loop that can sample them; every other run's loop
/// has no such branch.
pub(super) fn play(run: &AttackRun, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
    const ALL: usize = MAX_TABLE_DICE as usize;
    match (run.any_moneyshot, run.any_chunked) {
        (true, true) => lanes::<true, ALL, true>(run, rng, trials, tally),
        (false, true) => lanes::<false, ALL, true>(run, rng, trials, tally),
        (true, false) => by_width::<true>(run, rng, trials, tally),
        (false, false) => by_width::<false>(run, rng, trials, tally),
    }
}

/// [`lanes`] at the smallest compiled width that holds every step's thresholds, for a
/// run with no step of several hit tables.
fn by_width<const MONEYSHOT: bool>(run: &AttackRun, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
    match run.width {
        0..=1 => lanes::<MONEYSHOT, 1, false>(run, rng, trials, tally),
        2 => lanes::<MONEYSHOT, 2, false>(run, rng, trials, tally),
        3 => lanes::<MONEYSHOT, 3, false>(run, rng, trials, tally),
        4 => lanes::<MONEYSHOT, 4, false>(run, rng, trials, tally),
        5..=6 => lanes::<MONEYSHOT, 6, false>(run, rng, trials, tally),
        7..=8 => lanes::<MONEYSHOT, 8, false>(run, rng, trials, tally),
        _ => lanes::<MONEYSHOT, { MAX_TABLE_DICE as usize }, false>(run, rng, trials, tally),
    }
}

/// Life lost by one attack of `hot[index]` (`W` >= its width; `CHUNKED`: whether the run
/// has a step of several hit tables): the same draws and mapping as
/// [`ActionSampler::sample`].
#[inline(always)]
fn lost<const W: usize, const CHUNKED: bool>(
    run: &AttackRun,
    step: &HotStep,
    index: usize,
    rng: &mut Xoshiro256PlusPlus,
) -> u32 {
    if CHUNKED && step.chunked {
        // Through a copy: the caller's generator never has its address taken, so it
        // stays in registers.
        let mut r = rng.clone();
        let life = run.sampler(index).sample(&mut r);
        *rng = r;
        return life;
    }
    let x = accepted_word(rng, step.range, step.reject_below);
    let mut reached = 0usize;
    for &t in &step.thresholds[..W] {
        reached += (x >= t) as usize;
    }
    step.life_at[reached] as u32
}

/// The hot loop; `MONEYSHOT`: whether any step has a Moneyshot copy; `W`: thresholds
/// compared per attack; `CHUNKED`: whether any step samples several hit tables.
#[inline(always)]
fn lanes<const MONEYSHOT: bool, const W: usize, const CHUNKED: bool>(
    run: &AttackRun,
    rng: &mut Xoshiro256PlusPlus,
    trials: u32,
    tally: &mut TtkTally,
) {
    let len = run.plan.len() as u32;
    if len == 0 || trials == 0 {
        return; // nothing can fire: every run is censored
    }
    // The generator's state stays in registers; written back at the end.
    let mut r = rng.clone();
    let full = STARTING_LIFE as i32;
    // Kills per (step, lane), folded into the tally at the end: one counter per lane
    // keeps consecutive lanes from chaining read-modify-writes on one address, and a
    // step's counters share a cache line.
    let mut kills = vec![0u32; LANES * len as usize];
    let mut life = [full; LANES];
    let mut pos = [0u32; LANES];
    let mut active = [false; LANES];
    let mut started = trials.min(LANES as u32);
    active.iter_mut().take(started as usize).for_each(|a| *a = true);
    // Steady state: every lane that finishes restarts at once, so no lane is idle and
    // the loop has no data-dependent branch.
    while trials - started >= LANES as u32 {
        for l in 0..LANES {
            let p = pos[l] as usize;
            let index = if MONEYSHOT { run.step_index(p, life[l]) } else { p };
            let step = &run.hot[index];
            let left = life[l] - lost::<W, CHUNKED>(run, step, index, &mut r) as i32;
            let dead = left <= 0;
            kills[p * LANES + l] += dead as u32;
            let next = pos[l] + 1;
            let done = dead | (next == len);
            started += done as u32;
            let survived = if step.reset_after { full } else { left };
            life[l] = if done { full } else { survived };
            pos[l] = if done { 0 } else { next };
        }
    }
    // Drain: the last runs finish; lanes go idle once no run is left to start.
    let mut running = active.iter().filter(|&&a| a).count();
    while running > 0 {
        for l in 0..LANES {
            if !active[l] {
                continue;
            }
            let p = pos[l] as usize;
            let index = if MONEYSHOT { run.step_index(p, life[l]) } else { p };
            let step = &run.hot[index];
            let left = life[l] - lost::<W, CHUNKED>(run, step, index, &mut r) as i32;
            let dead = left <= 0;
            kills[p * LANES + l] += dead as u32;
            let next = pos[l] + 1;
            let done = dead | (next == len);
            let restart = done & (started < trials);
            started += restart as u32;
            if done && !restart {
                active[l] = false;
                running -= 1;
            }
            let survived = if step.reset_after { full } else { left };
            life[l] = if done { full } else { survived };
            pos[l] = if done { 0 } else { next };
        }
    }
    *rng = r;
    for (p, step) in run.hot.iter().take(len as usize).enumerate() {
        let k: u64 = kills[p * LANES..(p + 1) * LANES].iter().map(|&c| c as u64).sum();
        tally.kills_by_turn[step.turn as usize] += k;
        tally.kills_by_action[step.action as usize] += k;
    }
}

#[cfg(test)]
mod tests;
