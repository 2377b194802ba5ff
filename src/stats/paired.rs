//! Paired comparisons: integer sums of per-trial outcomes of A, of B, and of their
//! difference, so the paired interval (from the differences) and the interval two
//! independent runs would give (from the marginal variances) are both measured.

use super::interval::{Interval, Z95};

/// Sums over trials of an integer outcome x (A), y (B) and d = x − y.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairedTally {
    pub trials: u64,
    pub sum_a: i64,
    pub sum_a2: i64,
    pub sum_b: i64,
    pub sum_b2: i64,
    pub sum_d: i64,
    pub sum_d2: i64,
}

impl PairedTally {
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

    pub fn summary(&self) -> PairedSummary {
        let n = self.trials.max(1) as f64;
        let (a, b, d) = (self.sum_a as f64 / n, self.sum_b as f64 / n, self.sum_d as f64 / n);
        let (va, vb, vd) = (
            self.variance(self.sum_a, self.sum_a2),
            self.variance(self.sum_b, self.sum_b2),
            self.variance(self.sum_d, self.sum_d2),
        );
        PairedSummary {
            trials: self.trials,
            a,
            a_var_of_mean: va / n,
            b,
            b_var_of_mean: vb / n,
            difference: d,
            paired_var_of_mean: vd / n,
            independent_var_of_mean: (va + vb) / n,
        }
    }

    /// Half-width of the paired 95% interval of the difference (for `--precision`).
    pub fn paired_half_width(&self) -> f64 {
        self.summary().paired_ci().half_width()
    }
}

/// Means and the variances of their estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairedSummary {
    pub trials: u64,
    pub a: f64,
    pub a_var_of_mean: f64,
    pub b: f64,
    pub b_var_of_mean: f64,
    /// mean(A) − mean(B), the same from paired or independent estimates.
    pub difference: f64,
    /// Var of the mean difference from the paired differences.
    pub paired_var_of_mean: f64,
    /// Var of the mean difference had A and B been run independently (Var A + Var B).
    pub independent_var_of_mean: f64,
}

impl PairedSummary {
    fn ci(centre: f64, var: f64) -> Interval {
        let h = Z95 * var.sqrt();
        Interval { low: centre - h, high: centre + h }
    }
    /// 95% interval of the difference from the paired differences.
    pub fn paired_ci(&self) -> Interval {
        Self::ci(self.difference, self.paired_var_of_mean)
    }
    /// 95% interval two independent runs of this size would give.
    pub fn independent_ci(&self) -> Interval {
        Self::ci(self.difference, self.independent_var_of_mean)
    }
    pub fn a_ci(&self) -> Interval {
        Self::ci(self.a, self.a_var_of_mean)
    }
    pub fn b_ci(&self) -> Interval {
        Self::ci(self.b, self.b_var_of_mean)
    }

    /// Combine matchups with weights into one overall comparison: weighted means, and
    /// variances Σ w² var / (Σ w)² (matchups are simulated independently of each other).
    pub fn weighted(parts: &[(f64, PairedSummary)]) -> PairedSummary {
        let total: f64 = parts.iter().map(|(w, _)| w).sum();
        let mean = |f: &dyn Fn(&PairedSummary) -> f64| parts.iter().map(|(w, s)| w * f(s)).sum::<f64>() / total;
        let var =
            |f: &dyn Fn(&PairedSummary) -> f64| parts.iter().map(|(w, s)| w * w * f(s)).sum::<f64>() / (total * total);
        PairedSummary {
            trials: parts.iter().map(|(_, s)| s.trials).sum(),
            a: mean(&|s| s.a),
            a_var_of_mean: var(&|s| s.a_var_of_mean),
            b: mean(&|s| s.b),
            b_var_of_mean: var(&|s| s.b_var_of_mean),
            difference: mean(&|s| s.difference),
            paired_var_of_mean: var(&|s| s.paired_var_of_mean),
            independent_var_of_mean: var(&|s| s.independent_var_of_mean),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_outcomes_have_zero_paired_variance() {
        let mut t = PairedTally::default();
        for x in [0, 1, 1, 0, 1] {
            t.add(x, x);
        }
        let s = t.summary();
        assert_eq!(s.difference, 0.0);
        assert_eq!(s.paired_ci().half_width(), 0.0);
        assert!(s.independent_ci().half_width() > 0.0);
    }

    #[test]
    fn swapping_negates_exactly() {
        let pairs = [(1, 0), (0, 0), (1, 1), (0, 1), (1, 0)];
        let (mut ab, mut ba) = (PairedTally::default(), PairedTally::default());
        for (a, b) in pairs {
            ab.add(a, b);
            ba.add(b, a);
        }
        assert_eq!(ab.summary().difference, -ba.summary().difference);
        assert_eq!(ab.summary().paired_var_of_mean, ba.summary().paired_var_of_mean);
    }

    #[test]
    fn weights_average_as_the_arithmetic_says() {
        let mut x = PairedTally::default();
        x.add(1, 0);
        x.add(1, 0);
        let mut y = PairedTally::default();
        y.add(0, 0);
        y.add(0, 1);
        let w = PairedSummary::weighted(&[(3.0, x.summary()), (1.0, y.summary())]);
        assert_eq!(w.a, 0.75);
        assert_eq!(w.b, 0.125);
        assert_eq!(w.difference, (3.0 * 1.0 + 1.0 * -0.5) / 4.0);
    }
}
