//! Fitting points costs (`volley fit`): for each build, the cost at which its result
//! against a field equals a target, holding the field's costs fixed; or (`all`) every
//! build's cost at once, each against the field of all the others (a fixed point).
//! The links from cost to result are [`super::fit_link`]'s.
//!
//! A duel's outcome does not depend on the costs, so every matchup is played (or solved)
//! once and every candidate cost is read from the same outcomes: with Monte Carlo, the
//! candidates share all their random numbers. Exact duels give exact fits; otherwise the
//! duels double until every fitted cost's 95% interval has a half-width of at most the
//! precision asked (in points), or the trial limit is reached.

use crate::engine::{Cell, Observer, RunConfig, Trials, cell_key, run};
use crate::output::{Cell as Value, Kind, Table};
use crate::rules::axis::Point;
use crate::rules::ruleset::{RuleOptions, Ruleset};

use super::cells::CellSpec;
use super::fit_link::{FitMetric, Outcome, Root, fit_cost, result, result_interval};

/// How the duels are resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FitMethod {
    /// Exact where the ruleset solves every matchup exactly, else Monte Carlo.
    #[default]
    Auto,
    /// Exact, or an error naming a matchup without an exact solution.
    Exact,
    MonteCarlo,
}

impl FitMethod {
    pub const NAMES: &'static [&'static str] = &["auto", "exact", "monte-carlo"];
}

impl std::str::FromStr for FitMethod {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "auto" => Ok(FitMethod::Auto),
            "exact" => Ok(FitMethod::Exact),
            "monte-carlo" => Ok(FitMethod::MonteCarlo),
            other => Err(format!("unknown method `{other}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// What to fit and how.
pub struct FitSettings<'a, R: Ruleset> {
    /// Builds to fit (display names), at least one.
    pub builds: &'a [String],
    /// The field as (name, weight > 0); ignored with `all` (each build meets every other
    /// build of `builds` with weight 1).
    pub field: &'a [(String, f64)],
    pub all: bool,
    /// Conditions: each point counts equally.
    pub points: &'a [Point],
    pub options: &'a R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    /// The result aimed at, strictly between 0 and 1 (1/2 with `all`).
    pub target: f64,
    pub metric: FitMetric,
    pub method: FitMethod,
    /// Monte Carlo: seed, threads and the first round's duels per matchup
    /// (`Trials::Fixed`).
    pub config: RunConfig,
    /// Monte Carlo: stop doubling once every fitted cost's 95% interval has a half-width
    /// of at most this many points; `None`: one round.
    pub precision: Option<f64>,
    /// Monte Carlo: the most duels per matchup.
    pub max_trials: u64,
}

/// One fitted build.
#[derive(Debug, Clone, PartialEq)]
pub struct FitRow {
    pub build: String,
    /// The catalogue's cost.
    pub points: f64,
    pub fitted_points: Option<f64>,
    /// 95% interval of the fitted cost (zero width when exact); `None` when unfitted.
    pub fitted_points_ci95: Option<(f64, f64)>,
    pub result_at_current: f64,
    pub result_at_current_ci95: (f64, f64),
    pub result_at_fitted: Option<f64>,
    /// `fitted`, or why there is no fitted cost ([`Root::status`]).
    pub status: &'static str,
}

/// How the joint fit (`all`) ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Convergence {
    pub iterations: u32,
    pub converged: bool,
    /// The last iteration's largest relative change of a cost.
    pub max_relative_change: f64,
}

/// A fit's rows and how they were computed.
#[derive(Debug, Clone, PartialEq)]
pub struct FitOutput {
    pub rows: Vec<FitRow>,
    /// `exact` or `monte-carlo`.
    pub method: &'static str,
    /// Monte Carlo: duels per matchup in the last round.
    pub trials_per_matchup: Option<u64>,
    pub convergence: Option<Convergence>,
    /// Matchup cells (build, opponent, point).
    pub cells: usize,
    pub engagements: u64,
    pub seconds: f64,
}

/// Relative change of every cost below which the joint fit has converged.
pub const JOINT_TOLERANCE: f64 = 1e-9;
/// Most iterations of the joint fit.
pub const JOINT_MAX_ITERATIONS: u32 = 10_000;

/// One matchup: fitted build `side`, opponent `opponent` (index into the opponent
/// list), point index, weight.
struct Matchup<K> {
    side: usize,
    opponent: usize,
    weight: f64,
    kernel: K,
    key: u64,
}

/// Fit costs (module docs).
///
/// # Errors
/// Unknown names, matchups the ruleset refuses, `Exact` without an exact solution, bad
/// settings (target outside (0, 1), `all` with fewer than two builds or a target other
/// than 1/2), or a cancelled run.
pub fn run_fit<R: Ruleset>(
    cat: &R::Catalogue,
    s: &FitSettings<'_, R>,
    observer: &dyn Observer,
) -> Result<FitOutput, String> {
    let start = std::time::Instant::now();
    if !(s.target > 0.0 && s.target < 1.0) {
        return Err(format!("the target must lie strictly between 0 and 1, got {}", s.target));
    }
    if s.builds.is_empty() {
        return Err("no build to fit".into());
    }
    if s.all && s.builds.len() < 2 {
        return Err("a joint fit needs at least two builds".into());
    }
    if s.all && s.target != 0.5 {
        return Err(format!(
            "a joint fit's results are shares of each matchup (the two sides' results add to 1), so every build can \
             only reach 1/2 together; got target {}",
            s.target
        ));
    }
    // Opponents: the field, or every build (all).
    let opponents: Vec<(String, f64)> =
        if s.all { s.builds.iter().map(|b| (b.clone(), 1.0)).collect() } else { s.field.to_vec() };
    if opponents.is_empty() {
        return Err("the field is empty".into());
    }
    let opponent_points: Vec<f64> = opponents.iter().map(|(o, _)| R::points(cat, o)).collect::<Result<_, _>>()?;
    let build_points: Vec<f64> = s.builds.iter().map(|b| R::points(cat, b)).collect::<Result<_, _>>()?;
    let pairs = s.options.pairs();
    let policy_name = s.policy.to_string();
    let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns: s.max_turns };
    let grid = s.points.len().max(1) as f64;
    let mut matchups = Vec::new();
    for (bi, b) in s.builds.iter().enumerate() {
        for (oi, (o, w)) in opponents.iter().enumerate() {
            if s.all && oi == bi {
                continue;
            }
            for p in s.points {
                let c = R::conditions(p)?;
                R::check_engagement(&c)?;
                let kernel =
                    R::duel(cat, b, o, &c, s.options, s.policy, s.max_turns).map_err(|e| format!("{b} vs {o}: {e}"))?;
                let key = cell_key(&spec.duel(b, o, p));
                matchups.push(Matchup { side: bi, opponent: oi, weight: w / grid, kernel, key });
            }
        }
    }
    let exact: Option<Vec<[f64; 4]>> = match s.method {
        FitMethod::MonteCarlo => None,
        FitMethod::Auto | FitMethod::Exact => {
            let laws: Option<Vec<[f64; 4]>> =
                matchups.iter().map(|m| exact_outcome::<R>(&m.kernel, s.metric)).collect();
            if laws.is_none() && s.method == FitMethod::Exact {
                let m = matchups.iter().find(|m| exact_outcome::<R>(&m.kernel, s.metric).is_none()).expect("one");
                return Err(format!(
                    "no exact solution for {} vs {} in {}: run with --method monte-carlo (or auto)",
                    s.builds[m.side],
                    opponents[m.opponent].0,
                    R::LABEL
                ));
            }
            laws
        }
    };
    let cells_of = |outcomes: &[([f64; 4], Option<u64>)], side: usize, costs: Option<&[f64]>| -> Vec<Outcome> {
        matchups
            .iter()
            .zip(outcomes)
            .filter(|(m, _)| m.side == side)
            .map(|(m, (p, n))| Outcome {
                weight: m.weight,
                opponent_points: costs.map_or(opponent_points[m.opponent], |c| c[m.opponent]),
                p: *p,
                trials: *n,
            })
            .collect()
    };
    // Joint fit: each build's cost fitted against the others' current costs, then all
    // costs scaled to keep their total (the links are scale-free), until nothing moves.
    // Without `all`: the catalogue's costs, no convergence.
    let joint = |outcomes: &[([f64; 4], Option<u64>)]| -> (Vec<f64>, Option<Convergence>) {
        let mut costs: Vec<f64> = build_points.clone();
        if !s.all {
            return (costs, None);
        }
        let total: f64 = build_points.iter().sum();
        let mut last = Convergence { iterations: 0, converged: false, max_relative_change: f64::INFINITY };
        for it in 1..=JOINT_MAX_ITERATIONS {
            let mut next = Vec::with_capacity(costs.len());
            for b in 0..s.builds.len() {
                let cells = cells_of(outcomes, b, Some(&costs));
                match super::fit_link::root(|c| result(&cells, s.metric, c), s.target, costs[b]) {
                    Root::At(c) => next.push(c),
                    // This build reaches the target at no cost: no fixed point.
                    _ => break,
                }
            }
            if next.len() < costs.len() {
                last = Convergence { iterations: it, converged: false, max_relative_change: f64::NAN };
                break;
            }
            let scale = total / next.iter().sum::<f64>();
            let mut change: f64 = 0.0;
            for (c, n) in costs.iter_mut().zip(&next) {
                let n = n * scale;
                change = change.max((n - *c).abs() / *c);
                *c = n;
            }
            last = Convergence { iterations: it, converged: change < JOINT_TOLERANCE, max_relative_change: change };
            if last.converged {
                break;
            }
        }
        (costs, Some(last))
    };
    let mut engagements = 0;
    // The outcomes, and the costs of the field the rows report (the joint fit's with `all`).
    let (outcomes, method, trials_per_matchup, (costs, convergence)) = match exact {
        Some(laws) => {
            let outcomes: Vec<_> = laws.into_iter().map(|p| (p, None)).collect();
            let fitted = joint(&outcomes);
            (outcomes, "exact", None, fitted)
        }
        None => {
            let Trials::Fixed(mut n) = s.config.trials else {
                return Err("fits take a fixed number of duels per round".into());
            };
            loop {
                let config = RunConfig { trials: Trials::Fixed(n), ..s.config };
                let cells: Vec<Cell<'_, R::Duel>> =
                    matchups.iter().map(|m| Cell { key: m.key, kernel: &m.kernel }).collect();
                let tallies = run(&cells, &config, observer).map_err(|e| e.to_string())?;
                engagements += tallies.iter().map(|t| t.trials).sum::<u64>();
                let outcomes: Vec<([f64; 4], Option<u64>)> = tallies
                    .iter()
                    .map(|t| {
                        let k = t.trials.max(1) as f64;
                        let mutual: u64 = t.mutual_by_turn.iter().sum();
                        let p =
                            [t.a_wins() as f64 / k, t.b_wins() as f64 / k, mutual as f64 / k, t.timeouts as f64 / k];
                        (p, Some(t.trials))
                    })
                    .collect();
                // Judged as the rows report it: against the joint fit's costs with `all`.
                let fitted = joint(&outcomes);
                let wide = s.precision.is_some_and(|e| {
                    (0..s.builds.len()).any(|b| {
                        let cells = cells_of(&outcomes, b, s.all.then_some(fitted.0.as_slice()));
                        match fit_cost(&cells, s.metric, s.target, build_points[b]) {
                            (Root::At(c), Some((lo, hi))) => (c - lo).max(hi - c) > e,
                            _ => false,
                        }
                    })
                });
                if !wide || n >= s.max_trials {
                    break (outcomes, "monte-carlo", Some(n), fitted);
                }
                n = (n * 2).min(s.max_trials);
            }
        }
    };
    let unconverged = convergence.is_some_and(|c| !c.converged);
    let rows = (0..s.builds.len())
        .map(|b| {
            // The field's costs: fixed, or the joint fit's (intervals hold the others'
            // fitted costs fixed).
            let field_costs = s.all.then_some(costs.as_slice());
            let cells = cells_of(&outcomes, b, field_costs);
            let (root, ci) = fit_cost(&cells, s.metric, s.target, build_points[b]);
            // The result at today's costs, the field's included.
            let (now, now_ci) = result_interval(&cells_of(&outcomes, b, None), s.metric, build_points[b]);
            FitRow {
                build: s.builds[b].clone(),
                points: build_points[b],
                fitted_points: root.value(),
                fitted_points_ci95: ci,
                result_at_current: now,
                result_at_current_ci95: now_ci,
                result_at_fitted: root.value().map(|c| result(&cells, s.metric, c)),
                status: match root {
                    Root::At(_) if unconverged => "fitted against the last iterate (the joint fit did not converge)",
                    _ => root.status(),
                },
            }
        })
        .collect();
    Ok(FitOutput {
        rows,
        method,
        trials_per_matchup,
        convergence,
        cells: matchups.len(),
        engagements,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The exact four-way outcome of a duel, where the metric can use what the ruleset
/// solves: the win metric needs only wins, losses and draws.
fn exact_outcome<R: Ruleset>(duel: &R::Duel, metric: FitMetric) -> Option<[f64; 4]> {
    R::exact_duel_outcomes(duel).or_else(|| {
        // Draws split any way give the same win result: count them as timeouts.
        (metric == FitMetric::Win).then(|| R::exact_duel(duel).map(|e| [e.p_a_wins, e.p_b_wins, 0.0, e.p_draw]))?
    })
}

/// The `fit` table: one row per build.
pub fn fit_table(ruleset: &str, metric: FitMetric, target: f64, out: &FitOutput) -> Table {
    let mut t = Table::typed(&[
        ("ruleset", Kind::Text),
        ("build", Kind::Text),
        ("metric", Kind::Text),
        ("target", Kind::Float),
        ("method", Kind::Text),
        ("points", Kind::Float),
        ("fitted_points", Kind::Float),
        ("fitted_points_ci95_low", Kind::Float),
        ("fitted_points_ci95_high", Kind::Float),
        ("result_at_current", Kind::Float),
        ("result_at_current_ci95_low", Kind::Float),
        ("result_at_current_ci95_high", Kind::Float),
        ("result_at_fitted", Kind::Float),
        ("status", Kind::Text),
    ]);
    let opt = |v: Option<f64>| v.map_or(Value::Null, Value::from);
    for r in &out.rows {
        t.push(vec![
            ruleset.into(),
            r.build.as_str().into(),
            metric.name().into(),
            target.into(),
            out.method.into(),
            r.points.into(),
            opt(r.fitted_points),
            opt(r.fitted_points_ci95.map(|c| c.0)),
            opt(r.fitted_points_ci95.map(|c| c.1)),
            r.result_at_current.into(),
            r.result_at_current_ci95.0.into(),
            r.result_at_current_ci95.1.into(),
            opt(r.result_at_fitted),
            r.status.into(),
        ]);
    }
    t
}
