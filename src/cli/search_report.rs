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
        Format::Csv => {
            print_table(&tables(R::NAME, &space.candidates, out, space.metric, space.max_turns)[0], Format::Csv, 6)
        }
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
fn metric<R: Ruleset>(space: &SearchSpace<R>, per_cost: bool) -> String {
    space.metric.describe(per_cost, R::COST_UNIT, space.battles.is_some())
}

/// A matchup's value and 95% interval in the metric's unit ([`part_rate`], shown).
fn shown_part<R: Ruleset>(space: &SearchSpace<R>, p: &crate::stats::racing::Part) -> (f64, crate::stats::Interval) {
    let (rate, ci) = part_rate(p);
    (space.metric.shown(rate, space.max_turns), space.metric.shown_interval(ci, space.max_turns))
}

/// A standing's estimate and interval in the metric's unit (turns for turns to kill;
/// per-cost values as they are).
fn shown<R: Ruleset>(space: &SearchSpace<R>, s: &crate::stats::racing::Standing) -> (f64, crate::stats::Interval) {
    (space.metric.shown(s.estimate, space.max_turns), space.metric.shown_interval(s.interval, space.max_turns))
}

fn document<R: Ruleset>(space: &SearchSpace<R>, out: &SearchOutput, req: &SearchRequest) -> Value {
    let race = &out.race;
    let exhaustive = exhaustive(space, out);
    let board = ranked(race);
    let leaderboard: Vec<Value> = board
        .iter()
        .map(|&(i, rank, group)| {
            let e = &race.entrants[i];
            let (estimate, ci) = shown(space, &e.standing);
            json!({
                "rank": rank,
                "candidate": space.candidates[i].name,
                "cost": space.candidates[i].cost,
                "estimate": estimate,
                "estimate_ci95": ci.pair(),
                "exact": e.exact,
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
                        let (value, ci) = shown_part(space, p);
                        let column = space.metric.column();
                        let mut row = json!({ "opponent": opponent, "conditions": point.key(), "trials": p.trials, "exact": p.exact.is_some() });
                        row[column.as_str()] = json!(value);
                        row[format!("{column}_ci95")] = json!(ci.pair());
                        row
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
        "condition_weights": weights_of(space),
        "seed": space.config.seed,
        "metric": metric(space, req.per_cost),
        "metric_name": space.metric.id(),
        "higher_is_better": space.metric.higher_is_better(),
        "per_cost": req.per_cost,
        "exact_candidates": space.exact_count(),
        "partly_exact_candidates": space.partly_exact_count(),
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
            "value": out.value[i],
        })).collect::<Vec<_>>(),
        "matchups": matchups,
        "method": "staged racing: a candidate whose every engagement the ruleset solves exactly starts with its exact \
                   value and plays no trial (unless --no-exact); every other candidate plays every field member at \
                   stage 1, but for the engagements solved exactly, which keep their exact values; after each stage a candidate whose upper bound is below the k-th best lower bound is \
                   dropped; intervals are MOVER combinations of Wilson intervals (of a bounded score, a conservative \
                   Wilson interval of its share of the most one engagement scores) at a Bonferroni-corrected level \
                   over candidates × stages, so the top k are kept with probability at least 1 - alpha; counts are \
                   pooled over stages; each stage draws its own streams (stage 1 = the gauntlet's, or ttk's, at the \
                   run's seed)",
    })
}

/// A value in the metric's unit for people: a percentage for a share, turns to two
/// places, or a per-cost value to three.
fn format_value<R: Ruleset>(space: &SearchSpace<R>, per_cost: bool, x: f64) -> String {
    if per_cost {
        format!("{x:.3}")
    } else if space.metric.is_share() {
        pct(x)
    } else {
        format!("{x:.2}")
    }
}

/// An interval as [`format_value`] writes values.
fn format_interval<R: Ruleset>(space: &SearchSpace<R>, per_cost: bool, i: crate::stats::Interval) -> String {
    if space.metric.is_share() && !per_cost {
        crate::output::percent::percent_interval(i.low, i.high)
    } else {
        format!("{}-{}", format_value(space, per_cost, i.low), format_value(space, per_cost, i.high))
    }
}

/// A point's conditions in words.
fn point_text<R: Ruleset>(p: &Point) -> String {
    R::conditions(p).map_or_else(|_| p.key(), |c| R::describe(&c))
}

/// The search's conditions in words, each with its weight when they are weighted.
fn conditions_text<R: Ruleset>(space: &SearchSpace<R>) -> String {
    let weights = weights_of(space);
    space
        .grid
        .iter()
        .zip(&weights)
        .map(|(p, w)| {
            if space.grid.len() > 1 {
                format!("{} ×{}", point_text::<R>(p), crate::output::number::tidy(*w))
            } else {
                point_text::<R>(p)
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Each condition's weight (adding to 1).
fn weights_of<R: Ruleset>(space: &SearchSpace<R>) -> Vec<f64> {
    let n = space.grid.len();
    (0..n).map(|i| crate::sweep::gauntlet::point_weight(&space.point_weights, i, n)).collect()
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
    let value = |x: f64| format_value(space, per_cost, x);
    let interval = |i: crate::stats::Interval| format_interval(space, per_cost, i);
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
        conditions_text(space),
        space.config.seed,
        metric(space, per_cost),
    );
    s += &format!(
        "  race: top {}, family-wise error {} (intervals at z = {:.2}: Bonferroni over {} candidates × {} stages)\n",
        req.top,
        space.race.alpha,
        race.z,
        space.candidates.len(),
        space.race.max_stages
    );
    if space.exact_count() > 0 {
        s += &format!(
            "  exact: {} of {} candidates start with their exact values (every engagement solved exactly) and play no trial\n",
            space.exact_count(),
            space.candidates.len()
        );
    }
    if space.partly_exact_count() > 0 {
        s += &format!(
            "  partly exact: {} of {} candidates keep the exact values of the engagements solved exactly and play only the others\n",
            space.partly_exact_count(),
            space.candidates.len()
        );
    }
    for st in &race.stages {
        let exact = race.entrants.iter().filter(|e| e.exact && e.stage >= st.stage).count();
        let played = st.candidates - exact;
        s += &if exact == 0 {
            format!(
                "  stage {}: {} candidates × {} trials per matchup → {} left\n",
                st.stage, st.candidates, st.trials_each, st.survivors
            )
        } else {
            format!(
                "  stage {}: {} candidates ({exact} exact, {played} played {} trials per matchup) → {} left\n",
                st.stage, st.candidates, st.trials_each, st.survivors
            )
        };
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
        let (estimate, ci) = shown(space, &e.standing);
        table += &format!(
            "{rank:>4}  {:>3}  {:>4}  {:>8}  {:<15}  {:>5}  {:>6}  {}{}\n",
            group.map_or("-".to_string(), |g| g.to_string()),
            c.cost,
            value(estimate),
            interval(ci),
            e.stage,
            if e.exact { "exact".to_string() } else { e.trials.to_string() },
            c.name,
            if e.alive { "" } else { " (dropped)" }
        );
    }
    s += &table;
    let ties = board.iter().filter(|r| r.2 == Some(1)).count();
    if ties > 1 {
        s += &format!("\n{ties} candidates are tied for first within their intervals (tie group 1).\n");
    }
    s += &format!("\nPareto front (no cheaper {} does better):\n", one(space.noun()));
    for &i in &out.pareto {
        s += &format!(
            "  {:>6} {}  {:>6}  {}\n",
            space.candidates[i].cost,
            R::COST_UNIT,
            format_value(space, false, out.value[i]),
            space.candidates[i].name
        );
    }
    let top: Vec<usize> = board.iter().take(req.top.min(3)).map(|r| r.0).collect();
    for i in top {
        s += &format!("\nmatchups of {}:\n", space.candidates[i].name);
        for (p, (opponent, point)) in race.entrants[i].parts.iter().zip(&out.parts) {
            let (rate, ci) = shown_part(space, p);
            let played =
                if p.exact.is_some() { "exact".to_string() } else { format!("{} {}", p.trials, space.engagement()) };
            s += &format!(
                "  vs {opponent}{}: {} ({}, {played})\n",
                if space.grid.len() > 1 { format!(" at {}", point_text::<R>(point)) } else { String::new() },
                format_value(space, false, rate),
                format_interval(space, false, ci),
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
    let [board, stages] = tables(R::NAME, &space.candidates, out, space.metric, space.max_turns);
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
        "condition_weights": weights_of(space),
        "metric": space.metric.id(),
        "per_cost": args.per_cost,
        "exact_candidates": space.exact_count(),
        "partly_exact_candidates": space.partly_exact_count(),
        "options": space.options.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(),
        "seed": space.config.seed,
        "files": files,
    });
    report.write_manifest(&mut manifest)?;
    let req = args.request();
    let mut charts = Vec::new();
    if !args.no_charts {
        let shown = crate::charts::search::LEADERS_DRAWN.max(req.top);
        let name = space.metric.short();
        let reading = crate::charts::search::Reading { name: &name, share: space.metric.is_share() };
        charts = crate::charts::search::search_charts(&board, req.per_cost, shown, reading);
        crate::charts::write_charts(&charts, &manifest, &report.path().join("charts"))?;
    }
    let field: Vec<String> = space.field.iter().map(|(n, w)| format!("{n} ×{w}")).collect();
    let lines = vec![
        ("ruleset".to_string(), R::LABEL.to_string()),
        ("space".to_string(), format!("{} legal candidates: {}", space.candidates.len(), space.describe())),
        ("field".to_string(), field.join(", ")),
        ("metric".to_string(), metric(space, req.per_cost)),
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
    let show = |x: f64| {
        if req.per_cost { format!("{x:.3} per 100 {}", R::COST_UNIT) } else { format_value(space, false, x) }
    };
    let mut found = Vec::new();
    if let Some(&(i, _, _)) = board.first() {
        let (estimate, ci) = shown(space, &race.entrants[i].standing);
        let first: Vec<&str> =
            board.iter().filter(|r| r.2 == Some(1)).map(|r| space.candidates[r.0].name.as_str()).collect();
        let lead = format!(
            "{} ({} {}) leads: {} [{}, {}] (race-corrected)",
            space.candidates[i].name,
            crate::output::number::tidy(space.candidates[i].cost),
            R::COST_UNIT,
            show(estimate),
            show(ci.low),
            show(ci.high)
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
                format_value(space, false, out.value[i])
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
