//! Balance patch notes: a catalogue diff summed up per build, ranked by how much the
//! build moved.
//!
//! Per build, over every matchup (target or opponent) and grid cell of the scenario,
//! with equal weights:
//! - its cost in the old and the new catalogue (the ruleset's cost unit);
//! - its win rate: attack runs, P(kill within the cap) (exact); duels, P(A wins)
//!   (Monte Carlo on common random numbers);
//! - its kill points per 100 cost: attack runs, the target points it destroys per turn
//!   spent per 100 of its cost (`100 · kill rate · target cost / cost`, exact); duels,
//!   the opponent's cost it destroys per duel (won or both destroyed) per 100 of its own
//!   cost (`100 · P(opponent destroyed) · opponent cost / cost`).
//!
//! Each change new − old carries a 95% interval. Attack runs are exact (zero width).
//! Duels play both catalogues on the same random numbers, trial by trial, so each cell's
//! interval is paired: Newcombe's method 10 for the win rate, and for kill points per
//! cost the paired interval of the contrast `sa·new − sb·old` with each side's constant
//! scale (`100 · opponent cost / cost` in that catalogue;
//! [`crate::stats::PairedTally::contrast`]). Cells are played on separate streams, so
//! a build's mean over cells combines them as independent estimates (MOVER,
//! [`crate::stats::newcombe::weighted`]).
//!
//! Rank: builds by `change_size`, the larger of |Δ win rate| (a fraction of all fights)
//! and |Δ kill points per 100 cost| relative to the larger of its old and new values
//! (both in [0, 1]); ties keep the scenario's order.
//!
//! Verdict, read per cost on the build's own change: its kill points per 100 of its own
//! cost with every opponent priced as in the new catalogue in both (so a change of an
//! opponent's or target's price alone moves no verdict: what the build destroys is
//! worth more or less, the build is not stronger or weaker); the win rate where the
//! build has no cost. `unchanged` when none of its own values moved (exact values
//! equal, or every paired trial alike) and its cost is the same; else `stronger` or
//! `weaker` when the change's interval excludes 0, `sidegrade` when it contains 0. The
//! rank reads the same own change. `moved_by` says what moved: its `cost`, its
//! `results` (win rate or kill rate), the `opponent costs`.

use crate::stats::newcombe::weighted;
use crate::stats::{Interval, PairedTally};

/// One cell's measure of a build in both catalogues.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Change {
    /// Exact values (`None` where the measure has none, e.g. no cost).
    Exact { old: Option<f64>, new: Option<f64> },
    /// Paired trials: `tally` adds (new outcome, old outcome) per trial; the measure is
    /// `scales.0 · mean(new)` against `scales.1 · mean(old)`.
    Paired { tally: PairedTally, scales: (f64, f64) },
}

impl Change {
    /// Whether the outcomes behind the measure differ (exact values other than equal,
    /// or a paired trial that played differently), whatever the scales.
    #[cfg(test)]
    fn trials_differ(&self) -> bool {
        match *self {
            Change::Exact { old, new } => old != new,
            Change::Paired { tally, .. } => tally.sum_d2 != 0,
        }
    }

    /// (old, new, new − old, its 95% interval, whether anything moved); `None` without
    /// a value on both sides.
    fn read(&self) -> Option<(f64, f64, f64, Interval, bool)> {
        match *self {
            Change::Exact { old: Some(o), new: Some(n) } => {
                let d = n - o;
                Some((o, n, d, Interval { low: d, high: d }, d != 0.0))
            }
            Change::Exact { .. } => None,
            Change::Paired { tally, scales: (sn, so) } => {
                let t = tally.trials.max(1) as f64;
                let (n, o) = (sn * tally.sum_a as f64 / t, so * tally.sum_b as f64 / t);
                let (d, ci) = tally.contrast((sn, so));
                Some((o, n, d, ci, tally.sum_d2 != 0 || sn != so))
            }
        }
    }
}

/// Everything a build's summary is made of: one [`Change`] per cell and measure.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildParts {
    pub build: String,
    pub cost_old: Option<f64>,
    pub cost_new: Option<f64>,
    pub win: Vec<Change>,
    pub kill_points_per_100: Vec<Change>,
    /// The same kill points per 100 with every opponent priced as in the new catalogue
    /// in both (the build's own change; module docs). Empty: the same as
    /// `kill_points_per_100`.
    pub own_kill_points_per_100: Vec<Change>,
    /// Whether an opponent's (or target's) cost differs between the catalogues.
    pub opponents_repriced: bool,
    /// Whether the build's results moved: an exact kill chance or rate, or a paired
    /// trial that played differently.
    pub results_moved: bool,
}

/// A measure old → new over a build's cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moved {
    pub old: f64,
    pub new: f64,
    pub change: f64,
    /// 95% interval of `change` (zero width when exact).
    pub change_ci95: Interval,
    /// Whether any cell's value moved at all.
    pub moved: bool,
}

impl Moved {
    /// The equal-weight mean of the cells' changes; `None` without a cell with values.
    fn over(parts: &[Change]) -> Option<Moved> {
        let read: Vec<_> = parts.iter().filter_map(Change::read).collect();
        if read.is_empty() {
            return None;
        }
        let n = read.len() as f64;
        let old = read.iter().map(|r| r.0).sum::<f64>() / n;
        let new = read.iter().map(|r| r.1).sum::<f64>() / n;
        let v: Vec<(f64, f64, Interval)> = read.iter().map(|r| (1.0, r.2, r.3)).collect();
        let (change, change_ci95) = weighted(&v)?;
        Some(Moved { old, new, change, change_ci95, moved: read.iter().any(|r| r.4) })
    }

    /// -1, 0 or 1: the sign of the change when its interval excludes 0.
    fn direction(&self) -> i8 {
        if self.change_ci95.low > 0.0 {
            1
        } else if self.change_ci95.high < 0.0 {
            -1
        } else {
            0
        }
    }

    /// The change relative to the larger of the old and new values (0 when both are 0).
    fn relative(&self) -> f64 {
        let scale = self.old.abs().max(self.new.abs());
        if scale > 0.0 { (self.change / scale).abs() } else { 0.0 }
    }
}

/// What a build's change amounts to, per cost (module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Stronger,
    Weaker,
    /// The change's interval contains 0.
    Sidegrade,
    Unchanged,
}

impl Verdict {
    /// `stronger`, `weaker`, `sidegrade`, `unchanged` (JSON `verdict`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Stronger => "stronger",
            Verdict::Weaker => "weaker",
            Verdict::Sidegrade => "sidegrade",
            Verdict::Unchanged => "unchanged",
        }
    }
}

/// One build's line of the patch notes.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildChange {
    pub build: String,
    /// Matchups × grid cells the means are taken over.
    pub cells: usize,
    pub cost_old: Option<f64>,
    pub cost_new: Option<f64>,
    pub win: Option<Moved>,
    pub kill_points_per_100: Option<Moved>,
    /// The build's own change in kill points per 100 (module docs); the same as
    /// `kill_points_per_100` when no opponent was repriced.
    pub own_kill_points_per_100: Option<Moved>,
    /// The rank key (module docs), in [0, 1].
    pub change_size: f64,
    pub verdict: Verdict,
    /// What moved: `cost`, `results`, `opponent costs` (in that order; empty when nothing).
    pub moved_by: Vec<&'static str>,
}

impl BuildChange {
    fn of(parts: &BuildParts) -> BuildChange {
        let win = Moved::over(&parts.win);
        let kp = Moved::over(&parts.kill_points_per_100);
        let own =
            if parts.own_kill_points_per_100.is_empty() { kp } else { Moved::over(&parts.own_kill_points_per_100) };
        let change_size = win.map_or(0.0, |w| w.change.abs()).max(own.map_or(0.0, |k| k.relative()));
        let cost = parts.cost_old != parts.cost_new;
        let moved = win.is_some_and(|w| w.moved) || own.is_some_and(|k| k.moved) || cost;
        let mut moved_by = Vec::new();
        if cost {
            moved_by.push("cost");
        }
        if parts.results_moved {
            moved_by.push("results");
        }
        if parts.opponents_repriced {
            moved_by.push("opponent costs");
        }
        let verdict = match own.or(win).map(|m| m.direction()) {
            _ if !moved => Verdict::Unchanged,
            Some(1) => Verdict::Stronger,
            Some(-1) => Verdict::Weaker,
            _ => Verdict::Sidegrade,
        };
        BuildChange {
            build: parts.build.clone(),
            cells: parts.win.len().max(parts.kill_points_per_100.len()),
            cost_old: parts.cost_old,
            cost_new: parts.cost_new,
            win,
            kill_points_per_100: kp,
            own_kill_points_per_100: own,
            change_size,
            verdict,
            moved_by,
        }
    }
}

/// The builds' summaries, ranked by `change_size`, largest first (ties in the given
/// order).
pub fn summarise(parts: &[BuildParts]) -> Vec<BuildChange> {
    let mut out: Vec<BuildChange> = parts.iter().map(BuildChange::of).collect();
    out.sort_by(|a, b| b.change_size.total_cmp(&a.change_size));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Scale;

    fn tally(pairs: &[(i64, i64, u64)]) -> PairedTally {
        let mut t = PairedTally::new(Scale::Proportion);
        for &(n, o, k) in pairs {
            for _ in 0..k {
                t.add(n, o);
            }
        }
        t
    }

    fn parts(build: &str, cost: (f64, f64), win: Vec<Change>, kp: Vec<Change>) -> BuildParts {
        BuildParts {
            build: build.into(),
            cost_old: Some(cost.0),
            cost_new: Some(cost.1),
            own_kill_points_per_100: Vec::new(),
            opponents_repriced: false,
            results_moved: win.iter().any(Change::trials_differ),
            win,
            kill_points_per_100: kp,
        }
    }

    #[test]
    fn builds_rank_by_their_largest_change_and_ties_are_sidegrades() {
        let exact = |o: f64, n: f64| Change::Exact { old: Some(o), new: Some(n) };
        let same = parts("same", (4.0, 4.0), vec![exact(0.5, 0.5)], vec![exact(10.0, 10.0)]);
        // +10 points of win rate, kill points up by a fifth.
        let up = parts("up", (4.0, 4.0), vec![exact(0.4, 0.5)], vec![exact(10.0, 12.5)]);
        // Same win rate, cost raised by half: kill points per cost fall by a third.
        let dearer = parts("dearer", (4.0, 6.0), vec![exact(0.5, 0.5)], vec![exact(15.0, 10.0)]);
        // Paired trials that differ in 2 of 1000, one each way: a tie.
        let t = tally(&[(1, 0, 1), (0, 1, 1), (1, 1, 499), (0, 0, 499)]);
        let noise = parts(
            "noise",
            (4.0, 4.0),
            vec![Change::Paired { tally: t, scales: (1.0, 1.0) }],
            vec![Change::Paired { tally: t, scales: (25.0, 25.0) }],
        );
        let s = summarise(&[same, up, dearer, noise]);
        let names: Vec<&str> = s.iter().map(|b| b.build.as_str()).collect();
        assert_eq!(names, ["dearer", "up", "same", "noise"]);
        assert!((s[0].change_size - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s[0].verdict, Verdict::Weaker);
        assert_eq!((s[1].verdict, s[1].win.unwrap().change), (Verdict::Stronger, 0.5 - 0.4));
        assert_eq!((s[2].verdict, s[2].change_size), (Verdict::Unchanged, 0.0));
        let n = &s[3];
        assert_eq!((n.verdict, n.change_size), (Verdict::Sidegrade, 0.0));
        let ci = n.kill_points_per_100.unwrap().change_ci95;
        assert!(ci.low < 0.0 && ci.high > 0.0, "{ci:?}");
    }

    #[test]
    fn paired_cells_combine_and_scales_are_per_catalogue() {
        // New wins 600 of 1000, old 400, always when old won: a clear gain.
        let t = tally(&[(1, 1, 400), (1, 0, 200), (0, 0, 400)]);
        // The opponent costs 2 and the build 4 in the old catalogue, 2 in the new.
        let kp = Change::Paired { tally: t, scales: (100.0 * 2.0 / 2.0, 100.0 * 2.0 / 4.0) };
        let b =
            BuildChange::of(&parts("b", (4.0, 2.0), vec![Change::Paired { tally: t, scales: (1.0, 1.0) }], vec![kp]));
        let k = b.kill_points_per_100.unwrap();
        assert!((k.old - 20.0).abs() < 1e-12 && (k.new - 60.0).abs() < 1e-12, "{k:?}");
        assert!(k.change_ci95.contains(k.change) && k.change_ci95.low > 0.0);
        let w = b.win.unwrap();
        assert!((w.change - 0.2).abs() < 1e-12 && w.change_ci95.low > 0.0);
        assert_eq!(b.verdict, Verdict::Stronger);
        // Two such cells: the same mean, a narrower interval.
        let two = BuildChange::of(&parts("b", (4.0, 2.0), vec![], vec![kp, kp]));
        let k2 = two.kill_points_per_100.unwrap();
        assert!((k2.change - k.change).abs() < 1e-12);
        assert!(k2.change_ci95.half_width() < k.change_ci95.half_width());
        assert_eq!(two.cells, 2);
    }

    #[test]
    fn an_opponents_new_price_alone_moves_no_verdict() {
        // Same duels (every trial alike), own cost 4 both; the opponent's price 5 → 7:
        // kill points per 100 rise from 125·p to 175·p, but the build did not change.
        let t = tally(&[(1, 1, 300), (0, 0, 700)]);
        let b = BuildParts {
            opponents_repriced: true,
            own_kill_points_per_100: vec![Change::Paired { tally: t, scales: (175.0, 175.0) }],
            ..parts(
                "same",
                (4.0, 4.0),
                vec![Change::Paired { tally: t, scales: (1.0, 1.0) }],
                vec![Change::Paired { tally: t, scales: (175.0, 125.0) }],
            )
        };
        let s = BuildChange::of(&b);
        // Was: stronger per cost, ranked by a change it did not make.
        assert_eq!((s.verdict, s.change_size), (Verdict::Unchanged, 0.0), "{s:?}");
        assert_eq!(s.moved_by, ["opponent costs"]);
        let k = s.kill_points_per_100.unwrap();
        assert!(k.change > 0.0 && k.moved, "the measure itself still moved: {k:?}");
        // Its own price raised as well: weaker, by its cost.
        let dearer = BuildParts {
            cost_new: Some(5.0),
            own_kill_points_per_100: vec![Change::Paired { tally: t, scales: (140.0, 175.0) }],
            ..b.clone()
        };
        let s = BuildChange::of(&dearer);
        assert_eq!((s.verdict, s.moved_by.clone()), (Verdict::Weaker, vec!["cost", "opponent costs"]), "{s:?}");
    }

    #[test]
    fn cells_without_values_are_left_out() {
        let none = Change::Exact { old: None, new: None };
        let b = BuildChange::of(&parts("b", (0.0, 0.0), vec![none], vec![none]));
        assert_eq!((b.win, b.kill_points_per_100, b.verdict), (None, None, Verdict::Unchanged));
    }
}
