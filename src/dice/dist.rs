//! Exact discrete distributions over a finite set of outcomes `0..len`.
//!
//! A [`Dist`] holds a weight per outcome and their total: P(i) = `weights[i] / total`.
//! With `W = u128` the weights are exact outcome counts (for dice: counts over
//! sides^k), so probabilities are exact fractions; with `W = f64` they are
//! probabilities, used when counts would overflow or a distribution is not a finite
//! count (an unbounded chain of re-rolls). Outcomes are plain indices: the ruleset
//! decides what an index means (a loss, a loss with flags, ...) and how two outcomes
//! combine.

use std::fmt::Debug;
use std::ops::{Add, Mul};

/// A weight: an exact count (`u128`) or a probability (`f64`).
pub trait Weight: Copy + PartialEq + Debug + Default + Add<Output = Self> + Mul<Output = Self> {
    fn from_u64(x: u64) -> Self;
    fn to_f64(self) -> f64;
    /// `self * other`, or `None` on overflow (never for `f64`).
    fn checked_mul(self, other: Self) -> Option<Self>;
    /// The exact integer value, for integer weights.
    fn exact(self) -> Option<u128>;
}

impl Weight for u128 {
    fn from_u64(x: u64) -> Self {
        x as u128
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn checked_mul(self, other: Self) -> Option<Self> {
        u128::checked_mul(self, other)
    }
    fn exact(self) -> Option<u128> {
        Some(self)
    }
}

impl Weight for f64 {
    fn from_u64(x: u64) -> Self {
        x as f64
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn checked_mul(self, other: Self) -> Option<Self> {
        Some(self * other)
    }
    fn exact(self) -> Option<u128> {
        None
    }
}

/// A distribution over outcomes `0..weights.len()`: P(i) = `weights[i] / total`.
/// Invariant: the weights sum to `total` (exactly for `u128`).
#[derive(Debug, Clone, PartialEq)]
pub struct Dist<W> {
    pub weights: Vec<W>,
    pub total: W,
}

impl<W: Weight> Dist<W> {
    /// Outcome `i` for sure, over `len` outcomes.
    pub fn point(len: usize, i: usize) -> Dist<W> {
        let mut weights = vec![W::default(); len];
        weights[i] = W::from_u64(1);
        Dist { weights, total: W::from_u64(1) }
    }

    /// Counts outcomes: every item of `outcomes` is one equally likely elementary event
    /// (e.g. one face, or one combination of faces), mapped to its outcome index.
    pub fn count(len: usize, outcomes: impl IntoIterator<Item = usize>) -> Dist<W> {
        let mut weights = vec![W::default(); len];
        let mut total = W::default();
        for i in outcomes {
            weights[i] = weights[i] + W::from_u64(1);
            total = total + W::from_u64(1);
        }
        Dist { weights, total }
    }

    pub fn len(&self) -> usize {
        self.weights.len()
    }

    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// P(outcome i).
    pub fn prob(&self, i: usize) -> f64 {
        self.weights[i].to_f64() / self.total.to_f64()
    }

    /// Every P(outcome i).
    pub fn probs(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.prob(i)).collect()
    }

    /// The same distribution with `f64` weights (probabilities).
    pub fn to_f64(&self) -> Dist<f64> {
        let t = self.total.to_f64();
        Dist { weights: self.weights.iter().map(|w| w.to_f64() / t).collect(), total: 1.0 }
    }

    /// Relabels outcomes: outcome i becomes `f(i)` in `0..len`.
    pub fn map(&self, len: usize, f: impl Fn(usize) -> usize) -> Dist<W> {
        let mut weights = vec![W::default(); len];
        for (i, &w) in self.weights.iter().enumerate() {
            let j = f(i);
            weights[j] = weights[j] + w;
        }
        Dist { weights, total: self.total }
    }

    /// The distribution of `op(a, b)` for independent a ~ self, b ~ other, over `len`
    /// outcomes. Panics if an integer total overflows (see [`Dist::fits_power`]).
    pub fn combine(&self, other: &Dist<W>, len: usize, op: impl Fn(usize, usize) -> usize) -> Dist<W> {
        let mut weights = vec![W::default(); len];
        for (i, &wa) in self.weights.iter().enumerate() {
            if wa == W::default() {
                continue;
            }
            for (j, &wb) in other.weights.iter().enumerate() {
                if wb == W::default() {
                    continue;
                }
                let k = op(i, j);
                weights[k] = weights[k] + wa * wb;
            }
        }
        let total = self.total.checked_mul(other.total).expect("distribution total overflows its weight type");
        Dist { weights, total }
    }

    /// Whether the total of `n` independent copies fits the weight type.
    pub fn fits_power(&self, n: u32) -> bool {
        let mut t = W::from_u64(1);
        for _ in 0..n {
            match t.checked_mul(self.total) {
                Some(x) => t = x,
                None => return false,
            }
        }
        true
    }

    /// The distribution of n independent copies folded with `op` (associative and
    /// commutative), starting from the outcome `identity`.
    pub fn power(&self, n: u32, identity: usize, op: impl Fn(usize, usize) -> usize) -> Dist<W> {
        let mut acc = Dist::point(self.len(), identity);
        for _ in 0..n {
            acc = acc.combine(self, self.len(), &op);
        }
        acc
    }

    /// Adds the outcome counts of disjoint cases, each weighted by its own total (for
    /// counts over a common set of elementary events, e.g. one case per face of a die).
    pub fn sum_cases(cases: &[Dist<W>]) -> Dist<W> {
        let len = cases.iter().map(Dist::len).max().unwrap_or(0);
        let mut weights = vec![W::default(); len];
        let mut total = W::default();
        for c in cases {
            for (i, &w) in c.weights.iter().enumerate() {
                weights[i] = weights[i] + w;
            }
            total = total + c.total;
        }
        Dist { weights, total }
    }
}

/// A pool of `n` dice with `sides` faces each, every face worth `value(face)` (face
/// 1..=sides): the law of the pool's total, as exact counts over sides^n (outcome k =
/// total k, up to n · max value). `None` when sides^n overflows a u128.
pub fn pool(n: u32, sides: u32, value: impl Fn(u32) -> usize) -> Option<Dist<u128>> {
    let max = (1..=sides).map(&value).max().unwrap_or(0);
    let len = n as usize * max + 1;
    let one: Dist<u128> = Dist::count(len, (1..=sides).map(&value));
    one.fits_power(n).then(|| one.power(n, 0, |a, b| a + b))
}

/// The outcome of a chain of re-rolls, in `f64`: each link either ends, contributing
/// an outcome drawn from `end` (a sub-distribution), or continues, contributing an
/// outcome from `more` and rolling another link. Contributions fold with `op`
/// (associative, commutative, e.g. a capped sum). Requires `sum(more) < 1`, and `order`
/// must list every outcome so that each `F[j]` with `op(i, j) = k`, `more[i] > 0`, `j != k`
/// comes before k (for a capped sum: ascending).
///
/// Solves F = end + more ⊛ F exactly (up to rounding), one outcome at a time:
/// `F[k] (1 − Σ_{i: op(i,k)=k} more[i]) = end[k] + Σ_{op(i,j)=k, j≠k} more[i]·F[j]`.
pub fn chain(end: &[f64], more: &[f64], order: &[usize], op: impl Fn(usize, usize) -> usize) -> Vec<f64> {
    let n = end.len();
    assert_eq!(more.len(), n, "end and more cover the same outcomes");
    let more_mass: f64 = more.iter().sum();
    assert!(more_mass < 1.0, "a chain must end: continuation mass {more_mass}");
    let links: Vec<usize> = (0..n).filter(|&i| more[i] > 0.0).collect();
    let mut f = vec![0.0; n];
    let mut done = vec![false; n];
    for &k in order {
        let mut s = end[k];
        let mut stay = 0.0;
        for &i in &links {
            if op(i, k) == k {
                stay += more[i];
            }
            for j in 0..n {
                if j != k && f[j] != 0.0 && op(i, j) == k {
                    debug_assert!(done[j], "chain order: outcome {j} needed before {k}");
                    s += more[i] * f[j];
                }
            }
        }
        f[k] = s / (1.0 - stay);
        done[k] = true;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add_capped(cap: usize) -> impl Fn(usize, usize) -> usize {
        move |a, b| (a + b).min(cap)
    }

    #[test]
    fn two_d6_sum_counts() {
        let d6: Dist<u128> = Dist::count(13, 1..=6);
        let two = d6.combine(&d6, 13, |a, b| a + b);
        assert_eq!(two.total, 36);
        assert_eq!(two.weights[7], 6);
        assert_eq!(two.weights[2], 1);
        assert_eq!(two.weights.iter().sum::<u128>(), 36);
    }

    #[test]
    fn pools_count_every_roll() {
        // 3d6 summed: 27 ways to make 10 out of 216
        let sum = pool(3, 6, |f| f as usize).unwrap();
        assert_eq!((sum.weights[10], sum.total), (27, 216));
        // 2d20 counting faces >= 15 as one success: 6·6 ways to get two
        let hits = pool(2, 20, |f| (f >= 15) as usize).unwrap();
        assert_eq!(hits.weights, vec![196, 168, 36]);
        assert!(pool(30, 20, |f| f as usize).is_none());
    }

    #[test]
    fn power_matches_repeated_combination_and_caps() {
        let coin: Dist<u128> = Dist::count(4, [0, 1]);
        let three = coin.power(3, 0, add_capped(3));
        assert_eq!(three.weights, vec![1, 3, 3, 1]);
        let capped = coin.power(5, 0, add_capped(3));
        assert_eq!(capped.weights, vec![1, 5, 10, 16]);
        assert!(coin.fits_power(127) && !coin.fits_power(128));
    }

    #[test]
    fn geometric_chain_matches_the_closed_form() {
        // Each link: stop with 1/2 adding 0, continue with 1/2 adding 1: P(k) = 2^-(k+1).
        let cap = 10;
        let mut end = vec![0.0; cap + 1];
        let mut more = vec![0.0; cap + 1];
        end[0] = 0.5;
        more[1] = 0.5;
        let order: Vec<usize> = (0..=cap).collect();
        let f = chain(&end, &more, &order, add_capped(cap));
        for (k, &p) in f.iter().enumerate().take(cap) {
            assert!((p - 0.5f64.powi(k as i32 + 1)).abs() < 1e-15, "k={k}");
        }
        assert!((f[cap] - 0.5f64.powi(cap as i32)).abs() < 1e-15);
    }
}
