//! Where catalogue files come from: a directory, a list of paths, or the copy built into
//! the binary.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use include_dir::{Dir, include_dir};

use super::error::CatalogError;

/// The `loadouts/` directory as it was when the binary was built: one directory per
/// ruleset.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/loadouts");

/// One catalogue file's name (as messages show it) and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

/// Whether a path names a catalogue file (`.toml` or `.csv`).
pub fn is_catalogue_file(path: &Path) -> bool {
    matches!(path.extension().and_then(|e| e.to_str()), Some("toml" | "csv"))
}

/// The embedded default catalogue of one ruleset (the files of `loadouts/<dir>/`), in
/// name order; empty when there is no such directory.
pub fn embedded(dir: &str) -> Vec<SourceFile> {
    let Some(dir) = EMBEDDED.get_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<SourceFile> = dir
        .files()
        .filter(|f| is_catalogue_file(f.path()))
        .map(|f| SourceFile {
            name: format!("<embedded>/{}", f.path().display()),
            text: f.contents_utf8().unwrap_or_default().to_string(),
        })
        .collect();
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files
}

/// Read catalogue files from `paths`: a file is read as is, a directory contributes its
/// `.toml` and `.csv` files (recursively, in name order).
pub fn read_paths(paths: &[PathBuf]) -> Result<Vec<SourceFile>, Vec<CatalogError>> {
    let (files, errors) = read_all(paths);
    if errors.is_empty() { Ok(files) } else { Err(errors) }
}

/// How messages name a catalogue read from `paths`: "catalogue from DIR".
pub fn origin_of(paths: &[PathBuf]) -> String {
    let list = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    format!("catalogue from {list}")
}

/// Like [`read_paths`], but returns the files that could be read together with an error
/// for each path or file that could not.
pub fn read_all(paths: &[PathBuf]) -> (Vec<SourceFile>, Vec<CatalogError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        let mut found = Vec::new();
        if path.is_dir() {
            if let Err(e) = collect_dir(path, &mut found) {
                errors.push(CatalogError::new(path.display().to_string(), format!("cannot read directory: {e}")));
                continue;
            }
            if found.is_empty() {
                errors.push(CatalogError::new(path.display().to_string(), "no .toml or .csv catalogue files here"));
            }
        } else {
            found.push(path.clone());
        }
        for file in found {
            match read_capped(&file) {
                Ok(text) => files.push(SourceFile { name: file.display().to_string(), text }),
                Err(e) => errors.push(CatalogError::new(file.display().to_string(), format!("cannot read: {e}"))),
            }
        }
    }
    (files, errors)
}

/// Default largest input file (catalogue file or scenario), in bytes: 16 MiB, a
/// thousand times the largest shipped catalogue file.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 16 << 20;

static MAX_INPUT_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_INPUT_BYTES);

/// Set the largest input file this process reads (the command line's
/// `--max-input-bytes`); 0 means no limit.
pub fn set_max_input_bytes(bytes: u64) {
    MAX_INPUT_BYTES.store(bytes, Ordering::Relaxed);
}

/// The largest input file this process reads, in bytes (0: no limit).
pub fn max_input_bytes() -> u64 {
    MAX_INPUT_BYTES.load(Ordering::Relaxed)
}

/// Read a text input file (a catalogue file or a scenario), reading at most
/// [`max_input_bytes`] + 1 bytes whatever it is (`/dev/zero` included).
///
/// # Errors
/// The file cannot be read, is larger than the limit (the message names the limit and
/// the flag that raises it), or is not UTF-8 text.
pub fn read_capped(path: &Path) -> Result<String, String> {
    use std::io::Read as _;
    let file = fs::File::open(path).map_err(|e| e.to_string())?;
    let max = max_input_bytes();
    let mut bytes = Vec::new();
    let cap = if max == 0 { u64::MAX } else { max + 1 };
    file.take(cap).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if max != 0 && bytes.len() as u64 > max {
        return Err(format!(
            "larger than {max} bytes, the limit for an input file (--max-input-bytes BYTES raises it, 0 lifts it)"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "stream did not contain valid UTF-8".to_string())
}

fn collect_dir(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect_dir(&path, out)?;
        } else if is_catalogue_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// A stable 64-bit FNV-1a hash of the files' names and contents, as 16 hex digits.
/// Names are reduced to their last component so that the same files hash the same from
/// any directory.
pub fn content_hash(files: &[SourceFile]) -> String {
    let mut sorted: Vec<(&str, &str)> =
        files.iter().map(|f| (f.name.rsplit(['/', '\\']).next().unwrap_or(&f.name), f.text.as_str())).collect();
    sorted.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in sorted {
        for b in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}
