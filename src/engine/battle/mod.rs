//! The shared battle engine: whole forces fighting turn by turn, with no rule inside.
//!
//! A battle is a set of sides (players or teams), each owning units. The ruleset
//! supplies the rules ([`BattleRules`]: initiative, action budgets, what an action does,
//! the end-of-turn resolution and scoring) and a policy ([`BattlePolicy`]: given the
//! state, the next action of a side, or a pass); the engine owns the turn skeleton every
//! game of our rulebooks shares:
//!
//! 1. [`BattleRules::begin_turn`]: initiative order and budgets (deployment, refills).
//! 2. For each phase (e.g. base rounds, then command rounds; or a single phase of
//!    activations), round-robin in initiative order: every side still in the
//!    turn with budget left in the phase gives one step chosen by its policy, then the
//!    next side, until nobody has a step left. A side whose policy passes is out for the
//!    rest of the turn when [`BattleRules::pass_ends_turn`], else the pass spends one
//!    step of its budget.
//! 3. [`BattleRules::end_turn`]: removal, escapes, scoring, resets; it may end the
//!    battle. At the turn cap, [`BattleRules::time_called`] decides.
//!
//! The side first in turn 1's initiative order is the side that "acted first" for the
//! initiative split ([`BattleTally::first`]); no random number is drawn for it. A game
//! of simultaneous fire ([`BattleRules::simultaneous`]) has no first side.
//!
//! Per trial the rules fill an [`Outcome`]; a [`BattleTally`] counts outcomes in
//! integers, so tallies merge exactly in any order (see [`crate::engine::runner`]).
//! Everything a policy reads is precomputed by the ruleset before the first trial; the
//! engine allocates nothing per trial (the state is reset in place).

mod outcome;
mod paired;
pub mod slots;
mod tally;

pub use outcome::{Ending, MAX_SIDES, MAX_UNITS, NO_FIRST, Outcome};
pub use paired::{PairedBattleTally, PairedBattles};
pub use tally::{BattleSummary, BattleTally, SideSummary};

use rand_xoshiro::Xoshiro256PlusPlus;

use super::kernel::Kernel;

/// A game played as a battle: the ruleset's side of the contract.
///
/// Units are numbered `0..units()` once for the whole battle (a deathmatch's spawn-list
/// entries are units that may be lost several times); sides `0..sides()`.
pub trait BattleRules: Sync {
    /// Everything that changes during one battle, in flat arrays: allocated once per
    /// worker by [`BattleRules::new_state`] and reset in place by
    /// [`BattleRules::begin_battle`].
    type State: Send;
    /// One step a side gives: an action, or a model's whole activation.
    type Action: Copy;

    /// Number of sides, 2..=[`MAX_SIDES`].
    fn sides(&self) -> usize;
    /// Number of unit slots, 1..=[`MAX_UNITS`].
    fn units(&self) -> usize;
    /// Side owning unit slot `unit`.
    fn side_of(&self, unit: usize) -> usize;
    /// Turn (round) cap, >= 1.
    fn max_turns(&self) -> u32;
    /// Phases per turn, >= 1.
    fn phases(&self) -> usize;
    /// Whether a pass takes the side out of the rest of the turn (else it spends a step).
    fn pass_ends_turn(&self) -> bool;
    /// Whether every side's fire takes effect at once (simultaneous fire): no side acts
    /// first, so [`Outcome::first`] is [`NO_FIRST`] and the initiative split is unknown.
    fn simultaneous(&self) -> bool {
        false
    }

    fn new_state(&self) -> Self::State;
    /// Set up a new battle (deploy the forces) and clear `out`'s per-trial fields.
    fn begin_battle(&self, s: &mut Self::State, rng: &mut Xoshiro256PlusPlus);
    /// Start turn `turn` (0-based): deployment, initiative, budgets. Writes the acting
    /// order into `order` and returns how many sides act this turn.
    fn begin_turn(
        &self,
        s: &mut Self::State,
        turn: u32,
        rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize;
    /// Steps side `side` may give in phase `phase` of this turn.
    fn budget(&self, s: &Self::State, side: usize, phase: usize) -> u32;
    /// Carry out one step of `side`.
    fn act(
        &self,
        s: &mut Self::State,
        side: usize,
        action: Self::Action,
        rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    );
    /// End of turn `turn`: resolve, score, reset. `Some` ends the battle.
    fn end_turn(
        &self,
        s: &mut Self::State,
        turn: u32,
        rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    ) -> Option<Ending>;
    /// The turn cap was reached without an end: how the battle is called.
    fn time_called(&self, s: &Self::State, out: &mut Outcome) -> Ending;
}

/// How a side plays: deterministic given the state and the random stream.
pub trait BattlePolicy<G: BattleRules>: Sync {
    /// The next step of `side` in `phase`, or `None` to pass.
    fn choose(
        &self,
        game: &G,
        s: &G::State,
        side: usize,
        phase: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<G::Action>;
}

/// One turn's action phases (step 2 of the module docs). Returns the steps each side
/// gave, in `out.actions` as well.
pub fn play_phases<G: BattleRules, P: BattlePolicy<G>>(
    game: &G,
    policy: &P,
    s: &mut G::State,
    order: &[u8],
    rng: &mut Xoshiro256PlusPlus,
    out: &mut Outcome,
) {
    let mut out_of_turn = [false; MAX_SIDES];
    for phase in 0..game.phases() {
        let mut left = [0u32; MAX_SIDES];
        for &side in order {
            left[side as usize] = game.budget(s, side as usize, phase);
        }
        loop {
            let mut any = false;
            for &side in order {
                let side = side as usize;
                if out_of_turn[side] || left[side] == 0 {
                    continue;
                }
                any = true;
                match policy.choose(game, s, side, phase, rng) {
                    Some(action) => {
                        left[side] -= 1;
                        out.actions[side] += 1;
                        game.act(s, side, action, rng, out);
                    }
                    None if game.pass_ends_turn() => out_of_turn[side] = true,
                    None => left[side] -= 1,
                }
            }
            if !any {
                break;
            }
        }
    }
}

/// Play one battle into `out` (cleared first).
pub fn play_battle<G: BattleRules, P: BattlePolicy<G>>(
    game: &G,
    policy: &P,
    s: &mut G::State,
    rng: &mut Xoshiro256PlusPlus,
    out: &mut Outcome,
) {
    out.clear();
    game.begin_battle(s, rng);
    let mut order = [0u8; MAX_SIDES];
    for turn in 0..game.max_turns() {
        let n = game.begin_turn(s, turn, rng, &mut order);
        if turn == 0 {
            out.first = if game.simultaneous() { NO_FIRST } else { order[0] };
        }
        play_phases(game, policy, s, &order[..n], rng, out);
        if let Some(ending) = game.end_turn(s, turn, rng, out) {
            out.ending = ending;
            out.turns = turn + 1;
            out.decided = true;
            return;
        }
    }
    out.ending = game.time_called(s, out);
    out.turns = game.max_turns();
    out.decided = false;
}

/// A compiled battle: rules and policy, ready for the runner.
#[derive(Debug, Clone)]
pub struct Battle<G, P> {
    pub game: G,
    pub policy: P,
}

impl<G: BattleRules, P: BattlePolicy<G>> Battle<G, P> {
    /// Play `trials` battles, adding them to `tally`.
    pub fn play_into(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut BattleTally) {
        let mut state = self.game.new_state();
        let mut out = Outcome::new();
        for _ in 0..trials {
            play_battle(&self.game, &self.policy, &mut state, rng, &mut out);
            tally.add(&out);
        }
    }

    /// An empty tally shaped for this battle.
    pub fn tally(&self) -> BattleTally {
        let sides = (0..self.game.units()).map(|u| self.game.side_of(u) as u8).collect();
        BattleTally::new(self.game.sides(), sides, self.game.max_turns() as usize)
    }
}

impl<G: BattleRules, P: BattlePolicy<G>> Kernel for Battle<G, P> {
    type Tally = BattleTally;

    fn new_tally(&self) -> BattleTally {
        self.tally()
    }

    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut BattleTally) {
        self.play_into(rng, trials, tally)
    }
}

#[cfg(test)]
mod tests;
