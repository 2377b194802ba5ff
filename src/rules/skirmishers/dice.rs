//! 2D6 checks (§1 "Resolving Fire"): success when the sum meets or exceeds the target
//! number. Counts are out of 36, so every probability here is exact.

/// Ways of rolling each sum of 2D6 (index = sum, 0..=12).
pub const WAYS: [u32; 13] = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];

/// 36 x P(2D6 >= `tn`). With `no_automatic_result` (Ruling `NO_AUTOMATIC_RESULT`, the
/// book's rule) TN <= 2 always succeeds and TN >= 13 never does; without it a natural 2
/// always fails and a natural 12 always succeeds.
pub fn success_ways(tn: i32, no_automatic_result: bool) -> u32 {
    (2..=12i32)
        .filter(|&s| if no_automatic_result { s >= tn } else { s == 12 || (s != 2 && s >= tn) })
        .map(|s| WAYS[s as usize])
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tn_table_of_section_1() {
        let want = [36, 36, 36, 35, 33, 30, 26, 21, 15, 10, 6, 3, 1, 0, 0];
        for (tn, w) in want.iter().enumerate() {
            assert_eq!(success_ways(tn as i32, true), *w, "TN {tn}");
        }
        assert_eq!(success_ways(-3, true), 36);
        assert_eq!(success_ways(2, false), 35);
        assert_eq!(success_ways(15, false), 1);
    }
}
