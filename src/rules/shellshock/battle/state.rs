//! The state of one Shellshock battle: what changes from turn to turn, in flat arrays.

use crate::engine::battle::MAX_UNITS;

use super::super::attack_run::State;

/// Everything that changes in one battle, in flat arrays; reset in place.
#[derive(Debug, Clone)]
pub struct FireState {
    /// Card-free state (armour left on the facing hit, lines marked), updated at once.
    pub card: [State; MAX_UNITS],
    /// `card` at the start of the turn: what the Targeting Phase sees.
    pub seen: [State; MAX_UNITS],
    /// Out of the fight (removed in Clean Up).
    pub out: [bool; MAX_UNITS],
    /// Destroyed this turn (takes effect in Aftermath).
    pub down: [bool; MAX_UNITS],
    /// Fired this turn (or out).
    pub fired: [bool; MAX_UNITS],
    /// Units in the fight per side at the start of the turn.
    pub in_fight: [u32; 2],
    /// Rounds left of every counted weapon (`AMMO = CARD`), slot by slot
    /// ([`super::compiled::Slot::ammo_at`]).
    pub ammo: Vec<u32>,
}
