//! `search`: enumerate a ruleset's legal builds and race them through a field
//! ([`crate::sweep::search`]).

use crate::engine::{Observer, RunConfig};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::rules::axis::Point;
use crate::rules::ruleset::SpaceFilter;
use crate::stats::racing::{RaceSettings, RaceState, StageRecord};
use crate::sweep::search::{Candidate, SearchOutput, SearchPlan, legal_candidates, run_search};

use super::setting::{RunRequest, Setting};
use super::sides::{Sources, resolve_field, sources};

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
    pub per_cost: bool,
    /// The largest space searched; `None`: [`DEFAULT_LIMIT`].
    pub limit: Option<usize>,
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
    pub candidates: Vec<Candidate>,
    pub field: Vec<(String, f64)>,
    pub grid: Vec<Point>,
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
pub fn plan<R: Ruleset>(setting: &Setting, req: &SearchRequest) -> Result<SearchSpace<R>> {
    if R::SPACE.is_empty() {
        return Err(Error::unavailable("build searches", R::LABEL));
    }
    plan_with::<R>(sources::<R>(&setting.catalogue, None)?, setting, req)
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
) -> Result<SearchSpace<R>> {
    if R::SPACE.is_empty() {
        return Err(Error::unavailable("build searches", R::LABEL));
    }
    if req.run.trials.precision.is_some() {
        return Err(Error::usage("search takes --search-precision (the race's stopping half-width), not --precision"));
    }
    let cat = &src.catalogue;
    let field = resolve_field::<R>(cat, &req.field)?;
    setting.engagement_conditions::<R>()?;
    let grid = vec![setting.point::<R>()?];
    let options = setting.options::<R>()?;
    let policy = req.run.policy::<R>()?;
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
    let space = R::build_space(cat, &req.filter).map_err(Error::usage)?;
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
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
    Ok(SearchSpace {
        sources: src,
        listed,
        refused,
        candidates,
        field,
        grid,
        options,
        policy,
        max_turns: req.run.max_turns,
        config,
        race,
    })
}

impl<R: Ruleset> SearchSpace<R> {
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
            options: &self.options,
            policy: self.policy,
            max_turns: self.max_turns,
            config: &self.config,
            per_cost,
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
