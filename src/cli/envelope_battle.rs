//! `volley battle F1 F2 --range LIST`: a battle over a range envelope. Every range is
//! planned and keyed as `volley battle` plans it alone (so each range's object equals
//! that command's JSON at the same seed); the sides' win rates are averaged over the
//! ranges with the envelope's weights and each side's best range is named.

use anyhow::Result;
use serde_json::{Value, json};

use super::battle::{BattleArgs, BattleCatalogue, battle_json, reach_lines};
use super::envelope::{AVERAGE_INTERVALS, best_json, best_line, envelope_json, tag_ranges};
use super::progress::Progress;
use super::usage::usage;
use super::{Invocation, options_line, print_json, print_table, write_stdout};
use crate::engine::Cell;
use crate::output::wording::count;
use crate::output::{Format, Table};
use crate::request::battle::{self, BattlePlan};
use crate::request::envelope::{Envelope, Estimate, average, best};
use crate::rules::{RuleOptions, Ruleset};
use crate::sweep::shard::Plays;

/// `volley battle` with a range envelope: refused with a shard, else
/// [`run_battle`] on the command's catalogue.
///
/// # Errors
/// (usage) A shard (an envelope is not sharded); what [`run_battle`] fails with.
pub fn run<R: Ruleset>(args: &BattleArgs, ctx: &Invocation<'_>, env: &Envelope) -> Result<()> {
    if super::shard::choose(&args.shard, &|name| std::env::var(name).ok())?.is_some() {
        return Err(usage("--range: a list or band of ranges is not sharded: give one range with --shard"));
    }
    if args.out.is_some() || args.force {
        return Err(usage("--out and --force name the shard directory of a sharded battle: give --shard K/N"));
    }
    run_battle::<R>(args, ctx, &BattleCatalogue::read::<R>(ctx)?, env)
}

/// Play a free-for-all battle at every range of `env` and print per-range results, the
/// weighted averages and each side's best range.
///
/// # Errors
/// (usage) Teams (a team battle takes one range); what `volley battle` fails with at any
/// of the ranges.
pub fn run_battle<R: Ruleset>(
    args: &BattleArgs,
    ctx: &Invocation<'_>,
    cat: &BattleCatalogue<R::Catalogue>,
    env: &Envelope,
) -> Result<()> {
    if args.teams.is_some() {
        return Err(usage("--range: a list or band of ranges plays free-for-all battles; --teams takes one range"));
    }
    let req = args.request();
    let plans: Vec<BattlePlan<R>> = env
        .ranges
        .iter()
        .map(|r| battle::plan::<R>(&ctx.setting.at_range(r), &req, &cat.catalogue))
        .collect::<crate::error::Result<_>>()?;
    let first = &plans[0];
    let config = first.config;
    let cells: Vec<Cell<'_, _>> = plans.iter().map(|p| Cell { key: p.key, kernel: &p.kernel }).collect();
    let progress = Progress::new(args.quiet);
    let tallies = Plays::all().run(&cells, &config, &progress).map_err(anyhow::Error::msg)?;
    progress.finish();
    let names: Vec<&str> = first.info.sides.iter().map(|s| s.0.as_str()).collect();
    let summaries: Vec<_> = tallies.iter().map(|t| t.summary()).collect();
    // Per side, per range: the side's win rate.
    let wins: Vec<Vec<Estimate>> = (0..names.len())
        .map(|i| summaries.iter().map(|s| Estimate { value: s.sides[i].p_wins, ci: s.sides[i].p_wins_ci }).collect())
        .collect();
    let draws: Vec<Estimate> = summaries.iter().map(|s| Estimate { value: s.p_draw, ci: s.p_draw_ci }).collect();
    let avg = |xs: &[Estimate]| average(&env.weights.iter().copied().zip(xs.iter().copied()).collect::<Vec<_>>());
    let best_of: Vec<_> = wins.iter().map(|w| best(w, true)).collect();
    let letter = |i: usize| ((b'a' + i as u8) as char).to_string();
    match args.format.format {
        Format::Json => {
            let pairs = first.options.pairs();
            let ranges = tag_ranges(
                plans
                    .iter()
                    .zip(&tallies)
                    .map(|(p, t)| battle_json::<R>(&p.info, t, &p.conditions, config.seed, None, &pairs, &p.reach)),
                env,
            );
            let mut e = envelope_json(env);
            for (i, w) in wins.iter().enumerate() {
                let a = avg(w);
                e.insert(format!("p_{}_wins", letter(i)), json!(a.map(|a| a.value)));
                e.insert(format!("p_{}_wins_ci95", letter(i)), json!(a.map(|a| a.ci.pair())));
            }
            let d = avg(&draws);
            e.insert("p_draw".into(), json!(d.map(|d| d.value)));
            e.insert("p_draw_ci95".into(), json!(d.map(|d| d.ci.pair())));
            e.insert("intervals".into(), json!(AVERAGE_INTERVALS));
            let best_range: serde_json::Map<String, Value> = (0..names.len())
                .map(|i| (letter(i), best_json(names[i], best_of[i].as_ref(), env, &wins[i])))
                .collect();
            let j = json!({
                "ruleset": R::NAME, "battle": true, "mode": first.info.mode, "seed": config.seed,
                "sides": names,
                "ranges": ranges,
                "envelope": e,
                "best_range": best_range,
                "options": Value::Object(pairs.iter().map(|(n, v)| (n.clone(), Value::from(v.clone()))).collect()),
            });
            print_json(&j, false)
        }
        format => {
            let mut columns = vec!["range".to_string(), "weight".to_string()];
            for i in 0..names.len() {
                let l = letter(i);
                columns.extend([format!("{l}_wins"), format!("{l}_ci95_low"), format!("{l}_ci95_high")]);
            }
            columns.extend(["draw".into(), "draw_ci95_low".into(), "draw_ci95_high".into()]);
            let mut t = Table::new(columns);
            let row = |range: &str, w: f64, xs: Vec<Option<Estimate>>| {
                let mut row = vec![range.into(), w.into()];
                for e in xs {
                    row.extend([e.map(|e| e.value).into(), e.map(|e| e.ci.low).into(), e.map(|e| e.ci.high).into()]);
                }
                row
            };
            for (k, (r, w)) in env.ranges.iter().zip(&env.weights).enumerate() {
                let xs = wins.iter().map(|w| Some(w[k])).chain([Some(draws[k])]).collect();
                t.push(row(r, *w, xs));
            }
            let averages: Vec<Option<Estimate>> = wins.iter().map(|w| avg(w)).chain([avg(&draws)]).collect();
            t.push(row("average", env.weights.iter().sum(), averages.clone()));
            if format == Format::Table {
                let reach: String = plans
                    .iter()
                    .zip(&env.ranges)
                    .map(|(p, r)| match reach_lines(&p.info, &p.reach, &p.conditions) {
                        n if n.is_empty() => n,
                        n => n.lines().map(|l| format!("range {r}: {l}\n")).collect(),
                    })
                    .collect();
                let average_line: Vec<String> = names
                    .iter()
                    .zip(&averages)
                    .filter_map(|(n, a)| {
                        a.map(|a| format!("{n} wins {:.4} [{:.4}, {:.4}]", a.value, a.ci.low, a.ci.high))
                    })
                    .collect();
                let best_lines: String = (0..names.len())
                    .map(|i| {
                        best_line(names[i], &format!("P({} wins)", names[i]), best_of[i].as_ref(), env, &wins[i], false)
                    })
                    .collect();
                write_stdout(&format!(
                    "{} in battles over {} (mode {}, {} max)\n{reach}{}Monte Carlo, {} per range, seed {}\nweighted average: {} (95%, {AVERAGE_INTERVALS})\n{best_lines}\n",
                    names.join(" vs "),
                    env.describe(),
                    first.info.mode,
                    count(first.info.max_turns, R::TURN),
                    options_line(&first.options),
                    count(tallies.first().map_or(0, |t| t.trials), "battle"),
                    config.seed,
                    average_line.join(", "),
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}
