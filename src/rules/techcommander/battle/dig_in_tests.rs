//! Dig in against hand-computed vectors (techcommander-battles.md §2.4, `POLICY_DIG_IN`).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::Action;
use super::super::test_support::{TestBattle, catalogue, options, tally, turn_one};
use crate::engine::battle::{BattlePolicy, BattleRules, Outcome};
use crate::rules::techcommander::conditions::{Conditions, Movement};
use crate::rules::techcommander::options::{Options, Weight};
use crate::stats::binomial::consistent;

/// The book-rule test cards (`book_cards.toml`, shared with the command-line tests): a
/// 1-shot 20-damage gun (T 11 against AC1), a gun that always hits (fire control +20), a
/// gun that never hits at range 12, and the vehicles carrying them.
const CATALOGUE: &str = include_str!("book_cards.toml");

fn on() -> Options {
    Options { policy_dig_in: true, ..options() }
}

#[test]
fn a_unit_with_nothing_to_shoot_digs_in_and_is_harder_to_hit() {
    // The duck cannot hit back, so with POLICY_DIG_IN it digs in when it acts first
    // (P 1/2): the car then hits on 11 − 2 = 9, else on 11. P(the duck dies in turn 1)
    // = 1/2 × 9/20 + 1/2 × 11/20 = 1/2; with the option off 11/20.
    let cat = catalogue(CATALOGUE);
    let n = 100_000u64;
    let k = TestBattle::skirmish(&cat, "Gun Car", "Duck").options(on()).max_turns(1).kernel();
    let t = tally(&k, n as u32, 1);
    assert!(consistent(t.wins[0], n, 0.5, 1e-6), "dug in: {}/{n}", t.wins[0]);
    let off = Options { policy_dig_in: false, ..on() };
    let k = TestBattle::skirmish(&cat, "Gun Car", "Duck").options(off).max_turns(1).kernel();
    let t = tally(&k, n as u32, 1);
    assert!(consistent(t.wins[0], n, 11.0 / 20.0, 1e-6), "off: {}/{n}", t.wins[0]);
}

#[test]
fn the_threshold_decides_when_a_weak_shot_gives_way_to_digging_in() {
    // The car's shot at the duck scores 1 × 11/20 + 0.25 × 11/20 = 0.6875 for the car's
    // side, the duck's nothing. A threshold of 0.7 makes the car dig in instead of
    // shooting: the duck never dies.
    let cat = catalogue(CATALOGUE);
    let o = Options { dig_in_threshold: Weight(0.7), ..on() };
    let k = TestBattle::skirmish(&cat, "Gun Car", "Duck").options(o).max_turns(1).kernel();
    let t = tally(&k, 20_000, 2);
    assert_eq!(t.wins[0], 0);
}

#[test]
fn a_dug_in_unit_returns_fire_once() {
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Sure Car", "Sure Bunker").options(on()).max_turns(1).kernel();
    let g = k.game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut s = g.new_state();
    let mut out = Outcome::new();
    g.begin_battle(&mut s, &mut rng);
    s.left = [100; crate::engine::battle::MAX_SIDES];
    s.actions[..2].copy_from_slice(&[5, 5]);
    g.act(&mut s, 1, Action::DigIn { unit: 1 }, &mut rng, &mut out);
    assert!(s.dug_in[1] && s.return_ready[1] && s.actions[1] == 4);
    // The car's sure shot: 20 damage on AC10 = 2 life; the return shot 20 on AC3 = 6.
    g.act(&mut s, 0, Action::Attack { actor: 0, system: 0, target: 1 }, &mut rng, &mut out);
    assert_eq!((s.life[0], s.life[1]), (14, 18));
    assert_eq!(s.used[1], 0, "return fire is exempt from SYSTEM_ONCE_PER_TURN");
    assert_eq!(s.actions[1], 4, "return fire costs no action");
    // Only one return attack.
    s.used[0] = 0;
    g.act(&mut s, 0, Action::Attack { actor: 0, system: 0, target: 1 }, &mut rng, &mut out);
    assert_eq!((s.life[0], s.life[1]), (14, 16));
    // 3rd edition "Dig In": it stays dug in "until it moves position", across Reset,
    // and its one return attack stays spent.
    g.end_turn(&mut s, 0, &mut rng, &mut out);
    assert!(s.dug_in[1] && !s.return_ready[1]);
    // Stationary, its own attack does not move it.
    s.actions[1] = 1;
    g.act(&mut s, 1, Action::Attack { actor: 1, system: 0, target: 0 }, &mut rng, &mut out);
    assert!(s.dug_in[1], "a stationary attack keeps it dug in");
}

#[test]
fn a_dug_in_unit_stays_dug_in_until_it_moves_position() {
    // Under a half move its attack moves it: the dig-in ends. Pop and shoot does not
    // ("other than pop and shoot or rotating in place"), nor does a new turn.
    let cat = catalogue(CATALOGUE);
    for (movement, stays) in [(Movement::Half, false), (Movement::Full, false), (Movement::Stationary, true)] {
        let c = Conditions { movement, ..Conditions::at_range(12.0) };
        let k = TestBattle::skirmish(&cat, "Sure Car", "Sure Bunker").options(on()).conditions(c).max_turns(3).kernel();
        let g = k.game();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut s = g.new_state();
        let mut out = Outcome::new();
        g.begin_battle(&mut s, &mut rng);
        s.left = [100; crate::engine::battle::MAX_SIDES];
        s.actions[..2].copy_from_slice(&[5, 5]);
        g.act(&mut s, 1, Action::DigIn { unit: 1 }, &mut rng, &mut out);
        g.end_turn(&mut s, 0, &mut rng, &mut out);
        assert!(s.dug_in[1], "{movement:?}: dug in after Reset");
        g.act(&mut s, 1, Action::Attack { actor: 1, system: 0, target: 0 }, &mut rng, &mut out);
        assert_eq!(s.dug_in[1], stays, "{movement:?}");
    }
    assert!(!super::moves_position(Movement::PopAndShoot));
    assert!(super::moves_position(Movement::AttackAndCover));
}

#[test]
fn a_dug_in_target_is_scored_at_its_penalty() {
    // Two ducks: the car scores each 1 × 11/20 + 0.25 × 11/20 = 0.6875, and ties go to
    // the earlier. Dug in, the first is hit on 9: 1.25 × 9/20 = 0.5625, so the car shoots
    // the second, and every score of a shot at the first reads the dug-in tables.
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Gun Car", "2*Duck").options(on()).max_turns(1).kernel();
    let g = k.game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut s = turn_one(g, &mut rng);
    let greedy = |s: &super::super::game::State, rng: &mut Xoshiro256PlusPlus| {
        super::super::policy::Greedy.choose(g, s, 0, 0, rng)
    };
    assert_eq!(greedy(&s, &mut rng), Some(Action::Attack { actor: 0, system: 0, target: 1 }));
    assert!((g.score(&s, 0, 0, 1).unwrap() - 0.6875).abs() < 1e-6);
    s.dug_in[1] = true;
    assert!((g.score(&s, 0, 0, 1).unwrap() - 0.5625).abs() < 1e-6);
    assert_eq!(g.best_system_at(&s, 0, 1, 20).map(|b| b.0), Some(0));
    assert!((g.best_system_at(&s, 0, 1, 20).unwrap().1 - 0.5625).abs() < 1e-6);
    assert_eq!(greedy(&s, &mut rng), Some(Action::Attack { actor: 0, system: 0, target: 2 }));
    assert_eq!(
        super::super::policy::FocusLowest.choose(g, &s, 0, 0, &mut rng),
        Some(Action::Attack { actor: 0, system: 0, target: 2 })
    );
}

#[test]
fn dig_in_is_off_by_default() {
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Gun Car", "Duck").max_turns(1).kernel();
    assert!(k.game().dug_in_tables.is_none());
}
