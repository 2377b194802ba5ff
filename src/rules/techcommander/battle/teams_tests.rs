//! Team deathmatches (§3.3, `DM_TEAM_ORDER`): even mirrors, no friendly fire, pooled
//! budgets, teams of one = the free-for-all.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::kernel::{TcBattle, compile, compile_teams};
use super::policy::{FocusLowest, Greedy, RandomLegal};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::engine::Kernel;
use crate::engine::battle::{BattlePolicy, BattleRules, BattleTally, Ending, Outcome, play_phases};
use crate::rules::battle::BattleSetup;
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;
use crate::stats::binomial::consistent;

/// A 1-shot 20-damage gun (T 11 against AC1 at range 12) on a car, a command car and a
/// trooper; a command car costs the whole starting cap of 3.
const TEAM_CATALOGUE: &str = r#"
[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[unit]]
name = "Car"
kind = "vehicle"
ac = 2

[[unit]]
name = "Boss Car"
kind = "vehicle"
ac = 3
command = 1

[[unit]]
name = "Trooper"
kind = "troop"
ac = 1

[[build]]
name = "Gun Car"
unit = "Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Gun Boss"
unit = "Boss Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Gun Trooper"
unit = "Trooper"
weapons = [{ name = "Gun" }]
"#;

fn test_catalogue() -> Catalogue {
    Catalogue::from_sources("test", &[SourceFile { name: "teams.toml".into(), text: TEAM_CATALOGUE.into() }])
        .expect("the test catalogue is valid")
}

fn team_battle(cat: &Catalogue, forces: &[&str], teams: Option<&[usize]>, policy: Option<&str>) -> TcBattle {
    team_battle_with(cat, forces, teams, policy, &Options::default())
}

fn team_battle_with(
    cat: &Catalogue,
    forces: &[&str],
    teams: Option<&[usize]>,
    policy: Option<&str>,
    o: &Options,
) -> TcBattle {
    let forces: Vec<ForceSpec> = forces.iter().map(|f| ForceSpec::parse(f).unwrap()).collect();
    let cond = vec![Conditions::at_range(12.0); forces.len()];
    let setup =
        BattleSetup { mode: "deathmatch", forces: &forces, conditions: &cond, options: o, policy, max_turns: None };
    match teams {
        Some(t) => compile_teams(cat, &setup, Some(t)).unwrap().0,
        None => compile(cat, &setup).unwrap().0,
    }
}

fn tally(k: &TcBattle, trials: u32, seed: u64) -> BattleTally {
    let mut t = k.new_tally();
    k.play(&mut Xoshiro256PlusPlus::seed_from_u64(seed), trials, &mut t);
    t
}

#[test]
fn identical_teams_of_two_win_equally_often() {
    let cat = Catalogue::embedded().unwrap();
    let f = "Stingray Standard+ECBS Pirate AT";
    let k = team_battle(&cat, &[f, f, f, f], Some(&[0, 0, 1, 1]), None);
    let t = tally(&k, 20_000, 5);
    assert_eq!((t.wins[1], t.wins[3]), (0, 0), "a team wins as its captain");
    assert_eq!((t.actions[1], t.actions[3]), (0, 0), "a team acts through its captain");
    let (a, b) = (t.wins[0], t.wins[2]);
    assert!(a + b > 10_000, "most team battles are decided: {a} + {b}");
    assert!(consistent(a, a + b, 0.5, 1e-6), "team A {a} vs team B {b}");
}

/// A policy that checks every step: an attack's target is on another team; counts them.
struct NoFriendlyFire<P> {
    inner: P,
    attacks: std::sync::atomic::AtomicU64,
}

impl<P: BattlePolicy<TcGame>> BattlePolicy<TcGame> for NoFriendlyFire<P> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        let action = self.inner.choose(g, s, side, phase, rng);
        let team = |u: u8| g.dm.as_ref().unwrap().teams.as_ref().unwrap().team_of[g.units[u as usize].side];
        if let Some(Action::Attack { actor, target, .. } | Action::Omega { actor, target }) = action {
            assert_ne!(team(actor), team(target), "unit {actor} fired at teammate {target}");
            self.attacks.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        action
    }
}

fn no_friendly_fire<P: BattlePolicy<TcGame>>(g: &TcGame, inner: P, seed: u64) -> (u64, u64) {
    let policy = NoFriendlyFire { inner, attacks: 0.into() };
    let teams = g.dm.as_ref().unwrap().teams.clone().unwrap();
    let team = |u: usize| teams.team_of[g.units[u].side];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut s = g.new_state();
    let mut kills = 0;
    for _ in 0..200 {
        g.begin_battle(&mut s, &mut rng);
        let mut out = Outcome::new();
        for turn in 0..g.max_turns() {
            let mut order = [0u8; 8];
            let n = g.begin_turn(&mut s, turn, &mut rng, &mut order);
            play_phases(g, &policy, &mut s, &order[..n], &mut rng, &mut out);
            for u in 0..g.units.len() {
                let killer = s.credit[u] as usize;
                if s.present[u] && s.life[u] <= 0 && killer < g.units.len() {
                    assert_ne!(team(killer), team(u), "unit {killer} killed teammate {u}");
                    kills += 1;
                }
                if s.present[u] && s.life[u] < 20 {
                    // Damage only comes from enemies: some enemy unit could have fired.
                    assert!(g.enemies[g.units[u].side].iter().all(|&e| team(e as usize) != team(u)));
                }
            }
            g.end_turn(&mut s, turn, &mut rng, &mut out);
        }
    }
    (policy.attacks.into_inner(), kills)
}

#[test]
fn teammates_never_target_each_other() {
    let cat = test_catalogue();
    // Rallied troopers (one group per team) and cars; three teams of two.
    let forces =
        ["3*Gun Trooper", "Gun Car+Gun Trooper", "3*Gun Trooper", "Gun Car+Gun Trooper", "Gun Boss", "Gun Car"];
    let teams = [0, 0, 1, 1, 2, 2];
    for policy in ["greedy", "focus-lowest", "random"] {
        let k = team_battle(&cat, &forces, Some(&teams), Some(policy));
        let g = k.game();
        let (attacks, kills) = match policy {
            "greedy" => no_friendly_fire(g, Greedy, 1),
            "focus-lowest" => no_friendly_fire(g, FocusLowest, 2),
            _ => no_friendly_fire(g, RandomLegal, 3),
        };
        assert!(attacks > 1000 && kills > 1000, "{policy}: {attacks} attacks, {kills} kills");
    }
}

/// A policy that counts the steps each side is asked for (with `PASS_ENDS_TURN` off,
/// every step of a budget is asked for, given or passed).
struct CountSteps {
    asked: [std::sync::atomic::AtomicU64; 8],
}

impl BattlePolicy<TcGame> for CountSteps {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        self.asked[side].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Greedy.choose(g, s, side, phase, rng)
    }
}

#[test]
fn a_team_pools_its_players_actions() {
    let cat = test_catalogue();
    // Team 0: a command car (2 + 1 actions) and three troopers (2); team 1: three
    // troopers and a car + trooper (2 + 2).
    let o = Options { pass_ends_turn: false, ..Options::default() };
    let k = team_battle_with(
        &cat,
        &["Gun Boss", "3*Gun Trooper", "3*Gun Trooper", "Gun Car+Gun Trooper"],
        Some(&[0, 0, 1, 1]),
        None,
        &o,
    );
    let g = k.game();
    let policy = CountSteps { asked: Default::default() };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
    let mut s = g.new_state();
    let mut expected = [0u64; 4];
    let mut given = [0u64; 4];
    for _ in 0..300 {
        g.begin_battle(&mut s, &mut rng);
        let mut out = Outcome::new();
        for turn in 0..g.max_turns() {
            let mut order = [0u8; 8];
            let n = g.begin_turn(&mut s, turn, &mut rng, &mut order);
            let mut captains = order[..n].to_vec();
            captains.sort();
            assert_eq!(captains, [0, 2], "two teams roll initiative; captains act for them");
            // The sum of the players' budgets: 2 each plus the command on the field.
            for side in 0..4 {
                let command: u32 = g.dm.as_ref().unwrap().player_units[side]
                    .iter()
                    .filter(|&&u| s.present[u as usize])
                    .map(|&u| g.units[u as usize].command)
                    .sum();
                expected[if side < 2 { 0 } else { 2 }] += 2 + command as u64;
            }
            play_phases(g, &policy, &mut s, &order[..n], &mut rng, &mut out);
            g.end_turn(&mut s, turn, &mut rng, &mut out);
        }
        for (g, &a) in given.iter_mut().zip(&out.actions) {
            *g += a as u64;
        }
    }
    let asked: Vec<u64> = policy.asked[..4].iter().map(|a| a.load(std::sync::atomic::Ordering::Relaxed)).collect();
    assert_eq!(asked, expected, "each team is asked for exactly its players' pooled actions");
    assert!(given.iter().zip(&asked).all(|(g, a)| g <= a), "{given:?} within {asked:?}");
    assert!(given[0] > 0 && given[2] > 0);
    assert!(expected[0] > expected[2], "the command car's action is pooled");
}

#[test]
fn teams_of_one_are_the_free_for_all_draw_for_draw() {
    let cat = Catalogue::embedded().unwrap();
    let forces = ["Stingray Standard+ECBS Pirate AT", "Pigeonhawk Standard", "3*ECBS Pirate AT"];
    let ffa = tally(&team_battle(&cat, &forces, None, None), 3_000, 8);
    let single = tally(&team_battle(&cat, &forces, Some(&[4, 1, 9]), None), 3_000, 8);
    assert_eq!(ffa, single);
}

#[test]
fn team_totals_decide_and_ties_go_to_kills() {
    let cat = test_catalogue();
    let k = team_battle(&cat, &["Gun Car", "Gun Car", "Gun Car", "Gun Car"], Some(&[0, 1, 0, 1]), None);
    let g = k.game();
    let mut s = g.new_state();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    g.begin_battle(&mut s, &mut rng);
    let mut out = Outcome::new();
    // Players 0 and 2 are team 0 (captain 0), players 1 and 3 team 1 (captain 1).
    out.score[..4].copy_from_slice(&[5, 9, 6, 1]);
    assert_eq!(g.time_called(&s, &mut out), Ending::Winner(0), "11 beats 10 though player 1 leads");
    out.score[..4].copy_from_slice(&[5, 9, 5, 1]);
    s.kills_side[..4].copy_from_slice(&[1, 0, 0, 2]);
    assert_eq!(g.time_called(&s, &mut out), Ending::Winner(1), "10 all: team kills 1 vs 2");
    s.kills_side[..4].copy_from_slice(&[1, 0, 1, 2]);
    assert_eq!(g.time_called(&s, &mut out), Ending::Draw, "shared");
    assert!(
        compile_teams(
            &cat,
            &BattleSetup {
                mode: "skirmish",
                forces: &[ForceSpec::parse("Gun Car").unwrap(), ForceSpec::parse("Gun Car").unwrap()],
                conditions: &[Conditions::at_range(12.0); 2],
                options: &Options::default(),
                policy: None,
                max_turns: None,
            },
            Some(&[0, 1]),
        )
        .is_err(),
        "teams play a deathmatch"
    );
}
