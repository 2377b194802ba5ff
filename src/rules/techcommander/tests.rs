//! Every modifier and ruling of §2, one test each, plus the rulebook's worked example.
//! The rulings of §3-5 are in `turn_tests.rs`.

use crate::catalogue::source::SourceFile;
use crate::rules::techcommander::catalogue::{Catalogue, UnitKind, Weapon};

use super::conditions::*;
use super::odds::{RowShot, all_odds, system_odds};
use super::options::Options;
use super::profile::{Attacker, Target};
use super::target_number::{NoShot, hitting_faces, range_penalty, shot};

#[path = "turn_tests.rs"]
mod turns;

fn weapon(name: &str) -> Weapon {
    // the Devastator's card: 3 shots, FC +1, OPT 24, DROP 1 per 1, 8 damage
    Weapon { opt: 24, drop: 1, linkable: 2, weight: 5.0, power: 5.0, ..Weapon::simple(name, 3, 8, 1) }
}

fn attacker(kind: UnitKind, weapons: Vec<Weapon>) -> Attacker {
    Attacker::simple("A", kind, 4, weapons)
}

fn dwarf_alpha() -> Attacker {
    let mut a = attacker(UnitKind::Msv, vec![weapon("Devastator")]);
    a.to_hit_bonus = 1; // Wet Wire Jacks
    a.systems[0].copies = 2;
    a
}

fn stingray() -> Target {
    Target { kind: Some(UnitKind::Vehicle), name: "Stingray".into(), ..Target::generic(2) }
}

/// Target number of the attacker's first weapon.
fn tn(a: &Attacker, t: &Target, c: &Conditions) -> i32 {
    shot(a, &a.systems[0].weapon, t, c, &Options::default()).expect("a shot").target_number()
}

/// [`tn`] under the 2nd edition (`EDITION=2`: faction training applies).
fn tn2(a: &Attacker, t: &Target, c: &Conditions) -> i32 {
    let o = Options { edition: 2, ..Options::default() };
    shot(a, &a.systems[0].weapon, t, c, &o).expect("a shot").target_number()
}

#[test]
fn worked_example_needs_a_five() {
    let c = Conditions { range: 27.0, smoke: Smoke::Smoke, ..Conditions::default() };
    let s = shot(&dwarf_alpha(), &dwarf_alpha().systems[0].weapon, &stingray(), &c, &Options::default()).unwrap();
    let m = s.modifiers;
    assert_eq!((m.size, m.fire_control, m.attacker_bonus, m.movement, m.range, m.smoke), (2, 1, 1, 0, -3, -6));
    assert_eq!(s.target_number(), 5);
    let row = system_odds(&dwarf_alpha(), 0, &stingray(), &c, &Options::default());
    assert_eq!(row.shots, 6, "two linked Devastators roll six dice");
    assert_eq!(row.p_hit(), Some(0.25));
}

#[test]
fn size_bonus_is_capped_at_six() {
    let a = attacker(UnitKind::Msv, vec![weapon("G")]);
    let c = Conditions::at_range(0.0);
    assert_eq!(tn(&a, &Target::generic(6), &c), 10 + 6 + 1);
    assert_eq!(tn(&a, &Target::generic(10), &c), 10 + 6 + 1);
    assert_eq!(tn(&a, &Target::generic(1), &c), 10 + 1 + 1);
}

#[test]
fn size_and_damage_ac_are_separate() {
    // The bubble shield: targeted as AC5, damaged as AC1.
    let bubble = Target { damage_ac: 1, ..Target::generic(5) };
    let a = attacker(UnitKind::Msv, vec![weapon("G")]);
    let row = system_odds(&a, 0, &bubble, &Conditions::at_range(0.0), &Options::default());
    assert_eq!(row.target_number(), Some(16));
    assert_eq!(row.odds.life_lost.len(), 3 * 8 + 1, "damage divided by 1");
}

#[test]
fn fire_control_is_lost_to_gear_crew_jury_rig_and_omega() {
    let a = attacker(UnitKind::Msv, vec![weapon("G")]);
    let t = Target::generic(3);
    let base = Conditions::at_range(0.0);
    assert_eq!(tn(&a, &t, &base), 14);
    let ecm = Target { negates_fire_control: true, ..t.clone() };
    assert_eq!(tn(&a, &ecm, &base), 13);
    assert_eq!(tn(&a, &t, &Conditions { under_crewed: true, ..base }), 13);
    assert_eq!(tn(&a, &t, &Conditions { jury_rig_failed: true, ..base }), 13);
}

#[test]
fn faction_training_adds_fire_control() {
    let mut a = attacker(UnitKind::Msv, vec![weapon("G")]);
    a.wetwire = true;
    a.combined_arms = true;
    let t = Target::generic(3);
    let c = Conditions::at_range(0.0);
    // 2nd edition faction training
    assert_eq!(tn2(&a, &t, &c), 10 + 3 + 1 + 1);
    assert_eq!(tn2(&a, &t, &Conditions { friendly_msv: true, ..c }), 10 + 3 + 1 + 1 + 2);
    // lost with fire control
    assert_eq!(tn2(&a, &t, &Conditions { friendly_msv: true, jury_rig_failed: true, ..c }), 13);
    // the 3rd edition has none
    assert_eq!(tn(&a, &t, &Conditions { friendly_msv: true, ..c }), 10 + 3 + 1);
}

#[test]
fn movement_modifiers() {
    let msv = attacker(UnitKind::Msv, vec![weapon("G")]);
    let tank = attacker(UnitKind::Vehicle, vec![weapon("G")]);
    let t = Target::generic(3);
    let expect = [
        (Movement::Stationary, 0, 0),
        (Movement::Half, -1, -1),
        (Movement::Full, -4, -1),
        (Movement::AttackAndCover, 0, 0),
        (Movement::PopAndShoot, -1, -1),
        (Movement::JumpAssault, -4, -4),
        (Movement::Offload, -1, -1),
    ];
    for (movement, msv_mod, vehicle_mod) in expect {
        let c = Conditions { movement, ..Conditions::default() };
        assert_eq!(tn(&msv, &t, &c), 14 + msv_mod, "{movement} msv");
        assert_eq!(tn(&tank, &t, &c), 14 + vehicle_mod, "{movement} vehicle");
    }
}

#[test]
fn cover_bands_follow_the_cover_modifiers_section() {
    let a = attacker(UnitKind::Msv, vec![weapon("G")]);
    let t = Target::generic(3);
    for (cover, m) in [(Cover::None, 0), (Cover::Minor, -1), (Cover::Half, -2), (Cover::Heavy, -3)] {
        assert_eq!(tn(&a, &t, &Conditions { cover, ..Conditions::default() }), 14 + m, "{cover}");
    }
}

#[test]
fn blocked_needs_nlos_and_costs_six() {
    let mut mortar = weapon("Mortar");
    mortar.nlos = true;
    let a = attacker(UnitKind::Msv, vec![weapon("G"), mortar]);
    let t = Target::generic(3);
    let c = Conditions { cover: Cover::Blocked, ..Conditions::default() };
    assert_eq!(shot(&a, &a.systems[0].weapon, &t, &c, &Options::default()), Err(NoShot::Blocked));
    assert_eq!(shot(&a, &a.systems[1].weapon, &t, &c, &Options::default()).unwrap().target_number(), 14 - 6);
    let rows = all_odds(&a, &t, &c, &Options::default());
    assert_eq!(rows[0].shot, RowShot::NoShot(NoShot::Blocked));
    assert_eq!(rows[0].p_hit(), Some(0.0));
    assert_eq!(rows[0].odds.expected_life_loss, 0.0);
}

#[test]
fn range_penalty_rounds_up_twice() {
    let mut w = weapon("Blackout");
    w.drop_per = 2; // book: at 32 the Blackout takes -4 (OPT 24, -1 per 2)
    assert_eq!(range_penalty(&w, 32), 4);
    assert_eq!(range_penalty(&w, 25), 1, "a started step counts");
    assert_eq!(range_penalty(&w, 24), 0);
    let a = attacker(UnitKind::Msv, vec![w]);
    // range 31.2 rounds up to 32
    assert_eq!(tn(&a, &Target::generic(3), &Conditions::at_range(31.2)), 14 - 4);
}

#[test]
fn minimum_range_stops_line_of_sight_shots_only() {
    let mut w = weapon("Kabaaam");
    w.min = 6;
    let mut nlos = w.clone();
    nlos.nlos = true;
    let a = attacker(UnitKind::Msv, vec![w, nlos]);
    let t = Target::generic(3);
    let c = Conditions::at_range(5.0);
    assert_eq!(shot(&a, &a.systems[0].weapon, &t, &c, &Options::default()), Err(NoShot::UnderMinimum { min: 6 }));
    assert!(shot(&a, &a.systems[1].weapon, &t, &c, &Options::default()).is_ok());
    // 5.5 rounds up to 6: not under the minimum
    assert!(shot(&a, &a.systems[0].weapon, &t, &Conditions::at_range(5.5), &Options::default()).is_ok());
}

#[test]
fn smoke_designation_thermal_and_nlos() {
    let mut thermal = weapon("Thermal");
    thermal.ignores_smoke = true;
    let mut nlos = weapon("Mortar");
    nlos.nlos = true;
    let a = attacker(UnitKind::Msv, vec![weapon("G"), thermal, nlos]);
    let t = Target::generic(3);
    let smoke = Conditions { smoke: Smoke::Smoke, ..Conditions::default() };
    let designated = Conditions { smoke: Smoke::Designated, ..Conditions::default() };
    assert_eq!(tn(&a, &t, &smoke), 14 - 6);
    assert_eq!(tn(&a, &t, &designated), 14 - 3);
    assert_eq!(tn(&a, &t, &Conditions { designated: true, ..smoke }), 14 - 3);
    for i in [1, 2] {
        assert_eq!(
            shot(&a, &a.systems[i].weapon, &t, &smoke, &Options::default()).unwrap().target_number(),
            14,
            "system {i}"
        );
    }
    let mut seer = a.clone();
    seer.ignores_smoke = true; // SEER on the unit
    assert_eq!(tn(&seer, &t, &smoke), 14);
}

#[test]
fn designated_missiles_ignore_cover() {
    let mut missile = weapon("Missile");
    missile.missile = true;
    let a = attacker(UnitKind::Msv, vec![missile, weapon("Gun")]);
    let t = Target::generic(3);
    let c = Conditions { cover: Cover::Heavy, designated: true, ..Conditions::default() };
    assert_eq!(tn(&a, &t, &c), 14);
    assert_eq!(shot(&a, &a.systems[1].weapon, &t, &c, &Options::default()).unwrap().target_number(), 11);
    // without designation the missile takes cover
    assert_eq!(tn(&a, &t, &Conditions { designated: false, ..c }), 11);
}

#[test]
fn defender_statuses() {
    let a = attacker(UnitKind::Msv, vec![weapon("G")]);
    let tank = Target { kind: Some(UnitKind::Vehicle), ..Target::generic(3) };
    let mech = Target { kind: Some(UnitKind::Msv), ..Target::generic(3) };
    let st = |s: &str| Conditions { statuses: s.parse().unwrap(), ..Conditions::default() };
    assert_eq!(tn(&a, &tank, &st("dug-in")), 12);
    assert_eq!(tn2(&a, &Target { defense_masters: true, ..tank.clone() }, &st("dug-in")), 11);
    assert_eq!(tn(&a, &Target { defense_masters: true, ..tank.clone() }, &st("dug-in")), 12, "3rd edition");
    assert_eq!(tn(&a, &tank, &st("hull-down")), 12);
    assert_eq!(tn(&a, &mech, &st("hull-down")), 14, "an MSV cannot be hull down");
    // 3rd edition "Hull down (non-MSV or non-flying vehicle)": a VTOL cannot be either.
    let vtol = Target { aerial: true, ..tank.clone() };
    assert_eq!(tn(&a, &vtol, &st("hull-down")), 14, "an aerial vehicle cannot be hull down");
    let anywhere = Options { hull_down_only_vehicles: false, ..Options::default() };
    assert_eq!(
        shot(&a, &a.systems[0].weapon, &vtol, &st("hull-down"), &anywhere).unwrap().target_number(),
        12,
        "HULL_DOWN_ONLY_VEHICLES=false"
    );
    assert_eq!(tn(&a, &tank, &st("dug-in+hull-down+forest")), 8);
    assert_eq!(tn(&a, &tank, &st("forest")), 12);
    // posted up counts only with a cover modifier
    assert_eq!(tn(&a, &tank, &st("posted-up")), 14);
    let covered = Conditions { cover: Cover::Minor, ..st("posted-up") };
    assert_eq!(tn(&a, &tank, &covered), 14 - 1 - 2);
}

#[test]
fn omega_override_drops_positive_modifiers() {
    let mut a = attacker(UnitKind::Msv, vec![weapon("G"), weapon("H")]);
    a.to_hit_bonus = 1;
    let t = Target::generic(4);
    let c = Conditions { mode: AttackMode::OmegaOverride, range: 27.0, ..Conditions::default() };
    // 10 + 0 size + 0 FC + 0 bonus - 3 range
    assert_eq!(tn(&a, &t, &c), 7);
    let rows = all_odds(&a, &t, &c, &Options::default());
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[2].weapon, "Omega Override");
    assert_eq!(rows[2].shots, 6);
    assert_eq!(rows[2].p_hit(), None);
    assert!((rows[2].odds.expected_hits - 6.0 * 7.0 / 20.0).abs() < 1e-12);
    // only MSVs may, and never while moving
    let tank = attacker(UnitKind::Vehicle, vec![weapon("G")]);
    assert_eq!(shot(&tank, &tank.systems[0].weapon, &t, &c, &Options::default()), Err(NoShot::NotMsv));
    assert!(Conditions { movement: Movement::Half, ..c }.validate().is_err());
}

#[test]
fn fire_for_effect() {
    let mut mortar = weapon("Mortar");
    mortar.splash = 3;
    mortar.nlos = true;
    let mut gun = weapon("Gun");
    gun.splash = 2;
    let a = attacker(UnitKind::Msv, vec![mortar, gun, weapon("Rifle")]);
    let t = Target::generic(4);
    let ffe = Conditions { mode: AttackMode::FireForEffect, range: 26.0, cover: Cover::Heavy, ..Conditions::default() };
    // 10 + FC 1 - range 2 - 4, no size, no cover
    assert_eq!(tn(&a, &t, &ffe), 5);
    let blind = Conditions { mode: AttackMode::FireForEffectBlind, smoke: Smoke::Smoke, ..ffe };
    assert_eq!(tn(&a, &t, &blind), 10 + 1 - 2 - 8);
    assert_eq!(shot(&a, &a.systems[1].weapon, &t, &blind, &Options::default()), Err(NoShot::NeedsNlos));
    assert_eq!(shot(&a, &a.systems[2].weapon, &t, &ffe, &Options::default()), Err(NoShot::NotSplash));
}

#[test]
fn hit_chance_is_clamped_without_automatic_results() {
    assert_eq!(hitting_faces(-3, &Options::default()), 0);
    assert_eq!(hitting_faces(0, &Options::default()), 0);
    assert_eq!(hitting_faces(1, &Options::default()), 1);
    assert_eq!(hitting_faces(20, &Options::default()), 20);
    assert_eq!(hitting_faces(27, &Options::default()), 20);
}

#[test]
fn armor_piercing_ignores_reduction_up_to_its_level() {
    let mut ap = weapon("AP");
    ap.armor_piercing = 3;
    ap.fire_control = 20; // always hits
    let a = attacker(UnitKind::Msv, vec![ap]);
    let t = Target { damage_reduction: 4, ..Target::generic(1) };
    let row = system_odds(&a, 0, &t, &Conditions::default(), &Options::default());
    // 3 hits x 8 = 24, reduction 4 - 3 = 1: 23 life
    assert_eq!(row.odds.life_lost[23], 1.0);
    assert_eq!(row.odds.p_one_action_kill, 1.0);
}

#[test]
fn faction_abilities_are_read_from_the_catalogue_by_their_names() {
    // The catalogue names abilities as loadouts/techcommander/README.md documents them: `Wetwire`
    // (+1 fire control), `Combined Arms` (+2 fire control with a friendly MSV) and
    // `Defense Masters` (dug in is -3 instead of -2), in any letter case; they apply
    // under the 2nd edition.
    let text = r#"
[[weapon]]
name = "Gun"
damage = 8
shots = 3
fire_control = 1
opt = 24
weight = 5
power = 5

[[unit]]
name = "Syndicate"
kind = "msv"
ac = 4
free_weight = 10
free_power = 12
abilities = ["Wetwire", "Defense Masters"]

[[unit]]
name = "Pirate"
kind = "msv"
ac = 4
free_weight = 10
free_power = 12
abilities = ["combined arms"]

[[build]]
name = "Syndicate Gun"
unit = "Syndicate"
weapons = [{ name = "Gun", count = 1 }]

[[build]]
name = "Pirate Gun"
unit = "Pirate"
weapons = [{ name = "Gun", count = 1 }]
"#;
    let cat = Catalogue::from_sources("test", &[SourceFile { name: "c.toml".into(), text: text.into() }]).unwrap();
    let build = |n: &str| cat.build(n).unwrap();
    let (syndicate, pirate) = (build("Syndicate Gun"), build("Pirate Gun"));
    let (a_syn, a_pir) = (Attacker::from_build(&cat, syndicate), Attacker::from_build(&cat, pirate));
    let (t_syn, t_pir) = (Target::from_build(&cat, syndicate), Target::from_build(&cat, pirate));
    let c = Conditions::at_range(0.0);
    let msv = Conditions { friendly_msv: true, ..c };
    let dug_in = Conditions { statuses: "dug-in".parse().unwrap(), ..c };
    // 10 + 4 size + 1 FC + 1 Wetwire
    assert_eq!(tn2(&a_syn, &t_pir, &c), 16);
    // 10 + 4 + 1, and + 2 with a friendly MSV on the field
    assert_eq!(tn2(&a_pir, &t_syn, &c), 15);
    assert_eq!(tn2(&a_pir, &t_syn, &msv), 17);
    // dug in: -3 for the Defense Masters, -2 for the others
    assert_eq!(tn2(&a_pir, &t_syn, &dug_in), 15 - 3);
    assert_eq!(tn2(&a_syn, &t_pir, &dug_in), 16 - 2);
}
