//! Loading a MECHCOM catalogue: read the files, then check and resolve them in one pass.

use super::resolve::check;
use super::validated::Catalogue;
use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::source::{self, SourceFile};

impl Catalogue {
    /// The default catalogue built into the binary (`loadouts/mechcom/`).
    pub fn embedded() -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read("embedded default catalogue", &source::embedded(super::CATALOGUE_DIR), Vec::new())
    }

    /// Parse, check and resolve catalogue files, with `read_errors` (paths that could
    /// not be read) reported among the others. Reports every independent error found,
    /// in one pass, sorted by file and position:
    /// - a name defined twice (in one file or across files) is an error of the later
    ///   definition, which points at the first;
    /// - an entry that refers to an entry with errors (or to a name defined twice) gets
    ///   no error of its own for it;
    /// - a check that combines fields runs when those fields were read.
    pub fn from_read(
        origin: &str,
        files: &[SourceFile],
        read_errors: Vec<CatalogError>,
    ) -> Result<Catalogue, CatalogErrors> {
        check(origin, files, read_errors).result
    }

    /// [`Catalogue::from_read`] with no read errors.
    pub fn from_sources(origin: &str, files: &[SourceFile]) -> Result<Catalogue, CatalogErrors> {
        check(origin, files, Vec::new()).result
    }

    /// Whether the files refer to a weapon, mech or pilot they do not define: they are
    /// additions to another catalogue rather than a catalogue of their own.
    pub fn refers_to_undefined(files: &[SourceFile]) -> bool {
        check("", files, Vec::new()).unknown_references > 0
    }
}
