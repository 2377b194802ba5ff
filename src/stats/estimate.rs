//! Estimates with 95% intervals: their weighted average, and the best of several with the
//! ones statistically tied with it (a side's best range in a range envelope, a build's
//! best range in a gauntlet).

use super::Interval;
use super::newcombe::{difference, weighted};

/// One estimate (a measure at one range, one condition, ...): a value and its 95% interval (zero width when exact).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub ci: Interval,
}

/// The weighted average Σ wᵣ·xᵣ / Σ wᵣ of independent independent estimates (one per range, say) and its 95%
/// interval.
///
/// The interval combines variances: MOVER (Zou and Donner 2008; [`weighted`]) recovers
/// each range's variance below and above its estimate from its own interval (Wilson's
/// for rates), so the average's arms are √Σ(wᵣ·armᵣ)² / Σ wᵣ. Per-range estimates come
/// from separate cells with their own random streams, hence independent. It stays valid
/// at 0 and 1 (Wilson arms never vanish there, and the interval lies within the weighted
/// means of the per-range limits, inside [0, 1] for rates); exact estimates (zero-width
/// intervals) give the exact average with a zero-width interval. `None` when no weight is
/// positive or `parts` is empty.
pub fn average(parts: &[(f64, Estimate)]) -> Option<Estimate> {
    let v: Vec<(f64, f64, Interval)> = parts.iter().map(|(w, e)| (*w, e.value, e.ci)).collect();
    weighted(&v).map(|(value, ci)| Estimate { value, ci })
}

/// The best of several estimates (a side's best range, say), and those statistically
/// tied with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Best {
    /// Index of the best estimate (the first of equal best values).
    pub index: usize,
    /// Indices of the other estimates whose difference from the best has a 95% interval
    /// containing 0 (Newcombe's independent method 10 for rates: MOVER over the two
    /// intervals; exact estimates tie only when equal).
    pub tied: Vec<usize>,
}

/// The best of `parts` (higher or lower values better); `None` when empty or every
/// value is NaN.
pub fn best(parts: &[Estimate], higher_is_better: bool) -> Option<Best> {
    let better = |x: f64, y: f64| if higher_is_better { x > y } else { x < y };
    let mut index: Option<usize> = None;
    for (i, e) in parts.iter().enumerate() {
        if e.value.is_nan() {
            continue;
        }
        if index.is_none_or(|j| better(e.value, parts[j].value)) {
            index = Some(i);
        }
    }
    let index = index?;
    let b = parts[index];
    let tied = parts
        .iter()
        .enumerate()
        .filter(|(i, e)| *i != index && !e.value.is_nan())
        .filter(|(_, e)| difference(b.value, b.ci, e.value, e.ci).contains(0.0))
        .map(|(i, _)| i)
        .collect();
    Some(Best { index, tied })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::wilson95;

    fn rate(k: u64, n: u64) -> Estimate {
        Estimate { value: k as f64 / n as f64, ci: wilson95(k, n) }
    }

    #[test]
    fn the_average_is_the_weighted_mean_with_a_valid_interval_at_the_ends() {
        let parts = [(0.25, rate(30, 100)), (0.5, rate(50, 100)), (0.25, rate(90, 100))];
        let a = average(&parts).unwrap();
        assert!((a.value - (0.25 * 0.3 + 0.5 * 0.5 + 0.25 * 0.9)).abs() < 1e-15);
        assert!(a.ci.low < a.value && a.value < a.ci.high);
        // Narrower than the plain weighted mean of the limits (variances add, arms don't).
        let lows: f64 = parts.iter().map(|(w, e)| w * e.ci.low).sum();
        assert!(a.ci.low > lows);
        // All zero: the estimate is 0, the interval [0, u] with u > 0, never below 0.
        let zero = average(&[(0.5, rate(0, 50)), (0.5, rate(0, 80))]).unwrap();
        assert_eq!(zero.value, 0.0);
        assert!(zero.ci.low.abs() < 1e-15 && zero.ci.high > 0.0);
        let one = average(&[(0.5, rate(50, 50)), (0.5, rate(80, 80))]).unwrap();
        assert!((one.value - 1.0).abs() < 1e-15 && one.ci.high <= 1.0 + 1e-15 && one.ci.low < 1.0);
        // Exact estimates average exactly.
        let exact = |v: f64| Estimate { value: v, ci: Interval { low: v, high: v } };
        let e = average(&[(1.0, exact(0.25)), (3.0, exact(0.75))]).unwrap();
        assert_eq!((e.value, e.ci.low, e.ci.high), (0.625, 0.625, 0.625));
        assert_eq!(average(&[]), None);
        assert_eq!(average(&[(0.0, exact(0.2))]), None);
    }

    #[test]
    fn the_best_range_knows_ties() {
        let parts = [rate(30, 100), rate(50, 100), rate(52, 100), rate(90, 1000)];
        let b = best(&parts, true).unwrap();
        assert_eq!((b.index, b.tied.clone()), (2, vec![1]));
        let b = best(&parts, false).unwrap();
        assert_eq!((b.index, b.tied), (3, vec![]));
        let exact = |v: f64| Estimate { value: v, ci: Interval { low: v, high: v } };
        let b = best(&[exact(0.5), exact(0.7), exact(0.7)], true).unwrap();
        assert_eq!((b.index, b.tied), (1, vec![2]));
        let b = best(&[exact(0.5), exact(0.7)], true).unwrap();
        assert_eq!((b.index, b.tied), (1, vec![]));
        assert_eq!(best(&[], true), None);
    }
}
