//! Atomic report directories: everything is written into a hidden temporary directory
//! `.NAME.partial-PID` beside the destination, which is renamed into place only when
//! complete. An error, or a cancelled run (the caller drops the [`ReportDir`]), never
//! leaves half a report under the destination's name. A process killed outright leaves
//! its partial directory behind; the next [`ReportDir::create`] for the same destination
//! removes it once that process is gone.
//!
//! This module neither prints nor exits: signals are the binary's business (it cancels the
//! run and drops the report).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// A report being written. Dropped without [`ReportDir::commit`], it leaves no trace.
pub struct ReportDir {
    destination: PathBuf,
    partial: PathBuf,
    force: bool,
    committed: bool,
}

impl ReportDir {
    /// Prepare to write `destination`. Fails at once (before any work) when it exists and
    /// `force` is off, or when its parent cannot be created or written. Removes the
    /// temporary directories (`.NAME.partial-PID`, `.NAME.old-PID`) that earlier runs
    /// writing the same destination left behind, when process PID no longer runs; those
    /// of live processes are left alone.
    pub fn create(destination: &Path, force: bool) -> Result<ReportDir> {
        if destination.exists() && !force {
            bail!("{} already exists: choose another --out, or --force to replace it", destination.display());
        }
        if destination.exists() && !destination.is_dir() {
            bail!("{} exists and is not a directory", destination.display());
        }
        let name = destination
            .file_name()
            .and_then(|n| n.to_str())
            .with_context(|| format!("{} does not name a directory", destination.display()))?;
        let parent = destination.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create the output directory {}", parent.display()))?;
        remove_stale(parent, name)?;
        let partial = parent.join(temporary_name(name, PARTIAL, std::process::id()));
        if partial.exists() {
            fs::remove_dir_all(&partial).with_context(|| format!("cannot clear {}", partial.display()))?;
        }
        fs::create_dir(&partial)
            .with_context(|| format!("cannot write in the output directory {}", parent.display()))?;
        Ok(ReportDir { destination: destination.to_path_buf(), partial, force, committed: false })
    }

    /// Where to write the files now.
    /// Write `manifest` as the report's `manifest.json` (pretty JSON and a newline),
    /// every float first tidied by [`super::number::tidy_json`] so that no measured
    /// duration or rate carries float noise; `manifest` is tidied in place, so charts
    /// drawn from it read the same numbers as the file.
    ///
    /// # Errors
    /// When the file cannot be written; the error names it.
    pub fn write_manifest(&self, manifest: &mut serde_json::Value) -> Result<()> {
        super::number::tidy_json(manifest, false);
        let path = self.partial.join("manifest.json");
        let text = serde_json::to_string_pretty(manifest).context("cannot format manifest.json")? + "\n";
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.partial
    }

    /// The final location.
    pub fn destination(&self) -> &Path {
        &self.destination
    }

    /// Move the finished report into place (replacing an old one under `force`).
    pub fn commit(mut self) -> Result<PathBuf> {
        let name = self.destination.file_name().and_then(|n| n.to_str()).expect("checked by create");
        let old = self.partial.with_file_name(temporary_name(name, OLD, std::process::id()));
        if self.destination.exists() {
            if !self.force {
                bail!("{} appeared while the report was being written", self.destination.display());
            }
            fs::rename(&self.destination, &old)
                .with_context(|| format!("cannot replace {}", self.destination.display()))?;
        }
        fs::rename(&self.partial, &self.destination)
            .with_context(|| format!("cannot move the report to {}", self.destination.display()))?;
        self.committed = true;
        if old.exists() {
            fs::remove_dir_all(&old).with_context(|| format!("cannot remove the old report {}", old.display()))?;
        }
        Ok(self.destination.clone())
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.partial);
        }
    }
}

/// The kinds of temporary directory a report leaves while it is written.
const PARTIAL: &str = "partial";
const OLD: &str = "old";

/// `.NAME.KIND-PID`.
fn temporary_name(name: &str, kind: &str, pid: u32) -> String {
    format!(".{name}.{kind}-{pid}")
}

/// The PID in a temporary directory's file name of destination `name`, if it is one.
fn temporary_pid(file_name: &str, name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_prefix(name)?.strip_prefix('.')?;
    let digits = [PARTIAL, OLD].iter().find_map(|kind| rest.strip_prefix(kind)?.strip_prefix('-'))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Remove the temporary directories of destination `name` in `parent` whose process is gone.
fn remove_stale(parent: &Path, name: &str) -> Result<()> {
    let entries =
        fs::read_dir(parent).with_context(|| format!("cannot read the output directory {}", parent.display()))?;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) = file_name.to_str().and_then(|f| temporary_pid(f, name)) else {
            continue;
        };
        if pid == std::process::id() || process_is_running(pid) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            fs::remove_dir_all(&path)
                .with_context(|| format!("cannot remove {}, left by an interrupted run", path.display()))?;
        }
    }
    Ok(())
}

/// Whether process `pid` exists (signal 0 probes without sending anything; a process of
/// another user answers "not permitted" and counts as running).
#[cfg(unix)]
pub fn process_is_running(pid: u32) -> bool {
    use nix::errno::Errno;
    use nix::sys::signal::kill;
    use nix::unistd::Pid;
    let Ok(raw) = i32::try_from(pid) else { return false };
    if raw <= 0 {
        return false;
    }
    !matches!(kill(Pid::from_raw(raw), None), Err(Errno::ESRCH))
}

/// Without a cheap probe, every process counts as running: nothing is removed.
#[cfg(not(unix))]
pub fn process_is_running(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_is_written_without_float_noise() {
        let root = tempfile::tempdir().unwrap();
        let r = ReportDir::create(&root.path().join("x"), false).unwrap();
        let mut m = serde_json::json!({ "wall_seconds": 2.3383176580000002, "seed": 7, "p": 0.010724719651761264 });
        r.write_manifest(&mut m).unwrap();
        let text = fs::read_to_string(r.path().join("manifest.json")).unwrap();
        assert!(text.contains("2.338317658,") || text.contains("2.338317658\n"), "{text}");
        assert!(!text.contains("580000002") && text.contains("0.010724719651761264"), "{text}");
        assert_eq!(m["wall_seconds"].as_f64(), Some(2.338317658), "tidied in place too");
    }

    #[test]
    fn commit_moves_and_drop_cleans() {
        let root = tempfile::tempdir().unwrap();
        let dest = root.path().join("reports").join("x");
        let r = ReportDir::create(&dest, false).unwrap();
        fs::write(r.path().join("a.csv"), "a\n").unwrap();
        assert!(!dest.exists());
        r.commit().unwrap();
        assert!(dest.join("a.csv").exists());
        assert!(ReportDir::create(&dest, false).is_err(), "refuses to overwrite");
        let r = ReportDir::create(&dest, true).unwrap();
        fs::write(r.path().join("b.csv"), "b\n").unwrap();
        drop(r);
        assert!(dest.join("a.csv").exists(), "an abandoned report leaves the old one");
        let leftovers: Vec<_> = fs::read_dir(root.path().join("reports")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no partial directory left");
        let r = ReportDir::create(&dest, true).unwrap();
        fs::write(r.path().join("b.csv"), "b\n").unwrap();
        r.commit().unwrap();
        assert!(dest.join("b.csv").exists() && !dest.join("a.csv").exists());
        let leftovers: Vec<_> = fs::read_dir(root.path().join("reports")).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no old report left");
    }

    #[test]
    fn temporary_names_parse_back_to_their_pid() {
        assert_eq!(temporary_pid(&temporary_name("x", PARTIAL, 42), "x"), Some(42));
        assert_eq!(temporary_pid(&temporary_name("a.b", OLD, 7), "a.b"), Some(7));
        assert_eq!(temporary_pid(".x.partial-42", "y"), None);
        assert_eq!(temporary_pid(".xy.partial-42", "x"), None);
        assert_eq!(temporary_pid(".x.partial-", "x"), None);
        assert_eq!(temporary_pid(".x.partial-4a", "x"), None);
        assert_eq!(temporary_pid("x.partial-4", "x"), None);
    }

    #[cfg(unix)]
    #[test]
    fn stale_temporary_directories_of_dead_processes_are_removed() {
        let root = tempfile::tempdir().unwrap();
        // A process that has exited (and been reaped): its PID is free.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let parent_pid = std::os::unix::process::parent_id(); // a live process other than this one
        let stale = root.path().join(temporary_name("x", PARTIAL, dead));
        let stale_old = root.path().join(temporary_name("x", OLD, dead));
        let kept = root.path().join(temporary_name("x", PARTIAL, parent_pid));
        let other = root.path().join(temporary_name("y", PARTIAL, dead));
        for d in [&stale, &stale_old, &kept, &other] {
            fs::create_dir(d).unwrap();
            fs::write(d.join("half.csv"), "a\n").unwrap();
        }
        assert!(process_is_running(live) && process_is_running(parent_pid) && !process_is_running(dead));
        let r = ReportDir::create(&root.path().join("x"), false).unwrap();
        assert!(!stale.exists() && !stale_old.exists(), "dead process: removed");
        assert!(kept.exists(), "live process: kept");
        assert!(other.exists(), "another destination: untouched");
        drop(r);
    }
}
