//! The catalogue reader every ruleset shares: catalogue files from a directory or the
//! binary ([`source`], [`layers`]), raw entries with positions from TOML and CSV
//! ([`raw`]), a typed field reader that collects every error ([`fields`]), and error
//! values naming file, line, entry and field ([`error`]). It knows no rule and no section
//! name: each ruleset declares its [`raw::Sections`] and reads its entries into its
//! own types.

pub mod adhoc;
pub mod error;
pub mod fields;
pub mod force;
pub mod layers;
pub mod raw;
pub mod source;
pub mod text;

pub use error::{CatalogError, CatalogErrors, Position};
pub use layers::Layers;
pub use raw::{Section, Sections};
