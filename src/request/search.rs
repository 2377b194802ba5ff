//! `search`: enumerate a ruleset's legal builds and race them through a field
//! ([`crate::sweep::search`]).

use crate::engine::{Observer, RunConfig};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::rules::axis::Point;
use crate::rules::ruleset::SpaceFilter;
use crate::stats::racing::Part;
use crate::stats::racing::{RaceSettings, RaceState, StageRecord};
use crate::sweep::search::{
    Candidate, ForceBattles, SearchOutput, SearchPlan, keep_accepted, legal_candidates, part_weights, run_search,
};
use crate::sweep::search_exact::{self, ExactRecord, Solve};
use crate::sweep::search_forces::{ForceSpace, force_candidates};
use crate::sweep::search_measure::{Measure, playable_candidates};
use crate::sweep::search_metric::SearchMetric;

use super::compare::envelope_points;
use super::setting::{RunRequest, Setting};
use super::sides::{Sources, battle_field, resolve_field, sources};
use crate::sweep::battles::BattleTerms;
use crate::sweep::scenario::DEFAULT_MAX_TURNS;

/// The most candidates a search takes unless `--limit` raises it.
pub const DEFAULT_LIMIT: usize = 20_000;
/// Stage 1's trials per matchup when `--trials` is not given.
pub const DEFAULT_FIRST_TRIALS: u64 = 100;

/// A search as the command line asks for it.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    /// The field the candidates are raced through: a catalogue field or selectors.
    pub field: String,
    pub filter: SpaceFilter,
    /// The race: its top k, stages, growth, error rate and precision; `first_trials`
    /// comes from `run.trials.trials` (default [`DEFAULT_FIRST_TRIALS`]).
    pub top: usize,
    pub stages: u32,
    pub growth: u64,
    pub alpha: f64,
    pub precision: f64,
    /// What the race ranks by.
    pub metric: SearchMetric,
    pub per_cost: bool,
    /// Start candidates whose every engagement the ruleset solves exactly with their
    /// exact values (they then play no trial); `false`: race every one by Monte Carlo.
    pub exact: bool,
    /// The largest space searched; `None`: [`DEFAULT_LIMIT`].
    pub limit: Option<usize>,
    /// A force search (`--forces --budget`): the candidates are forces and every
    /// matchup a battle; `None`: builds in duels.
    pub forces: Option<ForceSpace>,
    /// A force search's battle mode; `None`: the ruleset's first.
    pub mode: Option<String>,
    pub run: RunRequest,
}

/// A search resolved against its catalogue: the legal candidates, the field, the
/// conditions and the race, ready to run.
pub struct SearchSpace<R: Ruleset> {
    pub sources: Sources<R::Catalogue>,
    /// Candidates the space listed (before the game's checks).
    pub listed: usize,
    /// Candidates the game's checks refused.
    pub refused: usize,
    /// Legal builds dropped because they cannot play the metric's engagement against the
    /// field here (always 0 for forces, whose refusals are in `refused`).
    pub unplayable: usize,
    /// Why the first refused or unplayable candidate was dropped, when known.
    pub refusal: Option<String>,
    pub candidates: Vec<Candidate>,
    /// The field: (build or force name, weight).
    pub field: Vec<(String, f64)>,
    /// A force search's space and battles; `None`: builds in duels.
    pub battles: Option<ForceBattles>,
    pub grid: Vec<Point>,
    /// Each point's weight, adding to 1 (a range envelope's), or empty: every point alike.
    pub point_weights: Vec<f64>,
    pub metric: SearchMetric,
    /// Each candidate's exact parts where the ruleset solves them (empty: none).
    pub exact: Vec<Option<Vec<Part>>>,
    /// Candidates (indexes, ascending) whose exact values were not solved in this
    /// process ([`PENDING`]): a first-stage shard's others, or every one in a merge or a
    /// resumed search until [`SearchSpace::fill_exact`] gives them. A race may play a
    /// stage with some pending (which parts play is known), but not cut.
    ///
    /// [`PENDING`]: crate::sweep::search_exact::PENDING
    pub pending: Vec<usize>,
    pub options: R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    pub config: RunConfig,
    pub race: RaceSettings,
}

/// List and check the space, resolve the field and the conditions. Everything that can
/// be refused is refused here, before any engagement is played.
///
/// # Errors
/// (usage) An unknown field, base or part, an empty space, a space larger than the limit
/// (naming its size), race settings out of range, a ruleset without a build space;
/// (failure) a catalogue that does not load.
///
/// `solve` says whose exact values are solved here ([`Solve`]): all in one process, a
/// first-stage shard's share, none for `--count`.
pub fn plan<R: Ruleset>(setting: &Setting, req: &SearchRequest, solve: Solve) -> Result<SearchSpace<R>> {
    check_kind::<R>(req)?;
    plan_with::<R>(sources::<R>(&setting.catalogue, None)?, setting, req, solve)
}

/// [`plan`] on catalogue sources already read (a merge's or a resumed search's, from
/// the files the shards recorded).
///
/// # Errors
/// As [`plan`].
pub fn plan_with<R: Ruleset>(
    src: Sources<R::Catalogue>,
    setting: &Setting,
    req: &SearchRequest,
    solve: Solve,
) -> Result<SearchSpace<R>> {
    check_kind::<R>(req)?;
    if req.run.trials.precision.is_some() {
        return Err(Error::usage("search takes --search-precision (the race's stopping half-width), not --precision"));
    }
    let cat = &src.catalogue;
    let (grid, point_weights) = envelope_points::<R>(setting)?;
    if req.forces.is_some() {
        super::battle::check_battle_points::<R>(&grid)?;
    } else {
        for p in &grid {
            R::check_engagement(&R::conditions(p).map_err(Error::usage)?).map_err(Error::usage)?;
        }
    }
    req.metric.check(req.forces.is_some(), req.per_cost, req.run.max_turns).map_err(Error::usage)?;
    let options = setting.options::<R>()?;
    let config = req.run.config()?;
    let race = RaceSettings {
        top: req.top,
        first_trials: req.run.trials.trials.unwrap_or(DEFAULT_FIRST_TRIALS),
        growth: req.growth,
        max_stages: req.stages,
        alpha: req.alpha,
        precision: req.precision,
    };
    race.validate().map_err(Error::usage)?;
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    let (field, battles, policy, (exact, pending), (candidates, listed, refused, unplayable, refusal)) =
        match &req.forces {
            None => {
                let field = resolve_field::<R>(cat, &req.field)?;
                let policy = req.run.policy::<R>()?;
                let (candidates, listed, refused) = builds::<R>(&src, req, limit)?;
                let weights = part_weights(&field, grid.len(), &point_weights);
                let measure = Measure::<R> {
                    metric: req.metric,
                    field: &field,
                    grid: &grid,
                    weights: &weights,
                    options: &options,
                    policy,
                    max_turns: req.run.max_turns,
                    exact: req.exact,
                };
                let playable =
                    playable_candidates::<R>(&src.origin, &src.files, candidates, &measure, config.threads, solve)
                        .map_err(Error::usage)?;
                if playable.kept.is_empty() {
                    return Err(Error::usage(format!(
                        "no build of the space can play {} against the field here (the first: {})",
                        if req.metric.attack_runs() { "an attack run" } else { "a duel" },
                        playable.reason.unwrap_or_default()
                    )));
                }
                let exact = (playable.exact, playable.pending);
                (field, None, policy, exact, (playable.kept, listed, refused, playable.dropped, playable.reason))
            }
            Some(space) => {
                let mut battles = force_field::<R>(cat, req, space)?;
                let listed = force_candidates::<R>(cat, space, &req.filter, limit).map_err(Error::usage)?;
                let (legal, listed, refused, refusal) =
                    check_forces::<R>(cat, &mut battles, &grid, &options, config.threads, listed)?;
                let field = battles.field.iter().map(|(f, w)| (f.name.clone(), *w)).collect();
                let exact = (Vec::new(), Vec::new());
                (field, Some(battles), R::Policy::default(), exact, (legal, listed, refused, 0, refusal))
            }
        };
    Ok(SearchSpace {
        sources: src,
        listed,
        refused,
        unplayable,
        refusal,
        candidates,
        field,
        battles,
        grid,
        point_weights,
        metric: req.metric,
        exact,
        pending,
        options,
        policy,
        max_turns: req.run.max_turns,
        config,
        race,
    })
}

/// Refuse what the ruleset cannot search: builds without a build space, forces without
/// battles, and flags of the other kind.
///
/// # Errors
/// (usage) As above.
fn check_kind<R: Ruleset>(req: &SearchRequest) -> Result<()> {
    match &req.forces {
        None if R::SPACE.is_empty() => Err(Error::unavailable("build searches", R::LABEL)),
        None if req.mode.is_some() => Err(Error::usage("--battle-mode is taken with --forces")),
        Some(_) if R::BATTLE_MODES.is_empty() => Err(Error::unavailable("force searches (battles)", R::LABEL)),
        Some(_) if req.run.max_turns != DEFAULT_MAX_TURNS => {
            Err(Error::usage("--max-turns is not taken with --forces: battles play to their mode's cap"))
        }
        _ => Ok(()),
    }
}

/// The legal builds of the build space, how many it listed and how many the game's
/// checks refused.
///
/// # Errors
/// (usage) An unknown base or part, an empty space, a space larger than `limit`.
fn builds<R: Ruleset>(
    src: &Sources<R::Catalogue>,
    req: &SearchRequest,
    limit: usize,
) -> Result<(Vec<Candidate>, usize, usize)> {
    let cat = &src.catalogue;
    let space = R::build_space(cat, &req.filter).map_err(Error::usage)?;
    if space.is_empty() {
        return Err(Error::usage(format!(
            "the build space is empty: no {} build passes the filters (--unit, --max-cost, --must-include, --exclude)",
            R::LABEL
        )));
    }
    if space.len() > limit {
        let size = if space.len() >= crate::rules::ruleset::SPACE_HARD_CAP {
            format!("at least {}", space.len())
        } else {
            space.len().to_string()
        };
        return Err(Error::usage(format!(
            "the build space holds {size} candidates, more than the limit of {limit}: narrow it (--unit, --max-cost, --must-include, --exclude) or raise --limit"
        )));
    }
    let listed = space.len();
    let (candidates, refused) = legal_candidates::<R>(cat, &src.origin, &src.files, space).map_err(Error::usage)?;
    if candidates.is_empty() {
        return Err(Error::usage(format!(
            "the build space is empty: all {listed} listed candidates break the {} construction rules",
            R::LABEL
        )));
    }
    Ok((candidates, listed, refused))
}

/// A force search's space, field and battle terms. A field force without a budget of
/// its own spends the search's.
///
/// # Errors
/// (usage) An unknown force or an empty field; a mode the ruleset does not play.
fn force_field<R: Ruleset>(cat: &R::Catalogue, req: &SearchRequest, space: &ForceSpace) -> Result<ForceBattles> {
    let mut field = battle_field::<R>(cat, &req.field, "--field")?;
    for (f, _) in &mut field {
        f.budget = f.budget.or(Some(space.budget));
    }
    let mode = super::battle::checked_mode::<R>(req.mode.as_deref(), "--battle-mode")?
        .unwrap_or_else(|| R::BATTLE_MODES[0].name.to_string());
    Ok(ForceBattles { space: space.clone(), field, mode, policy: req.run.policy.clone(), field_milli: Vec::new() })
}

/// The listed forces the ruleset accepts, checked before any battle is played: every
/// field force against itself (an error names it; its points fill
/// `battles.field_milli`), then every candidate against every field force at every
/// point, in parallel (a candidate refused in any matchup is dropped and
/// counted: some rules, such as an equal-points battle, judge the pair). Returns the legal
/// ones, how many were listed, how many refused and why the first was.
///
/// # Errors
/// (usage) A field force, mode or policy the ruleset refuses; every candidate refused
/// (naming the first's reason).
fn check_forces<R: Ruleset>(
    cat: &R::Catalogue,
    battles: &mut ForceBattles,
    grid: &[Point],
    options: &R::Options,
    threads: Option<usize>,
    listed: Vec<Candidate>,
) -> Result<(Vec<Candidate>, usize, usize, Option<String>)> {
    let conditions: Vec<R::Conditions> =
        grid.iter().map(R::conditions).collect::<std::result::Result<_, _>>().map_err(Error::usage)?;
    let terms = BattleTerms { mode: &battles.mode, policy: battles.policy.as_deref(), max_turns: None };
    let mut milli = Vec::with_capacity(battles.field.len());
    for (f, _) in &battles.field {
        let (_, info) =
            terms.compile::<R>(cat, f, f, conditions[0], options).map_err(|e| Error::usage(format!("--field: {e}")))?;
        milli.push(crate::sweep::forces::milli(info.sides[1].1));
    }
    battles.field_milli = milli;
    let battles = &*battles;
    let count = listed.len();
    let verdicts: Vec<std::result::Result<(), String>> = crate::engine::install(threads, || {
        use rayon::prelude::*;
        listed
            .par_iter()
            .map(|cand| {
                let force = cand.force.as_ref().ok_or_else(|| format!("{} is not a force", cand.name))?;
                for (f, _) in &battles.field {
                    for &c in &conditions {
                        terms.compile::<R>(cat, force, f, c, options)?;
                    }
                }
                Ok(())
            })
            .collect()
    })
    .map_err(Error::Failure)?;
    let mut reason = None;
    let mut legal = Vec::with_capacity(count);
    let refused = keep_accepted(listed, verdicts, &mut legal, &mut Vec::new(), &mut reason);
    if legal.is_empty() {
        return Err(Error::usage(format!(
            "the force space is empty: all {count} listed forces break the {} rules (the first: {})",
            R::LABEL,
            reason.unwrap_or_default()
        )));
    }
    Ok((legal, count, refused, reason))
}

impl<R: Ruleset> SearchSpace<R> {
    /// A force search's budget; `None` for builds.
    pub fn budget(&self) -> Option<f64> {
        self.battles.as_ref().map(|b| b.space.budget)
    }

    /// What the candidates are: `builds` or `forces`.
    pub fn noun(&self) -> &'static str {
        if self.battles.is_some() { "forces" } else { "builds" }
    }

    /// What an engagement is: `duels`, `attack runs` or `battles`.
    pub fn engagement(&self) -> &'static str {
        if self.battles.is_some() {
            "battles"
        } else if self.metric.attack_runs() {
            "attack runs"
        } else {
            "duels"
        }
    }

    /// `, N with no duel against the field here` (or attack run) when some legal builds
    /// have none, else empty (for the line that counts the space).
    pub fn unplayable_text(&self) -> String {
        if self.unplayable == 0 {
            String::new()
        } else {
            let what = if self.metric.attack_runs() { "attack run" } else { "duel" };
            format!(", {} with no {what} against the field here", self.unplayable)
        }
    }

    /// The records of the exact values solved here for the candidates `keep` selects
    /// (by index), in candidate order.
    pub fn exact_records(&self, keep: impl Fn(usize) -> bool) -> Vec<ExactRecord> {
        let names: Vec<&str> = self.candidates.iter().map(|c| c.name.as_str()).collect();
        search_exact::records(&names, &self.exact, &self.pending, keep)
    }

    /// Fill every pending exact value from `records` (the shards' or a search state's),
    /// so the race can be cut.
    ///
    /// # Errors
    /// (failure) A record that is not of a pending candidate of this search, or does not
    /// fit its parts (`what` names the records); a candidate no record gives.
    pub fn fill_exact(&mut self, records: &[ExactRecord], what: &str) -> Result<()> {
        let names: Vec<&str> = self.candidates.iter().map(|c| c.name.as_str()).collect();
        search_exact::fill(&names, &mut self.exact, &mut self.pending, records)
            .map_err(|e| Error::Failure(format!("{what}: {e}")))?;
        match self.pending.first() {
            None => Ok(()),
            Some(&i) => Err(Error::Failure(format!(
                "the exact values of {} candidates are missing (the first: {}): every first-stage shard writes its \
                 share of them, so merge all of the stage's shards",
                self.pending.len(),
                self.candidates[i].name
            ))),
        }
    }

    /// How many candidates start with their exact value (and play no trial).
    pub fn exact_count(&self) -> usize {
        self.exact.iter().flatten().filter(|parts| parts.iter().all(|p| p.exact.is_some())).count()
    }

    /// How many candidates have some of their parts exact and play only the others.
    pub fn partly_exact_count(&self) -> usize {
        self.exact.iter().flatten().filter(|parts| parts.iter().any(|p| p.exact.is_none())).count()
    }

    /// The space in words: the ruleset's build space, or the forces listed.
    pub fn describe(&self) -> String {
        match &self.battles {
            Some(ForceBattles { space: f, mode, .. }) => format!(
                "every force of 1 to {} units of {} that spends a budget of {} {} (at most that, and more than that \
                 minus its cheapest member build's cost), each matchup a battle of mode `{}` with the candidate as side A",
                f.max_units,
                if f.builds.is_empty() { "the catalogue's builds".to_string() } else { f.builds.join(", ") },
                f.budget,
                R::COST_UNIT,
                mode
            ),
            None => R::SPACE.to_string(),
        }
    }

    /// Whether the space holds at least `top` legal candidates (a race for more is
    /// refused; counting the space is not).
    ///
    /// # Errors
    /// (usage) `top` larger than the space.
    pub fn check_top(&self, top: usize) -> Result<()> {
        if self.candidates.len() < top {
            return Err(Error::usage(format!(
                "--top {top} asks for more than the {} legal candidates",
                self.candidates.len()
            )));
        }
        Ok(())
    }

    /// The plan the race plays (borrowing this space).
    pub fn search_plan(&self, per_cost: bool) -> SearchPlan<'_, R> {
        SearchPlan {
            files: &self.sources.files,
            origin: &self.sources.origin,
            candidates: &self.candidates,
            field: &self.field,
            grid: &self.grid,
            point_weights: &self.point_weights,
            options: &self.options,
            battles: self.battles.as_ref(),
            policy: self.policy,
            max_turns: self.max_turns,
            config: &self.config,
            metric: self.metric,
            per_cost,
            exact: &self.exact,
            race: self.race.clone(),
        }
    }

    /// Race the candidates from `state` (the race's start, or a merged stage's state that
    /// had played `engagements`) to the race's end; `on_stage` hears each stage as it ends.
    ///
    /// # Errors
    /// (failure) Cells the ruleset refuses, or a cancelled run.
    pub fn run(
        &self,
        per_cost: bool,
        state: RaceState,
        engagements: u64,
        observer: &dyn Observer,
        on_stage: impl FnMut(&StageRecord),
    ) -> Result<SearchOutput> {
        run_search::<R>(&self.search_plan(per_cost), state, engagements, observer, on_stage).map_err(Error::Failure)
    }
}
