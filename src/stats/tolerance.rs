//! Statistical test tolerances, in one place, each justified.
//!
//! Monte Carlo results are checked against exact values with confidence bounds, not
//! loose tolerances. When a test makes `m` comparisons, each is a two-sided test at level
//! `FAMILY_ALPHA / m` (Bonferroni), so the chance that a correct kernel fails the whole
//! test is at most `FAMILY_ALPHA`. Counts are tested with the exact binomial test
//! ([`super::binomial`]): normal intervals (Wald, even Wilson) under-cover in the far
//! tail, where a count expected to be 0.1 is routine in a time-to-kill table. Tests use fixed seeds, so a pass is stable; a
//! wrong kernel (one target number off, a missed reset) moves probabilities by far more
//! than these bounds at the trial counts used, which the tests' negative controls show.

/// Family-wise false-alarm rate of a Monte Carlo-vs-exact test: 1 in 10 000.
pub const FAMILY_ALPHA: f64 = 1e-4;

/// The upper `p` quantile of the standard normal, Φ⁻¹(1 − p), for 0 < p < 1.
///
/// P. J. Acklam's rational approximation, relative error below 1.15e-9: far finer than
/// any bound it sets here needs.
fn normal_upper_quantile(p: f64) -> f64 {
    assert!(p > 0.0 && p < 1.0, "p = {p}");
    -inverse_normal_cdf(p)
}

/// z for a two-sided bound with `m` Bonferroni-corrected comparisons at family level `alpha`.
pub fn bonferroni_z(alpha: f64, m: usize) -> f64 {
    normal_upper_quantile(alpha / (2.0 * m.max(1) as f64))
}

fn inverse_normal_cdf(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e+01,
        2.209460984245205e+02,
        -2.759285104469687e+02,
        1.383_577_518_672_69e+02,
        -3.066479806614716e+01,
        2.506628277459239e+00,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e+01,
        1.615858368580409e+02,
        -1.556989798598866e+02,
        6.680131188771972e+01,
        -1.328068155288572e+01,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e+00,
        -2.549732539343734e+00,
        4.374664141464968e+00,
        2.938163982698783e+00,
    ];
    const D: [f64; 4] = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
    let low = 0.02425;
    if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_quantiles() {
        assert!((normal_upper_quantile(0.025) - 1.959_963_984_540_054).abs() < 1e-6);
        assert!((normal_upper_quantile(0.5)).abs() < 1e-9);
        assert!((normal_upper_quantile(1e-6) - 4.753_424_308_822_899).abs() < 1e-5);
        assert!((bonferroni_z(0.05, 1) - 1.959_963_984_540_054).abs() < 1e-6);
    }
}
