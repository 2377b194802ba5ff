//! Atomic single-file writes with ordinary permissions: the bytes go to a temporary
//! file beside the destination, which is renamed into place only when complete, so a
//! reader never sees half a file. The temporary file is created with mode 0666 masked
//! by the process umask (0644 under umask 022), as `std::fs::write` would create it,
//! not the 0600 of a private temporary file.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

/// Fail (naming the first one) when any of `paths` exists and `force` is off. Call it
/// before doing any work, so that a refused run changes nothing.
pub fn refuse_existing(paths: &[PathBuf], force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    if let Some(p) = paths.iter().find(|p| p.exists()) {
        bail!("{} already exists: choose another --out, or --force to replace it", p.display());
    }
    Ok(())
}

/// Write `bytes` to `path` atomically (temporary file in the same directory, then
/// rename). An existing file is replaced only when `force` is on; a directory is never
/// replaced.
///
/// # Errors
/// When `path` exists and `force` is off, when it is a directory, or when the directory
/// cannot be written. On error nothing is left behind (the temporary file is removed).
pub fn write_atomically(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    if path.is_dir() {
        bail!("{} is a directory", path.display());
    }
    if path.exists() && !force {
        bail!("{} already exists: choose another --out, or --force to replace it", path.display());
    }
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    builder.prefix(".volley-").suffix(".partial");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // The kernel masks the mode with the umask, as for any newly created file.
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
    tmp.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
    tmp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
    if force {
        tmp.persist(path).map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))?;
    } else {
        // No replacement: fails if the file appeared while we were writing.
        tmp.persist_noclobber(path).map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_replaces_only_with_force_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("card.svg");
        write_atomically(&p, b"one", false).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"one");
        let err = write_atomically(&p, b"two", false).unwrap_err().to_string();
        assert!(err.contains("card.svg already exists"), "{err}");
        assert_eq!(fs::read(&p).unwrap(), b"one", "refused write leaves the file");
        write_atomically(&p, b"two", true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("card.svg")], "no temporary file left");
        assert!(write_atomically(dir.path(), b"x", true).is_err(), "never replaces a directory");
    }

    #[test]
    fn refuse_existing_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a.png"), dir.path().join("b.png"));
        fs::write(&b, "x").unwrap();
        let err = refuse_existing(&[a.clone(), b.clone()], false).unwrap_err().to_string();
        assert!(err.contains("b.png already exists"), "{err}");
        refuse_existing(&[a, b], true).unwrap();
    }
}
