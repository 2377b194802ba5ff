//! Progress reporting and cancellation without terminal I/O: the engine calls an
//! [`Observer`]; the CLI plugs a progress bar and its signal handling into it.

/// Receives progress from a run, and may ask it to stop. Called from worker threads.
///
/// Call order within one run: for each round, [`Observer::planned`] once, then
/// [`Observer::progressed`] after every stream (at most [`super::STREAM_TRIALS`]
/// engagements), and [`Observer::cell_finished`] once per cell, as soon as the cell has
/// all its engagements (in `--precision` mode: when its round ends with its target met).
/// Over a whole run, `cell_finished` is called exactly once per cell unless the run is
/// cancelled.
pub trait Observer: Sync {
    /// A round starts: `cells` cells in all, `trials` more engagements planned (over all
    /// cells; precision mode plans one round at a time).
    fn planned(&self, _cells: u64, _trials: u64) {}
    /// `trials` engagements finished.
    fn progressed(&self, _trials: u64) {}
    /// One more cell reached its final trial count.
    fn cell_finished(&self) {}
    /// Should the run stop? Asked before every stream; once it answers `true` the run
    /// starts no more streams and returns [`super::RunError::Cancelled`]. Must be cheap
    /// (an atomic load).
    fn cancelled(&self) -> bool {
        false
    }
}

/// An observer that ignores everything and never cancels.
pub struct Silent;

impl Observer for Silent {}
