//! The checks every output goes through, collected as problems so that one test run
//! lists every breach on every ruleset at once.

use std::path::Path;

use serde_json::Value;

use super::Run;

/// Significant digits an exact output may print (`volley::output::number::EXACT_DIGITS`).
const EXACT_DIGITS: usize = volley::output::number::EXACT_DIGITS;

/// Breaches of the contract found so far.
#[derive(Debug, Default)]
pub struct Problems(Vec<String>);

impl Problems {
    pub fn new() -> Problems {
        Problems::default()
    }

    pub fn add(&mut self, what: impl Into<String>) {
        self.0.push(what.into());
    }

    /// Panic listing every problem, if there is any.
    pub fn finish(self) {
        assert!(self.0.is_empty(), "{} contract breaches:\n- {}", self.0.len(), self.0.join("\n- "));
    }

    /// The run exited 0; then its stdout (and stderr) pass [`Problems::numbers`].
    /// Returns whether it succeeded.
    pub fn ok(&mut self, run: &Run, exact: bool) -> bool {
        if run.code != Some(0) {
            self.add(format!("{}: exit {:?}, expected 0: {}", run.what, run.code, first_line(&run.stderr)));
            return false;
        }
        self.numbers(&run.what, &run.stdout, exact);
        true
    }

    /// The run succeeded with JSON on stdout holding every key of `keys` (in its top
    /// object, or in each row of a top array); its intervals are checked.
    pub fn ok_json(&mut self, run: &Run, exact: bool, keys: &[&str]) -> Option<Value> {
        if !self.ok(run, exact) {
            return None;
        }
        let Some(j) = run.json() else {
            self.add(format!("{}: stdout is not JSON", run.what));
            return None;
        };
        let rows: Vec<&Value> = match &j {
            Value::Array(a) => a.iter().collect(),
            v => vec![v],
        };
        if rows.is_empty() {
            self.add(format!("{}: an empty JSON array", run.what));
        }
        for (i, row) in rows.iter().enumerate() {
            let missing: Vec<&&str> = keys.iter().filter(|k| row.get(**k).is_none()).collect();
            if !missing.is_empty() {
                self.add(format!("{}: JSON row {i} lacks the common keys {missing:?}", run.what));
            }
        }
        self.json_intervals(&run.what, &j);
        Some(j)
    }

    /// A command the ruleset does not have: exit 2, saying so.
    pub fn not_available(&mut self, run: &Run) {
        if run.code != Some(2) || !run.stderr.contains("not available for") {
            self.add(format!(
                "{}: exit {:?}, expected 2 with \"not available for ...\": {}",
                run.what,
                run.code,
                first_line(&run.stderr)
            ));
        }
    }

    /// No `-0` and no float noise in `text`; with `exact`, no number with more than
    /// [`EXACT_DIGITS`] significant digits.
    pub fn numbers(&mut self, what: &str, text: &str, exact: bool) {
        let mut bad = Vec::new();
        for t in number_tokens(text) {
            let v: f64 = match t.parse() {
                Ok(v) => v,
                Err(_) => continue,
            };
            let digits = significant_digits(t);
            if t.starts_with('-') && v == 0.0 {
                bad.push(format!("negative zero `{t}`"));
            } else if is_noise(t) {
                bad.push(format!("float noise `{t}`"));
            } else if exact && digits > EXACT_DIGITS {
                bad.push(format!("exact value `{t}` has {digits} significant digits"));
            }
        }
        if !bad.is_empty() {
            let n = bad.len();
            bad.truncate(3);
            self.add(format!("{what}: {n} bad numbers, first {}", bad.join(", ")));
        }
    }

    /// Every `K_ci95: [low, high]` beside an estimate `K` (a number, an array of numbers
    /// beside an array of pairs, or an object of numbers beside an object of pairs with
    /// the same keys) holds it, within [0, 1] when `K` is a probability.
    pub fn json_intervals(&mut self, what: &str, j: &Value) {
        match j {
            Value::Array(a) => a.iter().for_each(|v| self.json_intervals(what, v)),
            Value::Object(m) => {
                for (k, v) in m {
                    if let Some(est_key) = k.strip_suffix("_ci95") {
                        let est = m.get(est_key).unwrap_or(&Value::Null);
                        match (est, v) {
                            (Value::Number(e), Value::Array(p)) => {
                                self.interval(what, est_key, e.as_f64(), p.first(), p.get(1))
                            }
                            (Value::Array(es), Value::Array(ps)) => {
                                for (e, p) in es.iter().zip(ps) {
                                    self.interval(what, est_key, e.as_f64(), p.get(0), p.get(1));
                                }
                            }
                            (Value::Object(es), Value::Object(ps)) => {
                                for (name, e) in es {
                                    let p = ps.get(name).unwrap_or(&Value::Null);
                                    self.interval(what, est_key, e.as_f64(), p.get(0), p.get(1));
                                }
                            }
                            _ => {}
                        }
                    }
                    self.json_intervals(what, v);
                }
            }
            _ => {}
        }
    }

    fn interval(&mut self, what: &str, name: &str, est: Option<f64>, lo: Option<&Value>, hi: Option<&Value>) {
        let (Some(e), Some(lo), Some(hi)) = (est, lo.and_then(Value::as_f64), hi.and_then(Value::as_f64)) else {
            return;
        };
        self.bounds(what, name, e, lo, hi);
    }

    fn bounds(&mut self, what: &str, name: &str, e: f64, lo: f64, hi: f64) {
        if !(lo <= e && e <= hi) {
            self.add(format!("{what}: `{name}` = {e} outside its 95% interval [{lo}, {hi}]"));
        }
        if is_probability(name) && !(0.0 <= lo && hi <= 1.0) {
            self.add(format!("{what}: probability `{name}`'s 95% interval [{lo}, {hi}] leaves [0, 1]"));
        }
    }

    /// A CSV text: numbers as [`Problems::numbers`] (columns named in `exact` or
    /// starting with `exact_` held to the exact contract), and every interval pair of
    /// columns (`K_ci95_low`/`K_ci95_high` beside `K`; bare `ci95_low`/`ci95_high` beside
    /// the column before them) holding its estimate.
    pub fn csv(&mut self, what: &str, text: &str, exact: &dyn Fn(&str) -> bool) {
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = match r.headers() {
            Ok(h) => h.iter().map(String::from).collect(),
            Err(e) => return self.add(format!("{what}: not CSV: {e}")),
        };
        let mut pairs = Vec::new();
        for (i, c) in header.iter().enumerate() {
            let Some(base) = c.strip_suffix("ci95_low") else { continue };
            let Some(hi) = header.iter().position(|h| *h == format!("{base}ci95_high")) else { continue };
            let est = match base.strip_suffix('_') {
                Some(name) => header.iter().position(|h| h == name),
                None if i > 0 => Some(i - 1),
                None => None,
            };
            if let Some(e) = est {
                pairs.push((e, i, hi));
            }
        }
        let exact_cols: Vec<bool> = header.iter().map(|h| h.starts_with("exact_") || exact(h)).collect();
        // Bad cells per column: (count, the first one's problem).
        let mut per_column: Vec<(usize, String)> = vec![(0, String::new()); header.len()];
        for (n, rec) in r.records().enumerate() {
            let Ok(rec) = rec else { return self.add(format!("{what}: row {n} is not CSV")) };
            for (i, cell) in rec.iter().enumerate() {
                let mut one = Problems::new();
                one.numbers(&format!("row {n}"), cell, exact_cols[i]);
                if let Some(first) = one.0.into_iter().next() {
                    if per_column[i].0 == 0 {
                        per_column[i].1 = first;
                    }
                    per_column[i].0 += 1;
                }
            }
            for &(e, lo, hi) in &pairs {
                let num = |i: usize| rec.get(i).and_then(|c| c.parse::<f64>().ok());
                if let (Some(ev), Some(l), Some(h)) = (num(e), num(lo), num(hi)) {
                    self.bounds(&format!("{what} row {n}"), &header[e], ev, l, h);
                }
            }
        }
        for (i, (count, first)) in per_column.into_iter().enumerate() {
            if count > 0 {
                self.add(format!("{what}: column `{}`: {count} bad cells, first {first}", header[i]));
            }
        }
    }

    /// Every CSV table of a report directory, as [`Problems::csv`]; the tables named in
    /// `exact_tables` hold exact values only. Returns the table names found.
    pub fn report_dir(&mut self, what: &str, dir: &Path, exact_tables: &[&str]) -> Vec<String> {
        let mut names = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            self.add(format!("{what}: no report directory {}", dir.display()));
            return names;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "csv") {
                let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                let all_exact = exact_tables.contains(&name.as_str());
                let text = std::fs::read_to_string(&p).unwrap();
                self.csv(&format!("{what}: {name}.csv"), &text, &|_| all_exact);
                names.push(name);
            }
        }
        if let Ok(m) = std::fs::read_to_string(dir.join("manifest.json")) {
            self.numbers(&format!("{what}: manifest.json"), &m, false);
        }
        names.sort();
        names
    }
}

/// The first line of a message.
pub fn first_line(s: &str) -> &str {
    s.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
}

/// A column or key holding a probability.
fn is_probability(name: &str) -> bool {
    name.starts_with("p_") || name.contains("_p_") || name == "probability"
}

/// The numbers written in `text`: maximal runs of digits with an optional sign, decimal
/// point and exponent that are not part of a word (`d10`, `75mm`, `ci95`) and whose sign
/// is not a dash between two words or numbers (`2-3`, `84.2%-85.1%`).
pub fn number_tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let prev = if i > 0 { Some(b[i - 1]) } else { None };
        let free = prev.is_none_or(|p| !(word(p) || matches!(p, b'.' | b'%' | b')' | b'-' | b'+')));
        let sign = b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        if !(free && (sign || b[i].is_ascii_digit())) {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while i < b.len() {
            let c = b[i];
            let exp = matches!(c, b'e' | b'E')
                && (b.get(i + 1).is_some_and(u8::is_ascii_digit)
                    || (b.get(i + 1) == Some(&b'-') && b.get(i + 2).is_some_and(u8::is_ascii_digit)));
            if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
                i += 1;
            } else if exp {
                i += if b[i + 1] == b'-' { 2 } else { 1 };
            } else {
                break;
            }
        }
        if b.get(i).is_none_or(|&c| !word(c)) {
            out.push(&text[start..i]);
        }
    }
    out
}

/// Significant digits of a decimal token (leading and trailing zeros not counted).
fn significant_digits(t: &str) -> usize {
    let mantissa = t.split(['e', 'E']).next().unwrap_or("");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    digits.trim_start_matches('0').trim_end_matches('0').len()
}

/// Float noise: 15 or more significant digits ending in a run of at least six 0s or 9s
/// and one to three other digits (`0.5500000000000002`, `0.14999999999999997`).
fn is_noise(t: &str) -> bool {
    if significant_digits(t) < 15 {
        return false;
    }
    let mantissa = t.split(['e', 'E']).next().unwrap_or("");
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let tail_end = digits.len();
    for tail in 1..=3 {
        if tail_end < tail + 6 {
            break;
        }
        let run = &digits[tail_end - tail - 6..tail_end - tail];
        if run.iter().all(|&d| d == b'0') || run.iter().all(|&d| d == b'9') {
            return true;
        }
    }
    false
}

#[test]
fn contract_checks_find_what_they_look_for() {
    assert_eq!(
        number_tokens("a -0.0, 2d10 75mm (-0.000) 84.2%-85.1% x1 0.5e-3 ci95 3"),
        ["-0.0", "-0.000", "84.2", "0.5e-3", "3"]
    );
    assert!(is_noise("0.5500000000000002") && is_noise("0.14999999999999997") && is_noise("1.0000000000000002"));
    assert!(!is_noise("0.7222222222222222") && !is_noise("0.55") && !is_noise("0.010724719651761264"));
    assert_eq!(significant_digits("0.00833333333333"), 12);
    let mut p = Problems::new();
    p.numbers("t", "p = -0.0 and 0.5500000000000002", false);
    p.numbers("t", "0.7222222222222222", true);
    p.numbers("t", "0.722222222222 -0.5 0", true);
    p.csv("c", "p,p_ci95_low,p_ci95_high,q,ci95_low,ci95_high\n0.5,0.6,0.7,2,1,3\n", &|_| false);
    assert_eq!(p.0.len(), 3, "{:?}", p.0);
}
