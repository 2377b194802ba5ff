//! The report page: `index.md` and a self-contained `index.html` (charts inline as SVG,
//! no network) with what was run, the headline findings, the charts and the tables.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use super::ReportTables;
use super::axes::ConditionSet;
use super::data::cost_bars;
use super::render::Chart;
use super::shape::CostChart;
use super::shape::ReportShape;
use crate::output::Table;
use crate::output::percent::{percent, percent_interval};
use crate::output::table::Cell;
use crate::stats::interval::wilson95;

/// What [`findings`] reads of `time_to_kill` (besides the conditions).
pub const TTK_FINDING_COLUMNS: &[&str] = &["attacker", "target", "p_kill", "exact_p_kill", "exact_mean_turns"];

/// One headline finding: a sentence.
pub type Finding = String;

/// Mean of `col` per value of `key` over the rows `keep` accepts; sorted largest first.
fn ranked(
    t: &Table,
    key: &dyn Fn(&Table, usize) -> Option<String>,
    col: &str,
    keep: &dyn Fn(usize) -> bool,
) -> Vec<(String, f64)> {
    let mut acc: Vec<(String, f64, usize)> = Vec::new();
    for i in 0..t.rows.len() {
        if !keep(i) {
            continue;
        }
        let (Some(k), Some(v)) = (key(t, i), t.float(i, col)) else { continue };
        match acc.iter_mut().find(|(n, _, _)| *n == k) {
            Some(e) => {
                e.1 += v;
                e.2 += 1;
            }
            None => acc.push((k, v, 1)),
        }
    }
    let mut out: Vec<(String, f64)> = acc.into_iter().map(|(k, s, n)| (k, s / n as f64)).collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// Row `i` of cell table `t` as "name value" per axis of `shape`: "altitude 50, weather rain".
fn row_conditions(t: &Table, i: usize, shape: &ReportShape) -> String {
    shape
        .axes
        .iter()
        .map(|a| format!("{} {}", a.name.replace('_', " "), a.cell(t, i).unwrap_or_else(|| "?".into())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The number of distinct values of `key` over the rows `keep` accepts.
fn distinct(t: &Table, key: &dyn Fn(&Table, usize) -> Option<String>, keep: &dyn Fn(usize) -> bool) -> usize {
    let mut seen: Vec<String> = Vec::new();
    for i in (0..t.rows.len()).filter(|&i| keep(i)) {
        if let Some(k) = key(t, i)
            && !seen.contains(&k)
        {
            seen.push(k);
        }
    }
    seen.len()
}

/// "1 cell" or "N cells".
fn cells(n: usize) -> String {
    crate::output::wording::count(n as u64, "cell")
}

/// The headline findings, computed from the tables. Each says which cells it is taken
/// over. Cost rankings at the cost charts' conditions (the first chart condition set,
/// `at`) are those of the charts: the same quantity, the same rows, the same order, so
/// the page never contradicts its charts; the headline ranking is also given over the
/// whole grid. Conditions are named by the axes of `shape`, turns by its word for a turn.
pub fn findings(tables: &ReportTables, shape: &ReportShape, at: &ConditionSet) -> Vec<Finding> {
    let turn = shape.turn.as_str();
    let mut out = Vec::new();
    if let Some(cost) = tables.get("cost_efficiency") {
        let (build_rows, weapon_rows) = super::data::cost_rows(cost, at);
        let builds_here =
            distinct(cost, &|t, i| t.text(i, "attacker").map(str::to_string), &|i| build_rows.contains(&i));
        let per_build = build_rows.len() / builds_here.max(1);
        let label = at.title_label(&[]);
        let here = if label.is_empty() {
            format!("mean over its {}", cells(per_build))
        } else {
            format!("{label}, the cost charts' conditions; mean over its {}", cells(per_build))
        };
        let mut charts = cost_bars(cost, at, turn, &shape.costs).into_iter().map(|(_, bars)| bars);
        let kill = charts.next().expect("the common cost chart");
        let ratio =
            |best: f64, worst: f64| if worst > 0.0 { format!("{:.1}× less", best / worst) } else { "none".into() };
        if let (Some(best), Some(worst)) = (kill.bars.first(), kill.bars.last())
            && kill.bars.len() > 1
        {
            out.push(format!(
                "Most efficient build per point ({here}): **{}** destroys {:.3} target points per {turn} per point; least efficient: **{}** ({:.3}), {}.",
                best.label,
                best.value,
                worst.label,
                worst.value,
                ratio(best.value, worst.value)
            ));
        }
        out.extend(efficiency_over_grid(cost, turn));
        for (spec, chart) in shape.costs.iter().zip(charts) {
            let finding = CostChart::say(&spec.finding, turn);
            if !spec.weapons {
                if let (Some(best), Some(worst)) = (chart.bars.first(), chart.bars.last())
                    && chart.bars.len() > 1
                {
                    out.push(format!(
                        "{finding} ({here}): **{}** ({:.3}); least: **{}** ({:.3}).",
                        best.label, best.value, worst.label, worst.value
                    ));
                }
            } else if chart.bars.len() > 1 {
                let unit = CostChart::say(&spec.unit, turn);
                let top: Vec<String> =
                    chart.bars.iter().take(3).map(|b| format!("{} ({:.2} {unit})", b.label, b.value)).collect();
                let median = chart.bars[chart.bars.len() / 2].value;
                let per_weapon = weapon_rows.len() / chart.bars.len().max(1);
                let where_ = if label.is_empty() { String::new() } else { format!("{label}, ") };
                out.push(format!(
                    "{finding} ({where_}mean over each weapon's {}): {}; the median weapon takes {median:.2}.",
                    cells(per_weapon),
                    top.join(", ")
                ));
            }
        }
    }
    out.extend(battle_findings(tables));
    out.extend(super::initiative_finding::initiative_findings(tables));
    if let Some(ttk) = tables.get("time_to_kill") {
        out.extend(ttk_findings(ttk, shape));
    }
    if let Some(duels) = tables.get("duels") {
        out.extend(duel_findings(duels, turn, &shape.cost_unit));
    }
    out
}

/// The headline cost ranking over every cell of the grid (every target and condition),
/// not only at the charts' conditions: each build's mean of
/// `kill_points_per_turn_per_point` over all its build rows.
fn efficiency_over_grid(cost: &Table, turn: &str) -> Option<Finding> {
    let build_row = |i: usize| cost.text(i, "weapon").is_none();
    let attacker = |t: &Table, i: usize| t.text(i, "attacker").map(str::to_string);
    let ranking = ranked(cost, &attacker, "kill_points_per_turn_per_point", &build_row);
    let (best, worst) = (ranking.first()?, ranking.last()?);
    if ranking.len() < 2 {
        return None;
    }
    let n = (0..cost.rows.len()).filter(|&i| build_row(i)).count() / ranking.len();
    Some(format!(
        "Over the whole grid (mean over each build's {} of targets and conditions), the most efficient per point is **{}** ({:.3} target points per {turn} per point); the least, **{}** ({:.3}).",
        cells(n),
        best.0,
        best.1,
        worst.0,
        worst.1
    ))
}

/// Attack runs' findings: the cells where a build never kills, the surest killer (mean
/// P(kill within the cap) over every cell, defined everywhere) and the fastest killer,
/// by mean turns of the kill over the cells where every build can kill (the same cells
/// for every build; a mean over only the cells where one build kills would favour a
/// build that kills only where it is easy).
fn ttk_findings(ttk: &Table, shape: &ReportShape) -> Vec<Finding> {
    let turn = shape.turn.as_str();
    let mut out = Vec::new();
    let p_kill = |i: usize| ttk.float(i, "exact_p_kill").or_else(|| ttk.float(i, "p_kill"));
    let mut never: Vec<String> = Vec::new();
    let mut count = 0;
    for i in 0..ttk.rows.len() {
        if p_kill(i).unwrap_or(1.0) == 0.0 {
            count += 1;
            if never.len() < 5 {
                never.push(format!(
                    "{} vs {} ({})",
                    ttk.text(i, "attacker").unwrap_or("?"),
                    ttk.text(i, "target").unwrap_or("?"),
                    row_conditions(ttk, i, shape),
                ));
            }
        }
    }
    if count == 0 {
        out.push(format!("Every build can kill every target within the {turn} cap in every cell."));
    } else {
        out.push(format!(
            "In {count} of {} a build can never kill its target within the {turn} cap, e.g. {}.",
            cells(ttk.rows.len()),
            never.join("; ")
        ));
    }
    let attacker = |t: &Table, i: usize| t.text(i, "attacker").map(str::to_string);
    let builds = distinct(ttk, &attacker, &|_| true);
    if builds < 2 {
        return out;
    }
    let per_build = ttk.rows.len() / builds;
    let column = if ttk.column("exact_p_kill").is_some() { "exact_p_kill" } else { "p_kill" };
    let surest = ranked(ttk, &attacker, column, &|_| true);
    if let (Some(best), Some(worst)) = (surest.first(), surest.last()) {
        out.push(format!(
            "Surest killer: **{}** kills its target within the {turn} cap in {} of runs, mean over all its {}; least sure: **{}** ({}).",
            best.0,
            percent(best.1),
            cells(per_build),
            worst.0,
            percent(worst.1)
        ));
    }
    // A cell: the target and the conditions (everything but the attacker).
    let cell = |i: usize| {
        let mut k = ttk.text(i, "target").unwrap_or("?").to_string();
        for a in &shape.axes {
            k.push('\u{1f}');
            k.push_str(&a.cell(ttk, i).unwrap_or_default());
        }
        k
    };
    let mut everyone_kills: Vec<String> = Vec::new();
    let mut someone_fails: Vec<String> = Vec::new();
    for i in 0..ttk.rows.len() {
        let k = cell(i);
        if p_kill(i).unwrap_or(0.0) > 0.0 && ttk.float(i, "exact_mean_turns").is_some() {
            if !everyone_kills.contains(&k) {
                everyone_kills.push(k);
            }
        } else if !someone_fails.contains(&k) {
            someone_fails.push(k);
        }
    }
    everyone_kills.retain(|k| !someone_fails.contains(k));
    let common = |i: usize| everyone_kills.contains(&cell(i));
    let fastest = ranked(ttk, &attacker, "exact_mean_turns", &common);
    if let (Some(slow), Some(fast)) = (fastest.first(), fastest.last())
        && fastest.len() > 1
    {
        out.push(format!(
            "Fastest killer: **{}** ({:.2} {turn}s on average to the kill, over the {} of {} where every build can kill); slowest: **{}** ({:.2}).",
            fast.0,
            fast.1,
            everyone_kills.len(),
            cells(per_build),
            slow.0,
            slow.1
        ));
    } else {
        out.push(format!(
            "Fastest killer: not ranked, as in none of the {} does every build kill (mean turns to a kill exist only where it kills).",
            cells(per_build)
        ));
    }
    out
}

/// One side's mean win rate over its duel cells (equal weights) and its 95% interval:
/// the MOVER combination of the cells' Wilson intervals (cells play on separate
/// streams), with its cost.
#[derive(Debug, Clone)]
struct Duellist {
    name: String,
    win: f64,
    ci: crate::stats::Interval,
    points: Option<f64>,
}

impl Duellist {
    /// Wins per 100 cost units and its interval (the cost is a constant).
    fn per_100(&self) -> Option<(f64, crate::stats::Interval)> {
        let c = self.points.filter(|c| *c > 0.0 && c.is_finite())?;
        let s = 100.0 / c;
        Some((s * self.win, crate::stats::Interval { low: s * self.ci.low, high: s * self.ci.high }))
    }
}

/// A side's duel cells as (weight, win rate, interval), with its name and cost.
type SideCells = (String, Vec<(f64, f64, crate::stats::Interval)>, Option<f64>);

/// Each side `a` of the duels table with its mean win rate and interval, best first.
fn duellists(duels: &Table) -> Vec<Duellist> {
    let mut parts: Vec<SideCells> = Vec::new();
    for i in 0..duels.rows.len() {
        let (Some(a), Some(p)) = (duels.text(i, "a"), duels.float(i, "p_a_wins")) else { continue };
        let ci = match duels.float(i, "trials") {
            // p × trials is a count of duels, exact up to the float's rounding.
            Some(n) if n > 0.0 => wilson95((p * n).round() as u64, n as u64),
            _ => crate::stats::Interval { low: p, high: p },
        };
        match parts.iter_mut().find(|x| x.0 == a) {
            Some(x) => x.1.push((1.0, p, ci)),
            None => parts.push((a.to_string(), vec![(1.0, p, ci)], duels.float(i, "a_points"))),
        }
    }
    let mut out: Vec<Duellist> = parts
        .into_iter()
        .filter_map(|(name, v, points)| {
            let (win, ci) = crate::stats::newcombe::weighted(&v)?;
            Some(Duellist { name, win, ci, points })
        })
        .collect();
    out.sort_by(|x, y| y.win.total_cmp(&x.win).then(x.name.cmp(&y.name)));
    out
}

/// Whether `x` and `y` (independent estimates) tie: the 95% interval of their
/// difference (Newcombe's) holds 0.
fn tie(x: (f64, crate::stats::Interval), y: (f64, crate::stats::Interval)) -> bool {
    let d = crate::stats::newcombe::difference(x.0, x.1, y.0, y.1);
    d.low <= 0.0 && d.high >= 0.0
}

/// Duel sweeps' findings: each side's mean win rate over all its duel cells with its
/// 95% interval, the best declared only when its interval of the difference with the
/// runner-up excludes 0; the same per 100 cost units (`unit`), which side is better per
/// cost or that the best tie; and the draws over every cell.
fn duel_findings(duels: &Table, turn: &str, unit: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    let sides = duellists(duels);
    let per_side = duels.rows.len() / sides.len().max(1);
    let say = |d: &Duellist| {
        format!("**{}** wins {} (95% CI {})", d.name, percent(d.win), percent_interval(d.ci.low, d.ci.high))
    };
    if let [best, next, ..] = &sides[..] {
        let worst = sides.last().expect("two sides");
        let verdict = if tie((best.win, best.ci), (next.win, next.ci)) {
            format!("a statistical tie with {}", say(next))
        } else {
            format!("ahead of the next, {} (the 95% interval of the difference excludes 0)", say(next))
        };
        out.push(format!(
            "Best duellist: {} of its duels, mean over its {} (opponents and conditions), {verdict}; worst: {}.",
            say(best),
            cells(per_side),
            say(worst)
        ));
        let mut by_cost: Vec<(&Duellist, (f64, crate::stats::Interval))> =
            sides.iter().filter_map(|d| Some((d, d.per_100()?))).collect();
        by_cost.sort_by(|x, y| y.1.0.total_cmp(&x.1.0).then(x.0.name.cmp(&y.0.name)));
        if let [(top, t), (second, s), ..] = &by_cost[..] {
            let texts = crate::output::number::texts_apart(&[t.0, t.1.low, t.1.high, s.0, s.1.low, s.1.high], 2);
            let said = |d: &Duellist, k: usize| {
                format!(
                    "**{}** {} wins per 100 {unit} (95% CI {} to {}; it costs {})",
                    d.name,
                    texts[k],
                    texts[k + 1],
                    texts[k + 2],
                    crate::output::wording::cost(d.points.unwrap_or(f64::NAN))
                )
            };
            let verdict = if tie(*t, *s) {
                format!("a statistical tie per cost with {} (sidegrade)", said(second, 3))
            } else {
                format!("better per cost than {} (the 95% interval of the difference excludes 0)", said(second, 3))
            };
            let raw = if top.name == best.name {
                String::new()
            } else {
                format!(" (the best duellist by win rate, {}, is not the best per cost)", best.name)
            };
            out.push(format!(
                "Best duellist per cost (wins per 100 {unit}, a count of wins, not a percentage): {}, {verdict}{raw}.",
                said(top, 0)
            ));
        }
    } else if let [only] = &sides[..] {
        out.push(format!("Only duellist: {} of its duels, mean over its {}.", say(only), cells(per_side)));
    }
    let draws = ranked(duels, &|_: &Table, _| Some("all".into()), "p_draw", &|_| true);
    if let Some((_, d)) = draws.first() {
        out.push(format!(
            "Draws (both destroyed in one {turn}, or both alive at the cap): {} of duels, mean over all {}.",
            percent(*d),
            cells(duels.rows.len())
        ));
    }
    out
}

fn scenario_lines(manifest: &Value, shape: &ReportShape) -> Vec<(String, String)> {
    let s = &manifest["scenario"];
    let list = |v: &Value| {
        v.as_array()
            .map(|a| a.iter().map(|x| x.to_string().trim_matches('"').to_string()).collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    let mut lines = vec![
        (
            "Scenario".to_string(),
            format!("{} ({})", s["name"].as_str().unwrap_or("?"), manifest["scenario_file"].as_str().unwrap_or("?")),
        ),
        ("Engagement".into(), s["engagement"].as_str().unwrap_or("?").to_string()),
        ("Attackers".into(), list(&manifest["attackers"])),
    ];
    if let Some(d) = s["description"].as_str() {
        lines.insert(1, ("Description".into(), d.to_string()));
    }
    if manifest["targets"].as_array().is_some_and(|a| !a.is_empty()) {
        lines.push(("Targets".into(), list(&manifest["targets"])));
    }
    if manifest["opponents"].as_array().is_some_and(|a| !a.is_empty()) {
        lines.push(("Opponents".into(), list(&manifest["opponents"])));
    }
    for axis in &shape.axes {
        let unit = axis.unit.as_ref().filter(|u| !u.is_empty()).map_or_else(String::new, |u| format!(" ({u})"));
        lines.push((format!("Grid: {}{unit}", axis.name), axis.values.join(", ")));
    }
    let turn = &shape.turn;
    // A battle sweep plays its battles' own cap (the mode's, or `[battle] max_turns`),
    // which the run records under `battle`; the scenario's `max_turns` is for duels.
    let (policy, cap) = match manifest["battle"].as_object().filter(|b| b["max_turns"].is_u64()) {
        Some(b) => (&b["policy"], &b["max_turns"]),
        None => (&s["policy"], &s["max_turns"]),
    };
    lines.push((format!("Policy, {turn} cap"), format!("{}, {} {turn}s", policy.as_str().unwrap_or("?"), cap)));
    lines.push((
        "Engagements".into(),
        format!(
            "{}, {} ({}), seed {}, {:.1} s at {:.1} M/s",
            crate::output::wording::count(manifest["cells"].as_u64().unwrap_or(0), "cell"),
            crate::output::wording::count(manifest["engagements"].as_u64().unwrap_or(0), "engagement"),
            super::footer(manifest).split(" · ").nth(4).unwrap_or(""),
            manifest["seed"],
            manifest["wall_seconds"].as_f64().unwrap_or(0.0),
            manifest["engagements_per_second"].as_f64().unwrap_or(0.0) / 1e6
        ),
    ));
    lines.push((
        "Catalogue".into(),
        format!(
            "{} (hash {})",
            manifest["catalogue"]["origin"].as_str().unwrap_or("?"),
            manifest["catalogue"]["hash"].as_str().unwrap_or("?")
        ),
    ));
    lines
}

fn table_files(manifest: &Value) -> Vec<String> {
    manifest["files"]
        .as_array()
        .map(|a| a.iter().filter_map(|f| f.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

/// What a report page shows besides findings and charts.
#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    pub title: String,
    /// "What was run", as (label, value) lines.
    pub lines: Vec<(String, String)>,
    /// Table files to link.
    pub files: Vec<String>,
}

impl PageInfo {
    /// A sweep report's page, from its manifest.
    pub fn of_sweep(manifest: &Value) -> PageInfo {
        PageInfo {
            title: format!("volley report: {}", manifest["scenario"]["name"].as_str().unwrap_or("?")),
            lines: scenario_lines(manifest, &ReportShape::of_manifest(manifest)),
            files: table_files(manifest),
        }
    }
}

/// Rows of `t` whose `decided_by_initiative` column is true (`None` without the column).
fn decided_by_initiative(t: &Table) -> Option<usize> {
    t.column("decided_by_initiative")?;
    Some(decided_rows(t).len())
}

/// The rows of `t` that initiative decides.
fn decided_rows(t: &Table) -> Vec<usize> {
    (0..t.rows.len())
        .filter(|&i| match t.get(i, "decided_by_initiative") {
            Some(Cell::Bool(b)) => *b,
            Some(Cell::Text(s)) => s == "true",
            Some(Cell::Int(v)) => *v != 0,
            _ => false,
        })
        .collect()
}

/// Which way initiative decides the decided rows of `t`: how many of them side A wins
/// more often when it acts first, and how many when the other side does.
fn initiative_direction(t: &Table) -> (usize, usize) {
    let rows = decided_rows(t);
    let by = |first_wins: bool| {
        rows.iter()
            .filter(|&&i| match (t.float(i, "p_a_wins_a_first"), t.float(i, "p_a_wins_b_first")) {
                (Some(x), Some(y)) => (x > y) == first_wins,
                _ => false,
            })
            .count()
    };
    (by(true), by(false))
}

/// Words for which way initiative decides matchups: `first` rows where acting first wins,
/// `second` where acting second does.
fn direction_words(first: usize, second: usize) -> String {
    match (first, second) {
        (f, 0) if f > 0 => "the side that acts first wins far more often".into(),
        (0, s) if s > 0 => "the side that acts second wins far more often".into(),
        (f, s) => format!("acting first wins far more often in {f} of them, acting second in {s}"),
    }
}

/// A battle sweep's findings: each force's outright wins pooled over all its battles
/// (every seat, opponent and condition cell: integer counts summed, so a cell weighs by
/// its trials), with its Wilson 95% interval. Reads `battle_forces` when the sweep
/// rotated its seats (the seatings already pooled there), else `battles` (`force_a`/
/// `p_a_wins`, and `force_b`/`p_b_wins` where the table has them: two-player battles).
///
/// A strongest force is declared only when its interval lies above the runner-up's, and
/// never when initiative decides a matchup (a `battles` row with `decided_by_initiative`
/// true): pooling the seats then averages who acted first, not who is stronger.
fn battle_findings(tables: &ReportTables) -> Vec<Finding> {
    let (b, columns): (&Table, &[(&str, &str)]) = match (tables.get("battle_forces"), tables.get("battles")) {
        (Some(f), _) => (f, &[("force", "p_wins")]),
        (None, Some(b)) => (b, &[("force_a", "p_a_wins"), ("force_b", "p_b_wins")]),
        (None, None) => return Vec::new(),
    };
    // (force, wins, trials), in first-seen order.
    let mut pooled: Vec<(String, u64, u64)> = Vec::new();
    for i in 0..b.rows.len() {
        let Some(trials) = b.float(i, "trials") else { continue };
        for &(force, col) in columns {
            let (Some(name), Some(p)) = (b.text(i, force), b.float(i, col)) else { continue };
            // p × trials is a count of battles, exact up to the float's rounding.
            let wins = (p * trials).round() as u64;
            match pooled.iter_mut().find(|r| r.0 == name) {
                Some(r) => {
                    r.1 += wins;
                    r.2 += trials as u64;
                }
                None => pooled.push((name.to_string(), wins, trials as u64)),
            }
        }
    }
    let rate = |r: &(String, u64, u64)| r.1 as f64 / r.2.max(1) as f64;
    pooled.sort_by(|x, y| rate(y).total_cmp(&rate(x)).then(x.0.cmp(&y.0)));
    if pooled.len() < 2 {
        return Vec::new();
    }
    let say = |r: &(String, u64, u64)| {
        let ci = wilson95(r.1, r.2);
        format!(
            "**{}** wins {} of its {} (95% interval {})",
            r.0,
            percent(rate(r)),
            crate::output::wording::count(r.2, "battle"),
            percent_interval(ci.low, ci.high)
        )
    };
    let (best, next, worst) = (&pooled[0], &pooled[1], &pooled[pooled.len() - 1]);
    let pooled_over = format!(
        "Wins pooled over seats, opponents and conditions ({} rows of `{}`)",
        b.rows.len(),
        if columns.len() == 1 { "battle_forces" } else { "battles" }
    );
    let initiative = tables.get("battles").and_then(decided_by_initiative).filter(|&n| n > 0);
    let text = if let Some(n) = initiative {
        let rows = tables.get("battles").map_or(0, |t| t.rows.len());
        let (first, second) = tables.get("battles").map_or((0, 0), initiative_direction);
        format!(
            "Strongest force: not declared: initiative decides {n} of {rows} matchup cells ({}), and pooling the seats averages that away. Highest pooled: {}; lowest: {}. {pooled_over}.",
            direction_words(first, second),
            say(best),
            say(worst)
        )
    } else if wilson95(best.1, best.2).low <= wilson95(next.1, next.2).high {
        format!(
            "Strongest force: not declared: {} and {} tie within their 95% intervals; weakest: {}. {pooled_over}.",
            say(best),
            say(next),
            say(worst)
        )
    } else {
        format!(
            "Strongest force: {}, its 95% interval above the next, {}; weakest: {}. {pooled_over}.",
            say(best),
            say(next),
            say(worst)
        )
    };
    vec![text]
}

/// `index.md`: summary, findings, charts (PNG), links to tables.
pub fn markdown(info: &PageInfo, findings: &[Finding], charts: &[Chart]) -> String {
    let mut md = format!("# {}\n\n", md_escape(&info.title));
    md += "## What was run\n\n| | |\n|---|---|\n";
    for (k, v) in info.lines.clone() {
        let _ = writeln!(md, "| {} | {} |", md_escape(&k), md_escape(&v));
    }
    md += "\n## Headline findings\n\n";
    for f in findings {
        let _ = writeln!(md, "- {}", md_escape(f));
    }
    md += "\n## Charts\n\n";
    for c in charts {
        let _ = writeln!(
            md,
            "### {}\n\n![{}](charts/{}.png)\n\n[SVG](charts/{}.svg) · [PNG, 300 dpi](charts/{}.png)\n",
            md_escape(c.title()),
            md_escape(c.title()),
            c.name,
            c.name,
            c.name
        );
    }
    md += "## Tables\n\nEvery column is explained in [COLUMNS.md](COLUMNS.md), beside the tables.\n\n";
    for f in &info.files {
        let _ = writeln!(md, "- [{f}]({f})");
    }
    md += "- [manifest.json](manifest.json)\n";
    md
}

/// Text for HTML: the markup characters as entities.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

/// Text for Markdown: HTML's markup characters as entities (Markdown passes raw HTML
/// through) and backslash, brackets and bar backslash-escaped, so a name never becomes a
/// tag, a link, an image or a table cell break (emphasis markers stay: findings bold
/// their numbers).
fn md_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '[' | ']' | '|' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Bold `**x**` markers to `<strong>`.
fn strong(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in escape(s).split("**").enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<strong>{part}</strong>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// `index.html`: the same content, self-contained (inline CSS and SVG, no network).
pub fn html(info: &PageInfo, findings: &[Finding], charts: &[(Chart, String)]) -> String {
    let name = escape(&info.title);
    let mut h = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}</title>\n<style>\
body{{font-family:'DejaVu Sans',Verdana,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#1e1e1e;line-height:1.45}}\
table{{border-collapse:collapse}}td,th{{border-bottom:1px solid #ddd;padding:.3em .8em;text-align:left;vertical-align:top}}\
figure{{margin:2em 0}}figure svg{{width:100%;height:auto;border:1px solid #eee}}figcaption{{font-size:.9em;color:#555}}\
</style></head><body>\n<h1>{name}</h1>\n<h2>What was run</h2>\n<table>\n"
    );
    for (k, v) in &info.lines {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), escape(v));
    }
    h += "</table>\n<h2>Headline findings</h2>\n<ul>\n";
    for f in findings {
        let _ = writeln!(h, "<li>{}</li>", strong(f));
    }
    h += "</ul>\n<h2>Charts</h2>\n";
    for (c, svg) in charts {
        let body = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
        let _ = writeln!(
            h,
            "<figure id=\"{}\">{body}<figcaption>{} · <a href=\"charts/{}.svg\">SVG</a> · <a href=\"charts/{}.png\">PNG, 300 dpi</a></figcaption></figure>",
            c.name,
            escape(c.title()),
            c.name,
            c.name
        );
    }
    h += "<h2>Tables</h2>\n<p>Every column is explained in <a href=\"COLUMNS.md\">COLUMNS.md</a>, beside the tables.</p>\n<ul>\n";
    for f in &info.files {
        let _ = writeln!(h, "<li><a href=\"{f}\">{f}</a></li>");
    }
    h += "<li><a href=\"manifest.json\">manifest.json</a></li>\n</ul>\n</body></html>\n";
    h
}

/// Write the column guide `guide` (the text of volley's `reports/COLUMNS.md`, rendered
/// by `sweep::column_guide`) into report directory `dir` as `COLUMNS.md`.
pub fn write_column_guide(dir: &Path, guide: &str) -> Result<()> {
    use crate::output::report_kind::COLUMN_GUIDE_FILE;
    let path = dir.join(COLUMN_GUIDE_FILE);
    std::fs::write(&path, guide).with_context(|| format!("cannot write {}", path.display()))
}

/// Write `index.md` and `index.html` into `dir`, reading the SVGs from `dir/charts`. The
/// pages link the column guide, which the caller writes beside them
/// ([`write_column_guide`]).
pub fn write_page(dir: &Path, info: &PageInfo, found: &[Finding], charts: &[Chart]) -> Result<()> {
    std::fs::write(dir.join("index.md"), markdown(info, found, charts)).context("cannot write index.md")?;
    let mut with_svg = Vec::new();
    for c in charts {
        let path = dir.join("charts").join(format!("{}.svg", c.name));
        let svg = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        with_svg.push((c.clone(), svg));
    }
    std::fs::write(dir.join("index.html"), html(info, found, &with_svg)).context("cannot write index.html")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::table::Cell;

    fn battles(rows: &[(&str, &str, f64, f64, i64)]) -> Table {
        let mut t = Table::new(["force_a", "force_b", "p_a_wins", "p_b_wins", "trials"]);
        for &(a, b, pa, pb, n) in rows {
            t.push(vec![Cell::Text(a.into()), Cell::Text(b.into()), Cell::Float(pa), Cell::Float(pb), Cell::Int(n)]);
        }
        t
    }

    #[test]
    fn the_strongest_force_pools_win_counts_over_both_sides_with_intervals() {
        // X: 90 + 60 wins of 100 + 200 battles = 50%; Y: 10 + 120 of 300 = 43.3%
        // (weighted by trials: an equal-weight mean of the cells would give X 60%, Y 35%).
        let t = battles(&[("X", "Y", 0.9, 0.1, 100), ("Y", "X", 0.6, 0.3, 200)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", t)]));
        let ci = wilson95(150, 300);
        assert_eq!(f.len(), 1);
        // The intervals overlap: a tie, no strongest force (was: "Strongest force: **X**").
        assert!(f[0].starts_with("Strongest force: not declared: **X** wins 50.0% of its 300 battles"), "{}", f[0]);
        assert!(f[0].contains(&percent_interval(ci.low, ci.high)), "{}", f[0]);
        assert!(f[0].contains("**Y** wins 43.3%") && f[0].contains("tie within their 95% intervals"), "{}", f[0]);
        assert!(f[0].contains("pooled over seats, opponents and conditions (2 rows of `battles`)"), "{}", f[0]);
        // Far apart on many battles: the intervals separate.
        let far = battles(&[("X", "Y", 0.99, 0.01, 10_000), ("Y", "X", 0.02, 0.97, 10_000)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", far)]));
        assert!(f[0].starts_with("Strongest force: **X** wins"), "{}", f[0]);
        assert!(f[0].contains("its 95% interval above the next, **Y**"), "{}", f[0]);
    }

    #[test]
    fn a_strongest_force_tied_with_the_runner_up_is_not_declared() {
        // A and B are level (52% and 51% of 1000); C far below. The old finding compared
        // the best with the worst only and said "intervals do not overlap".
        let mut forces = Table::new(["force", "p_wins", "trials"]);
        for (name, p) in [("A", 0.52), ("B", 0.51), ("C", 0.10)] {
            forces.push(vec![Cell::Text(name.into()), Cell::Float(p), Cell::Int(1000)]);
        }
        let f = battle_findings(&ReportTables::from_named(&[("battle_forces", forces)]));
        assert!(f[0].starts_with("Strongest force: not declared: **A** wins 52.0%"), "{}", f[0]);
        assert!(f[0].contains("**B** wins 51.0%") && f[0].contains("weakest: **C**"), "{}", f[0]);
        assert!(!f[0].contains("do not overlap"), "{}", f[0]);
    }

    #[test]
    fn initiative_deciding_a_matchup_declares_no_strongest_force() {
        let columns = ["force_a", "force_b", "p_a_wins", "p_b_wins", "trials", "p_a_wins_a_first", "p_a_wins_b_first"];
        // Side A acting second wins: the finding must say so (it once said "first" always).
        let table = |splits: [(f64, f64); 2]| {
            let mut t = Table::new(columns.iter().copied().chain(["decided_by_initiative"]));
            for ((a, b, pa, pb, decided), (x, y)) in
                [("X", "Y", 0.99, 0.01, true), ("Y", "X", 0.02, 0.97, false)].into_iter().zip(splits)
            {
                t.push(vec![
                    Cell::Text(a.into()),
                    Cell::Text(b.into()),
                    Cell::Float(pa),
                    Cell::Float(pb),
                    Cell::Int(10_000),
                    Cell::Float(x),
                    Cell::Float(y),
                    Cell::Bool(decided),
                ]);
            }
            battle_findings(&ReportTables::from_named(&[("battles", t)]))
        };
        let f = table([(0.02, 0.98), (0.5, 0.5)]);
        assert!(f[0].starts_with("Strongest force: not declared: initiative decides 1 of 2 matchup cells"), "{}", f[0]);
        assert!(f[0].contains("the side that acts second wins far more often"), "{}", f[0]);
        assert!(f[0].contains("Highest pooled: **X**"), "{}", f[0]);
        let f = table([(0.98, 0.02), (0.5, 0.5)]);
        assert!(f[0].contains("the side that acts first wins far more often"), "{}", f[0]);
    }

    #[test]
    fn a_battle_sweep_page_states_its_battles_cap() {
        // The scenario's cap (for duels) is 20; the battles ran with 50.
        let manifest = serde_json::json!({
            "scenario": { "name": "squads", "engagement": "battle", "policy": "greedy", "max_turns": 20 },
            "battle": { "mode": "squad", "policy": "squad", "max_turns": 50 },
        });
        let lines = scenario_lines(&manifest, &shape(&[10]));
        let cap = lines.iter().find(|l| l.0 == "Policy, round cap").expect("a cap line");
        assert_eq!(cap.1, "squad, 50 rounds");
        // Duel sweeps keep the scenario's.
        let manifest = serde_json::json!({ "scenario": { "policy": "greedy", "max_turns": 20 } });
        let lines = scenario_lines(&manifest, &shape(&[10]));
        assert!(lines.iter().any(|l| l.1 == "greedy, 20 rounds"), "{lines:?}");
    }

    fn shape(axis_values: &[i64]) -> ReportShape {
        ReportShape::of_manifest(&serde_json::json!({
            "axes": [{ "name": "range", "kind": "number", "values": axis_values }],
            "turn": "round",
        }))
    }

    #[test]
    fn the_fastest_killer_is_ranked_over_cells_where_every_build_kills() {
        // Kerberos kills only at range 12 (1.98 rounds), never at 3 and 5; Thunderhead
        // kills everywhere, in 1.5 rounds at 12. The old finding averaged Kerberos over
        // its one cell against Thunderhead over three: "Fastest killer: **Kerberos**".
        let mut t = Table::new(["attacker", "target", "range", "exact_p_kill", "exact_mean_turns"]);
        for (a, range, p, m) in [
            ("Kerberos", 3.0, 0.0, None),
            ("Kerberos", 5.0, 0.0, None),
            ("Kerberos", 12.0, 0.9, Some(1.98)),
            ("Thunderhead", 3.0, 1.0, Some(3.0)),
            ("Thunderhead", 5.0, 1.0, Some(2.5)),
            ("Thunderhead", 12.0, 1.0, Some(1.5)),
        ] {
            t.push(vec![
                Cell::Text(a.into()),
                Cell::Text("Hornet".into()),
                Cell::Float(range),
                Cell::Float(p),
                m.map_or(Cell::Null, Cell::Float),
            ]);
        }
        let f = ttk_findings(&t, &shape(&[3, 5, 12]));
        let fastest = f.iter().find(|x| x.starts_with("Fastest killer")).unwrap();
        assert!(
            fastest.starts_with(
                "Fastest killer: **Thunderhead** (1.50 rounds on average to the kill, over the 1 of 3 cells where every build can kill); slowest: **Kerberos** (1.98)"
            ),
            "{fastest}"
        );
        let surest = f.iter().find(|x| x.starts_with("Surest killer")).unwrap();
        assert!(
            surest.contains(
                "**Thunderhead** kills its target within the round cap in 100% of runs, mean over all its 3 cells"
            ),
            "{surest}"
        );
        assert!(surest.contains("least sure: **Kerberos** (30.0%)"), "{surest}");
        // No cell where both kill: no ranking, said so.
        t.rows.retain(|r| r[2] != Cell::Float(12.0));
        let f = ttk_findings(&t, &shape(&[3, 5]));
        assert!(f.iter().any(|x| x.starts_with("Fastest killer: not ranked")), "{f:?}");
    }

    #[test]
    fn the_most_efficient_build_is_ranked_over_the_whole_grid_too() {
        // A leads at range 12 (the charts' conditions), B over the grid: 0.75 to 0.55.
        let mut t = Table::new(["attacker", "weapon", "target", "range", "kill_points_per_turn_per_point"]);
        for (a, range, v) in [("A", 12.0, 1.0), ("A", 24.0, 0.1), ("B", 12.0, 0.8), ("B", 24.0, 0.7)] {
            t.push(vec![Cell::Text(a.into()), Cell::Null, Cell::Text("T".into()), Cell::Float(range), Cell::Float(v)]);
        }
        let manifest = serde_json::json!({
            "axes": [{ "name": "range", "kind": "number", "values": [12, 24] }],
            "turn": "turn",
            "scenario": {},
        });
        let shape = ReportShape::of_manifest(&manifest);
        let at = &shape.condition_sets(&manifest)[0];
        let f = findings(&ReportTables::from_named(&[("cost_efficiency", t)]), &shape, at);
        let chart = f.iter().find(|x| x.starts_with("Most efficient build per point")).unwrap();
        assert!(
            chart.contains("(range 12, the cost charts' conditions; mean over its 1 cell)") && chart.contains("**A**"),
            "{chart}"
        );
        let grid = f.iter().find(|x| x.starts_with("Over the whole grid")).expect("a whole-grid ranking");
        assert!(
            grid.contains("mean over each build's 2 cells")
                && grid.contains("most efficient per point is **B** (0.750"),
            "{grid}"
        );
    }

    #[test]
    fn duel_findings_say_what_they_average_over() {
        let mut t = Table::new(["a", "b", "range", "p_a_wins", "p_draw"]);
        for (a, b, p) in [("X", "Y", 0.7), ("X", "Z", 0.5), ("Y", "X", 0.2), ("Y", "Z", 0.4)] {
            t.push(vec![
                Cell::Text(a.into()),
                Cell::Text(b.into()),
                Cell::Float(12.0),
                Cell::Float(p),
                Cell::Float(0.1),
            ]);
        }
        let f = duel_findings(&t, "turn", "points");
        assert!(f[0].starts_with("Best duellist: **X** wins 60.0% (95% CI "), "{}", f[0]);
        assert!(f[0].contains("of its duels, mean over its 2 cells"), "{}", f[0]);
        assert!(f[1].contains("mean over all 4 cells"), "{}", f[1]);
    }

    fn priced_duels(rows: &[(&str, f64, f64)]) -> Table {
        let mut t = Table::new(["a", "b", "a_points", "trials", "p_a_wins", "p_draw"]);
        for &(a, points, p) in rows {
            t.push(vec![
                Cell::Text(a.into()),
                Cell::Text("Z".into()),
                Cell::Float(points),
                Cell::Int(4000),
                Cell::Float(p),
                Cell::Float(0.0),
            ]);
        }
        t
    }

    #[test]
    fn the_best_duellist_is_read_per_cost_with_intervals() {
        // X wins 60% at 200 points (0.30 wins per 100), Y 45% at 100 (0.45): Y is
        // better per cost. Was: "Best duellist: X" and no per-cost reading.
        let f = duel_findings(&priced_duels(&[("X", 200.0, 0.6), ("Y", 100.0, 0.45)]), "turn", "PV");
        assert!(f[0].starts_with("Best duellist: **X** wins 60.0%") && f[0].contains("ahead of the next"), "{}", f[0]);
        let c = f.iter().find(|x| x.starts_with("Best duellist per cost")).expect("a per-cost finding");
        assert!(c.contains("**Y** 0.45 wins per 100 PV") && c.contains("better per cost than **X** 0.30"), "{c}");
        assert!(c.contains("is not the best per cost") && !c.contains("45%") && !c.contains("45.0%"), "{c}");
        // 45% at 100 against 90.5% at 200: a tie per cost, said so.
        let f = duel_findings(&priced_duels(&[("X", 200.0, 0.905), ("Y", 100.0, 0.45)]), "turn", "PV");
        let c = f.iter().find(|x| x.starts_with("Best duellist per cost")).unwrap();
        assert!(c.contains("a statistical tie per cost with") && c.contains("sidegrade"), "{c}");
        // Raw rates that tie are not ranked as if they did not.
        let f = duel_findings(&priced_duels(&[("X", 100.0, 0.5), ("Y", 100.0, 0.495)]), "turn", "PV");
        assert!(f[0].contains("a statistical tie with **Y**"), "{}", f[0]);
    }

    #[test]
    fn rotated_seatings_read_the_pooled_battle_forces() {
        let mut forces = Table::new(["force", "p_wins", "trials"]);
        for (name, p) in [("Red", 0.25), ("Green", 0.5), ("Blue", 0.25)] {
            forces.push(vec![Cell::Text(name.into()), Cell::Float(p), Cell::Int(6000)]);
        }
        // The seat rows of `battles` would say otherwise: they are not read.
        let seats = battles(&[("Red", "Green / Blue", 0.9, f64::NAN, 2000)]);
        let f = battle_findings(&ReportTables::from_named(&[("battles", seats), ("battle_forces", forces)]));
        assert!(f[0].starts_with("Strongest force: **Green** wins 50.0%"), "{}", f[0]);
        assert!(f[0].contains("weakest: **Red**"), "{}", f[0]);
    }

    #[test]
    fn names_are_text_in_markdown_and_html() {
        let hostile = "<script>&\"' [x](javascript:1) | <img onerror=y>";
        let md = md_escape(hostile);
        assert!(!md.contains('<') && !md.contains('>') && !md.contains("&\""), "{md}");
        assert_eq!(md, "&lt;script&gt;&amp;\"' \\[x\\](javascript:1) \\| &lt;img onerror=y&gt;");
        let html = escape(hostile);
        assert!(!html.contains(['<', '>', '"', '\'']), "{html}");
        assert_eq!(md_escape("**Dwarf** wins"), "**Dwarf** wins", "findings keep their bold");
    }
}
