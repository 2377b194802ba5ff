//! `meta`: the tournament a set of builds (or forces) implies. Every player meets every
//! other in both seatings ([`super::gauntlet`]'s matchups, the players as their own
//! field); the measured scores make a symmetric constant-sum game, whose mixed
//! equilibrium ([`crate::stats::equilibrium`]) says what a field of optimising players
//! would bring. The shares' intervals come from a parametric bootstrap of the matchup
//! tallies; replicator dynamics show how a field drifts from a given start.

use rand_distr::{Binomial, Distribution};
use rayon::prelude::*;

use crate::engine::{cell_key, stream_rng};
use crate::output::number::significant;
use crate::output::{Column, Table};
use crate::stats::equilibrium::{Scores, against, dominated, replicator, solve, symmetrise};
use crate::stats::newcombe::weighted;
use crate::stats::{Interval, wilson95};

use super::gauntlet::Matchup;
use super::tables::{Part, RULESET, Supplied, TableDecl};

/// How the equilibrium is qualified and the field evolved.
#[derive(Debug, Clone)]
pub struct MetaSettings {
    /// Bootstrap replicates for the intervals (0: none, intervals are the point).
    pub bootstrap: u32,
    /// Seed of the bootstrap's generators (the run's seed): the same seed gives the same
    /// intervals on any thread count.
    pub seed: u64,
    /// Replicator generations (0: no trajectory beyond the start).
    pub generations: u32,
    /// The replicator's starting weights, one per player; `None` = uniform.
    pub start: Option<Vec<f64>>,
}

/// A solved meta. Matrix entries, shares, values and the trajectory are rounded to
/// [`DIGITS`] significant digits (their sums are 1 within 1e-11).
#[derive(Debug, Clone)]
pub struct Meta {
    /// The players (builds or forces) and their costs in the ruleset's unit.
    pub players: Vec<(String, f64)>,
    /// Row's expected score against column (win 1, draw ½), both seatings pooled and the
    /// condition points weighted equally; `matrix[i][j] + matrix[j][i] = 1`.
    pub matrix: Scores,
    /// Each entry's 95% interval: per cell, the mean of the Wilson bounds of P(win) and
    /// P(win or draw) (conservative: the two are positively correlated), combined over
    /// seatings and points by MOVER; the diagonal is ½ by symmetry. Valid at 0 and 1.
    pub matrix_ci95: Vec<Vec<Interval>>,
    /// Engagements per (ordered pair, point) cell: the fewest played.
    pub trials: u64,
    /// Equilibrium shares (sum 1) and their bootstrap 95% intervals: the 2.5% and 97.5%
    /// points of the shares solved on resampled tallies, widened to hold the point share.
    pub shares: Vec<f64>,
    pub shares_ci95: Vec<Interval>,
    /// Each player's expected score against the equilibrium field (½ for the players
    /// in its support, at most ½ for the others, up to solver precision).
    pub value: Vec<f64>,
    /// The equilibrium's guaranteed score (½ for a symmetric game).
    pub game_value: f64,
    /// For each player, the first player that dominates it, by index.
    pub dominated: Vec<Option<usize>>,
    /// Replicator trajectory: generation 0 (the start) to the last, one mix each.
    pub trajectory: Vec<Vec<f64>>,
    /// Bootstrap replicates behind the intervals.
    pub bootstrap: u32,
    /// Ordered pairs (side, opponent), by index, where the side cannot attack the
    /// opponent at some condition point: such a matchup is decided by reach alone.
    pub cannot_attack: Vec<(usize, usize)>,
}

/// Significant digits the reported values keep: the linear program and the replicator
/// are accurate to about 1e-9, so further digits are round-off.
const DIGITS: usize = 12;

/// Per ordered pair and point: (row, column, wins, draws, trials).
struct Cell {
    row: usize,
    col: usize,
    wins: u64,
    draws: u64,
    trials: u64,
}

/// The measured (unsymmetrised) score matrix of `cells`, each point weighted equally.
fn measured(n: usize, cells: &[Cell], mut score: impl FnMut(&Cell) -> f64) -> Scores {
    let mut sum = vec![vec![0.0; n]; n];
    let mut count = vec![vec![0u32; n]; n];
    for c in cells {
        sum[c.row][c.col] += score(c);
        count[c.row][c.col] += 1;
    }
    (0..n)
        .map(|i| (0..n).map(|j| if count[i][j] == 0 { 0.5 } else { sum[i][j] / count[i][j] as f64 }).collect())
        .collect()
}

fn score(wins: u64, draws: u64, trials: u64) -> f64 {
    (wins as f64 + 0.5 * draws as f64) / trials.max(1) as f64
}

/// A cell's score and its 95% interval: the mean of the Wilson bounds of P(win) and
/// P(win or draw).
fn cell_interval(c: &Cell) -> (f64, Interval) {
    let (w, wd) = (wilson95(c.wins, c.trials), wilson95(c.wins + c.draws, c.trials));
    (score(c.wins, c.draws, c.trials), Interval { low: (w.low + wd.low) / 2.0, high: (w.high + wd.high) / 2.0 })
}

/// The interval of the symmetrised entry (i, j): the cells of i against j and the
/// flipped cells of j against i, each weighted equally.
fn entry_interval(cells: &[Cell], i: usize, j: usize) -> Interval {
    if i == j {
        return Interval { low: 0.5, high: 0.5 };
    }
    let parts: Vec<(f64, f64, Interval)> = cells
        .iter()
        .filter_map(|c| {
            let (p, ci) = cell_interval(c);
            if (c.row, c.col) == (i, j) {
                Some((1.0, p, ci))
            } else if (c.row, c.col) == (j, i) {
                Some((1.0, 1.0 - p, Interval { low: 1.0 - ci.high, high: 1.0 - ci.low }))
            } else {
                None
            }
        })
        .collect();
    weighted(&parts)
        .map_or(Interval { low: 0.0, high: 1.0 }, |(_, ci)| Interval { low: ci.low.max(0.0), high: ci.high.min(1.0) })
}

/// The 2.5% and 97.5% points of `v` (sorted in place; linear interpolation).
fn percentile95(v: &mut [f64]) -> Interval {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let h = q * (v.len() - 1) as f64;
        let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
        v[lo] + (h - lo as f64) * (v[hi] - v[lo])
    };
    Interval { low: at(0.025), high: at(0.975) }
}

/// Solve the meta of `players` (name, cost) from their `rows` (every player against
/// every player, as a gauntlet of the players against themselves counts them).
///
/// # Errors
/// Fewer than two players, a pair never played, or a linear program that fails.
pub fn solve_meta(players: &[(String, f64)], rows: &[Matchup], settings: &MetaSettings) -> Result<Meta, String> {
    let n = players.len();
    if n < 2 {
        return Err("a meta needs at least two players".into());
    }
    let index = |name: &str| players.iter().position(|(p, _)| p == name);
    let mut cells = Vec::with_capacity(rows.len());
    let mut cannot_attack = Vec::new();
    for r in rows {
        let (Some(row), Some(col)) = (index(&r.side), index(&r.opponent)) else {
            return Err(format!("matchup {} against {} is not between players", r.side, r.opponent));
        };
        for (ok, pair) in [(r.can_attack.0, (row, col)), (r.can_attack.1, (col, row))] {
            if !ok && pair.0 != pair.1 && !cannot_attack.contains(&pair) {
                cannot_attack.push(pair);
            }
        }
        cells.push(Cell { row, col, wins: r.wins, draws: r.draws, trials: r.trials });
    }
    for i in 0..n {
        for j in 0..n {
            if i != j && !cells.iter().any(|c| c.row == i && c.col == j) {
                return Err(format!("{} never met {}", players[i].0, players[j].0));
            }
        }
    }
    let matrix = symmetrise(&measured(n, &cells, |c| score(c.wins, c.draws, c.trials)));
    let equilibrium = solve(&matrix)?;
    let key = cell_key("meta bootstrap");
    let replicates: Vec<Vec<f64>> = (0..settings.bootstrap)
        .into_par_iter()
        .map(|b| {
            let mut rng = stream_rng(settings.seed, key, b as u64);
            let m = measured(n, &cells, |c| {
                let p_win = c.wins as f64 / c.trials.max(1) as f64;
                let w = Binomial::new(c.trials, p_win).map_or(c.wins, |d| d.sample(&mut rng));
                let rest = c.trials - w;
                let p_draw = if c.trials > c.wins { c.draws as f64 / (c.trials - c.wins) as f64 } else { 0.0 };
                let d = Binomial::new(rest, p_draw.min(1.0)).map_or(0, |d| d.sample(&mut rng));
                score(w, d, c.trials)
            });
            solve(&symmetrise(&m)).map(|e| e.shares)
        })
        .collect::<Result<_, String>>()?;
    let shares_ci95: Vec<Interval> = (0..n)
        .map(|i| {
            if replicates.is_empty() {
                return Interval { low: equilibrium.shares[i], high: equilibrium.shares[i] };
            }
            let ci = percentile95(&mut replicates.iter().map(|r| r[i]).collect::<Vec<_>>());
            // A percentile interval need not hold the point estimate (the bootstrap's mean
            // share can sit to one side of it); the reported interval always does.
            Interval { low: ci.low.min(equilibrium.shares[i]), high: ci.high.max(equilibrium.shares[i]) }
        })
        .collect();
    let round_interval = |i: Interval| Interval { low: significant(i.low, DIGITS), high: significant(i.high, DIGITS) };
    let matrix_ci95: Vec<Vec<Interval>> =
        (0..n).map(|i| (0..n).map(|j| entry_interval(&cells, i, j)).collect()).collect();
    let start = settings.start.clone().unwrap_or_else(|| vec![1.0; n]);
    let mut trajectory = replicator(&matrix, &start, settings.generations)?;
    trajectory.iter_mut().for_each(|mix| mix.iter_mut().for_each(|x| *x = significant(*x, DIGITS)));
    let round = |v: Vec<f64>| v.into_iter().map(|x| significant(x, DIGITS)).collect::<Vec<_>>();
    Ok(Meta {
        players: players.to_vec(),
        value: round(against(&matrix, &equilibrium.shares)),
        dominated: dominated(&matrix),
        trials: cells.iter().map(|c| c.trials).min().unwrap_or(0),
        matrix: matrix.iter().map(|r| round(r.clone())).collect(),
        matrix_ci95: matrix_ci95
            .into_iter()
            .map(|r: Vec<Interval>| r.into_iter().map(round_interval).collect())
            .collect(),
        shares: round(equilibrium.shares),
        shares_ci95: shares_ci95.into_iter().map(round_interval).collect(),
        game_value: significant(equilibrium.value, DIGITS),
        trajectory,
        bootstrap: settings.bootstrap,
        cannot_attack,
    })
}

/// `meta_shares`.
pub const SHARES: TableDecl = TableDecl {
    name: "meta_shares",
    title: "",
    about: "One row per player (build or force) of `volley meta`: its share of the mixed equilibrium of the \
            players' matchup matrix, with a bootstrap 95% interval over the matchup tallies.",
    parts: &[Part::Own(&[
        RULESET,
        Column::text("player", "the build or force"),
        Column::float("cost", "its cost in the ruleset's unit"),
        Column::float("share", "its equilibrium share (the shares sum to 1), with its bootstrap 95% interval")
            .with_ci95(),
        Column::float("value", "its expected score (win 1, draw 1/2) against the equilibrium field"),
        Column::text("dominated_by", "a player that scores at least as well against everyone, better against one"),
    ])],
};

/// `meta_matrix`.
pub const MATRIX: TableDecl = TableDecl {
    name: "meta_matrix",
    title: "",
    about: "One row per ordered pair of players of `volley meta`: the row player's expected score (win 1, draw 1/2) \
            against the column player, both seatings pooled and the conditions weighted equally.",
    parts: &[Part::Own(&[
        RULESET,
        Column::text("player", "the row player"),
        Column::text("opponent", "the column player"),
        Column::float("score", "the player's expected score, with its bootstrap 95% interval").with_ci95(),
    ])],
};

/// `meta_replicator`.
pub const REPLICATOR: TableDecl = TableDecl {
    name: "meta_replicator",
    title: "",
    about: "One row per generation and player of `volley meta`'s replicator dynamics: each generation a \
            player's share grows in proportion to its expected score against the current field.",
    parts: &[Part::Own(&[
        RULESET,
        Column::int("generation", "0 is the starting field"),
        Column::text("player", "the build or force"),
        Column::float("share", "its share of the field"),
    ])],
};

impl Meta {
    /// The `meta_shares`, `meta_matrix` and `meta_replicator` tables, for ruleset `ruleset`.
    pub fn tables(&self, ruleset: &str) -> [Table; 3] {
        let none = Supplied::default();
        let mut shares = SHARES.table(&none);
        for (i, (name, cost)) in self.players.iter().enumerate() {
            let by = self.dominated[i].map(|j| self.players[j].0.clone()).unwrap_or_default();
            let ci = self.shares_ci95[i];
            shares.push(vec![
                ruleset.into(),
                name.as_str().into(),
                (*cost).into(),
                self.shares[i].into(),
                ci.low.into(),
                ci.high.into(),
                self.value[i].into(),
                by.into(),
            ]);
        }
        let mut matrix = MATRIX.table(&none);
        for (i, (a, _)) in self.players.iter().enumerate() {
            for (j, (b, _)) in self.players.iter().enumerate() {
                let ci = self.matrix_ci95[i][j];
                matrix.push(vec![
                    ruleset.into(),
                    a.as_str().into(),
                    b.as_str().into(),
                    self.matrix[i][j].into(),
                    ci.low.into(),
                    ci.high.into(),
                ]);
            }
        }
        let mut path = REPLICATOR.table(&none);
        for (g, mix) in self.trajectory.iter().enumerate() {
            for (i, (name, _)) in self.players.iter().enumerate() {
                path.push(vec![ruleset.into(), (g as u32).into(), name.as_str().into(), mix[i].into()]);
            }
        }
        [shares, matrix, path]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::axis::Point;

    fn row(a: &str, b: &str, wins: u64, draws: u64, trials: u64) -> Matchup {
        Matchup {
            side: a.into(),
            opponent: b.into(),
            weight: 1.0,
            point: Point::new(&[], &[]).unwrap(),
            point_weight: 1.0,
            trials,
            wins,
            draws,
            losses: trials - wins - draws,
            mean_turns: None,
            can_attack: (true, true),
            initiative: crate::stats::initiative::InitiativeSplit::new((0, 0), (0, 0)),
            destroyed_milli: (0, 0),
        }
    }

    fn settings() -> MetaSettings {
        MetaSettings { bootstrap: 200, seed: 1, generations: 50, start: None }
    }

    /// Rock, paper, scissors with symmetric matchups measured over 2,000 engagements a
    /// seating, and a strictly worse rock (`Pebble`).
    fn planted() -> (Vec<(String, f64)>, Vec<Matchup>) {
        let names = ["Rock", "Paper", "Scissors", "Pebble"];
        // P(row wins) per ordered pair; draws 10% everywhere off the diagonal
        let win = [[0.45, 0.2, 0.7, 0.6], [0.7, 0.45, 0.2, 0.75], [0.2, 0.7, 0.45, 0.3], [0.3, 0.15, 0.6, 0.45]];
        let n = 2000u64;
        let mut rows = Vec::new();
        for (i, a) in names.iter().enumerate() {
            for (j, b) in names.iter().enumerate() {
                rows.push(row(a, b, (win[i][j] * n as f64) as u64, n / 10, n));
            }
        }
        (names.iter().map(|s| (s.to_string(), 100.0)).collect(), rows)
    }

    #[test]
    fn planted_rock_paper_scissors_gets_thirds_within_the_intervals_and_the_dominated_build_nothing() {
        let (players, rows) = planted();
        let m = solve_meta(&players, &rows, &settings()).unwrap();
        for i in 0..3 {
            assert!((m.shares[i] - 1.0 / 3.0).abs() < 1e-9, "{:?}", m.shares);
            let ci = m.shares_ci95[i];
            assert!(ci.low <= 1.0 / 3.0 && 1.0 / 3.0 <= ci.high, "{ci:?}");
            assert!(ci.high - ci.low > 0.0, "the bootstrap must move the shares: {ci:?}");
        }
        assert_eq!(m.shares[3], 0.0);
        assert_eq!(m.dominated[3], Some(0), "Rock dominates Pebble");
        assert!(m.dominated[..3].iter().all(Option::is_none));
        assert!((m.game_value - 0.5).abs() < 1e-9);
        for i in 0..4 {
            for j in 0..4 {
                assert!((m.matrix[i][j] + m.matrix[j][i] - 1.0).abs() < 1e-11);
            }
        }
        // the replicator drives the dominated build out
        let last = m.trajectory.last().unwrap();
        assert!(last[3] < m.trajectory[0][3], "{last:?}");
    }

    #[test]
    fn a_matchup_never_won_keeps_an_interval_above_0() {
        let players = vec![("A".to_string(), 1.0), ("B".to_string(), 1.0)];
        let rows = vec![
            row("A", "B", 0, 0, 500),
            row("B", "A", 500, 0, 500),
            row("A", "A", 0, 500, 500),
            row("B", "B", 0, 500, 500),
        ];
        let m = solve_meta(&players, &rows, &settings()).unwrap();
        assert_eq!(m.matrix[0][1], 0.0);
        let ci = m.matrix_ci95[0][1];
        assert!(ci.low == 0.0 && ci.high > 0.0 && ci.high < 0.01, "{ci:?}");
        let ci = m.matrix_ci95[1][0];
        assert!(ci.high == 1.0 && ci.low < 1.0 && ci.low > 0.99, "{ci:?}");
        assert_eq!(m.shares, vec![0.0, 1.0]);
    }

    #[test]
    fn the_bootstrap_is_reproducible_and_depends_on_the_seed() {
        let (players, rows) = planted();
        let a = solve_meta(&players, &rows, &settings()).unwrap();
        let b = solve_meta(&players, &rows, &settings()).unwrap();
        assert_eq!(a.shares_ci95, b.shares_ci95);
        let other = solve_meta(&players, &rows, &MetaSettings { seed: 2, ..settings() }).unwrap();
        assert_ne!(a.shares_ci95, other.shares_ci95);
    }

    #[test]
    fn a_pair_never_played_is_refused() {
        let (players, rows) = planted();
        let rows: Vec<Matchup> = rows.into_iter().filter(|r| !(r.side == "Rock" && r.opponent == "Paper")).collect();
        assert!(solve_meta(&players, &rows, &settings()).unwrap_err().contains("Rock never met Paper"));
        assert!(solve_meta(&players[..1], &[], &settings()).is_err());
    }

    #[test]
    fn tables_have_one_row_per_player_pair_and_generation() {
        let (players, rows) = planted();
        let m = solve_meta(&players, &rows, &settings()).unwrap();
        let [s, x, r] = m.tables("test");
        assert_eq!(s.rows.len(), 4);
        assert_eq!(x.rows.len(), 16);
        assert_eq!(r.rows.len(), 4 * 51);
    }
}
