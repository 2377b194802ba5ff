//! Skirmishers behind the ruleset boundary ([`crate::rules::Ruleset`]).

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
use super::battle::SquadFight;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::Conditions;
use super::duel::Duel;
use super::options::Options;
use super::plan::RunPolicy;
use super::report;
use super::tn::check_conditions;
use super::trooper::{Armour, Experience};
use crate::rules::kit::replay_paired::ReplayPaired;

/// The Skirmishers ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Skirmishers;

const ARMOURS: &[&str] = &["catalogue", "none", "basic", "standard", "heavy"];
const EXPERIENCES: &[&str] = &["catalogue", "green", "regular", "veteran", "elite"];

const AXES: [AxisSpec; 11] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 1, max: 1000 },
        default: "5",
        help: "Dots between firer and target (1 dot = 1 inch = 2.5 m): up to Short +0 TN, up to Long +2, beyond Long no attack; melee needs 1",
        duel_help: "Dots between the two troopers",
        label: "Range (dots)",
        unit: "dots",
    },
    AxisSpec {
        name: "obstructions",
        flag: "obstructions",
        kind: AxisKind::Integer { min: 0, max: 20 },
        default: "0",
        help: "Obstructions on the line of fire beyond the firer's adjacent dots (furniture, light vegetation, low wall, swamp, burning dot, intervening trooper): +1 TN each; none at range 1 (COVER_SKIPS_FIRER_ADJACENT); not for melee",
        duel_help: "",
        label: "Obstructions",
        unit: "obstructions",
    },
    AxisSpec {
        name: "smoke_dots",
        flag: "smoke-dots",
        kind: AxisKind::Integer { min: 0, max: 10 },
        default: "0",
        help: "Smoke dots on the line of fire: +3 TN each (SMOKE_REPLACES_COVER)",
        duel_help: "",
        label: "Smoke dots",
        unit: "dots",
    },
    AxisSpec {
        name: "attacker_prone",
        flag: "attacker-prone",
        kind: AxisKind::Switch,
        default: "false",
        help: "The firer is prone: -1 TN (throws cost double AP)",
        duel_help: "Both troopers fire prone: -1 TN",
        label: "Attacker prone",
        unit: "",
    },
    AxisSpec {
        name: "target_prone",
        flag: "target-prone",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is prone (or in a trench): +1 TN beyond 1 dot, -1 adjacent; never for explosives",
        duel_help: "Both troopers are prone targets",
        label: "Target prone",
        unit: "",
    },
    AxisSpec {
        name: "sneak_suit",
        flag: "sneak-suit",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target wears a sneak suit: +1 TN more at long range (SNEAK_SUIT_STACKS)",
        duel_help: "Both troopers wear sneak suits",
        label: "Sneak suit",
        unit: "",
    },
    AxisSpec {
        name: "armour",
        flag: "armour",
        kind: AxisKind::Choice(ARMOURS),
        default: "catalogue",
        help: "The target's armour instead of its card's: body armour none/basic/standard/heavy (2/4/6 cells, -1/-2/-3 AP), power armour basic/standard/heavy (4/6/8)",
        duel_help: "Both troopers' armour instead of their cards'",
        label: "Target armour",
        unit: "",
    },
    AxisSpec {
        name: "experience",
        flag: "experience",
        kind: AxisKind::Choice(EXPERIENCES),
        default: "catalogue",
        help: "Both sides' experience instead of their cards': green -1 AP, regular, veteran +1, elite +2",
        duel_help: "",
        label: "Experience",
        unit: "",
    },
    AxisSpec {
        name: "entangled",
        flag: "entangled",
        kind: AxisKind::Switch,
        default: "false",
        help: "The firer is entangled (barbed wire): +1 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "Both troopers are entangled: +1 TN (needs --option ADVANCED_TERRAIN=on)",
        label: "Entangled",
        unit: "",
    },
    AxisSpec {
        name: "tunnel",
        flag: "tunnel",
        kind: AxisKind::Switch,
        default: "false",
        help: "Tunnel combat (both inside a tunnel): +2 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "",
        label: "Tunnel combat",
        unit: "",
    },
    AxisSpec {
        name: "target_swimming",
        flag: "target-swimming",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is swimming: +1 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "Both troopers are swimming targets: +1 TN (needs --option ADVANCED_TERRAIN=on)",
        label: "Target swimming",
        unit: "",
    },
];

const FLAGS: [AxisSpec; 1] = [AxisSpec {
    name: "firer_hp",
    flag: "firer-hp",
    kind: AxisKind::Integer { min: -5, max: 12 },
    default: "12",
    help: "The firer's current HP (its Mods row adds to the TN; its AP row pays arcs and sets fists damage); 12 = fresh (basic tracks top at 10)",
    duel_help: "",
    label: "Firer HP",
    unit: "hp",
}];

fn trooper_of<'a>(cat: &'a Catalogue, name: &str) -> Result<&'a super::trooper::Trooper, String> {
    cat.trooper(name)
}
impl Game for Skirmishers {
    const NAME: &'static str = "skirmishers";
    const TITLE: &'static str = "Skirmishers v0.4 (War Department GM 1-1, 25 July 2025; illustrative troopers)";
    const LABEL: &'static str = "Skirmishers";
    const TURN: &'static str = "round";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = RunPolicy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;
    const COST_UNIT: &'static str = "PV";
    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Conditions;
    type Policy = RunPolicy;
}

impl RuleOptions for Options {}
