//! Paired three-way outcomes: the joint 3x3 table of (A's result, B's result) over
//! paired trials, in integers (so tables merge exactly in any order), and the paired
//! comparison of any one result (win, draw or loss) read from it.
//!
//! A result's comparison collapses the table to the 2x2 table of "A had this result" by
//! "B had this result" and uses Newcombe's paired method 10 for P(A) − P(B)
//! ([`super::newcombe::newcombe_paired`]; R. G. Newcombe (1998), Statistics in Medicine
//! 17:2635-2650), valid when either proportion is 0 or 1, through [`PairedTally`].

use super::paired::{PairedSummary, PairedTally, Scale};

/// One side's result in a paired trial, as the index of a row or column of a
/// [`JointTable`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The side won.
    Win = 0,
    /// Nobody won (a draw, or no result at the cap).
    Draw = 1,
    /// Another side won.
    Loss = 2,
}

impl Standing {
    /// Every result, in table order.
    pub const ALL: [Standing; 3] = [Standing::Win, Standing::Draw, Standing::Loss];

    /// The result's name in reports: `win`, `draw`, `loss`.
    pub fn name(self) -> &'static str {
        match self {
            Standing::Win => "win",
            Standing::Draw => "draw",
            Standing::Loss => "loss",
        }
    }
}

/// Counts of paired trials by (A's result, B's result): `counts[a][b]`, indexed by
/// [`Standing`] as `usize`. Every field is an integer sum: merging is exact, associative
/// and commutative.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JointTable {
    pub counts: [[u64; 3]; 3],
}

impl JointTable {
    /// Count one paired trial.
    #[inline]
    pub fn add(&mut self, a: Standing, b: Standing) {
        self.counts[a as usize][b as usize] += 1;
    }

    /// Add another table.
    pub fn merge(&mut self, o: &JointTable) {
        for (row, other) in self.counts.iter_mut().zip(&o.counts) {
            for (x, y) in row.iter_mut().zip(other) {
                *x += y;
            }
        }
    }

    /// Paired trials counted.
    pub fn trials(&self) -> u64 {
        self.counts.iter().flatten().sum()
    }

    /// The 2x2 counts [both, A only, B only, neither] of result `r`.
    pub fn two_by_two(&self, r: Standing) -> [u64; 4] {
        let r = r as usize;
        let a_has: u64 = self.counts[r].iter().sum();
        let b_has: u64 = self.counts.iter().map(|row| row[r]).sum();
        let both = self.counts[r][r];
        [both, a_has - both, b_has - both, self.trials() + both - a_has - b_has]
    }

    /// The paired comparison of result `r`: P(A has it), P(B has it), their difference
    /// with Newcombe's paired interval, and the interval two independent runs of this
    /// size would give (Newcombe's independent method 10 from the same margins).
    pub fn paired(&self, r: Standing) -> PairedSummary {
        self.tally(r).summary()
    }

    /// The paired tally of result `r` (1 when a side has it, else 0).
    pub fn tally(&self, r: Standing) -> PairedTally {
        let [n11, n10, n01, _] = self.two_by_two(r);
        let (a, b) = ((n11 + n10) as i64, (n11 + n01) as i64);
        PairedTally {
            scale: Scale::Proportion,
            trials: self.trials(),
            sum_a: a,
            sum_a2: a,
            sum_b: b,
            sum_b2: b,
            sum_d: n10 as i64 - n01 as i64,
            sum_d2: (n10 + n01) as i64,
        }
    }

    /// The correlation (Pearson's φ) of "A has result `r`" and "B has result `r`" over
    /// the paired trials, in [−1, 1]: (n11·n00 − n10·n01) / √(r1·r2·c1·c2). `None` when
    /// either indicator never or always holds (a margin is empty: φ is undefined).
    pub fn correlation(&self, r: Standing) -> Option<f64> {
        let [n11, n10, n01, n00] = self.two_by_two(r).map(|x| x as f64);
        let margins = (n11 + n10) * (n01 + n00) * (n11 + n01) * (n10 + n00);
        (margins > 0.0).then(|| ((n11 * n00 - n10 * n01) / margins.sqrt()).clamp(-1.0, 1.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::newcombe::newcombe_paired;
    use crate::stats::{Z95, wilson95};

    fn table(rows: [[u64; 3]; 3]) -> JointTable {
        JointTable { counts: rows }
    }

    #[test]
    fn collapses_to_the_two_by_two_of_each_result() {
        // rows: A's win, draw, loss; columns: B's
        let t = table([[5, 1, 2], [0, 3, 1], [4, 0, 6]]);
        assert_eq!(t.trials(), 22);
        assert_eq!(t.two_by_two(Standing::Win), [5, 3, 4, 10]);
        assert_eq!(t.two_by_two(Standing::Draw), [3, 1, 1, 17]);
        assert_eq!(t.two_by_two(Standing::Loss), [6, 4, 3, 9]);
        for r in Standing::ALL {
            let [n11, n10, n01, n00] = t.two_by_two(r);
            let s = t.paired(r);
            assert_eq!(s.trials, 22);
            assert_eq!(s.difference, (n10 as f64 - n01 as f64) / 22.0);
            assert_eq!(s.paired_ci(), newcombe_paired(n11, n10, n01, n00, Z95), "{r:?}");
            assert_eq!(s.a_ci(), wilson95(n11 + n10, 22));
        }
    }

    #[test]
    fn win_difference_matches_published_paired_examples() {
        let close = |i: crate::stats::Interval, low: f64, high: f64| {
            assert!((i.low - low).abs() < 5e-5 && (i.high - high).abs() < 5e-5, "{i:?} vs [{low}, {high}]");
        };
        // A 2x2 table laid into the win cells of a 3x3 table (B's "not win" split over
        // draw and loss, to check the collapse), so the win comparison is the published one.
        let laid = |n11: u64, n10: u64, n01: u64, n00: u64| {
            table([[n11, n10 / 2, n10 - n10 / 2], [n01 / 3, n00 / 2, 0], [n01 - n01 / 3, 0, n00 - n00 / 2]])
        };
        // Newcombe (1998), Statistics in Medicine 17:2635-2650, Table II examples (a) and
        // (b), method 10 (the values the R package propint's tests reproduce from it):
        // e = 36, f = 12, g = 2, h = 0: 0.0569 to 0.3404; e = 18, f = 12, g = 2, h = 18:
        // 0.0562 to 0.3290.
        let s = laid(36, 12, 2, 0).paired(Standing::Win);
        assert!((s.difference - 0.2).abs() < 1e-15);
        close(s.paired_ci(), 0.0569, 0.3404);
        close(laid(18, 12, 2, 18).paired(Standing::Win).paired_ci(), 0.0562, 0.3290);
        // Cavo et al. (2012) in Fagerland, Lydersen & Laake, "Statistical Analysis of
        // Contingency Tables" (2017), ch. 8, Newcombe square-and-add: −0.0621 (−0.1186 to
        // −0.0046), also the R package contingencytables' test value.
        close(laid(59, 6, 16, 80).paired(Standing::Win).paired_ci(), -0.1186, -0.0046);
        // boundaries: every pair "A wins, B does not" and "neither wins", n = 1..: valid
        for n in [1u64, 2, 10, 1000] {
            let all = laid(0, n, 0, 0).paired(Standing::Win).paired_ci();
            assert!(all.high == 1.0 && all.low > -1.0 && all.low < 1.0, "{all:?}");
            let none = laid(0, 0, 0, n).paired(Standing::Win).paired_ci();
            assert!(none.low < 0.0 && none.high > 0.0 && none.low >= -1.0 && none.high <= 1.0, "{none:?}");
        }
    }

    #[test]
    fn merging_adds_cell_by_cell() {
        let mut x = table([[1, 0, 0], [0, 2, 0], [0, 0, 3]]);
        x.merge(&table([[0, 4, 0], [0, 0, 0], [5, 0, 1]]));
        assert_eq!(x, table([[1, 4, 0], [0, 2, 0], [5, 0, 4]]));
        let mut y = JointTable::default();
        y.add(Standing::Loss, Standing::Win);
        y.add(Standing::Win, Standing::Win);
        assert_eq!(y, table([[1, 0, 0], [0, 0, 0], [1, 0, 0]]));
    }

    #[test]
    fn identical_sides_have_difference_zero_and_correlation_one() {
        let t = table([[40, 0, 0], [0, 7, 0], [0, 0, 53]]);
        for r in Standing::ALL {
            let s = t.paired(r);
            assert_eq!(s.difference, 0.0);
            assert_eq!(t.correlation(r), Some(1.0));
            let p = s.paired_ci();
            // not zero width (the honest interval of 0 discordant pairs in 100) but
            // narrower than independent runs would give
            assert!(p.low < 0.0 && p.high > 0.0 && p.low == -p.high, "{p:?}");
            assert!(p.half_width() < 0.5 * s.independent_ci().half_width(), "{r:?}: {p:?}");
        }
    }

    #[test]
    fn correlation_is_undefined_when_a_result_never_or_always_happens() {
        let t = table([[0, 0, 0], [0, 0, 0], [0, 0, 9]]);
        assert_eq!(t.correlation(Standing::Win), None);
        assert_eq!(t.correlation(Standing::Loss), None);
        let s = t.paired(Standing::Win);
        assert!(s.paired_ci().low < 0.0 && s.paired_ci().high > 0.0);
        // opposite results every time: −1
        let t = table([[0, 0, 4], [0, 0, 0], [6, 0, 0]]);
        assert_eq!(t.correlation(Standing::Win), Some(-1.0));
        assert_eq!(JointTable::default().correlation(Standing::Draw), None);
        assert_eq!(JointTable::default().paired(Standing::Win).paired_ci().half_width(), 1.0);
    }
}
