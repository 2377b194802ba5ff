//! The library's error: what went wrong, and whose doing it was.
//!
//! The kind decides the process's exit status (`main` reads [`Error::exit_code`]):
//! a request no run could accept is a usage error (2, as clap's own); a well-formed
//! request that the catalogue, a file or the run could not satisfy is a failure (1).

use std::fmt;

/// A library error, typed by kind.
#[derive(Debug)]
pub enum Error {
    /// A request no run could accept, whatever the catalogue or files: a value out of
    /// range, malformed, contradicting another, or an unknown name on the command line.
    Usage(String),
    /// What the request asks for exists, but not for this ruleset (exit 2, as usage).
    Unavailable {
        /// What is missing, as a plural noun phrase ("battles", "odds cards").
        what: String,
        /// The ruleset's label as people write it.
        ruleset: &'static str,
    },
    /// A well-formed request the catalogue, a file or the run could not satisfy.
    Failure(String),
    /// A failure, with the error that caused it (printed after it).
    Caused { message: String, cause: Box<dyn std::error::Error + Send + Sync + 'static> },
}

impl Error {
    /// A usage error with this message.
    pub fn usage(message: impl Into<String>) -> Error {
        Error::Usage(message.into())
    }

    /// "`what` are not available for `ruleset` yet".
    pub fn unavailable(what: impl Into<String>, ruleset: &'static str) -> Error {
        Error::Unavailable { what: what.into(), ruleset }
    }

    /// A failure caused by `cause`.
    pub fn caused(message: impl Into<String>, cause: impl std::error::Error + Send + Sync + 'static) -> Error {
        Error::Caused { message: message.into(), cause: Box::new(cause) }
    }

    /// The process exit status for this error: 2 for usage errors (unavailable
    /// capabilities included), 1 for failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Unavailable { .. } => 2,
            Error::Failure(_) | Error::Caused { .. } => 1,
        }
    }

    /// Whether the request itself was at fault (exit 2).
    pub fn is_usage(&self) -> bool {
        self.exit_code() == 2
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Failure(m) | Error::Caused { message: m, .. } => f.write_str(m),
            Error::Unavailable { what, ruleset } => write!(f, "{what} are not available for {ruleset} yet"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Caused { cause, .. } => Some(cause.as_ref()),
            _ => None,
        }
    }
}

/// The library's rooms report failures as text; `?` makes them failures (exit 1).
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Failure(message)
    }
}

/// Catalogue and scenario errors, every one found, are failures; their text is kept.
impl From<crate::catalogue::error::CatalogErrors> for Error {
    fn from(errors: crate::catalogue::error::CatalogErrors) -> Error {
        Error::Failure(errors.to_string())
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error::Failure(message.to_string())
    }
}

/// A library result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_give_their_exit_codes() {
        assert_eq!(Error::usage("x").exit_code(), 2);
        assert_eq!(Error::unavailable("battles", "Shellshock").exit_code(), 2);
        assert_eq!(Error::from("bad file".to_string()).exit_code(), 1);
        assert_eq!(
            Error::unavailable("battles", "Shellshock").to_string(),
            "battles are not available for Shellshock yet"
        );
    }
}
