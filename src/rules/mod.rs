//! Rulesets: one room per game, and the boundary the shared rooms see.
//!
//! - [`ruleset::Ruleset`]: what a game supplies (catalogue checks, condition axes,
//!   options, kernels, exact solvers, detail tables).
//! - [`axis`]: condition axes and points, by name and canonical text.
//! - kernels implement the engine's contract, [`crate::engine::Kernel`].
//! - [`RulesetId`]: the registry (one line per ruleset in [`registry!`]) and the one
//!   dispatch from an id to generic code, [`RulesetId::visit`].
//!
//! A ruleset's room (`techcommander/`, `mechcom/`) names no other room; the shared rooms
//! (`catalogue`, `engine`, `dice`, `stats`, `output`, `charts`, `sweep`) name no ruleset.

pub mod axis;
pub mod battle;
pub mod kit;
pub mod mechcom;
pub mod quantile_pair;
pub mod ruleset;
pub mod shellshock;
pub mod sides;
pub mod skirmishers;
pub mod techcommander;

pub use crate::engine::{Kernel, Tally};
pub use axis::{AxisKind, AxisSpec, Point};
pub use ruleset::{Role, RuleOptions, Ruleset};

use std::fmt;
use std::str::FromStr;

/// Generic code run for one ruleset: [`RulesetId::visit`] calls `visit::<R>()` with the
/// ruleset the id names, so the code is compiled once per ruleset and its kernels are
/// concrete types.
pub trait Visit {
    type Output;
    fn visit<R: Ruleset>(self) -> Self::Output;
}

/// The registry: every ruleset volley plays, one line each (`Variant => room::Type`).
macro_rules! registry {
    ($m:ident) => {
        $m! {
            TechCommander => techcommander::TechCommander,
            Mechcom => mechcom::Mechcom,
            Skirmishers => skirmishers::Skirmishers,
            Shellshock => shellshock::Shellshock,
        }
    };
}

macro_rules! define_ids {
    ($($variant:ident => $ty:path,)+) => {
        /// The rulesets volley can play (see [`registry!`]).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum RulesetId {
            $($variant,)+
        }

        impl RulesetId {
            /// Every ruleset, in registry order.
            pub const ALL: &'static [RulesetId] = &[$(RulesetId::$variant,)+];

            /// The id on the command line (`techcommander`).
            pub fn name(self) -> &'static str {
                match self {
                    $(RulesetId::$variant => <$ty as ruleset::Game>::NAME,)+
                }
            }

            /// Run `v` with the ruleset this id names: the one dispatch from an id to
            /// generic code.
            pub fn visit<V: Visit>(self, v: V) -> V::Output {
                match self {
                    $(RulesetId::$variant => v.visit::<$ty>(),)+
                }
            }
        }
    };
}

registry!(define_ids);

impl Default for RulesetId {
    /// TechCommander: the default ruleset of commands and scenarios.
    fn default() -> Self {
        RulesetId::ALL[0]
    }
}

impl fmt::Display for RulesetId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for RulesetId {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        RulesetId::ALL.iter().copied().find(|r| r.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            let names: Vec<&str> = RulesetId::ALL.iter().map(|r| r.name()).collect();
            format!("unknown ruleset `{s}`: volley plays {}", names.join(", "))
        })
    }
}
