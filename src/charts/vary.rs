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
        label: "mean turns to kill, exact (runs that kill)",
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

/// One varied stat of a report, from its manifest.
struct Varied {
    column: String,
    entry: String,
    field: String,
    /// The catalogue entries that carry the varied entry (the entry itself, builds that
    /// list it, forces that list those); `None` in a manifest that does not record them.
    carriers: Option<Vec<String>>,
}

/// The varied stats of a report, from its manifest.
fn varied(manifest: &Value) -> Vec<Varied> {
    manifest["vary"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| {
                    Some(Varied {
                        column: v["column"].as_str()?.to_string(),
                        entry: v["entry"].as_str()?.to_string(),
                        field: v["field"].as_str()?.to_string(),
                        carriers: v["carriers"]
                            .as_array()
                            .map(|c| c.iter().filter_map(|n| n.as_str().map(str::to_string)).collect()),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The small multiples of every varied stat (none for a report without `[vary]`).
pub fn vary_charts(tables: &ReportTables, manifest: &Value) -> Vec<Chart> {
    varied(manifest)
        .into_iter()
        .filter_map(|Varied { column, entry, field, .. }| {
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

/// One finding per varied stat and headline metric: its mean at each varied value over
/// the builds that carry the varied entry (exact where the tables have exact columns),
/// each build's value first averaged over its targets, opponents and conditions. A
/// build that does not carry it is left out (its numbers move only through what it
/// faces); when no build in the table carries it (a varied target or opponent), the mean
/// is over every build, and the finding says so, as it does for a report that does not
/// record the carriers.
pub fn findings(tables: &ReportTables, manifest: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    for v in varied(manifest) {
        out.extend(efficiency_finding(tables, &v));
        let Varied { column, entry, field, carriers } = v;
        for m in &METRICS {
            let all = lines(tables, m, &column);
            let kept: Vec<&Line> = match &carriers {
                Some(c) => all.iter().filter(|l| c.contains(&l.label)).collect(),
                None => Vec::new(),
            };
            let builds = |n: usize| crate::output::wording::count(n as u64, "build");
            let (ls, over): (Vec<&Line>, String) = match (&carriers, kept.is_empty()) {
                (Some(_), false) => {
                    let names: Vec<&str> = kept.iter().map(|l| l.label.as_str()).collect();
                    let over = format!(
                        "mean over the {} of {} that carry it: {}",
                        builds(kept.len()),
                        all.len(),
                        names.join(", ")
                    );
                    (kept, over)
                }
                (Some(_), true) => {
                    let over = format!("mean over all {}; none carries {entry}, they face it", builds(all.len()));
                    (all.iter().collect(), over)
                }
                (None, _) => {
                    let over =
                        format!("mean over all {}; the report does not record which carry it", builds(all.len()));
                    (all.iter().collect(), over)
                }
            };
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
                "**{entry} {field}**: {} ({over}; each over its `{}` rows): {}.",
                m.label,
                m.table,
                steps.join(" → ")
            ));
        }
    }
    out
}

/// Per varied stat, the most and least efficient build per point at each varied value
/// and over the whole grid (every value): each build's mean of
/// `kill_points_per_turn_per_point` over its `cost_efficiency` build rows at that value
/// (other varied stats at any of theirs), and the mean of those over the values. Every
/// build is ranked, carrier or not: the ranking is between builds. `None` without the
/// column or with fewer than two builds.
fn efficiency_finding(tables: &ReportTables, v: &Varied) -> Option<Finding> {
    let m = METRICS.iter().find(|m| m.column == "kill_points_per_turn_per_point")?;
    let lines = lines(tables, m, &v.column);
    if lines.len() < 2 {
        return None;
    }
    let mut values: Vec<f64> = lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)).collect();
    values.sort_by(f64::total_cmp);
    values.dedup();
    // (build, value) ranked best first.
    let rank = |at: Option<f64>| -> Vec<(&str, f64)> {
        let mut r: Vec<(&str, f64)> = lines
            .iter()
            .filter_map(|l| {
                let ys: Vec<f64> = l.points.iter().filter(|p| at.is_none_or(|x| p.0 == x)).map(|p| p.1).collect();
                (!ys.is_empty()).then(|| (l.label.as_str(), ys.iter().sum::<f64>() / ys.len() as f64))
            })
            .collect();
        r.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        r
    };
    let say = |r: &[(&str, f64)]| match (r.first(), r.last()) {
        (Some(best), Some(worst)) if r.len() > 1 => {
            Some(format!("**{}** ({:.3}), least **{}** ({:.3})", best.0, best.1, worst.0, worst.1))
        }
        _ => None,
    };
    let at: Vec<String> = values
        .iter()
        .filter_map(|&x| Some(format!("at {} {}", super::axes::number_text(x), say(&rank(Some(x)))?)))
        .collect();
    let whole = say(&rank(None))?;
    Some(format!(
        "**{} {}**: most efficient build per point ({}; each build's mean over its `cost_efficiency` build rows at that value): {}; over the whole grid (the mean over every value): {whole}.",
        v.entry,
        v.field,
        m.label,
        at.join("; ")
    ))
}

/// "Devastator damage 4, Wall ac 2": each varied stat at its first listed value, as the
/// findings taken at those values name them; `None` for a report without `[vary]`.
pub fn first_values_text(manifest: &Value) -> Option<String> {
    let parts: Vec<String> = manifest["vary"]
        .as_array()?
        .iter()
        .filter_map(|v| {
            Some(format!(
                "{} {} {}",
                v["entry"].as_str()?,
                v["field"].as_str()?,
                super::axes::number_text(v["values"].as_array()?.first()?.as_f64()?)
            ))
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Table;
    use crate::output::table::Cell;

    fn tables(rows: &[(&str, f64, f64)]) -> ReportTables {
        let mut t = Table::new(["attacker", "target", "exact_p_kill", "vary.Devastator.damage"]);
        for &(a, damage, p) in rows {
            t.push(vec![Cell::Text(a.into()), Cell::Text("Stingray".into()), Cell::Float(p), Cell::Float(damage)]);
        }
        ReportTables::from_named(&[("time_to_kill", t)])
    }

    fn manifest(carriers: Option<&[&str]>) -> Value {
        let mut v = serde_json::json!({
            "entry": "Devastator", "field": "damage", "column": "vary.Devastator.damage", "values": [8, 12]
        });
        if let Some(c) = carriers {
            v["carriers"] = serde_json::json!(c);
        }
        serde_json::json!({ "vary": [v] })
    }

    #[test]
    fn the_most_efficient_build_is_ranked_at_every_varied_value_and_over_them_all() {
        // The Dwarf carries the Devastator: worst at damage 4, best at 16 and over the
        // grid. Was: ranked at damage 4 only ("most efficient: Beagle").
        let mut t = Table::new(["attacker", "weapon", "kill_points_per_turn_per_point", "vary.Devastator.damage"]);
        for (a, damage, v) in
            [("Dwarf ALPHA", 4.0, 0.1), ("Dwarf ALPHA", 16.0, 0.9), ("Beagle", 4.0, 0.4), ("Beagle", 16.0, 0.4)]
        {
            t.push(vec![Cell::Text(a.into()), Cell::Null, Cell::Float(v), Cell::Float(damage)]);
        }
        let tables = ReportTables::from_named(&[("cost_efficiency", t)]);
        let f = findings(&tables, &manifest(Some(&["Devastator", "Dwarf ALPHA"])));
        let e = f.iter().find(|x| x.contains("most efficient build per point")).expect("an efficiency finding");
        assert!(e.contains("at 4 **Beagle** (0.400), least **Dwarf ALPHA** (0.100)"), "{e}");
        assert!(e.contains("at 16 **Dwarf ALPHA** (0.900), least **Beagle** (0.400)"), "{e}");
        assert!(e.contains("over the whole grid (the mean over every value): **Dwarf ALPHA** (0.500)"), "{e}");
        assert_eq!(first_values_text(&manifest(None)).as_deref(), Some("Devastator damage 8"));
    }

    #[test]
    fn vary_findings_count_only_the_builds_that_carry_the_varied_item() {
        // The Dwarf carries the Devastator: 50% → 70%; the Beagle does not: 90% both.
        let t = tables(&[
            ("Dwarf ALPHA", 8.0, 0.5),
            ("Dwarf ALPHA", 12.0, 0.7),
            ("Beagle", 8.0, 0.9),
            ("Beagle", 12.0, 0.9),
        ]);
        let f = findings(&t, &manifest(Some(&["Devastator", "Dwarf ALPHA"])));
        let p = f.iter().find(|x| x.contains("P(kill)")).expect("a P(kill) finding");
        assert!(p.contains("50.0% at 8 → 70.0% at 12"), "{p}");
        assert!(p.contains("the 1 build of 2 that carry it: Dwarf ALPHA"), "{p}");
        // Without the record: every build, said so (was: silently every build).
        let f = findings(&t, &manifest(None));
        let p = f.iter().find(|x| x.contains("P(kill)")).unwrap();
        assert!(p.contains("70.0% at 8 → 80.0% at 12") && p.contains("does not record"), "{p}");
        // A varied entry no build carries (a target): every build, said so.
        let f = findings(&t, &manifest(Some(&["Stingray"])));
        let p = f.iter().find(|x| x.contains("P(kill)")).unwrap();
        assert!(p.contains("none carries Devastator"), "{p}");
    }
}
