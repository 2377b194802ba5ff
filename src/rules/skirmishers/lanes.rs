//! The duel's Monte Carlo kernel: both cards' attack transitions as exact integer alias
//! tables, and duels played side by side in lanes.
//!
//! Every attack of a duel is one row of a [`Graph`] (the firer's law at its current
//! column, or "no attack" when its AP cannot pay) applied to the target's state. Here each
//! row's counts out of 1296 become an exact integer alias table ([`super::alias`]), so
//! one draw picks each next state with exactly its count / 1296 ([`Lanes::row_counts`]
//! reads the counts back; the tests compare them with the graph's edges).
//!
//! States of both cards live in one index space (A's states first, then B's), so one
//! attack is `row = base[firer] + target`, one draw, one table entry, and the next
//! (firer, target) pair is (new target state, old firer state): shots alternate, so the
//! target of this attack is the firer of the next.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::alias::{Column, INDEX, MAX_BITS, OUT, card_rows, draw, rejects, row_counts};
use super::duel_side::{DuelSide, First};
use super::graph::Graph;
use crate::stats::DuelTally;

/// Duels played side by side.
const LANES: usize = 8;

/// The compiled tables of one duel (see the module documentation).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lanes {
    /// A's state count: global index `g < na` is A's state `g`, else B's state `g - na`.
    na: u32,
    /// Per global firer state: its attack's first row, minus the target side's offset,
    /// so that `base[firer] + target` (wrapping) is the row of this attack.
    base: Vec<u32>,
    /// Per row: `offset << 5 | b`, the row's first column in `columns` and its `b`.
    rows: Vec<u32>,
    columns: Vec<Column>,
    /// Lemire's rejection threshold for the range `1296 << b`.
    reject: [u64; MAX_BITS as usize + 1],
}

impl Lanes {
    /// Compile the duel's tables.
    ///
    /// # Errors
    /// Cards too large for 23-bit state indices (never, with graphs' own limit).
    pub fn new(a: &DuelSide, b: &DuelSide) -> Result<Lanes, String> {
        let (na, nb) = (a.graph.len(), b.graph.len());
        let (mut rows, mut columns) = (Vec::new(), Vec::new());
        // Rows of one target card: each law of its graph, then "no attack" (stays put).
        let rows_b = card_rows(&b.graph, na as u32, true, &mut rows, &mut columns)?;
        let rows_a = card_rows(&a.graph, 0, true, &mut rows, &mut columns)?;
        // Firer A (state i) attacks B: rows of B's card under A's law at i's column.
        let mut base = Vec::with_capacity(na + nb);
        let row0 = |first: u32, side: &DuelSide, target: &Graph, s: usize, offset: u32| {
            let l = side.fire[side.graph.cols[s] as usize].map_or(target.laws(), |l| l as usize);
            (first + (l * target.len()) as u32).wrapping_sub(offset)
        };
        base.extend((0..na).map(|s| row0(rows_b, a, &b.graph, s, na as u32)));
        base.extend((0..nb).map(|s| row0(rows_a, b, &a.graph, s, 0)));
        Ok(Lanes { na: na as u32, base, rows, columns, reject: rejects() })
    }

    /// The global index of side A's (`a = true`) or B's fresh card.
    #[inline(always)]
    pub fn start(&self, a: bool) -> u32 {
        if a { 0 } else { self.na }
    }

    /// (next packed state, count out of 1296) of one attack by global state `firer` on
    /// global state `target`, read back from the alias columns.
    pub fn row_counts(&self, firer: u32, target: u32) -> Vec<(u32, u32)> {
        row_counts(self.rows[self.base[firer as usize].wrapping_add(target) as usize], &self.columns)
    }

    /// One attack: the target's next packed state.
    #[inline(always)]
    fn attack(&self, firer: u32, target: u32, rng: &mut Xoshiro256PlusPlus) -> u32 {
        let r = self.rows[self.base[firer as usize].wrapping_add(target) as usize];
        draw(r, &self.columns, &self.reject, rng)
    }

    /// Play `trials` duels of `d` into `tally`, [`LANES`] at a time. Each attack is one
    /// draw (also "no attack", whose draw changes nothing); under `FIRST_SIDE` random
    /// each duel first draws one number for its leading side.
    pub fn play(
        &self,
        first: First,
        max_rounds: u32,
        rng: &mut Xoshiro256PlusPlus,
        trials: u32,
        tally: &mut DuelTally,
    ) {
        match first {
            First::Random => self.play_lanes::<true>(true, max_rounds, rng, trials, tally),
            f => self.play_lanes::<false>(f == First::A, max_rounds, rng, trials, tally),
        }
    }

    #[inline(always)]
    fn play_lanes<const RANDOM: bool>(
        &self,
        a_leads: bool,
        max_rounds: u32,
        rng: &mut Xoshiro256PlusPlus,
        trials: u32,
        tally: &mut DuelTally,
    ) {
        tally.trials += trials as u64;
        if trials == 0 {
            return;
        }
        let rounds = max_rounds as usize;
        // Counts: A's wins by round with A leading, B's by round, draws, then one scratch
        // slot a lane (an attack that ends nothing adds there, so the loop has no branch
        // on it), then A's wins by round with B leading, then the duels A led.
        let mut counts = vec![0u32; 3 * rounds + 2 + LANES];
        let mut lanes = [Lane::default(); LANES];
        let lead = |rng: &mut Xoshiro256PlusPlus| if RANDOM { rand::Rng::next_u64(rng) & 1 == 0 } else { a_leads };
        let started0 = trials.min(LANES as u32);
        for lane in lanes.iter_mut().take(started0 as usize) {
            *lane = self.fresh(lead(rng));
        }
        let mut started = started0;
        // Steady state: every lane that ends restarts at once.
        while trials - started >= LANES as u32 {
            for (l, lane) in lanes.iter_mut().enumerate() {
                let (done, next) = self.step(*lane, l, max_rounds, rng, &mut counts);
                started += done as u32;
                *lane = if !done {
                    next
                } else if RANDOM {
                    self.fresh(lead(rng))
                } else {
                    self.fresh(a_leads)
                };
            }
        }
        // Drain: lanes go idle once no duel is left to start.
        let mut active = [false; LANES];
        active.iter_mut().take(started0 as usize).for_each(|a| *a = true);
        let mut running = started0 as usize;
        while running > 0 {
            for (l, lane) in lanes.iter_mut().enumerate() {
                if !active[l] {
                    continue;
                }
                let (done, next) = self.step(*lane, l, max_rounds, rng, &mut counts);
                *lane = next;
                if done {
                    if started < trials {
                        *lane = self.fresh(lead(rng));
                        started += 1;
                    } else {
                        active[l] = false;
                        running -= 1;
                    }
                }
            }
        }
        let b_led = 2 * rounds + 1 + LANES;
        let (mut led_by_a, mut led_by_b) = (0u64, 0u64);
        for r in 0..rounds {
            led_by_a += counts[r] as u64;
            led_by_b += counts[b_led + r] as u64;
            tally.a_wins_by_turn[r] += (counts[r] + counts[b_led + r]) as u64;
            tally.b_wins_by_turn[r] += counts[rounds + r] as u64;
        }
        tally.timeouts += counts[2 * rounds] as u64;
        let a_first = counts[b_led + rounds] as u64;
        tally.a_first += a_first;
        tally.b_first += trials as u64 - a_first;
        tally.a_wins_a_first += led_by_a;
        tally.a_wins_b_first += led_by_b;
    }

    /// A fresh duel with A (`a = true`) or B leading.
    #[inline(always)]
    fn fresh(&self, a: bool) -> Lane {
        Lane { firer: self.start(a), target: self.start(!a), attack: 0 }
    }

    /// The next attack of duel `lane` (in lane `l`, counted in `counts`): whether the
    /// duel ended with it, and the duel after it.
    #[inline(always)]
    fn step(
        &self,
        lane: Lane,
        l: usize,
        max_rounds: u32,
        rng: &mut Xoshiro256PlusPlus,
        counts: &mut [u32],
    ) -> (bool, Lane) {
        let rounds = max_rounds as usize;
        let Lane { firer, target, attack } = lane;
        let next = self.attack(firer, target, rng);
        let out = next & OUT != 0;
        // The leader's first attack, then two a round: attack h is in round ceil(h / 2).
        let capped = attack == 2 * max_rounds - 2;
        // The leader fires the even attacks: A led when A fires an even one.
        let by_a = firer < self.na;
        let a_led = by_a == (attack & 1 == 0);
        let b_led = 2 * rounds + 1 + LANES;
        let won = (attack as usize).div_ceil(2)
            + if !by_a {
                rounds
            } else if a_led {
                0
            } else {
                b_led
            };
        let other = 2 * rounds + if capped { 0 } else { 1 + l };
        counts[if out { won } else { other }] += 1;
        let done = out | capped;
        counts[b_led + rounds] += (done & a_led) as u32;
        (done, Lane { firer: next & INDEX, target: firer, attack: attack + 1 })
    }
}

/// One duel in play: the next attack's firer and target (global state indices) and the
/// number of attacks made.
#[derive(Debug, Clone, Copy, Default)]
struct Lane {
    firer: u32,
    target: u32,
    attack: u32,
}
