//! The books' battle rules that volley used to leave out, against hand-computed vectors:
//! the −2 of a dug-in target for special attacks, Omega Overrides and offloads, Rallied
//! Assault without move modifiers, an overrun that also fires (`OVERRUN_FIRE`), an
//! aerial unit in the red (`AERIAL_IN_THE_RED`) and troops dug in for free
//! (`FREE_DIG_IN`).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::test_support::{TestBattle, catalogue, options, turn_one};
use crate::engine::battle::{BattleRules, MAX_SIDES, Outcome};
use crate::rules::techcommander::conditions::{Conditions, Movement};
use crate::rules::techcommander::options::{AerialInTheRed, Options};
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

/// The book-rule test cards (`book_cards.toml`, shared with the command-line tests).
const CATALOGUE: &str = include_str!("book_cards.toml");

fn dig() -> Options {
    Options { policy_dig_in: true, ..options() }
}

/// A deployed first-turn state with budgets and actions to spare.
fn ready(g: &TcGame, seed: u64) -> State {
    let mut s = turn_one(g, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
    s.left = [100; MAX_SIDES];
    for a in &mut s.actions[..g.units.len()] {
        *a = 5;
    }
    s
}

/// Plays `action` of `side` `n` times, each from a copy of `start`, and counts the
/// results for which `hit` holds.
fn count(g: &TcGame, start: &State, side: usize, action: Action, n: u64, hit: impl Fn(&State) -> bool) -> u64 {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
    let mut k = 0;
    for _ in 0..n {
        let mut s = start.clone();
        g.act(&mut s, side, action, &mut rng, &mut Outcome::new());
        k += hit(&s) as u64;
    }
    k
}

/// Consistent with `p` and not with `wrong` (the old reading: the negative control).
fn fits(k: u64, n: u64, p: f64, wrong: f64) -> bool {
    let alpha = FAMILY_ALPHA / 2.0;
    consistent(k, n, p, alpha) && !consistent(k, n, wrong, alpha)
}

#[test]
fn a_ram_at_a_dug_in_unit_takes_the_penalty() {
    // Ram AC4 -> AC4 (CLOSE_MODIFIERS): T = 10 + 4 + 2 (fire control) = 16, dug in 14.
    // The target takes 4 × d20 / 4 = d20 life: it dies on a 20. P(kill) = 14/20 × 1/20 =
    // 7/200 dug in (was 16/20 × 1/20 = 1/25).
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Wall", "Wall").options(dig()).game();
    let mut s = ready(&g, 1);
    s.dug_in[1] = true;
    let ram = Action::Attack { actor: 0, system: g.facts[0].nsys, target: 1 };
    let n = 200_000;
    let k = count(&g, &s, 0, ram, n, |s| s.life[1] <= 0);
    assert!(fits(k, n, 7.0 / 200.0, 1.0 / 25.0), "{k}/{n}");
    s.dug_in[1] = false;
    let k = count(&g, &s, 0, ram, n, |s| s.life[1] <= 0);
    assert!(fits(k, n, 1.0 / 25.0, 7.0 / 200.0), "not dug in: {k}/{n}");
}

#[test]
fn an_omega_override_at_a_dug_in_unit_takes_the_penalty() {
    // Omega: no fire control, no positive modifiers: T = 10, dug in 8. One Gun hit takes
    // 20 / 4 = 5 life: P(the target is at 15) = 8/20 (was 10/20).
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gunner", "Wall").options(dig()).game();
    let mut s = ready(&g, 2);
    s.actions[0] = 2;
    s.dug_in[1] = true;
    let n = 40_000;
    let k = count(&g, &s, 0, Action::Omega { actor: 0, target: 1 }, n, |s| s.life[1] == 15);
    assert!(fits(k, n, 0.4, 0.5), "{k}/{n}");
}

#[test]
fn an_offload_shot_at_a_dug_in_unit_takes_the_penalty() {
    // The trooper fires from the offload at the Wall: T = 10 + 4 − 1 (offload) = 13,
    // dug in 11; a hit takes 5 life: P(15) = 11/20 (was 13/20).
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Wall", "Truck[Gun Trooper]").options(dig()).game();
    let mut s = ready(&g, 3);
    s.dug_in[0] = true;
    let n = 40_000;
    let k = count(&g, &s, 1, Action::Offload { carrier: 1, focus: false }, n, |s| s.life[0] == 15);
    assert!(fits(k, n, 11.0 / 20.0, 13.0 / 20.0), "{k}/{n}");
}

#[test]
fn a_rallied_assault_takes_no_move_modifier() {
    // Two Gun troopers assault two troopers under full movement: "No move modifiers
    // apply", so each shot is T = 10 + 1 = 11 (was 11 − 4 = 7). The first target dies
    // unless both shots miss: 1 − (9/20)² = 319/400 (was 1 − (13/20)² = 231/400).
    let cat = catalogue(CATALOGUE);
    let c = Conditions { movement: Movement::Full, ..Conditions::at_range(12.0) };
    let g = TestBattle::skirmish(&cat, "2*Gun Trooper", "2*Blank Trooper").conditions(c).game();
    let s = ready(&g, 4);
    let n = 40_000;
    let k = count(&g, &s, 0, Action::Assault { side: 1 }, n, |s| s.life[2] <= 0);
    assert!(fits(k, n, 319.0 / 400.0, 231.0 / 400.0), "{k}/{n}");
    // A Rallied Attack may move: it keeps the modifier (one target, 1 − (13/20)²).
    let k = count(&g, &s, 0, Action::RallyAttack { target: 2 }, n, |s| s.life[2] <= 0);
    assert!(fits(k, n, 231.0 / 400.0, 319.0 / 400.0), "rallied attack: {k}/{n}");
}

#[test]
fn an_overrun_also_fires_one_system_at_the_full_move_modifier() {
    // The Gunner overruns the Wall: it dodges on 12, else takes 4 × d20 / 4 = d20 life.
    // Then the Gun fires at the full-move modifier: T = 10 + 4 − 4 = 10, 5 life a hit.
    // P(the Wall keeps 20 life) = 12/20 × 10/20 = .3 (the overrun alone: .6), and the
    // Gun is spent for the turn.
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gunner", "Wall").game();
    let s = ready(&g, 5);
    let nsys = g.facts[0].nsys;
    let overrun = Action::Attack { actor: 0, system: nsys + super::specials::OVERRUN as u8, target: 1 };
    let n = 40_000;
    let k = count(&g, &s, 0, overrun, n, |s| s.life[1] == 20);
    assert!(fits(k, n, 0.3, 0.6), "{k}/{n}");
    let mut after = s.clone();
    g.act(&mut after, 0, overrun, &mut Xoshiro256PlusPlus::seed_from_u64(1), &mut Outcome::new());
    assert_eq!(after.used[0] & 1, 1, "the follow-up shot spends the Gun");
    // Switched off: the overrun alone.
    let off = Options { overrun_fire: false, ..options() };
    let g = TestBattle::skirmish(&cat, "Gunner", "Wall").options(off).game();
    let k = count(&g, &ready(&g, 5), 0, overrun, n, |s| s.life[1] == 20);
    assert!(fits(k, n, 0.6, 0.3), "OVERRUN_FIRE=false: {k}/{n}");
}

#[test]
fn the_greedy_policy_weighs_the_overruns_fire() {
    // Scores at the Wall (V = 4, damage weight .25), the Gunner at 20 life:
    // - Gun, stationary, T 14, 5 life a hit: .7 × 1 × 5/20 = .175;
    // - ram, T 16, target d20 life, the rammer floor(d20 / 2): .8 × (4/20 + 10.5/20) −
    //   .8 × 5/20 = .38;
    // - overrun, hit .4: .4 × (4/20 + 10.5/20) = .29, plus its fire (T 10, 5 life a hit):
    //   .5 × 5/20 = .125, so .415: the overrun wins (alone it lost to the ram).
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gunner", "Wall").game();
    let s = ready(&g, 6);
    let nsys = g.facts[0].nsys as usize;
    let (system, target, score) = g.best_shot(&s, 0, false).unwrap();
    assert_eq!((system, target), (nsys + super::specials::OVERRUN, 1));
    assert!((score - 0.415).abs() < 1e-5, "{score}");
    let off = Options { overrun_fire: false, ..options() };
    let g = TestBattle::skirmish(&cat, "Gunner", "Wall").options(off).game();
    let (system, _, score) = g.best_shot(&ready(&g, 6), 0, false).unwrap();
    assert_eq!(system, nsys, "without its fire the ram wins");
    assert!((score - 0.38).abs() < 1e-5, "{score}");
}

#[test]
fn an_aerial_unit_in_the_red_is_eliminated_unless_it_lands() {
    // 30 damage on AC2 takes 15 life: 5 left, in the red. An aerial unit "must
    // immediately land, if they cannot land, they are eliminated".
    let cat = catalogue(CATALOGUE);
    let shot = Action::Attack { actor: 0, system: 0, target: 1 };
    for (target, ruling, life) in [
        ("Hover", AerialInTheRed::Eliminated, 0),
        ("Hover", AerialInTheRed::Lands, 5),
        ("Jeep", AerialInTheRed::Eliminated, 5),
    ] {
        let o = Options { aerial_in_the_red: ruling, ..options() };
        let g = TestBattle::skirmish(&cat, "Sure Truck", target).options(o).game();
        let mut s = ready(&g, 8);
        g.act(&mut s, 0, shot, &mut Xoshiro256PlusPlus::seed_from_u64(1), &mut Outcome::new());
        assert_eq!(s.life[1], life, "{target} {ruling:?}");
        if life == 0 {
            assert_eq!(s.credit[1], 0, "the shot that put it in the red takes the kill");
        }
    }
    // The battle: the truck's one sure shot wins in turn 1 (was: never, the Hover had 5).
    let k = TestBattle::skirmish(&cat, "Sure Truck", "Hover").max_turns(1).kernel();
    let t = super::test_support::tally(&k, 200, 9);
    assert_eq!(t.wins[0], 200);
}

#[test]
fn troops_are_dug_in_for_free_before_they_act() {
    // The post (speed 0: no special attack) shoots a trooper that cannot hit back: T =
    // 10 + 1 = 11, dug in for free 9. P(it dies in turn 1) = 9/20 (off: 11/20). The
    // trooper's return attack has nothing that scores: no shot.
    let cat = catalogue(CATALOGUE);
    let n = 40_000u64;
    // The default is the book's reading: the options as a user gets them (a budget
    // for the test forces aside).
    let on = Options { force_budget: 1000, ..Options::default() };
    let k = TestBattle::skirmish(&cat, "Gun Post", "Blank Trooper").options(on).max_turns(1).kernel();
    let t = super::test_support::tally(&k, n as u32, 10);
    assert!(fits(t.wins[0], n, 9.0 / 20.0, 11.0 / 20.0), "{}/{n}", t.wins[0]);
    let g = k.game();
    let s = ready(g, 10);
    assert!(s.dug_in[1] && s.return_ready[1] && !s.dug_in[0], "declared as the turn begins, troops only");
    let off = Options { free_dig_in: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Gun Post", "Blank Trooper").options(off).max_turns(1).kernel();
    let t = super::test_support::tally(&k, n as u32, 10);
    assert!(fits(t.wins[0], n, 11.0 / 20.0, 9.0 / 20.0), "FREE_DIG_IN=false: {}/{n}", t.wins[0]);
    assert!(k.game().dug_in_tables.is_none(), "nothing to compile");
}
