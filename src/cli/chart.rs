//! `volley chart REPORT_DIR`: redraw a report's charts and page from its files.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use clap::{Args, ValueHint};

use crate::charts::page::{write_column_guide, write_page};
use crate::charts::{ReportKind, ReportTables, draw_report, write_charts};
use crate::output::fault;
use crate::output::report_dir::{process_is_running, recover, temporary_name};
use crate::sweep::column_guide::column_guide;

/// The name of `chart`'s staging directory inside the report (`.chart.partial-PID`).
const STAGE: &str = "chart";

/// A staging directory, removed when dropped (what was moved out of it is kept), unless
/// it still holds old copies that could not be put back ([`install`]): those stay for the
/// next run.
struct Stage(PathBuf);

impl Drop for Stage {
    fn drop(&mut self) {
        let holds_old = std::fs::read_dir(self.0.join(OLD)).is_ok_and(|mut e| e.next().is_some());
        if !holds_old {
            let _ = fault::remove_dir_all(&self.0);
        }
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
    let manifest: serde_json::Value = serde_json::from_slice(&crate::output::read::read_written(
        &manifest_path,
        crate::catalogue::source::max_input_bytes(),
    )?)
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
        roll_back_dead_installs(dir)?;
        recover(dir, STAGE)?;
        recover(dir, "charts")?;
        fault::create_dir(&fresh).with_context(|| format!("cannot write in {}", dir.display()))?;
        write_charts(&drawn.charts, &manifest, &fresh.join("charts"))?;
        write_column_guide(&fresh, &column_guide())?;
        write_page(&fresh, &drawn.page, &drawn.findings, &drawn.charts)
    })();
    drawn_into.with_context(refused)?;
    super::signals::check()?;
    install(dir, &fresh)?;
    drop(staged);
    if !args.quiet {
        eprintln!("redrew the {} charts and the page of {kind} report {}", drawn.charts.len(), dir.display());
    }
    Ok(())
}

/// What `chart` replaces in a report, in the order it moves them.
const REPLACED: [&str; 4] = ["charts", "COLUMNS.md", "index.html", "index.md"];
/// Inside the stage: the report's old copies while the new ones are moved in, and the
/// same once every new one is in place (never rolled back then).
const OLD: &str = "old";
const DISCARDED: &str = "discarded";

/// Move the charts and pages drawn in `fresh` into report `dir` as one change: the old
/// ones first go to `fresh/old`, then the new ones in; a failing step moves everything
/// back (the report is as it was), and a process killed in between leaves `old` for the
/// next `volley chart` to put back ([`roll_back_dead_installs`]). So the charts and the
/// page always come from one drawing, the old or the new.
fn install(dir: &Path, fresh: &Path) -> Result<()> {
    let old = fresh.join(OLD);
    let names: Vec<&str> = REPLACED.into_iter().filter(|n| fresh.join(n).exists()).collect();
    let (mut out, mut moved_in) = (Vec::new(), Vec::new());
    let moved = (|| -> Result<()> {
        fault::create_dir(&old).with_context(|| format!("cannot write in {}", fresh.display()))?;
        for &name in &names {
            if std::fs::symlink_metadata(dir.join(name)).is_ok() {
                fault::rename(&dir.join(name), &old.join(name))
                    .with_context(|| format!("cannot replace {}", dir.join(name).display()))?;
                out.push(name);
            }
        }
        for &name in &names {
            fault::rename(&fresh.join(name), &dir.join(name))
                .with_context(|| format!("cannot move {name} into {}", dir.display()))?;
            moved_in.push(name);
        }
        // The commit: every new one is in place, the old copies are never put back now.
        fault::rename(&old, &fresh.join(DISCARDED)).with_context(|| format!("cannot write in {}", fresh.display()))
    })();
    if let Err(e) = moved {
        let mut back = true;
        for &name in moved_in.iter().rev() {
            back &= fault::rename(&dir.join(name), &fresh.join(name)).is_ok();
        }
        for &name in out.iter().rev() {
            back &= fault::rename(&old.join(name), &dir.join(name)).is_ok();
        }
        return Err(if back {
            e.context(format!("cannot redraw {} (nothing was changed)", dir.display()))
        } else {
            e.context(format!(
                "cannot redraw {}: its old charts and page are in {} (the next `volley chart` puts them back)",
                dir.display(),
                old.display()
            ))
        });
    }
    Ok(())
}

/// Put back what a `volley chart` killed while moving its files in left: for each stage
/// (`.chart.partial-PID`) of a process no longer running that holds `old`, every old
/// copy goes back in place of the new one (the report as before that run).
///
/// # Errors
/// An old copy that cannot be put back (naming it).
fn roll_back_dead_installs(dir: &Path) -> Result<()> {
    let prefix = format!(".{STAGE}.partial-");
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(()) };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        let old = entry.path().join(OLD);
        if pid == std::process::id() || process_is_running(pid) || !old.is_dir() {
            continue;
        }
        for name in REPLACED.iter().rev() {
            let (copy, target) = (old.join(name), dir.join(name));
            if std::fs::symlink_metadata(&copy).is_err() {
                continue;
            }
            if std::fs::symlink_metadata(&target).is_ok() {
                let aside = entry.path().join(format!("new-{name}"));
                fault::rename(&target, &aside).with_context(|| format!("cannot put back {}", copy.display()))?;
            }
            fault::rename(&copy, &target).with_context(|| format!("cannot put back {}", copy.display()))?;
        }
    }
    Ok(())
}
