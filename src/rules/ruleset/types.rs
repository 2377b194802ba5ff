//! The data the boundary passes: option descriptions, roles, weighted fields, odds
//! reports, detail and cost tables and their chart descriptions.

use std::fmt::Debug;

use serde_json::Value;

use crate::output::{Cell, Column, Table};
use crate::rules::kit::options::{self, Declared, OptionError};

/// One ruling or switch of a ruleset, for `volley rulesets` and manifests.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionSpec {
    /// `NAME` as written on the command line (`--option NAME=value`) and in scenarios.
    pub name: String,
    /// The documented default, as canonical text.
    pub default: String,
    /// The values it takes ("true or false (on/off)", "a whole number from 0 to 100").
    pub values: String,
    /// One line: what it rules and where the rules document discusses it.
    pub help: String,
}

/// A ruleset's options: its rulings and edition as a runtime value, declared once on the
/// kit's option table ([`crate::rule_options!`]); every method is the kit's.
pub trait RuleOptions: Declared + Clone + Default + Debug + Send + Sync {
    /// Every option with its default, values and help, in a stable order.
    fn specs() -> Vec<OptionSpec> {
        Self::defs()
            .iter()
            .map(|d| OptionSpec {
                name: d.name.clone(),
                default: d.default.to_string(),
                values: d.kind.describe(),
                help: d.help.to_string(),
            })
            .collect()
    }
    /// Set option `name` (any case, `-` or `_`) from text (`true`/`false`, `on`/`off`,
    /// `yes`/`no`; a number; a choice in any case).
    ///
    /// # Errors
    /// An unknown name (with the nearest name) or a value the option does not take.
    fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        options::set(self, name, value)
    }
    /// Every option as canonical `(NAME, value)` text: recorded in manifests and part of
    /// every cell key, so a changed ruling gives other random streams and other numbers.
    fn pairs(&self) -> Vec<(String, String)> {
        options::pairs(self)
    }
    /// The options whose value is not the default, as canonical `(NAME, value)`: what
    /// output headers echo.
    fn non_default(&self) -> Vec<(String, String)> {
        options::non_default(self)
    }
    /// Refuse values out of range and combinations the kernels cannot play.
    ///
    /// # Errors
    /// An [`OptionError`] naming the options at fault.
    fn validate(&self) -> Result<(), OptionError> {
        options::check_played(self)
    }
}

/// Which list a selector picks from (scenario `attackers`, `targets`, `opponents`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Target,
    Opponent,
}

/// A weighted opponent of a catalogue field (gauntlets).
#[derive(Debug, Clone, PartialEq)]
pub struct Weighted {
    pub name: String,
    /// Relative weight, > 0.
    pub weight: f64,
}

/// What `volley odds` prints: a header line, one row per weapon (or attack), and JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct OddsReport {
    /// One line naming the sides and the conditions (text output only).
    pub header: String,
    pub table: Table,
    pub json: Value,
}

/// A detail table the ruleset adds to sweeps (`hit_probability`, `attack_odds`): its
/// name, what a row is, and the columns after the shared keys (`ruleset`, `attacker`,
/// `target`, the target columns and one column per axis), each with its meaning for the
/// column guide.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailTable {
    pub name: &'static str,
    /// The column guide's heading after the name ("exact per-action odds").
    pub title: &'static str,
    /// The column guide's text before the columns: what a row is (Markdown).
    pub about: &'static str,
    /// Columns between `attacker` and `target` (e.g. `weapon`).
    pub attacker_columns: Vec<Column>,
    /// Columns after the axes.
    pub value_columns: Vec<Column>,
}

/// What a ruleset's section of the column guide says beside its declared columns
/// (Markdown paragraphs; empty ones are left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColumnNotes {
    /// Opening the section: where the built-in catalogue's numbers come from, what a
    /// turn is.
    pub intro: &'static str,
    /// After the target columns: what `points` and `target_points` count.
    pub points: &'static str,
    /// After the `cost_efficiency` columns: which weapon rows are written and what their
    /// `p_kill_turn1` is.
    pub cost: &'static str,
}

/// One row of a detail table, split as its [`DetailTable`] is.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailRow {
    pub attacker_cells: Vec<Cell>,
    /// Exact values: the sweep rounds their floats as exact values when it writes them
    /// (`output::number::exact`).
    pub value_cells: Vec<Cell>,
}

/// One row of `cost_efficiency`: the whole side (`weapon: None`, rated by its attack
/// run) or one of its weapons (rated by one attack). See [`super::Reports::cost_rows`].
#[derive(Debug, Clone, PartialEq)]
pub struct CostRow {
    pub weapon: Option<String>,
    /// Cells of [`super::Reports::cost_attacker_columns`].
    pub attacker_cells: Vec<Cell>,
    /// Cells of [`super::Reports::cost_value_columns`]: exact values, rounded as such when
    /// written (`output::number::exact`).
    pub value_cells: Vec<Cell>,
    /// P(target destroyed by one attack of this weapon); `None` for the whole side,
    /// whose first-turn kill chance the sweep takes from the run's exact law.
    pub p_kill_turn1: Option<f64>,
}

/// A chart of a detail table, described for the shared chart code (which reads no
/// column by a ruleset's name except through this description).
#[derive(Debug, Clone, PartialEq)]
pub struct DetailChart {
    /// File-name prefix of its charts (`hit`).
    pub name: &'static str,
    pub table: &'static str,
    /// The column shown (a probability).
    pub value: &'static str,
    pub value_label: &'static str,
    /// One chart per distinct value of these columns.
    pub per: &'static [&'static str],
    /// Heatmap rows: distinct values of this column ...
    pub rows: &'static str,
    /// ... ordered by this numeric column when given ...
    pub row_order: Option<&'static str>,
    /// ... and labelled with it after this text (`AC` gives "Stingray (AC4)").
    pub row_order_label: &'static str,
    /// One chart per axis here: heatmap columns are that axis's values.
    pub x_axes: &'static [&'static str],
    /// One panel per value of this axis.
    pub panel_axis: Option<&'static str>,
}

/// A cost ranking of the ruleset beyond the common one (target points destroyed per
/// turn per point), drawn from a column of `cost_efficiency`. `{turn}` in the texts
/// stands for the ruleset's word for a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CostChart {
    /// The chart files' stem (`cost-life-per-turn-per-point`).
    pub name: &'static str,
    /// The `cost_efficiency` column ranked, averaged over targets.
    pub column: &'static str,
    /// Rank weapons (rows with a weapon, labelled "weapon (side)") instead of sides.
    pub weapons: bool,
    pub title: &'static str,
    pub value_label: &'static str,
    /// The finding's opening on the report page ("Most life taken per {turn} per point").
    pub finding: &'static str,
    /// The unit a weapon finding states after each value ("life per attack per ton").
    pub unit: &'static str,
    /// A column whose positive value a weapon's label states (`rounds`), with its word.
    pub note: Option<(&'static str, &'static str)>,
}
