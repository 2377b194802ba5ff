//! `volley duel`: two builds fire at each other.

use anyhow::{Result, anyhow};
use clap::Args;
use serde_json::json;

use super::args::{CatalogArgs, ConditionArgs, FormatArgs};
use super::odds::describe;
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{print_table, write_stdout};
use crate::engine::{Cell, cell_key, run};
use crate::output::{Format, Table};
use crate::rules::techcommander::{Attacker, Duel, Target};
use crate::stats::Interval;
use crate::sweep::cells::duel_key;

#[derive(Debug, Args)]
pub struct DuelArgs {
    /// First build (A)
    #[arg(value_name = "A")]
    pub a: String,
    /// Second build (B)
    #[arg(value_name = "B")]
    pub b: String,
    #[command(flatten)]
    pub conditions: ConditionArgs,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

pub fn run_duel(args: &DuelArgs, catalog: &CatalogArgs) -> Result<()> {
    let cat = catalog.load()?;
    let a = cat.find_build(&args.a).map_err(|e| anyhow!(e))?;
    let b = cat.find_build(&args.b).map_err(|e| anyhow!(e))?;
    let cond = args.conditions.engagement_conditions()?;
    let config = args.run.config()?;
    let kernel = Duel::new(
        (&Attacker::from_build(&cat, a), &Target::from_build(&cat, a)),
        (&Attacker::from_build(&cat, b), &Target::from_build(&cat, b)),
        &cond,
        &crate::rules::techcommander::Options::default(),
        args.run.policy,
        args.run.max_turns,
    )
    .map_err(|e| anyhow!(e))?;
    let key = cell_key(&duel_key(&a.name, &b.name, &cond, args.run.policy, args.run.max_turns));
    let progress = Progress::new(args.run.quiet);
    let tally = run(&[Cell { key, kernel: &kernel }], &config, &progress).map_err(|e| anyhow!(e))?.remove(0);
    progress.finish();
    let s = tally.summary();
    match args.format.format {
        Format::Json => {
            let j = json!({
                "a": a.name, "b": b.name, "conditions": describe(&cond), "policy": args.run.policy.name(),
                "max_turns": args.run.max_turns, "seed": config.seed, "trials": s.trials,
                "p_a_wins": s.p_a_wins, "p_a_wins_ci95": s.p_a_wins_ci.pair(),
                "p_b_wins": s.p_b_wins, "p_b_wins_ci95": s.p_b_wins_ci.pair(),
                "p_draw": s.p_draw, "p_draw_ci95": s.p_draw_ci.pair(),
                "p_mutual_kill": s.p_mutual_kill, "p_timeout": s.p_timeout,
                "mean_turns": s.mean_turns, "mean_turns_ci95": s.mean_turns_ci.map(|i| i.pair()),
            });
            write_stdout(&(serde_json::to_string_pretty(&j)? + "\n"))
        }
        format => {
            let mut t = Table::new(["outcome", "probability", "ci95_low", "ci95_high"]);
            let rows: [(String, f64, Interval); 3] = [
                (format!("{} wins", a.name), s.p_a_wins, s.p_a_wins_ci),
                (format!("{} wins", b.name), s.p_b_wins, s.p_b_wins_ci),
                ("draw".into(), s.p_draw, s.p_draw_ci),
            ];
            for (name, p, ci) in rows {
                t.push(vec![name.into(), p.into(), ci.low.into(), ci.high.into()]);
            }
            if format == Format::Table {
                let mean = s.mean_turns.map_or("-".into(), |m| format!("{m:.2}"));
                write_stdout(&format!(
                    "{} vs {} ({}, {} turns max, policy {})\nMonte Carlo, {} duels, seed {}; mean length {mean} turns; draws: {:.4} mutual kills, {:.4} timeouts\n\n",
                    a.name,
                    b.name,
                    describe(&cond),
                    args.run.max_turns,
                    args.run.policy,
                    s.trials,
                    config.seed,
                    s.p_mutual_kill,
                    s.p_timeout
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}
