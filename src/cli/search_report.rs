//! A finished `volley search` for people and tools: the text, the JSON document, the
//! CSV leaderboard, and the report directory (tables, charts, page); and the rest of a
//! race played in one process.

use anyhow::Result;
use serde_json::{Value, json};

use super::progress::Progress;
use super::search_args::SearchArgs;
use super::{options_line, print_json, print_table, with_options_json, write_stdout};
use crate::output::{Format, ReportDir};
use crate::request::search::{SearchRequest, SearchSpace};
use crate::rules::axis::Point;
use crate::rules::{RuleOptions, Ruleset};
use crate::stats::racing::{RaceState, Stop};
use crate::sweep::search::{SearchOutput, part_rate, ranked, tables};

/// Play the rest of the race in this process (from its start, or from a merged state
/// that had already played `engagements`), then report: print the search and write
/// `--out`.
pub(super) fn whole<R: Ruleset>(
    args: &SearchArgs,
    space: &SearchSpace<R>,
    state: RaceState,
    engagements: u64,
) -> Result<()> {
    if let Some(out) = &args.out {
        crate::output::report_dir::refuse_inputs(out, &space.sources.inputs)?;
    }
    let progress = Progress::new(args.run.quiet);
    let out = space.run(args.request().per_cost, state, engagements, &progress, |s| {
        progress.note(&format!(
            "stage {}: {} candidates × {} trials per matchup → {} left",
            s.stage, s.candidates, s.trials_each, s.survivors
        ))
    })?;
    progress.finish();
    report::<R>(args, space, &out, args.out.as_deref(), args.force)
}

/// Print a finished search as `--format` asks, and write its tables to `dir` if given.
pub(super) fn report<R: Ruleset>(
    args: &SearchArgs,
    space: &SearchSpace<R>,
    out: &SearchOutput,
    dir: Option<&std::path::Path>,
    force: bool,
) -> Result<()> {
    let req = args.request();
    if let Some(dir) = dir {
        write_out::<R>(args, dir, force, space, out)?;
    }
    match args.format.format {
        Format::Json => print_json(&with_options_json(document::<R>(space, out, &req), &space.options), false),
        Format::Csv => print_table(&tables(R::NAME, &space.candidates, out)[0], Format::Csv, 6),
        Format::Table => write_stdout(&(options_line(&space.options) + &text::<R>(space, out, &req, args.show))),
    }
}

/// Trials an exhaustive run at the race's final precision would play: every candidate
/// at the cumulative trials of the last stage played.
pub(super) fn exhaustive<R: Ruleset>(space: &SearchSpace<R>, out: &SearchOutput) -> u64 {
    let stages = out.race.stages.len() as u32;
    (space.candidates.len() as u64).saturating_mul(space.race.cumulative_trials(stages))
}

/// The metric in words.
fn metric(per_cost: bool, unit: &str) -> String {
    if per_cost {
        format!("win rate against the field per 100 {unit} of cost (weights of the field, conditions equal)")
    } else {
        "win rate against the field (weights of the field, conditions equal)".into()
    }
}

fn document<R: Ruleset>(space: &SearchSpace<R>, out: &SearchOutput, req: &SearchRequest) -> Value {
    let race = &out.race;
    let exhaustive = exhaustive(space, out);
    let board = ranked(race);
    let leaderboard: Vec<Value> = board
        .iter()
        .map(|&(i, rank, group)| {
            let e = &race.entrants[i];
            json!({
                "rank": rank,
                "candidate": space.candidates[i].name,
                "cost": space.candidates[i].cost,
                "estimate": e.standing.estimate,
                "estimate_ci95": e.standing.interval.pair(),
                "stage": e.stage,
                "trials": e.trials,
                "in_race": e.alive,
                "tie_group": group,
            })
        })
        .collect();
    let top: Vec<usize> = board.iter().take(req.top).map(|r| r.0).collect();
    let matchups = Value::Object(
        top.iter()
            .map(|&i| {
                let rows: Vec<Value> = race.entrants[i]
                    .parts
                    .iter()
                    .zip(&out.parts)
                    .map(|(p, (opponent, point))| {
                        let (rate, ci) = part_rate(p);
                        json!({ "opponent": opponent, "conditions": point.key(), "p_win": rate, "p_win_ci95": ci.pair(), "trials": p.2 })
                    })
                    .collect();
                (space.candidates[i].name.clone(), Value::Array(rows))
            })
            .collect(),
    );
    json!({
        "ruleset": R::NAME,
        "catalogue": space.sources.origin,
        "space": space.describe(),
        "kind": space.noun(),
        "budget": space.budget(),
        "space_size": space.candidates.len(),
        "listed": space.listed,
        "refused": space.refused,
        "unplayable": space.unplayable,
        "refusal": space.refusal,
        "field": space.field.iter().map(|(n, w)| json!({ "name": n, "weight": w })).collect::<Vec<_>>(),
        "conditions": space.grid.iter().map(Point::key).collect::<Vec<_>>(),
        "seed": space.config.seed,
        "metric": metric(req.per_cost, R::COST_UNIT),
        "per_cost": req.per_cost,
        "top": req.top,
        "alpha": space.race.alpha,
        "z": race.z,
        "stopped": race.stopped.as_str(),
        "stages": race.stages.iter().map(|s| json!({
            "stage": s.stage, "candidates": s.candidates, "survivors": s.survivors, "trials_each": s.trials_each,
        })).collect::<Vec<_>>(),
        "trials_used": race.trials_used(),
        "exhaustive_trials": exhaustive,
        "engagements": out.engagements,
        "leaderboard": leaderboard,
        "pareto": out.pareto.iter().map(|&i| json!({
            "candidate": space.candidates[i].name,
            "cost": space.candidates[i].cost,
            "win_rate": out.win_rate[i],
        })).collect::<Vec<_>>(),
        "matchups": matchups,
        "method": "staged racing: every candidate plays every field member at stage 1; after each stage a candidate \
                   whose upper bound is below the k-th best lower bound is dropped; intervals are MOVER combinations \
                   of Wilson intervals at a Bonferroni-corrected level over candidates × stages, so the top k are \
                   kept with probability at least 1 - alpha; counts are pooled over stages; each stage draws its own \
                   streams (stage 1 = the gauntlet's at the run's seed)",
    })
}

/// `builds` → `build`, `forces` → `force`.
fn one(noun: &str) -> &str {
    noun.strip_suffix('s').unwrap_or(noun)
}

fn pct(x: f64) -> String {
    crate::output::percent::percent(x)
}

fn text<R: Ruleset>(space: &SearchSpace<R>, out: &SearchOutput, req: &SearchRequest, show: Option<usize>) -> String {
    let race = &out.race;
    let per_cost = req.per_cost;
    let value = |x: f64| if per_cost { format!("{x:.3}") } else { pct(x) };
    let interval = |l: f64, h: f64| {
        if per_cost { format!("{l:.3}-{h:.3}") } else { crate::output::percent::percent_interval(l, h) }
    };
    let field: Vec<String> = space.field.iter().map(|(n, w)| format!("{n} ×{w}")).collect();
    let mut s = format!(
        "search of {} {}: {}\n  space: {} legal ({} listed, {} refused by the {} rules{})\n  field: {}\n  conditions: {}; seed {}\n  metric: {}\n",
        R::LABEL,
        space.noun(),
        space.describe(),
        space.candidates.len(),
        space.listed,
        space.refused,
        if space.battles.is_some() { "battle" } else { "construction" },
        space.unplayable_text(),
        field.join(", "),
        space
            .grid
            .iter()
            .map(|p| R::conditions(p).map_or_else(|_| p.key(), |c| R::describe(&c)))
            .collect::<Vec<_>>()
            .join("; "),
        space.config.seed,
        metric(per_cost, R::COST_UNIT),
    );
    s += &format!(
        "  race: top {}, family-wise error {} (intervals at z = {:.2}: Bonferroni over {} candidates × {} stages)\n",
        req.top,
        space.race.alpha,
        race.z,
        space.candidates.len(),
        space.race.max_stages
    );
    for st in &race.stages {
        s += &format!(
            "  stage {}: {} candidates × {} trials per matchup → {} left\n",
            st.stage, st.candidates, st.trials_each, st.survivors
        );
    }
    let exhaustive = exhaustive(space, out);
    s += &format!(
        "  stopped: {}; {} trials per matchup in all, {:.1}% of an exhaustive run at the final precision ({})\n\n",
        match race.stopped {
            Stop::Separated => "the top candidates are separated from the rest",
            Stop::Precision => "every remaining interval is within the precision (the rest are ties)",
            Stop::StageCap => "the stage cap (the remaining candidates are not separated: see the tie groups)",
        },
        race.trials_used(),
        100.0 * race.trials_used() as f64 / exhaustive.max(1) as f64,
        exhaustive
    );
    let rows = show.unwrap_or(req.top + 10);
    let board = ranked(race);
    let mut table = String::from("rank  tie  cost  estimate  95% (corrected)  stage  trials  candidate\n");
    for &(i, rank, group) in board.iter().take(rows) {
        let e = &race.entrants[i];
        let c = &space.candidates[i];
        table += &format!(
            "{rank:>4}  {:>3}  {:>4}  {:>8}  {:<15}  {:>5}  {:>6}  {}{}\n",
            group.map_or("-".to_string(), |g| g.to_string()),
            c.cost,
            value(e.standing.estimate),
            interval(e.standing.interval.low, e.standing.interval.high),
            e.stage,
            e.trials,
            c.name,
            if e.alive { "" } else { " (dropped)" }
        );
    }
    s += &table;
    let ties = board.iter().filter(|r| r.2 == Some(1)).count();
    if ties > 1 {
        s += &format!("\n{ties} candidates are tied for first within their intervals (tie group 1).\n");
    }
    s += &format!("\nPareto front (no cheaper {} wins more often):\n", one(space.noun()));
    for &i in &out.pareto {
        s += &format!(
            "  {:>6} {}  {:>6}  {}\n",
            space.candidates[i].cost,
            R::COST_UNIT,
            pct(out.win_rate[i]),
            space.candidates[i].name
        );
    }
    let top: Vec<usize> = board.iter().take(req.top.min(3)).map(|r| r.0).collect();
    for i in top {
        s += &format!("\nmatchups of {}:\n", space.candidates[i].name);
        for (p, (opponent, _)) in race.entrants[i].parts.iter().zip(&out.parts) {
            let (rate, ci) = part_rate(p);
            s += &format!(
                "  vs {opponent}: {} ({}, {} {})\n",
                pct(rate),
                crate::output::percent::percent_interval(ci.low, ci.high),
                p.2,
                space.engagement()
            );
        }
    }
    s
}

/// `--out DIR`: the tables as Parquet and CSV, a manifest, the charts (unless
/// `--no-charts`) and the report page, written atomically.
fn write_out<R: Ruleset>(
    args: &SearchArgs,
    dir: &std::path::Path,
    force: bool,
    space: &SearchSpace<R>,
    out: &SearchOutput,
) -> Result<()> {
    let report = ReportDir::create(dir, force)?;
    let mut files = Vec::new();
    let [board, stages] = tables(R::NAME, &space.candidates, out);
    files.extend(report.write_both("search_leaderboard", &board)?);
    files.extend(report.write_both("search_stages", &stages)?);
    let mut manifest = json!({
        "volley_version": env!("CARGO_PKG_VERSION"),
        "kind": "search",
        "ruleset": R::NAME,
        "space_size": space.candidates.len(),
        "candidates": space.noun(),
        "budget": space.budget(),
        "battle_mode": space.battles.as_ref().map(|b| b.mode.clone()),
        "field": space.field.iter().map(|(n, w)| json!({ "name": n, "weight": w })).collect::<Vec<_>>(),
        "conditions": space.grid.iter().map(Point::key).collect::<Vec<_>>(),
        "options": space.options.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "seed": space.config.seed,
        "files": files,
    });
    report.write_manifest(&mut manifest)?;
    let req = args.request();
    let mut charts = Vec::new();
    if !args.no_charts {
        let shown = crate::charts::search::LEADERS_DRAWN.max(req.top);
        charts = crate::charts::search::search_charts(&board, req.per_cost, shown);
        crate::charts::write_charts(&charts, &manifest, &report.path().join("charts"))?;
    }
    let field: Vec<String> = space.field.iter().map(|(n, w)| format!("{n} ×{w}")).collect();
    let lines = vec![
        ("ruleset".to_string(), R::LABEL.to_string()),
        ("space".to_string(), format!("{} legal candidates: {}", space.candidates.len(), space.describe())),
        ("field".to_string(), field.join(", ")),
        ("metric".to_string(), metric(req.per_cost, R::COST_UNIT)),
        (
            "race".to_string(),
            format!(
                "top {}, family-wise error {}, {}, seed {}",
                req.top,
                space.race.alpha,
                crate::output::wording::count(out.race.stages.len() as u64, "stage"),
                space.config.seed
            ),
        ),
    ];
    let info =
        crate::charts::page::PageInfo { title: format!("volley search: {} {}", R::LABEL, space.noun()), lines, files };
    crate::charts::page::write_column_guide(report.path(), &crate::sweep::column_guide::column_guide())?;
    crate::charts::page::write_page(report.path(), &info, &findings::<R>(space, out, &req), &charts)?;
    super::signals::check()?;
    report.commit()?;
    Ok(())
}

/// The report page's findings: the leader (or the tie group for first), why the race
/// stopped and what it cost against an exhaustive run, and the ends of the Pareto front.
fn findings<R: Ruleset>(space: &SearchSpace<R>, out: &SearchOutput, req: &SearchRequest) -> Vec<String> {
    let race = &out.race;
    let board = ranked(race);
    let show = |x: f64| if req.per_cost { format!("{x:.3} wins per 100 {}", R::COST_UNIT) } else { pct(x) };
    let mut found = Vec::new();
    if let Some(&(i, _, _)) = board.first() {
        let e = &race.entrants[i];
        let first: Vec<&str> =
            board.iter().filter(|r| r.2 == Some(1)).map(|r| space.candidates[r.0].name.as_str()).collect();
        let lead = format!(
            "{} ({} {}) leads: {} [{}, {}] (race-corrected)",
            space.candidates[i].name,
            crate::output::number::tidy(space.candidates[i].cost),
            R::COST_UNIT,
            show(e.standing.estimate),
            show(e.standing.interval.low),
            show(e.standing.interval.high)
        );
        found.push(if first.len() > 1 {
            format!(
                "{lead}; a statistical tie with {} within their intervals (tie group 1): {}",
                crate::output::wording::count(first.len() as u64 - 1, "other candidate"),
                first[1..].join(", ")
            )
        } else {
            format!("{lead}; separated from every other candidate")
        });
    }
    let exhaustive = exhaustive(space, out);
    found.push(format!(
        "The race stopped at stage {} ({}); it played {:.1}% of the trials of an exhaustive run at its final precision.",
        race.stages.len(),
        race.stopped.as_str(),
        100.0 * race.trials_used() as f64 / exhaustive.max(1) as f64
    ));
    if let (Some(&cheap), Some(&strong)) = (out.pareto.first(), out.pareto.last()) {
        let end = |i: usize| {
            format!(
                "{} ({} {}, {})",
                space.candidates[i].name,
                crate::output::number::tidy(space.candidates[i].cost),
                R::COST_UNIT,
                pct(out.win_rate[i])
            )
        };
        found.push(if cheap == strong {
            format!("The Pareto front is one {}: {}, the cheapest of the strongest.", one(space.noun()), end(cheap))
        } else {
            format!(
                "The Pareto front holds {}, from {} to {}.",
                crate::output::wording::count(out.pareto.len() as u64, one(space.noun())),
                end(cheap),
                end(strong)
            )
        });
    }
    found
}
