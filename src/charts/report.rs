//! What kind of report a directory holds, what its charts and page need from its tables,
//! and drawing them: one entry point for `volley sweep`, `volley gauntlet` and
//! `volley chart`, so a redraw is the same code as the first drawing.

use std::fmt;

pub use crate::output::report_kind::ReportKind;

use serde_json::Value;

use super::data;
use super::page::{self, Finding, PageInfo};
use super::render::Chart;
use super::shape::ReportShape;
use super::{ReportTables, gauntlet, report_charts};

/// Columns of one table a report kind needs: (table, columns).
type Need = (String, Vec<String>);

/// Every table the charts and page of a `kind` report of this `shape` read, with the
/// columns they read: the detail tables first, each cell table with one column per axis.
pub fn needs(kind: ReportKind, shape: &ReportShape) -> Vec<Need> {
    let axes = shape.axis_names();
    let cells = |name: &str, cols: &[&str]| -> Need {
        (name.to_string(), cols.iter().chain(&axes).map(|c| c.to_string()).collect())
    };
    // the cost table: the common columns and each cost chart's own
    let cost = || -> Need {
        let (name, mut cols) = cells("cost_efficiency", data::COST_COLUMNS);
        // notes (e.g. limited rounds) first, then the ranked columns, in chart order
        cols.extend(shape.costs.iter().filter_map(|c| c.note.as_ref().map(|(n, _)| n.clone())));
        cols.extend(shape.costs.iter().map(|c| c.column.clone()));
        (name, cols)
    };
    let details = || {
        shape.details.iter().map(|d| {
            let mut cols = d.columns();
            cols.extend(axes.iter().map(|c| c.to_string()));
            (d.table.clone(), cols)
        })
    };
    match kind {
        ReportKind::AttackRunSweep => details()
            .chain([
                cells("time_to_kill", page::TTK_FINDING_COLUMNS),
                cells("ttk_by_turn", data::TTK_BY_TURN_COLUMNS),
                cost(),
            ])
            .collect(),
        ReportKind::DuelSweep => details().chain([cells("duels", data::DUEL_COLUMNS), cost()]).collect(),
        ReportKind::BattleSweep => {
            let mut v = vec![cells("battles", data::BATTLE_COLUMNS)];
            if shape.seatings.is_some() {
                v.push(cells("battle_forces", data::BATTLE_FORCE_COLUMNS));
            }
            v
        }
        ReportKind::Gauntlet => vec![
            ("gauntlet_summary".into(), gauntlet::SUMMARY_COLUMNS.iter().map(|c| c.to_string()).collect()),
            ("gauntlet_matchups".into(), gauntlet::MATCHUP_COLUMNS.iter().map(|c| c.to_string()).collect()),
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

/// Check that `tables` hold every table and column the charts of a `kind` report of this
/// `shape` read.
///
/// # Errors
/// [`MissingColumns`] naming every missing table and column.
pub fn check_tables(kind: ReportKind, shape: &ReportShape, tables: &ReportTables) -> Result<(), MissingColumns> {
    let mut missing = Vec::new();
    for (name, cols) in needs(kind, shape) {
        let file = tables.sources.iter().find(|(n, _)| *n == name).map(|(_, f)| f.clone());
        match tables.get(&name) {
            None => missing.push((name, None, Vec::new())),
            Some(t) => {
                let lacks: Vec<String> = cols.iter().filter(|c| t.column(c).is_none()).map(|c| c.to_string()).collect();
                if !lacks.is_empty() {
                    missing.push((name.clone(), Some(file.unwrap_or_else(|| name.clone())), lacks));
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
    let shape = ReportShape::of_manifest(manifest);
    check_tables(kind, &shape, tables)?;
    Ok(match kind {
        ReportKind::AttackRunSweep | ReportKind::DuelSweep | ReportKind::BattleSweep => Drawn {
            charts: report_charts(tables, manifest),
            page: PageInfo::of_sweep(manifest),
            findings: sweep_findings(tables, manifest),
        },
        ReportKind::Gauntlet => {
            let (builds, field) = gauntlet::builds_and_field(manifest).map_err(anyhow::Error::msg)?;
            let (summary, matchups) =
                (tables.get("gauntlet_summary").expect("checked"), tables.get("gauntlet_matchups").expect("checked"));
            Drawn {
                charts: gauntlet::gauntlet_charts(
                    summary,
                    matchups,
                    &builds,
                    &field,
                    &gauntlet::condition_keys(manifest),
                ),
                page: gauntlet::page_info(manifest),
                findings: gauntlet::findings(summary, manifest["cost_unit"].as_str().unwrap_or("points")),
            }
        }
    })
}

/// A sweep report's findings, the same for `volley sweep` and `volley chart`: those of
/// [`page::findings`]; for a sensitivity sweep (`[vary]`), those at each varied stat's
/// first value (as the charts show them), each naming that point, then the findings
/// over every varied value ([`super::vary::findings`]: each metric per value, and the
/// most efficient build per point at each value and over the whole grid).
pub fn sweep_findings(tables: &ReportTables, manifest: &Value) -> Vec<Finding> {
    let shape = ReportShape::of_manifest(manifest);
    let at = &shape.condition_sets(manifest)[0];
    match (super::vary::at_first_values(tables, manifest), super::vary::first_values_text(manifest)) {
        (Some(first), Some(point)) => {
            let mut found: Vec<Finding> = page::findings(&first, &shape, at)
                .into_iter()
                .map(|f| format!("At {point} (each varied stat's first value): {f}"))
                .collect();
            found.extend(super::vary::findings(tables, manifest));
            found
        }
        _ => page::findings(tables, &shape, at),
    }
}

/// Write a sweep report's `index.md` and `index.html` into `dir`.
pub fn write_pages(
    dir: &std::path::Path,
    manifest: &Value,
    tables: &ReportTables,
    charts: &[Chart],
) -> anyhow::Result<()> {
    page::write_page(dir, &PageInfo::of_sweep(manifest), &sweep_findings(tables, manifest), charts)
}
