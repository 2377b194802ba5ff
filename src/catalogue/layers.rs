//! A catalogue in layers: a base (a ruleset's embedded default catalogue or a directory)
//! extended by additions (`--add-loadouts DIR`, a scenario's `loadouts_add`).

use std::path::{Path, PathBuf};

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
    /// The base catalogue of the ruleset whose catalogue directory is `ruleset_dir`
    /// (`loadouts/<ruleset_dir>/`): the files under `dir`, or the embedded default
    /// catalogue. When `dir` holds a subdirectory named `ruleset_dir` (a checkout's
    /// `loadouts/`), that subdirectory is the catalogue.
    pub fn base(dir: Option<&Path>, ruleset_dir: &str) -> Layers {
        match dir {
            None => Layers {
                base: "embedded default catalogue".into(),
                additions: Vec::new(),
                files: source::embedded(ruleset_dir),
                read_errors: Vec::new(),
            },
            Some(dir) => {
                let sub = dir.join(ruleset_dir);
                let dir = if sub.is_dir() { sub } else { dir.to_path_buf() };
                let paths = [dir];
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

    /// Add one file made in memory (`volley`'s own entries, such as the ad-hoc builds
    /// named on the command line), named `name` in messages and saved reports.
    pub fn add_text(&mut self, name: &str, text: String) {
        self.files.push(SourceFile { name: name.to_string(), text });
    }

    /// How messages name the catalogue: "embedded default catalogue with additions from x".
    pub fn origin(&self) -> String {
        if self.additions.is_empty() {
            return self.base.clone();
        }
        let list = self.additions.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        format!("{} with additions from {list}", self.base)
    }

    /// Check the layers together as one catalogue with the ruleset's `check` (origin,
    /// files, errors met reading paths), reporting every error.
    pub fn load<C>(
        &self,
        check: impl FnOnce(&str, &[SourceFile], Vec<CatalogError>) -> Result<C, CatalogErrors>,
    ) -> Result<C, CatalogErrors> {
        check(&self.origin(), &self.files, self.read_errors.clone())
    }

    /// The files read so far (base, then additions).
    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }
}
