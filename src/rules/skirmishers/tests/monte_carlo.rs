//! Monte Carlo kernels against the exact chains with exact binomial bounds over many
//! cells (a negative control shows the check can fail), an independent dice-by-dice
//! simulation, thread-count invariance and golden seeds.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::duel::ExactDuel;
use super::*;
use crate::dice::uniform::roll;
use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;
use crate::stats::{DuelTally, ExactTtk, TtkTally};

const ROUNDS: u32 = 10;
const TRIALS: u64 = 100_000;

/// (name, attacker, target, conditions, options, policy)
fn cells() -> Vec<(&'static str, Trooper, Trooper, Conditions, Options, RunPolicy)> {
    let c = cat();
    let t = |n| trooper(&c, n);
    let mut brawler = t("Rifleman");
    brawler.primaries = vec![weapon(&c, "Club")];
    let mut baton = t("Rifleman");
    baton.primaries = vec![weapon(&c, "Stun Baton")];
    let mut volley = Options::default();
    volley.set("VOLLEY", "on").unwrap();
    let mut moving = Options::default();
    moving.set("MOVEMENT_FIRE", "on").unwrap();
    let d = Options::default;
    let prone = Conditions { range: 40, obstructions: 1, target_prone: true, ..Conditions::default() };
    vec![
        ("rifle vs rifleman, short", t("Rifleman"), t("Rifleman"), at(20), d(), RunPolicy::ActiveWeapon),
        ("rifle vs prone rifleman, long, cover", t("Rifleman"), t("Rifleman"), prone, d(), RunPolicy::ActiveWeapon),
        (
            "smg volley vs basic armour",
            t("Veteran SMG Gunner"),
            t("Veteran SMG Gunner"),
            at(4),
            volley,
            RunPolicy::ActiveWeapon,
        ),
        (
            "grenades then rifle vs standard armour",
            t("Rifleman"),
            t("Armoured Rifleman"),
            at(3),
            d(),
            RunPolicy::GrenadesFirst,
        ),
        (
            "club (lethal + bludgeoning) vs basic armour",
            brawler,
            t("Veteran SMG Gunner"),
            at(1),
            d(),
            RunPolicy::ActiveWeapon,
        ),
        ("stun baton vs rifleman", baton, t("Rifleman"), at(1), d(), RunPolicy::ActiveWeapon),
        ("rockets (ammo 2, scatter) then pistol", t("Rocketeer"), t("Rifleman"), at(6), d(), RunPolicy::ActiveWeapon),
        (
            "machine gun with movement fire",
            t("Machine Gunner"),
            t("Armoured Rifleman"),
            at(30),
            moving,
            RunPolicy::ActiveWeapon,
        ),
        (
            "power armour: two primaries vs power armour",
            t("Heavy Power Trooper"),
            t("Power Trooper"),
            at(50),
            d(),
            RunPolicy::ActiveWeapon,
        ),
        (
            "damaged firer at HP 3",
            t("Rifleman"),
            t("Green Rifleman"),
            Conditions { firer_hp: Some(3), ..at(20) },
            d(),
            RunPolicy::ActiveWeapon,
        ),
    ]
}

fn monte_carlo(r: &AttackRun, seed: u64, trials: u64) -> TtkTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    run(&[Cell { key: 7, kernel: r }], &cfg, &Silent).unwrap().remove(0)
}

/// Rounds whose kills by round k are inconsistent with the exact P(out by round k).
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
fn monte_carlo_attack_runs_agree_with_the_exact_chain() {
    let cells = cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * ROUNDS as f64);
    for (name, a, t, c, o, policy) in &cells {
        let r = AttackRun::new(a, t, c, o, *policy, ROUNDS).unwrap_or_else(|e| panic!("{name}: {e}"));
        let e = r.exact();
        assert!(e.p_kill_by_turn[0] < 1.0, "{name}: a cell with something to test");
        let tally = monte_carlo(&r, 2026, TRIALS);
        assert_eq!(tally.trials, TRIALS);
        assert!(outside(&tally, &e, alpha).is_empty(), "{name}: rounds {:?}", outside(&tally, &e, alpha));
    }
}

#[test]
fn the_check_rejects_the_law_of_a_slightly_different_cell() {
    // Negative control: the rifle's Monte Carlo against the exact law of the same run at
    // long range (TN 8 instead of 6) must fail the same test.
    let c = cat();
    let (a, t) = (trooper(&c, "Rifleman"), trooper(&c, "Rifleman"));
    let o = Options::default();
    let r = AttackRun::new(&a, &t, &at(20), &o, RunPolicy::ActiveWeapon, ROUNDS).unwrap();
    let mut cover = at(20);
    cover.obstructions = 1;
    let wrong = AttackRun::new(&a, &t, &cover, &o, RunPolicy::ActiveWeapon, ROUNDS).unwrap().exact();
    assert!(!outside(&monte_carlo(&r, 2026, TRIALS), &wrong, FAMILY_ALPHA / ROUNDS as f64).is_empty());
}

/// An independent simulation: two dice per roll, the card marked by `track::apply`, no
/// graph and no tables.
#[test]
fn dice_by_dice_simulation_agrees_with_the_exact_chain() {
    let c = cat();
    let o = Options::default();
    let (a, t) = (trooper(&c, "Rifleman"), trooper(&c, "Armoured Rifleman"));
    let exact = AttackRun::new(&a, &t, &at(50), &o, RunPolicy::ActiveWeapon, ROUNDS).unwrap().exact();
    let m = o.marking();
    let card = card(&t, &o);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let n = 40_000u64;
    let mut by_round = vec![0u64; ROUNDS as usize];
    for _ in 0..n {
        let mut s = fresh(4);
        for slot in by_round.iter_mut() {
            let hit = roll(&mut rng, 6) + roll(&mut rng, 6) >= 8; // long range
            if hit {
                let cell = (roll(&mut rng, 6) + roll(&mut rng, 6)) as i32;
                s = super::super::track::apply(TrackKind::Basic, s, Hit { lethal: 4, blunt: 0 }, cell, &m);
            }
            if card.is_out(s) {
                *slot += 1;
                break;
            }
        }
    }
    let tally = TtkTally { trials: n, kills_by_turn: by_round, kills_by_action: vec![0] };
    assert!(outside(&tally, &exact, FAMILY_ALPHA / ROUNDS as f64).is_empty());
}

/// Duel cells: (name, A, B, conditions, options), covering both orders and a random
/// first side, melee, power armour and a side whose AP stops paying its arc.
fn duel_cells() -> Vec<(&'static str, Trooper, Trooper, Conditions, Options)> {
    let c = cat();
    let t = |n| trooper(&c, n);
    let first = |side: &str| {
        let mut o = Options::default();
        o.set("FIRST_SIDE", side).unwrap();
        o
    };
    let mut brawler = t("Rifleman");
    brawler.primaries = vec![weapon(&c, "Club")];
    brawler.secondary = None;
    let mut heavy = t("Green Rifleman");
    heavy.armour = Armour::Heavy; // 4 AP fresh: the rifle's arc goes unpaid late
    vec![
        ("rifle duel, short", t("Rifleman"), t("Rifleman"), at(20), first("a")),
        ("smg vs armoured rifleman", t("Veteran SMG Gunner"), t("Armoured Rifleman"), at(5), first("a")),
        ("shock trooper vs green", t("Shock Trooper"), t("Green Rifleman"), at(15), first("a")),
        ("rifle duel, B first", t("Rifleman"), t("Green Rifleman"), at(20), first("b")),
        ("rifle duel, random first", t("Rifleman"), t("Green Rifleman"), at(20), first("random")),
        ("club vs rifleman in melee", brawler, t("Rifleman"), at(1), first("random")),
        ("heavy armour runs out of AP", heavy, t("Rifleman"), at(20), first("a")),
        ("power armour", t("Heavy Power Trooper"), t("Power Trooper"), at(50), first("random")),
    ]
}

fn duel_tally(d: &Duel, seed: u64) -> DuelTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(TRIALS), ..RunConfig::default() };
    run(&[Cell { key: 5, kernel: d }], &cfg, &Silent).unwrap().remove(0)
}

/// Sides and rounds whose wins by round k are inconsistent with the exact chain.
fn duel_outside(t: &DuelTally, e: &ExactDuel, alpha: f64) -> Vec<(char, usize)> {
    let mut bad = Vec::new();
    for (side, mc, exact) in [('A', &t.a_wins_by_turn, &e.a_by_round), ('B', &t.b_wins_by_turn, &e.b_by_round)] {
        let (mut k, mut p) = (0, 0.0);
        for r in 0..mc.len() {
            (k, p) = (k + mc[r], p + exact[r]);
            if !consistent(k, t.trials, p.min(1.0), alpha) {
                bad.push((side, r + 1));
            }
        }
    }
    if !consistent(t.timeouts, t.trials, e.p_undecided.clamp(0.0, 1.0), alpha) {
        bad.push(('=', 0));
    }
    bad
}

#[test]
fn monte_carlo_duels_agree_with_the_exact_chain() {
    let cells = duel_cells();
    let alpha = FAMILY_ALPHA / (cells.len() * (2 * 12 + 1)) as f64;
    for (name, a, b, cond, o) in &cells {
        let d = Duel::new(a, b, cond, o, 12).unwrap_or_else(|e| panic!("{name}: {e}"));
        let e = d.exact().unwrap();
        assert!(e.p_a_wins > 0.01 && e.p_b_wins > 0.01, "{name}: a cell with something to test");
        let t = duel_tally(&d, 3);
        assert_eq!(t.trials, TRIALS);
        assert_eq!(t.a_wins() + t.b_wins() + t.timeouts, TRIALS, "{name}");
        let bad = duel_outside(&t, &e, alpha);
        assert!(bad.is_empty(), "{name}: {bad:?} (A {} vs {})", t.a_wins(), e.p_a_wins);
    }
}

#[test]
fn the_duel_check_rejects_the_law_of_the_other_order() {
    // Negative control: the rifle duel with A first against the exact law with B first.
    let c = cat();
    let (a, b) = (trooper(&c, "Rifleman"), trooper(&c, "Green Rifleman"));
    let order = |side: &str| {
        let mut o = Options::default();
        o.set("FIRST_SIDE", side).unwrap();
        Duel::new(&a, &b, &at(20), &o, 12).unwrap()
    };
    let wrong = order("b").exact().unwrap();
    assert!(!duel_outside(&duel_tally(&order("a"), 3), &wrong, FAMILY_ALPHA / 25.0).is_empty());
}

#[test]
fn same_seed_same_tally_for_any_thread_count() {
    let (_, a, t, c, o, p) = cells().remove(3);
    let r = AttackRun::new(&a, &t, &c, &o, p, ROUNDS).unwrap();
    let tally = |threads| {
        let cfg = RunConfig { seed: 5, trials: Trials::Fixed(50_000), threads: Some(threads), ..RunConfig::default() };
        run(&[Cell { key: 3, kernel: &r }], &cfg, &Silent).unwrap().remove(0)
    };
    assert_eq!(tally(1), tally(2));
}

/// Value stability: fixed seeds give these exact counts. A change in how many random
/// numbers an attack draws, or in the order runs consume them, fails loudly.
#[test]
fn golden_seeds() {
    let (_, a, t, c, o, p) = cells().remove(0);
    let r = AttackRun::new(&a, &t, &c, &o, p, 6).unwrap();
    let cfg = RunConfig { seed: 20261121, trials: Trials::Fixed(10_000), ..RunConfig::default() };
    let tally = run(&[Cell { key: 1, kernel: &r }], &cfg, &Silent).unwrap().remove(0);
    assert_eq!(tally.kills_by_turn, GOLDEN_RUN.to_vec());
    let mut o = Options::default();
    o.set("FIRST_SIDE", "random").unwrap();
    let d = Duel::new(&a, &t, &c, &o, 6).unwrap();
    let tally: DuelTally = run(&[Cell { key: 2, kernel: &d }], &cfg, &Silent).unwrap().remove(0);
    assert_eq!((tally.a_wins(), tally.b_wins(), tally.timeouts), GOLDEN_DUEL);
}

const GOLDEN_RUN: [u64; 6] = [1181, 2682, 2904, 1763, 870, 367];
const GOLDEN_DUEL: (u64, u64, u64) = (4837, 4721, 442);

#[test]
fn the_initiative_split_of_monte_carlo_duels_agrees_with_each_order_s_exact_chain() {
    let c = cat();
    let (a, b) = (trooper(&c, "Rifleman"), trooper(&c, "Green Rifleman"));
    let with_first = |side: &str| {
        let mut o = Options::default();
        o.set("FIRST_SIDE", side).unwrap();
        Duel::new(&a, &b, &at(20), &o, 12).unwrap()
    };
    let t = duel_tally(&with_first("random"), 11);
    // Every duel has a leader, and A's wins split between the two orders.
    assert_eq!(t.a_first + t.b_first, t.trials);
    assert_eq!(t.a_wins_a_first + t.a_wins_b_first, t.a_wins());
    let (ea, eb) = (with_first("a").exact().unwrap(), with_first("b").exact().unwrap());
    let alpha = FAMILY_ALPHA / 3.0;
    assert!(consistent(t.a_first, t.trials, 0.5, alpha), "{} of {} led by A", t.a_first, t.trials);
    assert!(consistent(t.a_wins_a_first, t.a_first, ea.p_a_wins, alpha), "{t:?} vs {}", ea.p_a_wins);
    assert!(consistent(t.a_wins_b_first, t.b_first, eb.p_a_wins, alpha), "{t:?} vs {}", eb.p_a_wins);
    // A fixed leader: every duel in one order.
    let fixed = duel_tally(&with_first("b"), 11);
    assert_eq!((fixed.a_first, fixed.b_first), (0, fixed.trials));
}
