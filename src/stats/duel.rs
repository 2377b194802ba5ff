//! Duels: an integer tally of two-sided engagements and its summary.

use super::initiative::InitiativeSplit;
use super::interval::{Interval, Z95, mean_interval, wilson95};

/// Counts from duels; integers only, so merges are exact and order-free.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DuelTally {
    pub trials: u64,
    /// `a_wins_by_turn[t]`: A alone survived turn t+1's resolution.
    pub a_wins_by_turn: Vec<u64>,
    pub b_wins_by_turn: Vec<u64>,
    /// Both eliminated in the same turn.
    pub mutual_by_turn: Vec<u64>,
    /// Both alive at the turn cap.
    pub timeouts: u64,
    /// Duels in which A, B acted first in the first turn (the ruleset's duel documents
    /// how that is decided); a duel in which neither acts first (simultaneous fire)
    /// counts in neither, so `a_first + b_first <= trials`.
    pub a_first: u64,
    pub b_first: u64,
    /// A's wins among the duels A, B acted first in: they add up to A's wins when every
    /// duel has a first side.
    pub a_wins_a_first: u64,
    pub a_wins_b_first: u64,
}

impl DuelTally {
    pub fn new(max_turns: usize) -> DuelTally {
        DuelTally {
            trials: 0,
            a_wins_by_turn: vec![0; max_turns],
            b_wins_by_turn: vec![0; max_turns],
            mutual_by_turn: vec![0; max_turns],
            timeouts: 0,
            a_first: 0,
            b_first: 0,
            a_wins_a_first: 0,
            a_wins_b_first: 0,
        }
    }

    /// Count who acted first in one duel (`a_first`: A did) and whether A won it. Draws
    /// and B's wins only add to the order's count.
    #[inline(always)]
    pub fn count_first(&mut self, a_first: bool, a_won: bool) {
        if a_first {
            self.a_first += 1;
            self.a_wins_a_first += a_won as u64;
        } else {
            self.b_first += 1;
            self.a_wins_b_first += a_won as u64;
        }
    }

    /// P(A wins | A acted first) against P(A wins | B acted first).
    pub fn initiative(&self) -> InitiativeSplit {
        InitiativeSplit::new((self.a_wins_a_first, self.a_first), (self.a_wins_b_first, self.b_first))
    }

    pub fn merge(&mut self, o: &DuelTally) {
        self.trials += o.trials;
        self.timeouts += o.timeouts;
        self.a_first += o.a_first;
        self.b_first += o.b_first;
        self.a_wins_a_first += o.a_wins_a_first;
        self.a_wins_b_first += o.a_wins_b_first;
        for (a, b) in [
            (&mut self.a_wins_by_turn, &o.a_wins_by_turn),
            (&mut self.b_wins_by_turn, &o.b_wins_by_turn),
            (&mut self.mutual_by_turn, &o.mutual_by_turn),
        ] {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
    }

    pub fn a_wins(&self) -> u64 {
        self.a_wins_by_turn.iter().sum()
    }
    pub fn b_wins(&self) -> u64 {
        self.b_wins_by_turn.iter().sum()
    }
    pub fn draws(&self) -> u64 {
        self.mutual_by_turn.iter().sum::<u64>() + self.timeouts
    }

    /// Largest 95% half-width among P(A wins), P(B wins), P(draw).
    pub fn max_half_width(&self) -> f64 {
        [self.a_wins(), self.b_wins(), self.draws()]
            .into_iter()
            .map(|k| wilson95(k, self.trials).half_width())
            .fold(0.0, f64::max)
    }

    pub fn summary(&self) -> DuelSummary {
        let n = self.trials;
        let p = |k: u64| k as f64 / n.max(1) as f64;
        let max_turns = self.a_wins_by_turn.len() as u128;
        // Turn each duel ended: the turn of the result, or the cap for timeouts.
        let (mut s, mut s2) = (0u128, 0u128);
        for hist in [&self.a_wins_by_turn, &self.b_wins_by_turn, &self.mutual_by_turn] {
            for (i, &c) in hist.iter().enumerate() {
                let v = (i + 1) as u128;
                s += v * c as u128;
                s2 += v * v * c as u128;
            }
        }
        s += max_turns * self.timeouts as u128;
        s2 += max_turns * max_turns * self.timeouts as u128;
        let mean = mean_interval(n, s, s2, Z95);
        DuelSummary {
            trials: n,
            p_a_wins: p(self.a_wins()),
            p_a_wins_ci: wilson95(self.a_wins(), n),
            p_b_wins: p(self.b_wins()),
            p_b_wins_ci: wilson95(self.b_wins(), n),
            p_draw: p(self.draws()),
            p_draw_ci: wilson95(self.draws(), n),
            p_mutual_kill: p(self.mutual_by_turn.iter().sum()),
            p_timeout: p(self.timeouts),
            mean_turns: mean.map(|m| m.0),
            mean_turns_ci: mean.filter(|_| n >= 2).map(|m| m.1),
            initiative: self.initiative(),
        }
    }
}

/// Win, loss and draw rates of one duel cell.
#[derive(Debug, Clone, PartialEq)]
pub struct DuelSummary {
    pub trials: u64,
    pub p_a_wins: f64,
    pub p_a_wins_ci: Interval,
    pub p_b_wins: f64,
    pub p_b_wins_ci: Interval,
    /// Draws: both eliminated in one turn, or both alive at the cap.
    pub p_draw: f64,
    pub p_draw_ci: Interval,
    pub p_mutual_kill: f64,
    pub p_timeout: f64,
    /// Mean turn at which duels ended (timeouts count as the cap).
    pub mean_turns: Option<f64>,
    pub mean_turns_ci: Option<Interval>,
    /// P(A wins | A acted first) and P(A wins | B acted first), each with its Wilson
    /// 95% interval; unknown where that order never happened.
    pub initiative: InitiativeSplit,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_mover_counts_add_up_and_merge() {
        let mut t = DuelTally::new(3);
        // (A first, A won) for five duels; A wins 3, B wins 1, one draw.
        for (first, won) in [(true, true), (true, false), (false, true), (false, true), (true, false)] {
            t.trials += 1;
            t.count_first(first, won);
            if won {
                t.a_wins_by_turn[0] += 1;
            }
        }
        t.b_wins_by_turn[1] += 1;
        t.timeouts += 1;
        assert_eq!(t.a_first + t.b_first, t.trials);
        assert_eq!(t.a_wins_a_first + t.a_wins_b_first, t.a_wins());
        let mut m = t.clone();
        m.merge(&t);
        assert_eq!((m.a_first, m.b_first, m.a_wins_a_first, m.a_wins_b_first), (6, 4, 2, 4));
        let s = m.summary().initiative;
        assert_eq!(s.points(), (Some(2.0 / 6.0), Some(1.0)));
        assert!(s.decided_by_initiative());
        // The overall rate is the mix of the two, weighted by how often each order came.
        let mix = s.own_first.unwrap().p * 6.0 / 10.0 + s.other_first.unwrap().p * 4.0 / 10.0;
        assert!((mix - m.summary().p_a_wins).abs() < 1e-12);
    }
}
