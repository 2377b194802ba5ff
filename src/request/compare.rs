//! `compare`: is A better than B, on paired runs, against a field, targets, a
//! scenario's matchups, or (battles) a field of forces.

use crate::engine::Observer;
use crate::error::{Error, Result};
use crate::rules::axis::Point;
use crate::rules::{Role, Ruleset};
use crate::stats::Metric;
use crate::sweep::Engagement;
use crate::sweep::battles::BattleTerms;
use crate::sweep::compare::{
    BattleCompare, CompareResult, CompareSpec, Pairing, Versus, run_battle_compare, run_compare,
};
use crate::sweep::scenario::DEFAULT_MAX_TURNS;

use super::setting::{RunRequest, Setting};
use super::sides::{ScenarioParts, battle_field, resolve_field, resolve_force, resolve_sides, scenario_parts, sources};

/// A comparison of builds A and B in duels or attack runs.
#[derive(Debug, Clone)]
pub struct CompareRequest {
    pub a: String,
    pub b: String,
    /// Duels against a field: a catalogue field or selectors.
    pub against: Option<String>,
    /// Attack runs against these targets.
    pub targets: Vec<String>,
    /// A scenario's opponents or targets, conditions, cap, policy, seed and trials.
    pub scenario: Option<String>,
    /// `win`, `turns` or `kill-by-turn:K`; `None` = the engagement's natural metric.
    pub metric: Option<String>,
    /// Attack runs: exact values from the time-to-kill chains.
    pub exact: bool,
    pub run: RunRequest,
}

/// A comparison as it was run, and its result.
pub struct Compared<R: Ruleset> {
    pub spec: CompareSpec<R>,
    pub result: CompareResult,
    pub seed: u64,
}

/// Resolve and run a comparison of two builds.
///
/// # Errors
/// (usage) Unknown names or selectors, nothing to face, a metric that does not fit, exact
/// duels; (failure) a catalogue or scenario that does not load, cells the ruleset
/// refuses, a cancelled run.
pub fn compare<R: Ruleset>(setting: &Setting, req: &CompareRequest, observer: &dyn Observer) -> Result<Compared<R>> {
    // The command line's options are checked even where a scenario's replace them.
    setting.options::<R>()?;
    let src = sources::<R>(&setting.catalogue, req.scenario.as_deref())?;
    let cat = &src.catalogue;
    let a = R::display_name(cat, Role::Opponent, &req.a)?;
    let b = R::display_name(cat, Role::Opponent, &req.b)?;
    let (versus, (points, point_weights), options, policy, max_turns, config) = match &src.scenario {
        Some(scenario) => {
            let ScenarioParts { scenario: s, grid, opponents, targets } = scenario_parts::<R>(cat, scenario)?;
            let versus = if opponents.is_empty() {
                Versus::Targets(targets)
            } else {
                Versus::Opponents(opponents.into_iter().map(|o| (o, 1.0)).collect())
            };
            let options = s.rule_options::<R>().map_err(Error::usage)?;
            let policy = s.policy.parse::<R::Policy>().map_err(Error::usage)?;
            let grid = no_envelope::<R>(setting, grid)?;
            (versus, (grid, Vec::new()), options, policy, s.max_turns, req.run.config_over(s.seed, s.trials)?)
        }
        None => {
            let versus = match (&req.against, req.targets.is_empty()) {
                (Some(f), _) => Versus::Opponents(resolve_field::<R>(cat, f)?),
                (None, false) => Versus::Targets(resolve_sides::<R>(cat, Role::Target, &req.targets)?),
                (None, true) => {
                    return Err(Error::usage(
                        "say what A and B face: --against FIELD (duels), --target NAME (attack runs) or --scenario FILE",
                    ));
                }
            };
            let points = envelope_points::<R>(setting)?;
            (versus, points, setting.options::<R>()?, req.run.policy::<R>()?, req.run.max_turns, req.run.config()?)
        }
    };
    let metric = match &req.metric {
        Some(m) => Metric::parse(m).map_err(Error::usage)?,
        None if matches!(versus, Versus::Opponents(_)) => Metric::Win,
        None => Metric::Turns,
    };
    if req.exact && matches!(versus, Versus::Opponents(_)) {
        return Err(Error::usage(
            "--exact compares attack runs (--target, or a scenario of attack runs): duels have no exact solver",
        ));
    }
    let spec =
        CompareSpec::<R> { a, b, versus, points, point_weights, options, policy, max_turns, metric, exact: req.exact };
    let result = run_compare::<R>(cat, &spec, &config, observer)?;
    Ok(Compared { spec, result, seed: config.seed })
}

/// A scenario's grid, refusing a range envelope on the command line, which a scenario's
/// `[grid]` replaces.
///
/// # Errors
/// (usage) A range envelope.
pub(super) fn no_envelope<R: Ruleset>(setting: &Setting, grid: Vec<Point>) -> Result<Vec<Point>> {
    if setting.envelope::<R>()?.is_some() {
        return Err(Error::usage(
            "--range: a list or band of ranges is not taken with --scenario (its [grid] sets the ranges)",
        ));
    }
    Ok(grid)
}

/// The command line's points and, for a range envelope, their weights (empty: one
/// point), each checked for engagements.
///
/// # Errors
/// (usage) As [`Setting::weighted_points`].
pub(super) fn envelope_points<R: Ruleset>(setting: &Setting) -> Result<(Vec<Point>, Vec<f64>)> {
    let points = setting.weighted_points::<R>()?;
    let weights = if points.len() > 1 { points.iter().map(|p| p.1).collect() } else { Vec::new() };
    Ok((points.into_iter().map(|p| p.0).collect(), weights))
}

/// A comparison of forces A and B in battles against a field of forces.
#[derive(Debug, Clone)]
pub struct BattleCompareRequest {
    pub a: String,
    pub b: String,
    /// The opposing forces, separated by commas, or a catalogue field.
    pub versus: String,
    /// The battle mode; `None` = the scenario's, else the ruleset's first.
    pub mode: Option<String>,
    /// `crn` or `independent`.
    pub pairing: String,
    /// A battle scenario's grid, mode, policy, cap, seed and trials.
    pub scenario: Option<String>,
    pub run: RunRequest,
}

/// A battle comparison as it was run, and its result.
pub struct BattlesCompared<R: Ruleset> {
    /// Forces A and B as the catalogue names them.
    pub a: String,
    pub b: String,
    pub result: BattleCompare,
    pub seed: u64,
    pub options: R::Options,
}

/// Resolve and run a comparison of two forces in battles.
///
/// # Errors
/// (usage) Battles not available for the ruleset, a turn cap given (battles play to
/// their mode's), unknown forces, an unknown pairing; (failure) as [`compare`].
pub fn compare_battles<R: Ruleset>(
    setting: &Setting,
    req: &BattleCompareRequest,
    observer: &dyn Observer,
) -> Result<BattlesCompared<R>> {
    if R::BATTLE_MODES.is_empty() {
        return Err(Error::unavailable("battles", R::LABEL));
    }
    if req.run.max_turns != DEFAULT_MAX_TURNS {
        return Err(Error::usage(
            "--max-turns is not taken with --battle: battles play to their mode's cap (or a battle scenario's max_turns)",
        ));
    }
    let src = sources::<R>(&setting.catalogue, req.scenario.as_deref())?;
    let cat = &src.catalogue;
    let (a, b) = (resolve_force::<R>(cat, &req.a)?, resolve_force::<R>(cat, &req.b)?);
    let versus = battle_field::<R>(cat, &req.versus, "--versus")?;
    let given = super::battle::checked_mode::<R>(req.mode.as_deref(), "--battle-mode")?;
    let mut mode = given.clone().unwrap_or_else(|| R::BATTLE_MODES[0].name.to_string());
    let mut policy = req.run.policy.clone();
    let mut max_turns = None;
    let (points, point_weights, options, config) = match &src.scenario {
        Some(scenario) => {
            let ScenarioParts { scenario: s, grid, .. } = scenario_parts::<R>(cat, scenario)?;
            if let (Some(b), Engagement::Battle) = (&s.battle, s.engagement) {
                mode = given.clone().unwrap_or_else(|| b.mode.clone());
                policy = policy.or_else(|| b.policy.clone());
                max_turns = b.max_turns;
            }
            let grid = no_envelope::<R>(setting, grid)?;
            (grid, Vec::new(), s.rule_options::<R>().map_err(Error::usage)?, req.run.config_over(s.seed, s.trials)?)
        }
        None => {
            let (points, weights) = envelope_points::<R>(setting)?;
            (points, weights, setting.options::<R>()?, req.run.config()?)
        }
    };
    super::battle::check_battle_points::<R>(&points)?;
    let rules = BattleTerms { mode: &mode, policy: policy.as_deref(), max_turns };
    let pairing = req.pairing.parse::<Pairing>().map_err(Error::usage)?;
    let result = run_battle_compare::<R>(
        cat,
        &a,
        &b,
        &versus,
        &points,
        &point_weights,
        &options,
        rules,
        pairing,
        &config,
        observer,
    )?;
    Ok(BattlesCompared { a: a.name, b: b.name, result, seed: config.seed, options })
}
