//! Sampling one action's life lost from integer tables, exactly as [`ActionSpec::odds`]
//! describes it.

use rand::Rng;

use super::action::ActionSpec;
use super::damage::life_lost;
use super::dice::{HitTable, MAX_TABLE_DICE};
use super::rulings::STARTING_LIFE;

/// Samples the life an action takes, capped at 20 (more cannot matter: life <= 20).
///
/// Dice groups are split into chunks of at most 14 dice, one u64 draw each. With one
/// chunk the hits index `life_by_hits`; with more, the damage of all chunks is summed and
/// indexes `life_by_damage`.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionSampler {
    pub first: HitTable,
    pub first_damage: u32,
    /// Life lost (capped) for k hits of the first chunk, when it is the only one.
    pub life_by_hits: [u8; MAX_TABLE_DICE as usize + 2],
    /// Further chunks and their damage per hit.
    pub rest: Vec<(HitTable, u32)>,
    /// Life lost (capped) by total damage, when there are further chunks.
    pub life_by_damage: Vec<u8>,
}

impl ActionSampler {
    pub fn new(spec: &ActionSpec) -> ActionSampler {
        let cap = |life: u32| life.min(STARTING_LIFE) as u8;
        let mut chunks = Vec::new();
        for g in &spec.groups {
            let mut left = g.dice;
            while left > 0 {
                let n = left.min(MAX_TABLE_DICE);
                chunks.push((HitTable::new(n, g.faces), g.damage));
                left -= n;
            }
        }
        assert!(!chunks.is_empty(), "an action rolls at least one die");
        let (first, first_damage) = chunks.remove(0);
        let mut life_by_hits = [0u8; MAX_TABLE_DICE as usize + 2];
        for (k, slot) in life_by_hits.iter_mut().enumerate().take(first.dice as usize + 1) {
            *slot = cap(life_lost(k as u32 * first_damage, spec.reduction, spec.damage_ac));
        }
        let life_by_damage = if chunks.is_empty() {
            Vec::new()
        } else {
            let max = first.dice * first_damage + chunks.iter().map(|(t, d)| t.dice * d).sum::<u32>();
            (0..=max).map(|d| cap(life_lost(d, spec.reduction, spec.damage_ac))).collect()
        };
        ActionSampler { first, first_damage, life_by_hits, rest: chunks, life_by_damage }
    }

    /// Draw the life lost by one action.
    #[inline(always)]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u32 {
        let hits = self.first.sample(rng);
        if self.rest.is_empty() {
            return self.life_by_hits[hits as usize] as u32;
        }
        self.sample_chunks(hits, rng)
    }

    #[cold]
    fn sample_chunks<R: Rng + ?Sized>(&self, first_hits: u32, rng: &mut R) -> u32 {
        let mut damage = first_hits * self.first_damage;
        for (t, d) in &self.rest {
            damage += t.sample(rng) * d;
        }
        self.life_by_damage[damage as usize] as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::techcommander::action::DiceGroup;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn empirical(spec: &ActionSpec, n: u32) -> Vec<f64> {
        let s = ActionSampler::new(spec);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut counts = vec![0u32; 21];
        for _ in 0..n {
            counts[s.sample(&mut rng) as usize] += 1;
        }
        counts.into_iter().map(|c| c as f64 / n as f64).collect()
    }

    fn capped(spec: &ActionSpec) -> Vec<f64> {
        let mut d = vec![0.0; 21];
        for (l, p) in spec.odds().life_lost.iter().enumerate() {
            d[l.min(20)] += p;
        }
        d
    }

    #[test]
    fn single_and_chunked_samplers_follow_the_exact_distribution() {
        let single =
            ActionSpec { groups: vec![DiceGroup { dice: 6, faces: 5, damage: 12 }], reduction: 0, damage_ac: 2 };
        let chunked = ActionSpec {
            groups: vec![DiceGroup { dice: 20, faces: 3, damage: 4 }, DiceGroup { dice: 2, faces: 11, damage: 9 }],
            reduction: 5,
            damage_ac: 3,
        };
        let n = 400_000;
        for spec in [single, chunked] {
            let (emp, exact) = (empirical(&spec, n), capped(&spec));
            for (l, (&e, &x)) in emp.iter().zip(&exact).enumerate() {
                // 5 standard errors: a deterministic seed, far from chance failures.
                let se = (x * (1.0 - x) / n as f64).sqrt();
                assert!((e - x).abs() <= 5.0 * se + 1e-12, "life {l}: {e} vs {x}");
            }
        }
    }
}
