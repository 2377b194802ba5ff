//! The sweep's result tables, column by column (documented in reports/COLUMNS.md).

use serde_json::Value;

use crate::output::{Cell, Kind, Table};
use crate::rules::axis::{self, AxisSpec, Point};
use crate::rules::ruleset::{CostRow, DetailRow, DetailTable};
use crate::stats::{DuelTally, ExactDuelOdds, ExactTtk, TtkSummary, TtkTally};

use super::Scenario;

pub use crate::output::report_kind::{COLUMN_GUIDE, COLUMN_GUIDE_FILE, ReportKind};

/// The key columns of one ruleset's cell tables: `ruleset`, the sides, the ruleset's
/// target columns, then one column per axis.
#[derive(Debug, Clone)]
pub struct Layout {
    pub ruleset: &'static str,
    pub target_columns: Vec<(&'static str, Kind)>,
    pub axes: &'static [AxisSpec],
}

impl Layout {
    pub(super) fn schema(
        &self,
        sides: &[(&'static str, Kind)],
        after_sides: &[(&'static str, Kind)],
        after_axes: &[(&'static str, Kind)],
    ) -> Table {
        let cols: Vec<(&'static str, Kind)> = [("ruleset", Kind::Text)]
            .into_iter()
            .chain(sides.iter().copied())
            .chain(after_sides.iter().copied())
            .chain(axis::columns(self.axes))
            .chain(after_axes.iter().copied())
            .collect();
        Table::typed(&cols)
    }

    pub(super) fn row(&self, sides: Vec<Cell>, point: &Point, after: Vec<Cell>) -> Vec<Cell> {
        std::iter::once(Cell::from(self.ruleset)).chain(sides).chain(point.cells(self.axes)).chain(after).collect()
    }

    fn target_keys(&self) -> Vec<(&'static str, Kind)> {
        [("target", Kind::Text)].into_iter().chain(self.target_columns.iter().copied()).collect()
    }
}

fn opt(v: Option<f64>) -> Cell {
    v.map_or(Cell::Null, Cell::Float)
}

/// An exact value, or null (see `output::number`: exact values are rounded to drop
/// arithmetic noise; Monte Carlo estimates never are).
fn opt_exact(v: Option<f64>) -> Cell {
    v.map_or(Cell::Null, Cell::exact)
}

fn per(x: f64, by: f64) -> Cell {
    if by > 0.0 { Cell::Float(x / by) } else { Cell::Null }
}

/// The names and points of an attacker and its target in table rows.
#[derive(Debug, Clone)]
pub struct Sides<'a> {
    pub attacker: &'a str,
    pub attacker_points: f64,
    pub target: &'a str,
    /// Cells of the ruleset's target columns.
    pub target_cells: &'a [Cell],
    pub target_points: f64,
}

impl Sides<'_> {
    fn target(&self) -> Vec<Cell> {
        std::iter::once(Cell::from(self.target)).chain(self.target_cells.iter().cloned()).collect()
    }
}

/// A detail table of the ruleset (`hit_probability`, `attack_odds`).
pub fn detail(l: &Layout, d: &DetailTable) -> Table {
    let sides: Vec<(&'static str, Kind)> = [("attacker", Kind::Text)]
        .into_iter()
        .chain(d.attacker_columns.iter().copied())
        .chain(l.target_keys())
        .collect();
    l.schema(&sides, &[], &d.value_columns)
}

/// Rows of a detail table for one attacker, target and point (every value exact).
pub fn push_detail(t: &mut Table, l: &Layout, s: &Sides<'_>, point: &Point, rows: Vec<DetailRow>) {
    for r in rows {
        let sides: Vec<Cell> =
            std::iter::once(Cell::from(s.attacker)).chain(r.attacker_cells).chain(s.target()).collect();
        t.push(l.row(sides, point, r.value_cells.into_iter().map(Cell::into_exact).collect()));
    }
}

/// `time_to_kill`: one row per attack-run cell.
pub fn time_to_kill(l: &Layout) -> Table {
    let sides: Vec<(&'static str, Kind)> = [("attacker", Kind::Text)].into_iter().chain(l.target_keys()).collect();
    l.schema(
        &sides,
        &[],
        &[
            ("method", Kind::Text),
            ("trials", Kind::Int),
            ("p_kill", Kind::Float),
            ("p_kill_ci95_low", Kind::Float),
            ("p_kill_ci95_high", Kind::Float),
            ("mean_turns", Kind::Float),
            ("mean_turns_ci95_low", Kind::Float),
            ("mean_turns_ci95_high", Kind::Float),
            ("mean_actions", Kind::Float),
            ("mean_actions_ci95_low", Kind::Float),
            ("mean_actions_ci95_high", Kind::Float),
            ("censored", Kind::Int),
            ("exact_p_kill", Kind::Float),
            ("exact_mean_turns", Kind::Float),
            ("exact_mean_actions", Kind::Float),
            ("points", Kind::Float),
            ("target_points", Kind::Float),
        ],
    )
}

pub fn push_time_to_kill(
    t: &mut Table,
    l: &Layout,
    sd: &Sides<'_>,
    point: &Point,
    tally: &TtkTally,
    s: &TtkSummary,
    exact: &ExactTtk,
) {
    let sides: Vec<Cell> = std::iter::once(Cell::from(sd.attacker)).chain(sd.target()).collect();
    t.push(l.row(
        sides,
        point,
        vec![
            "monte-carlo".into(),
            s.trials.into(),
            s.p_kill.into(),
            s.p_kill_ci.low.into(),
            s.p_kill_ci.high.into(),
            opt(s.mean_turns),
            opt(s.mean_turns_ci.map(|i| i.low)),
            opt(s.mean_turns_ci.map(|i| i.high)),
            opt(s.mean_actions),
            opt(s.mean_actions_ci.map(|i| i.low)),
            opt(s.mean_actions_ci.map(|i| i.high)),
            tally.censored().into(),
            Cell::exact(exact.p_kill),
            opt_exact(exact.mean_turns),
            opt_exact(exact.mean_actions),
            sd.attacker_points.into(),
            sd.target_points.into(),
        ],
    ));
}

/// `ttk_by_turn`: one row per attack-run cell and turn (the ruleset's turn or round).
pub fn ttk_by_turn(l: &Layout) -> Table {
    let sides: Vec<(&'static str, Kind)> = [("attacker", Kind::Text)].into_iter().chain(l.target_keys()).collect();
    l.schema(
        &sides,
        &[],
        &[
            ("turn", Kind::Int),
            ("p_killed_by_turn", Kind::Float),
            ("ci95_low", Kind::Float),
            ("ci95_high", Kind::Float),
            ("exact_p_killed_by_turn", Kind::Float),
        ],
    )
}

pub fn push_ttk_by_turn(t: &mut Table, l: &Layout, sd: &Sides<'_>, point: &Point, s: &TtkSummary, exact: &ExactTtk) {
    for (k, (&p, ci)) in s.p_kill_by_turn.iter().zip(&s.p_kill_by_turn_ci).enumerate() {
        let sides: Vec<Cell> = std::iter::once(Cell::from(sd.attacker)).chain(sd.target()).collect();
        t.push(l.row(
            sides,
            point,
            vec![
                ((k + 1) as u32).into(),
                p.into(),
                ci.low.into(),
                ci.high.into(),
                Cell::exact(exact.p_kill_by_turn[k]),
            ],
        ));
    }
}

/// `cost_efficiency`: per side (weapon null) and per weapon, with the ruleset's columns
/// after `points` (`attacker_columns`) and after the axes (`value_columns`).
pub fn cost_efficiency(
    l: &Layout,
    attacker_columns: &[(&'static str, Kind)],
    value_columns: &[(&'static str, Kind)],
) -> Table {
    let sides: Vec<(&'static str, Kind)> = [("attacker", Kind::Text), ("weapon", Kind::Text), ("points", Kind::Float)]
        .into_iter()
        .chain(attacker_columns.iter().copied())
        .chain(l.target_keys())
        .chain([("target_points", Kind::Float)])
        .collect();
    let after: Vec<(&'static str, Kind)> = value_columns
        .iter()
        .copied()
        .chain([
            ("p_kill_turn1", Kind::Float),
            ("p_kill_turn1_per_point", Kind::Float),
            ("kill_points_per_turn", Kind::Float),
            ("kill_points_per_turn_per_point", Kind::Float),
            ("kill_points_per_turn_per_point_mc", Kind::Float),
            ("kill_points_per_turn_per_point_mc_ci95_low", Kind::Float),
            ("kill_points_per_turn_per_point_mc_ci95_high", Kind::Float),
        ])
        .collect();
    l.schema(&sides, &[], &after)
}

/// The rows of one attacker against one target: the side's row gets its first-turn kill
/// chance and kill rate from the run's exact law (`exact`) and, when the cell was
/// simulated, the Monte Carlo rate (`kill_points_per_turn_per_point_mc`) with its interval
/// from `tally` (a check of the exact rate, which it holds about 19 times in 20); weapon
/// rows their one-attack kill chance. Every value but the Monte Carlo ones is exact, and
/// rounded as such.
pub fn push_cost_rows(
    t: &mut Table,
    l: &Layout,
    sd: &Sides<'_>,
    point: &Point,
    rows: Vec<CostRow>,
    exact: &ExactTtk,
    tally: Option<&TtkTally>,
) {
    let points = sd.attacker_points;
    for r in rows {
        let sides: Vec<Cell> =
            [Cell::from(sd.attacker), r.weapon.as_deref().map_or(Cell::Null, Cell::from), points.into()]
                .into_iter()
                .chain(r.attacker_cells)
                .chain(sd.target())
                .chain([sd.target_points.into()])
                .collect();
        let tail = match r.p_kill_turn1 {
            None => {
                let p1 = exact.p_kill_by_turn.first().copied().unwrap_or(0.0);
                let rate = exact.kill_rate() * sd.target_points;
                let mc = tally.and_then(TtkTally::kill_rate);
                vec![
                    Cell::exact(p1),
                    per(p1, points).into_exact(),
                    Cell::exact(rate),
                    per(rate, points).into_exact(),
                    mc.map_or(Cell::Null, |(est, _)| per(est * sd.target_points, points)),
                    mc.map_or(Cell::Null, |(_, ci)| per(ci.low * sd.target_points, points)),
                    mc.map_or(Cell::Null, |(_, ci)| per(ci.high * sd.target_points, points)),
                ]
            }
            Some(p) => vec![Cell::exact(p), Cell::Null, Cell::Null, Cell::Null, Cell::Null, Cell::Null, Cell::Null],
        };
        t.push(l.row(sides, point, r.value_cells.into_iter().map(Cell::into_exact).chain(tail).collect()));
    }
}

/// `duels`: one row per duel cell; the `exact_*` columns are null where the ruleset has
/// no exact solver for the duel ([`crate::rules::Ruleset::exact_duel`]).
pub fn duels(l: &Layout) -> Table {
    l.schema(
        &[("a", Kind::Text), ("b", Kind::Text), ("a_points", Kind::Float), ("b_points", Kind::Float)],
        &[],
        &[
            ("trials", Kind::Int),
            ("p_a_wins", Kind::Float),
            ("p_a_wins_ci95_low", Kind::Float),
            ("p_a_wins_ci95_high", Kind::Float),
            ("p_b_wins", Kind::Float),
            ("p_b_wins_ci95_low", Kind::Float),
            ("p_b_wins_ci95_high", Kind::Float),
            ("p_draw", Kind::Float),
            ("p_draw_ci95_low", Kind::Float),
            ("p_draw_ci95_high", Kind::Float),
            ("p_mutual_kill", Kind::Float),
            ("p_timeout", Kind::Float),
            ("mean_turns", Kind::Float),
            ("mean_turns_ci95_low", Kind::Float),
            ("mean_turns_ci95_high", Kind::Float),
            ("exact_p_a_wins", Kind::Float),
            ("exact_p_b_wins", Kind::Float),
            ("exact_p_draw", Kind::Float),
        ],
    )
}

/// One duel cell: `a` and `b` with their points, the Monte Carlo tally and the exact
/// outcome where there is one.
pub fn push_duel(
    t: &mut Table,
    l: &Layout,
    a: (&str, f64),
    b: (&str, f64),
    point: &Point,
    tally: &DuelTally,
    exact: Option<ExactDuelOdds>,
) {
    let s = tally.summary();
    t.push(l.row(
        vec![a.0.into(), b.0.into(), a.1.into(), b.1.into()],
        point,
        vec![
            s.trials.into(),
            s.p_a_wins.into(),
            s.p_a_wins_ci.low.into(),
            s.p_a_wins_ci.high.into(),
            s.p_b_wins.into(),
            s.p_b_wins_ci.low.into(),
            s.p_b_wins_ci.high.into(),
            s.p_draw.into(),
            s.p_draw_ci.low.into(),
            s.p_draw_ci.high.into(),
            s.p_mutual_kill.into(),
            s.p_timeout.into(),
            opt(s.mean_turns),
            opt(s.mean_turns_ci.map(|i| i.low)),
            opt(s.mean_turns_ci.map(|i| i.high)),
            opt_exact(exact.map(|e| e.p_a_wins)),
            opt_exact(exact.map(|e| e.p_b_wins)),
            opt_exact(exact.map(|e| e.p_draw())),
        ],
    ));
}

/// Fields of the manifest that describe the scenario as run.
pub fn scenario_json(s: &Scenario) -> Value {
    let trials = match s.trials {
        crate::engine::Trials::Fixed(n) => serde_json::json!({ "trials": n }),
        crate::engine::Trials::Precision { half_width, max } => {
            serde_json::json!({ "precision": half_width, "max_trials": max })
        }
    };
    let mut out = serde_json::json!({
        "ruleset": s.ruleset,
        "name": s.name,
        "description": s.description,
        "engagement": s.engagement.name(),
        "seed": s.seed,
        "trials": trials,
        "max_turns": s.max_turns,
        "policy": s.policy,
        "options": s.options.iter().map(|(n, v)| (n.clone(), Value::from(v.clone()))).collect::<serde_json::Map<_, _>>(),
        "attackers": s.attackers,
        "targets": s.targets,
        "opponents": s.opponents,
        "grid": s.grid.axes.iter().map(|(n, v)| (n.to_string(), Value::from(v.clone()))).collect::<serde_json::Map<_, _>>(),
        "chart_conditions": s.chart_conditions.iter().map(|set| {
            set.iter().map(|(n, v)| (n.clone(), Value::from(v.clone()))).collect::<serde_json::Map<_, _>>()
        }).collect::<Vec<_>>(),
        "loadouts_add": s.loadouts_add,
        "battle": s.battle.as_ref().map(|b| serde_json::json!({
            "mode": b.mode, "policy": b.policy, "max_turns": b.max_turns, "forces": b.forces,
            "generate": b.generate.as_ref().map(|g| serde_json::json!({
                "budget": g.budget, "max_units": g.max_units, "limit": g.limit, "builds": g.builds,
            })),
        })),
    });
    if !s.vary.is_empty() {
        out.as_object_mut().expect("an object").insert("vary".into(), super::vary_axis::vary_json(&s.vary));
    }
    out
}
