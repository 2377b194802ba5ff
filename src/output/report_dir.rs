//! Atomic report directories: everything is written into a hidden temporary directory
//! `.NAME.partial-PID` beside the destination, which is renamed into place only when
//! complete. An error, or a cancelled run (the caller drops the [`ReportDir`]), never
//! leaves half a report under the destination's name.
//!
//! Every directory written here carries the marker file [`MARKER`]: `--force` replaces
//! only a directory that carries it, or an empty one; anything else is refused, naming
//! the first foreign file. The destination may not be a symbolic link, nor end in `.` or
//! `..`; both are refused before any work.
//!
//! Replacement ([`swap_in`]): the old directory is renamed to `.NAME.old-PID`, the new one
//! renamed into place, then the old one removed. A failure between the two renames puts
//! the old one back. A process killed between them leaves no `NAME` and its old copy in
//! `.NAME.old-PID`: the next run writing `NAME` ([`recover`]) renames that copy back
//! (it never deletes an old copy unless a new one is in place). Temporary directories of
//! processes that no longer run are removed by that next run too.
//!
//! Every file-system step goes through [`super::fault`] (its test hook can make any step
//! fail). This module neither prints nor exits: signals are the binary's business (it
//! cancels the run and drops the report).

use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::fault;

/// The marker file in every directory volley writes (reports, shards, redrawn charts).
const MARKER: &str = ".volley-output";
/// The marker's text.
const MARKER_TEXT: &str =
    "This directory was written by volley. `--force` replaces only directories that carry this file.\n";

/// A report being written. Dropped without [`ReportDir::commit`], it leaves no trace.
pub struct ReportDir {
    destination: PathBuf,
    partial: PathBuf,
    force: bool,
    committed: bool,
}

/// `name` (from an input: a scenario's name, a field) made into one safe path component
/// for a default output directory: path separators, control characters and `:` become
/// `-`, leading dots are dropped (no `..`, no hidden name), at most 100 bytes; an empty
/// result becomes `report`. An ordinary name comes back unchanged.
pub fn safe_component(name: &str) -> String {
    let mapped: String =
        name.chars().map(|c| if c == '/' || c == '\\' || c == ':' || c.is_control() { '-' } else { c }).collect();
    let trimmed = mapped.trim_start_matches('.').trim();
    let mut out = String::new();
    for c in trimmed.chars() {
        if out.len() + c.len_utf8() > 100 {
            break;
        }
        out.push(c);
    }
    if out.is_empty() { "report".into() } else { out }
}

/// Refuse a destination that cannot be written as a directory of its own: one ending in
/// `.` or `..` (its name is not its own), or a symbolic link (dangling or not).
///
/// # Errors
/// Names the path and why.
pub fn check_destination(destination: &Path) -> Result<()> {
    let text = destination.as_os_str().as_encoded_bytes();
    let dot_end = text == b"." || text.ends_with(b"/.") || text.ends_with(b"/./");
    if dot_end || matches!(destination.components().next_back(), Some(Component::ParentDir) | None) {
        bail!("{} does not name a directory of its own: give its name (not . or ..)", destination.display());
    }
    if fs::symlink_metadata(destination).is_ok_and(|m| m.file_type().is_symlink()) {
        bail!("{} is a symbolic link: volley writes only to a real directory, give its path", destination.display());
    }
    Ok(())
}

/// Refuse replacing `destination` unless it is a directory carrying [`MARKER`] or an
/// empty one.
///
/// # Errors
/// Names the first foreign file (in name order).
fn check_replaceable(destination: &Path) -> Result<()> {
    let meta = fs::symlink_metadata(destination).with_context(|| format!("cannot read {}", destination.display()))?;
    if !meta.is_dir() {
        bail!("{} exists and is not a directory", destination.display());
    }
    if destination.join(MARKER).is_file() {
        return Ok(());
    }
    let mut names: Vec<_> = fs::read_dir(destination)
        .with_context(|| format!("cannot read {}", destination.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name()))
        .collect();
    names.sort();
    if let Some(first) = names.first() {
        bail!(
            "{} was not written by volley (it has no {MARKER} file) and holds {}: --force replaces only volley's \
             own output or an empty directory; choose another --out",
            destination.display(),
            destination.join(first).display()
        );
    }
    Ok(())
}

/// Refuse `destination` when it is one of `inputs`, holds one or lies inside one: the
/// run would replace or change what it reads.
///
/// # Errors
/// Names the input.
pub fn refuse_inputs(destination: &Path, inputs: &[PathBuf]) -> Result<()> {
    let dest = match fs::canonicalize(destination) {
        Ok(d) => d,
        Err(_) => match (destination.parent(), destination.file_name()) {
            (Some(p), Some(n)) => {
                let p = if p.as_os_str().is_empty() { Path::new(".") } else { p };
                match fs::canonicalize(p) {
                    Ok(p) => p.join(n),
                    Err(_) => return Ok(()), // nowhere yet: it holds nothing and is in nothing
                }
            }
            _ => return Ok(()),
        },
    };
    for input in inputs {
        let Ok(i) = fs::canonicalize(input) else { continue };
        if i.starts_with(&dest) || dest.starts_with(&i) {
            bail!(
                "--out {} would replace or change {}, which this run reads: choose another --out",
                destination.display(),
                input.display()
            );
        }
    }
    Ok(())
}

/// The directory `destination` is in, and its name.
fn split(destination: &Path) -> Result<(PathBuf, String)> {
    let name = destination
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("{} does not name a directory (or its name is not UTF-8)", destination.display()))?;
    let parent = destination.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok((parent.to_path_buf(), name.to_string()))
}

impl ReportDir {
    /// Prepare to write `destination`. Fails at once (before any work) when it exists and
    /// `force` is off, when it exists without [`MARKER`] and is not empty, when it is a
    /// symbolic link or ends in `.`/`..`, or when its parent cannot be created or written.
    /// First recovers what earlier runs writing the same destination left ([`recover`]).
    pub fn create(destination: &Path, force: bool) -> Result<ReportDir> {
        check_destination(destination)?;
        let (parent, name) = split(destination)?;
        fault::create_dir_all(&parent)
            .with_context(|| format!("cannot create the output directory {}", parent.display()))?;
        recover(&parent, &name)?;
        if destination.exists() && !force {
            bail!("{} already exists: choose another --out, or --force to replace it", destination.display());
        }
        if destination.exists() {
            check_replaceable(destination)?;
        }
        let partial = parent.join(temporary_name(&name, PARTIAL, std::process::id()));
        if partial.exists() {
            fault::remove_dir_all(&partial).with_context(|| format!("cannot clear {}", partial.display()))?;
        }
        fault::create_dir(&partial)
            .with_context(|| format!("cannot write in the output directory {}", parent.display()))?;
        let report = ReportDir { destination: destination.to_path_buf(), partial, force, committed: false };
        let marker = report.partial.join(MARKER);
        fault::write(&marker, MARKER_TEXT.as_bytes()).with_context(|| format!("cannot write {}", marker.display()))?;
        Ok(report)
    }

    /// Write `manifest` as the report's `manifest.json` (pretty JSON and a newline),
    /// every float first tidied by [`super::number::tidy_json`] so that no measured
    /// duration or rate carries float noise; `manifest` is tidied in place, so charts
    /// drawn from it read the same numbers as the file.
    ///
    /// # Errors
    /// When the file cannot be written; the error names it.
    pub fn write_manifest(&self, manifest: &mut serde_json::Value) -> Result<()> {
        super::number::tidy_json(manifest, false);
        let text = serde_json::to_string_pretty(manifest).context("cannot format manifest.json")? + "\n";
        self.write("manifest.json", text.as_bytes())
    }

    /// Write `bytes` as the file `name` of the report (a name inside it, e.g. `a.csv`).
    ///
    /// # Errors
    /// When the file cannot be written; the error names it.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<()> {
        let path = self.partial.join(name);
        fault::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
    }

    /// Where to write the files now.
    /// Write `table` as `NAME.parquet` and `NAME.csv` into the staged directory; the two
    /// file names, for the manifest.
    ///
    /// # Errors
    /// A file that cannot be written.
    pub fn write_both(&self, name: &str, table: &super::Table) -> Result<[String; 2]> {
        use super::{CsvExporter, Exporter, ParquetExporter, TableFrame};
        let (parquet, csv) =
            (format!("{name}.{}", ParquetExporter.extension()), format!("{name}.{}", CsvExporter.extension()));
        let frame = TableFrame::new(table)?;
        ParquetExporter.write_frame(&frame, &self.path().join(&parquet))?;
        CsvExporter.write_frame(&frame, &self.path().join(&csv))?;
        Ok([parquet, csv])
    }

    pub fn path(&self) -> &Path {
        &self.partial
    }

    /// The final location.
    pub fn destination(&self) -> &Path {
        &self.destination
    }

    /// Move the finished report into place (replacing an old one under `force`, see
    /// [`swap_in`]).
    ///
    /// # Errors
    /// When a directory appeared at the destination meanwhile (without `force`, or a
    /// foreign one), or a rename fails (the old report is then in place again).
    pub fn commit(mut self) -> Result<PathBuf> {
        if self.destination.exists() && !self.force {
            bail!("{} appeared while the report was being written", self.destination.display());
        }
        swap_in(&self.partial, &self.destination, true)?;
        self.committed = true;
        Ok(self.destination.clone())
    }
}

/// Rename the finished directory `staged` to `destination` (whose name must be a UTF-8
/// component), replacing what is there: the old directory goes to `.NAME.old-PID`
/// beside it, the new one into place, the old one is removed. A failing second rename
/// puts the old one back; a failing removal of the old one leaves it for the next run.
/// With `require_marker`, a marker-less, non-empty destination is refused
/// ([`check_replaceable`]); without (a directory inside a checked report), any directory
/// is replaced.
///
/// # Errors
/// When a rename fails (naming the destination).
pub fn swap_in(staged: &Path, destination: &Path, require_marker: bool) -> Result<()> {
    let (parent, name) = split(destination)?;
    let old = parent.join(temporary_name(&name, OLD, std::process::id()));
    let had_old = fs::symlink_metadata(destination).is_ok();
    if had_old {
        if require_marker {
            check_replaceable(destination)?;
        }
        fault::rename(destination, &old).with_context(|| format!("cannot replace {}", destination.display()))?;
    }
    if let Err(e) = fault::rename(staged, destination) {
        let restored = !had_old || fault::rename(&old, destination).is_ok();
        let err = anyhow::Error::new(e).context(format!("cannot move the new copy into {}", destination.display()));
        return Err(if restored {
            err.context(format!("{} is unchanged", destination.display()))
        } else {
            err.context(format!("the old copy is in {} (the next run puts it back)", old.display()))
        });
    }
    if had_old {
        let _ = fault::remove_dir_all(&old); // left over: the next run removes it (a new copy is in place)
    }
    Ok(())
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fault::remove_dir_all(&self.partial);
        }
    }
}

/// The kinds of temporary directory a report leaves while it is written.
const PARTIAL: &str = "partial";
const OLD: &str = "old";

/// `.NAME.KIND-PID`.
pub fn temporary_name(name: &str, kind: &str, pid: u32) -> String {
    format!(".{name}.{kind}-{pid}")
}

/// The kind and PID in a temporary directory's file name of destination `name`, if it is one.
fn temporary_pid(file_name: &str, name: &str) -> Option<(&'static str, u32)> {
    let rest = file_name.strip_prefix('.')?.strip_prefix(name)?.strip_prefix('.')?;
    let (kind, digits) =
        [PARTIAL, OLD].iter().find_map(|kind| Some((*kind, rest.strip_prefix(kind)?.strip_prefix('-')?)))?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((kind, digits.parse().ok()?))
}

/// Recover what runs writing destination `name` in `parent` left when they died (their
/// process no longer runs; those of live processes are left alone): an old copy
/// (`.NAME.old-PID`) is renamed back to `NAME` when `NAME` is missing (a crash between the
/// two renames of a replacement), and removed only when a new `NAME` is in place; partial
/// copies (`.NAME.partial-PID`) are removed.
///
/// # Errors
/// When a leftover cannot be restored or removed (naming it).
pub fn recover(parent: &Path, name: &str) -> Result<()> {
    let entries =
        fs::read_dir(parent).with_context(|| format!("cannot read the output directory {}", parent.display()))?;
    let mut found: Vec<(&'static str, PathBuf)> = Vec::new();
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((kind, pid)) = file_name.to_str().and_then(|f| temporary_pid(f, name)) else {
            continue;
        };
        if pid == std::process::id() || process_is_running(pid) || !entry.path().is_dir() {
            continue;
        }
        found.push((kind, entry.path()));
    }
    found.sort_by(|a, b| a.1.cmp(&b.1));
    let destination = parent.join(name);
    for (kind, path) in found {
        if kind == OLD && fs::symlink_metadata(&destination).is_err() {
            fault::rename(&path, &destination).with_context(|| {
                format!(
                    "cannot put back {} (the old copy of {}, left by an interrupted run)",
                    path.display(),
                    destination.display()
                )
            })?;
        } else {
            fault::remove_dir_all(&path)
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
        assert_eq!(temporary_pid(&temporary_name("x", PARTIAL, 42), "x"), Some((PARTIAL, 42)));
        assert_eq!(temporary_pid(&temporary_name("a.b", OLD, 7), "a.b"), Some((OLD, 7)));
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
        // The old copy of a dead process, with no `x` in place: put back, never deleted.
        let err = ReportDir::create(&root.path().join("x"), false).err().unwrap().to_string();
        assert!(err.contains("already exists"), "{err}");
        assert_eq!(fs::read_to_string(root.path().join("x/half.csv")).unwrap(), "a\n", "old copy restored");
        assert!(!stale.exists() && !stale_old.exists(), "dead process: partial removed, old restored");
        assert!(kept.exists(), "live process: kept");
        assert!(other.exists(), "another destination: untouched");
        // With a new copy in place, a dead process's old copy is removed.
        fs::create_dir(&stale_old).unwrap();
        fs::write(root.path().join("x").join(MARKER), "").unwrap();
        let r = ReportDir::create(&root.path().join("x"), true).unwrap();
        assert!(!stale_old.exists() && root.path().join("x/half.csv").exists());
        drop(r);
    }

    #[test]
    fn force_replaces_only_marked_or_empty_directories() {
        let root = tempfile::tempdir().unwrap();
        let p = root.path().join("p");
        fs::create_dir(&p).unwrap();
        ReportDir::create(&p, true).unwrap().commit().unwrap(); // empty: replaced
        assert!(p.join(MARKER).is_file(), "every report carries the marker");
        let q = root.path().join("q");
        fs::create_dir(&q).unwrap();
        fs::write(q.join("thesis.txt"), "t").unwrap();
        fs::write(q.join("zz.txt"), "t").unwrap();
        let err = ReportDir::create(&q, true).err().unwrap().to_string();
        assert!(err.contains("thesis.txt") && err.contains("not written by volley"), "{err}");
        assert!(q.join("thesis.txt").exists());
    }

    #[cfg(unix)]
    #[test]
    fn symbolic_links_and_dot_names_are_refused_up_front() {
        let root = tempfile::tempdir().unwrap();
        let link = root.path().join("link");
        std::os::unix::fs::symlink(root.path().join("nowhere"), &link).unwrap();
        assert!(ReportDir::create(&link, true).err().unwrap().to_string().contains("symbolic link"));
        fs::create_dir(root.path().join("d")).unwrap();
        for p in [root.path().join("d/."), root.path().join("d/.."), PathBuf::from(".")] {
            let err = ReportDir::create(&p, true).err().unwrap().to_string();
            assert!(err.contains("does not name a directory of its own"), "{}: {err}", p.display());
        }
    }

    #[test]
    fn default_names_are_one_safe_component() {
        assert_eq!(safe_component("quick"), "quick");
        assert_eq!(safe_component("gauntlet-meta"), "gauntlet-meta");
        assert_eq!(safe_component("../../victim"), "-..-victim");
        assert_eq!(safe_component("/etc/x"), "-etc-x");
        assert_eq!(safe_component(".."), "report");
        assert_eq!(safe_component("a\0b\u{1b}"), "a-b-");
        assert_eq!(safe_component(&"é".repeat(300)).len(), 100);
        for s in ["../../victim", "/abs", "..", "a/b/c"] {
            assert_eq!(Path::new(&safe_component(s)).components().count(), 1, "{s}");
        }
    }

    #[test]
    fn an_input_cannot_be_the_output() {
        let root = tempfile::tempdir().unwrap();
        let s1 = root.path().join("s1");
        fs::create_dir(&s1).unwrap();
        fs::create_dir(s1.join("in")).unwrap();
        assert!(refuse_inputs(&s1, std::slice::from_ref(&s1)).is_err());
        assert!(refuse_inputs(&root.path().join("s1/./"), std::slice::from_ref(&s1)).is_err());
        assert!(refuse_inputs(&s1, &[s1.join("in")]).is_err());
        assert!(refuse_inputs(&s1.join("in"), std::slice::from_ref(&s1)).is_err(), "inside an input");
        assert!(refuse_inputs(&s1.join("new"), std::slice::from_ref(&s1)).is_err(), "inside an input, not there yet");
        assert!(refuse_inputs(&root.path().join("other"), &[s1]).is_ok());
    }
}
