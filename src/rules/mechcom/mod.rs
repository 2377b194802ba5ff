//! The MECHCOM ruleset (d6 pools: roll over Stability, armour rolls, Integrity), as
//! ruled in `shared/rules/mechcom.md` from the 2024 rulebook.
//!
//! - `options`: every ruling as a runtime option with its documented default.
//! - `conditions`, `weapon`, `mech`, `situation`: plain typed stats and the state of an
//!   attack, which the catalogue and the command line fill.
//! - `stability`: the effective Stability of a shot (§1 table).
//! - `roll`: the exact joint law of one attack's Integrity lost and hit/crit flags,
//!   from counts over 6^k faces (`f64` for Flurry chains).
//! - `odds`: one attack's report (`attack_odds`, `explosion_odds`).
//!
//! The book prints no complete unit (only the Typhon's cost and its flamethrower), so
//! every stat a caller supplies is illustrative.

pub mod attack_run;
pub mod conditions;
pub mod duel;
pub mod hot;
pub mod mech;
pub mod odds;
pub mod options;
pub mod roll;
pub mod situation;
pub mod stability;
pub mod weapon;

pub use attack_run::{AttackRun, ExactRun};
pub use conditions::{Condition, Conditions};
pub use duel::{ExactDuel, exact_duel};
pub use mech::{Ability, Faction, Mech, Model, Pilot, PilotKind, StatBonus};
pub use odds::{AttackOdds, AttackRoll, DieOdds, attack_odds, compile_attack, explosion_odds};
pub use options::Options;
pub use situation::{Cover, Situation};
pub use stability::{Aim, NoAttack, shooting_aim};
pub use weapon::{Damage, Perk, Weapon, WeaponRange};

#[cfg(test)]
mod by_hand_tests;
#[cfg(test)]
mod monte_carlo_tests;
#[cfg(test)]
mod tests;
