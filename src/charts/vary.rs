//! Sensitivity sweeps on the report: for each varied stat (a `vary.ENTRY.FIELD` column,
//! listed in the manifest's `vary`), how each headline metric moves. One chart per
//! stat, small multiples: a panel per metric, the varied value across, one line per
//! build (the mean over the other columns: targets, conditions, other varied stats).
//! Exact columns are used where the tables have them.

use plotters::coord::Shift;
use plotters::prelude::*;
use serde_json::Value;

use super::ReportTables;
use super::page::Finding;
use super::render::{Chart, ChartKind};
use super::style::{FONT, Sizes, series_colour};
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

/// One line: a series' mean value at each varied value, in value order.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// One panel: a metric and its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub probability: bool,
    pub lines: Vec<Line>,
}

/// The small multiples of one varied stat.
#[derive(Debug, Clone, PartialEq)]
pub struct LinePanels {
    pub title: String,
    /// The varied stat, for the x axis (`Devastator damage`).
    pub x_label: String,
    pub panels: Vec<Panel>,
}

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

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

/// Draw the panels (three per row) inside `body`.
pub fn draw<DB: DrawingBackend>(body: &DrawingArea<DB, Shift>, c: &LinePanels) -> Result<(), String> {
    let n = c.panels.len().max(1);
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let cells = body.split_evenly((rows, cols));
    let xs: Vec<f64> =
        c.panels.iter().flat_map(|p| p.lines.iter().flat_map(|l| l.points.iter().map(|q| q.0))).collect();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let pad = if hi > lo { (hi - lo) * 0.08 } else { 1.0 };
    for (panel, area) in c.panels.iter().zip(cells.iter()) {
        let top = if panel.probability {
            1.0
        } else {
            panel.lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).fold(0.0, f64::max) * 1.1 + 1e-9
        };
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, (FONT, Sizes::label() as f64, FontStyle::Bold))
            .margin(Sizes::tick())
            .x_label_area_size(Sizes::label() * 2)
            .y_label_area_size(Sizes::label() * 3)
            .build_cartesian_2d(lo - pad..hi + pad, 0f64..top)
            .map_err(err)?;
        let probability = panel.probability;
        chart
            .configure_mesh()
            .x_desc(c.x_label.as_str())
            .axis_desc_style((FONT, Sizes::tick() as f64))
            .label_style((FONT, Sizes::tick() as f64 * 0.85))
            .y_label_formatter(&|v| if probability { format!("{:.0}%", v * 100.0) } else { format!("{v:.2}") })
            .x_label_formatter(&|v| super::axes::number_text(*v))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        let k = panel.lines.len();
        for (i, line) in panel.lines.iter().enumerate() {
            let colour = series_colour(i, k);
            let width = Sizes::tick() / 8;
            let marker = Sizes::tick() as i32 / 4;
            chart
                .draw_series(LineSeries::new(line.points.clone(), colour.stroke_width(width)))
                .map_err(err)?
                .label(line.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 3 * marker, y)], colour.stroke_width(width)));
            chart.draw_series(line.points.iter().map(|&p| Circle::new(p, marker, colour.filled()))).map_err(err)?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .label_font((FONT, Sizes::tick() as f64 * 0.8))
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .draw()
            .map_err(err)?;
    }
    Ok(())
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
