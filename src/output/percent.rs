//! One format for probabilities and their intervals, everywhere volley prints them
//! (compare, gauntlet, charts).
//!
//! A probability prints as a percentage with one decimal ("84.3%"). Exactly 0 and 1
//! print as "0%" and "100%"; any other value gets as many more decimals as it needs not
//! to read as 0 or 100 ("0.004%", "99.996%"). An interval prints both ends with the
//! fewest decimals (at least one) that tell distinct ends apart ("84.21%-84.24%"), so an
//! interval never collapses to one number unless its ends are equal.

/// Most decimals of a percentage: beyond this, f64 probabilities stop being meaningful.
const MAX_DECIMALS: usize = 12;

/// `p` (a probability, 0..=1) as a percentage with `decimals` decimals.
fn with_decimals(p: f64, decimals: usize) -> String {
    format!("{:.*}%", decimals, p * 100.0)
}

/// The fewest decimals (at least one) at which `p` reads as neither 0% nor 100% when
/// it is neither.
fn decimals_for(p: f64) -> usize {
    let mut d = 1;
    while d < MAX_DECIMALS {
        let zero = format!("{:.*}", d, 0.0);
        let hundred = format!("{:.*}", d, 100.0);
        let text = format!("{:.*}", d, p * 100.0);
        let ok = (p == 0.0 || text != zero) && (p == 1.0 || text != hundred);
        if ok {
            break;
        }
        d += 1;
    }
    d
}

/// A probability as a percentage ("84.3%", "0%", "0.004%", "100%"); "-" for NaN.
pub fn percent(p: f64) -> String {
    if p.is_nan() {
        return "-".into();
    }
    if p == 0.0 {
        return "0%".into();
    }
    if p == 1.0 {
        return "100%".into();
    }
    with_decimals(p, decimals_for(p))
}

/// An exact probability (one computed, not estimated) as a percentage with no decimals
/// when it is a whole percentage, as every d20 hit chance is (a multiple of 5%), so a
/// printed odds card reads "45%" rather than "45.0%"; any other value as [`percent`].
pub fn percent_exact(p: f64) -> String {
    let whole = (p * 100.0).round();
    if p.is_finite() && (p * 100.0 - whole).abs() < 1e-9 {
        return format!("{whole:.0}%");
    }
    percent(p)
}

/// An interval of probabilities, "low-high", with enough decimals that distinct ends
/// read differently (and neither end reads as 0% or 100% unless it is).
pub fn percent_interval(low: f64, high: f64) -> String {
    if low.is_nan() || high.is_nan() {
        return "-".into();
    }
    let mut d = decimals_for(low).max(decimals_for(high));
    let end = |p: f64, d: usize| if p == 0.0 || p == 1.0 { percent(p) } else { with_decimals(p, d) };
    while low != high && end(low, d) == end(high, d) && d < MAX_DECIMALS {
        d += 1;
    }
    format!("{}-{}", end(low, d), end(high, d))
}

/// A difference of probabilities (−1..=1) in percentage points, signed ("+1.2%",
/// "-0.004%", "0%"), with as many decimals as it needs not to read as 0 when it is not.
pub fn signed_percent(d: f64) -> String {
    if d.is_nan() {
        return "-".into();
    }
    if d == 0.0 {
        return "0%".into();
    }
    format!("{:+.*}%", decimals_for(d.abs()), d * 100.0)
}

/// An interval of differences, "low to high", signed, with enough decimals that
/// distinct ends read differently.
pub fn signed_percent_interval(low: f64, high: f64) -> String {
    if low.is_nan() || high.is_nan() {
        return "-".into();
    }
    let mut d = decimals_for(low.abs()).max(decimals_for(high.abs()));
    let end = |x: f64, d: usize| if x == 0.0 { "0%".to_string() } else { format!("{:+.*}%", d, x * 100.0) };
    while low != high && end(low, d) == end(high, d) && d < MAX_DECIMALS {
        d += 1;
    }
    format!("{} to {}", end(low, d), end(high, d))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_and_the_ends() {
        assert_eq!(percent(0.843), "84.3%");
        assert_eq!(percent(0.0), "0%");
        assert_eq!(percent(1.0), "100%");
        assert_eq!(percent(0.00004), "0.004%");
        assert_eq!(percent(0.99996), "99.996%");
        assert_eq!(percent(0.9995), "99.95%");
        assert_eq!(percent(f64::NAN), "-");
    }

    #[test]
    fn intervals_never_collapse_for_distinct_ends() {
        assert_eq!(percent_interval(0.8421, 0.8424), "84.21%-84.24%");
        assert_eq!(percent_interval(0.84, 0.85), "84.0%-85.0%");
        assert_eq!(percent_interval(0.0, 0.00003), "0%-0.003%");
        assert_eq!(percent_interval(0.99997, 1.0), "99.997%-100%");
        assert_eq!(percent_interval(0.5, 0.5), "50.0%-50.0%");
        for (low, high) in [(0.1234567, 0.1234568), (1e-9, 2e-9), (0.999_999_1, 0.999_999_2)] {
            let text = percent_interval(low, high);
            let (a, b) = text.split_once('-').unwrap();
            assert_ne!(a, b, "{text}");
        }
    }

    #[test]
    fn signed_differences() {
        assert_eq!(signed_percent(0.012), "+1.2%");
        assert_eq!(signed_percent(-0.00004), "-0.004%");
        assert_eq!(signed_percent(0.0), "0%");
        assert_eq!(signed_percent_interval(-0.0031, 0.027), "-0.3% to +2.7%");
        assert_eq!(signed_percent_interval(0.01231, 0.01234), "+1.231% to +1.234%");
    }

    #[test]
    fn the_same_value_reads_the_same_everywhere() {
        // a point value and an interval end at default precision agree
        assert_eq!(percent(0.843), percent_interval(0.843, 0.9).split_once('-').unwrap().0);
        assert_eq!(percent(0.999_96), percent_interval(0.5, 0.999_96).split_once('-').unwrap().1);
    }

    #[test]
    fn exact_whole_percentages_print_without_decimals() {
        assert_eq!(percent_exact(0.45), "45%");
        assert_eq!(percent_exact(0.05), "5%");
        assert_eq!(percent_exact(0.0), "0%");
        assert_eq!(percent_exact(1.0), "100%");
        assert_eq!(percent_exact(0.4525), percent(0.4525));
        assert_eq!(percent_exact(f64::NAN), "-");
    }
}
