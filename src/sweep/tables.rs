//! The sweep's result tables, column by column (documented in reports/README.md).

use crate::output::{Cell, Kind, Table};
use crate::rules::techcommander::{Attacker, Conditions, ExactTtk, SystemOdds, Target};
use crate::stats::{DuelTally, TtkSummary, TtkTally};

use super::Scenario;

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
            ("target", Kind::Text),
            ("target_ac", Kind::Int),
            ("target_points", Kind::Float),
        ],
        &[
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
/// `first_turn` are the expected life losses of the systems the plan fires on turn 1;
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
    let e = if first_turn.is_empty() { 0.0 } else { first_turn.iter().sum::<f64>() / first_turn.len() as f64 };
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
            target.name.as_str().into(),
            target.size_ac.into(),
            target.points.into(),
        ],
        c,
        vec![
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
                target.name.as_str().into(),
                target.size_ac.into(),
                target.points.into(),
            ],
            c,
            vec![
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
