//! Condition flags built from the active ruleset's axes and flags (`--range`, `--cover`,
//! `--engaged`, `--target-condition ...`): the command line knows no condition of its
//! own, so a new ruleset's conditions appear on the command line by themselves.

use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::request::envelope::{MAX_RANGES, RANGE_AXIS, WEIGHTS, canonical_text};
use crate::rules::axis::{AxisKind, AxisSpec};

/// Subcommands that take one point of conditions.
pub const CONDITION_COMMANDS: &[&str] =
    &["odds", "ttk", "duel", "compare", "gauntlet", "battle", "fit", "meta", "search"];
/// Subcommands where two sides fire at each other (help says "both").
const BOTH_SIDES: &[&str] = &["duel", "gauntlet", "battle", "fit", "meta", "search"];
/// Subcommands whose `--range` takes a range envelope (a list or band, with
/// `--range-weights`: see [`crate::request::envelope`]).
pub const ENVELOPE_COMMANDS: &[&str] = &["duel", "compare", "gauntlet", "battle", "fit", "search"];

fn arg(spec: &AxisSpec, both: bool, envelope: bool) -> Arg {
    let help = if both && !spec.duel_help.is_empty() { spec.duel_help } else { spec.help };
    if envelope && spec.name == RANGE_AXIS {
        let s = *spec;
        return Arg::new(spec.name)
            .long(spec.flag)
            .help(format!(
                "{help}. Or a range envelope: a list 6,12,24, a band 3..30 (every whole range) or 3..30:STEP, \
                 at most {MAX_RANGES} ranges: results per range, their weighted average and each side's best range"
            ))
            .help_heading("Conditions")
            .default_value(spec.default)
            .value_name(if spec.unit.is_empty() { "N".to_string() } else { spec.unit.to_ascii_uppercase() })
            .allow_negative_numbers(true)
            .value_parser(move |t: &str| canonical_text(&s, t));
    }
    let a = Arg::new(spec.name).long(spec.flag).help(help).help_heading("Conditions");
    let s = *spec;
    match spec.kind {
        AxisKind::Switch => a.action(ArgAction::SetTrue),
        AxisKind::Set(names) => a
            .action(ArgAction::Append)
            .value_name(spec.name.to_ascii_uppercase())
            .value_parser(PossibleValuesParser::new(names)),
        AxisKind::Choice(names) => a.default_value(spec.default).value_parser(PossibleValuesParser::new(names)),
        AxisKind::Number { .. } | AxisKind::Integer { .. } => a
            .default_value(spec.default)
            .value_name(if spec.unit.is_empty() { "N".to_string() } else { spec.unit.to_ascii_uppercase() })
            .allow_negative_numbers(true)
            .value_parser(move |t: &str| s.canonical(t)),
    }
}

/// `cmd` with the condition flags of `specs` on every subcommand that takes conditions,
/// except where the subcommand has an argument of its own by that name (`battle
/// --mode` picks the battle mode, and battles play the default attack mode; the other
/// commands that play battles name it `--battle-mode`, so their `--mode` is the
/// TechCommander attack action of their duels).
pub fn add_flags(cmd: Command, specs: &[AxisSpec]) -> Command {
    CONDITION_COMMANDS.iter().fold(cmd, |cmd, &name| {
        cmd.mut_subcommand(name, |sub| {
            let both = BOTH_SIDES.contains(&name);
            let envelope = ENVELOPE_COMMANDS.contains(&name);
            let mine: Vec<bool> = specs.iter().map(|spec| own_argument(&sub, spec)).collect();
            let sub = specs
                .iter()
                .zip(mine)
                .filter(|(_, own)| !own)
                .fold(sub, |sub, (spec, _)| sub.arg(arg(spec, both, envelope)));
            if envelope && specs.iter().any(|s| s.name == RANGE_AXIS) { sub.arg(weights_arg()) } else { sub }
        })
    })
}

/// `--range-weights W,W,...`: one weight per range of a `--range` envelope.
fn weights_arg() -> Arg {
    Arg::new(WEIGHTS)
        .long("range-weights")
        .value_name("W,W,...")
        .help(
            "With a --range list or band: one weight (a number of at least 0) per range, in order, relative \
             (1,2,1 = 25%, 50%, 25%) [default: equal]",
        )
        .help_heading("Conditions")
}

/// Whether `sub` already has an argument with the id or long flag of `spec`.
fn own_argument(sub: &Command, spec: &AxisSpec) -> bool {
    sub.get_arguments().any(|a| a.get_id().as_str() == spec.name || a.get_long() == Some(spec.flag))
}

/// The condition axes a subcommand of `cmd` takes as flags: `specs` less those it
/// defines itself.
pub fn flags_of(name: &str, specs: &[AxisSpec]) -> Vec<AxisSpec> {
    let own = <super::Cli as clap::CommandFactory>::command();
    let sub = own.find_subcommand(name);
    specs.iter().filter(|s| sub.is_none_or(|sub| !own_argument(sub, s))).cloned().collect()
}

/// The condition values of a subcommand's matches, as (axis, canonical text); axes
/// left out take their defaults later.
///
/// # Errors
/// A repeated set value that does not combine (cannot happen for listed names).
pub fn read(m: &ArgMatches, specs: &[AxisSpec]) -> Result<Vec<(&'static str, String)>, String> {
    let mut out = Vec::new();
    for spec in specs {
        if m.try_get_raw(spec.name).ok().flatten().is_none() && !matches!(spec.kind, AxisKind::Switch) {
            continue;
        }
        match spec.kind {
            AxisKind::Switch => {
                if m.get_flag(spec.name) {
                    out.push((spec.name, "true".to_string()));
                }
            }
            AxisKind::Set(_) => {
                let parts: Vec<String> = m.get_many::<String>(spec.name).into_iter().flatten().cloned().collect();
                out.push((spec.name, spec.canonical_list(&parts)?));
            }
            _ => {
                if let Some(v) = m.get_one::<String>(spec.name) {
                    out.push((spec.name, v.clone()));
                }
            }
        }
    }
    if let Ok(Some(w)) = m.try_get_one::<String>(WEIGHTS) {
        out.push((WEIGHTS, w.clone()));
    }
    Ok(out)
}
