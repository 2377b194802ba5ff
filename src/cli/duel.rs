//! `volley duel`: two builds fire at each other.

use anyhow::{Result, anyhow};
use clap::Args;
use serde_json::json;

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{Invocation, print_table, write_stdout};
use crate::engine::{Cell, cell_key, run};
use crate::output::wording::count;
use crate::output::{Format, Table};
use crate::rules::{Role, RuleOptions, Ruleset};
use crate::stats::{ExactDuelOdds, Interval};
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
    let cond = ctx.engagement_conditions::<R>()?;
    let options = ctx.options::<R>()?;
    let policy = args.run.policy::<R>()?;
    let config = args.run.config()?;
    let cat = ctx.catalog().load::<R>()?;
    let a = R::display_name(&cat, Role::Opponent, &args.a).map_err(|e| anyhow!(e))?;
    let b = R::display_name(&cat, Role::Opponent, &args.b).map_err(|e| anyhow!(e))?;
    let kernel = R::duel(&cat, &a, &b, &cond, &options, policy, args.run.max_turns).map_err(|e| anyhow!(e))?;
    let pairs = options.pairs();
    let policy_name = policy.to_string();
    let exact = R::exact_duel(&kernel);
    if args.exact {
        let Some(e) = exact else {
            return Err(anyhow!(
                "no exact solution for this {} duel: the ruleset has no exact duel for it (a model it does not solve \
                 exactly, or more states than its exact chain holds); run it without --exact for Monte Carlo",
                R::NAME
            ));
        };
        return print_exact::<R>(args, &a, &b, &R::describe(&cond), &policy_name, &e);
    }
    let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns: args.run.max_turns };
    let key = cell_key(&spec.duel(&a, &b, &ctx.point::<R>()?));
    let progress = Progress::new(args.run.quiet);
    let tally = run(&[Cell { key, kernel: &kernel }], &config, &progress).map_err(|e| anyhow!(e))?.remove(0);
    progress.finish();
    let s = tally.summary();
    match args.format.format {
        Format::Json => {
            let j = json!({
                "ruleset": R::NAME, "a": a, "b": b, "conditions": R::describe(&cond), "policy": policy_name,
                "max_turns": args.run.max_turns, "seed": config.seed, "trials": s.trials,
                "p_a_wins": s.p_a_wins, "p_a_wins_ci95": s.p_a_wins_ci.pair(),
                "p_b_wins": s.p_b_wins, "p_b_wins_ci95": s.p_b_wins_ci.pair(),
                "p_draw": s.p_draw, "p_draw_ci95": s.p_draw_ci.pair(),
                "p_mutual_kill": s.p_mutual_kill, "p_timeout": s.p_timeout,
                "mean_turns": s.mean_turns, "mean_turns_ci95": s.mean_turns_ci.map(|i| i.pair()),
                "exact": exact.map(|e| json!({ "p_a_wins": e.p_a_wins, "p_b_wins": e.p_b_wins, "p_draw": e.p_draw })),
            });
            write_stdout(&(serde_json::to_string_pretty(&j)? + "\n"))
        }
        format => {
            let mut t = Table::new(["outcome", "probability", "ci95_low", "ci95_high"]);
            let rows: [(String, f64, Interval); 3] = [
                (format!("{a} wins"), s.p_a_wins, s.p_a_wins_ci),
                (format!("{b} wins"), s.p_b_wins, s.p_b_wins_ci),
                ("draw".into(), s.p_draw, s.p_draw_ci),
            ];
            for (name, p, ci) in rows {
                t.push(vec![name.into(), p.into(), ci.low.into(), ci.high.into()]);
            }
            if format == Format::Table {
                let mean = s.mean_turns.map_or("-".into(), |m| format!("{m:.2}"));
                let turn = R::TURN;
                write_stdout(&format!(
                    "{} vs {} ({}, {} max, policy {})\nMonte Carlo, {}, seed {}; mean length {mean} {turn}s; draws: {:.4} mutual kills, {:.4} timeouts\n\n",
                    a,
                    b,
                    R::describe(&cond),
                    count(args.run.max_turns, turn),
                    policy_name,
                    count(s.trials, "duel"),
                    config.seed,
                    s.p_mutual_kill,
                    s.p_timeout
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}

/// The exact outcome of a duel, in the chosen format.
fn print_exact<R: Ruleset>(
    args: &DuelArgs,
    a: &str,
    b: &str,
    conditions: &str,
    policy: &str,
    e: &ExactDuelOdds,
) -> Result<()> {
    match args.format.format {
        Format::Json => {
            let j = json!({
                "ruleset": R::NAME, "a": a, "b": b, "conditions": conditions, "policy": policy,
                "max_turns": args.run.max_turns, "method": "exact",
                "p_a_wins": e.p_a_wins, "p_b_wins": e.p_b_wins, "p_draw": e.p_draw,
            });
            write_stdout(&(serde_json::to_string_pretty(&j)? + "\n"))
        }
        format => {
            let mut t = Table::new(["outcome", "probability"]);
            for (name, p) in
                [(format!("{a} wins"), e.p_a_wins), (format!("{b} wins"), e.p_b_wins), ("draw".into(), e.p_draw)]
            {
                t.push(vec![name.into(), p.into()]);
            }
            if format == Format::Table {
                write_stdout(&format!(
                    "{a} vs {b} ({conditions}, {} {}s max, policy {policy})\nmethod: exact\n\n",
                    args.run.max_turns,
                    R::TURN
                ))?;
            }
            print_table(&t, format, 6)
        }
    }
}
