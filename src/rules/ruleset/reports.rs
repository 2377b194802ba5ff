//! The reports capability: a game's detail and cost tables, their charts, and its
//! odds cards.

use crate::output::Column;

use super::{ColumnNotes, CostChart, CostRow, DetailChart, DetailRow, DetailTable, Engagements};

/// The tables and charts a game adds to sweeps, and its printable odds cards.
pub trait Reports: Engagements {
    /// The ruleset's detail tables in sweeps.
    fn detail_tables() -> Vec<DetailTable>;
    /// How the report draws them.
    fn detail_charts() -> Vec<DetailChart>;
    /// The report's cost rankings beyond the common one.
    fn cost_charts() -> Vec<CostChart> {
        Vec::new()
    }
    /// Rows of detail table number `table` for one attacker, target and conditions.
    ///
    /// # Errors
    /// Unknown names.
    fn detail_rows(
        table: usize,
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<Vec<DetailRow>, String>;
    /// Columns of `cost_efficiency` after `points` that describe the attacker's cost in
    /// the game's own terms (TechCommander: `weight`, `power`, `rounds`), each with its
    /// meaning for the column guide.
    fn cost_attacker_columns() -> Vec<Column>;
    /// Columns of `cost_efficiency` after the axes: the game's damage measures per turn,
    /// per attack and per point (`attacks_per_turn` first).
    fn cost_value_columns() -> Vec<Column>;
    /// What the game's section of the column guide says beside its columns.
    fn column_notes() -> ColumnNotes {
        ColumnNotes::default()
    }
    /// The whole side's row, then one row per weapon, for the run `run` of `attacker`
    /// against `target` in `c`, made under `policy` and `max_turns` (a game whose book
    /// prices no weapon plays the run again without each weapon, for its marginal value).
    ///
    /// # Errors
    /// Unknown names.
    #[allow(clippy::too_many_arguments)]
    fn cost_rows(
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        run: &Self::AttackRun,
        policy: Self::Policy,
        max_turns: u32,
    ) -> Result<Vec<CostRow>, String>;

    /// Whether the game has odds cards ([`Reports::odds_card`]); `volley odds-card`
    /// refuses a game without them as a usage error (exit 2) before reading any name.
    const ODDS_CARDS: bool = false;

    /// A printable odds card of side `name` over `ranges` (in the game's distance
    /// unit; empty: the game's own ranges), when the game has one (set
    /// [`Reports::ODDS_CARDS`] too).
    ///
    /// # Errors
    /// An unknown name, or a game without odds cards.
    fn odds_card(
        _cat: &Self::Catalogue,
        _name: &str,
        _ranges: &[f64],
        _o: &Self::Options,
    ) -> Result<crate::charts::card::Card, String> {
        Err(format!("odds cards are not available for {} yet", Self::NAME))
    }
}
