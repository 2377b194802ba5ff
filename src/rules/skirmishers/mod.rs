//! The Skirmishers ruleset (2D6 against a target number, HP-cell tracks, PV costs), as
//! ruled in `shared/rules/skirmishers.md` from the v0.4 rulebook (War Department GM 1-1,
//! 25 July 2025). This room names no other ruleset.
//!
//! # Modules
//! - `dice`: 2D6 checks out of 36 (Ruling `NO_AUTOMATIC_RESULT`).
//! - `track`: the basic and power-armour cards packed in a `u64` (2 bits a cell, armour
//!   cells left), and one hit marked on them in the order of §3.
//! - `weapon`, `trooper`: the catalogue's typed stats; `catalogue`: reading and checking.
//! - `options`: every Ruling and switch as a named option with its documented default.
//! - `conditions`, `tn`: §2's target number with every modifier.
//! - `law`: one attack as exact counts out of 1296 (to-hit 36 x initial cell 36), with
//!   explosives' scatter (`SCATTER_DOTS`) and incendiaries' misses.
//! - `graph`: the reachable card states under a set of laws, shared by the exact chains
//!   (probability vectors) and the Monte Carlo kernels (one unbiased draw per attack).
//! - `plan`, `attack_run`: §4's attack run (exact chain and kernel); `duel`: §4's
//!   alternating duel (exact chain over the pair of cards, and kernel); `alias`: one
//!   attack's counts out of 1296 as exact integer alias tables; `lanes`: the duel
//!   kernel's tables over both cards' states, duels played side by side; `run_lanes`:
//!   the attack run's tables over the target card, runs played side by side; `paired`.
//! - `odds`, `report`: one attack's exact odds, the `track_odds` detail table, cost rows,
//!   listings; `ruleset`: the boundary.
//! - `battle`: §4's squad fight at equal PV (battle mode `squad-fight`) through the
//!   shared battle engine: forces, the compiled fight, the rules and activation policies.
//!
//! # Played, and not played
//! Played exactly: every §2 modifier but the jet-pack flier, large-target, vehicle and
//! movement-fire passenger ones (the advanced terrain's with `ADVANCED_TERRAIN`); lethal and bludgeoning damage with body and power armour; fists from
//! the firer's current AP; explosives' rings with a scatter of `SCATTER_DOTS`; launchers'
//! and grenades' ammunition; the firer's damage (`--firer-hp`); `OUT_WHEN_CANNOT_ATTACK`;
//! `VOLLEY`; movement fire (`MOVEMENT_FIRE`) in attack runs. Monte Carlo: squad fights
//! with arc and melee weapons, thrown explosives whose blasts hit every trooper in their
//! rings (`GRENADES`), fists and bayonets at range 1 (`FISTS_AND_BAYONET`) and morale
//! checks (`MORALE`, off) (`battle`).
//! Not played: launchers in squad fights, vehicles, jet packs, fire and smoke spreading,
//! moving targets, advanced body armour (no protected-cell field), power-armour weapon
//! loss on * cells and knock-downs (`PA_KNOCKDOWN`). Those switches are refused by
//! `Options::validate`.
//!
//! The book prints no trooper: every trooper and squad of the catalogue is illustrative;
//! every weapon row is the book's.

mod alias;
pub mod attack_run;
pub mod battle;
pub mod card;
pub mod catalogue;
pub mod conditions;
pub mod dice;
pub mod duel;
pub mod duel_side;
pub mod graph;
pub mod lanes;
pub mod law;
pub mod odds;
pub mod options;
pub mod plan;
pub mod report;
pub mod ruleset;
mod run_lanes;
pub mod setup;
pub mod tn;
pub mod track;
pub mod trooper;
pub mod weapon;

pub use attack_run::AttackRun;
pub use catalogue::Catalogue;
pub use conditions::Conditions;
pub use duel::{Duel, ExactDuel};
pub use options::Options;
pub use plan::RunPolicy;
pub use ruleset::Skirmishers;

#[cfg(test)]
mod tests;
