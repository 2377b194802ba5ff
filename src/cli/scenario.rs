//! `volley scenario`: the scenarios built into the binary.

use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};

use super::write_stdout;
use crate::catalogue::CatalogErrors;
use crate::catalogue::error::did_you_mean;
use crate::rules::{Ruleset, RulesetId, Visit};
use crate::sweep::scenario::{embedded_names, embedded_text, standard_scenario};
use crate::sweep::{Scenario, ScenarioText};

/// Parses a scenario for the ruleset it is visited with.
struct Parse<'a>(&'a ScenarioText);

impl Visit for Parse<'_> {
    type Output = Result<Scenario, CatalogErrors>;
    fn visit<R: Ruleset>(self) -> Self::Output {
        self.0.parse::<R>()
    }
}

#[derive(Debug, Args)]
pub struct ScenarioArgs {
    #[command(subcommand)]
    pub command: ScenarioCommand,
}

#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// List the built-in scenarios, one per line: name, ruleset and description
    /// (tab-separated), grouped by ruleset, each ruleset's default first
    List,
    /// Print a built-in scenario's TOML on stdout (save it, edit it, run it by path)
    Show {
        /// The built-in scenario's name (see `volley scenario list`)
        name: String,
    },
}

pub fn run(args: &ScenarioArgs) -> Result<()> {
    match &args.command {
        ScenarioCommand::List => {
            // One row per scenario, `NAME<TAB>RULESET<TAB>DESCRIPTION`, grouped by ruleset
            // in registry order; each ruleset's standard scenario (what `sweep` plays
            // without one) first and marked, the others by name.
            let mut rows = Vec::new();
            for name in embedded_names() {
                let source = ScenarioText::load(&name).map_err(|e| anyhow!(e))?;
                let ruleset = source.ruleset().map_err(|e| anyhow!(e))?.unwrap_or_default();
                let scenario = ruleset.visit(Parse(&source)).map_err(|e| anyhow!(e))?;
                let standard = name == standard_scenario(ruleset.name());
                let rank = RulesetId::ALL.iter().position(|r| *r == ruleset).unwrap_or(usize::MAX);
                let mark = if standard { " (default for this ruleset)" } else { "" };
                let line = format!("{name}\t{ruleset}\t{}{mark}\n", scenario.description.unwrap_or_default());
                rows.push(((rank, !standard, name), line));
            }
            rows.sort();
            write_stdout(&rows.into_iter().map(|(_, line)| line).collect::<String>())
        }
        ScenarioCommand::Show { name } => match embedded_text(name) {
            Some(text) => write_stdout(text),
            None => {
                let names = embedded_names();
                Err(anyhow!(
                    "no built-in scenario `{name}`{} (built in: {})",
                    did_you_mean(name, names.iter().map(String::as_str)),
                    names.join(", ")
                ))
            }
        },
    }
}
