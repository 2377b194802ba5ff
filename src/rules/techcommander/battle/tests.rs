//! TcGame rules against techcommander-battles.md §7 and against the duel.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::Action;
use super::test_support::{
    Audited, Part, TestBattle, assert_consistent, catalogue, embedded, options, parse_catalogue,
    play_under_every_policy, tally, turn_one, wounded,
};
use super::units::resolve;
use crate::catalogue::force::ForceSpec;
use crate::engine::Kernel;
use crate::engine::battle::{Battle, BattlePolicy, BattleRules, Ending, Outcome, play_battle};
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::{MutualElimination, Options};
use crate::rules::techcommander::{Duel, Policy};
use crate::stats::binomial::consistent;

/// A catalogue for exact vectors: a 1-shot 20-damage gun at T 11 against AC1, a
/// vehicle and an MSV carrying it, unarmed crew, and a command vehicle.
const TEST_CATALOGUE: &str = r#"
[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Gun B"
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
name = "Lance"
damage = 18
shots = 2
fire_control = 1
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Big Gun"
damage = 60
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Blank"              # never hits at range 12: T drops by 20 per inch past 0
damage = 1
shots = 1
fire_control = 0
opt = 0
drop = 20
weight = 1
power = 0

[[unit]]
name = "Car"
kind = "vehicle"
ac = 3

[[unit]]
name = "Boss Car"
kind = "vehicle"
ac = 3
command = 1

[[unit]]
name = "Walker"
kind = "msv"
ac = 4
free_weight = 20
free_power = 20

[[unit]]
name = "Merc Car"
kind = "vehicle"
ac = 3
abilities = ["Moneyshot"]

[[unit]]
name = "Ram Truck"
kind = "vehicle"
ac = 6
speed = 20

[[unit]]
name = "Crew"
kind = "crew"
ac = 1

[[unit]]
name = "Fort"
kind = "vehicle"
ac = 10

[[build]]
name = "Gun Car"
unit = "Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Gun Boss"
unit = "Boss Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Two-Gun Walker"
unit = "Walker"
weapons = [{ name = "Gun" }, { name = "Gun B" }]

[[build]]
name = "One-Gun Walker"
unit = "Walker"
weapons = [{ name = "Gun" }]

[[build]]
name = "Unarmed Crew"
unit = "Crew"
weapons = [{ name = "Blank" }]

[[build]]
name = "Big Gun Car"
unit = "Car"
weapons = [{ name = "Big Gun" }]

[[build]]
name = "Cannon Car"
unit = "Car"
weapons = [{ name = "Cannon" }]

[[build]]
name = "Lance Car"
unit = "Car"
weapons = [{ name = "Lance" }]

[[build]]
name = "Merc Gun Car"
unit = "Merc Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Rammer"
unit = "Ram Truck"
weapons = [{ name = "Blank" }]

[[build]]
name = "Unarmed Car"
unit = "Car"
weapons = [{ name = "Blank" }]

[[build]]
name = "Fort"
unit = "Fort"
weapons = [{ name = "Blank" }]

[[weapon]]
name = "Forty"
damage = 40
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Forty B"
damage = 40
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[gear]]
name = "Plate"
weight = 1
power = 0
damage_reduction = 15

[[unit]]
name = "Bunker"
kind = "vehicle"
ac = 1
damage_reduction = 15

[[unit]]
name = "Box"
kind = "vehicle"
ac = 4

[[build]]
name = "Bunker"
unit = "Bunker"
weapons = [{ name = "Blank" }]

[[build]]
name = "Box"
unit = "Box"
weapons = [{ name = "Blank" }]

[[build]]
name = "Forty Walker"
unit = "Walker"
weapons = [{ name = "Forty" }, { name = "Forty B" }]

[[build]]
name = "Plated Walker"
unit = "Walker"
weapons = [{ name = "Gun" }, { name = "Gun B" }]
gear = ["Plate"]

[[unit]]
name = "Trooper"
kind = "troop"
ac = 1

[[build]]
name = "Gun Trooper"
unit = "Trooper"
weapons = [{ name = "Gun" }]
"#;

/// What [`TestBattle::assemble`] builds besides the tables: passengers and Omegas.
const OFFLOAD_OMEGA: &[Part] = &[Part::Offload, Part::Omega];

#[test]
fn a_vehicle_against_two_unarmed_crew_follows_the_exact_law() {
    // §7: P(B eliminated by turn 1..4) = 0, 121/400, 2299/4000, 121363/160000.
    let cat = catalogue(TEST_CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Gun Car", "2*Unarmed Crew").max_turns(4).kernel();
    let n = 200_000;
    let t = tally(&k, n, 7);
    let by_turn = t.decided_by_turn();
    assert_eq!(by_turn[0], 0);
    for (turn, p) in [(2, 121.0 / 400.0), (3, 2299.0 / 4000.0), (4, 121363.0 / 160000.0)] {
        assert_consistent(by_turn[turn - 1], n as u64, p, &format!("by turn {turn}"));
    }
    assert_eq!(t.wins[1], 0, "unarmed crew never win");
}

#[test]
fn crew_are_dug_in_for_free_by_default() {
    // The §7 vehicle row at the defaults, where `FREE_DIG_IN` (the book's "Crew or troop
    // units that have not acted may be declared as being dug-in") puts both crew dug in
    // before the vehicle's first shot, for good (they never move): T = 11 − 2 = 9, a
    // kill with p = 9/20, q = 11/20, one shot a turn. P(both dead by turn n) = 1 − q^n
    // − n p q^(n−1): turn 2 81/400, turn 3 1701/4000, turn 4 97443/160000 (undug: the
    // §7 row, the negative control).
    let cat = catalogue(TEST_CATALOGUE);
    let defaults = Options { force_budget: 1000, ..Options::default() };
    let k = TestBattle::skirmish(&cat, "Gun Car", "2*Unarmed Crew").options(defaults).max_turns(4).kernel();
    let n = 200_000u64;
    let t = tally(&k, n as u32, 7);
    let by_turn = t.decided_by_turn();
    assert_eq!(by_turn[0], 0);
    let alpha = crate::stats::tolerance::FAMILY_ALPHA / 6.0;
    for (turn, p, undug) in [
        (2, 81.0 / 400.0, 121.0 / 400.0),
        (3, 1701.0 / 4000.0, 2299.0 / 4000.0),
        (4, 97443.0 / 160000.0, 121363.0 / 160000.0),
    ] {
        let k = by_turn[turn - 1];
        assert!(consistent(k, n, p, alpha), "by turn {turn}: {k}/{n} vs {p}");
        assert!(!consistent(k, n, undug, alpha), "by turn {turn}: {k}/{n} also fits the undug {undug}");
    }
}

#[test]
fn an_msv_with_two_systems_fires_twice_a_turn_with_one_system_once() {
    let cat = catalogue(TEST_CATALOGUE);
    let n = 200_000;
    let k = TestBattle::skirmish(&cat, "Two-Gun Walker", "2*Unarmed Crew").max_turns(2).kernel();
    let two = tally(&k, n, 8);
    assert_consistent(two.decided_by_turn()[0], n as u64, 121.0 / 400.0, "two systems, turn 1");
    assert_consistent(two.decided_by_turn()[1], n as u64, 121363.0 / 160000.0, "two systems, turn 2");
    // One system: the second action cannot attack (SYSTEM_ONCE_PER_TURN): the vehicle row.
    let k = TestBattle::skirmish(&cat, "One-Gun Walker", "2*Unarmed Crew").max_turns(2).kernel();
    let one = tally(&k, n, 9);
    assert_eq!(one.decided_by_turn()[0], 0);
    assert_consistent(one.decided_by_turn()[1], n as u64, 121.0 / 400.0, "one system, turn 2");
    // Without the ruling the one gun fires twice, as the two-system walker.
    let o = Options { system_once_per_turn: false, ..options() };
    let k = TestBattle::skirmish(&cat, "One-Gun Walker", "2*Unarmed Crew").options(o).max_turns(2).kernel();
    let free = tally(&k, n, 9);
    assert_consistent(free.decided_by_turn()[0], n as u64, 121.0 / 400.0, "SYSTEM_ONCE_PER_TURN=false");
}

#[test]
fn one_unit_a_side_plays_the_duel_draw_for_draw() {
    // Same builds, same conditions, same turn cap, single-system sides: the battle
    // draws the duel's numbers in the duel's order, so the counts are identical.
    let cat = catalogue(TEST_CATALOGUE);
    let o = options();
    for (a, b) in [("Cannon Car", "Lance Car"), ("Gun Car", "Cannon Car")] {
        let k = TestBattle::skirmish(&cat, a, b).options(o).max_turns(20).kernel();
        let t = tally(&k, 50_000, 11);
        let side = |name: &str| {
            let build = cat.build(name).unwrap();
            (
                crate::rules::techcommander::Attacker::from_build(&cat, build),
                crate::rules::techcommander::Target::from_build(&cat, build),
            )
        };
        let (da, db) = (side(a), side(b));
        let duel =
            Duel::new((&da.0, &da.1), (&db.0, &db.1), &Conditions::at_range(12.0), &o, Policy::default(), 20).unwrap();
        let mut d = duel.new_tally();
        duel.play(&mut Xoshiro256PlusPlus::seed_from_u64(11), 50_000, &mut d);
        assert_eq!(t.wins[0], d.a_wins(), "{a} vs {b}: A wins");
        assert_eq!(t.wins[1], d.b_wins(), "{a} vs {b}: B wins");
        assert_eq!(t.draws, d.draws(), "{a} vs {b}: draws");
        let ended: Vec<u64> =
            (0..20).map(|i| d.a_wins_by_turn[i] + d.b_wins_by_turn[i] + d.mutual_by_turn[i]).collect();
        assert_eq!(t.ended_in_turn, ended, "{a} vs {b}: end turns");
        assert!(d.mutual_by_turn.iter().sum::<u64>() > 0, "mutual kills happen and are draws in both");
    }
}

#[test]
fn a_mirror_battle_is_even() {
    let cat = embedded();
    let force = "Gladiator Lancer+Beagle Hunter+Hunter IV Standard";
    for policy in ["greedy", "focus-lowest", "random"] {
        let k = TestBattle::skirmish(&cat, force, force).options(Options::default()).policy(policy).kernel();
        let t = tally(&k, 40_000, 3);
        let decisive = t.wins[0] + t.wins[1];
        assert!(consistent(t.wins[0], decisive, 0.5, 1e-6), "{policy}: {} vs {}", t.wins[0], t.wins[1]);
    }
}

#[test]
fn budgets_are_never_exceeded_and_command_adds_actions() {
    let cat = embedded();
    let o = Options::default();
    let g = TestBattle::skirmish(
        &cat,
        "Gladiator Lancer+Beagle Hunter+Hunter IV Standard",
        "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT",
    )
    .options(o)
    .max_turns(10)
    .assemble(OFFLOAD_OMEGA);
    let b = Battle { game: g, policy: Audited(super::policy::Greedy) };
    let mut t = b.tally();
    b.play_into(&mut Xoshiro256PlusPlus::seed_from_u64(5), 20_000, &mut t);
    assert_eq!(t.trials, 20_000);

    // §7: 5 single-action units, no command, not rallied: 4 act per turn; command 1: 5.
    let test = catalogue(TEST_CATALOGUE);
    for (force, acted) in [("5*Gun Car", 4), ("4*Gun Car+Gun Boss", 5)] {
        let g = TestBattle::skirmish(&test, force, "Fort").max_turns(1).assemble(OFFLOAD_OMEGA);
        let mut s = g.new_state();
        let mut out = Outcome::new();
        play_battle(&g, &Audited(super::policy::Greedy), &mut s, &mut Xoshiro256PlusPlus::seed_from_u64(1), &mut out);
        assert_eq!(out.actions[0], acted, "{force}");
    }
}

#[test]
fn time_called_scores_destroyed_ac_and_elimination_is_at_resolve_damage() {
    let cat = embedded();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    // A destroyed a Stingray (AC2) and 3 troops; B destroyed an AC4 MSV: A 5, B 4.
    let g = TestBattle::skirmish(
        &cat,
        "Gladiator Lancer+Hunter IV Standard",
        "Stingray Standard+3*ECBS Pirate AT+Rhino Standard",
    )
    .max_turns(10)
    .assemble(OFFLOAD_OMEGA);
    let mut s = wounded(&g, &mut rng, &[(2, -3, 1), (3, 0, 1), (4, -1, 1), (5, -7, 1), (0, -2, 6)]);
    let mut out = Outcome::new();
    assert_eq!(g.end_turn(&mut s, 0, &mut rng, &mut out), None, "both sides keep a unit");
    assert_eq!(&out.score[..2], &[5, 4]);
    assert_eq!(g.time_called(&s, &mut out), Ending::Winner(0));
    assert_eq!(&out.lost[..7], &[1, 0, 1, 1, 1, 1, 0]);
    assert_eq!(out.kills[1], 4);

    // Both last units at 0 or less at the same Resolve Damage: a draw (or the score).
    let g = TestBattle::skirmish(&cat, "Gladiator Lancer", "Stingray Standard").max_turns(10).assemble(OFFLOAD_OMEGA);
    let mut s = wounded(&g, &mut rng, &[(0, 0, 1), (1, -4, 0)]);
    let mut out = Outcome::new();
    assert_eq!(g.end_turn(&mut s, 0, &mut rng, &mut out), Some(Ending::Draw));
    let o = Options { mutual_elimination: MutualElimination::Score, ..options() };
    let g = TestBattle::skirmish(&cat, "Gladiator Lancer", "Stingray Standard")
        .options(o)
        .max_turns(10)
        .assemble(OFFLOAD_OMEGA);
    let mut s = wounded(&g, &mut rng, &[(0, 0, 1), (1, -4, 0)]);
    let mut out = Outcome::new();
    assert_eq!(g.end_turn(&mut s, 0, &mut rng, &mut out), Some(Ending::Winner(1)), "B destroyed 4 AC, A 2");
}

#[test]
fn crew_of_a_removed_msv_escape_on_ten_or_less() {
    // §7: an MSV's 2 crew: 0, 1, 2 survivors with 1/4, 1/2, 1/4.
    let cat = embedded();
    let g = TestBattle::skirmish(&cat, "Gladiator Lancer+Hunter IV Standard", "Stingray Standard")
        .max_turns(10)
        .assemble(OFFLOAD_OMEGA);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let n = 100_000u64;
    let mut counts = [0u64; 3];
    for _ in 0..n {
        let mut s = wounded(&g, &mut rng, &[(0, -5, 2)]);
        let mut out = Outcome::new();
        g.end_turn(&mut s, 0, &mut rng, &mut out);
        counts[out.escaped[0] as usize] += 1;
    }
    for (k, p) in [(0, 0.25), (1, 0.5), (2, 0.25)] {
        assert_consistent(counts[k], n, p, &format!("{k} survivors"));
    }
    // Under CREW_SURVIVORS=fight the survivors stay: a side with only escaped crew is
    // not eliminated.
    let o = Options { crew_survivors: crate::rules::techcommander::options::CrewSurvivors::Fight, ..options() };
    let g = TestBattle::skirmish(&cat, "Gladiator Lancer", "Stingray Standard")
        .options(o)
        .max_turns(10)
        .assemble(OFFLOAD_OMEGA);
    let mut survived = 0;
    for _ in 0..1000 {
        let mut s = wounded(&g, &mut rng, &[(0, -5, 3)]);
        let mut out = Outcome::new();
        let end = g.end_turn(&mut s, 0, &mut rng, &mut out);
        assert_eq!(end.is_none(), out.escaped[0] > 0);
        survived += (out.escaped[0] > 0) as u32;
    }
    assert!(survived > 600, "3/4 of the time a crew member escapes: {survived}");
}

#[test]
fn forces_over_budget_are_refused_naming_the_excess() {
    let cat = embedded();
    let o = Options::default();
    let ok = |f: &str| resolve(&cat, &[ForceSpec::parse(f).unwrap()], &o, true);
    assert!(ok("Gladiator Lancer+Hunter IV Standard+Stingray Standard+3*ECBS Pirate AT").is_ok(), "12 is valid");
    assert!(ok("2*Paladin Siege").is_ok(), "two AC6 MSVs");
    let e = ok("Paladin Siege+Gladiator Lancer+3*ECBS Pirate AT").unwrap_err();
    assert!(e.contains("costs 13 points, over its budget of 12 by 1"), "{e}");
    let e = ok("Paladin Siege+Nope").unwrap_err();
    assert!(e.contains("no build named `Nope`"), "{e}");
}

#[test]
fn protect_command_pops_smoke_under_threat() {
    let cat = catalogue(TEST_CATALOGUE);
    // A's Gun Boss (command 1) has no smoke gear: the greedy policy attacks instead.
    let g = TestBattle::skirmish(&cat, "Gun Boss", "Big Gun Car").max_turns(1).assemble(OFFLOAD_OMEGA);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut s = turn_one(&g, &mut rng);
    let a = super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng);
    assert!(matches!(a, Some(Action::Attack { .. })), "{a:?}");
    // Give it a smoke round: the Big Gun Car kills it with 13/20 >= 0.25: it pops smoke.
    s.smoke_rounds[0] = 1;
    assert_eq!(super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Smoke { unit: 0 }));
    let o = Options { protect_command: false, ..options() };
    let g2 = TestBattle::skirmish(&cat, "Gun Boss", "Big Gun Car").options(o).max_turns(1).assemble(OFFLOAD_OMEGA);
    assert!(matches!(super::policy::Greedy.choose(&g2, &s, 0, 0, &mut rng), Some(Action::Attack { .. })));
}

#[test]
fn the_same_seed_gives_the_same_tally_on_any_thread_count() {
    let cat = embedded();
    let k = TestBattle::skirmish(
        &cat,
        "Gladiator Lancer+Beagle Hunter+Hunter IV Standard",
        "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT",
    )
    .options(Options::default())
    .kernel();
    let cells = [crate::engine::Cell { key: 42, kernel: &k }];
    let run = |threads| {
        let config = crate::engine::RunConfig {
            seed: 9,
            trials: crate::engine::Trials::Fixed(3 * 4096 + 5),
            threads: Some(threads),
            batch_streams: 1,
        };
        crate::engine::run(&cells, &config, &crate::engine::Silent).unwrap().remove(0)
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn deathmatch_deploys_within_the_cap_and_kill_chips_raise_it() {
    let cat = embedded();
    let g =
        TestBattle::deathmatch(&cat, &["Stingray Standard+ECBS Pirate AT", "Pigeonhawk Standard", "3*ECBS Pirate AT"])
            .options(Options::default())
            .game();
    assert_eq!(g.base_actions, 2);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut s = g.new_state();
    let mut raised = false;
    for _ in 0..300 {
        g.begin_battle(&mut s, &mut rng);
        let mut out = Outcome::new();
        for turn in 0..g.max_turns() {
            let mut order = [0u8; 8];
            let n = g.begin_turn(&mut s, turn, &mut rng, &mut order);
            assert_eq!(n, 3);
            for side in 0..3 {
                let fielded: f64 = g.side_units[side]
                    .iter()
                    .filter(|&&u| s.present[u as usize])
                    .map(|&u| g.units[u as usize].points)
                    .sum();
                assert!(fielded <= s.cap[side] as f64, "side {side} fields {fielded} over cap {}", s.cap[side]);
                assert!(fielded > 0.0, "every player deploys every turn");
                assert!(s.cap[side] <= 8);
                raised |= s.cap[side] > 3;
            }
            crate::engine::battle::play_phases(&g, &super::policy::Greedy, &mut s, &order[..n], &mut rng, &mut out);
            assert!(out.actions[..3].iter().all(|&a| a <= 2 * (turn + 1)), "2 actions a player a turn");
            assert_eq!(g.end_turn(&mut s, turn, &mut rng, &mut out), None, "a deathmatch runs to DM_TURNS");
        }
        let ending = g.time_called(&s, &mut out);
        assert!(matches!(ending, Ending::Winner(_) | Ending::Draw));
    }
    assert!(raised, "kill chips bought cap");
}

#[test]
fn a_mirror_deathmatch_is_even_and_held_chips_keep_the_cap() {
    let cat = embedded();
    let force = "Stingray Standard+ECBS Pirate AT";
    let o = Options::default();
    let k = TestBattle::deathmatch(&cat, &[force, force]).options(o).kernel();
    let t = tally(&k, 40_000, 12);
    assert!(consistent(t.wins[0], t.wins[0] + t.wins[1], 0.5, 1e-6), "{} vs {}", t.wins[0], t.wins[1]);
    assert_eq!(t.ended_in_turn.iter().sum::<u64>(), 0, "deathmatches run to the cap");
    let held = TestBattle::deathmatch(&cat, &[force, force])
        .options(Options { dm_perks: crate::rules::techcommander::options::DmPerks::Hold, ..o })
        .game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut s = held.new_state();
    held.begin_battle(&mut s, &mut rng);
    s.chips = [5; 8];
    let mut order = [0u8; 8];
    held.begin_turn(&mut s, 0, &mut rng, &mut order);
    assert_eq!(&s.cap[..2], &[3, 3]);
    let spent = TestBattle::deathmatch(&cat, &[force, force]).options(o).game();
    let mut s = spent.new_state();
    spent.begin_battle(&mut s, &mut rng);
    s.chips = [5; 8];
    spent.begin_turn(&mut s, 0, &mut rng, &mut order);
    assert_eq!(&s.cap[..2], &[8, 8]);
}

#[test]
fn a_ram_is_an_action_where_the_rammer_reaches() {
    // §7: ram AC6 -> AC3 (T 15) kills from 20 with 33/80; the rammer takes floor(d20/2)
    // and survives. One ram a turn (a vehicle): P(eliminated in turn 1) = 33/80.
    let cat = catalogue(TEST_CATALOGUE);
    let n = 100_000;
    let k = TestBattle::skirmish(&cat, "Rammer", "Unarmed Car").max_turns(1).kernel();
    let t = tally(&k, n, 21);
    assert_consistent(t.decided_by_turn()[0], n as u64, 33.0 / 80.0, "ram kills in turn 1");
    assert_eq!(t.wins[1], 0);
    // Out of reach (range 30 > speed 20): no ram, nothing happens.
    let k = TestBattle::skirmish(&cat, "Rammer", "Unarmed Car")
        .conditions(Conditions::at_range(30.0))
        .max_turns(1)
        .kernel();
    let far = tally(&k, 2_000, 22);
    assert_eq!(far.decided_by_turn()[0], 0);
}

#[test]
fn the_second_edition_s_moneyshot_plays_in_battles() {
    // Every hit of the Gun eliminates an AC1 crew: under EDITION=2 Moneyshot adds 2,
    // T 11 -> 13, so P(both crew gone by turn 2) = (13/20)^2; under the 3rd, (11/20)^2.
    let cat = catalogue(TEST_CATALOGUE);
    let n = 100_000;
    for (edition, p) in [(2, 169.0 / 400.0), (3, 121.0 / 400.0)] {
        let o = Options { edition, ..options() };
        let k = TestBattle::skirmish(&cat, "Merc Gun Car", "2*Unarmed Crew").options(o).max_turns(2).kernel();
        let t = tally(&k, n, 31);
        assert_consistent(t.decided_by_turn()[1], n as u64, p, &format!("edition {edition}"));
    }
}

// ---- passengers and offload (§2.4 Offload, §2.5, §2.6) ----

#[test]
fn passengers_cost_their_points_and_only_troops_and_crew_ride_msvs_and_vehicles() {
    let cat = catalogue(TEST_CATALOGUE);
    let o = Options { force_budget: 5, ..options() };
    let ok = |f: &str| resolve(&cat, &[ForceSpec::parse(f).unwrap()], &o, true);
    let units = ok("Unarmed Car[2*Unarmed Crew]").unwrap();
    assert_eq!(units.len(), 3, "the carrier and its two passengers");
    assert_eq!(units.iter().map(|u| u.carrier).collect::<Vec<_>>(), [None, Some(0), Some(0)]);
    let e = ok("Unarmed Car[2*Unarmed Crew]+Unarmed Crew").unwrap_err();
    assert!(e.contains("costs 6 points, over its budget of 5 by 1"), "{e}");
    let e = ok("Unarmed Crew[Unarmed Crew]").unwrap_err();
    assert!(e.contains("only an MSV or a vehicle carries passengers"), "{e}");
    let e = ok("Unarmed Car[Gun Car]").unwrap_err();
    assert!(e.contains("only troops and crew ride aboard a carrier"), "{e}");
    let e = ok("Unarmed Car[Nope]").unwrap_err();
    assert!(e.contains("no build named `Nope`"), "{e}");
}

#[test]
fn a_force_entry_with_passengers_is_checked_with_its_field() {
    let text = format!(
        "{TEST_CATALOGUE}\n[[force]]\nname = \"Bus\"\nunits = [{{ build = \"Unarmed Car\", passengers = [{{ build = \"Gun Trooper\", count = 2 }}, {{ build = \"Gun Car\" }}] }}]\n"
    );
    let e = parse_catalogue(&text).unwrap_err();
    assert!(e.contains("units[0].passengers[1].build"), "{e}");
    assert!(e.contains("only troops and crew ride aboard a carrier"), "{e}");
    assert!(e.contains("test.toml"), "{e}");
    let text = format!(
        "{TEST_CATALOGUE}\n[[force]]\nname = \"Bus\"\nunits = [{{ build = \"Unarmed Car\", passengers = [{{ build = \"Gun Trooper\", count = 2 }}] }}]\n"
    );
    let cat = parse_catalogue(&text).unwrap();
    assert_eq!(cat.forces[0].members[0].passengers[0].count, 2);
}

#[test]
fn passengers_aboard_are_never_targeted_nor_act() {
    let cat = catalogue(TEST_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gun Car", "Unarmed Car[2*Gun Trooper]").max_turns(1).assemble(OFFLOAD_OMEGA);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut s = g.new_state();
    g.begin_battle(&mut s, &mut rng);
    assert!(s.aboard[2] && s.aboard[3] && !g.targetable(&s, 2) && !g.targetable(&s, 3));
    let mut order = [0u8; 8];
    g.begin_turn(&mut s, 0, &mut rng, &mut order);
    // A's only target is the carrier.
    for _ in 0..3 {
        assert_eq!(
            super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng),
            Some(Action::Attack { actor: 0, system: 0, target: 1 })
        );
    }
    // B acts only through the offload: its carrier's Blank scores nothing.
    assert_eq!(
        super::policy::Greedy.choose(&g, &s, 1, 0, &mut rng),
        Some(Action::Offload { carrier: 1, focus: false })
    );
    g.act(&mut s, 1, Action::Offload { carrier: 1, focus: false }, &mut rng, &mut Outcome::new());
    assert!(!s.aboard[2] && !s.aboard[3] && g.targetable(&s, 2) && s.actions[1] == 0 && s.actions[2] == 0);
    assert_eq!(super::policy::Greedy.choose(&g, &s, 1, 0, &mut rng), None, "everybody acted");
}

#[test]
fn an_offload_attacks_at_minus_one_and_then_the_passenger_is_an_ordinary_unit() {
    // A: an unarmed car carrying a Gun Trooper (Gun: T 11 against AC1 crew, 10 from an
    // offload) vs B: 2 unarmed crew. Turn 1 the trooper offloads and fires at 1/2; after,
    // it fires at 11/20 (rallied). P(B eliminated by turn 1, 2, 3) = 0, 11/40, 11/20.
    // OFFLOAD_PENALTY=0: the first shot at 11/20 too: by turn 2 (11/20)^2.
    let cat = catalogue(TEST_CATALOGUE);
    let n = 200_000;
    let k = TestBattle::skirmish(&cat, "Unarmed Car[Gun Trooper]", "2*Unarmed Crew").max_turns(3).kernel();
    let t = tally(&k, n, 41);
    assert_eq!(t.decided_by_turn()[0], 0);
    assert_consistent(t.decided_by_turn()[1], n as u64, 11.0 / 40.0, "by turn 2");
    assert_consistent(t.decided_by_turn()[2], n as u64, 11.0 / 20.0, "by turn 3");
    let o = options().with("OFFLOAD_PENALTY", "0").unwrap();
    let k = TestBattle::skirmish(&cat, "Unarmed Car[Gun Trooper]", "2*Unarmed Crew").options(o).max_turns(2).kernel();
    let t = tally(&k, n, 42);
    assert_consistent(t.decided_by_turn()[1], n as u64, 121.0 / 400.0, "OFFLOAD_PENALTY=0, by turn 2");
    // focus-lowest offloads too (the passenger's only way to act).
    let k = TestBattle::skirmish(&cat, "Unarmed Car[Gun Trooper]", "2*Unarmed Crew")
        .policy("focus-lowest")
        .max_turns(2)
        .kernel();
    assert_consistent(tally(&k, n, 43).decided_by_turn()[1], n as u64, 11.0 / 40.0, "focus-lowest");
}

#[test]
fn passengers_of_a_removed_carrier_escape_or_die_and_score_for_the_killer() {
    // §7: a vehicle with 2 passengers aboard: survivors 0, 1, 2 with 1/4, 1/2, 1/4; each
    // passenger dies (and scores 1 AC and a kill for the carrier's killer) with 1/2.
    let cat = catalogue(TEST_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gun Car", "Unarmed Car[2*Unarmed Crew]").max_turns(10).assemble(OFFLOAD_OMEGA);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
    let n = 100_000u64;
    let mut counts = [0u64; 3];
    let mut first_dead = 0;
    for _ in 0..n {
        let mut s = wounded(&g, &mut rng, &[(1, -5, 0)]);
        let mut out = Outcome::new();
        let end = g.end_turn(&mut s, 0, &mut rng, &mut out);
        let survivors = (2..4).filter(|&p| s.present[p] && !s.aboard[p]).count();
        let dead = 2 - survivors as u32;
        assert_eq!(out.score[0], 3 + dead, "the carrier's AC and 1 per dead passenger");
        assert_eq!(out.kills[0] as u32, 1 + dead);
        assert_eq!(out.lost[2] + out.lost[3], dead as u16);
        assert_eq!(out.points_destroyed_milli[0], 3000 + 1000 * dead as u64);
        assert_eq!(end.is_none(), survivors > 0, "escaped passengers stay as units");
        counts[survivors] += 1;
        first_dead += out.lost[2] as u64;
    }
    for (k, p) in [(0, 0.25), (1, 0.5), (2, 0.25)] {
        assert_consistent(counts[k], n, p, &format!("{k} survivors"));
    }
    assert_consistent(first_dead, n, 0.5, "a passenger dies");
    // CREW_ESCAPE_TARGET=20: every passenger escapes.
    let o = options().with("CREW_ESCAPE_TARGET", "20").unwrap();
    let g = TestBattle::skirmish(&cat, "Gun Car", "Unarmed Car[2*Unarmed Crew]")
        .options(o)
        .max_turns(10)
        .assemble(OFFLOAD_OMEGA);
    let mut s = wounded(&g, &mut rng, &[(1, -5, 0)]);
    let mut out = Outcome::new();
    assert_eq!(g.end_turn(&mut s, 0, &mut rng, &mut out), None);
    assert_eq!(out.score[0], 3);
}

#[test]
fn budgets_hold_with_passengers_under_every_policy() {
    let cat = embedded();
    let o = Options::default();
    let a = "Hunter IV Standard[2*ECBS Pirate AT]+Gladiator Lancer+Stingray Standard+ECBS Pirate AT";
    let b = "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT";
    let g = TestBattle::skirmish(&cat, a, b).options(o).max_turns(10).assemble(OFFLOAD_OMEGA);
    let mut offloads = 0u64;
    play_under_every_policy(&g, 2000, |s| offloads += (!s.aboard[1] && !s.aboard[2]) as u64);
    assert!(offloads > 1000, "passengers leave their carrier: {offloads}");
}

// ---- Omega Override (§2.4) ----

#[test]
fn omega_is_played_where_it_beats_the_best_two_attacks() {
    // Two 20-damage guns at an AC1 bunker with reduction 15: each ordinary attack (T 11)
    // takes 5 life, two at most 10: no kill in turn 1. The Omega (T 10: no size bonus,
    // one reduction from the total) kills when both hit: 1/4.
    let cat = catalogue(TEST_CATALOGUE);
    let n = 100_000;
    let k = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").max_turns(1).kernel();
    let t = tally(&k, n, 51);
    assert_consistent(t.decided_by_turn()[0], n as u64, 0.25, "Omega in turn 1");
    let k = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").policy("focus-lowest").max_turns(1).kernel();
    let focus = tally(&k, n, 52);
    assert_consistent(focus.decided_by_turn()[0], n as u64, 0.25, "focus-lowest plays it too");
    let o = options().with("OMEGA_IN_BATTLES", "false").unwrap();
    let k = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").options(o).max_turns(1).kernel();
    let never = tally(&k, 20_000, 53);
    assert_eq!(never.decided_by_turn()[0], 0, "OMEGA_IN_BATTLES=false: two attacks never kill");
    // The exact values the policy compares at 20 life (V = 1): Omega
    // 1/4 + 0.25 × (1/4 × 20 + 1/2 × 5) / 20 = 0.34375; two attacks 0.25 × 5.5 / 20.
    let g = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").max_turns(1).assemble(OFFLOAD_OMEGA);
    let e = g.omega.entry(0, 1, super::omega::omega_state(false, false));
    assert!((g.omega.score[e as usize][0][20] as f64 - 0.34375).abs() < 1e-6);
    assert!((g.omega.best_pair[e as usize][0][20] as f64 - 0.06875).abs() < 1e-6);
    // Over the ready systems: both = the best pair; the first alone = its one attack,
    // 0.25 × (11/20 × 5) / 20.
    assert_eq!(g.omega.best_over(e, 0, 0b11, 20), g.omega.best_pair[e as usize][0][20]);
    assert!((g.omega.best_over(e, 0, 0b01, 20) as f64 - 0.034375).abs() < 1e-6);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let mut s = turn_one(&g, &mut rng);
    assert_eq!(super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Omega { actor: 0, target: 1 }));
    // After an ordinary attack the Omega is no longer legal.
    s.actions[0] = 1;
    s.used[0] = 1;
    assert!(matches!(super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Attack { system: 1, .. })));
}

#[test]
fn a_myopic_omega_is_not_played() {
    // Two 40-damage guns at an AC4 box: two attacks (T 14) kill when both hit, 0.49; the
    // Omega (T 10) kills with 1/4 and scores 1.5 (V = 4), above one attack's 0.35 but
    // below the two attacks' exact 4 × (0.49 + 0.25 × 14 / 20) = 2.66: not played.
    let cat = catalogue(TEST_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Forty Walker", "Box").max_turns(1).assemble(OFFLOAD_OMEGA);
    let e = g.omega.entry(0, 1, super::omega::omega_state(false, false));
    assert!((g.omega.score[e as usize][0][20] as f64 - 1.5).abs() < 1e-5);
    assert!((g.omega.best_pair[e as usize][0][20] as f64 - 2.66).abs() < 1e-5);
    // The convolution by hand at 10 life: the first hit (0.7) kills; a miss leaves the
    // second attack's 4 × (0.7 + 0.25 × 0.7 × 10 / 20) = 3.15: 0.7 × (4 + 0.5) + 0.3 × 3.15.
    assert!((g.omega.best_pair[e as usize][0][10] as f64 - (0.7 * 4.5 + 0.3 * 3.15)).abs() < 1e-5);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    let mut s = g.new_state();
    g.begin_battle(&mut s, &mut rng);
    assert_eq!(g.best_omega(&s, 0, false), None);
    let n = 100_000;
    let k = TestBattle::skirmish(&cat, "Forty Walker", "Box").max_turns(1).kernel();
    let t = tally(&k, n, 54);
    assert_consistent(t.decided_by_turn()[0], n as u64, 0.49, "two attacks in turn 1");
}

#[test]
fn an_under_crewed_msv_weighs_its_omega_against_its_one_attack() {
    // Under-crewed, the walker has one action (§2.2): one ordinary attack takes 5 life
    // and cannot kill; its Omega, legal before that action, kills when both guns hit
    // (1/4). The value it beats is the best single attack, 0.25 × (11/20 × 5) / 20.
    let cat = catalogue(TEST_CATALOGUE);
    let crewless = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").under_crewed(&[true, false]).max_turns(1);
    let g = crewless.assemble(OFFLOAD_OMEGA);
    assert_eq!((g.omega.fresh[0], g.omega.fresh[1]), (1, 1));
    let e = g.omega.entry(0, 1, super::omega::omega_state(false, false)) as usize;
    assert!((g.omega.best_pair[e][0][20] as f64 - 0.034375).abs() < 1e-6);
    assert!((g.omega.score[e][0][20] as f64 - 0.34375).abs() < 1e-6);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut s = turn_one(&g, &mut rng);
    assert_eq!(s.actions[0], 1, "under-crewed: one action");
    assert_eq!(super::policy::Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Omega { actor: 0, target: 1 }));
    // Its one action spent, no Omega.
    s.actions[0] = 0;
    assert_eq!(g.best_omega(&s, 0, false), None);
    let n = 100_000;
    let t = tally(&crewless.kernel(), n, 55);
    assert_consistent(t.decided_by_turn()[0], n as u64, 0.25, "the under-crewed Omega in turn 1");
    // The crewed walker still weighs it against two attacks (the value above).
    let crewed = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").max_turns(1).assemble(OFFLOAD_OMEGA);
    assert_eq!(crewed.omega.fresh[0], 2);
    assert!((crewed.omega.best_pair[e][0][20] as f64 - 0.06875).abs() < 1e-6);
}

#[test]
fn an_omega_in_the_red_needs_a_jury_rig_and_takes_the_gear_offline() {
    let cat = catalogue(TEST_CATALOGUE);
    let n = 100_000u64;
    for (needs, p) in [("true", 0.125), ("false", 0.25)] {
        let o = options().with("OMEGA_NEEDS_JURY_RIG", needs).unwrap();
        let g = TestBattle::skirmish(&cat, "Two-Gun Walker", "Bunker").options(o).max_turns(1).assemble(OFFLOAD_OMEGA);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut s = g.new_state();
        let mut killed = 0;
        for _ in 0..n {
            g.begin_battle(&mut s, &mut rng);
            let mut order = [0u8; 8];
            g.begin_turn(&mut s, 0, &mut rng, &mut order);
            s.life[0] = 3;
            s.stand(0);
            assert!(g.best_omega(&s, 0, false).is_some(), "still better than two attacks in the red");
            g.act(&mut s, 0, Action::Omega { actor: 0, target: 1 }, &mut rng, &mut Outcome::new());
            assert_eq!(s.actions[0], 0, "the Omega ends the MSV's turn");
            killed += (s.life[1] <= 0) as u64;
        }
        assert_consistent(killed, n, p, &format!("OMEGA_NEEDS_JURY_RIG={needs}"));
    }
    // Gear offline: a Gun Car's 20 damage at the plated AC4 walker takes 1 life (reduction
    // 15) with the gear online, 5 once the walker has made an Omega, until Reset.
    let g = TestBattle::skirmish(&cat, "Plated Walker", "Gun Car").max_turns(1).assemble(OFFLOAD_OMEGA);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    let mut s = turn_one(&g, &mut rng);
    let online = g.score(&s, 1, 0, 0).unwrap();
    g.act(&mut s, 0, Action::Omega { actor: 0, target: 1 }, &mut rng, &mut Outcome::new());
    assert!(s.offline[0]);
    s.life[1] = 20;
    s.stand(1);
    let offline = g.score(&s, 1, 0, 0).unwrap();
    assert!((offline / online - 5.0).abs() < 1e-4, "{online} -> {offline}");
    g.end_turn(&mut s, 0, &mut rng, &mut Outcome::new());
    assert!(!s.offline[0], "back online at Reset");
}

#[test]
fn budgets_hold_with_omega_candidates_under_every_policy() {
    let cat = catalogue(TEST_CATALOGUE);
    let g =
        TestBattle::skirmish(&cat, "Two-Gun Walker+Forty Walker+Plated Walker", "Bunker+Box+Gun Car+Two-Gun Walker")
            .max_turns(4)
            .assemble(OFFLOAD_OMEGA);
    play_under_every_policy(&g, 500, |_| {});
}

#[test]
fn forces_without_passengers_or_a_better_omega_play_as_before() {
    // No passengers, and no MSV whose Omega beats its two attacks anywhere: the battles
    // are draw for draw those of OMEGA_IN_BATTLES=false (the rules before either).
    let cat = embedded();
    let (a, b) = ("Gladiator Lancer+Hunter IV Standard", "Stingray Standard+Rhino Standard+2*ECBS Pirate AT");
    let on = TestBattle::skirmish(&cat, a, b).options(Options::default()).kernel();
    let off = TestBattle::skirmish(&cat, a, b)
        .options(Options::default().with("OMEGA_IN_BATTLES", "false").unwrap())
        .kernel();
    assert!(!on.game().omega.any && on.game().offload.is_none());
    assert_eq!(tally(&on, 5_000, 8), tally(&off, 5_000, 8));
    // The reference battle does change: the Paladin Siege's Omega beats its best two
    // attacks at the Beagle Hunter (AC5 MSV) at 17 and 18 life.
    let reference = TestBattle::skirmish(
        &cat,
        "Gladiator Lancer+Beagle Hunter+Hunter IV Standard",
        "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT",
    )
    .options(Options::default())
    .kernel();
    let g = reference.game();
    let e = g.omega.entry(3, 1, super::omega::omega_state(false, false)) as usize;
    assert!(g.omega.score[e][0][17] > g.omega.best_pair[e][0][17]);
    assert!(g.omega.score[e][0][20] < g.omega.best_pair[e][0][20]);
}
