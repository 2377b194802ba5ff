//! Monte Carlo against exact values (shellshock.md §8): attack runs of both samplers
//! over many cells inside exact binomial bounds (Bonferroni, `FAMILY_ALPHA`), with a
//! negative control; the unbounded explosion of real dice against the exact depth cut;
//! duels against the exact duel; thread-count invariance and golden seeds.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;
use crate::stats::{ExactTtk, TtkTally};

use super::attack_run::AttackRun;
use super::catalogue::Catalogue;
use super::conditions::{Conditions, Facing};
use super::duel::DuelKernel;
use super::options::Options;
use super::roll::{Dice, RollLaw, required_depth, roll_dice};
use super::tests::catalogue;

const TRIALS: u64 = 20_000;
const TURNS: u32 = 10;

fn options(dice: bool) -> Options {
    let mut o = Options::default();
    if dice {
        o.set("MC_SAMPLER", "DICE").unwrap();
    }
    o
}

/// (label, attacker, target, conditions) over both catalogues.
fn cells() -> Vec<(String, Catalogue, &'static str, &'static str, Conditions)> {
    let (v, e) = (catalogue(), Catalogue::embedded().unwrap());
    let c = Conditions::default();
    let mut out = Vec::new();
    let mut add = |cat: &Catalogue, a: &'static str, t: &'static str, c: Conditions| {
        out.push((format!("{a} -> {t} {c:?}"), cat.clone(), a, t, c));
    };
    add(&v, "Vector Tank", "Vector Tank", c);
    add(&v, "Pair Gunner", "Vector Tank", Conditions { facing: Facing::Rear, ..c });
    add(&v, "Paper Target", "Paper Target", Conditions { range: 12, ..c });
    add(&v, "Soft Target", "Soft Target", Conditions { range: 0, ..c });
    add(&e, "Main Battle Tank", "Jagdpanther", Conditions { range: 36, hull_down: true, ..c });
    add(&e, "Panzer IV", "Infantry Fighting Vehicle", Conditions { facing: Facing::Side, ..c });
    add(&e, "Strider Walker", "Panzer IV", Conditions { range: 1, point_blank: true, ..c });
    add(&e, "Hover Skirmisher", "Main Battle Tank", Conditions { dice: Some(Dice::D10D8), gunnery: 3, ..c });
    add(&e, "Infantry Fighting Vehicle", "Strider Walker", Conditions { immobile: true, ..c });
    out
}

fn monte_carlo(r: &AttackRun, seed: u64, trials: u64) -> TtkTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    run(&[Cell { key: 7, kernel: r }], &cfg, &Silent).unwrap().remove(0)
}

/// Turns whose count of kills by turn k is inconsistent with the exact law.
fn outside(t: &TtkTally, e: &ExactTtk, alpha: f64) -> Vec<usize> {
    let mut cum = 0;
    let mut bad = Vec::new();
    for (k, &kills) in t.kills_by_turn.iter().enumerate() {
        cum += kills;
        if !consistent(cum, t.trials, e.p_kill_by_turn[k].min(1.0), alpha) {
            bad.push(k + 1);
        }
    }
    bad
}

#[test]
fn both_samplers_agree_with_the_exact_chain_in_every_cell() {
    let cells = cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * 2.0 * f64::from(TURNS));
    let mut lines_kills = 0.0;
    for (label, cat, a, t, c) in &cells {
        for dice in [false, true] {
            let r = AttackRun::new(cat, cat.unit(a).unwrap(), cat.unit(t).unwrap(), c, &options(dice), TURNS).unwrap();
            let exact = r.exact();
            let tally = monte_carlo(&r, 2026, TRIALS);
            let bad = outside(&tally, &exact, alpha);
            assert!(bad.is_empty(), "{label} (dice sampler: {dice}): turns {bad:?}");
            if *a == "Paper Target" {
                lines_kills = exact.p_kill;
            }
        }
    }
    assert!(lines_kills > 0.5, "the cell where 100 marked lines destroy is exercised: {lines_kills}");
}

#[test]
fn the_check_rejects_one_armour_point_too_many() {
    // Negative control: the reference run's Monte Carlo against the exact law of a
    // target with 21 front armour must fail the same test.
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    let c = Conditions::default();
    let r = AttackRun::new(&cat, t, t, &c, &Options::default(), TURNS).unwrap();
    let mut tougher = t.clone();
    tougher.armor.front += 1;
    let wrong = AttackRun::new(&cat, t, &tougher, &c, &Options::default(), TURNS).unwrap().exact();
    let alpha = FAMILY_ALPHA / f64::from(TURNS);
    assert!(outside(&monte_carlo(&r, 2026, 200_000), &r.exact(), alpha).is_empty());
    assert!(!outside(&monte_carlo(&r, 2026, 200_000), &wrong, alpha).is_empty());
}

#[test]
fn unbounded_explosions_agree_with_the_exact_cut() {
    let n = 400_000u64;
    let thresholds = [12i64, 21, 22, 31, 32, 42];
    let mut checks = 0;
    let mut fails = Vec::new();
    for dice in [Dice::TwoD10, Dice::D10D6] {
        let law = RollLaw::new(dice, 0, required_depth(42), false, true);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
        let mut hits = [0u64; 6];
        let (mut nat, mut doubled, mut second, mut miss) = (0u64, 0u64, 0u64, 0u64);
        for _ in 0..n {
            let r = roll_dice(&mut rng, dice, 0, false, true);
            miss += u64::from(r.auto_miss);
            nat += u64::from(r.natural_20);
            second += u64::from(r.second_20);
            doubled += u64::from(r.multiplier > 0 && !r.auto_miss);
            for (i, t) in thresholds.iter().enumerate() {
                hits[i] += u64::from(!r.auto_miss && (r.natural_20 || i64::from(r.total) >= *t));
            }
        }
        let alpha = FAMILY_ALPHA / 20.0;
        for (i, t) in thresholds.iter().enumerate() {
            checks += 1;
            if !consistent(hits[i], n, law.p_hit(*t, 0), alpha) {
                fails.push(format!("{} TN {t}", dice.name()));
            }
        }
        for (k, p, what) in [
            (miss, law.p_auto_miss, "auto-miss"),
            (nat, law.p_natural_20(), "natural 20"),
            (second, law.p_second_20, "second 20"),
            (doubled, law.p_doubled(), "doubled"),
        ] {
            checks += 1;
            if !consistent(k, n, p, alpha) {
                fails.push(format!("{} {what}", dice.name()));
            }
        }
    }
    assert!(checks == 20 && fails.is_empty(), "{fails:?}");
}

#[test]
fn monte_carlo_duels_agree_with_the_exact_duel() {
    let cat = Catalogue::embedded().unwrap();
    let c = Conditions::default();
    let alpha = FAMILY_ALPHA / 10.0;
    for (a, b) in [("Main Battle Tank", "Jagdpanther"), ("Illustrative tank", "Illustrative tank")] {
        let (au, bu) = (cat.unit(a).unwrap(), cat.unit(b).unwrap());
        let o = Options::default();
        let d = DuelKernel::new(
            AttackRun::new(&cat, au, bu, &c, &o, TURNS).unwrap(),
            AttackRun::new(&cat, bu, au, &c, &o, TURNS).unwrap(),
        )
        .unwrap();
        let e = d.exact();
        let cfg = RunConfig { seed: 3, trials: Trials::Fixed(TRIALS), ..RunConfig::default() };
        let t = run(&[Cell { key: 1, kernel: &d }], &cfg, &Silent).unwrap().remove(0);
        assert!(consistent(t.a_wins(), t.trials, e.p_a_wins, alpha), "{a} v {b}: {} vs {e:?}", t.a_wins());
        assert!(consistent(t.b_wins(), t.trials, e.p_b_wins, alpha), "{a} v {b}: {} vs {e:?}", t.b_wins());
        let mutual: u64 = t.mutual_by_turn.iter().sum();
        assert!(consistent(mutual, t.trials, e.p_mutual, alpha), "{a} v {b}: {mutual} mutual vs {e:?}");
        assert!(consistent(t.timeouts, t.trials, e.p_timeout, alpha), "{a} v {b}: {} timeouts vs {e:?}", t.timeouts);
        assert!(e.p_mutual > 0.0, "both fire in one turn: mutual kills happen");
    }
}

#[test]
fn same_seed_same_tally_for_any_thread_count() {
    let cat = Catalogue::embedded().unwrap();
    let (a, t) = (cat.unit("Panzer IV").unwrap(), cat.unit("Jagdpanther").unwrap());
    for dice in [false, true] {
        let r = AttackRun::new(&cat, a, t, &Conditions::default(), &options(dice), TURNS).unwrap();
        let tally = |threads| {
            let cfg =
                RunConfig { seed: 5, trials: Trials::Fixed(50_000), threads: Some(threads), ..RunConfig::default() };
            run(&[Cell { key: 3, kernel: &r }], &cfg, &Silent).unwrap().remove(0)
        };
        assert_eq!(tally(1), tally(2));
    }
}

/// Value stability: a fixed seed gives these exact counts (section 7 vector 16, the
/// 30mm Machine Gun). A change in how many random numbers a step draws, in how a draw
/// maps to an outcome, or in the order the table sampler's lanes use them fails loudly.
#[test]
fn golden_seed_reference_run() {
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    let counts = |dice| {
        let r = AttackRun::new(&cat, t, t, &Conditions::default(), &options(dice), 12).unwrap();
        let cfg = RunConfig { seed: 20261121, trials: Trials::Fixed(10_000), ..RunConfig::default() };
        run(&[Cell { key: 1, kernel: &r }], &cfg, &Silent).unwrap().remove(0).kills_by_turn
    };
    assert_eq!(counts(false), vec![163, 202, 285, 394, 520, 579, 625, 733, 692, 734, 767, 692], "table sampler");
    assert_eq!(counts(true), vec![175, 201, 284, 414, 467, 537, 662, 638, 757, 702, 709, 704], "dice sampler");
}
