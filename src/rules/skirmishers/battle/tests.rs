//! Squad fights against the duel (draw for draw and against its exact law), mirror
//! symmetry, hand-checked one-round cases, the arc table, forces and the golden seed.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::compiled::{ArcKind, UNLIMITED};
use super::*;
use crate::engine::Kernel;
use crate::engine::battle::BattleTally;
use crate::rules::skirmishers::duel::Duel;

fn cat() -> Catalogue {
    Catalogue::embedded().unwrap()
}

fn at(range: u32) -> Conditions {
    Conditions { range, ..Conditions::default() }
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn fight(a: &str, b: &str, range: u32, o: &Options, policy: Option<&str>, rounds: Option<u32>) -> SquadFight {
    let f = [ForceSpec::parse(a).unwrap(), ForceSpec::parse(b).unwrap()];
    battle(&cat(), "squad-fight", &f, &[at(range)], o, policy, rounds).unwrap().0
}

fn play(b: &SquadFight, seed: u64, trials: u32) -> BattleTally {
    let mut t = b.new_tally();
    b.play(&mut Xoshiro256PlusPlus::seed_from_u64(seed), trials, &mut t);
    t
}

/// |observed - expected| within 5 binomial standard deviations.
fn within(k: u64, n: u64, p: f64, what: &str) {
    let sd = (p * (1.0 - p) / n as f64).sqrt();
    let x = k as f64 / n as f64;
    assert!((x - p).abs() <= 5.0 * sd + 1e-12, "{what}: {x} vs {p} (sd {sd})");
}

/// One trooper a side with the first side fixed and the cold opening (the duel's: no arc
/// before the first turn) is the scalar duel (`Duel::play_one`, one duel after another)
/// draw for draw: same weapon, same graph, the same draws in the same order.
#[test]
fn one_against_one_is_the_duel_draw_for_draw() {
    let c = cat();
    for (a, b, range) in [("Rifleman", "Rifleman", 5), ("Veteran SMG Gunner", "Armoured Rifleman", 12)] {
        let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold")]);
        let duel = Duel::new(c.trooper(a).unwrap(), c.trooper(b).unwrap(), &at(range), &o, 12).unwrap();
        let f = fight(a, b, range, &o, None, Some(12));
        let trials = 20_000;
        let mut d = duel.new_tally();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        d.trials = trials as u64;
        for _ in 0..trials {
            match duel.play_one(&mut rng) {
                (1, r) => d.a_wins_by_turn[r] += 1,
                (2, r) => d.b_wins_by_turn[r] += 1,
                _ => d.timeouts += 1,
            }
        }
        let t = play(&f, 11, trials);
        let sum = |v: &[u64]| v.iter().sum::<u64>();
        assert_eq!(t.wins, vec![sum(&d.a_wins_by_turn), sum(&d.b_wins_by_turn)], "{a} vs {b}");
        assert_eq!(t.draws, d.timeouts, "the cap is a draw (SQUAD_CAP_RESULT)");
        let by_round: Vec<u64> = (0..12).map(|r| d.a_wins_by_turn[r] + d.b_wins_by_turn[r]).collect();
        assert_eq!(t.ended_in_turn, by_round, "{a} vs {b}");
    }
}

/// §6 (*) rifle duel at short range: the squad fight of one Rifleman a side, cold
/// opening, matches the exact duel law (A first: 0.6477 / 0.3513 after 12 rounds; random
/// first: the average), inside binomial bounds, and round 1 is 13/108.
#[test]
fn one_against_one_matches_the_exact_duel_law() {
    let c = cat();
    let r = c.trooper("Rifleman").unwrap();
    for first in ["a", "random"] {
        let o = opts(&[("FIRST_SIDE", first), ("SQUAD_OPENING", "cold")]);
        let exact = Duel::new(r, r, &at(5), &o, 12).unwrap().exact().unwrap();
        let n = 40_000;
        let t = play(&fight("Rifleman", "Rifleman", 5, &o, None, Some(12)), 5, n);
        within(t.wins[0], n as u64, exact.p_a_wins, "A wins");
        within(t.wins[1], n as u64, exact.p_b_wins, "B wins");
        within(t.draws, n as u64, exact.p_undecided, "draw at the cap");
        if first == "a" {
            assert!((exact.p_a_wins - 0.6477).abs() < 5e-5 && (exact.p_b_wins - 0.3513).abs() < 5e-5);
            within(t.ended_in_turn[0], n as u64, 13.0 / 108.0, "A wins in round 1");
        }
    }
}

/// Mirror squads: with the first side fixed the lead is worth the same to either side
/// (side A first and side B first give swapped counts, draw for draw); with the first
/// side random both sides win equally often within bounds. Cold, moving first is the
/// advantage (the first side's arcs stand before the other moves); in contact it is the
/// handicap (the first side's troopers activate into every standing enemy arc).
#[test]
fn mirror_squads_are_even() {
    let f = [
        ForceSpec::parse("4*Rifleman+Machine Gunner").unwrap(),
        ForceSpec::parse("4*Rifleman+Machine Gunner").unwrap(),
    ];
    for opening in ["cold", "contact"] {
        let run = |first: &str, seed: u64, n: u32| {
            let o = opts(&[("FIRST_SIDE", first), ("SQUAD_OPENING", opening)]);
            let b = battle(&cat(), "squad-fight", &f, &[at(20)], &o, None, None).unwrap().0;
            play(&b, seed, n)
        };
        let (a, b) = (run("a", 3, 3000), run("b", 3, 3000));
        assert_eq!((a.wins[0], a.wins[1], a.draws), (b.wins[1], b.wins[0], b.draws), "{opening}");
        if opening == "cold" {
            assert!(a.wins[0] > a.wins[1], "cold: the lead is an advantage: {:?}", a.wins);
        } else {
            assert!(a.wins[0] < a.wins[1], "contact: the lead is a handicap: {:?}", a.wins);
        }
        let n = 6000;
        let r = run("random", 8, n);
        let (x, y) = (r.wins[0] as f64 / n as f64, r.wins[1] as f64 / n as f64);
        let sd = ((x + y) / n as f64).sqrt();
        assert!((x - y).abs() <= 5.0 * sd, "{opening}, random first side: {x} vs {y}");
    }
}

/// SQUAD_OPENING=contact, one trooper a side, A first: A activates into B's standing arc
/// (B attacks), then arcs; B activates into it (A attacks); and so on. The shots come in
/// the order of the cold duel with B first (B arcs, then A activates into it), so the
/// same draws give the same winner, duel for duel (a cap no duel reaches: no draws).
#[test]
fn contact_one_against_one_is_the_cold_duel_with_the_other_side_first() {
    let c = cat();
    for (a, b) in [("Rifleman", "Rifleman"), ("Rifleman", "Veteran SMG Gunner")] {
        let duel_options = opts(&[("FIRST_SIDE", "b"), ("SQUAD_PV_TOLERANCE", "100")]);
        let duel = Duel::new(c.trooper(a).unwrap(), c.trooper(b).unwrap(), &at(5), &duel_options, 300).unwrap();
        let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "contact")]);
        let f = fight(a, b, 5, &o, None, Some(300));
        let trials = 20_000;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
        let mut wins = vec![0u64, 0];
        for _ in 0..trials {
            match duel.play_one(&mut rng) {
                (1, _) => wins[0] += 1,
                (2, _) => wins[1] += 1,
                other => panic!("{a} vs {b}: no duel reaches the cap: {other:?}"),
            }
        }
        let t = play(&f, 17, trials);
        assert_eq!(t.wins, wins, "{a} vs {b}");
        assert_eq!(t.draws, 0);
    }
}

/// Hand-checked one round, A first, in contact: B's five Riflemen each hold a 150
/// degree arc (paid at 8 AP). A's lone Rifleman activates into all five and each attacks
/// it once in roster order, the damage adding up: P(A out) is the rifle attack run's
/// P(out within 5 attacks) (§6: about 0.9373; exact from the run's chain), where a cold
/// opening gives 0. If it survives it arcs (at most 4 rifle shots), so the fifth B
/// Rifleman is never attacked.
#[test]
fn one_round_by_hand_in_contact() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "contact")]);
    let n = 30_000u32;
    let t = play(&fight("Rifleman", "5*Rifleman", 5, &o, None, Some(1)), 9, n);
    let r = cat().trooper("Rifleman").unwrap().clone();
    let run = crate::rules::skirmishers::AttackRun::new(
        &r,
        &r,
        &at(5),
        &Options::default(),
        crate::rules::skirmishers::RunPolicy::ActiveWeapon,
        5,
    )
    .unwrap();
    let p_out = run.exact().p_kill_by_turn[4];
    assert!((p_out - 0.9373).abs() < 5e-5, "{p_out}");
    within(t.lost[0], n as u64, p_out, "A out in round 1");
    assert_eq!(t.kills[1..].iter().sum::<u64>(), t.lost[0], "B's kills are A");
    assert_eq!(t.lost[5], 0, "the fifth finds the arc spent");
    assert_eq!(t.actions, vec![n as u64, 5 * (n as u64 - t.lost[0])], "B activates only if A survives");
}

/// Hand-checked one round, A first, cold opening: A's lone Rifleman pays a 150 degree
/// arc (8 AP, 4 rifle shots); five B Riflemen activate in roster order and each of the
/// first four takes one short-range rifle attack, out with 26/36 x 6/36 = 13/108; the
/// fifth finds the arc empty. Nobody shoots A in round 1.
#[test]
fn one_round_by_hand_the_arc_holds_four_rifle_shots() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold")]);
    let n = 30_000u32;
    let t = play(&fight("Rifleman", "5*Rifleman", 5, &o, None, Some(1)), 9, n);
    assert_eq!(t.lost[0], 0, "A is never attacked in round 1");
    for u in 1..=4 {
        within(t.lost[u], n as u64, 13.0 / 108.0, "one rifle attack each");
    }
    assert_eq!(t.lost[5], 0, "the fifth finds the arc spent");
    assert_eq!(t.actions, vec![n as u64, 5 * n as u64], "every trooper activates once");
    assert_eq!(t.kills[0], t.lost[1..].iter().sum::<u64>());
    assert_eq!(t.draws, n as u64, "no side is wiped out in one round");
}

/// §4 arcs and §6: a 60 degree arc holds 4 pistol (x2) or 6 SMG (x3) shots; the widest
/// arc the AP pays; crew-served 60 degree at CREW_ARC_AP, burst never spent.
#[test]
fn arcs_pay_the_widest_the_ap_allows() {
    assert_eq!(ArcKind::Arc { mult: 2 }.pay(4), Some((4, 4)));
    assert_eq!(ArcKind::Arc { mult: 3 }.pay(5), Some((4, 6)));
    assert_eq!(ArcKind::Arc { mult: 1 }.pay(8), Some((6, 4)));
    assert_eq!(ArcKind::Arc { mult: 1 }.pay(3), Some((2, 1)));
    assert_eq!(ArcKind::Arc { mult: 1 }.pay(1), None);
    assert_eq!(ArcKind::Crew { ap: 4 }.pay(7), Some((4, UNLIMITED)));
    assert_eq!(ArcKind::Crew { ap: 4 }.pay(3), None);
    assert_eq!(ArcKind::Burst.pay(6), Some((6, UNLIMITED)));
    assert_eq!(ArcKind::Melee.pay(5), Some((5, 1)));
}

#[test]
fn forces_are_squads_or_text_and_fight_at_equal_pv() {
    let c = cat();
    let squads = squads_as_forces(&c);
    assert_eq!(squads.len(), c.squads.len());
    assert_eq!(squads[0].name, "Rifle squad");
    let o = Options::default();
    // Rifle squad (8 x 216) against Weapons squad: 1728 against 2180 PV, refused.
    let ws = squads.iter().find(|f| f.name == "Weapons squad").unwrap().clone();
    let e = battle(&c, "squad-fight", &[squads[0].clone(), ws.clone()], &[at(5)], &o, None, None).unwrap_err();
    assert!(e.contains("1728") && e.contains("2180") && e.contains("SQUAD_PV_TOLERANCE"), "{e}");
    // A budget fills one-kind forces: 2180 / 216 = 10 Riflemen (2160 PV).
    let o = opts(&[("SQUAD_BUDGET", "2180")]);
    let (b, info) = battle(&c, "squad-fight", &[squads[0].clone(), ws], &[at(5)], &o, None, None).unwrap();
    assert_eq!(info.sides[0].1, 2160.0);
    assert_eq!(info.sides[1].1, 2180.0);
    assert_eq!(b.game.fight.count, [10, 8]);
    // A mixed roster over the budget is refused with the excess.
    let f = [ForceSpec::parse("2*Rifleman+Grenadier").unwrap(), ForceSpec::parse("Rifleman").unwrap()];
    let e = battle(&c, "squad-fight", &f, &[at(5)], &opts(&[("SQUAD_BUDGET", "800")]), None, None).unwrap_err();
    assert!(e.contains("costs 883 PV, over the budget of 800 by 83"), "{e}");
    // Within it, the one-kind side is filled: 1000 / 216 = 4 Riflemen (864 PV, 2% apart).
    let (b, info) = battle(&c, "squad-fight", &f, &[at(5)], &opts(&[("SQUAD_BUDGET", "1000")]), None, None).unwrap();
    assert_eq!((info.sides[0].1, info.sides[1].1), (883.0, 864.0));
    assert_eq!(b.game.fight.count, [3, 4]);
    // Errors name what is wrong.
    let f = [ForceSpec::parse("Rifleman").unwrap(), ForceSpec::parse("Nobody").unwrap()];
    assert!(battle(&c, "squad-fight", &f, &[at(5)], &Options::default(), None, None).unwrap_err().contains("Nobody"));
    let f = [ForceSpec::parse("Rifleman").unwrap(), ForceSpec::parse("Rifleman").unwrap()];
    let o = Options::default();
    assert!(battle(&c, "duel", &f, &[at(5)], &o, None, None).unwrap_err().contains("squad-fight"));
    assert!(battle(&c, "squad-fight", &f, &[at(5)], &o, Some("nope"), None).unwrap_err().contains("roster"));
    assert!(battle(&c, "squad-fight", &f, &[at(500)], &o, None, None).unwrap_err().contains("no weapon"));
    let mf = opts(&[("MOVEMENT_FIRE", "on")]);
    assert!(battle(&c, "squad-fight", &f, &[at(5)], &mf, None, None).unwrap_err().contains("MOVEMENT_FIRE"));
}

#[test]
fn policies_and_the_cap_result() {
    let o = Options::default();
    for p in BATTLE_POLICIES {
        let b = fight("3*Rifleman", "3*Rifleman", 10, &o, Some(p), None);
        let t = play(&b, 1, 500);
        assert_eq!(t.trials, 500);
        assert!(t.wins[0] > 0 && t.wins[1] > 0, "{p}");
    }
    let und = opts(&[("SQUAD_CAP_RESULT", "undecided")]);
    let t = play(&fight("Rifleman", "Rifleman", 80, &und, None, Some(1)), 2, 200);
    assert_eq!(t.draws, 0);
    assert!(t.undecided > 150);
}

/// Golden seed: these counts change only when the squad fight's rules or draws change
/// (the cold opening's are those from before SQUAD_OPENING).
#[test]
fn golden_seed_cold() {
    let o = opts(&[("SQUAD_OPENING", "cold")]);
    let f = "4*Rifleman+Machine Gunner";
    let t = play(&fight(f, f, 20, &o, None, None), 42, 2000);
    assert_eq!((t.wins.clone(), t.draws, t.undecided, t.turns_sum), (vec![1015, 985], 0, 0, 2895), "{t:?}");
    assert_eq!(t.lost, vec![1027, 1039, 1026, 1028, 1018, 1063, 1070, 1052, 1059, 1046]);
    assert_eq!(t.kills, vec![717, 1334, 1368, 973, 898, 706, 1174, 1385, 947, 926]);
}

/// Golden seed of the default (contact) opening.
#[test]
fn golden_seed() {
    let o = Options::default();
    let f = "4*Rifleman+Machine Gunner";
    let t = play(&fight(f, f, 20, &o, None, None), 42, 2000);
    // The cold golden with the sides swapped (the first side's draw picks the other side
    // to be shot at first), over 7 rounds fewer in all.
    assert_eq!((t.wins.clone(), t.draws, t.undecided, t.turns_sum), (vec![985, 1015], 0, 0, 2888), "{t:?}");
    assert_eq!(t.lost, vec![1063, 1070, 1052, 1059, 1046, 1027, 1039, 1026, 1028, 1018]);
    assert_eq!(t.kills, vec![706, 1174, 1385, 947, 926, 717, 1334, 1368, 973, 898]);
}
