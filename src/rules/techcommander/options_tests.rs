//! The options' text forms, and for EVERY option a test that switching it changes the
//! result it should change to the value the rules then imply (computed by hand in the
//! comments): exact hit odds, exact life lost, an exact time to kill, or a duel's
//! turn-one odds. With the defaults every expectation is today's published behaviour.

use super::*;
use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::rules::techcommander::attack_run::AttackRun;
use crate::rules::techcommander::catalogue::{UnitKind, Weapon};
use crate::rules::techcommander::conditions::{AttackMode, Conditions, Cover, Movement, Smoke};
use crate::rules::techcommander::duel::Duel;
use crate::rules::techcommander::odds::{all_odds, system_odds};
use crate::rules::techcommander::policy::Policy;
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::rules::techcommander::target_number::NoShot;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

#[test]
fn every_option_has_a_pair_and_round_trips() {
    let d = Options::default();
    let pairs = d.pairs();
    assert_eq!(pairs.len(), 92);
    assert_eq!(pairs[0], ("EDITION".to_string(), "3".to_string()));
    assert_eq!(pairs[4], ("NO_AUTOMATIC_HIT_OR_MISS".to_string(), "true".to_string()));
    assert!(d.canonical().contains(",COVER_BANDS=cover-modifiers,"), "{}", d.canonical());
    assert!(d.canonical().contains(",SMOKE_PENALTY=6,"));
    let mut o = Options::default();
    for (k, v) in &pairs {
        o.set(k, v).unwrap();
    }
    assert_eq!(o, d);
    o.set("smoke-penalty", "4").unwrap();
    assert_eq!(o.smoke_penalty, 4);
    o.set("COVER_BANDS", "how-to-attack").unwrap();
    assert_eq!(o.cover_bands, CoverBands::HowToAttack);
    assert_ne!(o.canonical(), d.canonical());
    assert!(o.set("SMOKE_PENALTIES", "4").unwrap_err().to_string().contains("did you mean SMOKE_PENALTY?"));
    assert!(o.set("SMOKE_PENALTY", "-1").is_err(), "penalties are magnitudes");
    assert!(o.set("JURY_RIG_PER_ACTION", "sometimes").is_err());
    assert!(o.set("COVER_BANDS", "bullets").is_err());
}

#[test]
fn specs_list_every_option_with_its_default_and_help() {
    let specs = <Options as crate::rules::RuleOptions>::specs();
    let pairs = Options::default().pairs();
    assert_eq!(specs.len(), pairs.len());
    assert_eq!(specs.len(), 92);
    for (s, (k, v)) in specs.iter().zip(&pairs) {
        assert_eq!((&s.name, &s.default), (k, v), "specs follow the declaration order");
        assert!(s.help.starts_with('§') && s.help.len() > 10, "{}: {}", s.name, s.help);
    }
}

#[test]
fn defaults_validate_and_out_of_range_values_are_named() {
    assert_eq!(Options::default().validate(), Ok(()));
    let o = Options { smoke_penalty: 101, jury_rig_success_max: 21, in_the_red_life: 20, ..Options::default() };
    let e = o.validate().unwrap_err().to_string();
    assert!(e.contains("SMOKE_PENALTY=101") && e.contains("JURY_RIG_SUCCESS_MAX=21"), "{e}");
    assert!(!e.contains("IN_THE_RED_LIFE"), "20 life is in range: {e}");
    let e = Options::default().with("EDITION", "4").unwrap_err().to_string();
    assert!(e.contains("EDITION: `4` is not a whole number from 2 to 3"), "{e}");
    let e = Options { edition: 4, ..Options::default() }.validate().unwrap_err().to_string();
    assert!(e.contains("EDITION=4 (a whole number from 2 to 3)"), "{e}");
    assert_eq!(Options::default().with("EDITION", "2").unwrap().validate(), Ok(()));
    // the constructors refuse them
    let a = Attacker::simple("A", UnitKind::Vehicle, 3, vec![gun()]);
    assert!(AttackRun::new(&a, &Target::generic(3), &Conditions::default(), &o, Policy::BestExpected, 5).is_err());
}

/// The Devastator-like gun: 3 shots, 8 damage, fire control +1, no range penalty.
fn gun() -> Weapon {
    Weapon::simple("Gun", 3, 8, 1)
}

fn nlos_mortar() -> Weapon {
    Weapon { nlos: true, min: 6, ..Weapon::simple("Mortar", 3, 8, 1) }
}

fn msv(w: Weapon) -> Attacker {
    Attacker::simple("MSV", UnitKind::Msv, 4, vec![w])
}

fn vehicle_target() -> Target {
    Target { kind: Some(UnitKind::Vehicle), ..Target::generic(3) }
}

fn cond(f: impl FnOnce(&mut Conditions)) -> Conditions {
    let mut c = Conditions::default();
    f(&mut c);
    c
}

/// Switching option `name` to `value` moves the first system's shot from `default` to
/// `switched` (a target number, or why there is no shot); the exact P(hit) follows as
/// clamp(T, 0, 20) / 20.
fn check(
    name: &str,
    value: &str,
    a: &Attacker,
    t: &Target,
    c: &Conditions,
    default: Result<i32, NoShot>,
    switched: Result<i32, NoShot>,
) {
    check_from(Options::default(), name, value, a, t, c, default, switched);
}

/// [`check`] from the options `base` instead of the defaults.
#[allow(clippy::too_many_arguments)]
fn check_from(
    base: Options,
    name: &str,
    value: &str,
    a: &Attacker,
    t: &Target,
    c: &Conditions,
    default: Result<i32, NoShot>,
    switched: Result<i32, NoShot>,
) {
    assert_ne!(default, switched, "{name}: a switch test must expect a change");
    let on = base.with(name, value).unwrap();
    for (o, expect) in [(base, default), (on, switched)] {
        let row = system_odds(a, 0, t, c, &o);
        let label = format!("{name}={}", o.pairs().into_iter().find(|(k, _)| k == name).unwrap().1);
        match expect {
            Ok(tn) => {
                assert_eq!(row.target_number(), Some(tn), "{label}");
                assert_eq!(row.p_hit(), Some(tn.clamp(0, 20) as f64 / 20.0), "{label}");
            }
            Err(no) => assert_eq!(row.no_shot(), Some(no), "{label}"),
        }
    }
}

// The base shot: an MSV's gun (FC +1) at a generic AC3 target at range 0:
// T = 10 + 3 size + 1 FC = 14.

#[test]
fn size_and_movement_penalties_are_options() {
    let (a, t) = (msv(gun()), Target::generic(3));
    // AC3 capped at 2: 10 + 2 + 1 = 13.
    check("SIZE_BONUS_CAP", "2", &a, &t, &Conditions::default(), Ok(14), Ok(13));
    let moved = |m| cond(|c| c.movement = m);
    // 14 - 1 = 13, -2: 12.
    check("HALF_MOVE_PENALTY", "2", &a, &t, &moved(Movement::Half), Ok(13), Ok(12));
    // 14 - 4 = 10, -5: 9.
    check("FULL_MOVE_PENALTY", "5", &a, &t, &moved(Movement::Full), Ok(10), Ok(9));
    // a vehicle (auto-stabilized) after a full move: 14 - 1 = 13, -2: 12.
    let tank = Attacker::simple("Tank", UnitKind::Vehicle, 4, vec![gun()]);
    check("AUTO_STABILIZED_MOVE_PENALTY", "2", &tank, &t, &moved(Movement::Full), Ok(13), Ok(12));
    // 14 - 1 = 13, -2: 12.
    check("POP_AND_SHOOT_PENALTY", "2", &a, &t, &moved(Movement::PopAndShoot), Ok(13), Ok(12));
    // 14 - 4 = 10, -5: 9.
    check("JUMP_ASSAULT_PENALTY", "5", &a, &t, &moved(Movement::JumpAssault), Ok(10), Ok(9));
    // 14 - 1 = 13, -2: 12.
    check("OFFLOAD_PENALTY", "2", &a, &t, &moved(Movement::Offload), Ok(13), Ok(12));
}

#[test]
fn cover_penalties_and_bands_are_options() {
    let (a, t) = (msv(gun()), Target::generic(3));
    let covered = |cover| cond(|c| c.cover = cover);
    // 14 - 1 = 13, -2: 12.
    check("MINOR_COVER_PENALTY", "2", &a, &t, &covered(Cover::Minor), Ok(13), Ok(12));
    // 14 - 2 = 12, -3: 11.
    check("HALF_COVER_PENALTY", "3", &a, &t, &covered(Cover::Half), Ok(12), Ok(11));
    // 14 - 3 = 11, -4: 10.
    check("HEAVY_COVER_PENALTY", "4", &a, &t, &covered(Cover::Heavy), Ok(11), Ok(10));
    // An NLOS mortar at a blocked target: 14 - 6 = 8, -7: 7.
    let m = msv(nlos_mortar());
    let blocked = cond(|c| (c.cover, c.range) = (Cover::Blocked, 10.0));
    check("BLOCKED_NLOS_PENALTY", "7", &m, &t, &blocked, Ok(8), Ok(7));
    // The bullet list under "How to attack" shifts the bands by one: minor takes half
    // cover's -2 (14 - 1 = 13 becomes 12), half takes heavy's -3 (12 becomes 11), and
    // heavy counts as blocked: no shot for the gun, the NLOS -6 for the mortar
    // (11 becomes 8).
    check("COVER_BANDS", "how-to-attack", &a, &t, &covered(Cover::Minor), Ok(13), Ok(12));
    check("COVER_BANDS", "how-to-attack", &a, &t, &covered(Cover::Half), Ok(12), Ok(11));
    check("COVER_BANDS", "how-to-attack", &a, &t, &covered(Cover::Heavy), Ok(11), Err(NoShot::Blocked));
    let heavy = cond(|c| (c.cover, c.range) = (Cover::Heavy, 10.0));
    check("COVER_BANDS", "how-to-attack", &m, &t, &heavy, Ok(11), Ok(8));
}

#[test]
fn smoke_penalties_and_the_nlos_ruling_are_options() {
    let (a, t) = (msv(gun()), Target::generic(3));
    // 14 - 6 = 8, -4: 10.
    check("SMOKE_PENALTY", "4", &a, &t, &cond(|c| c.smoke = Smoke::Smoke), Ok(8), Ok(10));
    // 14 - 3 = 11, -2: 12.
    check("DESIGNATED_SMOKE_PENALTY", "2", &a, &t, &cond(|c| c.smoke = Smoke::Designated), Ok(11), Ok(12));
    // An NLOS mortar in smoke fires NLOS and ignores the smoke (14); made to fire line
    // of sight it takes the -6 (8).
    let m = msv(nlos_mortar());
    let smoke = cond(|c| (c.smoke, c.range) = (Smoke::Smoke, 10.0));
    check("NLOS_WEAPONS_FIRE_NLOS", "false", &m, &t, &smoke, Ok(14), Ok(8));
    // At range 5, under its minimum of 6: an NLOS shot may fire (14), a line-of-sight
    // shot may not.
    let close = Conditions::at_range(5.0);
    check("NLOS_WEAPONS_FIRE_NLOS", "false", &m, &t, &close, Ok(14), Err(NoShot::UnderMinimum { min: 6 }));
}

#[test]
fn defender_statuses_are_options() {
    let a = msv(gun());
    let tank = vehicle_target();
    let st = |s: &str| cond(|c| c.statuses = s.parse().unwrap());
    // 14 - 2 = 12, -3: 11.
    check("DUG_IN_PENALTY", "3", &a, &tank, &st("dug-in"), Ok(12), Ok(11));
    // 14 - 2 = 12, -3: 11.
    check("HULL_DOWN_PENALTY", "3", &a, &tank, &st("hull-down"), Ok(12), Ok(11));
    // An MSV cannot be hull down: 14; with the ruling off it takes the -2: 12.
    let mech = Target { kind: Some(UnitKind::Msv), ..Target::generic(3) };
    check("HULL_DOWN_ONLY_VEHICLES", "false", &a, &mech, &st("hull-down"), Ok(14), Ok(12));
    // Posted up in minor cover: 14 - 1 - 2 = 11, -3: 10.
    let posted_in_cover = cond(|c| (c.statuses, c.cover) = ("posted-up".parse().unwrap(), Cover::Minor));
    check("POSTED_UP_PENALTY", "3", &a, &tank, &posted_in_cover, Ok(11), Ok(10));
    // Posted up in the open: nothing (14); with the ruling off, -2 (12).
    check("POSTED_UP_NEEDS_COVER", "false", &a, &tank, &st("posted-up"), Ok(14), Ok(12));
    // Forest: 14 - 2 = 12; 0 plays the 3rd edition: 14.
    check("FOREST_PENALTY", "0", &a, &tank, &st("forest"), Ok(12), Ok(14));
}

/// The 2nd edition with the other options at their defaults.
fn second() -> Options {
    Options::default().with("EDITION", "2").unwrap()
}

#[test]
fn faction_training_is_an_option() {
    // Faction training is 2nd-edition only: these switches act from EDITION=2.
    let mut a = msv(gun());
    (a.wetwire, a.combined_arms) = (true, true);
    let t = Target::generic(3);
    // Wetwire: 14 + 1 = 15, +2: 16; without faction training 14.
    check_from(second(), "WETWIRE_FIRE_CONTROL", "2", &a, &t, &Conditions::default(), Ok(15), Ok(16));
    check_from(second(), "FACTION_TRAINING", "false", &a, &t, &Conditions::default(), Ok(15), Ok(14));
    // Combined Arms with a friendly MSV: 15 + 2 = 17, +3: 18; untrained 14.
    let friendly = cond(|c| c.friendly_msv = true);
    check_from(second(), "COMBINED_ARMS_FIRE_CONTROL", "3", &a, &t, &friendly, Ok(17), Ok(18));
    check_from(second(), "FACTION_TRAINING", "false", &a, &t, &friendly, Ok(17), Ok(14));
    // Dug in against Defense Masters: 14 - 3 = 11, -4: 10; untrained the plain -2: 12.
    let plain = msv(gun());
    let masters = Target { defense_masters: true, ..vehicle_target() };
    let dug_in = cond(|c| c.statuses = "dug-in".parse().unwrap());
    check_from(second(), "DEFENSE_MASTERS_DUG_IN_PENALTY", "4", &plain, &masters, &dug_in, Ok(11), Ok(10));
    check_from(second(), "FACTION_TRAINING", "false", &plain, &masters, &dug_in, Ok(11), Ok(12));
}

#[test]
fn the_edition_switches_faction_training() {
    // §5 "faction training": none in the 3rd edition, the 2nd's under EDITION=2.
    let mut a = msv(gun());
    (a.wetwire, a.combined_arms) = (true, true);
    let t = Target::generic(3);
    // Syndicate Wetwire: 10 + 3 + 1 FC = 14; 2nd edition +1 FC: 15.
    check("EDITION", "2", &a, &t, &Conditions::default(), Ok(14), Ok(15));
    // Pirate Combined Arms with a friendly MSV as well: 14; 2nd edition 14 + 1 + 2 = 17.
    check("EDITION", "2", &a, &t, &cond(|c| c.friendly_msv = true), Ok(14), Ok(17));
    // Syndicate Defense Masters dug in: 14 - 2 = 12; 2nd edition 14 - 3 = 11.
    let masters = Target { defense_masters: true, ..vehicle_target() };
    check("EDITION", "2", &msv(gun()), &masters, &cond(|c| c.statuses = "dug-in".parse().unwrap()), Ok(12), Ok(11));
    // FACTION_TRAINING alone does nothing under the 3rd edition: 14 either way.
    for o in [Options::default(), Options::default().with("FACTION_TRAINING", "false").unwrap()] {
        assert_eq!(system_odds(&a, 0, &t, &Conditions::default(), &o).target_number(), Some(14));
    }
}

/// A troop with the gun.
fn troop(w: Weapon) -> Attacker {
    Attacker::simple("Troop", UnitKind::Troop, 1, vec![w])
}

#[test]
fn stances_make_stationary_troops_prone_in_the_second_edition() {
    // §5 "infantry stances": under EDITION=2 with STANCES on, a stationary troop is
    // prone, +1 to its own attacks: 10 + 3 + 1 FC = 14 becomes 15.
    let (a, t) = (troop(gun()), Target::generic(3));
    let c = Conditions::default();
    check_from(second(), "STANCES", "true", &a, &t, &c, Ok(14), Ok(15));
    let stances = Options::default().with("STANCES", "true").unwrap();
    check_from(stances, "EDITION", "2", &a, &t, &c, Ok(14), Ok(15));
    let prone = second().with("STANCES", "true").unwrap();
    check_from(prone, "PRONE_BONUS", "2", &a, &t, &c, Ok(15), Ok(16));
    // Not fire control: with fire control lost it still adds (10 + 3 + 1 = 14, not 13).
    check_from(second(), "STANCES", "true", &a, &t, &cond(|c| c.jury_rig_failed = true), Ok(13), Ok(14));
    // A troop that moved is not prone (14 - 1 half move = 13 either way), nor is an MSV.
    for (who, c, t_n) in [(&a, cond(|c| c.movement = Movement::Half), 13), (&msv(gun()), Conditions::default(), 14)] {
        assert_eq!(system_odds(who, 0, &t, &c, &prone).target_number(), Some(t_n));
    }
}

#[test]
fn moneyshot_adds_its_bonus_when_every_hit_would_eliminate() {
    // A Mercenary troop's one-shot 20-damage gun (FC 0) at a generic AC1 target at full
    // life: every shot hitting takes 20 life, so Moneyshot applies under EDITION=2:
    // T = 10 + 1 = 11 becomes 13 (+3: 14).
    let mut a = troop(Weapon::simple("Rifle", 1, 20, 0));
    a.moneyshot = true;
    let t = Target::generic(1);
    let c = Conditions::default();
    check("EDITION", "2", &a, &t, &c, Ok(11), Ok(13));
    check_from(second(), "MONEYSHOT_BONUS", "3", &a, &t, &c, Ok(13), Ok(14));
    check_from(second(), "FACTION_TRAINING", "false", &a, &t, &c, Ok(13), Ok(11));
    // 19 damage cannot take 20 life: no bonus at full life (11 in both editions).
    let mut weak = troop(Weapon::simple("Rifle", 1, 19, 0));
    weak.moneyshot = true;
    assert_eq!(system_odds(&weak, 0, &t, &c, &second()).target_number(), Some(11));
}

#[test]
fn moneyshot_follows_the_target_life_in_attack_runs() {
    // A Mercenary troop's one-shot 10-damage gun (FC 0) at AC1: T = 11 (p = 11/20).
    // A hit takes 10 life, so from 10 life down every shot hitting eliminates and the
    // 2nd edition adds +2: T = 13 (q = 13/20). The kill needs two hits: P(kill on turn
    // 2) = p q = 143/400 (2nd) or p p = 121/400 (3rd); on turn 3, one hit in the first
    // two (a hit then a miss at 10 life, or a miss then a hit at 20) and a hit at 10
    // life: (p (1 - q) + (1 - p) p) q (the 3rd edition has q = p).
    let mut a = troop(Weapon::simple("Rifle", 1, 10, 0));
    a.moneyshot = true;
    let t = Target::generic(1);
    let (p, q) = (11.0 / 20.0, 13.0 / 20.0);
    for (o, q) in [(Options::default(), p), (second(), q)] {
        let r = AttackRun::new(&a, &t, &Conditions::default(), &o, Policy::BestExpected, 3).unwrap();
        let e = r.exact();
        let expect = [0.0, p * q, (p * (1.0 - q) + (1.0 - p) * p) * q];
        for (k, (&got, want)) in e.kill_by_turn.iter().zip(expect).enumerate() {
            assert!((got - want).abs() < 1e-15, "EDITION={}, turn {}: {got} vs {want}", o.edition, k + 1);
        }
        // the sampled kernel plays the same life-dependent bonus
        let n = 40_000;
        let cfg = RunConfig { seed: 5, trials: Trials::Fixed(n), ..RunConfig::default() };
        let tally = run(&[Cell { key: 1, kernel: &r }], &cfg, &Silent).unwrap().remove(0);
        let wrong = if o.edition == 2 { p * p } else { p * (13.0 / 20.0) };
        assert!(fits(tally.kills_by_turn[1], n, p * q, wrong), "EDITION={}: {:?}", o.edition, tally.kills_by_turn);
    }
}

#[test]
fn moneyshot_follows_the_target_life_in_duels() {
    // B: the Mercenary troop above (10-damage shot, T 11, 13 from 10 life down) at A, a
    // harmless AC1 vehicle; B wins on turn 2 exactly when it hits on turns 1 and 2:
    // 11/20 x 13/20 = 143/400 under the 2nd edition, (11/20)^2 = 121/400 under the 3rd.
    let a = Attacker::simple("A", UnitKind::Vehicle, 1, vec![Weapon::simple("Dud", 1, 1, -30)]);
    let mut b = troop(Weapon::simple("Rifle", 1, 10, 0));
    b.moneyshot = true;
    let t = Target::generic(1);
    let n = 40_000;
    for (o, p, wrong) in [(Options::default(), 121.0 / 400.0, 143.0 / 400.0), (second(), 143.0 / 400.0, 121.0 / 400.0)]
    {
        let duel = Duel::new((&a, &t), (&b, &t), &Conditions::default(), &o, Policy::BestExpected, 5).unwrap();
        let cfg = RunConfig { seed: 9, trials: Trials::Fixed(n), ..RunConfig::default() };
        let d = run(&[Cell { key: 2, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        assert!(fits(d.b_wins_by_turn[1], n, p, wrong), "EDITION={}: {:?}", o.edition, d.b_wins_by_turn);
    }
}

#[test]
fn fire_for_effect_rulings_are_options() {
    let splash_gun = Weapon { splash: 2, ..gun() };
    let splash_mortar = Weapon { splash: 3, ..nlos_mortar() };
    let (g, m) = (msv(splash_gun), msv(splash_mortar));
    let t = vehicle_target();
    let ffe = cond(|c| (c.mode, c.range) = (AttackMode::FireForEffect, 10.0));
    let blind = Conditions { mode: AttackMode::FireForEffectBlind, ..ffe };
    // At a spot: no size bonus: 10 + 1 FC - 4 = 7, -5: 6.
    check("FIRE_FOR_EFFECT_LOS_PENALTY", "5", &g, &t, &ffe, Ok(7), Ok(6));
    // Without line of sight: 10 + 1 - 8 = 3, -9: 2.
    check("FIRE_FOR_EFFECT_NO_LOS_PENALTY", "9", &m, &t, &blind, Ok(3), Ok(2));
    // At a spot the target's heavy cover and dug in do not count (7); aimed at the
    // target they do: 7 - 3 - 2 = 2.
    let dug_in_heavy = Conditions { cover: Cover::Heavy, statuses: "dug-in".parse().unwrap(), ..ffe };
    check("FIRE_FOR_EFFECT_AT_A_SPOT", "false", &g, &t, &dug_in_heavy, Ok(7), Ok(2));
    // Blind fire for effect is an NLOS shot: the plain splash gun cannot take it, and
    // with the ruling off it can (10 + 1 - 8 = 3) ...
    check("FIRE_FOR_EFFECT_BLIND_IS_NLOS", "false", &g, &t, &blind, Err(NoShot::NeedsNlos), Ok(3));
    // ... as a shot that is not NLOS, through smoke: 3 - 6 = -3 (the NLOS mortar
    // ignores the smoke either way, by NLOS_WEAPONS_FIRE_NLOS).
    let blind_smoke = Conditions { smoke: Smoke::Smoke, ..blind };
    check("FIRE_FOR_EFFECT_BLIND_IS_NLOS", "false", &g, &t, &blind_smoke, Err(NoShot::NeedsNlos), Ok(-3));
    check("FIRE_FOR_EFFECT_NO_LOS_PENALTY", "9", &m, &t, &blind_smoke, Ok(3), Ok(2));
}

#[test]
fn automatic_hits_and_misses_are_an_option() {
    // FC +20: T = 10 + 3 + 20 = 33 always hits: 3 hits; with a natural 20 always
    // missing, P(hit) = 19/20 and E[hits] = 3 x 19/20 = 2.85.
    // FC -20: T = 10 + 3 - 20 = -7 never hits; with a natural 1 always hitting,
    // P(hit) = 1/20, E[hits] = 0.15 and P(any hit) = 1 - (19/20)^3.
    let t = Target::generic(3);
    let auto = Options::default().with("NO_AUTOMATIC_HIT_OR_MISS", "false").unwrap();
    let sure = msv(Weapon::simple("Sure", 3, 8, 20));
    let hopeless = msv(Weapon::simple("Hopeless", 3, 8, -20));
    let odds = |a: &Attacker, o: &Options| system_odds(a, 0, &t, &Conditions::default(), o);
    let d = Options::default();
    assert_eq!((odds(&sure, &d).p_hit(), odds(&sure, &d).odds.expected_hits), (Some(1.0), 3.0));
    assert_eq!(odds(&sure, &auto).p_hit(), Some(0.95));
    assert!((odds(&sure, &auto).odds.expected_hits - 2.85).abs() < 1e-15);
    assert_eq!((odds(&hopeless, &d).p_hit(), odds(&hopeless, &d).odds.p_any_hit), (Some(0.0), 0.0));
    assert_eq!(odds(&hopeless, &auto).p_hit(), Some(0.05));
    assert!((odds(&hopeless, &auto).odds.p_any_hit - (1.0 - 0.95f64.powi(3))).abs() < 1e-15);
}

#[test]
fn fire_for_effect_splash_keeps_armor_piercing_when_switched_off() {
    // A splash weapon with piercing 3, 8 damage and FC +20 (T = 10 + 20 - 4 = 26: sure
    // hit) fired for effect at reduction 4, damage AC 1: as splash, 8 - 4 = 4 life;
    // keeping its piercing, 8 - (4 - 3) = 7 life.
    let mortar = Weapon { splash: 3, armor_piercing: 3, ..Weapon::simple("Mortar", 1, 8, 20) };
    let a = Attacker::simple("Gunner", UnitKind::Vehicle, 3, vec![mortar]);
    let t = Target { damage_reduction: 4, ..Target::generic(1) };
    let c = cond(|c| c.mode = AttackMode::FireForEffect);
    let lost = |o: &Options| system_odds(&a, 0, &t, &c, o).odds.life_lost;
    assert_eq!(lost(&Options::default())[4], 1.0);
    assert_eq!(lost(&Options::default().with("FIRE_FOR_EFFECT_IS_SPLASH", "false").unwrap())[7], 1.0);
}

#[test]
fn omega_override_can_pierce_by_the_largest_armor_piercing() {
    // Two one-shot 10-damage weapons, piercing 1 and 3, each hitting on 10 (Omega: no
    // size or fire control, T = 10), at reduction 4 and damage AC 1: damage 0, 10, 20
    // with 1/4, 1/2, 1/4. Smallest piercing: reduction 3, life 0, 7, 17; largest:
    // reduction 1, life 0, 9, 19 (E = 0.5 x 9 + 0.25 x 19 = 9.25).
    let low = Weapon { armor_piercing: 1, ..Weapon::simple("Low AP", 1, 10, 0) };
    let high = Weapon { armor_piercing: 3, ..Weapon::simple("High AP", 1, 10, 0) };
    let a = Attacker::simple("MSV", UnitKind::Msv, 4, vec![low, high]);
    let t = Target { damage_reduction: 4, ..Target::generic(1) };
    let c = cond(|c| c.mode = AttackMode::OmegaOverride);
    let omega = |o: &Options| all_odds(&a, &t, &c, o).remove(2).odds;
    let smallest = omega(&Options::default());
    assert_eq!((smallest.life_lost[7], smallest.life_lost[17]), (0.5, 0.25));
    let largest = omega(&Options::default().with("OMEGA_USES_SMALLEST_ARMOR_PIERCING", "false").unwrap());
    assert_eq!(largest.life_lost.len(), 20);
    assert_eq!((largest.life_lost[0], largest.life_lost[9], largest.life_lost[19]), (0.25, 0.5, 0.25));
    assert_eq!(largest.expected_life_loss, 9.25);
}

#[test]
fn attack_runs_compile_the_options_into_the_exact_time_to_kill() {
    // A vehicle's one-shot 20-damage gun (FC 0) at a generic AC1 target in smoke:
    // T = 10 + 1 - 6 = 5, and one hit kills, so the kill comes on turn k with
    // probability (1 - p)^(k-1) p, p = 5/20. With SMOKE_PENALTY=2, T = 9: p = 9/20.
    let a = Attacker::simple("Tank", UnitKind::Vehicle, 3, vec![Weapon::simple("Gun", 1, 20, 0)]);
    let c = cond(|c| c.smoke = Smoke::Smoke);
    let ttk = |o: &Options| AttackRun::new(&a, &Target::generic(1), &c, o, Policy::BestExpected, 3).unwrap().exact();
    for (o, p) in [(Options::default(), 0.25), (Options::default().with("SMOKE_PENALTY", "2").unwrap(), 0.45)] {
        let e = ttk(&o);
        let expect = [p, (1.0 - p) * p, (1.0 - p) * (1.0 - p) * p];
        for (k, (&got, want)) in e.kill_by_turn.iter().zip(expect).enumerate() {
            assert!((got - want).abs() < 1e-15, "p = {p}, turn {}: {got} vs {want}", k + 1);
        }
    }
}

/// P(B wins on turn 1) of a duel, from `n` trials with seed 17.
///
/// A: a vehicle (AC1) whose one shot always hits (to-hit +10 covers a lost fire control)
/// for `a_damage` life. B (AC1): a vehicle with one system, or an MSV with two equal
/// systems, each one 20-damage shot that hits only with its fire control (T = 10 + 1
/// + 20 - 11 range = 20, else 0). Both at 20 life, no power armour.
///
/// If B acts first (1/2), it kills A at once and A's reply leaves B alive: B wins. If A
/// acts first (1/2), B is left with 20 - `a_damage`; out of the red it always kills
/// back; in the red each action needs its jury rig (a d20 of `JURY_RIG_SUCCESS_MAX` or
/// less) to keep fire control.
fn b_wins_turn_one(a_damage: u32, b_msv: bool, o: &Options, n: u64) -> u64 {
    let mut a = Attacker::simple("A", UnitKind::Vehicle, 1, vec![Weapon::simple("Sure", 1, a_damage, 0)]);
    a.to_hit_bonus = 10;
    let needs_fc = |name: &str| Weapon { opt: 0, drop: 11, drop_per: 100, ..Weapon::simple(name, 1, 20, 20) };
    let b = if b_msv {
        Attacker::simple("B", UnitKind::Msv, 1, vec![needs_fc("X"), needs_fc("Y")])
    } else {
        Attacker::simple("B", UnitKind::Vehicle, 1, vec![needs_fc("X")])
    };
    let t = Target::generic(1);
    let duel = Duel::new((&a, &t), (&b, &t), &Conditions::at_range(1.0), o, Policy::BestExpected, 5).unwrap();
    let cfg = RunConfig { seed: 17, trials: Trials::Fixed(n), ..RunConfig::default() };
    run(&[Cell { key: a_damage as u64, kernel: &duel }], &cfg, &Silent).unwrap().remove(0).b_wins_by_turn[0]
}

/// `k` of `n` fits `p` and not `wrong`.
fn fits(k: u64, n: u64, p: f64, wrong: f64) -> bool {
    consistent(k, n, p, FAMILY_ALPHA) && !consistent(k, n, wrong, FAMILY_ALPHA)
}

#[test]
fn in_the_red_threshold_is_an_option() {
    // 14 damage leaves B at 6: out of the red, B always wins turn 1. With
    // IN_THE_RED_LIFE=6 it is in the red: 1/2 + 1/2 x 10/20 = 3/4.
    let n = 40_000;
    assert_eq!(b_wins_turn_one(14, false, &Options::default(), n), n);
    let six = Options::default().with("IN_THE_RED_LIFE", "6").unwrap();
    let k = b_wins_turn_one(14, false, &six, n);
    assert!(fits(k, n, 0.75, 1.0), "{k} of {n}");
}

#[test]
fn jury_rig_success_is_an_option() {
    // 15 damage leaves B at 5, in the red: 1/2 + 1/2 x 10/20 = 3/4; with
    // JURY_RIG_SUCCESS_MAX=15, 1/2 + 1/2 x 15/20 = 7/8.
    let n = 40_000;
    let k = b_wins_turn_one(15, false, &Options::default(), n);
    assert!(fits(k, n, 0.75, 0.875), "{k} of {n}");
    let fifteen = Options::default().with("JURY_RIG_SUCCESS_MAX", "15").unwrap();
    let k = b_wins_turn_one(15, false, &fifteen, n);
    assert!(fits(k, n, 0.875, 0.75), "{k} of {n}");
}

#[test]
fn one_jury_rig_roll_per_turn_is_an_option() {
    // B an MSV with two actions, at 5 life after A's first shot: rolling per action it
    // kills A unless both rolls fail: 1/2 + 1/2 x (1 - 1/4) = 7/8. Rolling once per
    // turn, one roll decides both actions: 1/2 + 1/2 x 1/2 = 3/4.
    let n = 40_000;
    let k = b_wins_turn_one(15, true, &Options::default(), n);
    assert!(fits(k, n, 0.875, 0.75), "{k} of {n}");
    let per_turn = Options::default().with("JURY_RIG_PER_ACTION", "false").unwrap();
    let k = b_wins_turn_one(15, true, &per_turn, n);
    assert!(fits(k, n, 0.75, 0.875), "{k} of {n}");
}
