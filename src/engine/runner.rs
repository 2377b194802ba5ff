//! The Monte Carlo runner: streams, batches, threads and the precision loop.
//!
//! A cell's trials are cut into *streams* of [`STREAM_TRIALS`] engagements, stream `i`
//! drawing from [`stream_rng`]`(seed, cell key, i)`. Streams are grouped into batches
//! (work items) of any size and run on any number of threads; tallies are integer counts,
//! so merging them gives bit-identical results whatever the batch size, thread count or
//! order. The stream size is part of the reproducibility contract; the batch size is not.

use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::rules::{Kernel, Tally};

use super::observer::Observer;
use super::seed::stream_rng;

/// Engagements per random stream. Changing it changes every result.
pub const STREAM_TRIALS: u32 = 4096;
/// Default streams per work item (65536 engagements).
pub const DEFAULT_BATCH_STREAMS: u32 = 16;
/// Trials of the first round in precision mode (a multiple of [`STREAM_TRIALS`]).
pub const PRECISION_FIRST_ROUND: u64 = 16 * STREAM_TRIALS as u64;
/// Largest trial count per cell.
pub const MAX_TRIALS: u64 = 10_000_000_000;

/// How many engagements each cell gets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Trials {
    /// Exactly this many per cell.
    Fixed(u64),
    /// Keep doubling (from [`PRECISION_FIRST_ROUND`]) until every reported probability's
    /// 95% half-width is at most `half_width`, or `max` trials.
    Precision { half_width: f64, max: u64 },
}

impl Trials {
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            Trials::Fixed(n) if n == 0 || n > MAX_TRIALS => {
                Err(format!("trials must be between 1 and {MAX_TRIALS}, got {n}"))
            }
            Trials::Precision { half_width, .. } if !(half_width > 0.0 && half_width < 0.5) => {
                Err(format!("precision must be a half-width between 0 and 0.5 (e.g. 0.005), got {half_width}"))
            }
            Trials::Precision { max, .. } if max == 0 || max > MAX_TRIALS => {
                Err(format!("max trials must be between 1 and {MAX_TRIALS}, got {max}"))
            }
            _ => Ok(()),
        }
    }
}

/// How to run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunConfig {
    pub seed: u64,
    pub trials: Trials,
    /// Worker threads; `None` = all cores.
    pub threads: Option<usize>,
    /// Streams per work item; any value gives the same results.
    pub batch_streams: u32,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig { seed: 1, trials: Trials::Fixed(100_000), threads: None, batch_streams: DEFAULT_BATCH_STREAMS }
    }
}

/// One cell: a stable key (see [`super::seed::cell_key`]) and its compiled kernel.
pub struct Cell<'a, K> {
    pub key: u64,
    pub kernel: &'a K,
}

/// Play every cell; returns one tally per cell, in order.
pub fn run<K: Kernel>(
    cells: &[Cell<'_, K>],
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Vec<K::Tally>, String> {
    config.trials.validate()?;
    if config.batch_streams == 0 {
        return Err("batch size must be at least one stream".into());
    }
    let pool = pool(config.threads.unwrap_or(0))?;
    Ok(pool.install(|| run_in_pool(cells, config, observer)))
}

/// One worker pool per thread count for the life of the process: runs reuse their
/// threads instead of spawning (and leaving behind) a pool each.
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().map_err(|_| "worker pool registry poisoned".to_string())?;
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| format!("cannot start worker threads: {e}"))?,
    );
    pools.push((threads, p.clone()));
    Ok(p)
}

fn run_in_pool<K: Kernel>(cells: &[Cell<'_, K>], config: &RunConfig, observer: &dyn Observer) -> Vec<K::Tally> {
    let mut tallies: Vec<K::Tally> = cells.iter().map(|c| c.kernel.new_tally()).collect();
    let mut done = vec![false; cells.len()];
    let mut target = match config.trials {
        Trials::Fixed(n) => n,
        Trials::Precision { max, .. } => PRECISION_FIRST_ROUND.min(max),
    };
    loop {
        // Work items for this round: (cell, first stream, last stream exclusive, trials in the last).
        let mut items = Vec::new();
        let mut planned = 0u64;
        for (i, t) in tallies.iter().enumerate() {
            if done[i] || t.trials() >= target {
                continue;
            }
            let have = t.trials();
            let first = have / STREAM_TRIALS as u64; // rounds always end on stream boundaries, but the last
            let end = target.div_ceil(STREAM_TRIALS as u64);
            planned += target - have;
            let mut s = first;
            while s < end {
                let e = (s + config.batch_streams as u64).min(end);
                items.push((i, s, e));
                s = e;
            }
        }
        observer.planned(cells.len() as u64, planned);
        let results: Vec<(usize, K::Tally)> = items
            .par_iter()
            .map(|&(i, s, e)| {
                let cell = &cells[i];
                let mut tally = cell.kernel.new_tally();
                for stream in s..e {
                    let n = (target - stream * STREAM_TRIALS as u64).min(STREAM_TRIALS as u64) as u32;
                    let mut rng = stream_rng(config.seed, cell.key, stream);
                    cell.kernel.play(&mut rng, n, &mut tally);
                    observer.progressed(n as u64);
                }
                (i, tally)
            })
            .collect();
        for (i, t) in results {
            tallies[i].merge(&t);
        }
        let mut all_done = true;
        for (i, t) in tallies.iter().enumerate() {
            if done[i] {
                continue;
            }
            let finished = match config.trials {
                Trials::Fixed(_) => true,
                Trials::Precision { half_width, max } => t.max_half_width() <= half_width || t.trials() >= max,
            };
            if finished {
                done[i] = true;
                observer.cell_finished();
            } else {
                all_done = false;
            }
        }
        if all_done {
            return tallies;
        }
        if let Trials::Precision { max, .. } = config.trials {
            target = (target * 2).min(max);
        }
    }
}
