//! Charts and the report page, from result tables only: `volley sweep` draws them from
//! its tables, `volley chart` from the files of a report directory, with the same code.

pub mod card;
pub mod data;
pub mod draw;
pub mod gauntlet;
pub mod page;
pub mod pdf;
pub mod render;
pub mod report;
pub mod style;

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

use crate::output::Table;
use crate::output::read::read_table;
use data::{ConditionSet, cost_bars, duel_matrix, hit_heatmap, ttk_curves, weapons};
pub use render::{Chart, ChartKind};
pub use report::{ReportKind, draw_report};

/// The tables a report's charts read (any may be absent).
#[derive(Debug, Clone, Default)]
pub struct ReportTables {
    pub hit_probability: Option<Table>,
    pub time_to_kill: Option<Table>,
    pub ttk_by_turn: Option<Table>,
    pub cost_efficiency: Option<Table>,
    pub duels: Option<Table>,
    pub gauntlet_summary: Option<Table>,
    pub gauntlet_matchups: Option<Table>,
    /// The file each table was read from (empty when built in memory).
    pub sources: Vec<(String, String)>,
}

/// Every table name [`ReportTables`] holds.
pub const TABLE_NAMES: [&str; 7] = [
    "hit_probability",
    "time_to_kill",
    "ttk_by_turn",
    "cost_efficiency",
    "duels",
    "gauntlet_summary",
    "gauntlet_matchups",
];

impl ReportTables {
    /// From named tables (as a sweep or a gauntlet produces them).
    pub fn from_named(tables: &[(&str, Table)]) -> ReportTables {
        let mut out = ReportTables::default();
        for (name, t) in tables {
            if let Some(slot) = out.slot(name) {
                *slot = Some(t.clone());
            }
        }
        out
    }

    fn slot(&mut self, name: &str) -> Option<&mut Option<Table>> {
        Some(match name {
            "hit_probability" => &mut self.hit_probability,
            "time_to_kill" => &mut self.time_to_kill,
            "ttk_by_turn" => &mut self.ttk_by_turn,
            "cost_efficiency" => &mut self.cost_efficiency,
            "duels" => &mut self.duels,
            "gauntlet_summary" => &mut self.gauntlet_summary,
            "gauntlet_matchups" => &mut self.gauntlet_matchups,
            _ => return None,
        })
    }

    /// The table called `name`, if present.
    pub fn get(&self, name: &str) -> Option<&Table> {
        match name {
            "hit_probability" => self.hit_probability.as_ref(),
            "time_to_kill" => self.time_to_kill.as_ref(),
            "ttk_by_turn" => self.ttk_by_turn.as_ref(),
            "cost_efficiency" => self.cost_efficiency.as_ref(),
            "duels" => self.duels.as_ref(),
            "gauntlet_summary" => self.gauntlet_summary.as_ref(),
            "gauntlet_matchups" => self.gauntlet_matchups.as_ref(),
            _ => None,
        }
    }

    /// From a report directory's files (Parquet, else CSV).
    pub fn read(dir: &Path) -> Result<ReportTables> {
        let mut out = ReportTables::default();
        for name in TABLE_NAMES {
            let table = read_table(dir, name)?;
            if table.is_some() {
                let file = if dir.join(format!("{name}.parquet")).exists() { "parquet" } else { "csv" };
                out.sources.push((name.to_string(), format!("{name}.{file}")));
            }
            *out.slot(name).expect("known table") = table;
        }
        Ok(out)
    }
}

/// The footer every chart carries: scenario, seed, trials and volley version.
pub fn footer(manifest: &Value) -> String {
    let scenario = manifest["scenario"]["name"].as_str().unwrap_or("?");
    let trials = match &manifest["trials_per_cell"] {
        t if t.get("fixed").is_some() => format!("{} engagements per cell", t["fixed"]),
        t if t.get("precision").is_some() => format!("95% half-width ≤ {} per cell", t["precision"]),
        _ => "?".into(),
    };
    format!(
        "volley {} · TechCommander · scenario {scenario} · seed {} · {trials} · catalogue {}",
        manifest["volley_version"].as_str().unwrap_or("?"),
        manifest["seed"],
        manifest["catalogue"]["hash"].as_str().unwrap_or("?")
    )
}

/// The condition sets the scenario asks charts for, each axis resolved against the grid
/// (an axis left out takes the grid's first value).
pub fn condition_sets(manifest: &Value) -> Vec<ConditionSet> {
    let grid = &manifest["scenario"]["grid"];
    let first = |axis: &str| grid[axis].get(0).cloned().unwrap_or(Value::Null);
    let text = |v: &Value, default: &str| v.as_str().unwrap_or(default).to_string();
    let sets = manifest["scenario"]["chart_conditions"].as_array().cloned().unwrap_or_default();
    let sets = if sets.is_empty() { vec![Value::Object(Default::default())] } else { sets };
    sets.iter()
        .map(|s| {
            let pick = |axis: &str| if s[axis].is_null() { first(axis) } else { s[axis].clone() };
            ConditionSet {
                range: pick("range").as_f64().unwrap_or(12.0),
                cover: text(&pick("cover"), "none"),
                smoke: text(&pick("smoke"), "none"),
                movement: text(&pick("movement"), "stationary"),
                status: text(&pick("status"), "none"),
            }
        })
        .collect()
}

/// Lowercase, dash-separated, file-name-safe.
pub fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').to_string()
}

/// Every chart of a report, in the order the page shows them.
pub fn report_charts(tables: &ReportTables, manifest: &Value) -> Vec<Chart> {
    let sets = condition_sets(manifest);
    let mut charts = Vec::new();
    for (i, at) in sets.iter().enumerate() {
        let suffix = if i == 0 { String::new() } else { format!("-{}", at.slug()) };
        if let Some(t) = &tables.ttk_by_turn {
            charts.push(Chart { name: format!("ttk{suffix}"), kind: ChartKind::Curves(ttk_curves(t, at)) });
        }
        if let Some(t) = &tables.duels {
            charts.push(Chart { name: format!("duel-matrix{suffix}"), kind: ChartKind::Heatmap(duel_matrix(t, at)) });
        }
        if let Some(t) = &tables.cost_efficiency {
            for ((stem, _), bars) in data::COST_CHARTS.iter().zip(cost_bars(t, at)) {
                if !bars.bars.is_empty() {
                    charts.push(Chart { name: format!("{stem}{suffix}"), kind: ChartKind::Bars(bars) });
                }
            }
        }
    }
    if let Some(hit) = &tables.hit_probability {
        let at = &sets[0];
        let many_ranges = data::distinct_float(hit, "range").len() > 1;
        for (attacker, weapon) in weapons(hit) {
            let stem = format!("hit-{}-{}", slug(&attacker), slug(&weapon));
            charts.push(Chart {
                name: format!("{stem}-cover"),
                kind: ChartKind::Heatmap(hit_heatmap(hit, &attacker, &weapon, "cover", at)),
            });
            if many_ranges {
                charts.push(Chart {
                    name: format!("{stem}-range"),
                    kind: ChartKind::Heatmap(hit_heatmap(hit, &attacker, &weapon, "range", at)),
                });
            }
        }
    }
    charts
}

/// Write every chart as SVG and PNG into `dir` (created), returning the charts.
pub fn write_charts(charts: &[Chart], manifest: &Value, dir: &Path) -> Result<()> {
    use rayon::prelude::*;
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let foot = footer(manifest);
    charts.par_iter().try_for_each(|c| -> Result<()> {
        let svg = c.svg(&foot).map_err(anyhow::Error::msg)?;
        std::fs::write(dir.join(format!("{}.svg", c.name)), svg)
            .with_context(|| format!("cannot write {}.svg", c.name))?;
        let png = c.png(&foot).map_err(anyhow::Error::msg)?;
        std::fs::write(dir.join(format!("{}.png", c.name)), png)
            .with_context(|| format!("cannot write {}.png", c.name))?;
        Ok(())
    })
}
