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

/// The exact outcome of a duel: P(A wins), P(B wins), P(draw) (mutual kills and the
/// turn cap), summing to 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExactDuelOdds {
    pub p_a_wins: f64,
    pub p_b_wins: f64,
    pub p_draw: f64,
}
