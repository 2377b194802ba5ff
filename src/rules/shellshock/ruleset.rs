//! Shellshock behind the ruleset boundary ([`crate::rules::Ruleset`]).

mod battles;
mod builds;
mod catalogue;
mod conditions;
mod engagements;
mod reports;

use std::fmt;
use std::str::FromStr;

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Column, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};

use crate::rules::quantile_pair::QuantilePair;
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, Game, OddsReport, Role, RuleOptions, Weighted,
};
use crate::stats::{ExactDuelOdds, ExactTtk, Metric};

use super::attack_run::AttackRun;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::{Conditions, Facing};
use super::duel::DuelKernel;
use super::gunner::{GunnerPlan, defence, plans};
use super::odds::{self, GunnerOdds};
use super::options::Options;
use super::roll::Dice;
use crate::rules::kit::replay_paired::ReplayPaired;

/// The Shellshock ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Shellshock;

/// How an attacker fires in engagements: every gunner rolls once a turn with every
/// weapon in range (§5: `ALL_WEAPONS_BEAR`). The only policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Policy;

impl Policy {
    pub const NAMES: &'static [&'static str] = &["all-gunners"];
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAMES[0])
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        if s.trim().eq_ignore_ascii_case(Self::NAMES[0]) {
            Ok(Policy)
        } else {
            Err(format!("unknown Shellshock policy `{s}`: expected {}", Self::NAMES[0]))
        }
    }
}

const DICE_CHOICES: &[&str] = &["card", "d10+d4", "d10+d6", "d10+d8", "2d10"];

const AXES: [AxisSpec; 7] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 0, max: 100_000 },
        default: "24",
        help: "Hexes between attacker and target: +1 TN per RANGE_STEP (12) full hexes; weapons fire up to their range",
        duel_help: "Hexes between the two units",
        label: "Range (hexes)",
        unit: "hexes",
    },
    AxisSpec {
        name: "facing",
        flag: "facing",
        kind: AxisKind::Choice(&Facing::NAMES),
        default: "front",
        help: "The target's section hit: front and rear use the Front/Rear DVs, side the Sides DVs; armour of that section",
        duel_help: "The section each unit presents to the other",
        label: "Facing hit",
        unit: "",
    },
    AxisSpec {
        name: "hull_down",
        flag: "hull-down",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is hull down: the range modifier is doubled",
        duel_help: "Both units are hull down",
        label: "Hull down",
        unit: "",
    },
    AxisSpec {
        name: "point_blank",
        flag: "point-blank",
        kind: AxisKind::Switch,
        default: "false",
        help: "Adjacent hexes: every DV but Missile and Physical is halved (POINT_BLANK_ROUND); range 1 always is point blank, range 0 when this is set",
        duel_help: "The units are adjacent",
        label: "Point blank",
        unit: "",
    },
    AxisSpec {
        name: "immobile",
        flag: "immobile",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is immobile: its DVs are 0 (stealth and range still count); any natural 5+ hits",
        duel_help: "Both units are immobile",
        label: "Immobile target",
        unit: "",
    },
    AxisSpec {
        name: "dice",
        flag: "dice",
        kind: AxisKind::Choice(DICE_CHOICES),
        default: "card",
        help: "To-hit dice of every gunner: the card's (by era), or a level of the ladder d10+d4, d10+d6, d10+d8, 2d10",
        duel_help: "To-hit dice of both units' gunners",
        label: "To-hit dice",
        unit: "",
    },
    AxisSpec {
        name: "gunnery",
        flag: "gunnery",
        kind: AxisKind::Integer { min: -10, max: 20 },
        default: "0",
        help: "Added to every gunner's Gunnery skill (the catalogue's skill, else SKILL_DEFAULT)",
        duel_help: "Added to every gunner's Gunnery skill on both sides",
        label: "Gunnery bonus",
        unit: "skill",
    },
];

fn unit<'a>(cat: &'a Catalogue, name: &str) -> Result<&'a super::unit::Unit, String> {
    cat.unit(name)
}

fn compile(cat: &Catalogue, a: &str, t: &str, c: &Conditions, o: &Options) -> Result<Vec<GunnerPlan>, String> {
    o.validate()?;
    Ok(plans(cat, unit(cat, a)?, unit(cat, t)?, c, o))
}
impl Game for Shellshock {
    const NAME: &'static str = "shellshock";
    const TITLE: &'static str = "Shellshock Combat System (1996-2016 battlefield rules; illustrative catalogue)";
    const LABEL: &'static str = "Shellshock";
    const TURN: &'static str = "turn";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = Policy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;
    const COST_UNIT: &'static str = "ECV";
    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Conditions;
    type Policy = Policy;
}

impl RuleOptions for Options {}
