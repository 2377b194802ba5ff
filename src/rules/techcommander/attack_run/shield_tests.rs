//! The bubble shield in attack runs: hand-computed laws from the book's numbers, the
//! Monte Carlo loop against the chain with exact binomial bounds, and a negative control.

use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::rules::techcommander::catalogue::{Catalogue, UnitKind, Weapon};
use crate::rules::techcommander::conditions::{Conditions, Statuses};
use crate::rules::techcommander::odds::system_odds;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::policy::Policy;
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::stats::ExactTtk;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use super::super::AttackRun;

/// One attack a turn (an MSV with one system: its second attack needs another), never
/// bypassing a shield (only vehicles are auto-stabilized).
fn vehicle(weapons: Vec<Weapon>) -> Attacker {
    Attacker::simple("A", UnitKind::Msv, 3, weapons)
}

fn shielded(ac: u32, shields: u32) -> Target {
    Target { shields, ..Target::generic(ac) }
}

fn exact(a: &Attacker, t: &Target, c: &Conditions, turns: u32) -> ExactTtk {
    AttackRun::new(a, t, c, &Options::default(), Policy::BestExpected, turns).unwrap().exact()
}

fn close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (t, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() < 1e-12, "turn {}: {g} against {w}\n{got:?}\n{want:?}", t + 1);
    }
}

#[test]
fn the_shield_is_hit_at_size_ac5_and_the_unit_after_it_falls() {
    // One shot of 40 damage, fire control -6, at range 0: T = 10 + 4 - 6 = 8 at an AC4
    // unit (p = 0.4, 40 / 4 = 10 life: two hits kill) and 10 + 5 - 6 = 9 at the shield
    // (p = 0.45, 40 / 1 = 40 ≥ 20: one hit breaks it). One shield: the turn K of its fall
    // is geometric(0.45); the kill is the second hit at the unit after it, so
    // P(kill on turn t) = Σ_k 0.55^(k-1) 0.45 · (t-k-1) 0.4² 0.6^(t-k-2).
    let a = vehicle(vec![Weapon::simple("Gun", 1, 40, -6)]);
    let c = Conditions::default();
    let o = Options::default();
    assert_eq!(system_odds(&a, 0, &Target::generic(4), &c, &o).p_hit(), Some(0.4));
    assert_eq!(system_odds(&a, 0, &Target::bubble_shield(), &c, &o).p_hit(), Some(0.45));
    let turns = 12;
    let want: Vec<f64> = (1..=turns as i32)
        .map(|t| {
            (1..=t - 2).map(|k| 0.55f64.powi(k - 1) * 0.45 * (t - k - 1) as f64 * 0.16 * 0.6f64.powi(t - k - 2)).sum()
        })
        .collect();
    close(&exact(&a, &shielded(4, 1), &c, turns).kill_by_turn, &want);
    // Without the shield: the second hit of a negative binomial from turn 1.
    let plain: Vec<f64> =
        (1..=turns as i32).map(|t| (t - 1) as f64 * 0.16 * 0.6f64.powi((t - 2).max(0)) * f64::from(t >= 2)).collect();
    close(&exact(&a, &shielded(4, 0), &c, turns).kill_by_turn, &plain);
}

#[test]
fn a_shield_recharges_each_turn_and_its_overflow_is_lost() {
    let c = Conditions::default();
    // A sure hit of 12: the shield falls to 8 and is back at 20 next turn, so one attack a
    // turn never reaches the unit.
    let weak = vehicle(vec![Weapon::simple("Gun", 1, 12, 20)]);
    assert_eq!(exact(&weak, &shielded(1, 1), &c, 20).p_kill, 0.0);
    // A sure hit of 60 at an AC1 unit kills it outright; at the shield it breaks it and
    // the other 40 are lost. One attack a turn: each shield costs a turn, then the kill.
    let strong = vehicle(vec![Weapon::simple("Gun", 1, 60, 20)]);
    for shields in 0..4 {
        let law = exact(&strong, &shielded(1, shields), &c, 10);
        let mut want = vec![0.0; 10];
        want[shields as usize] = 1.0;
        close(&law.kill_by_turn, &want);
    }
    // An MSV's second attack (another system) reaches the unit in the turn the first
    // broke the shield; a standing shield is not replaced that turn.
    let msv = Attacker::simple(
        "M",
        UnitKind::Msv,
        3,
        vec![Weapon::simple("Gun", 1, 60, 20), Weapon::simple("Other", 1, 60, 20)],
    );
    let law = exact(&msv, &shielded(1, 5), &c, 4);
    close(&law.kill_by_action[..2], &[0.0, 1.0]);
}

#[test]
fn an_auto_stabilized_attacker_within_reach_fires_from_inside_the_shield() {
    // A vehicle of speed 10 at range 12 reaches inside the 5-inch shield: its attacks are
    // at the unit, as after a half move (-1), from the first turn on; so the run is the
    // unshielded run after a half move. At range 16 it does not reach.
    let mut a = Attacker::simple("Tank", UnitKind::Vehicle, 3, vec![Weapon::simple("Gun", 3, 14, -4)]);
    a.speed = 10;
    let near = Conditions::at_range(12.0);
    let moved = Conditions { movement: crate::rules::techcommander::conditions::Movement::Half, ..near };
    let want = exact(&a, &shielded(3, 1), &moved, 10);
    close(&exact(&a, &shielded(3, 1), &near, 10).kill_by_turn, &want.kill_by_turn);
    assert!(exact(&a, &shielded(3, 0), &near, 10).p_kill > want.p_kill + 1e-3);
    let off = Options::default().with("SHIELD_BYPASS", "false").unwrap();
    let law = |a: &Attacker, t: &Target, c: &Conditions, o: &Options| {
        AttackRun::new(a, t, c, o, Policy::BestExpected, 10).unwrap().exact()
    };
    let blocked = law(&a, &shielded(3, 1), &near, &off);
    assert!(blocked.p_kill < want.p_kill - 1e-3, "{blocked:?}");
    let mut far = a.clone();
    far.speed = 6;
    let o = Options::default();
    assert_eq!(
        format!("{:?}", law(&far, &shielded(3, 1), &near, &o)),
        format!("{:?}", law(&far, &shielded(3, 1), &near, &off))
    );
    // BUBBLE_SHIELD off: the gear does nothing.
    let none = Options::default().with("BUBBLE_SHIELD", "false").unwrap();
    let msv = vehicle(vec![Weapon::simple("Gun", 3, 14, -4)]);
    assert_eq!(
        format!("{:?}", law(&msv, &shielded(3, 2), &near, &none)),
        format!("{:?}", law(&msv, &shielded(3, 0), &near, &o))
    );
}

#[test]
fn the_shield_ignores_the_targets_postures_but_not_the_line() {
    // Dug in takes 2 from attacks at the unit, not at the shield around it; smoke on the
    // line takes 6 from both.
    let a = vehicle(vec![Weapon::simple("Gun", 1, 40, -6)]);
    let o = Options::default();
    let dug = Conditions { statuses: Statuses { dug_in: true, ..Statuses::default() }, ..Conditions::default() };
    let p = |t: &Target, c: &Conditions| system_odds(&a, 0, t, c, &o).p_hit().unwrap();
    assert_eq!(p(&Target::bubble_shield(), &super::at_shield(&dug)), 0.45);
    assert!(p(&Target::generic(4), &dug) < 0.4);
    let smoke = Conditions { smoke: crate::rules::techcommander::conditions::Smoke::Smoke, ..Conditions::default() };
    assert_eq!(super::at_shield(&smoke), smoke);
}

#[test]
fn the_catalogues_projector_gives_its_carrier_one_shield() {
    let cat = Catalogue::embedded().unwrap();
    let projector = cat.gear.iter().position(|g| g.bubble_shield).expect("the catalogue has a projector");
    assert_eq!(cat.gear[projector].name, "Bubble Shield Projector");
    let mut build = cat.builds[0].clone();
    assert_eq!(Target::from_build(&cat, &build).shields, 0);
    build.gear.push(projector);
    assert_eq!(Target::from_build(&cat, &build).shields, 1);
    build.gear.push(projector);
    assert_eq!(Target::from_build(&cat, &build).shields, 2);
}

/// Monte Carlo runs and exact laws of shielded targets: (label, kills by turn, trials,
/// exact law).
fn cells(wrong_shields: bool) -> Vec<(String, Vec<u64>, u64, ExactTtk)> {
    let mut out = Vec::new();
    let weapons = [
        vec![Weapon::simple("Autocannon", 6, 12, -7)],
        vec![Weapon::simple("Rail", 1, 30, -2), Weapon::simple("Pair", 2, 9, -4)],
        vec![Weapon { rounds: 2, ..Weapon::simple("Missiles", 4, 15, -5) }, Weapon::simple("Gun", 3, 8, -6)],
    ];
    let mut key = 0;
    for (w, ws) in weapons.iter().enumerate() {
        // A vehicle of speed 0 at range 12 hits the shield; one of speed 8 bypasses it.
        for (kind, speed) in [(UnitKind::Vehicle, 0), (UnitKind::Msv, 0), (UnitKind::Vehicle, 8)] {
            for (ac, shields, power_armor) in [(2, 1, false), (4, 2, false), (1, 1, true), (3, 3, false)] {
                for moneyshot in [false, true] {
                    let mut a = Attacker::simple("A", kind, 3, ws.clone());
                    a.moneyshot = moneyshot;
                    a.speed = speed;
                    let o =
                        if moneyshot { Options::default().with("EDITION", "2").unwrap() } else { Options::default() };
                    let t = Target { power_armor, ..shielded(ac, shields) };
                    let c = Conditions::at_range(12.0);
                    let kernel = AttackRun::new(&a, &t, &c, &o, Policy::BestExpected, 8).unwrap();
                    let law = if wrong_shields {
                        let t = Target { shields: shields - 1, ..t.clone() };
                        AttackRun::new(&a, &t, &c, &o, Policy::BestExpected, 8).unwrap().exact()
                    } else {
                        kernel.exact()
                    };
                    key += 1;
                    let cfg = RunConfig { seed: 5, trials: Trials::Fixed(40_000), ..RunConfig::default() };
                    let tally = run(&[Cell { key, kernel: &kernel }], &cfg, &Silent).unwrap().remove(0);
                    let label = format!(
                        "weapons {w}, {kind:?} speed {speed}, AC{ac}, {shields} shields, PA {power_armor}, MS {moneyshot}"
                    );
                    out.push((label, tally.kills_by_turn.clone(), tally.trials, law));
                }
            }
        }
    }
    out
}

fn inconsistent(cells: &[(String, Vec<u64>, u64, ExactTtk)]) -> Vec<String> {
    let tests: usize = cells.iter().map(|c| c.1.len()).sum();
    let alpha = FAMILY_ALPHA / tests as f64;
    let mut bad = Vec::new();
    for (label, kills, trials, law) in cells {
        for (t, (&k, &p)) in kills.iter().zip(&law.kill_by_turn).enumerate() {
            if !consistent(k, *trials, p, alpha) {
                bad.push(format!("{label}: turn {}: {k} of {trials} against {p}", t + 1));
            }
        }
    }
    bad
}

#[test]
fn monte_carlo_shielded_runs_agree_with_the_chain() {
    let cells = cells(false);
    assert_eq!(cells.len(), 72);
    let bad = inconsistent(&cells);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_agreement_test_sees_one_shield_too_few() {
    assert!(!inconsistent(&cells(true)).is_empty());
}

#[test]
fn shields_leave_an_unshielded_run_unchanged() {
    let a = vehicle(vec![Weapon::simple("Autocannon", 6, 12, -7)]);
    let c = Conditions::at_range(12.0);
    let o = Options::default();
    let plain = AttackRun::new(&a, &Target::generic(2), &c, &o, Policy::BestExpected, 8).unwrap();
    assert_eq!(plain.shields(), 0);
    assert!(plain.exact_shielded().is_none());
}
