//! What kind of report a directory holds, what its charts and page need from its tables,
//! and drawing them: one entry point for `volley sweep`, `volley gauntlet` and
//! `volley chart`, so a redraw is the same code as the first drawing.

use std::fmt;

pub use crate::sweep::tables::ReportKind;

use serde_json::Value;

use super::data::{self, CONDITION_COLUMNS};
use super::page::{self, Finding, PageInfo};
use super::render::Chart;
use super::{ReportTables, condition_sets, gauntlet, report_charts};

/// Columns of one table a report kind needs: (table, columns).
type Need = (&'static str, Vec<&'static str>);

/// Every table the charts and page of a `kind` report read, with the columns they read.
pub fn needs(kind: ReportKind) -> Vec<Need> {
    let with_conditions =
        |cols: &[&'static str]| -> Vec<&'static str> { cols.iter().copied().chain(CONDITION_COLUMNS).collect() };
    match kind {
        ReportKind::AttackRunSweep => vec![
            ("hit_probability", with_conditions(data::HIT_COLUMNS)),
            ("time_to_kill", with_conditions(page::TTK_FINDING_COLUMNS)),
            ("ttk_by_turn", with_conditions(data::TTK_BY_TURN_COLUMNS)),
            ("cost_efficiency", with_conditions(data::COST_COLUMNS)),
        ],
        ReportKind::DuelSweep => vec![
            ("hit_probability", with_conditions(data::HIT_COLUMNS)),
            ("duels", with_conditions(data::DUEL_COLUMNS)),
            ("cost_efficiency", with_conditions(data::COST_COLUMNS)),
        ],
        ReportKind::Gauntlet => vec![
            ("gauntlet_summary", gauntlet::SUMMARY_COLUMNS.to_vec()),
            ("gauntlet_matchups", gauntlet::MATCHUP_COLUMNS.to_vec()),
        ],
    }
}

/// Why a report cannot be drawn: every missing table and column at once.
#[derive(Debug, Clone, PartialEq)]
pub struct MissingColumns {
    pub kind: ReportKind,
    /// (table, file it was read from or None when absent, missing columns; empty when the
    /// whole table is missing).
    pub missing: Vec<(String, Option<String>, Vec<String>)>,
}

impl fmt::Display for MissingColumns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the tables of this {} report lack what its charts and page need:", self.kind)?;
        for (table, file, cols) in &self.missing {
            match file {
                None => write!(f, "\n  table `{table}`: missing ({table}.parquet or {table}.csv)")?,
                Some(file) => write!(
                    f,
                    "\n  table `{table}` ({file}): missing column{} {}",
                    if cols.len() == 1 { "" } else { "s" },
                    cols.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
                )?,
            }
        }
        Ok(())
    }
}

impl std::error::Error for MissingColumns {}

/// Check that `tables` hold every table and column a `kind` report's charts read.
///
/// # Errors
/// [`MissingColumns`] naming every missing table and column.
pub fn check_tables(kind: ReportKind, tables: &ReportTables) -> Result<(), MissingColumns> {
    let mut missing = Vec::new();
    for (name, cols) in needs(kind) {
        let file = tables.sources.iter().find(|(n, _)| n == name).map(|(_, f)| f.clone());
        match tables.get(name) {
            None => missing.push((name.to_string(), None, Vec::new())),
            Some(t) => {
                let lacks: Vec<String> = cols.iter().filter(|c| t.column(c).is_none()).map(|c| c.to_string()).collect();
                if !lacks.is_empty() {
                    missing.push((name.to_string(), Some(file.unwrap_or_else(|| name.to_string())), lacks));
                }
            }
        }
    }
    if missing.is_empty() { Ok(()) } else { Err(MissingColumns { kind, missing }) }
}

/// A report's charts and page, ready to write.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub charts: Vec<Chart>,
    pub page: PageInfo,
    pub findings: Vec<Finding>,
}

/// The charts and page of a `kind` report from its tables and manifest.
///
/// # Errors
/// Missing tables or columns ([`MissingColumns`], all at once), or a gauntlet manifest
/// without its builds and field.
pub fn draw_report(kind: ReportKind, tables: &ReportTables, manifest: &Value) -> anyhow::Result<Drawn> {
    check_tables(kind, tables)?;
    Ok(match kind {
        ReportKind::AttackRunSweep | ReportKind::DuelSweep => {
            let at = &condition_sets(manifest)[0];
            Drawn {
                charts: report_charts(tables, manifest),
                page: PageInfo::of_sweep(manifest),
                findings: page::findings(tables, at),
            }
        }
        ReportKind::Gauntlet => {
            let (builds, field) = gauntlet::builds_and_field(manifest).map_err(anyhow::Error::msg)?;
            let (summary, matchups) = (
                tables.gauntlet_summary.as_ref().expect("checked"),
                tables.gauntlet_matchups.as_ref().expect("checked"),
            );
            Drawn {
                charts: gauntlet::gauntlet_charts(summary, matchups, &builds, &field),
                page: gauntlet::page_info(manifest),
                findings: gauntlet::findings(summary),
            }
        }
    })
}
