//! The target conditions an attack run tracks, as bits of the target's state: the one
//! place the run, its exact chain and its hot loop read them from.

use super::conditions::Condition;

/// Conditions of the target the run tracks; bit i of a state is `TRACKED[i]`.
pub const TRACKED: [Condition; 3] = [Condition::Burned, Condition::Corroded, Condition::Shocked];
/// Number of tracked states (every combination of the tracked conditions).
pub const STATES: usize = 1 << TRACKED.len();
/// The Burned bit (costs 1 Integrity at the end of every round).
pub const BURNED: u8 = 1;
/// The Shocked bit (cleared at the end of the round).
pub const SHOCKED: u8 = 4;
