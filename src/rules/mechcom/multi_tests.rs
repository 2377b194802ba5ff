//! Multi (`MULTI_POLICY`): a battle splits a Multi weapon's dice among targets.
//! Hand-computed battles, the Monte Carlo against their laws (exact binomial bounds, with
//! the other reading as a negative control), and one model a side against the duel,
//! draw for draw.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::battle::{ForceModel, LowestIntegrity, MostExpensiveFirst, SideModels, SquadGame, Squads};
use super::options::MultiPolicy;
use super::*;
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattleTally};
use crate::stats::DuelTally;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

fn one_target() -> Options {
    Options { multi_policy: MultiPolicy::OneTarget, ..Options::default() }
}

/// 3⚡ (one attack a round), Stability `stability`, a Multi gun of 2 dice, Damage 1.
fn multi_gunner(stability: i32) -> Model {
    let mut m = Mech::simple("multi", stability, 0, 4, 10);
    m.energy = 3;
    m.weapons = vec![Weapon::ranged("scatter", 6, Damage::Fixed(1), 2, &[Perk::Multi])];
    Model::new(&m, None)
}

/// Integrity 1, Armour 1 (every hit costs it), no Energy.
fn duck() -> Model {
    Model::new(&Mech::simple("duck", 4, 0, 1, 1), None)
}

fn play(a: &Model, ducks: usize, o: &Options, trials: u32, seed: u64) -> BattleTally {
    let side_a = vec![ForceModel { name: "A".into(), model: a.clone(), cost: 100 }];
    let side_b: Vec<ForceModel> =
        (0..ducks).map(|i| ForceModel { name: format!("duck {i}"), model: duck(), cost: 10 }).collect();
    let sit = Situation::at_range(4);
    let squads = Squads::new([SideModels { models: &side_a, sit }, SideModels { models: &side_b, sit }], o, 8).unwrap();
    let battle: Battle<SquadGame<LowestIntegrity>, MostExpensiveFirst> =
        Battle { game: SquadGame::new(squads), policy: MostExpensiveFirst };
    let mut t = battle.new_tally();
    battle.play(&mut Xoshiro256PlusPlus::seed_from_u64(seed), trials, &mut t);
    t
}

#[test]
fn a_multi_weapon_that_cannot_miss_takes_two_ducks_in_one_attack() {
    // Stability 1: both dice hit. Split, one die each destroys both ducks in round 1;
    // at one target the second duck waits for round 2.
    let split = play(&multi_gunner(1), 2, &Options::default(), 200, 1);
    assert_eq!((split.wins[0], split.ended_in_turn[0]), (200, 200));
    let one = play(&multi_gunner(1), 2, &one_target(), 200, 1);
    assert_eq!((one.wins[0], one.ended_in_turn[0], one.ended_in_turn[1]), (200, 0, 200));
}

/// P(the battle ends in round r), r = 1..=rounds, for the Multi gun at Stability 4
/// (each die takes a duck's 1 Integrity with 1/2) against two ducks. Split: with both
/// alive, one die each (the second die adds 1/2 at the other duck, 1/4 at the first):
/// both fall with 1/4, one with 1/2; with one left, both dice at it: it falls with 3/4.
/// One target: both dice at the first duck, which falls with 3/4, then the same at the
/// second.
fn two_ducks(split: bool, rounds: usize) -> Vec<f64> {
    let (mut both, mut one) = (1.0, 0.0);
    let mut ends = Vec::new();
    for _ in 0..rounds {
        if split {
            ends.push(both / 4.0 + one * 3.0 / 4.0);
            (both, one) = (both / 4.0, both / 2.0 + one / 4.0);
        } else {
            ends.push(one * 3.0 / 4.0);
            (both, one) = (both / 4.0, both * 3.0 / 4.0 + one / 4.0);
        }
    }
    ends
}

/// The counts of battles ended by each round outside [`two_ducks`]`(split)`.
fn off_the_ducks(t: &BattleTally, split: bool, alpha: f64) -> Vec<String> {
    let law = two_ducks(split, t.ended_in_turn.len());
    let (mut k, mut p) = (0, 0.0);
    let mut bad = Vec::new();
    for (r, (&c, &q)) in t.ended_in_turn.iter().zip(&law).enumerate() {
        k += c;
        p += q;
        if !consistent(k, t.trials, p.min(1.0), alpha) {
            bad.push(format!("by round {}: {k} of {} vs {p}", r + 1, t.trials));
        }
    }
    bad
}

#[test]
fn split_dice_battles_agree_with_the_hand_computed_law() {
    let law = two_ducks(true, 2);
    assert_eq!(law, vec![1.0 / 4.0, 7.0 / 16.0]);
    let alpha = FAMILY_ALPHA / 16.0;
    let split = play(&multi_gunner(4), 2, &Options::default(), 20_000, 3);
    let bad = off_the_ducks(&split, true, alpha);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let one = play(&multi_gunner(4), 2, &one_target(), 20_000, 3);
    let bad = off_the_ducks(&one, false, alpha);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_split_test_rejects_the_other_reading() {
    // Negative control: each reading's Monte Carlo against the other's law.
    let alpha = FAMILY_ALPHA / 16.0;
    let split = play(&multi_gunner(4), 2, &Options::default(), 20_000, 3);
    assert!(!off_the_ducks(&split, false, alpha).is_empty());
    let one = play(&multi_gunner(4), 2, &one_target(), 20_000, 3);
    assert!(!off_the_ducks(&one, true, alpha).is_empty());
}

#[test]
fn the_laws_of_fewer_dice_are_those_of_a_smaller_weapon() {
    // A split keeps one law per number of dice, Barrage's dice counted in: a Multi
    // Barrage gun of 2 dice with 1 Barrage die rolls 3, and k of them are the laws of a
    // k-dice gun without Barrage.
    let mut m = Mech::simple("barrage", 4, 0, 4, 10);
    m.energy = 9;
    m.weapons = vec![Weapon::ranged("pod", 6, Damage::Fixed(1), 2, &[Perk::Multi, Perk::Barrage])];
    let a = Model::new(&m, None);
    let b = Model::new(&Mech::simple("target", 4, 0, 3, 6), None);
    let sit = Situation { barrage_dice: 1, ..Situation::at_range(4) };
    let side = duel_side::Side::new(&a, &b, &sit, &Options::default()).unwrap();
    let pod = &side.weapons[0];
    assert_eq!(pod.dice(), 3);
    for k in 1..=2 {
        let mut g = m.clone();
        g.weapons = vec![Weapon::ranged("gun", 6, Damage::Fixed(1), k, &[])];
        let gun = duel_side::Side::new(&Model::new(&g, None), &b, &sit, &Options::default()).unwrap();
        assert_eq!(pod.law_of(k as usize, 0), &gun.weapons[0].laws[0], "{k} dice");
    }
    assert_eq!(pod.law_of(3, 5), &pod.laws[5]);
    assert!(duel_side::Side::new(&a, &b, &sit, &one_target()).unwrap().weapons[0].multi.is_empty());
}

#[test]
fn one_model_a_side_with_a_multi_weapon_plays_the_duel_draw_for_draw() {
    // One enemy: every die goes to it, one draw of the whole attack, as the duel.
    let o = Options::default();
    let mut m = Mech::simple("multi", 4, 0, 4, 9);
    m.energy = 6;
    m.weapons = vec![Weapon::ranged("scatter", 6, Damage::Fixed(2), 3, &[Perk::Multi, Perk::Tracker])];
    let mut g = Mech::simple("gunner", 3, 0, 4, 9);
    g.energy = 6;
    g.weapons = vec![Weapon::ranged("gun", 6, Damage::Fixed(2), 2, &[])];
    let (a, b) = (Model::new(&m, None), Model::new(&g, None));
    let sit = Situation::at_range(4);
    let duel = DuelKernel::new(&a, &b, &sit, &o, 10).unwrap();
    let side = |n: &str, model: &Model| vec![ForceModel { name: n.into(), model: model.clone(), cost: 100 }];
    let (fa, fb) = (side("A", &a), side("B", &b));
    let squads = Squads::new([SideModels { models: &fa, sit }, SideModels { models: &fb, sit }], &o, 10).unwrap();
    let battle: Battle<SquadGame<LowestIntegrity>, MostExpensiveFirst> =
        Battle { game: SquadGame::new(squads), policy: MostExpensiveFirst };
    let mut d = DuelTally::new(10);
    duel.play(&mut Xoshiro256PlusPlus::seed_from_u64(4), 5000, &mut d);
    let mut t = battle.new_tally();
    battle.play(&mut Xoshiro256PlusPlus::seed_from_u64(4), 5000, &mut t);
    let sum = |v: &[u64]| v.iter().sum::<u64>();
    assert_eq!(t.wins, vec![sum(&d.a_wins_by_turn), sum(&d.b_wins_by_turn)]);
    assert!(t.wins[0] > 0 && t.wins[1] > 0);
}

#[test]
fn a_split_weighs_each_die_capped_at_the_integrity_left() {
    // Stability 1 (every die hits): a duck with 1 Integrity left (of 3), Armour 1, and a target
    // with 10 Integrity and Armour 4. The duck is the policy's target; the first die at
    // it takes its 1 Integrity for sure, so a second adds nothing there (capped), and
    // goes to the other, which loses Integrity unless both its armour rolls hold: 1 hit
    // (5/6) blocked with 1/2, 2 hits (a six, 1/6) with 1/4: hurt with 13/24. Uncapped,
    // the duck's sure hits would outweigh the other's and take both dice.
    let side_a = vec![ForceModel { name: "A".into(), model: multi_gunner(1), cost: 100 }];
    let big = Model::new(&Mech::simple("big", 4, 0, 4, 10), None);
    let side_b = vec![
        ForceModel { name: "duck".into(), model: Model::new(&Mech::simple("duck", 4, 0, 1, 3), None), cost: 10 },
        ForceModel { name: "big".into(), model: big, cost: 10 },
    ];
    let sit = Situation::at_range(4);
    let o = Options::default();
    let squads =
        Squads::new([SideModels { models: &side_a, sit }, SideModels { models: &side_b, sit }], &o, 8).unwrap();
    let game: SquadGame<LowestIntegrity> = SquadGame::new(squads);
    let mut s = crate::engine::battle::BattleRules::new_state(&game);
    let trials = 4000u64;
    let mut hurt = 0;
    for seed in 0..trials {
        crate::engine::battle::BattleRules::begin_battle(&game, &mut s, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        s.life[1] = 1; // the duck: 1 Integrity left of 3
        let mut out = crate::engine::battle::Outcome::new();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        crate::engine::battle::BattleRules::act(&game, &mut s, 0, 0, &mut rng, &mut out);
        assert!(s.life[1] <= 0, "the duck falls");
        hurt += (s.life[2] < 10) as u64;
    }
    assert!(consistent(hurt, trials, 13.0 / 24.0, FAMILY_ALPHA), "{hurt} of {trials} hurt");
}
