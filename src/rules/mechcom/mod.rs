//! The MECHCOM ruleset (d6 pools: roll over Stability, armour rolls, Integrity), as
//! ruled in `shared/rules/mechcom.md` from the 2024 rulebook. This room names no other
//! ruleset; its shared dice come from `crate::dice`.
//!
//! # Modules
//! - `options`: every ruling of the rules document as a runtime option with its
//!   documented default ([`Options::default`]), canonical `NAME=value` pairs for
//!   manifests and cell keys, and [`Options::validate`] for unplayable switches.
//! - `conditions`, `weapon`, `mech`, `situation`: plain typed stats and the state of an
//!   attack, which the catalogue and the command line fill (no parsing here).
//! - `stability`: the effective Stability of a shot (the §1 table).
//! - `roll`: the exact joint law of one attack's Integrity lost and hit/crit flags, from
//!   counts over 6^k faces (`f64` for Flurry chains and for pools too large for u128).
//! - `odds`: one attack's report ([`attack_odds`], [`explosion_odds`], JSON keys).
//! - `attack_run`: the attack run's fixed plan and its Monte Carlo kernel
//!   (`crate::engine::Kernel`, tally `crate::stats::TtkTally`); `run_policy`: which
//!   weapon each attack uses ([`RunPolicy`]); `step_nodes` compiles the run into one
//!   exact law per step (a round's attacks, drawn at once) and state, and `hot` is the
//!   kernel's compact loop over them; `exact_run` is the run's exact Markov chain;
//!   `heat` the attacker's Heat automaton (Programming, Malfunctioning and the AI table,
//!   Searing Wave, Vent Coolant) with its exact chain and Monte Carlo loop.
//! - `duel`: exact duels whose sides cannot change each other's state (two attack runs
//!   and the roll-off); `duel_kernel` the Monte Carlo duel, `duel_side` its compiled
//!   sides, and `duel_chain` the exact duel of any two sides, interacting or not: the
//!   joint Markov chain over both models' Integrity, conditions and Ammo that
//!   `DuelKernel::exact` solves (up to `duel_chain::MAX_STATES` states).
//! - `spot`: the Spot action's roll and `SPOT_ACTION`'s pricing, and Tracker: what
//!   places Spot tokens in duels and battles; `token_run` the attack runs that place
//!   them (an automaton over tokens and Ammo left, exact and Monte Carlo).
//! - `battle`: squad battles (§4 "Squad battle") through the shared battle engine:
//!   forces, the per-pair duel sides, alternating activations, targeting policies, death
//!   explosions against every enemy in melee range.
//!
//! # What the catalogue must supply
//! - Weapon: name, [`WeaponRange`] (hexes, or melee for "M"/0), [`Damage`] (a number or
//!   "d3"), attacks (dice, >= 1), [`Perk`]s with their X values.
//! - Mech: name, faction (one of five; `None` only for neutral terrain), cost, Energy,
//!   Movement, Sensors, Stability, Strength, Armour, Integrity (>= 1), weapons resolved
//!   to [`Weapon`]s, [`Ability`]s (the Typhon's four).
//! - Pilot: kind, cost, faction (none for Mercenaries), allowed mechs, [`StatBonus`]
//!   (deltas added to the stats: an aim bonus is a negative Stability delta).
//! - [`Model::new`] applies a pilot's bonus; conditions go on the model.
//!
//! # Attack-run policies
//! An attack run's plan is fixed before the first roll by a [`RunPolicy`] (names:
//! [`RunPolicy::NAMES`]): each attack uses the best-ranked weapon that reaches the
//! range (unarmed at melee range) and has Ammo left, ranked against the target's
//! starting conditions, ties to the earlier weapon, repeated while Energy allows
//! (3 ⚡ an attack).
//! - `best-per-energy` (default): the highest expected Integrity loss per ⚡.
//! - `most-dice`: the most attack dice, then the highest expected Integrity loss.
//!
//! # Played, and not played
//! Played exactly: Shooting with every Stability modifier of §1 (engaged, cover kinds,
//! Submerged, height, Heavy, Blinded, Shocked, Invisible, Spot tokens with Sniper and
//! Artillery), crits worth 2 hits, armour rolls with Volatile and Corroded, d3 damage,
//! Barrage dice (given by the situation), Flurry chains, Condition X / Critical
//! condition X probabilities (neutral terrain exempt), Blast's miss probability,
//! Red-Hot Reactor's expected Heat, Backfire and Superheated amounts; Melee against one
//! defence die with Strength, height, Shocked, Rend, melee crits and Flurry; unarmed
//! 1d3 per winning die; the death explosion. Attack runs track the target's Integrity
//! with Burned, Corroded and Shocked, Ammo, and a Stunned, Blinded or Shocked attacker's
//! first round; with `HEAT_PLAYED` (default) they play the attacker's Heat
//! ([`heat`]): Superheated and Searing Wave add Heat, Programming makes it
//! Malfunctioning at 6 (its activation ends), a Malfunctioning attacker rolls its d6 at
//! the start of each activation and otherwise makes the AI table's one attack
//! (`MALFUNCTION_ONE_ACTION`), and `HEAT_POLICY` spends Searing Wave and Vent Coolant
//! (Limit and ⚡ by `ABILITY_BRACKET`). The gaps the book leaves are ruled in [`heat`]'s
//! docs, each with its reason.
//!
//! Duels and battles play the same Heat move by move (`duel_kernel`'s `activate_hot`,
//! `battle::game`), with Red-Hot Reactor: a model with it and Programming gains one Heat
//! per crit of each attack roll against it (`roll::CritJoint`, Flurry's extra dice by
//! `REACTOR_COUNTS_FLURRY_CRITS`); in battles Searing Wave attacks every living enemy.
//!
//! Attack runs, duels and battles play the Spot action (`SPOT_ACTION`: a model that does not play
//! Heat spots when the tokens' expected gain to the next attack beats its best attack,
//! per ⚡; in battles any living friend's attack counts, tokens being shared) and
//! Tracker's Spot tokens (the Integrity a hit took), exactly in the duel chain
//! ([`spot`]).
//!
//! Battles split a Multi weapon's dice among targets (`MULTI_POLICY` = split: one die
//! at a time where it adds the most expected Integrity taken, capped at each target's
//! Integrity left); duels have one enemy, so nothing splits there.
//!
//! Not played yet: the attacker's Backfire in attack runs, Tethered and Hacked effects, deployables and
//! Wings, and movement. Duels are exact (interaction included) unless a side plays Heat
//! or their state space exceeds `duel_chain::MAX_STATES` (e.g. many Ammo weapons); then
//! they are Monte Carlo only.
//!
//! The book prints no complete unit (only the Typhon's cost and its flamethrower), so
//! every stat a caller supplies is illustrative.

pub mod attack_run;
pub mod battle;
pub mod card;
pub mod catalogue;
pub mod conditions;
pub mod duel;
pub mod duel_chain;
pub mod duel_kernel;
pub mod duel_side;
pub mod energy;
pub mod exact_run;
pub mod heat;
pub mod hot;
pub mod law;
pub mod listing;
pub mod mech;
pub mod notes;
pub mod odds;
pub mod options;
pub mod report;
pub mod roll;
pub mod ruleset;
pub mod run_laws;
pub mod run_policy;
pub mod situation;
pub mod spot;
pub mod stability;
pub mod step_nodes;
pub mod token_run;
pub mod tracked;
pub mod weapon;

pub use attack_run::AttackRun;
pub use conditions::{Condition, Conditions};
pub use duel::{ExactDuel, exact_duel};
pub use duel_kernel::{DuelKernel, DuelOutcome, Winner};
pub use exact_run::ExactRun;
pub use mech::{Ability, Faction, Mech, Model, Pilot, PilotKind, StatBonus};
pub use odds::{AttackOdds, AttackRoll, DieOdds, attack_odds, compile_attack, explosion_odds};
pub use options::Options;
pub use ruleset::Mechcom;
pub use run_policy::RunPolicy;
pub use situation::{Cover, Situation};
pub use stability::{Aim, NoAttack, shooting_aim};
pub use weapon::{Damage, Perk, Weapon, WeaponRange};

#[cfg(test)]
mod by_hand_tests;
#[cfg(test)]
mod duel_reference;
#[cfg(test)]
mod duel_tests;
#[cfg(test)]
mod exact_duel_tests;
#[cfg(test)]
mod heat_tests;
#[cfg(test)]
mod monte_carlo_tests;
#[cfg(test)]
mod multi_tests;
#[cfg(test)]
mod policy_tests;
#[cfg(test)]
mod spot_action_tests;
#[cfg(test)]
mod spot_duel_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod token_run_tests;
