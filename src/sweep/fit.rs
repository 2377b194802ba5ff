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
use crate::output::{Cell as Value, Column, Table};
use crate::rules::axis::Point;
use crate::rules::ruleset::{RuleOptions, Ruleset};

use super::cells::CellSpec;
use super::fit_joint::{Convergence, JointCell, JointFit, solve};
use super::fit_link::{FitMetric, FitStatus, Outcome, Root, fit_cost, result, result_interval};
use super::per_cost::{cost_granularity, round_to};
use super::tables::{Part, RULESET, TableDecl};

/// Significant digits of `result_at_fitted`: the fit solves the result at the fitted cost
/// to within its tolerance (`fit_joint::TOLERANCE`, 1e-10), so digits past these are the
/// root finder's leftovers, not information.
pub const RESULT_DIGITS: usize = 9;

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
    /// Conditions: each point counts equally, or as `point_weights` says.
    pub points: &'a [Point],
    /// Each point's weight, adding to 1 (a range envelope's); empty: equal weights.
    pub point_weights: &'a [f64],
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
    /// The fitted cost rounded to the catalogue's cost granularity, and its interval
    /// rounded outwards (an open end stays 0 or infinite).
    pub cost: Option<f64>,
    pub cost_ci95: Option<(f64, f64)>,
    /// NaN when no matchup of the build is left.
    pub result_at_current: f64,
    pub result_at_current_ci95: (f64, f64),
    pub result_at_fitted: Option<f64>,
    pub status: FitStatus,
}

/// A matchup left out because a side cannot attack at its conditions.
#[derive(Debug, Clone, PartialEq)]
pub struct OneSided {
    pub build: String,
    pub opponent: String,
    /// The conditions' canonical key.
    pub conditions: String,
    /// The conditions in words (the ruleset's `describe`).
    pub described: String,
    pub build_can_attack: bool,
    pub opponent_can_attack: bool,
    /// Why the ruleset refuses to play the duel, when it does (both sides may reach).
    pub refused: Option<String>,
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
    /// Matchup cells played (build, opponent, point).
    pub cells: usize,
    /// Matchups left out: one side cannot attack.
    pub one_sided: Vec<OneSided>,
    /// The catalogue's cost granularity the costs are rounded to.
    pub granularity: f64,
    /// Builds `hopeless` only because the joint fit priced them below half a step
    /// against the others' fair costs ([`super::fit_joint::JointFit::priced_out`]).
    pub priced_out: Vec<String>,
    /// A joint fit that pricing out emptied ([`super::fit_joint::Unwritable`]): no costs.
    pub unwritable: Option<UnwritableFit>,
    pub engagements: u64,
    pub seconds: f64,
}

/// What the first solve of a joint fit found when pricing out then emptied it
/// ([`super::fit_joint::Unwritable`]), by build name.
#[derive(Debug, Clone, PartialEq)]
pub struct UnwritableFit {
    /// The first solve's Newton steps.
    pub iterations: u32,
    /// The builds whose cost reached half a step, with their unrounded costs, highest first.
    pub kept: Vec<(String, f64)>,
    /// The builds below half a step, with their unrounded costs, highest first.
    pub below: Vec<(String, f64)>,
}

impl UnwritableFit {
    /// The highest cost over the lowest in the first solve.
    pub fn spread(&self) -> f64 {
        let all: Vec<f64> = self.kept.iter().chain(&self.below).map(|x| x.1).collect();
        all.iter().copied().fold(f64::NEG_INFINITY, f64::max) / all.iter().copied().fold(f64::INFINITY, f64::min)
    }
}

impl FitOutput {
    /// Builds the joint fit found no costs for.
    pub fn not_converged(&self) -> Vec<&str> {
        self.rows.iter().filter(|r| r.status == FitStatus::NotConverged).map(|r| r.build.as_str()).collect()
    }
}

/// One matchup: fitted build `side`, opponent `opponent` (index into the opponent
/// list), point index, weight.
struct Matchup<K> {
    side: usize,
    opponent: usize,
    point: usize,
    weight: f64,
    kernel: K,
    key: u64,
}

/// A matchup's outcome from its build's side and the duels behind it (`None`: exact).
type Measured = ([f64; 4], Option<u64>);

/// Fit costs (module docs).
///
/// Matchups where either side cannot attack at the point's conditions
/// ([`Ruleset::can_attack`]) are left out and listed in [`FitOutput::one_sided`]; a
/// build with none left gets [`FitStatus::CannotAttack`].
///
/// # Errors
/// Unknown names, matchups the ruleset refuses, `Exact` without an exact solution, bad
/// settings (target outside (0, 1), `all` with fewer than two builds or a target other
/// than 1/2), no matchup where both sides can attack, or a cancelled run.
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
    let conditions: Vec<R::Conditions> = s
        .points
        .iter()
        .map(|p| R::conditions(p).and_then(|c| R::check_engagement(&c).map(|_| c)))
        .collect::<Result<_, _>>()?;
    let mut matchups = Vec::new();
    let mut one_sided = Vec::new();
    for (bi, b) in s.builds.iter().enumerate() {
        for (oi, (o, w)) in opponents.iter().enumerate() {
            if s.all && oi == bi {
                continue;
            }
            for (pi, (p, c)) in s.points.iter().zip(&conditions).enumerate() {
                let reach =
                    |x: &str, y: &str| R::can_attack(cat, x, y, c, s.options).map_err(|e| format!("{x} vs {y}: {e}"));
                let (bx, ox) = (reach(b, o)?, reach(o, b)?);
                if !(bx && ox) {
                    one_sided.push(OneSided {
                        build: b.clone(),
                        opponent: o.clone(),
                        conditions: p.key(),
                        described: R::describe(c),
                        build_can_attack: bx,
                        opponent_can_attack: ox,
                        refused: None,
                    });
                    continue;
                }
                let kernel = match R::duel(cat, b, o, c, s.options, s.policy, s.max_turns) {
                    Ok(k) => k,
                    // A duel the rules do not play (a model duels leave out): no
                    // attack in it can be priced either.
                    Err(e) => {
                        one_sided.push(OneSided {
                            build: b.clone(),
                            opponent: o.clone(),
                            conditions: p.key(),
                            described: R::describe(c),
                            build_can_attack: bx,
                            opponent_can_attack: ox,
                            refused: Some(e),
                        });
                        continue;
                    }
                };
                let key = cell_key(&spec.duel(b, o, p));
                let weight = s.point_weights.get(pi).map_or(w / grid, |v| w * v);
                matchups.push(Matchup { side: bi, opponent: oi, point: pi, weight, kernel, key });
            }
        }
    }
    if matchups.is_empty() {
        return Err(format!(
            "no matchup to price from: in every one a side cannot attack at these conditions ({} left out)",
            one_sided.len()
        ));
    }
    let exact: Option<Vec<[f64; 4]>> = match s.method {
        FitMethod::MonteCarlo => None,
        FitMethod::Auto | FitMethod::Exact => {
            let laws: Option<Vec<[f64; 4]>> = matchups.iter().map(|m| exact_outcome::<R>(&m.kernel)).collect();
            if laws.is_none() && s.method == FitMethod::Exact {
                let m = matchups.iter().find(|m| exact_outcome::<R>(&m.kernel).is_none()).expect("one");
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
    // The joint fit reads each pair from both seatings: i's outcome against j is the
    // mean of i's duel against j and j's duel against i seen from i, so the two shares
    // of a matchup add to 1 (see `fit_joint`). Builds meet every other build, and a
    // matchup left out is left out from both seats, so the mirror always exists.
    let mirror: Vec<Option<usize>> = if s.all {
        let index: std::collections::HashMap<(usize, usize, usize), usize> =
            matchups.iter().enumerate().map(|(i, m)| ((m.side, m.opponent, m.point), i)).collect();
        matchups.iter().map(|m| index.get(&(m.opponent, m.side, m.point)).copied()).collect()
    } else {
        vec![None; matchups.len()]
    };
    let consistent = |measured: &[Measured]| -> Vec<Measured> {
        measured
            .iter()
            .zip(&mirror)
            .map(|(&(p, n), m)| match m {
                Some(j) => {
                    let (q, k) = measured[*j];
                    let seen = [q[1], q[0], q[2], q[3]];
                    (std::array::from_fn(|i| 0.5 * (p[i] + seen[i])), n.zip(k).map(|(a, b)| a + b))
                }
                None => (p, n),
            })
            .collect()
    };
    let cells_of = |outcomes: &[Measured], side: usize, costs: Option<&[Option<f64>]>| -> Vec<Outcome> {
        matchups
            .iter()
            .zip(outcomes)
            .filter(|(m, _)| m.side == side)
            .filter_map(|(m, (p, n))| {
                let opponent_points = match costs {
                    Some(c) => c[m.opponent]?,
                    None => opponent_points[m.opponent],
                };
                Some(Outcome { weight: m.weight, opponent_points, p: *p, trials: *n })
            })
            .collect()
    };
    let g = cost_granularity::<R>(cat);
    let reachless: Vec<Option<FitStatus>> = (0..s.builds.len())
        .map(|b| (!matchups.iter().any(|m| m.side == b)).then_some(FitStatus::CannotAttack))
        .collect();
    // Joint fit: every build's cost at once (`fit_joint`). Without `all`: the
    // catalogue's costs for the field, no convergence.
    let joint = |outcomes: &[Measured]| -> Option<JointFit> {
        if !s.all {
            return None;
        }
        let cells: Vec<JointCell> = matchups
            .iter()
            .zip(outcomes)
            .map(|(m, (p, n))| JointCell {
                i: m.side,
                j: m.opponent,
                outcome: Outcome { weight: m.weight, opponent_points: 1.0, p: *p, trials: *n },
            })
            .collect();
        Some(solve(&build_points, &cells, s.metric, &reachless, g))
    };
    let mut engagements = 0;
    // The outcomes, and the joint fit with `all`.
    let (outcomes, method, trials_per_matchup, fitted) = match exact {
        Some(laws) => {
            let outcomes = consistent(&laws.into_iter().map(|p| (p, None)).collect::<Vec<_>>());
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
                let measured: Vec<Measured> = tallies
                    .iter()
                    .map(|t| {
                        let k = t.trials.max(1) as f64;
                        let mutual: u64 = t.mutual_by_turn.iter().sum();
                        let p =
                            [t.a_wins() as f64 / k, t.b_wins() as f64 / k, mutual as f64 / k, t.timeouts as f64 / k];
                        (p, Some(t.trials))
                    })
                    .collect();
                let outcomes = consistent(&measured);
                // Judged as the rows report it: against the joint fit's costs with `all`.
                let fitted = joint(&outcomes);
                let wide = s.precision.is_some_and(|e| {
                    (0..s.builds.len()).any(|b| {
                        if reachless[b].is_some() || fitted.as_ref().is_some_and(|f| f.status[b] != FitStatus::Fitted) {
                            return false;
                        }
                        let cells = cells_of(&outcomes, b, fitted.as_ref().map(|f| f.costs.as_slice()));
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
    let rows = (0..s.builds.len())
        .map(|b| {
            // The result at today's costs, the field's included.
            let (now, now_ci) = match cells_of(&outcomes, b, None) {
                cells if cells.is_empty() => (f64::NAN, (f64::NAN, f64::NAN)),
                cells if cells.iter().all(|o| o.trials.is_none()) => {
                    // Exact matchups: an exact value and interval, rounded as such.
                    let (v, (lo, hi)) = result_interval(&cells, s.metric, build_points[b]);
                    let x = crate::output::number::exact;
                    (x(v), (x(lo), x(hi)))
                }
                cells => result_interval(&cells, s.metric, build_points[b]),
            };
            let unfitted = |status: FitStatus| FitRow {
                build: s.builds[b].clone(),
                points: build_points[b],
                fitted_points: None,
                fitted_points_ci95: None,
                cost: None,
                cost_ci95: None,
                result_at_current: now,
                result_at_current_ci95: now_ci,
                result_at_fitted: None,
                status,
            };
            if let Some(status) = reachless[b] {
                return unfitted(status);
            }
            if let Some(f) = &fitted
                && f.status[b] != FitStatus::Fitted
            {
                return unfitted(f.status[b]);
            }
            // The field's costs: fixed, or the joint fit's (intervals hold the others'
            // fitted costs fixed, and leave out the builds outside the joint fit).
            let cells = cells_of(&outcomes, b, fitted.as_ref().map(|f| f.costs.as_slice()));
            let (root, ci) = fit_cost(&cells, s.metric, s.target, build_points[b]);
            // The joint fit's cost (its negligible chances read as none); the interval
            // holds the others at theirs.
            let (c, ci) = match (fitted.as_ref().and_then(|f| f.costs[b]), root) {
                (Some(c), _) => (c, ci.map_or((c, c), |(lo, hi)| (lo.min(c), hi.max(c)))),
                (None, Root::At(c)) => (c, ci.unwrap_or((c, c))),
                (None, _) => return unfitted(root.status()),
            };
            let exact = cells.iter().all(|o| o.trials.is_none());
            let ci = if exact { (c, c) } else { ci };
            if round_to(c, g) <= 0.0 {
                // Worth less than the catalogue's smallest step: no cost it can write.
                return unfitted(FitStatus::Hopeless);
            }
            let up = |x: f64| if x.is_finite() { (x / g).ceil() * g } else { x };
            let rounded_ci = if exact { (round_to(c, g), round_to(c, g)) } else { ((ci.0 / g).floor() * g, up(ci.1)) };
            FitRow {
                build: s.builds[b].clone(),
                points: build_points[b],
                fitted_points: Some(c),
                fitted_points_ci95: Some(ci),
                cost: Some(round_to(c, g)),
                cost_ci95: Some(rounded_ci),
                result_at_current: now,
                result_at_current_ci95: now_ci,
                result_at_fitted: Some(crate::output::number::significant(result(&cells, s.metric, c), RESULT_DIGITS)),
                status: FitStatus::Fitted,
            }
        })
        .collect();
    Ok(FitOutput {
        rows,
        method,
        trials_per_matchup,
        priced_out: fitted.as_ref().map_or(Vec::new(), |f| f.priced_out.iter().map(|&b| s.builds[b].clone()).collect()),
        unwritable: fitted.as_ref().and_then(|f| f.unwritable.as_ref()).map(|u| {
            let named = |keep: bool| {
                let mut v: Vec<(String, f64)> = u
                    .costs
                    .iter()
                    .enumerate()
                    .filter_map(|(b, c)| c.map(|c| (b, c)))
                    .filter(|(b, _)| u.below.contains(b) != keep)
                    .map(|(b, c)| (s.builds[b].clone(), c))
                    .collect();
                v.sort_by(|x, y| y.1.total_cmp(&x.1));
                v
            };
            UnwritableFit { iterations: u.iterations, kept: named(true), below: named(false) }
        }),
        convergence: fitted.map(|f| f.convergence),
        cells: matchups.len(),
        one_sided,
        granularity: g,
        engagements,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// The exact four-way outcome of a duel, where the ruleset solves it.
fn exact_outcome<R: Ruleset>(duel: &R::Duel) -> Option<[f64; 4]> {
    R::exact_duel(duel).map(|e| e.outcomes())
}

/// The `fit` table (`volley fit --out DIR`).
pub const FIT: TableDecl = TableDecl {
    name: "fit",
    title: "fair points costs (`volley fit --out DIR`)",
    about: "One row per build fitted: the points cost at which its result against the field equals the target, \
            holding the field's costs fixed (docs/fit.md).",
    parts: &[Part::Own(&[
        RULESET,
        Column::text("build", "the build fitted"),
        Column::text("metric", "the result fitted, as run: `win` or `kill-points`"),
        Column::float("target", "the result aimed at, as run (default 1/2)"),
        Column::text("method", "`exact` or `monte-carlo`, as run"),
        Column::float("points", "the build's catalogue cost"),
        Column::float(
            "fitted_points",
            "the fitted cost, with its 95% interval (zero width when exact); null when unfitted",
        )
        .with_ci95(),
        Column::float(
            "cost",
            "the fitted cost rounded to the catalogue's cost step (the greatest common divisor of its costs, read to \
             3 decimals), with its interval rounded outwards; an open end is null",
        )
        .with_ci95(),
        Column::float("result_at_current", "the result at today's costs, with its 95% interval").with_ci95(),
        Column::float("result_at_fitted", "the result at the fitted cost (the target)"),
        Column::text("status", "`fitted`, `unbeatable`, `hopeless`, `cannot-attack` or `not-converged`"),
    ])],
};

/// The `fit` table: one row per build.
pub fn fit_table(ruleset: &str, metric: FitMetric, target: f64, out: &FitOutput) -> Table {
    let mut t = FIT.table(&super::tables::Supplied::default());
    let opt = |v: Option<f64>| v.filter(|x| x.is_finite()).map_or(Value::Null, Value::from);
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
            opt(r.cost),
            opt(r.cost_ci95.map(|c| c.0)),
            opt(r.cost_ci95.map(|c| c.1)),
            opt(Some(r.result_at_current)),
            opt(Some(r.result_at_current_ci95.0)),
            opt(Some(r.result_at_current_ci95.1)),
            opt(r.result_at_fitted),
            r.status.name().into(),
        ]);
    }
    t
}
