//! `volley chart REPORT_DIR`: redraw a report's charts and page from its files.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueHint};

use crate::charts::page::write_page;
use crate::charts::{ReportKind, ReportTables, draw_report, write_charts};

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
    // Draw into a fresh directory, then swap it in: a failure leaves the old charts.
    let fresh = dir.join(format!(".charts.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    if let Err(e) = write_charts(&drawn.charts, &manifest, &fresh) {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e.context(refused()));
    }
    // A signal while drawing: leave the report as it was.
    if let Err(stop) = super::signals::check() {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(stop.into());
    }
    let target = dir.join("charts");
    let old = dir.join(format!(".charts.old-{}", std::process::id()));
    if target.exists() {
        std::fs::rename(&target, &old).with_context(|| format!("cannot replace {}", target.display()))?;
    }
    std::fs::rename(&fresh, &target).with_context(|| format!("cannot move charts into {}", target.display()))?;
    let _ = std::fs::remove_dir_all(&old);
    write_page(dir, &drawn.page, &drawn.findings, &drawn.charts)?;
    if !args.quiet {
        eprintln!("redrew the {} charts and the page of {kind} report {}", drawn.charts.len(), dir.display());
    }
    Ok(())
}
