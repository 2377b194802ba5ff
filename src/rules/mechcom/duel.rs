//! Exact duels whose sides cannot change each other's state (§7 "Exact: duels without
//! interaction"). Every duel, interacting or not, plays by Monte Carlo in
//! [`super::duel_kernel::DuelKernel`], and its `exact()` is the joint chain of
//! [`super::duel_chain`] for every duel (it equals [`exact_duel`] to rounding where the
//! sides are independent, and is faster: it reuses the kernel's compiled laws). The
//! formula here stays as an independent check.
//!
//! Two models attack each other; each round a fair roll-off (`ROLL_OFF`) picks who
//! activates first, damage lands at once and a destroyed model never acts again. When
//! neither side's attacks change the other's Stability, Armour, Energy or conditions
//! (and neither starts with a condition that ticks), each side's time to kill is its
//! own attack run against an inert target, the two are independent, and
//! P(A wins) = Σ_r P(T_A = r) · (P(T_B > r) + P(T_B = r) / 2).

use super::attack_run::AttackRun;
use super::conditions::Condition;
use super::exact_run::ExactRun;
use super::mech::Model;
use super::options::Options;
use super::run_policy::RunPolicy;
use super::situation::Situation;

/// Chance each side goes first in a round (`ROLL_OFF` with two players).
pub const FIRST_MOVER: f64 = 0.5;

/// The exact outcome of a duel: P(A wins) + P(B wins) + P(mutual kill) +
/// P(undecided) = 1 (up to rounding).
#[derive(Debug, Clone, PartialEq)]
pub struct ExactDuel {
    pub p_a_wins: f64,
    pub p_b_wins: f64,
    /// Both destroyed (a death explosion took the other with it): a draw.
    pub p_mutual: f64,
    /// Both alive after the round cap: a draw.
    pub p_undecided: f64,
    /// P(A wins in round r+1), P(B wins in round r+1), P(mutual kill in round r+1), for
    /// r below the round cap.
    pub a_wins_by_round: Vec<f64>,
    pub b_wins_by_round: Vec<f64>,
    pub mutual_by_round: Vec<f64>,
}

impl ExactDuel {
    /// P(draw): a mutual kill or both alive at the round cap.
    pub fn p_draw(&self) -> f64 {
        self.p_mutual + self.p_undecided
    }
}

/// Combines two independent times to kill (same round cap) with a fair roll-off.
pub fn combine_runs(a: &ExactRun, b: &ExactRun) -> ExactDuel {
    let rounds = a.kill_by_round.len().min(b.kill_by_round.len());
    let survives = |r: &ExactRun, k: usize| 1.0 - r.p_kill_by_round[k];
    let mut a_wins_by_round = vec![0.0; rounds];
    let mut b_wins_by_round = vec![0.0; rounds];
    for k in 0..rounds {
        let (ka, kb) = (a.kill_by_round[k], b.kill_by_round[k]);
        a_wins_by_round[k] = ka * (survives(b, k) + FIRST_MOVER * kb);
        b_wins_by_round[k] = kb * (survives(a, k) + (1.0 - FIRST_MOVER) * ka);
    }
    let p_a_wins: f64 = a_wins_by_round.iter().sum();
    let p_b_wins: f64 = b_wins_by_round.iter().sum();
    ExactDuel {
        p_undecided: (1.0 - p_a_wins - p_b_wins).max(0.0),
        p_a_wins,
        p_b_wins,
        p_mutual: 0.0,
        a_wins_by_round,
        b_wins_by_round,
        mutual_by_round: vec![0.0; rounds],
    }
}

/// The exact duel of `a` and `b` at `sit` for at most `max_rounds` rounds.
///
/// # Errors
/// A message when the sides interact (a weapon in either plan applies a condition or
/// has Backfire; a model starts Burned, Malfunctioning or Stunned), or as
/// [`AttackRun::new`].
pub fn exact_duel(a: &Model, b: &Model, sit: &Situation, o: &Options, max_rounds: u32) -> Result<ExactDuel, String> {
    for m in [a, b] {
        if super::duel_side::plays_heat(m, o) {
            return Err(format!("{} plays Heat: the duel's sides interact, play it by Monte Carlo", m.mech.name));
        }
        for c in [Condition::Burned, Condition::Malfunctioning, Condition::Stunned] {
            if m.conditions.has(c) {
                return Err(format!("{} starts {c}: the duel's sides interact, play it by Monte Carlo", m.mech.name));
            }
        }
    }
    let ab = AttackRun::new(a, b, sit, o, RunPolicy::default(), max_rounds)?;
    let ba = AttackRun::new(b, a, sit, o, RunPolicy::default(), max_rounds)?;
    for (run, who) in [(&ab, a), (&ba, b)] {
        if run.changes_state {
            return Err(format!(
                "{}'s attacks change a model's state: the duel's sides interact, play it by Monte Carlo",
                who.mech.name
            ));
        }
    }
    Ok(combine_runs(&ab.exact(), &ba.exact()))
}
