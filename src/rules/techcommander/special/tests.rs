//! Every special-attack row of battles §7 exactly, each §4 ruling switched, legality and
//! reach. Fractions are compared to 1e-12 (sums of a few hundred exact twentieths).

use super::*;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{Cover, Smoke};
use crate::rules::techcommander::options::{
    AcSource, Armour, CloseModifiers, DamageDice, Dodge, Options, Rounding, SmokeClose,
};

const EPS: f64 = 1e-12;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < EPS
}

macro_rules! assert_p {
    ($got:expr, $want:expr) => {{
        let (g, w): (f64, f64) = ($got, $want);
        assert!(close(g, w), "{} = {g}, expected {w}", stringify!($got));
    }};
}

fn unit(kind: UnitKind, ac: u32) -> Attacker {
    Attacker { speed: 10, ..Attacker::simple("actor", kind, ac, Vec::new()) }
}

fn msv(ac: u32) -> Attacker {
    unit(UnitKind::Msv, ac)
}

fn jumper(ac: u32) -> Attacker {
    Attacker { jump: true, ..msv(ac) }
}

fn target(kind: UnitKind, ac: u32) -> Target {
    Target { kind: Some(kind), ..Target::generic(ac) }
}

fn troop() -> Target {
    target(UnitKind::Troop, 1)
}

/// Adjacent (range 0) in mode `m`.
fn mode(m: AttackMode) -> Conditions {
    Conditions { mode: m, ..Conditions::default() }
}

fn odds(a: &Attacker, t: &Target, m: AttackMode, o: &Options) -> SpecialOdds {
    special_odds(a, t, &mode(m), o, false).unwrap()
}

fn target_number(s: Special, a: &Attacker, t: &Target, c: &Conditions, o: &Options) -> i32 {
    match hit_roll(s, a, t, c, o) {
        HitRoll::Attacker { target_number, .. } => target_number,
        other => panic!("{other:?}"),
    }
}

fn total(s: &SpecialOdds) -> f64 {
    s.outcomes.iter().map(|o| o.p).sum()
}

#[test]
fn ram_rows_of_section_7() {
    let o = Options::default();
    for (rammer, ac, t, p_kill) in [(4, 4, 16, 1.0 / 25.0), (6, 3, 15, 33.0 / 80.0), (4, 5, 17, 0.0)] {
        let (a, tg) = (msv(rammer), target(UnitKind::Msv, ac));
        assert_eq!(target_number(Special::Ram, &a, &tg, &mode(AttackMode::Ram), &o), t);
        let r = odds(&a, &tg, AttackMode::Ram, &o);
        assert_p!(r.p_kill(20), p_kill);
        assert_p!(total(&r), 1.0);
    }
}

#[test]
fn ram_d20_13_takes_10_and_6() {
    let o = Options::default();
    let (a, t) = (msv(4), target(UnitKind::Msv, 5));
    assert_eq!(ram_losses(&a, &t, 4 * 13, &o), (10, 6));
    // Joint: only d20 = 13 gives (10, 6); T 17.
    let r = odds(&a, &t, AttackMode::Ram, &o);
    let p = r.outcomes.iter().find(|x| (x.target_loss, x.self_loss) == (10, 6)).unwrap().p;
    assert_p!(p, 17.0 / 20.0 / 20.0);
    // Rammer's loss is floor(d / 2) for every d: E = 17/20 × mean(floor(d/2)) = 17/20 × 5.
    assert_p!(r.expected_self_loss(20), 17.0 / 20.0 * 5.0);
}

#[test]
fn ram_in_the_red_mixes_the_two_fire_control_states() {
    let o = Options::default();
    let (a, t) = (msv(4), target(UnitKind::Msv, 4));
    let c = mode(AttackMode::Ram);
    assert_p!(special_odds(&a, &t, &c, &o, true).unwrap().p_hit, 3.0 / 4.0);
    let failed = Conditions { jury_rig_failed: true, ..c };
    assert_p!(special_odds(&a, &t, &failed, &o, true).unwrap().p_hit, 14.0 / 20.0);
    assert_p!(special_odds(&a, &t, &c, &o, false).unwrap().p_hit, 16.0 / 20.0);
    // Half speed after a failed jury rig: speed 10 reaches 6, but not at half speed, so
    // the failed half is a plain move.
    let (c6, failed6) = (Conditions { range: 6.0, ..c }, Conditions { range: 6.0, ..failed });
    let r = special_odds(&a, &t, &c6, &o, true).unwrap();
    assert_p!(r.p_hit, 0.5 * 16.0 / 20.0);
    assert_eq!(state_odds(Special::Ram, &a, &t, &failed6, &o), SpecialOdds::plain_move());
    assert_p!(special_odds(&a, &t, &failed6, &o, false).unwrap().p_hit, 0.0);
}

#[test]
fn death_from_above_rows_of_section_7() {
    let o = Options::default();
    for (ac_a, ac_t, t, p_kill) in [(3, 4, 14, 7.0 / 200.0), (5, 5, 15, 0.75), (3, 1, 11, 11.0 / 20.0), (4, 6, 16, 0.0)]
    {
        let (a, tg) = (jumper(ac_a), target(UnitKind::Msv, ac_t));
        assert_eq!(target_number(Special::DeathFromAbove, &a, &tg, &mode(AttackMode::DeathFromAbove), &o), t);
        let r = odds(&a, &tg, AttackMode::DeathFromAbove, &o);
        assert_p!(r.p_kill(20), p_kill);
        assert_p!(total(&r), 1.0);
    }
    let (a, t) = (jumper(3), target(UnitKind::Msv, 4));
    assert_eq!(dfa_losses(&a, &t, 7, 9, &o), (16, 3));
    // The landing d20 is its own roll: E[self loss] = 14/20 × mean(floor(d/3)) = 0.7 × 3.15.
    assert_p!(odds(&a, &t, AttackMode::DeathFromAbove, &o).expected_self_loss(20), 0.7 * 63.0 / 20.0);
}

#[test]
fn overrun_and_trample_rows_of_section_7() {
    let mut o = Options::default();
    let a = msv(4);
    assert_p!(odds(&a, &troop(), AttackMode::Overrun, &o).p_kill(20), 8.0 / 25.0);
    // USSC Combat Agility is 2nd-edition faction training: under the 3rd edition an
    // agile troop dodges on 12 like any other (P(kill) = 8/20 × 16/20 = .32).
    let agile = Target { combat_agility: true, ..troop() };
    assert_eq!(
        hit_roll(Special::Overrun, &a, &agile, &mode(AttackMode::Overrun), &o),
        HitRoll::Dodge { dodge_target: Some(12) }
    );
    assert_p!(odds(&a, &agile, AttackMode::Overrun, &o).p_kill(20), 8.0 / 25.0);
    let second = Options { edition: 2, ..o };
    assert_eq!(
        hit_roll(Special::Overrun, &a, &agile, &mode(AttackMode::Overrun), &second),
        HitRoll::Dodge { dodge_target: Some(14) }
    );
    assert_p!(odds(&a, &agile, AttackMode::Overrun, &second).p_kill(20), 6.0 / 25.0);
    let armoured = Target { damage_reduction: 5, ..target(UnitKind::Vehicle, 3) };
    assert_p!(odds(&a, &armoured, AttackMode::Overrun, &o).p_kill(20), 2.0 / 25.0);

    let p = odds(&msv(5), &troop(), AttackMode::Trample, &o).p_kill(20);
    assert_p!(p, 17.0 / 50.0);
    let kills = group_kills(p, 3);
    assert_p!(kills.iter().enumerate().map(|(k, q)| k as f64 * q).sum::<f64>(), 51.0 / 50.0);
    assert_p!(kills[3], 4913.0 / 125000.0);
    assert_eq!(trample_members(&msv(5)), 5);
    // Combat Agility is faction training.
    o.edition = 2;
    o.faction_training = false;
    assert_p!(odds(&a, &agile, AttackMode::Overrun, &o).p_kill(20), 8.0 / 25.0);
}

#[test]
fn legality_names_the_rule() {
    let o = Options::default();
    let tank = target(UnitKind::Vehicle, 2);
    let crew = target(UnitKind::Crew, 1);
    let err = |a: &Attacker, t: &Target, m| special_odds(a, t, &mode(m), &o, false).unwrap_err();
    assert!(matches!(err(&unit(UnitKind::Troop, 1), &tank, AttackMode::Ram), NoSpecial::Actor { .. }));
    assert!(matches!(err(&msv(4), &crew, AttackMode::Ram), NoSpecial::Target { .. }));
    assert!(special_odds(&msv(4), &target(UnitKind::Terrain, 5), &mode(AttackMode::Ram), &o, false).is_ok());
    assert_eq!(err(&msv(4), &tank, AttackMode::DeathFromAbove), NoSpecial::NotJump);
    assert!(matches!(
        err(&Attacker { jump: true, ..unit(UnitKind::Vehicle, 3) }, &tank, AttackMode::DeathFromAbove),
        NoSpecial::Actor { .. }
    ));
    assert_eq!(
        err(&Attacker { aerial: true, ..unit(UnitKind::Vehicle, 3) }, &tank, AttackMode::Overrun),
        NoSpecial::Aerial
    );
    assert!(matches!(err(&unit(UnitKind::Vehicle, 3), &troop(), AttackMode::Trample), NoSpecial::Actor { .. }));
    assert!(matches!(err(&msv(4), &tank, AttackMode::Trample), NoSpecial::Target { .. }));
    assert!(matches!(err(&msv(4), &tank, AttackMode::Normal), NoSpecial::NotSpecial(_)));
    let far = Conditions { range: 10.5, ..mode(AttackMode::Ram) };
    let e = special_odds(&msv(4), &tank, &far, &o, false).unwrap_err();
    assert!(e.to_string().contains("REACH_RULE") && e.to_string().contains("range 11"), "{e}");
    // An aerial rammer is eliminated by its own hit.
    let r = odds(&Attacker { aerial: true, ..unit(UnitKind::Vehicle, 3) }, &tank, AttackMode::Ram, &o);
    assert_p!(r.p_self_eliminated(20), r.p_hit);
}

#[test]
fn reach_rule_half_speed_for_trample_and_failed_jury_rig() {
    let mut o = Options::default();
    let a = msv(4); // speed 10
    let at = |range: f64, m: AttackMode, failed: bool| Conditions {
        range,
        mode: m,
        jury_rig_failed: failed,
        ..Conditions::default()
    };
    assert!(reach(&a, &at(10.0, AttackMode::Ram, false), &o));
    assert!(!reach(&a, &at(10.2, AttackMode::Ram, false), &o), "range rounds up to 11");
    assert!(reach(&a, &at(5.0, AttackMode::Trample, false), &o));
    assert!(!reach(&a, &at(6.0, AttackMode::Trample, false), &o));
    assert!(!reach(&a, &at(6.0, AttackMode::Ram, true), &o));
    assert!(reach(&a, &at(5.0, AttackMode::Trample, true), &o), "the two halvings do not compound");
    o.adjacent_gap = 2;
    assert!(reach(&a, &at(12.0, AttackMode::Ram, false), &o));
    assert!(reach(&a, &at(7.0, AttackMode::Trample, false), &o));
    // The 2nd edition's adjacency is 2 more ("about two units apart").
    let second = Options { edition: 2, ..Options::default() };
    assert!(reach(&a, &at(12.0, AttackMode::Ram, false), &second));
    assert!(!reach(&a, &at(13.0, AttackMode::Ram, false), &second));
}

/// ADJACENT_GAP, DAMAGE_DICE, RAM_FIRE_CONTROL, RAM_SELF_ROUND, CLOSE_MODIFIERS.
#[test]
fn ram_rulings_are_options() {
    let d = Options::default();
    let (a, t) = (msv(4), target(UnitKind::Msv, 4));
    let far = Conditions { range: 12.0, ..mode(AttackMode::Ram) };
    assert!(special_odds(&a, &t, &far, &d, false).is_err());
    assert!(special_odds(&a, &t, &far, &Options { adjacent_gap: 2, ..d }, false).is_ok());
    // 4d20 summed must reach 80: (1/20)^4.
    let dice = Options { damage_dice: DamageDice::AcD20s, ..d };
    assert_p!(odds(&a, &t, AttackMode::Ram, &dice).p_kill(20), 0.8 / 160_000.0);
    assert_p!(total(&odds(&a, &t, AttackMode::Ram, &dice)), 1.0);
    assert_p!(odds(&a, &t, AttackMode::Ram, &Options { ram_fire_control: 0, ..d }).p_hit, 14.0 / 20.0);
    // An AC1 rammer: 13 damage, half rounded up 7, down 6.
    let small = unit(UnitKind::Vehicle, 1);
    assert_eq!(ram_losses(&small, &t, 13, &d).1, 7);
    assert_eq!(ram_losses(&small, &t, 13, &Options { ram_self_round: Rounding::Down, ..d }).1, 6);
    let bonus = Attacker { to_hit_bonus: 1, wetwire: true, ..a.clone() };
    let c = mode(AttackMode::Ram);
    assert_eq!(target_number(Special::Ram, &bonus, &t, &c, &d), 16);
    let with = Options { close_modifiers: CloseModifiers::WithAttackerBonuses, ..d };
    assert_eq!(target_number(Special::Ram, &bonus, &t, &c, &with), 17, "+1 to hit; Wetwire is 2nd-edition training");
    let second = Options { edition: 2, ..with };
    assert_eq!(target_number(Special::Ram, &bonus, &t, &c, &second), 18, "+1 to hit, +1 Wetwire");
    // Defender statuses apply; cover, range and movement do not.
    let dug = Conditions { statuses: "dug-in".parse().unwrap(), cover: Cover::Heavy, ..c };
    assert_eq!(target_number(Special::Ram, &a, &t, &dug, &d), 14);
}

/// SMOKE_CLOSE, DFA_SMOKE_PENALTY, DFA_AC_SOURCE, DFA_SELF_ARMOUR.
#[test]
fn smoke_and_death_from_above_rulings_are_options() {
    let d = Options::default();
    let (a, t) = (jumper(3), target(UnitKind::Msv, 4));
    let smoke = Conditions { smoke: Smoke::Smoke, ..mode(AttackMode::Ram) };
    assert_eq!(target_number(Special::Ram, &a, &t, &smoke, &d), 14, "ram loses fire control in smoke");
    let ignored = Options { smoke_close: SmokeClose::Ignored, ..d };
    assert_eq!(target_number(Special::Ram, &a, &t, &smoke, &ignored), 16);
    let dfa_smoke = Conditions { mode: AttackMode::DeathFromAbove, ..smoke };
    assert_eq!(target_number(Special::DeathFromAbove, &a, &t, &dfa_smoke, &d), 12);
    assert_eq!(target_number(Special::DeathFromAbove, &a, &t, &dfa_smoke, &ignored), 14);
    let penalty = Options { dfa_smoke_penalty: 3, ..d };
    assert_eq!(target_number(Special::DeathFromAbove, &a, &t, &dfa_smoke, &penalty), 11);
    let lethal = Options { dfa_ac_source: AcSource::Target, ..d };
    assert_p!(odds(&a, &t, AttackMode::DeathFromAbove, &lethal).p_kill(20), 14.0 / 20.0);
    let armoured = Attacker { damage_reduction: 5, ..a };
    assert_eq!(dfa_losses(&armoured, &t, 7, 9, &d).1, 3);
    assert_eq!(dfa_losses(&armoured, &t, 7, 9, &Options { dfa_self_armour: Armour::Applies, ..d }).1, 1);
}

/// TRAMPLE_ARMOUR, DODGE, DODGE_TARGET, COMBAT_AGILITY_DODGE_TARGET.
#[test]
fn trample_and_dodge_rulings_are_options() {
    let d = Options::default();
    let armoured = Target { damage_reduction: 5, ..troop() };
    // 5 × d20 − 5 >= 20 needs d20 >= 5; without armour d20 >= 4.
    assert_p!(odds(&msv(5), &armoured, AttackMode::Trample, &d).p_kill(20), 0.4 * 16.0 / 20.0);
    let bare = Options { trample_armour: Armour::Ignored, ..d };
    assert_p!(odds(&msv(5), &armoured, AttackMode::Trample, &bare).p_kill(20), 17.0 / 50.0);
    assert_p!(odds(&msv(5), &armoured, AttackMode::Overrun, &bare).p_kill(20), 0.4 * 16.0 / 20.0);
    let a = msv(4);
    assert_p!(odds(&a, &troop(), AttackMode::Overrun, &Options { dodge: Dodge::Never, ..d }).p_kill(20), 0.8);
    assert_p!(odds(&a, &troop(), AttackMode::Overrun, &Options { dodge_target: 10, ..d }).p_kill(20), 0.4);
    let agile = Target { combat_agility: true, ..troop() };
    let o = Options { edition: 2, combat_agility_dodge_target: 16, ..d };
    assert_p!(odds(&a, &agile, AttackMode::Overrun, &o).p_kill(20), 0.2 * 0.8);
}

#[test]
fn helpers_read_the_joint_distribution() {
    let s = SpecialOdds::from_outcomes(
        0.5,
        [
            SpecialOutcome { p: 0.5, target_loss: 0, self_loss: 0 },
            SpecialOutcome { p: 0.25, target_loss: 8, self_loss: 2 },
            SpecialOutcome { p: 0.25, target_loss: 30, self_loss: 25 },
        ],
    );
    assert_p!(s.p_kill(20), 0.25);
    assert_p!(s.p_kill(8), 0.5);
    assert_p!(s.expected_target_loss(20), 0.25 * 8.0 + 0.25 * 20.0);
    assert_p!(s.expected_target_loss(5), 0.5 * 5.0);
    assert_p!(s.p_self_eliminated(20), 0.25);
    assert_p!(s.expected_self_loss(20), 0.25 * 2.0 + 0.25 * 20.0);
    let m = SpecialOdds::mix(&s, 0.5, &SpecialOdds::plain_move());
    assert_p!(m.p_hit, 0.25);
    assert_p!(m.outcomes[0].p, 0.75);
    assert_eq!(m.outcomes.len(), 3);
}
