//! `SPLIT_SHOTS`: one system's shots at several targets, against hand-computed vectors.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::Action;
use super::super::policy::Greedy;
use super::super::test_support::{TestBattle, catalogue, options, tally, turn_one};
use crate::engine::battle::{BattlePolicy, BattleRules, Outcome};
use crate::rules::techcommander::options::Options;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

const CATALOGUE: &str = include_str!("book_cards.toml");

fn close(x: f32, y: f64) -> bool {
    (x as f64 - y).abs() < 1e-5 * y.abs().max(1.0)
}

#[test]
fn a_two_shot_system_splits_between_two_troopers() {
    // The post (speed 0: no special attack) fires a 2-shot, 20-damage system at two
    // unarmed AC1 troopers (slots 1 and 2), undug: each shot kills with p = 11/20 (T 11),
    // q = 9/20. Greedy score of k shots at one trooper, V its points, DAMAGE_WEIGHT 1/4:
    // 1 shot V (p + p/4) = 1.25 × 11/20 V = 0.6875 V; 2 shots 1.25 × (1 − q²) V =
    // 1.25 × 319/400 V = 0.996875 V. The second shot adds 0.309375 V at the same trooper,
    // 0.6875 V at the other: one shot each, score 1.375 V > 0.996875 V.
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(options()).max_turns(1).game();
    let s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
    let v = g.units[1].points;
    assert!(close(g.part_score(&s, 0, 0, 1, 1), 0.6875 * v));
    assert!(close(g.part_score(&s, 0, 0, 1, 2), 0.996875 * v));
    let plan = g.split_plan(&s, 0, 0, 1).expect("splits");
    assert_eq!(&plan.parts[..plan.len], &[(1, 1), (2, 1)]);
    assert!(close(plan.score, 1.375 * v));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    assert!(matches!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Split { actor: 0, system: 0, target: 1 })));
    // The battle, one turn, one action: both troopers die with p² = 121/400 (every
    // shot at one trooper: never). A one-off kernel (T 10: 1/4) must not fit.
    let n = 40_000u64;
    let alpha = FAMILY_ALPHA / 3.0;
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(options()).max_turns(1).kernel();
    let t = tally(&k, n as u32, 11);
    let won = t.decided_by_turn()[0];
    assert!(consistent(won, n, 121.0 / 400.0, alpha), "{won}/{n}");
    assert!(!consistent(won, n, 100.0 / 400.0, alpha), "{won}/{n} fits the one-off 1/4 too");
    // SPLIT_SHOTS=false: both shots at one trooper, the other survives the turn.
    let o = Options { split_shots: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(o).max_turns(1).kernel();
    assert_eq!(tally(&k, 2000, 11).decided_by_turn()[0], 0, "SPLIT_SHOTS=false");
    // At the defaults the troopers are dug in for free (FREE_DIG_IN): p = 9/20, both
    // die with 81/400.
    let defaults = Options { force_budget: 1000, ..Options::default() };
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(defaults).max_turns(1).kernel();
    let t = tally(&k, n as u32, 12);
    let won = t.decided_by_turn()[0];
    assert!(consistent(won, n, 81.0 / 400.0, alpha), "defaults: {won}/{n}");
}

#[test]
fn a_target_that_needs_no_more_shots_gets_none() {
    // Shots that always hit and kill: one shot at a trooper is worth all it can be
    // (the second adds 0), so the second goes at the next trooper. Against three
    // troopers exactly two die, every time; SPLIT_SHOTS=false: exactly one.
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Twin Sure Post", "3*Blank Trooper").options(options()).max_turns(1).game();
    let s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
    assert!(close(g.part_score(&s, 0, 0, 1, 1), g.part_score(&s, 0, 0, 1, 2) as f64));
    let plan = g.split_plan(&s, 0, 0, 1).expect("splits");
    assert_eq!(&plan.parts[..plan.len], &[(1, 1), (2, 1)]);
    for (split, dead) in [(true, 2), (false, 1)] {
        let o = Options { split_shots: split, ..options() };
        let g = TestBattle::skirmish(&cat, "Twin Sure Post", "3*Blank Trooper").options(o).max_turns(1).game();
        let mut s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let a = Greedy.choose(&g, &s, 0, 0, &mut rng).expect("an attack");
        g.act(&mut s, 0, a, &mut rng, &mut Outcome::new());
        let killed = (1..4).filter(|&t| s.life[t] <= 0).count();
        assert_eq!(killed, dead, "SPLIT_SHOTS={split}");
        assert_ne!(s.used[0], 0, "the system is spent");
    }
}
