//! The contract between a ruleset's engagements and the engine.
//!
//! A ruleset compiles an engagement (sides, conditions, options) into a [`Kernel`]; the
//! engine only seeds generators, splits trials into streams, runs kernels in parallel and
//! merges their [`Tally`]s. It never sees a rule: the rulesets implement this contract.

use rand_xoshiro::Xoshiro256PlusPlus;

/// Counts from engagements. Merging must be exact, associative and commutative (integer
/// counts), so that any split into batches and any thread count give the same result.
pub trait Tally: Clone + Send + Sync {
    fn merge(&mut self, other: &Self);
    fn trials(&self) -> u64;
    /// The largest 95% half-width among the probabilities this tally reports: the
    /// quantity `--precision` drives below its target.
    fn max_half_width(&self) -> f64;
}

/// A compiled engagement, ready for the hot loop: no allocation, hashing, string work or
/// dynamic dispatch per shot.
pub trait Kernel: Sync {
    type Tally: Tally;
    fn new_tally(&self) -> Self::Tally;
    /// Play `trials` engagements with `rng`, adding their outcomes to `tally`. The
    /// random numbers drawn depend only on `rng`'s state and `trials`.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut Self::Tally);
}

impl Tally for crate::stats::TtkTally {
    fn merge(&mut self, other: &Self) {
        crate::stats::TtkTally::merge(self, other)
    }
    fn trials(&self) -> u64 {
        self.trials
    }
    fn max_half_width(&self) -> f64 {
        crate::stats::TtkTally::max_half_width(self)
    }
}

impl Tally for crate::stats::DuelTally {
    fn merge(&mut self, other: &Self) {
        crate::stats::DuelTally::merge(self, other)
    }
    fn trials(&self) -> u64 {
        self.trials
    }
    fn max_half_width(&self) -> f64 {
        crate::stats::DuelTally::max_half_width(self)
    }
}

impl Tally for crate::stats::PairedTally {
    fn merge(&mut self, other: &Self) {
        crate::stats::PairedTally::merge(self, other)
    }
    fn trials(&self) -> u64 {
        self.trials
    }
    /// For comparisons, the precision target is the half-width of the paired difference.
    fn max_half_width(&self) -> f64 {
        self.paired_half_width()
    }
}
