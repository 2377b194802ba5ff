//! `volley odds`: exact per-action odds of a build's weapon systems against a target.

use anyhow::{Result, anyhow};
use clap::Args;

use super::args::{CatalogArgs, ConditionArgs, FormatArgs, TargetArgs};
use super::{print_table, write_stdout};
use crate::output::{Cell, Format, Table};
use crate::rules::techcommander::{Attacker, Conditions, SystemOdds, Target, all_odds};

#[derive(Debug, Args)]
pub struct OddsArgs {
    /// Attacking build from the catalogue
    #[arg(long, value_name = "BUILD")]
    pub attacker: String,
    /// Only this weapon system of the build
    #[arg(long, value_name = "NAME")]
    pub weapon: Option<String>,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub conditions: ConditionArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

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

pub fn run(args: &OddsArgs, catalog: &CatalogArgs) -> Result<()> {
    let cat = catalog.load()?;
    let build = cat.find_build(&args.attacker).map_err(|e| anyhow!(e))?;
    let attacker = Attacker::from_build(&cat, build);
    let target = args.target.spec()?.resolve(&cat).map_err(|e| anyhow!(e))?;
    let cond = args.conditions.conditions()?;
    let mut rows = all_odds(&attacker, &target, &cond, &crate::rules::techcommander::Options::default());
    if let Some(w) = &args.weapon {
        let names: Vec<&str> = attacker.systems.iter().map(|s| s.weapon.name.as_str()).collect();
        if attacker.system_index(w).is_none() {
            return Err(anyhow!(
                "build `{}` has no weapon `{w}`; its weapons are: {}{}",
                attacker.name,
                names.join(", "),
                crate::catalogue::error::did_you_mean(w, names.iter().copied())
            ));
        }
        rows.retain(|r| r.weapon.eq_ignore_ascii_case(w));
    }
    let table = odds_table(&attacker, &target, &rows);
    match args.format.format {
        Format::Json => {
            let mut json = table.to_json();
            for (obj, row) in json.as_array_mut().expect("array").iter_mut().zip(&rows) {
                let extra = serde_json::json!({
                    "modifiers": modifiers_json(row),
                    "life_lost_distribution": row.odds.life_lost,
                    "conditions": conditions_json(&cond),
                });
                obj.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
            }
            write_stdout(&(serde_json::to_string_pretty(&json)? + "\n"))
        }
        Format::Table => {
            write_stdout(&format!(
                "{} vs {} (size AC{}, damage AC{}): {}\n",
                attacker.name,
                target.name,
                target.size_ac,
                target.damage_ac,
                describe(&cond)
            ))?;
            print_table(&table, Format::Table, 4)
        }
        Format::Csv => print_table(&table, Format::Csv, 4),
    }
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

fn modifiers_json(row: &SystemOdds) -> serde_json::Value {
    match row.shot {
        crate::rules::techcommander::RowShot::Fires(s) => {
            let m = s.modifiers;
            serde_json::json!({
                "base": crate::rules::techcommander::rulings::BASE_TARGET_NUMBER,
                "size": m.size, "fire_control": m.fire_control, "attacker_bonus": m.attacker_bonus,
                "movement": m.movement, "cover": m.cover, "range": m.range, "smoke": m.smoke,
                "status": m.status, "mode": m.mode, "nlos_shot": s.nlos,
            })
        }
        _ => serde_json::Value::Null,
    }
}

fn conditions_json(c: &Conditions) -> serde_json::Value {
    serde_json::json!({
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
