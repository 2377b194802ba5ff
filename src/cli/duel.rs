//! `volley duel`: two builds fire at each other.

use anyhow::{Result, anyhow};
use clap::Args;
use serde_json::json;

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{Invocation, options_line, print_json, print_table, with_options_json, write_stdout};
use crate::engine::{Cell, cell_key, run};
use crate::output::wording::count;
use crate::output::{Format, Table, number};
use crate::rules::{Role, RuleOptions, Ruleset};
use crate::stats::{DuelSummary, ExactDuelOdds, Interval};
use crate::sweep::cells::CellSpec;

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// First side (A): a build, a mech or MECH+PILOT
    #[arg(value_name = "A")]
    pub a: String,
    /// Second side (B)
    #[arg(value_name = "B")]
    pub b: String,
    #[command(flatten)]
    pub run: RunArgs,
    /// Compute the outcome exactly instead of simulating, where the ruleset has an exact
    /// solver for this duel (TechCommander: every duel; MECHCOM: sides that cannot change
    /// each other's state); takes no --trials, --precision, --max-trials or --seed
    #[arg(long, conflicts_with_all = ["trials", "precision", "max_trials", "seed"])]
    pub exact: bool,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run_duel<R: Ruleset>(args: &DuelArgs, ctx: &Invocation<'_>) -> Result<()> {
    let cond = ctx.setting.engagement_conditions::<R>()?;
    let options = ctx.setting.options::<R>()?;
    let policy = args.run.policy::<R>()?;
    let config = args.run.config()?;
    let cat = ctx.setting.catalogue.load::<R>()?;
    let a = R::display_name(&cat, Role::Opponent, &args.a).map_err(|e| anyhow!(e))?;
    let b = R::display_name(&cat, Role::Opponent, &args.b).map_err(|e| anyhow!(e))?;
    let kernel = R::duel(&cat, &a, &b, &cond, &options, policy, args.run.max_turns).map_err(|e| anyhow!(e))?;
    let pairs = options.pairs();
    let policy_name = policy.to_string();
    let reach = |x: &str, y: &str| R::can_attack(&cat, x, y, &cond, &options).map_err(|e| anyhow!(e));
    let can = (reach(&a, &b)?, reach(&b, &a)?);
    let exact = R::exact_duel(&kernel);
    if args.exact {
        let Some(e) = exact else {
            return Err(anyhow!(
                "no exact solution for this {} duel: the ruleset has no exact duel for it (a model it does not solve \
                 exactly, or more states than its exact chain holds); run it without --exact for Monte Carlo",
                R::NAME
            ));
        };
        return print_exact::<R>(
            args,
            (&a, &b),
            (can, R::exact_initiative(&kernel)),
            &R::describe(&cond),
            &policy_name,
            &options,
            &e,
            &R::duel_notes(&kernel),
        );
    }
    let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns: args.run.max_turns };
    let key = cell_key(&spec.duel(&a, &b, &ctx.setting.point::<R>()?));
    let progress = Progress::new(args.run.quiet);
    let tally = run(&[Cell { key, kernel: &kernel }], &config, &progress).map_err(|e| anyhow!(e))?.remove(0);
    progress.finish();
    let s = tally.summary();
    match args.format.format {
        Format::Json => {
            let head = DuelHead { a: &a, b: &b, conditions: &R::describe(&cond), policy: &policy_name, can };
            let j = sampled_json::<R>(&head, args.run.max_turns, config.seed, &s, exact, &R::duel_notes(&kernel));
            print_json(&with_options_json(j, &options), false)
        }
        format => {
            let mut t = Table::new(["outcome", "probability", "ci95_low", "ci95_high"]);
            let rows: [(String, f64, Interval); 3] = [
                (format!("{} wins", outcome_names(&a, &b).0), s.p_a_wins, s.p_a_wins_ci),
                (format!("{} wins", outcome_names(&a, &b).1), s.p_b_wins, s.p_b_wins_ci),
                ("draw".into(), s.p_draw, s.p_draw_ci),
            ];
            for (name, p, ci) in rows {
                t.push(vec![name.into(), p.into(), ci.low.into(), ci.high.into()]);
            }
            if format == Format::Table {
                let mean = s.mean_turns.map_or("-".into(), |m| format!("{m:.2}"));
                let turn = R::TURN;
                write_stdout(&format!(
                    "{} vs {} ({}, {} max, policy {})\n{}{}{}Monte Carlo, {}, seed {}; mean length {mean} {turn}s; draws: {:.4} mutual kills, {:.4} timeouts\n{}\n",
                    a,
                    b,
                    R::describe(&cond),
                    count(args.run.max_turns, turn),
                    policy_name,
                    reach_note((&a, &b), can),
                    options_line(&options),
                    notes_text(&R::duel_notes(&kernel)),
                    count(s.trials, "duel"),
                    config.seed,
                    s.p_mutual_kill,
                    s.p_timeout,
                    crate::cli::engagement::split_line("A", "B", &s.initiative),
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}

/// What a duel's JSON says of its sides and conditions.
pub(super) struct DuelHead<'a> {
    pub a: &'a str,
    pub b: &'a str,
    /// The conditions in words.
    pub conditions: &'a str,
    pub policy: &'a str,
    /// Whether A and B can attack each other.
    pub can: (bool, bool),
}

/// A Monte Carlo duel's JSON object (without `options`).
pub(super) fn sampled_json<R: Ruleset>(
    h: &DuelHead<'_>,
    max_turns: u32,
    seed: u64,
    s: &DuelSummary,
    exact: Option<ExactDuelOdds>,
    notes: &[String],
) -> serde_json::Value {
    let mut j = json!({
        "ruleset": R::NAME, "a": h.a, "b": h.b, "conditions": h.conditions, "policy": h.policy,
        "max_turns": max_turns, "seed": seed, "trials": s.trials,
        "p_a_wins": s.p_a_wins, "p_a_wins_ci95": s.p_a_wins_ci.pair(),
        "p_b_wins": s.p_b_wins, "p_b_wins_ci95": s.p_b_wins_ci.pair(),
        "p_draw": s.p_draw, "p_draw_ci95": s.p_draw_ci.pair(),
        "p_mutual_kill": s.p_mutual_kill, "p_timeout": s.p_timeout,
        "mean_turns": s.mean_turns, "mean_turns_ci95": s.mean_turns_ci.map(|i| i.pair()),
        "exact": exact.map(|e| json!({
            "p_a_wins": number::exact(e.p_a_wins),
            "p_b_wins": number::exact(e.p_b_wins),
            "p_draw": number::exact(e.p_draw()),
            "p_mutual_kill": number::exact(e.p_mutual),
            "p_timeout": number::exact(e.p_timeout),
        })),
        "a_can_attack": h.can.0, "b_can_attack": h.can.1,
        "not_modelled": notes,
    });
    crate::cli::engagement::insert_split(&mut j, &s.initiative);
    j
}

/// An exact duel's values rounded as exact values: (A wins, B wins, draw, mutual kills,
/// timeouts).
pub(super) fn exact_values(e: &ExactDuelOdds) -> [f64; 5] {
    [e.p_a_wins, e.p_b_wins, e.p_draw(), e.p_mutual, e.p_timeout].map(number::exact)
}

/// An exact duel's JSON object (without `options`).
pub(super) fn exact_json<R: Ruleset>(
    h: &DuelHead<'_>,
    max_turns: u32,
    e: &ExactDuelOdds,
    split: (Option<f64>, Option<f64>),
    notes: &[String],
) -> serde_json::Value {
    let [a_wins, b_wins, draw, mutual, timeout] = exact_values(e);
    let mut j = json!({
        "ruleset": R::NAME, "a": h.a, "b": h.b, "conditions": h.conditions, "policy": h.policy,
        "max_turns": max_turns, "method": "exact",
        "p_a_wins": a_wins, "p_b_wins": b_wins, "p_draw": draw,
        "p_mutual_kill": mutual, "p_timeout": timeout,
        "a_can_attack": h.can.0, "b_can_attack": h.can.1,
        "not_modelled": notes,
    });
    crate::cli::engagement::insert_exact_split(&mut j, split, R::ONE_SIDE_ACTS_FIRST);
    j
}

/// The exact outcome of a duel, in the chosen format.
#[allow(clippy::too_many_arguments)] // the header's parts, each printed once
fn print_exact<R: Ruleset>(
    args: &DuelArgs,
    (a, b): (&str, &str),
    (can, split): ((bool, bool), (Option<f64>, Option<f64>)),
    conditions: &str,
    policy: &str,
    options: &R::Options,
    e: &ExactDuelOdds,
    notes: &[String],
) -> Result<()> {
    if args.format.format == Format::Json {
        let head = DuelHead { a, b, conditions, policy, can };
        let j = exact_json::<R>(&head, args.run.max_turns, e, split, notes);
        return print_json(&with_options_json(j, options), true);
    }
    // Exact values: rounded as such, so arithmetic noise never prints.
    let draw = number::exact(e.p_draw());
    let e = &ExactDuelOdds {
        p_a_wins: number::exact(e.p_a_wins),
        p_b_wins: number::exact(e.p_b_wins),
        p_mutual: number::exact(e.p_mutual),
        p_timeout: number::exact(e.p_timeout),
    };
    let format = args.format.format;
    let mut t = Table::new(["outcome", "probability"]);
    for (name, p) in [
        (format!("{} wins", outcome_names(a, b).0), e.p_a_wins),
        (format!("{} wins", outcome_names(a, b).1), e.p_b_wins),
        ("draw".into(), draw),
    ] {
        t.push(vec![name.into(), p.into()]);
    }
    if format == Format::Table {
        write_stdout(&format!(
            "{a} vs {b} ({conditions}, {} max, policy {policy})\n{}{}{}method: exact; draws: {} mutual kills, {} timeouts\n{}\n",
            count(args.run.max_turns, R::TURN),
            reach_note((a, b), can),
            options_line(options),
            notes_text(notes),
            small(e.p_mutual),
            small(e.p_timeout),
            crate::cli::engagement::exact_split_line(split, R::ONE_SIDE_ACTS_FIRST),
        ))?;
    }
    print_table(&t, format, 6)
}

/// `v` as the table prints it: in full, or in scientific notation below 1e-6 (a
/// timeout share of 2.3e-116 is not 120 digits long).
fn small(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-6 { format!("{v:.2e}") } else { v.to_string() }
}

/// A line saying which side cannot attack at these conditions (no weapon in range or allowed, no
/// reach); empty when both can.
pub(super) fn reach_note((a, b): (&str, &str), (a_can, b_can): (bool, bool)) -> String {
    match (a_can, b_can) {
        (true, true) => String::new(),
        (false, false) => format!("one-sided: neither {a} nor {b} can attack at these conditions\n"),
        (false, true) => {
            format!("one-sided: {a} cannot attack {b} at these conditions (none of its weapons can fire there)\n")
        }
        (true, false) => {
            format!("one-sided: {b} cannot attack {a} at these conditions (none of its weapons can fire there)\n")
        }
    }
}

/// One `not modelled: ...` line per note (none when the engagement plays every rule).
pub(super) fn notes_text(notes: &[String]) -> String {
    notes.iter().map(|n| format!("not modelled: {n}\n")).collect()
}

/// The sides' names in the outcome rows: as given, or `NAME (A)` and `NAME (B)` in a
/// mirror duel, where the plain names would read alike.
pub(super) fn outcome_names(a: &str, b: &str) -> (String, String) {
    if a == b { (format!("{a} (A)"), format!("{b} (B)")) } else { (a.to_string(), b.to_string()) }
}
