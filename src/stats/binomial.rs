//! Exact binomial tail probabilities, for testing Monte Carlo counts against exact
//! probabilities without normal approximations (which fail in the far tails, where an
//! expected count can be 0.1).

/// ln Γ(x) for x > 0: Lanczos approximation (g = 7, n = 9; Numerical Recipes 3rd ed.
/// §6.1), relative error below 1e-15 over the range used.
fn ln_gamma(x: f64) -> f64 {
    const G: f64 = 7.0;
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + G + 0.5;
    for (i, &c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

/// ln P(X = k) for X ~ Binomial(n, p).
fn ln_pmf(k: u64, n: u64, p: f64) -> f64 {
    if p <= 0.0 {
        return if k == 0 { 0.0 } else { f64::NEG_INFINITY };
    }
    if p >= 1.0 {
        return if k == n { 0.0 } else { f64::NEG_INFINITY };
    }
    let (k, n) = (k as f64, n as f64);
    ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0) + k * p.ln() + (n - k) * (1.0 - p).ln()
}

/// Two-sided p-value of observing `k` of `n` when the true probability is `p`: twice
/// the smaller tail, at most 1.
fn two_sided_p_value(k: u64, n: u64, p: f64) -> f64 {
    assert!(k <= n);
    let mean = n as f64 * p;
    let tail = if (k as f64) <= mean { tail_sum(k, n, p, false) } else { tail_sum(k, n, p, true) };
    (2.0 * tail).min(1.0)
}

/// P(X <= k) (upper = false) or P(X >= k) (upper = true), summed outward from k until
/// the terms no longer matter.
fn tail_sum(k: u64, n: u64, p: f64, upper: bool) -> f64 {
    let mut sum = 0.0;
    let mut j = k;
    loop {
        let term = ln_pmf(j, n, p).exp();
        sum += term;
        if term < sum * 1e-17 || (upper && j == n) || (!upper && j == 0) {
            return sum;
        }
        j = if upper { j + 1 } else { j - 1 };
    }
}

/// Whether `k` of `n` is consistent with probability `p` at two-sided level `alpha`.
pub fn consistent(k: u64, n: u64, p: f64, alpha: f64) -> bool {
    two_sided_p_value(k, n, p.clamp(0.0, 1.0)) >= alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_gamma_known_values() {
        assert!((ln_gamma(1.0)).abs() < 1e-14);
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-13);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-13);
        // reference: Python math.lgamma(20001.0)
        assert!((ln_gamma(20001.0) - 178_075.621_737_198_7).abs() / 178_075.0 < 1e-13);
    }

    #[test]
    fn p_values() {
        // Bin(10, 0.5): P(X <= 1) = 11/1024
        assert!((two_sided_p_value(1, 10, 0.5) - 22.0 / 1024.0).abs() < 1e-14);
        assert_eq!(two_sided_p_value(5, 10, 0.5), 1.0);
        // a count of 2 when 0.1 is expected is unlikely; 0 is not
        assert!(two_sided_p_value(2, 20_000, 5e-6) < 0.01);
        assert!(two_sided_p_value(0, 20_000, 5e-6) > 0.5);
        assert!(!consistent(3, 10, 0.0, 1e-9));
        assert!(consistent(10, 10, 1.0, 1e-9));
    }
}
