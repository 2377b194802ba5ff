//! `fit`: the cost at which each build's result against a field equals a target, or
//! (`all`) every build's cost at once.

use crate::engine::{DEFAULT_BATCH_STREAMS, Observer, RunConfig, Trials};
use crate::error::{Error, Result};
use crate::rules::axis::Point;
use crate::rules::{Role, Ruleset};
use crate::sweep::fit::{FitMethod, FitOutput, FitSettings, run_fit};
use crate::sweep::fit_link::FitMetric;
use crate::sweep::scenario::DEFAULT_MAX_TURNS;

use super::setting::Setting;
use super::sides::{ScenarioParts, resolve_field, resolve_sides, scenario_parts, sources};

/// Duels per matchup in a Monte Carlo fit's first round, unless a scenario or the
/// request says otherwise.
const DEFAULT_FIT_TRIALS: u64 = 20_000;

/// A fit as the command line asks for it.
#[derive(Debug, Clone)]
pub struct FitRequest {
    /// Names or selectors; empty = every build of the catalogue.
    pub builds: Vec<String>,
    /// The field (costs held fixed); `None` with `all`.
    pub field: Option<String>,
    pub all: bool,
    pub scenario: Option<String>,
    /// The result aimed at, strictly between 0 and 1.
    pub target: f64,
    pub metric: FitMetric,
    pub method: FitMethod,
    /// Monte Carlo: the 95% half-width in cost units every fitted cost must reach.
    pub precision: Option<f64>,
    /// Monte Carlo: first-round duels per matchup; `None` = the scenario's or 20,000.
    pub trials: Option<u64>,
    /// Monte Carlo with `precision`: the most duels per matchup.
    pub max_trials: u64,
    pub seed: Option<u64>,
    pub threads: Option<u16>,
    pub max_turns: Option<u32>,
    pub policy: Option<String>,
}

/// A fit as it was run, and its output.
pub struct Fitted<R: Ruleset> {
    pub catalogue: R::Catalogue,
    pub builds: Vec<String>,
    /// The field as (build, weight); empty with `all`.
    pub field: Vec<(String, f64)>,
    pub grid: Vec<Point>,
    /// A range envelope's weight per point of `grid` (adding to 1); empty: equal.
    pub point_weights: Vec<f64>,
    pub options: R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    pub config: RunConfig,
    pub scenario_name: Option<String>,
    pub output: FitOutput,
}

/// Resolve and run a fit.
///
/// # Errors
/// (usage) `all` with a target other than 1/2, a precision with the exact method, unknown
/// names, selectors or policy, contradicting conditions or options; (failure) a catalogue
/// or scenario that does not load, matchups the ruleset refuses, a cancelled run, a fit
/// with nothing left to price.
pub fn fit<R: Ruleset>(setting: &Setting, req: &FitRequest, observer: &dyn Observer) -> Result<Fitted<R>> {
    if req.all && req.target != 0.5 {
        return Err(Error::usage(
            "--all fits every build to 1/2 together (each matchup's two results add to 1): --target-win must be 0.5",
        ));
    }
    if req.precision.is_some() && req.method == FitMethod::Exact {
        return Err(Error::usage("--precision is for Monte Carlo fits; --method exact has no interval to narrow"));
    }
    let src = sources::<R>(&setting.catalogue, req.scenario.as_deref())?;
    let cat = src.catalogue;
    let builds: Vec<String> = if req.builds.is_empty() {
        R::select(&cat, Role::Opponent, "all").map_err(Error::usage)?
    } else {
        resolve_sides::<R>(&cat, Role::Opponent, &req.builds)?
    };
    let field = match &req.field {
        Some(f) => resolve_field::<R>(&cat, f)?,
        None => Vec::new(),
    };
    let policy_of = |text: &str| text.parse::<R::Policy>().map_err(|e| Error::usage(format!("--policy: {e}")));
    let ((grid, point_weights), options, policy, max_turns, seed, trials, scenario_name) = match &src.scenario {
        Some(scenario) => {
            let ScenarioParts { scenario: s, grid, .. } = scenario_parts::<R>(&cat, scenario)?;
            let grid = (super::compare::no_envelope::<R>(setting, grid)?, Vec::new());
            let options = s.rule_options::<R>().map_err(Error::usage)?;
            let policy = policy_of(req.policy.as_deref().unwrap_or(&s.policy))?;
            let trials = match s.trials {
                Trials::Fixed(n) => n,
                Trials::Precision { .. } => DEFAULT_FIT_TRIALS,
            };
            (grid, options, policy, req.max_turns.unwrap_or(s.max_turns), s.seed, trials, Some(s.name))
        }
        None => {
            let points = super::compare::envelope_points::<R>(setting)?;
            let policy = match &req.policy {
                Some(p) => policy_of(p)?,
                None => R::Policy::default(),
            };
            let turns = req.max_turns.unwrap_or(DEFAULT_MAX_TURNS);
            (points, setting.options::<R>()?, policy, turns, 1, DEFAULT_FIT_TRIALS, None)
        }
    };
    let config = RunConfig {
        seed: req.seed.unwrap_or(seed),
        trials: Trials::Fixed(req.trials.unwrap_or(trials)),
        threads: req.threads.map(usize::from),
        batch_streams: DEFAULT_BATCH_STREAMS,
    };
    let settings = FitSettings::<R> {
        builds: &builds,
        field: &field,
        all: req.all,
        points: &grid,
        point_weights: &point_weights,
        options: &options,
        policy,
        max_turns,
        target: req.target,
        metric: req.metric,
        method: req.method,
        config,
        precision: req.precision,
        max_trials: req.max_trials.max(req.trials.unwrap_or(trials)),
    };
    let output = run_fit::<R>(&cat, &settings, observer)?;
    Ok(Fitted {
        catalogue: cat,
        builds,
        field,
        grid,
        point_weights,
        options,
        policy,
        max_turns,
        config,
        scenario_name,
        output,
    })
}
