//! The Monte Carlo runner: streams, batches, threads and the precision loop.
//!
//! A cell's trials are cut into *streams* of [`STREAM_TRIALS`] engagements, stream `i`
//! drawing from [`stream_rng`]`(seed, cell key, i)`. Streams are grouped into batches
//! (work items) of any size and run on any number of threads; tallies are integer counts,
//! so merging them gives bit-identical results whatever the batch size, thread count or
//! order. The stream size is part of the reproducibility contract; the batch size is not.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::kernel::{Kernel, Tally};

use super::observer::Observer;
use super::seed::stream_rng;

/// Engagements per random stream. Changing it changes every result.
pub const STREAM_TRIALS: u32 = 4096;
/// Default streams per work item (65536 engagements).
pub const DEFAULT_BATCH_STREAMS: u32 = 16;
/// Trials of the first round in precision mode (a multiple of [`STREAM_TRIALS`]).
const PRECISION_FIRST_ROUND: u64 = 16 * STREAM_TRIALS as u64;
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

/// Why a run returned no tallies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RunError {
    /// The configuration cannot run (trials out of range, empty batches, no worker threads).
    #[error("{0}")]
    Invalid(String),
    /// The observer asked the run to stop ([`Observer::cancelled`]): no results, by design.
    #[error("run cancelled")]
    Cancelled,
}

impl From<RunError> for String {
    fn from(e: RunError) -> String {
        e.to_string()
    }
}

/// One cell: a stable key (see [`super::seed::cell_key`]) and its compiled kernel.
pub struct Cell<'a, K> {
    pub key: u64,
    pub kernel: &'a K,
}

/// Play every cell; returns one tally per cell, in order.
///
/// # Errors
/// [`RunError::Invalid`] for a configuration that cannot run (checked before any work);
/// [`RunError::Cancelled`] when `observer` answers [`Observer::cancelled`] with `true`
/// (asked before every stream, so a run stops within one stream per worker thread).
pub fn run<K: Kernel>(
    cells: &[Cell<'_, K>],
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Vec<K::Tally>, RunError> {
    config.trials.validate().map_err(RunError::Invalid)?;
    if config.batch_streams == 0 {
        return Err(RunError::Invalid("batch size must be at least one stream".into()));
    }
    let pool = pool(config.threads.unwrap_or(0)).map_err(RunError::Invalid)?;
    pool.install(|| run_in_pool(cells, config, observer))
}

/// Run `f` in the worker pool of `threads` threads (`None`: all cores), the pool the
/// engine's runs use, so that parallel work around a run (compiling its cells) keeps to
/// the same thread count.
///
/// # Errors
/// When the pool cannot start.
pub fn install<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    Ok(pool(threads.unwrap_or(0))?.install(f))
}

/// One worker pool per thread count for the life of the process: runs reuse their
/// threads instead of spawning (and leaving behind) a pool each.
pub(super) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, String> {
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

fn run_in_pool<K: Kernel>(
    cells: &[Cell<'_, K>],
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Vec<K::Tally>, RunError> {
    let mut tallies: Vec<K::Tally> = cells.iter().map(|c| c.kernel.new_tally()).collect();
    let mut done = vec![false; cells.len()];
    let mut target = match config.trials {
        Trials::Fixed(n) => n,
        Trials::Precision { max, .. } => PRECISION_FIRST_ROUND.min(max),
    };
    loop {
        if observer.cancelled() {
            return Err(RunError::Cancelled);
        }
        // In a final round every cell played ends at its final trial count, so a cell is
        // reported finished as soon as its last work item is (not when the round ends).
        let final_round = match config.trials {
            Trials::Fixed(_) => true,
            Trials::Precision { max, .. } => target >= max,
        };
        // Work items for this round: (cell, first stream, last stream exclusive).
        let mut items = Vec::new();
        let mut items_per_cell = vec![0u32; cells.len()];
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
                items_per_cell[i] += 1;
                s = e;
            }
        }
        let items_left: Vec<AtomicU32> = items_per_cell.iter().map(|&n| AtomicU32::new(n)).collect();
        observer.planned(cells.len() as u64, planned);
        // `None` = cancelled; collecting into an Option stops handing out work at the first.
        // One item per leaf: an item is a few milliseconds of play, so handing them out
        // one by one costs nothing, and no thread is left alone with a long run of items
        // at the end of the round while the others wait.
        let results: Option<Vec<(usize, K::Tally)>> = items
            .par_iter()
            .with_max_len(1)
            .map(|&(i, s, e)| {
                let cell = &cells[i];
                let mut tally = cell.kernel.new_tally();
                for stream in s..e {
                    if observer.cancelled() {
                        return None;
                    }
                    let n = (target - stream * STREAM_TRIALS as u64).min(STREAM_TRIALS as u64) as u32;
                    let mut rng = stream_rng(config.seed, cell.key, stream);
                    cell.kernel.play(&mut rng, n, &mut tally);
                    observer.progressed(n as u64);
                }
                if final_round && items_left[i].fetch_sub(1, Ordering::AcqRel) == 1 {
                    observer.cell_finished();
                }
                Some((i, tally))
            })
            .collect();
        let Some(results) = results.filter(|_| !observer.cancelled()) else {
            return Err(RunError::Cancelled);
        };
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
                // Cells that played in a final round were reported when their last item ended.
                if !(final_round && items_per_cell[i] > 0) {
                    observer.cell_finished();
                }
            } else {
                all_done = false;
            }
        }
        if all_done {
            return Ok(tallies);
        }
        if let Trials::Precision { max, .. } = config.trials {
            target = (target * 2).min(max);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicU64;

    use super::*;
    use crate::engine::Silent;

    use crate::engine::test_kernel::Tiny;

    /// Records what the runner reports; cancels once `cancel_after` engagements are done.
    #[derive(Default)]
    struct Recorder {
        planned: Mutex<Vec<(u64, u64)>>,
        progressed: AtomicU64,
        /// Engagements done when each cell was reported finished.
        finished_at: Mutex<Vec<u64>>,
        cancel_after: Option<u64>,
    }

    impl Observer for Recorder {
        fn planned(&self, cells: u64, trials: u64) {
            self.planned.lock().unwrap().push((cells, trials));
        }
        fn progressed(&self, trials: u64) {
            self.progressed.fetch_add(trials, Ordering::SeqCst);
        }
        fn cell_finished(&self) {
            self.finished_at.lock().unwrap().push(self.progressed.load(Ordering::SeqCst));
        }
        fn cancelled(&self) -> bool {
            self.cancel_after.is_some_and(|n| self.progressed.load(Ordering::SeqCst) >= n)
        }
    }

    fn config(trials: Trials) -> RunConfig {
        RunConfig { seed: 5, trials, threads: Some(1), batch_streams: 1 }
    }

    #[test]
    fn fixed_trial_cells_finish_when_their_last_stream_is_done() {
        let n = 2 * STREAM_TRIALS as u64 + 5;
        let cells: Vec<Cell<'_, Tiny>> = (0..3).map(|k| Cell { key: k, kernel: &Tiny }).collect();
        let obs = Recorder::default();
        let tallies = run(&cells, &config(Trials::Fixed(n)), &obs).unwrap();
        assert!(tallies.iter().all(|t| t.trials == n));
        assert_eq!(*obs.planned.lock().unwrap(), vec![(3, 3 * n)]);
        assert_eq!(obs.progressed.load(Ordering::SeqCst), 3 * n);
        // One thread plays the work items in order: each cell is done after its own trials.
        assert_eq!(*obs.finished_at.lock().unwrap(), vec![n, 2 * n, 3 * n]);
        // Reporting progress changes nothing in the results.
        assert_eq!(run(&cells, &config(Trials::Fixed(n)), &Silent).unwrap(), tallies);
    }

    #[test]
    fn precision_runs_finish_every_cell_once_and_count_every_engagement() {
        let cells: Vec<Cell<'_, Tiny>> = (0..4).map(|k| Cell { key: k, kernel: &Tiny }).collect();
        let obs = Recorder::default();
        // 1/√n <= 0.003 needs n >= 111112: three doublings past the first round (65536).
        let trials = Trials::Precision { half_width: 0.003, max: 200_000 };
        let tallies = run(&cells, &RunConfig { threads: Some(2), batch_streams: 3, ..config(trials) }, &obs).unwrap();
        assert!(tallies.iter().all(|t| t.trials == 131_072), "{tallies:?}");
        let planned = obs.planned.lock().unwrap().clone();
        assert_eq!(planned, vec![(4, 4 * 65_536), (4, 4 * 65_536)]);
        assert_eq!(obs.progressed.load(Ordering::SeqCst), 4 * 131_072);
        assert_eq!(obs.finished_at.lock().unwrap().len(), 4);
        // A capped last round reports cells as they end.
        let obs = Recorder::default();
        let trials = Trials::Precision { half_width: 1e-4, max: 70_000 };
        let tallies = run(&cells, &config(trials), &obs).unwrap();
        assert!(tallies.iter().all(|t| t.trials == 70_000));
        let first_round = 4 * 65_536;
        let last = 70_000 - 65_536;
        let expected: Vec<u64> = (1..=4).map(|k| first_round + k * last).collect();
        assert_eq!(*obs.finished_at.lock().unwrap(), expected);
    }

    #[test]
    fn a_cancelled_run_stops_within_a_stream_and_returns_no_tallies() {
        let cells: Vec<Cell<'_, Tiny>> = (0..3).map(|k| Cell { key: k, kernel: &Tiny }).collect();
        let stop = 2 * STREAM_TRIALS as u64;
        let obs = Recorder { cancel_after: Some(stop), ..Recorder::default() };
        let result = run(&cells, &config(Trials::Fixed(1_000_000)), &obs);
        assert_eq!(result, Err(RunError::Cancelled));
        assert_eq!(obs.progressed.load(Ordering::SeqCst), stop, "no stream starts after the request");
        assert!(obs.finished_at.lock().unwrap().is_empty());
        let obs = Recorder { cancel_after: Some(0), ..Recorder::default() };
        assert_eq!(run(&cells, &config(Trials::Fixed(10)), &obs), Err(RunError::Cancelled));
        assert!(obs.planned.lock().unwrap().is_empty(), "cancelled before it starts");
    }
}
