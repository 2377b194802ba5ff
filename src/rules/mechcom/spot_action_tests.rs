//! The Spot action and Tracker ([`super::spot`], `SPOT_ACTION`): hand-computed duels and
//! battles, the exact chain against them, the Monte Carlo against both (exact binomial
//! bounds, with negative controls), and a battle of one model a side against the duel,
//! draw for draw.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::battle::{ForceModel, LowestIntegrity, MostExpensiveFirst, SideModels, SquadGame, Squads};
use super::catalogue::Catalogue;
use super::duel_tests::{comparisons, monte_carlo, outside};
use super::options::SpotAction;
use super::*;
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattleRules};
use crate::stats::DuelTally;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

/// P(no six) on the Spot action's 3d6.
const Q3: f64 = 125.0 / 216.0;
/// P(no six) on 2d6 (a wrong Spot roll, for negative controls).
const Q2: f64 = 25.0 / 36.0;

fn never() -> Options {
    Options { spot_action: SpotAction::Never, ..Options::default() }
}

fn mortar() -> Weapon {
    Weapon::ranged("mortar", 12, Damage::Fixed(1), 1, &[Perk::Artillery])
}

/// Stability 1 (every die hits), `energy` ⚡, the given weapons.
fn shooter(name: &str, energy: u32, weapons: Vec<Weapon>) -> Model {
    let mut m = Mech::simple(name, 1, 0, 4, 10);
    m.energy = energy;
    m.weapons = weapons;
    Model::new(&m, None)
}

/// Integrity 1, Armour 1 (every hit costs it), no Energy: it never acts.
fn sitting_duck() -> Model {
    Model::new(&Mech::simple("duck", 4, 0, 1, 1), None)
}

/// P(the duck is destroyed by round r) when one model (or a spotter activating before
/// a gunner) with 6⚡ between them spots until a token is there and then fires the
/// mortar, which cannot miss: a round with no token spots, and fires if a six came,
/// else spots again for the next round; a round that starts with a token fires. So the
/// duck is alive after round r with probability q^(2r−1), q = P(no six). When the
/// gunner activates first (`late`), a round without a token has both spot and no shot
/// left: alive after round r with probability q^(2r−2).
fn hunted(q: f64, r: usize, late: bool) -> f64 {
    1.0 - q.powi(2 * r as i32 - 1 - late as i32)
}

#[test]
fn artillery_spots_for_itself_and_fires() {
    let (a, b) = (shooter("spotter", 6, vec![mortar()]), sitting_duck());
    let sit = Situation::at_range(8);
    let k = DuelKernel::new(&a, &b, &sit, &Options::default(), 6).unwrap();
    assert!(k.sides[0].spotting.is_some() && !k.independent);
    let e = k.exact().unwrap();
    let mut by = 0.0;
    for (r, p) in e.a_wins_by_round.iter().enumerate() {
        by += p;
        let want = hunted(Q3, r + 1, false);
        assert!((by - want).abs() < 1e-14, "round {}: {by} vs {want}", r + 1);
    }
    assert!((e.a_wins_by_round[0] - 91.0 / 216.0).abs() < 1e-15);
    assert_eq!(e.p_b_wins, 0.0);
    // SPOT_ACTION=never: no token ever, the mortar never fires.
    let k = DuelKernel::new(&a, &b, &sit, &never(), 6).unwrap();
    assert!(k.sides[0].spotting.is_none());
    assert_eq!(k.exact().unwrap().p_a_wins, 0.0);
}

#[test]
fn a_spot_never_replaces_an_attack_that_is_as_good() {
    // A gun at S 4 against Armour 4 (q = 1/2): 2 dice, Damage 2, expected loss 4/3;
    // one token (S 3) adds 1/3, so the Spot's gain 91/216 · 1/3 (a Sniper could use more
    // tokens, but this gun cannot) never beats 4/3: the duel is what it was without the
    // Spot action, draw for draw.
    let mut m = Mech::simple("gunner", 4, 0, 4, 10);
    m.energy = 6;
    m.weapons = vec![Weapon::ranged("gun", 6, Damage::Fixed(2), 2, &[])];
    let (a, b) = (Model::new(&m, None), Model::new(&m, None));
    let sit = Situation::at_range(4);
    let spotting = DuelKernel::new(&a, &b, &sit, &Options::default(), 10).unwrap();
    assert!(spotting.sides.iter().all(|s| s.spotting.is_none() && s.cap == 0), "it never pays: not kept");
    assert!(spotting.independent);
    let old = DuelKernel::new(&a, &b, &sit, &never(), 10).unwrap();
    let (x, y) = (monte_carlo(&spotting, 5, 4000), monte_carlo(&old, 5, 4000));
    assert_eq!((x.a_wins_by_turn, x.b_wins_by_turn), (y.a_wins_by_turn, y.b_wins_by_turn));
}

#[test]
fn tracker_hits_place_as_many_tokens_as_the_integrity_lost() {
    // One die a shot at S 4 against Armour 1 (every hit costs): miss 1/2, 1 lost 1/3,
    // 2 lost (a crit) 1/6; with a token (S 3): 1/3, 1/2, 1/6. Two shots a round at
    // Integrity 3: destroyed in round 1 when the first takes 1 and the second 2, or the
    // first 2 and the second >= 1. With Tracker the second shot has the first's loss in
    // tokens: 1/3 · 1/6 + 1/6 · 2/3 = 1/6; without: 1/3 · 1/6 + 1/6 · 1/2 = 5/36. (The
    // Spot's gain, 91/216 · 1/6, never beats the shot's 2/3: no Spot.)
    let tracked = |perks: &[Perk]| {
        let mut m = Mech::simple("tracker", 4, 0, 4, 10);
        m.energy = 6;
        m.weapons = vec![Weapon::ranged("gun", 6, Damage::Fixed(1), 1, perks)];
        Model::new(&m, None)
    };
    let target = Model::new(&Mech::simple("target", 4, 0, 1, 3), None);
    let sit = Situation::at_range(4);
    for (perks, want) in [(&[Perk::Tracker][..], 1.0 / 6.0), (&[][..], 5.0 / 36.0)] {
        let k = DuelKernel::new(&tracked(perks), &target, &sit, &Options::default(), 3).unwrap();
        assert!(k.sides[0].spotting.is_none());
        let e = k.exact().unwrap();
        assert!((e.a_wins_by_round[0] - want).abs() < 1e-15, "{perks:?}: {} vs {want}", e.a_wins_by_round[0]);
    }
}

/// The counts of A's wins by round outside the law [`hunted`] at level `alpha`.
fn off_the_hunt(wins_by_round: &[u64], trials: u64, q: f64, late: bool, alpha: f64) -> Vec<String> {
    let mut k = 0;
    let mut bad = Vec::new();
    for (r, &c) in wins_by_round.iter().enumerate() {
        k += c;
        let p = hunted(q, r + 1, late);
        if !consistent(k, trials, p, alpha) {
            bad.push(format!("by round {}: {k} of {trials} vs {p}", r + 1));
        }
    }
    bad
}

fn force(models: &[(&str, Model, u32)]) -> Vec<ForceModel> {
    models.iter().map(|(n, m, c)| ForceModel { name: n.to_string(), model: m.clone(), cost: *c }).collect()
}

fn squad_battle(
    a: &[ForceModel],
    b: &[ForceModel],
    sit: Situation,
    o: &Options,
    rounds: u32,
) -> Battle<SquadGame<LowestIntegrity>, MostExpensiveFirst> {
    let squads = Squads::new([SideModels { models: a, sit }, SideModels { models: b, sit }], o, rounds).unwrap();
    Battle { game: SquadGame::new(squads), policy: MostExpensiveFirst }
}

/// A spotter with no weapon in reach and 3⚡, and a gunner with the mortar and 3⚡.
fn spotter_and_gunner(spotter_first: bool) -> Vec<ForceModel> {
    let (hi, lo) = (200, 100);
    let (sc, gc) = if spotter_first { (hi, lo) } else { (lo, hi) };
    force(&[("spotter", shooter("spotter", 3, vec![]), sc), ("gunner", shooter("gunner", 3, vec![mortar()]), gc)])
}

/// The Monte Carlo of the hand-computed hunts (a duel, a one-model battle, and a
/// spotter with a gunner in either order), each against the law with P(no six) = `q`.
fn hunts_rejected(q: f64) -> Vec<String> {
    let rounds = 6;
    let trials = 20_000;
    let alpha = FAMILY_ALPHA / (4 * rounds) as f64;
    let sit = Situation::at_range(8);
    let o = Options::default();
    let (a, b) = (shooter("spotter", 6, vec![mortar()]), sitting_duck());
    let mut bad = Vec::new();
    let duel = monte_carlo(&DuelKernel::new(&a, &b, &sit, &o, rounds).unwrap(), 9, trials);
    bad.extend(off_the_hunt(&duel.a_wins_by_turn, trials, q, false, alpha).into_iter().map(|m| format!("duel: {m}")));
    let duck = force(&[("duck", b.clone(), 10)]);
    for (name, side, late) in [
        ("one model", force(&[("spotter", a.clone(), 100)]), false),
        ("spotter first", spotter_and_gunner(true), false),
        ("gunner first", spotter_and_gunner(false), true),
    ] {
        let battle = squad_battle(&side, &duck, sit, &o, rounds);
        let mut t = battle.new_tally();
        battle.play(&mut Xoshiro256PlusPlus::seed_from_u64(10), trials as u32, &mut t);
        assert_eq!(t.wins[1], 0);
        bad.extend(off_the_hunt(&t.ended_in_turn, trials, q, late, alpha).into_iter().map(|m| format!("{name}: {m}")));
    }
    bad
}

#[test]
fn monte_carlo_hunts_agree_with_the_hand_computed_law() {
    // A spotter with no weapon in reach spots for its friend's mortar (tokens are
    // shared), and the gunner spots for itself when it has none: activating first, the
    // spotter makes the side play the one model's law, 1 − (125/216)^(2r−1); the gunner
    // first, 1 − (125/216)^(2r−2).
    let bad = hunts_rejected(Q3);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_hunt_test_rejects_a_spot_roll_of_two_dice() {
    assert!(!hunts_rejected(Q2).is_empty(), "the test cannot tell 3d6 from 2d6");
}

#[test]
fn a_spotter_that_cannot_use_the_tokens_spots_only_for_a_friend() {
    // Alone, a spotter with no weapon in reach gains nothing from tokens: it never spots.
    let sit = Situation::at_range(8);
    let alone = force(&[("spotter", shooter("spotter", 3, vec![]), 200)]);
    let battle = squad_battle(&alone, &force(&[("duck", sitting_duck(), 10)]), sit, &Options::default(), 3);
    let mut s = battle.game.new_state();
    let mut out = crate::engine::battle::Outcome::new();
    crate::engine::battle::play_battle(
        &battle.game,
        &battle.policy,
        &mut s,
        &mut Xoshiro256PlusPlus::seed_from_u64(1),
        &mut out,
    );
    assert_eq!(s.spot[1], 0, "no Spot without a friend to use the tokens");
}

/// Duels where Spot actions and Tracker change the play: catalogue Artillery at ranges
/// its other weapons miss, and a Tracker gun feeding a mortar.
fn spotting_kernels(o: &Options) -> Vec<(String, DuelKernel)> {
    let cat = Catalogue::embedded().unwrap();
    let mut out = Vec::new();
    for (a, b, range) in [("Pythia", "Wasp", 6), ("Pythia", "Bulwark", 8), ("Wasp", "Pythia", 5)] {
        let (ma, mb) = (cat.model_named(a).unwrap(), cat.model_named(b).unwrap());
        let k = DuelKernel::new(&ma, &mb, &Situation::at_range(range), o, 10).unwrap();
        out.push((format!("{a} vs {b} at {range}"), k));
    }
    let mut hunter = Mech::simple("hunter", 4, 0, 4, 8);
    hunter.energy = 9;
    hunter.weapons = vec![Weapon::ranged("tracker", 6, Damage::Fixed(1), 2, &[Perk::Tracker]), mortar()];
    let mut gunner = Mech::simple("gunner", 3, 0, 4, 9);
    gunner.energy = 6;
    gunner.weapons = vec![Weapon::ranged("gun", 6, Damage::Fixed(2), 2, &[])];
    let (h, g) = (Model::new(&hunter, None), Model::new(&gunner, None));
    out.push(("hunter vs gunner".into(), DuelKernel::new(&h, &g, &Situation::at_range(5), o, 10).unwrap()));
    out
}

/// Every count of the Monte Carlo duels (default options) outside the exact chains of
/// the same duels under `o`.
fn spotting_rejected(o: &Options) -> Vec<String> {
    let played = spotting_kernels(&Options::default());
    let exact = spotting_kernels(o);
    let alpha = FAMILY_ALPHA / (played.len() * comparisons(10)) as f64;
    let mut bad = Vec::new();
    for ((name, k), (_, e)) in played.iter().zip(&exact) {
        let law = e.exact().unwrap_or_else(|| panic!("{name}: exact"));
        let t: DuelTally = monte_carlo(k, 2029, 40_000);
        bad.extend(outside(&t, &law.into(), alpha).into_iter().map(|b| format!("{name}: {b}")));
    }
    bad
}

#[test]
fn monte_carlo_duels_with_spot_actions_and_tracker_agree_with_the_exact_chain() {
    let played = spotting_kernels(&Options::default());
    assert!(played[0].1.sides[0].spotting.is_some() && played[1].1.sides[0].spotting.is_some());
    assert!(played[3].1.sides[0].weapons[0].tracker);
    let bad = spotting_rejected(&Options::default());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_spot_action_agreement_test_rejects_a_duel_without_spots() {
    // Negative control: the chains with SPOT_ACTION=never must disagree somewhere.
    assert!(!spotting_rejected(&never()).is_empty(), "the test cannot see the Spot action");
}

#[test]
fn one_model_a_side_with_spots_and_tracker_plays_the_duel_draw_for_draw() {
    let o = Options::default();
    for (name, k) in spotting_kernels(&o) {
        let (a, b, sit, _) = &*k.inputs;
        let battle = squad_battle(&force(&[("A", a.clone(), 100)]), &force(&[("B", b.clone(), 100)]), *sit, &o, 10);
        let trials = 5000;
        let mut d = DuelTally::new(10);
        k.play(&mut Xoshiro256PlusPlus::seed_from_u64(12), trials, &mut d);
        let mut t = battle.new_tally();
        battle.play(&mut Xoshiro256PlusPlus::seed_from_u64(12), trials, &mut t);
        let sum = |v: &[u64]| v.iter().sum::<u64>();
        assert_eq!(t.wins, vec![sum(&d.a_wins_by_turn), sum(&d.b_wins_by_turn)], "{name}");
        let by_round: Vec<u64> =
            (0..10).map(|r| d.a_wins_by_turn[r] + d.b_wins_by_turn[r] + d.mutual_by_turn[r]).collect();
        assert_eq!(t.ended_in_turn, by_round, "{name}");
    }
}
