//! `volley sweep --shard K/N`: which share of a sweep this process plays (from the
//! command line, or from the environment a Slurm job array or a Kubernetes Indexed Job
//! gives it), and writing its shard directory for `volley merge`.
//!
//! A shard directory holds `tallies.parquet` (the raw integer tallies of the cells it
//! played, see `output::raw_tallies`), `scenario.toml` (the scenario's text as read),
//! `catalogue.json` (the catalogue's files and origin) and `shard.json` (a
//! [`ShardMeta`]: versions, seed, trials, stream size, options, hashes). It is written
//! atomically: a shard that fails or is interrupted leaves no directory.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use serde_json::json;

use super::progress::Progress;
use super::signals;
use super::usage::usage;
use crate::catalogue::source::SourceFile;
use crate::engine::{RunConfig, STREAM_TRIALS, Share, Trials};
use crate::output::ReportDir;
use crate::output::raw_tallies::write_raw_tallies;
use crate::request::sweep::SweepPlan;
use crate::rules::Ruleset;
use crate::sweep::shard::{Plays, SHARD_SCHEMA_VERSION, ShardMeta, sha256};
use crate::sweep::vary::vary_json;

/// The environment variable giving the shard count to Kubernetes Indexed Jobs.
const SHARDS_ENV: &str = "VOLLEY_SHARDS";

#[derive(Debug, Args, Default)]
pub struct ShardArgs {
    /// Play shard K of N (K from 1 to N) and write a shard directory for `volley merge`
    /// instead of a report. Without it, the shard comes from SLURM_ARRAY_TASK_ID (with
    /// SLURM_ARRAY_TASK_COUNT or _MIN/_MAX) or JOB_COMPLETION_INDEX (with --shards or
    /// VOLLEY_SHARDS) when set. Fixed trial counts only (not --precision)
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The shard count when the index comes from JOB_COMPLETION_INDEX (a Kubernetes
    /// Indexed Job's completions) [env: VOLLEY_SHARDS]
    #[arg(long, value_name = "N")]
    pub shards: Option<u32>,
}

/// The share a process plays and how it was chosen (for messages and `shard.json`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardChoice {
    pub share: Share,
    pub source: String,
}

fn number(name: &str, text: &str) -> Result<u64> {
    text.trim().parse::<u64>().map_err(|_| usage(format!("{name}={text}: not a whole number")))
}

/// The share to play: `--shard K/N`, else `SLURM_ARRAY_TASK_ID` (index = (ID − MIN) /
/// STEP, MIN 0 and STEP 1 when unset; count = `SLURM_ARRAY_TASK_COUNT`, else (MAX − MIN)
/// / STEP + 1), else `JOB_COMPLETION_INDEX` (from 0) with the count from `--shards` or
/// `VOLLEY_SHARDS`; `None` without any (a single-process run). `env` looks a variable
/// up (set but empty = not set).
///
/// # Errors
/// A usage error for a malformed or out-of-range value, an index without a count, or
/// `--shards` without an index from the environment.
pub fn choose(args: &ShardArgs, env: &dyn Fn(&str) -> Option<String>) -> Result<Option<ShardChoice>> {
    let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let share = |index: u64, count: u64, source: String| -> Result<Option<ShardChoice>> {
        let count32 = u32::try_from(count).map_err(|_| usage(format!("{source}: too many shards")))?;
        let index32 = u32::try_from(index).unwrap_or(u32::MAX);
        let share = Share::new(index32, count32).map_err(|e| usage(format!("{source}: {e}")))?;
        Ok(Some(ShardChoice { share, source }))
    };
    if let Some(text) = &args.shard {
        let bad = || usage(format!("--shard {text}: give K/N with 1 <= K <= N (e.g. --shard 3/8)"));
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || k > n {
            return Err(bad());
        }
        return share(k - 1, n, format!("--shard {k}/{n}"));
    }
    if let Some(id) = env("SLURM_ARRAY_TASK_ID") {
        let id = number("SLURM_ARRAY_TASK_ID", &id)?;
        let min = env("SLURM_ARRAY_TASK_MIN").map(|v| number("SLURM_ARRAY_TASK_MIN", &v)).transpose()?.unwrap_or(0);
        let step = env("SLURM_ARRAY_TASK_STEP").map(|v| number("SLURM_ARRAY_TASK_STEP", &v)).transpose()?.unwrap_or(1);
        let mut source = format!("SLURM_ARRAY_TASK_ID={id}");
        let count = if let Some(c) = env("SLURM_ARRAY_TASK_COUNT") {
            source += &format!(", SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_COUNT={c}");
            number("SLURM_ARRAY_TASK_COUNT", &c)?
        } else if let Some(max) = env("SLURM_ARRAY_TASK_MAX") {
            source += &format!(", SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max}");
            let max = number("SLURM_ARRAY_TASK_MAX", &max)?;
            if max < min || step == 0 {
                return Err(usage(format!("{source}: not an array range")));
            }
            (max - min) / step + 1
        } else {
            return Err(usage(
                "SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX: cannot tell the shard count",
            ));
        };
        if id < min || step == 0 || (id - min) % step != 0 {
            return Err(usage(format!("{source}: the task is not one of the array's")));
        }
        return share((id - min) / step, count, source);
    }
    if let Some(index) = env("JOB_COMPLETION_INDEX") {
        let index = number("JOB_COMPLETION_INDEX", &index)?;
        let (count, from) = match (args.shards, env(SHARDS_ENV)) {
            (Some(n), _) => (n as u64, format!("--shards {n}")),
            (None, Some(v)) => (number(SHARDS_ENV, &v)?, format!("{SHARDS_ENV}={v}")),
            (None, None) => {
                return Err(usage(format!(
                    "JOB_COMPLETION_INDEX={index} is set but not the shard count: give --shards N or {SHARDS_ENV}"
                )));
            }
        };
        return share(index, count, format!("JOB_COMPLETION_INDEX={index}, {from}"));
    }
    if args.shards.is_some() {
        return Err(usage(
            "--shards gives the shard count of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX is not set): use --shard K/N",
        ));
    }
    Ok(None)
}

/// The files of a shard directory.
pub const SHARD_FILE: &str = "shard.json";
pub const TALLIES_FILE: &str = "tallies.parquet";
pub const SCENARIO_FILE: &str = "scenario.toml";
pub const CATALOGUE_FILE: &str = "catalogue.json";
/// A resumed search's race so far (its shards and its state directory).
pub const STATE_FILE: &str = "search-state.json";
/// The exact values a search's first-stage shard solved (its share of the candidates).
pub const EXACT_FILE: &str = "exact.json";

/// The text of a `catalogue.json` (of a shard or a search state): how messages name the
/// catalogue, and its files.
///
/// # Errors
/// None in practice (text serialises); kept for the `?` of its callers.
pub fn catalogue_json(origin: &str, files: &[SourceFile]) -> Result<String> {
    let files: Vec<_> = files.iter().map(|f| json!({ "name": f.name, "text": f.text })).collect();
    Ok(serde_json::to_string_pretty(&json!({ "origin": origin, "files": files }))? + "\n")
}

/// A `catalogue.json` (of a shard or a search state): how messages name the catalogue,
/// and its files.
///
/// # Errors
/// A file that cannot be read or is not such a document.
pub fn read_catalogue_json(path: &Path) -> Result<(String, Vec<SourceFile>)> {
    #[derive(serde::Deserialize)]
    struct Files {
        origin: String,
        files: Vec<FileJson>,
    }
    #[derive(serde::Deserialize)]
    struct FileJson {
        name: String,
        text: String,
    }
    let bytes = crate::output::read::read_written(path, crate::catalogue::source::max_input_bytes())?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", path.display()))?;
    let files: Files =
        serde_json::from_str(&text).with_context(|| format!("{} is not a catalogue description", path.display()))?;
    Ok((files.origin, files.files.into_iter().map(|f| SourceFile { name: f.name, text: f.text }).collect()))
}

/// The default shard directory: `reports/<scenario>-shards/shard-K-of-N` (K from 1).
fn default_dir(scenario: &str, share: Share) -> PathBuf {
    let n = share.count();
    let width = n.to_string().len();
    let scenario = crate::output::report_dir::safe_component(scenario);
    Path::new("reports").join(format!("{scenario}-shards")).join(format!("shard-{:0width$}-of-{n}", share.index() + 1))
}

/// Where a shard goes and how it talks: the sweep's `--out`, `--force` and `--quiet`.
#[derive(Debug, Clone, Copy)]
pub struct ShardOutput<'a> {
    /// The shard directory (default `reports/<scenario>-shards/shard-K-of-N`).
    pub out: Option<&'a Path>,
    /// Replace an existing directory.
    pub force: bool,
    /// No progress bar and no summary.
    pub quiet: bool,
}

/// What a shard directory records of its run besides the tallies: the same in every
/// shard of the run.
pub struct RunRecord<'a> {
    /// The command sharded: `sweep`, `gauntlet` or `battle`.
    pub command: &'static str,
    /// The command line after `volley` (a gauntlet's or battle's merge plays it again
    /// with the shards' tallies); empty for sweeps, whose merge reads the scenario.
    pub args: Vec<String>,
    /// The scenario's name (a gauntlet or battle: the report's).
    pub name: String,
    /// The scenario file as manifests name it, and its text (empty without one).
    pub scenario_file: String,
    pub scenario_text: String,
    /// The options played (`NAME`, value).
    pub options: Vec<(String, String)>,
    /// The `[vary]` plan (`null` without one).
    pub vary: serde_json::Value,
    /// The catalogue's files as read and how messages name them (`Layers::origin`).
    pub catalogue_origin: String,
    pub catalogue_files: &'a [SourceFile],
    /// A search resumed at a later stage: the race so far ([`STATE_FILE`]); empty
    /// otherwise.
    pub state_text: String,
    /// A search's first stage: the exact values this shard solved ([`EXACT_FILE`]);
    /// empty otherwise.
    pub exact_text: String,
}

/// The command line after `volley`, as text.
///
/// # Errors
/// An argument that is not UTF-8 (a shard records its command line as text).
/// The ruleset the command line was parsed for (its condition flags are that ruleset's)
/// is written first as `--ruleset NAME` when the line does not name it (it came from
/// `VOLLEY_RULESET` or the default), so the line parses the same anywhere.
///
/// # Errors
/// An argument that is not UTF-8 (a shard records its command line as text).
pub fn command_line() -> Result<Vec<String>> {
    let os: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let mut args: Vec<String> = os
        .iter()
        .skip(1)
        .map(|a| {
            a.clone().into_string().map_err(|a| usage(format!("argument {a:?} is not UTF-8: it cannot be recorded")))
        })
        .collect::<Result<_>>()?;
    if !args.iter().any(|a| a == "--ruleset" || a.starts_with("--ruleset=")) {
        let id = super::ruleset_of_args(&os);
        args.splice(0..0, ["--ruleset".to_string(), id.name().to_string()]);
    }
    Ok(args)
}

/// How a command that can be sharded runs: whole (its normal output), one shard (a
/// shard directory), or as the merge of its shards (the normal output from their
/// tallies).
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    Whole,
    Shard(&'a ShardChoice),
    Merged(&'a Plays<'a>),
}

/// One shard being played: its directory (not yet in place), its plays and clock.
pub struct ShardRun {
    dir: ReportDir,
    plays: Plays<'static>,
    choice: ShardChoice,
    trials: u64,
    start: Instant,
}

impl ShardRun {
    /// Start playing `choice`'s share: says which shard this is and where its place came
    /// from, and creates its directory (`out`, else `reports/<name>-shards/shard-K-of-N`).
    ///
    /// # Errors
    /// A usage error for `--precision` (refused: see the message); a directory that
    /// exists without `force`.
    pub fn start(
        choice: &ShardChoice,
        name: &str,
        out: Option<&Path>,
        force: bool,
        config: &RunConfig,
    ) -> Result<Self> {
        let share = choice.share;
        eprintln!("volley: shard {} of {} (from {})", share.index() + 1, share.count(), choice.source);
        let Trials::Fixed(trials) = config.trials else {
            return Err(usage(
                "--precision cannot be sharded: which cells play another round depends on the merged results of \
                 every shard. Shard a fixed trial count (--trials N), or run --precision in one process",
            ));
        };
        let destination = out.map_or_else(|| default_dir(name, share), Path::to_path_buf);
        let dir = ReportDir::create(&destination, force)?;
        Ok(ShardRun { dir, plays: Plays::share(share), choice: choice.clone(), trials, start: Instant::now() })
    }

    /// The plays to run the command's engine calls through.
    pub fn plays(&self) -> &Plays<'static> {
        &self.plays
    }

    /// Write the shard directory (tallies, scenario, catalogue, `shard.json`) and move
    /// it into place; prints a summary unless `quiet`.
    ///
    /// # Errors
    /// A file that cannot be written, or a signal (no directory is left then).
    pub fn finish<R: Ruleset>(
        self,
        record: RunRecord<'_>,
        catalogue: &R::Catalogue,
        config: &RunConfig,
        quiet: bool,
    ) -> Result<()> {
        let ShardRun { dir, plays, choice, trials, start } = self;
        let share = choice.share;
        let seconds = start.elapsed().as_secs_f64();
        signals::check()?;
        let raw = plays.take_recorded();
        let (cells, cell_keys) = plays.cells_digest();
        let engagements: u64 = raw.iter().map(|c| c.counts.first().copied().unwrap_or(0) as u64).sum();
        let streams: u64 = share.assignment(&vec![trials; cells as usize]).len() as u64;
        write_raw_tallies(&raw, &dir.path().join(TALLIES_FILE))?;
        dir.write(SCENARIO_FILE, record.scenario_text.as_bytes())?;
        let catalogue_json = catalogue_json(&record.catalogue_origin, record.catalogue_files)?;
        dir.write(CATALOGUE_FILE, catalogue_json.as_bytes())?;
        let state_sha256 = if record.state_text.is_empty() {
            String::new()
        } else {
            dir.write(STATE_FILE, record.state_text.as_bytes())?;
            sha256(record.state_text.as_bytes())
        };
        let exact_sha256 = if record.exact_text.is_empty() {
            String::new()
        } else {
            dir.write(EXACT_FILE, record.exact_text.as_bytes())?;
            sha256(record.exact_text.as_bytes())
        };
        let (origin, hash) = R::origin(catalogue);
        let meta = ShardMeta {
            schema_version: SHARD_SCHEMA_VERSION,
            volley_version: env!("CARGO_PKG_VERSION").into(),
            shard: share.index() + 1,
            shards: share.count(),
            command: record.command.into(),
            args: record.args,
            ruleset: R::NAME.into(),
            scenario_name: record.name,
            scenario_file: record.scenario_file,
            options: record.options,
            vary: record.vary,
            seed: config.seed,
            trials,
            stream_trials: STREAM_TRIALS,
            catalogue_origin: origin.into(),
            catalogue_hash: hash.into(),
            cells,
            cell_keys,
            scenario_sha256: sha256(record.scenario_text.as_bytes()),
            catalogue_sha256: sha256(catalogue_json.as_bytes()),
            tallies_sha256: sha256(&std::fs::read(dir.path().join(TALLIES_FILE))?),
            state_sha256,
            exact_sha256,
            streams,
            engagements,
            seconds,
            source: choice.source.clone(),
            meta_sha256: String::new(),
        }
        .sealed();
        dir.write(SHARD_FILE, (serde_json::to_string_pretty(&meta)? + "\n").as_bytes())?;
        signals::check()?;
        let written = dir.commit()?;
        if !quiet {
            eprintln!(
                "wrote {} (shard {} of {}: {streams} streams, {engagements} engagements of {cells} cells in {seconds:.1} s)",
                written.display(),
                share.index() + 1,
                share.count(),
            );
        }
        Ok(())
    }
}

/// Play `choice`'s share of the sweep `plan` (a `[vary]` sweep: the streams of every
/// combination dealt as one run) and write its shard directory.
///
/// # Errors
/// A usage error for `--precision`; what the sweep or writing fails with (no directory
/// is left then).
pub fn run_shard<R: Ruleset>(args: ShardOutput<'_>, plan: &SweepPlan<R>, choice: &ShardChoice) -> Result<()> {
    let scenario = &plan.scenario;
    let shard = ShardRun::start(choice, &scenario.name, args.out, args.force, &plan.config)?;
    let progress = Progress::new(args.quiet);
    plan.run(&progress, shard.plays())?;
    progress.finish();
    let record = RunRecord {
        command: "sweep",
        args: Vec::new(),
        name: scenario.name.clone(),
        scenario_file: scenario.file.clone(),
        scenario_text: plan.text.text.clone(),
        options: scenario.options.clone(),
        vary: plan.vary.as_ref().map_or(serde_json::Value::Null, |p| vary_json(p.axes())),
        catalogue_origin: plan.origin.clone(),
        catalogue_files: &plan.files,
        state_text: String::new(),
        exact_text: String::new(),
    };
    shard.finish::<R>(record, &plan.catalogue, &plan.config, args.quiet)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(shard: Option<&str>, shards: Option<u32>, vars: &[(&str, &str)]) -> Result<Option<(u32, u32, String)>> {
        let args = ShardArgs { shard: shard.map(str::to_string), shards };
        let env = |name: &str| vars.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string());
        Ok(choose(&args, &env)?.map(|c| (c.share.index(), c.share.count(), c.source)))
    }

    #[test]
    fn the_shard_comes_from_the_flag_then_slurm_then_kubernetes() {
        assert_eq!(pick(None, None, &[]).unwrap(), None);
        assert_eq!(pick(Some("3/8"), None, &[("SLURM_ARRAY_TASK_ID", "1")]).unwrap().unwrap().0, 2);
        let slurm = [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "7")];
        let (k, n, source) = pick(None, None, &slurm).unwrap().unwrap();
        assert_eq!((k, n), (4, 7));
        assert!(source.starts_with("SLURM_ARRAY_TASK_ID=5"), "{source}");
        let by_max = [
            ("SLURM_ARRAY_TASK_ID", "20"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "30"),
            ("SLURM_ARRAY_TASK_STEP", "5"),
        ];
        assert_eq!(pick(None, None, &by_max).unwrap().unwrap().0..pick(None, None, &by_max).unwrap().unwrap().1, 2..5);
        let k8s = [("JOB_COMPLETION_INDEX", "0"), (SHARDS_ENV, "3")];
        assert_eq!(pick(None, None, &k8s).unwrap().unwrap().0..3, 0..3);
        assert_eq!(pick(None, Some(4), &k8s).unwrap().unwrap().1, 4, "--shards wins over VOLLEY_SHARDS");
    }

    #[test]
    fn incomplete_or_out_of_range_shards_are_usage_errors() {
        for (shard, shards, vars) in [
            (Some("0/3"), None, vec![]),
            (Some("4/3"), None, vec![]),
            (Some("3"), None, vec![]),
            (None, Some(3), vec![]),
            (None, None, vec![("SLURM_ARRAY_TASK_ID", "2")]),
            (None, None, vec![("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "4")]),
            (None, None, vec![("JOB_COMPLETION_INDEX", "1")]),
            (None, None, vec![("JOB_COMPLETION_INDEX", "3"), (SHARDS_ENV, "3")]),
        ] {
            let err = pick(shard, shards, &vars).unwrap_err();
            assert_eq!(super::super::usage::exit_code(&err), 2, "{shard:?} {vars:?}: {err}");
        }
    }
}
