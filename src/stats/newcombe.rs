//! Intervals for differences and weighted sums of proportions and means built from the
//! intervals of their parts, valid at 0 and 1 and with tiny counts.
//!
//! References:
//! - R. G. Newcombe (1998), "Improved confidence intervals for the difference between
//!   binomial proportions based on paired data", Statistics in Medicine 17:2635-2650,
//!   method 10 (the hybrid score interval: Wilson intervals of the two marginal
//!   proportions, combined with the estimated correlation of the pairs).
//! - R. G. Newcombe (1998), "Interval estimation for the difference between independent
//!   proportions: comparison of eleven methods", Statistics in Medicine 17:873-890,
//!   method 10 (the same with no correlation: "square and add").
//! - G. Y. Zou and A. Donner (2008), "Construction of confidence limits about effect
//!   measures: a general approach", Statistics in Medicine 27:1693-1702 (MOVER: the
//!   limits of a sum of estimates from the limits of its parts; Newcombe's intervals are
//!   the two-term case).

use super::interval::{Interval, wilson};

/// Newcombe's method 10 for the difference p1 − p2 of paired proportions at normal
/// quantile `z`, from the 2x2 counts of the pairs: `n11` both succeed, `n10` only the
/// first, `n01` only the second, `n00` neither. The estimate is (n10 − n01)/n.
///
/// Valid when either or both proportions are 0 or 1 (the Wilson limits never collapse
/// there). With no pairs the interval is [−1, 1]. The correlation φ of the two
/// proportions is (n11·n00 − n10·n01)/√(product of the margins), set to 0 when a margin is
/// empty, and shrunk as in the paper: max(A − n/2, 0) for A = n11·n00 − n10·n01 > 0.
pub fn newcombe_paired(n11: u64, n10: u64, n01: u64, n00: u64, z: f64) -> Interval {
    newcombe_paired_contrast(n11, n10, n01, n00, (1.0, 1.0), z)
}

/// The interval of the contrast `sa·p1 − sb·p2` of paired proportions (scales `sa`,
/// `sb` > 0, constants such as 100 over each side's cost), from the same 2x2 counts as
/// [`newcombe_paired`]: MOVER (Zou and Donner 2008) over the Wilson limits of p1 and p2,
/// each scaled by its constant, with Newcombe's shrunk correlation φ. Scaling a part
/// scales its Wilson limits and leaves φ unchanged, so with `sa = sb = 1` this is
/// Newcombe's method 10 exactly, and with `sa = sb = s` it is that interval times `s`.
/// The interval lies within [−sb, sa]; with no pairs it is [−sb, sa].
pub fn newcombe_paired_contrast(n11: u64, n10: u64, n01: u64, n00: u64, (sa, sb): (f64, f64), z: f64) -> Interval {
    let n = n11 + n10 + n01 + n00;
    if n == 0 {
        return Interval { low: -sb, high: sa };
    }
    let nf = n as f64;
    let (r1, r2) = (n11 + n10, n01 + n00); // first succeeds / fails
    let (c1, c2) = (n11 + n01, n10 + n00); // second succeeds / fails
    let (p1, p2) = (r1 as f64 / nf, c1 as f64 / nf);
    let (w1, w2) = (wilson(r1, n, z), wilson(c1, n, z));
    let phi = if r1 == 0 || r2 == 0 || c1 == 0 || c2 == 0 {
        0.0
    } else {
        let a = n11 as f64 * n00 as f64 - n10 as f64 * n01 as f64;
        let margins = (r1 as f64 * r2 as f64 * c1 as f64 * c2 as f64).sqrt();
        let a = if a > nf / 2.0 {
            a - nf / 2.0
        } else if a >= 0.0 {
            0.0
        } else {
            a
        };
        a / margins
    };
    let d = sa * p1 - sb * p2;
    let (dl1, du1) = (sa * (p1 - w1.low), sa * (w1.high - p1));
    let (dl2, du2) = (sb * (p2 - w2.low), sb * (w2.high - p2));
    let low = d - (dl1 * dl1 + du2 * du2 - 2.0 * phi * dl1 * du2).max(0.0).sqrt();
    let high = d + (dl2 * dl2 + du1 * du1 - 2.0 * phi * dl2 * du1).max(0.0).sqrt();
    Interval { low: low.max(-sb), high: high.min(sa) }
}

/// The interval of x − y for independent estimates x ∈ `xi`, y ∈ `yi` (MOVER with no
/// correlation; with Wilson parts, Newcombe's independent method 10).
pub fn difference(x: f64, xi: Interval, y: f64, yi: Interval) -> Interval {
    let d = x - y;
    Interval {
        low: d - ((x - xi.low).powi(2) + (yi.high - y).powi(2)).sqrt(),
        high: d + ((xi.high - x).powi(2) + (y - yi.low).powi(2)).sqrt(),
    }
}

/// The interval of the weighted mean Σ wᵢθᵢ / Σ wᵢ of independent estimates
/// (`weight`, estimate, interval), weights ≥ 0 (MOVER). `None` without positive weight.
pub fn weighted(parts: &[(f64, f64, Interval)]) -> Option<(f64, Interval)> {
    let total: f64 = parts.iter().map(|p| p.0).sum();
    if total <= 0.0 {
        return None;
    }
    let mean = parts.iter().map(|(w, x, _)| w * x).sum::<f64>() / total;
    let down = parts.iter().map(|(w, x, i)| (w * (x - i.low)).powi(2)).sum::<f64>().sqrt() / total;
    let up = parts.iter().map(|(w, x, i)| (w * (i.high - x)).powi(2)).sum::<f64>().sqrt() / total;
    Some((mean, Interval { low: mean - down, high: mean + up }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{Z95, wilson95};

    fn close(i: Interval, low: f64, high: f64) {
        assert!((i.low - low).abs() < 5e-5 && (i.high - high).abs() < 5e-5, "{i:?} vs [{low}, {high}]");
    }

    #[test]
    fn reproduces_published_paired_examples() {
        // Cavo et al. (2012) table as in Fagerland, Lydersen & Laake, "Statistical
        // Analysis of Contingency Tables" (2017), ch. 8, Newcombe square-and-add:
        // estimate −0.0621 (95% CI −0.1186 to −0.0046).
        // (The same method and numbers as the R package contingencytables' tests.)
        close(newcombe_paired(59, 6, 16, 80, Z95), -0.1186, -0.0046);
        // Estimate −0.0621 and the mirror image when the roles swap.
        close(newcombe_paired(59, 16, 6, 80, Z95), 0.0046, 0.1186);
    }

    #[test]
    fn never_collapses_at_zero_or_one() {
        for n in [1u64, 2, 5, 100, 100_000] {
            // both always fail, both always succeed, one always and one never
            let zero = newcombe_paired(0, 0, 0, n, Z95);
            let one = newcombe_paired(n, 0, 0, 0, Z95);
            let apart = newcombe_paired(0, n, 0, 0, Z95);
            for i in [zero, one] {
                assert!(i.low < 0.0 && i.high > 0.0, "n = {n}: {i:?}");
                assert!(i.low >= -1.0 && i.high <= 1.0);
            }
            // one discordant pair proves nothing; two already show A ahead
            assert!(apart.high == 1.0 && apart.low > -1.0 && apart.low < 1.0, "n = {n}: {apart:?}");
            assert_eq!(apart.low > 0.0, n >= 2, "n = {n}: {apart:?}");
        }
        assert_eq!(newcombe_paired(0, 0, 0, 0, Z95), Interval { low: -1.0, high: 1.0 });
        // 0 of 1: [−w, w] with w the Wilson upper limit of 0 of 1
        let w = wilson95(0, 1).high;
        close(newcombe_paired(0, 0, 0, 1, Z95), -w, w);
    }

    #[test]
    fn mover_sums_as_the_arithmetic_says() {
        let i = Interval { low: 0.1, high: 0.4 };
        let (m, w) = weighted(&[(1.0, 0.2, i), (1.0, 0.2, i)]).unwrap();
        assert!((m - 0.2).abs() < 1e-15);
        assert!((w.low - (0.2 - 0.1 * 2f64.sqrt() / 2.0)).abs() < 1e-15);
        assert!((w.high - (0.2 + 0.2 * 2f64.sqrt() / 2.0)).abs() < 1e-15);
        assert!(weighted(&[]).is_none());
        let d = difference(0.5, Interval { low: 0.4, high: 0.6 }, 0.5, Interval { low: 0.4, high: 0.6 });
        assert!((d.high - 0.02f64.sqrt()).abs() < 1e-15 && (d.low + 0.02f64.sqrt()).abs() < 1e-15);
    }

    #[test]
    fn a_scaled_contrast_is_the_paired_interval_scaled_when_the_scales_agree() {
        for counts in [(59, 6, 16, 80), (0, 0, 0, 10), (3, 40, 2, 955)] {
            let (a, b, c, d) = counts;
            let plain = newcombe_paired(a, b, c, d, Z95);
            let same = newcombe_paired_contrast(a, b, c, d, (2.5, 2.5), Z95);
            assert!((same.low - 2.5 * plain.low).abs() < 1e-12 && (same.high - 2.5 * plain.high).abs() < 1e-12);
        }
        // Unequal scales: the contrast of 0.6 and 0.4 at 1/2 and 1/1 is 0.3 − 0.4 < 0,
        // and its interval holds that estimate.
        let i = newcombe_paired_contrast(300, 300, 100, 300, (0.5, 1.0), Z95);
        assert!(i.low < -0.1 && i.high > -0.1 && i.high < 0.0, "{i:?}");
    }
}
