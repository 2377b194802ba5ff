//! Team deathmatches (§3.3, `DM_TEAM_ORDER`): even mirrors, no friendly fire, pooled
//! budgets, teams of one = the free-for-all.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::policy::{FocusLowest, Greedy, RandomLegal};
use super::test_support::{SQUAD_CATALOGUE, TestBattle, catalogue, embedded, tally};
use crate::engine::battle::{BattlePolicy, BattleRules, Ending, Outcome, play_phases};
use crate::rules::techcommander::options::Options;
use crate::stats::binomial::consistent;

#[test]
fn identical_teams_of_two_win_equally_often() {
    let cat = embedded();
    let f = "Stingray Standard+ECBS Pirate AT";
    let k = TestBattle::deathmatch(&cat, &[f, f, f, f]).options(Options::default()).teams(&[0, 0, 1, 1]).kernel();
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
    let cat = catalogue(SQUAD_CATALOGUE);
    // Rallied troopers (one group per team) and cars; three teams of two.
    let forces =
        ["3*Gun Trooper", "Gun Car+Gun Trooper", "3*Gun Trooper", "Gun Car+Gun Trooper", "Gun Boss", "Gun Car"];
    let teams = [0, 0, 1, 1, 2, 2];
    for policy in ["greedy", "focus-lowest", "random"] {
        let k = TestBattle::deathmatch(&cat, &forces).options(Options::default()).teams(&teams).policy(policy).kernel();
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
    let cat = catalogue(SQUAD_CATALOGUE);
    // Team 0: a command car (2 + 1 actions) and three troopers (2); team 1: three
    // troopers and a car + trooper (2 + 2).
    let o = Options { pass_ends_turn: false, ..Options::default() };
    let k = TestBattle::deathmatch(&cat, &["Gun Boss", "3*Gun Trooper", "3*Gun Trooper", "Gun Car+Gun Trooper"])
        .options(o)
        .teams(&[0, 0, 1, 1])
        .kernel();
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
    let cat = embedded();
    let forces = ["Stingray Standard+ECBS Pirate AT", "Pigeonhawk Standard", "3*ECBS Pirate AT"];
    let k = TestBattle::deathmatch(&cat, &forces).options(Options::default()).kernel();
    let ffa = tally(&k, 3_000, 8);
    let k = TestBattle::deathmatch(&cat, &forces).options(Options::default()).teams(&[4, 1, 9]).kernel();
    let single = tally(&k, 3_000, 8);
    assert_eq!(ffa, single);
}

#[test]
fn team_totals_decide_and_ties_go_to_kills() {
    let cat = catalogue(SQUAD_CATALOGUE);
    let k = TestBattle::deathmatch(&cat, &["Gun Car", "Gun Car", "Gun Car", "Gun Car"])
        .options(Options::default())
        .teams(&[0, 1, 0, 1])
        .kernel();
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
    let skirmish = TestBattle::skirmish(&cat, "Gun Car", "Gun Car").options(Options::default()).teams(&[0, 1]);
    assert!(skirmish.compile().is_err(), "teams play a deathmatch");
}
