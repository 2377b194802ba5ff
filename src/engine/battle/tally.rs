//! Mergeable integer counts of battle outcomes, and their summary with 95% intervals.

use super::outcome::{Ending, MAX_SIDES, Outcome};
use crate::stats::{InitiativeSplit, Interval, Z95, mean_interval, wilson95};

/// Counts over battles. Every field is an integer sum, so merging is exact, associative
/// and commutative: any split into streams, batches and threads gives the same tally.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleTally {
    pub trials: u64,
    /// Side owning each unit slot.
    pub unit_side: Vec<u8>,
    /// Wins per side.
    pub wins: Vec<u64>,
    /// Per side: battles in which it acted first in turn 1 ([`Outcome::first`]), and its
    /// wins among them.
    pub first: Vec<u64>,
    pub wins_first: Vec<u64>,
    pub draws: u64,
    /// Battles with no result at the cap.
    pub undecided: u64,
    /// `ended_in_turn[k]`: battles that ended before the cap in turn k+1.
    pub ended_in_turn: Vec<u64>,
    /// Sum and sum of squares of turns played (the cap for battles called at it).
    pub turns_sum: u128,
    pub turns_sq: u128,
    /// Per side: steps given (sum), score (sum, sum of squares), points lost and points
    /// destroyed in thousandths (sum, sum of squares).
    pub actions: Vec<u64>,
    /// Per side: units that left alive (escaped crew), summed.
    pub escaped: Vec<u64>,
    pub score: Vec<(u128, u128)>,
    pub points_lost: Vec<(u128, u128)>,
    pub points_destroyed: Vec<(u128, u128)>,
    /// Per unit slot: times destroyed, kills credited.
    pub lost: Vec<u64>,
    pub kills: Vec<u64>,
}

impl BattleTally {
    /// An empty tally for `sides` sides, units owned as `unit_side` says, `max_turns` cap.
    pub fn new(sides: usize, unit_side: Vec<u8>, max_turns: usize) -> BattleTally {
        let units = unit_side.len();
        BattleTally {
            trials: 0,
            unit_side,
            wins: vec![0; sides],
            first: vec![0; sides],
            wins_first: vec![0; sides],
            draws: 0,
            undecided: 0,
            ended_in_turn: vec![0; max_turns],
            turns_sum: 0,
            turns_sq: 0,
            actions: vec![0; sides],
            escaped: vec![0; sides],
            score: vec![(0, 0); sides],
            points_lost: vec![(0, 0); sides],
            points_destroyed: vec![(0, 0); sides],
            lost: vec![0; units],
            kills: vec![0; units],
        }
    }

    pub fn sides(&self) -> usize {
        self.wins.len()
    }

    /// Count one battle.
    #[inline]
    pub fn add(&mut self, o: &Outcome) {
        self.trials += 1;
        let first = o.first as usize;
        if first < self.first.len() {
            self.first[first] += 1;
        }
        match o.ending {
            Ending::Winner(s) => {
                self.wins[s as usize] += 1;
                if s as usize == first {
                    self.wins_first[first] += 1;
                }
            }
            Ending::Draw => self.draws += 1,
            Ending::Undecided => self.undecided += 1,
        }
        let t = o.turns as u128;
        if o.decided && o.turns >= 1 {
            self.ended_in_turn[o.turns as usize - 1] += 1;
        }
        self.turns_sum += t;
        self.turns_sq += t * t;
        for s in 0..self.wins.len().min(MAX_SIDES) {
            self.actions[s] += o.actions[s] as u64;
            self.escaped[s] += o.escaped[s] as u64;
            add_moment(&mut self.score[s], o.score[s] as u128);
            add_moment(&mut self.points_lost[s], o.points_lost_milli[s] as u128);
            add_moment(&mut self.points_destroyed[s], o.points_destroyed_milli[s] as u128);
        }
        for u in 0..self.lost.len() {
            self.lost[u] += o.lost[u] as u64;
            self.kills[u] += o.kills[u] as u64;
        }
    }

    /// Add another tally of the same battle.
    pub fn merge(&mut self, o: &BattleTally) {
        self.trials += o.trials;
        self.draws += o.draws;
        self.undecided += o.undecided;
        self.turns_sum += o.turns_sum;
        self.turns_sq += o.turns_sq;
        add_all(&mut self.wins, &o.wins);
        add_all(&mut self.first, &o.first);
        add_all(&mut self.wins_first, &o.wins_first);
        add_all(&mut self.ended_in_turn, &o.ended_in_turn);
        add_all(&mut self.actions, &o.actions);
        add_all(&mut self.escaped, &o.escaped);
        add_all(&mut self.lost, &o.lost);
        add_all(&mut self.kills, &o.kills);
        for (a, b) in [
            (&mut self.score, &o.score),
            (&mut self.points_lost, &o.points_lost),
            (&mut self.points_destroyed, &o.points_destroyed),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                x.0 += y.0;
                x.1 += y.1;
            }
        }
    }

    /// Largest 95% half-width among P(win) of each side and P(draw).
    pub fn max_half_width(&self) -> f64 {
        self.wins.iter().chain([&self.draws]).map(|&k| wilson95(k, self.trials).half_width()).fold(0.0, f64::max)
    }

    /// Battles ended (before the cap) by turn k+1, cumulative, for k in 0..cap.
    pub fn decided_by_turn(&self) -> Vec<u64> {
        self.ended_in_turn
            .iter()
            .scan(0u64, |acc, &c| {
                *acc += c;
                Some(*acc)
            })
            .collect()
    }

    /// P(side `side` wins | it acted first in turn 1) against P(it wins | another side
    /// did). Battles with no first side (simultaneous fire) count in neither order, so a
    /// game of simultaneous fire has no split; a game either always or never has a first
    /// side, so the wins with another side first are the wins not with this side first.
    pub fn initiative(&self, side: usize) -> InitiativeSplit {
        let (own, other) = self.initiative_counts(side);
        InitiativeSplit::new(own, other)
    }

    /// The counts behind [`BattleTally::initiative`]: side `side`'s (wins, battles) when
    /// it acted first, and when another side did.
    pub fn initiative_counts(&self, side: usize) -> ((u64, u64), (u64, u64)) {
        let (first, wins_first) = (self.first[side], self.wins_first[side]);
        let others: u64 = self.first.iter().sum::<u64>() - first;
        let other_wins = if others == 0 { 0 } else { self.wins[side] - wins_first };
        ((wins_first, first), (other_wins, others))
    }

    pub fn summary(&self) -> BattleSummary {
        let n = self.trials;
        let p = |k: u64| k as f64 / n.max(1) as f64;
        let mean = |m: (u128, u128), scale: f64| {
            mean_interval(n, m.0, m.1, Z95)
                .map(|(v, ci)| (v / scale, Interval { low: ci.low / scale, high: ci.high / scale }))
        };
        let sides = (0..self.sides())
            .map(|s| SideSummary {
                initiative: self.initiative(s),
                p_wins: p(self.wins[s]),
                p_wins_ci: wilson95(self.wins[s], n),
                mean_actions: self.actions[s] as f64 / n.max(1) as f64,
                mean_escaped: self.escaped[s] as f64 / n.max(1) as f64,
                mean_score: mean(self.score[s], 1.0),
                mean_points_lost: mean(self.points_lost[s], 1000.0),
                mean_points_destroyed: mean(self.points_destroyed[s], 1000.0),
            })
            .collect();
        BattleSummary {
            trials: n,
            sides,
            p_draw: p(self.draws),
            p_draw_ci: wilson95(self.draws, n),
            p_undecided: p(self.undecided),
            p_undecided_ci: wilson95(self.undecided, n),
            p_decided_by_turn: self.decided_by_turn().into_iter().map(|k| (p(k), wilson95(k, n))).collect(),
            mean_turns: mean((self.turns_sum, self.turns_sq), 1.0),
        }
    }
}

fn add_moment(m: &mut (u128, u128), x: u128) {
    m.0 += x;
    m.1 += x * x;
}

fn add_all(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// A mean and its 95% interval (normal approximation from exact integer moments);
/// `None` with no trials; the interval is NaN with one trial.
type MeanCi = Option<(f64, Interval)>;

/// One side's results.
#[derive(Debug, Clone, PartialEq)]
pub struct SideSummary {
    /// P(this side wins | it acted first in turn 1) and P(it wins | another side did).
    pub initiative: InitiativeSplit,
    pub p_wins: f64,
    pub p_wins_ci: Interval,
    pub mean_actions: f64,
    /// Units that left alive (escaped crew) per battle.
    pub mean_escaped: f64,
    pub mean_score: MeanCi,
    /// Points of this side's units destroyed per battle.
    pub mean_points_lost: MeanCi,
    /// Points of enemy units this side destroyed per battle (kill credit).
    pub mean_points_destroyed: MeanCi,
}

/// A battle cell's results.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSummary {
    pub trials: u64,
    pub sides: Vec<SideSummary>,
    pub p_draw: f64,
    pub p_draw_ci: Interval,
    pub p_undecided: f64,
    pub p_undecided_ci: Interval,
    /// P(the battle ended before the cap by turn k+1), k = 0..cap.
    pub p_decided_by_turn: Vec<(f64, Interval)>,
    pub mean_turns: MeanCi,
}

impl crate::engine::kernel::Tally for BattleTally {
    fn merge(&mut self, other: &Self) {
        BattleTally::merge(self, other)
    }
    fn trials(&self) -> u64 {
        self.trials
    }
    fn max_half_width(&self) -> f64 {
        BattleTally::max_half_width(self)
    }
}
