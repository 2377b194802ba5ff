//! One gunner's whole step (roll, hits, the three pools, armour, Internal, box) sampled
//! from one u64 in constant time: an integer alias table (Walker's method, Vose's
//! construction in exact integer arithmetic) over the packed outcomes of a
//! [`StepLaw`].
//!
//! # Exactness
//! The law's probabilities are quantised once to integer weights that sum to exactly
//! 2^64, each within a few units of 2^-64 of its f64 probability (outcomes less likely
//! than 2^-64 get no weight). The table is built from those integers without rounding:
//! with `2^bits` columns of `2^(64-bits)` events each, the top `bits` bits of the draw
//! pick a column and the rest are compared with the column's threshold, so every one of
//! the 2^64 values of the draw maps to one outcome and outcome `i` receives exactly
//! `weight[i]` of them. The sampled law is the quantised law, exactly.

use super::chart::CHART_LINES;
use super::gunner::StepLaw;

/// A packed outcome: armour left after `<< 8 |` lines marked, lines capped at
/// [`CHART_LINES`]; "destroyed" is packed as [`CHART_LINES`] lines (armour 0), so a
/// kill and a 100th line are one comparison.
type Packed = u16;

/// Pack (armour left, lines marked).
pub fn pack(armour: u32, lines: u32) -> Packed {
    debug_assert!(armour <= 0xff, "armour fits 8 bits");
    ((armour << 8) | lines.min(CHART_LINES)) as Packed
}

/// The packed "destroyed" outcome.
const KILLED: Packed = CHART_LINES as Packed;

/// One column of an alias table: draws below `threshold` (in the column's low
/// `64 - bits` bits) give `primary`, the others `alias`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Column {
    pub threshold: u64,
    pub primary: Packed,
    pub alias: Packed,
}

/// Integer weights summing to exactly 2^64 for probabilities `p` (not all zero; their
/// sum is normalised away). The rounding remainder goes to the largest weight.
pub fn quantise(p: &[f64]) -> Vec<u128> {
    const TOTAL: u128 = 1 << 64;
    let sum: f64 = p.iter().sum();
    assert!(sum > 0.0, "a step law has an outcome of positive probability");
    let mut w: Vec<u128> = p.iter().map(|&x| ((x / sum) * 18_446_744_073_709_551_616.0).round() as u128).collect();
    let got: u128 = w.iter().sum();
    let big = (0..w.len()).max_by(|&i, &j| w[i].cmp(&w[j]).then(j.cmp(&i))).expect("one outcome");
    // |got - TOTAL| is a few units of f64 rounding per outcome, far below w[big] >= TOTAL / n.
    w[big] = w[big] + TOTAL - got;
    w
}

/// The alias columns (`2^bits` of them) for `outcomes` with integer `weights` summing
/// to exactly 2^64; `outcomes.len() <= 2^bits`, `1 <= bits <= 16`.
fn alias_columns(outcomes: &[Packed], weights: &[u128], bits: u32) -> Vec<Column> {
    let n = 1usize << bits;
    let cap: u128 = 1 << (64 - bits);
    assert!(outcomes.len() <= n && outcomes.len() == weights.len());
    assert_eq!(weights.iter().sum::<u128>(), 1u128 << 64, "weights sum to 2^64");
    // Padding outcomes of weight 0 fill the spare columns (they always give their alias).
    let mut w: Vec<(u128, Packed)> =
        (0..n).map(|i| (weights.get(i).copied().unwrap_or(0), *outcomes.get(i).unwrap_or(&KILLED))).collect();
    let mut cols = vec![Column::default(); n];
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&i| w[i].0 < cap);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        cols[s] = Column { threshold: w[s].0 as u64, primary: w[s].1, alias: w[l].1 };
        w[l].0 -= cap - w[s].0;
        if w[l].0 < cap {
            large.pop();
            small.push(l);
        }
    }
    // Exact integers: whatever is left holds exactly one full column each.
    for i in small.into_iter().chain(large) {
        debug_assert_eq!(w[i].0, cap);
        cols[i] = Column { threshold: cap as u64, primary: w[i].1, alias: w[i].1 };
    }
    cols
}

/// The packed outcomes and their probabilities of `law` (the kill included).
fn packed_law(law: &StepLaw) -> (Vec<Packed>, Vec<f64>) {
    let mut outs: Vec<Packed> = law.outcomes.iter().map(|&(a, l, _)| pack(a, l)).collect();
    let mut ps: Vec<f64> = law.outcomes.iter().map(|o| o.2).collect();
    outs.push(KILLED);
    ps.push(law.kill);
    (outs, ps)
}

/// Alias tables of one size for many step laws: table `t` is
/// `columns[t << bits .. (t + 1) << bits]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepTables {
    /// Column bits: the fewest (at least 1) that give every law a column per outcome.
    pub bits: u32,
    pub columns: Vec<Column>,
}

impl StepTables {
    /// Tables for `laws`, in order.
    pub fn new<'a>(laws: impl IntoIterator<Item = &'a StepLaw> + Clone) -> StepTables {
        let most = laws.clone().into_iter().map(|l| l.outcomes.len() + 1).max().unwrap_or(1);
        let bits = most.next_power_of_two().trailing_zeros().max(1);
        let mut columns = Vec::new();
        for law in laws {
            let (outs, ps) = packed_law(law);
            columns.extend(alias_columns(&outs, &quantise(&ps), bits));
        }
        StepTables { bits, columns }
    }

    /// The outcome of table `t` for the uniform draw `u`.
    #[inline(always)]
    pub fn sample(&self, t: usize, u: u64) -> Packed {
        let c = &self.columns[(t << self.bits) | (u >> (64 - self.bits)) as usize];
        let low = u & (u64::MAX >> self.bits);
        if low < c.threshold { c.primary } else { c.alias }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events of the 2^64 draws that table `cols` maps to `o`, counted column by column.
    fn events(cols: &[Column], bits: u32, o: Packed) -> u128 {
        let cap = 1u128 << (64 - bits);
        cols.iter()
            .map(|c| {
                let t = u128::from(c.threshold);
                u128::from(c.primary == o) * t + u128::from(c.alias == o) * (cap - t)
            })
            .sum()
    }

    #[test]
    fn every_outcome_gets_exactly_its_weight() {
        let outs: Vec<Packed> = vec![pack(20, 0), pack(17, 1), pack(3, 6), KILLED, pack(0, 31)];
        let p = [0.602, 0.0643 + 1e-18, 0.1517, 0.0166, 0.0];
        let w = quantise(&p);
        assert_eq!(w.iter().sum::<u128>(), 1 << 64);
        assert_eq!(w[4], 0);
        for bits in [3, 4, 7] {
            let cols = alias_columns(&outs, &w, bits);
            for (i, &o) in outs.iter().enumerate() {
                assert_eq!(events(&cols, bits, o), w[i], "outcome {i}, {bits} bits");
            }
        }
    }

    #[test]
    fn a_sure_outcome_is_always_drawn() {
        let cols = alias_columns(&[pack(5, 0)], &quantise(&[1.0]), 1);
        let t = StepTables { bits: 1, columns: cols };
        for u in [0, 1, u64::MAX / 2, u64::MAX / 2 + 1, u64::MAX] {
            assert_eq!(t.sample(0, u), pack(5, 0));
        }
    }

    #[test]
    fn draws_map_by_column_then_threshold() {
        // Two outcomes, 1/4 and 3/4: column 0 holds 1/4 of A and its alias B.
        let (a, b) = (pack(1, 0), pack(2, 0));
        let t = StepTables { bits: 1, columns: alias_columns(&[a, b], &quantise(&[0.25, 0.75]), 1) };
        let half = 1u64 << 63;
        assert_eq!(t.sample(0, 0), a);
        assert_eq!(t.sample(0, half / 2 - 1), a);
        assert_eq!(t.sample(0, half / 2), b);
        assert_eq!(t.sample(0, half), b);
        assert_eq!(t.sample(0, u64::MAX), b);
    }
}
