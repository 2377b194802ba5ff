//! The squad fight's fixed sizes and markers, and the throw policy: what every part of
//! the fight reads, defined below all of them.

/// Most guns (arcs) one unit keeps: power armour places one arc per weapon.
pub const MAX_GUNS: usize = 3;
/// Columns of the largest card (power armour 18 cells + DEAD).
pub const COLS: usize = 19;
/// No law: the gun cannot fire at this column.
pub const NO_LAW: u16 = u16::MAX;
/// Shots of a burst arc ("-"): never spent.
pub const UNLIMITED: u32 = u32::MAX;

/// How a trooper chooses between its throw and its arc (option `SQUAD_THROW`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThrowPolicy {
    /// `better`: throw when the blast's expected number of enemy troopers put out beats
    /// the arc's (see `FightGame::throw_value` and `FightGame::arc_value`).
    Better,
    /// `always`: throw whenever a throw is in reach and explosives are left.
    Always,
}
