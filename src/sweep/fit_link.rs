//! The cost-to-outcome links of `volley fit`: how a build's points cost turns its duel
//! outcomes against a field into one result, and the cost at which that result equals a
//! target, with intervals.
//!
//! A duel's outcome does not depend on what the sides cost; the link says what a cost
//! buys. Both links price a side by its value per point against the field (a budget of B
//! points fields B / cost copies of a build, and strength adds over copies), and both are
//! scale-free: multiplying every cost by the same factor changes no result.
//!
//! - [`FitMetric::Win`] (Bradley–Terry per point): a matchup's win odds k / l, with
//!   draws counted half (k = P(win) + P(draw)/2, l = 1 − k), are the ratio of the sides'
//!   strengths; with strength proportional to copies, the chance that X's budget beats
//!   an equal budget of the opponent (cost `c_o`) is `k c_o / (k c_o + l c)` at X's cost
//!   `c`. The result is its weighted mean over the field's matchups. Against one
//!   opponent at target 1/2 the fair cost is `c_o × k / l`.
//! - [`FitMetric::KillPoints`] (points traded): X destroys `c_o × P(opponent dies)` and
//!   loses `c × P(X dies)` per duel (mutual kills count both ways, timeouts neither);
//!   the result is the share of the points destroyed that were the opponent's, summed
//!   over the field by weight: `N / (N + c D)` with `N = Σ w c_o P(o dies)`,
//!   `D = Σ w P(X dies)`. At target 1/2 the fair cost is `N / D`: X trades points
//!   evenly.
//!
//! Both results fall strictly as the cost rises (while X sometimes wins and sometimes
//! loses), so the fitted cost is a root of a monotone function. Monte Carlo outcomes
//! give a 95% interval for the result at any cost (delta method over each cell's
//! multinomial outcome counts; cells are independent), and the interval of the fitted
//! cost is the set of costs whose result interval contains the target (test
//! inversion). Exact outcomes give zero-width intervals.

use crate::stats::Z95;

/// The result the fit targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitMetric {
    /// Win chance per point (Bradley–Terry), draws counted half.
    Win,
    /// Share of the points destroyed that were the opponent's.
    KillPoints,
}

impl FitMetric {
    pub const NAMES: &'static [&'static str] = &["win", "kill-points"];
    pub fn name(self) -> &'static str {
        match self {
            FitMetric::Win => "win",
            FitMetric::KillPoints => "kill-points",
        }
    }
}

impl std::str::FromStr for FitMetric {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "win" => Ok(FitMetric::Win),
            "kill-points" => Ok(FitMetric::KillPoints),
            other => Err(format!("unknown metric `{other}`: expected one of {}", Self::NAMES.join(", "))),
        }
    }
}

/// One matchup cell from the fitted side's view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// How much the cell counts (the opponent's field weight over the grid size), > 0.
    pub weight: f64,
    /// The opponent's cost in points, > 0.
    pub opponent_points: f64,
    /// P(win), P(loss), P(mutual kill), P(timeout): sums to 1.
    pub p: [f64; 4],
    /// Duels behind `p` (Monte Carlo), or `None` for an exact law.
    pub trials: Option<u64>,
}

const WIN: usize = 0;
const LOSS: usize = 1;
const MUTUAL: usize = 2;
const TIMEOUT: usize = 3;

impl Outcome {
    /// (k, l) of the module docs for `metric`.
    pub fn k_l(&self, metric: FitMetric) -> (f64, f64) {
        let p = &self.p;
        match metric {
            FitMetric::Win => {
                let k = p[WIN] + 0.5 * (p[MUTUAL] + p[TIMEOUT]);
                (k, 1.0 - k)
            }
            FitMetric::KillPoints => (p[WIN] + p[MUTUAL], p[LOSS] + p[MUTUAL]),
        }
    }
}

/// The result at cost `c` (> 0) over `cells`, in 0..=1; NaN when no cell trades any
/// points (kill points with only timeouts).
pub fn result(cells: &[Outcome], metric: FitMetric, c: f64) -> f64 {
    result_and_sd(cells, metric, c).0
}

/// The result at cost `c` and its standard error (0 for exact cells).
fn result_and_sd(cells: &[Outcome], metric: FitMetric, c: f64) -> (f64, f64) {
    let total: f64 = cells.iter().map(|o| o.weight).sum();
    match metric {
        FitMetric::Win => {
            let (mut r, mut var) = (0.0, 0.0);
            for o in cells {
                let (k, l) = o.k_l(metric);
                let den = k * o.opponent_points + l * c;
                let w = o.weight / total;
                r += w * if den > 0.0 { k * o.opponent_points / den } else { 0.5 };
                if let Some(n) = o.trials {
                    // score 1, 0, 1/2, 1/2 per duel: var = E[s²] − k².
                    let s2 = o.p[WIN] + 0.25 * (o.p[MUTUAL] + o.p[TIMEOUT]);
                    let var_k = (s2 - k * k).max(0.0) / n.max(1) as f64;
                    let g = if den > 0.0 { o.opponent_points * c / (den * den) } else { 0.0 };
                    var += w * w * g * g * var_k;
                }
            }
            (r, var.sqrt())
        }
        FitMetric::KillPoints => {
            let (mut big_n, mut big_d, mut var_n, mut var_d, mut cov) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for o in cells {
                let (k, l) = o.k_l(metric);
                let w = o.weight / total;
                big_n += w * o.opponent_points * k;
                big_d += w * l;
                if let Some(n) = o.trials {
                    let n = n.max(1) as f64;
                    var_n += (w * o.opponent_points).powi(2) * k * (1.0 - k) / n;
                    var_d += w * w * l * (1.0 - l) / n;
                    cov += w * w * o.opponent_points * (o.p[MUTUAL] - k * l) / n;
                }
            }
            let den = big_n + c * big_d;
            if den <= 0.0 {
                return (f64::NAN, f64::NAN);
            }
            let (a, b) = (c * big_d / (den * den), -c * big_n / (den * den));
            let var = a * a * var_n + b * b * var_d + 2.0 * a * b * cov;
            (big_n / den, var.max(0.0).sqrt())
        }
    }
}

/// Where a fitted cost lies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Root {
    /// The result equals the target at this cost.
    At(f64),
    /// The result stays above the target at any cost (X never loses enough).
    AlwaysAbove,
    /// The result stays below the target at any cost.
    AlwaysBelow,
}

impl Root {
    pub fn value(self) -> Option<f64> {
        match self {
            Root::At(c) => Some(c),
            _ => None,
        }
    }
    pub fn status(self) -> FitStatus {
        match self {
            Root::At(_) => FitStatus::Fitted,
            Root::AlwaysAbove => FitStatus::Unbeatable,
            Root::AlwaysBelow => FitStatus::Hopeless,
        }
    }
}

/// What became of a build in a fit (`status` in tables and JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FitStatus {
    /// A cost was fitted.
    Fitted,
    /// The field cannot bring its result down to the target at any cost.
    Unbeatable,
    /// Its result stays below the target at any cost, even free.
    Hopeless,
    /// Every matchup of it has a side that cannot attack: nothing to price it from.
    CannotAttack,
    /// The joint fit found no costs (no fixed point, or it ran off).
    NotConverged,
}

impl FitStatus {
    pub fn name(self) -> &'static str {
        match self {
            FitStatus::Fitted => "fitted",
            FitStatus::Unbeatable => "unbeatable",
            FitStatus::Hopeless => "hopeless",
            FitStatus::CannotAttack => "cannot-attack",
            FitStatus::NotConverged => "not-converged",
        }
    }
}

/// Largest log-distance from the reference cost searched (costs from e^-700 to e^700
/// times it stay finite and positive).
const REACH: f64 = 700.0;

/// The cost at which the decreasing function `f` equals `target`: a bracket around
/// `reference` widened (doubling its log-width) until it holds the root or reaches
/// e^±700 times the reference, then bisection on the log of the cost to a relative
/// 1e-12. Where no bracket within that reach holds it, the result stays above (below)
/// the target at any cost.
pub fn root(f: impl Fn(f64) -> f64, target: f64, reference: f64) -> Root {
    if f(reference).is_nan() {
        // No cell trades any points (kill points with only timeouts).
        return Root::AlwaysBelow;
    }
    let centre = reference.ln();
    let mut width = 1.0;
    let (mut lo, mut hi) = (centre - width, centre + width);
    while f(lo.exp()) < target {
        if width >= REACH {
            return Root::AlwaysBelow;
        }
        width = (width * 2.0).min(REACH);
        lo = centre - width;
    }
    width = 1.0;
    while f(hi.exp()) > target {
        if width >= REACH {
            return Root::AlwaysAbove;
        }
        width = (width * 2.0).min(REACH);
        hi = centre + width;
    }
    while hi - lo > 1e-12 * (1.0 + lo.abs().max(hi.abs())) {
        let mid = 0.5 * (lo + hi);
        if f(mid.exp()) > target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Root::At((0.5 * (lo + hi)).exp())
}

/// The fitted cost and its 95% interval (module docs); `reference` (> 0) sets where the
/// search looks (the build's current cost).
pub fn fit_cost(cells: &[Outcome], metric: FitMetric, target: f64, reference: f64) -> (Root, Option<(f64, f64)>) {
    let at = root(|c| result(cells, metric, c), target, reference);
    let Root::At(c) = at else { return (at, None) };
    if cells.iter().all(|o| o.trials.is_none()) {
        return (at, Some((c, c)));
    }
    let bound = |side: f64| {
        root(
            |x| {
                let (r, sd) = result_and_sd(cells, metric, x);
                (r + side * Z95 * sd).clamp(0.0, 1.0)
            },
            target,
            reference,
        )
    };
    let low = match bound(-1.0) {
        Root::At(x) => x,
        Root::AlwaysBelow => 0.0,
        Root::AlwaysAbove => f64::INFINITY,
    };
    let high = match bound(1.0) {
        Root::At(x) => x,
        Root::AlwaysBelow => 0.0,
        Root::AlwaysAbove => f64::INFINITY,
    };
    (at, Some((low.min(c), high.max(c))))
}

/// The result at cost `c` and its 95% interval, clamped to 0..=1.
pub fn result_interval(cells: &[Outcome], metric: FitMetric, c: f64) -> (f64, (f64, f64)) {
    let (r, sd) = result_and_sd(cells, metric, c);
    (r, ((r - Z95 * sd).max(0.0), (r + Z95 * sd).min(1.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact(weight: f64, opponent_points: f64, p: [f64; 4]) -> Outcome {
        Outcome { weight, opponent_points, p, trials: None }
    }

    #[test]
    fn one_opponent_has_the_closed_form_fair_cost() {
        // Win: k = 0.6 + 0.1/2 = 0.65, l = 0.35: fair cost at 1/2 is 10 × 0.65/0.35.
        let o = [exact(1.0, 10.0, [0.6, 0.3, 0.05, 0.05])];
        let (r, ci) = fit_cost(&o, FitMetric::Win, 0.5, 7.0);
        let expect = 10.0 * 0.65 / 0.35;
        assert!((r.value().unwrap() - expect).abs() < 1e-9 * expect, "{r:?}");
        assert_eq!(ci.map(|(a, b)| a == b), Some(true));
        // At target 0.6: c = c_o k (1 − t) / (l t).
        let (r, _) = fit_cost(&o, FitMetric::Win, 0.6, 7.0);
        let expect = 10.0 * 0.65 * 0.4 / (0.35 * 0.6);
        assert!((r.value().unwrap() - expect).abs() < 1e-9 * expect);
        // Kill points: N / D = 10 × 0.65 / 0.35 too (mutual kills count both ways).
        let (r, _) = fit_cost(&o, FitMetric::KillPoints, 0.5, 7.0);
        assert!((r.value().unwrap() - 10.0 * 0.65 / 0.35).abs() < 1e-8);
    }

    #[test]
    fn mirror_matches_give_the_opponents_cost_and_extremes_no_cost() {
        let mirror = [exact(2.0, 12.5, [0.4, 0.4, 0.1, 0.1])];
        for m in [FitMetric::Win, FitMetric::KillPoints] {
            let (r, _) = fit_cost(&mirror, m, 0.5, 3.0);
            assert!((r.value().unwrap() - 12.5).abs() < 1e-9, "{m:?} {r:?}");
        }
        let never_loses = [exact(1.0, 5.0, [0.9, 0.0, 0.0, 0.1])];
        assert_eq!(fit_cost(&never_loses, FitMetric::KillPoints, 0.5, 5.0).0, Root::AlwaysAbove);
        let never_wins = [exact(1.0, 5.0, [0.0, 1.0, 0.0, 0.0])];
        assert_eq!(fit_cost(&never_wins, FitMetric::Win, 0.5, 5.0).0, Root::AlwaysBelow);
    }

    #[test]
    fn results_fall_as_the_cost_rises_and_intervals_cover_the_fit() {
        let cells = [
            Outcome { weight: 3.0, opponent_points: 8.0, p: [0.5, 0.3, 0.1, 0.1], trials: Some(10_000) },
            Outcome { weight: 1.0, opponent_points: 15.0, p: [0.2, 0.7, 0.05, 0.05], trials: Some(10_000) },
        ];
        for m in [FitMetric::Win, FitMetric::KillPoints] {
            let rs: Vec<f64> = [1.0, 5.0, 10.0, 20.0, 80.0].iter().map(|&c| result(&cells, m, c)).collect();
            assert!(rs.windows(2).all(|w| w[1] < w[0]), "{m:?}: {rs:?}");
            let (r, ci) = fit_cost(&cells, m, 0.5, 10.0);
            let (c, (lo, hi)) = (r.value().unwrap(), ci.unwrap());
            assert!(lo < c && c < hi, "{m:?}: {lo} {c} {hi}");
            assert!((result(&cells, m, c) - 0.5).abs() < 1e-9);
            // More duels, a narrower interval.
            let more: Vec<Outcome> = cells.iter().map(|o| Outcome { trials: Some(1_000_000), ..*o }).collect();
            let (lo2, hi2) = fit_cost(&more, m, 0.5, 10.0).1.unwrap();
            assert!(hi2 - lo2 < (hi - lo) / 5.0, "{m:?}");
        }
    }
}
