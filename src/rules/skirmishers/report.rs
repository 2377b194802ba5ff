//! What `odds`, sweeps' `track_odds` detail table and `cost_efficiency` show.

use serde_json::Value;

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::odds::{AttackOdds, attack_odds};
use super::options::Options;
use super::trooper::Trooper;
use super::weapon::Weapon;
use crate::output::{Cell, Column, Table};
use crate::rules::ruleset::{CostRow, DetailRow, OddsReport};

/// The weapons an odds report covers: `weapon` (carried, or any weapon of the catalogue),
/// or everything `a` carries.
///
/// # Errors
/// An unknown weapon.
pub fn weapons_of(cat: &Catalogue, a: &Trooper, weapon: Option<&str>) -> Result<Vec<Weapon>, String> {
    match weapon {
        Some(name) => match a.weapons().into_iter().find(|w| w.name.eq_ignore_ascii_case(name.trim())) {
            Some(w) => Ok(vec![w.clone()]),
            None => Ok(vec![cat.weapon(name)?.clone()]),
        },
        None => Ok(a.weapons().into_iter().cloned().collect()),
    }
}

/// `volley odds`.
///
/// # Errors
/// Unknown weapon.
pub fn odds_report(
    cat: &Catalogue,
    a: &Trooper,
    weapon: Option<&str>,
    t: &Trooper,
    c: &Conditions,
    o: &Options,
) -> Result<OddsReport, String> {
    // `attacker`, `weapon` and `target` as in every ruleset's odds, so runs concatenate.
    let mut table = Table::new([
        "attacker",
        "weapon",
        "target",
        "target_number",
        "p_hit",
        "p_out",
        "p_dead",
        "hp_after",
        "no_attack",
    ]);
    let mut json = Vec::new();
    for w in weapons_of(cat, a, weapon)? {
        let x = attack_odds(a, &w, t, c, o);
        table.push(vec![
            a.name.as_str().into(),
            x.weapon.as_str().into(),
            t.name.as_str().into(),
            x.target_number.as_ref().map_or(Cell::Null, |t| Cell::Int(*t as i64)),
            x.p_hit().into(),
            x.p_out().into(),
            x.p_dead().into(),
            x.hp_text().into(),
            x.target_number.as_ref().err().map_or(Cell::Null, |e| e.as_str().into()),
        ]);
        let mut j = x.to_json();
        let obj = j.as_object_mut().expect("object");
        obj.insert("attacker".into(), a.name.clone().into());
        obj.insert("target".into(), t.name.clone().into());
        obj.insert("conditions".into(), c.describe().into());
        json.push(j);
    }
    let header = format!(
        "{} vs {} ({} track, armour {}): {}",
        a.name,
        t.name,
        t.track.name(),
        c.armour.unwrap_or(t.armour).name(),
        c.describe()
    );
    Ok(OddsReport { header, table, json: Value::Array(json) })
}

/// `track_odds` columns after the axes.
pub fn odds_value_columns() -> Vec<Column> {
    vec![
        Column::int("target_number", "the TN the 2d6 roll must reach (null: no attack)"),
        Column::float("p_hit", "P(the attack hits)"),
        Column::float("p_out", "P(the target is out of action after this one attack)"),
        Column::float("p_dead", "P(the target is dead after this one attack)"),
        Column::float("expected_hp", "expected HP the target has left (out counts as 0)"),
        Column::float("p_armour_left", "P(any armour cell is left)"),
        Column::text("no_attack", "why the weapon cannot attack (null when it can)"),
    ]
}

fn value_cells(x: &AttackOdds) -> Vec<Cell> {
    vec![
        x.target_number.as_ref().map_or(Cell::Null, |t| Cell::Int(*t as i64)),
        x.p_hit().into(),
        x.p_out().into(),
        x.p_dead().into(),
        x.expected_hp().into(),
        x.p_armour_left().into(),
        x.target_number.as_ref().err().map_or(Cell::Null, |e| e.as_str().into()),
    ]
}

/// Rows of `track_odds`: one per weapon `a` carries.
pub fn odds_rows(a: &Trooper, t: &Trooper, c: &Conditions, o: &Options) -> Vec<DetailRow> {
    a.weapons()
        .into_iter()
        .map(|w| {
            let x = attack_odds(a, w, t, c, o);
            DetailRow { attacker_cells: vec![w.name.as_str().into()], value_cells: value_cells(&x) }
        })
        .collect()
}

/// `cost_efficiency` columns after the axes.
pub fn cost_value_columns() -> Vec<Column> {
    vec![
        Column::int("attacks_per_turn", "build rows: attacks of the attacker's plan in round 1; weapon rows: 1"),
        Column::float(
            "p_out_per_attack",
            "build rows: P(the target is out after the first attack); weapon rows: P(out) of one attack",
        ),
        Column::float(
            "p_out_per_attack_per_pv",
            "`p_out_per_attack` / `pv`: build rows, per the attacker's PV; weapon rows, per the weapon's printed PV",
        ),
        Column::int(
            "pv",
            "build rows: the attacker's PV; weapon rows: the weapon's printed PV (the book's weapon tables)",
        ),
    ]
}

/// The side's row (its plan's first round), then one row per weapon (one attack).
pub fn cost_rows(
    a: &Trooper,
    t: &Trooper,
    c: &Conditions,
    o: &Options,
    run: &super::attack_run::AttackRun,
) -> Vec<CostRow> {
    // Per unit of the row's own cost: the trooper's PV, or the weapon's printed PV.
    let per = |x: f64, pv: u32| if pv > 0 { Cell::Float(x / pv as f64) } else { Cell::Null };
    let exp: Cell = a.experience.name().into();
    let first = run.plan.rounds.first().map_or(0, Vec::len) as u32;
    let e = run.exact();
    let p1 = e.kill_by_action.first().copied().unwrap_or(0.0);
    let mut rows = vec![CostRow {
        weapon: None,
        attacker_cells: vec![exp.clone()],
        value_cells: vec![first.into(), p1.into(), per(p1, a.pv), a.pv.into()],
        p_kill_turn1: None,
    }];
    for w in a.weapons() {
        let x = attack_odds(a, w, t, c, o);
        if x.target_number.is_err() {
            continue;
        }
        rows.push(CostRow {
            weapon: Some(w.name.clone()),
            attacker_cells: vec![exp.clone()],
            value_cells: vec![1u32.into(), x.p_out().into(), per(x.p_out(), w.pv), w.pv.into()],
            p_kill_turn1: Some(x.p_out()),
        });
    }
    rows
}

/// `volley catalog` listings.
///
/// # Errors
/// An unknown listing.
pub fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
    match what {
        "troopers" => {
            let mut t = Table::new([
                "name",
                "track",
                "experience",
                "armour",
                "primary",
                "secondary",
                "grenades",
                "sneak_suit",
                "pv",
            ]);
            for x in &cat.troopers {
                let prim: Vec<&str> = x.primaries.iter().map(|w| w.name.as_str()).collect();
                t.push(vec![
                    x.name.as_str().into(),
                    x.track.name().into(),
                    x.experience.name().into(),
                    x.armour.name().into(),
                    prim.join(" + ").into(),
                    x.secondary.as_ref().map_or(Cell::Null, |w| w.name.as_str().into()),
                    x.grenades.into(),
                    x.sneak_suit.into(),
                    x.pv.into(),
                ]);
            }
            Ok(t)
        }
        "weapons" => {
            let mut t =
                Table::new(["name", "class", "damage", "shots", "ap_cost", "ammo", "short", "long", "pv", "crew"]);
            for w in &cat.weapons {
                let opt = |v: Option<u32>| v.map_or(Cell::Null, Cell::from);
                t.push(vec![
                    w.name.as_str().into(),
                    w.class.name().into(),
                    w.damage_text().into(),
                    match w.shots {
                        Some(super::weapon::Shots::Times(n)) => format!("x{n}").into(),
                        Some(super::weapon::Shots::Unlimited) => "unlimited".into(),
                        None => Cell::Null,
                    },
                    match w.ap_cost {
                        Some(super::weapon::ApCost::Fixed(n)) => n.to_string().into(),
                        Some(super::weapon::ApCost::PerDot(n)) => format!("{n}/dot").into(),
                        None => Cell::Null,
                    },
                    w.ammo.map_or("unlimited".into(), Cell::from),
                    opt(w.short),
                    opt(w.long),
                    w.pv.into(),
                    w.crew.into(),
                ]);
            }
            Ok(t)
        }
        "squads" => {
            let mut t = Table::new(["name", "members", "pv"]);
            for s in &cat.squads {
                let m: Vec<String> = s.members.iter().map(|(i, n)| format!("{} x{n}", cat.troopers[*i].name)).collect();
                t.push(vec![s.name.as_str().into(), m.join(", ").into(), s.pv.into()]);
            }
            Ok(t)
        }
        _ => Err(format!("unknown listing `{what}`: expected troopers, weapons, squads or forces")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::plan::RunPolicy;
    use super::super::tests::{at, cat, trooper, weapon};
    use super::*;

    #[test]
    fn weapon_rows_are_read_per_the_weapons_own_printed_pv() {
        let c = cat();
        let o = Options::default();
        let (a, t) = (trooper(&c, "Rifleman"), trooper(&c, "Rifleman"));
        let run = super::super::AttackRun::new(&a, &t, &at(20), &o, RunPolicy::ActiveWeapon, 12).unwrap();
        let rows = cost_rows(&a, &t, &at(20), &o, &run);
        let float = |c: &Cell| match c {
            Cell::Float(v) => *v,
            other => panic!("{other:?}"),
        };
        let build = &rows[0];
        assert_eq!(build.value_cells[3], Cell::Int(a.pv as i64));
        assert_eq!(float(&build.value_cells[2]), float(&build.value_cells[1]) / a.pv as f64);
        let rifle = rows.iter().find(|r| r.weapon.as_deref() == Some("Rifle")).expect("a Rifle row");
        let pv = weapon(&c, "Rifle").pv;
        assert_ne!(pv, a.pv, "the weapon's printed PV is not the trooper's");
        assert_eq!(rifle.value_cells[3], Cell::Int(pv as i64));
        // Was: p_out / the trooper's PV.
        assert_eq!(float(&rifle.value_cells[2]), float(&rifle.value_cells[1]) / pv as f64);
    }
}
