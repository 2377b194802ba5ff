//! `volley gauntlet BUILD... --field FIELD`: each build duels every opponent of a field.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::{Args, ValueHint};
use serde_json::json;

use super::progress::Progress;
use super::run_args::RunArgs;
use super::shard::{Mode, RunRecord, ShardRun, command_line};
use super::sweep::TableFormat;
use super::{Invocation, options_line, write_stdout};
use crate::charts::page::{write_column_guide, write_page};
use crate::charts::{ReportKind, ReportTables, draw_report, slug, write_charts};
use crate::output::percent::{percent, percent_interval};
use crate::output::saved_catalogue::{CATALOGUE_DIR, write_catalogue};
use crate::output::wording::{cost, count};
use crate::output::{ReportDir, Table};
use crate::request::gauntlet::{self, GauntletRequest, GauntletSides};
use crate::request::sides::{Sources, sources};
use crate::rules::axis::Point;
use crate::rules::{RuleOptions, Ruleset};
use crate::sweep::column_guide::column_guide;
use crate::sweep::gauntlet::GauntletOutput;
use crate::sweep::run::{axes_json, layout};
use crate::sweep::shard::Plays;

#[derive(Debug, Args)]
pub struct GauntletArgs {
    /// Sides to put through the gauntlet: names or selectors, as in scenarios (`all`; TechCommander `kind:K`, MECHCOM `faction:F`/`squad:S`, Skirmishers `track:T`/`squad:S`, Shellshock `era:E`); with --battle: forces
    #[arg(value_name = "BUILD", required = true)]
    pub builds: Vec<String>,
    /// The field: a [[field]] of the catalogue (its weights say how often each opponent is met) or selectors separated by commas; with --battle, forces separated by commas (a [[force]] name or builds joined by +; a [[field]]'s builds fight as one-unit forces)
    #[arg(long, value_name = "FIELD")]
    pub field: String,
    /// Battles instead of duels: the sides and the field are forces, each matchup a battle of the ruleset's mode (--policy names a battle policy; the turn cap is the mode's, or a battle scenario's)
    #[arg(long)]
    pub battle: bool,
    /// With --battle: the battle mode [default: the ruleset's first; `volley rulesets` lists each ruleset's] (TechCommander's `--mode` is the attack action of duels)
    #[arg(long = "battle-mode", value_name = "MODE", requires = "battle")]
    pub battle_mode: Option<String>,
    /// Play over a scenario's grid, turn cap, policy, seed and trials (its opponents are ignored: the field is the opposition)
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Report directory [default: reports/gauntlet-<field>]
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace the report directory if it exists
    #[arg(long)]
    pub force: bool,
    /// Table formats to write, comma-separated
    #[arg(long, value_enum, value_delimiter = ',', default_value = "parquet,csv")]
    pub format: Vec<TableFormat>,
    /// Skip the charts and the report page
    #[arg(long)]
    pub no_charts: bool,
    #[command(flatten)]
    pub shard: super::shard::ShardArgs,
}

impl GauntletArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> GauntletRequest {
        GauntletRequest {
            sides: self.builds.clone(),
            field: self.field.clone(),
            battle: self.battle,
            mode: self.battle_mode.clone(),
            run: self.run.request(),
        }
    }
}

pub fn run<R: Ruleset>(args: &GauntletArgs, ctx: &Invocation<'_>) -> Result<()> {
    let src = sources::<R>(&ctx.setting.catalogue, args.scenario.as_deref())?;
    let choice = super::shard::choose(&args.shard, &|name| std::env::var(name).ok())?;
    play::<R>(args, ctx, &src, choice.as_ref().map_or(Mode::Whole, Mode::Shard))
}

/// Play a gauntlet on `src` in `mode`: whole (its report), one shard (a shard
/// directory), or merged from its shards' tallies (its report).
///
/// # Errors
/// What the gauntlet or writing fails with.
pub fn play<R: Ruleset>(
    args: &GauntletArgs,
    ctx: &Invocation<'_>,
    src: &Sources<R::Catalogue>,
    mode: Mode<'_>,
) -> Result<()> {
    let plan = gauntlet::plan::<R>(&ctx.setting, &args.request(), src)?;
    if let Some(out) = &args.out {
        crate::output::report_dir::refuse_inputs(out, &src.inputs)?;
    }
    let cat = &src.catalogue;
    let sink = Sink::start(args, mode, &plan.config)?;
    let progress = Progress::new(args.run.quiet);
    let out = plan.run(cat, &progress, sink.plays())?;
    progress.finish();
    let report = match sink {
        Sink::Report(report, _) => report,
        Sink::Shard(shard) => {
            return shard.finish::<R>(record::<R>(args, src, &plan.options)?, cat, &plan.config, args.run.quiet);
        }
    };
    let (names, field, policy, max_turns, battle) = match &plan.sides {
        GauntletSides::Duels { builds, field, policy, max_turns } => {
            (builds.clone(), field.clone(), policy.to_string(), json!(max_turns), None)
        }
        GauntletSides::Battles { forces, field, mode, policy, max_turns } => {
            let policy = policy.clone().unwrap_or_else(|| R::BATTLE_POLICIES.first().unwrap_or(&"").to_string());
            let battle = json!({
                "mode": mode, "policy": policy, "max_turns": max_turns,
                "forces": forces.iter().map(|f| json!({ "name": f.name, "canonical": f.canonical() })).collect::<Vec<_>>(),
                "field": field.iter().map(|(f, w)| json!({ "name": f.name, "canonical": f.canonical(), "weight": w })).collect::<Vec<_>>(),
                "draws": "draws and undecided battles count as draws",
            });
            let names = forces.iter().map(|f| f.name.clone()).collect();
            let named = field.iter().map(|(f, w)| (f.name.clone(), *w)).collect();
            (names, named, policy, json!(max_turns), Some(battle))
        }
    };
    let run = Run {
        grid: &plan.grid,
        weights: &plan.point_weights,
        options: &plan.options,
        policy: &policy,
        max_turns,
        scenario_name: plan.scenario_name.clone(),
        config: &plan.config,
        battle,
        catalogue: src.files.clone(),
    };
    finish::<R>(args, cat, report, &out, &names, &field, run)
}

/// Where a gauntlet's tallies come from and its results go: a report (the tallies of
/// every stream, or the shards' merged ones) or a shard directory.
enum Sink<'a> {
    Report(ReportDir, PlaysRef<'a>),
    Shard(ShardRun),
}

/// The plays of a report: its own (every stream) or a merge's.
enum PlaysRef<'a> {
    Own(Plays<'static>),
    Merged(&'a Plays<'a>),
}

impl<'a> Sink<'a> {
    /// Create the report directory (`--out`, else `reports/gauntlet-<field>`) or the
    /// shard directory (`--out`, else `reports/gauntlet-<field>-shards/shard-K-of-N`).
    fn start(args: &GauntletArgs, mode: Mode<'a>, config: &crate::engine::RunConfig) -> Result<Sink<'a>> {
        let name = format!("gauntlet-{}", slug(&args.field));
        let report = |plays| -> Result<Sink<'a>> {
            let destination = args.out.clone().unwrap_or_else(|| Path::new("reports").join(&name));
            Ok(Sink::Report(ReportDir::create(&destination, args.force)?, plays))
        };
        match mode {
            Mode::Whole => report(PlaysRef::Own(Plays::all())),
            Mode::Merged(p) => report(PlaysRef::Merged(p)),
            Mode::Shard(choice) => {
                Ok(Sink::Shard(ShardRun::start(choice, &name, args.out.as_deref(), args.force, config)?))
            }
        }
    }

    fn plays(&self) -> &Plays<'_> {
        match self {
            Sink::Report(_, PlaysRef::Own(p)) => p,
            Sink::Report(_, PlaysRef::Merged(p)) => p,
            Sink::Shard(s) => s.plays(),
        }
    }
}

/// What a gauntlet's shard directory records of its run.
fn record<'s, R: Ruleset>(
    args: &GauntletArgs,
    src: &'s Sources<R::Catalogue>,
    options: &R::Options,
) -> Result<RunRecord<'s>> {
    let (scenario_file, scenario_text) = src.scenario_record();
    Ok(RunRecord {
        command: "gauntlet",
        args: command_line()?,
        name: format!("gauntlet-{}", slug(&args.field)),
        scenario_file,
        scenario_text,
        options: options.pairs(),
        vary: serde_json::Value::Null,
        catalogue_origin: src.origin.clone(),
        catalogue_files: &src.files,
        state_text: String::new(),
        exact_text: String::new(),
    })
}

/// What a gauntlet played, for its manifest.
struct Run<'a, R: Ruleset> {
    grid: &'a [Point],
    /// The grid points' weights (adding to 1), or empty: every point alike.
    weights: &'a [f64],
    options: &'a R::Options,
    policy: &'a str,
    max_turns: serde_json::Value,
    scenario_name: Option<String>,
    config: &'a crate::engine::RunConfig,
    /// The catalogue's source files, saved in the report.
    catalogue: Vec<crate::catalogue::source::SourceFile>,
    /// Battle gauntlets: mode, policy, cap and the forces.
    battle: Option<serde_json::Value>,
}

/// Write a gauntlet's tables, manifest, charts and page, and print its summary.
fn finish<R: Ruleset>(
    args: &GauntletArgs,
    cat: &R::Catalogue,
    report: ReportDir,
    out: &GauntletOutput,
    builds: &[String],
    field: &[(String, f64)],
    run: Run<'_, R>,
) -> Result<()> {
    let Run { grid, weights, options, policy, max_turns, scenario_name, config, battle, catalogue } = run;
    let condition_weights: Vec<f64> =
        (0..grid.len()).map(|i| crate::sweep::gauntlet::point_weight(weights, i, grid.len())).collect();
    let ranges = {
        let mut r: Vec<&str> = grid.iter().map(|p| p.get(crate::rules::axis::RANGE_AXIS)).collect();
        r.sort_unstable();
        r.dedup();
        r.len()
    };
    let saved = write_catalogue(report.path(), &catalogue)?;
    let mut files = Vec::new();
    for f in &args.format {
        let e = f.exporter();
        for (name, t) in [("gauntlet_summary", &out.summary), ("gauntlet_matchups", &out.matchups)] {
            let file = format!("{name}.{}", e.extension());
            e.write(t, &report.path().join(&file))?;
            files.push(file);
        }
    }
    let manifest = json!({
        "volley_version": env!("CARGO_PKG_VERSION"),
        "kind": ReportKind::Gauntlet.name(),
        "ruleset": R::NAME,
        "ruleset_label": R::LABEL,
        "turn": R::TURN,
        "cost_unit": R::COST_UNIT,
        "axes": axes_json(R::axes(), &|n| {
            let mut v: Vec<String> = grid.iter().map(|p| p.get(n).to_string()).collect();
            v.sort();
            v.dedup();
            v
        }),
        "target_columns": layout::<R>().target_columns.iter().map(|c| c.name).collect::<Vec<_>>(),
        "options": options.pairs().into_iter().map(|(n, v)| (n, serde_json::Value::from(v))).collect::<serde_json::Map<_, _>>(),
        "scenario": { "name": format!("gauntlet {}", args.field), "source": scenario_name },
        "builds": builds,
        "field": field.iter().map(|(b, w)| json!({ "build": b, "weight": w })).collect::<Vec<_>>(),
        "conditions": grid.iter().map(|p| p.key()).collect::<Vec<_>>(),
        "condition_weights": condition_weights,
        "policy": policy,
        "max_turns": max_turns,
        "seed": config.seed,
        "trials_per_cell": match config.trials {
            crate::engine::Trials::Fixed(n) => json!({ "fixed": n }),
            crate::engine::Trials::Precision { half_width, max } => json!({ "precision": half_width, "max_trials": max }),
        },
        "cells": out.cells,
        "engagements": out.engagements,
        "wall_seconds": out.seconds,
        "engagements_per_second": out.engagements as f64 / out.seconds.max(1e-9),
        "catalogue": {
            "origin": R::origin(cat).0, "hash": R::origin(cat).1,
            "saved": { "dir": CATALOGUE_DIR, "files": saved },
        },
        "files": files,
    });
    let mut manifest = manifest;
    if let Some(b) = battle {
        manifest.as_object_mut().expect("an object").insert("battle".into(), b);
    }
    report.write_manifest(&mut manifest)?;
    super::signals::check()?;
    write_column_guide(report.path(), &column_guide())?;
    if !args.no_charts {
        let tables = ReportTables::from_named(&[
            ("gauntlet_summary", out.summary.clone()),
            ("gauntlet_matchups", out.matchups.clone()),
        ]);
        let drawn = draw_report(ReportKind::Gauntlet, &tables, &manifest)?;
        write_charts(&drawn.charts, &manifest, &report.path().join("charts"))?;
        write_page(report.path(), &drawn.page, &drawn.findings, &drawn.charts)?;
    }
    super::signals::check()?;
    let written = report.commit()?;
    let one_sided: String = out.one_sided.iter().map(|w| format!("{w}\n")).collect();
    write_stdout(&(options_line(options) + &one_sided + &summary_text(&out.summary, R::COST_UNIT, ranges > 1)))?;
    if !args.run.quiet {
        eprintln!(
            "wrote {} ({}, {} in {:.1} s)",
            written.display(),
            count(out.cells as u64, "cell"),
            count(out.engagements, if args.battle { "battle" } else { "duel" }),
            out.seconds
        );
    }
    Ok(())
}

/// The fewest decimals (at least one) at which the numbers of `values` that differ all
/// read differently and none that is not 0 reads as 0.
fn telling_decimals(values: &[f64]) -> usize {
    let text = |v: f64, d: usize| format!("{:.*}", d, v);
    (1..12)
        .find(|&d| {
            values.iter().all(|&v| v == 0.0 || !v.is_finite() || !text(v, d).trim_start_matches(['0', '.']).is_empty())
                && values.iter().enumerate().all(|(i, &v)| {
                    values[i + 1..]
                        .iter()
                        .all(|&w| v == w || !v.is_finite() || !w.is_finite() || text(v, d) != text(w, d))
                })
        })
        .unwrap_or(12)
}

/// The summary for people; `by_range`: a column with each build's best range (when the
/// grid has several ranges). Wins per 100 cost units are a count of wins, not a
/// probability: printed without `%`, with their 95% interval and the builds tied with
/// each per cost.
fn summary_text(summary: &Table, unit: &str, by_range: bool) -> String {
    let per_100 = |i: usize, c: &str| 100.0 * summary.float(i, c).unwrap_or(f64::NAN);
    let all: Vec<f64> = (0..summary.rows.len())
        .flat_map(|i| {
            ["p_win_per_point", "p_win_per_point_ci95_low", "p_win_per_point_ci95_high"].map(|c| per_100(i, c))
        })
        .collect();
    let d = telling_decimals(&all);
    let number = |x: f64| if x.is_finite() { format!("{x:.d$}") } else { "-".into() };
    let per_100_title = format!("wins per 100 {unit}");
    let mut titles =
        vec!["build", "points", "win", "win_ci95", per_100_title.as_str(), "per_100_ci95", "tied per cost with"];
    titles.extend(["draw", "loss", "best matchup", "worst matchup"]);
    if by_range {
        titles.push("best range");
    }
    let mut t = Table::new(titles);
    for i in 0..summary.rows.len() {
        let f = |c: &str| summary.float(i, c).unwrap_or(f64::NAN);
        let tied = summary.text(i, "p_win_per_point_tied_with").filter(|x| !x.is_empty()).unwrap_or("-");
        let mut row = vec![
            summary.text(i, "build").unwrap_or("").into(),
            cost(f("points")).into(),
            percent(f("weighted_p_win")).into(),
            percent_interval(f("weighted_p_win_ci95_low"), f("weighted_p_win_ci95_high")).into(),
            number(per_100(i, "p_win_per_point")).into(),
            format!(
                "{} to {}",
                number(per_100(i, "p_win_per_point_ci95_low")),
                number(per_100(i, "p_win_per_point_ci95_high"))
            )
            .into(),
            tied.into(),
            percent(f("weighted_p_draw")).into(),
            percent(f("weighted_p_loss")).into(),
            format!("{} ({})", summary.text(i, "best_matchup").unwrap_or(""), percent(f("best_p_win"))).into(),
            format!("{} ({})", summary.text(i, "worst_matchup").unwrap_or(""), percent(f("worst_p_win"))).into(),
        ];
        if by_range {
            let tied = summary.text(i, "best_range_tied_with").unwrap_or("");
            let tie = if tied.is_empty() { String::new() } else { format!("; a statistical tie with {tied}") };
            row.push(
                format!("{} ({}{tie})", summary.text(i, "best_range").unwrap_or("-"), percent(f("best_range_p_win")))
                    .into(),
            );
        }
        t.push(row);
    }
    let field_points = summary.float(0, "field_points").unwrap_or(f64::NAN);
    format!(
        "the field costs {} {unit} on average (weighted by how often each opponent is met); wins per 100 {unit} = 100 × weighted win rate / the build's cost (a count of wins, not a percentage), its 95% interval the win rate's scaled alike\n{}{}",
        cost(field_points),
        per_cost_verdict(summary, unit),
        t.to_text(3)
    )
}

/// The line saying which build wins most per cost, and whether it is tied with others
/// (empty with fewer than two builds).
fn per_cost_verdict(summary: &Table, unit: &str) -> String {
    let mut order: Vec<usize> =
        (0..summary.rows.len()).filter(|&i| summary.float(i, "p_win_per_point").is_some_and(f64::is_finite)).collect();
    if order.len() < 2 {
        return String::new();
    }
    order.sort_by(|&a, &b| {
        let v = |i: usize| summary.float(i, "p_win_per_point").unwrap_or(f64::NAN);
        v(b).total_cmp(&v(a))
    });
    let top = order[0];
    let name = summary.text(top, "build").unwrap_or("?");
    let tied = summary.text(top, "p_win_per_point_tied_with").unwrap_or("");
    if tied.is_empty() {
        format!(
            "most wins per 100 {unit}: {name}, better per cost than every other build (each difference's 95% interval excludes 0)\n"
        )
    } else {
        format!("most wins per 100 {unit}: {name}, a statistical tie per cost with {tied} (sidegrade)\n")
    }
}
