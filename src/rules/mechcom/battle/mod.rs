//! MECHCOM squad battles (§4 "Squad battle"): two forces fight a Deathmatch under the
//! duel rules, with roll-offs, alternating activations, Energy spent per activation,
//! and the target and action policies of §4, through the shared battle engine
//! ([`crate::engine::battle`]).
//!
//! # Modules
//! - `force`: a `[[force]]` entry (or `A+2*B` text) resolved into models, checked
//!   against its budget (1000 points unless the force names its own), one faction and
//!   `ACES_MERCS_UNIQUE`.
//! - `compiled`: everything the hot loop reads, precomputed: per (attacker, enemy) pair
//!   the duel's compiled side ([`crate::rules::mechcom::duel_side::Side`]: exact attack
//!   laws per view of the conditions, the `ACTION_POLICY` ranking), Ammo, activation
//!   order.
//! - `game`: the rules ([`crate::engine::battle::BattleRules`]): round = turn, one phase,
//!   a step = an activation. Its docs give the procedure and the random streams.
//! - `target`: the targeting rules (`TARGET_POLICY`), one type each.
//! - `policy`: which model activates next (`ACTIVATION_ORDER`).
//!
//! # Policies ([`BATTLE_POLICIES`])
//! Both activate each side's most expensive model first and attack with the weapon of
//! highest expected Integrity loss per ⚡ (the rules document's `ACTIVATION_ORDER` and
//! `ACTION_POLICY`); they differ in the target:
//! - `lowest-integrity` (default, §4 `TARGET_POLICY`): the enemy with the lowest
//!   remaining Integrity, ties to the highest cost: finish off the weakest.
//! - `focus-highest-cost`: the most expensive enemy, ties to the lowest remaining
//!   Integrity: take the most points first, whatever it costs to bring them down.
//!
//! # Outcome
//! `actions` counts activations; `score` and `points_destroyed_milli` are the points of
//! enemy models destroyed (thousandths in the latter); `lost` and `kills` per unit slot
//! (a model lost to its own Backfire or Burned credits no unit). Ending: a side wins
//! when it alone has models; a draw only when a death explosion takes the last two
//! models together; undecided after `MAX_ROUNDS`.
//!
//! # Conditions per side
//! `conditions[s]` is the setting of the shots side `s` fires: its situation (range,
//! cover, ...) applies to them; side `s`'s models start with `conditions[s]`'s
//! attacker conditions and the other side's target conditions.
//!
//! # Not played yet
//! Besides what the duel does not play: profiles (a force member is a mech or
//! `Mech+Pilot`), more than two sides, positions (every enemy is at the engagement's
//! range; within melee range a death explosion hits every living enemy and no friend).

pub mod compiled;
pub mod force;
pub mod game;
pub mod policy;
pub mod state;
pub mod target;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::catalogue::force::ForceSpec;
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattleTally};
use crate::rules::battle::{BattleInfo, BattleMode, UnitInfo};

use super::attack_run::MAX_ROUNDS_LIMIT;
use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::options::Options;
use super::report::Setting;

pub use compiled::{SideModels, Squads};
pub use force::{ForceModel, ResolvedForce, resolve_force};
pub use game::SquadGame;
pub use policy::MostExpensiveFirst;
pub use state::SquadState;
pub use target::{FocusHighestCost, LowestIntegrity, Targeting};

/// The battles MECHCOM plays.
pub const BATTLE_MODES: &[BattleMode] = &[BattleMode {
    name: "squad",
    help: "Two squads (1000 points unless a force names its budget) fight to the last model: roll-off, alternating activations, MAX_ROUNDS",
    sides: (2, 2),
}];

/// The battle policies, the default first (see the module docs).
pub const BATTLE_POLICIES: &[&str] = &[LowestIntegrity::NAME, FocusHighestCost::NAME];

/// A compiled squad battle: one monomorphic engine kernel per policy, matched once per
/// call of [`Kernel::play`].
#[derive(Debug, Clone)]
pub enum SquadBattle {
    LowestIntegrity(Battle<SquadGame<LowestIntegrity>, MostExpensiveFirst>),
    FocusHighestCost(Battle<SquadGame<FocusHighestCost>, MostExpensiveFirst>),
}

impl SquadBattle {
    /// The compiled rules, whatever the policy.
    pub fn squads(&self) -> &Squads {
        match self {
            SquadBattle::LowestIntegrity(b) => &b.game.squads,
            SquadBattle::FocusHighestCost(b) => &b.game.squads,
        }
    }
}

impl Kernel for SquadBattle {
    type Tally = BattleTally;

    fn new_tally(&self) -> BattleTally {
        match self {
            SquadBattle::LowestIntegrity(b) => b.tally(),
            SquadBattle::FocusHighestCost(b) => b.tally(),
        }
    }

    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut BattleTally) {
        match self {
            SquadBattle::LowestIntegrity(b) => b.play_into(rng, trials, tally),
            SquadBattle::FocusHighestCost(b) => b.play_into(rng, trials, tally),
        }
    }
}

/// Everything that sets up a squad battle, resolved.
#[derive(Debug, Clone)]
pub struct SquadSetup<'a> {
    /// One force per side (exactly two).
    pub forces: [&'a ResolvedForce; 2],
    /// One setting per side (module docs, "Conditions per side").
    pub settings: [&'a Setting; 2],
    pub options: &'a Options,
    /// One of [`BATTLE_POLICIES`]; `None` = the default.
    pub policy: Option<&'a str>,
    /// Round cap; `None` = `MAX_ROUNDS`.
    pub max_rounds: Option<u32>,
}

fn union(a: Conditions, b: Conditions) -> Conditions {
    b.iter().fold(a, Conditions::with)
}

/// Compile a squad battle of two resolved forces.
///
/// # Errors
/// An unknown policy (naming the known ones), a round cap outside
/// 1..=[`MAX_ROUNDS_LIMIT`], or what [`Squads::new`] refuses.
pub fn compile(setup: &SquadSetup<'_>) -> Result<(SquadBattle, BattleInfo), String> {
    let policy = match setup.policy.map(|p| p.trim().to_lowercase()) {
        None => BATTLE_POLICIES[0].to_string(),
        Some(p) if BATTLE_POLICIES.contains(&p.as_str()) => p,
        Some(p) => {
            return Err(format!("unknown MECHCOM battle policy `{p}`: expected one of {}", BATTLE_POLICIES.join(", ")));
        }
    };
    let max_rounds = setup.max_rounds.unwrap_or(setup.options.max_rounds);
    if !(1..=MAX_ROUNDS_LIMIT).contains(&max_rounds) {
        return Err(format!("max rounds must be between 1 and {MAX_ROUNDS_LIMIT}, got {max_rounds}"));
    }
    let models: Vec<Vec<ForceModel>> = (0..2)
        .map(|s| {
            let start = union(setup.settings[s].attacker, setup.settings[1 - s].target);
            setup.forces[s]
                .models
                .iter()
                .map(|m| ForceModel { model: m.model.clone().with_conditions(start), ..m.clone() })
                .collect()
        })
        .collect();
    let sides = [0, 1].map(|s| SideModels { models: &models[s], sit: setup.settings[s].sit });
    let squads = Squads::new(sides, setup.options, max_rounds)?;
    let info = BattleInfo {
        mode: BATTLE_MODES[0].name,
        policy: policy.clone(),
        max_turns: max_rounds,
        sides: setup.forces.iter().map(|f| (f.name.clone(), f.points as f64)).collect(),
        units: squads
            .units
            .iter()
            .map(|u| UnitInfo { side: u.side as usize, name: u.name.clone(), points: u.cost as f64 })
            .collect(),
        not_modelled: Vec::new(),
        played: Vec::new(),
    };
    let battle = if policy == FocusHighestCost::NAME {
        SquadBattle::FocusHighestCost(Battle { game: SquadGame::new(squads), policy: MostExpensiveFirst })
    } else {
        SquadBattle::LowestIntegrity(Battle { game: SquadGame::new(squads), policy: MostExpensiveFirst })
    };
    Ok((battle, info))
}

/// Resolve and compile: [`resolve_force`] for each force, then [`compile`].
///
/// # Errors
/// An unknown mode (naming `squad`), not exactly two forces, not one or two
/// settings, and what [`resolve_force`] and [`compile`] refuse.
pub fn battle(
    cat: &Catalogue,
    mode: &str,
    forces: &[ForceSpec],
    settings: &[Setting],
    options: &Options,
    policy: Option<&str>,
    max_rounds: Option<u32>,
) -> Result<(SquadBattle, BattleInfo), String> {
    if !BATTLE_MODES.iter().any(|m| m.name == mode) {
        return Err(format!("unknown MECHCOM battle mode `{mode}`: expected squad"));
    }
    let [a, b] = forces else {
        return Err(format!("a MECHCOM squad battle takes 2 forces, got {}", forces.len()));
    };
    let settings = match settings {
        [s] => [s, s],
        [s, t] => [s, t],
        _ => {
            return Err(format!("a MECHCOM squad battle takes 1 or 2 settings (one per side), got {}", settings.len()));
        }
    };
    let fa = resolve_force(cat, a, options)?;
    let fb = resolve_force(cat, b, options)?;
    compile(&SquadSetup { forces: [&fa, &fb], settings, options, policy, max_rounds })
}

#[cfg(test)]
mod tests;
