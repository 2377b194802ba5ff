//! The one place where the output layer touches the file system ([`write`], [`rename`],
//! [`create_dir`], [`remove_dir_all`], [`remove_file`]), with a test hook for fault
//! injection.
//!
//! Every step is counted from 1 in the process. With `VOLLEY_FAIL_AT=N` in the
//! environment, step N fails with "No space left on device" (and the steps after it run
//! normally: the command's own error handling and clean-up are exercised). With
//! `VOLLEY_CRASH_AT=N`, step N and every later step fail (the clean-up included), which
//! leaves the file system exactly as a process killed just before step N would: the
//! next run's recovery is exercised. Unset (the normal case), nothing is injected.
//! `VOLLEY_FAULT_TRACE=1` adds each step's number, kind and path to the error the
//! injected step returns (for writing tests).

use std::io;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

static STEPS: AtomicU64 = AtomicU64::new(0);

/// (fail at, crash at), read once.
fn settings() -> (Option<u64>, Option<u64>) {
    static SETTINGS: OnceLock<(Option<u64>, Option<u64>)> = OnceLock::new();
    *SETTINGS.get_or_init(|| {
        let read = |name: &str| std::env::var(name).ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|&n| n > 0);
        (read("VOLLEY_FAIL_AT"), read("VOLLEY_CRASH_AT"))
    })
}

/// Count one step of kind `what` on `path`; `Err` when the hook says it fails.
fn step(what: &str, path: &Path) -> io::Result<()> {
    let (fail_at, crash_at) = settings();
    if fail_at.is_none() && crash_at.is_none() {
        return Ok(());
    }
    let n = STEPS.fetch_add(1, Ordering::SeqCst) + 1;
    if fail_at == Some(n) || crash_at.is_some_and(|c| n >= c) {
        let base = io::Error::from_raw_os_error(28); // ENOSPC
        let trace = std::env::var("VOLLEY_FAULT_TRACE").is_ok_and(|v| v == "1");
        return Err(if trace {
            io::Error::new(base.kind(), format!("{base} [step {n}: {what} {}]", path.display()))
        } else {
            base
        });
    }
    Ok(())
}

/// `std::fs::write`, counted.
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    step("write", path)?;
    std::fs::write(path, bytes)
}

/// `std::fs::rename`, counted.
pub fn rename(from: &Path, to: &Path) -> io::Result<()> {
    step("rename", from)?;
    std::fs::rename(from, to)
}

/// `std::fs::create_dir`, counted.
pub fn create_dir(path: &Path) -> io::Result<()> {
    step("create_dir", path)?;
    std::fs::create_dir(path)
}

/// `std::fs::create_dir_all`, counted (as one step).
pub fn create_dir_all(path: &Path) -> io::Result<()> {
    step("create_dir_all", path)?;
    std::fs::create_dir_all(path)
}

/// `std::fs::remove_dir_all`, counted.
pub fn remove_dir_all(path: &Path) -> io::Result<()> {
    step("remove_dir_all", path)?;
    std::fs::remove_dir_all(path)
}

/// `std::fs::remove_file`, counted.
pub fn remove_file(path: &Path) -> io::Result<()> {
    step("remove_file", path)?;
    std::fs::remove_file(path)
}

/// A step that writes through another library (a Parquet or PNG encoder) into `path`:
/// counted, and failed when the hook says so, before the library writes.
pub fn before_write(path: &Path) -> io::Result<()> {
    step("write", path)
}

/// A rename done through another library (a temporary file persisted into place):
/// counted, and failed when the hook says so, before it happens.
pub fn before_rename(path: &Path) -> io::Result<()> {
    step("rename", path)
}
