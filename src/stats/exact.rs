//! Exact laws that kernels report next to their Monte Carlo tallies.

use super::metric::Metric;

/// The exact time-to-kill law of an attack run, in the ruleset's turns (or rounds) and
/// attacks.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactTtk {
    /// P(killed on turn t+1).
    pub kill_by_turn: Vec<f64>,
    /// P(killed by turn t+1), cumulative; length = the turn cap.
    pub p_kill_by_turn: Vec<f64>,
    /// P(killed on the (a+1)-th attack).
    pub kill_by_action: Vec<f64>,
    /// P(killed within the cap).
    pub p_kill: f64,
    /// E[turn of the kill | killed].
    pub mean_turns: Option<f64>,
    /// E[attacks to kill | killed].
    pub mean_actions: Option<f64>,
}

impl ExactTtk {
    /// The law of a run from its kill pmfs: `kill_by_turn[t]` = P(killed on turn t+1)
    /// (one entry per turn up to the cap) and `kill_by_action[a]` = P(killed by the
    /// (a+1)-th attack). The cumulative `p_kill_by_turn` and `p_kill` are their running
    /// sums, held at most 1 (rounding in a sum of probabilities must not carry it past
    /// 1); the means are conditional on a kill and `None` when no kill can happen. The
    /// mean attacks is over the kills an attack made (the mass of `kill_by_action`, which
    /// leaves out a kill before any attack, e.g. a burning target's end of turn), as the
    /// Monte Carlo's `kills_by_action` counts them. Every ruleset's exact chain ends here.
    pub fn from_kill_pmfs(kill_by_turn: Vec<f64>, kill_by_action: Vec<f64>) -> ExactTtk {
        let mut cum = 0.0;
        let p_kill_by_turn: Vec<f64> = kill_by_turn
            .iter()
            .map(|p| {
                cum += p;
                cum.min(1.0)
            })
            .collect();
        let p_kill = cum.min(1.0);
        let mean = |pmf: &[f64], mass: f64| {
            (mass > 0.0).then(|| pmf.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum::<f64>() / mass)
        };
        let attributed: f64 = kill_by_action.iter().sum();
        ExactTtk {
            mean_turns: mean(&kill_by_turn, p_kill),
            mean_actions: mean(&kill_by_action, attributed),
            kill_by_turn,
            p_kill_by_turn,
            kill_by_action,
            p_kill,
        }
    }

    /// The law of a run that has no exact solver (e.g. a Monte Carlo-only model): every
    /// probability NaN, `turns` long, `actions` attack slots. Tables show it as missing
    /// values; `ttk --exact` refuses it (see [`ExactTtk::is_available`]).
    pub fn unavailable(turns: usize, actions: usize) -> ExactTtk {
        ExactTtk {
            kill_by_turn: vec![f64::NAN; turns],
            p_kill_by_turn: vec![f64::NAN; turns],
            kill_by_action: vec![f64::NAN; actions],
            p_kill: f64::NAN,
            mean_turns: None,
            mean_actions: None,
        }
    }

    /// Whether this is an exact law (not [`ExactTtk::unavailable`]).
    pub fn is_available(&self) -> bool {
        !self.p_kill.is_nan()
    }

    /// Kills per turn spent: P(kill) / E[min(T, cap)] (see `TtkTally::kill_rate`).
    pub fn kill_rate(&self) -> f64 {
        let cap = self.kill_by_turn.len() as f64;
        let spent: f64 = self.kill_by_turn.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum::<f64>()
            + cap * (1.0 - self.p_kill);
        if spent > 0.0 { self.p_kill / spent } else { 0.0 }
    }

    /// The value of an attack-run `metric`: P(killed by turn k) (turn k past the cap:
    /// P(killed within the cap)), or the mean turns to kill with a censored run counting
    /// as the cap + 1 (`Win` is a duel metric and is read as `Turns`).
    pub fn metric_value(&self, metric: Metric) -> f64 {
        let cap = self.p_kill_by_turn.len();
        match metric {
            Metric::KillByTurn(k) => {
                self.p_kill_by_turn.get((k as usize).min(cap).saturating_sub(1)).copied().unwrap_or(0.0)
            }
            Metric::Turns | Metric::Win => {
                self.kill_by_turn.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum::<f64>()
                    + (cap + 1) as f64 * (1.0 - self.p_kill)
            }
        }
    }
}

/// The exact outcome of a duel split four ways, summing to 1: A wins, B wins, both
/// destroyed in the same turn (mutual kill), or neither destroyed by the turn cap
/// (timeout). A draw is a mutual kill or a timeout ([`ExactDuelOdds::p_draw`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactDuelOdds {
    pub p_a_wins: f64,
    pub p_b_wins: f64,
    /// Both sides destroyed in the same turn (0 in a game where sides act in turn).
    pub p_mutual: f64,
    /// Neither side destroyed by the turn cap.
    pub p_timeout: f64,
}

impl ExactDuelOdds {
    /// P(draw): a mutual kill or a timeout.
    pub fn p_draw(&self) -> f64 {
        self.p_mutual + self.p_timeout
    }

    /// `[P(A wins), P(B wins), P(mutual kill), P(timeout)]`.
    pub fn outcomes(&self) -> [f64; 4] {
        [self.p_a_wins, self.p_b_wins, self.p_mutual, self.p_timeout]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_law_from_kill_pmfs_sums_caps_and_conditions_its_means() {
        let law = ExactTtk::from_kill_pmfs(vec![0.25, 0.5, 0.0], vec![0.125, 0.125, 0.5]);
        assert_eq!(law.p_kill_by_turn, vec![0.25, 0.75, 0.75]);
        assert_eq!(law.p_kill, 0.75);
        assert_eq!(law.mean_turns, Some((0.25 + 2.0 * 0.5) / 0.75));
        assert_eq!(law.mean_actions, Some((0.125 + 2.0 * 0.125 + 3.0 * 0.5) / 0.75));
        // rounding past 1 is held at 1
        let over = ExactTtk::from_kill_pmfs(vec![0.7, 0.30000000000000016], vec![1.0]);
        assert_eq!(over.p_kill, 1.0);
        assert!(over.p_kill_by_turn.iter().all(|&p| p <= 1.0));
        let never = ExactTtk::from_kill_pmfs(vec![0.0; 4], vec![0.0; 2]);
        assert_eq!((never.p_kill, never.mean_turns, never.mean_actions), (0.0, None, None));
    }

    #[test]
    fn the_mean_attacks_is_over_the_kills_an_attack_made() {
        // A quarter of the kills come before any attack (a burning target's end of turn):
        // they count by turn, and the mean attacks is over the other half, as the Monte
        // Carlo's kills_by_action counts it.
        let law = ExactTtk::from_kill_pmfs(vec![0.25, 0.5], vec![0.25, 0.25]);
        assert_eq!(law.p_kill, 0.75);
        assert_eq!(law.mean_turns, Some((0.25 + 2.0 * 0.5) / 0.75));
        assert_eq!(law.mean_actions, Some((0.25 + 2.0 * 0.25) / 0.5));
        // Kills only before any attack: no mean attacks.
        assert_eq!(ExactTtk::from_kill_pmfs(vec![0.5], vec![0.0]).mean_actions, None);
    }

    #[test]
    fn a_duel_draw_is_a_mutual_kill_or_a_timeout() {
        let e = ExactDuelOdds { p_a_wins: 0.5, p_b_wins: 0.25, p_mutual: 0.125, p_timeout: 0.125 };
        assert_eq!(e.p_draw(), 0.25);
        assert_eq!(e.outcomes(), [0.5, 0.25, 0.125, 0.125]);
    }
}
