//! `meta`: play every player against every other (a gauntlet of the players against
//! themselves) and solve the tournament ([`crate::sweep::meta`]).

use crate::engine::Observer;
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use crate::sweep::meta::{Meta, MetaSettings, solve_meta};
use crate::sweep::shard::Plays;

use super::gauntlet::{self, GauntletPlan, GauntletRequest, GauntletSides};
use super::setting::{RunRequest, Setting};
use super::sides::Sources;

/// The most players a meta takes: the matrix grows with their square.
pub const MAX_PLAYERS: usize = 400;

/// A meta as the command line asks for it.
#[derive(Debug, Clone)]
pub struct MetaRequest {
    /// Names or selectors of the players (forces with `battle`).
    pub players: Vec<String>,
    pub battle: bool,
    /// Battles: the mode; `None` = the scenario's, else the ruleset's first.
    pub mode: Option<String>,
    pub run: RunRequest,
    /// Bootstrap replicates for the shares' intervals.
    pub bootstrap: u32,
    /// Replicator generations.
    pub generations: u32,
    /// The replicator's starting weights, one per player in the order resolved; `None`
    /// = uniform.
    pub start: Option<Vec<f64>>,
}

/// Resolve a meta: the players (as a gauntlet's sides, and again as its field with equal
/// weights), the grid, options and trials as `gauntlet` resolves them.
///
/// # Errors
/// (usage) What [`gauntlet::plan`] refuses, fewer than two players, a player named twice,
/// more than [`MAX_PLAYERS`], or starting weights that do not match the players.
pub fn plan<R: Ruleset>(setting: &Setting, req: &MetaRequest, src: &Sources<R::Catalogue>) -> Result<GauntletPlan<R>> {
    let first = req.players.first().ok_or_else(|| Error::usage("name at least two players"))?;
    if let Some(e) = setting.envelope::<R>()? {
        return Err(Error::usage(format!(
            "--range {}: a meta plays one range (a matchup's score pools its conditions' plays); give one range",
            e.ranges.join(",")
        )));
    }
    for (i, n) in req.players.iter().enumerate() {
        if req.players[..i].contains(n) {
            return Err(Error::usage(format!("{n} is named twice: each player once")));
        }
    }
    // The field is replaced by the players below; the first player stands in for it so
    // that the gauntlet resolves it as it resolves a side.
    let g = GauntletRequest {
        sides: req.players.clone(),
        field: first.clone(),
        battle: req.battle,
        mode: req.mode.clone(),
        run: req.run.clone(),
    };
    let mut plan = gauntlet::plan::<R>(setting, &g, src)?;
    let names: Vec<String> = match &mut plan.sides {
        GauntletSides::Duels { builds, field, .. } => {
            *field = builds.iter().map(|b| (b.clone(), 1.0)).collect();
            builds.clone()
        }
        GauntletSides::Battles { forces, field, .. } => {
            *field = forces.iter().map(|f| (f.clone(), 1.0)).collect();
            forces.iter().map(|f| f.name.clone()).collect()
        }
    };
    if names.len() < 2 {
        return Err(Error::usage(format!("a meta needs at least two players; {} resolved", names.len())));
    }
    if names.len() > MAX_PLAYERS {
        return Err(Error::usage(format!(
            "{} players is more than a meta takes ({MAX_PLAYERS}): the matchups grow with the square",
            names.len()
        )));
    }
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(Error::usage(format!(
                "{n} is named twice (as itself and through a selector): each player once"
            )));
        }
    }
    if let Some(w) = &req.start
        && w.len() != names.len()
    {
        return Err(Error::usage(format!(
            "--start gives {} weights for {} players ({})",
            w.len(),
            names.len(),
            names.join(", ")
        )));
    }
    Ok(plan)
}

/// Play a planned meta and solve it.
///
/// # Errors
/// (failure) Cells the ruleset refuses, a cancelled run, or an equilibrium that fails.
pub fn run<R: Ruleset>(
    plan: &GauntletPlan<R>,
    req: &MetaRequest,
    cat: &R::Catalogue,
    observer: &dyn Observer,
) -> Result<Meta> {
    let out = plan.run(cat, observer, &Plays::all())?;
    let settings = MetaSettings {
        bootstrap: req.bootstrap,
        seed: plan.config.seed,
        generations: req.generations,
        start: req.start.clone(),
    };
    Ok(solve_meta(&out.sides, &out.rows, &settings)?)
}
