//! Time to kill: an integer tally of attack runs and its summary.

use super::interval::{Interval, Z95, mean_interval, wilson95};

/// Counts from attack runs. Integers only, so merging is exact, associative and
/// commutative: any split into batches, any thread count and any merge order give the
/// same tally.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TtkTally {
    pub trials: u64,
    /// `kills_by_turn[t]` = runs whose target died on turn t+1.
    pub kills_by_turn: Vec<u64>,
    /// `kills_by_action[a]` = runs whose target died on the (a+1)-th attack action.
    pub kills_by_action: Vec<u64>,
}

impl TtkTally {
    /// An empty tally for runs of at most `max_turns` turns and `max_actions` attacks.
    pub fn new(max_turns: usize, max_actions: usize) -> TtkTally {
        TtkTally { trials: 0, kills_by_turn: vec![0; max_turns], kills_by_action: vec![0; max_actions.max(1)] }
    }

    pub fn merge(&mut self, other: &TtkTally) {
        self.trials += other.trials;
        add_into(&mut self.kills_by_turn, &other.kills_by_turn);
        add_into(&mut self.kills_by_action, &other.kills_by_action);
    }

    pub fn kills(&self) -> u64 {
        self.kills_by_turn.iter().sum()
    }

    /// Runs that reached the turn cap alive.
    pub fn censored(&self) -> u64 {
        self.trials - self.kills()
    }

    /// Largest 95% half-width among P(kill by turn k), every k.
    pub fn max_half_width(&self) -> f64 {
        let mut cum = 0;
        let mut worst: f64 = 0.0;
        for &k in &self.kills_by_turn {
            cum += k;
            worst = worst.max(wilson95(cum, self.trials).half_width());
        }
        worst
    }

    pub fn summary(&self) -> TtkSummary {
        let mut cum = 0;
        let by_turn: Vec<(f64, Interval)> = self
            .kills_by_turn
            .iter()
            .map(|&k| {
                cum += k;
                (cum as f64 / self.trials.max(1) as f64, wilson95(cum, self.trials))
            })
            .collect();
        let kills = self.kills();
        let (mean_turns, mean_turns_ci) = moments(&self.kills_by_turn);
        let (mean_actions, mean_actions_ci) = moments(&self.kills_by_action);
        TtkSummary {
            trials: self.trials,
            kills,
            p_kill: kills as f64 / self.trials.max(1) as f64,
            p_kill_ci: wilson95(kills, self.trials),
            p_kill_by_turn: by_turn.iter().map(|x| x.0).collect(),
            p_kill_by_turn_ci: by_turn.iter().map(|x| x.1).collect(),
            mean_turns,
            mean_turns_ci,
            mean_actions,
            mean_actions_ci,
        }
    }
}

/// Mean and 95% interval of 1-based values from a histogram (index i = value i+1).
fn moments(hist: &[u64]) -> (Option<f64>, Option<Interval>) {
    let n: u64 = hist.iter().sum();
    let (s, s2) = hist.iter().enumerate().fold((0u128, 0u128), |(s, s2), (i, &c)| {
        let v = (i + 1) as u128;
        (s + v * c as u128, s2 + v * v * c as u128)
    });
    match mean_interval(n, s, s2, Z95) {
        Some((mean, ci)) => (Some(mean), (n >= 2).then_some(ci)),
        None => (None, None),
    }
}

fn add_into(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// Time-to-kill statistics of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct TtkSummary {
    pub trials: u64,
    pub kills: u64,
    /// P(killed within the turn cap).
    pub p_kill: f64,
    pub p_kill_ci: Interval,
    /// P(killed by turn k), index 0 = turn 1, length = the turn cap.
    pub p_kill_by_turn: Vec<f64>,
    pub p_kill_by_turn_ci: Vec<Interval>,
    /// Mean turn of the kill over killed runs (`None` without kills).
    pub mean_turns: Option<f64>,
    pub mean_turns_ci: Option<Interval>,
    /// Mean attack actions to kill over killed runs.
    pub mean_actions: Option<f64>,
    pub mean_actions_ci: Option<Interval>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_is_order_free() {
        let mut a = TtkTally::new(3, 6);
        a.trials = 10;
        a.kills_by_turn = vec![2, 3, 1];
        a.kills_by_action = vec![1, 1, 2, 1, 1, 0];
        let mut b = TtkTally::new(3, 6);
        b.trials = 5;
        b.kills_by_turn = vec![1, 0, 0];
        b.kills_by_action = vec![1, 0, 0, 0, 0, 0];
        let mut ab = a.clone();
        ab.merge(&b);
        let mut ba = b.clone();
        ba.merge(&a);
        assert_eq!(ab, ba);
        assert_eq!(ab.kills(), 7);
        assert_eq!(ab.censored(), 8);
    }

    #[test]
    fn summary_cumulates_by_turn() {
        let mut t = TtkTally::new(3, 3);
        t.trials = 4;
        t.kills_by_turn = vec![1, 2, 0];
        t.kills_by_action = vec![1, 1, 1];
        let s = t.summary();
        assert_eq!(s.p_kill_by_turn, vec![0.25, 0.75, 0.75]);
        assert_eq!(s.p_kill, 0.75);
        assert_eq!(s.mean_turns, Some(5.0 / 3.0));
        assert_eq!(s.mean_actions, Some(2.0));
    }
}

impl TtkTally {
    /// Kills per turn spent, with a 95% interval: K / Σ min(T, cap) over all runs (a
    /// renewal-reward rate: each run spends its turns and yields a kill or not). The
    /// interval is the delta-method interval of a ratio of means. `None` without trials.
    pub fn kill_rate(&self) -> Option<(f64, Interval)> {
        let n = self.trials;
        if n == 0 {
            return None;
        }
        let cap = self.kills_by_turn.len() as f64;
        let kills = self.kills() as f64;
        let censored = self.censored() as f64;
        let (mut sum_t, mut sum_t2, mut sum_kt) = (cap * censored, cap * cap * censored, 0.0);
        for (i, &c) in self.kills_by_turn.iter().enumerate() {
            let t = (i + 1) as f64;
            sum_t += t * c as f64;
            sum_t2 += t * t * c as f64;
            sum_kt += t * c as f64;
        }
        if sum_t == 0.0 {
            return None;
        }
        let rate = kills / sum_t;
        let nf = n as f64;
        if n < 2 {
            return Some((rate, Interval { low: f64::NAN, high: f64::NAN }));
        }
        // Var of the residuals d_i = K_i − rate·t_i (K_i² = K_i).
        let ss = kills - 2.0 * rate * sum_kt + rate * rate * sum_t2;
        let var_d = (ss / (nf - 1.0)).max(0.0);
        let mean_t = sum_t / nf;
        let se = (var_d / nf).sqrt() / mean_t;
        Some((rate, Interval { low: (rate - Z95 * se).max(0.0), high: rate + Z95 * se }))
    }
}

#[cfg(test)]
mod rate_tests {
    use super::*;

    #[test]
    fn kill_rate_of_sure_kills_on_turn_two_is_one_half_with_no_spread() {
        let mut t = TtkTally::new(5, 5);
        t.trials = 100;
        t.kills_by_turn[1] = 100;
        let (rate, ci) = t.kill_rate().unwrap();
        assert_eq!(rate, 0.5);
        assert!(ci.half_width() < 1e-12);
    }

    #[test]
    fn censored_runs_spend_the_whole_cap() {
        let mut t = TtkTally::new(4, 4);
        t.trials = 2;
        t.kills_by_turn[0] = 1; // one kill on turn 1, one run alive after 4 turns
        let (rate, _) = t.kill_rate().unwrap();
        assert_eq!(rate, 1.0 / 5.0);
    }
}
