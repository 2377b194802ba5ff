//! The squad fight as engine rules (`FightGame`) and what changes in one fight
//! (`FightState`); the rules themselves are in modules `game`, `throwing`, `melee` and
//! `morale`.

use crate::engine::battle::{Ending, MAX_UNITS};

use super::blast::MAX_THROWS;
use super::compiled::Fight;
use super::limits::MAX_GUNS;

/// A blast waiting for the end of its side's turn: (thrower, throw, aimed-at enemy,
/// 36 x P(hit) at the thrower's column when it threw).
pub type Pending = (u8, u8, u8, u8);

/// Everything that changes in one fight, in flat arrays; reset in place.
#[derive(Debug, Clone)]
pub struct FightState {
    /// Card state (index in the unit's graph).
    pub card: [u32; MAX_UNITS],
    /// Current column per unit (cached from the card).
    pub col: [u8; MAX_UNITS],
    pub out: [bool; MAX_UNITS],
    /// Activated in this round.
    pub done: [bool; MAX_UNITS],
    /// Shots left per (unit, gun).
    pub shots: [u32; MAX_UNITS * MAX_GUNS],
    /// Troopers in the fight per side.
    pub alive: [u32; 2],
    /// The side that moves first each round.
    pub first: u8,
    pub over: Option<Ending>,
    /// Explosives left per (unit, throw).
    pub rounds: [u8; MAX_UNITS * MAX_THROWS],
    /// Blasts waiting for the end of the side's turn, in the order thrown.
    pub pending: [Pending; MAX_UNITS],
    pub pending_n: usize,
    /// Per side: its morale checks of this turn are made (`MORALE`).
    pub checked: [bool; 2],
    /// Failed its morale check this turn: takes no action.
    pub shaken: [bool; MAX_UNITS],
}

/// The squad fight as engine rules.
#[derive(Debug, Clone)]
pub struct FightGame {
    pub fight: Fight,
}
