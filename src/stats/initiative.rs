//! The initiative split: P(a side wins | it acted first) against P(it wins | the other
//! side acted first), from integer counts.
//!
//! "Acted first" is the side that took the first action of the engagement's first turn
//! (each ruleset's duel and battle documents how that side is chosen). Engagements in
//! which no side acts first (simultaneous fire) count in neither order, and the split is
//! then unknown (`None`), never a guess.

use super::interval::{Interval, wilson95};

/// A split is flagged "decided by initiative" when the two conditional win rates differ
/// by more than this (absolute difference of the point estimates).
pub const DECIDED_BY_INITIATIVE: f64 = 0.25;

/// One conditional win rate: wins out of engagements, with its Wilson 95% interval
/// (exact ends at 0 and 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditional {
    pub p: f64,
    pub ci: Interval,
    /// Engagements in this order.
    pub trials: u64,
}

impl Conditional {
    /// `wins` of `trials`; `None` without trials.
    pub fn of(wins: u64, trials: u64) -> Option<Conditional> {
        (trials > 0).then(|| Conditional { p: wins as f64 / trials as f64, ci: wilson95(wins, trials), trials })
    }
}

/// A side's win rate by who acted first.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InitiativeSplit {
    /// P(the side wins | it acted first); `None` when it never did.
    pub own_first: Option<Conditional>,
    /// P(the side wins | another side acted first); `None` when none did.
    pub other_first: Option<Conditional>,
}

impl InitiativeSplit {
    /// From counts: `own` = (wins, engagements) with the side first, `other` = the same
    /// with another side first.
    pub fn new(own: (u64, u64), other: (u64, u64)) -> InitiativeSplit {
        InitiativeSplit { own_first: Conditional::of(own.0, own.1), other_first: Conditional::of(other.0, other.1) }
    }

    /// Whether both orders were played and their win rates differ by more than
    /// [`DECIDED_BY_INITIATIVE`].
    pub fn decided_by_initiative(&self) -> bool {
        match (self.own_first, self.other_first) {
            (Some(x), Some(y)) => (x.p - y.p).abs() > DECIDED_BY_INITIATIVE,
            _ => false,
        }
    }

    /// The split's point estimates, each `None` where that order was not played.
    pub fn points(&self) -> (Option<f64>, Option<f64>) {
        (self.own_first.map(|c| c.p), self.other_first.map(|c| c.p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_mixes_back_to_the_overall_rate() {
        // 60 of 100 with A first, 10 of 80 with B first: 70 of 180 overall.
        let s = InitiativeSplit::new((60, 100), (10, 80));
        let (x, y) = (s.own_first.unwrap(), s.other_first.unwrap());
        let overall = 70.0 / 180.0;
        assert!((x.p * 100.0 / 180.0 + y.p * 80.0 / 180.0 - overall).abs() < 1e-12);
        assert!(x.ci.contains(0.6) && y.ci.contains(0.125));
        assert!(s.decided_by_initiative());
        assert!(!InitiativeSplit::new((50, 100), (30, 100)).decided_by_initiative());
    }

    #[test]
    fn intervals_are_valid_at_zero_and_one_and_unknown_without_trials() {
        let s = InitiativeSplit::new((100, 100), (0, 50));
        assert_eq!(s.own_first.unwrap().ci.high, 1.0);
        assert_eq!(s.other_first.unwrap().ci.low, 0.0);
        assert!(s.decided_by_initiative());
        let one = InitiativeSplit::new((5, 10), (0, 0));
        assert_eq!(one.other_first, None);
        assert!(!one.decided_by_initiative(), "one order only: nothing to compare");
    }
}
