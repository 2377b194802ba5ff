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

/// One side's win rate against one opponent at one point, with its Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub p: f64,
    pub ci: crate::stats::Interval,
    pub trials: u64,
}

/// A battle comparison on one matchup: P(A beats the force) − P(B beats it).
#[derive(Debug, Clone, PartialEq)]
pub struct BattleMatchup {
    pub versus: String,
    pub point: Point,
    pub weight: f64,
    pub a: Rate,
    pub b: Rate,
    pub difference: f64,
    /// Newcombe's hybrid score interval for independent proportions (method 10).
    pub difference_ci: crate::stats::Interval,
}

/// A battle comparison: every matchup and the weighted overall.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleCompare {
    pub a_points: f64,
    pub b_points: f64,
    pub matchups: Vec<BattleMatchup>,
    /// Weighted P(A wins), P(B wins) and the difference, each with its MOVER interval
    /// over the independent matchups.
    pub a: (f64, crate::stats::Interval),
    pub b: (f64, crate::stats::Interval),
    pub difference: (f64, crate::stats::Interval),
}

/// Compare forces `a` and `b` against weighted opposing forces over `points` (each
/// point weighted equally), the point's conditions for both sides: P(A wins) − P(B
/// wins). Battles are not paired: A's and B's battles are independent cells, each keyed
/// as `volley battle` keys it (so each rate equals `volley battle X FORCE` at that seed),
/// and the difference's interval is Newcombe's method 10 for independent proportions;
/// the overall one the MOVER weighted mean of the matchups' intervals. Draws and
/// undecided battles count as not won.
///
/// # Errors
/// A battle the ruleset refuses, or a cancelled run.
#[allow(clippy::too_many_arguments)]
pub fn run_battle_compare<R: Ruleset>(
    catalogue: &R::Catalogue,
    a: &crate::catalogue::force::ForceSpec,
    b: &crate::catalogue::force::ForceSpec,
    versus: &[(crate::catalogue::force::ForceSpec, f64)],
    points: &[Point],
    options: &R::Options,
    rules: super::battles::BattleTerms<'_>,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<BattleCompare, String> {
    use crate::stats::newcombe::{difference, weighted};
    use crate::stats::wilson95;
    let pairs = options.pairs();
    let share = 1.0 / points.len() as f64;
    let mut compiled = Vec::new();
    let mut labels = Vec::new();
    let (mut a_points, mut b_points) = (f64::NAN, f64::NAN);
    for (o, w) in versus {
        for p in points {
            let c = R::conditions(p)?;
            R::check_engagement(&c)?;
            for (i, x) in [a, b].into_iter().enumerate() {
                let (kernel, info) = rules.compile::<R>(catalogue, x, o, c, options)?;
                if i == 0 {
                    a_points = info.sides[0].1
                } else {
                    b_points = info.sides[0].1
                }
                let spec =
                    CellSpec { ruleset: R::NAME, options: &pairs, policy: &info.policy, max_turns: info.max_turns };
                let key = spec.battle(info.mode, &[x.canonical(), o.canonical()], &[p.clone(), p.clone()]);
                compiled.push((kernel, cell_key(&key)));
            }
            labels.push((o.name.clone(), p.clone(), w * share));
        }
    }
    let cells: Vec<Cell<'_, R::Battle>> = compiled.iter().map(|c| Cell { key: c.1, kernel: &c.0 }).collect();
    let tallies = run(&cells, config, observer)?;
    let rate = |t: &crate::engine::battle::BattleTally| Rate {
        p: t.wins[0] as f64 / t.trials.max(1) as f64,
        ci: wilson95(t.wins[0], t.trials),
        trials: t.trials,
    };
    let matchups: Vec<BattleMatchup> = labels
        .into_iter()
        .zip(tallies.chunks(2))
        .map(|((versus, point, weight), t)| {
            let (ra, rb) = (rate(&t[0]), rate(&t[1]));
            BattleMatchup {
                versus,
                point,
                weight,
                a: ra,
                b: rb,
                difference: ra.p - rb.p,
                difference_ci: difference(ra.p, ra.ci, rb.p, rb.ci),
            }
        })
        .collect();
    let nan = (f64::NAN, crate::stats::Interval { low: f64::NAN, high: f64::NAN });
    let overall = |f: &dyn Fn(&BattleMatchup) -> (f64, crate::stats::Interval)| {
        weighted(&matchups.iter().map(|m| (m.weight, f(m).0, f(m).1)).collect::<Vec<_>>()).unwrap_or(nan)
    };
    Ok(BattleCompare {
        a_points,
        b_points,
        a: overall(&|m| (m.a.p, m.a.ci)),
        b: overall(&|m| (m.b.p, m.b.ci)),
        difference: overall(&|m| (m.difference, m.difference_ci)),
        matchups,
    })
}
