//! The index of a uniform u64 draw among ascending cumulative thresholds, found through a
//! guide table (Chen and Asau, 1974): a jump to the draw's bucket, then a short scan.
//! The index is exactly the one a scan from the first threshold finds, so a table that
//! samples through it draws the same outcomes as one that scans.

/// Ascending cumulative thresholds over the whole u64 range and their guide table.
///
/// Invariants: `thresholds` is non-empty, ascending (ties allowed) and ends with
/// `u64::MAX`, so every draw has an index; `first[b]` is the first index whose threshold
/// is at least `b << shift`, the least draw of bucket `b`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuidedThresholds {
    thresholds: Box<[u64]>,
    first: Box<[u32]>,
    shift: u32,
}

/// Most guide buckets (2^12): a table of more thresholds scans a little further.
const MAX_GUIDE_BITS: u32 = 12;

impl GuidedThresholds {
    /// The guide of `thresholds`.
    ///
    /// # Panics
    /// When `thresholds` is empty, not ascending, or does not end with `u64::MAX` (a
    /// bug in the caller's cumulative sums, not an input error).
    pub fn new(thresholds: Vec<u64>) -> GuidedThresholds {
        assert_eq!(thresholds.last(), Some(&u64::MAX), "cumulative thresholds end at u64::MAX");
        assert!(thresholds.windows(2).all(|w| w[0] <= w[1]), "cumulative thresholds ascend");
        // About one threshold per bucket: the scan after the jump is short.
        let bits = thresholds.len().next_power_of_two().trailing_zeros().clamp(1, MAX_GUIDE_BITS);
        let shift = u64::BITS - bits;
        let first = (0..1u64 << bits).map(|b| thresholds.partition_point(|&t| t < b << shift) as u32).collect();
        GuidedThresholds { thresholds: thresholds.into_boxed_slice(), first, shift }
    }

    /// The first index whose threshold is at least `u`: the same index as
    /// `thresholds.iter().position(|&t| u <= t)`, which always exists.
    #[inline(always)]
    pub fn index(&self, u: u64) -> usize {
        // Every threshold before `first[b]` lies below the least draw of bucket b, so
        // below `u`; the scan stops at the latest at the last threshold, u64::MAX.
        let mut i = self.first[(u >> self.shift) as usize] as usize;
        while self.thresholds[i] < u {
            i += 1;
        }
        i
    }

    /// The thresholds, ascending.
    pub fn thresholds(&self) -> &[u64] {
        &self.thresholds
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn scan(t: &[u64], u: u64) -> usize {
        t.iter().position(|&x| u <= x).expect("the last threshold is u64::MAX")
    }

    /// Every draw a table can meet at its edges (each threshold, its neighbours, every
    /// bucket's first and last draw) and random ones give the index a scan gives.
    fn check(t: Vec<u64>, g: &mut Xoshiro256PlusPlus) {
        let guided = GuidedThresholds::new(t.clone());
        let buckets = 1u64 << (u64::BITS - guided.shift);
        let mut draws: Vec<u64> = vec![0, 1, u64::MAX, u64::MAX - 1];
        for &x in &t {
            draws.extend([x, x.wrapping_sub(1), x.wrapping_add(1)]);
        }
        for b in 0..buckets {
            let least = b << guided.shift;
            draws.extend([least, least.wrapping_sub(1), least | ((1u64 << guided.shift) - 1)]);
        }
        draws.extend((0..2000).map(|_| g.random::<u64>()));
        for u in draws {
            assert_eq!(guided.index(u), scan(&t, u), "draw {u:#x} in {t:x?}");
        }
    }

    #[test]
    fn the_guided_index_is_the_scanned_index() {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(3);
        // One outcome; thresholds on bucket edges; ties (outcomes of no weight); many.
        check(vec![u64::MAX], &mut g);
        check(vec![1 << 63, u64::MAX], &mut g);
        check(vec![0, 0, 1 << 62, 1 << 62, 3 << 62, u64::MAX, u64::MAX], &mut g);
        for n in [2usize, 3, 7, 40, 300, 5000] {
            let mut t: Vec<u64> = (1..n).map(|_| g.random::<u64>()).collect();
            t.sort_unstable();
            t.push(u64::MAX);
            check(t, &mut g);
        }
        // A law with most weight on few outcomes: long runs in one bucket.
        let mut t: Vec<u64> = (1..200u64).map(|i| (1 << 40) * i).collect();
        t.push(u64::MAX);
        check(t, &mut g);
    }

    #[test]
    #[should_panic(expected = "ascend")]
    fn thresholds_out_of_order_are_refused() {
        GuidedThresholds::new(vec![5, 3, u64::MAX]);
    }
}
