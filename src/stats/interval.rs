//! Confidence intervals.
//!
//! References: E. B. Wilson (1927), "Probable inference, the law of succession, and
//! statistical inference", JASA 22:209-212; Brown, Cai & DasGupta (2001), "Interval
//! estimation for a binomial proportion", Statistical Science 16:101-133 (why Wilson and
//! not the Wald interval near 0 and 1).

/// The two-sided 95% normal quantile, Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// A closed interval [low, high].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
    /// `[low, high]` for JSON.
    pub fn pair(&self) -> [f64; 2] {
        [self.low, self.high]
    }
}

/// Wilson score interval for `successes` out of `trials` at normal quantile `z`.
/// With no trials the interval is [0, 1].
pub fn wilson(successes: u64, trials: u64, z: f64) -> Interval {
    wilson_bounded(successes, 1, trials, z)
}

/// Wilson score interval for the mean of `trials` scores, each an integer in
/// `0..=unit` (`unit` ≥ 1), that add up to `mass`, as a share of `unit` (in [0, 1]); with
/// `unit` = 1 it is [`wilson`] exactly. With no trials the interval is [0, 1].
///
/// For a bounded score the interval is conservative up to the normal approximation: a
/// score in [0, 1] with mean μ has variance at most μ(1 − μ), the Bernoulli variance
/// the score interval is solved with. The ends are exact at 0 and 1 (every score 0, or
/// every score `unit`).
pub fn wilson_bounded(mass: u64, unit: u64, trials: u64, z: f64) -> Interval {
    if trials == 0 {
        return Interval { low: 0.0, high: 1.0 };
    }
    let n = trials as f64;
    let full = (trials as u128) * (unit.max(1) as u128);
    let p = (mass as f64 / full as f64).min(1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // Exact ends at 0 and 1 (the formula gives them up to rounding).
    let low = if mass == 0 { 0.0 } else { (centre - half).max(0.0) };
    let high = if mass as u128 >= full { 1.0 } else { (centre + half).min(1.0) };
    Interval { low, high }
}

/// Wilson 95% interval.
pub fn wilson95(successes: u64, trials: u64) -> Interval {
    wilson(successes, trials, Z95)
}

/// Normal-approximation interval for a mean from exact integer moments:
/// `n` observations with sum `s` and sum of squares `s2`. `None` when n < 2.
pub fn mean_interval(n: u64, s: u128, s2: u128, z: f64) -> Option<(f64, Interval)> {
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean = s as f64 / nf;
    if n < 2 {
        return Some((mean, Interval { low: f64::NAN, high: f64::NAN }));
    }
    // Sample variance from exact integers: (n·s2 − s²) / (n(n−1)), computed in u128.
    let num = (n as u128) * s2 - s * s;
    let var = num as f64 / (nf * (nf - 1.0));
    let half = z * (var / nf).sqrt();
    Some((mean, Interval { low: mean - half, high: mean + half }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_reference_values() {
        // Brown, Cai & DasGupta's example scale: 10 of 100 at 95%.
        let i = wilson95(10, 100);
        assert!((i.low - 0.055_229).abs() < 1e-6, "{i:?}");
        assert!((i.high - 0.174_366).abs() < 1e-6, "{i:?}");
        let zero = wilson95(0, 50);
        assert_eq!(zero.low, 0.0);
        assert!((zero.high - 0.071_347_6).abs() < 1e-6);
        assert_eq!(wilson95(50, 50).high, 1.0);
    }

    #[test]
    fn mean_interval_from_integer_moments() {
        // values 1, 2, 3, 4: mean 2.5, sample variance 5/3
        let (mean, i) = mean_interval(4, 10, 30, Z95).unwrap();
        assert_eq!(mean, 2.5);
        let half = Z95 * (5.0f64 / 3.0 / 4.0).sqrt();
        assert!((i.half_width() - half).abs() < 1e-12);
        assert!(mean_interval(1, 3, 9, Z95).unwrap().1.low.is_nan());
        assert!(mean_interval(0, 0, 0, Z95).is_none());
    }
}
