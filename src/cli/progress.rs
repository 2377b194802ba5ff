//! The engine's progress on a terminal: an indicatif bar on stderr.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::engine::Observer;

/// A progress bar of engagements played, with cells done, engagements per second and ETA.
/// Hidden when stderr is not a terminal or when `quiet`.
pub struct Progress {
    bar: ProgressBar,
    cells: AtomicU64,
    cells_done: AtomicU64,
}

impl Progress {
    pub fn new(quiet: bool) -> Progress {
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} engagements, {rate}, ETA {eta} {msg}",
                )
                .expect("valid template")
                .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} M/s", state.per_sec() / 1e6);
                }),
            );
            bar
        };
        Progress { bar, cells: AtomicU64::new(0), cells_done: AtomicU64::new(0) }
    }

    /// Remove the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn planned(&self, cells: u64, trials: u64) {
        self.cells.store(cells, Ordering::Relaxed);
        self.bar.inc_length(trials);
        self.bar.set_message(format!("({}/{} cells)", self.cells_done.load(Ordering::Relaxed), cells));
    }
    fn progressed(&self, trials: u64) {
        self.bar.inc(trials);
    }
    fn cell_finished(&self) {
        let done = self.cells_done.fetch_add(1, Ordering::Relaxed) + 1;
        self.bar.set_message(format!("({done}/{} cells)", self.cells.load(Ordering::Relaxed)));
    }
}
