//! Fields: named sets of opponents with weights ("the meta"), for gauntlets.

use super::error::Position;
use super::fields::Fields;

/// One opponent in a field as written.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldOpponent {
    pub build: String,
    /// How often this opponent is expected, relative to the others (> 0).
    pub weight: f64,
    pub position: Option<Position>,
}

/// A field as written: build names resolved later.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    pub name: String,
    pub opponents: Vec<FieldOpponent>,
    pub position: Option<Position>,
    pub file: String,
}

pub const FIELD_KEYS: &[&str] = &["name", "opponents"];

impl FieldSpec {
    pub fn read(mut f: Fields<'_>) -> Option<FieldSpec> {
        let name = f.string("name", true).unwrap_or_default();
        let opponents = f.table_list("opponents", |o| {
            let position = o.entry().position;
            let build = o.string("build", true);
            let weight = o.positive_number("weight").unwrap_or(1.0);
            o.reject_unknown(&["build", "weight"]);
            Some(FieldOpponent { build: build?, weight, position })
        });
        if opponents.is_empty() && !f.failed() {
            f.error(Some("opponents"), None, "a field needs at least one opponent");
        }
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish(FIELD_KEYS).then_some(FieldSpec { name, opponents, position, file })
    }
}
