//! A command line recorded by a shard or a search state, parsed again as its processes
//! parsed it (a merge and a resumed search play the recorded command).

use std::ffi::OsString;

use anyhow::{Result, anyhow};

use super::Parsed;

/// A recorded command line (after `volley`), parsed as the shards' processes parsed it.
///
/// # Errors
/// A line that does not parse, or asks for help or the version (nothing to merge then).
pub fn replay(args: &[String]) -> Result<Parsed> {
    let argv = std::iter::once("volley".to_string()).chain(args.iter().cloned()).map(OsString::from).collect();
    super::try_parse_from(argv).map_err(|e| {
        let first = e.to_string().lines().next().unwrap_or_default().to_string();
        anyhow!("the shards' recorded command line {args:?} is not a command to merge: {first}")
    })
}
