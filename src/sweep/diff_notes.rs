//! Balance patch notes as people read them: the per-build summary of a diff
//! ([`super::diff_summary`]) as an aligned table, as Markdown ready to paste into errata,
//! and as JSON.
//!
//! Numbers print with enough decimals that an old and a new value that differ read
//! differently, and a change or an interval end that is not 0 never reads as 0.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use crate::output::number::decimals_apart;
use crate::output::wording::cost;
use crate::output::{Cell, Table};
use crate::rules::Ruleset;
use crate::stats::Interval;

use super::diff::Diff;
use super::diff_summary::{BuildChange, Moved, Verdict};
use super::scenario::Engagement;

/// How a measure prints: percentages of probabilities, or plain numbers.
#[derive(Clone, Copy)]
enum Unit {
    Percent,
    Number,
}

impl Unit {
    fn scale(self) -> f64 {
        match self {
            Unit::Percent => 100.0,
            Unit::Number => 1.0,
        }
    }
    fn suffix(self) -> &'static str {
        match self {
            Unit::Percent => "%",
            Unit::Number => "",
        }
    }
    /// "old → new" (or the one value when they are equal).
    fn old_new(self, m: &Moved) -> String {
        // 1 for percentages so a probability other than 1 never reads as 100%.
        let reference: &[f64] = match self {
            Unit::Percent => &[1.0],
            Unit::Number => &[],
        };
        let values: Vec<f64> = [m.old, m.new].into_iter().chain(reference.iter().copied()).collect();
        let d = decimals_apart(&values, self.scale(), 1);
        let f =
            |v: f64| crate::output::number::unsigned_zero_text(format!("{:.*}{}", d, v * self.scale(), self.suffix()));
        if m.old == m.new { f(m.new) } else { format!("{} → {}", f(m.old), f(m.new)) }
    }
    /// The change, signed, and its interval ("exact" when it has zero width).
    fn change(self, m: &Moved) -> (String, String) {
        let ci = m.change_ci95;
        let d = decimals_apart(&[m.change, ci.low, ci.high], self.scale(), 1);
        let f = |v: f64| {
            if v == 0.0 {
                format!("0{}", self.suffix())
            } else {
                format!("{:+.*}{}", d, v * self.scale(), self.suffix())
            }
        };
        let interval = if ci.low == ci.high { "exact".to_string() } else { format!("{} to {}", f(ci.low), f(ci.high)) };
        (f(m.change), interval)
    }
}

/// "4" or "4 → 6".
fn cost_text(b: &BuildChange) -> String {
    match (b.cost_old, b.cost_new) {
        (Some(o), Some(n)) if o == n => cost(n),
        (Some(o), Some(n)) => format!("{} → {}", cost(o), cost(n)),
        _ => "-".into(),
    }
}

/// What the win rate is, per engagement.
fn win_meaning(e: Engagement) -> &'static str {
    match e {
        Engagement::Duel => "the chance it wins the duel",
        _ => "the chance it kills the target within the cap",
    }
}

/// What kill points per 100 cost are, per engagement.
fn kill_points_meaning<R: Ruleset>(e: Engagement) -> String {
    let unit = R::COST_UNIT;
    match e {
        Engagement::Duel => {
            format!("the opponent's {unit} it destroys per duel (won, or both destroyed) per 100 {unit} of its own")
        }
        _ => format!("the target's {unit} it destroys per {} spent per 100 {unit} of its own", R::TURN),
    }
}

/// The sentence under the title: what is ranked, over what, with which intervals.
pub fn preamble<R: Ruleset>(diff: &Diff) -> String {
    let cells = diff.summary.iter().map(|b| b.cells).max().unwrap_or(0);
    let intervals = match diff.engagement {
        Engagement::Duel => "paired 95% intervals (both catalogues play the same random numbers, trial by trial)",
        _ => "exact values (attack runs are solved exactly; no interval)",
    };
    format!(
        "{} of scenario {} ({}, {}), ranked by their largest change: in win rate ({}), or relative, in kill points per 100 {} ({}). Each value is the mean over the build's {}; {}. A change whose interval contains 0 is a tie (sidegrade); the verdict and the rank read the build's own change per cost (kill points per 100 {} with its opponents priced as in the new catalogue, the `own change` column: a change of their prices alone does not make it stronger or weaker; `moved by` says what moved).",
        crate::output::wording::count(diff.summary.len() as u64, "build"),
        diff.scenario,
        R::LABEL,
        diff.engagement.name(),
        win_meaning(diff.engagement),
        R::COST_UNIT,
        kill_points_meaning::<R>(diff.engagement),
        crate::output::wording::count(cells as u64, "matchup cell"),
        intervals,
        R::COST_UNIT,
    )
}

fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::Stronger => "stronger per cost",
        Verdict::Weaker => "weaker per cost",
        Verdict::Sidegrade => "sidegrade (tie)",
        Verdict::Unchanged => "unchanged",
    }
}

/// What moved a build: "cost, opponent costs", or "-" when nothing did.
fn moved_by_text(b: &BuildChange) -> String {
    if b.moved_by.is_empty() { "-".into() } else { b.moved_by.join(", ") }
}

/// The summary as an aligned table's rows (text cells), ranked: `rank`, `build`,
/// `verdict`, `cost (UNIT)`, `win rate`, its `change` and `95% interval`,
/// `kill points per 100 UNIT`, its `change` and `95% interval`, and the change the verdict
/// reads, `own change` (opponents priced as in the new catalogue) with its interval.
pub fn summary_table<R: Ruleset>(diff: &Diff) -> Table {
    let kp = format!("kill points per 100 {}", R::COST_UNIT);
    let mut t = Table::new([
        "rank",
        "build",
        "verdict",
        "moved by",
        &format!("cost ({})", R::COST_UNIT),
        "win rate",
        "change",
        "95% interval",
        &kp,
        "change",
        "95% interval",
        "own change",
        "95% interval",
    ]);
    for (i, b) in diff.summary.iter().enumerate() {
        let mut row: Vec<Cell> = vec![
            Cell::Int(i as i64 + 1),
            b.build.clone().into(),
            verdict_text(b.verdict).into(),
            moved_by_text(b).into(),
            cost_text(b).into(),
        ];
        for (m, unit) in [(b.win, Unit::Percent), (b.kill_points_per_100, Unit::Number)] {
            match m {
                Some(m) => {
                    let (change, interval) = unit.change(&m);
                    row.extend([unit.old_new(&m).into(), change.into(), interval.into()]);
                }
                None => row.extend(["-".into(), "-".into(), "-".into()]),
            }
        }
        match b.own_kill_points_per_100 {
            Some(m) => {
                let (change, interval) = Unit::Number.change(&m);
                row.extend([change.into(), interval.into()]);
            }
            None => row.extend(["-".into(), "-".into()]),
        }
        t.push(row);
    }
    t
}

/// Text for a Markdown table cell: markup characters as entities, backslash and bar
/// escaped.
fn md(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('\\', "\\\\").replace('|', "\\|")
}

/// The summary as Markdown ready to paste into errata: a heading, the preamble, a table
/// of every build that changed (ranked: build, cost old → new, win rate old → new, its
/// change with the 95% interval, kill points per 100 cost old → new, its change with
/// the interval, verdict), then the unchanged builds named in one line.
pub fn summary_markdown<R: Ruleset>(diff: &Diff) -> String {
    let unit = R::COST_UNIT;
    let mut out = format!("## Balance changes: {}\n\n{}\n\n", md(&diff.scenario), md(&preamble::<R>(diff)));
    let changed: Vec<&BuildChange> = diff.summary.iter().filter(|b| b.verdict != Verdict::Unchanged).collect();
    if changed.is_empty() {
        out += "No build changed.\n";
        return out;
    }
    let _ = writeln!(
        out,
        "| Build | Cost ({unit}) | Win rate | Change (95% interval) | Kill points per 100 {unit} | Change (95% interval) | Own change (95% interval) | Verdict |"
    );
    out += "|---|---:|---:|---:|---:|---:|---:|---|\n";
    let cells = |m: Option<Moved>, u: Unit| match m {
        Some(m) => {
            let (change, interval) = u.change(&m);
            (u.old_new(&m), format!("{change} ({interval})"))
        }
        None => ("-".into(), "-".into()),
    };
    for b in &changed {
        let (win, win_change) = cells(b.win, Unit::Percent);
        let (kp, kp_change) = cells(b.kill_points_per_100, Unit::Number);
        let (_, own_change) = cells(b.own_kill_points_per_100, Unit::Number);
        let _ = writeln!(
            out,
            "| {} | {} | {win} | {win_change} | {kp} | {kp_change} | {own_change} | {} |",
            md(&b.build),
            cost_text(b),
            verdict_text(b.verdict)
        );
    }
    let same: Vec<String> = diff
        .summary
        .iter()
        .filter(|b| b.verdict == Verdict::Unchanged)
        .map(|b| {
            if b.moved_by.is_empty() {
                md(&b.build)
            } else {
                format!("{} (moved by {} only)", md(&b.build), b.moved_by.join(", "))
            }
        })
        .collect();
    if !same.is_empty() {
        let _ = writeln!(out, "\nUnchanged: {}.", same.join(", "));
    }
    out
}

/// One build of the JSON `summary`.
#[derive(Serialize)]
struct SummaryJson<'a> {
    rank: usize,
    build: &'a str,
    /// `stronger`, `weaker`, `sidegrade`, `unchanged` (read per cost, on the build's own change).
    verdict: &'static str,
    /// What moved: `cost`, `results`, `opponent costs`.
    moved_by: &'a [&'static str],
    /// The rank key, in [0, 1].
    change_size: f64,
    /// Matchup cells the means are over.
    cells: usize,
    /// `exact` or `paired`.
    method: &'static str,
    cost_unit: &'static str,
    cost_old: Option<f64>,
    cost_new: Option<f64>,
    /// `p_kill` (attack runs) or `p_a_wins` (duels).
    win_metric: &'static str,
    win_rate_old: Option<f64>,
    win_rate_new: Option<f64>,
    win_rate_change: Option<f64>,
    win_rate_change_ci95: Option<[f64; 2]>,
    kill_points_per_100_old: Option<f64>,
    kill_points_per_100_new: Option<f64>,
    kill_points_per_100_change: Option<f64>,
    kill_points_per_100_change_ci95: Option<[f64; 2]>,
    /// The build's own change: opponents priced as in the new catalogue in both.
    own_kill_points_per_100_change: Option<f64>,
    own_kill_points_per_100_change_ci95: Option<[f64; 2]>,
}

/// The JSON `summary`: one object per build, ranked (largest change first), floats
/// without float noise (exact values rounded as exact values are).
pub fn summary_json<R: Ruleset>(diff: &Diff) -> Value {
    let pair = |i: Interval| [i.low, i.high];
    let rows: Vec<SummaryJson<'_>> = diff
        .summary
        .iter()
        .enumerate()
        .map(|(i, b)| SummaryJson {
            rank: i + 1,
            build: &b.build,
            verdict: b.verdict.name(),
            moved_by: &b.moved_by,
            change_size: b.change_size,
            cells: b.cells,
            method: diff.method(),
            cost_unit: R::COST_UNIT,
            cost_old: b.cost_old,
            cost_new: b.cost_new,
            win_metric: if diff.engagement == Engagement::Duel { "p_a_wins" } else { "p_kill" },
            win_rate_old: b.win.map(|m| m.old),
            win_rate_new: b.win.map(|m| m.new),
            win_rate_change: b.win.map(|m| m.change),
            win_rate_change_ci95: b.win.map(|m| pair(m.change_ci95)),
            kill_points_per_100_old: b.kill_points_per_100.map(|m| m.old),
            kill_points_per_100_new: b.kill_points_per_100.map(|m| m.new),
            kill_points_per_100_change: b.kill_points_per_100.map(|m| m.change),
            kill_points_per_100_change_ci95: b.kill_points_per_100.map(|m| pair(m.change_ci95)),
            own_kill_points_per_100_change: b.own_kill_points_per_100.map(|m| m.change),
            own_kill_points_per_100_change_ci95: b.own_kill_points_per_100.map(|m| pair(m.change_ci95)),
        })
        .collect();
    let mut v = serde_json::to_value(rows).expect("the summary serialises");
    // Means of exact values are exact values; paired ones lose only float noise.
    crate::output::number::tidy_json(&mut v, diff.engagement != Engagement::Duel);
    v
}

/// The diff as JSON: `summary`, the per-build patch notes ranked ([`summary_json`]), and
/// `rows`, every row ([`super::diff::rows_json`]).
pub fn diff_json<R: Ruleset>(diff: &Diff) -> Value {
    serde_json::json!({ "summary": summary_json::<R>(diff), "rows": super::diff::rows_json::<R>(&diff.rows) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_values_print_differently_and_changes_never_read_as_zero() {
        let m = Moved {
            old: 0.4012,
            new: 0.4014,
            change: 0.0002,
            change_ci95: Interval { low: 0.0001, high: 0.0003 },
            moved: true,
        };
        assert_eq!(Unit::Percent.old_new(&m), "40.12% → 40.14%");
        assert_eq!(Unit::Percent.change(&m), ("+0.02%".to_string(), "+0.01% to +0.03%".to_string()));
        let exact =
            Moved { old: 3.0, new: 2.5, change: -0.5, change_ci95: Interval { low: -0.5, high: -0.5 }, moved: true };
        assert_eq!(Unit::Number.old_new(&exact), "3.0 → 2.5");
        assert_eq!(Unit::Number.change(&exact), ("-0.5".to_string(), "exact".to_string()));
        let near_one = Moved {
            old: 0.99999,
            new: 1.0,
            change: 0.00001,
            change_ci95: Interval { low: 0.0, high: 0.00002 },
            moved: true,
        };
        assert_eq!(Unit::Percent.old_new(&near_one), "99.999% → 100.000%");
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        assert_eq!(md("A|B <x>"), "A\\|B &lt;x&gt;");
    }
}
