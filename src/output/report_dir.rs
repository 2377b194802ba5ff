//! Atomic report directories: everything is written into a hidden temporary directory
//! beside the destination, which is renamed into place only when complete. An error or
//! Ctrl-C never leaves half a report under the destination's name.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context, Result, bail};

/// The temporary directory being written, removed by the Ctrl-C handler.
static PARTIAL: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Install (once) a Ctrl-C handler that removes the report being written and exits 130.
pub fn install_interrupt_cleanup() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if let Ok(guard) = PARTIAL.lock()
                && let Some(p) = guard.as_ref()
            {
                let _ = fs::remove_dir_all(p);
            }
            eprintln!("\ninterrupted: no report written");
            std::process::exit(130);
        });
    });
}

/// A report being written. Dropped without [`ReportDir::commit`], it leaves no trace.
pub struct ReportDir {
    destination: PathBuf,
    partial: PathBuf,
    force: bool,
    committed: bool,
}

impl ReportDir {
    /// Prepare to write `destination`. Fails at once (before any work) when it exists and
    /// `force` is off, or when its parent cannot be created or written.
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
        let partial = parent.join(format!(".{name}.partial-{}", std::process::id()));
        if partial.exists() {
            fs::remove_dir_all(&partial).with_context(|| format!("cannot clear {}", partial.display()))?;
        }
        fs::create_dir(&partial)
            .with_context(|| format!("cannot write in the output directory {}", parent.display()))?;
        if let Ok(mut guard) = PARTIAL.lock() {
            *guard = Some(partial.clone());
        }
        Ok(ReportDir { destination: destination.to_path_buf(), partial, force, committed: false })
    }

    /// Where to write the files now.
    pub fn path(&self) -> &Path {
        &self.partial
    }

    /// The final location.
    pub fn destination(&self) -> &Path {
        &self.destination
    }

    /// Move the finished report into place (replacing an old one under `force`).
    pub fn commit(mut self) -> Result<PathBuf> {
        let old = self.partial.with_extension("old");
        if self.destination.exists() {
            if !self.force {
                bail!("{} appeared while the report was being written", self.destination.display());
            }
            fs::rename(&self.destination, &old)
                .with_context(|| format!("cannot replace {}", self.destination.display()))?;
        }
        fs::rename(&self.partial, &self.destination)
            .with_context(|| format!("cannot move the report to {}", self.destination.display()))?;
        if old.exists() {
            fs::remove_dir_all(&old).with_context(|| format!("cannot remove the old report {}", old.display()))?;
        }
        self.committed = true;
        if let Ok(mut guard) = PARTIAL.lock() {
            *guard = None;
        }
        Ok(self.destination.clone())
    }
}

impl Drop for ReportDir {
    fn drop(&mut self) {
        if !self.committed {
            let _ = fs::remove_dir_all(&self.partial);
            if let Ok(mut guard) = PARTIAL.lock() {
                *guard = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
