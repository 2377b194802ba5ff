//! One turn's exact odds of every gunner of an attacker against a target (`volley
//! odds`, the `gunner_odds` detail table): P(hit) per weapon, the joint hit law, the
//! natural 20 and second 20, the Internal law on the facing's full armour, and the card-
//! free result of the roll (miss, hit without Internal, Core Hit, each box, Dead).

use serde_json::{Map, Value, json};

use crate::output::{Cell, Column, Table};
use crate::rules::ruleset::{DetailRow, OddsReport};

use super::damage::{Defence, Internal};
use super::gunner::GunnerPlan;
use super::options::DamageDice;

/// The exact odds of one gunner's roll on the untouched facing.
#[derive(Debug, Clone, PartialEq)]
pub struct GunnerOdds {
    pub number: usize,
    /// (weapon, dVT, TN, P(hit)), by TN.
    pub weapons: Vec<(String, &'static str, i64, f64)>,
    pub p_any_hit: f64,
    pub p_all_hit: f64,
    pub p_natural_20: f64,
    pub p_doubled: f64,
    pub p_second_20: f64,
    /// P(exactly the k lowest-TN weapons hit), k = 0..=n.
    pub p_hits: Vec<f64>,
    /// Internal (after armour, shock, penetration) → P over every roll (a miss is 0);
    /// index = Internal. Sums to 1 − `p_second_20`.
    pub internal: Vec<f64>,
    /// P(the Dead box: one gunner's Internal >= Dead X+).
    pub p_dead_box: f64,
    /// P(destroyed: Dead box or second 20).
    pub p_destroyed: f64,
    /// Card-free results: miss, hit without Internal, Core Hit, box 1.., Dead (incl. 2nd 20).
    pub results: Vec<(String, f64)>,
    pub expected_internal: f64,
}

impl GunnerOdds {
    pub fn new(plan: &GunnerPlan, def: &Defence, how: DamageDice) -> GunnerOdds {
        let n = plan.weapons.len();
        let mut p_hits = vec![0.0; n + 1];
        for &(k, _, p) in &plan.classes {
            p_hits[k] += p;
        }
        p_hits[n] += plan.p_second_20;
        let weapons = plan
            .weapons
            .iter()
            .map(|w| (w.name.clone(), w.kind.name(), w.target_number, plan.law.p_hit(w.target_number, plan.gunnery)))
            .collect();
        // misses leave Internal 0; the second 20 stands apart (`p_second_20`)
        let mut internal = vec![p_hits[0]];
        let mut results: Vec<(String, f64)> =
            vec![("miss".into(), p_hits[0]), ("no internal".into(), 0.0), ("core".into(), 0.0)];
        results.extend(def.boxes.iter().map(|b| (format!("{}%", b.percent), 0.0)));
        results.push(("dead".into(), plan.p_second_20));
        let last = results.len() - 1;
        let (mut p_dead_box, mut expected) = (0.0, 0.0);
        for (k, m, p) in plan.classes.iter().copied() {
            if k == 0 {
                continue;
            }
            let one = GunnerPlan { classes: vec![(k, m, p)], ..plan.clone() };
            for (_, i, q) in one.internal_joint(def, def.armour, how) {
                let iu = i as usize;
                if internal.len() <= iu {
                    internal.resize(iu + 1, 0.0);
                }
                internal[iu] += q;
                expected += q * f64::from(i);
                let slot = match def.internal(i) {
                    Internal::None => 1,
                    Internal::Dead => {
                        p_dead_box += q;
                        last
                    }
                    Internal::Lines(_) => def.box_of(i).map_or(2, |b| 3 + b),
                };
                results[slot].1 += q;
            }
        }
        GunnerOdds {
            number: plan.number,
            weapons,
            p_any_hit: 1.0 - p_hits[0],
            p_all_hit: p_hits[n],
            p_natural_20: plan.law.p_natural_20(),
            p_doubled: plan.law.p_doubled(),
            p_second_20: plan.p_second_20,
            p_hits,
            internal,
            p_dead_box,
            p_destroyed: p_dead_box + plan.p_second_20,
            results,
            expected_internal: expected,
        }
    }

    /// The JSON object of one gunner (keys of issue 13).
    pub fn json(&self, plan: &GunnerPlan) -> Value {
        let mut dist = Map::new();
        for (i, p) in self.internal.iter().enumerate() {
            if *p > 0.0 {
                dist.insert(i.to_string(), json!(p));
            }
        }
        let results: Map<String, Value> = self.results.iter().map(|(k, p)| (k.clone(), json!(p))).collect();
        json!({
            "gunner": self.number,
            "dice": plan.dice.name(),
            "gunnery": plan.gunnery,
            "spread": plan.spread,
            "exact_depth": plan.law.depth,
            "weapons": self.weapons.iter().zip(&plan.weapons).map(|((name, kind, tn, p), w)| json!({
                "name": name, "type": kind, "target_number": tn, "p_hit": p,
                "damage": w.dice[0], "shock": w.dice[1], "penetration": w.dice[2],
            })).collect::<Vec<_>>(),
            "p_hits": self.p_hits,
            "p_any_hit": self.p_any_hit,
            "p_all_hit": self.p_all_hit,
            "p_natural_20": self.p_natural_20,
            "p_doubled": self.p_doubled,
            "p_second_20": self.p_second_20,
            "internal_distribution": dist,
            "expected_internal": self.expected_internal,
            "p_dead_box": self.p_dead_box,
            "p_destroyed": self.p_destroyed,
            "results": results,
        })
    }
}

/// `volley odds`: every gunner that can fire (those firing `weapon` when given).
///
/// # Errors
/// A weapon no firing gunner holds.
pub fn report(
    header: String,
    plans: &[GunnerPlan],
    def: &Defence,
    how: DamageDice,
    weapon: Option<&str>,
    attacker: &str,
    target: &str,
) -> Result<OddsReport, String> {
    let chosen: Vec<&GunnerPlan> = plans
        .iter()
        .filter(|p| weapon.is_none_or(|w| p.weapons.iter().any(|x| x.name.eq_ignore_ascii_case(w.trim()))))
        .collect();
    if let (Some(w), true) = (weapon, chosen.is_empty()) {
        return Err(format!("no gunner of {attacker} fires `{w}` at this range"));
    }
    // `attacker`, `weapon` and `target` as in every ruleset's odds, so runs concatenate.
    let mut table = Table::new([
        "attacker",
        "gunner",
        "weapon",
        "type",
        "target",
        "target_number",
        "p_hit",
        "p_any_hit",
        "p_natural_20",
        "p_destroyed",
    ]);
    let mut gunners = Vec::new();
    for plan in chosen {
        let g = GunnerOdds::new(plan, def, how);
        for (name, kind, tn, p) in &g.weapons {
            table.push(vec![
                attacker.into(),
                (g.number as u32).into(),
                name.as_str().into(),
                (*kind).into(),
                target.into(),
                Cell::Int(*tn),
                (*p).into(),
                g.p_any_hit.into(),
                g.p_natural_20.into(),
                g.p_destroyed.into(),
            ]);
        }
        gunners.push(g.json(plan));
    }
    let json = json!({
        "attacker": attacker,
        "target": target,
        "armour": def.armour,
        "gunners": gunners,
    });
    Ok(OddsReport { header, table, json })
}

/// `gunner_odds` columns before the target.
pub fn detail_attacker_columns() -> Vec<Column> {
    vec![
        Column::int("gunner", "the gunner's number on the card"),
        Column::text("weapons", "the weapons it fires, joined by `; `"),
    ]
}

/// `gunner_odds` columns after the axes.
pub fn detail_value_columns() -> Vec<Column> {
    vec![
        Column::text("to_hit_dice", "the dice the gunner rolls"),
        Column::int("gunnery_total", "the gunner's Gunnery skill after the `gunnery` bonus"),
        Column::int("spread", "the spreadfire level it fires at"),
        Column::text("target_numbers", "each weapon's target number, joined by `; `"),
        Column::float("p_any_hit", "P(at least one weapon hits)"),
        Column::float("p_all_hit", "P(every weapon hits)"),
        Column::float("p_natural_20", "P(every weapon hits by a natural 20), second 20 included"),
        Column::float("p_doubled", "P(the rolled Damage, Shock and Penetration are multiplied), second 20 included"),
        Column::float("p_second_20", "P(a second natural 20: the target is destroyed)"),
        Column::float("expected_internal", "expected Internal damage of the roll (a miss is 0)"),
        Column::float("p_dead_box", "P(the roll's Internal reaches the Dead box)"),
        Column::float("p_destroyed", "P(destroyed: Dead box or second 20)"),
    ]
}

/// One `gunner_odds` row per gunner that fires.
pub fn detail_rows(plans: &[GunnerPlan], def: &Defence, how: DamageDice) -> Vec<DetailRow> {
    plans
        .iter()
        .map(|plan| {
            let g = GunnerOdds::new(plan, def, how);
            let names: Vec<&str> = plan.weapons.iter().map(|w| w.name.as_str()).collect();
            let tns: Vec<String> = plan.weapons.iter().map(|w| w.target_number.to_string()).collect();
            DetailRow {
                attacker_cells: vec![(g.number as u32).into(), names.join("; ").into()],
                value_cells: vec![
                    plan.dice.name().into(),
                    Cell::Int(plan.gunnery),
                    plan.spread.into(),
                    tns.join("; ").into(),
                    g.p_any_hit.into(),
                    g.p_all_hit.into(),
                    g.p_natural_20.into(),
                    g.p_doubled.into(),
                    g.p_second_20.into(),
                    g.expected_internal.into(),
                    g.p_dead_box.into(),
                    g.p_destroyed.into(),
                ],
            }
        })
        .collect()
}
