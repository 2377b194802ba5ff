//! The catalogue a designer edits: weapons, units, gear, builds and fields, read from TOML
//! and CSV, validated once into types the rules can trust.
//!
//! Raw files become [`raw::RawEntry`] values (with positions), [`fields::Fields`] reads
//! them into typed entries collecting every error, and [`Catalogue::from_sources`]
//! resolves names and checks builds against their unit and class limits.

pub mod build;
pub mod catalogue;
pub mod classes;
pub mod error;
pub mod field;
pub mod fields;
pub mod gear;
pub mod layers;
mod load;
pub mod raw;
mod resolve;
pub mod source;
pub mod unit;
pub mod weapon;

pub use catalogue::{Build, Catalogue, Field, SystemRef};
pub use classes::{MSV_CLASSES, MsvClass, msv_class};
pub use error::{CatalogError, CatalogErrors, Position};
pub use gear::{Effects, Gear};
pub use layers::Layers;
pub use unit::{Unit, UnitKind};
pub use weapon::Weapon;
