//! Unbiased uniform integers.

use rand::Rng;

/// An unbiased integer in `[0, range)` by Lemire's multiply-and-reject method.
/// `reject_below` must be `range.wrapping_neg() % range`; `range` must be >= 1.
#[inline(always)]
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, range: u64, reject_below: u64) -> u64 {
    loop {
        let m = (rng.next_u64() as u128) * (range as u128);
        if (m as u64) >= reject_below {
            return (m >> 64) as u64;
        }
    }
}

/// The generator word `x` that [`uniform_below`]`(rng, range, reject_below)` accepts
/// (the same words drawn and rejected), whose index is `⌊x · range / 2⁶⁴⌋`. Only the low
/// half of `x · range` is computed, for the rejection test: a caller compares `x` with
/// thresholds scaled by [`word_at_least`] instead of computing the index.
#[inline(always)]
pub fn accepted_word<R: Rng + ?Sized>(rng: &mut R, range: u64, reject_below: u64) -> u64 {
    loop {
        let x = rng.next_u64();
        if x.wrapping_mul(range) >= reject_below {
            return x;
        }
    }
}

/// The least word `x` whose index `⌊x · range / 2⁶⁴⌋` is at least `t` (`t < range`):
/// `⌈t · 2⁶⁴ / range⌉`, below 2⁶⁴. So `index >= t` exactly when `x >= word_at_least(t)`.
pub fn word_at_least(t: u64, range: u64) -> u64 {
    debug_assert!(t < range, "threshold {t} of range {range}");
    let scaled = (u128::from(t) << 64).div_ceil(u128::from(range));
    u64::try_from(scaled).expect("t < range keeps the word below 2^64")
}

/// One roll of a die with `sides` faces (1..=sides), unbiased.
#[inline(always)]
pub fn roll<R: Rng + ?Sized>(rng: &mut R, sides: u64) -> u64 {
    uniform_below(rng, sides, sides.wrapping_neg() % sides) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// The index of word `x` in `[0, range)`.
    fn index(x: u64, range: u64) -> u64 {
        ((u128::from(x) * u128::from(range)) >> 64) as u64
    }

    #[test]
    fn the_accepted_word_is_the_word_behind_the_uniform_draw() {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(5);
        // Ranges whose rejection bites often (just above a power of two) and rarely.
        for range in [1u64, 6, 216, 160_000, (1 << 63) + 1, u64::MAX] {
            let reject_below = range.wrapping_neg() % range;
            let (mut a, mut b) = (g.clone(), g.clone());
            for _ in 0..2000 {
                let u = uniform_below(&mut a, range, reject_below);
                assert_eq!(index(accepted_word(&mut b, range, reject_below), range), u, "range {range}");
            }
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same words drawn, range {range}");
            g = a;
        }
    }

    #[test]
    fn a_threshold_in_words_splits_the_words_where_the_index_reaches_it() {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(11);
        // Ranges of hit tables (powers of a die's faces) and more: every threshold of the
        // small ones, random ones and the edges of the large.
        let mut cases: Vec<(u64, u64)> = Vec::new();
        for range in [1u64, 2, 3, 20, 400, 8000, 160_000, 20u64.pow(10), (1 << 63) + 1, u64::MAX] {
            if range <= 400 {
                cases.extend((0..range).map(|t| (t, range)));
            } else {
                cases.extend((0..200).map(|_| (g.random_range(0..range), range)));
                cases.extend([(0, range), (1, range), (range - 1, range)]);
            }
        }
        for (t, range) in cases {
            let w = word_at_least(t, range);
            assert!(index(w, range) >= t, "t {t} range {range}");
            if w > 0 {
                assert!(index(w - 1, range) < t, "t {t} range {range}");
            }
        }
    }

    #[test]
    fn rolls_stay_on_the_die() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut seen = [0u32; 7];
        for _ in 0..6000 {
            seen[roll(&mut rng, 6) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&c| c > 800), "{seen:?}");
    }
}
