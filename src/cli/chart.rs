//! `volley chart REPORT_DIR`: redraw a report's charts and page from its files.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueHint};

use crate::charts::page::{write_column_guide, write_page};
use crate::charts::{ReportKind, ReportTables, draw_report, write_charts};
use crate::output::report_dir::{recover, swap_in, temporary_name};
use crate::sweep::column_guide::column_guide;

/// The name of `chart`'s staging directory inside the report (`.chart.partial-PID`).
const STAGE: &str = "chart";

/// A staging directory, removed when dropped (what was moved out of it is kept).
struct Stage(PathBuf);

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = crate::output::fault::remove_dir_all(&self.0);
    }
}

#[derive(Debug, Args)]
pub struct ChartArgs {
    /// A report directory written by `volley sweep` or `volley gauntlet` (its manifest.json and tables)
    #[arg(value_name = "REPORT_DIR", value_hint = ValueHint::DirPath)]
    pub report: PathBuf,
    /// No summary on stderr
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(args: &ChartArgs) -> Result<()> {
    let dir = &args.report;
    let manifest_path = dir.join("manifest.json");
    if !manifest_path.exists() {
        bail!("{} is not a volley report: no manifest.json", dir.display());
    }
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(&manifest_path).with_context(|| format!("cannot read {}", manifest_path.display()))?,
    )
    .with_context(|| format!("{} is not valid JSON", manifest_path.display()))?;
    let refused = || format!("cannot redraw {} (nothing was changed)", dir.display());
    let has_table =
        |name: &str| dir.join(format!("{name}.parquet")).exists() || dir.join(format!("{name}.csv")).exists();
    let kind = ReportKind::of_manifest(&manifest, &has_table).map_err(anyhow::Error::msg).with_context(refused)?;
    let tables = ReportTables::read(dir).with_context(refused)?;
    // Everything is computed and checked before the first file is touched.
    let drawn = draw_report(kind, &tables, &manifest).with_context(refused)?;
    // Draw the charts and the page into a fresh directory, then move them in: a failure
    // or a signal before that leaves the report as it was.
    let fresh = dir.join(temporary_name(STAGE, "partial", std::process::id()));
    let staged = Stage(fresh.clone());
    let drawn_into = (|| -> Result<()> {
        // What runs killed while redrawing left: their stages removed, an old charts
        // directory put back when no new one is in place.
        recover(dir, STAGE)?;
        recover(dir, "charts")?;
        crate::output::fault::create_dir(&fresh).with_context(|| format!("cannot write in {}", dir.display()))?;
        write_charts(&drawn.charts, &manifest, &fresh.join("charts"))?;
        write_column_guide(&fresh, &column_guide())?;
        write_page(&fresh, &drawn.page, &drawn.findings, &drawn.charts)
    })();
    drawn_into.with_context(refused)?;
    super::signals::check()?;
    swap_in(&fresh.join("charts"), &dir.join("charts"), false)?;
    let mut pages: Vec<_> = std::fs::read_dir(&fresh)?.flatten().map(|e| e.file_name()).collect();
    pages.sort();
    for name in pages.iter().filter(|n| *n != "charts") {
        crate::output::fault::rename(&fresh.join(name), &dir.join(name))
            .with_context(|| format!("cannot move {} into {}", name.to_string_lossy(), dir.display()))?;
    }
    drop(staged);
    if !args.quiet {
        eprintln!("redrew the {} charts and the page of {kind} report {}", drawn.charts.len(), dir.display());
    }
    Ok(())
}
