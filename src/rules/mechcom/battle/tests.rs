//! Squad battles against the duel (draw for draw), the activation budget per round,
//! targeting, the round cap and force checks.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::engine::battle::{BattleRules, Ending, MAX_SIDES, Outcome, play_phases};
use crate::rules::mechcom::catalogue::Catalogue;
use crate::rules::mechcom::conditions::{Condition, Conditions};
use crate::rules::mechcom::duel_kernel::DuelKernel;
use crate::rules::mechcom::options::ExplosionTiming;
use crate::rules::mechcom::situation::Situation;
use crate::stats::DuelTally;

fn cat() -> Catalogue {
    Catalogue::embedded().unwrap()
}

fn setting(range: u32, attacker: Conditions) -> Setting {
    Setting { sit: Situation::at_range(range), attacker, target: Conditions::NONE }
}

fn force(text: &str) -> ForceSpec {
    ForceSpec::parse(text).unwrap()
}

fn compiled(
    a: &str,
    b: &str,
    settings: &[Setting],
    o: &Options,
    policy: Option<&str>,
    rounds: Option<u32>,
) -> SquadBattle {
    battle(&cat(), "squad", &[force(a), force(b)], settings, o, policy, rounds).unwrap().0
}

/// A one-model battle and the duel of the same models, played from the same generator:
/// the same outcome in every trial, so the same counts by round.
fn same_as_duel(a: &str, b: &str, range: u32, ca: Conditions, cb: Conditions, o: &Options) {
    same_as_duel_at(a, b, Situation::at_range(range), ca, cb, o)
}

/// [`same_as_duel`] in situation `sit` (both sides).
fn same_as_duel_at(a: &str, b: &str, sit: Situation, ca: Conditions, cb: Conditions, o: &Options) {
    let c = cat();
    let (ma, mb) = (c.model_named(a).unwrap().with_conditions(ca), c.model_named(b).unwrap().with_conditions(cb));
    let duel = DuelKernel::new(&ma, &mb, &sit, o, 50).unwrap();
    let at = |attacker| Setting { sit, attacker, target: Conditions::NONE };
    let squad = compiled(a, b, &[at(ca), at(cb)], o, None, None);
    let trials = 20_000;
    let mut d = DuelTally::new(50);
    duel.play(&mut Xoshiro256PlusPlus::seed_from_u64(11), trials, &mut d);
    let mut t = squad.new_tally();
    squad.play(&mut Xoshiro256PlusPlus::seed_from_u64(11), trials, &mut t);
    let sum = |v: &[u64]| v.iter().sum::<u64>();
    assert_eq!(t.wins, vec![sum(&d.a_wins_by_turn), sum(&d.b_wins_by_turn)], "{a} vs {b}");
    assert_eq!(t.draws, sum(&d.mutual_by_turn), "{a} vs {b}");
    assert_eq!(t.undecided, d.timeouts, "{a} vs {b}");
    let by_round: Vec<u64> = (0..50).map(|r| d.a_wins_by_turn[r] + d.b_wins_by_turn[r] + d.mutual_by_turn[r]).collect();
    assert_eq!(t.ended_in_turn, by_round, "{a} vs {b}");
    assert!(t.wins[0] > 0 && t.wins[1] > 0, "both sides win sometimes: {:?}", t.wins);
}

#[test]
fn one_model_a_side_plays_the_duel_draw_for_draw() {
    let o = Options::default();
    let none = Conditions::NONE;
    // Independent sides.
    same_as_duel("Sentinel", "Sentinel", 5, none, none, &o);
    // Conditions (Corroded, Blinded), Ammo, pilots.
    same_as_duel("Bulwark+Line Veteran", "Wasp+Rook", 2, none, none, &o);
    // Melee: Shocked, Flurry, Backfire, Stunned, a starting Burned and clearing.
    same_as_duel("Kerberos", "Junker", 1, Conditions::of(&[Condition::Burned]), none, &o);
    same_as_duel("Valkyrie", "Junker", 1, none, Conditions::of(&[Condition::Stunned]), &o);
}

#[test]
fn one_model_a_side_with_heat_plays_the_duel_draw_for_draw() {
    // The Typhon's Heat (Searing Wave, vents, Programming, the AI table, Red-Hot
    // Reactor) plays the duel's moves in a battle of one model a side.
    let o = Options::default();
    let none = Conditions::NONE;
    same_as_duel("Typhon", "Kerberos", 2, none, none, &o);
    same_as_duel("Kerberos", "Typhon", 1, none, none, &o);
    let ignore = Options { heat_policy: crate::rules::mechcom::options::HeatPolicy::IgnoreHeat, ..o.clone() };
    same_as_duel("Typhon", "Wasp", 3, Conditions::of(&[Condition::Malfunctioning]), none, &ignore);
}

#[test]
fn one_model_a_side_with_spot_tokens_plays_the_duel_draw_for_draw() {
    // Spot tokens on each model, used up by the other's attacks: a Sniper (all at once),
    // Artillery (stops when none is left), and a Searing Wave that takes one.
    let o = Options::default();
    let none = Conditions::NONE;
    let spotted = |range: u32, tokens: u32| Situation { spot_tokens: tokens, ..Situation::at_range(range) };
    same_as_duel_at("Pythia", "Wasp", spotted(4, 2), none, none, &o);
    same_as_duel_at("Wasp", "Pythia", spotted(6, 3), none, none, &o);
    same_as_duel_at("Typhon", "Kerberos", spotted(2, 2), none, none, &o);
}

#[test]
fn one_model_a_side_in_melee_with_immediate_explosions_draws_as_the_duel() {
    let o = Options { explosion_timing: ExplosionTiming::Immediately, ..Options::default() };
    same_as_duel("Valkyrie", "Kerberos", 1, Conditions::NONE, Conditions::NONE, &o);
    let squad = compiled("Valkyrie", "Kerberos", &[setting(1, Conditions::NONE)], &o, None, None);
    let mut t = squad.new_tally();
    squad.play(&mut Xoshiro256PlusPlus::seed_from_u64(3), 20_000, &mut t);
    assert!(t.draws > 0, "a death explosion takes the last two models together sometimes");
}

/// Plays one battle round by round; checks every side's activations in each round
/// against the models it had alive when the round began.
fn check_budgets<T: Targeting>(b: &Battle<SquadGame<T>, MostExpensiveFirst>, seed: u64) -> (u32, u32) {
    let g = &b.game;
    let mut s = g.new_state();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut out = Outcome::new();
    g.begin_battle(&mut s, &mut rng);
    let mut order = [0u8; MAX_SIDES];
    let mut full_rounds = 0;
    for turn in 0..g.max_turns() {
        let before = out.actions;
        let n = g.begin_turn(&mut s, turn, &mut rng, &mut order);
        let alive_now: Vec<u32> = (0..2).map(|side| g.budget(&s, side, 0)).collect();
        play_phases(g, &b.policy, &mut s, &order[..n], &mut rng, &mut out);
        for side in 0..2 {
            let given = out.actions[side] - before[side];
            assert!(given <= alive_now[side], "round {turn}: side {side} gave {given} of {}", alive_now[side]);
        }
        let ended = g.end_turn(&mut s, turn, &mut rng, &mut out);
        if ended.is_some() {
            return (turn + 1, full_rounds);
        }
        // Nobody was eliminated: every living model activated (once: the count above).
        for u in 0..g.units() {
            assert!(s.done[u], "round {turn}: unit {u} did not activate");
        }
        if (0..2).all(|side| out.actions[side] - before[side] == alive_now[side]) {
            full_rounds += 1;
        }
    }
    (g.max_turns(), full_rounds)
}

#[test]
fn activations_never_exceed_the_models_alive_in_a_round() {
    let o = Options::default();
    let squad = compiled("3*Wasp+Sentinel", "Kerberos+2*Pythia", &[setting(2, Conditions::NONE)], &o, None, None);
    let SquadBattle::LowestIntegrity(b) = &squad else { panic!("the default policy") };
    let mut full = 0;
    for seed in 0..200 {
        full += check_budgets(b, seed).1;
    }
    assert!(full > 0, "rounds where every model activated happen");
}

#[test]
fn engine_counts_at_most_the_models_per_round() {
    // The engine's own count: activations over a battle never exceed models × rounds,
    // and a battle where nothing can be destroyed gives exactly that.
    let o = Options::default();
    let squad = compiled("3*Wasp", "2*Bulwark", &[setting(30, Conditions::NONE)], &o, None, Some(7));
    let mut t = squad.new_tally();
    squad.play(&mut Xoshiro256PlusPlus::seed_from_u64(5), 100, &mut t);
    assert_eq!(t.actions, vec![3 * 7 * 100, 2 * 7 * 100]);
    assert_eq!((t.undecided, t.trials), (100, 100), "no weapon reaches 30 hexes: undecided at the cap");
    assert_eq!(t.turns_sum, 700);
    assert!(t.ended_in_turn.iter().all(|&k| k == 0));
}

#[test]
fn targeting_rules_pick_as_documented() {
    let o = Options::default();
    // Side 1: Kerberos+Steady Hand (250 points, Integrity 11), Pythia (200, 8), Kerberos (220, 11).
    let squad =
        compiled("Sentinel", "Kerberos+Steady Hand+Pythia+Kerberos", &[setting(5, Conditions::NONE)], &o, None, None);
    let q = squad.squads();
    let game: SquadGame<LowestIntegrity> = SquadGame::new(q.clone());
    let mut s = game.new_state();
    game.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(1));
    assert_eq!(LowestIntegrity::pick(q, &s, 0), Some(2), "the Pythia: lowest Integrity");
    assert_eq!(FocusHighestCost::pick(q, &s, 0), Some(1), "the piloted Kerberos: highest cost");
    s.life[2] = 11;
    assert_eq!(LowestIntegrity::pick(q, &s, 0), Some(1), "a three-way Integrity tie: the highest cost");
    s.life[1] = 10;
    s.life[3] = 10;
    assert_eq!(LowestIntegrity::pick(q, &s, 0), Some(1), "a tie at 10: the highest cost again");
    s.life[1] = 0;
    assert_eq!(FocusHighestCost::pick(q, &s, 0), Some(3), "the piloted Kerberos is gone: the other");
    s.life[2] = 0;
    s.life[3] = 0;
    assert_eq!(LowestIntegrity::pick(q, &s, 0), None);
    // Activation order: the most expensive first.
    assert_eq!(q.order[1], vec![1, 3, 2]);
}

#[test]
fn policies_change_the_result() {
    let o = Options::default();
    let run = |p| {
        let b = compiled("Sentinel+Wasp+Wasp+Rook", "3*Bulwark", &[setting(4, Conditions::NONE)], &o, p, None);
        let mut t = b.new_tally();
        b.play(&mut Xoshiro256PlusPlus::seed_from_u64(9), 4000, &mut t);
        t
    };
    let (low, focus) = (run(None), run(Some("focus-highest-cost")));
    assert_eq!((low.trials, focus.trials), (4000, 4000));
    // Focusing the Bulwarks one at a time ends this battle sooner than spreading fire.
    assert!(focus.turns_sum < low.turns_sum, "{} {}", focus.turns_sum, low.turns_sum);
}

#[test]
fn forces_are_checked() {
    let o = Options::default();
    let c = cat();
    let e = resolve_force(&c, &force("Bulwark+Bulwark+Bulwark+Pythia"), &o).unwrap_err();
    assert!(e.contains("force `Bulwark+Bulwark+Bulwark+Pythia`") && e.contains("mixed factions"), "{e}");
    let e = resolve_force(&c, &force("3*Bulwark+Line Veteran+Bulwark"), &o).unwrap_err();
    // 3 × 330 + 300 = 1290
    assert!(e.contains("force `3*Bulwark+Line Veteran+Bulwark`") && e.contains("over budget by 290"), "{e}");
    let own = ForceSpec { budget: Some(1100.0), ..force("3*Wasp+Sentinel+Pythia") };
    assert!(resolve_force(&c, &own, &o).unwrap_err().contains("mixed factions"));
    let own = ForceSpec { budget: Some(1100.0), ..force("3*Bulwark+Junker") };
    assert!(resolve_force(&c, &own, &o).unwrap_err().contains("mixed factions"));
    let own = ForceSpec { budget: Some(1100.0), ..force("3*Bulwark") };
    assert_eq!(resolve_force(&c, &own, &o).unwrap().points, 900);
    let e = resolve_force(&c, &force("2*Wasp+Rook"), &o).unwrap_err();
    assert!(e.starts_with("force `2*Wasp+Rook`") && e.contains("`Rook` is taken 2 times"), "{e}");
    let joined = resolve_force(&c, &force("Kerberos+Steady Hand+2*Pythia"), &o).unwrap();
    let names: Vec<&str> = joined.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["Kerberos+Steady Hand", "Pythia", "Pythia"]);
    assert_eq!(joined.points, 250 + 400);
    assert_eq!(joined.models[0].model.mech.stability, 3, "the pilot's bonus applies");
    let e = resolve_force(&c, &force("Rook+Wasp"), &o).unwrap_err();
    assert!(e.contains("follows no unpiloted mech"), "{e}");
    let e = resolve_force(&c, &force("Wasp+Rook+Rook"), &o).unwrap_err();
    assert!(e.contains("follows no unpiloted mech"), "{e}");
    let e = resolve_force(&c, &force("Wasp+Kerbros"), &o).unwrap_err();
    assert!(e.contains("no mech named `Kerbros`") && e.contains("Kerberos"), "{e}");
    let twice = ForceSpec { members: vec![crate::catalogue::force::Member::new("Wasp+Rook", 2)], ..force("Wasp") };
    let e = resolve_force(&c, &twice, &o).unwrap_err();
    assert!(e.contains("ACES_MERCS_UNIQUE") && e.contains("taken 2 times"), "{e}");
    let relaxed = Options { aces_mercs_unique: false, ..Options::default() };
    assert!(resolve_force(&c, &twice, &relaxed).is_ok());
    assert!(resolve_force(&c, &force("Building"), &o).unwrap_err().contains("neutral terrain"));
}

#[test]
fn setup_errors_name_what_is_wrong() {
    let o = Options::default();
    let c = cat();
    let s = [setting(2, Conditions::NONE)];
    let e = battle(&c, "skirmish", &[force("Wasp"), force("Wasp")], &s, &o, None, None).unwrap_err();
    assert!(e.contains("expected squad"), "{e}");
    let e = battle(&c, "squad", &[force("Wasp")], &s, &o, None, None).unwrap_err();
    assert!(e.contains("2 forces"), "{e}");
    let e = battle(&c, "squad", &[force("Wasp"), force("Wasp")], &s, &o, Some("random"), None).unwrap_err();
    assert!(e.contains("lowest-integrity, focus-highest-cost"), "{e}");
    let e = battle(&c, "squad", &[force("Wasp"), force("Wasp")], &s, &o, None, Some(0)).unwrap_err();
    assert!(e.contains("max rounds"), "{e}");
    let (_, info) = battle(&c, "squad", &[force("2*Wasp"), force("Bulwark")], &s, &o, None, None).unwrap();
    assert_eq!((info.mode, info.policy.as_str(), info.max_turns), ("squad", "lowest-integrity", 50));
    assert_eq!(info.sides, vec![("2*Wasp".to_string(), 360.0), ("Bulwark".to_string(), 300.0)]);
    assert_eq!(info.units.len(), 3);
}

#[test]
fn a_finished_battle_fills_the_outcome() {
    let o = Options::default();
    let squad = compiled("2*Sentinel", "Wasp", &[setting(5, Conditions::NONE)], &o, None, None);
    let SquadBattle::LowestIntegrity(b) = &squad else { panic!() };
    let mut s = b.game.new_state();
    let mut out = Outcome::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
    for _ in 0..200 {
        crate::engine::battle::play_battle(&b.game, &b.policy, &mut s, &mut rng, &mut out);
        match out.ending {
            Ending::Winner(0) => {
                assert_eq!(out.lost[2], 1);
                assert_eq!(out.points_destroyed_milli[0], 180_000);
                assert_eq!(out.score[0], 180);
                assert_eq!(out.kills[0] + out.kills[1], 1);
            }
            Ending::Winner(_) => {
                assert_eq!(out.lost[0] + out.lost[1], 2);
                assert_eq!(out.points_destroyed_milli[1], 560_000);
                assert_eq!(out.kills[2], 2, "the Wasp has no Backfire or Burned to lose to");
            }
            _ => assert!(!out.decided),
        }
        assert!(out.actions[0] <= 2 * out.turns && out.actions[1] <= out.turns);
    }
}

/// A melee battle of two Valkyries against two Kerberos, ready to play by hand.
fn melee(o: &Options) -> (SquadGame<LowestIntegrity>, SquadState) {
    let squad = compiled("2*Valkyrie", "2*Kerberos", &[setting(1, Conditions::NONE)], o, None, None);
    let game: SquadGame<LowestIntegrity> = SquadGame::new(squad.squads().clone());
    let s = game.new_state();
    (game, s)
}

#[test]
fn death_explosions_wait_for_the_end_of_the_next_activation() {
    let o = Options::default();
    let (g, mut s) = melee(&o);
    assert_eq!(g.squads.explosions, compiled::Explosions::EndOfNextActivation);
    let valkyrie = c_model("Valkyrie");
    let exact = crate::rules::mechcom::odds::explosion_odds(&valkyrie, &o);
    let p_hurt = 1.0 - exact.integrity_loss[0];
    let trials = 4000u64;
    let mut hurt = 0;
    for seed in 0..trials {
        g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let full = [s.life[0], s.life[1], s.life[3]];
        let mut out = Outcome::new();
        s.life[2] = 0;
        assert!(!g.destroyed(&mut s, 2, Some(0), &mut out), "a Kerberos is left");
        assert_eq!(out.kills[0], 1);
        g.resolve_armed(&mut s, &mut out); // the end of the activation that destroyed it
        assert_eq!([s.life[0], s.life[1], s.life[3]], full, "nothing yet");
        g.resolve_armed(&mut s, &mut out); // the end of the next activation
        assert_eq!(s.life[3], full[2], "a friend is not hit");
        hurt += (s.life[0] < full[0]) as u64 + (s.life[1] < full[1]) as u64;
        assert_eq!(s.pending[2], 0);
    }
    // Each Valkyrie is hit on its own draw: 2 × trials Bernoulli(p_hurt).
    assert!(
        crate::stats::binomial::consistent(hurt, 2 * trials, p_hurt, 1e-6),
        "{hurt} of {} hurt, exact {p_hurt}",
        2 * trials
    );
}

fn c_model(name: &str) -> crate::rules::mechcom::mech::Model {
    cat().model_named(name).unwrap()
}

#[test]
fn a_destruction_that_leaves_one_side_alone_ends_the_battle_before_its_explosion() {
    let o = Options::default();
    let (g, mut s) = melee(&o);
    g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(1));
    let mut out = Outcome::new();
    s.life[2] = 0;
    g.destroyed(&mut s, 2, Some(0), &mut out);
    s.life[3] = 0;
    assert!(g.destroyed(&mut s, 3, Some(1), &mut out));
    assert_eq!(s.over, Some(Ending::Winner(0)));
    let lives = [s.life[0], s.life[1]];
    g.resolve_armed(&mut s, &mut out);
    g.resolve_armed(&mut s, &mut out);
    assert_eq!([s.life[0], s.life[1]], lives, "the game is over first");
}

#[test]
fn immediate_explosions_resolve_at_the_destruction() {
    let o = Options { explosion_timing: ExplosionTiming::Immediately, ..Options::default() };
    let (g, mut s) = melee(&o);
    assert_eq!(g.squads.explosions, compiled::Explosions::Immediately);
    let mut changed = 0;
    for seed in 0..200 {
        g.begin_battle(&mut s, &mut Xoshiro256PlusPlus::seed_from_u64(seed));
        let full = [s.life[0], s.life[1]];
        let mut out = Outcome::new();
        s.life[2] = 0;
        g.destroyed(&mut s, 2, Some(0), &mut out);
        changed += ([s.life[0], s.life[1]] != full) as u32;
        assert_eq!(s.pending, [0; crate::engine::battle::MAX_UNITS]);
    }
    assert!(changed > 100, "{changed}");
}

#[test]
fn melee_squads_play_and_a_mirror_is_even() {
    let o = Options::default();
    let b = compiled("2*Valkyrie+Valkyrie", "3*Valkyrie", &[setting(1, Conditions::NONE)], &o, None, None);
    let mut t = b.new_tally();
    b.play(&mut Xoshiro256PlusPlus::seed_from_u64(4), 20_000, &mut t);
    let decided = t.wins[0] + t.wins[1];
    assert!(decided > 15_000, "{:?}", t.wins);
    assert!(crate::stats::binomial::consistent(t.wins[0], decided, 0.5, 1e-4), "{:?}", t.wins);
    // Explosions kill: some models are lost with no kill credited to any unit.
    let lost: u64 = t.lost.iter().sum();
    let kills: u64 = t.kills.iter().sum();
    assert!(lost > kills, "{lost} lost, {kills} kills");
}
