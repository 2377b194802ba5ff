//! `volley chart REPORT_DIR`: redraw a report's charts and page from its files.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueHint};

use crate::charts::page::write_pages;
use crate::charts::{ReportTables, report_charts, write_charts};

#[derive(Debug, Args)]
pub struct ChartArgs {
    /// A report directory written by `volley sweep` (its manifest.json and tables)
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
    let tables = ReportTables::read(dir)?;
    let charts = report_charts(&tables, &manifest);
    // Draw into a fresh directory, then swap it in: a failure leaves the old charts.
    let fresh = dir.join(format!(".charts.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    if let Err(e) = write_charts(&charts, &manifest, &fresh) {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(e);
    }
    let target = dir.join("charts");
    let old = dir.join(format!(".charts.old-{}", std::process::id()));
    if target.exists() {
        std::fs::rename(&target, &old).with_context(|| format!("cannot replace {}", target.display()))?;
    }
    std::fs::rename(&fresh, &target).with_context(|| format!("cannot move charts into {}", target.display()))?;
    let _ = std::fs::remove_dir_all(&old);
    write_pages(dir, &manifest, &tables, &charts)?;
    if !args.quiet {
        eprintln!("redrew {} charts and the report page in {}", charts.len(), dir.display());
    }
    Ok(())
}
