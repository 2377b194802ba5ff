//! `volley odds --mode ram|death-from-above|overrun|trample`: one row for the attacker's
//! special attack (its own system, not a weapon system) against a target.

use serde_json::{Value, json};

use super::{ELIMINATED, HitRoll, Special, SpecialOdds, check, hit_roll, special_odds};
use crate::output::{Cell, Table};
use crate::rules::ruleset::OddsReport;
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::rules::techcommander::report::{conditions_json, describe};
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// The special-attack odds table's columns, in order. `target_number` is the attacker's
/// roll (ram, death from above), `dodge_target` the target's (overrun, trample; empty
/// when it does not dodge); kills and losses are from full life (20).
pub const SPECIAL_COLUMNS: [&str; 11] = [
    "attacker",
    "attack",
    "target",
    "target_ac",
    "target_number",
    "dodge_target",
    "p_hit",
    "expected_life_loss",
    "p_kill",
    "expected_self_loss",
    "p_self_eliminated",
];

/// The exact odds of `attacker`'s special attack of `c.mode` on `target`, in the
/// fire-control state `c` gives (`c.jury_rig_failed`: no fire control, half speed).
///
/// # Errors
/// A `weapon` (the special attack is its own system), or what [`check`] refuses: the
/// actor's or target's kind, a missing ability, `REACH_RULE`.
pub fn special_report(
    attacker: &Attacker,
    weapon: Option<&str>,
    target: &Target,
    c: &Conditions,
    o: &Options,
) -> Result<OddsReport, String> {
    if weapon.is_some() {
        return Err(format!(
            "--mode {} is a special attack, its own system: --weapon does not apply (battles §4 SPECIAL_AS_SYSTEM)",
            c.mode
        ));
    }
    let special = check(attacker, target, c, o).map_err(|e| e.to_string())?;
    let odds = special_odds(attacker, target, c, o, false).map_err(|e| e.to_string())?;
    let roll = hit_roll(special, attacker, target, c, o);
    let table = special_table(attacker, target, special, roll, &odds);
    let mut json = table.to_json();
    let outcomes: Vec<Value> = odds
        .outcomes
        .iter()
        .map(|x| {
            let own = if x.self_loss == ELIMINATED { json!("eliminated") } else { json!(x.self_loss) };
            json!({ "p": x.p, "target_loss": x.target_loss, "self_loss": own })
        })
        .collect();
    let extra = json!({ "outcomes": outcomes, "conditions": conditions_json(c) });
    for obj in json.as_array_mut().expect("array") {
        obj.as_object_mut().expect("object").extend(extra.as_object().expect("object").clone());
    }
    let header = format!(
        "{} {} {} (size AC{}, damage AC{}): {}",
        attacker.name,
        special.label().to_lowercase(),
        target.name,
        target.size_ac,
        target.damage_ac,
        describe(c)
    );
    Ok(OddsReport { header, table, json })
}

/// The one row of a special attack.
fn special_table(attacker: &Attacker, target: &Target, special: Special, roll: HitRoll, odds: &SpecialOdds) -> Table {
    let (tn, dodge) = match roll {
        HitRoll::Attacker { target_number, .. } => (Cell::from(target_number), Cell::Null),
        HitRoll::Dodge { dodge_target } => (Cell::Null, dodge_target.map_or(Cell::Null, Cell::from)),
    };
    let life = STARTING_LIFE;
    let mut t = Table::new(SPECIAL_COLUMNS);
    t.push(vec![
        attacker.name.as_str().into(),
        special.label().into(),
        target.name.as_str().into(),
        target.size_ac.into(),
        tn,
        dodge,
        odds.p_hit.into(),
        odds.expected_target_loss(life).into(),
        odds.p_kill(life).into(),
        odds.expected_self_loss(life).into(),
        odds.p_self_eliminated(life).into(),
    ]);
    t
}
