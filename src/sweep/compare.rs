//! Paired comparisons of two builds over the same matchups (opponents or targets, times
//! conditions), each matchup a cell whose random streams do not depend on A or B.

use crate::engine::{Cell, Observer, RunConfig, cell_key, run};
use crate::rules::Kernel;
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::paired::{Metric, PairedDuels, PairedRuns};
use crate::rules::techcommander::{AttackRun, Attacker, Conditions, Duel, Policy, Target, TargetSpec};
use crate::stats::{PairedSummary, PairedTally};

use super::cells::conditions_key;

/// What A and B face.
#[derive(Debug, Clone, PartialEq)]
pub enum Versus {
    /// Duels against builds, with relative weights.
    Opponents(Vec<(String, f64)>),
    /// Attack runs against targets (equal weights).
    Targets(Vec<TargetSpec>),
}

/// One comparison to run.
#[derive(Debug, Clone)]
pub struct CompareSpec {
    pub a: String,
    pub b: String,
    pub versus: Versus,
    pub conditions: Vec<Conditions>,
    pub policy: Policy,
    pub max_turns: u32,
    pub metric: Metric,
    /// Attack runs only: compute A, B and the difference exactly (no Monte Carlo).
    pub exact: bool,
}

/// The comparison on one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    /// Opponent build or target name.
    pub versus: String,
    pub conditions: Conditions,
    pub weight: f64,
    pub summary: PairedSummary,
}

/// Every matchup and the weighted overall comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct CompareResult {
    pub metric: Metric,
    /// Points (cost) of A and of B.
    pub a_points: f64,
    pub b_points: f64,
    /// Exact values (attack runs with `exact`): every interval has zero width.
    pub exact: bool,
    pub matchups: Vec<Matchup>,
    pub overall: PairedSummary,
}

/// The key of a matchup's streams: everything but A and B, so both meet the same dice.
pub fn matchup_key(versus: &str, c: &Conditions, policy: Policy, max_turns: u32, metric: Metric) -> u64 {
    cell_key(&format!(
        "compare|{versus}|{}|policy={policy}|max_turns={max_turns}|metric={}",
        conditions_key(c),
        metric.name()
    ))
}

/// Run one kernel per matchup, each keyed by its matchup (never by A or B).
fn run_matchups<K: Kernel<Tally = PairedTally>>(
    kernels: &[K],
    labels: &[(String, Conditions, f64)],
    spec: &CompareSpec,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Vec<PairedTally>, String> {
    let cells: Vec<Cell<'_, K>> = kernels
        .iter()
        .zip(labels)
        .map(|(k, (v, c, _))| Cell { key: matchup_key(v, c, spec.policy, spec.max_turns, spec.metric), kernel: k })
        .collect();
    Ok(run(&cells, config, observer)?)
}

/// Run a comparison. Weights: opponents' weights, split equally over conditions.
pub fn run_compare(
    catalogue: &Catalogue,
    spec: &CompareSpec,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<CompareResult, String> {
    let side = |name: &str| -> Result<(Attacker, Target), String> {
        let b = catalogue.find_build(name)?;
        Ok((Attacker::from_build(catalogue, b), Target::from_build(catalogue, b)))
    };
    let (a, b) = (side(&spec.a)?, side(&spec.b)?);
    let mut labels = Vec::new();
    if spec.exact && !matches!(spec.versus, Versus::Targets(_)) {
        return Err("--exact works for attack runs (--target); duels have no exact solver".into());
    }
    let mut exact = Vec::new();
    let summaries = match &spec.versus {
        Versus::Opponents(opponents) => {
            if spec.metric != Metric::Win {
                return Err("against opponents (duels) the metric is win".into());
            }
            let mut kernels = Vec::new();
            for (name, w) in opponents {
                let o = side(name)?;
                for c in &spec.conditions {
                    let duel = |x: &(Attacker, Target)| {
                        Duel::new(
                            (&x.0, &x.1),
                            (&o.0, &o.1),
                            c,
                            &crate::rules::techcommander::Options::default(),
                            spec.policy,
                            spec.max_turns,
                        )
                    };
                    kernels.push(PairedDuels::new(duel(&a)?, duel(&b)?));
                    labels.push((name.clone(), *c, w / spec.conditions.len() as f64));
                }
            }
            run_matchups(&kernels, &labels, spec, config, observer)?
        }
        Versus::Targets(targets) => {
            if spec.metric == Metric::Win {
                return Err("against targets (attack runs) the metric is turns or kill-by-turn:K".into());
            }
            let mut kernels = Vec::new();
            for t in targets {
                let target = t.resolve(catalogue)?;
                for c in &spec.conditions {
                    let attack = |x: &Attacker| {
                        AttackRun::new(
                            x,
                            &target,
                            c,
                            &crate::rules::techcommander::Options::default(),
                            spec.policy,
                            spec.max_turns,
                        )
                    };
                    if spec.exact {
                        let value = |run: AttackRun| exact_value(&run, spec.metric);
                        exact.push(PairedSummary::exact(value(attack(&a.0)?), value(attack(&b.0)?)));
                    } else {
                        kernels.push(PairedRuns::new(attack(&a.0)?, attack(&b.0)?, spec.metric));
                    }
                    labels.push((target.name.clone(), *c, 1.0 / spec.conditions.len() as f64));
                }
            }
            if spec.exact { Vec::new() } else { run_matchups(&kernels, &labels, spec, config, observer)? }
        }
    };
    let summaries: Vec<PairedSummary> =
        if spec.exact { exact } else { summaries.iter().map(PairedTally::summary).collect() };
    let matchups: Vec<Matchup> = labels
        .into_iter()
        .zip(summaries)
        .map(|((versus, conditions, weight), summary)| Matchup { versus, conditions, weight, summary })
        .collect();
    let overall = PairedSummary::weighted(&matchups.iter().map(|m| (m.weight, m.summary)).collect::<Vec<_>>());
    let points = |x: &(Attacker, Target)| x.0.points;
    Ok(CompareResult {
        metric: spec.metric,
        a_points: points(&a),
        b_points: points(&b),
        exact: spec.exact,
        matchups,
        overall,
    })
}

/// The metric's exact value for an attack run, from its exact time-to-kill chain:
/// P(killed by turn k) (turn k past the cap: P(killed within the cap)), or the mean
/// turns to kill with a censored run counting as the cap + 1.
pub fn exact_value(run: &AttackRun, metric: Metric) -> f64 {
    let e = run.exact();
    let cap = e.p_kill_by_turn.len();
    match metric {
        Metric::KillByTurn(k) => e.p_kill_by_turn.get((k as usize).min(cap).saturating_sub(1)).copied().unwrap_or(0.0),
        Metric::Turns | Metric::Win => {
            e.kill_by_turn.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum::<f64>()
                + (cap + 1) as f64 * (1.0 - e.p_kill)
        }
    }
}
