//! The `volley` command line: clap arguments, conversion into validated configurations,
//! and printing. The only layer that writes to the terminal.

pub mod args;
pub mod catalog;
pub mod chart;
pub mod compare;
pub mod duel;
pub mod gauntlet;
pub mod odds;
pub mod odds_card;
pub mod progress;
pub mod run_args;
pub mod scenario;
pub mod signals;
pub mod sweep;
pub mod ttk;
pub mod usage;
pub mod validate;
pub mod versus;

use std::io::Write;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::output::{Format, Table};
use args::CatalogArgs;

/// Exact odds and Monte Carlo engagements for the TechCommander tabletop rules.
///
/// Loadouts come from the built-in catalogue unless --loadouts DIR (or VOLLEY_LOADOUTS)
/// names another.
#[derive(Debug, Parser)]
#[command(name = "volley", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub catalog: CatalogArgs,
    #[command(subcommand)]
    pub command: Command,
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
    /// Run a scenario (default: the built-in standard sweep) and write its tables as Parquet and CSV
    Sweep(sweep::SweepArgs),
    /// Redraw a report's charts and page from its tables (after editing tables or style)
    Chart(chart::ChartArgs),
    /// A one-page printable odds card for a build: hit chance by target AC and range, open and smoke
    OddsCard(odds_card::OddsCardArgs),
    /// Is build A better than B? Paired runs (common random numbers) against a field or targets
    Compare(compare::CompareArgs),
    /// Each build duels every opponent of a field: weighted win/draw/loss rates, tables and charts
    Gauntlet(gauntlet::GauntletArgs),
    /// List the built-in scenarios, or print one's TOML to copy and edit
    Scenario(scenario::ScenarioArgs),
}

impl Command {
    /// Commands that run engagements or write a report: they handle SIGINT, SIGTERM and
    /// SIGHUP by stopping cleanly. The others keep the default (they end at once).
    fn handles_signals(&self) -> bool {
        matches!(
            self,
            Command::Ttk(_)
                | Command::Duel(_)
                | Command::Sweep(_)
                | Command::Compare(_)
                | Command::Gauntlet(_)
                | Command::Chart(_)
                | Command::OddsCard(_)
        )
    }
}

/// The full command line definition, with the help texts that differ per command.
pub fn command() -> clap::Command {
    Cli::command()
        .mut_subcommand("duel", args::conditions_on_both_sides)
        .mut_subcommand("gauntlet", args::conditions_on_both_sides)
}

/// Parse the process's arguments (exits 2 with clap's message on a usage error, 0 after
/// `--help` or `--version`).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command()).exit())
}

/// Run the parsed command.
///
/// # Errors
/// Whatever the command fails with; a [`usage::UsageError`] for option values it cannot
/// accept; [`signals::Interrupted`] when it stopped because of a signal.
pub fn run(cli: Cli) -> Result<()> {
    if cli.command.handles_signals() {
        signals::install()?;
    }
    let result = dispatch(&cli);
    // A signal explains whatever failure it caused (a cancelled run, a dropped report).
    if result.is_err() {
        signals::check()?;
    }
    result
}

fn dispatch(cli: &Cli) -> Result<()> {
    match &cli.command {
        Command::Validate(a) => validate::run(a, &cli.catalog),
        Command::Catalog(a) => catalog::run(a, &cli.catalog),
        Command::Odds(a) => odds::run(a, &cli.catalog),
        Command::Ttk(a) => ttk::run_ttk(a, &cli.catalog),
        Command::Duel(a) => duel::run_duel(a, &cli.catalog),
        Command::Sweep(a) => sweep::run(a, &cli.catalog),
        Command::Chart(a) => chart::run(a),
        Command::OddsCard(a) => odds_card::run(a, &cli.catalog),
        Command::Compare(a) => compare::run(a, &cli.catalog),
        Command::Gauntlet(a) => gauntlet::run(a, &cli.catalog),
        Command::Scenario(a) => scenario::run(a),
    }
}

/// Print a table on stdout in the chosen format (`digits` decimals in text form).
pub fn print_table(table: &Table, format: Format, digits: usize) -> Result<()> {
    let text = match format {
        Format::Table => table.to_text(digits),
        Format::Csv => table.to_csv(),
        Format::Json => serde_json::to_string_pretty(&table.to_json())? + "\n",
    };
    write_stdout(&text)
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
