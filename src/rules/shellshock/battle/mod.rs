//! Shellshock force against force at equal ECV (shellshock.md §5 "Force vs force at
//! equal ECV", §4 ECV) through the shared battle engine ([`crate::engine::battle`]): two
//! forces at equal ECV; each turn every gunner of every unit in the fight picks a target
//! by the policy and all fire simultaneously (a unit destroyed in turn t still fires in
//! turn t), then (Aftermath) and (Clean Up); the battle ends when a side has no unit
//! left, and is a draw at the turn cap.
//!
//! # Modules
//! - `force`: a `[[force]]` (or `Jagdpanther+3*Panzer IV` text) resolved into units and
//!   the two forces checked against their ECV budgets (`ECV_BUDGET`, `ECV_TOLERANCE`).
//! - `compiled`: per (shooter, enemy) pair the duel's compiled attack run (one per pair
//!   of cards and side), per unit its gunners and fresh card-free state.
//! - `game`: the rules ([`crate::engine::battle::BattleRules`]); its docs give the turn,
//!   the firing order, Ruling `LOST_SHOT` and the random draws.
//! - `target`: the targeting policies, one type each.
//!
//! # Shared with the duel
//! A gunner's shot is [`super::attack_run::AttackRun::step`], the step the duel and the
//! attack run play (one exact alias-table draw, or every die with `MC_SAMPLER = DICE`),
//! on the same card-free state (armour left on the facing hit, lines marked). A battle of
//! one unit a side is the duel, draw for draw (tests).
//!
//! # Policies ([`BATTLE_POLICIES`])
//! `most-damaged` (default), `highest-ecv`, `random` (see `target`).
//!
//! # Outcome
//! `actions` counts units that fired; `score` the enemy units destroyed and
//! `points_destroyed_milli` their ECV (thousandths); `lost` and `kills` per unit slot
//! (the kill goes to the unit whose gunner destroyed it). Shellshock fires
//! simultaneously: no side acts first, so the initiative split is null, as in its duels.
//!
//! # Conditions per side
//! `conditions[s]` is the setting of the shots side `s` fires (range, the facing of the
//! enemy it hits, hull down, point blank, immobile target, dice, gunnery), as in a duel.
//!
//! # Not played
//! The full chart model (`MODEL = FULL_CHART`: crew, weapon and locomotion losses
//! feeding later turns), a dodge chosen turn by turn (`DODGE = ALWAYS` has every unit
//! dodge every turn, `NEVER` none), initiative and movement, positions
//! (every enemy is at the conditions' range and facing), more than two sides.

pub mod compiled;
pub mod force;
pub mod game;
pub mod state;
pub mod target;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::catalogue::force::ForceSpec;
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattleTally};
use crate::rules::battle::{BattleInfo, BattleMode, UnitInfo};

use super::attack_run::MAX_TURNS_LIMIT;
use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::options::Options;

pub use compiled::{Forces, Slot};
pub use force::{Roster, check_pair, resolve};
pub use game::{Firefight, ListingOrder};
pub use state::FireState;
pub use target::{HighestEcv, MostDamaged, RandomTarget, Targeting};

/// The battles Shellshock plays.
pub const BATTLE_MODES: &[BattleMode] = &[BattleMode {
    name: "equal-ecv",
    help: "Two forces at equal ECV (ECV_BUDGET, ECV_TOLERANCE) fire simultaneously every turn, every gunner at a target by the policy, until one side has no unit left; a draw at BATTLE_MAX_TURNS (§5)",
    sides: (2, 2),
}];

/// The battle policies (targeting), the default first.
pub const BATTLE_POLICIES: &[&str] = &[MostDamaged::NAME, HighestEcv::NAME, RandomTarget::NAME];

/// A compiled battle: one monomorphic engine kernel per targeting policy, matched once
/// per call of [`Kernel::play`].
#[derive(Debug, Clone)]
pub enum ForceBattle {
    MostDamaged(Battle<Firefight<MostDamaged>, ListingOrder>),
    HighestEcv(Battle<Firefight<HighestEcv>, ListingOrder>),
    Random(Battle<Firefight<RandomTarget>, ListingOrder>),
}

impl ForceBattle {
    /// The compiled forces, whatever the policy.
    pub fn forces(&self) -> &Forces {
        match self {
            ForceBattle::MostDamaged(b) => &b.game.forces,
            ForceBattle::HighestEcv(b) => &b.game.forces,
            ForceBattle::Random(b) => &b.game.forces,
        }
    }
}

impl Kernel for ForceBattle {
    type Tally = BattleTally;

    fn new_tally(&self) -> BattleTally {
        match self {
            ForceBattle::MostDamaged(b) => b.tally(),
            ForceBattle::HighestEcv(b) => b.tally(),
            ForceBattle::Random(b) => b.tally(),
        }
    }

    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut BattleTally) {
        match self {
            ForceBattle::MostDamaged(b) => b.play_into(rng, trials, tally),
            ForceBattle::HighestEcv(b) => b.play_into(rng, trials, tally),
            ForceBattle::Random(b) => b.play_into(rng, trials, tally),
        }
    }
}

/// Compile a battle of two checked rosters.
///
/// # Errors
/// An unknown policy (naming the known ones), a turn cap outside
/// 1..=[`MAX_TURNS_LIMIT`], `MODEL = FULL_CHART`, options not played, and what
/// [`check_pair`] refuses.
pub fn compile(
    cat: &Catalogue,
    rosters: [&Roster; 2],
    conditions: [&Conditions; 2],
    options: &Options,
    policy: Option<&str>,
    max_turns: Option<u32>,
) -> Result<(ForceBattle, BattleInfo), String> {
    let policy = match policy.map(|p| p.trim().to_ascii_lowercase()) {
        None => BATTLE_POLICIES[0].to_string(),
        Some(p) if BATTLE_POLICIES.contains(&p.as_str()) => p,
        Some(p) => {
            return Err(format!(
                "unknown Shellshock battle policy `{p}`: expected one of {}",
                BATTLE_POLICIES.join(", ")
            ));
        }
    };
    let max_turns = max_turns.unwrap_or(options.battle_max_turns());
    if !(1..=MAX_TURNS_LIMIT).contains(&max_turns) {
        return Err(format!("max turns must be between 1 and {MAX_TURNS_LIMIT}, got {max_turns}"));
    }
    options.validate().map_err(|e| e.to_string())?;
    if options.full_chart() {
        return Err("Shellshock battles play the card-free model: MODEL=FULL_CHART is not played in battles yet".into());
    }
    check_pair(rosters[0], rosters[1], options)?;
    let forces = Forces::new(cat, rosters, conditions, options, max_turns)?;
    let info = BattleInfo {
        mode: BATTLE_MODES[0].name,
        policy: policy.clone(),
        max_turns,
        sides: rosters.iter().map(|r| (r.name.clone(), r.ecv)).collect(),
        units: forces
            .units
            .iter()
            .map(|u| UnitInfo { side: u.side as usize, name: u.name.clone(), points: u.ecv })
            .collect(),
        not_modelled: Vec::new(),
        played: Vec::new(),
    };
    let battle = match policy.as_str() {
        HighestEcv::NAME => {
            ForceBattle::HighestEcv(Battle { game: Firefight { forces, targeting: HighestEcv }, policy: ListingOrder })
        }
        RandomTarget::NAME => {
            ForceBattle::Random(Battle { game: Firefight { forces, targeting: RandomTarget }, policy: ListingOrder })
        }
        _ => ForceBattle::MostDamaged(Battle {
            game: Firefight { forces, targeting: MostDamaged },
            policy: ListingOrder,
        }),
    };
    Ok((battle, info))
}

/// Resolve and compile (the ruleset's `battle`).
///
/// # Errors
/// An unknown mode, not two forces, not one or two conditions, and what [`resolve`] and
/// [`compile`] refuse.
pub fn battle(
    cat: &Catalogue,
    mode: &str,
    forces: &[ForceSpec],
    conditions: &[Conditions],
    options: &Options,
    policy: Option<&str>,
    max_turns: Option<u32>,
) -> Result<(ForceBattle, BattleInfo), String> {
    if !BATTLE_MODES.iter().any(|m| m.name == mode) {
        return Err(format!("unknown Shellshock battle mode `{mode}`: expected {}", BATTLE_MODES[0].name));
    }
    let [a, b] = forces else {
        return Err(format!("a Shellshock battle takes 2 forces, got {}", forces.len()));
    };
    let conditions = match conditions {
        [c] => [c, c],
        [c, d] => [c, d],
        _ => return Err(format!("a Shellshock battle takes 1 or 2 settings (one per side), got {}", conditions.len())),
    };
    let ra = resolve(cat, a)?;
    let rb = resolve(cat, b)?;
    compile(cat, [&ra, &rb], conditions, options, policy, max_turns)
}

#[cfg(test)]
mod tests;
