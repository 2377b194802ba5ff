//! Charts and the report page, from result tables only: `volley sweep` draws them from
//! its tables, `volley chart` from the files of a report directory, with the same code.

pub mod axes;
pub mod card;
pub mod data;
pub mod detail;
pub mod draw;
pub mod fit;
pub mod gauntlet;
pub mod initiative_finding;
pub mod legacy;
pub mod lines;
pub mod page;
pub mod pdf;
pub mod render;
pub mod report;
pub mod search;
pub mod shape;
pub mod shape_of;
pub mod style;
pub mod vary;

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use crate::output::Table;
use crate::output::read::read_table;
pub use axes::ConditionSet;
use data::{battle_matrix, cost_bars, duel_matrix, pooled_battle_matrix, ttk_curves};
pub use render::{Chart, ChartKind};
pub use report::{ReportKind, draw_report};
pub use shape::ReportShape;

/// The tables a report's charts read, by name (any may be absent): the common ones
/// ([`TABLE_NAMES`]) and the detail tables its manifest's detail charts name.
#[derive(Debug, Clone, Default)]
pub struct ReportTables {
    /// (table name, table).
    pub tables: Vec<(String, Table)>,
    /// The file each table was read from (empty when built in memory).
    pub sources: Vec<(String, String)>,
}

/// The common tables every ruleset's reports may hold.
pub const TABLE_NAMES: [&str; 9] = [
    "time_to_kill",
    "ttk_by_turn",
    "cost_efficiency",
    "duels",
    "gauntlet_summary",
    "gauntlet_matchups",
    "battles",
    "battle_units",
    "battle_forces",
];

/// Whether `name` can name a table file: letters, digits, `_` and `-` only.
fn is_table_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl ReportTables {
    /// From named tables (as a sweep or a gauntlet produces them); every one is kept.
    pub fn from_named(tables: &[(&str, Table)]) -> ReportTables {
        ReportTables::from_owned(tables.to_vec())
    }

    /// [`ReportTables::from_named`] taking the tables instead of copying them.
    pub fn from_owned(tables: Vec<(&str, Table)>) -> ReportTables {
        ReportTables { tables: tables.into_iter().map(|(n, t)| (n.to_string(), t)).collect(), sources: Vec::new() }
    }

    /// The table called `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|(n, _)| n == name).map(|(_, t)| t)
    }

    /// From a report directory's files (Parquet, or an edited CSV: [`crate::output::read::table_file`]): the common tables and the
    /// detail tables of the manifest in `dir` (see [`ReportTables::read_with`]; an absent
    /// or unreadable manifest reads as an old one).
    pub fn read(dir: &Path) -> Result<ReportTables> {
        let manifest =
            crate::output::read::read_written(&dir.join("manifest.json"), crate::catalogue::source::max_input_bytes())
                .ok()
                .and_then(|text| serde_json::from_slice(&text).ok())
                .unwrap_or(Value::Null);
        ReportTables::read_with(dir, &manifest)
    }

    /// From a report directory's files (Parquet, or an edited CSV: [`crate::output::read::table_file`]): the common tables and every
    /// detail table `manifest`'s shape names ([`ReportShape::of_manifest`]). A name that
    /// cannot name a file is not read (and so reported missing where it is needed).
    pub fn read_with(dir: &Path, manifest: &Value) -> Result<ReportTables> {
        let shape = ReportShape::of_manifest(manifest);
        let mut names: Vec<&str> = TABLE_NAMES.to_vec();
        for d in &shape.details {
            if is_table_name(&d.table) && !names.contains(&d.table.as_str()) {
                names.push(&d.table);
            }
        }
        let mut out = ReportTables::default();
        for name in names {
            if let Some((table, file)) = read_table(dir, name)? {
                out.sources.push((name.to_string(), file));
                out.tables.push((name.to_string(), table));
            }
        }
        Ok(out)
    }
}

/// The footer every chart carries: scenario, seed, trials and volley version.
pub fn footer(manifest: &Value) -> String {
    footer_of(manifest, false)
}

/// The footer of a chart: [`footer`], or for a chart of exact values (`exact`) the same
/// line saying "exact values" where the trials per cell stand, which it does not depend on.
pub fn footer_of(manifest: &Value, exact: bool) -> String {
    let scenario = manifest["scenario"]["name"].as_str().unwrap_or("?");
    let trials = match &manifest["trials_per_cell"] {
        _ if exact => "exact values".to_string(),
        t if t.get("fixed").is_some() => format!("{} engagements per cell", t["fixed"]),
        t if t.get("precision").is_some() => format!("95% half-width ≤ {} per cell", t["precision"]),
        _ => "?".into(),
    };
    format!(
        "volley {} · {} · scenario {scenario} · seed {} · {trials} · catalogue {}",
        manifest["volley_version"].as_str().unwrap_or("?"),
        ReportShape::of_manifest(manifest).ruleset,
        manifest["seed"],
        manifest["catalogue"]["hash"].as_str().unwrap_or("?")
    )
}

/// The condition sets the scenario asks charts for, each axis resolved against the
/// manifest's axes (an axis left out takes its first value); see
/// [`ReportShape::condition_sets`].
pub fn condition_sets(manifest: &Value) -> Vec<ConditionSet> {
    ReportShape::of_manifest(manifest).condition_sets(manifest)
}

/// The longest [`slug`], in bytes: a chart file name joins a few slugs (a detail heatmap's
/// stem, attacker, weapon and axis), and with its extension must stay within the 255
/// bytes a file system allows in one name.
pub const MAX_SLUG: usize = 64;

/// Lowercase, dash-separated, file-name-safe, at most [`MAX_SLUG`] bytes: a longer one is
/// cut and ends with 8 hex digits of a hash of the whole (so two long names that share
/// their beginning stay apart). A name of ordinary length comes back whole.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let whole = out.trim_matches('-');
    if whole.len() <= MAX_SLUG {
        return whole.to_string();
    }
    // FNV-1a (64 bits), folded to 32: stable across versions and platforms.
    let hash = whole.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let cut = whole[..MAX_SLUG - 9].trim_end_matches('-');
    format!("{cut}-{:08x}", (hash ^ (hash >> 32)) as u32)
}

/// Every chart of a report, in the order the page shows them: per chart condition set
/// the time-to-kill curves, the duel matrix, the force matrix (pooled over seatings from
/// `battle_forces` when the sweep rotated its seats) and the cost bars (files of the
/// second and later sets suffixed with the set's slug), then the detail heatmaps at the
/// first set.
pub fn report_charts(all: &ReportTables, manifest: &Value) -> Vec<Chart> {
    use rayon::prelude::*;
    // A sensitivity sweep: the usual charts at each varied stat's first value.
    let first = vary::at_first_values(all, manifest);
    let tables = first.as_ref().unwrap_or(all);
    let shape = ReportShape::of_manifest(manifest);
    let sets = shape.condition_sets(manifest);
    // Each job reads the tables and gives its charts; the jobs run in parallel and their
    // charts are kept in job order.
    type Job<'a> = Box<dyn Fn() -> Vec<Chart> + Send + Sync + 'a>;
    let mut jobs: Vec<Job<'_>> = Vec::new();
    for (i, at) in sets.iter().enumerate() {
        let suffix = if i == 0 { String::new() } else { format!("-{}", at.slug()) };
        let shape = &shape;
        if let Some(t) = tables.get("ttk_by_turn") {
            let name = format!("ttk{suffix}");
            jobs.push(Box::new(move || {
                vec![Chart { name: name.clone(), kind: ChartKind::Curves(ttk_curves(t, at, shape)), exact: false }]
            }));
        }
        if let Some(t) = tables.get("duels") {
            let name = format!("duel-matrix{suffix}");
            jobs.push(Box::new(move || {
                vec![Chart { name: name.clone(), kind: ChartKind::Heatmap(duel_matrix(t, at)), exact: false }]
            }));
        }
        if let Some(t) = tables.get("battles") {
            let name = format!("battle-matrix{suffix}");
            jobs.push(Box::new(move || {
                // Seats pooled over several seatings: the pooled table (without it, no
                // matrix rather than the force-order seating's seat-biased one).
                let matrix = match &shape.seatings {
                    None => Some(battle_matrix(t, at)),
                    Some(s) => tables.get("battle_forces").map(|f| pooled_battle_matrix(f, at, s)),
                };
                matrix
                    .map(|m| Chart { name: name.clone(), kind: ChartKind::Heatmap(m), exact: false })
                    .into_iter()
                    .collect()
            }));
        }
        if let Some(t) = tables.get("cost_efficiency") {
            let suffix = suffix.clone();
            jobs.push(Box::new(move || {
                cost_bars(t, at, &shape.turn, &shape.costs)
                    .into_iter()
                    .filter(|(_, bars)| !bars.bars.is_empty())
                    .map(|(stem, bars)| Chart {
                        name: format!("{stem}{suffix}"),
                        kind: ChartKind::Bars(bars),
                        exact: false,
                    })
                    .collect()
            }));
        }
    }
    for chart in &shape.details {
        if let Some(t) = tables.get(&chart.table) {
            let (axes, at) = (&shape.axes, &sets[0]);
            jobs.push(Box::new(move || detail::detail_charts(t, chart, axes, at)));
        }
    }
    jobs.push(Box::new(|| vary::vary_charts(all, manifest)));
    jobs.par_iter().map(|job| job()).collect::<Vec<Vec<Chart>>>().into_iter().flatten().collect()
}

/// Write every chart as SVG and PNG into `dir` (created). Callers write into a staging
/// directory (a report's partial directory, `chart`'s stage) that is moved into place
/// whole, so a reader never sees half a chart set.
///
/// # Errors
/// A chart that cannot be drawn or a file that cannot be written (naming it).
pub fn write_charts(charts: &[Chart], manifest: &Value, dir: &Path) -> Result<()> {
    use crate::output::fault;
    use rayon::prelude::*;
    fault::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let (foot, exact_foot) = (footer_of(manifest, false), footer_of(manifest, true));
    charts.par_iter().try_for_each(|c| -> Result<()> {
        let foot = if c.exact { &exact_foot } else { &foot };
        let svg = c.svg(foot).map_err(anyhow::Error::msg)?;
        fault::write(&dir.join(format!("{}.svg", c.name)), svg.as_bytes())
            .with_context(|| format!("cannot write {}.svg", c.name))?;
        let png = c.png(foot).map_err(anyhow::Error::msg)?;
        fault::write(&dir.join(format!("{}.png", c.name)), &png)
            .with_context(|| format!("cannot write {}.png", c.name))?;
        Ok(())
    })
}
