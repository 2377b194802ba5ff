//! Duels with simultaneous fire (§5 "Duel"): both units fire every turn; a unit
//! destroyed in turn t still fires in turn t, so both may fall in one turn (a draw).
//! Card-free, neither side's fire changes the other's, so the exact outcome follows from
//! the two independent kill-turn laws ([`exact_duel`]); the Monte Carlo kernel plays
//! both runs turn by turn on one generator (A's gunners, then B's).

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::rules::kit::replay_paired::Replayable;
use crate::stats::{DuelTally, ExactDuelOdds, ExactTtk};

use super::attack_run::{AttackRun, FullChart};
use super::full_chart::{self, CardState};

/// Who won a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    A,
    B,
    /// Both destroyed in one turn, or both alive at the cap.
    Draw,
}

/// A compiled duel: `a` is A's run against B, `b` is B's run against A.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelKernel {
    pub a: AttackRun,
    pub b: AttackRun,
    pub max_turns: u32,
}

/// The exact duel from A's and B's kill-turn laws (A's law: when A destroys B).
/// Returns (P(A wins), P(B wins), P(both in one turn), P(both alive at the cap)).
pub fn exact_duel(a: &ExactTtk, b: &ExactTtk) -> (f64, f64, f64, f64) {
    let (mut pa, mut pb, mut mutual) = (0.0, 0.0, 0.0);
    let (mut a_before, mut b_before) = (0.0, 0.0); // P(kill by the end of the previous turn)
    for (ka, kb) in a.kill_by_turn.iter().zip(&b.kill_by_turn) {
        pa += ka * (1.0 - b_before - kb);
        pb += kb * (1.0 - a_before - ka);
        mutual += ka * kb;
        a_before += ka;
        b_before += kb;
    }
    (pa, pb, mutual, (1.0 - a_before) * (1.0 - b_before))
}

impl DuelKernel {
    /// # Errors
    /// Runs with different turn caps, or one side on the full chart model and not the other.
    pub fn new(a: AttackRun, b: AttackRun) -> Result<DuelKernel, String> {
        if a.max_turns != b.max_turns {
            return Err("the two sides have different turn caps".into());
        }
        if a.is_full_chart() != b.is_full_chart() {
            return Err("both sides of a duel play the same model (MODEL)".into());
        }
        let max_turns = a.max_turns;
        Ok(DuelKernel { a, b, max_turns })
    }

    /// Whether the duel plays the full chart model (Monte Carlo only).
    pub fn is_full_chart(&self) -> bool {
        self.a.is_full_chart()
    }

    /// The exact outcome (card-free sides never change each other's fire; the full
    /// chart model has no exact outcome: do not call it then).
    pub fn exact(&self) -> ExactDuelOdds {
        let (a, b, mutual, timeout) = exact_duel(&self.a.exact(), &self.b.exact());
        ExactDuelOdds { p_a_wins: a, p_b_wins: b, p_mutual: mutual, p_timeout: timeout }
    }

    /// One duel: the winner and the turn it ended (the cap for a timeout), and whether
    /// both fell in that turn.
    pub fn play_one<R: Rng + ?Sized>(&self, rng: &mut R) -> (Winner, u32, bool) {
        if let (Some(fa), Some(fb)) = (&self.a.full, &self.b.full) {
            return self.play_full(fa, fb, rng);
        }
        let (mut sa, mut sb) = (self.b.fresh(), self.a.fresh()); // A's state is under B's fire
        for t in 1..=self.max_turns {
            let mut b_down = false;
            for &g in self.a.turn(t - 1) {
                if self.a.step(g as usize, &mut sb, rng) {
                    b_down = true;
                    break;
                }
            }
            let mut a_down = false;
            for &g in self.b.turn(t - 1) {
                if self.b.step(g as usize, &mut sa, rng) {
                    a_down = true;
                    break;
                }
            }
            match (a_down, b_down) {
                (true, true) => return (Winner::Draw, t, true),
                (false, true) => return (Winner::A, t, false),
                (true, false) => return (Winner::B, t, false),
                (false, false) => {}
            }
        }
        (Winner::Draw, self.max_turns, false)
    }

    /// One duel of the full chart model: each side fires with what worked at the start
    /// of the turn (losses, immobility and destruction take effect in Aftermath).
    fn play_full<R: Rng + ?Sized>(&self, fa: &FullChart, fb: &FullChart, rng: &mut R) -> (Winner, u32, bool) {
        let (a, b) = (&self.a, &self.b);
        let (mut sa, mut sb) = (CardState::fresh(b.defence.armour), CardState::fresh(a.defence.armour));
        for t in 1..=self.max_turns {
            let (lost_a, lost_b, a_still, b_still) = (sa.destroyed, sb.destroyed, sa.immobile, sb.immobile);
            let mut b_down = false;
            for g in 0..a.gunners() {
                if full_chart::step(&a.shooter(fa, b_still, g, lost_a), &a.defence, &fa.target, &mut sb, rng) {
                    b_down = true;
                    break;
                }
            }
            let mut a_down = false;
            for g in 0..b.gunners() {
                if full_chart::step(&b.shooter(fb, a_still, g, lost_b), &b.defence, &fb.target, &mut sa, rng) {
                    a_down = true;
                    break;
                }
            }
            match (a_down, b_down) {
                (true, true) => return (Winner::Draw, t, true),
                (false, true) => return (Winner::A, t, false),
                (true, false) => return (Winner::B, t, false),
                (false, false) => {}
            }
        }
        (Winner::Draw, self.max_turns, false)
    }
}

impl Kernel for DuelKernel {
    type Tally = DuelTally;
    fn new_tally(&self) -> DuelTally {
        DuelTally::new(self.max_turns as usize)
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut DuelTally) {
        for _ in 0..trials {
            match self.play_one(rng) {
                (Winner::A, t, _) => tally.a_wins_by_turn[t as usize - 1] += 1,
                (Winner::B, t, _) => tally.b_wins_by_turn[t as usize - 1] += 1,
                (Winner::Draw, t, true) => tally.mutual_by_turn[t as usize - 1] += 1,
                (Winner::Draw, _, false) => tally.timeouts += 1,
            }
        }
        tally.trials += u64::from(trials);
    }
}

impl Replayable for DuelKernel {
    fn a_wins(&self, rng: &mut Xoshiro256PlusPlus) -> bool {
        self.play_one(rng).0 == Winner::A
    }
}
