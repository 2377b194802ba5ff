//! Limits on what one command may plan, checked before anything is expanded or run:
//! cells (each held in memory with its tally; battle sweeps compile their battles a chunk
//! at a time, so their memory does not grow with the compiled battles) and trials in total
//! (cells × trials per cell). The command line raises them (`--max-cells`,
//! `--max-work`); 0 lifts a limit.

use std::sync::atomic::{AtomicU64, Ordering};

/// Default most cells of one command: a grid of 100 values on each of two axes, for ten
/// pairs of sides.
const DEFAULT_MAX_CELLS: u64 = 100_000;
/// Default most trials of one command in total (cells × trials, or × max trials with a
/// precision): about a day of one core at the slowest kernels.
pub const DEFAULT_MAX_WORK: u64 = 100_000_000_000;

static MAX_CELLS: AtomicU64 = AtomicU64::new(DEFAULT_MAX_CELLS);
static MAX_WORK: AtomicU64 = AtomicU64::new(DEFAULT_MAX_WORK);

/// Set this process's limits (0: none; `None` cells: the default).
pub fn set(max_cells: Option<u64>, max_work: u64) {
    MAX_CELLS.store(max_cells.unwrap_or(DEFAULT_MAX_CELLS), Ordering::Relaxed);
    MAX_WORK.store(max_work, Ordering::Relaxed);
}

/// Check a plan of `cells` cells of at most `trials` trials each; `what` says what the
/// cells are ("the grid's 1200 points × 4 attackers × 3 targets").
///
/// # Errors
/// The limit passed, the flag that raises it and how large the plan is.
pub fn check(cells: u64, trials: u64, what: &str) -> Result<(), String> {
    let max_cells = MAX_CELLS.load(Ordering::Relaxed);
    if max_cells != 0 && cells > max_cells {
        return Err(format!(
            "{what} make {cells} cells, more than the limit of {max_cells} (every cell's results are held in memory; \
             --max-cells N raises the limit, 0 lifts it)"
        ));
    }
    let max_work = MAX_WORK.load(Ordering::Relaxed);
    let work = cells.saturating_mul(trials);
    if max_work != 0 && work > max_work {
        return Err(format!(
            "{what} make {cells} cells of {trials} trials, {work} trials in all, more than the limit of \
             {max_work} (--max-work N raises the limit, 0 lifts it)"
        ));
    }
    Ok(())
}

/// The product of `factors`, saturating at `u64::MAX`.
pub fn product(factors: impl IntoIterator<Item = usize>) -> u64 {
    factors.into_iter().fold(1u64, |acc, f| acc.saturating_mul(f as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_within_the_defaults_pass_and_larger_ones_name_the_flag() {
        // The defaults, read without set(): the process-wide values are not changed here.
        assert!(check(DEFAULT_MAX_CELLS, 1000, "x").is_ok());
        let e = check(DEFAULT_MAX_CELLS + 1, 1, "the grid's points").unwrap_err();
        assert!(e.contains("--max-cells") && e.starts_with("the grid's points make 100001 cells"), "{e}");
        let e = check(10, DEFAULT_MAX_WORK, "x").unwrap_err();
        assert!(e.contains("--max-work"), "{e}");
        assert_eq!(product([1usize << 40, 1 << 40]), u64::MAX);
    }
}
