//! `volley sweep`: run a scenario and write its tables.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Result;
use clap::{Args, ValueEnum, ValueHint};
use rayon::prelude::*;

use super::progress::Progress;
use super::run_args::TrialArgs;
use super::{Invocation, signals};
use crate::catalogue::source::SourceFile;
use crate::charts::page::write_column_guide;
use crate::charts::report::write_pages;
use crate::charts::{ReportTables, report_charts, write_charts};
use crate::output::report_dir::refuse_inputs;
use crate::output::saved_catalogue::{CATALOGUE_DIR, write_catalogue};
use crate::output::wording::count;
use crate::output::{CsvExporter, Exporter, ParquetExporter, ReportDir, TableFrame};
use crate::request::sweep;
use crate::rules::Ruleset;
use crate::sweep::SweepOutput;
use crate::sweep::column_guide::column_guide;
use crate::sweep::shard::Plays;

/// A table file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Parquet,
    Csv,
}

impl TableFormat {
    /// The exporter that writes this format.
    pub fn exporter(self) -> &'static (dyn Exporter + Sync) {
        match self {
            TableFormat::Parquet => &ParquetExporter,
            TableFormat::Csv => &CsvExporter,
        }
    }
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    /// Scenario file, or the name of a built-in scenario (standard, quick, duels,
    /// mechcom-quick, ...; see `volley scenario list`). The scenario's `ruleset` key
    /// (default techcommander) picks the ruleset. An argument is a file when it ends in .toml, contains a
    /// path separator, or exists as a regular file; otherwise it is a built-in name (a
    /// directory of that name is never read as a scenario) [default: the ruleset's
    /// standard scenario: standard, mechcom-standard, skirmishers-standard, shellshock-standard]
    #[arg(value_name = "SCENARIO", value_hint = ValueHint::FilePath)]
    pub scenario: Option<String>,
    /// Report directory [default: reports/<scenario name>]
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace the report directory if it exists
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub trial: TrialArgs,
    /// Table formats to write, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "parquet,csv")]
    pub format: Vec<TableFormat>,
    /// Skip the charts and the report page (index.md, index.html)
    #[arg(long)]
    pub no_charts: bool,
    /// No progress bar and no summary
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub shard: super::shard::ShardArgs,
}

pub fn run<R: Ruleset>(args: &SweepArgs, ctx: &Invocation<'_>) -> Result<()> {
    let plan = sweep::plan::<R>(&ctx.setting, args.scenario.as_deref(), &args.trial.request())?;
    if let Some(out) = &args.out {
        refuse_inputs(out, &plan.inputs)?;
    }
    if let Some(choice) = super::shard::choose(&args.shard, &|name| std::env::var(name).ok())? {
        let output = super::shard::ShardOutput { out: args.out.as_deref(), force: args.force, quiet: args.quiet };
        return super::shard::run_shard::<R>(output, &plan, &choice);
    }
    let default = Path::new("reports").join(crate::output::report_dir::safe_component(&plan.scenario.name));
    let destination = args.out.clone().unwrap_or(default);
    refuse_inputs(&destination, &plan.inputs)?;
    let report = ReportDir::create(&destination, args.force)?;
    let progress = Progress::new(args.quiet);
    let out = plan.run(&progress, &Plays::all())?;
    progress.finish();
    write_report(out, report, &args.format, args.no_charts, args.quiet, serde_json::Map::new(), &plan.files)
}

/// Write a finished sweep as a report (tables in `formats`, manifest with `extra` keys
/// added, the catalogue files it ran on in `catalogue/`, column guide, charts and page
/// unless `no_charts`) and move it into place; prints a summary unless `quiet`. The
/// tables are moved into the charts' [`ReportTables`], not copied.
///
/// # Errors
/// A file that cannot be written, or a signal while writing (the report is dropped).
pub fn write_report(
    out: SweepOutput,
    report: ReportDir,
    formats: &[TableFormat],
    no_charts: bool,
    quiet: bool,
    extra: serde_json::Map<String, serde_json::Value>,
    catalogue_files: &[SourceFile],
) -> Result<()> {
    let write_start = Instant::now();
    let mut formats = formats.to_vec();
    formats.dedup();
    let exporters: Vec<&(dyn Exporter + Sync)> = formats.iter().map(|f| f.exporter()).collect();
    // Every table's frame is built once, and each of its files written on its own, all in
    // parallel; `files` lists them in table order, each table's formats in the order asked.
    let file = |name: &str, e: &dyn Exporter| format!("{name}.{}", e.extension());
    out.tables.par_iter().try_for_each(|(name, table)| -> Result<()> {
        signals::check()?;
        let frame = TableFrame::new(table)?;
        exporters.par_iter().try_for_each(|e| -> Result<()> {
            signals::check()?;
            e.write_frame(&frame, &report.path().join(file(name, *e)))
        })
    })?;
    let files: Vec<String> =
        out.tables.iter().flat_map(|(name, _)| exporters.iter().map(move |e| file(name, *e))).collect();
    let mut manifest = out.manifest.clone();
    let saved = write_catalogue(report.path(), catalogue_files)?;
    let obj = manifest.as_object_mut().expect("object");
    if let Some(c) = obj.get_mut("catalogue").and_then(|c| c.as_object_mut()) {
        c.insert("saved".into(), serde_json::json!({ "dir": CATALOGUE_DIR, "files": saved }));
    }
    obj.extend(extra);
    obj.insert("files".into(), serde_json::json!(files));
    obj.insert("write_seconds".into(), serde_json::json!(write_start.elapsed().as_secs_f64()));
    report.write_manifest(&mut manifest)?;
    write_column_guide(report.path(), &column_guide())?;
    let write_seconds = write_start.elapsed().as_secs_f64();
    let chart_start = Instant::now();
    let mut n_charts = 0;
    let summary = format!(
        "{}, {} in {:.1} s, {:.1} M engagements/s",
        count(out.cells as u64, "cell"),
        count(out.engagements, "engagement"),
        out.seconds,
        out.engagements as f64 / out.seconds.max(1e-9) / 1e6,
    );
    let rows = out.tables.iter().map(|(n, t)| format!("{n} ({} rows)", t.rows.len())).collect::<Vec<_>>().join(", ");
    if !no_charts {
        signals::check()?;
        let tables = ReportTables::from_owned(out.tables);
        let charts = report_charts(&tables, &manifest);
        write_charts(&charts, &manifest, &report.path().join("charts"))?;
        signals::check()?;
        write_pages(report.path(), &manifest, &tables, &charts)?;
        n_charts = charts.len();
        drop_in_background(tables);
    } else {
        drop_in_background(out.tables);
    }
    // A signal during the writing stops here: the partial report is dropped, so removed.
    signals::check()?;
    let written = report.commit()?;
    if !quiet {
        eprintln!("wrote {} ({summary}; tables written in {write_seconds:.2} s)", written.display());
        eprintln!("tables: {rows}");
        if !no_charts {
            eprintln!(
                "charts: {n_charts} (SVG and 300 dpi PNG) in {:.1} s; report page: {}",
                chart_start.elapsed().as_secs_f64(),
                written.join("index.html").display()
            );
        }
    }
    Ok(())
}

/// Free `value` on a thread of its own: a sweep's tables are millions of small
/// allocations, and nothing waits for them to be freed (when the process ends first, they
/// are freed at once). Where no thread can start, `value` is freed here.
fn drop_in_background<T: Send + 'static>(value: T) {
    // A failed spawn drops the closure, and `value` with it, on this thread.
    let _ = std::thread::Builder::new().name("free-tables".into()).spawn(move || drop(value));
}
