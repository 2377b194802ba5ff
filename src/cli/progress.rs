//! The CLI's engine observer: an indicatif bar on stderr, and the signals that cancel
//! the run.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use indicatif::{FormattedDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::signals;
use crate::engine::Observer;

/// Counts shared with the bar's template keys.
#[derive(Debug, Default)]
struct Counts {
    cells: AtomicU64,
    cells_done: AtomicU64,
    /// When the first engagements were planned: the rate and ETA leave out the time spent
    /// compiling cells before it.
    work_started: OnceLock<Instant>,
}

impl Counts {
    fn working(&self) -> Duration {
        self.work_started.get().map_or(Duration::ZERO, Instant::elapsed)
    }
}

/// A progress bar of engagements played over all cells (`12.3M/45.0M engagements`), cells
/// finished (`cells 812/4536`), engagements per second and an ETA from engagements.
/// Hidden when stderr is not a terminal or when `quiet`. As an observer it also cancels the
/// run once SIGINT, SIGTERM or SIGHUP has arrived ([`signals::received`]).
pub struct Progress {
    bar: ProgressBar,
    counts: Arc<Counts>,
}

/// Time left at the average rate so far: `(total - done) * elapsed / done`; `None` before
/// anything is done.
pub fn eta(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    if done == 0 {
        return None;
    }
    let left = total.saturating_sub(done) as f64;
    Some(Duration::from_secs_f64(left * elapsed.as_secs_f64() / done as f64))
}

/// Engagements per second at the average rate so far (0 before any time has passed).
pub fn rate(done: u64, elapsed: Duration) -> f64 {
    let s = elapsed.as_secs_f64();
    if s > 0.0 { done as f64 / s } else { 0.0 }
}

impl Progress {
    pub fn new(quiet: bool) -> Progress {
        let counts = Arc::new(Counts::default());
        let bar = if quiet || !std::io::stderr().is_terminal() {
            ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::hidden())
        } else {
            let bar = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            let (c1, c2, c3) = (counts.clone(), counts.clone(), counts.clone());
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} engagements, cells {cells}, {rate}, ETA {left}",
                )
                .expect("valid template")
                .with_key("cells", move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}", cells_text(&c1));
                })
                .with_key("rate", move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1} M/s", rate(s.pos(), c2.working()) / 1e6);
                })
                .with_key("left", move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = match eta(s.pos(), s.len().unwrap_or(0), c3.working()) {
                        Some(d) => write!(w, "{}", FormattedDuration(d)),
                        None => write!(w, "?"),
                    };
                }),
            );
            bar
        };
        Progress { bar, counts }
    }

    /// `done/all` cells.
    pub fn cells(&self) -> String {
        cells_text(&self.counts)
    }

    /// Engagements played and planned so far.
    pub fn engagements(&self) -> (u64, u64) {
        (self.bar.position(), self.bar.length().unwrap_or(0))
    }

    /// Remove the bar from the terminal.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn cells_text(c: &Counts) -> String {
    format!("{}/{}", c.cells_done.load(Ordering::Relaxed), c.cells.load(Ordering::Relaxed))
}

/// A run that ends in an error (or a signal) clears its bar too, so that the message
/// that follows starts on a clean line.
impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

impl Observer for Progress {
    fn planned(&self, cells: u64, trials: u64) {
        self.counts.work_started.get_or_init(Instant::now);
        self.counts.cells.store(cells, Ordering::Relaxed);
        self.bar.inc_length(trials);
    }
    fn progressed(&self, trials: u64) {
        self.bar.inc(trials);
    }
    fn cell_finished(&self) {
        self.counts.cells_done.fetch_add(1, Ordering::Relaxed);
        self.bar.tick();
    }
    fn cancelled(&self) -> bool {
        signals::received().is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Cell, RunConfig, STREAM_TRIALS, Trials, run};
    use crate::rules::techcommander::catalogue::{UnitKind, Weapon};
    use crate::rules::techcommander::{AttackRun, Attacker, Conditions, DEFAULT_MAX_TURNS, Policy, Target};

    #[test]
    fn eta_comes_from_engagements_at_the_average_rate() {
        assert_eq!(eta(0, 100, Duration::from_secs(5)), None);
        assert_eq!(eta(25, 100, Duration::from_secs(3)), Some(Duration::from_secs(9)));
        assert_eq!(eta(100, 100, Duration::from_secs(3)), Some(Duration::ZERO));
        assert_eq!(rate(50, Duration::from_secs(2)), 25.0);
        assert_eq!(rate(50, Duration::ZERO), 0.0);
    }

    #[test]
    fn the_bar_counts_engagements_and_cells_over_a_whole_run() {
        let attacker = Attacker::simple("A", UnitKind::Vehicle, 4, vec![Weapon::simple("Gun", 3, 5, 1)]);
        let target = Target::generic(3);
        let kernel = AttackRun::new(
            &attacker,
            &target,
            &Conditions::at_range(12.0),
            &crate::rules::techcommander::Options::default(),
            Policy::default(),
            DEFAULT_MAX_TURNS,
        )
        .unwrap();
        let cells: Vec<Cell<'_, AttackRun>> = (0..3).map(|k| Cell { key: k, kernel: &kernel }).collect();
        let p = Progress::new(true);
        let n = STREAM_TRIALS as u64 + 7;
        let cfg = RunConfig { seed: 1, trials: Trials::Fixed(n), threads: Some(2), batch_streams: 1 };
        run(&cells, &cfg, &p).unwrap();
        assert_eq!(p.engagements(), (3 * n, 3 * n));
        assert_eq!(p.cells(), "3/3");
    }
}
