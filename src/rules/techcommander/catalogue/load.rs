//! Loading a catalogue: read the files, then check and resolve them in one pass.

use std::path::{Path, PathBuf};

use super::resolve::check;
use super::validated::Catalogue;
use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::source::{self, SourceFile};

impl Catalogue {
    /// The default catalogue built into the binary.
    pub fn embedded() -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_sources("embedded default catalogue", &source::embedded(super::CATALOGUE_DIR))
    }

    /// Load every `.toml`/`.csv` file under the given files or directories. A path that
    /// cannot be read is reported together with every error of the files that could.
    pub fn load(paths: &[PathBuf]) -> Result<Catalogue, CatalogErrors> {
        let (files, read_errors) = source::read_all(paths);
        check(&source::origin_of(paths), &files, read_errors).result
    }

    /// Load a directory.
    pub fn load_dir(dir: &Path) -> Result<Catalogue, CatalogErrors> {
        Catalogue::load(&[dir.to_path_buf()])
    }

    /// Parse, check and resolve catalogue files. Reports every independent error found,
    /// in one pass:
    /// - a name defined twice (in one file or across files) is an error of the later
    ///   definition, which points at the first;
    /// - an entry that refers to an entry with errors (or to a name defined twice) is not
    ///   checked further against it and gets no error of its own for it;
    /// - a check that combines fields runs when those fields were read, whatever else is
    ///   wrong with the entry.
    pub fn from_sources(origin: &str, files: &[SourceFile]) -> Result<Catalogue, CatalogErrors> {
        check(origin, files, Vec::new()).result
    }

    /// Like [`Catalogue::from_sources`], with `read_errors` (paths that could not be
    /// read) reported among the others.
    pub fn from_read(
        origin: &str,
        files: &[SourceFile],
        read_errors: Vec<CatalogError>,
    ) -> Result<Catalogue, CatalogErrors> {
        check(origin, files, read_errors).result
    }

    /// Whether the files refer to a unit, weapon, gear or build they do not define: they
    /// are additions to another catalogue rather than a catalogue of their own.
    pub fn refers_to_undefined(files: &[SourceFile]) -> bool {
        check("", files, Vec::new()).unknown_references > 0
    }
}
