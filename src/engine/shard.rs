//! Shards: a deterministic share of a run's work for one process of many (a Slurm job
//! array task, a Kubernetes Indexed Job pod, one turn of a shell loop).
//!
//! The work of a fixed-trial run is its streams: cell `c` of `t` engagements has
//! `t / STREAM_TRIALS` full streams and, when `t` is not a multiple, one shorter last
//! stream; stream `s` of cell `c` is played with [`super::stream_rng`]`(seed, key of c,
//! s)` whichever process plays it. Numbering the full streams of every cell in cell
//! order (global number `g`), share `k` of `n` plays the full streams with
//! `g mod n == k`; the short last streams are dealt in cell order the other way round
//! (the `j`-th goes to share `n − 1 − (j mod n)`), so a share with one full stream more
//! than another gets no more short ones. Every cell is thus striped over all shares
//! (each gets the floor or the ceiling of `streams / n` of it), so shares balance even
//! when one cell dominates the run or costs far more per engagement than the others.
//! The tallies of all shares of a cell merge (integer sums) to exactly the tally of a
//! single-process run.
//!
//! Precision mode (`Trials::Precision`) cannot be split this way: which cells play a
//! further round depends on the merged tallies of the round before (see
//! [`run_share`]'s errors).

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::kernel::{Kernel, Tally};
use super::observer::Observer;
use super::runner::{Cell, RunConfig, RunError, STREAM_TRIALS, Trials};
use super::seed::stream_rng;

/// Share `index` (0-based) of `count` equal shares of a run's streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share {
    index: u32,
    count: u32,
}

impl Share {
    /// Share `index` of `count`, `index` counted from 0.
    ///
    /// # Errors
    /// `count` is 0, or `index` is not below `count`.
    pub fn new(index: u32, count: u32) -> Result<Share, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!("shard index {index} is out of range 0..{count} (counted from 0)"));
        }
        Ok(Share { index, count })
    }

    /// The share's index, from 0.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many shares the run is split into.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The full streams of a cell this share plays: the cell's full streams are
    /// `0..streams` and its first has global number `first`. Ascending.
    pub fn streams(&self, first: u64, streams: u64) -> impl Iterator<Item = u64> + use<> {
        let n = self.count as u64;
        // The smallest s >= 0 with (first + s) mod n == index.
        let start = (self.index as u64 + n - first % n) % n;
        (start..streams).step_by(n as usize)
    }

    /// The streams of every cell this share plays, as (cell index, stream) in cell and
    /// stream order, for cells of `trials[c]` engagements each.
    pub fn assignment(&self, trials: &[u64]) -> Vec<(usize, u64)> {
        self.assignment_after(trials, &mut Dealt::default())
    }

    /// As [`Share::assignment`], for cells that follow the streams `dealt` already dealt
    /// (earlier engine calls of the same run): the global numbers of their full streams
    /// and short last streams continue from `dealt`, which is then advanced past them.
    /// Dealing a run's calls one after another this way is dealing the concatenation of
    /// their cells at once, so a run of many small calls (a `[vary]` sweep plays one per
    /// combination) balances as well as one big call.
    pub fn assignment_after(&self, trials: &[u64], dealt: &mut Dealt) -> Vec<(usize, u64)> {
        let st = STREAM_TRIALS as u64;
        let n = self.count as u64;
        let mut out = Vec::new();
        for (c, &t) in trials.iter().enumerate() {
            let full = t / st;
            out.extend(self.streams(dealt.full, full).map(|s| (c, s)));
            dealt.full += full;
            if t % st != 0 {
                if n - 1 - dealt.short % n == self.index as u64 {
                    out.push((c, full));
                }
                dealt.short += 1;
            }
        }
        out
    }
}

/// How far the dealing of a run's streams has gone: the full streams and the short last
/// streams of the cells dealt so far (see [`Share::assignment_after`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dealt {
    pub full: u64,
    pub short: u64,
}

/// Engagements in stream `stream` of a cell of `trials` engagements.
fn stream_len(trials: u64, stream: u64) -> u32 {
    trials.saturating_sub(stream * STREAM_TRIALS as u64).min(STREAM_TRIALS as u64) as u32
}

/// Play `share`'s streams of every cell; returns one tally per cell, in order, holding
/// only that share's engagements (a cell none of whose streams fall to the share gets an
/// empty tally). Merging the tallies of shares `0..count` cell by cell gives exactly the
/// tallies of [`super::run`] with the same cells and configuration.
///
/// # Errors
/// [`RunError::Invalid`] for a precision-mode configuration (the rounds after the first
/// depend on every shard's results: run it in one process, or shard a fixed trial
/// count), or one [`super::run`] would refuse; [`RunError::Cancelled`] as for
/// [`super::run`].
pub fn run_share<K: Kernel>(
    cells: &[Cell<'_, K>],
    config: &RunConfig,
    share: Share,
    observer: &dyn Observer,
) -> Result<Vec<K::Tally>, RunError> {
    run_share_after(cells, config, share, &mut Dealt::default(), observer)
}

/// As [`run_share`], for an engine call that follows the streams `dealt` already dealt
/// in the run (see [`Share::assignment_after`]); advances `dealt` past this call's cells
/// when it plays them.
///
/// # Errors
/// As [`run_share`] (`dealt` is left as it was then).
pub fn run_share_after<K: Kernel>(
    cells: &[Cell<'_, K>],
    config: &RunConfig,
    share: Share,
    dealt: &mut Dealt,
    observer: &dyn Observer,
) -> Result<Vec<K::Tally>, RunError> {
    config.trials.validate().map_err(RunError::Invalid)?;
    let Trials::Fixed(target) = config.trials else {
        return Err(RunError::Invalid(
            "--precision cannot be sharded: which cells play another round depends on the merged results \
             of every shard; give a fixed trial count (--trials) or run in one process"
                .into(),
        ));
    };
    if config.batch_streams == 0 {
        return Err(RunError::Invalid("batch size must be at least one stream".into()));
    }
    let trials = vec![target; cells.len()];
    let mut after = *dealt;
    let mine = share.assignment_after(&trials, &mut after);
    // Work items: up to `batch_streams` of one cell's streams each.
    let mut items: Vec<(usize, &[(usize, u64)])> = Vec::new();
    let mut items_per_cell = vec![0u32; cells.len()];
    for chunk in mine.chunk_by(|a, b| a.0 == b.0) {
        for part in chunk.chunks(config.batch_streams as usize) {
            items.push((part[0].0, part));
            items_per_cell[part[0].0] += 1;
        }
    }
    let planned: u64 = mine.iter().map(|&(_, s)| stream_len(target, s) as u64).sum();
    let pool = super::runner::pool(config.threads.unwrap_or(0)).map_err(RunError::Invalid)?;
    let tallies = pool.install(|| {
        if observer.cancelled() {
            return Err(RunError::Cancelled);
        }
        observer.planned(cells.len() as u64, planned);
        for _ in items_per_cell.iter().filter(|&&n| n == 0) {
            observer.cell_finished();
        }
        let items_left: Vec<AtomicU32> = items_per_cell.iter().map(|&n| AtomicU32::new(n)).collect();
        // One item per leaf, as in an unsharded run (see `runner`).
        let results: Option<Vec<(usize, K::Tally)>> = items
            .par_iter()
            .with_max_len(1)
            .map(|&(i, streams)| {
                let cell = &cells[i];
                let mut tally = cell.kernel.new_tally();
                for &(_, stream) in streams {
                    if observer.cancelled() {
                        return None;
                    }
                    let n = stream_len(target, stream);
                    let mut rng = stream_rng(config.seed, cell.key, stream);
                    cell.kernel.play(&mut rng, n, &mut tally);
                    observer.progressed(n as u64);
                }
                if items_left[i].fetch_sub(1, Ordering::AcqRel) == 1 {
                    observer.cell_finished();
                }
                Some((i, tally))
            })
            .collect();
        let Some(results) = results.filter(|_| !observer.cancelled()) else {
            return Err(RunError::Cancelled);
        };
        let mut tallies: Vec<K::Tally> = cells.iter().map(|c| c.kernel.new_tally()).collect();
        for (i, t) in results {
            tallies[i].merge(&t);
        }
        Ok(tallies)
    })?;
    *dealt = after;
    Ok(tallies)
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::engine::{Silent, run};

    use crate::engine::test_kernel::{Count, Tiny};

    fn config(trials: u64) -> RunConfig {
        RunConfig { seed: 9, trials: Trials::Fixed(trials), threads: Some(2), batch_streams: 2 }
    }

    #[test]
    fn shares_partition_every_stream_exactly_once() {
        let trials: [u64; 6] = [1, 4096, 4097, 50_000, 3 * 4096, 10];
        let all: Vec<(usize, u64)> = trials
            .iter()
            .enumerate()
            .flat_map(|(c, &t)| (0..t.div_ceil(STREAM_TRIALS as u64)).map(move |s| (c, s)))
            .collect();
        for n in [1, 2, 3, 7, 40] {
            let mut seen: Vec<(usize, u64)> =
                (0..n).flat_map(|k| Share::new(k, n).unwrap().assignment(&trials)).collect();
            seen.sort();
            assert_eq!(seen, all, "{n} shares");
        }
    }

    /// A run of many small engine calls (a `[vary]` sweep: one per combination) dealt
    /// call after call is dealt as its cells all at once: every share gets the same
    /// streams, renumbered per call, and the shares stay within one stream of each other
    /// (dealt per call from scratch instead, the first shares would get every call's
    /// streams and the last none).
    #[test]
    fn calls_dealt_one_after_another_are_dealt_as_one_run() {
        let st = STREAM_TRIALS as u64;
        let call = [st, 2 * st + 5];
        let calls = 6;
        let all: Vec<u64> = (0..calls).flat_map(|_| call).collect();
        for n in [1, 2, 3, 7] {
            let mut work = Vec::new();
            for k in 0..n {
                let share = Share::new(k, n).unwrap();
                let mut dealt = Dealt::default();
                let mut mine = Vec::new();
                for c in 0..calls {
                    let part = share.assignment_after(&call, &mut dealt);
                    mine.extend(part.into_iter().map(|(cell, s)| (c * call.len() + cell, s)));
                }
                assert_eq!(mine, share.assignment(&all), "share {k} of {n}");
                assert_eq!(dealt, Dealt { full: 3 * calls as u64, short: calls as u64 });
                work.push(mine.iter().map(|&(c, s)| stream_len(all[c], s) as u64).sum::<u64>());
            }
            let (max, min) = (*work.iter().max().unwrap(), *work.iter().min().unwrap());
            assert!(max - min <= st, "{n} shares differ by more than one stream: {work:?}");
        }
        let fresh: Vec<usize> =
            (0..3).map(|k| (0..calls).map(|_| Share::new(k, 3).unwrap().assignment(&[st, st]).len()).sum()).collect();
        assert_eq!(fresh, [6, 6, 0], "dealt per call from scratch, the third share would play nothing");
    }

    #[test]
    fn merged_shares_equal_the_single_run() {
        let cells: Vec<Cell<'_, Tiny>> = (0..5).map(|k| Cell { key: k * 7 + 1, kernel: &Tiny }).collect();
        let n = 9 * STREAM_TRIALS as u64 + 123;
        let single = run(&cells, &config(n), &Silent).unwrap();
        for count in [1, 2, 3, 7] {
            let mut merged: Vec<Count> = cells.iter().map(|c| c.kernel.new_tally()).collect();
            for k in 0..count {
                let part = run_share(&cells, &config(n), Share::new(k, count).unwrap(), &Silent).unwrap();
                for (m, p) in merged.iter_mut().zip(&part) {
                    m.merge(p);
                }
            }
            assert_eq!(merged, single, "{count} shards");
        }
    }

    /// Work per share on a skewed run: one cell of 400 streams beside 30 of two, and a
    /// cell costing 10 times more per engagement: the busiest share does at most 10%
    /// more than the idlest (while splitting by whole cells would leave one share with
    /// most of the work).
    #[test]
    fn shares_balance_on_a_skewed_run() {
        let st = STREAM_TRIALS as u64;
        let trials: Vec<u64> = [vec![400 * st, 200 * st + 17], vec![2 * st; 30]].concat();
        let cost = |c: usize| if c == 1 { 10.0 } else { 1.0 };
        let ratio = |work: &[f64]| {
            let (max, min) = work.iter().fold((0f64, f64::MAX), |(a, b), &w| (a.max(w), b.min(w)));
            max / min
        };
        // Every cell two full streams and a short one: the short ones spread too.
        let even = vec![2 * st + 1808; 60];
        for n in [2, 3, 7, 8] {
            let work: Vec<u64> = (0..n)
                .map(|k| {
                    Share::new(k, n)
                        .unwrap()
                        .assignment(&even)
                        .iter()
                        .map(|&(c, s)| stream_len(even[c], s) as u64)
                        .sum()
                })
                .collect();
            assert!(*work.iter().max().unwrap() as f64 <= 1.10 * *work.iter().min().unwrap() as f64, "{n}: {work:?}");
        }
        for n in [2, 3, 7, 8] {
            let work: Vec<f64> = (0..n)
                .map(|k| {
                    let mine = Share::new(k, n).unwrap().assignment(&trials);
                    mine.iter().map(|&(c, s)| cost(c) * stream_len(trials[c], s) as f64).sum()
                })
                .collect();
            assert!(ratio(&work) <= 1.10, "{n} shares: work {work:?}");
            // The same run split by whole cells (cell c to share c mod n) is far off.
            let by_cell: Vec<f64> = (0..n as usize)
                .map(|k| (k..trials.len()).step_by(n as usize).map(|c| cost(c) * trials[c] as f64).sum())
                .collect();
            assert!(ratio(&by_cell) > 1.5, "{n} shares by cell: {by_cell:?}");
        }
    }

    #[test]
    fn precision_and_bad_shares_are_refused() {
        assert!(Share::new(3, 3).is_err());
        assert!(Share::new(0, 0).is_err());
        let cells = [Cell { key: 1, kernel: &Tiny }];
        let cfg = RunConfig { trials: Trials::Precision { half_width: 0.01, max: 100_000 }, ..config(1) };
        let err = run_share(&cells, &cfg, Share::new(0, 2).unwrap(), &Silent).unwrap_err();
        assert!(err.to_string().contains("--precision cannot be sharded"), "{err}");
    }
}
