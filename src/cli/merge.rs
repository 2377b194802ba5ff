//! `volley merge SHARD_DIR... --out REPORT_DIR`: check that shard directories (written
//! by `volley sweep`, `gauntlet` or `battle` with `--shard`) are the shards of one run,
//! each exactly once, merge their raw tallies in shard order and write the run's normal
//! output: a sweep's or gauntlet's report, the same tables (byte for byte in CSV, cell for
//! cell in Parquet) as one process running the whole command; a battle's printout, and
//! its tables in a report directory (see `super::battle`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Args, ValueHint};
use serde_json::json;

use super::battle::{BattleCatalogue, play_battle};
use super::replay::replay;
use super::shard::{
    CATALOGUE_FILE, EXACT_FILE, Mode, SCENARIO_FILE, SHARD_FILE, STATE_FILE, ShardArgs, TALLIES_FILE,
    read_catalogue_json,
};
use super::sweep::{TableFormat, write_report};
use super::{Command, Invocation};
use crate::catalogue::source::{SourceFile, max_input_bytes};
use crate::charts::slug;
use crate::engine::{DEFAULT_BATCH_STREAMS, RunConfig, Silent, Trials};
use crate::output::ReportDir;
use crate::output::raw_tallies::read_raw_tallies;
use crate::output::read::read_written;
use crate::output::report_dir::safe_component;
use crate::request::sides::Sources;
use crate::rules::{Ruleset, RulesetId, Visit};
use crate::sweep::search_exact::ExactRecord;
use crate::sweep::shard::{MergedTallies, Plays, SHARD_SCHEMA_VERSION, ShardMeta, ShardSource, check_set, sha256};
use crate::sweep::vary::{Plan, run_varied_with, vary_json};
use crate::sweep::{Scenario, run_sweep_with};

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Shard directories written by `volley sweep`, `gauntlet` or `battle` with `--shard`
    /// (every shard of the run, each once, in any order)
    #[arg(value_name = "SHARD_DIR", required = true, value_hint = ValueHint::DirPath)]
    pub shards: Vec<PathBuf>,
    /// Report directory [default: reports/<scenario name>; a gauntlet's
    /// reports/gauntlet-<field>, a battle's reports/battle]
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace the report directory if it exists
    #[arg(long)]
    pub force: bool,
    /// Table formats to write, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "parquet,csv")]
    pub format: Vec<TableFormat>,
    /// Skip the charts and the report page (index.md, index.html)
    #[arg(long)]
    pub no_charts: bool,
    /// No summary
    #[arg(long, short)]
    pub quiet: bool,
    /// Merge shards written by another volley version (refused without it). Their shard
    /// schema must still be this volley's, and every shard must carry the same version
    #[arg(long)]
    pub accept_other_version: bool,
}

/// A shard directory's `shard.json`, checked: its schema is this volley's, it matches its
/// seal ([`ShardMeta::seal`]), its version is this volley's (unless `accept_other_version`)
/// and its files match their hashes.
fn read_shard(dir: &Path, accept_other_version: bool) -> Result<ShardMeta> {
    let path = dir.join(SHARD_FILE);
    let text = read_written(&path, max_input_bytes())
        .with_context(|| format!("{} is not a shard directory (cannot read {SHARD_FILE})", dir.display()))?;
    let meta: ShardMeta =
        serde_json::from_slice(&text).with_context(|| format!("{} is not a shard description", path.display()))?;
    if meta.schema_version != SHARD_SCHEMA_VERSION {
        bail!(
            "{} has shard schema version {}; this volley merges version {SHARD_SCHEMA_VERSION} only: play the shards \
             again with this volley",
            path.display(),
            meta.schema_version
        );
    }
    if meta.meta_sha256 != meta.seal() {
        bail!(
            "{} does not match its seal (meta_sha256): it was edited since the shard was written (a relabelled \
             index, seed, version or file hash?), refused",
            path.display()
        );
    }
    let ours = env!("CARGO_PKG_VERSION");
    if meta.volley_version != ours && !accept_other_version {
        bail!(
            "{} was written by volley {}, this is volley {ours}: play the shards again with this volley, or \
             --accept-other-version to merge them anyway (same shard schema)",
            dir.display(),
            meta.volley_version
        );
    }
    // The scenario and catalogue are capped like any input file; the tallies are as large
    // as the shard's share of the run (a regular file of a known size).
    // A resumed search's state is as large as its candidate list (a regular file).
    let state = (!meta.state_sha256.is_empty()).then_some((STATE_FILE, &meta.state_sha256, 0));
    // A first-stage search shard's exact values: as large as its share of the candidates.
    let exact = (!meta.exact_sha256.is_empty()).then_some((EXACT_FILE, &meta.exact_sha256, 0));
    for (file, hash, max) in [
        (SCENARIO_FILE, &meta.scenario_sha256, max_input_bytes()),
        (CATALOGUE_FILE, &meta.catalogue_sha256, max_input_bytes()),
        (TALLIES_FILE, &meta.tallies_sha256, 0),
    ]
    .into_iter()
    .chain(state)
    .chain(exact)
    {
        let p = dir.join(file);
        let bytes = read_written(&p, max)?;
        if sha256(&bytes) != *hash {
            bail!("{} does not match its {SHARD_FILE} (changed or damaged since the shard was written)", p.display());
        }
    }
    Ok(meta)
}

/// A shard's text file (checked against its hash by [`read_shard`]), read as
/// [`read_written`] reads it.
fn read_text(path: &Path) -> Result<String> {
    String::from_utf8(read_written(path, max_input_bytes())?)
        .map_err(|_| anyhow!("{} is not UTF-8 text", path.display()))
}

pub fn run(args: &MergeArgs) -> Result<()> {
    let mut shards = Vec::new();
    for dir in &args.shards {
        shards.push((dir.display().to_string(), read_shard(dir, args.accept_other_version)?, dir.clone()));
    }
    let shards = check_set(shards).map_err(|e| anyhow!("these shards cannot be merged:\n{e}"))?;
    let id: RulesetId = shards[0].1.ruleset.parse().map_err(|e: String| anyhow!(e))?;
    id.visit(Merge { args, shards })
}

struct Merge<'a> {
    args: &'a MergeArgs,
    shards: Vec<(String, ShardMeta, PathBuf)>,
}

impl Visit for Merge<'_> {
    type Output = Result<()>;
    fn visit<R: Ruleset>(self) -> Result<()> {
        let (args, shards) = (self.args, &self.shards);
        let (meta, first) = (&shards[0].1, &shards[0].2);
        let (origin, cat_files) = read_catalogue_json(&first.join(CATALOGUE_FILE))?;
        let catalogue = R::load(&origin, &cat_files, Vec::new())
            .with_context(|| format!("the shards' catalogue ({origin}) does not load"))?;
        if R::origin(&catalogue).1 != meta.catalogue_hash {
            bail!(
                "the shards' catalogue does not have the content hash they recorded: it cannot be the one they played"
            );
        }
        let sources: Vec<(String, ShardSource<'_>)> = shards
            .iter()
            .map(|(name, _, dir)| {
                let path = dir.join(TALLIES_FILE);
                let read: ShardSource<'_> = Box::new(move || read_raw_tallies(&path).map_err(|e| format!("{e:#}")));
                (name.clone(), read)
            })
            .collect();
        let merged = MergedTallies::new(sources);
        let plays = Plays::merged(&merged);
        let scenario_text = read_text(&first.join(SCENARIO_FILE))?;
        match meta.command.as_str() {
            "sweep" => self.sweep::<R>(&scenario_text, catalogue, &origin, &cat_files, &plays),
            "gauntlet" => {
                let mut parsed = replay(&meta.args)?;
                let Command::Gauntlet(g) = &mut parsed.cli.command else {
                    bail!("the shards' command line is not a gauntlet's: {:?}", meta.args);
                };
                // The default report is named from the replayed command line (the field),
                // as a whole gauntlet names it, never from shard.json's scenario_name.
                let default = Path::new("reports").join(format!("gauntlet-{}", slug(&g.field)));
                let destination = self.destination(default)?;
                (g.out, g.force, g.format, g.no_charts) =
                    (Some(destination), args.force, args.format.clone(), args.no_charts);
                g.run.quiet = args.quiet;
                g.shard = ShardArgs::default();
                let scenario = (!meta.scenario_file.is_empty()).then(|| (meta.scenario_file.clone(), scenario_text));
                // The merge's inputs (the shards) are checked against its --out apart.
                let src = Sources { catalogue, origin: origin.clone(), files: cat_files, scenario, inputs: Vec::new() };
                let ctx = Invocation::new(&parsed.cli, &parsed.conditions);
                let Command::Gauntlet(g) = &parsed.cli.command else { unreachable!("checked above") };
                super::gauntlet::play::<R>(g, &ctx, &src, Mode::Merged(&plays))
            }
            "battle" => {
                let mut parsed = replay(&meta.args)?;
                let Command::Battle(b) = &mut parsed.cli.command else {
                    bail!("the shards' command line is not a battle's: {:?}", meta.args);
                };
                let destination = self.destination(Path::new("reports").join("battle"))?;
                (b.out, b.force, b.quiet) = (Some(destination), args.force, true);
                b.shard = ShardArgs::default();
                let cat = BattleCatalogue { catalogue, origin: origin.clone(), files: cat_files };
                let ctx = Invocation::new(&parsed.cli, &parsed.conditions);
                let Command::Battle(b) = &parsed.cli.command else { unreachable!("checked above") };
                play_battle::<R>(b, &ctx, &cat, Mode::Merged(&plays))
            }
            "search" => {
                let state_text = if meta.state_sha256.is_empty() {
                    None
                } else {
                    let p = first.join(STATE_FILE);
                    Some(String::from_utf8(read_written(&p, 0)?).map_err(|_| anyhow!("{} is not UTF-8", p.display()))?)
                };
                let inputs: Vec<PathBuf> = shards.iter().map(|s| s.2.clone()).collect();
                let mut exact = Vec::new();
                for (_, m, dir) in shards.iter().filter(|s| !s.1.exact_sha256.is_empty()) {
                    let p = dir.join(EXACT_FILE);
                    let records: Vec<ExactRecord> =
                        serde_json::from_slice(&read_written(&p, 0)?).with_context(|| {
                            format!("{} (shard {}) is not a list of exact values", p.display(), m.shard)
                        })?;
                    exact.extend(records);
                }
                super::search_stages::merge_stage::<R>(
                    catalogue,
                    origin,
                    cat_files,
                    state_text,
                    &exact,
                    &meta.args,
                    &plays,
                    args.out.clone(),
                    args.force,
                    args.quiet,
                    &inputs,
                )
            }
            other => bail!("shards of `volley {other}` cannot be merged by this volley"),
        }
    }
}

impl Merge<'_> {
    /// The report directory: `--out`, else `default` (named from the shards' checked
    /// files, one path component under `reports/`); refused when it is, holds or lies
    /// in one of the shard directories.
    fn destination(&self, default: PathBuf) -> Result<PathBuf> {
        let destination = self.args.out.clone().unwrap_or(default);
        let inputs: Vec<PathBuf> = self.shards.iter().map(|s| s.2.clone()).collect();
        crate::output::report_dir::refuse_inputs(&destination, &inputs)?;
        crate::output::report_dir::check_destination(&destination)?;
        Ok(destination)
    }
    /// Merge the shards of a sweep: its scenario from `scenario.toml`, the `[vary]` plan
    /// rebuilt from it and the catalogue files.
    fn sweep<R: Ruleset>(
        &self,
        text: &str,
        catalogue: R::Catalogue,
        origin: &str,
        cat_files: &[SourceFile],
        plays: &Plays<'_>,
    ) -> Result<()> {
        let (args, shards) = (self.args, &self.shards);
        let meta = &shards[0].1;
        let mut scenario = Scenario::parse::<R>(&meta.scenario_file, text)?;
        scenario.options = meta.options.clone();
        scenario.seed = meta.seed;
        scenario.trials = Trials::Fixed(meta.trials);
        let resolved =
            scenario.resolve::<R>(&catalogue).context("the shards' scenario does not match their catalogue")?;
        // A `[vary]` sweep: the plan rebuilt from the shards' scenario and catalogue
        // files must be the one they recorded.
        let plan = if scenario.vary.is_empty() {
            None
        } else {
            let plan = Plan::check::<R>(&scenario, origin, cat_files)
                .context("the [vary] of the shards' scenario does not match their catalogue")?;
            Some(plan)
        };
        let vary = plan.as_ref().map_or(serde_json::Value::Null, |p| vary_json(p.axes()));
        if vary != meta.vary {
            bail!(
                "the shards' scenario varies other stats than they recorded ([vary] {vary} here, {} in the shards)",
                meta.vary
            );
        }
        let default = Path::new("reports").join(safe_component(&scenario.name));
        let report = ReportDir::create(&self.destination(default)?, args.force)?;
        let config = RunConfig {
            seed: meta.seed,
            trials: Trials::Fixed(meta.trials),
            threads: None,
            batch_streams: DEFAULT_BATCH_STREAMS,
        };
        let out = match &plan {
            None => run_sweep_with::<R>(&scenario, &resolved, &catalogue, &config, &Silent, &[], plays),
            Some(plan) => run_varied_with::<R>(&scenario, plan, &config, &Silent, plays),
        }
        .map_err(|e| anyhow!("cannot merge the shards: {e}"))?;
        if plays.cells_digest() != (meta.cells, meta.cell_keys.clone()) {
            bail!("the scenario played here has other cells than the shards recorded (another volley build?)");
        }
        let mut extra = serde_json::Map::new();
        extra.insert(
            "merged_from".into(),
            json!({
                "shards": meta.shards,
                "dirs": shards.iter().map(|s| s.0.clone()).collect::<Vec<_>>(),
                "shard_seconds": crate::output::number::tidy(shards.iter().map(|s| s.1.seconds).sum::<f64>()),
            }),
        );
        write_report(out, report, &args.format, args.no_charts, args.quiet, extra, cat_files)
    }
}
