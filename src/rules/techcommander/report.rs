//! What TechCommander reports: the odds of each weapon system (`volley odds` and the
//! sweep's `hit_probability` table), its rows of `cost_efficiency`, and the words that
//! describe conditions.

use serde_json::{Value, json};

use crate::output::{Cell, Column, Table};
use crate::rules::ruleset::{CostRow, DetailRow, OddsReport};

use super::attack_run::AttackRun;
use super::compiled::FC_NORMAL;
use super::conditions::Conditions;
use super::odds::{RowShot, SystemOdds, all_odds};
use super::options::Options;
use super::profile::{Attacker, Target};
use super::rulings::BASE_TARGET_NUMBER;

/// The odds table's columns, in order.
pub const ODDS_COLUMNS: [&str; 14] = [
    "attacker",
    "weapon",
    "copies",
    "shots",
    "target",
    "target_ac",
    "target_number",
    "p_hit",
    "expected_hits",
    "p_any_hit",
    "expected_damage",
    "expected_life_loss",
    "p_one_action_kill",
    "no_shot",
];

/// The exact odds of each of `attacker`'s systems (or only `weapon`) against `target`.
///
/// # Errors
/// A weapon the build does not carry (with its weapons and the nearest name).
pub fn odds_report(
    attacker: &Attacker,
    weapon: Option<&str>,
    target: &Target,
    c: &Conditions,
    o: &Options,
) -> Result<OddsReport, String> {
    let mut rows = all_odds(attacker, target, c, o);
    if let Some(w) = weapon {
        let names: Vec<&str> = attacker.systems.iter().map(|s| s.weapon.name.as_str()).collect();
        if attacker.system_index(w).is_none() {
            return Err(format!(
                "build `{}` has no weapon `{w}`; its weapons are: {}{}",
                attacker.name,
                names.join(", "),
                crate::catalogue::error::did_you_mean(w, names.iter().copied())
            ));
        }
        rows.retain(|r| r.weapon.eq_ignore_ascii_case(w));
    }
    let table = odds_table(attacker, target, &rows);
    let mut json = table.to_json();
    for (obj, row) in json.as_array_mut().expect("array").iter_mut().zip(&rows) {
        let extra = json!({
            "modifiers": modifiers_json(row),
            "life_lost_distribution": row.odds.life_lost,
            "conditions": conditions_json(c),
        });
        obj.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
    }
    let header = format!(
        "{} vs {} (size AC{}, damage AC{}): {}",
        attacker.name,
        target.name,
        target.size_ac,
        target.damage_ac,
        describe(c)
    );
    Ok(OddsReport { header, table, json })
}

/// One row per system.
pub fn odds_table(attacker: &Attacker, target: &Target, rows: &[SystemOdds]) -> Table {
    let mut t = Table::new(ODDS_COLUMNS);
    for r in rows {
        t.push(vec![
            attacker.name.as_str().into(),
            r.weapon.as_str().into(),
            r.copies.into(),
            r.shots.into(),
            target.name.as_str().into(),
            target.size_ac.into(),
            r.target_number().into(),
            r.p_hit().into(),
            r.odds.expected_hits.into(),
            r.odds.p_any_hit.into(),
            r.odds.expected_damage.into(),
            r.odds.expected_life_loss.into(),
            r.odds.p_one_action_kill.into(),
            r.no_shot().map(|n| Cell::Text(n.describe())).unwrap_or(Cell::Null),
        ]);
    }
    t
}

fn modifiers_json(row: &SystemOdds) -> Value {
    match row.shot {
        RowShot::Fires(s) => {
            let m = s.modifiers;
            json!({
                "base": BASE_TARGET_NUMBER,
                "size": m.size, "fire_control": m.fire_control, "attacker_bonus": m.attacker_bonus,
                "movement": m.movement, "cover": m.cover, "range": m.range, "smoke": m.smoke,
                "status": m.status, "mode": m.mode, "nlos_shot": s.nlos,
            })
        }
        _ => Value::Null,
    }
}

/// The conditions as JSON (every odds row carries them).
pub fn conditions_json(c: &Conditions) -> Value {
    json!({
        "range": c.range, "cover": c.cover.name(), "smoke": c.smoke.name(), "movement": c.movement.name(),
        "status": c.statuses.label(), "designated": c.is_designated(), "jury_rig_failed": c.jury_rig_failed,
        "under_crewed": c.under_crewed, "friendly_msv": c.friendly_msv, "mode": c.mode.name(),
    })
}

/// One line saying what the conditions are.
pub fn describe(c: &Conditions) -> String {
    let mut parts = vec![
        format!("range {}", c.range),
        format!("cover {}", c.cover),
        format!("smoke {}", c.smoke),
        format!("move {}", c.movement),
        format!("status {}", c.statuses),
    ];
    if c.designated {
        parts.push("designated".into());
    }
    if c.jury_rig_failed {
        parts.push("jury rig failed".into());
    }
    if c.under_crewed {
        parts.push("under-crewed".into());
    }
    if c.friendly_msv {
        parts.push("friendly MSV".into());
    }
    if c.mode != Default::default() {
        parts.push(format!("mode {}", c.mode));
    }
    parts.join(", ")
}

/// `hit_probability` columns between `attacker` and `target`.
pub fn hit_attacker_columns() -> Vec<Column> {
    vec![
        Column::text("weapon", "weapon system (all linked copies of one weapon)"),
        Column::int("copies", "linked copies fired together"),
    ]
}

/// `hit_probability` columns after the axes.
pub fn hit_value_columns() -> Vec<Column> {
    vec![
        Column::int("target_number", "roll needed on the d20 (null: no shot)"),
        Column::float("p_hit", "P(one shot hits) = clamp(T, 0, 20) / 20"),
        Column::int("shots", "d20s rolled (shots × copies)"),
        Column::float("expected_hits", "shots × p_hit"),
        Column::float("p_any_hit", "P(at least one hit)"),
        Column::float("expected_damage", "expected damage of the hitting shots, before reduction and AC"),
        Column::float("expected_life_loss", "expected life taken from the target by one action"),
        Column::float("p_one_action_kill", "P(one action takes 20 or more life: kills from full life)"),
        Column::text("no_shot", "why there is no shot: `blocked`, `under-minimum-range`, ... (null when it fires)"),
    ]
}

/// Rows of `hit_probability`: one per weapon system.
pub fn hit_rows(a: &Attacker, target: &Target, c: &Conditions, o: &Options) -> Vec<DetailRow> {
    all_odds(a, target, c, o)
        .iter()
        .map(|r| DetailRow {
            attacker_cells: vec![r.weapon.as_str().into(), r.copies.into()],
            value_cells: vec![
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
        })
        .collect()
}

const WEIGHT_AND_POWER: &str =
    "build rows: swappable weight and power used; weapon rows: weight and power of the system's copies";
const LIFE_PER_TON_AND_POWER: &str = "expected life of one attack (build rows: per action) per ton, per power unit \
                                      (null if 0); a weapon row's attack is its whole turn, for `rounds` turns when \
                                      limited";

/// `cost_efficiency` columns after `points`.
pub fn cost_attacker_columns() -> Vec<Column> {
    vec![
        Column::float("weight", WEIGHT_AND_POWER),
        Column::float("power", WEIGHT_AND_POWER),
        Column::int(
            "rounds",
            "weapon rows: the system's rounds for the whole engagement (e.g. the Kabaaam's 6); null when unlimited \
             and on build rows",
        ),
    ]
}

/// `cost_efficiency` columns after the axes.
pub fn cost_value_columns() -> Vec<Column> {
    vec![
        Column::int(
            "attacks_per_turn",
            "build rows: attacks the build makes on turn 1 under the rules: a vehicle or troop 1, an MSV 2 only with \
             two weapon systems that can fire (its second attack must use another system; linked copies are one \
             system); weapon rows: 1 (a system fires at most once a turn)",
        ),
        Column::float(
            "expected_life_loss_per_turn",
            "build rows: expected life taken by all the attacks of turn 1 (the sum over `attacks_per_turn` \
             attacks); weapon rows: by the system's one attack",
        ),
        Column::float(
            "life_per_turn_per_point",
            "build rows: `expected_life_loss_per_turn` / points (the ranking of the `cost-life-per-turn-per-point` \
             chart)",
        ),
        Column::float(
            "expected_life_loss_per_action",
            "**per action**: build rows: the mean over the attacks of turn 1; weapon rows: the system's one attack",
        ),
        Column::float(
            "life_per_point",
            "**per action**: build rows: `expected_life_loss_per_action` / points (ignores how many attacks a turn \
             the build gets: use `life_per_turn_per_point` to compare builds)",
        ),
        Column::float("life_per_ton", LIFE_PER_TON_AND_POWER),
        Column::float("life_per_power", LIFE_PER_TON_AND_POWER),
    ]
}

fn per(x: f64, by: f64) -> Cell {
    if by > 0.0 { Cell::Float(x / by) } else { Cell::Null }
}

/// Expected life lost by each attack the plan makes on turn 1.
fn first_turn_losses(run: &AttackRun) -> Vec<f64> {
    run.plan
        .iter()
        .filter(|s| s.turn == 0)
        .map(|s| {
            run.side.specs[FC_NORMAL][s.system as usize].as_ref().map_or(0.0, |spec| spec.odds().expected_life_loss)
        })
        .collect()
}

/// The build's row, then one row per weapon system. The build's expected life per turn
/// is the sum over the attacks its plan makes on turn 1 (one per action the rules give
/// the build and a system allows: an MSV with one weapon system attacks once, since its
/// second attack must use another system), its figure per action their mean. A weapon
/// system fires at most once a turn, so its figures per turn and per attack agree.
pub fn cost_rows(
    a: &Attacker,
    build_weight: f64,
    build_power: f64,
    target: &Target,
    c: &Conditions,
    o: &Options,
    run: &AttackRun,
) -> Vec<CostRow> {
    let first = first_turn_losses(run);
    let per_turn = first.iter().sum::<f64>();
    let e = if first.is_empty() { 0.0 } else { per_turn / first.len() as f64 };
    let mut rows = vec![CostRow {
        weapon: None,
        attacker_cells: vec![build_weight.into(), build_power.into(), Cell::Null],
        value_cells: vec![
            (first.len() as u32).into(),
            per_turn.into(),
            per(per_turn, a.points),
            e.into(),
            per(e, a.points),
            per(e, build_weight),
            per(e, build_power),
        ],
        p_kill_turn1: None,
    }];
    // One row per system, in system order (an Omega Override row has no system of its
    // own); two systems of one weapon (copies beyond its link limit) are two rows.
    for (r, sys) in all_odds(a, target, c, o).into_iter().zip(&a.systems) {
        let (w, p) = (sys.weapon.weight * sys.copies as f64, sys.weapon.power * sys.copies as f64);
        let e = r.odds.expected_life_loss;
        rows.push(CostRow {
            weapon: Some(r.weapon.clone()),
            attacker_cells: vec![w.into(), p.into(), sys.rounds().map_or(Cell::Null, Cell::from)],
            value_cells: vec![1u32.into(), e.into(), Cell::Null, e.into(), Cell::Null, per(e, w), per(e, p)],
            p_kill_turn1: Some(r.odds.p_one_action_kill),
        });
    }
    rows
}
