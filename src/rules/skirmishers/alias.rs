//! Exact integer alias tables for one attack's outcomes, shared by the duel's lanes
//! ([`super::lanes`]) and the attack run's ([`super::run_lanes`]).
//!
//! An attack's outcomes come as counts out of 1296 ([`TOTAL`]). They become `2^b` alias
//! columns: one unbiased draw `u` in `[0, 1296 * 2^b)` gives the column `u mod 2^b` and
//! the level `u / 2^b` in `[0, 1296)`; the column's threshold decides between its two
//! outcomes. Column `k` holds `threshold[k]` of outcome `first[k]` and
//! `1296 - threshold[k]` of `second[k]`, and every outcome's total over the columns is
//! its count times `2^b`, so one draw picks each outcome with exactly its count / 1296.
//! A row of columns is addressed by one `u32`: `offset << 5 | b`.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::graph::Graph;
use super::law::TOTAL;
use crate::dice::uniform_below;

/// The "out" flag of a packed next state (bit 23 of an outcome).
pub(super) const OUT: u32 = 1 << 23;
/// Outcome index bits (23 bits: graphs hold at most 200,000 states a card).
pub(super) const INDEX: u32 = OUT - 1;
/// Largest `b` (alias columns `2^b`); one attack has at most 22 distinct outcomes.
pub(super) const MAX_BITS: u32 = 11;

/// One alias column: `threshold` (bits 0..16) out of 1296 for outcome `first` (bits
/// 16..40), the rest for `second` (bits 40..64); each outcome is a global state index
/// with [`OUT`] set when the target is out in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Column(u64);

impl Column {
    pub(super) fn new(threshold: u32, first: u32, second: u32) -> Column {
        Column(threshold as u64 | (first as u64) << 16 | (second as u64) << 40)
    }
    #[inline(always)]
    pub(super) fn pick(self, level: u64) -> u32 {
        let shift = if level < (self.0 & 0xFFFF) { 16 } else { 40 };
        ((self.0 >> shift) & 0xFF_FFFF) as u32
    }
    /// Draws (out of 1296) of the column that pick `first`.
    pub(super) fn threshold(self) -> u32 {
        (self.0 & 0xFFFF) as u32
    }
}

/// Integer alias columns for counts summing to 1296 (`(outcome, count)`, outcomes
/// already packed), `2^b` of them with `2^b >= counts.len()`.
pub(super) fn alias(counts: &[(u32, u32)]) -> (u32, Vec<Column>) {
    let b = counts.len().max(1).next_power_of_two().trailing_zeros();
    let d = 1usize << b;
    let total = TOTAL as u64;
    // Scaled weights: count * 2^b; each column holds 1296 of them.
    let mut w: Vec<(u32, u64)> = counts.iter().map(|&(o, n)| (o, n as u64 * d as u64)).collect();
    w.resize(d, (counts[0].0, 0));
    let mut cols = vec![Column::new(TOTAL, 0, 0); d];
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..d).partition(|&k| w[k].1 < total);
    while let Some(s) = small.pop() {
        let Some(&l) = large.last() else { break };
        cols[s] = Column::new(w[s].1 as u32, w[s].0, w[l].0);
        w[l].1 -= total - w[s].1;
        if w[l].1 < total {
            large.pop();
            small.push(l);
        }
    }
    // Whatever is left holds exactly 1296 (integer weights, so no rounding residue).
    for k in large.into_iter().chain(small) {
        cols[k] = Column::new(TOTAL, w[k].0, w[k].0);
    }
    (b, cols)
}

/// Appends the rows of target card `g` to `rows` and their columns to `columns`: for
/// each law, then (with `no_attack`) a "no attack" row that keeps the state, the row of
/// every state in order, so law `l` at state `s` is row `first + l * g.len() + s`.
/// Outcomes are packed as the next state plus `offset`, with [`OUT`] when the target is
/// out in it. Returns `first`, the index of the card's first row.
///
/// # Errors
/// States past the 23 bits of an outcome (`offset + g.len()`), or columns past the 27
/// bits of a row's offset (never, with graphs' own limit).
pub(super) fn card_rows(
    g: &Graph,
    offset: u32,
    no_attack: bool,
    rows: &mut Vec<u32>,
    columns: &mut Vec<Column>,
) -> Result<u32, String> {
    let too_many = || "too many card states for the alias tables".to_string();
    if offset as usize + g.len() > INDEX as usize {
        return Err(too_many());
    }
    let first = rows.len() as u32;
    let packed = |t: usize| (t as u32 + offset) | if g.out[t] { OUT } else { 0 };
    for l in 0..g.laws() + usize::from(no_attack) {
        for s in 0..g.len() {
            let counts: Vec<(u32, u32)> = if l == g.laws() {
                vec![(packed(s), TOTAL)]
            } else {
                g.edges(l, s).map(|(t, n)| (packed(t), n)).collect()
            };
            let (b, cols) = alias(&counts);
            if columns.len() > (u32::MAX >> 5) as usize {
                return Err(too_many());
            }
            rows.push((columns.len() as u32) << 5 | b);
            columns.extend(cols);
        }
    }
    Ok(first)
}

/// (packed outcome, count out of 1296) of the row `row` of `columns`, read back from its
/// alias columns (for tests and checks: the counts the draws follow).
pub(super) fn row_counts(row: u32, columns: &[Column]) -> Vec<(u32, u32)> {
    let (off, b) = ((row >> 5) as usize, row & 31);
    let mut out: Vec<(u32, u32)> = Vec::new();
    for c in &columns[off..off + (1 << b)] {
        let t = c.threshold();
        for (o, n) in [(c.pick(0), t), (c.pick(TOTAL as u64), TOTAL - t)] {
            match out.iter_mut().find(|x| x.0 == o) {
                Some(x) => x.1 += n,
                None if n > 0 => out.push((o, n)),
                None => {}
            }
        }
    }
    // Back to counts out of 1296: each column stands for 1/2^b of the draws.
    out.iter_mut().for_each(|x| x.1 >>= b);
    out
}

/// Lemire's rejection threshold for each range `1296 << b`, `b` in `0..=MAX_BITS`.
pub(super) fn rejects() -> [u64; MAX_BITS as usize + 1] {
    let mut reject = [0u64; MAX_BITS as usize + 1];
    for (b, r) in reject.iter_mut().enumerate() {
        let range = (TOTAL as u64) << b;
        *r = range.wrapping_neg() % range;
    }
    reject
}

/// One draw through the row `row` (`offset << 5 | b`) of `columns`: its packed outcome.
#[inline(always)]
pub(super) fn draw(
    row: u32,
    columns: &[Column],
    reject: &[u64; MAX_BITS as usize + 1],
    rng: &mut Xoshiro256PlusPlus,
) -> u32 {
    let b = row & 31;
    let u = uniform_below(rng, (TOTAL as u64) << b, reject[b as usize]);
    let c = columns[(row >> 5) as usize + (u & ((1 << b) - 1)) as usize];
    c.pick(u >> b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every draw `u` in `[0, 1296 << b)` through the column it selects: each outcome is
    /// picked exactly its count x 2^b times.
    #[test]
    fn alias_columns_pick_every_outcome_exactly_its_count() {
        let cases: [&[(u32, u32)]; 5] = [
            &[(7, 1296)],
            &[(1, 1295), (2, 1)],
            &[(1, 36), (2, 72), (3, 108), (4, 144), (5, 180), (6, 756)],
            &[(9, 1), (8, 2), (7, 3), (6, 4), (5, 5), (4, 6), (3, 5), (2, 4), (1, 3), (0, 2), (10, 1), (11, 1260)],
            &[(0, 100), (1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100), (7, 100), (8, 100), (9, 396)],
        ];
        for counts in cases {
            let (b, cols) = alias(counts);
            assert!(1usize << b >= counts.len() && cols.len() == 1 << b);
            let mut seen: Vec<(u32, u32)> = counts.iter().map(|&(o, _)| (o, 0)).collect();
            for u in 0..(TOTAL as u64) << b {
                let o = cols[(u & ((1 << b) - 1)) as usize].pick(u >> b);
                seen.iter_mut().find(|x| x.0 == o).expect("only listed outcomes").1 += 1;
            }
            let want: Vec<(u32, u32)> = counts.iter().map(|&(o, n)| (o, n << b)).collect();
            assert_eq!(seen, want);
        }
    }
}
