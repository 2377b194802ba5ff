//! A catalogue in layers: a base (the embedded default catalogue or a directory) extended
//! by additions (`--add-loadouts DIR`, a scenario's `loadouts_add`).

use std::path::{Path, PathBuf};

use super::catalogue::Catalogue;
use super::error::{CatalogError, CatalogErrors};
use super::source::{self, SourceFile};

/// The files of a base catalogue and its additions, read but not yet checked.
#[derive(Debug, Clone)]
pub struct Layers {
    base: String,
    additions: Vec<PathBuf>,
    files: Vec<SourceFile>,
    read_errors: Vec<CatalogError>,
}

impl Layers {
    /// The base catalogue: the files under `dir`, or the embedded default catalogue.
    pub fn base(dir: Option<&Path>) -> Layers {
        match dir {
            None => Layers {
                base: "embedded default catalogue".into(),
                additions: Vec::new(),
                files: source::embedded(),
                read_errors: Vec::new(),
            },
            Some(dir) => {
                let paths = [dir.to_path_buf()];
                let (files, read_errors) = source::read_all(&paths);
                Layers { base: source::origin_of(&paths), additions: Vec::new(), files, read_errors }
            }
        }
    }

    /// Add the catalogue files under `paths`. Their entries may refer to the base's; a
    /// name both define is an error of the addition, which names both places.
    pub fn add(&mut self, paths: &[PathBuf]) {
        let (mut files, mut read_errors) = source::read_all(paths);
        self.files.append(&mut files);
        self.read_errors.append(&mut read_errors);
        self.additions.extend(paths.iter().cloned());
    }

    /// How messages name the catalogue: "embedded default catalogue with additions from x".
    pub fn origin(&self) -> String {
        if self.additions.is_empty() {
            return self.base.clone();
        }
        let list = self.additions.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        format!("{} with additions from {list}", self.base)
    }

    /// Check the layers together as one catalogue, reporting every error.
    pub fn load(&self) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(&self.origin(), &self.files, self.read_errors.clone())
    }
}
