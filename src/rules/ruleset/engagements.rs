//! The engagements capability: exact odds, attack runs, duels and their pairings.

use crate::engine::Kernel;
use crate::stats::{DuelTally, ExactDuelOdds, ExactTtk, Metric, PairedTally, TtkTally};

use super::{Catalogue, ConditionRules, OddsReport};

/// Turns over which [`Engagements::can_attack`]'s default looks for a kill.
pub const CAN_ATTACK_TURNS: u32 = 20;

/// What a game plays one side against another: the compiled kernels (concrete types, so
/// the hot loops stay monomorphic) and their exact solvers.
pub trait Engagements: Catalogue + ConditionRules {
    /// One side attacking an inert target until it is destroyed or time runs out.
    type AttackRun: Kernel<Tally = TtkTally> + Send;
    /// Two sides attacking each other.
    type Duel: Kernel<Tally = DuelTally>;
    /// Two attack runs on common random numbers (`compare`).
    type PairedRun: Kernel<Tally = PairedTally>;
    /// Two duels against one opponent on common random numbers (`compare`, `gauntlet`).
    type PairedDuel: Kernel<Tally = PairedTally>;

    /// Exact odds of one attack (or each weapon) of `attacker` against `target`.
    ///
    /// # Errors
    /// Unknown names or weapon, or an attack the rules do not allow.
    fn odds(
        cat: &Self::Catalogue,
        attacker: &str,
        weapon: Option<&str>,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<OddsReport, String>;

    /// Compile the attack run of `attacker` against an inert `target`.
    ///
    /// # Errors
    /// Unknown names, or what the kernel refuses to play.
    fn attack_run(
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        policy: Self::Policy,
        max_turns: u32,
    ) -> Result<Self::AttackRun, String>;
    /// The run's exact time-to-kill law, or [`ExactTtk::unavailable`] where the options
    /// choose a model with no exact solver (`ttk --exact` then refuses the run).
    fn exact_run(run: &Self::AttackRun) -> ExactTtk;
    /// The run's plan for people: (turn from 1, weapon) per attack.
    fn plan(cat: &Self::Catalogue, attacker: &str, run: &Self::AttackRun) -> Vec<(u32, String)>;
    /// What the run leaves out of the rules, one sentence each, for its report
    /// (`not modelled:` lines and the JSON key `not_modelled`); none by default.
    fn run_notes(_run: &Self::AttackRun) -> Vec<String> {
        Vec::new()
    }
    /// What the run plays beyond the attacker's and target's cards and the conditions
    /// line (gear that changes the run), one sentence each, for its report (`played:`
    /// lines and the JSON key `played`); none by default.
    fn run_played(_run: &Self::AttackRun) -> Vec<String> {
        Vec::new()
    }

    /// Whether duel side `attacker` has an attack that can reach duel side `defender` at
    /// conditions `c` (a weapon in range, a reach for a special attack): a side that
    /// cannot is harmless in that engagement, whatever the dice. Engagements flag such
    /// sides and `fit` leaves their matchups out.
    ///
    /// The default reads the exact attack run of `attacker` against `defender` (as
    /// [`Catalogue::as_target`] names it) with the default policy over
    /// [`CAN_ATTACK_TURNS`] turns: it can attack when the target can be destroyed at all
    /// (and, where the run has no exact law, it is assumed to). Rooms override it with
    /// their own range and reach data, which is exact and cheap.
    ///
    /// # Errors
    /// Unknown names, or what the attack run refuses to play.
    fn can_attack(
        cat: &Self::Catalogue,
        attacker: &str,
        defender: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<bool, String> {
        let target = Self::as_target(defender);
        let run = Self::attack_run(cat, attacker, &target, c, o, Self::Policy::default(), CAN_ATTACK_TURNS)?;
        let law = Self::exact_run(&run);
        Ok(!law.is_available() || law.p_kill > 0.0)
    }

    /// Compile a duel of `a` and `b`, each attacking the other.
    ///
    /// # Errors
    /// Unknown names, or what the kernel refuses to play.
    fn duel(
        cat: &Self::Catalogue,
        a: &str,
        b: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        policy: Self::Policy,
        max_turns: u32,
    ) -> Result<Self::Duel, String>;

    /// The duel's exact outcome, with A wins, B wins, mutual kill and timeout kept
    /// apart, where the ruleset has an exact solver for it (sides that cannot change
    /// each other's state); `None` otherwise.
    fn exact_duel(_duel: &Self::Duel) -> Option<ExactDuelOdds> {
        None
    }

    /// Whether [`Engagements::exact_duel`] gives an outcome for `duel`, decided without
    /// solving it (cheap: a sharded search learns which engagements are exact in every
    /// shard and solves only its own share). Must agree with `exact_duel`; `false` by
    /// default, as `exact_duel`'s default is `None`.
    fn solves_duel(_duel: &Self::Duel) -> bool {
        false
    }

    /// Whether [`Engagements::exact_run`] gives an exact law for `run` (not
    /// [`ExactTtk::unavailable`]), decided without solving it. Must agree with
    /// `exact_run`; `true` by default.
    fn solves_run(_run: &Self::AttackRun) -> bool {
        true
    }

    /// Whether one side of a duel acts first (the initiative split means something);
    /// `false` where both sides fire at once (no split, exact or sampled).
    const ONE_SIDE_ACTS_FIRST: bool = true;

    /// The duel's exact initiative split: P(A wins | A acts first) and P(A wins | B acts
    /// first), each `None` where that order never happens or the ruleset has no exact
    /// solver for it (the split is then Monte Carlo only); both `None` by default.
    fn exact_initiative(_duel: &Self::Duel) -> (Option<f64>, Option<f64>) {
        (None, None)
    }

    /// What the duel leaves out of the rules, one sentence each (both sides), for its
    /// report (`not modelled:` lines and the JSON key `not_modelled`); none by default.
    fn duel_notes(_duel: &Self::Duel) -> Vec<String> {
        Vec::new()
    }

    /// Pair two attack runs against the same target for `compare` (common random
    /// numbers: the kernel draws each trial's numbers once for both).
    ///
    /// # Errors
    /// A metric the pairing cannot measure.
    fn paired_run(a: Self::AttackRun, b: Self::AttackRun, metric: Metric) -> Result<Self::PairedRun, String>;
    /// Pair two duels against the same opponent for `compare` and `gauntlet`.
    ///
    /// # Errors
    /// A metric the pairing cannot measure.
    fn paired_duel(a: Self::Duel, b: Self::Duel, metric: Metric) -> Result<Self::PairedDuel, String>;
}
