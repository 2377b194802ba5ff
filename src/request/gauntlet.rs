//! `gauntlet`: builds (or forces) through a weighted field, over a grid of conditions.

use crate::catalogue::force::ForceSpec;
use crate::engine::{Observer, RunConfig};
use crate::error::{Error, Result};
use crate::rules::axis::Point;
use crate::rules::{Role, Ruleset};
use crate::sweep::Engagement;
use crate::sweep::battles::BattleTerms;
use crate::sweep::gauntlet::{GauntletOutput, run_battle_gauntlet, run_gauntlet};
use crate::sweep::scenario::DEFAULT_MAX_TURNS;
use crate::sweep::shard::Plays;

use super::compare::{envelope_points, no_envelope};
use super::setting::{RunRequest, Setting};
use super::sides::{ScenarioParts, Sources, battle_field, resolve_field, resolve_force, resolve_sides, scenario_parts};

/// A gauntlet as the command line asks for it.
#[derive(Debug, Clone)]
pub struct GauntletRequest {
    /// Names or selectors of the sides (forces with `battle`).
    pub sides: Vec<String>,
    /// A catalogue field or selectors (forces with `battle`).
    pub field: String,
    pub battle: bool,
    /// Battles: the mode; `None` = the scenario's, else the ruleset's first.
    pub mode: Option<String>,
    pub run: RunRequest,
}

/// Who plays whom in a gauntlet.
pub enum GauntletSides<R: Ruleset> {
    /// Duels of builds against a field of builds.
    Duels { builds: Vec<String>, field: Vec<(String, f64)>, policy: R::Policy, max_turns: u32 },
    /// Battles of forces against a field of forces.
    Battles {
        forces: Vec<ForceSpec>,
        field: Vec<(ForceSpec, f64)>,
        mode: String,
        /// A battle policy by name; `None` = the ruleset's first.
        policy: Option<String>,
        /// `None` = the mode's cap.
        max_turns: Option<u32>,
    },
}

/// A gauntlet resolved against its catalogue and scenario, ready to run.
pub struct GauntletPlan<R: Ruleset> {
    pub sides: GauntletSides<R>,
    pub grid: Vec<Point>,
    /// Each grid point's weight, adding to 1 (a range envelope's weights), or empty:
    /// every point alike.
    pub point_weights: Vec<f64>,
    pub options: R::Options,
    pub config: RunConfig,
    /// The scenario's name, when one lends its grid.
    pub scenario_name: Option<String>,
}

/// Resolve a gauntlet: its sides and field against the catalogue of `src`, and its
/// grid, options, policy, cap, seed and trials from the scenario of `src` or the setting
/// (whose range may be an envelope: a list or band of ranges with their weights).
///
/// # Errors
/// (usage) Unknown names, selectors or forces, battles not available for the ruleset, a
/// turn cap given with battles, contradicting conditions or options; (failure) a scenario
/// that does not match the catalogue.
pub fn plan<R: Ruleset>(
    setting: &Setting,
    req: &GauntletRequest,
    src: &Sources<R::Catalogue>,
) -> Result<GauntletPlan<R>> {
    let cat = &src.catalogue;
    if req.battle {
        if R::BATTLE_MODES.is_empty() {
            return Err(Error::unavailable("battles", R::LABEL));
        }
        if req.run.max_turns != DEFAULT_MAX_TURNS {
            return Err(Error::usage(
                "--max-turns is not taken with --battle: battles play to their mode's cap (or a battle scenario's max_turns)",
            ));
        }
    }
    let scenario = match &src.scenario {
        Some(s) => Some(scenario_parts::<R>(cat, s)?),
        None => None,
    };
    let (grid, point_weights, options, config, scenario_name) = match &scenario {
        Some(ScenarioParts { scenario: s, grid, .. }) => (
            no_envelope::<R>(setting, grid.clone())?,
            Vec::new(),
            s.rule_options::<R>().map_err(Error::usage)?,
            req.run.config_over(s.seed, s.trials)?,
            Some(s.name.clone()),
        ),
        None => {
            let (points, weights) = envelope_points::<R>(setting)?;
            (points, weights, setting.options::<R>()?, req.run.config()?, None)
        }
    };
    let sides = if req.battle {
        let forces = req.sides.iter().map(|f| resolve_force::<R>(cat, f)).collect::<Result<Vec<_>>>()?;
        let field = battle_field::<R>(cat, &req.field, "--field")?;
        let given = super::battle::checked_mode::<R>(req.mode.as_deref(), "--battle-mode")?;
        let default_mode = || R::BATTLE_MODES[0].name.to_string();
        let battle = scenario.as_ref().and_then(|p| match (&p.scenario.battle, p.scenario.engagement) {
            (Some(b), Engagement::Battle) => Some(b),
            _ => None,
        });
        match battle {
            Some(b) => GauntletSides::Battles {
                forces,
                field,
                mode: given.clone().unwrap_or_else(|| b.mode.clone()),
                policy: req.run.policy.clone().or_else(|| b.policy.clone()),
                max_turns: b.max_turns,
            },
            None => GauntletSides::Battles {
                forces,
                field,
                mode: given.unwrap_or_else(default_mode),
                policy: req.run.policy.clone(),
                max_turns: None,
            },
        }
    } else {
        let builds = resolve_sides::<R>(cat, Role::Opponent, &req.sides)?;
        let field = resolve_field::<R>(cat, &req.field)?;
        let (policy, max_turns) = match &scenario {
            Some(p) => (p.scenario.policy.parse::<R::Policy>().map_err(Error::usage)?, p.scenario.max_turns),
            None => (req.run.policy::<R>()?, req.run.max_turns),
        };
        GauntletSides::Duels { builds, field, policy, max_turns }
    };
    if req.battle {
        super::battle::check_battle_points::<R>(&grid)?;
    }
    Ok(GauntletPlan { sides, grid, point_weights, options, config, scenario_name })
}

impl<R: Ruleset> GauntletPlan<R> {
    /// Play the gauntlet with the tallies of `plays` (every stream, a shard's share, or
    /// the merged shards).
    ///
    /// # Errors
    /// (failure) Cells the ruleset refuses, or a cancelled run.
    pub fn run(&self, cat: &R::Catalogue, observer: &dyn Observer, plays: &Plays<'_>) -> Result<GauntletOutput> {
        let (grid, options, config) = (&self.grid, &self.options, &self.config);
        let weights = &self.point_weights;
        Ok(match &self.sides {
            GauntletSides::Duels { builds, field, policy, max_turns } => run_gauntlet::<R>(
                cat, builds, field, grid, weights, options, *policy, *max_turns, config, observer, plays,
            )?,
            GauntletSides::Battles { forces, field, mode, policy, max_turns } => {
                let rules = BattleTerms { mode, policy: policy.as_deref(), max_turns: *max_turns };
                run_battle_gauntlet::<R>(cat, forces, field, grid, weights, options, rules, config, observer, plays)?
            }
        })
    }
}
