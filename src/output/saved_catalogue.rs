//! The catalogue a report ran on, saved beside its tables (`catalogue/` of the report
//! directory), so that the report can be re-run or diffed later
//! (`volley diff REPORT/catalogue NEW`).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::catalogue::source::SourceFile;

/// The directory of a report that holds its catalogue.
pub const CATALOGUE_DIR: &str = "catalogue";

/// Write `files` (a resolved catalogue's source files: base, then additions) into
/// `dir/catalogue/`, each under its own file name; a name met again gets a numbered
/// prefix (`2-weapons.toml`) so that nothing is overwritten. The files keep their text
/// byte for byte, so the saved directory loads as the same catalogue with the same
/// content hash (unless names had to be prefixed). Returns the written names, in order.
///
/// # Errors
/// A file that cannot be written.
pub fn write_catalogue(dir: &Path, files: &[SourceFile]) -> Result<Vec<String>> {
    let out = dir.join(CATALOGUE_DIR);
    fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut names: Vec<String> = Vec::new();
    for f in files {
        let base = f.name.rsplit(['/', '\\']).next().unwrap_or(&f.name).to_string();
        let mut name = base.clone();
        let mut n = 1;
        while names.iter().any(|x| x.eq_ignore_ascii_case(&name)) {
            n += 1;
            name = format!("{n}-{base}");
        }
        fs::write(out.join(&name), &f.text).with_context(|| format!("cannot write {CATALOGUE_DIR}/{name}"))?;
        names.push(name);
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_keep_their_text_and_repeated_names_get_a_prefix() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            SourceFile { name: "<embedded>/techcommander/weapons.toml".into(), text: "a".into() },
            SourceFile { name: "extra/weapons.toml".into(), text: "b".into() },
        ];
        let names = write_catalogue(dir.path(), &files).unwrap();
        assert_eq!(names, ["weapons.toml", "2-weapons.toml"]);
        assert_eq!(fs::read_to_string(dir.path().join("catalogue/2-weapons.toml")).unwrap(), "b");
    }
}
