//! The Energy an action costs ("Rounds › Actions"): read by attack runs, their Heat
//! automaton, duels, the exact duel chain and battles.

/// ⚡ per Shooting or Melee action ("Rounds › Actions").
pub const ATTACK_ENERGY: u32 = 3;
/// ⚡ to clear one condition ("List of Conditions").
pub const CLEAR_ENERGY: u32 = 2;
