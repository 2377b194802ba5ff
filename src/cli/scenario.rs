//! `volley scenario`: the scenarios built into the binary.

use anyhow::{Result, anyhow};
use clap::{Args, Subcommand};

use super::write_stdout;
use crate::catalogue::error::did_you_mean;
use crate::sweep::Scenario;
use crate::sweep::scenario::{embedded_names, embedded_text};

#[derive(Debug, Args)]
pub struct ScenarioArgs {
    #[command(subcommand)]
    pub command: ScenarioCommand,
}

#[derive(Debug, Subcommand)]
pub enum ScenarioCommand {
    /// List the built-in scenarios with their descriptions
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
            let mut text = String::new();
            for name in embedded_names() {
                let scenario = Scenario::load(&name).map_err(|e| anyhow!(e))?;
                text += &format!("{name}\t{}\n", scenario.description.unwrap_or_default());
            }
            write_stdout(&text)
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
