//! What every game's checked catalogue tells the kit: where it came from, its content
//! hash, and how many entries each section holds. The boundary's default
//! [`crate::rules::ruleset::Catalogue::origin`] and
//! [`crate::rules::ruleset::Catalogue::counts`] are built on it, so no room writes them.

use crate::output::wording::count_as;

/// A checked catalogue's provenance and size.
pub trait Provenance {
    /// Where the catalogue was read from (`<embedded>`, a directory, files), as manifests
    /// name it.
    fn origin(&self) -> &str;
    /// The content hash of the catalogue's files (hex), as manifests record it.
    fn hash(&self) -> &str;
    /// Each section's entry count with its singular and plural words
    /// (`(12, "weapon", "weapons")`), in the order `volley validate` prints them.
    fn sizes(&self) -> Vec<(usize, &'static str, &'static str)>;
}

/// "12 weapons, 8 units, 1 field": every section's count with the word for that count.
pub fn counts(cat: &impl Provenance) -> String {
    cat.sizes().into_iter().map(|(n, one, many)| count_as(n as u64, one, many)).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy(usize, usize);
    impl Provenance for Toy {
        fn origin(&self) -> &str {
            "toy"
        }
        fn hash(&self) -> &str {
            "00"
        }
        fn sizes(&self) -> Vec<(usize, &'static str, &'static str)> {
            vec![(self.0, "weapon", "weapons"), (self.1, "gear", "gear")]
        }
    }

    #[test]
    fn counts_use_the_singular_for_one_and_the_plural_otherwise() {
        assert_eq!(counts(&Toy(1, 2)), "1 weapon, 2 gear");
        assert_eq!(counts(&Toy(0, 1)), "0 weapons, 1 gear");
    }
}
