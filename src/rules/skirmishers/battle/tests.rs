//! Squad fights against the duel (draw for draw and against its exact law), mirror
//! symmetry, hand-checked one-round cases, the arc table, forces and the golden seed.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::compiled::{ArcKind, MAX_GUNS, UNLIMITED};
use super::*;
use crate::engine::Kernel;
use crate::engine::battle::{BattleRules, BattleTally};
use crate::rules::skirmishers::duel::Duel;
use crate::rules::skirmishers::trooper::Trooper;

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
        // The duel throws no grenade: GRENADES=off (at 5 dots a Rifleman could throw).
        let o =
            opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold"), ("GRENADES", "off")]);
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
        let o = opts(&[("FIRST_SIDE", first), ("SQUAD_OPENING", "cold"), ("GRENADES", "off")]);
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
        let o = opts(&[
            ("FIRST_SIDE", "a"),
            ("SQUAD_PV_TOLERANCE", "100"),
            ("SQUAD_OPENING", "contact"),
            ("GRENADES", "off"),
        ]);
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
/// Rifleman is never attacked. Arcs alone: GRENADES=off.
#[test]
fn one_round_by_hand_in_contact() {
    let o =
        opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "contact"), ("GRENADES", "off")]);
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
/// fifth finds the arc empty. Nobody shoots A in round 1. Arcs alone: GRENADES=off.
#[test]
fn one_round_by_hand_the_arc_holds_four_rifle_shots() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold"), ("GRENADES", "off")]);
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
    // Beyond every weapon's reach (the Rifle's Long is 85): no gun, the fight is played
    // and nobody fires.
    let (b, _) = battle(&c, "squad-fight", &f, &[at(500)], &o, None, None).unwrap();
    assert!(b.game.fight.units.iter().all(|u| u.guns.is_empty()));
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

/// One hand grenade by hand (§3 Explosives, §6 "hand grenade thrown 5 dots"): a lone
/// Rifleman (A, first, cold opening) against two Riflemen standing adjacent
/// (SQUAD_SPACING=1) at 5 dots. Its throw (3 + 5 AP, TN 5: 30/36) is worth more than its
/// arc (throw value 13/36 + 37/432 = 193/432 against 2 x 13/108), aimed at the first.
/// A hit deals 6X to it (out 15/36) and 3X to its neighbour (out 3/36), each from its
/// own initial cell (BLAST_ROLL_EACH); a miss scatters 1 dot: the aimed-at takes 3X, the
/// neighbour 6X, 3X, 3X, 1X, 1X or 1X (out 15, 3, 3, 0, 0, 0 /36). So P(first out) =
/// 13/36, P(second out) = 37/432, P(both: A wins in round 1) = 157/5184; nobody can
/// shoot B in its turn (A has no arc). Monte Carlo inside exact binomial bounds; the
/// negative control is the reading with one initial cell shared by the blast (11/144).
#[test]
fn one_grenade_by_hand_catches_the_neighbour() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let o =
        opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold"), ("SQUAD_SPACING", "1")]);
    let b = fight("Rifleman", "2*Rifleman", 5, &o, None, Some(1));
    // The policy's values, exact.
    let g = &b.game;
    let mut s = g.new_state();
    g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
    assert!((g.throw_value(&s, 0, 0, 1) - 193.0 / 432.0).abs() < 1e-12);
    assert!((g.throw_value(&s, 0, 0, 2) - 193.0 / 432.0).abs() < 1e-12);
    assert!((g.arc_value(&s, 0) - 2.0 * 13.0 / 108.0).abs() < 1e-12);
    assert_eq!(g.choose_throw(&s, 0), Some((0, 1)), "ties go to the first enemy");
    let n = 60_000u32;
    let t = play(&b, 21, n);
    let alpha = FAMILY_ALPHA / 3.0;
    assert!(consistent(t.lost[1], n as u64, 13.0 / 36.0, alpha), "aimed-at: {}", t.lost[1]);
    assert!(consistent(t.lost[2], n as u64, 37.0 / 432.0, alpha), "neighbour: {}", t.lost[2]);
    assert!(consistent(t.wins[0], n as u64, 157.0 / 5184.0, alpha), "both: {}", t.wins[0]);
    assert!(!consistent(t.wins[0], n as u64, 11.0 / 144.0, alpha), "one shared cell would be 11/144");
    assert!(!consistent(t.lost[2], n as u64, 0.0, alpha), "the neighbour is caught");
    assert_eq!(t.kills[0], t.lost[1] + t.lost[2], "A's blast puts them out");
}

/// Spaced 2 dots (the default), a hit's neighbour takes the 1X ring, which never puts a
/// fresh trooper out: the throw value is the aimed-at's 13/36 plus the neighbour's
/// chance from scatter alone (6/36 x 1/6 x 3/36, from the one direction 1 dot off).
#[test]
fn default_spacing_keeps_neighbours_out_of_the_inner_rings() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold")]);
    let b = fight("Rifleman", "2*Rifleman", 5, &o, None, Some(1));
    let mut s = b.game.new_state();
    b.game.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
    let want = 13.0 / 36.0 + 6.0 / 36.0 / 6.0 * 3.0 / 36.0;
    assert!((b.game.throw_value(&s, 0, 0, 1) - want).abs() < 1e-12);
}

/// Ammunition is counted and a throw is in reach only while the AP pays it: a lone
/// Rifleman (4 hand grenades) throws once an activation at a lone Rifleman at 5 dots,
/// and four throws always put an unarmoured trooper out (§6: each deals at least 3X, 12
/// cells): B is out by the 4th activation in every fight. At 6 dots (3 + 6 AP > 8) or
/// with GRENADES off it never throws (it arcs), and at 3 dots the blast could reach its
/// own line (friendly fire), so it does not throw either.
#[test]
fn grenades_are_counted_and_thrown_only_in_reach() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_OPENING", "cold")]);
    let b = fight("Rifleman", "Rifleman", 5, &o, None, Some(10));
    let g = &b.game;
    assert_eq!(g.fight.units[0].throws.len(), 1);
    assert_eq!((g.fight.units[0].throws[0].rounds, g.fight.units[0].throws[0].cost), (4, 8));
    let mut out = crate::engine::battle::Outcome::new();
    for seed in 0..300 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        let mut k = 0;
        while !s.out[1] {
            k += 1;
            assert!(k <= 4, "seed {seed}: four throws put an unarmoured trooper out");
            s.done[0] = false;
            s.shots[0] = 4; // as if an arc stood from an earlier turn
            g.act(&mut s, 0, 0, &mut rng, &mut out);
            assert_eq!(s.rounds[0], 4 - k as u8, "one grenade an activation");
            assert_eq!(s.shots[0], 0, "no arc after a throw");
        }
        assert_eq!(s.over, Some(crate::engine::battle::Ending::Winner(0)));
    }
    for (range, pairs) in [(6, vec![]), (5, vec![("GRENADES", "off")]), (3, vec![])] {
        let o = opts(&pairs);
        let b = fight("Rifleman", "Rifleman", range, &o, None, Some(10));
        let mut s = b.game.new_state();
        b.game.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
        assert_eq!(b.game.choose_throw(&s, 0), None, "range {range} {pairs:?}");
    }
}

/// Grenades change the fight: four Riflemen a side at 5 dots, side A first, in contact.
/// Arcs alone (GRENADES=off) A activates into B's arcs and is nearly wiped out, and B
/// finishes it in round 1 in about half the fights; with grenades B's survivors throw
/// (fewer enemies left than its arc's worth), and the fight ends in round 1 far more
/// often (5 sd of the two-proportion difference). Side B wins either way: who walks
/// into the standing arcs first decides this fight, grenades or not. GRENADES=off gives
/// the fight as it was before throws were played (no throw, no extra draw).
#[test]
fn grenades_change_a_squad_fight() {
    let n = 4000u32;
    let mut round1 = Vec::new();
    for g in ["off", "on"] {
        let o = opts(&[("GRENADES", g), ("FIRST_SIDE", "a")]);
        let t = play(&fight("4*Rifleman", "4*Rifleman", 5, &o, None, None), 4, n);
        assert!(t.wins[1] > 19 * t.wins[0], "GRENADES={g}: B wins: {:?}", t.wins);
        round1.push(t.ended_in_turn[0] as f64 / n as f64);
    }
    let (x, y) = (round1[0], round1[1]);
    let sd = (x * (1.0 - x) / n as f64 + y * (1.0 - y) / n as f64).sqrt();
    assert!(y - x > 5.0 * sd, "over in round 1: off {x}, on {y}");
    assert!(x < 0.6 && y > 0.8, "off {x}, on {y}");
}

/// A blast waits for the end of its side's turn (§3 "resolve the explosive after all
/// troopers on your side have activated"): two Riflemen throw in turn at two Riflemen;
/// after the first activation the blast waits and no enemy card has changed; after the
/// second both go off.
#[test]
fn blasts_wait_for_the_end_of_the_side_turn() {
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_OPENING", "cold"), ("SQUAD_THROW", "always")]);
    let b = fight("2*Rifleman", "2*Rifleman", 5, &o, None, Some(10));
    let g = &b.game;
    let mut out = crate::engine::battle::Outcome::new();
    for seed in 0..50 {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        g.act(&mut s, 0, 0, &mut rng, &mut out);
        assert_eq!((s.pending_n, s.card[2], s.card[3]), (1, 0, 0), "seed {seed}: the blast waits");
        g.act(&mut s, 0, 1, &mut rng, &mut out);
        assert_eq!(s.pending_n, 0, "seed {seed}: the side's last activation sets them off");
        assert_ne!(s.card[2], 0, "seed {seed}: the aimed-at takes at least 3X");
    }
}

/// SQUAD_THROW: a fresh Rifleman facing four fresh Riflemen at 5 dots keeps its arc
/// under `better` (4 x 13/108 = 0.481 beats the throw's 13/36 + 2/432 = 0.366) and
/// throws under `always`, aimed at the second (a scatter can reach both its neighbours:
/// the first has one); facing one, it throws under either (13/108 < 13/36).
#[test]
fn squad_throw_better_weighs_the_arc() {
    for (b, policy, want) in
        [("4*Rifleman", "better", None), ("4*Rifleman", "always", Some((0, 2))), ("Rifleman", "better", Some((0, 1)))]
    {
        let o = opts(&[("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_THROW", policy)]);
        let f = fight("Rifleman", b, 5, &o, None, Some(10));
        let mut s = f.game.new_state();
        f.game.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
        assert_eq!(f.game.choose_throw(&s, 0), want, "{b} {policy}");
    }
}

/// §4 Melee at range 1 by hand (FISTS_AND_BAYONET, on by default): a lone Rifleman (A,
/// first, cold opening) against one at 1 dot. Its widest arc (150 degrees, 4 shots)
/// is worth one rifle attack at the lone enemy (26/36 x 6/36 = 13/108); keeping 5 AP
/// buys a 30 degree arc (1 shot) and the bayonet on its rifle (TN 4: 33/36; 3X: out
/// 3/36), worth 13/108 + 11/144, so it takes that. B activates into the rifle shot, then
/// the bayonet: P(B out in round 1) = 2531/7776 (the bayonet after a rifle hit that left
/// it standing finishes it more often than a fresh card), where arcs alone give 13/108.
/// Monte Carlo inside exact binomial bounds; the negative controls are the other case's
/// values.
#[test]
fn bayonet_at_range_one_by_hand() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let with = 2531.0 / 7776.0;
    let without = 13.0 / 108.0;
    for (pairs, p, q) in [(vec![], with, without), (vec![("FISTS_AND_BAYONET", "off")], without, with)] {
        let mut pairs = pairs;
        pairs.extend([("FIRST_SIDE", "a"), ("SQUAD_OPENING", "cold")]);
        let o = opts(&pairs);
        let b = fight("Rifleman", "Rifleman", 1, &o, None, Some(1));
        let g = &b.game;
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
        if p == with {
            assert_eq!(g.fight.units[0].guns[1].1, "Bayonet/Knife");
            assert_eq!(g.arc_plan(&s, 0)[..2], [1, 1], "a 30 degree arc and the bayonet");
            assert!((g.arc_value(&s, 0) - (13.0 / 108.0 + 11.0 / 144.0)).abs() < 1e-12);
        } else {
            assert_eq!(g.fight.units[0].guns.len(), 1);
        }
        let n = 40_000u32;
        let t = play(&b, 13, n);
        let alpha = FAMILY_ALPHA / 2.0;
        assert!(consistent(t.lost[1], n as u64, p, alpha), "{pairs:?}: {} of {n}", t.lost[1]);
        assert!(!consistent(t.lost[1], n as u64, q, alpha), "{pairs:?}: the control");
        assert_eq!(t.lost[0], 0, "nobody reaches A in round 1");
    }
}

/// Fists: a Machine Gunner (a crew weapon, no bayonet) at range 1 carries its fists
/// ((8 / 2)\, Ruling FISTS_ROUND_DOWN), which never put a fresh trooper out: it keeps
/// its crew arc (4 AP). At 2 dots nobody has a melee weapon besides its own.
#[test]
fn fists_for_troopers_without_a_bayonet() {
    let o = opts(&[("SQUAD_PV_TOLERANCE", "100")]);
    let b = fight("Machine Gunner", "Rifleman", 1, &o, None, Some(1));
    let g = &b.game;
    assert_eq!(g.fight.units[0].guns[1].1, "Fists");
    let mut s = g.new_state();
    g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
    assert_eq!(g.arc_plan(&s, 0)[..2], [UNLIMITED, 0]);
    let b = fight("Machine Gunner", "Rifleman", 2, &o, None, Some(1));
    assert_eq!(b.game.fight.units[0].guns.len(), 1);
    assert!(!b.game.fight.units[1].melee_addon);
}

/// Morale ("Morale Checks", MORALE=on): eight Riflemen a side, six of side B out. Every
/// remaining B trooper checks at B's first activation: regular 7 + (6 - 4) - leadership
/// 2 = TN 7, pass 21/36 (§6); with the leader (B's first trooper) among the dead, TN 9,
/// pass 10/36. A shaken trooper sets no arc. Monte Carlo inside exact binomial bounds,
/// the other case's value as the negative control. With MORALE off (the default) nobody
/// checks, and with 3 dead nobody checks either.
#[test]
fn morale_checks_by_hand() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let o = opts(&[("MORALE", "on"), ("FIRST_SIDE", "b"), ("SQUAD_OPENING", "cold")]);
    let b = fight("8*Rifleman", "8*Rifleman", 20, &o, None, Some(5));
    let g = &b.game;
    let mut out = crate::engine::battle::Outcome::new();
    for (dead, leader_dead, p, q) in
        [(6, false, 21.0 / 36.0, 10.0 / 36.0), (6, true, 10.0 / 36.0, 21.0 / 36.0), (3, false, 1.0, 0.5)]
    {
        let n = 20_000u64;
        let mut pass = 0u64;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        // B's slots are 8..16; the leader is slot 8; the checker is slot 15.
        let victims: Vec<usize> = if leader_dead { (8..14).collect() } else { (9..15).collect() };
        let victims = &victims[..dead];
        for _ in 0..n {
            let mut s = g.new_state();
            g.begin_battle(&mut s, &mut rng);
            for &v in victims {
                s.out[v] = true;
                s.alive[1] -= 1;
            }
            let mut order = [0u8; crate::engine::battle::MAX_SIDES];
            g.begin_turn(&mut s, 0, &mut rng, &mut order);
            g.act(&mut s, 1, 15, &mut rng, &mut out);
            let shaken = s.shaken[15];
            assert_eq!(s.shots[15 * MAX_GUNS] == 0, shaken, "a shaken trooper sets no arc");
            pass += u64::from(!shaken);
        }
        let alpha = FAMILY_ALPHA / 3.0;
        assert!(consistent(pass, n, p, alpha), "{dead} dead, leader dead {leader_dead}: {pass} of {n}");
        assert!(!consistent(pass, n, q, alpha), "{dead} dead, leader dead {leader_dead}: the control");
    }
    let off = fight("8*Rifleman", "8*Rifleman", 20, &Options::default(), None, Some(5));
    assert!(!off.game.fight.morale, "MORALE is off by default (an optional Advanced Combat rule)");
}

/// Morale changes a squad fight: eight Armoured Riflemen a side at 60 dots (long range:
/// a side loses its troopers over several rounds), side A first, in contact, so A walks
/// into B's arcs and nearly always loses. With MORALE on, A's troopers, once 4 of them
/// are out, often fail and set no arc, so A puts fewer of B's troopers out before the
/// end: A's mean score drops by more than 5 standard errors (Welch, from the score's
/// moments).
#[test]
fn morale_changes_a_squad_fight() {
    let n = 30_000u32;
    let mut stats = Vec::new();
    for m in ["off", "on"] {
        let o = opts(&[("MORALE", m), ("FIRST_SIDE", "a")]);
        let t = play(&fight("8*Armoured Rifleman", "8*Armoured Rifleman", 60, &o, None, None), 6, n);
        let (sum, sq) = t.score[0];
        let mean = sum as f64 / n as f64;
        let var = sq as f64 / n as f64 - mean * mean;
        stats.push((mean, var / n as f64));
    }
    let ((a, va), (b, vb)) = (stats[0], stats[1]);
    assert!(a - b > 5.0 * (va + vb).sqrt(), "A's mean score: off {a}, on {b}, sd {}", (va + vb).sqrt());
}

/// A squad fight of hand-built troopers (ad-hoc loadouts the catalogue does not ship),
/// one setting for both sides.
fn fight_of(a: Vec<Trooper>, b: Vec<Trooper>, range: u32, o: &Options, rounds: u32) -> SquadFight {
    let roster = |name: &str, troopers: Vec<Trooper>| Roster {
        name: name.into(),
        pv: troopers.iter().map(|t| t.pv).sum(),
        troopers,
    };
    let (ra, rb) = (roster("A", a), roster("B", b));
    let c = at(range);
    compile([&ra, &rb], [&c, &c], o, None, Some(rounds)).unwrap().0
}

/// A catalogue trooper with another loadout.
fn with_weapons(base: &str, primaries: &[&str], secondary: Option<&str>) -> Trooper {
    let c = cat();
    let mut t = c.trooper(base).unwrap().clone();
    t.primaries = primaries.iter().map(|w| c.weapon(w).unwrap().clone()).collect();
    t.secondary = secondary.map(|w| c.weapon(w).unwrap().clone());
    t
}

/// Launchers by the book ("Explosive Ranged Weapons": resolved as hand grenades, base TN
/// 6; LAUNCHERS on): a Grenadier (rifle, grenade launcher under it: no AP to switch, so
/// 3 AP a shot; its hand grenades need 3 + 6 AP at 6 dots, more than its 8) fires at
/// two Riflemen standing adjacent (SQUAD_SPACING=1) at 6 dots, A first, cold opening,
/// SQUAD_THROW=always. Short range: TN 6, hit 26/36. A hit deals the aimed-at 4X (out
/// 6/36) and its neighbour 2X (out 1/36), each from its own cell; a miss scatters 1 dot:
/// the aimed-at takes 2X (1/36), the neighbour 4X, 2X, 2X, 1X, 1X, 1X (out 6, 1, 1, 0,
/// 0, 0 /36). So P(aimed-at out) = (26 x 6 + 10 x 1) / 1296 = 166/1296, P(neighbour out)
/// = 26/1296 + 10/36 x 8/216 = 236/7776, P(both: A wins in round 1) = 26 x 6 / 46656 +
/// 10 x 8 / 279936 = 1016/279936; A sets no arc, so B's turn changes nothing. Monte Carlo
/// inside exact binomial bounds; the negative control is the launcher read as an arc
/// weapon (no scatter, the aimed-at alone: 156/1296). LAUNCHERS=off never fires it.
#[test]
fn grenade_launcher_by_hand_catches_the_neighbour() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let o = opts(&[
        ("FIRST_SIDE", "a"),
        ("SQUAD_PV_TOLERANCE", "100"),
        ("SQUAD_OPENING", "cold"),
        ("SQUAD_SPACING", "1"),
        ("SQUAD_THROW", "always"),
    ]);
    let b = fight("Grenadier", "2*Rifleman", 6, &o, None, Some(1));
    let g = &b.game;
    let th = &g.fight.units[0].throws;
    assert_eq!(th.len(), 1, "the hand grenades are out of reach at 6 dots");
    assert_eq!((th[0].name.as_str(), th[0].cost, th[0].rounds, th[0].hit[0]), ("Grenade Launcher", 3, 4, 26));
    let mut s = g.new_state();
    g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(0));
    assert!((g.throw_value(&s, 0, 0, 1) - (166.0 / 1296.0 + 236.0 / 7776.0)).abs() < 1e-12);
    assert_eq!(g.choose_throw(&s, 0), Some((0, 1)));
    let n = 200_000u32;
    let t = play(&b, 23, n);
    let alpha = FAMILY_ALPHA / 4.0;
    assert!(consistent(t.lost[1], n as u64, 166.0 / 1296.0, alpha), "aimed-at: {}", t.lost[1]);
    assert!(consistent(t.lost[2], n as u64, 236.0 / 7776.0, alpha), "neighbour: {}", t.lost[2]);
    assert!(consistent(t.wins[0], n as u64, 1016.0 / 279_936.0, alpha), "both: {}", t.wins[0]);
    assert!(!consistent(t.lost[1], n as u64, 156.0 / 1296.0, alpha), "an arc weapon's 156/1296");
    assert_eq!(t.kills[0], t.lost[1] + t.lost[2]);
    let off =
        fight("Grenadier", "2*Rifleman", 6, &opts(&[("LAUNCHERS", "off"), ("SQUAD_PV_TOLERANCE", "100")]), None, None);
    assert!(off.game.fight.units[0].throws.is_empty(), "LAUNCHERS=off: never fired");
}

/// What a launcher costs and carries (Ruling LAUNCHER_READY, the AP Cost and Ammo
/// columns) at 6 dots, regular troopers (8 AP): the first primary is the active weapon
/// (Rocketeer's rocket launcher: 5 AP, 2 rockets); a secondary LAW or auto-grenade
/// launcher takes 3 AP to make active (7 AP), a grenade launcher under a rifle none (3);
/// a flamethrower (long range at 6 dots? no: short 7) 3 + 2 AP, unlimited, no scatter;
/// power armour's anti-tank missile ("- (end of turn)") 0 AP, 2 missiles, its arcs kept.
/// Long range adds 2 to the TN (rocket at 100 dots: TN 8, 15/36). A launcher whose blast
/// could reach its own line is not fired (a grenade launcher at 3 dots: rings to 2 dots
/// plus 1 dot of scatter).
#[test]
fn launcher_costs_ammunition_and_reach() {
    use super::blast::{UNLIMITED_ROUNDS, throws};
    let o = Options::default();
    let row = |t: &Trooper, range: u32| -> Vec<(String, i32, u32, u32, bool, bool)> {
        throws(t, &at(range), &o)
            .into_iter()
            .map(|th| (th.name, th.cost, th.rounds, th.hit[0], th.scatters, th.keeps_arcs))
            .collect()
    };
    let c = cat();
    let s = |n: &str| n.to_string();
    assert_eq!(row(c.trooper("Rocketeer").unwrap(), 6), vec![(s("Rocket Launcher"), 5, 2, 26, true, false)]);
    assert_eq!(row(c.trooper("Rocketeer").unwrap(), 100), vec![(s("Rocket Launcher"), 5, 2, 15, true, false)]);
    let law = with_weapons("Green Rifleman", &["Rifle"], Some("Light Anti-Tank Weapon"));
    // A green trooper has 7 AP: the LAW's 3 + 4 just fits.
    assert_eq!(row(&law, 6), vec![(s("Light Anti-Tank Weapon"), 7, 1, 26, true, false)]);
    let agl = with_weapons("Rifleman", &["Rifle"], Some("Auto-Grenade Launcher"));
    assert_eq!(row(&agl, 6), vec![(s("Auto-Grenade Launcher"), 7, 4, 26, true, false)]);
    assert_eq!(row(c.trooper("Grenadier").unwrap(), 6), vec![(s("Grenade Launcher"), 3, 4, 26, true, false)]);
    assert!(row(c.trooper("Grenadier").unwrap(), 3).is_empty(), "friendly fire");
    let flamer = with_weapons("Rifleman", &["Rifle"], Some("Flamethrower"));
    assert_eq!(row(&flamer, 6), vec![(s("Flamethrower"), 5, UNLIMITED_ROUNDS, 26, false, false)]);
    let pa = with_weapons("Heavy Power Trooper", &["PA Heavy Laser", "PA Anti-Tank Missile"], Some("Pistol"));
    assert_eq!(row(&pa, 20), vec![(s("PA Anti-Tank Missile"), 0, 2, 26, true, true)]);
    let off = opts(&[("LAUNCHERS", "off")]);
    assert!(throws(c.trooper("Rocketeer").unwrap(), &at(6), &off).is_empty());
}

/// Power armour fires its launcher and still sets its arcs (Power Armor "Firing Arcs":
/// "this trooper may use the explosive and establish firing arcs with their other
/// weapons"): a veteran heavy power trooper with a heavy laser and an anti-tank missile
/// (15 AP) against one Rifleman at 20 dots, A first, cold opening. It fires the missile
/// (0 AP) and sets its widest laser arc (6 AP, 12 shots). The missile goes off at the end
/// of A's turn: a hit (TN 6, 26/36) deals 13X, always out; a miss scatters 1 dot, 6X:
/// out 15/36; so 1086/1296. A survivor then activates into the laser (12X, 26/36, always
/// out): P(B out in round 1) = 1086/1296 + 210/1296 x 26/36 = 44556/46656. Monte Carlo
/// inside exact binomial bounds; the negative control is the basic trooper's reading (no
/// arc after an explosive: 1086/1296).
#[test]
fn power_armour_fires_its_launcher_and_keeps_its_arcs() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let o = opts(&[("FIRST_SIDE", "a"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold")]);
    let pa = with_weapons("Heavy Power Trooper", &["PA Heavy Laser", "PA Anti-Tank Missile"], Some("Pistol"));
    let b = fight_of(vec![pa], vec![cat().trooper("Rifleman").unwrap().clone()], 20, &o, 1);
    let g = &b.game;
    let mut s = g.new_state();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
    g.begin_battle(&mut s, &mut rng);
    assert_eq!(g.choose_throw(&s, 0), Some((0, 1)));
    g.throw(&mut s, 0, 0, 1);
    assert_eq!((s.shots[0], s.rounds[0], s.pending_n), (12, 1, 1), "laser arc kept, one missile spent");
    // The arcs are paid from the AP the launcher leaves: two heavy lasers and a rocket
    // launcher (5 AP) leave 10 AP, a 150 degree arc (6 AP, 12 shots) and a 60 degree one
    // (4 AP, 6 shots); without the rocket both lasers get 150 degrees.
    let two = with_weapons("Heavy Power Trooper", &["PA Heavy Laser", "PA Heavy Laser"], Some("Rocket Launcher"));
    let b2 = fight_of(vec![two], vec![cat().trooper("Rifleman").unwrap().clone()], 20, &o, 1);
    let mut s2 = b2.game.new_state();
    b2.game.begin_battle(&mut s2, &mut rng);
    assert_eq!(b2.game.arc_plan(&s2, 0), [12, 12, 0]);
    assert_eq!(b2.game.fight.units[0].throws[0].cost, 5);
    b2.game.throw(&mut s2, 0, 0, 1);
    assert_eq!(s2.shots[..MAX_GUNS], [12, 6, 0]);
    let n = 60_000u32;
    let t = play(&b, 29, n);
    let alpha = FAMILY_ALPHA / 2.0;
    assert!(consistent(t.lost[1], n as u64, 44556.0 / 46656.0, alpha), "B out: {}", t.lost[1]);
    assert!(!consistent(t.lost[1], n as u64, 1086.0 / 1296.0, alpha), "no arc after the missile");
}

/// Power armour's fists at range 1 (Power Armor "Melee Combat": 1X plus (max AP / 2)\,
/// 5 AP; FISTS_AND_BAYONET): a Power Trooper (basic suit, regular: 8 + 6 = 14 AP) carries
/// them beside its machine gun. Against a fresh Rifleman the fist hits on TN 4 (33/36)
/// and deals 1X and 7\: the 1X fully crosses the initial cell min(roll, 10), so the
/// Rifleman's HP is that cell - 1 (the 7 partial cells do not lower it), and
/// P(HP <= 5 after one fist) = 33/36 x P(2D6 <= 6) = 33/36 x 15/36 = 495/1296; a basic
/// trooper's fists (7\ alone) never lower it. Monte Carlo of the fist alone (A's machine
/// gun holds no shot) inside exact binomial bounds, the basic fists' 0 and the bayonet's
/// 3X (HP <= 5 when the roll is 8 or less: 33/36 x 26/36) as negative controls. Off,
/// no fists.
#[test]
fn power_armour_fists_by_hand() {
    use crate::stats::binomial::consistent;
    use crate::stats::tolerance::FAMILY_ALPHA;
    let o = opts(&[("FIRST_SIDE", "b"), ("SQUAD_PV_TOLERANCE", "100"), ("SQUAD_OPENING", "cold")]);
    let b = fight("Power Trooper", "Rifleman", 1, &o, None, Some(1));
    let g = &b.game;
    assert_eq!(g.fight.units[0].guns[1].1, "Power Armor Fists");
    assert_eq!(g.fight.units[0].ap[0], 14);
    let n = 40_000u64;
    let mut low = 0u64;
    let mut out = crate::engine::battle::Outcome::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(31);
    for _ in 0..n {
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        s.shots[..MAX_GUNS].copy_from_slice(&[0, 1, 0]);
        g.act(&mut s, 1, 1, &mut rng, &mut out);
        let hp = 10 - s.col[1] as i32;
        low += u64::from(hp <= 5);
        assert_eq!(s.shots[1], 0, "one melee attack");
    }
    let alpha = FAMILY_ALPHA / 3.0;
    assert!(consistent(low, n, 495.0 / 1296.0, alpha), "HP <= 5: {low} of {n}");
    assert!(!consistent(low, n, 0.0, alpha), "a basic trooper's fists");
    assert!(!consistent(low, n, 33.0 / 36.0 * 26.0 / 36.0, alpha), "the bayonet's 3X");
    let off = fight(
        "Power Trooper",
        "Rifleman",
        1,
        &opts(&[("FISTS_AND_BAYONET", "off"), ("SQUAD_PV_TOLERANCE", "100")]),
        None,
        None,
    );
    assert_eq!(off.game.fight.units[0].guns.len(), 1);
}
