//! Integer tables that sample a finite distribution with one uniform draw.
//!
//! Exact when the distribution is a count with a total that fits a u64 (the draw is an
//! unbiased integer in `[0, total)` and the table counts the cumulative thresholds it
//! passes). Otherwise (an `f64` distribution, or a count too large for one u64) the
//! probabilities are quantised to multiples of 2^−62, each off by less than 2^−62 (so an
//! outcome less likely than that may get no slot).

use rand::Rng;

use super::dist::{Dist, Weight};
use super::uniform::uniform_below;

/// Quantisation of non-count distributions: 2^62 elementary events.
const QUANTUM_BITS: u32 = 62;

/// Samples one outcome index of a [`Dist`] with one u64 draw (rejections aside).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SamplingTable {
    /// Elementary events: the draw is uniform in `[0, range)`.
    pub range: u64,
    /// Lemire's rejection threshold, `range.wrapping_neg() % range`.
    pub reject_below: u64,
    /// `cumulative[s]` = events mapped to slots `0..=s`, for every slot but the last.
    pub cumulative: Vec<u64>,
    /// The outcome index of each slot (outcomes of zero weight have no slot).
    pub outcomes: Vec<usize>,
    /// Whether the table is the exact distribution (not quantised).
    pub exact: bool,
}

impl SamplingTable {
    /// A table for `dist`, which must have at least one outcome of positive weight.
    pub fn new<W: Weight>(dist: &Dist<W>) -> SamplingTable {
        let exact_counts: Option<Vec<u64>> = match dist.total.exact() {
            Some(t) if t <= u64::MAX as u128 => {
                Some(dist.weights.iter().map(|w| w.exact().expect("integer weights") as u64).collect())
            }
            _ => None,
        };
        let exact = exact_counts.is_some();
        let counts = exact_counts.unwrap_or_else(|| quantise(&dist.probs()));
        let mut cumulative = Vec::new();
        let mut outcomes = Vec::new();
        let mut acc = 0u64;
        for (i, &c) in counts.iter().enumerate() {
            if c > 0 {
                acc += c;
                cumulative.push(acc);
                outcomes.push(i);
            }
        }
        assert!(!outcomes.is_empty(), "a sampling table needs an outcome of positive weight");
        let range = cumulative.pop().expect("at least one slot");
        SamplingTable { range, reject_below: range.wrapping_neg() % range, cumulative, outcomes, exact }
    }

    /// The slot of the uniform event `u` in `[0, range)`.
    #[inline(always)]
    pub fn slot(&self, u: u64) -> usize {
        self.cumulative.iter().map(|&c| (u >= c) as usize).sum()
    }

    /// Draw one outcome index.
    #[inline(always)]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> usize {
        self.outcomes[self.slot(uniform_below(rng, self.range, self.reject_below))]
    }
}

/// Probabilities to integer counts summing to 2^62 (largest remainders get the rest).
fn quantise(p: &[f64]) -> Vec<u64> {
    let scale = (1u64 << QUANTUM_BITS) as f64;
    let sum: f64 = p.iter().sum();
    let mut counts: Vec<u64> = p.iter().map(|&x| ((x / sum) * scale).floor() as u64).collect();
    let assigned: u64 = counts.iter().sum();
    let mut rest = (1u64 << QUANTUM_BITS).saturating_sub(assigned);
    let mut order: Vec<usize> = (0..p.len()).filter(|&i| p[i] > 0.0).collect();
    order.sort_by(|&a, &b| {
        let fa = (p[a] / sum) * scale - counts[a] as f64;
        let fb = (p[b] / sum) * scale - counts[b] as f64;
        fb.total_cmp(&fa)
    });
    for &i in order.iter().cycle() {
        if rest == 0 {
            break;
        }
        counts[i] += 1;
        rest -= 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_table_maps_every_event_once() {
        let d6: Dist<u128> = Dist::count(7, 1..=6);
        let two = d6.combine(&d6, 13, |a, b| a + b);
        let t = SamplingTable::new(&two);
        assert!(t.exact);
        assert_eq!(t.range, 36);
        let mut seen = [0u128; 13];
        for u in 0..t.range {
            seen[t.outcomes[t.slot(u)]] += 1;
        }
        assert_eq!(seen.to_vec(), two.weights);
    }

    #[test]
    fn quantised_tables_keep_every_positive_outcome() {
        let d = Dist { weights: vec![0.5, 0.0, 1e-9, 0.5 - 1e-9], total: 1.0 };
        let t = SamplingTable::new(&d);
        assert!(!t.exact);
        assert_eq!(t.outcomes, vec![0, 2, 3]);
        assert_eq!(t.range, 1u64 << QUANTUM_BITS);
    }
}
