//! How a build search measures its candidates: the kernels its metric compiles (duels,
//! or attack runs against each field member as an inert target), which candidates can
//! play them at all, their exact values where the ruleset's exact solvers give them, and
//! a stage's attack-run tallies as race parts.
//!
//! Attack-run cells are keyed as `volley ttk` keys the run of the candidate against the
//! member's target name ([`crate::rules::ruleset::Catalogue::as_target`]), both as the
//! catalogue shows them ([`crate::rules::ruleset::Catalogue::display_name`]), so a
//! candidate's stage-1 numbers are those of `volley ttk` at the run's seed and trials.

use crate::catalogue::source::SourceFile;
use crate::engine::{Cell, Kernel, Observer, RawTally, RunConfig, Tally, cell_key};
use crate::rules::axis::Point;
use crate::rules::ruleset::{Role, RuleOptions, Ruleset};
use crate::stats::racing::Part;
use crate::stats::{ExactTtk, TtkTally};

use super::cells::CellSpec;
use super::search_candidate::{CHUNK, Candidate, keep_accepted, with_entries};
use super::search_exact::{PENDING, Solve};
use super::search_metric::SearchMetric;
use super::shard::Plays;

/// What a build search compiles per candidate, field member and point.
#[derive(Debug, Clone, Copy)]
pub struct Measure<'a, R: Ruleset> {
    pub metric: SearchMetric,
    /// The field: (build name, weight).
    pub field: &'a [(String, f64)],
    pub grid: &'a [Point],
    /// Each part's weight, in the order (field member, then point).
    pub weights: &'a [f64],
    pub options: &'a R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    /// Give candidates their exact values where the ruleset solves them exactly.
    pub exact: bool,
}

/// The candidates that can play the metric's engagement against every field member at
/// every point, compiled before any is played (a chunk of [`CHUNK`] at a time, in
/// parallel); each kept one's parts where any is exact (with `measure.exact`: the parts
/// the ruleset solves, with their values where `solve` selects the candidate and
/// [`PENDING`] where it does not, the others empty, to be played; `None` where it plays
/// them all); how many could not play; and why the first could not. A build the
/// construction rules allow may still have no duel here: a Skirmishers trooper whose
/// only weapon in reach is a launcher, which duels do not fire.
///
/// # Errors
/// A catalogue that does not load with the candidates, conditions the ruleset refuses,
/// or an exact solver that gives no value where its ruleset said it solves the part.
pub fn playable_candidates<R: Ruleset>(
    origin: &str,
    files: &[SourceFile],
    candidates: Vec<Candidate>,
    measure: &Measure<'_, R>,
    threads: Option<usize>,
    solve: Solve,
) -> Result<PlayableCandidates, String> {
    use rayon::prelude::*;
    let conditions: Vec<R::Conditions> = measure.grid.iter().map(R::conditions).collect::<Result<_, _>>()?;
    let mut out = PlayableCandidates::default();
    let mut flags: Vec<Option<Vec<bool>>> = Vec::new();
    for chunk in candidates.chunks(CHUNK) {
        let entries: Vec<&str> = chunk.iter().map(|c| c.entry.as_str()).collect();
        let cat = R::load(origin, &with_entries(files, &entries), Vec::new()).map_err(|e| e.to_string())?;
        let verdicts: Vec<Result<Option<Vec<bool>>, String>> = crate::engine::install(threads, || {
            chunk.par_iter().map(|cand| measure.compile(&cat, &cand.name, &conditions)).collect()
        })?;
        let first = out.kept.len();
        out.dropped += keep_accepted(chunk.iter().cloned(), verdicts, &mut out.kept, &mut flags, &mut out.reason);
        let solved: Vec<Result<Option<Vec<Part>>, String>> = crate::engine::install(threads, || {
            (first..out.kept.len())
                .into_par_iter()
                .map(|i| match &flags[i] {
                    None => Ok(None),
                    Some(f) if solve.solves(i) => measure.solve(&cat, &out.kept[i].name, &conditions, f).map(Some),
                    Some(f) => Ok(Some(measure.pending(f))),
                })
                .collect()
        })?;
        for (i, parts) in (first..).zip(solved) {
            if flags[i].is_some() && !solve.solves(i) {
                out.pending.push(i);
            }
            out.exact.push(parts?);
        }
    }
    if out.exact.iter().all(Option::is_none) {
        out.exact.clear();
    }
    Ok(out)
}

/// What [`playable_candidates`] keeps and drops.
#[derive(Debug, Clone, Default)]
pub struct PlayableCandidates {
    pub kept: Vec<Candidate>,
    /// Each kept candidate's parts where any is exact (see [`RaceState::new`]), or `None`
    /// where it plays them all; empty when no candidate has an exact part.
    ///
    /// [`RaceState::new`]: crate::stats::racing::RaceState::new
    pub exact: Vec<Option<Vec<Part>>>,
    /// The kept candidates (indexes, ascending) whose exact values were not solved here
    /// ([`PENDING`]): they still play only their other parts.
    pub pending: Vec<usize>,
    pub dropped: usize,
    /// Why the first dropped one was.
    pub reason: Option<String>,
}

impl<R: Ruleset> Measure<'_, R> {
    /// Compile every engagement of candidate `name` (refused when one cannot be
    /// played) and, with `self.exact`, say which parts the ruleset solves exactly
    /// (`None` when none is), without solving them.
    fn compile(
        &self,
        cat: &R::Catalogue,
        name: &str,
        conditions: &[R::Conditions],
    ) -> Result<Option<Vec<bool>>, String> {
        let mut flags = Vec::with_capacity(self.weights.len());
        for (o, _) in self.field {
            for c in conditions {
                let solvable = if self.metric.attack_runs() {
                    let run = R::attack_run(cat, name, &R::as_target(o), c, self.options, self.policy, self.max_turns)
                        .map_err(|e| format!("{name} against {o}: {e}"))?;
                    R::solves_run(&run)
                } else {
                    let duel = R::duel(cat, name, o, c, self.options, self.policy, self.max_turns)
                        .map_err(|e| format!("{name} vs {o}: {e}"))?;
                    R::solves_duel(&duel)
                };
                flags.push(self.exact && solvable);
            }
        }
        Ok(flags.iter().any(|&f| f).then_some(flags))
    }

    /// Candidate `name`'s parts: the exact values of those `flags` marks (solved here),
    /// the others empty ([`Measure::unplayed`]).
    ///
    /// # Errors
    /// What compiling refuses, or a solver that gives no value for a marked part.
    fn solve(
        &self,
        cat: &R::Catalogue,
        name: &str,
        conditions: &[R::Conditions],
        flags: &[bool],
    ) -> Result<Vec<Part>, String> {
        let mut parts = Vec::with_capacity(flags.len());
        for (o, _) in self.field {
            for c in conditions {
                let (j, w) = (parts.len(), self.weights[parts.len()]);
                if !flags[j] {
                    parts.push(self.unplayed(w));
                    continue;
                }
                let value = if self.metric.attack_runs() {
                    let run = R::attack_run(cat, name, &R::as_target(o), c, self.options, self.policy, self.max_turns)?;
                    exact_run_score(self.metric, &R::exact_run(&run), self.max_turns)
                } else {
                    let duel = R::duel(cat, name, o, c, self.options, self.policy, self.max_turns)?;
                    R::exact_duel(&duel).map(|d| d.p_a_wins)
                };
                let v = value.ok_or_else(|| {
                    format!(
                        "{name} against {o}: the {} ruleset said it solves this exactly, and its solver gave no value",
                        R::LABEL
                    )
                })?;
                parts.push(Part::exact(w, v));
            }
        }
        Ok(parts)
    }

    /// The parts of a candidate whose exact values another process solves: those
    /// `flags` marks hold [`PENDING`], the others are empty.
    fn pending(&self, flags: &[bool]) -> Vec<Part> {
        flags
            .iter()
            .zip(self.weights)
            .map(|(&f, &w)| if f { Part::exact(w, PENDING) } else { self.unplayed(w) })
            .collect()
    }

    /// A part of weight `w` not played yet, in the shape its tallies give it.
    fn unplayed(&self, w: f64) -> Part {
        match self.metric {
            SearchMetric::Turns => Part::scored(w, 0, 0, u64::from(self.max_turns.max(1))),
            _ => Part::rate(w, 0, 0),
        }
    }

    /// One stage of `names` (loaded in `cat`) against each field member at each point,
    /// their exact parts left out: `known[i]` gives candidate `i`'s parts where any is
    /// exact (`None`, or an empty slice: it plays every part). Each candidate's parts
    /// come back in order (an exact one as it was, unplayed), or none for a shard's share;
    /// and the engagements played. Cells are keyed as `volley duel` and `volley ttk` key
    /// them, so a part played has their numbers at the stage's seed and trials.
    ///
    /// # Errors
    /// Cells the ruleset refuses, or a cancelled run.
    pub fn play(
        &self,
        cat: &R::Catalogue,
        names: &[String],
        known: &[Option<&[Part]>],
        config: &RunConfig,
        observer: &dyn Observer,
        plays: &Plays<'_>,
    ) -> Result<(Vec<Vec<Part>>, u64), String> {
        let exact_at =
            |i: usize, j: usize| known.get(i).copied().flatten().and_then(|k| k.get(j)).filter(|p| p.exact.is_some());
        let (pairs, policy) = (self.options.pairs(), self.policy.to_string());
        let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy, max_turns: self.max_turns };
        let (tallied, played) = if self.metric.attack_runs() {
            let (tallies, played) =
                play_cells(&self.run_cells(cat, names, &exact_at, &spec)?, config, observer, plays)?;
            (tallies.iter().map(|(t, w)| run_part(self.metric, t, *w, self.max_turns)).collect(), played)
        } else {
            let (tallies, played) =
                play_cells(&self.duel_cells(cat, names, &exact_at, &spec)?, config, observer, plays)?;
            (tallies.iter().map(|(t, w)| Part::rate(*w, t.a_wins(), t.trials)).collect::<Vec<_>>(), played)
        };
        if !plays.wants_tables() {
            return Ok((Vec::new(), played));
        }
        let mut tallied = tallied.into_iter();
        let out = (0..names.len())
            .map(|i| {
                (0..self.weights.len())
                    .map(|j| match exact_at(i, j) {
                        Some(p) => Some(*p),
                        None => tallied.next(),
                    })
                    .collect::<Option<Vec<Part>>>()
            })
            .collect::<Option<Vec<_>>>()
            .ok_or("fewer tallies than parts to play")?;
        Ok((out, played))
    }

    /// The duel cells of [`Measure::play`], keyed as `volley duel` keys them.
    fn duel_cells<'k>(
        &self,
        cat: &R::Catalogue,
        names: &[String],
        exact_at: &dyn Fn(usize, usize) -> Option<&'k Part>,
        spec: &CellSpec<'_>,
    ) -> Result<Vec<(u64, R::Duel, f64)>, String> {
        self.unplayed_cells(names, exact_at, |_, name, f, p, c| {
            let o = &self.field[f].0;
            let duel = R::duel(cat, name, o, c, self.options, self.policy, self.max_turns)?;
            Ok((cell_key(&spec.duel(name, o, p)), duel))
        })
    }

    /// The attack-run cells of [`Measure::play`], keyed as `volley ttk` keys them.
    fn run_cells<'k>(
        &self,
        cat: &R::Catalogue,
        names: &[String],
        exact_at: &dyn Fn(usize, usize) -> Option<&'k Part>,
        spec: &CellSpec<'_>,
    ) -> Result<Vec<(u64, R::AttackRun, f64)>, String> {
        // Each field member as a target, under the name `volley ttk` shows it by.
        let targets: Vec<(String, String)> = self
            .field
            .iter()
            .map(|(o, _)| {
                let target = R::as_target(o);
                R::display_name(cat, Role::Target, &target).map(|shown| (target, shown))
            })
            .collect::<Result<_, _>>()?;
        let attackers: Vec<String> =
            names.iter().map(|name| R::display_name(cat, Role::Attacker, name)).collect::<Result<_, _>>()?;
        self.unplayed_cells(names, exact_at, |i, name, f, p, c| {
            let (target, shown) = &targets[f];
            let run = R::attack_run(cat, name, target, c, self.options, self.policy, self.max_turns)?;
            Ok((cell_key(&spec.attack_run(&attackers[i], shown, p)), run))
        })
    }

    /// The kernels of every part of `names` not known exactly, in part order (field
    /// member, then grid point), each with its cell key and weight: `cell(i, name, f,
    /// point, conditions)` compiles candidate `i`'s part against field member `f`.
    ///
    /// # Errors
    /// Conditions the ruleset refuses, or the first error of `cell`.
    fn unplayed_cells<'k, K>(
        &self,
        names: &[String],
        exact_at: &dyn Fn(usize, usize) -> Option<&'k Part>,
        mut cell: impl FnMut(usize, &str, usize, &Point, &R::Conditions) -> Result<(u64, K), String>,
    ) -> Result<Vec<(u64, K, f64)>, String> {
        let conditions: Vec<R::Conditions> = self.grid.iter().map(R::conditions).collect::<Result<_, _>>()?;
        let mut kernels = Vec::with_capacity(names.len() * self.weights.len());
        for (i, name) in names.iter().enumerate() {
            let mut j = 0;
            for f in 0..self.field.len() {
                for (p, c) in self.grid.iter().zip(&conditions) {
                    if exact_at(i, j).is_none() {
                        let (key, kernel) = cell(i, name, f, p, c)?;
                        kernels.push((key, kernel, self.weights[j]));
                    }
                    j += 1;
                }
            }
        }
        Ok(kernels)
    }
}

/// Tallies, each with its part's weight, and the engagements played.
type Played<T> = (Vec<(T, f64)>, u64);

/// Plays `kernels` (key, kernel, weight) through `plays`: each tally with its weight (none
/// for a shard's share), and the engagements played.
///
/// # Errors
/// A cancelled run, or a shard's refusal.
fn play_cells<K: Kernel>(
    kernels: &[(u64, K, f64)],
    config: &RunConfig,
    observer: &dyn Observer,
    plays: &Plays<'_>,
) -> Result<Played<K::Tally>, String>
where
    K::Tally: RawTally,
{
    let cells: Vec<Cell<'_, K>> = kernels.iter().map(|k| Cell { key: k.0, kernel: &k.1 }).collect();
    let tallies = plays.run(&cells, config, observer)?;
    let played = tallies.iter().map(Tally::trials).sum();
    Ok((tallies.into_iter().zip(kernels).map(|(t, k)| (t, k.2)).collect(), played))
}

/// An attack run's exact score under `metric` (in [0, 1]), or `None` where the run has
/// no exact law or the metric is not an attack-run one.
pub fn exact_run_score(metric: SearchMetric, law: &ExactTtk, cap: u32) -> Option<f64> {
    if !law.is_available() {
        return None;
    }
    match metric {
        SearchMetric::KillByTurn(k) => law.p_kill_by_turn.get(k as usize - 1).copied(),
        SearchMetric::Turns => {
            let cap = cap.max(1);
            let mass: f64 = law.kill_by_turn.iter().enumerate().map(|(t, p)| p * f64::from(cap - t as u32)).sum();
            Some((mass / f64::from(cap)).clamp(0.0, 1.0))
        }
        SearchMetric::Win | SearchMetric::KillPoints => None,
    }
}

/// A tally of attack runs as a race part of weight `weight`: kills by turn k of the
/// runs, or the runs' scores cap + 1 − turns (0 for a run censored at the cap) out of
/// `cap`.
pub fn run_part(metric: SearchMetric, t: &TtkTally, weight: f64, cap: u32) -> Part {
    match metric {
        SearchMetric::KillByTurn(k) => Part::rate(weight, t.kills_by_turn.iter().take(k as usize).sum(), t.trials),
        _ => {
            let cap = cap.max(1);
            let mass = t.kills_by_turn.iter().enumerate().map(|(i, &n)| n * u64::from(cap - i as u32)).sum();
            Part::scored(weight, mass, t.trials, u64::from(cap))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_runs_score_as_their_metric() {
        // 10 runs, cap 3: kills on turns 1, 1, 2, 3 and 6 censored
        let t = TtkTally { trials: 10, kills_by_turn: vec![2, 1, 1], kills_by_action: vec![0] };
        let k2 = run_part(SearchMetric::KillByTurn(2), &t, 0.5, 3);
        assert_eq!((k2.mass, k2.trials, k2.unit, k2.weight), (3, 10, 1, 0.5));
        // turns: scores 3, 3, 2, 1 and 0 × 6 = 9 of 30, i.e. mean turns 4 − 3 · 0.3 = 3.1
        let tu = run_part(SearchMetric::Turns, &t, 1.0, 3);
        assert_eq!((tu.mass, tu.unit), (9, 3));
        let shown = SearchMetric::Turns.shown(tu.mean(), 3);
        assert!((shown - 3.1).abs() < 1e-12, "{shown}");
    }

    #[test]
    fn exact_scores_follow_the_law() {
        let law = ExactTtk::from_kill_pmfs(vec![0.2, 0.3, 0.1], vec![0.6]);
        assert_eq!(exact_run_score(SearchMetric::KillByTurn(2), &law, 3), Some(0.5));
        // E[cap + 1 − T] / cap = (0.2·3 + 0.3·2 + 0.1·1) / 3
        let turns = exact_run_score(SearchMetric::Turns, &law, 3).unwrap();
        assert!((turns - 1.3 / 3.0).abs() < 1e-12, "{turns}");
        assert_eq!(exact_run_score(SearchMetric::Win, &law, 3), None);
        assert_eq!(exact_run_score(SearchMetric::Turns, &ExactTtk::unavailable(3, 1), 3), None);
    }
}
