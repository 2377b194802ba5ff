//! Forces resolved into unit slots: each unit's attacker and target profiles and the
//! battle facts the rules read (kind, AC, points, command, crew, smoke rounds, rally).

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::MAX_UNITS;
use crate::rules::techcommander::catalogue::gear::RepairProfile;
use crate::rules::techcommander::catalogue::{Build, Catalogue, UnitKind};
use crate::rules::techcommander::compiled::MAX_SYSTEMS;
use crate::rules::techcommander::edition;
use crate::rules::techcommander::options::{CrewSurvivors, Options};
use crate::rules::techcommander::profile::{Attacker, Target};

/// One unit slot of a battle.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleUnit {
    pub side: usize,
    /// Build name (escaped crew: `crew of NAME`).
    pub name: String,
    pub kind: UnitKind,
    pub ac: u32,
    pub points: f64,
    /// Points in thousandths (engine outcomes count points in integers).
    pub points_milli: u64,
    /// Extra player actions per turn (`command`).
    pub command: u32,
    /// Standard crew rolling to escape when the unit is removed.
    pub crew: u32,
    /// Smoke rounds (smoke gear's rounds).
    pub smoke_rounds: u32,
    /// ECBS power armour: back to 20 life at Reset.
    pub power_armor: bool,
    /// Inches per full move (the card's `speed`): a scan reaches this far (§2.4
    /// "Scanning").
    pub speed: u32,
    /// A troop or crew unit carrying infiltration gear (§2.4 "infiltrate").
    pub infiltrator: bool,
    /// Scan bonus of its gear (added to the scan number 12).
    pub scan_bonus: i32,
    /// A troop or crew unit with the USSC *MSV Warfare Badge*, under `EDITION=2` with
    /// `FACTION_TRAINING`: may repair a friendly MSV ([`super::repair`]).
    pub badge: bool,
    /// The profile of its first repair gear, under `REPAIR`: may repair a friend like an
    /// attack action ([`super::repair`]).
    pub repair: Option<RepairProfile>,
    /// Member of its side's rallied group (`RALLY_AT_DEPLOY`, troops and crew).
    pub rallied: bool,
    /// An escaped-crew slot (`CREW_SURVIVORS=fight`): off the field until its parent's
    /// crew escape; standard crew never score.
    pub crew_of: Option<usize>,
    /// The carrier's slot for a passenger deployed aboard it (§2.4 Offload, §2.5).
    pub carrier: Option<usize>,
    pub attacker: Attacker,
    pub target: Target,
    /// The unit as a target while its defensive gear is offline (after its Omega
    /// Override, for the rest of the turn): the card's own reduction and fire-control
    /// negation only. Equal to `target` for a unit without such gear.
    pub offline_target: Target,
}

/// Resolve `forces` (one per side) against the catalogue.
///
/// Each copy of a carrier is followed by its escaped-crew slots (if any), then its
/// passengers, each a unit of the force that costs its own points and starts aboard.
///
/// # Errors
/// An unknown build; a force over its budget (its own `budget`, else `FORCE_BUDGET`),
/// naming the force and the excess; more than [`MAX_UNITS`] unit slots, or a build with
/// more than [`MAX_SYSTEMS`] weapon systems; passengers aboard a unit that is not an MSV
/// or a vehicle, or passengers that are not troops or crew.
pub fn resolve(
    cat: &Catalogue,
    forces: &[ForceSpec],
    o: &Options,
    check_budget: bool,
) -> Result<Vec<BattleUnit>, String> {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    for (side, force) in forces.iter().enumerate() {
        let mut total = 0.0;
        for m in &force.members {
            let Some(build) = find(cat, &force.name, &m.build, &mut errors) else {
                continue;
            };
            let unit = cat.unit_of(build);
            if !m.passengers.is_empty() && !unit.kind.carries() {
                errors.push(format!(
                    "force `{}`: `{}` is a {}: only an MSV or a vehicle carries passengers",
                    force.name, m.build, unit.kind
                ));
                continue;
            }
            let mut riders = Vec::new();
            for p in &m.passengers {
                let Some(rider) = find(cat, &force.name, &p.build, &mut errors) else {
                    continue;
                };
                let kind = cat.unit_of(rider).kind;
                if !kind.rides() {
                    errors.push(format!(
                        "force `{}`: `{}` is a {kind}: only troops and crew ride aboard a carrier",
                        force.name, p.build
                    ));
                    continue;
                }
                riders.push((rider, p.count));
            }
            for _ in 0..m.count {
                total += build.points;
                let index = units.len();
                units.push(battle_unit(cat, build, side, o));
                if o.crew_survivors == CrewSurvivors::Fight && matches!(unit.kind, UnitKind::Msv | UnitKind::Vehicle) {
                    for _ in 0..unit.crew {
                        units.push(escaped_crew(side, &build.name, index));
                    }
                }
                for &(rider, count) in &riders {
                    for _ in 0..count {
                        total += rider.points;
                        let mut p = battle_unit(cat, rider, side, o);
                        p.carrier = Some(index);
                        units.push(p);
                    }
                }
            }
        }
        let budget = force.budget.unwrap_or(o.force_budget as f64);
        if check_budget && total > budget + 1e-9 {
            errors.push(format!(
                "force `{}` costs {} points, over its budget of {} by {}",
                force.name,
                trim(total),
                trim(budget),
                trim(total - budget)
            ));
        }
    }
    if units.len() > MAX_UNITS {
        errors.push(format!("the battle has {} unit slots; at most {MAX_UNITS}", units.len()));
    }
    if errors.is_empty() { Ok(units) } else { Err(errors.join("\n")) }
}

/// The build `name` of force `force`, or an error naming both (with the nearest name).
/// A build with more than [`MAX_SYSTEMS`] weapon systems is refused too.
fn find<'c>(cat: &'c Catalogue, force: &str, name: &str, errors: &mut Vec<String>) -> Option<&'c Build> {
    let build = cat.build(name);
    if let Some(b) = build
        && b.systems.len() > MAX_SYSTEMS
    {
        errors.push(format!("build `{}` has more than {MAX_SYSTEMS} weapon systems", b.name));
        return None;
    }
    if build.is_none() {
        let names = cat.builds.iter().map(|b| b.name.as_str());
        errors.push(format!(
            "force `{force}`: no build named `{name}` in the {}{}",
            cat.origin,
            crate::catalogue::error::did_you_mean(name, names)
        ));
    }
    build
}

/// A unit slot of `side` playing `build`.
pub fn battle_unit(cat: &Catalogue, build: &Build, side: usize, o: &Options) -> BattleUnit {
    let unit = cat.unit_of(build);
    let smoke_rounds = build.gear.iter().map(|&g| &cat.gear[g]).filter(|g| g.smoke).map(|g| g.rounds.max(1)).sum();
    BattleUnit {
        side,
        name: build.name.clone(),
        kind: unit.kind,
        ac: unit.ac,
        points: build.points,
        points_milli: (build.points * 1000.0).round() as u64,
        command: unit.command,
        crew: unit.crew,
        smoke_rounds,
        power_armor: unit.power_armor,
        speed: unit.speed,
        infiltrator: unit.kind.rides() && build.gear.iter().any(|&g| cat.gear[g].infiltration),
        scan_bonus: build.gear.iter().map(|&g| cat.gear[g].scan_bonus).sum(),
        badge: unit.kind.rides()
            && crate::rules::techcommander::edition::faction_training(o)
            && unit.has_ability(crate::rules::techcommander::rulings::MSV_WARFARE_BADGE_ABILITY),
        repair: if o.repair { build.gear.iter().find_map(|&g| cat.gear[g].repair) } else { None },
        rallied: o.rally_at_deploy && matches!(unit.kind, UnitKind::Troop | UnitKind::Crew),
        crew_of: None,
        carrier: None,
        attacker: Attacker::from_build(cat, build),
        target: Target::from_build(cat, build),
        offline_target: gear_offline(cat, build),
    }
}

/// `build` as a target with its gear offline: its unit card's effects only.
fn gear_offline(cat: &Catalogue, build: &Build) -> Target {
    let mut t = Target::from_build(cat, build);
    let card = Target::from_unit(cat.unit_of(build));
    t.damage_reduction = card.damage_reduction;
    t.negates_fire_control = card.negates_fire_control;
    t
}

/// Speed of an escaped crew unit (§2.5 `CREW_SURVIVORS=fight`: "speed 18").
const ESCAPED_CREW_SPEED: u32 = 18;

/// A standard crew member who escaped and stays to fight: AC1, 20 life, unarmed.
fn escaped_crew(side: usize, parent: &str, parent_index: usize) -> BattleUnit {
    let name = format!("crew of {parent}");
    let mut target = Target::generic(1);
    target.name = name.clone();
    target.kind = Some(UnitKind::Crew);
    BattleUnit {
        side,
        name: name.clone(),
        kind: UnitKind::Crew,
        ac: 1,
        points: 0.0,
        points_milli: 0,
        command: 0,
        crew: 0,
        smoke_rounds: 0,
        power_armor: false,
        speed: ESCAPED_CREW_SPEED,
        infiltrator: false,
        scan_bonus: 0,
        badge: false,
        repair: None,
        rallied: false,
        crew_of: Some(parent_index),
        carrier: None,
        attacker: Attacker::simple(&name, UnitKind::Crew, 1, Vec::new()),
        offline_target: target.clone(),
        target,
    }
}

/// A number as people write it: no trailing zeros.
fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Checks every resolved unit against the edition and its side's conditions: an AC2
/// MSV plays only under `EDITION=2` ([`edition::check_unit`]), and a side's `pop-and-shoot`
/// or `jump-assault` movement needs every unit of that side to have `Jump`
/// ([`Attacker::check_movement`]). `conditions[side]` are the conditions of `side`.
///
/// # Errors
/// Each distinct refusal, one a line.
pub fn check_units(
    cat: &Catalogue,
    units: &[BattleUnit],
    conditions: &[crate::rules::techcommander::conditions::Conditions],
    o: &Options,
) -> Result<(), String> {
    let mut errors: Vec<String> = Vec::new();
    for u in units.iter().filter(|u| u.crew_of.is_none()) {
        let unit_check = cat.build(&u.name).map_or(Ok(()), |b| edition::check_unit(cat.unit_of(b), o));
        for e in
            [unit_check, u.attacker.check_movement(conditions[u.side].movement)].into_iter().filter_map(Result::err)
        {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(errors.join("\n")) }
}
