//! Paired comparisons: integer sums of per-trial outcomes of A, of B, and of their
//! difference, so the paired interval (from the pairs) and the interval two independent
//! runs would give (from the marginals) are both measured.
//!
//! Intervals (95%), by the outcome's [`Scale`]:
//! - [`Scale::Proportion`] (0/1 outcomes): Wilson for A and for B; Newcombe's paired
//!   method 10 for A − B from the 2x2 counts, which the sums recover exactly for 0/1
//!   outcomes (discordant pairs n10 + n01 = Σd², n10 − n01 = Σd); the independent
//!   interval is Newcombe's independent method 10. All stay valid at 0 and 1.
//! - [`Scale::Range`] (a bounded mean, e.g. turns to kill): the normal interval; but a
//!   sample with no variance (or a single trial) gets the honest bounded interval
//!   instead of a zero-width one: if all n values equal v, then with 95% confidence at
//!   most a fraction q (Wilson's upper limit for 0 of n) of the population differs from
//!   v, by at most the range, so the mean lies in [v − (v − low)·q, v + (high − v)·q].
//!
//! See [`super::newcombe`] for the references.

use super::interval::{Interval, Z95, wilson95};
use super::newcombe::{difference, newcombe_paired, newcombe_paired_contrast, weighted};

/// What the per-trial outcome is, for choosing intervals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scale {
    /// 0 or 1.
    #[default]
    Proportion,
    /// An integer in [low, high].
    Range { low: i64, high: i64 },
}

/// Sums over trials of an integer outcome x (A), y (B) and d = x − y.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairedTally {
    pub scale: Scale,
    pub trials: u64,
    pub sum_a: i64,
    pub sum_a2: i64,
    pub sum_b: i64,
    pub sum_b2: i64,
    pub sum_d: i64,
    pub sum_d2: i64,
}

impl PairedTally {
    /// An empty tally of outcomes on `scale`.
    pub fn new(scale: Scale) -> PairedTally {
        PairedTally { scale, ..PairedTally::default() }
    }

    /// Record one paired trial.
    #[inline]
    pub fn add(&mut self, a: i64, b: i64) {
        let d = a - b;
        self.trials += 1;
        self.sum_a += a;
        self.sum_a2 += a * a;
        self.sum_b += b;
        self.sum_b2 += b * b;
        self.sum_d += d;
        self.sum_d2 += d * d;
    }

    pub fn merge(&mut self, o: &PairedTally) {
        debug_assert!(self.trials == 0 || o.trials == 0 || self.scale == o.scale);
        if self.trials == 0 {
            self.scale = o.scale;
        }
        self.trials += o.trials;
        self.sum_a += o.sum_a;
        self.sum_a2 += o.sum_a2;
        self.sum_b += o.sum_b;
        self.sum_b2 += o.sum_b2;
        self.sum_d += o.sum_d;
        self.sum_d2 += o.sum_d2;
    }

    /// Sample variance of values with sum `s` and sum of squares `s2` over n trials.
    fn variance(&self, s: i64, s2: i64) -> f64 {
        let n = self.trials as f64;
        if self.trials < 2 {
            return 0.0;
        }
        let num = self.trials as i128 * s2 as i128 - s as i128 * s as i128;
        (num as f64 / (n * (n - 1.0))).max(0.0)
    }

    /// The 2x2 counts (both, A only, B only, neither) of 0/1 outcomes.
    pub fn table(&self) -> [u64; 4] {
        debug_assert!(self.sum_a2 == self.sum_a && self.sum_b2 == self.sum_b, "0/1 outcomes");
        let n10 = ((self.sum_d2 + self.sum_d) / 2) as u64;
        let n01 = ((self.sum_d2 - self.sum_d) / 2) as u64;
        let n11 = self.sum_a as u64 - n10;
        [n11, n10, n01, self.trials - n11 - n10 - n01]
    }

    /// The normal interval of a mean, or the bounded one when the sample has no spread.
    fn mean_ci(&self, s: i64, s2: i64, low: i64, high: i64) -> Interval {
        let n = self.trials.max(1) as f64;
        let mean = s as f64 / n;
        let var = self.variance(s, s2);
        if self.trials >= 2 && var > 0.0 {
            let h = Z95 * (var / n).sqrt();
            return Interval { low: (mean - h).max(low as f64), high: (mean + h).min(high as f64) };
        }
        if self.trials == 0 {
            return Interval { low: low as f64, high: high as f64 };
        }
        let q = wilson95(0, self.trials).high;
        Interval { low: mean - (mean - low as f64) * q, high: mean + (high as f64 - mean) * q }
    }

    pub fn summary(&self) -> PairedSummary {
        let n = self.trials.max(1) as f64;
        let (a, b, d) = (self.sum_a as f64 / n, self.sum_b as f64 / n, self.sum_d as f64 / n);
        let (a_interval, b_interval, difference_interval) = match self.scale {
            Scale::Proportion => {
                let [n11, n10, n01, n00] = self.table();
                (
                    wilson95(self.sum_a as u64, self.trials),
                    wilson95(self.sum_b as u64, self.trials),
                    newcombe_paired(n11, n10, n01, n00, Z95),
                )
            }
            Scale::Range { low, high } => (
                self.mean_ci(self.sum_a, self.sum_a2, low, high),
                self.mean_ci(self.sum_b, self.sum_b2, low, high),
                self.mean_ci(self.sum_d, self.sum_d2, low - high, high - low),
            ),
        };
        let independent_interval = difference(a, a_interval, b, b_interval);
        PairedSummary {
            trials: self.trials,
            a,
            b,
            difference: d,
            a_interval,
            b_interval,
            difference_interval,
            independent_interval,
            exact: false,
        }
    }

    /// The contrast `sa·mean(A) − sb·mean(B)` for constant scales `sa`, `sb` > 0 (such as
    /// 100 over each side's cost) and its paired 95% interval: for 0/1 outcomes
    /// [`super::newcombe::newcombe_paired_contrast`] (Newcombe's method 10 with each
    /// side's Wilson limits scaled); for bounded means the normal interval of the
    /// per-trial contrast, whose variance sa²·var(A) + sb²·var(B) − 2·sa·sb·cov(A, B) the
    /// sums give (Σab = (Σa² + Σb² − Σd²)/2), or, when that sample has no spread, the
    /// square-and-add of the two scaled bounded intervals (no correlation assumed).
    pub fn contrast(&self, (sa, sb): (f64, f64)) -> (f64, Interval) {
        let n = self.trials.max(1) as f64;
        let value = sa * self.sum_a as f64 / n - sb * self.sum_b as f64 / n;
        let interval = match self.scale {
            Scale::Proportion => {
                let [n11, n10, n01, n00] = self.table();
                newcombe_paired_contrast(n11, n10, n01, n00, (sa, sb), Z95)
            }
            Scale::Range { low, high } => {
                let (va, vb) = (self.variance(self.sum_a, self.sum_a2), self.variance(self.sum_b, self.sum_b2));
                let cov = if self.trials < 2 {
                    0.0
                } else {
                    let sab = (self.sum_a2 as i128 + self.sum_b2 as i128 - self.sum_d2 as i128) / 2;
                    let num = self.trials as i128 * sab - self.sum_a as i128 * self.sum_b as i128;
                    num as f64 / (n * (n - 1.0))
                };
                let var = (sa * sa * va + sb * sb * vb - 2.0 * sa * sb * cov).max(0.0);
                if self.trials >= 2 && var > 0.0 {
                    let h = Z95 * (var / n).sqrt();
                    Interval { low: value - h, high: value + h }
                } else {
                    let scale = |i: Interval, s: f64| Interval { low: s * i.low, high: s * i.high };
                    let a = scale(self.mean_ci(self.sum_a, self.sum_a2, low, high), sa);
                    let b = scale(self.mean_ci(self.sum_b, self.sum_b2, low, high), sb);
                    difference(sa * self.sum_a as f64 / n, a, sb * self.sum_b as f64 / n, b)
                }
            }
        };
        (value, interval)
    }

    /// Half-width of the paired 95% interval of the difference (for `--precision`).
    pub fn paired_half_width(&self) -> f64 {
        self.summary().paired_ci().half_width()
    }
}

/// Means and their 95% intervals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedSummary {
    pub trials: u64,
    pub a: f64,
    pub b: f64,
    /// mean(A) − mean(B), the same from paired or independent estimates.
    pub difference: f64,
    pub a_interval: Interval,
    pub b_interval: Interval,
    /// The paired interval of the difference.
    pub difference_interval: Interval,
    /// The interval two independent runs of this size would give.
    pub independent_interval: Interval,
    /// Exact values (no sampling): every interval has zero width.
    pub exact: bool,
}

impl PairedSummary {
    /// 95% interval of the difference from the pairs.
    pub fn paired_ci(&self) -> Interval {
        self.difference_interval
    }
    /// 95% interval two independent runs of this size would give.
    pub fn independent_ci(&self) -> Interval {
        self.independent_interval
    }
    pub fn a_ci(&self) -> Interval {
        self.a_interval
    }
    pub fn b_ci(&self) -> Interval {
        self.b_interval
    }

    /// Exact values: intervals of zero width.
    pub fn exact(a: f64, b: f64) -> PairedSummary {
        let point = |x: f64| Interval { low: x, high: x };
        PairedSummary {
            trials: 0,
            a,
            b,
            difference: a - b,
            a_interval: point(a),
            b_interval: point(b),
            difference_interval: point(a - b),
            independent_interval: point(a - b),
            exact: true,
        }
    }

    /// Combine matchups with weights (≥ 0) into one overall comparison: weighted means,
    /// and intervals by MOVER from the matchups' intervals (matchups are simulated
    /// independently of each other; see [`super::newcombe::weighted`]).
    pub fn weighted(parts: &[(f64, PairedSummary)]) -> PairedSummary {
        let combine = |f: &dyn Fn(&PairedSummary) -> (f64, Interval)| {
            let v: Vec<(f64, f64, Interval)> = parts
                .iter()
                .map(|(w, s)| {
                    let (x, i) = f(s);
                    (*w, x, i)
                })
                .collect();
            weighted(&v).unwrap_or((f64::NAN, Interval { low: f64::NAN, high: f64::NAN }))
        };
        let (a, a_interval) = combine(&|s| (s.a, s.a_interval));
        let (b, b_interval) = combine(&|s| (s.b, s.b_interval));
        let (difference, difference_interval) = combine(&|s| (s.difference, s.difference_interval));
        let (_, independent_interval) = combine(&|s| (s.difference, s.independent_interval));
        PairedSummary {
            trials: parts.iter().map(|(_, s)| s.trials).sum(),
            a,
            b,
            difference,
            a_interval,
            b_interval,
            difference_interval,
            independent_interval,
            exact: parts.iter().all(|(_, s)| s.exact),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(scale: Scale, pairs: &[(i64, i64)]) -> PairedTally {
        let mut t = PairedTally::new(scale);
        for &(a, b) in pairs {
            t.add(a, b);
        }
        t
    }

    #[test]
    fn identical_outcomes_still_get_an_honest_interval() {
        let s = tally(Scale::Proportion, &[(0, 0), (1, 1), (1, 1), (0, 0), (1, 1)]).summary();
        assert_eq!(s.difference, 0.0);
        let p = s.paired_ci();
        assert!(p.low < 0.0 && p.high > 0.0 && p.low == -p.high, "{p:?}");
        assert!(p.half_width() < s.independent_ci().half_width());
    }

    #[test]
    fn proportions_at_zero_and_one_never_collapse() {
        // The case: 0 wins of 100 000 on both sides.
        let mut t = PairedTally::new(Scale::Proportion);
        t.trials = 100_000;
        let s = t.summary();
        assert_eq!((s.a_ci().low, s.b_ci().low), (0.0, 0.0));
        assert!(s.a_ci().high > 0.0 && s.a_ci().high < 1e-4, "{:?}", s.a_ci());
        assert!(s.paired_ci().low < 0.0 && s.paired_ci().high > 0.0);
        // all ones; A always, B never; tiny counts
        for n in [1usize, 2, 5] {
            let ones = tally(Scale::Proportion, &vec![(1, 1); n]).summary();
            assert_eq!(ones.a_ci().high, 1.0);
            assert!(ones.a_ci().low < 1.0 && ones.paired_ci().half_width() > 0.0, "n = {n}");
            let apart = tally(Scale::Proportion, &vec![(1, 0); n]).summary();
            assert_eq!(apart.difference, 1.0);
            let d = apart.paired_ci();
            assert!(d.low < 1.0 && d.high == 1.0 && (d.low > 0.0) == (n >= 2), "n = {n}: {d:?}");
        }
    }

    #[test]
    fn the_table_is_recovered_from_the_sums() {
        let t = tally(Scale::Proportion, &[(1, 1), (1, 0), (1, 0), (0, 1), (0, 0), (0, 0), (0, 0)]);
        assert_eq!(t.table(), [1, 2, 1, 3]);
    }

    #[test]
    fn a_bounded_mean_with_no_spread_gets_a_bounded_interval() {
        // turns to kill in [1, 21], every run killed on turn 3 for both builds
        let scale = Scale::Range { low: 1, high: 21 };
        for n in [1usize, 2, 5, 1000] {
            let s = tally(scale, &vec![(3, 3); n]).summary();
            let q = wilson95(0, n as u64).high;
            let (a, d) = (s.a_ci(), s.paired_ci());
            assert!((a.low - (3.0 - 2.0 * q)).abs() < 1e-12 && (a.high - (3.0 + 18.0 * q)).abs() < 1e-12, "{a:?}");
            assert!((d.low + 20.0 * q).abs() < 1e-12 && (d.high - 20.0 * q).abs() < 1e-12, "{d:?}");
        }
        // with spread: the normal interval
        let s = tally(scale, &[(1, 2), (2, 2), (3, 2), (4, 2)]).summary();
        let half = Z95 * (5.0f64 / 3.0 / 4.0).sqrt();
        assert!((s.a_ci().half_width() - half).abs() < 1e-12);
    }

    #[test]
    fn swapping_negates_exactly() {
        let pairs = [(1, 0), (0, 0), (1, 1), (0, 1), (1, 0)];
        let ab = tally(Scale::Proportion, &pairs);
        let ba = tally(Scale::Proportion, &pairs.map(|(a, b)| (b, a)));
        let (x, y) = (ab.summary(), ba.summary());
        assert_eq!(x.difference, -y.difference);
        assert_eq!(x.paired_ci().low, -y.paired_ci().high);
        assert_eq!(x.paired_ci().high, -y.paired_ci().low);
    }

    #[test]
    fn weights_average_as_the_arithmetic_says() {
        let x = tally(Scale::Proportion, &[(1, 0), (1, 0)]);
        let y = tally(Scale::Proportion, &[(0, 0), (0, 1)]);
        let w = PairedSummary::weighted(&[(3.0, x.summary()), (1.0, y.summary())]);
        assert_eq!(w.a, 0.75);
        assert_eq!(w.b, 0.125);
        assert_eq!(w.difference, (3.0 * 1.0 + 1.0 * -0.5) / 4.0);
        assert!(w.paired_ci().contains(w.difference));
        let e =
            PairedSummary::weighted(&[(1.0, PairedSummary::exact(2.0, 3.0)), (1.0, PairedSummary::exact(4.0, 4.0))]);
        assert_eq!((e.difference, e.paired_ci().half_width(), e.exact), (-0.5, 0.0, true));
    }

    #[test]
    fn a_contrast_of_means_reads_the_covariance_from_the_sums() {
        let scale = Scale::Range { low: 0, high: 10 };
        let pairs = [(1, 2), (3, 3), (2, 5), (6, 4), (4, 4), (2, 1)];
        let t = tally(scale, &pairs);
        // Equal scales: the paired interval of the difference, scaled.
        let (d, i) = t.contrast((2.0, 2.0));
        let s = t.summary();
        assert!((d - 2.0 * s.difference).abs() < 1e-12);
        assert!((i.low - 2.0 * s.paired_ci().low).abs() < 1e-9 && (i.high - 2.0 * s.paired_ci().high).abs() < 1e-9);
        // Unequal scales: the normal interval of the per-trial values 3a − b.
        let (sa, sb) = (3.0, 1.0);
        let v: Vec<f64> = pairs.iter().map(|&(a, b)| sa * a as f64 - sb * b as f64).collect();
        let n = v.len() as f64;
        let mean = v.iter().sum::<f64>() / n;
        let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let (c, ci) = t.contrast((sa, sb));
        assert!((c - mean).abs() < 1e-12);
        assert!((ci.half_width() - Z95 * (var / n).sqrt()).abs() < 1e-9, "{ci:?}");
    }
}
