//! Exact dice: the distribution of hits among n d20 that each hit on `faces` of 20, and
//! integer tables that sample it with one uniform draw.
//!
//! The count of outcomes of n d20 with exactly k hits is C(n,k)·t^k·(20−t)^(n−k) out of
//! 20^n. For n <= [`MAX_TABLE_DICE`] these fit a u64, so one unbiased integer
//! u ∈ [0, 20^n) and a scan of n cumulative thresholds gives exactly the distribution of
//! n separate rolls. Larger pools are split into chunks of at most that many dice.

use rand::Rng;

use super::rulings::DIE_SIDES;
pub use crate::dice::uniform_below;

/// Most dice one u64 table covers: 20^14 ≈ 1.6e18 < 2^64.
pub const MAX_TABLE_DICE: u32 = 14;
/// Most dice whose exact counts fit a u128 (20^29 ≈ 5.4e37 < 2^128).
const MAX_EXACT_U128_DICE: u32 = 29;

/// P(k hits) for k = 0..=n, each die hitting on `faces` of 20 (0..=20).
pub fn hit_distribution(n: u32, faces: u32) -> Vec<f64> {
    assert!(faces <= DIE_SIDES, "faces {faces} > {DIE_SIDES}");
    if n <= MAX_EXACT_U128_DICE {
        let total = (DIE_SIDES as u128).pow(n) as f64;
        return hit_counts_u128(n, faces).into_iter().map(|c| c as f64 / total).collect();
    }
    // Large pools: convolve one die at a time (stable, O(n²)).
    let p = faces as f64 / DIE_SIDES as f64;
    let mut dist = vec![0.0; n as usize + 1];
    dist[0] = 1.0;
    for i in 1..=n as usize {
        for k in (0..=i).rev() {
            let hit = if k > 0 { dist[k - 1] * p } else { 0.0 };
            dist[k] = dist[k] * (1.0 - p) + hit;
        }
    }
    dist
}

/// Exact outcome counts C(n,k)·t^k·(20−t)^(n−k) for n <= 29.
pub fn hit_counts_u128(n: u32, faces: u32) -> Vec<u128> {
    assert!(n <= MAX_EXACT_U128_DICE);
    let t = faces as u128;
    let f = (DIE_SIDES - faces) as u128;
    let mut binom: u128 = 1;
    (0..=n)
        .map(|k| {
            if k > 0 {
                binom = binom * (n - k + 1) as u128 / k as u128;
            }
            binom * t.pow(k) * f.pow(n - k)
        })
        .collect()
}

/// Samples the number of hits among up to [`MAX_TABLE_DICE`] dice with one u64 draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HitTable {
    pub dice: u32,
    /// 20^dice.
    pub range: u64,
    /// Lemire's rejection threshold: (2^64 − range) mod range.
    reject_below: u64,
    /// cumulative[k] = outcomes with at most k hits, for k = 0..dice−1 (unused slots = range).
    pub cumulative: [u64; MAX_TABLE_DICE as usize],
}

impl HitTable {
    /// A table for `dice` (1..=14) dice hitting on `faces` (0..=20).
    pub fn new(dice: u32, faces: u32) -> HitTable {
        assert!((1..=MAX_TABLE_DICE).contains(&dice), "dice {dice} out of 1..=14");
        let counts = hit_counts_u128(dice, faces);
        let range = (DIE_SIDES as u64).pow(dice);
        let mut cumulative = [range; MAX_TABLE_DICE as usize];
        let mut acc: u128 = 0;
        for k in 0..dice as usize {
            acc += counts[k];
            cumulative[k] = acc as u64;
        }
        HitTable { dice, range, reject_below: range.wrapping_neg() % range, cumulative }
    }

    /// Lemire's rejection threshold for [`uniform_below`].
    pub fn reject_below(&self) -> u64 {
        self.reject_below
    }

    /// Hits for the uniform outcome index `u` ∈ [0, range).
    #[inline(always)]
    pub fn hits_for(&self, u: u64) -> u32 {
        let mut hits = 0;
        for &c in &self.cumulative[..self.dice as usize] {
            hits += (u >= c) as u32;
        }
        hits
    }

    /// Draw the number of hits: exactly Binomial(dice, faces/20).
    #[inline(always)]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        self.hits_for(uniform_below(rng, self.range, self.reject_below))
    }
}

/// A d20 roll, 1..=20, unbiased.
#[inline(always)]
pub fn roll_d20<R: Rng + ?Sized>(rng: &mut R) -> u32 {
    const REJECT: u64 = (DIE_SIDES as u64).wrapping_neg() % DIE_SIDES as u64;
    uniform_below(rng, DIE_SIDES as u64, REJECT) as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_sum_to_all_outcomes() {
        for n in [1, 6, 14, 29] {
            for t in [0, 1, 5, 19, 20] {
                let total: u128 = hit_counts_u128(n, t).iter().sum();
                assert_eq!(total, 20u128.pow(n), "n={n} t={t}");
            }
        }
    }

    #[test]
    fn six_dice_on_five_match_the_binomial() {
        let d = hit_distribution(6, 5);
        let p: f64 = 0.25;
        for (k, &pk) in d.iter().enumerate() {
            let binom = [1.0, 6.0, 15.0, 20.0, 15.0, 6.0, 1.0][k];
            let expect = binom * p.powi(k as i32) * (1.0 - p).powi(6 - k as i32);
            assert!((pk - expect).abs() < 1e-15, "k={k}: {pk} vs {expect}");
        }
    }

    #[test]
    fn large_pools_agree_with_exact_counts() {
        let exact = hit_distribution(29, 7);
        // the DP path, forced through n = 29 by comparing against n = 30's sum and mean
        let dp = hit_distribution(30, 7);
        assert!((dp.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mean: f64 = dp.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        assert!((mean - 30.0 * 0.35).abs() < 1e-10);
        assert!((exact.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn table_maps_every_outcome_exactly() {
        // Enumerate all 20^3 outcomes: the table must give each hit count exactly
        // the number of outcomes the counts say.
        let table = HitTable::new(3, 5);
        let mut seen = [0u64; 4];
        for u in 0..table.range {
            seen[table.hits_for(u) as usize] += 1;
        }
        let counts: Vec<u64> = hit_counts_u128(3, 5).into_iter().map(|c| c as u64).collect();
        assert_eq!(seen.to_vec(), counts);
    }

    #[test]
    fn table_edges_never_and_always_hit() {
        let never = HitTable::new(6, 0);
        let always = HitTable::new(6, 20);
        for u in [0, 1, never.range / 2, never.range - 1] {
            assert_eq!(never.hits_for(u), 0);
            assert_eq!(always.hits_for(u), 6);
        }
    }
}
