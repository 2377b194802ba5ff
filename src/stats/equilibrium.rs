//! Symmetric constant-sum games between builds: the mixed equilibrium of a score matrix
//! (a linear program, solved by `microlp`), domination by a pure strategy, and discrete
//! replicator dynamics.
//!
//! A score matrix `s` is square; `s[i][j]` is row `i`'s expected score against column
//! `j` (win 1, draw ½, loss 0), so every entry lies in [0, 1]. A symmetric game has
//! `s[i][j] + s[j][i] = 1` and `s[i][i] = ½`; [`symmetrise`] makes one from measured
//! scores. Its value is ½: an equilibrium mix scores at least ½ against every column.

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// A square matrix of scores in [0, 1], row against column.
pub type Scores = Vec<Vec<f64>>;

/// The symmetric game of measured scores `m` (row against column, each seat order
/// played): `s[i][j] = (m[i][j] + 1 − m[j][i]) / 2` for `i < j`, `s[j][i] = 1 − s[i][j]`
/// exactly, `s[i][i] = ½`. Both seatings of a pair are pooled, so a seat advantage
/// cancels.
pub fn symmetrise(m: &Scores) -> Scores {
    let n = m.len();
    let mut s = vec![vec![0.5; n]; n];
    for i in 0..n {
        for j in i + 1..n {
            s[i][j] = (m[i][j] + 1.0 - m[j][i]) / 2.0;
            s[j][i] = 1.0 - s[i][j];
        }
    }
    s
}

/// A mixed equilibrium of a score matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Equilibrium {
    /// Each row's share of the mix: non-negative, summing to 1.
    pub shares: Vec<f64>,
    /// The mix's guaranteed score: its least expected score against any column (½ for
    /// a symmetric game, up to the solver's precision).
    pub value: f64,
}

/// Shares below this are reported as 0 (solver round-off).
const ZERO_SHARE: f64 = 1e-9;

/// The maximin mix of `s`: shares `x` maximising `v` subject to `Σᵢ xᵢ s[i][j] ≥ v` for
/// every column `j`, `Σ x = 1`, `x ≥ 0`. For a symmetric game this is a mixed Nash
/// equilibrium: no build does better than ½ against it. When several mixes are optimal
/// the solver's vertex is returned; it depends only on `s`, so the same matrix gives the
/// same shares on every machine.
///
/// # Errors
/// An empty or non-square matrix, a score outside [0, 1] or not finite, or a solver
/// failure (named).
pub fn solve(s: &Scores) -> Result<Equilibrium, String> {
    let n = s.len();
    if n == 0 {
        return Err("the game has no players".into());
    }
    if let Some(i) = s.iter().position(|r| r.len() != n) {
        return Err(format!("the score matrix is not square: row {i} has {} entries for {n} players", s[i].len()));
    }
    for (i, row) in s.iter().enumerate() {
        if let Some(j) = row.iter().position(|v| !(0.0..=1.0).contains(v)) {
            return Err(format!("score of row {i} against column {j} is {}, outside [0, 1]", row[j]));
        }
    }
    let mut lp = Problem::new(OptimizationDirection::Maximize);
    let x: Vec<_> = (0..n).map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
    let v = lp.add_var(1.0, (0.0, 1.0));
    for j in 0..n {
        let mut terms: Vec<_> = x.iter().zip(s).map(|(&xi, row)| (xi, row[j])).collect();
        terms.push((v, -1.0));
        lp.add_constraint(terms.as_slice(), ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
    lp.add_constraint(ones.as_slice(), ComparisonOp::Eq, 1.0);
    let solution = lp
        .solve()
        .map_err(|e| format!("the equilibrium's linear program failed: {e}"))?
        .into_solution()
        .map_err(|_| "the equilibrium's linear program stopped before a solution".to_string())?;
    let mut shares: Vec<f64> = x.iter().map(|&xi| solution.var_value(xi).max(0.0)).collect();
    shares.iter_mut().filter(|p| **p < ZERO_SHARE).for_each(|p| *p = 0.0);
    let total: f64 = shares.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Err("the equilibrium's linear program gave no mix".into());
    }
    shares.iter_mut().for_each(|p| *p /= total);
    let value = (0..n).map(|j| (0..n).map(|i| shares[i] * s[i][j]).sum::<f64>()).fold(f64::INFINITY, f64::min);
    Ok(Equilibrium { shares, value })
}

/// Each row's expected score against the field mixed as `mix`: `(s · mix)ᵢ`.
pub fn against(s: &Scores, mix: &[f64]) -> Vec<f64> {
    s.iter().map(|row| row.iter().zip(mix).map(|(a, b)| a * b).sum()).collect()
}

/// For each row, the first other row that dominates it (scores at least as well against
/// every column and better against one), or `None`. Point estimates: a row within noise
/// of another may be reported either way.
pub fn dominated(s: &Scores) -> Vec<Option<usize>> {
    let n = s.len();
    (0..n)
        .map(|i| (0..n).find(|&j| j != i && (0..n).all(|k| s[j][k] >= s[i][k]) && (0..n).any(|k| s[j][k] > s[i][k])))
        .collect()
}

/// Discrete replicator dynamics from `start` (shares, normalised here): each generation
/// `xᵢ ← xᵢ (s·x)ᵢ / (xᵀ s x)`, a build's share growing with its score against the
/// current field. Returns generations 0 to `generations`, each a mix summing to 1. A
/// build at share 0 stays at 0.
///
/// # Errors
/// A start of the wrong length, negative or not finite, or all zero.
pub fn replicator(s: &Scores, start: &[f64], generations: u32) -> Result<Vec<Vec<f64>>, String> {
    if start.len() != s.len() {
        return Err(format!("the starting field has {} weights for {} players", start.len(), s.len()));
    }
    if start.iter().any(|w| !w.is_finite() || *w < 0.0) {
        return Err("starting weights must be finite and non-negative".into());
    }
    let total: f64 = start.iter().sum();
    if !(total > 0.0 && total.is_finite()) {
        return Err("the starting weights sum to 0 (or overflow)".into());
    }
    let mut x: Vec<f64> = start.iter().map(|w| w / total).collect();
    let mut path = Vec::with_capacity(generations as usize + 1);
    path.push(x.clone());
    for _ in 0..generations {
        let fit = against(s, &x);
        let mean: f64 = x.iter().zip(&fit).map(|(a, b)| a * b).sum();
        if mean > 0.0 {
            x.iter_mut().zip(&fit).for_each(|(xi, fi)| *xi *= fi / mean);
            let t: f64 = x.iter().sum();
            x.iter_mut().for_each(|xi| *xi /= t);
        }
        path.push(x.clone());
    }
    Ok(path)
}

/// A fixed pseudo-random symmetric game of `n` players (for tests and benchmarks): entry
/// (i, j), i < j, uniform in [0, 1) from a linear congruential sequence started at
/// `seed`; its mirror is 1 minus it; the diagonal ½.
#[allow(clippy::needless_range_loop)] // writes (i, j) and its mirror (j, i)
pub fn sample_game(n: usize, seed: u64) -> Scores {
    let mut m = vec![vec![0.5; n]; n];
    let mut h = seed;
    for i in 0..n {
        for j in i + 1..n {
            h = h.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            m[i][j] = (h >> 11) as f64 / (1u64 << 53) as f64;
            m[j][i] = 1.0 - m[i][j];
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &Scores, b: &Scores) {
        for (x, y) in a.iter().flatten().zip(b.iter().flatten()) {
            assert!((x - y).abs() < 1e-12, "{a:?} != {b:?}");
        }
    }

    fn rps(edge: f64) -> Scores {
        // rock beats scissors, scissors beat paper, paper beats rock
        let (w, l) = (0.5 + edge, 0.5 - edge);
        vec![vec![0.5, l, w], vec![w, 0.5, l], vec![l, w, 0.5]]
    }

    #[test]
    fn rock_paper_scissors_mixes_in_thirds() {
        let e = solve(&rps(0.3)).unwrap();
        for p in &e.shares {
            assert!((p - 1.0 / 3.0).abs() < 1e-9, "{:?}", e.shares);
        }
        assert!((e.value - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_dominant_build_takes_the_whole_mix_and_dominated_ones_get_nothing() {
        // row 0 beats everyone; row 2 is beaten by row 1 everywhere
        let m = vec![vec![0.5, 0.8, 0.9], vec![0.2, 0.5, 0.7], vec![0.1, 0.3, 0.5]];
        let e = solve(&m).unwrap();
        assert_eq!(e.shares, vec![1.0, 0.0, 0.0]);
        assert_eq!(dominated(&m), vec![None, Some(0), Some(0)]);
    }

    #[test]
    fn a_strictly_dominated_scissors_gets_no_share() {
        // rock, paper, scissors and a weaker scissors (row 3), which scissors dominates
        let s = vec![
            vec![0.5, 0.2, 0.8, 0.85],
            vec![0.8, 0.5, 0.2, 0.25],
            vec![0.2, 0.8, 0.5, 0.6],
            vec![0.15, 0.75, 0.4, 0.5],
        ];
        close(&symmetrise(&s), &s);
        let e = solve(&s).unwrap();
        assert_eq!(e.shares[3], 0.0, "{:?}", e.shares);
        assert!(e.shares[..3].iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-9), "{:?}", e.shares);
        assert_eq!(dominated(&s), vec![None, None, None, Some(2)]);
    }

    #[test]
    fn symmetrise_pools_both_seatings() {
        let m = vec![vec![0.9, 0.7], vec![0.1, 0.4]];
        let s = symmetrise(&m);
        close(&s, &vec![vec![0.5, 0.8], vec![0.2, 0.5]]);
        assert_eq!(s[0][1] + s[1][0], 1.0);
    }

    #[test]
    fn bad_matrices_are_refused() {
        assert!(solve(&vec![]).is_err());
        assert!(solve(&vec![vec![0.5, 0.5]]).unwrap_err().contains("not square"));
        assert!(solve(&vec![vec![f64::NAN]]).unwrap_err().contains("outside"));
    }

    #[test]
    fn replicator_keeps_mixes_and_drives_out_a_dominated_build() {
        let m = vec![vec![0.5, 0.8], vec![0.2, 0.5]];
        let path = replicator(&m, &[1.0, 1.0], 200).unwrap();
        assert_eq!(path.len(), 201);
        assert_eq!(path[0], vec![0.5, 0.5]);
        for x in &path {
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        }
        assert!(path[200][1] < 1e-6, "{:?}", path[200]);
        // the RPS equilibrium is a fixed point
        let third = vec![1.0 / 3.0; 3];
        let still = replicator(&rps(0.2), &third, 10).unwrap();
        assert!(still[10].iter().all(|p| (p - 1.0 / 3.0).abs() < 1e-12));
        assert!(replicator(&m, &[0.0, 0.0], 1).is_err());
        assert!(replicator(&m, &[1.0], 1).is_err());
    }

    #[test]
    fn a_200_build_game_solves() {
        let m = sample_game(200, 7);
        let e = solve(&m).unwrap();
        assert!((e.shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((e.value - 0.5).abs() < 1e-6, "{}", e.value);
        let vs = against(&m, &e.shares);
        // nothing beats the equilibrium
        assert!(vs.iter().all(|v| *v <= 0.5 + 1e-6), "{:?}", vs.iter().cloned().fold(0.0, f64::max));
    }
}
