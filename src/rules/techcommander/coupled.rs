//! Exact inverse-CDF sampling from one shared uniform, for common random numbers.
//!
//! A paired comparison couples A's and B's k-th action through ONE uniform variate V
//! per action slot: each side maps V through the inverse CDF of its own action's
//! outcome, X = min{k : V < F(k)}. This is the monotone (comonotone) coupling: a
//! larger V never gives a smaller outcome on either side, so similar builds get
//! strongly correlated outcomes whatever the number of dice (a 16-dice action and an
//! 8-dice action each take exactly one uniform).
//!
//! Exactness: every outcome probability of an action is a rational c/D with
//! D = 20^(dice) (all dice are d20). V is read lazily as base-2^64 digits. The first
//! digit `u` comes from the slot's stream (one u64 per slot, always). For each k the
//! table holds t_k = ⌊F(k)·2^64⌋: u < t_k decides V < F(k), u > t_k decides V ≥ F(k),
//! and only u = t_k (probability at most 21·2^-64 per action) needs more digits, which
//! come from a separate refinement stream and are compared with the exact base-2^64
//! expansion of F(k) (big-integer arithmetic in that cold path). So X has exactly the
//! distribution F, with no truncation bound, and the slot stream always advances by one
//! u64 per slot (the refinement stream is separate, so alignment never slips).

use num_bigint::BigUint;
use rand::Rng;

use super::action::ActionSpec;
use super::damage::life_lost;
use super::rulings::{DIE_SIDES, STARTING_LIFE};

/// The inverse CDF of an integer outcome 0..=len−1 with exact rational probabilities.
#[derive(Debug, Clone, PartialEq)]
pub struct InverseCdf {
    /// t_k = ⌊F(k)·2^64⌋ for k = 0..len−2 (F(len−1) = 1 needs no threshold).
    digits: Vec<u64>,
    /// c_k·2^64 mod D: the rest of F(k)'s expansion, for the cold path.
    rests: Vec<BigUint>,
    denominator: BigUint,
}

impl InverseCdf {
    /// From outcome counts (count[k] of the `Σ count` equally likely elementary
    /// outcomes give k). At least one count must be positive.
    pub fn from_counts(counts: &[BigUint]) -> InverseCdf {
        let denominator: BigUint = counts.iter().sum();
        assert!(denominator > BigUint::ZERO, "an outcome distribution needs a positive count");
        let shift = BigUint::from(1u8) << 64;
        let mut cum = BigUint::ZERO;
        let (mut digits, mut rests) = (Vec::new(), Vec::new());
        for c in &counts[..counts.len().saturating_sub(1)] {
            cum += c;
            let scaled = &cum * &shift;
            let digit = &scaled / &denominator;
            digits.push(u64::try_from(&digit).unwrap_or(u64::MAX));
            // F(k) = 1 exactly gives digit 2^64: clamp to u64::MAX with the rest 2^64·D
            // mod D = 0 and a carry the cold path handles as "V < F(k)" always.
            rests.push(if digit > BigUint::from(u64::MAX) { denominator.clone() } else { scaled % &denominator });
        }
        InverseCdf { digits, rests, denominator }
    }

    /// A fair die with `sides` faces: outcomes 0..sides.
    pub fn uniform(sides: u32) -> InverseCdf {
        InverseCdf::from_counts(&vec![BigUint::from(1u8); sides as usize])
    }

    /// The life an action takes, capped at [`STARTING_LIFE`] (0..=20), as the sampler
    /// and the exact chain see it.
    pub fn life_lost(spec: &ActionSpec) -> InverseCdf {
        // counts of total damage over all 20^dice outcomes
        let mut damage: Vec<BigUint> = vec![BigUint::from(1u8)];
        for g in &spec.groups {
            let hits = hit_counts(g.dice, g.faces);
            let mut next = vec![BigUint::ZERO; damage.len() + (g.dice * g.damage) as usize];
            for (d, cd) in damage.iter().enumerate() {
                if *cd == BigUint::ZERO {
                    continue;
                }
                for (k, ck) in hits.iter().enumerate() {
                    next[d + k * g.damage as usize] += cd * ck;
                }
            }
            damage = next;
        }
        let mut life = vec![BigUint::ZERO; STARTING_LIFE as usize + 1];
        for (d, c) in damage.into_iter().enumerate() {
            let l = life_lost(d as u32, spec.reduction, spec.damage_ac).min(STARTING_LIFE);
            life[l as usize] += c;
        }
        InverseCdf::from_counts(&life)
    }

    /// Outcomes: 0..len.
    pub fn len(&self) -> usize {
        self.digits.len() + 1
    }

    /// Whether there is only one outcome (never: at least one).
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The outcome for the uniform whose first base-2^64 digit is `u`; further digits,
    /// if needed, come from `refine`.
    #[inline(always)]
    pub fn sample<R: Rng + ?Sized>(&self, u: u64, refine: &mut R) -> u32 {
        let mut x = 0u32;
        let mut tie = false;
        for &t in &self.digits {
            x += (u > t) as u32;
            tie |= u == t;
        }
        if tie { self.resolve_tie(u, refine) } else { x }
    }

    /// u equals one or more thresholds: read more digits of V and compare exactly.
    #[cold]
    #[inline(never)]
    fn resolve_tie<R: Rng + ?Sized>(&self, u: u64, refine: &mut R) -> u32 {
        let mut v_digits: Vec<u64> = Vec::new();
        let mut x = 0u32;
        for (k, &t) in self.digits.iter().enumerate() {
            if u > t {
                x += 1;
                continue;
            }
            if u < t {
                break;
            }
            if self.at_least(k, &mut v_digits, refine) {
                x += 1;
            } else {
                break;
            }
        }
        x
    }

    /// Whether V ≥ F(k), given V's first digit equals t_k; draws V's next digits lazily
    /// into `v` (shared between thresholds: V is one number).
    fn at_least<R: Rng + ?Sized>(&self, k: usize, v: &mut Vec<u64>, refine: &mut R) -> bool {
        if self.rests[k] == self.denominator {
            return false; // F(k) = 1: V < 1 always
        }
        let shift = BigUint::from(1u8) << 64;
        let mut rest = self.rests[k].clone();
        let mut i = 0;
        loop {
            if rest == BigUint::ZERO {
                return true; // F(k) ends here and V's digits so far equal it
            }
            let scaled = &rest * &shift;
            let digit = u64::try_from(&scaled / &self.denominator).expect("a digit fits 64 bits");
            rest = scaled % &self.denominator;
            if v.len() == i {
                v.push(refine.next_u64());
            }
            if v[i] != digit {
                return v[i] > digit;
            }
            i += 1;
        }
    }

    /// The first-digit threshold t_k (for tests).
    pub fn digit(&self, k: usize) -> u64 {
        self.digits[k]
    }
}

/// Outcome counts C(n,k)·t^k·(20−t)^(n−k) of n d20 hitting on `faces`, any n.
fn hit_counts(n: u32, faces: u32) -> Vec<BigUint> {
    let (t, f) = (BigUint::from(faces), BigUint::from(DIE_SIDES - faces));
    let mut binom = BigUint::from(1u8);
    (0..=n)
        .map(|k| {
            if k > 0 {
                binom = binom.clone() * (n - k + 1) / k;
            }
            &binom * t.pow(k) * f.pow(n - k)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::techcommander::action::DiceGroup;

    /// A generator that returns the given digits, then panics.
    struct Digits(Vec<u64>);
    impl rand::TryRng for Digits {
        type Error = std::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            unreachable!()
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(self.0.remove(0))
        }
        fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
            unreachable!()
        }
    }

    #[test]
    fn thresholds_are_the_floor_of_the_cdf_times_two_to_the_64() {
        // 3 dice hitting on 5: counts fit u128, so check t_k with plain integers.
        let counts = [15u128 * 15 * 15, 3 * 5 * 15 * 15, 3 * 5 * 5 * 15, 125];
        let total: u128 = counts.iter().sum();
        assert_eq!(total, 8000);
        let cdf = InverseCdf::from_counts(&counts.map(BigUint::from));
        let mut cum = 0u128;
        for (k, c) in counts.iter().take(3).enumerate() {
            cum += c;
            assert_eq!(cdf.digit(k) as u128, (cum << 64) / total, "k = {k}");
        }
        // u below, between and above the thresholds never touches the refinement
        let mut never = Digits(vec![]);
        assert_eq!(cdf.sample(0, &mut never), 0);
        assert_eq!(cdf.sample(cdf.digit(0) + 1, &mut never), 1);
        assert_eq!(cdf.sample(u64::MAX, &mut never), 3);
    }

    #[test]
    fn ties_are_resolved_exactly_by_further_digits() {
        // F(0) = 1/3: 2^64/3 = 0x5555...5.333..., so t_0 = 0x5555_5555_5555_5555 and the
        // next digit of F(0) is again 0x5555...: V < F(0) iff V's next digit is smaller.
        let cdf = InverseCdf::from_counts(&[1u8, 2].map(BigUint::from));
        let t = 0x5555_5555_5555_5555u64;
        assert_eq!(cdf.digit(0), t);
        assert_eq!(cdf.sample(t, &mut Digits(vec![t - 1])), 0);
        assert_eq!(cdf.sample(t, &mut Digits(vec![t + 1])), 1);
        assert_eq!(cdf.sample(t, &mut Digits(vec![t, t, 0])), 0);
        // F(0) = 1/2 exactly: t = 2^63 and V = t/2^64 + rest ≥ 1/2 always
        let half = InverseCdf::from_counts(&[1u8, 1].map(BigUint::from));
        assert_eq!(half.digit(0), 1 << 63);
        assert_eq!(half.sample(1 << 63, &mut Digits(vec![])), 1);
        assert_eq!(half.sample((1 << 63) - 1, &mut Digits(vec![])), 0);
    }

    #[test]
    fn impossible_outcomes_are_never_drawn() {
        // outcome 1 has probability 0: thresholds 0 and 1 coincide
        let cdf = InverseCdf::from_counts(&[1u8, 0, 1].map(BigUint::from));
        let mut never = Digits(vec![]);
        for u in [0, 1 << 62, (1 << 63) - 1, 1 << 63, u64::MAX] {
            assert_ne!(cdf.sample(u, &mut never), 1);
        }
        // an outcome with probability 1 ends the table at 2^64: always below it
        let sure = InverseCdf::from_counts(&[1u8, 0].map(BigUint::from));
        assert_eq!(sure.sample(u64::MAX, &mut Digits(vec![])), 0);
    }

    #[test]
    fn life_counts_match_the_exact_action_odds() {
        for spec in [
            ActionSpec { groups: vec![DiceGroup { dice: 6, faces: 5, damage: 12 }], reduction: 0, damage_ac: 2 },
            ActionSpec { groups: vec![DiceGroup { dice: 40, faces: 3, damage: 4 }], reduction: 5, damage_ac: 3 },
        ] {
            let cdf = InverseCdf::life_lost(&spec);
            let odds = spec.odds().life_lost;
            let mut cum = 0.0;
            for k in 0..cdf.len() - 1 {
                cum += odds.get(k).copied().unwrap_or(0.0);
                let f = cdf.digit(k) as f64 / 2f64.powi(64);
                assert!((f - cum).abs() < 1e-12, "k = {k}: {f} vs {cum}");
            }
        }
    }
}
