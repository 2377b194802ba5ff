//! The shared rules kit: every concept the games have in common, written once.
//!
//! A ruleset room (`techcommander/`, `mechcom/`, `skirmishers/`, `shellshock/`) writes its
//! game and nothing else; what every game needs in the same shape lives here and names no
//! ruleset:
//!
//! - [`options`]: one option table: declaration, help, one value syntax for every ruleset,
//!   canonical `NAME=value` pairs for cell keys and manifests;
//! - [`names`]: one name matcher (case-insensitive, with a bounded did-you-mean);
//! - [`select`]: catalogue selectors (`all`, `kind:`, `faction:`, `era:`, `squad:`), the
//!   same on the command line and in scenarios.

pub mod catalogue;
pub mod names;
pub mod options;
pub mod prefix;
pub mod replay_paired;
pub mod select;
