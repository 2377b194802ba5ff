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
//!    A target with a bubble shield drops it when first attacked in a turn, and attacks
//!    hit the shield until it falls (see [`shield`]).
//! 5. A run alive after the turn cap (default 20) is censored: counted in the trials,
//!    never dropped.
//!
//! The attacker is never damaged, so it never makes a jury-rig roll; the sequence of
//! systems fired is therefore fixed (the *plan*), which is what makes the exact
//! computation in [`super::exact`] possible. Both use the same plan.

mod hot;
pub(crate) mod shield;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::TtkTally;

use super::action::ActionSpec;
use super::compiled::{CompiledSide, FC_NORMAL, MONEYSHOT};
use super::conditions::Conditions;
use super::options::Options;
use super::policy::{Policy, UNLIMITED, choose};
use super::profile::{Attacker, Target};
use super::sampler::ActionSampler;
use hot::HotStep;

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

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    pub side: CompiledSide,
    pub plan: Vec<PlanStep>,
    /// Each fired system's sampler once, plain and with Moneyshot's bonus (the plain one
    /// again when Moneyshot never applies to it); steps read theirs through
    /// [`AttackRun::sampler`].
    samplers: Vec<ActionSampler>,
    /// The [`HotStep`] of each plan step, then (at `p + plan.len()`) of the same step with
    /// Moneyshot's bonus.
    hot: Vec<HotStep>,
    /// Whether any step has a Moneyshot copy (else the hot loop skips the check).
    any_moneyshot: bool,
    /// Whether any step samples several hit tables (else the hot loop has no branch for
    /// them).
    any_chunked: bool,
    /// The most life-loss thresholds of any step (see [`HotStep`]).
    width: usize,
    pub max_turns: u32,
    pub power_armor: bool,
    /// The plan's laws at the target's bubble shield; `None` when it carries none.
    shield: Option<shield::ShieldLaws>,
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
        // Per (copy, system): its sampler's index and hot record, built at the first step
        // that fires it; every later step copies the record with its own bookkeeping.
        let systems = side.samplers[FC_NORMAL].len();
        let mut samplers: Vec<ActionSampler> = Vec::new();
        let mut built: Vec<Option<HotStep>> = vec![None; 2 * systems];
        let mut hot = Vec::with_capacity(2 * plan.len());
        for copy in [0, 1] {
            for step in &plan {
                let i = step.system as usize;
                let record = built[copy * systems + i].get_or_insert_with(|| {
                    let plain = side.samplers[FC_NORMAL][i].as_ref();
                    let sampler =
                        if copy == 0 { plain } else { side.samplers[FC_NORMAL + MONEYSHOT][i].as_ref().or(plain) };
                    samplers.push(sampler.expect("ranked systems can fire").clone());
                    let index = samplers.len() - 1;
                    HotStep::new(step, &samplers[index], index, side.moneyshot_life[i])
                });
                hot.push(record.at(step));
            }
        }
        let any_moneyshot = hot.iter().any(|h| h.moneyshot_life != super::compiled::NO_MONEYSHOT);
        let any_chunked = hot.iter().any(|h| h.chunked);
        let width = hot.iter().map(|h| h.width).max().unwrap_or(0);
        let shield = shield::ShieldLaws::new(attacker, target, cond, o, policy)?;
        Ok(AttackRun {
            side,
            plan,
            samplers,
            hot,
            any_moneyshot,
            any_chunked,
            width,
            max_turns,
            power_armor: target.power_armor,
            shield,
        })
    }

    /// Bubble shields the target drops in the run (0: none; see [`shield`]).
    pub fn shields(&self) -> u32 {
        self.shield.as_ref().map_or(0, |s| s.shields)
    }

    /// One sentence on the target's bubble shields as the run plays them; `None` without.
    pub fn shield_text(&self) -> Option<String> {
        let s = self.shield.as_ref()?;
        let count =
            if s.shields == 1 { "1 bubble shield".to_string() } else { format!("{} bubble shields", s.shields) };
        Some(if s.bypass {
            format!(
                "the target's {count} (BUBBLE_SHIELD): the attacker, auto-stabilized and within its speed of the \
                 shield, fires at the unit from inside it after a half move (SHIELD_BYPASS)"
            )
        } else {
            format!(
                "the target's {count} (BUBBLE_SHIELD): one dropped at the first attack of a turn while any is left; \
                 attacks hit it (targeted as AC5, damaged as AC1, 20 life, the overflow lost) until it falls, and a \
                 standing shield is back at 20 each turn"
            )
        })
    }

    /// The exact law of a run whose target carries a bubble shield; `None` without one.
    pub(crate) fn exact_shielded(&self) -> Option<crate::stats::ExactTtk> {
        self.shield.as_ref().map(|s| shield::exact(self, s))
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

    /// The sampler of `hot[index]` (an index of [`AttackRun::step_index`]).
    #[inline(always)]
    pub(crate) fn sampler(&self, index: usize) -> &ActionSampler {
        &self.samplers[self.hot[index].sampler]
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

impl Kernel for AttackRun {
    type Tally = TtkTally;

    fn new_tally(&self) -> TtkTally {
        TtkTally::new(self.max_turns as usize, self.max_actions())
    }

    /// Plays `trials` runs (see [`hot`]; [`shield`] when the target carries one).
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        tally.trials += trials as u64;
        match &self.shield {
            None => hot::play(self, rng, trials, tally),
            Some(s) => shield::play(self, s, rng, trials, tally),
        }
    }
}
