//! Usage errors found after clap has parsed the command line: `main` exits 2 for them,
//! as clap does for its own.
//!
//! One rule: a value no run of that command could accept (out of range, malformed, or
//! contradicting another option) is a usage error, exit 2. A well-formed value the
//! catalogue or a file cannot satisfy (an unknown build, a bad catalogue) fails with 1.
//! The kinds are the library's [`crate::error::Error`]'s.

use crate::error::Error;

/// Wrap a message as a usage error ([`Error::Usage`]).
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    Error::usage(message).into()
}

/// The exit status an error asks for: the first library [`Error`] in its chain decides
/// (2 for usage errors, 1 for failures); any other error is a failure.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    err.chain().find_map(|c| c.downcast_ref::<Error>()).map_or(1, Error::exit_code)
}
