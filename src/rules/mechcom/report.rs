//! What MECHCOM reports: the exact odds of one attack with each weapon (`volley odds`
//! and the sweep's `attack_odds` table), its rows of `cost_efficiency`, and the words
//! that describe conditions.

use serde_json::{Value, json};

use crate::output::{Cell, Column, Table};
use crate::rules::ruleset::{CostRow, DetailRow, OddsReport};

use super::attack_run::AttackRun;
use super::conditions::Conditions;
use super::mech::Model;
use super::notes;
use super::odds::{AttackOdds, attack_odds};
use super::options::Options;
use super::run_policy::RunPolicy;
use super::situation::{Cover, Situation};
use super::weapon::Weapon;

/// The conditions of one MECHCOM engagement: the situation of the attack and the
/// conditions each side carries. In duels, A carries `attacker` and B `target`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Setting {
    pub sit: Situation,
    pub attacker: Conditions,
    pub target: Conditions,
}

/// The name of a cover.
pub fn cover_name(c: Cover) -> &'static str {
    match c {
        Cover::None => "none",
        Cover::Half => "half",
        Cover::Soft => "soft",
        Cover::Total => "total",
    }
}

fn conditions_text(c: Conditions) -> String {
    let names: Vec<&str> = c.iter().map(|x| x.name()).collect();
    if names.is_empty() { "none".into() } else { names.join("+") }
}

/// One line saying what the conditions are.
pub fn describe(s: &Setting) -> String {
    let mut parts = vec![
        format!("range {} {}", s.sit.range, crate::output::wording::unit_for(f64::from(s.sit.range), "hexes")),
        format!("cover {}", cover_name(s.sit.cover)),
    ];
    if s.sit.engaged {
        parts.push("engaged".into());
    }
    if s.sit.levels_above != 0 {
        parts.push(format!("{:+} levels", s.sit.levels_above));
    }
    if s.sit.spot_tokens > 0 {
        parts.push(format!("{} spot tokens", s.sit.spot_tokens));
    }
    if s.sit.heavy_moved {
        parts.push("moved (heavy)".into());
    }
    if s.sit.barrage_dice > 0 {
        parts.push(format!("{} barrage dice", s.sit.barrage_dice));
    }
    if !s.attacker.is_empty() {
        parts.push(format!("attacker {}", conditions_text(s.attacker)));
    }
    if !s.target.is_empty() {
        parts.push(format!("target {}", conditions_text(s.target)));
    }
    parts.join(", ")
}

/// The weapons an attacker attacks with in reports: its own, then Unarmed.
pub fn weapons_of(a: &Model) -> Vec<Weapon> {
    a.mech.weapons.iter().cloned().chain([Weapon::unarmed()]).collect()
}

/// A weapon and the exact odds of one attack with it (`Err`: why it cannot attack).
pub type WeaponOdds = (Weapon, Result<AttackOdds, String>);

/// One attack of each weapon (or only `weapon`), exact: `Err` is the reason it cannot
/// attack.
///
/// # Errors
/// A weapon the attacker does not carry (with its weapons and the nearest name).
pub fn all_odds(
    a: &Model,
    weapon: Option<&str>,
    t: &Model,
    s: &Setting,
    o: &Options,
) -> Result<Vec<WeaponOdds>, String> {
    let mut weapons = weapons_of(a);
    if let Some(w) = weapon {
        let names: Vec<&str> = weapons.iter().map(|x| x.name.as_str()).collect();
        if !names.iter().any(|n| n.eq_ignore_ascii_case(w)) {
            return Err(format!(
                "mech `{}` has no weapon `{w}`; its weapons are: {}{}",
                a.mech.name,
                names.join(", "),
                crate::catalogue::error::did_you_mean(w, names.iter().copied())
            ));
        }
        weapons.retain(|x| x.name.eq_ignore_ascii_case(w));
    }
    Ok(weapons
        .into_iter()
        .map(|w| {
            let odds = attack_odds(a, &w, t, &s.sit, o).map_err(|e| e.to_string());
            (w, odds)
        })
        .collect())
}

/// The odds table's columns, in order.
pub const ODDS_COLUMNS: [&str; 15] = [
    "attacker",
    "weapon",
    "target",
    "target_integrity",
    "melee",
    "stability",
    "dice",
    "armour",
    "p_die_hit",
    "p_die_crit",
    "expected_hits",
    "expected_integrity_loss",
    "p_destroy",
    "p_hit",
    "no_attack",
];

/// `volley odds` for MECHCOM.
///
/// # Errors
/// As [`all_odds`].
pub fn odds_report(
    a: &Model,
    a_name: &str,
    weapon: Option<&str>,
    t: &Model,
    t_name: &str,
    s: &Setting,
    o: &Options,
) -> Result<OddsReport, String> {
    let rows = all_odds(a, weapon, t, s, o)?;
    let mut table = Table::new(ODDS_COLUMNS);
    let mut json = Vec::new();
    let mut not_modelled = Vec::new();
    for (w, r) in &rows {
        let mut cells: Vec<Cell> = vec![a_name.into(), w.name.as_str().into(), t_name.into(), t.mech.integrity.into()];
        cells.extend(value_cells(r));
        table.push(cells);
        let mut j = match r {
            Ok(odds) => odds.to_json(),
            Err(why) => json!({ "weapon": w.name, "no_attack": why, "p_destroy": 0.0, "expected_integrity_loss": 0.0 }),
        };
        let obj = j.as_object_mut().expect("object");
        obj.insert("attacker".into(), json!(a_name));
        obj.insert("target".into(), json!(t_name));
        obj.insert("target_integrity".into(), json!(t.mech.integrity));
        obj.insert("setting".into(), json!(describe(s)));
        let weapon_notes = notes::one_attack(a, w);
        obj.insert("not_modelled".into(), json!(weapon_notes));
        not_modelled.extend(weapon_notes);
        json.push(j);
    }
    let mut header = format!(
        "{a_name} vs {t_name} (Stability {}, Armour {}, Integrity {}): {}",
        t.mech.stability,
        t.mech.armour,
        t.mech.integrity,
        describe(s)
    );
    for n in &not_modelled {
        header += &format!("\nnot modelled: {n}");
    }
    Ok(OddsReport { header, table, json: Value::Array(json) })
}

/// Cells from `melee` to `no_attack` of an odds row.
fn value_cells(r: &Result<AttackOdds, String>) -> Vec<Cell> {
    match r {
        Ok(x) => vec![
            x.melee.into(),
            x.stability.map_or(Cell::Null, |s| Cell::Int(s.into())),
            x.dice.into(),
            x.armour.map_or(Cell::Null, |s| Cell::Int(s.into())),
            x.per_die.hit.into(),
            x.per_die.crit.into(),
            x.expected_hits.into(),
            x.expected_integrity_loss.into(),
            x.p_destroy.into(),
            x.p_hit.into(),
            Cell::Null,
        ],
        Err(why) => {
            let mut v = vec![Cell::Null; 10];
            v.push(why.as_str().into());
            v
        }
    }
}

/// `attack_odds` columns between `attacker` and `target`.
pub fn odds_attacker_columns() -> Vec<Column> {
    vec![Column::text("weapon", "weapon name, or `Unarmed`")]
}

/// `attack_odds` columns after the axes.
pub fn odds_value_columns() -> Vec<Column> {
    vec![
        Column::boolean("melee", "a melee attack (against the single defence die) rather than shooting"),
        Column::int(
            "stability",
            "effective Stability a die must beat when shooting, after every modifier (null for melee)",
        ),
        Column::int("dice", "dice rolled: Attacks plus Barrage dice (1 unarmed), before Flurry dice"),
        Column::int("armour", "effective Armour of the target's armour roll (null for melee without one)"),
        Column::float(
            "p_die_hit",
            "P(one die hits without a crit); melee: P(a die wins without a crit), averaged over the defence die",
        ),
        Column::float("p_die_crit", "P(one die crits) (a crit is worth 2 hits)"),
        Column::float(
            "expected_hits",
            "shooting: expected hits of the attack roll (a crit counts 2, Flurry dice included); melee: expected \
             winning dice",
        ),
        Column::float(
            "expected_integrity_loss",
            "expected Integrity the target loses to this attack (after armour, Volatile, Corroded, Rend, ...)",
        ),
        Column::float("p_destroy", "P(this one attack destroys the target from full Integrity)"),
        Column::float("p_hit", "P(at least one hit in the attack roll)"),
        Column::text("no_attack", "why the weapon cannot attack (null when it can)"),
    ]
}

/// Rows of `attack_odds`: one per weapon (Unarmed included).
///
/// # Errors
/// Never for a named weapon list; as [`all_odds`].
pub fn odds_rows(a: &Model, t: &Model, s: &Setting, o: &Options) -> Result<Vec<DetailRow>, String> {
    Ok(all_odds(a, None, t, s, o)?
        .iter()
        .map(|(w, r)| DetailRow { attacker_cells: vec![w.name.as_str().into()], value_cells: value_cells(r) })
        .collect())
}

/// `cost_efficiency` columns after `points`.
pub fn cost_attacker_columns() -> Vec<Column> {
    vec![Column::int("energy", "the attacker's Energy per round")]
}

/// `cost_efficiency` columns after the axes.
pub fn cost_value_columns() -> Vec<Column> {
    vec![
        Column::int(
            "attacks_per_turn",
            "build rows: attacks the policy makes in round 1 (Energy spent on attacks; an attacker that spots: its \
             actions that may be attacks); weapon rows: 1",
        ),
        Column::float(
            "expected_integrity_loss_per_round",
            "build rows: expected Integrity taken by all the attacks of round 1 from the untouched target (the sum \
             over `attacks_per_turn` attacks, each weighted by the chance it is made when the attacker spots); \
             weapon rows: by one attack",
        ),
        Column::float(
            "integrity_per_round_per_point",
            "build rows: `expected_integrity_loss_per_round` / points; null on weapon rows",
        ),
        Column::float(
            "expected_integrity_loss_per_attack",
            "build rows: the mean over the attacks of round 1; weapon rows: one attack",
        ),
        Column::float(
            "integrity_per_point",
            "build rows: `expected_integrity_loss_per_attack` / points (per attack: use \
             `integrity_per_round_per_point` to compare mechs); null on weapon rows",
        ),
        Column::float(
            "marginal_integrity_per_round",
            "weapon rows: the weapon's marginal value, the build's `expected_integrity_loss_per_round` with the \
             weapon minus without it (the policy plans round 1 again with the Energy it frees: the \
             book prices no weapon); null on build rows",
        ),
        Column::float(
            "marginal_integrity_per_round_per_point",
            "weapon rows: `marginal_integrity_per_round` / the build's points (is this weapon worth its share of \
             the mech's cost?); null on build rows",
        ),
        Column::float(
            "marginal_rounds_saved",
            "weapon rows: the rounds the weapon saves the build over the whole run: its restricted mean rounds to \
             kill (E[min(rounds to kill, cap + 1)], exact, a run without a kill counting cap + 1) without the \
             weapon minus with it (a weapon held back in round 1, e.g. behind the Typhon's Searing Wave, shows \
             here); null on build rows",
        ),
    ]
}

fn per(x: f64, by: f64) -> Cell {
    if by > 0.0 { Cell::Float(x / by) } else { Cell::Null }
}

/// Each attack of `run`'s round 1 as its plan makes it (Spot tokens are used up): its
/// expected Integrity loss against the untouched target. A run that places tokens gives
/// each action that may be an attack, weighted by the chance it is one
/// ([`AttackRun::token_round_one`]).
fn round_one(run: &AttackRun) -> Vec<f64> {
    if let Some(t) = run.token_round_one() {
        return t;
    }
    match run.rounds.first() {
        Some(&(start, end)) => run.plan[start..end].iter().map(|st| run.expected_loss(st)).collect(),
        None => Vec::new(),
    }
}

/// The restricted mean rounds to kill of `run`: E[min(rounds to kill, cap + 1)], exact.
fn restricted_rounds(run: &AttackRun) -> f64 {
    1.0 + run.exact().p_kill_by_round.iter().map(|p| 1.0 - p).sum::<f64>()
}

/// The run of `a` without weapon `name`, planned by `policy` within the round cap as
/// `run` was: round 1's expected Integrity loss (0 when no attack is left) and its
/// restricted mean rounds to kill (cap + 1 when no attack is left).
fn without(a: &Model, name: &str, t: &Model, s: &Setting, o: &Options, plan: (RunPolicy, u32)) -> (f64, f64) {
    let mut m = a.clone();
    if let Some(i) = m.mech.weapons.iter().position(|w| w.name == name) {
        m.mech.weapons.remove(i);
    }
    AttackRun::new(&m, t, &s.sit, o, plan.0, plan.1)
        .map_or((0.0, plan.1 as f64 + 1.0), |r| (round_one(&r).iter().sum(), restricted_rounds(&r)))
}

/// The side's row (its run's first round: the attacks its plan makes and their expected
/// Integrity loss against the untouched target), then one row per weapon (one attack),
/// with its marginal value: the side's round 1 with the weapon minus without it, the run
/// planned again by `plan` (the policy and the round cap of `run`).
///
/// # Errors
/// As [`all_odds`].
pub fn cost_rows(
    a: &Model,
    points: f64,
    t: &Model,
    s: &Setting,
    o: &Options,
    run: &AttackRun,
    plan: (RunPolicy, u32),
) -> Result<Vec<CostRow>, String> {
    let odds = all_odds(a, None, t, s, o)?;
    let first = round_one(run);
    let per_round = first.iter().sum::<f64>();
    let e = if first.is_empty() { 0.0 } else { per_round / first.len() as f64 };
    let mut rows = vec![CostRow {
        weapon: None,
        attacker_cells: vec![a.mech.energy.into()],
        value_cells: vec![
            (first.len() as u32).into(),
            per_round.into(),
            per(per_round, points),
            e.into(),
            per(e, points),
            Cell::Null,
            Cell::Null,
            Cell::Null,
        ],
        p_kill_turn1: None,
    }];
    let rounds = restricted_rounds(run);
    for (w, r) in &odds {
        let Ok(x) = r else { continue };
        let (round_without, rounds_without) = without(a, &w.name, t, s, o, plan);
        let marginal = per_round - round_without;
        rows.push(CostRow {
            weapon: Some(w.name.clone()),
            attacker_cells: vec![a.mech.energy.into()],
            value_cells: vec![
                1u32.into(),
                x.expected_integrity_loss.into(),
                Cell::Null,
                x.expected_integrity_loss.into(),
                Cell::Null,
                marginal.into(),
                per(marginal, points),
                (rounds_without - rounds).into(),
            ],
            p_kill_turn1: Some(x.p_destroy),
        });
    }
    Ok(rows)
}
