//! Paired MECHCOM duels for `compare` and `gauntlet` (common random numbers): each trial
//! seeds one generator from the stream, and A's duel and B's duel against the same
//! opponent each play that trial from a copy of it, so both meet the same dice as far
//! as their duels run alike.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::{PairedTally, Scale};

use super::duel_kernel::{DuelKernel, Winner};

/// A's and B's duels against one opponent, played on common random numbers; the
/// outcome per trial is 1 when the compared side wins.
#[derive(Debug, Clone, PartialEq)]
pub struct PairedDuels {
    pub a: DuelKernel,
    pub b: DuelKernel,
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
            let wa = self.a.play_one(&mut ra).winner == Winner::A;
            let wb = self.b.play_one(&mut rb).winner == Winner::A;
            tally.add(wa as i64, wb as i64);
        }
    }
}
