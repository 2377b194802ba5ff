//! The replay-paired kernel: two duels against one opponent on common random numbers,
//! for `compare` and `gauntlet`. Each trial seeds one generator from the stream, and A's
//! duel and B's duel each play that trial from a copy of it, so both meet the same dice
//! as far as their duels run alike. A game supplies one duel as a [`Replayable`]; the
//! pairing, its tally and the metric it measures are the kit's.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::{Metric, PairedTally, Scale};

/// One duel a game can play from a generator, read by whether side A wins.
pub trait Replayable: Sync {
    /// Play one duel with `rng`; `true` when side A (the compared side) wins. Draws only
    /// from `rng`, so two copies of one generator replay the same dice.
    fn a_wins(&self, rng: &mut Xoshiro256PlusPlus) -> bool;
}

/// A's and B's duels against one opponent, played on common random numbers; the outcome
/// per trial is 1 when the compared side wins.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayPaired<D> {
    pub a: D,
    pub b: D,
}

impl<D: Replayable> ReplayPaired<D> {
    /// Pair duels `a` and `b` (each against the same opponent).
    ///
    /// # Errors
    /// A metric other than [`Metric::Win`]: replayed duels compare by win only.
    pub fn new(a: D, b: D, metric: Metric) -> Result<Self, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(ReplayPaired { a, b })
    }
}

impl<D: Replayable> Kernel for ReplayPaired<D> {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::new(Scale::Proportion)
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let mut ra = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
            let mut rb = ra.clone();
            let wa = self.a.a_wins(&mut ra);
            let wb = self.b.a_wins(&mut rb);
            tally.add(i64::from(wa), i64::from(wb));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wins when its first draw is below `p` of the range.
    #[derive(Debug, Clone, PartialEq)]
    struct Coin(u64);
    impl Replayable for Coin {
        fn a_wins(&self, rng: &mut Xoshiro256PlusPlus) -> bool {
            rng.next_u64() < self.0
        }
    }

    #[test]
    fn identical_duels_always_agree_and_other_metrics_are_refused() {
        let k = ReplayPaired::new(Coin(u64::MAX / 2), Coin(u64::MAX / 2), Metric::Win).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut t = k.new_tally();
        k.play(&mut rng, 1000, &mut t);
        let [both, a_only, b_only, neither] = t.table();
        assert_eq!(both + neither, 1000, "the same dice give the same result");
        assert_eq!(a_only + b_only, 0);
        assert!(both > 400 && neither > 400, "{both} {neither}");
        assert!(ReplayPaired::new(Coin(1), Coin(1), Metric::Turns).is_err());
    }

    #[test]
    fn a_stronger_side_wins_every_replayed_trial_the_weaker_wins() {
        let k = ReplayPaired::new(Coin(u64::MAX / 4 * 3), Coin(u64::MAX / 4), Metric::Win).unwrap();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut t = k.new_tally();
        k.play(&mut rng, 1000, &mut t);
        let [_, a_only, b_only, _] = t.table();
        assert_eq!(b_only, 0, "monotone coupling: B never wins alone");
        assert!(a_only > 400, "{a_only}");
    }
}
