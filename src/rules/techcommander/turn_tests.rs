//! The rulings of §3-5 (damage, life, in the red, jury rig, actions per turn) and the
//! damage rulings of the special modes, each pinned by a hand-computed expectation with
//! the default options: changing any of these defaults in `options.rs` fails a test here
//! or in `options_tests.rs`. `scripts/mutate-rulings.sh` checks that.

use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::rules::techcommander::catalogue::{UnitKind, Weapon};
use crate::stats::DuelTally;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use crate::rules::techcommander::attack_run::AttackRun;
use crate::rules::techcommander::conditions::{AttackMode, Conditions};
use crate::rules::techcommander::duel::Duel;
use crate::rules::techcommander::odds::{all_odds, system_odds};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::policy::Policy;
use crate::rules::techcommander::profile::{Attacker, Target};

/// A one-shot weapon with no range penalty up to 24.
fn weapon(name: &str, damage: u32, fire_control: i32) -> Weapon {
    Weapon { opt: 24, ..Weapon::simple(name, 1, damage, fire_control) }
}

#[test]
fn omega_override_subtracts_reduction_less_the_smallest_armor_piercing() {
    // Ruling (OMEGA_USES_SMALLEST_ARMOR_PIERCING): one reduction from the combined total, less the smallest
    // piercing of the weapons fired. Two one-shot 10-damage weapons, piercing 1 and 3,
    // at a target with reduction 4 and damage AC 1. Omega Override drops fire control
    // and positive modifiers: T = 10 (generic AC1 target, range 0), so each die hits on
    // 10 of 20. Damage 0 (1/4), 10 (1/2), 20 (1/4); reduction 4 - 1 = 3, so life lost
    // 0, 7, 17. (With the largest piercing it would be 0, 9, 19.)
    let mut low = weapon("Low AP", 10, 0);
    low.armor_piercing = 1;
    let mut high = weapon("High AP", 10, 0);
    high.armor_piercing = 3;
    let a = Attacker::simple("MSV", UnitKind::Msv, 4, vec![low, high]);
    let t = Target { damage_reduction: 4, ..Target::generic(1) };
    let c = Conditions { mode: AttackMode::OmegaOverride, ..Conditions::default() };
    let rows = all_odds(&a, &t, &c, &Options::default());
    let omega = &rows[2].odds;
    assert_eq!(omega.life_lost.len(), 18, "at most 17 life: {:?}", omega.life_lost);
    assert_eq!((omega.life_lost[0], omega.life_lost[7], omega.life_lost[17]), (0.25, 0.5, 0.25));
    assert_eq!(omega.expected_life_loss, 0.5 * 7.0 + 0.25 * 17.0);
}

#[test]
fn fire_for_effect_is_splash_and_never_pierces_armor() {
    // Rulebook, "Splash damage rules": splash damage does not ignore armor, even if the
    // round type is armor piercing. A splash weapon with piercing 3 and 8 damage that
    // always hits (T = 10 + FC 20 - 4 = 26 for fire for effect; 10 + 1 + 20 = 31 aimed)
    // at a target with reduction 4 and damage AC 1: aimed, 8 - (4 - 3) = 7 life; fired
    // for effect, 8 - 4 = 4 life.
    let mut mortar = weapon("Mortar", 8, 20);
    mortar.splash = 3;
    mortar.armor_piercing = 3;
    let a = Attacker::simple("Gunner", UnitKind::Vehicle, 3, vec![mortar]);
    let t = Target { damage_reduction: 4, ..Target::generic(1) };
    let aimed = system_odds(&a, 0, &t, &Conditions::default(), &Options::default());
    assert_eq!(aimed.odds.life_lost[7], 1.0, "{:?}", aimed.odds.life_lost);
    let ffe = system_odds(
        &a,
        0,
        &t,
        &Conditions { mode: AttackMode::FireForEffect, ..Conditions::default() },
        &Options::default(),
    );
    assert_eq!(ffe.target_number(), Some(26));
    assert_eq!(ffe.odds.life_lost[4], 1.0, "{:?}", ffe.odds.life_lost);
}

#[test]
fn every_target_starts_with_twenty_life() {
    // One sure hit of 1 life a turn (T = 10 + 1 + 20 = 31): the 20th attack kills.
    let a = Attacker::simple("Tickler", UnitKind::Vehicle, 3, vec![weapon("Tickle", 1, 20)]);
    let run =
        AttackRun::new(&a, &Target::generic(1), &Conditions::default(), &Options::default(), Policy::BestExpected, 25)
            .unwrap();
    let mut expect = vec![0.0; 25];
    expect[19] = 1.0;
    assert_eq!(run.exact().kill_by_turn, expect);
}

#[test]
fn an_msv_takes_two_actions_with_different_systems_and_others_one() {
    // §5: an MSV two actions a turn, the second with another weapon system (so a third
    // system is never fired in the same turn); a vehicle, or an under-crewed MSV, one.
    let systems = vec![weapon("A", 12, 0), weapon("B", 11, 0), weapon("C", 10, 0)];
    let t = Target::generic(3);
    let c = Conditions::default();
    let plan = |kind, cond: &Conditions| {
        let a = Attacker::simple("X", kind, 4, systems.clone());
        let run = AttackRun::new(&a, &t, cond, &Options::default(), Policy::BestExpected, 3).unwrap();
        run.plan.iter().map(|s| (s.turn, s.system)).collect::<Vec<_>>()
    };
    assert_eq!(plan(UnitKind::Msv, &c), vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    assert_eq!(plan(UnitKind::Vehicle, &c), vec![(0, 0), (1, 0), (2, 0)]);
    let crewless = Conditions { under_crewed: true, ..c };
    assert_eq!(plan(UnitKind::Msv, &crewless), vec![(0, 0), (1, 0), (2, 0)]);
}

/// Duels of A, a vehicle that always hits (to-hit +10, so even without fire control) for
/// `a_damage` life, against B, a vehicle whose 20-damage shot hits only with its fire
/// control (T = 10 + 1 + 20 - 11 range = 20, else 0), both AC1 without power armour.
///
/// Turn 1: if B acts first (1/2) it is at 20 life and kills A; A, eliminated, still acts
/// and hits, but B survives: B wins on turn 1. If A acts first (1/2), B is left with
/// 20 - `a_damage` life; in the red (5 or less) it must pass a jury rig (10 or less on
/// a d20, 1/2) to keep fire control and kill A, else it misses. So P(B wins on turn 1) =
/// 1 when B is left out of the red, 1/2 + 1/2 x 1/2 = 3/4 when in the red.
fn b_first_turn_wins(a_damage: u32, n: u64) -> DuelTally {
    let mut a = Attacker::simple("A", UnitKind::Vehicle, 1, vec![weapon("Sure", a_damage, 0)]);
    a.to_hit_bonus = 10;
    let mut needs_fc = weapon("Needs FC", 20, 20);
    (needs_fc.opt, needs_fc.drop, needs_fc.drop_per) = (0, 11, 100);
    let b = Attacker::simple("B", UnitKind::Vehicle, 1, vec![needs_fc]);
    let t = Target::generic(1);
    let duel = Duel::new((&a, &t), (&b, &t), &Conditions::at_range(1.0), &Options::default(), Policy::BestExpected, 20)
        .unwrap();
    let cfg = RunConfig { seed: 17, trials: Trials::Fixed(n), ..RunConfig::default() };
    run(&[Cell { key: a_damage as u64, kernel: &duel }], &cfg, &Silent).unwrap().remove(0)
}

#[test]
fn in_the_red_is_five_or_less_life() {
    // 14 damage leaves B at 6: not in the red, B always wins turn 1. 15 leaves B at 5:
    // in the red, 3/4 (see `b_first_turn_wins`).
    let n = 20_000;
    let six = b_first_turn_wins(14, n);
    assert_eq!(six.b_wins_by_turn[0], n, "6 life is not in the red");
    let five = b_first_turn_wins(15, n);
    assert!(consistent(five.b_wins_by_turn[0], n, 0.75, FAMILY_ALPHA), "5 life is in the red: {five:?}");
}

#[test]
fn a_jury_rig_succeeds_on_ten_or_less() {
    // B at 5 life keeps fire control with a d20 of 10 or less: P(B wins turn 1) =
    // 1/2 + 1/2 x 10/20 = 0.75 exactly (9 or 11 would give 0.725 or 0.775).
    let n = 100_000;
    let d = b_first_turn_wins(15, n);
    assert!(consistent(d.b_wins_by_turn[0], n, 0.75, FAMILY_ALPHA), "{d:?}");
    for wrong in [0.725, 0.775] {
        assert!(!consistent(d.b_wins_by_turn[0], n, wrong, FAMILY_ALPHA), "cannot tell 0.75 from {wrong}");
    }
}

#[test]
fn the_initiative_split_counts_who_won_turn_one_s_roll() {
    // `b_first_turn_wins(15)`: B acting first in turn 1 always kills A, so A never wins
    // when B acts first; acting first, A wins whenever B's jury rig fails and A's next
    // shot lands first.
    let n = 20_000;
    let t = b_first_turn_wins(15, n);
    assert_eq!(t.a_first + t.b_first, n);
    assert!(consistent(t.a_first, n, 0.5, FAMILY_ALPHA), "{t:?}");
    assert_eq!(t.a_wins_b_first, 0, "{t:?}");
    assert_eq!(t.a_wins_a_first, t.a_wins());
    assert!(t.a_wins_a_first > 0);
    let s = t.initiative();
    assert!(s.decided_by_initiative() || s.own_first.unwrap().p <= 0.25, "{s:?}");
}
