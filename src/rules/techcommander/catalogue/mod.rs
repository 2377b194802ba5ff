//! The catalogue a designer edits: weapons, units, gear, builds and fields, read from TOML
//! and CSV, validated once into types the rules can trust.
//!
//! Raw files become [`raw::RawEntry`] values (with positions), [`fields::Fields`] reads
//! them into typed entries collecting every error, and [`Catalogue::from_sources`]
//! resolves names and checks builds against their unit and class limits.

pub mod build;
pub mod classes;
pub mod field;
pub mod gear;
mod load;
mod resolve;
pub mod space;
pub mod unit;
pub mod validated;
pub mod weapon;

#[cfg(test)]
mod link_tests;

use crate::catalogue::{Section, Sections};

/// `[[weapon]]`: a weapon system's profile.
pub const WEAPON: Section = Section("weapon");
/// `[[unit]]`: a unit's base stats.
pub const UNIT: Section = Section("unit");
/// `[[gear]]`: gear a build may carry.
pub const GEAR: Section = Section("gear");
/// `[[build]]`: a unit with its weapons and gear.
pub const BUILD: Section = Section("build");
/// `[[field]]`: weighted opponents for gauntlets.
pub const FIELD: Section = Section("field");
/// `[[force]]`: a named force for battles (see [`crate::catalogue::force`]).
pub const FORCE: Section = Section("force");

/// The directory of the embedded default catalogue: `loadouts/techcommander/`.
pub const CATALOGUE_DIR: &str = "techcommander";

/// The sections of a TechCommander catalogue file, and the CSV files by stem ending.
pub const SECTIONS: Sections = Sections {
    toml: &[WEAPON, UNIT, GEAR, BUILD, FIELD, FORCE],
    csv: &[("weapons", WEAPON), ("units", UNIT), ("gear", GEAR)],
};

pub use crate::catalogue::{CatalogError, CatalogErrors, Position};
pub use classes::{MSV_CLASSES, MsvClass, msv_class};
pub use gear::{Effects, Gear};
pub use unit::{Unit, UnitKind};
pub use validated::{Build, Catalogue, Field, SystemRef};
pub use weapon::Weapon;
