//! Progress reporting without terminal I/O: the engine calls an [`Observer`]; the CLI
//! plugs a progress bar into it.

/// Receives progress from a run. Called from worker threads.
pub trait Observer: Sync {
    /// A round starts: `cells` cells in all, `trials` more engagements planned.
    fn planned(&self, _cells: u64, _trials: u64) {}
    /// `trials` engagements finished.
    fn progressed(&self, _trials: u64) {}
    /// One more cell reached its final trial count.
    fn cell_finished(&self) {}
}

/// An observer that ignores everything.
pub struct Silent;

impl Observer for Silent {}
