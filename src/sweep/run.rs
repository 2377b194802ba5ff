//! Running a scenario: compile every cell once, play them all through the engine, and
//! build the result tables.

use std::time::Instant;

use serde_json::json;

use crate::engine::{Cell, Observer, RunConfig, Trials, cell_key, run};
use crate::output::Table;
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::compiled::FC_NORMAL;
use crate::rules::techcommander::{AttackRun, Attacker, Duel, Target, all_odds};

use super::cells::{attack_run_key, duel_key, expand};
use super::scenario::{Engagement, Resolved, Scenario};
use super::tables::{self, ReportKind};

/// A finished sweep: its tables (name, rows) and what was run.
pub struct SweepOutput {
    pub tables: Vec<(&'static str, Table)>,
    pub manifest: serde_json::Value,
    pub cells: usize,
    pub engagements: u64,
    pub seconds: f64,
}

/// Run `scenario` (already resolved) with `config` (seed, trials, threads).
pub fn run_sweep(
    scenario: &Scenario,
    resolved: &Resolved,
    catalogue: &Catalogue,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<SweepOutput, String> {
    let start = Instant::now();
    let grid = expand(&scenario.grid);
    let attackers: Vec<(Attacker, Target, f64, f64)> = resolved
        .attackers
        .iter()
        .map(|n| {
            let b = catalogue.build(n).expect("resolved");
            (Attacker::from_build(catalogue, b), Target::from_build(catalogue, b), b.weight, b.power)
        })
        .collect();
    let mut hit = tables::hit_probability();
    let mut cost = tables::cost_efficiency();
    let (mut out, cells, engagements) = match scenario.engagement {
        Engagement::AttackRun => {
            let targets: Vec<Target> =
                resolved.targets.iter().map(|t| t.resolve(catalogue).expect("resolved")).collect();
            let mut specs = Vec::new();
            for (ai, a) in attackers.iter().enumerate() {
                for (ti, t) in targets.iter().enumerate() {
                    for c in &grid {
                        let kernel = AttackRun::new(
                            &a.0,
                            t,
                            c,
                            &crate::rules::techcommander::Options::default(),
                            scenario.policy,
                            scenario.max_turns,
                        )
                        .map_err(|e| format!("{} vs {}: {e}", a.0.name, t.name))?;
                        let key = cell_key(&attack_run_key(&a.0.name, &t.name, c, scenario.policy, scenario.max_turns));
                        specs.push((ai, ti, *c, kernel, key));
                    }
                }
            }
            let cells: Vec<Cell<'_, AttackRun>> = specs.iter().map(|s| Cell { key: s.4, kernel: &s.3 }).collect();
            let tallies = run(&cells, config, observer)?;
            let mut ttk = tables::time_to_kill();
            let mut by_turn = tables::ttk_by_turn();
            let mut engagements = 0;
            for ((ai, ti, c, kernel, _), tally) in specs.iter().zip(&tallies) {
                let (a, t) = (&attackers[*ai], &targets[*ti]);
                let exact = kernel.exact();
                engagements += tally.trials;
                let (odds, summary) =
                    (all_odds(&a.0, t, c, &crate::rules::techcommander::Options::default()), tally.summary());
                tables::push_hit_probability(&mut hit, &a.0, t, c, &odds);
                tables::push_time_to_kill(&mut ttk, &a.0, t, c, tally, &summary, &exact);
                tables::push_ttk_by_turn(&mut by_turn, &a.0, t, c, &summary, &exact);
                let first = first_turn_losses(kernel);
                tables::push_cost_efficiency(&mut cost, &a.0, a.2, a.3, t, c, &odds, &first, &exact, Some(tally));
            }
            (vec![("time_to_kill", ttk), ("ttk_by_turn", by_turn)], specs.len(), engagements)
        }
        Engagement::Duel => {
            let opponents: Vec<(Attacker, Target)> = resolved
                .opponents
                .iter()
                .map(|n| {
                    let b = catalogue.build(n).expect("resolved");
                    (Attacker::from_build(catalogue, b), Target::from_build(catalogue, b))
                })
                .collect();
            let mut specs = Vec::new();
            for (ai, a) in attackers.iter().enumerate() {
                for (bi, b) in opponents.iter().enumerate() {
                    for c in &grid {
                        let kernel = Duel::new(
                            (&a.0, &a.1),
                            (&b.0, &b.1),
                            c,
                            &crate::rules::techcommander::Options::default(),
                            scenario.policy,
                            scenario.max_turns,
                        )
                        .map_err(|e| format!("{} vs {}: {e}", a.0.name, b.0.name))?;
                        let key = cell_key(&duel_key(&a.0.name, &b.0.name, c, scenario.policy, scenario.max_turns));
                        specs.push((ai, bi, *c, kernel, key));
                    }
                }
            }
            let cells: Vec<Cell<'_, Duel>> = specs.iter().map(|s| Cell { key: s.4, kernel: &s.3 }).collect();
            let tallies = run(&cells, config, observer)?;
            let mut duels = tables::duels();
            let mut engagements = 0;
            let mut seen_odds = std::collections::HashSet::new();
            for ((ai, bi, c, _, _), tally) in specs.iter().zip(&tallies) {
                let (a, b) = (&attackers[*ai], &opponents[*bi]);
                engagements += tally.trials;
                tables::push_duel(&mut duels, &a.0, &b.0, c, tally);
                // Per-action odds and exact cost efficiency of each side against the other.
                for (x, y) in [(&a.0, &b.1), (&b.0, &a.1)] {
                    let key = (x.name.clone(), y.name.clone(), super::cells::conditions_key(c));
                    if !seen_odds.insert(key) {
                        continue;
                    }
                    let odds = all_odds(x, y, c, &crate::rules::techcommander::Options::default());
                    tables::push_hit_probability(&mut hit, x, y, c, &odds);
                    let run = AttackRun::new(
                        x,
                        y,
                        c,
                        &crate::rules::techcommander::Options::default(),
                        scenario.policy,
                        scenario.max_turns,
                    )
                    .map_err(|e| format!("{}: {e}", x.name))?;
                    let (w, p) = build_weight(catalogue, &x.name);
                    tables::push_cost_efficiency(
                        &mut cost,
                        x,
                        w,
                        p,
                        y,
                        c,
                        &odds,
                        &first_turn_losses(&run),
                        &run.exact(),
                        None,
                    );
                }
            }
            (vec![("duels", duels)], specs.len(), engagements)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut all = vec![("hit_probability", hit)];
    all.append(&mut out);
    all.push(("cost_efficiency", cost));
    let kind = match scenario.engagement {
        Engagement::AttackRun => ReportKind::AttackRunSweep,
        Engagement::Duel => ReportKind::DuelSweep,
    };
    let manifest = json!({
        "volley_version": env!("CARGO_PKG_VERSION"),
        "kind": kind.name(),
        "ruleset": "techcommander",
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
        "catalogue": { "origin": catalogue.origin, "hash": catalogue.hash },
        "attackers": resolved.attackers,
        "targets": resolved.targets.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "opponents": resolved.opponents,
        "tables": all.iter().map(|(n, t)| json!({ "name": n, "rows": t.rows.len(), "columns": t.columns })).collect::<Vec<_>>(),
    });
    Ok(SweepOutput { tables: all, manifest, cells, engagements, seconds })
}

/// Expected life lost by each attack the plan makes on turn 1.
fn first_turn_losses(run: &AttackRun) -> Vec<f64> {
    run.plan
        .iter()
        .filter(|s| s.turn == 0)
        .map(|s| {
            run.side.specs[FC_NORMAL][s.system as usize].as_ref().map_or(0.0, |spec| spec.odds().expected_life_loss)
        })
        .collect()
}

fn build_weight(catalogue: &Catalogue, name: &str) -> (f64, f64) {
    catalogue.build(name).map_or((0.0, 0.0), |b| (b.weight, b.power))
}
