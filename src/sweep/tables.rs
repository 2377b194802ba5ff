//! The sweep's result tables, column by column (documented in reports/COLUMNS.md).

use std::fmt;

use serde_json::Value;

use crate::output::{Cell, Kind, Table};
use crate::rules::techcommander::{Attacker, Conditions, ExactTtk, SystemOdds, Target};
use crate::stats::{DuelTally, TtkSummary, TtkTally};

use super::Scenario;

/// The kinds of report volley writes. The manifest's `kind` field names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// `volley sweep` of an attack-run scenario.
    AttackRunSweep,
    /// `volley sweep` of a duel scenario (`volley sweep duels`).
    DuelSweep,
    /// `volley gauntlet`.
    Gauntlet,
}

impl ReportKind {
    pub const ALL: [ReportKind; 3] = [ReportKind::AttackRunSweep, ReportKind::DuelSweep, ReportKind::Gauntlet];

    /// The manifest's `kind` value.
    pub fn name(self) -> &'static str {
        match self {
            ReportKind::AttackRunSweep => "attack-run-sweep",
            ReportKind::DuelSweep => "duel-sweep",
            ReportKind::Gauntlet => "gauntlet",
        }
    }

    /// The kind a manifest states; for a manifest written before volley recorded it, the
    /// kind its contents and tables show (`has_table` says whether a table file exists).
    ///
    /// # Errors
    /// A `kind` this volley does not know, or an old manifest that shows no known kind.
    pub fn of_manifest(manifest: &Value, has_table: &dyn Fn(&str) -> bool) -> Result<ReportKind, String> {
        if let Some(kind) = manifest.get("kind") {
            let name = kind.as_str().unwrap_or("");
            return ReportKind::ALL.into_iter().find(|k| k.name() == name).ok_or_else(|| {
                format!(
                    "manifest.json says this is a `{}` report, which this volley cannot draw (it draws {})",
                    kind.as_str().map_or_else(|| kind.to_string(), str::to_string),
                    ReportKind::ALL.map(ReportKind::name).join(", ")
                )
            });
        }
        // Older manifests: gauntlets record a field, sweeps their scenario's engagement.
        if manifest.get("field").is_some() || has_table("gauntlet_summary") {
            return Ok(ReportKind::Gauntlet);
        }
        match manifest["scenario"]["engagement"].as_str() {
            Some("attack-run") => return Ok(ReportKind::AttackRunSweep),
            Some("duel") => return Ok(ReportKind::DuelSweep),
            _ => {}
        }
        if has_table("duels") {
            Ok(ReportKind::DuelSweep)
        } else if has_table("ttk_by_turn") || has_table("time_to_kill") {
            Ok(ReportKind::AttackRunSweep)
        } else {
            Err("manifest.json does not say what kind of report this is (no `kind`), and its tables match none \
                 volley writes (a sweep's time_to_kill or duels, a gauntlet's gauntlet_summary)"
                .into())
        }
    }
}

impl fmt::Display for ReportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The column guide of every table volley writes (`reports/COLUMNS.md`), written into
/// each report as [`COLUMN_GUIDE_FILE`]: one text, in the repository and in the binary.
pub const COLUMN_GUIDE: &str = include_str!("../../reports/COLUMNS.md");
/// The column guide's file name in a report directory.
pub const COLUMN_GUIDE_FILE: &str = "COLUMNS.md";

/// The condition columns every cell table carries.
pub const CONDITION_COLUMNS: [(&str, Kind); 5] = [
    ("range", Kind::Float),
    ("cover", Kind::Text),
    ("smoke", Kind::Text),
    ("movement", Kind::Text),
    ("status", Kind::Text),
];

fn schema(before: &[(&'static str, Kind)], after: &[(&'static str, Kind)]) -> Vec<(&'static str, Kind)> {
    before.iter().chain(CONDITION_COLUMNS.iter()).chain(after.iter()).copied().collect()
}

fn condition_cells(c: &Conditions) -> [Cell; 5] {
    [c.range.into(), c.cover.name().into(), c.smoke.name().into(), c.movement.name().into(), c.statuses.label().into()]
}

fn row(before: Vec<Cell>, c: &Conditions, after: Vec<Cell>) -> Vec<Cell> {
    before.into_iter().chain(condition_cells(c)).chain(after).collect()
}

fn opt(v: Option<f64>) -> Cell {
    v.map_or(Cell::Null, Cell::Float)
}

/// `hit_probability`: one row per weapon system per attacker, target and conditions.
pub fn hit_probability() -> Table {
    Table::typed(&schema(
        &[
            ("attacker", Kind::Text),
            ("weapon", Kind::Text),
            ("copies", Kind::Int),
            ("target", Kind::Text),
            ("target_ac", Kind::Int),
        ],
        &[
            ("target_number", Kind::Int),
            ("p_hit", Kind::Float),
            ("shots", Kind::Int),
            ("expected_hits", Kind::Float),
            ("p_any_hit", Kind::Float),
            ("expected_damage", Kind::Float),
            ("expected_life_loss", Kind::Float),
            ("p_one_action_kill", Kind::Float),
            ("no_shot", Kind::Text),
        ],
    ))
}

/// Rows of `odds` (the attacker's `all_odds` against `target` under `c`).
pub fn push_hit_probability(t: &mut Table, a: &Attacker, target: &Target, c: &Conditions, odds: &[SystemOdds]) {
    for r in odds {
        t.push(row(
            vec![
                a.name.as_str().into(),
                r.weapon.as_str().into(),
                r.copies.into(),
                target.name.as_str().into(),
                target.size_ac.into(),
            ],
            c,
            vec![
                r.target_number().into(),
                r.p_hit().into(),
                r.shots.into(),
                r.odds.expected_hits.into(),
                r.odds.p_any_hit.into(),
                r.odds.expected_damage.into(),
                r.odds.expected_life_loss.into(),
                r.odds.p_one_action_kill.into(),
                r.no_shot().map(|n| n.code()).into(),
            ],
        ));
    }
}

/// `time_to_kill`: one row per attack-run cell.
pub fn time_to_kill() -> Table {
    Table::typed(&schema(
        &[("attacker", Kind::Text), ("target", Kind::Text), ("target_ac", Kind::Int)],
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
        ],
    ))
}

pub fn push_time_to_kill(
    t: &mut Table,
    a: &Attacker,
    target: &Target,
    c: &Conditions,
    tally: &TtkTally,
    s: &TtkSummary,
    exact: &ExactTtk,
) {
    t.push(row(
        vec![a.name.as_str().into(), target.name.as_str().into(), target.size_ac.into()],
        c,
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
            exact.p_kill.into(),
            opt(exact.mean_turns),
            opt(exact.mean_actions),
        ],
    ));
}

/// `ttk_by_turn`: one row per attack-run cell and turn.
pub fn ttk_by_turn() -> Table {
    Table::typed(&schema(
        &[("attacker", Kind::Text), ("target", Kind::Text), ("target_ac", Kind::Int)],
        &[
            ("turn", Kind::Int),
            ("p_killed_by_turn", Kind::Float),
            ("ci95_low", Kind::Float),
            ("ci95_high", Kind::Float),
            ("exact_p_killed_by_turn", Kind::Float),
        ],
    ))
}

pub fn push_ttk_by_turn(
    t: &mut Table,
    a: &Attacker,
    target: &Target,
    c: &Conditions,
    s: &TtkSummary,
    exact: &ExactTtk,
) {
    for (k, (&p, ci)) in s.p_kill_by_turn.iter().zip(&s.p_kill_by_turn_ci).enumerate() {
        t.push(row(
            vec![a.name.as_str().into(), target.name.as_str().into(), target.size_ac.into()],
            c,
            vec![((k + 1) as u32).into(), p.into(), ci.low.into(), ci.high.into(), exact.p_kill_by_turn[k].into()],
        ));
    }
}

/// `cost_efficiency`: per build (weapon null) and per weapon system.
pub fn cost_efficiency() -> Table {
    Table::typed(&schema(
        &[
            ("attacker", Kind::Text),
            ("weapon", Kind::Text),
            ("points", Kind::Float),
            ("weight", Kind::Float),
            ("power", Kind::Float),
            ("rounds", Kind::Int),
            ("target", Kind::Text),
            ("target_ac", Kind::Int),
            ("target_points", Kind::Float),
        ],
        &[
            ("attacks_per_turn", Kind::Int),
            ("expected_life_loss_per_turn", Kind::Float),
            ("life_per_turn_per_point", Kind::Float),
            ("expected_life_loss_per_action", Kind::Float),
            ("life_per_point", Kind::Float),
            ("life_per_ton", Kind::Float),
            ("life_per_power", Kind::Float),
            ("p_kill_turn1", Kind::Float),
            ("p_kill_turn1_per_point", Kind::Float),
            ("kill_points_per_turn", Kind::Float),
            ("kill_points_per_turn_per_point", Kind::Float),
            ("kill_points_per_turn_per_point_ci95_low", Kind::Float),
            ("kill_points_per_turn_per_point_ci95_high", Kind::Float),
        ],
    ))
}

fn per(x: f64, by: f64) -> Cell {
    if by > 0.0 { Cell::Float(x / by) } else { Cell::Null }
}

/// One build row and one row per weapon system (`odds`, as for `hit_probability`).
/// `first_turn` are the expected life losses of the attacks the plan makes on turn 1
/// (one per action the rules give the build and a system allows: an MSV with one weapon
/// system attacks once, since its second attack must use another system); their sum is
/// the build's expected life taken per turn, their mean its figure per action;
/// `exact` is the attack run's exact distribution; `tally` the Monte Carlo one, if the
/// scenario simulated this cell.
#[allow(clippy::too_many_arguments)]
pub fn push_cost_efficiency(
    t: &mut Table,
    a: &Attacker,
    build_weight: f64,
    build_power: f64,
    target: &Target,
    c: &Conditions,
    odds: &[SystemOdds],
    first_turn: &[f64],
    exact: &ExactTtk,
    tally: Option<&TtkTally>,
) {
    let per_turn = first_turn.iter().sum::<f64>();
    let e = if first_turn.is_empty() { 0.0 } else { per_turn / first_turn.len() as f64 };
    let rate = exact.kill_rate() * target.points;
    let mc = tally.and_then(TtkTally::kill_rate);
    let p1 = exact.p_kill_by_turn.first().copied().unwrap_or(0.0);
    t.push(row(
        vec![
            a.name.as_str().into(),
            Cell::Null,
            a.points.into(),
            build_weight.into(),
            build_power.into(),
            Cell::Null,
            target.name.as_str().into(),
            target.size_ac.into(),
            target.points.into(),
        ],
        c,
        vec![
            (first_turn.len() as u32).into(),
            per_turn.into(),
            per(per_turn, a.points),
            e.into(),
            per(e, a.points),
            per(e, build_weight),
            per(e, build_power),
            p1.into(),
            per(p1, a.points),
            rate.into(),
            per(rate, a.points),
            mc.map_or(Cell::Null, |(_, ci)| per(ci.low * target.points, a.points)),
            mc.map_or(Cell::Null, |(_, ci)| per(ci.high * target.points, a.points)),
        ],
    ));
    for r in odds {
        let Some(sys) = a.systems.iter().find(|s| s.weapon.name == r.weapon) else { continue };
        let (w, p) = (sys.weapon.weight * sys.copies as f64, sys.weapon.power * sys.copies as f64);
        let e = r.odds.expected_life_loss;
        t.push(row(
            vec![
                a.name.as_str().into(),
                r.weapon.as_str().into(),
                a.points.into(),
                w.into(),
                p.into(),
                sys.rounds().map_or(Cell::Null, Cell::from),
                target.name.as_str().into(),
                target.size_ac.into(),
                target.points.into(),
            ],
            c,
            vec![
                // a weapon system fires at most once a turn (one action, or an MSV's
                // second attack with another system): per turn = per attack
                1u32.into(),
                e.into(),
                Cell::Null,
                e.into(),
                Cell::Null,
                per(e, w),
                per(e, p),
                r.odds.p_one_action_kill.into(),
                Cell::Null,
                Cell::Null,
                Cell::Null,
                Cell::Null,
                Cell::Null,
            ],
        ));
    }
}

/// `duels`: one row per duel cell.
pub fn duels() -> Table {
    Table::typed(&schema(
        &[("a", Kind::Text), ("b", Kind::Text), ("a_points", Kind::Float), ("b_points", Kind::Float)],
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
        ],
    ))
}

pub fn push_duel(t: &mut Table, a: &Attacker, b: &Attacker, c: &Conditions, tally: &DuelTally) {
    let s = tally.summary();
    t.push(row(
        vec![a.name.as_str().into(), b.name.as_str().into(), a.points.into(), b.points.into()],
        c,
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
        ],
    ));
}

/// Fields of the manifest that describe the scenario as run.
pub fn scenario_json(s: &Scenario) -> serde_json::Value {
    serde_json::to_value(s).unwrap_or(serde_json::Value::Null)
}
