//! A tiny kernel for the engine's own tests: each engagement adds one draw to a sum, so
//! two runs agree exactly when they used the same random numbers in the same order.

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::{Kernel, Tally};

/// Counts engagements and the sum of one draw each; its "half-width" is 1/√n.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Count {
    pub trials: u64,
    pub sum: u64,
}

impl Tally for Count {
    fn merge(&mut self, other: &Self) {
        self.trials += other.trials;
        self.sum = self.sum.wrapping_add(other.sum);
    }
    fn trials(&self) -> u64 {
        self.trials
    }
    fn max_half_width(&self) -> f64 {
        1.0 / (self.trials as f64).sqrt()
    }
}

pub(crate) struct Tiny;

impl Kernel for Tiny {
    type Tally = Count;
    fn new_tally(&self) -> Count {
        Count { trials: 0, sum: 0 }
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut Count) {
        for _ in 0..trials {
            tally.sum = tally.sum.wrapping_add(rng.next_u64() >> 40);
        }
        tally.trials += trials as u64;
    }
}
