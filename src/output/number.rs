//! How a float reads in every output: table text, CSV, Parquet and JSON. Two contracts,
//! kept here so that no command can break them on its own.
//!
//! - **No negative zero.** `-0.0` (from `0.0 * -1.0`, `-x / y` with `x = 0`, ...) is
//!   written as `0` in CSV and JSON, as `0.0` in Parquet, and a value that rounds to zero
//!   at the printed precision prints unsigned (`0.000`, never `-0.000`). [`Cell`]'s
//!   writers and the Parquet exporter apply [`positive_zero`]; JSON built outside a
//!   table goes through [`tidy_json`].
//! - **No float noise.** A value one or two units in the last place from a short decimal
//!   (`0.36000000000000004`, a sum of `0.12`s) is written as that decimal (`0.36`) by
//!   [`tidy`]: rounded to [`TIDY_DIGITS`] significant digits, and kept so only when that
//!   leaves at most [`SHORT_DIGITS`]. The change is below 5e-16 relative, under the
//!   rounding of the arithmetic itself, so a Monte Carlo estimate times its trials still
//!   reads back as its exact count; every other value keeps every bit. [`Cell`]'s
//!   writers, the Parquet exporter and [`tidy_json`] apply it to every float.
//! - **Exact values read as decimals.** A value computed exactly (odds, exact
//!   time-to-kill laws, exact duel results, per-action expectations) carries the
//!   rounding noise of its floating-point arithmetic (`0.5500000000000002`). Where such
//!   a value enters an output it is rounded to [`EXACT_DIGITS`] significant digits by
//!   [`exact`], so it prints as the shortest decimal at that precision (`0.55`). The
//!   arithmetic behind an exact value loses a few units in the last place per step
//!   (about 1e-16 relative each); the rounding moves a value by at most 5e-14 relative,
//!   so checks of exact values to 1e-12 still hold for values up to 20.
//!
//!   Monte Carlo estimates (counts over trials) and their intervals are **never**
//!   rounded: they keep every bit, so `estimate * trials` reads back as the exact count.
//!   The code that puts a value in a table decides which kind it is: `Cell::exact` (one
//!   value), `Table::round_exact` (a table whose every number is exact), `tidy_json`
//!   with `exact = true` (a JSON document whose every number is exact).
//!
//! [`Cell`]: super::Cell

use serde_json::Value;

/// Significant digits an exact value keeps in outputs.
pub const EXACT_DIGITS: usize = 14;

/// Significant digits [`tidy`] rounds to: every f64 is within 5e-16 relative of its
/// 15-digit rounding.
const TIDY_DIGITS: usize = 15;
/// The most significant digits a rounding by [`tidy`] may leave for it to be kept: a
/// value whose 15-digit rounding ends in two or more zeros was noise around a shorter
/// decimal.
const SHORT_DIGITS: usize = 13;

/// `v` without float noise and never `-0.0`: its rounding to [`TIDY_DIGITS`] significant
/// digits when that has at most [`SHORT_DIGITS`] (`0.5399999999999999` gives `0.54`),
/// else `v` unchanged (`0.010724719651761264` stays). NaN and infinities unchanged.
pub fn tidy(v: f64) -> f64 {
    let v = positive_zero(v);
    if !v.is_finite() || v == 0.0 || !may_be_noise(v) {
        return v;
    }
    let r: f64 = format!("{:.*e}", TIDY_DIGITS - 1, v).parse().expect("a formatted float parses");
    if r != v && significant_digits(r) <= SHORT_DIGITS { r } else { v }
}

/// Whether [`tidy`] may move the finite `v`, from its shortest round-trip digits alone
/// (no allocation): false when `tidy(v) == v` for certain.
///
/// - At most [`TIDY_DIGITS`] digits: the rounding to [`TIDY_DIGITS`] digits is those
///   digits (no other decimal of as few digits lies as close: decimals of 15 digits are
///   more than 4 units in the last place apart), which read back as `v`.
/// - More: the rounding keeps at most [`SHORT_DIGITS`] only if its 14th and 15th digits
///   are both 0. The shortest digits are within half a unit in the last place of `v`, so
///   those two digits differ from the rounding's by at most one unit of the 15th plus a
///   carry: only shortest digits 98, 99, 00 or 01 there can lead to 00.
fn may_be_noise(v: f64) -> bool {
    let mut buffer = ryu::Buffer::new();
    let text = buffer.format_finite(v);
    let mantissa = text.split(['e', 'E']).next().unwrap_or(text);
    let digits = mantissa.bytes().filter(u8::is_ascii_digit).skip_while(|&d| d == b'0');
    // Significant digits, trailing zeros included (they are dropped below).
    let mut count = 0usize;
    let mut last_nonzero = 0usize;
    let mut pair = 0u32;
    for d in digits {
        count += 1;
        if d != b'0' {
            last_nonzero = count;
        }
        if count == SHORT_DIGITS + 1 || count == SHORT_DIGITS + 2 {
            pair = pair * 10 + u32::from(d - b'0');
        }
    }
    last_nonzero > TIDY_DIGITS && matches!(pair, 98 | 99 | 0 | 1)
}

/// Significant digits of `v`'s shortest round-trip decimal.
fn significant_digits(v: f64) -> usize {
    let text = format!("{v:e}");
    let mantissa = text.split('e').next().unwrap_or("");
    mantissa.chars().filter(char::is_ascii_digit).count()
}

/// `v` with a negative zero made positive; every other value unchanged.
fn positive_zero(v: f64) -> f64 {
    if v == 0.0 { 0.0 } else { v }
}

/// An exact value rounded to [`EXACT_DIGITS`] significant digits (and never `-0.0`);
/// NaN and infinities unchanged.
pub fn exact(v: f64) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return positive_zero(v);
    }
    let rounded: f64 = format!("{:.*e}", EXACT_DIGITS - 1, v).parse().expect("a formatted float parses");
    positive_zero(rounded)
}

/// `v` rounded to `digits` significant digits (a value known only to that precision,
/// such as a root finder's result); non-finite values and zero unchanged but unsigned.
pub fn significant(v: f64, digits: usize) -> f64 {
    if !v.is_finite() || v == 0.0 || digits == 0 {
        return positive_zero(v);
    }
    let rounded: f64 = format!("{:.*e}", digits - 1, v).parse().expect("a formatted float parses");
    positive_zero(rounded)
}

/// `text`, a number formatted at a fixed precision, without the sign of a negative
/// value that rounds to zero ("-0.000" reads "0.000").
pub fn unsigned_zero_text(text: String) -> String {
    match text.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => text,
    }
}

/// Every float of a JSON document tidied by [`tidy`]; with `exact` (a document
/// whose every number is an exact value, such as `odds` or `duel --exact`), also
/// rounded by [`exact`]. Integers are never touched.
pub fn tidy_json(value: &mut Value, exact_values: bool) {
    match value {
        Value::Number(n) if n.is_f64() => {
            let v = n.as_f64().expect("an f64 number");
            let v = if exact_values { exact(v) } else { tidy(v) };
            if let Some(x) = serde_json::Number::from_f64(v) {
                *n = x;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| tidy_json(v, exact_values)),
        Value::Object(map) => map.values_mut().for_each(|v| tidy_json(v, exact_values)),
        _ => {}
    }
}

/// Most decimals [`decimals_apart`] gives.
const MAX_APART_DECIMALS: usize = 12;

/// The fewest decimals, from `min` up to 12, at which the distinct `values` (each times
/// `scale`) print differently and none that is not 0 prints as 0 (or -0): the precision
/// at which a list of figures can be told apart.
pub fn decimals_apart(values: &[f64], scale: f64, min: usize) -> usize {
    let mut d = min;
    while d < MAX_APART_DECIMALS {
        let text: Vec<String> = values.iter().map(|v| format!("{:.*}", d, v * scale)).collect();
        let zero = format!("{:.*}", d, 0.0);
        let apart = values.iter().enumerate().all(|(i, v)| {
            (*v == 0.0 || text[i].trim_start_matches('-') != zero)
                && values[i + 1..].iter().zip(&text[i + 1..]).all(|(w, t)| v == w || *t != text[i])
        });
        if apart {
            break;
        }
        d += 1;
    }
    d
}

/// `values` as plain text at [`decimals_apart`] (scale 1, at least `min` decimals).
pub fn texts_apart(values: &[f64], min: usize) -> Vec<String> {
    let d = decimals_apart(values, 1.0, min);
    values.iter().map(|x| format!("{x:.d$}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_values_print_differently_and_none_reads_as_zero() {
        assert_eq!(decimals_apart(&[0.4012, 0.4014], 100.0, 1), 2);
        assert_eq!(decimals_apart(&[0.5, 0.5], 100.0, 1), 1);
        assert_eq!(decimals_apart(&[0.00004], 100.0, 1), 3);
        assert_eq!(decimals_apart(&[-0.001, 0.001], 1.0, 2), 3);
        assert_eq!(texts_apart(&[14.0, 13.99, 14.01], 2), ["14.00", "13.99", "14.01"]);
        assert_eq!(texts_apart(&[0.0041, 0.0], 2), ["0.004", "0.000"]);
    }

    #[test]
    fn negative_zero_becomes_zero() {
        assert!(positive_zero(-0.0).is_sign_positive());
        assert_eq!(positive_zero(-1.5), -1.5);
        assert!(exact(-0.0).is_sign_positive());
        assert_eq!(unsigned_zero_text(format!("{:.3}", -0.0001)), "0.000");
        assert_eq!(unsigned_zero_text(format!("{:.3}", -0.0)), "0.000");
        assert_eq!(unsigned_zero_text(format!("{:.3}", -0.5)), "-0.500");
    }

    #[test]
    fn exact_values_lose_their_noise_and_nothing_else() {
        assert_eq!(format!("{}", exact(0.5500000000000002)), "0.55");
        assert_eq!(format!("{}", exact(0.14500000000000002)), "0.145");
        assert_eq!(format!("{}", exact(1.6666666666666665)), "1.6666666666667");
        assert_eq!(format!("{}", exact(0.008333333333333304)), "0.0083333333333333");
        assert_eq!(exact(0.7), 0.7);
        assert_eq!(exact(1e-30), 1e-30);
        assert_eq!(exact(123456.0), 123456.0);
        assert!(exact(f64::NAN).is_nan());
        assert_eq!(exact(f64::INFINITY), f64::INFINITY);
    }

    #[test]
    fn noise_around_short_decimals_goes_and_nothing_else_moves() {
        assert_eq!(format!("{}", tidy(0.5399999999999999)), "0.54");
        assert_eq!(format!("{}", tidy(0.36000000000000004)), "0.36");
        assert_eq!(format!("{}", tidy(0.0015000000000000005)), "0.0015");
        assert_eq!(format!("{}", tidy(-0.05000000000000001)), "-0.05");
        assert_eq!(tidy(0.010724719651761264), 0.010724719651761264);
        assert_eq!(tidy(1.0 / 3.0), 1.0 / 3.0);
        assert!(tidy(-0.0).is_sign_positive());
        // Monte Carlo estimates: k / n times n reads back as k
        for n in [7u64, 1000, 99_991, 1_000_003, 123_456_789] {
            for k in [0, 1, n / 3, n / 2, n - 1, n] {
                let p = tidy(k as f64 / n as f64);
                assert_eq!((p * n as f64).round() as u64, k, "{k}/{n}");
                assert!((p - k as f64 / n as f64).abs() <= 5e-16 * p, "{k}/{n}");
            }
        }
    }

    /// [`tidy`] without the digit check: the rounding and the read-back of every value.
    fn tidy_plain(v: f64) -> f64 {
        let v = positive_zero(v);
        if !v.is_finite() || v == 0.0 {
            return v;
        }
        let r: f64 = format!("{:.*e}", TIDY_DIGITS - 1, v).parse().expect("a formatted float parses");
        if r != v && significant_digits(r) <= SHORT_DIGITS { r } else { v }
    }

    #[test]
    fn the_digit_check_skips_only_values_tidy_leaves() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let mut values: Vec<f64> = Vec::new();
        // Short decimals (1 to 15 digits, scaled over many exponents) and the doubles up
        // to 3 units in the last place either side: the noise tidy removes, and values
        // just past it.
        for _ in 0..20_000 {
            let digits = rng.random_range(1..=15u32);
            let m = rng.random_range(1..10u64.pow(digits)) as f64;
            let e = rng.random_range(-20..=20i32);
            let short: f64 = format!("{m}e{e}").parse().unwrap();
            let (mut up, mut down) = (short, short);
            values.push(short);
            for _ in 0..3 {
                up = up.next_up();
                down = down.next_down();
                values.extend([up, down]);
            }
        }
        // Arbitrary finite doubles, Monte Carlo estimates and their sums.
        for _ in 0..40_000 {
            let v = f64::from_bits(rng.random::<u64>());
            if v.is_finite() {
                values.push(v);
            }
            let n = rng.random_range(1..2_000_000u64);
            let k = rng.random_range(0..=n);
            values.extend([k as f64 / n as f64, -(k as f64) / n as f64, (k as f64 / n as f64) * 3.0 + 0.1]);
        }
        values.extend([0.1 + 0.2, 0.5399999999999999, 0.36000000000000004, 1e300, 5e-324, -0.0, 0.0]);
        let mut moved = 0;
        for &v in &values {
            let plain = tidy_plain(v);
            assert_eq!(tidy(v).to_bits(), plain.to_bits(), "{v:e}");
            moved += (plain.to_bits() != positive_zero(v).to_bits()) as usize;
        }
        // The set holds values tidy moves, so the check is tried on both sides.
        assert!(moved > 10_000, "{moved} of {} values moved", values.len());
    }

    #[test]
    fn json_floats_are_tidied_and_integers_left_alone() {
        let mut j = serde_json::json!({ "a": -0.0, "b": [0.5500000000000102, 3], "c": { "d": -0.0 } });
        tidy_json(&mut j, false);
        assert_eq!(j["b"][0].as_f64(), Some(0.5500000000000102), "not noise: kept");
        assert!(j["a"].as_f64().unwrap().is_sign_positive() && j["c"]["d"].as_f64().unwrap().is_sign_positive());
        assert!(j["b"][1].is_u64());
        tidy_json(&mut j, true);
        assert_eq!(j.to_string(), r#"{"a":0.0,"b":[0.55000000000001,3],"c":{"d":0.0}}"#);
        let mut j = serde_json::json!([0.5500000000000002]);
        tidy_json(&mut j, false);
        assert_eq!(j.to_string(), "[0.55]");
    }
}
