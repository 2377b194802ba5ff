//! Atomic single-file writes with ordinary permissions: the bytes go to a temporary
//! file `.volley-PID-XXXXXX.partial` beside the destination, which is renamed into place
//! only when complete, so a reader never sees half a file. The temporary file is created
//! with mode 0666 masked by the process umask (0644 under umask 022), as `std::fs::write`
//! would create it, not the 0600 of a private temporary file.
//!
//! [`Staged`] stages several files first and renames them into place together at the
//! end: a command stopped before [`Staged::commit`] (an error, a signal) leaves none of
//! them. Temporary files whose process no longer runs (it was killed) are removed by the
//! next staging in the same directory.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::fault;
use super::report_dir::process_is_running;

/// Fail (naming the first one) when any of `paths` exists and `force` is off. Call it
/// before doing any work, so that a refused run changes nothing.
pub fn refuse_existing(paths: &[PathBuf], force: bool) -> Result<()> {
    if force {
        return Ok(());
    }
    if let Some(p) = paths.iter().find(|p| fs::symlink_metadata(p).is_ok()) {
        bail!("{} already exists: choose another --out, or --force to replace it", p.display());
    }
    Ok(())
}

/// Files staged beside their destinations, not yet visible under their names.
pub struct Staged {
    files: Vec<(tempfile::NamedTempFile, PathBuf)>,
    force: bool,
    cleaned: Vec<PathBuf>,
}

impl Staged {
    /// Nothing staged yet; `force`: [`Staged::commit`] may replace existing files.
    pub fn new(force: bool) -> Staged {
        Staged { files: Vec::new(), force, cleaned: Vec::new() }
    }

    /// Write `bytes` to a temporary file beside `path` (first removing the temporary files
    /// dead processes left in that directory).
    ///
    /// # Errors
    /// When `path` is a directory, or exists and `force` is off, or the directory cannot
    /// be written; nothing of this file is left then.
    pub fn stage(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        if path.is_dir() {
            bail!("{} is a directory", path.display());
        }
        if fs::symlink_metadata(path).is_ok() && !self.force {
            bail!("{} already exists: choose another --out, or --force to replace it", path.display());
        }
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        if !self.cleaned.iter().any(|d| d == dir) {
            remove_stale_files(dir);
            self.cleaned.push(dir.to_path_buf());
        }
        let mut builder = tempfile::Builder::new();
        let prefix = format!("{PREFIX}{}-", std::process::id());
        builder.prefix(&prefix).suffix(SUFFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The kernel masks the mode with the umask, as for any newly created file.
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        fault::before_write(path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut tmp = builder.tempfile_in(dir).with_context(|| format!("cannot write in {}", dir.display()))?;
        tmp.write_all(bytes).with_context(|| format!("cannot write {}", path.display()))?;
        tmp.as_file().sync_all().with_context(|| format!("cannot write {}", path.display()))?;
        self.files.push((tmp, path.to_path_buf()));
        Ok(())
    }

    /// Rename every staged file into place, in the order staged; returns their paths.
    ///
    /// # Errors
    /// The first rename that fails, or without `force` a file that appeared meanwhile.
    /// The files this commit had created before it are removed again (a new set appears
    /// whole or not at all); files it had replaced keep their new contents (each file
    /// is whole, old or new).
    pub fn commit(self) -> Result<Vec<PathBuf>> {
        let mut done: Vec<(PathBuf, bool)> = Vec::new();
        let undo = |done: &[(PathBuf, bool)]| {
            for (path, _) in done.iter().filter(|(_, existed)| !existed) {
                let _ = fault::remove_file(path);
            }
        };
        for (tmp, path) in self.files {
            let existed = fs::symlink_metadata(&path).is_ok();
            let renamed = fault::before_rename(path.as_path())
                .with_context(|| format!("cannot write {}", path.display()))
                .and_then(|()| {
                    if self.force {
                        tmp.persist(&path)
                            .map(|_| ())
                            .map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))
                    } else {
                        // No replacement: fails if the file appeared while we were writing.
                        tmp.persist_noclobber(&path)
                            .map(|_| ())
                            .map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))
                    }
                });
            if let Err(e) = renamed {
                undo(&done);
                return Err(e);
            }
            done.push((path, existed));
        }
        Ok(done.into_iter().map(|(p, _)| p).collect())
    }
}

const PREFIX: &str = ".volley-";
const SUFFIX: &str = ".partial";

/// Remove the temporary files (`.volley-PID-XXXXXX.partial`) in `dir` whose process no
/// longer runs, and those of earlier volley versions (`.volley-XXXXXX.partial`, no
/// PID to ask) last written more than [`LEGACY_AGE`] ago. Best effort: what cannot be
/// read or removed stays.
fn remove_stale_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stale = match stale_pid(name) {
            Some(pid) => pid != std::process::id() && !process_is_running(pid),
            None => is_legacy(name) && entry.metadata().ok().and_then(|m| m.modified().ok()).is_some_and(old_enough),
        };
        if stale && entry.path().is_file() {
            let _ = fault::remove_file(&entry.path());
        }
    }
}

/// How long ago a legacy temporary file (no PID in its name) must have been written last
/// to be taken for a dead run's: no odds card takes that long to write.
pub const LEGACY_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

fn old_enough(modified: std::time::SystemTime) -> bool {
    modified.elapsed().is_ok_and(|age| age >= LEGACY_AGE)
}

/// A temporary file's name as earlier versions wrote it: `.volley-XXXXXX.partial`, six
/// letters or digits and no PID.
fn is_legacy(name: &str) -> bool {
    name.strip_prefix(PREFIX)
        .and_then(|r| r.strip_suffix(SUFFIX))
        .is_some_and(|r| r.len() == 6 && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// The PID in a temporary file's name `.volley-PID-XXXXXX.partial`.
fn stale_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?.strip_suffix(SUFFIX)?;
    let (digits, random) = rest.split_once('-')?;
    if digits.is_empty() || random.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Write `bytes` to `path` atomically (temporary file in the same directory, then
/// rename). An existing file is replaced only when `force` is on; a directory is never
/// replaced.
///
/// # Errors
/// When `path` exists and `force` is off, when it is a directory, or when the directory
/// cannot be written. On error nothing is left behind (the temporary file is removed).
pub fn write_atomically(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    let mut staged = Staged::new(force);
    staged.stage(path, bytes)?;
    staged.commit()?;
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

    #[cfg(unix)]
    #[test]
    fn staged_files_appear_only_on_commit_and_dead_processes_partials_go() {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = dir.path().join(format!(".volley-{dead}-abc123.partial"));
        let live = dir.path().join(format!(".volley-{}-abc123.partial", std::os::unix::process::parent_id()));
        fs::write(&stale, "half").unwrap();
        fs::write(&live, "half").unwrap();
        let (a, b) = (dir.path().join("a.png"), dir.path().join("b.svg"));
        let mut s = Staged::new(false);
        s.stage(&a, b"a").unwrap();
        s.stage(&b, b"b").unwrap();
        assert!(!a.exists() && !b.exists(), "nothing visible before commit");
        assert!(!stale.exists() && live.exists(), "a dead process's partial removed, a live one's kept");
        drop(s);
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 1, "dropped: nothing left but the live partial: {left:?}");
        let mut s = Staged::new(false);
        s.stage(&a, b"a").unwrap();
        s.stage(&b, b"b").unwrap();
        assert_eq!(s.commit().unwrap(), [a.clone(), b.clone()]);
        assert_eq!(fs::read(&b).unwrap(), b"b");
        assert_eq!(stale_pid(".volley-12-x7.partial"), Some(12));
        assert_eq!(stale_pid(".volley-x7.partial"), None);
    }

    #[test]
    fn earlier_versions_partials_go_once_old_and_nothing_else_does() {
        let dir = tempfile::tempdir().unwrap();
        let hours_ago = |h: u64| std::time::SystemTime::now() - std::time::Duration::from_secs(h * 3600);
        let file = |name: &str, when: std::time::SystemTime| {
            let p = dir.path().join(name);
            fs::write(&p, "half").unwrap();
            fs::File::options().write(true).open(&p).unwrap().set_modified(when).unwrap();
            p
        };
        let old = file(".volley-aB3dE9.partial", hours_ago(2));
        let recent = file(".volley-Zx81Qa.partial", hours_ago(0));
        let user_old = file(".volley-notes.partial", hours_ago(2)); // not six characters
        let user_card = file("card.svg", hours_ago(2));
        let mut s = Staged::new(false);
        s.stage(&dir.path().join("a.png"), b"a").unwrap();
        assert!(!old.exists(), "an earlier version's partial, two hours old, removed");
        assert!(recent.exists(), "a recent one may be a run of an earlier version still writing");
        assert!(user_old.exists() && user_card.exists(), "other files stay");
        drop(s);
        assert!(is_legacy(".volley-aB3dE9.partial") && !is_legacy(".volley-12-aB3dE9.partial"));
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
