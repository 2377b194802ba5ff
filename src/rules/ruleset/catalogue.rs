//! The catalogue capability: loading, listing and naming a game's sides.

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Column, Table};
use crate::rules::kit::catalogue::Provenance;

use super::{Game, Role, Weighted};

/// What a game's catalogue holds and how its sides are named. Names are the
/// catalogue's names as the game accepts them; every method that takes one reports an
/// unknown name as an error message with the nearest names.
pub trait Catalogue: Game {
    /// Check and resolve catalogue files in one pass, reporting every error.
    ///
    /// # Errors
    /// Every error found, each naming file, line, entry and field.
    fn load(
        origin: &str,
        files: &[SourceFile],
        read_errors: Vec<CatalogError>,
    ) -> Result<Self::Catalogue, CatalogErrors>;
    /// Whether the files use names they do not define: additions to another catalogue
    /// rather than a catalogue of their own (`volley validate FILES`).
    fn refers_to_undefined(_files: &[SourceFile]) -> bool {
        false
    }
    /// Where the catalogue came from and its content hash (manifests), as the kit's
    /// [`Provenance`] reads them.
    fn origin(cat: &Self::Catalogue) -> (&str, &str) {
        (cat.origin(), cat.hash())
    }
    /// "12 weapons, 8 units, 1 field": what `volley validate` counts, from the kit's
    /// [`Provenance::sizes`] with singular and plural words.
    fn counts(cat: &Self::Catalogue) -> String {
        crate::rules::kit::catalogue::counts(cat)
    }
    /// What `volley catalog` can list (`weapons`, `builds`, `mechs`, ...), first = default.
    fn listings() -> &'static [&'static str];
    /// One listing as a table: `forces` is the kit's [`super::forces_table`] of
    /// [`Catalogue::forces`] when the game lists forces; every other listing is the
    /// game's [`Catalogue::section_listing`].
    ///
    /// # Errors
    /// A listing this ruleset does not have.
    fn listing(cat: &Self::Catalogue, what: &str) -> Result<Table, String> {
        if what == "forces" && Self::listings().contains(&"forces") {
            return Ok(super::forces_table::<Self>(cat));
        }
        Self::section_listing(cat, what)
    }
    /// One listing of the game's own sections as a table (not `forces`).
    ///
    /// # Errors
    /// A listing this ruleset does not have.
    fn section_listing(cat: &Self::Catalogue, what: &str) -> Result<Table, String>;
    /// Expand a selector (`all`, a name, or a ruleset's `kind:...`/`faction:...` form)
    /// into names, in catalogue order.
    ///
    /// # Errors
    /// An unknown name or selector.
    fn select(cat: &Self::Catalogue, role: Role, selector: &str) -> Result<Vec<String>, String>;
    /// The catalogue's named fields of weighted opponents (gauntlets).
    ///
    /// # Errors
    /// An unknown field.
    fn field(cat: &Self::Catalogue, name: &str) -> Result<Vec<Weighted>, String>;
    /// Names of the catalogue's fields.
    fn field_names(cat: &Self::Catalogue) -> Vec<String>;
    /// The cost of a named side in this game's points (`points` columns).
    ///
    /// # Errors
    /// An unknown name.
    fn points(cat: &Self::Catalogue, name: &str) -> Result<f64, String>;
    /// The name as tables show it (the catalogue's spelling).
    ///
    /// # Errors
    /// An unknown name.
    fn display_name(cat: &Self::Catalogue, role: Role, name: &str) -> Result<String, String>;
    /// The target name that means opponent `opponent` (a duel side) as the target of an
    /// attack run, for the detail and cost rows of duel sweeps.
    fn as_target(opponent: &str) -> String {
        opponent.to_string()
    }
    /// Columns describing a target in every cell table, after `target`
    /// (TechCommander: `target_ac`), each with its meaning for the column guide.
    fn target_columns() -> Vec<Column>;
    /// Cells of [`Catalogue::target_columns`] for a target.
    fn target_cells(cat: &Self::Catalogue, target: &str) -> Vec<Cell>;

    /// The catalogue's named forces (`[[force]]`), in catalogue order.
    fn forces(_cat: &Self::Catalogue) -> Vec<ForceSpec> {
        Vec::new()
    }
}
