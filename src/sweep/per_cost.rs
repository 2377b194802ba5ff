//! Cost-aware verdicts: a paired comparison of A and B read per unit of cost, which side
//! is better per cost, and the cost at which B would break even with A ("parity cost").
//!
//! The costs are constants, so a side's value per cost is its value times a constant
//! and the per-cost difference is a contrast `sa·A − sb·B` of the paired means, whose
//! interval is the paired interval of that contrast
//! ([`crate::stats::PairedTally::contrast`]; Newcombe's method 10 with each side's
//! Wilson limits scaled, for probabilities). Matchups combine by MOVER with their weights,
//! as the plain difference does.
//!
//! - Probabilities (more is better): the value per 100 cost units, `100·p / cost`.
//! - Turns to kill (fewer is better): the turns a 100-unit budget of copies takes when
//!   copies share the work, `turns · cost / 100` (the assumption the cost fits make: a
//!   budget fields budget / cost copies and strength adds over copies).
//!
//! Parity cost: the cost `c` of B at which the per-cost difference is 0. With A's cost
//! `ca`, weighted means Ā and B̄: `c = ca·B̄/Ā` for probabilities, `c = ca·Ā/B̄` for
//! turns. Its 95% interval is found by test inversion: the costs `c` at which the
//! per-cost difference's interval (B priced at `c`) contains 0. The per-cost
//! difference moves one way with `c`, so the interval's ends are where its upper and
//! lower limits cross 0; each is found by bisection on the log of the cost between
//! 10⁻⁶ and 10⁶ times the parity cost, an open end reported as 0 or unbounded.

use crate::rules::{Role, Ruleset};
use crate::stats::newcombe::{difference, weighted};
use crate::stats::{Interval, Metric, PairedTally, wilson95};

/// Which side is better per cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    A,
    B,
    /// The per-cost difference's interval contains 0 (a sidegrade).
    Tie,
}

impl Better {
    /// `a`, `b` or `tie` (JSON `better_per_cost`).
    pub fn name(self) -> &'static str {
        match self {
            Better::A => "a",
            Better::B => "b",
            Better::Tie => "tie",
        }
    }
}

/// One matchup's paired outcome as the per-cost reading needs it: the tally for Monte
/// Carlo, or A's and B's exact values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Paired {
    Sampled(PairedTally),
    Exact { a: f64, b: f64 },
}

/// A and B's outcomes in one matchup, as the per-cost reading needs them: a contrast
/// `sa·A − sb·B` with its 95% interval.
pub trait Contrast {
    /// `sa·A − sb·B` and its 95% interval (zero width when exact).
    fn contrast(&self, scales: (f64, f64)) -> (f64, Interval);
    /// Whether the values are exact (no interval).
    fn is_exact(&self) -> bool;
}

/// Two independent samples of a probability: A's and B's (successes, trials).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Independent {
    pub a: (u64, u64),
    pub b: (u64, u64),
}

impl Contrast for Independent {
    /// Newcombe's independent method 10 with each side's Wilson limits scaled.
    fn contrast(&self, scales: (f64, f64)) -> (f64, Interval) {
        let scaled = |(k, n): (u64, u64), s: f64| {
            let w = wilson95(k, n);
            (s * k as f64 / n.max(1) as f64, Interval { low: s * w.low, high: s * w.high })
        };
        let ((x, xi), (y, yi)) = (scaled(self.a, scales.0), scaled(self.b, scales.1));
        (x - y, difference(x, xi, y, yi))
    }

    fn is_exact(&self) -> bool {
        false
    }
}

impl Contrast for Paired {
    fn is_exact(&self) -> bool {
        matches!(self, Paired::Exact { .. })
    }

    fn contrast(&self, scales: (f64, f64)) -> (f64, Interval) {
        match self {
            Paired::Sampled(t) => t.contrast(scales),
            Paired::Exact { a, b } => {
                let d = scales.0 * a - scales.1 * b;
                (d, Interval { low: d, high: d })
            }
        }
    }
}

/// The parity cost and its 95% interval, in cost units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parity {
    /// Unrounded.
    pub cost: f64,
    /// Unrounded; `low` may be 0 and `high` infinite (open ends).
    pub ci: (f64, f64),
    /// Rounded to the catalogue's cost granularity (the ends outwards).
    pub rounded: f64,
    pub rounded_ci: (f64, f64),
}

/// A comparison read per cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PerCost {
    /// A's and B's values per cost (module docs: per 100 units, or turns of a 100-unit
    /// budget).
    pub a: f64,
    pub b: f64,
    /// A's per-cost value minus B's, and its paired 95% interval.
    pub difference: f64,
    pub difference_ci: Interval,
    pub better: Better,
    /// `None` when B breaks even at no cost (one side has a zero value).
    pub parity: Option<Parity>,
    /// The catalogue's cost granularity used for rounding.
    pub granularity: f64,
    /// Turns to kill only: whether A, B never kill in some matchup (no weapon in reach,
    /// or no kill in any run within the turn cap). Such a side's turns are censored at
    /// the cap + 1, which no number of copies shortens, so its turns per cost are
    /// unbounded ([`PerCost::never_killing`]). Always `[false, false]` for probabilities.
    pub never: [bool; 2],
}

impl PerCost {
    /// This reading of turns to kill when A, B never kill in some matchup (`never`):
    /// the side's value per cost is unbounded (`f64::INFINITY`), the other side is
    /// better per cost at any price (a tie when neither kills), and there is no parity
    /// cost. Unchanged when neither flag is set.
    pub fn never_killing(self, never: [bool; 2]) -> PerCost {
        if never == [false, false] {
            return self;
        }
        let a = if never[0] { f64::INFINITY } else { self.a };
        let b = if never[1] { f64::INFINITY } else { self.b };
        let difference = a - b; // ±∞, or NaN when neither kills.
        let better = match never {
            [false, true] => Better::A,
            [true, false] => Better::B,
            _ => Better::Tie,
        };
        let difference_ci = Interval { low: difference, high: difference };
        PerCost { a, b, difference, difference_ci, better, parity: None, never, ..self }
    }
}

/// Scales `(sa, sb)` of A's and B's values for costs `ca`, `cb` (module docs).
fn scales(metric: Metric, ca: f64, cb: f64) -> (f64, f64) {
    if metric.higher_is_better() { (100.0 / ca, 100.0 / cb) } else { (ca / 100.0, cb / 100.0) }
}

/// The weighted per-cost contrast over matchups `(weight, paired)` at costs `ca`, `cb`.
fn contrast<P: Contrast>(parts: &[(f64, P)], metric: Metric, ca: f64, cb: f64) -> (f64, Interval) {
    let s = scales(metric, ca, cb);
    let v: Vec<(f64, f64, Interval)> = parts
        .iter()
        .map(|(w, p)| {
            let (d, i) = p.contrast(s);
            (*w, d, i)
        })
        .collect();
    weighted(&v).unwrap_or((f64::NAN, Interval { low: f64::NAN, high: f64::NAN }))
}

/// Read a comparison per cost: `parts` are the matchups' weights and paired outcomes,
/// `overall` A's and B's weighted means over them, `ca` and `cb` (> 0) the sides' costs and
/// `granularity` (> 0) the catalogue's cost step. `None` when a cost is not positive.
pub fn per_cost<P: Contrast>(
    parts: &[(f64, P)],
    overall: (f64, f64),
    metric: Metric,
    (ca, cb): (f64, f64),
    granularity: f64,
) -> Option<PerCost> {
    if !(ca > 0.0 && cb > 0.0 && ca.is_finite() && cb.is_finite()) {
        return None;
    }
    let (sa, sb) = scales(metric, ca, cb);
    let (difference, difference_ci) = contrast(parts, metric, ca, cb);
    let higher = metric.higher_is_better();
    let better = if difference_ci.low > 0.0 {
        if higher { Better::A } else { Better::B }
    } else if difference_ci.high < 0.0 {
        if higher { Better::B } else { Better::A }
    } else {
        Better::Tie
    };
    let parity = parity(parts, overall, metric, ca, granularity);
    Some(PerCost {
        a: sa * overall.0,
        b: sb * overall.1,
        difference,
        difference_ci,
        better,
        parity,
        granularity,
        never: [false, false],
    })
}

/// Costs searched around the parity cost, as factors.
const SPAN: f64 = 1e6;

/// The parity cost (module docs).
fn parity<P: Contrast>(parts: &[(f64, P)], (a, b): (f64, f64), metric: Metric, ca: f64, g: f64) -> Option<Parity> {
    if !(a > 0.0 && b > 0.0) {
        return None;
    }
    let cost = if metric.higher_is_better() { ca * b / a } else { ca * a / b };
    if parts.iter().all(|(_, p)| p.is_exact()) {
        let r = round_to(cost, g);
        return Some(Parity { cost, ci: (cost, cost), rounded: r, rounded_ci: (r, r) });
    }
    // g(c): the per-cost difference made increasing in B's cost c.
    let sign = if metric.higher_is_better() { 1.0 } else { -1.0 };
    let limits = |c: f64| {
        let (_, i) = contrast(parts, metric, ca, c);
        if sign > 0.0 { (i.low, i.high) } else { (-i.high, -i.low) }
    };
    // The first cost (from below) at which `f` (rising in c) reaches 0.
    let crossing = |f: &dyn Fn(f64) -> f64| -> Option<f64> {
        let (mut lo, mut hi) = ((cost / SPAN).ln(), (cost * SPAN).ln());
        if f(lo.exp()) >= 0.0 {
            return Some(0.0);
        }
        if f(hi.exp()) < 0.0 {
            return None;
        }
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if f(mid.exp()) >= 0.0 {
                hi = mid;
            } else {
                lo = mid;
            }
            if hi - lo < 1e-12 {
                break;
            }
        }
        Some((0.5 * (lo + hi)).exp())
    };
    let low = crossing(&|c| limits(c).1).unwrap_or(cost).min(cost);
    let high = crossing(&|c| limits(c).0).unwrap_or(f64::INFINITY).max(cost);
    let high = if high >= cost * SPAN { f64::INFINITY } else { high };
    Some(Parity {
        cost,
        ci: (low, high),
        rounded: round_to(cost, g),
        rounded_ci: ((low / g).floor() * g, if high.is_finite() { (high / g).ceil() * g } else { high }),
    })
}

/// `x` rounded to the nearest multiple of `g`.
pub fn round_to(x: f64, g: f64) -> f64 {
    if g > 0.0 && x.is_finite() { (x / g).round() * g } else { x }
}

/// The catalogue's cost granularity: the greatest common divisor of its (positive)
/// costs, read with up to three decimals (costs that need more round to 0.001); 1 when
/// no cost is positive.
pub fn granularity(costs: &[f64]) -> f64 {
    let positive: Vec<f64> = costs.iter().copied().filter(|c| *c > 0.0 && c.is_finite()).collect();
    if positive.is_empty() {
        return 1.0;
    }
    let mut scale = 1.0;
    for _ in 0..3 {
        if positive.iter().all(|c| ((c * scale) - (c * scale).round()).abs() < 1e-6) {
            break;
        }
        scale *= 10.0;
    }
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let g = positive.iter().map(|c| (c * scale).round() as u64).fold(0, gcd);
    g.max(1) as f64 / scale
}

/// The catalogue's cost granularity ([`super::per_cost::granularity`]) over every side
/// it lists as an opponent; 1 when it lists none.
pub fn cost_granularity<R: Ruleset>(catalogue: &R::Catalogue) -> f64 {
    let names = R::select(catalogue, Role::Opponent, "all").unwrap_or_default();
    let costs: Vec<f64> = names.iter().filter_map(|n| R::points(catalogue, n).ok()).collect();
    granularity(&costs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{PairedSummary, Scale};

    fn tally(pairs: &[(i64, i64, u64)]) -> PairedTally {
        let mut t = PairedTally::new(Scale::Proportion);
        for &(a, b, n) in pairs {
            for _ in 0..n {
                t.add(a, b);
            }
        }
        t
    }

    #[test]
    fn granularity_is_the_costs_common_step() {
        assert_eq!(granularity(&[200.0, 140.0, 160.0]), 20.0);
        assert_eq!(granularity(&[216.0, 86.0, 159.0]), 1.0);
        assert_eq!(granularity(&[2.5, 7.5, 0.0]), 2.5);
        assert_eq!(granularity(&[0.25, 1.0]), 0.25);
        assert_eq!(granularity(&[]), 1.0);
        assert_eq!(round_to(1234.4, 5.0), 1235.0);
    }

    #[test]
    fn the_raw_winner_can_lose_per_cost_and_parity_solves_the_equality() {
        // A wins 60%, B 40%, A costs twice B: per 100, A 30%/100 < B 40%/100.
        let t = tally(&[(1, 0, 3000), (0, 1, 1000), (1, 1, 3000), (0, 0, 3000)]);
        let s = t.summary();
        let parts = [(1.0, Paired::Sampled(t))];
        let p = per_cost(&parts, (s.a, s.b), Metric::Win, (200.0, 100.0), 10.0).unwrap();
        assert!((p.a - 0.3).abs() < 1e-12 && (p.b - 0.4).abs() < 1e-12, "{p:?}");
        assert_eq!(p.better, Better::B);
        assert!(p.difference_ci.contains(p.difference) && p.difference_ci.high < 0.0);
        let parity = p.parity.unwrap();
        // B breaks even at 200 × 0.4 / 0.6 = 133.3; rounded to 10: 130.
        assert!((parity.cost - 200.0 * 0.4 / 0.6).abs() < 1e-9);
        assert_eq!(parity.rounded, 130.0);
        let (lo, hi) = parity.ci;
        assert!(lo < parity.cost && parity.cost < hi && hi < 200.0 && lo > 100.0, "{parity:?}");
        // At the interval's ends the per-cost interval just touches 0.
        let at = |c: f64| contrast(&parts, Metric::Win, 200.0, c).1;
        assert!(at(lo).high.abs() < 1e-9 && at(hi).low.abs() < 1e-9, "{:?} {:?}", at(lo), at(hi));
        assert!(parity.rounded_ci.0 <= lo && parity.rounded_ci.1 >= hi);
    }

    #[test]
    fn exact_turns_read_per_cost_as_the_turns_of_a_budget() {
        // A kills in 2 turns at 300, B in 3 turns at 150: per 100, A 6 turns, B 4.5.
        let parts = [(1.0, Paired::Exact { a: 2.0, b: 3.0 })];
        let s = PairedSummary::exact(2.0, 3.0);
        let p = per_cost(&parts, (s.a, s.b), Metric::Turns, (300.0, 150.0), 1.0).unwrap();
        assert_eq!((p.a, p.b, p.difference), (6.0, 4.5, 1.5));
        assert_eq!(p.better, Better::B);
        let parity = p.parity.unwrap();
        assert_eq!((parity.cost, parity.ci), (200.0, (200.0, 200.0)));
        // Equal per cost: a tie.
        let p = per_cost(&parts, (s.a, s.b), Metric::Turns, (300.0, 200.0), 1.0).unwrap();
        assert_eq!(p.better, Better::Tie);
    }

    #[test]
    fn a_side_that_never_kills_is_unbounded_per_cost_whatever_its_price() {
        // B never kills: its turns are the cap + 1 = 21, which read per cost at a low
        // price (21 × 150 / 100 = 31.5) would beat A's 10 × 400 / 100 = 40.
        let parts = [(1.0, Paired::Exact { a: 10.0, b: 21.0 })];
        let plain = per_cost(&parts, (10.0, 21.0), Metric::Turns, (400.0, 150.0), 1.0).unwrap();
        assert_eq!(plain.better, Better::B, "the censored reading");
        let p = plain.never_killing([false, true]);
        assert_eq!((p.a, p.b, p.better, p.parity, p.never), (40.0, f64::INFINITY, Better::A, None, [false, true]));
        assert_eq!(p.difference, f64::NEG_INFINITY);
        assert_eq!(plain.never_killing([true, false]).better, Better::B);
        let neither = plain.never_killing([true, true]);
        assert!(neither.better == Better::Tie && neither.difference.is_nan());
        assert_eq!(plain.never_killing([false, false]), plain);
    }

    #[test]
    fn a_side_that_never_wins_has_no_parity() {
        let t = tally(&[(1, 0, 50), (0, 0, 50)]);
        let p = per_cost(&[(1.0, Paired::Sampled(t))], (t.summary().a, t.summary().b), Metric::Win, (10.0, 10.0), 1.0)
            .unwrap();
        assert_eq!((p.better, p.parity), (Better::A, None));
    }
}
