//! A search played stage by stage across processes: each stage's candidates are dealt
//! to shards (`volley search --shard K/N`), `volley merge` puts a stage's shards together
//! and either finishes the search (its normal output) or writes a state directory, and
//! `volley search --resume STATE --shard K/N` plays the next stage's share.
//!
//! A state directory holds `search-state.json` (a [`SearchState`]: the recorded search
//! command line, the catalogue's hash and every candidate's integer counts so far, sealed
//! by a SHA-256) and `catalogue.json` (the catalogue's files, as shards hold them). The
//! race is rebuilt from the counts ([`RaceState::restore`]), so a search played in shards
//! and merged at every stage ends bit for bit as the same search in one process.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};

use super::progress::Progress;
use super::replay::replay;
use super::search_args::SearchArgs;
use super::search_report::{report, whole};
use super::shard::{CATALOGUE_FILE, RunRecord, STATE_FILE, ShardChoice, ShardRun, catalogue_json, read_catalogue_json};
use super::usage::usage;
use super::{Command, Invocation};
use crate::catalogue::source::SourceFile;
use crate::engine::{RunConfig, Silent, Trials};
use crate::output::ReportDir;
use crate::request::search::{SearchSpace, plan_with};
use crate::request::sides::Sources;
use crate::rules::{Ruleset, RulesetId, Visit};
use crate::stats::racing::{RaceState, SavedRace};
use crate::sweep::search::stage_seed;
use crate::sweep::search_exact::{ExactRecord, Solve};
use crate::sweep::shard::{Plays, run_args, sha256, without_flags};

/// Version of `search-state.json` (2: it carries the exact values).
pub const STATE_SCHEMA_VERSION: u32 = 2;

/// A search between stages (`search-state.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchState {
    /// Always `search-state`.
    pub kind: String,
    pub schema_version: u32,
    pub volley_version: String,
    pub ruleset: String,
    /// The search's command line after `volley`, without the shard's place, directory,
    /// `--force` and `--quiet` ([`run_args`]): every later stage plays it again.
    pub args: Vec<String>,
    pub seed: u64,
    /// The catalogue as manifests name it, the ruleset's content hash of it, and the
    /// SHA-256 of the directory's `catalogue.json`.
    pub catalogue_origin: String,
    pub catalogue_hash: String,
    pub catalogue_sha256: String,
    /// How many candidates the space holds and the SHA-256 of their names, one a line.
    pub candidates: usize,
    pub candidates_sha256: String,
    /// Engagements played by the stages so far.
    pub engagements: u64,
    /// The race's stages and counts so far.
    pub race: SavedRace,
    /// Every candidate's exact values (solved once, by the first stage's shards).
    #[serde(default)]
    pub exact: Vec<ExactRecord>,
    /// SHA-256 of this document's compact JSON with this field empty.
    #[serde(default)]
    pub state_sha256: String,
}

impl SearchState {
    fn seal(&self) -> String {
        let mut unsealed = self.clone();
        unsealed.state_sha256 = String::new();
        sha256(&serde_json::to_vec(&unsealed).expect("a search state serialises"))
    }
}

/// SHA-256 of the candidates' names, one a line, in order.
fn candidates_sha256<R: Ruleset>(space: &SearchSpace<R>) -> String {
    let names: Vec<&str> = space.candidates.iter().map(|c| c.name.as_str()).collect();
    sha256(names.join("\n").as_bytes())
}

/// Read and check a state directory: its seal, versions and catalogue file.
///
/// # Errors
/// A directory without a readable state, a state edited since it was written, another
/// schema or volley version, or a `catalogue.json` that is not the one it recorded.
fn read_state(dir: &Path) -> Result<(SearchState, String, Vec<SourceFile>)> {
    let path = dir.join(STATE_FILE);
    let bytes = crate::output::read::read_written(&path, 0).with_context(|| {
        format!(
            "{} is not a search state directory (cannot read {STATE_FILE}; `volley merge` writes it)",
            dir.display()
        )
    })?;
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{} is not UTF-8 text", path.display()))?;
    let state: SearchState =
        serde_json::from_str(&text).with_context(|| format!("{} is not a search state", path.display()))?;
    check_state(&state, &path)?;
    let cat_path = dir.join(CATALOGUE_FILE);
    let bytes = crate::output::read::read_written(&cat_path, crate::catalogue::source::max_input_bytes())?;
    if sha256(&bytes) != state.catalogue_sha256 {
        bail!("{} is not the catalogue {} recorded (changed or damaged since)", cat_path.display(), path.display());
    }
    let (origin, files) = read_catalogue_json(&cat_path)?;
    if origin != state.catalogue_origin {
        bail!("{} names another catalogue than {} recorded", cat_path.display(), path.display());
    }
    Ok((state, text, files))
}

/// Check a state's kind, seal and versions (`path` names it in messages).
fn check_state(state: &SearchState, path: &Path) -> Result<()> {
    if state.kind != "search-state" || state.schema_version != STATE_SCHEMA_VERSION {
        bail!(
            "{} is a search state of schema {} (kind {:?}); this volley reads schema {STATE_SCHEMA_VERSION}",
            path.display(),
            state.schema_version,
            state.kind
        );
    }
    if state.state_sha256 != state.seal() {
        bail!("{} does not match its seal (state_sha256): it was edited since it was written, refused", path.display());
    }
    let ours = env!("CARGO_PKG_VERSION");
    if state.volley_version != ours {
        bail!(
            "{} was written by volley {}, this is volley {ours}: play the search again with this volley",
            path.display(),
            state.volley_version
        );
    }
    Ok(())
}

/// The race of `space` rebuilt from `state`, after checking that the state is this
/// search's: its ruleset, seed, catalogue and candidates.
///
/// # Errors
/// A state of another search, or counts that disagree with the race's settings.
fn restore<R: Ruleset>(args: &SearchArgs, space: &SearchSpace<R>, state: &SearchState) -> Result<RaceState> {
    let (_, hash) = R::origin(&space.sources.catalogue);
    if state.ruleset != R::NAME || state.seed != space.config.seed || state.catalogue_hash != hash {
        bail!("the search state is not this search's (another ruleset, seed or catalogue)");
    }
    if state.candidates != space.candidates.len() || state.candidates_sha256 != candidates_sha256(space) {
        bail!(
            "the search state lists {} candidates; this volley lists {} others for its search (another volley build?)",
            state.candidates,
            space.candidates.len()
        );
    }
    let plan = space.search_plan(args.request().per_cost);
    RaceState::restore(
        &plan.scales().map_err(|e| anyhow!(e))?,
        plan.exact,
        &plan.part_shapes(),
        &space.race,
        &state.race,
    )
    .map_err(|e| anyhow!("the search state does not fit its race: {e}"))
}

/// The recorded search of a state, parsed as its first shards parsed it.
fn recorded_search(args: &[String]) -> Result<super::Parsed> {
    let parsed = replay(args)?;
    if !matches!(parsed.cli.command, Command::Search(_)) {
        bail!("the recorded command line is not a search's: {args:?}");
    }
    Ok(parsed)
}

/// `volley search --resume DIR`: the next stage's share (with a shard place), else the
/// rest of the race in this process, in the state's ruleset whatever `--ruleset` the
/// command line gave (its condition flags are the recorded search's).
///
/// # Errors
/// (usage) Search flags besides the shard's place, `--out`, `--force` and `--quiet`;
/// a state directory that is not a volley search's; what playing or writing fails with.
pub fn resume(args: &SearchArgs, dir: &Path) -> Result<()> {
    let line = super::shard::command_line()?;
    // What was given besides `search`, `--ruleset NAME`, `--resume DIR` and the shard's
    // place, directory, `--force` and `--quiet`.
    let extra = without_flags(&run_args(&line), &["--resume", "--ruleset"], &["search"]);
    if !extra.is_empty() {
        return Err(usage(format!(
            "--resume goes on with the recorded search: give only --shard, --shards, --out, --force and --quiet \
             (not {})",
            extra.join(" ")
        )));
    }
    let (state, text, files) = read_state(dir)?;
    let id: RulesetId = state.ruleset.parse().map_err(|e: String| anyhow!(e))?;
    id.visit(Resume { args, dir, state, text, files })
}

/// A read state directory, resumed in its ruleset.
struct Resume<'a> {
    args: &'a SearchArgs,
    dir: &'a Path,
    state: SearchState,
    text: String,
    files: Vec<SourceFile>,
}

impl Visit for Resume<'_> {
    type Output = Result<()>;
    fn visit<R: Ruleset>(self) -> Result<()> {
        let Resume { args, dir, state, text, files } = self;
        resume_as::<R>(args, dir, state, text, files)
    }
}

fn resume_as<R: Ruleset>(
    args: &SearchArgs,
    dir: &Path,
    state: SearchState,
    text: String,
    files: Vec<SourceFile>,
) -> Result<()> {
    let mut parsed = recorded_search(&state.args)?;
    let Command::Search(recorded) = &mut parsed.cli.command else { unreachable!("checked by recorded_search") };
    (recorded.out, recorded.force, recorded.run.quiet) = (args.out.clone(), args.force, args.run.quiet);
    let ctx = Invocation::new(&parsed.cli, &parsed.conditions);
    let Command::Search(recorded) = &parsed.cli.command else { unreachable!("checked by recorded_search") };
    let catalogue = R::load(&state.catalogue_origin, &files, Vec::new())
        .with_context(|| format!("the search state's catalogue ({}) does not load", state.catalogue_origin))?;
    let src = Sources {
        catalogue,
        origin: state.catalogue_origin.clone(),
        files,
        scenario: None,
        inputs: vec![dir.to_path_buf()],
    };
    let mut space = plan_with::<R>(src, &ctx.setting, &recorded.request(), Solve::Nothing)?;
    space.fill_exact(&state.exact, "the search state's exact values")?;
    let race = restore(recorded, &space, &state)?;
    let choice = super::shard::choose(&args.shard, &|name| std::env::var(name).ok())?;
    match choice {
        None => whole::<R>(recorded, &space, race, state.engagements),
        Some(choice) => play_share::<R>(recorded, &space, race, &choice, state.args.clone(), text, &[]),
    }
}

/// Play the share `choice` of the race's next stage and write its shard directory
/// (default `reports/search-stage-S-shards/shard-K-of-N`). `recorded` is the search's
/// command line, `state_text` the state it resumed from (empty at stage 1), `exact` the
/// exact values this shard solved (its share, at stage 1; none later), written beside
/// its tallies.
///
/// # Errors
/// A race that has already stopped; what playing or writing fails with.
pub fn play_share<R: Ruleset>(
    args: &SearchArgs,
    space: &SearchSpace<R>,
    state: RaceState,
    choice: &ShardChoice,
    recorded: Vec<String>,
    state_text: String,
    exact: &[ExactRecord],
) -> Result<()> {
    let plan = space.search_plan(args.request().per_cost);
    let Some(stage) = state.next() else {
        bail!("the search has already stopped: `volley merge` wrote its report, there is no stage left to play");
    };
    if let Some(out) = &args.out {
        crate::output::report_dir::refuse_inputs(out, &space.sources.inputs)?;
    }
    let config = stage_config(&space.config, stage.stage, stage.trials);
    let name = format!("search-stage-{}", stage.stage);
    let shard = ShardRun::start(choice, &name, args.out.as_deref(), args.force, &config)?;
    let progress = Progress::new(args.run.quiet);
    progress.note(&format!(
        "stage {}: {} candidates × {} trials per matchup",
        stage.stage,
        stage.playing.len(),
        stage.trials
    ));
    plan.play_stage(&stage, &progress, shard.plays()).map_err(anyhow::Error::msg)?;
    progress.finish();
    let record = RunRecord {
        command: "search",
        args: recorded,
        name,
        scenario_file: String::new(),
        scenario_text: String::new(),
        options: crate::rules::RuleOptions::pairs(&space.options),
        vary: serde_json::Value::Null,
        catalogue_origin: space.sources.origin.clone(),
        catalogue_files: &space.sources.files,
        state_text,
        exact_text: if exact.is_empty() { String::new() } else { serde_json::to_string_pretty(exact)? + "\n" },
    };
    shard.finish::<R>(record, &space.sources.catalogue, &config, args.run.quiet)
}

/// The run configuration of stage `stage`: its seed and trials.
fn stage_config(config: &RunConfig, stage: u32, trials: u64) -> RunConfig {
    RunConfig { seed: stage_seed(config.seed, stage), trials: Trials::Fixed(trials), ..*config }
}

/// Merge one stage of a search: play it from the shards' tallies, then finish the search
/// (its normal output, and its tables in `out`, default `reports/search`) or write the
/// state directory for the next stage (`out`, default `reports/search-stage-S`). The
/// exact values come from the shards (`exact`, at stage 1) or from the state.
///
/// # Errors
/// A state that is not the shards' search's; exact values missing, given twice or not
/// the search's; tallies the merge refuses; writing.
#[allow(clippy::too_many_arguments)]
pub fn merge_stage<R: Ruleset>(
    catalogue: R::Catalogue,
    origin: String,
    files: Vec<SourceFile>,
    state_text: Option<String>,
    exact: &[ExactRecord],
    recorded: &[String],
    plays: &Plays<'_>,
    out: Option<PathBuf>,
    force: bool,
    quiet: bool,
    inputs: &[PathBuf],
) -> Result<()> {
    let mut parsed = recorded_search(recorded)?;
    let Command::Search(search) = &mut parsed.cli.command else { unreachable!("checked by recorded_search") };
    search.run.quiet = quiet;
    let ctx = Invocation::new(&parsed.cli, &parsed.conditions);
    let Command::Search(search) = &parsed.cli.command else { unreachable!("checked by recorded_search") };
    let src = Sources { catalogue, origin, files, scenario: None, inputs: Vec::new() };
    let mut space = plan_with::<R>(src, &ctx.setting, &search.request(), Solve::Nothing)?;
    let (mut race, mut engagements) = match &state_text {
        None => {
            space.fill_exact(exact, "the shards' exact values")?;
            (space.search_plan(search.request().per_cost).start().map_err(anyhow::Error::msg)?, 0)
        }
        Some(text) => {
            let state: SearchState = serde_json::from_str(text).context("the shards' search-state.json")?;
            check_state(&state, Path::new(STATE_FILE))?;
            if run_args(recorded) != state.args {
                bail!("the shards' command line is not the one their search state recorded");
            }
            if !exact.is_empty() {
                bail!("shards of a resumed stage carry exact values: only the first stage's solve them");
            }
            space.fill_exact(&state.exact, "the search state's exact values")?;
            (restore(search, &space, &state)?, state.engagements)
        }
    };
    let plan = space.search_plan(search.request().per_cost);
    let stage = race.next().ok_or_else(|| anyhow!("the shards' search had already stopped: nothing to merge"))?;
    let (results, played) =
        plan.play_stage(&stage, &Silent, plays).map_err(|e| anyhow!("cannot merge the shards: {e}"))?;
    engagements += played;
    let record = race.record(&stage, results).map_err(anyhow::Error::msg)?;
    if race.next().is_none() {
        let destination = out.unwrap_or_else(|| Path::new("reports").join("search"));
        crate::output::report_dir::refuse_inputs(&destination, inputs)?;
        let output = plan.output(race.finish(), engagements, 0.0);
        return report::<R>(search, &space, &output, Some(&destination), force);
    }
    let destination = out.unwrap_or_else(|| Path::new("reports").join(format!("search-stage-{}", stage.stage)));
    crate::output::report_dir::refuse_inputs(&destination, inputs)?;
    crate::output::report_dir::check_destination(&destination)?;
    let written = write_state::<R>(&destination, force, &space, &race, run_args(recorded), engagements)?;
    if !quiet {
        eprintln!(
            "stage {}: {} candidates × {} trials per matchup → {} left; wrote the search state {}\n\
             next: volley search --resume {} --shard K/N (or with SLURM_ARRAY_TASK_ID), then volley merge",
            record.stage,
            record.candidates,
            record.trials_each,
            record.survivors,
            written.display(),
            written.display()
        );
    }
    Ok(())
}

/// Write a state directory (atomically) for the race after its last merged stage.
fn write_state<R: Ruleset>(
    destination: &Path,
    force: bool,
    space: &SearchSpace<R>,
    race: &RaceState,
    args: Vec<String>,
    engagements: u64,
) -> Result<PathBuf> {
    let dir = ReportDir::create(destination, force)?;
    let catalogue_json = catalogue_json(&space.sources.origin, &space.sources.files)?;
    dir.write(CATALOGUE_FILE, catalogue_json.as_bytes())?;
    let (_, hash) = R::origin(&space.sources.catalogue);
    let state = SearchState {
        kind: "search-state".into(),
        schema_version: STATE_SCHEMA_VERSION,
        volley_version: env!("CARGO_PKG_VERSION").into(),
        ruleset: R::NAME.into(),
        args,
        seed: space.config.seed,
        catalogue_origin: space.sources.origin.clone(),
        catalogue_hash: hash.into(),
        catalogue_sha256: sha256(catalogue_json.as_bytes()),
        candidates: space.candidates.len(),
        candidates_sha256: candidates_sha256(space),
        engagements,
        race: race.saved(),
        exact: space.exact_records(|_| true),
        state_sha256: String::new(),
    };
    let sealed = SearchState { state_sha256: state.seal(), ..state };
    dir.write(STATE_FILE, (serde_json::to_string_pretty(&sealed)? + "\n").as_bytes())?;
    super::signals::check()?;
    dir.commit()
}
