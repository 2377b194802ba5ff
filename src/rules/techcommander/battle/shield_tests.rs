//! Bubble shields in battles against the duel (draw for draw, and exactly), the shots'
//! mechanics one action at a time, and the rallied groups' scores against their play.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::{Action, State, TcGame};
use super::super::test_support::{TestBattle, catalogue, first_action, options, tally};
use crate::engine::Kernel;
use crate::engine::battle::{BattleRules, Outcome};
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::{Attacker, Duel, Policy, Target};
use crate::stats::binomial::consistent;

/// Guns that break a fresh shield in one hit (20 damage) or two (12 × 3), slow and fast
/// cars (speed 10 gets inside a shield at range 12, `SHIELD_BYPASS`, but rams nobody), a car (which
/// sorties) and a troop (which leaves its shield to fire) carrying one or two shields,
/// and a walker (an MSV: Omega Override, split shots).
const SHIELD_CATALOGUE: &str = r#"
[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Cannon"
damage = 12
shots = 3
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Rifle"
damage = 9
shots = 2
fire_control = 1
opt = 100
weight = 1
power = 0

[[gear]]
name = "Projector"
weight = 1
power = 0
rounds = 1
bubble_shield = true

[[gear]]
name = "Twin Projector"
weight = 1
power = 0
rounds = 2
bubble_shield = true

[[unit]]
name = "Car"
kind = "vehicle"
ac = 3

[[unit]]
name = "Fast Car"
kind = "vehicle"
ac = 3
speed = 10

[[unit]]
name = "Trooper"
kind = "troop"
ac = 1

[[unit]]
name = "Walker"
kind = "msv"
ac = 4
free_weight = 20
free_power = 20

[[build]]
name = "Gun Car"
unit = "Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Cannon Car"
unit = "Car"
weapons = [{ name = "Cannon" }]

[[build]]
name = "Fast Gun Car"
unit = "Fast Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Shield Car"
unit = "Car"
weapons = [{ name = "Cannon" }]
gear = ["Projector"]

[[build]]
name = "Twin Shield Car"
unit = "Car"
weapons = [{ name = "Gun" }]
gear = ["Twin Projector"]

[[build]]
name = "Shield Trooper"
unit = "Trooper"
weapons = [{ name = "Gun" }]
gear = ["Projector"]

[[build]]
name = "Twin Shield Trooper"
unit = "Trooper"
weapons = [{ name = "Cannon" }]
gear = ["Twin Projector"]

[[build]]
name = "Rifleman"
unit = "Trooper"
weapons = [{ name = "Rifle" }]

[[build]]
name = "Cannon Walker"
unit = "Walker"
weapons = [{ name = "Cannon" }, { name = "Gun" }]
"#;

/// One unit a side, each carrying a single system, every shield rule in play: a
/// sortieing carrier, a carrier that leaves to fire, two shields, a bypassing attacker,
/// both sides carrying.
const PAIRS: [(&str, &str); 6] = [
    ("Gun Car", "Shield Car"),
    ("Fast Gun Car", "Shield Car"),
    ("Cannon Car", "Shield Trooper"),
    ("Fast Gun Car", "Twin Shield Trooper"),
    ("Shield Car", "Shield Trooper"),
    ("Twin Shield Car", "Cannon Car"),
];

/// Options for one-a-side battles that are duels: no rallied group, no free dig-in.
fn duel_options() -> Options {
    Options { rally_at_deploy: false, ..options() }
}

/// The duel of `a` against `b` at range 12 under `o`, 20 turns.
fn duel(a: &str, b: &str, o: &Options) -> Duel {
    let cat = catalogue(SHIELD_CATALOGUE);
    let side = |name: &str| {
        let build = cat.build(name).unwrap();
        (Attacker::from_build(&cat, build), Target::from_build(&cat, build))
    };
    let (da, db) = (side(a), side(b));
    Duel::new((&da.0, &da.1), (&db.0, &db.1), &Conditions::at_range(12.0), o, Policy::default(), 20).unwrap()
}

#[test]
fn one_unit_a_side_plays_the_shield_duel_draw_for_draw() {
    // The battle drops, leaves, breaks and recharges shields as the duel does, drawing
    // its numbers in the duel's order: the counts are identical.
    let cat = catalogue(SHIELD_CATALOGUE);
    let o = duel_options();
    for (a, b) in PAIRS {
        let t = tally(&TestBattle::skirmish(&cat, a, b).options(o).max_turns(20).kernel(), 30_000, 5);
        let d = duel(a, b, &o);
        let mut dt = d.new_tally();
        d.play(&mut Xoshiro256PlusPlus::seed_from_u64(5), 30_000, &mut dt);
        assert_eq!((t.wins[0], t.wins[1], t.draws), (dt.a_wins(), dt.b_wins(), dt.draws()), "{a} vs {b}");
        let ended: Vec<u64> =
            (0..20).map(|i| dt.a_wins_by_turn[i] + dt.b_wins_by_turn[i] + dt.mutual_by_turn[i]).collect();
        assert_eq!(t.ended_in_turn, ended, "{a} vs {b}: end turns");
    }
}

#[test]
fn one_unit_a_side_battles_agree_with_the_exact_shield_duel() {
    // A wins, B wins, draws and the end turns 1..=4 of each pair at exact binomial
    // bounds (family alpha 1e-6 over 6 pairs × 7 counts); the exact duel without
    // shields is rejected in every pair (the bypassing attacker's too: it fires after a
    // half move while the shield stands).
    let cat = catalogue(SHIELD_CATALOGUE);
    let o = duel_options();
    let bare = Options { bubble_shield: false, ..o };
    let alpha = 1e-6 / 42.0;
    let n = 40_000u64;
    let mut rejected = Vec::new();
    for (a, b) in PAIRS {
        let t = tally(&TestBattle::skirmish(&cat, a, b).options(o).max_turns(20).kernel(), n as u32, 9);
        let counts = |x: &crate::rules::techcommander::exact_duel::ExactDuel| {
            let mut v = vec![(t.wins[0], x.p_a_wins()), (t.wins[1], x.p_b_wins()), (t.draws, x.p_mutual_kill())];
            for turn in 0..4 {
                let p = x.a_wins_by_turn[turn] + x.b_wins_by_turn[turn] + x.mutual_by_turn[turn];
                v.push((t.ended_in_turn[turn], p));
            }
            v
        };
        for (k, p) in counts(&duel(a, b, &o).exact()) {
            assert!(consistent(k, n, p, alpha), "{a} vs {b}: {k}/{n} vs exact {p}");
        }
        if counts(&duel(a, b, &bare).exact()).into_iter().any(|(k, p)| !consistent(k, n, p, alpha)) {
            rejected.push((a, b));
        }
    }
    assert_eq!(rejected, PAIRS.to_vec());
}

/// The game of `a` against `b` at range 12 under `o`, and its first action's state.
fn start(a: &str, b: &str, o: Options, seed: u64) -> (TcGame, State) {
    let cat = catalogue(SHIELD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, a, b).options(o).game();
    let s = first_action(&g, seed);
    (g, s)
}

/// `side` takes `action` in `s`.
fn act(g: &TcGame, s: &mut State, side: usize, action: Action, rng: &mut Xoshiro256PlusPlus) {
    let mut out = Outcome::new();
    g.act(s, side, action, rng, &mut out);
}

#[test]
fn a_shot_at_a_fresh_carrier_drops_a_shield_that_takes_all_of_it() {
    // Slot 0 attacks slot 1. Without bypass the unit never loses life and the shield
    // loses what the unit would (at most all 20, the overflow lost); a bypassing
    // attacker's shots reach the unit and leave the dropped shield standing.
    let o = duel_options();
    for (a, b, bypass) in [
        ("Gun Car", "Shield Car", false),
        ("Cannon Car", "Shield Trooper", false),
        ("Fast Gun Car", "Shield Car", true),
    ] {
        let (mut broke, mut hurt) = (0, 0);
        for seed in 0..400 {
            let (g, mut s) = start(a, b, o, seed);
            assert_eq!((s.cover[1], s.spare[1], s.settled[1]), (0, 1, false), "{a} vs {b}: deployed");
            act(
                &g,
                &mut s,
                0,
                Action::Attack { actor: 0, system: 0, target: 1 },
                &mut Xoshiro256PlusPlus::seed_from_u64(seed),
            );
            assert_eq!((s.spare[1], s.settled[1]), (0, true), "{a} vs {b}: dropped");
            if bypass {
                assert_eq!(s.cover[1], 20, "{a} vs {b}: the shield takes none of it");
                hurt += (s.life[1] < 20) as u32;
            } else {
                assert_eq!(s.life[1], 20, "{a} vs {b}: the unit takes none of it");
                broke += (s.cover[1] == 0) as u32;
            }
        }
        assert!(broke + hurt > 50, "{a} vs {b}: shots land ({broke}, {hurt})");
    }
}

#[test]
fn a_covered_carrier_leaves_its_shield_to_fire_unless_it_sorties() {
    let o = duel_options();
    for (carrier, sorties) in [("Shield Trooper", false), ("Shield Car", true)] {
        let (g, mut s) = start("Gun Car", carrier, o, 3);
        s.cover[1] = 20;
        s.spare[1] = 0;
        s.settled[1] = true;
        act(
            &g,
            &mut s,
            1,
            Action::Attack { actor: 1, system: 0, target: 0 },
            &mut Xoshiro256PlusPlus::seed_from_u64(3),
        );
        assert_eq!(s.cover[1] == 20, sorties, "{carrier}");
        assert!(s.settled[1], "{carrier}: no new shield this turn");
    }
}

#[test]
fn reset_recharges_a_standing_shield_and_lets_a_carrier_drop_again() {
    let o = duel_options();
    let (g, mut s) = start("Gun Car", "Twin Shield Trooper", o, 1);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut out = Outcome::new();
    // A damaged shield standing, no other drop this turn.
    (s.cover[1], s.spare[1], s.settled[1]) = (7, 1, true);
    assert!(g.end_turn(&mut s, 0, &mut rng, &mut out).is_none());
    assert_eq!((s.cover[1], s.spare[1], s.settled[1]), (20, 1, false));
    // A broken shield: none covers it, and it may drop its last one.
    (s.cover[1], s.settled[1]) = (0, true);
    assert!(g.end_turn(&mut s, 1, &mut rng, &mut out).is_none());
    assert_eq!((s.cover[1], s.spare[1], s.settled[1]), (0, 1, false));
    act(&g, &mut s, 0, Action::Attack { actor: 0, system: 0, target: 1 }, &mut rng);
    assert_eq!((s.spare[1], s.settled[1]), (0, true));
    assert_eq!(s.life[1], 20);
}

#[test]
fn omega_overrides_and_split_shots_hit_the_shield_too() {
    // The walker's Omega Override and its split shots at a fresh carrier: the carrier's
    // shield takes them, never the unit (no attacker here bypasses).
    let o = Options { omega_in_battles: true, ..duel_options() };
    let (mut omegas, mut splits) = (0, 0);
    for seed in 0..300 {
        let (g, mut s) = start("Cannon Walker", "Shield Car+Shield Trooper", o, seed);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        act(&g, &mut s, 0, Action::Omega { actor: 0, target: 1 }, &mut rng);
        if s.settled[1] {
            omegas += 1;
            assert_eq!((s.life[1], s.spare[1]), (20, 0), "seed {seed}: Omega");
        }
        // Both shields standing at 9: one hit of 12 breaks either, so the cannon splits.
        let (g, mut s) = start("Cannon Walker", "Shield Car+Shield Trooper", o, seed);
        for t in [1, 2] {
            (s.cover[t], s.spare[t], s.settled[t]) = (9, 0, true);
        }
        if g.split_plan(&s, 0, 0, 1).is_some() {
            splits += 1;
            act(&g, &mut s, 0, Action::Split { actor: 0, system: 0, target: 1 }, &mut rng);
            for t in [1, 2] {
                assert_eq!(s.life[t], 20, "seed {seed}: split share at unit {t}");
            }
        }
    }
    assert!(omegas > 100, "{omegas} Omega Overrides fired");
    assert_eq!(splits, 300, "the cannon splits between two shields at 9");
}

/// The score functional of one played group action at the enemies `targets` (in
/// order), as the walks score it: per target V × 1{eliminated} + `DAMAGE_WEIGHT` × V ×
/// (1{its shield, met at the start, broken} + life lost / 20).
fn played_value(g: &TcGame, before: &State, after: &State, a: usize, targets: &[usize]) -> f64 {
    targets
        .iter()
        .map(|&t| {
            let v = g.rally.value(a, t);
            let l0 = before.life[t].clamp(1, 20);
            let lost = (l0 - after.life[t].max(0)) as f64;
            let killed = (after.life[t] <= 0) as u32 as f64;
            let met = g.shield_life(before, t) > 0;
            let broken = (met && after.cover[t] == 0) as u32 as f64;
            let from_full = if l0 == 20 { v.kill_from_full } else { 0.0 };
            v.kill * killed + g.o.damage_weight.0 * v.kill * broken + from_full * killed + v.damage * lost / 20.0
        })
        .sum()
}

/// Mean and standard error of `f` over `n` draws.
fn mean_se(n: u32, mut f: impl FnMut(u64) -> f64) -> (f64, f64) {
    let (mut sum, mut sq) = (0.0, 0.0);
    for i in 0..n {
        let x = f(i as u64);
        sum += x;
        sq += x * x;
    }
    let mean = sum / n as f64;
    (mean, ((sq / n as f64 - mean * mean) / n as f64).sqrt())
}

#[test]
fn a_rallied_attack_at_a_carrier_scores_what_its_play_gives() {
    // Three riflemen's Rallied Attack at a fresh carrier, and at one whose damaged
    // shield stands: the exact walk's score against the mean of the played action
    // (within 5 standard errors of 200,000 plays); the score read as if no shield
    // stood (the walk without it) is rejected.
    let o = options();
    for cover in [None, Some(9u8)] {
        let (g, mut s) = start("3*Rifleman", "Shield Car", o, 2);
        if let Some(c) = cover {
            (s.cover[3], s.spare[3], s.settled[3]) = (c, 0, true);
        }
        let score = g.rally_attack_score(&s, 0, 3).unwrap() as f64;
        let (mean, se) = mean_se(200_000, |i| {
            let mut p = s.clone();
            g.rally_attack(&mut p, 0, 3, &mut Xoshiro256PlusPlus::seed_from_u64(i));
            played_value(&g, &s, &p, 0, &[3])
        });
        assert!((score - mean).abs() < 5.0 * se + 1e-6, "{cover:?}: score {score} vs played {mean} ± {se}");
        let mut bare = s.clone();
        (bare.cover[3], bare.spare[3]) = (0, 0);
        let plain = g.rally_attack_score(&bare, 0, 3).unwrap() as f64;
        assert!((plain - mean).abs() > 5.0 * se, "{cover:?}: the unshielded score {plain} is not rejected");
    }
}

#[test]
fn a_rallied_assault_on_carriers_scores_what_its_play_gives() {
    // Three riflemen assault a group of a twin-shield trooper and a shield trooper. In
    // the first case the first member stands at 5 life with no shield this turn (it
    // dropped one), so the assault soon meets the second's shield, up at 6; in the
    // second, the first drops a fresh one. The walk over (member, shield, life) against
    // 200,000 plays each, and the walk without shields rejected.
    let o = options();
    for fresh in [false, true] {
        let (g, mut s) = start("3*Rifleman", "Twin Shield Trooper+Shield Trooper", o, 4);
        if !fresh {
            (s.life[3], s.spare[3], s.settled[3]) = (5, 1, true);
            s.stand(3);
        }
        (s.cover[4], s.spare[4], s.settled[4]) = (6, 0, true);
        assault_against_play(&g, &s, fresh);
    }
}

/// [`a_rallied_assault_on_carriers_scores_what_its_play_gives`] from `s`.
fn assault_against_play(g: &TcGame, s: &State, fresh: bool) {
    let targets = [3usize, 4];
    let score = g.assault_score(s, 0, 1).unwrap() as f64;
    let (mean, se) = mean_se(200_000, |i| {
        let mut p = s.clone();
        g.assault(&mut p, 0, 1, &mut Xoshiro256PlusPlus::seed_from_u64(i));
        played_value(g, s, &p, 0, &targets)
    });
    assert!((score - mean).abs() < 5.0 * se + 1e-6, "fresh {fresh}: score {score} vs played {mean} ± {se}");
    let mut bare = s.clone();
    for t in targets {
        (bare.cover[t], bare.spare[t]) = (0, 0);
    }
    let plain = g.assault_score(&bare, 0, 1).unwrap() as f64;
    assert!((plain - mean).abs() > 5.0 * se, "fresh {fresh}: the unshielded score {plain} is not rejected");
}
