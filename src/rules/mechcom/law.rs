//! One attack's law as duels and battles draw it: a sampling table over outcome slots.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::{SamplingTable, uniform_below};

/// One attack law: one uniform draw picks a slot; each slot is (Integrity lost, capped
/// at the target's full Integrity; condition bits it adds to the target).
#[derive(Debug, Clone, PartialEq)]
pub struct Law {
    pub table: SamplingTable,
    pub slots: Vec<(u32, u8)>,
    /// Per slot: crits in the attack roll (capped at Programming's Heat), when the
    /// target has Red-Hot Reactor and Programming; empty otherwise.
    pub crits: Vec<u8>,
    /// E[Integrity lost] (uncapped), the policy's ranking key.
    pub mean: f64,
}

impl Law {
    /// One slot, from one unbiased uniform of `rng`.
    #[inline(always)]
    pub fn draw_slot(&self, rng: &mut Xoshiro256PlusPlus) -> usize {
        let u = uniform_below(rng, self.table.range, self.table.reject_below);
        self.table.slot(u)
    }

    /// One outcome, from one unbiased uniform of `rng`: (Integrity lost, condition bits
    /// added).
    #[inline(always)]
    pub fn draw(&self, rng: &mut Xoshiro256PlusPlus) -> (u32, u8) {
        self.slots[self.draw_slot(rng)]
    }

    /// Each slot's (Integrity lost, condition bits added, probability), in slot order:
    /// the probability is the slot's share of the table's elementary events, so an exact
    /// chain built from it plays exactly the law the Monte Carlo draws from.
    pub fn probs(&self) -> impl Iterator<Item = (u32, u8, f64)> + '_ {
        let t = &self.table;
        let range = t.range as f64;
        let upper = t.cumulative.iter().copied().chain(std::iter::once(t.range));
        let lower = std::iter::once(0).chain(t.cumulative.iter().copied());
        self.slots
            .iter()
            .zip(upper.zip(lower))
            .map(move |(&(loss, adds), (hi, lo))| (loss, adds, (hi - lo) as f64 / range))
    }
}
