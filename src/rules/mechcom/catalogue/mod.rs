//! The MECHCOM catalogue: weapons, mechs (with profiles), pilots, builds, squads,
//! fields and forces, read
//! from TOML (and `mechs.csv` / `weapons.csv` stat sheets) with the shared reader
//! (`crate::catalogue`), validated once into the room's typed stats ([`Weapon`],
//! [`Mech`], [`Pilot`]). Every key is documented in `loadouts/mechcom/README.md`.
//!
//! Checking reports every independent error in one pass, each with file, line, column,
//! entry and field: unknown keys, perks, conditions, abilities and factions (with a
//! suggestion), stats outside the ranges of `mechcom.md` §3, names defined twice (the
//! later definition points at the first), unknown weapon, mech, pilot and profile names
//! (with a suggestion), pilot requirements, squads over budget (by how much), squads of
//! mixed factions and Ace or Mercenary cards taken twice (`ACES_MERCS_UNIQUE`), force
//! members that name no model (checked against budgets when a battle is set up). An
//! entry that refers to an entry with errors gets no error of its own for it.
//!
//! # Model names
//! Wherever a model is named (selectors, fields, squads, the command line), `"Typhon"`
//! is the mech alone and `"Typhon+Name"` is the mech flown by pilot `Name` (split at
//! the first `+`, spaces around it ignored). Mech names therefore may not contain `+`.
//! A `[[build]]`'s name (`"Typhon[Iris Kade, Overclocked]"`) is a model name too: its
//! mech, flown by its pilot, with its profile's cost.

pub mod build;
mod load;
mod lookup;
pub mod mech;
pub mod perk;
pub mod pilot;
mod resolve;
pub mod space;
pub mod squad;
pub mod validated;
pub mod weapon;

use crate::catalogue::{Section, Sections};

/// `[[weapon]]`: one weapon of an Arsenal.
pub const WEAPON: Section = Section("weapon");
/// `[[mech]]`: a mech sheet's stats, weapons, abilities and profiles.
pub const MECH: Section = Section("mech");
/// `[[pilot]]`: a pilot card.
pub const PILOT: Section = Section("pilot");
/// `[[squad]]`: a force of one faction within a points budget.
pub const SQUAD: Section = Section("squad");
/// `[[field]]`: weighted opponents (models) for gauntlets.
pub const FIELD: Section = Section("field");
/// `[[build]]`: a mech with an optional pilot and profile, under a model name of its
/// own (what an ad-hoc build `Mech[Pilot, Profile]` becomes).
pub const BUILD: Section = Section("build");
/// `[[force]]`: a force for battles (`crate::catalogue::force::ForceSpec`): models by
/// name (`Mech` or `Mech+Pilot`) with counts, an optional budget.
pub const FORCE: Section = Section("force");

/// The directory of the embedded default catalogue: `loadouts/mechcom/`.
pub const CATALOGUE_DIR: &str = "mechcom";

/// The sections of a MECHCOM catalogue file, and the CSV stat sheets by stem ending.
pub const SECTIONS: Sections =
    Sections { toml: &[WEAPON, MECH, PILOT, BUILD, SQUAD, FIELD, FORCE], csv: &[("mechs", MECH), ("weapons", WEAPON)] };

pub use crate::catalogue::{CatalogError, CatalogErrors, Position};
pub use build::Build;
pub use mech::{Profile, ability_name};
pub use perk::{parse_perk, perk_name};
pub use validated::{
    Catalogue, Field, Member, Opponent, SELECTORS, Squad, model_name, requirement_unmet, split_model_name,
};

pub use super::{Ability, Faction, Mech, Model, Pilot, PilotKind, StatBonus, Weapon};
