//! Usage errors found after clap has parsed the command line: `main` exits 2 for them,
//! as clap does for its own.
//!
//! One rule: a value no run of that command could accept (out of range, malformed, or
//! contradicting another option) is a usage error, exit 2. A well-formed value the
//! catalogue or a file cannot satisfy (an unknown build, a bad catalogue) fails with 1.

use std::fmt;

/// A command line that cannot run, whatever the catalogue or files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Wrap a message as a usage error.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}
