//! A scenario's `[vary]` table as data: the varied stats (entry, field, values), how a
//! value is written, and the manifest entry. Read by the scenario reader and the tables;
//! played by [`super::vary`].

use serde_json::{Value, json};

use crate::catalogue::error::Position;
use crate::catalogue::fields::Fields;

/// One varied stat: an entry's field and the values to play, in the order written.
#[derive(Debug, Clone, PartialEq)]
pub struct VaryAxis {
    /// The entry's name as written (`Devastator`, or `weapon:Devastator`).
    pub entry: String,
    pub field: String,
    pub values: Vec<f64>,
    /// Where each value was written in the scenario file.
    pub positions: Vec<Option<Position>>,
}

impl VaryAxis {
    /// The table column and cell-key name: `vary.ENTRY.FIELD`.
    pub fn column(&self) -> String {
        format!("vary.{}.{}", self.entry, self.field)
    }

    /// The key as errors name it: `vary.ENTRY.FIELD` (the scenario's `[vary]` key).
    pub(super) fn key(&self) -> String {
        self.column()
    }
}

/// A value as catalogue text and cell keys write it: integers without a decimal point,
/// other numbers in Rust's shortest round-trip form with a point (`4.5`, `0.25`).
pub fn value_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 9.0e15 { format!("{}", v as i64) } else { format!("{v:?}") }
}

/// Read a scenario's `[vary]` table: `"ENTRY".FIELD = [numbers]`, each list non-empty
/// and without repeats. Errors go to `t` (file, line, key).
pub fn read_vary(t: &mut Fields<'_>) -> Vec<VaryAxis> {
    let mut out = Vec::new();
    for entry in t.keys() {
        let axes = t.table(&entry, |e| {
            let mut axes = Vec::new();
            for field in e.keys() {
                let pos = e.position_of(&field);
                let read = e.number_list(&field);
                if read.is_empty() && !e.is_bad(&field) {
                    e.error(Some(&field), pos, "list at least one value to play, e.g. [6, 8, 10]");
                    continue;
                }
                let mut values = Vec::new();
                let mut positions = Vec::new();
                for (v, p) in read {
                    if !v.is_finite() {
                        e.error(Some(&field), p, "a varied value must be a finite number");
                    } else if values.contains(&v) {
                        e.error(Some(&field), p, format!("{} is listed twice", value_text(v)));
                    } else {
                        values.push(v);
                        positions.push(p);
                    }
                }
                if !values.is_empty() {
                    axes.push(VaryAxis { entry: entry.clone(), field, values, positions });
                }
            }
            axes
        });
        match axes {
            Some(a) if a.is_empty() && !t.is_bad(&entry) => {
                let pos = t.position_of(&entry);
                t.error(Some(&entry), pos, "write the stat to vary as \"ENTRY\".FIELD = [values]");
            }
            Some(mut a) => out.append(&mut a),
            None => {}
        }
    }
    out
}

/// The manifest's `vary` entry: per varied stat its entry, field, column and values.
pub fn vary_json(axes: &[VaryAxis]) -> Value {
    Value::Array(
        axes.iter()
            .map(|a| json!({ "entry": a.entry, "field": a.field, "column": a.column(), "values": a.values }))
            .collect(),
    )
}
