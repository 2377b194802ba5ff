//! A compiled TechCommander battle, one monomorphic kernel per policy, and its setup.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::dig_in::dig_in_tables;
use super::dm_rules::{DM_BASE_ACTIONS, DmRules};
use super::game::TcGame;
use super::infiltration_facts::Infiltration;
use super::omega::Omega;
use super::policy::{BattlePolicyName, FocusLowest, Greedy, RandomLegal};
use super::specials::Specials;
use super::tables::{Tables, Value, deathmatch_value, offload_tables, skirmish_value};
use super::teams::Teams;

/// How a battle values targets (see [`Tables::new`]).
type ValueFn = fn(&super::units::BattleUnit, &super::units::BattleUnit, &Options) -> Value;
use super::units::{check_units, resolve};
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattleTally, MAX_SIDES};
use crate::rules::battle::{BattleInfo, BattleMode, BattleSetup, UnitInfo};
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::conditions::{AttackMode, Conditions};
use crate::rules::techcommander::options::Options;

/// The battles TechCommander plays.
pub const MODES: &[BattleMode] = &[
    BattleMode {
        name: "skirmish",
        help: "two forces under a budget, 4 actions a player plus command, elimination or AC score at the cap",
        sides: (2, 2),
    },
    BattleMode {
        name: "deathmatch",
        help: "free-for-all of 2 to 8 players from ordered spawn lists under a cap, 2 actions a player, points at DM_TURNS",
        sides: (2, MAX_SIDES),
    },
];

/// A compiled battle under one of the policies: `play` matches once per call, never
/// per action.
#[derive(Debug, Clone)]
pub enum TcBattle {
    Greedy(Battle<TcGame, Greedy>),
    FocusLowest(Battle<TcGame, FocusLowest>),
    Random(Battle<TcGame, RandomLegal>),
}

impl TcBattle {
    /// The skirmish rules the kernel plays.
    pub fn game(&self) -> &TcGame {
        match self {
            TcBattle::Greedy(b) => &b.game,
            TcBattle::FocusLowest(b) => &b.game,
            TcBattle::Random(b) => &b.game,
        }
    }
}

impl Kernel for TcBattle {
    type Tally = BattleTally;
    fn new_tally(&self) -> BattleTally {
        match self {
            TcBattle::Greedy(b) => b.tally(),
            TcBattle::FocusLowest(b) => b.tally(),
            TcBattle::Random(b) => b.tally(),
        }
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut BattleTally) {
        match self {
            TcBattle::Greedy(b) => b.play_into(rng, trials, tally),
            TcBattle::FocusLowest(b) => b.play_into(rng, trials, tally),
            TcBattle::Random(b) => b.play_into(rng, trials, tally),
        }
    }
}

/// Compile a battle.
///
/// # Errors
/// An unknown mode or policy, a side count other than the mode's, conditions that are
/// not a plain attack, options out of range, unknown builds, forces over budget, an AC2
/// MSV under the 3rd edition, pop-and-shoot or jump-assault for a side with a unit
/// without `Jump` ([`check_units`]).
pub fn compile(
    cat: &Catalogue,
    setup: &BattleSetup<'_, Conditions, Options>,
) -> Result<(TcBattle, BattleInfo), String> {
    compile_teams(cat, setup, None)
}

/// Compile a battle, a deathmatch of teams when `teams` gives each player's team label
/// ([`Teams::new`]; labels all different: the free-for-all).
///
/// # Errors
/// As [`compile`]; teams outside a deathmatch, a label per player missing, fewer than 2
/// teams.
pub fn compile_teams(
    cat: &Catalogue,
    setup: &BattleSetup<'_, Conditions, Options>,
    teams: Option<&[usize]>,
) -> Result<(TcBattle, BattleInfo), String> {
    let o = setup.options;
    o.validate()?;
    let mode = MODES.iter().find(|m| m.name.eq_ignore_ascii_case(setup.mode)).ok_or_else(|| {
        format!(
            "unknown battle mode `{}` for TechCommander: expected one of {}",
            setup.mode,
            MODES.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
        )
    })?;
    let n = setup.forces.len();
    if n < mode.sides.0 || n > mode.sides.1 {
        return Err(format!("a {} takes {} to {} forces, got {n}", mode.name, mode.sides.0, mode.sides.1));
    }
    if setup.conditions.len() != n {
        return Err(format!("{} forces but {} sets of conditions", n, setup.conditions.len()));
    }
    for c in setup.conditions {
        c.validate()?;
        crate::rules::techcommander::edition::check_conditions(c, o)?;
        if c.mode != AttackMode::Normal {
            return Err(format!("battle conditions take attack mode `normal`, got `{}`", c.mode.name()));
        }
    }
    let policy: BattlePolicyName = setup.policy.map(str::parse).transpose()?.unwrap_or_default();
    let deathmatch = mode.name == "deathmatch";
    let max_turns = setup.max_turns.unwrap_or(if deathmatch { o.dm_turns } else { o.skirmish_max_turns });
    if !(1..=crate::rules::techcommander::attack_run::MAX_TURNS_LIMIT).contains(&max_turns) {
        return Err(format!("max turns must be between 1 and 1000, got {max_turns}"));
    }
    let teams = match teams {
        None => None,
        Some(_) if !deathmatch => return Err(format!("a {} has no teams: teams play a deathmatch", mode.name)),
        Some(labels) if labels.len() != n => {
            return Err(format!("{n} players but {} team labels", labels.len()));
        }
        Some(labels) => Some(Teams::new(labels)?).filter(|t| !t.all_single()),
    };
    let mut dm = deathmatch.then(|| DmRules::new(o));
    let (units, value) = match &mut dm {
        Some(dm) => (dm.slots(cat, setup.forces)?, deathmatch_value as ValueFn),
        None => (resolve(cat, setup.forces, o, true)?, skirmish_value as ValueFn),
    };
    check_units(cat, &units, setup.conditions, o)?;
    let tables = Tables::new(&units, setup.conditions, o, value);
    let specials = Specials::new(&units, setup.conditions, o, value);
    let offload = offload_tables(&units, setup.conditions, o, value);
    let info = BattleInfo {
        mode: mode.name,
        policy: policy.name().to_string(),
        max_turns,
        sides: setup
            .forces
            .iter()
            .enumerate()
            .map(|(side, f)| {
                let points = match &dm {
                    // A deathmatch player fields its cap, not its spawn list.
                    Some(dm) => dm.start_cap as f64,
                    None => units.iter().filter(|u| u.side == side).map(|u| u.points).sum(),
                };
                (f.name.clone(), points)
            })
            .collect(),
        units: units.iter().map(|u| UnitInfo { side: u.side, name: u.name.clone(), points: u.points }).collect(),
        not_modelled: Vec::new(),
        played: shield_played(&units, o),
    };
    let mut game = TcGame::new(units, tables, o, max_turns, n);
    game.omega = Omega::new(&game.units, setup.conditions, &game.tables, o, value, game.jury_ok as f64);
    game.specials = specials;
    game.offload = offload;
    game.rally = super::rally_laws::Rally::new(&game.units, &game.tables, o, value);
    game.under_crewed = setup.conditions.iter().map(|c| c.under_crewed).collect();
    game.infiltration = Infiltration::new(&game.units, setup.conditions, o);
    game.dug_in_tables = dig_in_tables(&game.units, setup.conditions, o, value);
    game.repairs = super::repair::Repairs::new(&game.units, setup.conditions, o, value);
    game.attack_moves =
        game.units.iter().map(|u| super::dig_in::moves_position(setup.conditions[u.side].movement)).collect();
    if let Some(mut dm) = dm {
        game.base_actions = DM_BASE_ACTIONS;
        if let Some(teams) = teams {
            game.form_teams(&teams);
            dm.teams = Some(teams);
        }
        game.dm = Some(dm);
    }
    // Reads the groups (teams included), tables, specials, Omegas and offloads above.
    super::variant_tables::Variants::compile(&mut game, setup.conditions, value);
    // Reads the variants too.
    super::shield_tables::Shields::compile(&mut game, setup.conditions, value);
    // Last: reads every part set above.
    game.note_candidates();
    let kernel = match policy {
        BattlePolicyName::Greedy => TcBattle::Greedy(Battle { game, policy: Greedy }),
        BattlePolicyName::FocusLowest => TcBattle::FocusLowest(Battle { game, policy: FocusLowest }),
        BattlePolicyName::Random => TcBattle::Random(Battle { game, policy: RandomLegal }),
    };
    Ok((kernel, info))
}

/// One sentence per build that carries a bubble shield (under `BUBBLE_SHIELD`): what the
/// battle plays of it ([`super::shield`]; docs/battles.md "The bubble shield").
fn shield_played(units: &[super::units::BattleUnit], o: &Options) -> Vec<String> {
    let mut seen: Vec<(&str, u32)> = Vec::new();
    for u in units {
        let n = u.target.shields_played(o);
        if n > 0 && !seen.iter().any(|(name, _)| *name == u.name) {
            seen.push((&u.name, n));
        }
    }
    seen.into_iter()
        .map(|(name, n)| {
            let shields = if n == 1 { "1 bubble shield".to_string() } else { format!("{n} bubble shields") };
            format!(
                "`{name}` carries {shields} (BUBBLE_SHIELD): dropped when first shot at, it takes the shots at its \
                 carrier (AC5 targeted, AC1 damaged, overflow lost) until it falls or the carrier fires (a vehicle \
                 fires from outside and keeps it); back at 20 at Reset; it covers its carrier only"
            )
        })
        .collect()
}
