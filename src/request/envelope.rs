//! A range envelope: the condition `range` given as several ranges at once, for the
//! commands that average over them (on the command line `duel`, `compare` without
//! `--battle`, `battle` and `fit`), and how results over it are averaged and each side's best
//! range found.
//!
//! # Syntax (`--range`, and the `range` condition of a [`Setting`])
//! - one range, `12`: no envelope (every command as before);
//! - a list, `6,12,24`: those ranges, in the order given;
//! - a band, `3..30`: every whole range from 3 to 30, or `3..30:3` every third one
//!   (3, 6, ..., 30: the low end, then steps of STEP up to the high end); bands and single
//!   ranges mix in a list (`1,3..9:3,24`).
//!
//! Every range is a value of the ruleset's `range` axis, no range twice, at most
//! [`MAX_RANGES`]. Weights (`--range-weights 1,2,1`, condition [`WEIGHTS`]): one number of
//! at least 0 per range, in the same order, with a positive sum; without them every range
//! counts the same. Weights are relative (`1,2,1` is `0.25,0.5,0.25`).

use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::rules::axis::{AxisSpec, Point};
pub use crate::stats::estimate::{Best, Estimate, average, best};
use crate::sweep::run::all_specs;

use super::setting::Setting;

pub use super::setting::WEIGHTS;
pub use crate::rules::axis::RANGE_AXIS;
/// The most ranges an envelope holds (every range is a cell per matchup).
pub const MAX_RANGES: usize = 64;

/// Several ranges and their weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Canonical range values (the axis's text), at least two, no two alike, in the
    /// order given.
    pub ranges: Vec<String>,
    /// Each range's weight, normalised to add to 1 (equal without weights given).
    pub weights: Vec<f64>,
}

/// The canonical ranges of `text` (module docs), in order.
///
/// # Errors
/// A message naming `--range` and the offending item: an empty item, a value that is not
/// a range of `spec`, a malformed band (no high end, high below low, a step not above 0),
/// a range given twice, or more than [`MAX_RANGES`] ranges.
pub fn parse_ranges(spec: &AxisSpec, text: &str) -> std::result::Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let too_many = |n: usize| format!("--range {text}: {n} ranges, more than the {MAX_RANGES} an envelope takes");
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(format!("--range {text}: an empty item (give ranges separated by commas, e.g. 6,12,24)"));
        }
        let values = match item.split_once("..") {
            None => vec![spec.canonical(item).map_err(|e| format!("--range: `{item}`: {e}"))?],
            Some((low, rest)) => band(spec, item, low, rest)?,
        };
        for v in values {
            if out.contains(&v) {
                return Err(format!("--range {text}: range {v} is given twice"));
            }
            out.push(v);
            if out.len() > MAX_RANGES {
                return Err(too_many(out.len()));
            }
        }
    }
    Ok(out)
}

/// The ranges of band `item` (`LOW..HIGH` or `LOW..HIGH:STEP`), canonical.
fn band(spec: &AxisSpec, item: &str, low: &str, rest: &str) -> std::result::Result<Vec<String>, String> {
    let bad = |why: &str| format!("--range: band `{item}`: {why} (write LOW..HIGH or LOW..HIGH:STEP, e.g. 3..30:3)");
    let (high, step) = match rest.split_once(':') {
        Some((h, s)) => (h, Some(s)),
        None => (rest, None),
    };
    let end = |t: &str| -> std::result::Result<f64, String> {
        let c = spec.canonical(t).map_err(|e| format!("--range: band `{item}`: {e}"))?;
        c.parse::<f64>().map_err(|_| bad("its ends must be numbers"))
    };
    let (lo, hi) = (end(low)?, end(high)?);
    let step = match step {
        None => 1.0,
        Some(s) => match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => x,
            _ => return Err(bad(&format!("step `{}` is not a number above 0", s.trim()))),
        },
    };
    if hi < lo {
        return Err(bad("the high end is below the low end"));
    }
    // Ranges are read to 9 decimals, so a step such as 0.1 lands on its values exactly.
    let n = ((hi - lo) / step + 1e-9).floor() + 1.0;
    if n > MAX_RANGES as f64 {
        return Err(format!("--range: band `{item}` holds {n} ranges, more than the {MAX_RANGES} an envelope takes"));
    }
    (0..n as usize)
        .map(|i| {
            let v = ((lo + i as f64 * step) * 1e9).round() / 1e9;
            spec.canonical(&format!("{v}")).map_err(|e| format!("--range: band `{item}`: {e}"))
        })
        .collect()
}

/// The canonical text of a `--range` value: one range's canonical value, or the ranges
/// of an envelope joined by commas (bands written out).
///
/// # Errors
/// As [`parse_ranges`].
pub fn canonical_text(spec: &AxisSpec, text: &str) -> std::result::Result<String, String> {
    Ok(parse_ranges(spec, text)?.join(","))
}

/// Weights from `text` for `n` ranges, normalised to add to 1.
///
/// # Errors
/// A message naming `--range-weights` and the offending item: a value that is not a
/// finite number of at least 0, a count other than `n`, or weights adding to 0.
pub fn parse_weights(text: &str, n: usize) -> std::result::Result<Vec<f64>, String> {
    let mut w = Vec::new();
    for item in text.split(',').map(str::trim) {
        match item.parse::<f64>() {
            Ok(x) if x.is_finite() && x >= 0.0 => w.push(x),
            _ => return Err(format!("--range-weights: `{item}` is not a weight (a number of at least 0)")),
        }
    }
    if w.len() != n {
        return Err(format!(
            "--range-weights {text}: {} weights for {n} ranges (give one per range, in order)",
            w.len()
        ));
    }
    let total: f64 = w.iter().sum();
    if total <= 0.0 {
        return Err(format!("--range-weights {text}: the weights add to 0"));
    }
    Ok(w.into_iter().map(|x| x / total).collect())
}

impl Envelope {
    /// The envelope of a range text and optional weights text for axis `spec`; `None`
    /// for a single range without weights.
    ///
    /// # Errors
    /// As [`parse_ranges`] and [`parse_weights`]; weights for a single range.
    pub fn parse(
        spec: &AxisSpec,
        ranges: &str,
        weights: Option<&str>,
    ) -> std::result::Result<Option<Envelope>, String> {
        let ranges = parse_ranges(spec, ranges)?;
        if ranges.len() < 2 {
            return match weights {
                None => Ok(None),
                Some(w) => {
                    Err(format!("--range-weights {w}: weights go with a list or band of ranges (--range 6,12,24)"))
                }
            };
        }
        let weights = match weights {
            Some(w) => parse_weights(w, ranges.len())?,
            None => vec![1.0 / ranges.len() as f64; ranges.len()],
        };
        Ok(Some(Envelope { ranges, weights }))
    }

    /// The ranges in words, `6, 12, 24` and, with unequal weights, `(weights 0.25, 0.5,
    /// 0.25)`.
    pub fn describe(&self) -> String {
        let equal = self.weights.iter().all(|w| *w == self.weights[0]);
        let weights: Vec<String> =
            self.weights.iter().map(|w| format!("{}", crate::output::number::exact(*w))).collect();
        let w = if equal { ", equal weights".to_string() } else { format!(", weights {}", weights.join(", ")) };
        format!("ranges {}{w}", self.ranges.join(", "))
    }
}

impl Setting {
    /// The range envelope of the conditions, when `range` holds several ranges.
    ///
    /// # Errors
    /// (usage) As [`Envelope::parse`].
    pub fn envelope<R: Ruleset>(&self) -> Result<Option<Envelope>> {
        let text = |name: &str| self.conditions.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.as_str());
        let weights = text(WEIGHTS);
        let Some(ranges) = text(RANGE_AXIS) else {
            return match weights {
                Some(w) => Err(Error::usage(format!("--range-weights {w}: weights go with a list or band of ranges"))),
                None => Ok(None),
            };
        };
        let specs = all_specs::<R>();
        let Some(spec) = specs.iter().find(|s| s.name == RANGE_AXIS) else { return Ok(None) };
        Envelope::parse(spec, ranges, weights).map_err(Error::usage)
    }

    /// This setting at one range of an envelope: `range` set to `range`, no weights.
    pub fn at_range(&self, range: &str) -> Setting {
        let mut s = self.clone();
        s.conditions.retain(|(n, _)| *n != RANGE_AXIS && *n != WEIGHTS);
        s.conditions.push((RANGE_AXIS, range.to_string()));
        s
    }

    /// The conditions' points with their weights: one per range of an envelope (in its
    /// order), else the one point with weight 1. Each is checked as
    /// [`Setting::engagement_conditions`] checks it.
    ///
    /// # Errors
    /// (usage) As [`Setting::envelope`] and [`Setting::engagement_conditions`].
    pub fn weighted_points<R: Ruleset>(&self) -> Result<Vec<(Point, f64)>> {
        match self.envelope::<R>()? {
            None => {
                self.engagement_conditions::<R>()?;
                Ok(vec![(self.point::<R>()?, 1.0)])
            }
            Some(e) => e
                .ranges
                .iter()
                .zip(&e.weights)
                .map(|(r, w)| {
                    let s = self.at_range(r);
                    s.engagement_conditions::<R>()?;
                    Ok((s.point::<R>()?, *w))
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::axis::AxisKind;

    const INT: AxisSpec = AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 0, max: 100 },
        default: "12",
        help: "",
        duel_help: "",
        label: "Range",
        unit: "hexes",
    };

    fn number(t: &str) -> std::result::Result<f64, String> {
        match t.parse::<f64>() {
            Ok(x) if x >= 0.0 => Ok(x),
            _ => Err("a number of at least 0".into()),
        }
    }

    const NUM: AxisSpec = AxisSpec { kind: AxisKind::Number { parse: number }, ..INT };

    #[test]
    fn lists_bands_and_steps_parse_to_canonical_ranges() {
        assert_eq!(parse_ranges(&INT, "12").unwrap(), ["12"]);
        assert_eq!(parse_ranges(&INT, " 6, 12 ,24").unwrap(), ["6", "12", "24"]);
        assert_eq!(parse_ranges(&INT, "3..6").unwrap(), ["3", "4", "5", "6"]);
        assert_eq!(parse_ranges(&INT, "3..30:9").unwrap(), ["3", "12", "21", "30"]);
        assert_eq!(parse_ranges(&INT, "3..31:9").unwrap(), ["3", "12", "21", "30"]);
        assert_eq!(parse_ranges(&INT, "1,3..9:3,24").unwrap(), ["1", "3", "6", "9", "24"]);
        assert_eq!(parse_ranges(&NUM, "1..1.3:0.1").unwrap(), ["1", "1.1", "1.2", "1.3"]);
        assert_eq!(parse_ranges(&NUM, "26.5,06").unwrap(), ["26.5", "6"]);
        assert_eq!(canonical_text(&INT, "3..5").unwrap(), "3,4,5");
        assert_eq!(canonical_text(&INT, "007").unwrap(), "7");
    }

    #[test]
    fn bad_ranges_name_the_flag_and_the_item() {
        for (text, says) in [
            ("6,,12", "empty item"),
            ("6,x", "`x`"),
            ("6,101", "`101`"),
            ("30..3", "high end is below"),
            ("3..30:0", "step `0`"),
            ("3..30:-1", "step `-1`"),
            ("3..", "band `3..`"),
            ("6,6", "range 6 is given twice"),
            ("1..9,5", "range 5 is given twice"),
            ("0..100", "101 ranges"),
            ("1..30,50..100", "more than the 64"),
        ] {
            let e = parse_ranges(&INT, text).expect_err(text);
            assert!(e.starts_with("--range") && e.contains(says), "{text}: {e}");
        }
        // The limit counts every range of the envelope, bands and lists together.
        let within: Vec<String> = (0..64).map(|i| i.to_string()).collect();
        assert_eq!(parse_ranges(&INT, &within.join(",")).unwrap().len(), MAX_RANGES);
        let over: Vec<String> = (0..65).map(|i| i.to_string()).collect();
        assert!(parse_ranges(&INT, &over.join(",")).unwrap_err().contains("more than the 64"));
        assert!(parse_ranges(&INT, "0..63").is_ok() && parse_ranges(&INT, "0..64").is_err());
    }

    #[test]
    fn weights_are_relative_and_checked() {
        assert_eq!(parse_weights("1,2,1", 3).unwrap(), [0.25, 0.5, 0.25]);
        assert_eq!(parse_weights("0,3", 2).unwrap(), [0.0, 1.0]);
        for (text, n, says) in
            [("1,2", 3, "2 weights for 3"), ("1,-1", 2, "`-1`"), ("1,x", 2, "`x`"), ("0,0", 2, "add to 0")]
        {
            let e = parse_weights(text, n).expect_err(text);
            assert!(e.starts_with("--range-weights") && e.contains(says), "{text}: {e}");
        }
        let e = Envelope::parse(&INT, "6,12", Some("1,3")).unwrap().unwrap();
        assert_eq!((e.ranges.clone(), e.weights.clone()), (vec!["6".into(), "12".into()], vec![0.25, 0.75]));
        assert_eq!(e.describe(), "ranges 6, 12, weights 0.25, 0.75");
        assert_eq!(Envelope::parse(&INT, "6,12", None).unwrap().unwrap().describe(), "ranges 6, 12, equal weights");
        assert_eq!(Envelope::parse(&INT, "12", None).unwrap(), None);
        assert!(Envelope::parse(&INT, "12", Some("1")).unwrap_err().contains("--range-weights"));
    }

    #[test]
    fn a_setting_with_an_envelope_gives_weighted_points_and_no_single_point() {
        use crate::rules::techcommander::TechCommander;
        let setting = |c: &[(&'static str, &str)]| Setting {
            conditions: c.iter().map(|(n, v)| (*n, v.to_string())).collect(),
            ..Setting::default()
        };
        let s = setting(&[("cover", "half"), (RANGE_AXIS, "6,12..18:6"), (WEIGHTS, "1,2,1")]);
        let e = s.envelope::<TechCommander>().unwrap().unwrap();
        assert_eq!((e.ranges, e.weights), (vec!["6".into(), "12".into(), "18".into()], vec![0.25, 0.5, 0.25]));
        let points = s.weighted_points::<TechCommander>().unwrap();
        let got: Vec<(&str, &str, f64)> = points.iter().map(|(p, w)| (p.get("range"), p.get("cover"), *w)).collect();
        assert_eq!(got, [("6", "half", 0.25), ("12", "half", 0.5), ("18", "half", 0.25)]);
        // Each point is the single-range setting's point.
        assert_eq!(points[1].0, s.at_range("12").point::<TechCommander>().unwrap());
        let refused = s.point::<TechCommander>().unwrap_err();
        assert!(refused.is_usage() && refused.to_string().contains("--range 6,12,18"), "{refused}");
        // One range: no envelope, the one point with weight 1.
        let one = setting(&[(RANGE_AXIS, "12")]);
        assert_eq!(one.envelope::<TechCommander>().unwrap(), None);
        assert_eq!(one.weighted_points::<TechCommander>().unwrap(), [(one.point::<TechCommander>().unwrap(), 1.0)]);
        // Weights without several ranges, and bad items, are usage errors.
        for bad in [
            setting(&[(WEIGHTS, "1")]),
            setting(&[(RANGE_AXIS, "12"), (WEIGHTS, "1")]),
            setting(&[(RANGE_AXIS, "6,12"), (WEIGHTS, "1,2,3")]),
            setting(&[(RANGE_AXIS, "6,-1")]),
        ] {
            assert!(bad.envelope::<TechCommander>().is_err_and(|e| e.is_usage()), "{bad:?}");
        }
    }
}
