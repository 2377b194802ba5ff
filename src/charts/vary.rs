//! Sensitivity sweeps on the report: for each varied stat (a `vary.ENTRY.FIELD` column,
//! listed in the manifest's `vary`), how each headline metric moves. One chart per
//! stat, small multiples: a panel per metric, the varied value across, one line per
//! build (the mean over the other columns: targets, conditions, other varied stats).
//! Exact columns are used where the tables have them.

use serde_json::Value;

use super::ReportTables;
use super::lines::{Line, LinePanels, Panel};
use super::page::Finding;
use super::render::{Chart, ChartKind};
use crate::output::percent::percent;

/// A headline metric: its table, the column naming the series, the value column and
/// how it is shown.
struct Metric {
    table: &'static str,
    series: &'static str,
    column: &'static str,
    label: &'static str,
    probability: bool,
    /// Only rows where this column is null (`cost_efficiency`'s build rows).
    null: Option<&'static str>,
}

const METRICS: [Metric; 5] = [
    Metric {
        table: "time_to_kill",
        series: "attacker",
        column: "exact_p_kill",
        label: "P(kill), exact",
        probability: true,
        null: None,
    },
    Metric {
        table: "time_to_kill",
        series: "attacker",
        column: "exact_mean_turns",
        label: "mean turns to kill, exact",
        probability: false,
        null: None,
    },
    Metric {
        table: "cost_efficiency",
        series: "attacker",
        column: "kill_points_per_turn_per_point",
        label: "kill points per turn per point, exact",
        probability: false,
        null: Some("weapon"),
    },
    Metric {
        table: "duels",
        series: "a",
        column: "p_a_wins",
        label: "P(A wins), Monte Carlo",
        probability: true,
        null: None,
    },
    Metric {
        table: "battles",
        series: "force_a",
        column: "p_a_wins",
        label: "P(A wins), Monte Carlo",
        probability: true,
        null: None,
    },
];

/// A varied value, the sum of a metric at it and the count of rows summed.
type Sum = (f64, f64, usize);

/// Mean of `m`'s column per (series, varied value) over the rows of its table; the
/// series in first-seen order, values ascending. Empty when the table or a column is
/// absent.
fn lines(tables: &ReportTables, m: &Metric, column: &str) -> Vec<Line> {
    let Some(t) = tables.get(m.table) else { return Vec::new() };
    let mut sums: Vec<(String, Vec<Sum>)> = Vec::new();
    for i in 0..t.rows.len() {
        if m.null.is_some_and(|c| t.text(i, c).is_some()) {
            continue;
        }
        let (Some(s), Some(x), Some(y)) = (t.text(i, m.series), t.float(i, column), t.float(i, m.column)) else {
            continue;
        };
        if !y.is_finite() {
            continue;
        }
        let series = match sums.iter_mut().position(|(n, _)| n == s) {
            Some(k) => &mut sums[k].1,
            None => {
                sums.push((s.to_string(), Vec::new()));
                &mut sums.last_mut().expect("pushed").1
            }
        };
        match series.iter_mut().find(|p| p.0 == x) {
            Some(p) => {
                p.1 += y;
                p.2 += 1;
            }
            None => series.push((x, y, 1)),
        }
    }
    sums.into_iter()
        .map(|(label, mut pts)| {
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            Line { label, points: pts.into_iter().map(|(x, s, n)| (x, s / n as f64)).collect() }
        })
        .collect()
}

/// The varied stats of a report: (column, entry, field), from its manifest.
fn varied(manifest: &Value) -> Vec<(String, String, String)> {
    manifest["vary"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| {
                    Some((
                        v["column"].as_str()?.to_string(),
                        v["entry"].as_str()?.to_string(),
                        v["field"].as_str()?.to_string(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The small multiples of every varied stat (none for a report without `[vary]`).
pub fn vary_charts(tables: &ReportTables, manifest: &Value) -> Vec<Chart> {
    varied(manifest)
        .into_iter()
        .filter_map(|(column, entry, field)| {
            let panels: Vec<Panel> = METRICS
                .iter()
                .map(|m| Panel { title: m.label.to_string(), probability: m.probability, lines: lines(tables, m, &column) })
                .filter(|p| !p.lines.is_empty())
                .collect();
            (!panels.is_empty()).then(|| Chart {
                name: format!("vary-{}", super::slug(&format!("{entry}-{field}"))),
                kind: ChartKind::Lines(LinePanels {
                    title: format!(
                        "Sensitivity to {entry} {field}: each build's headline metrics (mean over targets, opponents and conditions)"
                    ),
                    x_label: format!("{entry} {field}"),
                    panels,
                }),
                exact: false,
            })
        })
        .collect()
}

/// One finding per varied stat and headline metric: its mean over every build, target
/// and condition at each varied value (exact where the tables have exact columns).
pub fn findings(tables: &ReportTables, manifest: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    for (column, entry, field) in varied(manifest) {
        for m in &METRICS {
            let ls = lines(tables, m, &column);
            // Mean over series per value.
            let mut at: Vec<(f64, f64, usize)> = Vec::new();
            for l in &ls {
                for &(x, y) in &l.points {
                    match at.iter_mut().find(|p| p.0 == x) {
                        Some(p) => {
                            p.1 += y;
                            p.2 += 1;
                        }
                        None => at.push((x, y, 1)),
                    }
                }
            }
            if at.len() < 2 {
                continue;
            }
            at.sort_by(|a, b| a.0.total_cmp(&b.0));
            let steps: Vec<String> = at
                .iter()
                .map(|&(x, s, n)| {
                    let v = s / n as f64;
                    let shown = if m.probability { percent(v) } else { format!("{v:.3}") };
                    format!("{shown} at {}", super::axes::number_text(x))
                })
                .collect();
            out.push(format!(
                "**{entry} {field}**: {} (mean over builds, {} rows): {}.",
                m.label,
                m.table,
                steps.join(" → ")
            ));
        }
    }
    out
}

/// The tables restricted to each varied stat's first listed value, as the other charts
/// and findings show a report (as an axis the chart conditions leave out takes its first
/// value); `None` for a report without `[vary]`.
pub fn at_first_values(tables: &ReportTables, manifest: &Value) -> Option<ReportTables> {
    let firsts: Vec<(String, f64)> = manifest["vary"]
        .as_array()?
        .iter()
        .filter_map(|v| Some((v["column"].as_str()?.to_string(), v["values"].as_array()?.first()?.as_f64()?)))
        .collect();
    if firsts.is_empty() {
        return None;
    }
    let mut out = tables.clone();
    for (_, t) in &mut out.tables {
        let keep: Vec<bool> =
            (0..t.rows.len()).map(|i| firsts.iter().all(|(c, v)| t.float(i, c).is_none_or(|x| x == *v))).collect();
        let mut k = keep.iter();
        t.rows.retain(|_| *k.next().expect("one flag per row"));
    }
    Some(out)
}
