//! TechCommander battles (`shared/rules/techcommander-battles.md`): whole forces through
//! the shared battle engine ([`crate::engine::battle`]).
//!
//! - [`units`]: forces resolved into unit slots, budgets checked.
//! - [`tables`]: per pair of enemy units, fire-control and smoke state and system, the
//!   exact life-loss sampler and the policy's scores, before the first battle.
//! - [`skirmish`]: the skirmish game type (§2) as battle rules.
//! - [`policy`]: the named policies (§2.7 greedy, focus-lowest, random).
//! - [`kernel`]: one compiled battle per policy, and the setup from the command line.

pub mod kernel;
pub mod policy;
pub mod skirmish;
pub mod tables;
pub mod units;

pub use kernel::{MODES, TcBattle, compile};
pub use policy::BattlePolicyName;

#[cfg(test)]
mod tests;
