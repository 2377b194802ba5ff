//! Running a scenario: compile every cell once, play them all through the engine, and
//! build the result tables. Generic over the ruleset: the common tables
//! (`time_to_kill`, `ttk_by_turn`, `duels`, `cost_efficiency`) have the same shape for
//! every game, and the ruleset adds its detail tables.

use std::collections::HashSet;
use std::time::Instant;

use rayon::prelude::*;
use serde_json::{Value, json};

use crate::engine::{Cell, Observer, RunConfig, Trials, cell_key};
use crate::output::Table;
use crate::rules::axis::{AxisSpec, Point};
use crate::rules::ruleset::{CostChart, DetailChart, Role, RuleOptions, Ruleset};

use super::cells::CellSpec;
use super::scenario::{Engagement, Resolved, Scenario};
use super::shard::Plays;
use super::tables::{self, Layout, ReportKind, Sides};

/// A finished sweep: its tables (name, rows) and what was run.
pub struct SweepOutput {
    pub tables: Vec<(&'static str, Table)>,
    pub manifest: Value,
    pub cells: usize,
    pub engagements: u64,
    pub seconds: f64,
}

/// One attack-run cell's rows of each table, built apart and appended in cell order.
struct CellRows {
    details: Vec<Table>,
    ttk: Table,
    by_turn: Table,
    cost: Table,
}

/// The axes of a ruleset for a manifest: name, kind, label, unit, and the values a
/// grid plays (canonical text, in the ruleset's order).
pub fn axes_json(axes: &[AxisSpec], values: &dyn Fn(&str) -> Vec<String>) -> Value {
    Value::Array(
        axes.iter()
            .map(|a| {
                let mut v = values(a.name);
                v.sort_by(|x, y| a.order(x).total_cmp(&a.order(y)));
                json!({
                    "name": a.name, "kind": a.kind_name(), "label": a.label, "unit": a.unit,
                    "names": a.names(), "values": v,
                })
            })
            .collect(),
    )
}

/// The detail charts of a ruleset for a manifest.
fn detail_charts_json(charts: &[DetailChart]) -> Value {
    Value::Array(
        charts
            .iter()
            .map(|c| {
                json!({
                    "name": c.name, "table": c.table, "value": c.value, "value_label": c.value_label, "per": c.per,
                    "rows": c.rows, "row_order": c.row_order, "row_order_label": c.row_order_label,
                    "x_axes": c.x_axes, "panel_axis": c.panel_axis,
                })
            })
            .collect(),
    )
}

/// The cost charts of a ruleset for a manifest.
fn cost_charts_json(charts: &[CostChart]) -> Value {
    Value::Array(
        charts
            .iter()
            .map(|c| {
                json!({
                    "name": c.name, "column": c.column, "weapons": c.weapons, "title": c.title,
                    "value_label": c.value_label, "finding": c.finding, "unit": c.unit,
                    "note": c.note.map(|(column, word)| json!({ "column": column, "word": word })),
                })
            })
            .collect(),
    )
}

/// The table layout of ruleset `R`.
pub fn layout<R: Ruleset>() -> Layout {
    Layout { ruleset: R::NAME, target_columns: R::target_columns(), axes: R::axes() }
}

pub use super::scenario::all_specs;

/// Run `scenario` (resolved against `catalogue`) with `config` (seed, trials, threads).
///
/// # Errors
/// A cell the ruleset refuses to play, or a cancelled run.
pub fn run_sweep<R: Ruleset>(
    scenario: &Scenario,
    resolved: &Resolved,
    catalogue: &R::Catalogue,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<SweepOutput, String> {
    run_sweep_with::<R>(scenario, resolved, catalogue, config, observer, &[], &Plays::all())
}

/// As [`run_sweep`], with `key_extra` (name, value) pairs added to every cell key after
/// the ruleset's options (a sensitivity sweep's varied values; empty = the plain keys).
///
/// # Errors
/// As [`run_sweep`].
pub fn run_sweep_keyed<R: Ruleset>(
    scenario: &Scenario,
    resolved: &Resolved,
    catalogue: &R::Catalogue,
    config: &RunConfig,
    observer: &dyn Observer,
    key_extra: &[(String, String)],
) -> Result<SweepOutput, String> {
    run_sweep_with::<R>(scenario, resolved, catalogue, config, observer, key_extra, &Plays::all())
}

/// As [`run_sweep_keyed`], with the tallies from `plays`: every stream, one shard's share
/// (the tables then hold that share only), or the merged shards (see [`super::shard`]).
///
/// # Errors
/// As [`run_sweep`], and what [`Plays::run`] refuses.
pub fn run_sweep_with<R: Ruleset>(
    scenario: &Scenario,
    resolved: &Resolved,
    catalogue: &R::Catalogue,
    config: &RunConfig,
    observer: &dyn Observer,
    key_extra: &[(String, String)],
    plays: &Plays<'_>,
) -> Result<SweepOutput, String> {
    let start = Instant::now();
    let specs = all_specs::<R>();
    let points: Vec<(Point, R::Conditions)> = scenario
        .grid
        .expand(&specs, &[])
        .map_err(|e| e.join("; "))?
        .into_iter()
        .map(|p| {
            let c = R::conditions(&p)?;
            R::check_engagement(&c)?;
            Ok((p, c))
        })
        .collect::<Result<_, String>>()?;
    let options = scenario.rule_options::<R>()?;
    let option_pairs = options.pairs();
    // A battle scenario's policy is a battle policy, read by the ruleset's battles.
    let policy: R::Policy =
        if scenario.engagement == Engagement::Battle { R::Policy::default() } else { scenario.policy.parse()? };
    let key_pairs: Vec<(String, String)> = option_pairs.iter().chain(key_extra).cloned().collect();
    let key =
        CellSpec { ruleset: R::NAME, options: &key_pairs, policy: &scenario.policy, max_turns: scenario.max_turns };
    let l = layout::<R>();
    let details = R::detail_tables();
    let mut detail_tables: Vec<Table> = details.iter().map(|d| tables::detail(&l, d)).collect();
    let mut cost = tables::cost_efficiency(&l, &R::cost_attacker_columns(), &R::cost_value_columns());
    let name = |role, n: &str| R::display_name(catalogue, role, n);
    let points_of = |n: &str| R::points(catalogue, n);
    let mut battle_manifest = None;
    let (mut out, cells, engagements) = match scenario.engagement {
        Engagement::AttackRun => {
            // Each attacker and target once: names as tables show them, points, target cells.
            struct Pair<'n> {
                a: &'n str,
                t: &'n str,
                shown: (String, String),
                points: (f64, f64),
                target_cells: Vec<crate::output::Cell>,
            }
            let mut pairs = Vec::new();
            for a in &resolved.attackers {
                for t in &resolved.targets {
                    pairs.push(Pair {
                        a,
                        t,
                        shown: (name(Role::Attacker, a)?, name(Role::Target, t)?),
                        points: (points_of(a)?, points_of(t)?),
                        target_cells: R::target_cells(catalogue, t),
                    });
                }
            }
            // Compiled in parallel, in (pair, point) order; the first error in that order
            // is the one reported, as a serial loop would.
            let order: Vec<(usize, usize)> =
                (0..pairs.len()).flat_map(|qi| (0..points.len()).map(move |pi| (qi, pi))).collect();
            let compile = |&(qi, pi): &(usize, usize)| {
                let (q, (p, c)) = (&pairs[qi], &points[pi]);
                let kernel = R::attack_run(catalogue, q.a, q.t, c, &options, policy, scenario.max_turns)
                    .map_err(|e| format!("{} vs {}: {e}", q.a, q.t))?;
                Ok((qi, pi, kernel, cell_key(&key.attack_run(&q.shown.0, &q.shown.1, p))))
            };
            let cells_spec = crate::engine::install(config.threads, || {
                order.par_iter().map(compile).collect::<Vec<Result<_, String>>>()
            })?
            .into_iter()
            .collect::<Result<Vec<_>, String>>()?;
            let cells: Vec<Cell<'_, R::AttackRun>> =
                cells_spec.iter().map(|s| Cell { key: s.3, kernel: &s.2 }).collect();
            let tallies = plays.run(&cells, config, observer)?;
            if !plays.wants_tables() {
                return Ok(SweepOutput::played(cells.len(), tallies.iter().map(|t| t.trials).sum(), start));
            }
            let mut ttk = tables::time_to_kill(&l);
            let mut by_turn = tables::ttk_by_turn(&l);
            let engagements = tallies.iter().map(|t| t.trials).sum();
            // Each cell's rows (its exact chain, detail and cost rows) are built in
            // parallel into empty copies of the tables, then appended in cell order: the
            // tables are those a serial loop builds.
            let empty = |t: &Table| Table { rows: Vec::new(), ..t.clone() };
            let parts = crate::engine::install(config.threads, || {
                cells_spec
                    .par_iter()
                    .zip(&tallies)
                    .map(|((qi, pi, kernel, _), tally)| {
                        let (q, (p, c)) = (&pairs[*qi], &points[*pi]);
                        let exact = R::exact_run(kernel);
                        let sd = Sides {
                            attacker: &q.shown.0,
                            attacker_points: q.points.0,
                            target: &q.shown.1,
                            target_cells: &q.target_cells,
                            target_points: q.points.1,
                        };
                        let mut part = CellRows {
                            details: detail_tables.iter().map(empty).collect(),
                            ttk: empty(&ttk),
                            by_turn: empty(&by_turn),
                            cost: empty(&cost),
                        };
                        for (i, table) in part.details.iter_mut().enumerate() {
                            tables::push_detail(
                                table,
                                &l,
                                &sd,
                                p,
                                R::detail_rows(i, catalogue, q.a, q.t, c, &options)?,
                            );
                        }
                        let summary = tally.summary();
                        let notes = (R::run_played(kernel), R::run_notes(kernel));
                        tables::push_time_to_kill(&mut part.ttk, &l, &sd, p, tally, &exact, (&notes.0, &notes.1));
                        tables::push_ttk_by_turn(&mut part.by_turn, &l, &sd, p, &summary, &exact);
                        let rows = R::cost_rows(catalogue, q.a, q.t, c, &options, kernel, policy, scenario.max_turns)?;
                        tables::push_cost_rows(&mut part.cost, &l, &sd, p, rows, &exact, Some(tally));
                        Ok(part)
                    })
                    .collect::<Result<Vec<CellRows>, String>>()
            })??;
            for part in parts {
                for (table, rows) in detail_tables.iter_mut().zip(part.details) {
                    table.rows.extend(rows.rows);
                }
                ttk.rows.extend(part.ttk.rows);
                by_turn.rows.extend(part.by_turn.rows);
                cost.rows.extend(part.cost.rows);
            }
            (vec![("time_to_kill", ttk), ("ttk_by_turn", by_turn)], cells_spec.len(), engagements)
        }
        Engagement::Duel => {
            let mut cells_spec = Vec::new();
            for a in &resolved.attackers {
                for b in &resolved.opponents {
                    for (pi, (p, c)) in points.iter().enumerate() {
                        let kernel = R::duel(catalogue, a, b, c, &options, policy, scenario.max_turns)
                            .map_err(|e| format!("{a} vs {b}: {e}"))?;
                        cells_spec.push((a, b, pi, kernel, cell_key(&key.duel(a, b, p))));
                    }
                }
            }
            let cells: Vec<Cell<'_, R::Duel>> = cells_spec.iter().map(|s| Cell { key: s.4, kernel: &s.3 }).collect();
            let tallies = plays.run(&cells, config, observer)?;
            if !plays.wants_tables() {
                return Ok(SweepOutput::played(cells.len(), tallies.iter().map(|t| t.trials).sum(), start));
            }
            let mut duels = tables::duels(&l);
            let mut engagements = 0;
            let mut seen = HashSet::new();
            for ((a, b, pi, kernel, _), tally) in cells_spec.iter().zip(&tallies) {
                let (p, c) = &points[*pi];
                engagements += tally.trials;
                let exact = R::exact_duel(kernel);
                let can = super::reach::duel_reach::<R>(catalogue, a, b, c, &options);
                tables::push_duel(&mut duels, &l, [(a, points_of(a)?), (b, points_of(b)?)], p, tally, exact, can);
                // Per-attack odds and exact cost efficiency of each side against the other.
                for (x, y) in [(*a, *b), (*b, *a)] {
                    if !seen.insert((x.clone(), y.clone(), *pi)) {
                        continue;
                    }
                    let target = R::as_target(y);
                    let run = R::attack_run(catalogue, x, &target, c, &options, policy, scenario.max_turns)
                        .map_err(|e| format!("{x}: {e}"))?;
                    let target_cells = R::target_cells(catalogue, &target);
                    let sd = Sides {
                        attacker: x,
                        attacker_points: points_of(x)?,
                        target: y,
                        target_cells: &target_cells,
                        target_points: points_of(&target)?,
                    };
                    for (i, table) in detail_tables.iter_mut().enumerate() {
                        tables::push_detail(table, &l, &sd, p, R::detail_rows(i, catalogue, x, &target, c, &options)?);
                    }
                    let rows = R::cost_rows(catalogue, x, &target, c, &options, &run, policy, scenario.max_turns)?;
                    tables::push_cost_rows(&mut cost, &l, &sd, p, rows, &R::exact_run(&run), None);
                }
            }
            (vec![("duels", duels)], cells_spec.len(), engagements)
        }
        Engagement::Battle => {
            let spec = scenario.battle.as_ref().ok_or("a battle scenario without its battle keys")?;
            let b = super::battles::run_battles::<R>(
                spec, resolved, catalogue, &points, &options, key_extra, &l, config, observer, plays,
            )?;
            battle_manifest = Some(b.manifest);
            (b.tables, b.cells, b.engagements)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    // Battle sweeps write their own tables only: no single attacker or target.
    let mut all: Vec<(&'static str, Table)> = if scenario.engagement == Engagement::Battle {
        Vec::new()
    } else {
        details.iter().map(|d| d.name).zip(detail_tables).collect()
    };
    all.append(&mut out);
    if scenario.engagement != Engagement::Battle {
        all.push(("cost_efficiency", cost));
    }
    let kind = match scenario.engagement {
        Engagement::AttackRun => ReportKind::AttackRunSweep,
        Engagement::Duel => ReportKind::DuelSweep,
        Engagement::Battle => ReportKind::BattleSweep,
    };
    let (origin, hash) = R::origin(catalogue);
    let mut manifest = json!({
        "volley_version": env!("CARGO_PKG_VERSION"),
        "kind": kind.name(),
        "ruleset": R::NAME,
        "ruleset_label": R::LABEL,
        "turn": R::TURN,
        "cost_unit": R::COST_UNIT,
        "axes": axes_json(R::axes(), &|n| scenario.grid.values(n).to_vec()),
        "detail_charts": detail_charts_json(&R::detail_charts()),
        "cost_charts": cost_charts_json(&R::cost_charts()),
        "options": option_pairs.iter().map(|(n, v)| (n.clone(), Value::from(v.clone()))).collect::<serde_json::Map<_, _>>(),
        "scenario": tables::scenario_json(scenario),
        "scenario_file": scenario.file,
        "seed": config.seed,
        "trials_per_cell": match config.trials {
            Trials::Fixed(n) => json!({ "fixed": n }),
            Trials::Precision { half_width, max } => json!({ "precision": half_width, "max_trials": max }),
        },
        "cells": cells,
        "engagements": engagements,
        "wall_seconds": seconds,
        "engagements_per_second": if seconds > 0.0 { engagements as f64 / seconds } else { 0.0 },
        "threads": config.threads.unwrap_or_else(rayon::current_num_threads),
        "catalogue": { "origin": origin, "hash": hash },
        "attackers": resolved.attackers,
        "targets": resolved.targets,
        "opponents": resolved.opponents,
        "tables": all.iter().map(|(n, t)| json!({ "name": n, "rows": t.rows.len(), "columns": t.columns })).collect::<Vec<_>>(),
    });
    if let Some(b) = battle_manifest {
        manifest.as_object_mut().expect("an object").insert("battle".into(), b);
    }
    Ok(SweepOutput { tables: all, manifest, cells, engagements, seconds })
}
