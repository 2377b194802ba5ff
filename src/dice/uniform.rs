//! Unbiased uniform integers.

use rand::Rng;

/// An unbiased integer in `[0, range)` by Lemire's multiply-and-reject method.
/// `reject_below` must be `range.wrapping_neg() % range`; `range` must be >= 1.
#[inline(always)]
pub fn uniform_below<R: Rng + ?Sized>(rng: &mut R, range: u64, reject_below: u64) -> u64 {
    loop {
        let m = (rng.next_u64() as u128) * (range as u128);
        if (m as u64) >= reject_below {
            return (m >> 64) as u64;
        }
    }
}

/// One roll of a die with `sides` faces (1..=sides), unbiased.
#[inline(always)]
pub fn roll<R: Rng + ?Sized>(rng: &mut R, sides: u64) -> u64 {
    uniform_below(rng, sides, sides.wrapping_neg() % sides) + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn rolls_stay_on_the_die() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut seen = [0u32; 7];
        for _ in 0..6000 {
            seen[roll(&mut rng, 6) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&c| c > 800), "{seen:?}");
    }
}
