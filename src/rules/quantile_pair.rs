//! Paired attack runs by quantile coupling, for any ruleset with an exact time-to-kill
//! law: each trial draws one uniform u and both sides' turns of the kill are their exact
//! laws' quantiles at u. The marginals are exact (each side's turn has its exact law)
//! and the pairing is the strongest possible (comonotone), so the interval of the
//! difference is as narrow as common random numbers can make it. Names no ruleset.

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::stats::{ExactTtk, Metric, PairedTally, Scale};

use crate::engine::Kernel;

/// Two attack runs' exact laws, coupled by one uniform per trial.
#[derive(Debug, Clone, PartialEq)]
pub struct QuantilePair {
    /// Per side, `u < thresholds[t]` ⇔ the kill comes by turn t+1, u uniform on [0, 2^64).
    thresholds: [Vec<u128>; 2],
    metric: Metric,
    max_turns: u32,
}

fn thresholds(e: &ExactTtk) -> Vec<u128> {
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    e.p_kill_by_turn.iter().map(|&f| (f.clamp(0.0, 1.0) * TWO_64).ceil() as u128).collect()
}

impl QuantilePair {
    /// Couple the exact laws `a` and `b` (same turn cap) for `metric`.
    ///
    /// # Errors
    /// `Metric::Win` (a duel metric), or laws with different turn caps.
    pub fn new(a: &ExactTtk, b: &ExactTtk, metric: Metric) -> Result<QuantilePair, String> {
        if metric == Metric::Win {
            return Err("attack runs compare by turns or kill-by-turn:K, not win".into());
        }
        if a.p_kill_by_turn.len() != b.p_kill_by_turn.len() {
            return Err("the two attack runs have different turn caps".into());
        }
        Ok(QuantilePair {
            thresholds: [thresholds(a), thresholds(b)],
            metric,
            max_turns: a.p_kill_by_turn.len() as u32,
        })
    }

    /// The 1-based turn of the kill at uniform `u` for side `who`, or `None` if censored.
    #[inline]
    fn turn(&self, who: usize, u: u64) -> Option<u32> {
        self.thresholds[who].iter().position(|&t| (u as u128) < t).map(|t| t as u32 + 1)
    }

    fn value(&self, t: Option<u32>) -> i64 {
        match self.metric {
            Metric::KillByTurn(k) => t.is_some_and(|t| t <= k) as i64,
            Metric::Turns | Metric::Win => t.unwrap_or(self.max_turns + 1) as i64,
        }
    }
}

impl Kernel for QuantilePair {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::new(match self.metric {
            Metric::KillByTurn(_) => Scale::Proportion,
            Metric::Turns | Metric::Win => Scale::Range { low: 1, high: self.max_turns as i64 + 1 },
        })
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let u = rng.next_u64();
            tally.add(self.value(self.turn(0, u)), self.value(self.turn(1, u)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn law(p_by_turn: &[f64]) -> ExactTtk {
        let mut kill = vec![p_by_turn[0]];
        kill.extend(p_by_turn.windows(2).map(|w| w[1] - w[0]));
        ExactTtk {
            kill_by_turn: kill,
            p_kill_by_turn: p_by_turn.to_vec(),
            kill_by_action: Vec::new(),
            p_kill: *p_by_turn.last().unwrap(),
            mean_turns: None,
            mean_actions: None,
        }
    }

    #[test]
    fn each_side_keeps_its_exact_law_and_the_better_side_never_loses_a_trial() {
        let (a, b) = (law(&[0.5, 0.75, 1.0]), law(&[0.25, 0.5, 0.75]));
        let k = QuantilePair::new(&a, &b, Metric::KillByTurn(1)).unwrap();
        let mut t = k.new_tally();
        k.play(&mut Xoshiro256PlusPlus::seed_from_u64(3), 100_000, &mut t);
        // comonotone: whenever B kills by turn 1, so does A
        assert!(t.sum_d2 == t.sum_d, "differences are 0 or 1 only: {t:?}");
        let s = t.summary();
        assert!(s.a_ci().low < 0.5 && 0.5 < s.a_ci().high, "{s:?}");
        assert!(s.b_ci().low < 0.25 && 0.25 < s.b_ci().high, "{s:?}");
        assert!(QuantilePair::new(&a, &b, Metric::Win).is_err());
    }
}
