//! What goes into each chart, computed from the report's tables alone (so `volley chart`
//! redraws from files). Drawing is in the sibling modules; these are plain data.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

pub use super::axes::ConditionSet;
use super::axes::number_text;
use super::shape::{CostChart, ReportShape, RowOrder};
use crate::output::{Cell, Table};

/// The text cell of column `col` of each row of `t` (`None` for another cell, or every
/// row when it has no such column).
fn texts_or_none<'t>(t: &'t Table, col: &str) -> impl Iterator<Item = Option<&'t str>> {
    let c = t.column(col);
    t.rows.iter().map(move |r| match c.map(|c| &r[c]) {
        Some(Cell::Text(s)) => Some(s.as_str()),
        _ => None,
    })
}

/// Each distinct text of column `col` of `t` with the row it is first seen on, in row
/// order.
fn first_seen<'t>(t: &'t Table, col: &str) -> Vec<(usize, &'t str)> {
    let mut out = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut last = None;
    for (i, v) in texts_or_none(t, col).enumerate() {
        // A table's rows come in runs of one value: only a new value is looked up.
        if let Some(v) = v
            && last != Some(v)
            && seen.insert(v)
        {
            out.push((i, v));
        }
        last = v.or(last);
    }
    out
}

/// Distinct values of a text column in first-seen order, sorted by `order` when given.
pub fn distinct_text(t: &Table, col: &str, order: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = first_seen(t, col).into_iter().map(|(_, v)| v.to_string()).collect();
    if !order.is_empty() {
        out.sort_by_key(|v| order.iter().position(|o| o == v).unwrap_or(usize::MAX));
    }
    out
}

/// A heatmap: a grid of values per panel. `None` cells have no value (no shot).
#[derive(Debug, Clone, PartialEq)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x: Vec<String>,
    pub y: Vec<String>,
    /// One panel per value of the panel axis: (panel title, values[y][x]).
    pub panels: Vec<(String, Vec<Vec<Option<f64>>>)>,
    /// Optional second line of text per cell, per panel (the draw rate in duel
    /// matrices, the roll needed on odds cards).
    pub notes: Option<Vec<Vec<Vec<Option<String>>>>>,
    /// What the colour scale measures.
    pub scale_label: String,
}

/// The distinct values of column `col` of `t` as (name, label), ordered and labelled by
/// `order` when given (and `t` has its column): ascending by the order value; within a
/// value, names of the form `x:N` (a generic row standing for its order value N alone)
/// first, then by name; labelled `{label}{N}` and `name ({label}{N})` (with no order
/// label: the name). Without an order: first-seen order, labelled by name.
pub fn ordered_rows(t: &Table, col: &str, order: Option<&RowOrder>) -> Vec<(String, String)> {
    let order = order.filter(|o| t.column(&o.column).is_some());
    let mut v: Vec<(String, Option<f64>)> = first_seen(t, col)
        .into_iter()
        .map(|(i, name)| (name.to_string(), order.and_then(|o| t.float(i, &o.column))))
        .collect();
    let Some(order) = order else {
        return v.into_iter().map(|(n, _)| (n.clone(), n)).collect();
    };
    let stands_for = |name: &str, value: Option<f64>| {
        name.rsplit_once(':').and_then(|(_, n)| n.parse::<f64>().ok()).is_some_and(|n| Some(n) == value)
    };
    v.sort_by(|a, b| {
        let key = |x: &(String, Option<f64>)| x.1.unwrap_or(f64::INFINITY);
        key(a).total_cmp(&key(b)).then(stands_for(&b.0, b.1).cmp(&stands_for(&a.0, a.1))).then(a.0.cmp(&b.0))
    });
    v.into_iter()
        .map(|(name, value)| {
            let label = match (&order.label, value) {
                (Some(l), Some(x)) if stands_for(&name, value) => format!("{l}{}", number_text(x)),
                (Some(l), Some(x)) => format!("{name} ({l}{})", number_text(x)),
                _ => name.clone(),
            };
            (name, label)
        })
        .collect()
}

/// A point of a [`Curve`]: (turn, p, low, high).
pub type CurvePoint = (u32, f64, f64, f64);

/// One curve of P(killed by turn k) with its 95% band.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    /// (turn, p, low, high).
    pub points: Vec<CurvePoint>,
}

/// Time-to-kill curves at one condition set: one panel per attacker, a curve per target.
#[derive(Debug, Clone, PartialEq)]
pub struct CurvePanels {
    pub title: String,
    pub panels: Vec<(String, Vec<Curve>)>,
    pub max_turn: u32,
    /// The ruleset's word for a turn (`turn`, `round`), for the axes.
    pub turn: String,
}

/// P(target destroyed by turn k) per attacker and target at `at`, from `ttk_by_turn`;
/// targets ordered and labelled as `shape` orders them ([`ReportShape::target_order`]).
/// Each curve's points are its rows at `at` in table order, sorted stably by turn.
///
/// One pass over the rows: each row goes to its (attacker, target) curve, so the cost is
/// the number of rows, not rows × attackers × targets.
pub fn ttk_curves(by_turn: &Table, at: &ConditionSet, shape: &ReportShape) -> CurvePanels {
    let attackers = distinct_text(by_turn, "attacker", &[]);
    let targets = ordered_rows(by_turn, "target", shape.target_order().as_ref());
    let attacker_at: HashMap<&str, usize> = attackers.iter().enumerate().map(|(k, a)| (a.as_str(), k)).collect();
    let target_at: HashMap<&str, usize> = targets.iter().enumerate().map(|(k, (t, _))| (t.as_str(), k)).collect();
    // Per attacker, per target: the curve's points.
    let mut points: Vec<Vec<Vec<CurvePoint>>> = vec![vec![Vec::new(); targets.len()]; attackers.len()];
    let here = at.matcher(by_turn, &[]);
    let rows = texts_or_none(by_turn, "attacker").zip(texts_or_none(by_turn, "target")).enumerate();
    for (i, (attacker, target)) in rows {
        let (Some(&a), Some(&t)) = (attacker.and_then(|a| attacker_at.get(a)), target.and_then(|t| target_at.get(t)))
        else {
            continue;
        };
        if !here.matches(by_turn, i) {
            continue;
        }
        let point = || {
            Some((
                by_turn.float(i, "turn")? as u32,
                by_turn.float(i, "p_killed_by_turn")?,
                by_turn.float(i, "ci95_low")?,
                by_turn.float(i, "ci95_high")?,
            ))
        };
        if let Some(p) = point() {
            points[a][t].push(p);
        }
    }
    let mut max_turn = 0;
    let panels: Vec<(String, Vec<Curve>)> = attackers
        .into_iter()
        .zip(points)
        .map(|(a, by_target)| {
            let curves = targets
                .iter()
                .zip(by_target)
                .filter_map(|((_, label), mut points)| {
                    points.sort_by_key(|p| p.0);
                    max_turn = max_turn.max(points.last().map_or(0, |p| p.0));
                    (!points.is_empty()).then(|| Curve { label: label.clone(), points })
                })
                .collect();
            (a, curves)
        })
        .collect();
    // Show the turns where something still changes: up to the first turn by which every
    // curve is above 99.9% (or the cap), plus one.
    let settled = panels
        .iter()
        .flat_map(|(_, curves)| curves.iter())
        .map(|c| c.points.iter().find(|p| p.1 >= 0.999).map_or(max_turn, |p| p.0))
        .max()
        .unwrap_or(max_turn);
    let max_turn = (settled + 1).clamp(3.min(max_turn), max_turn);
    CurvePanels {
        title: format!("Time to kill: P(target destroyed by {} k), 95% band ({})", shape.turn, at.title_label(&[])),
        panels,
        max_turn,
        turn: shape.turn.clone(),
    }
}

/// One bar with an optional 95% whisker.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub low: Option<f64>,
    pub high: Option<f64>,
}

/// A bar panel, sorted largest first.
#[derive(Debug, Clone, PartialEq)]
pub struct Bars {
    pub title: String,
    pub value_label: String,
    pub bars: Vec<Bar>,
}

/// Mean of `col` over the rows of each group, averaged over targets, with the whisker of
/// the mean of independent estimates (half-width √Σh² / n) when interval columns exist.
fn averaged_bars(cost: &Table, rows: &[usize], group: &str, col: &str, ci: Option<(&str, &str)>) -> Vec<Bar> {
    averaged_bars_by(cost, rows, |i| cost.text(i, group).map(Cow::Borrowed), col, ci)
}

/// [`averaged_bars`] grouped by `key(row)` (rows whose key is `None` left out).
fn averaged_bars_by<'t>(
    cost: &'t Table,
    rows: &[usize],
    key: impl Fn(usize) -> Option<Cow<'t, str>>,
    col: &str,
    ci: Option<(&str, &str)>,
) -> Vec<Bar> {
    let mut groups: Vec<(Cow<'t, str>, Vec<usize>)> = Vec::new();
    for &i in rows {
        let Some(k) = key(i) else { continue };
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, v)) => v.push(i),
            None => groups.push((k, vec![i])),
        }
    }
    let mut bars: Vec<Bar> = groups
        .into_iter()
        .filter_map(|(label, idx)| {
            let vals: Vec<f64> = idx.iter().filter_map(|&i| cost.float(i, col)).collect();
            if vals.is_empty() {
                return None;
            }
            let n = vals.len() as f64;
            let value = vals.iter().sum::<f64>() / n;
            let (low, high) = match ci {
                Some((lo, hi)) => {
                    let halves: Vec<f64> =
                        idx.iter().filter_map(|&i| Some((cost.float(i, hi)? - cost.float(i, lo)?) / 2.0)).collect();
                    if halves.len() == vals.len() {
                        let h = halves.iter().map(|h| h * h).sum::<f64>().sqrt() / n;
                        (Some((value - h).max(0.0)), Some(value + h))
                    } else {
                        (None, None)
                    }
                }
                None => (None, None),
            };
            Some(Bar { label: label.into_owned(), value, low, high })
        })
        .collect();
    bars.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.label.cmp(&b.label)));
    bars
}

/// What [`ttk_curves`] reads of `ttk_by_turn` (besides the axes, and the target order
/// column when the report has one).
pub const TTK_BY_TURN_COLUMNS: &[&str] = &["attacker", "target", "turn", "p_killed_by_turn", "ci95_low", "ci95_high"];
/// What [`cost_bars`] reads of `cost_efficiency` for every ruleset (besides the
/// conditions and each cost chart's own columns).
pub const COST_COLUMNS: &[&str] = &[
    "attacker",
    "weapon",
    "kill_points_per_turn_per_point",
    "kill_points_per_turn_per_point_mc_ci95_low",
    "kill_points_per_turn_per_point_mc_ci95_high",
];
/// What [`duel_matrix`] reads of `duels` (besides the conditions).
pub const DUEL_COLUMNS: &[&str] = &["a", "b", "p_a_wins", "p_draw"];

/// The label of a weapon on a side in weapon rankings: a positive `note` (value, word)
/// is stated, e.g. limited rounds, since a per-turn rate says nothing of how many turns
/// the weapon can keep it up.
pub fn weapon_label(weapon: &str, attacker: &str, note: Option<(f64, &str)>) -> String {
    match note {
        Some((n, word)) if n > 0.0 => format!("{weapon} ({attacker}; {n} {word})"),
        _ => format!("{weapon} ({attacker})"),
    }
}

/// The stem of the common cost chart (target points destroyed per turn per point).
pub const KILL_POINTS_CHART: &str = "cost-kill-points-per-point";

/// Rows of `cost` at `at`: (build rows, weapon rows).
pub fn cost_rows(cost: &Table, at: &ConditionSet) -> (Vec<usize>, Vec<usize>) {
    let at = at.matcher(cost, &[]);
    let here: Vec<usize> = (0..cost.rows.len()).filter(|&i| at.matches(cost, i)).collect();
    let builds = here.iter().copied().filter(|&i| cost.text(i, "weapon").is_none()).collect();
    let weapons = here.iter().copied().filter(|&i| cost.text(i, "weapon").is_some()).collect();
    (builds, weapons)
}

/// Cost-efficiency bars at one condition set, averaged over the scenario's targets: first
/// sides by target points destroyed per turn per point (the headline's ranking), then
/// one chart per cost chart of `costs` (sides, or weapons keyed "weapon (side)"), as
/// (file stem, bars). `turn` is the ruleset's word for a turn (`turn`, `round`).
pub fn cost_bars(cost: &Table, at: &ConditionSet, turn: &str, costs: &[CostChart]) -> Vec<(String, Bars)> {
    let (builds, weapons) = cost_rows(cost, at);
    let mut out = vec![(
        KILL_POINTS_CHART.to_string(),
        Bars {
            title: format!(
                "Target points destroyed per {turn}, per point, 95% interval (mean over targets; {})",
                at.title_label(&[])
            ),
            value_label: format!("kill points per {turn} per point"),
            bars: averaged_bars(
                cost,
                &builds,
                "attacker",
                "kill_points_per_turn_per_point",
                Some(("kill_points_per_turn_per_point_mc_ci95_low", "kill_points_per_turn_per_point_mc_ci95_high")),
            ),
        },
    )];
    for c in costs {
        let title = format!("{} (mean over targets; {})", CostChart::say(&c.title, turn), at.title_label(&[]));
        let value_label = CostChart::say(&c.value_label, turn);
        let bars = if c.weapons {
            // weapon bars are keyed "weapon (side)" so a weapon on two sides shows twice
            let label = |i: usize| {
                let weapon = cost.text(i, "weapon")?;
                let note = c.note.as_ref().and_then(|(col, word)| cost.float(i, col).map(|n| (n, word.as_str())));
                Some(Cow::Owned(weapon_label(weapon, cost.text(i, "attacker").unwrap_or(""), note)))
            };
            averaged_bars_by(cost, &weapons, label, &c.column, None)
        } else {
            averaged_bars(cost, &builds, "attacker", &c.column, None)
        };
        out.push((c.name.clone(), Bars { title, value_label, bars }));
    }
    out
}

/// P(row beats column) with the draw rate, at one condition set.
pub fn duel_matrix(duels: &Table, at: &ConditionSet) -> Heatmap {
    let names_a = distinct_text(duels, "a", &[]);
    let names_b = distinct_text(duels, "b", &[]);
    let find = |a: &str, b: &str, col: &str| {
        (0..duels.rows.len())
            .find(|&i| duels.text(i, "a") == Some(a) && duels.text(i, "b") == Some(b) && at.matches(duels, i, &[]))
            .and_then(|i| duels.float(i, col))
    };
    let wins = names_a.iter().map(|a| names_b.iter().map(|b| find(a, b, "p_a_wins")).collect()).collect();
    let draws = names_a
        .iter()
        .map(|a| {
            names_b
                .iter()
                .map(|b| find(a, b, "p_draw").map(|d| format!("draw {}", crate::output::percent::percent(d))))
                .collect()
        })
        .collect();
    Heatmap {
        title: format!("Duels: P(row beats column), draw rate below ({})", at.title_label(&[])),
        x_label: "Opponent (B)".into(),
        y_label: "Build (A)".into(),
        x: names_b,
        y: names_a,
        panels: vec![(String::new(), wins)],
        notes: Some(vec![draws]),
        scale_label: "P(A wins)".into(),
    }
}

/// What [`battle_matrix`] reads of the `battles` table (besides the axes).
pub const BATTLE_COLUMNS: &[&str] = &["force_a", "force_b", "p_a_wins", "p_draw"];

/// Forces: P(row force, as side A, beats column force, as side B) with the draw rate,
/// at one condition set (the cell of that point; not averaged over the grid). The
/// diagonal is empty: battle sweeps play no mirror matches.
pub fn battle_matrix(battles: &Table, at: &ConditionSet) -> Heatmap {
    let mut names = distinct_text(battles, "force_a", &[]);
    for b in distinct_text(battles, "force_b", &[]) {
        if !names.contains(&b) {
            names.push(b);
        }
    }
    let find = |a: &str, b: &str, col: &str| {
        (0..battles.rows.len())
            .find(|&i| {
                battles.text(i, "force_a") == Some(a)
                    && battles.text(i, "force_b") == Some(b)
                    && at.matches(battles, i, &[])
            })
            .and_then(|i| battles.float(i, col))
    };
    let wins = names.iter().map(|a| names.iter().map(|b| find(a, b, "p_a_wins")).collect()).collect();
    let draws = names
        .iter()
        .map(|a| {
            names
                .iter()
                .map(|b| find(a, b, "p_draw").map(|d| format!("draw {}", crate::output::percent::percent(d))))
                .collect()
        })
        .collect();
    Heatmap {
        title: format!("Battles: P(row force beats column force), draw rate below ({})", at.title_label(&[])),
        x_label: "Force B".into(),
        y_label: "Force A".into(),
        x: names.clone(),
        y: names,
        panels: vec![(String::new(), wins)],
        notes: Some(vec![draws]),
        scale_label: "P(A wins)".into(),
    }
}

/// What [`pooled_battle_matrix`] reads of the `battle_forces` table (besides the axes).
pub const BATTLE_FORCE_COLUMNS: &[&str] = &["force", "field", "cells", "p_wins", "p_draw"];

/// The force matrix of an N-player sweep whose matchups were played in several seatings
/// (`seatings` = `rotate` or `all`), from `battle_forces`: P(row force wins outright
/// against the column field, its opponents in force order) with the draw rate, each the
/// force's tallies pooled over every seating of the matchup (merged counts, as the table
/// holds them), at one condition set. A seat-row matrix ([`battle_matrix`]) would show
/// only the force-order seating, biased by where each force sits; the title says which
/// seatings the numbers pool.
pub fn pooled_battle_matrix(forces: &Table, at: &ConditionSet, seatings: &str) -> Heatmap {
    let rows: Vec<usize> = (0..forces.rows.len()).filter(|&i| at.matches(forces, i, &[])).collect();
    let names = distinct_text(forces, "force", &[]);
    let fields = distinct_text(forces, "field", &[]);
    let find = |a: &str, b: &str, col: &str| {
        rows.iter()
            .copied()
            .find(|&i| forces.text(i, "force") == Some(a) && forces.text(i, "field") == Some(b))
            .and_then(|i| forces.float(i, col))
    };
    let wins = names.iter().map(|a| fields.iter().map(|b| find(a, b, "p_wins")).collect()).collect();
    let draws = names
        .iter()
        .map(|a| {
            fields
                .iter()
                .map(|b| find(a, b, "p_draw").map(|d| format!("draw {}", crate::output::percent::percent(d))))
                .collect()
        })
        .collect();
    let cells = rows.first().and_then(|&i| forces.float(i, "cells")).map(|n| n as u64);
    let pooled = match (seatings, cells) {
        ("rotate", Some(n)) => format!("pooled over its {n} rotated seatings (seatings = rotate)"),
        ("all", Some(n)) => format!("pooled over all {n} seat orders (seatings = all)"),
        (s, Some(n)) => format!("pooled over {n} seatings (seatings = {s})"),
        (s, None) => format!("pooled over its seatings (seatings = {s})"),
    };
    Heatmap {
        title: format!(
            "Battles: P(row force beats the column field), {pooled}, draw rate below ({})",
            at.title_label(&[])
        ),
        x_label: "Field (the other forces)".into(),
        y_label: "Force".into(),
        x: fields,
        y: names,
        panels: vec![(String::new(), wins)],
        notes: Some(vec![draws]),
        scale_label: "P(force wins)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Kind;

    /// First-seen distinct values, plainly.
    fn first_seen(values: &[Option<&str>]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for v in values.iter().flatten() {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
        out
    }

    /// Runs of one value, values coming back after others, and rows without text give
    /// the first-seen values, as a plain scan does.
    #[test]
    fn distinct_values_are_the_first_seen_ones() {
        let values = [
            Some("b"),
            Some("b"),
            None,
            Some("b"),
            Some("a"),
            Some("b"),
            Some("c"),
            Some("c"),
            None,
            Some("a"),
            Some("d"),
        ];
        let mut t = Table::typed(&[("name", Kind::Text)]);
        for v in values {
            t.push(vec![v.map_or(Cell::Null, |s| Cell::Text(s.into()))]);
        }
        let want = first_seen(&values);
        assert_eq!(want, ["b", "a", "c", "d"]);
        assert_eq!(distinct_text(&t, "name", &[]), want);
        let rows: Vec<String> = ordered_rows(&t, "name", None).into_iter().map(|(n, _)| n).collect();
        assert_eq!(rows, want);
    }
}
