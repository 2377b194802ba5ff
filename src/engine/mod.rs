//! The Monte Carlo engine: deterministic seeding, batches over threads, precision targets
//! and progress. It runs any [`Kernel`] (the contract the rulesets implement)
//! and knows no rule.

pub mod battle;
pub mod kernel;
pub mod observer;
pub mod raw_tally;
pub mod runner;
pub mod seed;
pub mod shard;
#[cfg(test)]
mod test_kernel;

pub use kernel::{Kernel, Tally};
pub use observer::{Observer, Silent};
pub use raw_tally::RawTally;
pub use runner::{Cell, DEFAULT_BATCH_STREAMS, RunConfig, RunError, STREAM_TRIALS, Trials, install, run};
pub use seed::{cell_key, stream_rng};
pub use shard::{Dealt, Share, run_share, run_share_after};
