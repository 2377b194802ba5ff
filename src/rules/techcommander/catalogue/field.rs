//! Fields: named sets of opponents with weights ("the meta"), for gauntlets.

use crate::catalogue::error::Position;
use crate::catalogue::fields::{Checked, Fields};

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
    /// Read a field; opponents that were read are kept even when the entry had errors,
    /// so that their names are checked too.
    pub fn read(mut f: Fields<'_>) -> Checked<FieldSpec> {
        let name = f.string("name", true).unwrap_or_default();
        let opponents = f.table_list("opponents", |o| {
            let position = o.position();
            let build = o.string("build", true);
            let weight = o.positive_number("weight").unwrap_or(1.0);
            o.reject_unknown(&["build", "weight"]);
            Some(FieldOpponent { build: build?, weight, position })
        });
        if opponents.is_empty() && !f.is_bad("opponents") {
            f.error(Some("opponents"), None, "a field needs at least one opponent");
        }
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish_checked(FIELD_KEYS, FieldSpec { name, opponents, position, file })
    }
}
