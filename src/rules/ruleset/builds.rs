//! The builds capability: ad-hoc builds named on the command line, and the space of
//! every legal build a search walks.

use crate::catalogue::adhoc::AdHocBuild;

use super::Catalogue;

/// Restrictions on a build space (`volley search`'s filters). Names match any case.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpaceFilter {
    /// Only builds on these bases (units, mechs, troopers); empty: every base.
    pub bases: Vec<String>,
    /// Only builds that cost at most this, in the game's points.
    pub max_cost: Option<f64>,
    /// Only builds that carry every one of these parts.
    pub must_include: Vec<String>,
    /// No build that carries any of these parts (or stands on any of these bases).
    pub exclude: Vec<String>,
}

impl SpaceFilter {
    /// Whether `build` passes the part filters (the base and cost filters are the
    /// game's to apply while it enumerates).
    pub fn parts_pass(&self, build: &AdHocBuild) -> bool {
        self.must_include.iter().all(|m| build.copies_of(m) > 0)
            && !self.exclude.iter().any(|x| build.copies_of(x) > 0 || build.base.eq_ignore_ascii_case(x))
    }
    /// Whether `base` passes the base filter.
    pub fn base_passes(&self, base: &str) -> bool {
        self.bases.is_empty() || self.bases.iter().any(|b| b.eq_ignore_ascii_case(base))
    }
}

/// The most candidates a space may list before enumeration stops (a guard against a
/// runaway space; `volley search` refuses spaces far smaller than this without `--limit`).
pub const SPACE_HARD_CAP: usize = 2_000_000;

/// Ad-hoc builds and build spaces, where a game has them; every method defaults to "not
/// available".
pub trait Builds: Catalogue {
    /// The catalogue entry, in the game's catalogue file syntax (TOML), that defines the
    /// ad-hoc build under the name `name` (its canonical spelling `build.to_string()`, or
    /// the text as the command line wrote it). The entry is checked
    /// by the game's own loader with the rest of the catalogue, so legality is decided in
    /// one place.
    ///
    /// # Errors
    /// An unknown base or part (with the nearest names), a part that is neither of the
    /// kinds the game's builds take, or a game without ad-hoc builds.
    fn adhoc_entry(_cat: &Self::Catalogue, _build: &AdHocBuild, _name: &str) -> Result<String, String> {
        Err(format!("ad-hoc builds (NAME[PART, ...]) are not available for {} yet", Self::LABEL))
    }

    /// Every candidate build the filter lets through, in a fixed order (bases, then parts,
    /// in catalogue order), stopping at [`SPACE_HARD_CAP`]. Candidates are plausible: inside
    /// the limits the game can check cheaply; [`Builds::adhoc_entry`] and the loader decide
    /// legality. A description of the space ("every unit with every multiset of weapons
    /// and gear within free weight and power") is [`Builds::SPACE`].
    ///
    /// # Errors
    /// An unknown base or part named by the filter, or a game without a build space.
    fn build_space(_cat: &Self::Catalogue, _filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
        Err(format!("searching the build space is not available for {} yet", Self::LABEL))
    }

    /// What the build space holds, in words (for `search`'s header and docs).
    const SPACE: &'static str = "";
}
