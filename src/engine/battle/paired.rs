//! Paired battles on common random numbers: two compiled battles (side 0 of each is a
//! side under comparison, A or B; the other sides are the same opponents) played trial by
//! trial from the same random stream state, so that the difference of their results
//! carries less noise than two independent runs. No rule inside: any battle kernel works.
//!
//! Per trial, one `u64` is drawn from the batch's generator and seeds a fresh
//! `Xoshiro256PlusPlus` (SplitMix64 expansion, as `SeedableRng::seed_from_u64` does);
//! A's battle plays from it and B's battle from a clone of it, so both meet the same
//! initiative rolls and dice as far as their battles run alike. The batch generator is
//! seeded by the runner from (seed, cell key, batch index), so trial i's state depends
//! only on those: results are bit-identical for any thread count and batch split.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::tally::BattleTally;
use crate::engine::kernel::{Kernel, Tally};
use crate::stats::{JointTable, Standing};

/// A's battle and B's battle against the same opponents, played on common random
/// numbers. `K` is any battle kernel; its side 0 is the compared side.
#[derive(Debug, Clone)]
pub struct PairedBattles<K> {
    pub a: K,
    pub b: K,
}

/// What paired battles count: the joint table of (A's result, B's result) from side 0's
/// view (win; draw or no result at the cap; loss), and each side's own battle tally.
/// Every part is integer counts, so merging is exact in any order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairedBattleTally {
    pub joint: JointTable,
    pub a: BattleTally,
    pub b: BattleTally,
}

impl Tally for PairedBattleTally {
    fn merge(&mut self, o: &Self) {
        self.joint.merge(&o.joint);
        self.a.merge(&o.a);
        self.b.merge(&o.b);
    }
    fn trials(&self) -> u64 {
        self.joint.trials()
    }
    /// The half-width of the paired 95% interval of P(A wins) − P(B wins).
    fn max_half_width(&self) -> f64 {
        self.joint.paired(Standing::Win).paired_ci().half_width()
    }
}

/// Play one battle of `k` from `rng` into `tally`; side 0's result, read from the counts
/// the battle changed.
fn one<K: Kernel<Tally = BattleTally>>(k: &K, rng: &mut Xoshiro256PlusPlus, tally: &mut BattleTally) -> Standing {
    let (won, drawn, undecided) = (tally.wins[0], tally.draws, tally.undecided);
    k.play(rng, 1, tally);
    if tally.wins[0] > won {
        Standing::Win
    } else if tally.draws > drawn || tally.undecided > undecided {
        Standing::Draw
    } else {
        Standing::Loss
    }
}

impl<K: Kernel<Tally = BattleTally>> Kernel for PairedBattles<K> {
    type Tally = PairedBattleTally;

    fn new_tally(&self) -> PairedBattleTally {
        PairedBattleTally { joint: JointTable::default(), a: self.a.new_tally(), b: self.b.new_tally() }
    }

    /// Draws exactly one `u64` from `rng` per trial.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedBattleTally) {
        for _ in 0..trials {
            let mut ra = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
            let mut rb = ra.clone();
            let a = one(&self.a, &mut ra, &mut tally.a);
            let b = one(&self.b, &mut rb, &mut tally.b);
            tally.joint.add(a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::battle::{Battle, BattlePolicy, BattleRules};
    use crate::engine::battle::{Ending, MAX_SIDES, Outcome};

    /// A toy duel with no rule of any game: one unit each, side 0 hits with chance
    /// `hit`/6 per action and side 1 with 3/6, a draw when both fall in the same turn.
    #[derive(Debug, Clone)]
    struct Toy {
        hit: u64,
    }

    impl BattleRules for Toy {
        type State = [bool; 2];
        type Action = ();
        fn sides(&self) -> usize {
            2
        }
        fn units(&self) -> usize {
            2
        }
        fn side_of(&self, unit: usize) -> usize {
            unit
        }
        fn max_turns(&self) -> u32 {
            4
        }
        fn phases(&self) -> usize {
            1
        }
        fn pass_ends_turn(&self) -> bool {
            true
        }
        fn new_state(&self) -> [bool; 2] {
            [true; 2]
        }
        fn begin_battle(&self, s: &mut [bool; 2], _: &mut Xoshiro256PlusPlus) {
            *s = [true; 2];
        }
        fn begin_turn(&self, _: &mut [bool; 2], _: u32, _: &mut Xoshiro256PlusPlus, o: &mut [u8; MAX_SIDES]) -> usize {
            o[0] = 0;
            o[1] = 1;
            2
        }
        fn budget(&self, _: &[bool; 2], _: usize, _: usize) -> u32 {
            1
        }
        fn act(&self, s: &mut [bool; 2], side: usize, _: (), rng: &mut Xoshiro256PlusPlus, _: &mut Outcome) {
            let need = if side == 0 { self.hit } else { 3 };
            if rng.next_u64() % 6 < need {
                s[1 - side] = false;
            }
        }
        fn end_turn(&self, s: &mut [bool; 2], _: u32, _: &mut Xoshiro256PlusPlus, _: &mut Outcome) -> Option<Ending> {
            match *s {
                [true, true] => None,
                [true, false] => Some(Ending::Winner(0)),
                [false, true] => Some(Ending::Winner(1)),
                [false, false] => Some(Ending::Draw),
            }
        }
        fn time_called(&self, _: &[bool; 2], _: &mut Outcome) -> Ending {
            Ending::Undecided
        }
    }

    struct Always;
    impl BattlePolicy<Toy> for Always {
        fn choose(&self, _: &Toy, _: &[bool; 2], _: usize, _: usize, _: &mut Xoshiro256PlusPlus) -> Option<()> {
            Some(())
        }
    }

    fn paired(a: u64, b: u64) -> PairedBattles<Battle<Toy, Always>> {
        PairedBattles {
            a: Battle { game: Toy { hit: a }, policy: Always },
            b: Battle { game: Toy { hit: b }, policy: Always },
        }
    }

    fn play(k: &PairedBattles<Battle<Toy, Always>>, seed: u64, trials: u32) -> PairedBattleTally {
        let mut t = k.new_tally();
        k.play(&mut Xoshiro256PlusPlus::seed_from_u64(seed), trials, &mut t);
        t
    }

    #[test]
    fn a_side_against_itself_agrees_in_every_trial() {
        let t = play(&paired(3, 3), 7, 2000);
        let c = t.joint.counts;
        assert_eq!(t.joint.trials(), 2000);
        for (i, row) in c.iter().enumerate() {
            for (j, &n) in row.iter().enumerate() {
                assert!(i == j || n == 0, "off-diagonal {c:?}");
            }
        }
        assert!(c[0][0] > 0 && c[2][2] > 0, "{c:?}");
        assert_eq!(t.a, t.b);
        assert_eq!(t.joint.correlation(Standing::Win), Some(1.0));
    }

    #[test]
    fn margins_are_each_sides_own_tally() {
        let t = play(&paired(4, 2), 11, 3000);
        let [n11, n10, n01, _] = t.joint.two_by_two(Standing::Win);
        assert_eq!(t.a.wins[0], n11 + n10);
        assert_eq!(t.b.wins[0], n11 + n01);
        assert_eq!(t.a.trials, 3000);
        let [d11, d10, _, _] = t.joint.two_by_two(Standing::Draw);
        assert_eq!(t.a.draws + t.a.undecided, d11 + d10);
        // common numbers make the sides' wins strongly correlated
        assert!(t.joint.correlation(Standing::Win).unwrap() > 0.3, "{:?}", t.joint);
    }

    #[test]
    fn any_split_into_calls_gives_the_same_tally_when_the_stream_is_the_same() {
        let k = paired(4, 2);
        let whole = play(&k, 5, 600);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut parts = k.new_tally();
        for n in [1, 99, 200, 300] {
            let mut t = k.new_tally();
            k.play(&mut rng, n, &mut t);
            parts.merge(&t);
        }
        assert_eq!(whole, parts);
    }
}
