//! `[[squad]]` and `[[field]]` entries: lists of models (a mech, its pilot, its
//! profile) by name, resolved later.

use super::mech::{parse_faction, unknown_faction};
use super::validated::split_model_name;
use crate::catalogue::error::Position;
use crate::catalogue::fields::{Checked, Fields};
use crate::rules::mechcom::mech::Faction;

/// Every key a squad entry may have.
pub const SQUAD_KEYS: &[&str] = &["name", "faction", "budget", "members"];
/// Every key a field entry may have.
pub const FIELD_KEYS: &[&str] = &["name", "opponents"];
/// The book's default budget ("Building a force").
pub const DEFAULT_BUDGET: i64 = 1000;
/// Largest budget accepted.
pub const MAX_BUDGET: i64 = 100_000;

/// A model as a squad or field names it.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelRef {
    pub mech: String,
    pub pilot: Option<String>,
    pub profile: Option<String>,
    /// Relative weight in a field (> 0; 1 by default).
    pub weight: f64,
    /// Where the item is written, and its `mech`, `pilot` and `profile` values.
    pub position: Option<Position>,
    pub mech_position: Option<Position>,
    pub pilot_position: Option<Position>,
    pub profile_position: Option<Position>,
    /// Written as one model-name string (`"Typhon+Ace"`): errors name the item.
    pub by_name: bool,
    /// 0-based index of the item in its list (for error paths like `members[2].pilot`).
    pub index: usize,
}

/// Read one model item: a table `{ mech, pilot, profile }` (and `weight` in a field),
/// or a model-name string `"Mech+Pilot"`.
fn read_model(o: &mut Fields<'_>, weighted: bool) -> Option<ModelRef> {
    let position = o.position();
    let weight = if weighted { o.positive_number("weight").unwrap_or(1.0) } else { 1.0 };
    if o.has("name") && !o.has("mech") {
        let name = o.string("name", true)?;
        let (mech, pilot) = split_model_name(&name);
        let known: &[&str] = if weighted { &["name", "weight"] } else { &["name"] };
        o.reject_unknown(known);
        return Some(ModelRef {
            mech: mech.to_string(),
            pilot: pilot.map(str::to_string),
            profile: None,
            weight,
            position,
            mech_position: position,
            pilot_position: position,
            profile_position: position,
            by_name: true,
            index: 0,
        });
    }
    let (mech_position, pilot_position, profile_position) =
        (o.position_of("mech"), o.position_of("pilot"), o.position_of("profile"));
    let mech = o.string("mech", true);
    let pilot = o.string("pilot", false);
    // A field's opponents are models: no profile (it only costs points).
    let profile = if weighted { None } else { o.string("profile", false) };
    let known: &[&str] = if weighted { &["mech", "pilot", "weight"] } else { &["mech", "pilot", "profile"] };
    o.reject_unknown(known);
    Some(ModelRef {
        mech: mech?,
        pilot,
        profile,
        weight,
        position,
        mech_position,
        pilot_position,
        profile_position,
        by_name: false,
        index: 0,
    })
}

/// The model items of list `key` that could be read, each with its index.
fn read_models(f: &mut Fields<'_>, key: &str, weighted: bool) -> Vec<ModelRef> {
    let mut index = 0;
    f.table_list(key, |o| {
        let m = read_model(o, weighted).map(|m| ModelRef { index, ..m });
        index += 1;
        m
    })
}

/// A squad as written.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadSpec {
    pub name: String,
    /// `None` when absent or unknown (an error was recorded).
    pub faction: Option<Faction>,
    pub budget: u32,
    /// The members that could be read (each knows its index in the list).
    pub members: Vec<ModelRef>,
    pub position: Option<Position>,
    pub file: String,
    /// How errors name the entry (`mech "Typhon"`).
    pub label: String,
}

/// Read a squad; members that were read are kept even when the entry had errors.
pub fn read_squad(mut f: Fields<'_>) -> Checked<SquadSpec> {
    let name = f.string("name", true).unwrap_or_default();
    let faction_pos = f.position_of("faction");
    let faction = match f.string("faction", true) {
        Some(s) => parse_faction(&s).or_else(|| {
            f.error(Some("faction"), faction_pos, unknown_faction(&s, false));
            None
        }),
        None => None,
    };
    let budget = f.int("budget", Some(DEFAULT_BUDGET), 1, MAX_BUDGET) as u32;
    let members = read_models(&mut f, "members", false);
    if members.is_empty() && !f.is_bad("members") {
        f.error(Some("members"), None, "a squad needs at least one member");
    }
    let position = f.entry().position;
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    f.finish_checked(SQUAD_KEYS, SquadSpec { name, faction, budget, members, position, file, label })
}

/// A field as written.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    pub name: String,
    pub opponents: Vec<ModelRef>,
    pub position: Option<Position>,
    pub file: String,
    /// How errors name the entry (`mech "Typhon"`).
    pub label: String,
}

/// Read a field; opponents that were read are kept even when the entry had errors.
pub fn read_field(mut f: Fields<'_>) -> Checked<FieldSpec> {
    let name = f.string("name", true).unwrap_or_default();
    let opponents = read_models(&mut f, "opponents", true);
    if opponents.is_empty() && !f.is_bad("opponents") {
        f.error(Some("opponents"), None, "a field needs at least one opponent");
    }
    let position = f.entry().position;
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    f.finish_checked(FIELD_KEYS, FieldSpec { name, opponents, position, file, label })
}
