//! The condition axes of a report, by name, as its manifest lists them, and condition
//! sets (one value per axis) that pick the rows of a cell table. Nothing here knows a
//! ruleset: axis names, labels, units and value orders all come from the manifest.

use serde_json::Value;

use crate::output::{Cell, Table};

/// How an axis's values are written in the cell tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxisKind {
    /// A number: a Float or Int column; values compare as numbers and chart in ascending
    /// order.
    Number,
    /// Anything else (a choice, a flag, a combination): a Text column; values compare as
    /// text and chart in the order the axis lists them.
    Choice,
}

/// One condition axis of a ruleset's grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The axis name, which is also its column name in every cell table.
    pub name: String,
    pub kind: AxisKind,
    /// The unit of a number axis (`inches`, `hexes`), if any.
    pub unit: Option<String>,
    /// A chart-axis label (`Range (inches)`).
    pub label: String,
    /// Canonical text of the values the sweep played, in the order the ruleset lists them.
    pub values: Vec<String>,
    /// The value a condition set that leaves this axis out takes: normally `values[0]`.
    pub first: Option<String>,
}

/// A number written as a value's canonical text: `24` for 24.0, `1.5` for 1.5.
pub fn number_text(v: f64) -> String {
    format!("{v}")
}

/// A JSON value (text, number or flag) as an axis value's canonical text; `None` for null.
pub fn value_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => n.as_f64().map(number_text),
        other => Some(other.to_string()),
    }
}

impl Axis {
    /// An axis from one entry of the manifest's `axes` (`name`, `kind`, `unit`, `label`,
    /// `values`); `None` without a name. A missing label is the name; a kind other than
    /// `number` or `integer` is a choice (switches and sets included).
    pub fn of_json(v: &Value) -> Option<Axis> {
        let name = v["name"].as_str()?.to_string();
        let values: Vec<String> =
            v["values"].as_array().map(|a| a.iter().filter_map(value_text).collect()).unwrap_or_default();
        Some(Axis {
            kind: if matches!(v["kind"].as_str(), Some("number" | "integer")) {
                AxisKind::Number
            } else {
                AxisKind::Choice
            },
            unit: v["unit"].as_str().map(str::to_string),
            label: v["label"].as_str().map_or_else(|| name.clone(), str::to_string),
            first: values.first().cloned(),
            values,
            name,
        })
    }

    /// The value of row `i` of `t` on this axis as text (numbers as [`number_text`]);
    /// `None` when the cell is null or of the wrong type, or the column is missing.
    pub fn cell(&self, t: &Table, i: usize) -> Option<String> {
        match self.kind {
            AxisKind::Number => t.float(i, &self.name).map(number_text),
            AxisKind::Choice => match t.get(i, &self.name)? {
                Cell::Text(s) => Some(s.clone()),
                Cell::Bool(b) => Some(b.to_string()),
                Cell::Int(v) => Some(v.to_string()),
                Cell::Float(v) => Some(number_text(*v)),
                Cell::Null => None,
            },
        }
    }

    /// Whether row `i` of `t` has `value` on this axis (numbers compared as numbers, so
    /// `24`, `24.0` and a Float 24.0 cell agree).
    pub fn holds(&self, t: &Table, i: usize, value: &str) -> bool {
        self.test(value).holds(t, i, t.column(&self.name))
    }

    /// What [`Axis::holds`] compares a row with: `value` as this axis reads it.
    fn test<'s>(&'s self, value: &'s str) -> Test<'s> {
        match self.kind {
            AxisKind::Number => Test::Number(value.parse::<f64>().ok()),
            AxisKind::Choice => Test::Choice(self, value),
        }
    }

    /// The distinct values of this axis among rows `rows` of `t`, in chart order: numbers
    /// ascending; other values in the order the axis lists them, values it does not list
    /// last in the order first seen.
    pub fn present(&self, t: &Table, rows: impl IntoIterator<Item = usize>) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for i in rows {
            if let Some(v) = self.cell(t, i)
                && !out.contains(&v)
            {
                out.push(v);
            }
        }
        match self.kind {
            AxisKind::Number => out
                .sort_by(|a, b| a.parse::<f64>().unwrap_or(f64::NAN).total_cmp(&b.parse::<f64>().unwrap_or(f64::NAN))),
            AxisKind::Choice => {
                out.sort_by_key(|v| self.values.iter().position(|o| o == v).unwrap_or(usize::MAX));
            }
        }
        out
    }
}

/// One point of the condition grid a chart shows: a value for every axis, in axis order.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionSet {
    pub values: Vec<(Axis, String)>,
}

impl ConditionSet {
    /// The set `wanted` asks for (a map axis name -> value, as text or number), every axis
    /// it leaves out at the axis's first value. Names of no axis are ignored.
    pub fn resolve(axes: &[Axis], wanted: &Value) -> ConditionSet {
        ConditionSet {
            values: axes
                .iter()
                .map(|a| {
                    let v = value_text(&wanted[&a.name]).or_else(|| a.first.clone()).unwrap_or_default();
                    (a.clone(), v)
                })
                .collect(),
        }
    }

    /// The value of axis `name`, if the set has that axis.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(a, _)| a.name == name).map(|(_, v)| v.as_str())
    }

    /// A short label, every axis as "name value" in axis order: "altitude 50, weather rain".
    pub fn label(&self) -> String {
        self.label_without(&[])
    }

    /// [`ConditionSet::label`] leaving out the axes in `skip`.
    pub fn label_without(&self, skip: &[&str]) -> String {
        self.values
            .iter()
            .filter(|(a, _)| !skip.contains(&a.name.as_str()))
            .map(|(a, v)| format!("{} {v}", a.name.replace('_', " ")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The label chart titles and findings carry: [`ConditionSet::label_without`] `skip`,
    /// naming only the axes the sweep varied (more than one value in the grid), since an
    /// axis with one value is the same in every chart of the report (its page says it).
    /// When no axis varied at all, every axis not in `skip` is named; the label is empty
    /// when every varied axis is in `skip`.
    pub fn title_label(&self, skip: &[&str]) -> String {
        let fixed: Vec<&str> =
            self.values.iter().filter(|(a, _)| a.values.len() <= 1).map(|(a, _)| a.name.as_str()).collect();
        if fixed.len() == self.values.len() {
            return self.label_without(skip);
        }
        let mut all_skipped: Vec<&str> = skip.to_vec();
        all_skipped.extend(fixed);
        self.label_without(&all_skipped)
    }

    /// A file-name-safe slug: the values in axis order joined by `-`, a number led by its
    /// axis's initial (`r24-none-...`) so a bare number says which axis it is on.
    pub fn slug(&self) -> String {
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|(a, v)| match a.kind {
                AxisKind::Number => format!("{}{v}", a.name.chars().next().unwrap_or('n')),
                AxisKind::Choice => v.clone(),
            })
            .collect();
        parts.join("-").replace(['+', '.', ' ', '/', '\\'], "_")
    }

    /// Whether row `i` of `t` is at this point, ignoring the axes in `free`.
    pub fn matches(&self, t: &Table, i: usize, free: &[&str]) -> bool {
        self.values.iter().all(|(a, v)| free.contains(&a.name.as_str()) || a.holds(t, i, v))
    }

    /// [`ConditionSet::matches`] for many rows of `t`: each axis's column found and its
    /// number parsed once, not per row.
    pub fn matcher<'s>(&'s self, t: &Table, free: &[&str]) -> RowMatcher<'s> {
        let tests = self
            .values
            .iter()
            .filter(|(a, _)| !free.contains(&a.name.as_str()))
            .map(|(a, v)| (t.column(&a.name), a.test(v)))
            .collect();
        RowMatcher { tests }
    }
}

/// [`ConditionSet::matcher`]: whether a row of the table it was made for is at the set's
/// point, as [`ConditionSet::matches`] says.
pub struct RowMatcher<'s> {
    /// Per axis tested: its column (`None`: missing, so no row holds it) and the value.
    tests: Vec<(Option<usize>, Test<'s>)>,
}

/// The value one axis wants of a row ([`Axis::holds`]).
enum Test<'s> {
    /// A number axis: the value as a number (`None`: unparsable, so no row holds it).
    /// Numbers compare as numbers, so `24`, `24.0` and a Float 24.0 cell agree.
    Number(Option<f64>),
    /// A choice axis and the value as text ([`Axis::cell`]).
    Choice(&'s Axis, &'s str),
}

impl Test<'_> {
    /// Whether row `i` of `t` holds the value, the axis's column being `column` (`None`:
    /// missing, so no row holds it).
    fn holds(&self, t: &Table, i: usize, column: Option<usize>) -> bool {
        let Some(cell) = column.map(|c| &t.rows[i][c]) else {
            return false;
        };
        match (self, cell) {
            (Test::Number(Some(want)), Cell::Float(have)) => have == want,
            (Test::Number(Some(want)), Cell::Int(have)) => *have as f64 == *want,
            (Test::Number(_), _) => false,
            (Test::Choice(_, want), Cell::Text(have)) => have == want,
            (Test::Choice(a, want), _) => a.cell(t, i).as_deref() == Some(*want),
        }
    }
}

impl RowMatcher<'_> {
    /// Whether row `i` of the table holds every tested value ([`Axis::holds`]).
    pub fn matches(&self, t: &Table, i: usize) -> bool {
        self.tests.iter().all(|(column, test)| test.holds(t, i, *column))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Cell;
    use serde_json::json;

    fn axes() -> Vec<Axis> {
        let m = json!([
            {"name": "altitude", "kind": "number", "unit": "metres", "label": "Altitude (metres)", "values": ["100", "50"]},
            {"name": "weather", "kind": "choice", "label": "Weather", "values": ["storm", "clear", "rain"]},
        ]);
        m.as_array().unwrap().iter().filter_map(Axis::of_json).collect()
    }

    fn table() -> Table {
        let mut t = Table::new(["altitude", "weather"]);
        for (alt, w) in [(100.0, "rain"), (50.0, "clear"), (100.0, "storm"), (50.0, "rain"), (100.0, "clear")] {
            t.push(vec![Cell::Float(alt), Cell::Text(w.into())]);
        }
        t
    }

    #[test]
    fn unset_axes_take_the_first_listed_value() {
        let axes = axes();
        let set = ConditionSet::resolve(&axes, &json!({"weather": "rain", "unknown": "x"}));
        assert_eq!(set.get("altitude"), Some("100"));
        assert_eq!(set.get("weather"), Some("rain"));
        assert_eq!(set.label(), "altitude 100, weather rain");
        assert_eq!(set.label_without(&["altitude"]), "weather rain");
        assert_eq!(set.slug(), "a100-rain");
        // numbers given as numbers read as the same text
        assert_eq!(ConditionSet::resolve(&axes, &json!({"altitude": 50.0})).get("altitude"), Some("50"));
    }

    #[test]
    fn titles_name_only_the_axes_the_grid_varies() {
        let m = json!([
            {"name": "range", "kind": "number", "values": ["12", "24"]},
            {"name": "sneak_suit", "kind": "switch", "values": ["false"]},
            {"name": "armour", "kind": "choice", "values": ["catalogue", "4"]},
            {"name": "tunnel", "kind": "switch", "values": ["false"]},
        ]);
        let axes: Vec<Axis> = m.as_array().unwrap().iter().filter_map(Axis::of_json).collect();
        let set = ConditionSet::resolve(&axes, &json!({"range": 24}));
        assert_eq!(set.label(), "range 24, sneak suit false, armour catalogue, tunnel false");
        assert_eq!(set.title_label(&[]), "range 24, armour catalogue");
        assert_eq!(set.title_label(&["range"]), "armour catalogue");
        assert_eq!(set.title_label(&["range", "armour"]), "", "every varied axis skipped: nothing to name");
        // nothing varied: every axis is named
        let one: Vec<Axis> = axes.iter().filter(|a| a.values.len() == 1).cloned().collect();
        let set = ConditionSet::resolve(&one, &json!({}));
        assert_eq!(set.title_label(&["tunnel"]), "sneak suit false");
    }

    #[test]
    fn rows_match_by_number_and_by_text() {
        let (axes, t) = (axes(), table());
        let set = ConditionSet::resolve(&axes, &json!({"altitude": "100.0", "weather": "storm"}));
        let hits: Vec<usize> = (0..t.rows.len()).filter(|&i| set.matches(&t, i, &[])).collect();
        assert_eq!(hits, vec![2]);
        let free: Vec<usize> = (0..t.rows.len()).filter(|&i| set.matches(&t, i, &["weather"])).collect();
        assert_eq!(free, vec![0, 2, 4]);
    }

    #[test]
    fn present_values_keep_the_axis_order_not_the_alphabet() {
        let (axes, t) = (axes(), table());
        assert_eq!(axes[1].present(&t, 0..t.rows.len()), vec!["storm", "clear", "rain"]);
        assert_eq!(axes[0].present(&t, 0..t.rows.len()), vec!["50", "100"], "numbers ascending");
        assert_eq!(axes[1].present(&t, [1, 3]), vec!["clear", "rain"]);
    }
}
