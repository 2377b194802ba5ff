//! What one battle produced.

/// Most sides in one battle (players or teams).
pub const MAX_SIDES: usize = 8;
/// Most unit slots in one battle.
pub const MAX_UNITS: usize = 64;

/// [`Outcome::first`] of a battle in which no side acted first (simultaneous fire).
pub const NO_FIRST: u8 = u8::MAX;

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ending {
    /// Side `0` won.
    Winner(u8),
    /// Nobody won (mutual elimination, equal scores).
    Draw,
    /// No result at the cap (a game with no scoring at time).
    #[default]
    Undecided,
}

/// One battle's outcome, filled by the rules and the engine. Fixed-size: no allocation.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub ending: Ending,
    /// Whether the battle ended before the cap (by elimination or its game's end rule),
    /// rather than being called at the cap.
    pub decided: bool,
    /// Turns played, 1..=cap.
    pub turns: u32,
    /// The side that acted first in turn 1 (first in the rules' initiative order),
    /// written by the engine ([`super::play_battle`]); [`NO_FIRST`] when every side's
    /// fire takes effect at once.
    pub first: u8,
    /// Steps (actions or activations) each side gave.
    pub actions: [u32; MAX_SIDES],
    /// Each side's score in the game's own points (skirmish: AC destroyed; deathmatch:
    /// the scoring table).
    pub score: [u32; MAX_SIDES],
    /// Points of each side's units destroyed, in thousandths of a point (so catalogue
    /// points with up to three decimals stay exact integers).
    pub points_lost_milli: [u64; MAX_SIDES],
    /// Points of enemy units each side destroyed (kill credit), in thousandths.
    pub points_destroyed_milli: [u64; MAX_SIDES],
    /// Units of each side that left the battle alive (escaped crew).
    pub escaped: [u32; MAX_SIDES],
    /// Times each unit slot was destroyed.
    pub lost: [u16; MAX_UNITS],
    /// Kills credited to each unit slot.
    pub kills: [u16; MAX_UNITS],
}

impl Outcome {
    pub fn new() -> Outcome {
        Outcome {
            ending: Ending::Undecided,
            decided: false,
            turns: 0,
            first: 0,
            actions: [0; MAX_SIDES],
            score: [0; MAX_SIDES],
            points_lost_milli: [0; MAX_SIDES],
            points_destroyed_milli: [0; MAX_SIDES],
            escaped: [0; MAX_SIDES],
            lost: [0; MAX_UNITS],
            kills: [0; MAX_UNITS],
        }
    }

    /// Reset for a new battle.
    pub fn clear(&mut self) {
        *self = Outcome::new();
    }
}

impl Default for Outcome {
    fn default() -> Self {
        Outcome::new()
    }
}
