//! Paired comparisons of two sides over the same matchups (opponents or targets, times
//! conditions), each matchup a cell whose random streams do not depend on A or B.

use crate::engine::{Cell, Observer, RunConfig, cell_key, run};
use crate::rules::axis::Point;
use crate::rules::ruleset::{RuleOptions, Ruleset};
use crate::rules::{Kernel, Role};
use crate::stats::{Metric, PairedSummary, PairedTally};

use super::cells::CellSpec;

/// What A and B face.
#[derive(Debug, Clone, PartialEq)]
pub enum Versus {
    /// Duels against named sides, with relative weights.
    Opponents(Vec<(String, f64)>),
    /// Attack runs against named targets (equal weights).
    Targets(Vec<String>),
}

/// One comparison to run, for ruleset `R`.
#[derive(Debug, Clone)]
pub struct CompareSpec<R: Ruleset> {
    pub a: String,
    pub b: String,
    pub versus: Versus,
    pub points: Vec<Point>,
    pub options: R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    pub metric: Metric,
    /// Attack runs only: compute A, B and the difference exactly (no Monte Carlo).
    pub exact: bool,
}

/// The comparison on one matchup.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    /// Opponent or target name.
    pub versus: String,
    pub point: Point,
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

/// Run one kernel per matchup, each keyed by its matchup (never by A or B).
fn run_matchups<K: Kernel<Tally = PairedTally>>(
    kernels: &[K],
    keys: &[u64],
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Vec<PairedTally>, String> {
    let cells: Vec<Cell<'_, K>> = kernels.iter().zip(keys).map(|(k, &key)| Cell { key, kernel: k }).collect();
    Ok(run(&cells, config, observer)?)
}

/// Run a comparison. Weights: opponents' weights, split equally over conditions.
///
/// # Errors
/// Unknown names, a metric that does not fit the engagement, cells the ruleset refuses,
/// or a cancelled run.
pub fn run_compare<R: Ruleset>(
    catalogue: &R::Catalogue,
    spec: &CompareSpec<R>,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<CompareResult, String> {
    let conditions: Vec<R::Conditions> = spec
        .points
        .iter()
        .map(|p| R::conditions(p).and_then(|c| R::check_engagement(&c).map(|_| c)))
        .collect::<Result<_, _>>()?;
    let options = spec.options.pairs();
    let policy = spec.policy.to_string();
    let key = CellSpec { ruleset: R::NAME, options: &options, policy: &policy, max_turns: spec.max_turns };
    let share = 1.0 / spec.points.len() as f64;
    let mut labels: Vec<(String, Point, f64)> = Vec::new();
    let mut keys = Vec::new();
    if spec.exact && !matches!(spec.versus, Versus::Targets(_)) {
        return Err("--exact works for attack runs (--target); duels have no exact solver".into());
    }
    let metric = spec.metric.name();
    let summaries: Vec<PairedSummary> = match &spec.versus {
        Versus::Opponents(opponents) => {
            if spec.metric != Metric::Win {
                return Err("against opponents (duels) the metric is win".into());
            }
            let mut kernels = Vec::new();
            for (name, w) in opponents {
                for (p, c) in spec.points.iter().zip(&conditions) {
                    let duel = |x: &str| R::duel(catalogue, x, name, c, &spec.options, spec.policy, spec.max_turns);
                    kernels.push(R::paired_duel(duel(&spec.a)?, duel(&spec.b)?, spec.metric)?);
                    keys.push(cell_key(&key.matchup(name, p, &metric)));
                    labels.push((name.clone(), p.clone(), w * share));
                }
            }
            run_matchups(&kernels, &keys, config, observer)?.iter().map(PairedTally::summary).collect()
        }
        Versus::Targets(targets) => {
            if spec.metric == Metric::Win {
                return Err("against targets (attack runs) the metric is turns or kill-by-turn:K".into());
            }
            let mut kernels = Vec::new();
            let mut exact = Vec::new();
            for t in targets {
                let shown = R::display_name(catalogue, Role::Target, t)?;
                for (p, c) in spec.points.iter().zip(&conditions) {
                    let attack =
                        |x: &str| R::attack_run(catalogue, x, t, c, &spec.options, spec.policy, spec.max_turns);
                    if spec.exact {
                        let value = |run: R::AttackRun| R::exact_run(&run).metric_value(spec.metric);
                        exact.push(PairedSummary::exact(value(attack(&spec.a)?), value(attack(&spec.b)?)));
                    } else {
                        kernels.push(R::paired_run(attack(&spec.a)?, attack(&spec.b)?, spec.metric)?);
                        keys.push(cell_key(&key.matchup(&shown, p, &metric)));
                    }
                    labels.push((shown.clone(), p.clone(), share));
                }
            }
            if spec.exact {
                exact
            } else {
                run_matchups(&kernels, &keys, config, observer)?.iter().map(PairedTally::summary).collect()
            }
        }
    };
    let matchups: Vec<Matchup> = labels
        .into_iter()
        .zip(summaries)
        .map(|((versus, point, weight), summary)| Matchup { versus, point, weight, summary })
        .collect();
    let overall = PairedSummary::weighted(&matchups.iter().map(|m| (m.weight, m.summary)).collect::<Vec<_>>());
    Ok(CompareResult {
        metric: spec.metric,
        a_points: R::points(catalogue, &spec.a)?,
        b_points: R::points(catalogue, &spec.b)?,
        exact: spec.exact,
        matchups,
        overall,
    })
}
