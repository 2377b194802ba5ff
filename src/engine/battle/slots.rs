//! Unit slots as bits of a `u64` (one per slot, [`MAX_UNITS`] of them): the masks a
//! ruleset keeps beside its state so a policy's scans skip the slots they need not read.

use super::outcome::MAX_UNITS;

/// The set bits of `mask`, lowest first: slot numbers for a mask of slots, or indices
/// for any other bit set (systems, special attacks).
#[inline(always)]
pub fn ones(mask: u64) -> Ones {
    Ones(mask)
}

/// The iterator of [`ones`].
#[derive(Debug, Clone, Copy)]
pub struct Ones(u64);

impl Iterator for Ones {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(i)
    }
}

/// The mask of `slots` (each below [`MAX_UNITS`]).
pub fn mask_of(slots: impl IntoIterator<Item = usize>) -> u64 {
    slots.into_iter().fold(0, |m, u| {
        debug_assert!(u < MAX_UNITS, "slot {u} past the {MAX_UNITS} a mask holds");
        m | 1 << u
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ones_gives_the_set_bits_lowest_first_and_mask_of_sets_them() {
        assert_eq!(ones(0).count(), 0);
        assert_eq!(ones(0b1010_0110).collect::<Vec<_>>(), [1, 2, 5, 7]);
        assert_eq!(ones(1 << 63 | 1).collect::<Vec<_>>(), [0, 63]);
        assert_eq!(mask_of([7, 1, 5, 2]), 0b1010_0110);
        assert_eq!(ones(mask_of([0, 9, 63])).collect::<Vec<_>>(), [0, 9, 63]);
    }
}
