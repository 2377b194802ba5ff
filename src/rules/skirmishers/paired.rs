//! Paired duels for `compare` and `gauntlet`: one generator per trial that A's and B's
//! duels each replay (common random numbers).

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::duel::Duel;
use crate::engine::Kernel;
use crate::stats::{PairedTally, Scale};

/// Two duels against the same opponent, compared by A's win.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedDuels {
    pub a: Duel,
    pub b: Duel,
}

impl Kernel for PairedDuels {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::new(Scale::Proportion)
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let mut ra = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
            let mut rb = ra.clone();
            let wa = self.a.play_one(&mut ra).0 == 1;
            let wb = self.b.play_one(&mut rb).0 == 1;
            tally.add(wa as i64, wb as i64);
        }
    }
}
