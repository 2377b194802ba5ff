//! TechCommander behind the ruleset boundary ([`crate::rules::Ruleset`]).

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Kind, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};
use crate::rules::kit::names;
use crate::rules::kit::select::{Prefix, Selector, forms};
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, OddsReport, Role, RuleOptions, Ruleset, Weighted,
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

impl Ruleset for TechCommander {
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
    type AttackRun = AttackRun;
    type Duel = Duel;
    type PairedRun = QuantilePair;
    type PairedDuel = PairedDuels;
    type Battle = super::battle::TcBattle;

    const BATTLE_MODES: &'static [crate::rules::battle::BattleMode] = super::battle::MODES;
    const BATTLE_POLICIES: &'static [&'static str] = super::battle::BattlePolicyName::NAMES;

    fn forces(cat: &Catalogue) -> Vec<crate::catalogue::force::ForceSpec> {
        cat.forces.clone()
    }

    fn battle(
        cat: &Catalogue,
        setup: &crate::rules::battle::BattleSetup<'_, Conditions, Options>,
    ) -> Result<(Self::Battle, crate::rules::battle::BattleInfo), String> {
        super::battle::compile(cat, setup)
    }

    fn team_battle(
        cat: &Catalogue,
        setup: &crate::rules::battle::BattleSetup<'_, Conditions, Options>,
        teams: &[usize],
    ) -> Result<(Self::Battle, crate::rules::battle::BattleInfo), String> {
        super::battle::compile_teams(cat, setup, Some(teams))
    }

    fn load(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(origin, files, read_errors)
    }

    fn refers_to_undefined(files: &[SourceFile]) -> bool {
        Catalogue::refers_to_undefined(files)
    }

    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        super::card::odds_card(cat, name, ranges, o)
    }

    fn origin(cat: &Catalogue) -> (&str, &str) {
        (&cat.origin, &cat.hash)
    }

    fn counts(cat: &Catalogue) -> String {
        format!(
            "{} weapons, {} units, {} gear, {} builds, {} fields, {} forces",
            cat.weapons.len(),
            cat.units.len(),
            cat.gear.len(),
            cat.builds.len(),
            cat.fields.len(),
            cat.forces.len()
        )
    }

    fn listings() -> &'static [&'static str] {
        listing::LISTINGS
    }

    fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        match what {
            "forces" => Ok(crate::rules::sides::forces_table::<Self>(cat)),
            _ => listing::listing(cat, what),
        }
    }

    fn select(cat: &Catalogue, role: Role, selector: &str) -> Result<Vec<String>, String> {
        match role {
            Role::Attacker | Role::Opponent => builds(cat, selector),
            Role::Target => {
                let spec = TargetSpec::parse(selector)?;
                let t = spec.resolve(cat)?;
                Ok(vec![match spec {
                    TargetSpec::Named(_) => t.name,
                    // the catalogue's spelling, as keys and tables print it
                    TargetSpec::Build(n) => TargetSpec::Build(cat.find_build(&n)?.name.clone()).to_string(),
                    TargetSpec::Ac(_) => spec.to_string(),
                }])
            }
        }
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|&(b, w)| Weighted { name: cat.builds[b].name.clone(), weight: w }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        match cat.build(name) {
            Some(b) => Ok(b.points),
            None => target(cat, name).map(|t| t.points),
        }
    }

    fn display_name(cat: &Catalogue, role: Role, name: &str) -> Result<String, String> {
        match role {
            Role::Target => target(cat, name).map(|t| t.name),
            _ => cat.find_build(name).map(|b| b.name.clone()),
        }
    }

    fn target_columns() -> Vec<(&'static str, Kind)> {
        vec![("target_ac", Kind::Int)]
    }

    fn target_cells(cat: &Catalogue, name: &str) -> Vec<Cell> {
        vec![target(cat, name).map_or(Cell::Null, |t| t.size_ac.into())]
    }

    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let c = Conditions {
            range: parse_range(p.get("range"))?,
            cover: p.get("cover").parse()?,
            smoke: p.get("smoke").parse()?,
            movement: p.get("movement").parse()?,
            statuses: p.get("status").parse()?,
            designated: p.get("designated") == "true",
            jury_rig_failed: p.get("jury_rig_failed") == "true",
            under_crewed: p.get("under_crewed") == "true",
            friendly_msv: p.get("friendly_msv") == "true",
            mode: p.get("mode").parse()?,
        };
        c.validate()?;
        Ok(c)
    }

    fn check_engagement(c: &Conditions) -> Result<(), String> {
        if c.mode == AttackMode::OmegaOverride || c.mode.is_special() {
            return Err(format!(
                "--mode {} is an odds-only mode (use `volley odds`); engagements fire one weapon system per action",
                c.mode
            ));
        }
        Ok(())
    }

    fn check_name(role: Role, name: &str) -> Result<(), String> {
        if role == Role::Target { TargetSpec::parse(name).map(|_| ()) } else { Ok(()) }
    }

    fn as_target(opponent: &str) -> String {
        TargetSpec::Build(opponent.to_string()).to_string()
    }

    fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
        edition::check_conditions(c, o)
    }

    fn describe(c: &Conditions) -> String {
        report::describe(c)
    }

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        if c.mode.is_special() {
            return super::special::special_report(&a, weapon, &engaged_target(cat, t, o)?, c, o);
        }
        report::odds_report(&a, weapon, &engaged_target(cat, t, o)?, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        AttackRun::new(&a, &engaged_target(cat, t, o)?, c, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        run.exact()
    }

    fn plan(cat: &Catalogue, a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        let Ok(a) = cat.find_build(a).map(|b| Attacker::from_build(cat, b)) else { return Vec::new() };
        run.plan.iter().map(|s| (u32::from(s.turn) + 1, a.systems[s.system as usize].weapon.name.clone())).collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<Duel, String> {
        edition::check_conditions(c, o)?;
        let (a, b) = (side(cat, a, o)?, side(cat, b, o)?);
        a.0.check_movement(c.movement)?;
        b.0.check_movement(c.movement)?;
        Duel::new((&a.0, &a.1), (&b.0, &b.1), c, o, policy, max_turns)
    }

    /// A weapon system with a shot at these conditions (range, line of sight, mode).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        let (attacker, defender) = (side(cat, a, o)?.0, side(cat, d, o)?.1);
        Ok(super::odds::all_odds(&attacker, &defender, c, o).iter().any(|r| r.no_shot().is_none()))
    }

    /// Every TechCommander duel has an exact solution (see [`Duel::exact`]).
    fn exact_duel(duel: &Duel) -> Option<ExactDuelOdds> {
        Some(duel.exact().odds())
    }

    fn exact_duel_outcomes(duel: &Duel) -> Option<[f64; 4]> {
        let e = duel.exact();
        Some([e.p_a_wins(), e.p_b_wins(), e.p_mutual_kill(), e.p_timeout])
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        paired_runs(&a, &b, metric)
    }

    fn paired_duel(a: Duel, b: Duel, metric: Metric) -> Result<PairedDuels, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(PairedDuels::new(a, b))
    }

    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "hit_probability",
            attacker_columns: report::hit_attacker_columns(),
            value_columns: report::hit_value_columns(),
        }]
    }

    fn detail_charts() -> Vec<DetailChart> {
        vec![DetailChart {
            name: "hit",
            table: "hit_probability",
            value: "p_hit",
            value_label: "Hit chance per shot",
            per: &["attacker", "weapon"],
            rows: "target",
            row_order: Some("target_ac"),
            row_order_label: "AC",
            x_axes: &["cover", "range"],
            panel_axis: Some("smoke"),
        }]
    }

    fn cost_charts() -> Vec<CostChart> {
        vec![
            CostChart {
                name: "cost-life-per-turn-per-point",
                column: "life_per_turn_per_point",
                weapons: false,
                title: "Expected life taken per {turn} (all attacks of {turn} 1), per point",
                value_label: "life per {turn} per point",
                finding: "Most life taken per {turn} per point (every attack of its {turn})",
                unit: "life per {turn} per point",
                note: None,
            },
            CostChart {
                name: "cost-weapon-life-per-ton",
                column: "life_per_ton",
                weapons: true,
                title: "Weapons: expected life taken per attack (at most one a {turn}), per ton",
                value_label: "life per attack per ton (limited rounds in brackets)",
                finding: "Weapons that dominate per ton (one attack a {turn} each; limited rounds in brackets)",
                unit: "life per attack per ton",
                note: Some(("rounds", "rounds")),
            },
        ]
    }

    fn detail_rows(
        _table: usize,
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<Vec<DetailRow>, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        Ok(report::hit_rows(&a, &engaged_target(cat, t, o)?, c, o))
    }

    fn cost_attacker_columns() -> Vec<(&'static str, Kind)> {
        report::cost_attacker_columns()
    }

    fn cost_value_columns() -> Vec<(&'static str, Kind)> {
        report::cost_value_columns()
    }

    fn cost_rows(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        run: &AttackRun,
    ) -> Result<Vec<CostRow>, String> {
        let b = cat.find_build(a)?;
        let attacker = attacker(cat, a, o)?;
        Ok(report::cost_rows(&attacker, b.weight, b.power, &engaged_target(cat, t, o)?, c, o, run))
    }
}

impl RuleOptions for Options {}
