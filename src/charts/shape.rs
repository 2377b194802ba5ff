//! What a report's manifest says about the shape of its tables: the ruleset's name, its
//! condition axes, its word for a turn and its detail charts. Manifests written before
//! volley recorded these read as [`super::legacy`] describes; [`super::shape_of`] reads a
//! manifest into these types.

use serde_json::Value;

use super::axes::{Axis, ConditionSet};

/// A heatmap family drawn from a ruleset's detail table (one entry of the manifest's
/// `detail_charts`).
///
/// One chart per distinct combination of the `per` columns and per x axis: rows are the
/// distinct values of `rows` (ordered by the numeric `row_order` column when given),
/// columns the values of the x axis, the other axes fixed at the chart condition set,
/// one panel per value of `panel_axis` (if given); a cell is the `value` column, a
/// probability drawn as a percentage.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailChart {
    /// The table's name (`<table>.parquet` / `.csv`).
    pub table: String,
    /// The column each cell shows (a probability in 0..=1).
    pub value: String,
    /// What the value is, for the title and the colour scale (`Hit chance`).
    pub value_label: String,
    /// Columns that split the table into charts (`attacker`, `weapon`).
    pub per: Vec<String>,
    /// The column whose values are the rows (`target`).
    pub rows: String,
    /// A numeric column that orders the rows, if any.
    pub row_order: Option<String>,
    /// Text written before a row's `row_order` value in its label (`AC` makes
    /// `Stingray (AC4)`, and a row named `x:4` whose order is 4 plainly `AC4`); without
    /// it a row is labelled by its name alone.
    pub row_order_label: Option<String>,
    /// The axes charted across, one chart each; the first always, the others when the
    /// table holds more than one of their values.
    pub x_axes: Vec<String>,
    /// The axis with one panel per value, if any.
    pub panel_axis: Option<String>,
    /// The chart files' stem prefix (default: the table name as a slug).
    pub name: Option<String>,
}

impl DetailChart {
    /// From one entry of `detail_charts`; `None` without a `table`, `value` or `rows`.
    pub fn of_json(v: &Value) -> Option<DetailChart> {
        let text = |k: &str| v[k].as_str().map(str::to_string);
        let list = |k: &str| -> Vec<String> {
            v[k].as_array()
                .map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
                .unwrap_or_default()
        };
        let value = text("value")?;
        Some(DetailChart {
            table: text("table")?,
            value_label: text("value_label").unwrap_or_else(|| value.replace('_', " ")),
            value,
            per: list("per"),
            rows: text("rows")?,
            row_order: text("row_order"),
            row_order_label: text("row_order_label"),
            x_axes: list("x_axes"),
            panel_axis: text("panel_axis"),
            name: text("name"),
        })
    }

    /// The columns this chart reads besides the axes.
    pub fn columns(&self) -> Vec<String> {
        let mut out: Vec<String> = self.per.clone();
        out.push(self.rows.clone());
        out.extend(self.row_order.clone());
        out.push(self.value.clone());
        out
    }
}

/// A cost ranking beyond the common one (one entry of the manifest's `cost_charts`):
/// bars of `column` of `cost_efficiency`, averaged over targets, for whole sides or for
/// weapons (labelled "weapon (side)", a positive `note` column stated in brackets).
/// `{turn}` in the texts is the ruleset's word for a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CostChart {
    /// The chart files' stem.
    pub name: String,
    pub column: String,
    pub weapons: bool,
    pub title: String,
    pub value_label: String,
    /// How the page's finding opens.
    pub finding: String,
    /// The unit a weapon finding states after each value.
    pub unit: String,
    /// (column, word): e.g. `rounds` stated as "6 rounds".
    pub note: Option<(String, String)>,
}

impl CostChart {
    /// From one entry of `cost_charts`; `None` without a `name` or `column`.
    pub fn of_json(v: &Value) -> Option<CostChart> {
        let text = |k: &str| v[k].as_str().map(str::to_string);
        let column = text("column")?;
        Some(CostChart {
            name: text("name")?,
            weapons: v["weapons"].as_bool().unwrap_or(false),
            title: text("title").unwrap_or_else(|| column.replace('_', " ")),
            value_label: text("value_label").unwrap_or_else(|| column.replace('_', " ")),
            finding: text("finding").unwrap_or_else(|| format!("Most {}", column.replace('_', " "))),
            unit: text("unit").unwrap_or_default(),
            note: v["note"]["column"]
                .as_str()
                .map(|c| (c.to_string(), v["note"]["word"].as_str().unwrap_or(c).to_string())),
            column,
        })
    }

    /// `text` with `{turn}` replaced by `turn`.
    pub fn say(text: &str, turn: &str) -> String {
        text.replace("{turn}", turn)
    }
}

/// The shape of one report's tables.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportShape {
    /// How charts name the ruleset (footer).
    pub ruleset: String,
    /// The grid axes, in grid order.
    pub axes: Vec<Axis>,
    /// The ruleset's word for one turn (`turn`, `round`).
    pub turn: String,
    /// The ruleset's cost unit (`points`, `PV`, `ECV`; the manifest's `cost_unit`,
    /// default `points`).
    pub cost_unit: String,
    pub details: Vec<DetailChart>,
    /// Cost rankings beyond the common one, in page order.
    pub costs: Vec<CostChart>,
    /// How an N-player battle sweep seated its matchups when it pooled each force over
    /// several seatings into `battle_forces` (`rotate` or `all`, the manifest's
    /// `battle.seatings`); `None` for seats in force order, pairs and other engagements.
    pub seatings: Option<String>,
}

impl ReportShape {
    /// The axis called `name`.
    pub fn axis(&self, name: &str) -> Option<&Axis> {
        self.axes.iter().find(|a| a.name == name)
    }

    /// The axis names: the condition columns of every cell table.
    pub fn axis_names(&self) -> Vec<&str> {
        self.axes.iter().map(|a| a.name.as_str()).collect()
    }

    /// How targets are ordered and labelled wherever charts list them: as the first detail
    /// chart with `target` rows orders its rows.
    pub fn target_order(&self) -> Option<RowOrder> {
        self.details
            .iter()
            .find(|d| d.rows == "target")
            .and_then(|d| Some(RowOrder { column: d.row_order.clone()?, label: d.row_order_label.clone() }))
    }

    /// The condition sets the scenario asks charts for (`scenario.chart_conditions`, each
    /// a map axis name -> value), axes left out at their first value; one set of first
    /// values when none is asked for.
    pub fn condition_sets(&self, manifest: &Value) -> Vec<ConditionSet> {
        let sets = manifest["scenario"]["chart_conditions"].as_array().cloned().unwrap_or_default();
        let sets = if sets.is_empty() { vec![Value::Object(Default::default())] } else { sets };
        sets.iter().map(|s| ConditionSet::resolve(&self.axes, s)).collect()
    }
}

/// A numeric column that orders the rows of a chart, and the text written before its
/// value in a row's label.
#[derive(Debug, Clone, PartialEq)]
pub struct RowOrder {
    pub column: String,
    pub label: Option<String>,
}

/// The manifest's `battle.seatings` when it pools seats (`rotate`, `all`); `None` when
/// absent or `fixed` (a sweep seated in force order writes no `battle_forces`).
pub fn pooled_seatings(manifest: &Value) -> Option<String> {
    manifest["battle"]["seatings"].as_str().filter(|s| *s != "fixed").map(str::to_string)
}
