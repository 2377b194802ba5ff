//! The CLI's engine observer: an indicatif bar on stderr (a plain line every few seconds
//! when stderr is not a terminal), and the signals that cancel the run.

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
    /// Engagements played and planned, for the plain lines (the hidden bar keeps them too).
    done: AtomicU64,
    total: AtomicU64,
    /// Milliseconds after `work_started` at which the next plain line is due.
    next_line_ms: AtomicU64,
}

impl Counts {
    fn working(&self) -> Duration {
        self.work_started.get().map_or(Duration::ZERO, Instant::elapsed)
    }
}

/// A progress bar of engagements played over all cells (`12.3M/45.0M engagements`), cells
/// finished (`cells 812/4536`), engagements per second and an ETA from engagements.
/// When stderr is not a terminal (a Slurm log, CI), a plain line with the same figures
/// every [`PLAIN_EVERY`] instead (`VOLLEY_PROGRESS_SECONDS` sets the interval; `0` turns
/// the lines off). Nothing at all when `quiet`. As an observer it also cancels the run once
/// SIGINT, SIGTERM or SIGHUP has arrived ([`signals::received`]).
pub struct Progress {
    bar: ProgressBar,
    counts: Arc<Counts>,
    /// Interval of the plain lines; `None`: no plain lines (a terminal, quiet, or off).
    plain_every: Option<Duration>,
    quiet: bool,
}

/// Default interval of the plain progress lines when stderr is not a terminal.
const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// The plain-line interval: `VOLLEY_PROGRESS_SECONDS` (seconds, fractions allowed; `0`
/// or less: off) when set to a number, else [`PLAIN_EVERY`].
fn plain_interval() -> Option<Duration> {
    match std::env::var("VOLLEY_PROGRESS_SECONDS").ok().and_then(|v| v.trim().parse::<f64>().ok()) {
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s.min(1e6))),
        Some(_) => None,
        None => Some(PLAIN_EVERY),
    }
}

/// One plain progress line: `progress: 12.3M/45.0M engagements (27%), cells 812/4536,
/// 49.6 M/s, ETA 12s`.
fn plain_line(done: u64, total: u64, cells: &str, elapsed: Duration) -> String {
    let percent = if total > 0 { 100.0 * done as f64 / total as f64 } else { 0.0 };
    let left = eta(done, total, elapsed).map_or_else(|| "?".to_string(), |d| FormattedDuration(d).to_string());
    format!(
        "progress: {}/{} engagements ({percent:.0}%), cells {cells}, {:.1} M/s, ETA {left}",
        indicatif::HumanCount(done),
        indicatif::HumanCount(total),
        rate(done, elapsed) / 1e6
    )
}

/// Time left at the average rate so far: `(total - done) * elapsed / done`; `None` before
/// anything is done.
fn eta(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
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
        let terminal = std::io::stderr().is_terminal();
        let plain_every = if quiet || terminal { None } else { plain_interval() };
        if let Some(every) = plain_every {
            counts.next_line_ms.store(every.as_millis() as u64, Ordering::Relaxed);
        }
        let bar = if quiet || !terminal {
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
        Progress { bar, counts, plain_every, quiet }
    }

    /// Print a plain line when one is due (one thread wins the slot; the others skip).
    fn plain_tick(&self) {
        let Some(every) = self.plain_every else { return };
        let now = self.counts.working().as_millis() as u64;
        let due = self.counts.next_line_ms.load(Ordering::Relaxed);
        if now < due {
            return;
        }
        let next = now + every.as_millis().max(1) as u64;
        if self.counts.next_line_ms.compare_exchange(due, next, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            let (done, total) = (self.counts.done.load(Ordering::Relaxed), self.counts.total.load(Ordering::Relaxed));
            eprintln!("{}", plain_line(done, total, &cells_text(&self.counts), self.counts.working()));
        }
    }

    /// `done/all` cells.
    pub fn cells(&self) -> String {
        cells_text(&self.counts)
    }

    /// Engagements played and planned so far.
    pub fn engagements(&self) -> (u64, u64) {
        (self.bar.position(), self.bar.length().unwrap_or(0))
    }

    /// A line about the run's course (a search's stages): above the bar on a terminal,
    /// plain on stderr otherwise, nothing with `--quiet`.
    pub fn note(&self, line: &str) {
        if self.quiet {
            return;
        }
        if self.bar.is_hidden() {
            eprintln!("{line}");
        } else {
            self.bar.println(line);
        }
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
        self.counts.total.fetch_add(trials, Ordering::Relaxed);
        self.bar.inc_length(trials);
    }
    fn progressed(&self, trials: u64) {
        self.counts.done.fetch_add(trials, Ordering::Relaxed);
        self.bar.inc(trials);
        self.plain_tick();
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
    fn a_plain_line_states_engagements_share_cells_rate_and_eta() {
        let line = plain_line(250_000, 1_000_000, "3/12", Duration::from_secs(2));
        assert_eq!(line, "progress: 250,000/1,000,000 engagements (25%), cells 3/12, 0.1 M/s, ETA 00:00:06");
        assert_eq!(
            plain_line(0, 0, "0/0", Duration::ZERO),
            "progress: 0/0 engagements (0%), cells 0/0, 0.0 M/s, ETA ?"
        );
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
