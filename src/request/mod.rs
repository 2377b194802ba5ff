//! What a command asks of the library, as one value, and what comes back.
//!
//! The command line parses its arguments into a request and hands it here once; the
//! library resolves the names, fields, scenario parts, conditions and options it holds
//! against the ruleset and its catalogue, runs it, and returns the result for the command
//! line to print or write. Errors say whether the request was at fault (usage, exit 2)
//! or could not be satisfied (failure, exit 1): see [`crate::error::Error`].

pub mod battle;
pub mod compare;
pub mod diff;
pub mod envelope;
pub mod fit;
pub mod gauntlet;
pub mod meta;
pub mod search;
pub mod setting;
pub mod sides;
pub mod sweep;

pub use setting::{CatalogueSource, RunRequest, Setting, TrialRequest};
