//! TechCommander behind the ruleset boundary ([`crate::rules::Ruleset`]).

mod battles;
mod builds;
mod catalogue;
mod conditions;
mod engagements;
mod reports;

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Column, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};
use crate::rules::kit::names;
use crate::rules::kit::select::{Prefix, Selector, forms};
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, Game, OddsReport, Role, RuleOptions, Weighted,
};
use crate::stats::{ExactDuelOdds, ExactTtk, Metric};

use super::attack_run::AttackRun;
use super::catalogue::{Catalogue, SECTIONS, UnitKind};
use super::conditions::{AttackMode, Conditions, Cover, Movement, Smoke, Status};
use super::duel::Duel;
use super::edition;
use super::options::Options;
use super::paired::{PairedDuels, paired_runs};
use super::policy::Policy;
use super::profile::{Attacker, Target, TargetSpec};
use super::{listing, report};
use crate::rules::quantile_pair::QuantilePair;

/// The TechCommander ruleset.
#[derive(Debug, Clone, Copy)]
pub struct TechCommander;

/// The longest range accepted, in inches (beyond any table).
pub const MAX_RANGE: f64 = 100_000.0;

/// A range in inches, at least 0 and at most [`MAX_RANGE`].
///
/// # Errors
/// Text that is no number, a negative number, or one beyond [`MAX_RANGE`].
pub fn parse_range(text: &str) -> Result<f64, String> {
    let r: f64 =
        text.trim().parse().map_err(|_| "give the range as a number of inches, e.g. 12 or 26.5".to_string())?;
    if !r.is_finite() || r < 0.0 {
        return Err("the range is a distance in inches between attacker and target: a number of at least 0".into());
    }
    if r > MAX_RANGE {
        return Err(format!("a range is at most {MAX_RANGE} inches"));
    }
    Ok(r)
}

const AXES: [AxisSpec; 5] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Number { parse: parse_range },
        default: "12",
        help: "Range to the target in inches (at least 0); rounded up for range penalties and minimum range",
        duel_help: "Range between the two builds in inches (at least 0); rounded up for range penalties and minimum range",
        label: "Range (inches)",
        unit: "inches",
    },
    AxisSpec {
        name: "cover",
        flag: "cover",
        kind: AxisKind::Choice(Cover::NAMES),
        default: "none",
        help: "Cover of the target: minor -1, half -2, heavy -3, blocked = no shot (NLOS weapons -6)",
        duel_help: "Cover of both builds (each fires at the other in it): minor -1, half -2, heavy -3, blocked = no shot (NLOS weapons -6)",
        label: "Target cover",
        unit: "",
    },
    AxisSpec {
        name: "smoke",
        flag: "smoke",
        kind: AxisKind::Choice(Smoke::NAMES),
        default: "none",
        help: "Smoke on the line of fire: -6, or -3 when the target is laser designated",
        duel_help: "Smoke on the line of fire between the builds: -6, or -3 when the target is laser designated",
        label: "Smoke",
        unit: "",
    },
    AxisSpec {
        name: "movement",
        flag: "move",
        kind: AxisKind::Choice(Movement::NAMES),
        default: "stationary",
        help: "How the attacker moved: half -1, full -4 (vehicles -1 at any speed), pop-and-shoot -1, jump-assault -4, offload -1",
        duel_help: "How both builds moved: half -1, full -4 (vehicles -1 at any speed), pop-and-shoot -1, jump-assault -4, offload -1",
        label: "Attacker movement",
        unit: "",
    },
    AxisSpec {
        name: "status",
        flag: "status",
        kind: AxisKind::Set(Status::NAMES),
        default: "none",
        help: "Target status, repeatable: dug-in -2, hull-down -2 (vehicles), posted-up -2 (with cover), forest -2 (EDITION=2)",
        duel_help: "Status of both builds, repeatable: dug-in -2, hull-down -2 (vehicles), posted-up -2 (with cover), forest -2 (EDITION=2)",
        label: "Target status",
        unit: "",
    },
];

const FLAGS: [AxisSpec; 5] = [
    AxisSpec {
        name: "designated",
        flag: "designated",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is laser designated (missiles ignore cover; smoke is -3)",
        duel_help: "Both builds are laser designated (missiles ignore cover; smoke is -3)",
        label: "Designated",
        unit: "",
    },
    AxisSpec {
        name: "jury_rig_failed",
        flag: "jury-rig-failed",
        kind: AxisKind::Switch,
        default: "false",
        help: "The attacker is in the red and failed its jury-rig roll: no fire control",
        duel_help: "Both builds are in the red and failed their jury-rig rolls: no fire control",
        label: "Jury rig failed",
        unit: "",
    },
    AxisSpec {
        name: "under_crewed",
        flag: "under-crewed",
        kind: AxisKind::Switch,
        default: "false",
        help: "The attacker is under-crewed: no fire control and no second action",
        duel_help: "Both builds are under-crewed: no fire control and no second action",
        label: "Under-crewed",
        unit: "",
    },
    AxisSpec {
        name: "friendly_msv",
        flag: "friendly-msv",
        kind: AxisKind::Switch,
        default: "false",
        help: "A friendly MSV is on the field (2nd edition: Pirate Combined Arms +2 fire control)",
        duel_help: "Each build has a friendly MSV on the field (2nd edition: Pirate Combined Arms +2 fire control)",
        label: "Friendly MSV",
        unit: "",
    },
    AxisSpec {
        name: "mode",
        flag: "mode",
        kind: AxisKind::Choice(AttackMode::NAMES),
        default: "normal",
        help: "Attack action: normal, omega-override (MSV, all weapons, no positive modifiers), fire-for-effect (-4), fire-for-effect-blind (-8, NLOS); special attacks (odds only, adjacent within the attacker's speed): ram, death-from-above, overrun, trample",
        duel_help: "Attack action of both builds: normal, fire-for-effect (-4), fire-for-effect-blind (-8, NLOS)",
        label: "Attack mode",
        unit: "",
    },
];

/// The build `name` as an attacker in an engagement played by `o` (its unit checked
/// against the edition: [`edition::check_unit`]).
fn attacker(cat: &Catalogue, name: &str, o: &Options) -> Result<Attacker, String> {
    let b = cat.find_build(name)?;
    edition::check_unit(cat.unit_of(b), o)?;
    Ok(Attacker::from_build(cat, b))
}

/// The target a name gives: a unit, a build, or `ac:N`.
fn target(cat: &Catalogue, name: &str) -> Result<Target, String> {
    TargetSpec::parse(name)?.resolve(cat)
}

/// [`target`] in an engagement played by `o`: a catalogue unit or build is checked
/// against the edition ([`edition::check_unit`]).
fn engaged_target(cat: &Catalogue, name: &str, o: &Options) -> Result<Target, String> {
    let spec = TargetSpec::parse(name)?;
    let t = spec.resolve(cat)?;
    let unit = match &spec {
        TargetSpec::Ac(_) => None,
        TargetSpec::Build(n) => cat.find_build(n).ok().map(|b| cat.unit_of(b)),
        TargetSpec::Named(n) => cat.unit(n).or_else(|| cat.build(n).map(|b| cat.unit_of(b))),
    };
    if let Some(u) = unit {
        edition::check_unit(u, o)?;
    }
    Ok(t)
}

/// A build as a target of the other side of a duel played by `o`.
fn side(cat: &Catalogue, name: &str, o: &Options) -> Result<(Attacker, Target), String> {
    let b = cat.find_build(name)?;
    edition::check_unit(cat.unit_of(b), o)?;
    Ok((Attacker::from_build(cat, b), Target::from_build(cat, b)))
}

/// The selector prefixes of a TechCommander catalogue.
const SELECTORS: &[Prefix] =
    &[Prefix { word: "kind", selects: "the builds whose unit is of that kind (msv, vehicle, troop, crew, terrain)" }];

/// The builds a selector picks, in catalogue order, as the catalogue spells them.
fn builds(cat: &Catalogue, selector: &str) -> Result<Vec<String>, String> {
    let all = || cat.builds.iter();
    let nonempty = |v: Vec<String>, why: String| if v.is_empty() { Err(why) } else { Ok(v) };
    match Selector::parse(selector, SELECTORS) {
        Selector::All => nonempty(
            all().map(|b| b.name.clone()).collect(),
            format!("`all` selects no build: the {} has no builds", cat.origin),
        ),
        Selector::Prefixed { value, .. } => {
            let k = value.parse::<UnitKind>().map_err(|e| format!("`{}`: {e}", selector.trim()))?;
            nonempty(
                all().filter(|b| cat.unit_of(b).kind == k).map(|b| b.name.clone()).collect(),
                format!(
                    "`{}` selects no build: no build in the {} has a unit of kind {k}",
                    selector.trim(),
                    cat.origin
                ),
            )
        }
        Selector::Name(n) => cat.find_build(n).map(|b| vec![b.name.clone()]).map_err(|e| {
            if n.contains(':') { format!("{e}; a selector is {}", forms(SELECTORS, "or a build")) } else { e }
        }),
    }
}
impl Game for TechCommander {
    const NAME: &'static str = "techcommander";
    const TITLE: &'static str = "TechCommander (3rd edition; 2nd-edition rules as options)";
    const LABEL: &'static str = "TechCommander";
    const TURN: &'static str = "turn";
    const SECTIONS: Sections = SECTIONS;
    const POLICIES: &'static [&'static str] = Policy::NAMES;
    const SELECTORS: &'static [Prefix] = SELECTORS;
    const PAIRING: &'static str = "common random numbers: the same initiative and one shared uniform per action slot for A and B, mapped through each side's exact inverse CDF";
    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Conditions;
    type Policy = Policy;
}

impl RuleOptions for Options {}
