//! The attack run: time to kill a target that does not shoot back.
//!
//! Procedure (`shared/rules/techcommander.md` §3-5):
//! 1. The target starts at 20 life.
//! 2. Each turn the attacker takes its actions: an MSV two (one when under-crewed),
//!    any other unit one. Each action fires the weapon system the policy picks among
//!    those allowed: it can fire and take life, it has rounds left (limited rounds run out
//!    across turns), and for an MSV's second action it is not the system fired first.
//!    An action with no allowed system is not an attack.
//! 3. Each attack rolls its dice; life lost = ⌊max(0, damage − reduction) / damage AC⌋.
//!    The run ends when life reaches 0 or less: the kill's attack number and turn are
//!    recorded.
//!    A Moneyshot attacker (2nd edition) fires a step with its bonus once the target's
//!    life is at most what the step can take with every shot hitting.
//! 4. At the end of each turn the target survives, power armour resets it to 20 life.
//! 5. A run alive after the turn cap (default 20) is censored: counted in the trials,
//!    never dropped.
//!
//! The attacker is never damaged, so it never makes a jury-rig roll; the sequence of
//! systems fired is therefore fixed (the *plan*), which is what makes the exact
//! computation in [`super::exact`] possible. Both use the same plan.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::TtkTally;

use super::action::ActionSpec;
use super::compiled::{CompiledSide, FC_NORMAL, MONEYSHOT};
use super::conditions::Conditions;
use super::dice::{MAX_TABLE_DICE, uniform_below};
use super::options::Options;
use super::policy::{Policy, UNLIMITED, choose};
use super::profile::{Attacker, Target};
use super::rulings::STARTING_LIFE;
use super::sampler::ActionSampler;

/// Default turn cap.
pub const DEFAULT_MAX_TURNS: u32 = 20;
pub use super::rulings::MAX_TURNS_LIMIT;

/// One attack in the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanStep {
    /// Weapon system fired.
    pub system: u8,
    /// 0-based turn.
    pub turn: u16,
    /// 0-based attack number.
    pub action: u16,
    /// Last attack of its turn against a power-armoured target: reset to 20 after it.
    pub reset_after: bool,
}

/// One plan step laid out for the hot loop: the hit table inline (unused thresholds
/// equal the range, so a fixed-width compare counts hits), life by hits, and the
/// bookkeeping of the step, in one record.
#[derive(Debug, Clone, PartialEq)]
struct HotStep {
    cumulative: [u64; MAX_TABLE_DICE as usize],
    range: u64,
    reject_below: u64,
    life_by_hits: [u8; MAX_TABLE_DICE as usize + 2],
    /// The target life at or below which the step's Moneyshot copy applies
    /// ([`super::compiled::NO_MONEYSHOT`] when never); the same in both copies.
    moneyshot_life: i32,
    dice: u8,
    turn: u16,
    action: u16,
    reset_after: bool,
    /// More than one table: sample through the general [`ActionSampler`].
    chunked: bool,
}

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    pub side: CompiledSide,
    pub plan: Vec<PlanStep>,
    /// The sampler of each plan step, then (at `p + plan.len()`) of the same step with
    /// Moneyshot's bonus (a copy when Moneyshot never applies to it).
    pub(crate) samplers: Vec<ActionSampler>,
    /// [`HotStep`]s laid out as `samplers`.
    hot: Vec<HotStep>,
    /// Whether any step has a Moneyshot copy (else the hot loop skips the check).
    any_moneyshot: bool,
    pub max_turns: u32,
    pub power_armor: bool,
}

impl AttackRun {
    /// Compiles the run of `attacker` against `target` under `cond`, played by the
    /// options `o`, firing by `policy`, for at most `max_turns` turns.
    ///
    /// # Errors
    /// A message when the turn cap is out of range, the options are out of range, or the
    /// side cannot be compiled (an Omega Override, too many weapon systems).
    pub fn new(
        attacker: &Attacker,
        target: &Target,
        cond: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        if !(1..=MAX_TURNS_LIMIT).contains(&max_turns) {
            return Err(format!("max turns must be between 1 and {MAX_TURNS_LIMIT}, got {max_turns}"));
        }
        let side = CompiledSide::new(attacker, target, cond, o, policy)?;
        let mut rounds = side.rounds;
        let mut plan = Vec::new();
        for turn in 0..max_turns {
            let mut used = 0u32;
            for _ in 0..side.actions_per_turn {
                if let Some(s) = choose(&side.ranking[FC_NORMAL], used, &rounds) {
                    used |= 1 << s;
                    if rounds[s as usize] != UNLIMITED {
                        rounds[s as usize] -= 1;
                    }
                    plan.push(PlanStep { system: s, turn: turn as u16, action: plan.len() as u16, reset_after: false });
                }
            }
            if target.power_armor
                && let Some(last) = plan.last_mut()
                && last.turn == turn as u16
            {
                last.reset_after = true;
            }
        }
        let plain =
            plan.iter().map(|s| side.samplers[FC_NORMAL][s.system as usize].clone().expect("ranked systems can fire"));
        let with_moneyshot = plan.iter().map(|s| {
            let i = s.system as usize;
            side.samplers[FC_NORMAL + MONEYSHOT][i]
                .clone()
                .or_else(|| side.samplers[FC_NORMAL][i].clone())
                .expect("ranked systems can fire")
        });
        let samplers: Vec<ActionSampler> = plain.chain(with_moneyshot).collect();
        let hot: Vec<HotStep> = plan
            .iter()
            .cycle()
            .zip(&samplers)
            .map(|(step, sampler)| HotStep {
                cumulative: sampler.first.cumulative,
                range: sampler.first.range,
                reject_below: sampler.first.reject_below(),
                life_by_hits: sampler.life_by_hits,
                dice: sampler.first.dice as u8,
                moneyshot_life: side.moneyshot_life[step.system as usize],
                turn: step.turn,
                action: step.action,
                reset_after: step.reset_after,
                chunked: !sampler.rest.is_empty(),
            })
            .collect();
        let any_moneyshot = hot.iter().any(|h| h.moneyshot_life != super::compiled::NO_MONEYSHOT);
        Ok(AttackRun { side, plan, samplers, hot, any_moneyshot, max_turns, power_armor: target.power_armor })
    }

    /// Attacks in the plan (the most a run can take).
    pub fn max_actions(&self) -> usize {
        self.plan.len()
    }

    /// Index into `hot`/`samplers` of plan step `p` against a target at `life`: the
    /// step itself, or its Moneyshot copy once the life is low enough.
    #[inline(always)]
    fn step_index(&self, p: usize, life: i32) -> usize {
        p + self.moneyshot_applies(p, life) as usize * self.plan.len()
    }

    /// Whether plan step `p` fires with Moneyshot's bonus at a target at `life`.
    #[inline(always)]
    pub(crate) fn moneyshot_applies(&self, p: usize, life: i32) -> bool {
        life <= self.hot[p].moneyshot_life
    }

    /// What plan step `p` rolls, with Moneyshot's bonus or without (for the exact
    /// solver).
    pub(crate) fn step_spec(&self, p: usize, moneyshot: bool) -> &ActionSpec {
        let system = self.plan[p].system as usize;
        let table = if moneyshot { FC_NORMAL + MONEYSHOT } else { FC_NORMAL };
        self.side.specs[table][system].as_ref().expect("plan steps can fire")
    }
}

impl AttackRun {
    /// Life lost by one attack of `hot[index]`: the same single draw and mapping as
    /// [`ActionSampler::sample`].
    #[inline(always)]
    fn lost(&self, step: &HotStep, index: usize, rng: &mut Xoshiro256PlusPlus) -> u32 {
        if step.chunked {
            return self.samplers[index].sample(rng);
        }
        let u = uniform_below(rng, step.range, step.reject_below);
        let mut hits = 0usize;
        for &c in &step.cumulative[..step.dice as usize] {
            hits += (u >= c) as usize;
        }
        step.life_by_hits[hits] as u32
    }
}

/// Engagements played side by side; refilling a lane when its run ends keeps the
/// unpredictable "is it dead yet" branch out of the loop.
const LANES: usize = 8;

impl Kernel for AttackRun {
    type Tally = TtkTally;

    fn new_tally(&self) -> TtkTally {
        TtkTally::new(self.max_turns as usize, self.max_actions())
    }

    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        // Moneyshot's per-attack check is compiled in only where it can apply.
        if self.any_moneyshot {
            self.play_runs::<true>(rng, trials, tally)
        } else {
            self.play_runs::<false>(rng, trials, tally)
        }
    }
}

impl AttackRun {
    /// The hot loop; `MONEYSHOT`: whether any step has a Moneyshot copy.
    #[inline(always)]
    fn play_runs<const MONEYSHOT: bool>(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        tally.trials += trials as u64;
        let len = self.plan.len() as u32;
        if len == 0 || trials == 0 {
            return; // nothing can fire: every run is censored
        }
        let full = STARTING_LIFE as i32;
        // Kills per (lane, step), folded into the tally at the end: one counter per lane
        // keeps consecutive lanes from chaining read-modify-writes on one address.
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
                let index = if MONEYSHOT { self.step_index(p, life[l]) } else { p };
                let step = &self.hot[index];
                let left = life[l] - self.lost(step, index, rng) as i32;
                let dead = left <= 0;
                kills[l * len as usize + p] += dead as u32;
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
                let index = if MONEYSHOT { self.step_index(p, life[l]) } else { p };
                let step = &self.hot[index];
                let left = life[l] - self.lost(step, index, rng) as i32;
                let dead = left <= 0;
                kills[l * len as usize + p] += dead as u32;
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
        for (p, step) in self.hot.iter().take(len as usize).enumerate() {
            let k: u64 = (0..LANES).map(|l| kills[l * len as usize + p] as u64).sum();
            tally.kills_by_turn[step.turn as usize] += k;
            tally.kills_by_action[step.action as usize] += k;
        }
    }
}
