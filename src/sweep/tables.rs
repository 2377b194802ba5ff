//! The sweep's result tables, column by column: each table is declared once
//! ([`TableDecl`]: its columns with their meanings, and the places of the columns its
//! ruleset supplies); the writers build their schemas from the declarations and the
//! column guide ([`super::column_guide`]) is rendered from the same ones.

use serde_json::Value;

use crate::output::{Cell, Column, Table};
use crate::rules::axis::{AxisSpec, Point};
use crate::rules::ruleset::{CostRow, DetailRow, DetailTable};
use crate::stats::{DuelTally, ExactDuelOdds, ExactTtk, InitiativeSplit, TtkSummary, TtkTally};

use super::Scenario;

pub use crate::output::report_kind::{COLUMN_GUIDE_FILE, ReportKind};

/// Where a table's columns come from, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Part {
    /// Columns the table declares.
    Own(&'static [Column]),
    /// `target`, then the ruleset's target columns
    /// ([`crate::rules::ruleset::Catalogue::target_columns`]).
    Target,
    /// One column per condition axis of the ruleset, in its order.
    Conditions,
    /// The ruleset's attacker columns (a detail table's, or `cost_efficiency`'s).
    Attacker,
    /// The ruleset's value columns (a detail table's, or `cost_efficiency`'s).
    Values,
}

/// A report table declared for its writer and the column guide: its name, what its rows
/// are, and its columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableDecl {
    /// The table's name (its file stem: `time_to_kill.parquet`).
    pub name: &'static str,
    /// The column guide's heading after the name (may be empty).
    pub title: &'static str,
    /// The column guide's text before the columns: what a row is (Markdown).
    pub about: &'static str,
    pub parts: &'static [Part],
}

/// The columns a ruleset supplies to a table declaration's places.
#[derive(Debug, Clone, Copy, Default)]
pub struct Supplied<'a> {
    pub target: &'a [Column],
    pub axes: &'a [AxisSpec],
    pub attacker: &'a [Column],
    pub values: &'a [Column],
}

impl TableDecl {
    /// Every declared column, the ruleset's `supplied` ones in their places.
    pub fn columns(&self, supplied: &Supplied<'_>) -> Vec<Column> {
        self.sourced_columns(supplied).into_iter().map(|(c, _)| c).collect()
    }

    /// [`TableDecl::columns`], each with whether the ruleset supplied it (`target` is the
    /// table's own; the target columns after it are the ruleset's).
    pub fn sourced_columns(&self, supplied: &Supplied<'_>) -> Vec<(Column, bool)> {
        let mut out = Vec::new();
        let theirs = |cols: &[Column]| cols.iter().map(|c| (*c, true)).collect::<Vec<_>>();
        for part in self.parts {
            match part {
                Part::Own(cols) => out.extend(cols.iter().map(|c| (*c, false))),
                Part::Target => {
                    out.push((TARGET, false));
                    out.extend(theirs(supplied.target));
                }
                Part::Conditions => out.extend(supplied.axes.iter().map(|a| (a.column(), true))),
                Part::Attacker => out.extend(theirs(supplied.attacker)),
                Part::Values => out.extend(theirs(supplied.values)),
            }
        }
        out
    }

    /// The empty table a writer fills: [`TableDecl::columns`], typed as declared.
    pub fn table(&self, supplied: &Supplied<'_>) -> Table {
        Table::declared(&self.columns(supplied))
    }
}

/// `ruleset`: the first column of every table.
pub const RULESET: Column = Column::text("ruleset", "the ruleset played, by its id (see the rulesets' sections below)");
/// `attacker` of attack runs, detail and cost tables.
pub const ATTACKER: Column =
    Column::text("attacker", "the attacking side: a build, model, trooper or unit of the catalogue, by name");
/// `target` of attack runs, detail and cost tables: the first column of [`Part::Target`].
pub const TARGET: Column = Column::text("target", "the target's name");

/// The places of a ruleset's detail table (`DetailTable`): `ruleset`, `attacker`, its
/// attacker columns, `target` and the target columns, the conditions, its value columns.
pub const DETAIL_PARTS: &[Part] =
    &[Part::Own(&[RULESET, ATTACKER]), Part::Attacker, Part::Target, Part::Conditions, Part::Values];

/// The declaration of a ruleset's detail table.
pub fn detail_decl(d: &DetailTable) -> TableDecl {
    TableDecl { name: d.name, title: d.title, about: d.about, parts: DETAIL_PARTS }
}

/// `time_to_kill`.
pub const TIME_TO_KILL: TableDecl = TableDecl {
    name: "time_to_kill",
    title: "attack runs (attack-run scenarios)",
    about: "One row per cell: attacker, target, conditions. Monte Carlo with Wilson 95% intervals for \
            probabilities and normal 95% intervals for means, beside the exact values of the Markov chain over \
            the target's state (an attack run's target does not shoot back, so its time to kill is computed \
            exactly).",
    parts: &[
        Part::Own(&[RULESET, ATTACKER]),
        Part::Target,
        Part::Conditions,
        Part::Own(&[
            Column::text("method", "`monte-carlo`"),
            Column::int("trials", "engagements played for this cell"),
            Column::float("p_kill", "P(killed within the turn cap), with its Wilson 95% interval").with_ci95(),
            Column::float(
                "mean_turns",
                "mean turn (the ruleset's turn: a round where it plays rounds) of the kill, over killed runs (null \
                 without kills), with its normal 95% interval",
            )
            .with_ci95(),
            Column::float("mean_actions", "mean attacks to kill, over killed runs, with its normal 95% interval")
                .with_ci95(),
            Column::int("censored", "runs still alive at the cap (counted in `trials`, never dropped)"),
            Column::float("exact_p_kill", "the exact values of `p_kill`, `mean_turns` and `mean_actions`"),
            Column::float("exact_mean_turns", "the exact values of `p_kill`, `mean_turns` and `mean_actions`"),
            Column::float("exact_mean_actions", "the exact values of `p_kill`, `mean_turns` and `mean_actions`"),
            Column::float("points", "the attacker's points cost"),
            Column::float("target_points", "the target's points cost"),
            Column::text(
                "played",
                "what the run plays beyond the two cards (`ttk`'s `played:` lines: a target's bubble shield, the \
                 Spot action, Tracker), one sentence each joined by `; `; null when nothing",
            ),
            Column::text(
                "not_modelled",
                "what the run leaves out of the rules (`ttk`'s `not modelled:` lines), one sentence each joined by \
                 `; `; null when nothing",
            ),
        ]),
    ],
};

/// `ttk_by_turn`.
pub const TTK_BY_TURN: TableDecl = TableDecl {
    name: "ttk_by_turn",
    title: "",
    about: "One row per attack-run cell and turn 1..cap (the ruleset's turn or round).",
    parts: &[
        Part::Own(&[RULESET, ATTACKER]),
        Part::Target,
        Part::Conditions,
        Part::Own(&[
            Column::int("turn", "the turn (or round), from 1 to the turn cap"),
            Column::float("p_killed_by_turn", "P(killed by the end of this turn), Monte Carlo"),
            Column::float("ci95_low", "the Wilson 95% interval of `p_killed_by_turn`"),
            Column::float("ci95_high", "the Wilson 95% interval of `p_killed_by_turn`"),
            Column::float("exact_p_killed_by_turn", "the exact value of `p_killed_by_turn`"),
        ]),
    ],
};

/// `cost_efficiency`.
pub const COST_EFFICIENCY: TableDecl = TableDecl {
    name: "cost_efficiency",
    title: "what a point buys",
    about: "Build rows (the whole attacker) have `weapon` null; weapon rows have the weapon's name. Computed \
            from the exact attack-run distributions (also in duel scenarios, as attack runs of each side against \
            the other); the interval columns come from the Monte Carlo runs of attack-run scenarios.",
    parts: &[
        Part::Own(&[
            RULESET,
            ATTACKER,
            Column::text("weapon", "null on build rows; the weapon (system) on weapon rows"),
            Column::float("points", "the attacker's points cost"),
        ]),
        Part::Attacker,
        Part::Target,
        Part::Own(&[Column::float("target_points", "the target's points cost")]),
        Part::Conditions,
        Part::Values,
        Part::Own(&[
            Column::float(
                "p_kill_turn1",
                "build rows: P(killed on turn 1); weapon rows: P(one attack kills from full health)",
            ),
            Column::float("p_kill_turn1_per_point", "build rows: `p_kill_turn1` / points"),
            Column::float(
                "kill_points_per_turn",
                "build rows: target points destroyed per turn spent, P(kill) × target_points / E[min(T, cap)] \
                 (every attack of every turn)",
            ),
            Column::float(
                "kill_points_per_turn_per_point",
                "build rows: the same per attacker point (the headline's ranking and the first cost chart's)",
            ),
            Column::float(
                "kill_points_per_turn_per_point_mc",
                "build rows: the Monte Carlo estimate of `kill_points_per_turn_per_point` from the cell's runs \
                 (attack-run scenarios; null where nothing was simulated), with its delta-method 95% interval (a \
                 check of the exact value beside it, which it holds about 19 times in 20)",
            )
            .with_ci95(),
        ]),
    ],
};

/// `duels`.
pub const DUELS: TableDecl = TableDecl {
    name: "duels",
    title: "duel scenarios",
    about: "One row per (a, b, conditions).",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("a", "side A's name"),
            Column::text("b", "side B's name"),
            Column::float("a_points", "A's points cost"),
            Column::float("b_points", "B's points cost"),
        ]),
        Part::Conditions,
        Part::Own(&[
            Column::int("trials", "duels played for this cell"),
            Column::float("p_a_wins", "P(A wins), with its Wilson 95% interval").with_ci95(),
            Column::float("p_b_wins", "P(B wins), with its Wilson 95% interval").with_ci95(),
            Column::float("p_draw", "P(draw), with its Wilson 95% interval; draws = mutual kills + timeouts")
                .with_ci95(),
            Column::float("p_mutual_kill", "P(both eliminated in one turn)"),
            Column::float("p_timeout", "P(both alive at the cap)"),
            Column::float("mean_turns", "mean turns (or rounds) of a duel, with its 95% interval").with_ci95(),
            Column::float(
                "exact_p_a_wins",
                "the exact duel odds of `p_a_wins`, `p_b_wins` and `p_draw` (null where the ruleset has no exact \
                 solver for the duel)",
            ),
            Column::float(
                "exact_p_b_wins",
                "the exact duel odds of `p_a_wins`, `p_b_wins` and `p_draw` (null where the ruleset has no exact \
                 solver for the duel)",
            ),
            Column::float(
                "exact_p_draw",
                "the exact duel odds of `p_a_wins`, `p_b_wins` and `p_draw` (null where the ruleset has no exact \
                 solver for the duel)",
            ),
        ]),
        Part::Own(ENGAGEMENT_FACTS),
    ],
};

/// The last columns of duel and battle tables: whether each side can attack at the
/// conditions, and the initiative split ([`engagement_cells`]).
pub const ENGAGEMENT_FACTS: &[Column] = &[
    Column::boolean(
        "a_can_attack",
        "whether side A can attack at these conditions (a weapon in range, a reach for a special attack; a force: \
         some unit of it can attack some enemy unit); a side that cannot is harmless whatever the dice",
    ),
    Column::boolean(
        "b_can_attack",
        "whether side B can attack (N-player rows: whether some opponent can attack the seat)",
    ),
    Column::float(
        "p_a_wins_a_first",
        "P(A wins given A acted first): A took the first action of the first turn (TechCommander: won turn 1's \
         initiative roll; MECHCOM: won round 1's roll-off; Skirmishers: led, `FIRST_SIDE`; battles: first in turn \
         1's initiative order), with its Wilson 95% interval; null where A never acted first or nobody acts first \
         (Shellshock duels and battles fire simultaneously); Monte Carlo",
    )
    .with_ci95(),
    Column::float(
        "p_a_wins_b_first",
        "P(A wins given B (N players: another seat) acted first), with its Wilson 95% interval; null as above",
    )
    .with_ci95(),
    Column::boolean(
        "decided_by_initiative",
        "whether `p_a_wins_a_first` and `p_a_wins_b_first` differ by more than 0.25 (false when either is null)",
    ),
];

/// The cells of [`ENGAGEMENT_FACTS`]: `can` = (A can attack, B can attack) and A's
/// initiative split.
pub fn engagement_cells(can: (bool, bool), split: &InitiativeSplit) -> Vec<Cell> {
    let part = |c: Option<crate::stats::Conditional>| -> [Cell; 3] {
        match c {
            Some(c) => [c.p.into(), c.ci.low.into(), c.ci.high.into()],
            None => [Cell::Null, Cell::Null, Cell::Null],
        }
    };
    let mut v = vec![can.0.into(), can.1.into()];
    v.extend(part(split.own_first));
    v.extend(part(split.other_first));
    v.push(split.decided_by_initiative().into());
    v
}

/// The key columns of one ruleset's cell tables: `ruleset`, the sides, the ruleset's
/// target columns, then one column per axis.
#[derive(Debug, Clone)]
pub struct Layout {
    pub ruleset: &'static str,
    pub target_columns: Vec<Column>,
    pub axes: &'static [AxisSpec],
}

impl Layout {
    /// The empty table of `decl` in this layout, with the ruleset's `attacker` and
    /// `values` columns in their places (empty for tables without them).
    pub(super) fn schema(&self, decl: &TableDecl, attacker: &[Column], values: &[Column]) -> Table {
        decl.table(&Supplied { target: &self.target_columns, axes: self.axes, attacker, values })
    }

    pub(super) fn row(&self, sides: Vec<Cell>, point: &Point, after: Vec<Cell>) -> Vec<Cell> {
        std::iter::once(Cell::from(self.ruleset)).chain(sides).chain(point.cells(self.axes)).chain(after).collect()
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
    l.schema(&detail_decl(d), &d.attacker_columns, &d.value_columns)
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
    l.schema(&TIME_TO_KILL, &[], &[])
}

/// One `time_to_kill` row: the cell's Monte Carlo `tally` (its summary computed here),
/// its exact law, and what its run plays beyond the cards and leaves out
/// (`(played, not_modelled)`, each a ruleset's sentences).
pub fn push_time_to_kill(
    t: &mut Table,
    l: &Layout,
    sd: &Sides<'_>,
    point: &Point,
    tally: &TtkTally,
    exact: &ExactTtk,
    (played, not_modelled): (&[String], &[String]),
) {
    let s = &tally.summary();
    let sides: Vec<Cell> = std::iter::once(Cell::from(sd.attacker)).chain(sd.target()).collect();
    let joined = |v: &[String]| if v.is_empty() { Cell::Null } else { Cell::Text(v.join("; ")) };
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
            joined(played),
            joined(not_modelled),
        ],
    ));
}

/// `ttk_by_turn`: one row per attack-run cell and turn (the ruleset's turn or round).
pub fn ttk_by_turn(l: &Layout) -> Table {
    l.schema(&TTK_BY_TURN, &[], &[])
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
pub fn cost_efficiency(l: &Layout, attacker_columns: &[Column], value_columns: &[Column]) -> Table {
    l.schema(&COST_EFFICIENCY, attacker_columns, value_columns)
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
    l.schema(&DUELS, &[], &[])
}

/// One duel cell: A and B with their points, the Monte Carlo tally, the exact
/// outcome where there is one, and whether each side can attack (`can`).
pub fn push_duel(
    t: &mut Table,
    l: &Layout,
    [a, b]: [(&str, f64); 2],
    point: &Point,
    tally: &DuelTally,
    exact: Option<ExactDuelOdds>,
    can: (bool, bool),
) {
    let s = tally.summary();
    t.push(
        l.row(
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
            ]
            .into_iter()
            .chain(engagement_cells(can, &s.initiative))
            .collect(),
        ),
    );
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
