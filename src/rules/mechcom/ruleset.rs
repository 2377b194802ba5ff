//! MECHCOM behind the ruleset boundary ([`crate::rules::Ruleset`]).

mod battles;
mod builds;
mod catalogue;
mod conditions;
mod engagements;
mod reports;

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Column, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};
use crate::rules::battle::{BattleInfo, BattleMode, BattleSetup};
use crate::rules::quantile_pair::QuantilePair;
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, Game, OddsReport, Role, RuleOptions, Weighted,
};
use crate::stats::{ExactDuelOdds, ExactTtk, Metric};

use super::attack_run::AttackRun;
use super::battle::SquadBattle;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::{Condition, Conditions};
use super::duel_kernel::DuelKernel;
use super::exact_run::ExactRun;
use super::listing;
use super::mech::Model;
use super::options::Options;
use super::report::{self, Setting};
use super::run_policy::RunPolicy;
use super::situation::{Cover, Situation};
use crate::rules::kit::replay_paired::ReplayPaired;

/// The MECHCOM ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Mechcom;

/// Condition names as the command line and scenarios write them.
const CONDITIONS: &[&str] = &[
    "blinded",
    "burned",
    "corroded",
    "hacked",
    "immobilized",
    "invisible",
    "malfunctioning",
    "shocked",
    "stunned",
    "submerged",
    "tethered",
];
const COVERS: &[&str] = &["none", "half", "soft", "total"];

const AXES: [AxisSpec; 6] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 0, max: 100 },
        default: "2",
        help: "Hexes between attacker and target; within melee range (1) melee weapons attack and shooters are engaged",
        duel_help: "Hexes between the two mechs",
        label: "Range (hexes)",
        unit: "hexes",
    },
    AxisSpec {
        name: "cover",
        flag: "cover",
        kind: AxisKind::Choice(COVERS),
        default: "none",
        help: "Cover of the target: half +2 Stability, soft (forest, snow, swimming) +2, total = no shot (Artillery exempt)",
        duel_help: "Cover of both mechs: half +2 Stability, soft +2, total = no shot (Artillery exempt)",
        label: "Target cover",
        unit: "",
    },
    AxisSpec {
        name: "engaged",
        flag: "engaged",
        kind: AxisKind::Switch,
        default: "false",
        help: "The shooter is engaged (an enemy within melee range): +2 Stability (ENGAGED_STABILITY; not with Ultralight)",
        duel_help: "Both mechs are engaged: +2 Stability to shoot (not with Ultralight)",
        label: "Engaged",
        unit: "",
    },
    AxisSpec {
        name: "levels_above",
        flag: "levels-above",
        kind: AxisKind::Integer { min: -10, max: 10 },
        default: "0",
        help: "Levels the attacker stands above the target (negative: below): height modifiers of §1",
        duel_help: "",
        label: "Levels above the target",
        unit: "levels",
    },
    AxisSpec {
        name: "spot_tokens",
        flag: "spot-tokens",
        kind: AxisKind::Integer { min: 0, max: 20 },
        default: "0",
        help: "Spot tokens on the target: -1 Stability each consumed (Sniper, Artillery per SPOT_POLICY)",
        duel_help: "",
        label: "Spot tokens",
        unit: "tokens",
    },
    AxisSpec {
        name: "target_conditions",
        flag: "target-condition",
        kind: AxisKind::Set(CONDITIONS),
        default: "none",
        help: "A condition the target starts with, repeatable (burned, corroded, shocked, invisible, submerged, ...)",
        duel_help: "A condition B starts with, repeatable",
        label: "Target conditions",
        unit: "",
    },
];

const FLAGS: [AxisSpec; 3] = [
    AxisSpec {
        name: "attacker_conditions",
        flag: "attacker-condition",
        kind: AxisKind::Set(CONDITIONS),
        default: "none",
        help: "A condition the attacker starts with, repeatable (blinded, shocked, stunned, ...)",
        duel_help: "A condition A starts with, repeatable",
        label: "Attacker conditions",
        unit: "",
    },
    AxisSpec {
        name: "heavy_moved",
        flag: "heavy-moved",
        kind: AxisKind::Switch,
        default: "false",
        help: "The attacker moved this turn (Heavy weapons: +Stability per HEAVY_MOVED_STABILITY)",
        duel_help: "Both mechs moved this turn (Heavy weapons)",
        label: "Moved with Heavy weapons",
        unit: "",
    },
    AxisSpec {
        name: "barrage_dice",
        flag: "barrage-dice",
        kind: AxisKind::Integer { min: 0, max: 10 },
        default: "0",
        help: "Extra dice bought with Barrage (1 Energy each), for Barrage weapons",
        duel_help: "",
        label: "Barrage dice",
        unit: "dice",
    },
];

fn conditions_of(text: &str) -> Result<Conditions, String> {
    let list: Vec<Condition> =
        text.split('+').filter(|p| !p.is_empty() && *p != "none").map(str::parse).collect::<Result<_, _>>()?;
    Ok(Conditions::of(&list))
}

fn model(cat: &Catalogue, name: &str, c: Conditions) -> Result<Model, String> {
    Ok(cat.model_named(name)?.with_conditions(c))
}

/// The exact law in the shared vocabulary (rounds are MECHCOM's turns).
fn shared(e: ExactRun) -> ExactTtk {
    ExactTtk {
        kill_by_turn: e.kill_by_round,
        p_kill_by_turn: e.p_kill_by_round,
        kill_by_action: e.kill_by_attack,
        p_kill: e.p_kill,
        mean_turns: e.mean_rounds,
        mean_actions: e.mean_attacks,
    }
}
impl Game for Mechcom {
    const NAME: &'static str = "mechcom";
    const TITLE: &'static str = "MECHCOM (2024 rulebook; illustrative catalogue)";
    const LABEL: &'static str = "MECHCOM";
    const TURN: &'static str = "round";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = RunPolicy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;
    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Setting;
    type Policy = RunPolicy;
}

impl RuleOptions for Options {}
