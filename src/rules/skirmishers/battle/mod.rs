//! Skirmishers squad fights (§4 "Squad fight at equal PV") through the shared battle
//! engine ([`crate::engine::battle`]): two rosters at equal PV, every enemy in every arc
//! (geometry abstracted), IGOUGO rounds of activations under reactive arc fire.
//!
//! # Modules
//! - `force`: a `[[squad]]` (or `2*Rifleman+Grenadier` text) resolved into troopers,
//!   fielded to `SQUAD_BUDGET` and checked for equal PV (`SQUAD_PV_TOLERANCE`).
//! - `compiled`: per unit its guns (arcs) and AP per column, per trooper kind the graph of
//!   its card under every enemy law, per (gun, target, firer column) the law fired.
//! - `blast`: thrown explosives and launchers (what a trooper can throw or fire, its
//!   cost and TN: `GRENADES`, `LAUNCHERS`, Ruling `LAUNCHER_READY`) and the squad
//!   fight's abstract geometry (Ruling `SQUAD_SPACING`).
//! - `throwing`: the throw-or-arc policy (`SQUAD_THROW`) and the blasts resolved at the
//!   end of a side's turn.
//! - `melee`: fists and bayonet at range 1 (`FISTS_AND_BAYONET`): the arc-or-melee plan.
//! - `morale`: morale checks (`MORALE`, off: an optional Advanced Combat rule).
//! - `game`: the rules ([`crate::engine::battle::BattleRules`]: round = turn, the two
//!   sides' turns as two phases, a step = one activation) and the activation policies.
//!   Its docs give the procedure and the random draws.
//!
//! # Options (every choice §4 leaves open)
//! `FIRST_SIDE` (random: one draw per battle; a, b), `VOLLEY` (off), `CREW_ARC_AP` (4),
//! `SQUAD_BUDGET` (0: forces as written), `SQUAD_PV_TOLERANCE` (10 percent),
//! `SQUAD_MAX_ROUNDS` (50, the cap unless `--max-turns` gives one), `SQUAD_CAP_RESULT`
//! (draw, as §4; or undecided), `GRENADES` (on: troopers throw their hand grenades and
//! thrown explosives), `SQUAD_THROW` (better: throw when the blast's expected kills beat
//! the arc's; always), `SQUAD_SPACING` (2 dots between neighbours of a side's line),
//! `FISTS_AND_BAYONET` (on: at range 1 a trooper may keep 5 AP for its bayonet or fists,
//! power armour for its fists), `LAUNCHERS` (on: launchers fired as the book's
//! explosives, module `blast`).
//! Ruling `SQUAD_POLICY`: widest arc, always fire, active
//! weapon = the first primary (then secondary) that reaches; power armour one arc per
//! primary that reaches, in weapon order.
//!
//! # Policies ([`BATTLE_POLICIES`])
//! Every attack targets the activating trooper (§4), so a side's one choice is which of
//! its troopers activates next: `roster` (default, Ruling `SQUAD_POLICY`),
//! `healthiest-first`, `random` (see [`Activation`]).
//!
//! # Outcome
//! `actions` counts activations; `score` and `points_destroyed_milli` the enemy troopers
//! put out and their PV; `lost` and `kills` per unit slot (troopers left per side = units
//! - losses). Ending: a side wins when the other has no trooper left in the fight; at the
//!   round cap `SQUAD_CAP_RESULT`. Rounds are engine turns.
//!
//! # Not played
//! Smoke and fire (an incendiary's burning dots), movement, cover per trooper
//! (conditions apply to every shot of a side), the combat knife drawn as an active
//! weapon (Ruling `KNIFE_NOT_DRAWN`, module `melee`).

pub mod arms;
pub mod blast;
pub mod compiled;
pub mod force;
pub mod game;
pub mod limits;
pub mod melee;
pub mod morale;
pub mod state;
pub mod throwing;

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::Battle;
use crate::rules::battle::{BattleInfo, BattleMode, UnitInfo};

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::options::Options;

pub use compiled::Fight;
pub use force::{Roster, check_pair, resolve, squads_as_forces};
pub use game::Activation;
pub use state::{FightGame, FightState};

/// The compiled battle the ruleset hands the runner.
pub type SquadFight = Battle<FightGame, Activation>;

/// Largest round cap.
pub const MAX_ROUNDS_LIMIT: u32 = 10_000;

/// The battles Skirmishers plays.
pub const BATTLE_MODES: &[BattleMode] = &[BattleMode {
    name: "squad-fight",
    help: "Two squads at equal PV (SQUAD_BUDGET, SQUAD_PV_TOLERANCE) fight IGOUGO rounds under reactive arc fire until one has no trooper left (§4 Squad fight)",
    sides: (2, 2),
}];

/// The battle policies, the default first.
pub const BATTLE_POLICIES: &[&str] = Activation::NAMES;

/// Compile a squad fight of two rosters.
///
/// # Errors
/// An unknown policy, a round cap outside 1..=[`MAX_ROUNDS_LIMIT`], `MOVEMENT_FIRE` on,
/// unequal PV, and what
/// [`Fight::new`] refuses.
pub fn compile(
    rosters: [&Roster; 2],
    conditions: [&Conditions; 2],
    options: &Options,
    policy: Option<&str>,
    max_rounds: Option<u32>,
) -> Result<(SquadFight, BattleInfo), String> {
    let policy = match policy {
        None => Activation::Roster,
        Some(p) => Activation::parse(p).ok_or_else(|| {
            format!("unknown Skirmishers battle policy `{p}`: expected one of {}", BATTLE_POLICIES.join(", "))
        })?,
    };
    let max_rounds = max_rounds.unwrap_or(options.int("SQUAD_MAX_ROUNDS") as u32);
    if !(1..=MAX_ROUNDS_LIMIT).contains(&max_rounds) {
        return Err(format!("max rounds must be between 1 and {MAX_ROUNDS_LIMIT}, got {max_rounds}"));
    }
    if options.on("MOVEMENT_FIRE") {
        return Err("squad fights do not play movement fire (MOVEMENT_FIRE=on): the troopers stand".into());
    }
    check_pair(rosters[0], rosters[1], options)?;
    let fight = Fight::new(rosters, conditions, options, max_rounds)?;
    let info = BattleInfo {
        mode: BATTLE_MODES[0].name,
        policy: policy.name().to_string(),
        max_turns: max_rounds,
        sides: rosters.iter().map(|r| (r.name.clone(), r.pv as f64)).collect(),
        units: fight
            .units
            .iter()
            .map(|u| UnitInfo { side: u.side as usize, name: u.name.clone(), points: u.pv as f64 })
            .collect(),
        not_modelled: Vec::new(),
        played: Vec::new(),
    };
    Ok((Battle { game: FightGame { fight }, policy }, info))
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
    max_rounds: Option<u32>,
) -> Result<(SquadFight, BattleInfo), String> {
    if !BATTLE_MODES.iter().any(|m| m.name == mode) {
        return Err(format!("unknown Skirmishers battle mode `{mode}`: expected squad-fight"));
    }
    let [a, b] = forces else {
        return Err(format!("a Skirmishers squad fight takes 2 forces, got {}", forces.len()));
    };
    let conditions = match conditions {
        [c] => [c, c],
        [c, d] => [c, d],
        _ => return Err(format!("a squad fight takes 1 or 2 settings (one per side), got {}", conditions.len())),
    };
    let budget = options.int("SQUAD_BUDGET") as u32;
    let ra = resolve(cat, a, budget)?;
    let rb = resolve(cat, b, budget)?;
    compile([&ra, &rb], conditions, options, policy, max_rounds)
}

#[cfg(test)]
mod tests;
