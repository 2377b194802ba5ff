//! The mutable state of one squad battle, reset in place per battle.

use crate::engine::battle::{Ending, MAX_UNITS};
use crate::rules::mechcom::duel_kernel::{HeatMind, TrialStreams};

/// Everything that changes in one battle; reset in place.
#[derive(Debug, Clone)]
pub struct SquadState {
    /// Integrity left per unit slot (<= 0: destroyed).
    pub life: [i32; MAX_UNITS],
    /// Condition bits per unit slot.
    pub cond: [u8; MAX_UNITS],
    /// Activated this round, or destroyed.
    pub done: [bool; MAX_UNITS],
    /// Models alive per side.
    pub alive: [u32; 2],
    /// Ammo counters, as [`Squads::start_ammo`].
    pub ammo: Vec<u32>,
    pub streams: TrialStreams,
    /// This block of 64 rounds' roll-off bits.
    pub roll_bits: u64,
    /// Set at once when a side is eliminated.
    pub over: Option<Ending>,
    /// Death explosions waiting (`Explosions::EndOfNextActivation`): [`DESTROYED_NOW`]
    /// or [`ARMED`] per unit slot, else 0.
    pub pending: [u8; MAX_UNITS],
    /// Heat state per unit slot (zero for a unit without Heat).
    pub minds: [HeatMind; MAX_UNITS],
    /// Spot tokens left on each unit slot (`SPOT_TOKENS_SHARED`: any enemy's attack
    /// uses them up).
    pub spot: [u32; MAX_UNITS],
}

/// Destroyed in the current activation: explodes at the end of the next.
pub const DESTROYED_NOW: u8 = 1;
/// Explodes at the end of the current activation (or in this round's End phase).
pub const ARMED: u8 = 2;
