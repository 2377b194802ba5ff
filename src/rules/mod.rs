//! Rulesets. Each ruleset is a module with its own conditions, exact odds and
//! engagement kernels; the engine sees only [`Ruleset`] names and the kernel traits in
//! `crate::engine`, so adding MECHCOM, Skirmishers or Shellshock adds a module here
//! without touching the engine.

pub mod axis;
pub mod kernel;
pub mod mechcom;
pub mod ruleset;
pub mod techcommander;

pub use kernel::{Kernel, Tally};

use std::fmt;
use std::str::FromStr;

/// The rulesets volley can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Ruleset {
    /// TechCommander 3rd edition (with the 2nd edition's extra rules as options).
    #[default]
    TechCommander,
}

impl Ruleset {
    pub const ALL: [Ruleset; 1] = [Ruleset::TechCommander];
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::TechCommander => "techcommander",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ruleset {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown ruleset `{s}`: volley plays techcommander"))
    }
}
