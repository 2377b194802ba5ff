//! SIGINT, SIGTERM and SIGHUP while a command runs engagements or writes a report.
//!
//! The first signal only records itself: the engine's observer ([`super::progress::Progress`])
//! then answers `cancelled()`, the run returns a cancellation error, writers check
//! [`check`] between files, every partial report is dropped (and so removed), and `main`
//! exits with 128 + the signal number after one message. A second signal ends the process
//! at once with the same code (the next run writing that report removes what is left).

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use anyhow::Result;

/// The signals handled like Ctrl-C.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
    Hangup,
}

impl Signal {
    pub const ALL: [Signal; 3] = [Signal::Interrupt, Signal::Terminate, Signal::Hangup];

    /// The POSIX signal number (2, 15, 1).
    pub fn number(self) -> i32 {
        match self {
            Signal::Interrupt => 2,
            Signal::Terminate => 15,
            Signal::Hangup => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Signal::Interrupt => "SIGINT",
            Signal::Terminate => "SIGTERM",
            Signal::Hangup => "SIGHUP",
        }
    }

    /// The shell's convention for a process ended by this signal: 128 + its number
    /// (130, 143, 129).
    pub fn exit_code(self) -> u8 {
        128 + self.number() as u8
    }

    fn from_number(n: usize) -> Option<Signal> {
        Signal::ALL.into_iter().find(|s| s.number() as usize == n)
    }
}

/// The number of the first signal received; 0 = none.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);
/// Set by the first signal; arms the immediate exit on the second.
#[cfg_attr(not(unix), allow(dead_code))]
static ARMED: AtomicBool = AtomicBool::new(false);

/// Handle [`Signal::ALL`] from now on (idempotent). Only for commands that check
/// [`received`] (through the observer or [`check`]); other commands keep the default
/// behaviour, ending at once.
#[cfg(unix)]
pub fn install() -> Result<()> {
    static INSTALLED: std::sync::OnceLock<std::io::Result<()>> = std::sync::OnceLock::new();
    let result = INSTALLED.get_or_init(|| {
        for s in Signal::ALL {
            let n = s.number();
            // Order matters: the exit is checked before this signal arms it.
            signal_hook::flag::register_conditional_shutdown(n, s.exit_code().into(), &ARMED)?;
            signal_hook::flag::register_usize(n, &RECEIVED, n as usize)?;
            signal_hook::flag::register(n, &ARMED)?;
        }
        Ok(())
    });
    result.as_ref().map(|_| ()).map_err(|e| anyhow::anyhow!("cannot handle signals: {e}"))
}

/// Elsewhere the platform's default behaviour stays.
#[cfg(not(unix))]
pub fn install() -> Result<()> {
    Ok(())
}

/// The first handled signal received, if any.
pub fn received() -> Option<Signal> {
    Signal::from_number(RECEIVED.load(Ordering::SeqCst))
}

/// `Err(Interrupted)` once a handled signal has arrived: call between steps that write.
pub fn check() -> Result<(), Interrupted> {
    match received() {
        Some(s) => Err(Interrupted(s)),
        None => Ok(()),
    }
}

/// The command stopped because of a signal; `main` exits with [`Signal::exit_code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted(pub Signal);

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "interrupted by {}: stopped before finishing, nothing written", self.0.name())
    }
}

impl std::error::Error for Interrupted {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_shell_convention() {
        assert_eq!(Signal::Interrupt.exit_code(), 130);
        assert_eq!(Signal::Terminate.exit_code(), 143);
        assert_eq!(Signal::Hangup.exit_code(), 129);
        for s in Signal::ALL {
            assert_eq!(Signal::from_number(s.number() as usize), Some(s));
        }
        assert_eq!(Signal::from_number(0), None);
    }

    #[cfg(unix)]
    #[test]
    fn numbers_are_the_platform_s() {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        assert_eq!(Signal::ALL.map(Signal::number), [SIGINT, SIGTERM, SIGHUP], "the numbers fixed by POSIX");
    }
}
