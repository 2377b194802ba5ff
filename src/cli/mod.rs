//! The `volley` command line: clap arguments, conversion into validated configurations,
//! and printing. The only layer that writes to the terminal.

pub mod args;
pub mod battle;
pub mod catalog;
pub mod chart;
pub mod compare;
pub mod conditions;
pub mod diff;
pub mod duel;
pub mod engagement;
pub mod envelope;
pub mod envelope_battle;
pub mod fit;
pub mod gauntlet;
pub mod merge;
pub mod meta;
pub mod meta_search;
pub mod odds;
pub mod odds_card;
pub mod progress;
mod replay;
pub mod rulesets;
pub mod run_args;
pub mod scenario;
pub mod search;
pub mod search_args;
mod search_report;
mod search_stages;
pub mod shard;
pub mod signals;
pub mod sweep;
pub mod ttk;
pub mod usage;
pub mod validate;

use std::ffi::OsString;
use std::io::Write;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::output::{Format, Table};
use crate::request::Setting;
use crate::rules::axis::AxisSpec;
use crate::rules::{RuleOptions, Ruleset, RulesetId, Visit};
use args::CatalogArgs;

/// The environment variable that asks for raw CSV like `--csv-raw` (`1` or `true`).
const CSV_RAW_ENV: &str = "VOLLEY_CSV_RAW";

/// The environment variable that names the ruleset like `--ruleset`.
const RULESET_ENV: &str = "VOLLEY_RULESET";

/// Exact odds and Monte Carlo engagements for tabletop wargame rules (TechCommander,
/// MECHCOM, Skirmishers, Shellshock; `volley rulesets` lists them).
///
/// Loadouts come from the ruleset's built-in catalogue unless --loadouts DIR (or
/// VOLLEY_LOADOUTS) names another. Condition flags (--range, --cover, ...) are the
/// ruleset's: `volley --ruleset mechcom odds --help` shows MECHCOM's.
#[derive(Debug, Parser)]
#[command(name = "volley", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The ruleset to play: techcommander (default), mechcom, skirmishers, shellshock
    /// (`volley rulesets` lists them) [env: VOLLEY_RULESET; set but empty = not set]. A scenario's `ruleset` key wins for sweep, compare and gauntlet
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_ruleset)]
    pub ruleset: Option<RulesetId>,
    /// Set a ruling of the ruleset, NAME=VALUE (repeatable; `volley rulesets` lists them
    /// with their defaults). Recorded in manifests and part of every cell key
    #[arg(long = "option", global = true, value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Write CSV text exactly as in the inputs: without it, a text cell that begins with
    /// =, +, -, @, tab or CR (and is not a number) gets a leading ' so that spreadsheets
    /// do not run it as a formula [env: VOLLEY_CSV_RAW=1]
    #[arg(long, global = true, env = CSV_RAW_ENV, hide_env = true, value_parser = clap::builder::BoolishValueParser::new())]
    pub csv_raw: bool,
    /// Largest catalogue or scenario file to read, in bytes (0: no limit)
    #[arg(long, global = true, value_name = "BYTES", default_value_t = crate::catalogue::source::DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,
    /// Most cells a scenario may plan: the grid's points × sides, or × matchups of forces
    /// (each cell's results are held in memory; default 100000; 0: no limit)
    #[arg(long, global = true, value_name = "N")]
    pub max_cells: Option<u64>,
    /// Most trials one command may plan in all (cells × trials per cell, or × max trials
    /// with a precision; 0: no limit)
    #[arg(long, global = true, value_name = "N", default_value_t = crate::sweep::limits::DEFAULT_MAX_WORK)]
    pub max_work: u64,
    #[command(flatten)]
    pub catalog: CatalogArgs,
    #[command(subcommand)]
    pub command: Command,
}

fn parse_ruleset(text: &str) -> Result<RulesetId, String> {
    text.parse()
}

impl Cli {
    /// The ruleset chosen by `--ruleset`, else `VOLLEY_RULESET` when set and not empty,
    /// else the default.
    ///
    /// # Errors
    /// A usage error for an unknown name in `VOLLEY_RULESET`.
    pub fn ruleset(&self) -> Result<RulesetId> {
        if let Some(r) = self.ruleset {
            return Ok(r);
        }
        match std::env::var(RULESET_ENV) {
            Ok(v) if !v.trim().is_empty() => v.parse().map_err(|e: String| usage::usage(format!("{RULESET_ENV}: {e}"))),
            _ => Ok(RulesetId::default()),
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check catalogue files: prints OK with counts, or every error found
    Validate(validate::ValidateArgs),
    /// List the active catalogue's weapons, units, gear, builds or fields
    Catalog(catalog::CatalogListArgs),
    /// Exact per-action odds of a build's weapon systems against a target
    Odds(odds::OddsArgs),
    /// Time to kill a target that does not shoot back (Monte Carlo, or --exact)
    Ttk(ttk::TtkArgs),
    /// Two builds fire at each other: win, loss and draw rates
    Duel(duel::DuelArgs),
    /// Two forces fight turn by turn (skirmish): win, draw and loss rates, points destroyed, per-unit kills
    Battle(battle::BattleArgs),
    /// Run a scenario (default: the built-in standard sweep) and write its tables as Parquet and CSV
    Sweep(sweep::SweepArgs),
    /// Merge the shard directories of `sweep`, `gauntlet` or `battle` runs with --shard into the run's report
    Merge(merge::MergeArgs),
    /// Redraw a report's charts and page from its tables (after editing tables or style)
    Chart(chart::ChartArgs),
    /// A one-page printable odds card for a build: hit chance by target AC and range, open and smoke
    OddsCard(odds_card::OddsCardArgs),
    /// Is build A better than B? Paired runs (common random numbers) against a field or targets
    Compare(compare::CompareArgs),
    /// Each build duels every opponent of a field: weighted win/draw/loss rates, tables and charts
    Gauntlet(gauntlet::GauntletArgs),
    /// The points cost at which each build's result against a field equals a target (exact where duels are), with 95% intervals
    Fit(fit::FitArgs),
    /// The tournament meta of builds or forces: every matchup played, the mixed equilibrium with bootstrap intervals, dominated players, replicator dynamics, and --diff OLD NEW
    Meta(meta::MetaArgs),
    /// Search the build space: every legal build raced through a field by stages, the top k with corrected intervals and tie groups, the Pareto front of win rate against cost
    Search(search::SearchArgs),
    /// What a catalogue change does: a scenario on OLD and NEW catalogues, per build and weapon, with paired intervals
    Diff(diff::DiffArgs),
    /// List the built-in scenarios, or print one's TOML to copy and edit
    Scenario(scenario::ScenarioArgs),
    /// List the rulesets volley plays, with their condition axes, options and defaults
    Rulesets(rulesets::RulesetsArgs),
}

impl Command {
    /// The command's name as typed (`catalog`, `odds-card`), for messages.
    fn name(&self) -> &'static str {
        match self {
            Command::Validate(_) => "validate",
            Command::Catalog(_) => "catalog",
            Command::Odds(_) => "odds",
            Command::Ttk(_) => "ttk",
            Command::Duel(_) => "duel",
            Command::Battle(_) => "battle",
            Command::Sweep(_) => "sweep",
            Command::Merge(_) => "merge",
            Command::Chart(_) => "chart",
            Command::OddsCard(_) => "odds-card",
            Command::Compare(_) => "compare",
            Command::Gauntlet(_) => "gauntlet",
            Command::Fit(_) => "fit",
            Command::Diff(_) => "diff",
            Command::Meta(_) => "meta",
            Command::Search(_) => "search",
            Command::Scenario(_) => "scenario",
            Command::Rulesets(_) => "rulesets",
        }
    }

    /// Commands that play the rules and so read `--option`. The others (listing and
    /// checking catalogues, redrawing or merging reports, listing scenarios and
    /// rulesets, `diff`, whose options are its scenario's) refuse it.
    fn uses_options(&self) -> bool {
        matches!(
            self,
            Command::Odds(_)
                | Command::Ttk(_)
                | Command::Duel(_)
                | Command::Battle(_)
                | Command::Sweep(_)
                | Command::OddsCard(_)
                | Command::Compare(_)
                | Command::Gauntlet(_)
                | Command::Fit(_)
                | Command::Meta(_)
                | Command::Search(_)
        )
    }

    /// Commands that run engagements or write a report: they handle SIGINT, SIGTERM and
    /// SIGHUP by stopping cleanly. The others keep the default (they end at once).
    fn handles_signals(&self) -> bool {
        matches!(
            self,
            Command::Ttk(_)
                | Command::Duel(_)
                | Command::Battle(_)
                | Command::Sweep(_)
                | Command::Merge(_)
                | Command::Compare(_)
                | Command::Gauntlet(_)
                | Command::Fit(_)
                | Command::Chart(_)
                | Command::OddsCard(_)
                | Command::Diff(_)
                | Command::Meta(_)
                | Command::Search(_)
        )
    }
}

impl Command {
    /// The build names the command line writes as ad-hoc builds (`BASE[PART, ...]`):
    /// every side, player, attacker, target or field entry that is a build name and holds
    /// a `[`.
    /// Forces are left out: in a force, brackets hold a carrier's passengers.
    fn adhoc_names(&self) -> Vec<String> {
        let names: Vec<&String> = match self {
            Command::Odds(a) => [&a.attacker].into_iter().chain(&a.target.target).collect(),
            Command::Ttk(a) => [&a.attacker].into_iter().chain(&a.target.target).collect(),
            Command::Duel(a) => vec![&a.a, &a.b],
            Command::Compare(a) if !a.battle => [&a.a, &a.b].into_iter().chain(&a.against).collect(),
            Command::Gauntlet(a) if !a.battle => a.builds.iter().chain([&a.field]).collect(),
            Command::Fit(a) => a.builds.iter().chain(&a.field).collect(),
            Command::Meta(a) if !a.battle => a.players.iter().collect(),
            _ => Vec::new(),
        };
        names.into_iter().filter(|n| crate::catalogue::adhoc::is_adhoc(n)).cloned().collect()
    }
}

/// A parsed command line: the arguments and the condition values of the ruleset's
/// flags (axis name, canonical text).
#[derive(Debug)]
pub struct Parsed {
    pub cli: Cli,
    pub conditions: Vec<(&'static str, String)>,
}

/// The ruleset a command line asks for, read before parsing so that the condition flags
/// can be the ruleset's: `--ruleset NAME` or `--ruleset=NAME`, else `VOLLEY_RULESET`,
/// else the default. An unknown name gives the default here; parsing then reports it.
pub fn ruleset_of_args(args: &[OsString]) -> RulesetId {
    let mut it = args.iter().map(|a| a.to_string_lossy());
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        let value = if a == "--ruleset" {
            it.next().map(|v| v.to_string())
        } else {
            a.strip_prefix("--ruleset=").map(str::to_string)
        };
        if let Some(v) = value {
            return v.parse().unwrap_or_default();
        }
    }
    std::env::var(RULESET_ENV).ok().and_then(|v| v.parse().ok()).unwrap_or_default()
}

struct Specs;

impl Visit for Specs {
    type Output = Vec<AxisSpec>;
    fn visit<R: Ruleset>(self) -> Vec<AxisSpec> {
        crate::sweep::run::all_specs::<R>()
    }
}

/// The full command line definition for ruleset `id` (its condition flags).
fn command_for(id: RulesetId) -> clap::Command {
    conditions::add_flags(Cli::command(), &id.visit(Specs)).mut_subcommand("search", |s| {
        // search reads the shared trial flags its own way: --trials is stage 1's.
        s.mut_arg("trials", |a| {
            a.help(
                "Duels per matchup in stage 1 of the race; each later stage plays --growth times more [default: 100]",
            )
        })
        .mut_arg("precision", |a| a.hide(true))
        .mut_arg("max_trials", |a| a.hide(true))
    })
}

/// The full command line definition for the default ruleset.
pub fn command() -> clap::Command {
    command_for(RulesetId::default())
}

/// Parse `args` (exits 2 with clap's message on a usage error, 0 after `--help` or
/// `--version`).
fn parse_from(args: Vec<OsString>) -> Parsed {
    try_parse_from(args).unwrap_or_else(|e| exit_clap(&e))
}

/// As [`parse_from`], returning what it would print and exit with (help and version
/// requests included) as an error instead: for command lines read from files.
///
/// # Errors
/// Clap's error (or help, or version) for the line.
pub fn try_parse_from(args: Vec<OsString>) -> Result<Parsed, clap::Error> {
    let id = ruleset_of_args(&args);
    let mut cmd = command_for(id);
    let battle_mode_hint = mode_for_battles(&args);
    let matches = cmd.try_get_matches_from_mut(args).map_err(|e| match battle_mode_hint {
        Some(command) => moved_battle_mode(&cmd, e, command),
        None => e,
    })?;
    let cli = Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))?;
    let specs = id.visit(Specs);
    let conditions = match matches.subcommand() {
        Some((name, sub)) if conditions::CONDITION_COMMANDS.contains(&name) => {
            conditions::read(sub, &conditions::flags_of(name, &specs))
                .map_err(|e| cmd.error(clap::error::ErrorKind::InvalidValue, e))?
        }
        _ => Vec::new(),
    };
    Ok(Parsed { cli, conditions })
}

/// The command that plays battles with `--battle` (`gauntlet`, `compare`, `meta`) when
/// `args` name one of them and give `--mode`: the flag that named their battle mode
/// until it became `--battle-mode`.
fn mode_for_battles(args: &[OsString]) -> Option<&'static str> {
    let given =
        |flag: &str| args.iter().any(|a| a == flag || a.to_str().is_some_and(|a| a.starts_with(&format!("{flag}="))));
    let command = ["gauntlet", "compare", "meta"].into_iter().find(|c| args.iter().any(|a| a == c))?;
    given("--mode").then_some(command)
}

/// Clap's refusal of `--mode` on `command` (an unknown argument under a ruleset with no
/// attack action, or a value that is not an attack action), said with where the battle
/// mode went; any other error as it is.
fn moved_battle_mode(cmd: &clap::Command, e: clap::Error, command: &str) -> clap::Error {
    use clap::error::{ContextKind, ErrorKind};
    let about_mode = e.get(ContextKind::InvalidArg).is_some_and(|a| a.to_string().starts_with("--mode"));
    if !about_mode || !matches!(e.kind(), ErrorKind::UnknownArgument | ErrorKind::InvalidValue) {
        return e;
    }
    let what = match e.get(ContextKind::InvalidValue) {
        Some(v) if e.kind() == ErrorKind::InvalidValue => format!(
            "`{v}` is not an attack action for `--mode` (one of {})",
            e.get(ContextKind::ValidValue).map_or_else(String::new, |v| v.to_string())
        ),
        _ => "this ruleset has no `--mode` (TechCommander's attack action)".to_string(),
    };
    let sub = cmd.find_subcommand(command).cloned().unwrap_or_else(|| cmd.clone());
    let mut sub = sub.bin_name(format!("volley {command}"));
    sub.error(
        e.kind(),
        format!("{what}; the battle mode of `{command} --battle` is `--battle-mode` (it was `--mode` before)"),
    )
}

/// Print clap's message (help, version or usage error) and exit with its code, or with 1
/// when the help or version text cannot be written (a full disk, a closed file: clap's
/// own `exit` would report success). A closed pipe (`volley --help | head`) stays 0.
fn exit_clap(e: &clap::Error) -> ! {
    use std::io::Write as _;
    let printed = e.print().and_then(|()| if e.use_stderr() { Ok(()) } else { std::io::stdout().flush() });
    match printed {
        Err(io) if io.kind() != std::io::ErrorKind::BrokenPipe && !e.use_stderr() => {
            eprintln!(
                "error: cannot write the {}: {io}",
                if e.kind() == clap::error::ErrorKind::DisplayVersion { "version" } else { "help" }
            );
            std::process::exit(1)
        }
        _ => std::process::exit(e.exit_code()),
    }
}

/// Parse the process's arguments (see [`parse_from`]).
pub fn parse() -> Parsed {
    parse_from(std::env::args_os().collect())
}

/// Run the parsed command.
///
/// # Errors
/// Whatever the command fails with; a usage error ([`crate::error::Error::Usage`]) for option values it cannot
/// accept; [`signals::Interrupted`] when it stopped because of a signal.
pub fn run(mut parsed: Parsed) -> Result<()> {
    // `meta --search DIR`: the search's leaders join the players before anything reads them.
    let ruleset = parsed.cli.ruleset();
    if let Command::Meta(a) = &mut parsed.cli.command
        && let Some(dir) = a.search.clone()
    {
        a.players.extend(meta_search::leaders(&dir, a.top.into(), &ruleset?.to_string(), a.battle)?);
    }
    crate::output::csv_cell::set_raw(parsed.cli.csv_raw);
    crate::catalogue::source::set_max_input_bytes(parsed.cli.max_input_bytes);
    crate::sweep::limits::set(parsed.cli.max_cells, parsed.cli.max_work);
    if parsed.cli.command.handles_signals() {
        signals::install()?;
    }
    let result = dispatch(&parsed);
    // A signal explains whatever failure it caused (a cancelled run, a dropped report).
    if result.is_err() {
        signals::check()?;
    }
    result
}

/// What every ruleset-generic command gets: the command line, and its catalogue,
/// condition values and options as the library's [`Setting`].
pub struct Invocation<'a> {
    pub cli: &'a Cli,
    pub setting: Setting,
}

impl<'a> Invocation<'a> {
    /// The invocation of `cli` with its condition values.
    pub fn new(cli: &'a Cli, conditions: &[(&'static str, String)]) -> Invocation<'a> {
        let mut catalogue = cli.catalog.source();
        catalogue.adhoc = cli.command.adhoc_names();
        let setting = Setting { catalogue, conditions: conditions.to_vec(), options: cli.options.clone() };
        Invocation { cli, setting }
    }

    /// The catalogue arguments.
    pub fn catalog(&self) -> &CatalogArgs {
        &self.cli.catalog
    }
}

struct Runner<'a>(Invocation<'a>);

impl Visit for Runner<'_> {
    type Output = Result<()>;
    fn visit<R: Ruleset>(self) -> Result<()> {
        let ctx = &self.0;
        match &ctx.cli.command {
            Command::Validate(a) => validate::run::<R>(a, ctx),
            Command::Catalog(a) => catalog::run::<R>(a, ctx),
            Command::Odds(a) => odds::run::<R>(a, ctx),
            Command::Ttk(a) => ttk::run_ttk::<R>(a, ctx),
            // A range envelope (`--range 6,12,24`) plays every range and averages.
            Command::Duel(a) => match ctx.setting.envelope::<R>()? {
                Some(env) => envelope::run_duel::<R>(a, ctx, &env),
                None => duel::run_duel::<R>(a, ctx),
            },
            Command::Battle(a) => match ctx.setting.envelope::<R>()? {
                Some(env) => envelope_battle::run::<R>(a, ctx, &env),
                None => battle::run_battle::<R>(a, ctx),
            },
            Command::Sweep(a) => sweep::run::<R>(a, ctx),
            Command::OddsCard(a) => odds_card::run::<R>(a, ctx),
            Command::Compare(a) => compare::run::<R>(a, ctx),
            Command::Gauntlet(a) => gauntlet::run::<R>(a, ctx),
            Command::Fit(a) => fit::run::<R>(a, ctx),
            Command::Diff(a) => diff::run::<R>(a, ctx),
            Command::Meta(a) => meta::run::<R>(a, ctx),
            Command::Search(a) => search::run::<R>(a, ctx),
            Command::Chart(_) | Command::Merge(_) | Command::Scenario(_) | Command::Rulesets(_) => {
                unreachable!("not per ruleset")
            }
        }
    }
}

fn dispatch(parsed: &Parsed) -> Result<()> {
    let cli = &parsed.cli;
    let ctx = Invocation::new(cli, &parsed.conditions);
    if !cli.command.uses_options()
        && let Some(first) = cli.options.first()
    {
        return Err(usage::usage(format!(
            "--option {first}: `volley {}` plays no rules and takes no --option \
             (odds, ttk, duel, battle, sweep, odds-card, compare, gauntlet, fit, meta and search do)",
            cli.command.name()
        )));
    }
    let ruleset = match &cli.command {
        Command::Chart(a) => return chart::run(a),
        Command::Merge(a) => return merge::run(a),
        Command::Scenario(a) => return scenario::run(a),
        Command::Rulesets(a) => return rulesets::run(a),
        // A scenario's `ruleset` key wins over the command line's.
        Command::Sweep(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        Command::Compare(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        Command::Gauntlet(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        Command::Fit(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        Command::Diff(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        Command::Meta(a) => scenario_ruleset(a.scenario.as_deref())?.map_or_else(|| cli.ruleset(), Ok)?,
        _ => cli.ruleset()?,
    };
    ruleset.visit(Runner(ctx))
}

/// The ruleset a scenario names, if a scenario is given and names one.
fn scenario_ruleset(spec: Option<&str>) -> Result<Option<RulesetId>> {
    match spec {
        None => Ok(None),
        Some(spec) => Ok(crate::sweep::ScenarioText::load(spec)?.ruleset()?),
    }
}

/// Print a table on stdout in the chosen format (`digits` decimals in text form).
pub fn print_table(table: &Table, format: Format, digits: usize) -> Result<()> {
    let text = match format {
        Format::Table => crate::output::wording::costs_as_written(table).to_text(digits),
        Format::Csv => table.to_csv(),
        Format::Json => return print_json(&table.to_json(), false),
    };
    write_stdout(&text)
}

/// Print a JSON document on stdout, pretty, with no negative zero; with `exact` (a
/// document whose every number is an exact value) every float rounded as
/// [`crate::output::number::exact`] rounds it.
pub fn print_json(value: &serde_json::Value, exact: bool) -> Result<()> {
    let mut value = value.clone();
    crate::output::number::tidy_json(&mut value, exact);
    write_stdout(&(serde_json::to_string_pretty(&value)? + "\n"))
}

/// The header line of a command's text output that echoes every option not at its
/// default, `options: SMOKE_POP=false, SMOKE_PENALTY=4` and a newline; empty when every
/// option is at its default. Every command that plays the rules prints it under its
/// title line.
pub fn options_line<O: RuleOptions>(o: &O) -> String {
    let changed = o.non_default();
    if changed.is_empty() {
        return String::new();
    }
    let text: Vec<String> = changed.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("options: {}\n", text.join(", "))
}

/// The `options` object of a command's JSON output: every option with its canonical
/// value, as manifests record them (defaults included, so a document says how it was
/// computed on its own).
fn options_json<O: RuleOptions>(o: &O) -> serde_json::Value {
    serde_json::Value::Object(o.pairs().into_iter().map(|(k, v)| (k, serde_json::Value::from(v))).collect())
}

/// `doc` with the `options` object of [`options_json`] added, when `doc` is a JSON
/// object without one.
pub fn with_options_json<O: RuleOptions>(mut doc: serde_json::Value, o: &O) -> serde_json::Value {
    if let Some(map) = doc.as_object_mut()
        && !map.contains_key("options")
    {
        map.insert("options".into(), options_json(o));
    }
    doc
}

/// Write text to stdout and flush: every byte volley prints on stdout goes through here
/// (a test forbids `print!`/`println!` under src/cli). A closed pipe comes back as an
/// `io::Error` of kind `BrokenPipe`, which `main` treats as a normal end.
pub fn write_stdout(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}
