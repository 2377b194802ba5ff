//! Paired comparisons of two sides over the same matchups (opponents or targets, times
//! conditions), each matchup a cell whose random streams do not depend on A or B.

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::{BattleTally, PairedBattles};
use crate::engine::{Cell, Observer, RunConfig, cell_key, run};
use crate::rules::axis::Point;
use crate::rules::ruleset::{RuleOptions, Ruleset};
use crate::rules::{Kernel, Role};
use crate::stats::newcombe::{difference, weighted};
use crate::stats::{Interval, JointTable, Metric, PairedSummary, PairedTally, Standing, wilson95};

use super::cells::CellSpec;
use super::per_cost::{Independent, Paired, PerCost, cost_granularity, per_cost};
use super::reach::{CompareReach, battle_reach, duel_reach, reaches};

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
    /// Each point's weight, adding to 1 (a range envelope's); empty: equal weights.
    pub point_weights: Vec<f64>,
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
    /// The paired outcome behind `summary`, for per-cost readings.
    pub paired: Paired,
    /// Whether A, B and the opponent can attack at the point.
    pub reach: CompareReach,
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
    /// The overall comparison per cost ([`super::per_cost`]); `None` when a cost is not
    /// positive.
    pub per_cost: Option<PerCost>,
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

/// Run a comparison. Weights: opponents' weights, split over conditions by
/// `point_weights` (equally without them).
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
    let equal = 1.0 / spec.points.len() as f64;
    let share = |i: usize| spec.point_weights.get(i).copied().unwrap_or(equal);
    let mut labels: Vec<(String, Point, f64)> = Vec::new();
    let mut reach_of: Vec<CompareReach> = Vec::new();
    let mut keys = Vec::new();
    if spec.exact && !matches!(spec.versus, Versus::Targets(_)) {
        return Err("--exact works for attack runs (--target); duels have no exact solver".into());
    }
    let metric = spec.metric.name();
    let pairs: Vec<Paired> = match &spec.versus {
        Versus::Opponents(opponents) => {
            if spec.metric != Metric::Win {
                return Err("against opponents (duels) the metric is win".into());
            }
            let mut kernels = Vec::new();
            for (name, w) in opponents {
                for (i, (p, c)) in spec.points.iter().zip(&conditions).enumerate() {
                    let duel = |x: &str| R::duel(catalogue, x, name, c, &spec.options, spec.policy, spec.max_turns);
                    kernels.push(R::paired_duel(duel(&spec.a)?, duel(&spec.b)?, spec.metric)?);
                    let (a, versus_a) = duel_reach::<R>(catalogue, &spec.a, name, c, &spec.options);
                    let (b, versus_b) = duel_reach::<R>(catalogue, &spec.b, name, c, &spec.options);
                    reach_of.push(CompareReach { a, b, versus_a: Some(versus_a), versus_b: Some(versus_b) });
                    keys.push(cell_key(&key.matchup(name, p, &metric)));
                    labels.push((name.clone(), p.clone(), w * share(i)));
                }
            }
            run_matchups(&kernels, &keys, config, observer)?.into_iter().map(Paired::Sampled).collect()
        }
        Versus::Targets(targets) => {
            if spec.metric == Metric::Win {
                return Err("against targets (attack runs) the metric is turns or kill-by-turn:K".into());
            }
            let mut kernels = Vec::new();
            let mut exact = Vec::new();
            for t in targets {
                let shown = R::display_name(catalogue, Role::Target, t)?;
                for (i, (p, c)) in spec.points.iter().zip(&conditions).enumerate() {
                    let attack =
                        |x: &str| R::attack_run(catalogue, x, t, c, &spec.options, spec.policy, spec.max_turns);
                    if spec.exact {
                        let value = |run: R::AttackRun| R::exact_run(&run).metric_value(spec.metric);
                        exact.push(Paired::Exact { a: value(attack(&spec.a)?), b: value(attack(&spec.b)?) });
                    } else {
                        kernels.push(R::paired_run(attack(&spec.a)?, attack(&spec.b)?, spec.metric)?);
                        keys.push(cell_key(&key.matchup(&shown, p, &metric)));
                    }
                    let can = |x: &str| reaches::<R>(catalogue, x, t, c, &spec.options);
                    reach_of.push(CompareReach { a: can(&spec.a), b: can(&spec.b), versus_a: None, versus_b: None });
                    labels.push((shown.clone(), p.clone(), share(i)));
                }
            }
            if spec.exact {
                exact
            } else {
                run_matchups(&kernels, &keys, config, observer)?.into_iter().map(Paired::Sampled).collect()
            }
        }
    };
    let matchups: Vec<Matchup> = labels
        .into_iter()
        .zip(pairs)
        .zip(reach_of)
        .map(|(((versus, point, weight), paired), reach)| {
            let summary = match paired {
                Paired::Sampled(t) => t.summary(),
                Paired::Exact { a, b } => PairedSummary::exact(a, b),
            };
            Matchup { versus, point, weight, summary, paired, reach }
        })
        .collect();
    let overall = PairedSummary::weighted(&matchups.iter().map(|m| (m.weight, m.summary)).collect::<Vec<_>>());
    let (a_points, b_points) = (R::points(catalogue, &spec.a)?, R::points(catalogue, &spec.b)?);
    let parts: Vec<(f64, Paired)> = matchups.iter().map(|m| (m.weight, m.paired)).collect();
    let step = cost_granularity::<R>(catalogue);
    // Turns to kill: a side that never kills in some matchup (no weapon in reach, or
    // every run censored at the cap + 1) has unbounded turns per cost.
    let censored = f64::from(spec.max_turns) + 1.0;
    let never = |reach: fn(&CompareReach) -> bool, value: fn(&PairedSummary) -> f64| {
        spec.metric == Metric::Turns && matchups.iter().any(|m| !reach(&m.reach) || value(&m.summary) >= censored)
    };
    let never = [never(|r| r.a, |s| s.a), never(|r| r.b, |s| s.b)];
    let per_cost = per_cost(&parts, (overall.a, overall.b), spec.metric, (a_points, b_points), step)
        .map(|c| c.never_killing(never));
    Ok(CompareResult { metric: spec.metric, a_points, b_points, exact: spec.exact, matchups, overall, per_cost })
}

/// How `compare --battle` pairs A's battles with B's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pairing {
    /// Common random numbers: for each matchup one cell, keyed by everything but A and
    /// B; trial i plays A's battle and B's battle from the same generator state (see
    /// [`crate::engine::battle::PairedBattles`]) and counts the pair in a joint 3x3
    /// table; differences get Newcombe's paired interval.
    #[default]
    Crn,
    /// Independent cells, each keyed as `volley battle` keys it (so each rate equals
    /// `volley battle X FORCE` at that seed); differences get Newcombe's independent
    /// interval.
    Independent,
}

impl Pairing {
    /// Accepted names, the default first.
    pub const NAMES: [&'static str; 2] = ["crn", "independent"];

    pub fn name(self) -> &'static str {
        match self {
            Pairing::Crn => "crn",
            Pairing::Independent => "independent",
        }
    }

    /// How battles are paired and the difference's interval made, for reports.
    pub fn method(self) -> &'static str {
        match self {
            Pairing::Crn => {
                "common random numbers: per trial one generator, seeded from the matchup's cell \
(keyed without A or B) and the trial, that A's battle and B's battle each replay; \
difference interval: Newcombe's paired method 10 from the joint table of results; \
combined over matchups by MOVER"
            }
            Pairing::Independent => {
                "independent: A's and B's battles are independent cells, each keyed as `volley battle` \
keys it; difference interval: Newcombe's method 10 for independent proportions; combined over \
matchups by MOVER"
            }
        }
    }
}

impl std::str::FromStr for Pairing {
    type Err = String;
    fn from_str(s: &str) -> Result<Pairing, String> {
        match s {
            "crn" => Ok(Pairing::Crn),
            "independent" => Ok(Pairing::Independent),
            _ => Err(format!("unknown pairing `{s}` (expected one of: {})", Pairing::NAMES.join(", "))),
        }
    }
}

/// One result (win, draw or loss) of A and of B, and their difference, as proportions
/// in [0, 1] with 95% intervals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResultComparison {
    pub a: f64,
    pub a_ci: Interval,
    pub b: f64,
    pub b_ci: Interval,
    /// P(A has the result) − P(B has it).
    pub difference: f64,
    /// The difference's interval under the pairing used.
    pub difference_ci: Interval,
    /// The interval two independent runs of the same size would give (the same as
    /// `difference_ci` for independent pairing).
    pub independent_ci: Interval,
    /// Correlation (φ) of "A has the result" and "B has it" over paired battles; `None`
    /// for independent pairing or when undefined (the result never or always happens).
    pub correlation: Option<f64>,
}

impl ResultComparison {
    fn from_paired(s: &PairedSummary, correlation: Option<f64>) -> ResultComparison {
        ResultComparison {
            a: s.a,
            a_ci: s.a_ci(),
            b: s.b,
            b_ci: s.b_ci(),
            difference: s.difference,
            difference_ci: s.paired_ci(),
            independent_ci: s.independent_ci(),
            correlation,
        }
    }

    /// From A's and B's counts of the result in independent runs.
    fn independent((ka, na): (u64, u64), (kb, nb): (u64, u64)) -> ResultComparison {
        let (a, b) = (ka as f64 / na.max(1) as f64, kb as f64 / nb.max(1) as f64);
        let (a_ci, b_ci) = (wilson95(ka, na), wilson95(kb, nb));
        let d = difference(a, a_ci, b, b_ci);
        ResultComparison { a, a_ci, b, b_ci, difference: a - b, difference_ci: d, independent_ci: d, correlation: None }
    }

    /// Half the paired width over half the independent width (`None` when the latter is 0).
    pub fn width_ratio(&self) -> Option<f64> {
        let i = self.independent_ci.half_width();
        (i > 0.0).then(|| self.difference_ci.half_width() / i)
    }

    /// Whether the difference's interval excludes 0.
    pub fn significant(&self) -> bool {
        self.difference_ci.low > 0.0 || self.difference_ci.high < 0.0
    }
}

/// A battle comparison on one matchup: A's and B's results against one force at one point.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleMatchup {
    pub versus: String,
    pub point: Point,
    pub weight: f64,
    pub a_trials: u64,
    pub b_trials: u64,
    /// Win, draw (draw or no result at the cap), loss: indexed by [`Standing`].
    pub results: [ResultComparison; 3],
    /// The joint table of (A's result, B's result), for common random numbers.
    pub joint: Option<JointTable>,
    /// Whether A's force, B's force and the opposing force can attack at the point.
    pub reach: CompareReach,
    /// The initiative split of A's battle and of B's battle, each from the compared
    /// force's view (P(it wins | it acted first), P(it wins | the opposing force did)).
    pub initiative: [crate::stats::InitiativeSplit; 2],
}

impl BattleMatchup {
    /// Whether A's or B's battle here is decided by initiative.
    pub fn decided_by_initiative(&self) -> bool {
        self.initiative.iter().any(|s| s.decided_by_initiative())
    }
}

/// A battle comparison: every matchup and the weighted overall.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleCompare {
    pub pairing: Pairing,
    pub a_points: f64,
    pub b_points: f64,
    pub matchups: Vec<BattleMatchup>,
    /// Weighted over matchups, indexed by [`Standing`]: each rate and difference with the
    /// MOVER interval over the independently simulated matchups; the correlation is the
    /// weighted mean of the matchups' defined correlations.
    pub overall: [ResultComparison; 3],
    /// The win comparison read per cost (forces' points; [`super::per_cost`]); `None`
    /// when a force's cost is not positive.
    pub per_cost: Option<PerCost>,
}

impl BattleCompare {
    /// The weighted overall of the matchups at range `range` (the value of the `range`
    /// condition), indexed by [`Standing`]: the comparison a single-range run at that range
    /// gives. NaN when no matchup is at that range.
    pub fn at_range(&self, range: &str) -> [ResultComparison; 3] {
        let here: Vec<&BattleMatchup> =
            self.matchups.iter().filter(|m| m.point.get(crate::rules::axis::RANGE_AXIS) == range).collect();
        Standing::ALL.map(|r| overall(&here, r))
    }
}

/// Weighted overall of one result over matchups.
fn overall<M: std::borrow::Borrow<BattleMatchup>>(matchups: &[M], r: Standing) -> ResultComparison {
    let matchups: Vec<&BattleMatchup> = matchups.iter().map(|m| m.borrow()).collect();
    let nan = (f64::NAN, Interval { low: f64::NAN, high: f64::NAN });
    let combine = |f: &dyn Fn(&ResultComparison) -> (f64, Interval)| {
        let parts: Vec<(f64, f64, Interval)> = matchups
            .iter()
            .map(|m| {
                let (x, i) = f(&m.results[r as usize]);
                (m.weight, x, i)
            })
            .collect();
        weighted(&parts).unwrap_or(nan)
    };
    let (a, a_ci) = combine(&|c| (c.a, c.a_ci));
    let (b, b_ci) = combine(&|c| (c.b, c.b_ci));
    let (d, difference_ci) = combine(&|c| (c.difference, c.difference_ci));
    let (_, independent_ci) = combine(&|c| (c.difference, c.independent_ci));
    let defined: Vec<(f64, f64)> =
        matchups.iter().filter_map(|m| m.results[r as usize].correlation.map(|c| (m.weight, c))).collect();
    let total: f64 = defined.iter().map(|x| x.0).sum();
    let correlation = (total > 0.0).then(|| defined.iter().map(|(w, c)| w * c).sum::<f64>() / total);
    ResultComparison { a, a_ci, b, b_ci, difference: d, difference_ci, independent_ci, correlation }
}

/// A side's (count, trials) of each result in a battle tally, from side 0's view.
fn counts(t: &BattleTally) -> [(u64, u64); 3] {
    let drawn = t.draws + t.undecided;
    [(t.wins[0], t.trials), (drawn, t.trials), (t.trials - t.wins[0] - drawn, t.trials)]
}

/// Compare forces `a` and `b` against weighted opposing forces over `points` (weighted
/// by `point_weights`, one per point adding to 1, or equally when it is empty), the point's conditions for both sides: P(A wins) − P(B
/// wins), and the same for draws (a draw or no result at the cap) and losses.
///
/// With [`Pairing::Crn`] each matchup is one cell keyed by everything but A and B,
/// whose trials play A's and B's battles on common random numbers; the difference's
/// interval is Newcombe's paired method 10 from the joint table. With
/// [`Pairing::Independent`], A's and B's battles are independent cells, each keyed as
/// `volley battle` keys it, and the interval is Newcombe's independent method 10. Overall
/// intervals are the MOVER weighted means of the matchups'.
///
/// # Errors
/// A battle the ruleset refuses, or a cancelled run.
#[allow(clippy::too_many_arguments)]
pub fn run_battle_compare<R: Ruleset>(
    catalogue: &R::Catalogue,
    a: &ForceSpec,
    b: &ForceSpec,
    versus: &[(ForceSpec, f64)],
    points: &[Point],
    point_weights: &[f64],
    options: &R::Options,
    rules: super::battles::BattleTerms<'_>,
    pairing: Pairing,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<BattleCompare, String> {
    let pairs = options.pairs();
    let share = |i: usize| super::gauntlet::point_weight(point_weights, i, points.len());
    let mut compiled = Vec::new();
    let mut labels = Vec::new();
    let mut reach_of = Vec::new();
    let (mut a_points, mut b_points) = (f64::NAN, f64::NAN);
    for (o, w) in versus {
        for (i, p) in points.iter().enumerate() {
            let c = R::conditions(p)?;
            R::check_engagement(&c)?;
            let (ka, info) = rules.compile::<R>(catalogue, a, o, c, options)?;
            let (kb, info_b) = rules.compile::<R>(catalogue, b, o, c, options)?;
            let (ra, rb) = (battle_reach::<R>(catalogue, &info, &[c], options, None), {
                battle_reach::<R>(catalogue, &info_b, &[c], options, None)
            });
            reach_of.push(CompareReach {
                a: ra.can_attack(0),
                b: rb.can_attack(0),
                versus_a: Some(ra.can_attack(1)),
                versus_b: Some(rb.can_attack(1)),
            });
            (a_points, b_points) = (info.sides[0].1, info_b.sides[0].1);
            let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &info.policy, max_turns: info.max_turns };
            let key = |x: String| cell_key(&spec.battle(info.mode, &[x, o.canonical()], &[p.clone(), p.clone()]));
            let paired = cell_key(&format!("paired|{}", key_of(&spec, info.mode, o, p)));
            compiled.push((ka, kb, key(a.canonical()), key(b.canonical()), paired));
            labels.push((o.name.clone(), p.clone(), w * share(i)));
        }
    }
    // With independent pairing, each matchup's win counts (A's, B's), for the per-cost
    // reading (paired pairing keeps its joint table in the matchup).
    let mut independent_wins: Vec<Independent> = Vec::new();
    let matchups: Vec<BattleMatchup> = match pairing {
        Pairing::Crn => {
            let kernels: Vec<(PairedBattles<R::Battle>, u64)> =
                compiled.into_iter().map(|(a, b, _, _, key)| (PairedBattles { a, b }, key)).collect();
            let cells: Vec<Cell<'_, PairedBattles<R::Battle>>> =
                kernels.iter().map(|k| Cell { key: k.1, kernel: &k.0 }).collect();
            let tallies = run(&cells, config, observer)?;
            labels
                .into_iter()
                .zip(tallies)
                .zip(reach_of)
                .map(|(((versus, point, weight), t), reach)| BattleMatchup {
                    reach,
                    initiative: [t.a.initiative(0), t.b.initiative(0)],
                    versus,
                    point,
                    weight,
                    a_trials: t.a.trials,
                    b_trials: t.b.trials,
                    results: Standing::ALL
                        .map(|r| ResultComparison::from_paired(&t.joint.paired(r), t.joint.correlation(r))),
                    joint: Some(t.joint),
                })
                .collect()
        }
        Pairing::Independent => {
            let cells: Vec<Cell<'_, R::Battle>> = compiled
                .iter()
                .flat_map(|c| [Cell { key: c.2, kernel: &c.0 }, Cell { key: c.3, kernel: &c.1 }])
                .collect();
            let tallies = run(&cells, config, observer)?;
            labels
                .into_iter()
                .zip(tallies.chunks(2))
                .zip(reach_of)
                .map(|(((versus, point, weight), t), reach)| {
                    let (ca, cb) = (counts(&t[0]), counts(&t[1]));
                    independent_wins.push(Independent { a: ca[0], b: cb[0] });
                    BattleMatchup {
                        reach,
                        initiative: [t[0].initiative(0), t[1].initiative(0)],
                        versus,
                        point,
                        weight,
                        a_trials: t[0].trials,
                        b_trials: t[1].trials,
                        results: [0, 1, 2].map(|i| ResultComparison::independent(ca[i], cb[i])),
                        joint: None,
                    }
                })
                .collect()
        }
    };
    let overall = Standing::ALL.map(|r| overall(&matchups, r));
    let step = cost_granularity::<R>(catalogue);
    let win = overall[Standing::Win as usize];
    let per_cost = match pairing {
        Pairing::Crn => {
            let parts: Vec<(f64, Paired)> = matchups
                .iter()
                .filter_map(|m| m.joint.map(|j| (m.weight, Paired::Sampled(j.tally(Standing::Win)))))
                .collect();
            per_cost(&parts, (win.a, win.b), Metric::Win, (a_points, b_points), step)
        }
        Pairing::Independent => {
            let parts: Vec<(f64, Independent)> = matchups.iter().map(|m| m.weight).zip(independent_wins).collect();
            per_cost(&parts, (win.a, win.b), Metric::Win, (a_points, b_points), step)
        }
    };
    Ok(BattleCompare { pairing, a_points, b_points, overall, matchups, per_cost })
}

/// The key of a paired battle matchup: `volley battle`'s key with the compared side
/// written as `(compared)`, so both A's and B's battles draw from it.
fn key_of(spec: &CellSpec<'_>, mode: &str, o: &ForceSpec, p: &Point) -> String {
    spec.battle(mode, &["(compared)".to_string(), o.canonical()], &[p.clone(), p.clone()])
}
