//! The reachable states of a target's card under a set of attack laws, with every
//! transition as integer counts out of 1296: the exact chains step probability vectors
//! through it, and the Monte Carlo kernels sample it with one unbiased draw per attack
//! (the same counts, so both play exactly the same law).

use std::collections::HashMap;

use rand::Rng;

use super::law::{Card, Law, TOTAL, transitions};
use crate::dice::uniform_below;

/// Largest number of card states a graph may hold.
pub const MAX_STATES: usize = 200_000;
const REJECT: u64 = (TOTAL as u64).wrapping_neg() % TOTAL as u64;

/// See the module documentation. State 0 is the start.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    pub card: Card,
    pub states: Vec<u64>,
    pub out: Vec<bool>,
    /// Per state: its column (current HP index).
    pub cols: Vec<u8>,
    laws: usize,
    /// Per (law, state) = `l * states + i`: its range in `next`/`cum`.
    span: Vec<(u32, u32)>,
    next: Vec<u32>,
    /// Cumulative counts (inclusive); the last of each span is 1296.
    cum: Vec<u16>,
}

impl Graph {
    /// Explore from `start` under every law.
    ///
    /// # Errors
    /// More than [`MAX_STATES`] reachable states.
    pub fn build(card: Card, start: u64, laws: &[Law]) -> Result<Graph, String> {
        let mut states = vec![start];
        let mut index: HashMap<u64, u32> = HashMap::from([(start, 0)]);
        let mut edges: Vec<Vec<Vec<(u32, u32)>>> = vec![Vec::new(); laws.len()];
        let mut i = 0;
        while i < states.len() {
            let s = states[i];
            for (l, law) in laws.iter().enumerate() {
                let mut row = Vec::new();
                for (t, n) in transitions(&card, s, law) {
                    let j = *index.entry(t).or_insert_with(|| {
                        states.push(t);
                        (states.len() - 1) as u32
                    });
                    row.push((j, n));
                }
                edges[l].push(row);
            }
            if states.len() > MAX_STATES {
                return Err(format!("more than {MAX_STATES} reachable card states: too many to play"));
            }
            i += 1;
        }
        let n = states.len();
        let mut span = Vec::with_capacity(n * laws.len());
        let (mut next, mut cum) = (Vec::new(), Vec::new());
        for rows in &edges {
            for row in rows {
                span.push((next.len() as u32, row.len() as u32));
                let mut acc = 0u32;
                for &(j, c) in row {
                    acc += c;
                    next.push(j);
                    cum.push(acc as u16);
                }
            }
        }
        let out = states.iter().map(|&s| card.is_out(s)).collect();
        let cols = states.iter().map(|&s| card.column(s) as u8).collect();
        Ok(Graph { card, states, out, cols, laws: laws.len(), span, next, cum })
    }

    pub fn len(&self) -> usize {
        self.states.len()
    }
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
    pub fn laws(&self) -> usize {
        self.laws
    }

    /// (next state, count out of 1296) of state `i` under law `l`.
    pub fn edges(&self, l: usize, i: usize) -> impl Iterator<Item = (usize, u32)> + '_ {
        let (start, len) = self.span[l * self.states.len() + i];
        let r = start as usize..(start + len) as usize;
        let mut prev = 0u32;
        self.next[r.clone()].iter().zip(&self.cum[r]).map(move |(&j, &c)| {
            let n = c as u32 - prev;
            prev = c as u32;
            (j as usize, n)
        })
    }

    /// One attack of law `l` on state `i`: one unbiased draw in [0, 1296).
    #[inline(always)]
    pub fn sample<R: Rng + ?Sized>(&self, l: usize, i: usize, rng: &mut R) -> usize {
        let (start, len) = self.span[l * self.states.len() + i];
        let u = uniform_below(rng, TOTAL as u64, REJECT) as u16;
        let cum = &self.cum[start as usize..(start + len) as usize];
        let k = cum.iter().map(|&c| (u >= c) as usize).sum::<usize>();
        self.next[start as usize + k] as usize
    }

    /// The probability vector after one attack of law `l` from `p`.
    pub fn step(&self, l: usize, p: &[f64]) -> Vec<f64> {
        let mut q = vec![0.0; p.len()];
        for (i, &pi) in p.iter().enumerate() {
            if pi == 0.0 {
                continue;
            }
            for (j, n) in self.edges(l, i) {
                q[j] += pi * n as f64 / TOTAL as f64;
            }
        }
        q
    }

    /// P(out) of a probability vector.
    pub fn p_out(&self, p: &[f64]) -> f64 {
        p.iter().zip(&self.out).filter(|(_, o)| **o).map(|(x, _)| x).sum()
    }
}
