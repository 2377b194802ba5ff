//! Attack runs whose attacker places Spot tokens ([`super::token_run`]): hand-computed
//! runs, the run against the exact duel at a target that never acts, the Monte Carlo
//! against the exact chain (exact binomial bounds, with negative controls), and runs
//! that place no token keeping their fixed plan.

use super::monte_carlo_tests::{ROUNDS, model, monte_carlo, outside, outside_by_attack};
use super::options::SpotAction;
use super::token_run::TokenRun;
use super::*;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

/// P(no six) on the Spot action's 3d6, and on 2d6 (a wrong roll, for negative controls).
const Q3: f64 = 125.0 / 216.0;
const Q2: f64 = 25.0 / 36.0;

fn never() -> Options {
    Options { spot_action: SpotAction::Never, ..Options::default() }
}

/// Artillery that cannot miss a 1-Armour target: it fires only with a token.
fn mortar(perks: &[Perk]) -> Weapon {
    let mut all = vec![Perk::Artillery];
    all.extend_from_slice(perks);
    Weapon::ranged("mortar", 12, Damage::Fixed(1), 1, &all)
}

/// Stability 1 (every die hits), `energy` ⚡, `weapons`.
fn shooter(energy: u32, weapons: Vec<Weapon>) -> Model {
    model(1, 0, 4, 10, energy, weapons)
}

/// Armour 1 (every hit costs it), Integrity `integrity`, no Energy: it never acts.
fn duck(integrity: u32) -> Model {
    model(4, 0, 1, integrity, 0, vec![])
}

fn run(a: &Model, t: &Model, sit: &Situation, o: &Options) -> AttackRun {
    AttackRun::new(a, t, sit, o, RunPolicy::default(), ROUNDS).unwrap()
}

/// P(killed by round r) of the 6⚡ spotter with the mortar at a 1-Integrity duck: a round
/// without a token spots and fires if a six came, else spots again; a round with a token
/// fires. Alive after round r with probability q^(2r−1) (the duel's hand law).
fn hunted(q: f64, r: usize) -> f64 {
    1.0 - q.powi(2 * r as i32 - 1)
}

#[test]
fn a_run_spots_for_its_artillery_as_by_hand() {
    let (a, t, sit) = (shooter(6, vec![mortar(&[])]), duck(1), Situation::at_range(8));
    let r = run(&a, &t, &sit, &Options::default());
    assert!(r.tokens.as_ref().is_some_and(|t| t.spots()));
    let e = r.exact();
    for (k, &p) in e.p_kill_by_round.iter().enumerate() {
        assert!((p - hunted(Q3, k + 1)).abs() < 1e-14, "round {}: {p}", k + 1);
    }
    // Killed by the first attack, made in round 1 with 91/216 (a six on the first Spot).
    assert!((e.kill_by_attack[0] - e.p_kill).abs() < 1e-14 && (e.kill_by_round[0] - 91.0 / 216.0).abs() < 1e-15);
    assert!(e.mean_attacks.is_some_and(|m| (m - 1.0).abs() < 1e-12), "{:?}", e.mean_attacks);
    // The Monte Carlo: consistent with the hand law, not with a 2d6 Spot's.
    let tally = monte_carlo(&r, 7);
    let alpha = FAMILY_ALPHA / (2.0 * ROUNDS as f64);
    assert!(outside(&tally, &e, alpha).is_empty(), "{:?}", outside(&tally, &e, alpha));
    let (mut cum, mut wrong) = (0, 0);
    for (k, &kills) in tally.kills_by_turn.iter().enumerate() {
        cum += kills;
        wrong += usize::from(!consistent(cum, tally.trials, hunted(Q2, k + 1), alpha));
    }
    assert!(wrong > 0, "a 2d6 Spot's law is rejected");
    // SPOT_ACTION=never: no token ever, the mortar never fires (the run as before).
    let old = run(&a, &t, &sit, &never());
    assert!(old.tokens.is_none() && old.plan.is_empty());
    assert_eq!(old.exact().p_kill, 0.0);
    assert!(r.played().iter().any(|p| p.contains("Spot action")), "{:?}", r.played());
    assert!(old.played().is_empty());
}

#[test]
fn a_tracker_hit_feeds_the_next_attack_as_by_hand() {
    // The duel's hand case (spot_action_tests): one die a shot at S 4 against Armour 1,
    // miss 1/2, 1 lost 1/3, 2 lost 1/6; with a token 1/3, 1/2, 1/6. Two shots a round
    // at Integrity 3: destroyed in round 1 with 1/6 with Tracker, 5/36 without.
    let gun = |perks: &[Perk]| model(4, 0, 4, 10, 6, vec![Weapon::ranged("gun", 6, Damage::Fixed(1), 1, perks)]);
    let t = duck(3);
    let sit = Situation::at_range(4);
    for (perks, want) in [(&[Perk::Tracker][..], 1.0 / 6.0), (&[][..], 5.0 / 36.0)] {
        let r = run(&gun(perks), &t, &sit, &Options::default());
        assert_eq!(r.tokens.is_some(), !perks.is_empty(), "{perks:?}");
        let got = r.exact().kill_by_round[0];
        assert!((got - want).abs() < 1e-15, "{perks:?}: {got} vs {want}");
    }
    // A mortar with Tracker and one token to start, at Integrity 3: each hit (1 lost,
    // 2 on a crit, 1/6) spends the token and places as many as it took, so the mortar
    // keeps firing: killed on the 2nd attack unless neither was a crit (11/36), else on
    // the 3rd (25/36). Without Tracker it fires once and never kills.
    let sit = Situation { spot_tokens: 1, ..Situation::at_range(8) };
    let tracked = run(&shooter(6, vec![mortar(&[Perk::Tracker])]), &t, &sit, &never()).exact();
    let got = [tracked.kill_by_attack[1], tracked.kill_by_attack[2], tracked.kill_by_round[0], tracked.p_kill];
    let want = [11.0 / 36.0, 25.0 / 36.0, 11.0 / 36.0, 1.0];
    assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-14), "{got:?} vs {want:?}");
    let plain = run(&shooter(6, vec![mortar(&[])]), &t, &sit, &never());
    assert!(plain.tokens.is_none());
    assert_eq!(plain.exact().p_kill, 0.0);
}

/// Attackers that place tokens, each against a target that never acts.
fn token_cells() -> Vec<(&'static str, Model, Model, Situation)> {
    let sniper = Weapon::ranged("rifle", 12, Damage::Fixed(1), 1, &[Perk::Sniper]);
    let heavy = Weapon::ranged("heavy mortar", 12, Damage::Fixed(6), 1, &[Perk::Artillery]);
    let ammo_tracker = Weapon::ranged("tagger", 8, Damage::Fixed(1), 2, &[Perk::Tracker, Perk::Ammo(3)]);
    vec![
        ("mortar spotter", shooter(6, vec![mortar(&[])]), duck(4), Situation::at_range(8)),
        (
            "stunned spotter",
            shooter(9, vec![mortar(&[])]).with_conditions(Conditions::of(&[Condition::Stunned])),
            duck(3),
            Situation::at_range(8),
        ),
        (
            "sniper spotter",
            model(5, 0, 4, 10, 9, vec![sniper, heavy]),
            model(4, 0, 3, 6, 0, vec![]),
            Situation::at_range(10),
        ),
        (
            "tracker with ammo",
            model(4, 0, 4, 10, 9, vec![ammo_tracker, mortar(&[])]),
            model(4, 0, 2, 5, 0, vec![]),
            Situation::at_range(6),
        ),
    ]
}

#[test]
fn a_token_run_is_the_duel_at_a_target_that_never_acts() {
    // The duel plays the same Spot and Tracker rules; a target with no Energy never
    // acts, so the attacker's wins by round are the run's kills by round.
    for (name, a, t, sit) in token_cells() {
        let r = run(&a, &t, &sit, &Options::default());
        assert!(r.tokens.as_ref().is_some_and(TokenRun::places_tokens), "{name}");
        let e = r.exact();
        let d = DuelKernel::new(&a, &t, &sit, &Options::default(), ROUNDS).unwrap().exact().expect("solvable");
        let mut by = 0.0;
        for (k, &w) in d.a_wins_by_round.iter().enumerate() {
            by += w;
            assert!(
                (by - e.p_kill_by_round[k]).abs() < 1e-12,
                "{name}, round {}: {by} vs {}",
                k + 1,
                e.p_kill_by_round[k]
            );
        }
    }
}

#[test]
fn token_runs_monte_carlo_agrees_with_the_exact_chain() {
    let cells = token_cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * 2.0 * ROUNDS as f64);
    for (name, a, t, sit) in &cells {
        let r = run(a, t, sit, &Options::default());
        let (exact, tally) = (r.exact(), monte_carlo(&r, 2026));
        assert!(outside(&tally, &exact, alpha).is_empty(), "{name}: rounds {:?}", outside(&tally, &exact, alpha));
        let attacks = outside_by_attack(&tally, &exact, alpha);
        assert!(attacks.is_empty(), "{name}: attacks {attacks:?}");
        // Negative control: the same draws against the run without the Spot action.
        if r.tokens.as_ref().is_some_and(TokenRun::spots) {
            let old = run(a, t, sit, &never()).exact();
            assert!(!outside(&tally, &old, alpha).is_empty(), "{name}: the run without Spots is rejected");
        }
    }
}

#[test]
fn a_run_that_places_no_token_keeps_its_fixed_plan_and_draws() {
    // A gun whose Spot never pays (its gain 91/216 · 1/3 is below the shot's 4/3): the
    // run is the one SPOT_ACTION=never gives, draw for draw.
    let a = model(4, 0, 4, 10, 6, vec![Weapon::ranged("gun", 6, Damage::Fixed(2), 2, &[])]);
    let (t, sit) = (model(4, 0, 4, 10, 0, vec![]), Situation::at_range(4));
    let (r, old) = (run(&a, &t, &sit, &Options::default()), run(&a, &t, &sit, &never()));
    assert!(r.tokens.is_none() && r.is_compact());
    assert_eq!(r, old);
    assert_eq!(monte_carlo(&r, 3).kills_by_turn, monte_carlo(&old, 3).kills_by_turn);
}

#[test]
fn round_one_weighs_each_attack_by_the_chance_it_is_made() {
    // Two actions: a Spot, then the mortar with 91/216 (a six came); the cost tables'
    // round 1 is that one weighted attack, not a sure one.
    let (a, t, sit) = (shooter(6, vec![mortar(&[])]), duck(1), Situation::at_range(8));
    let r = run(&a, &t, &sit, &Options::default());
    let spotted = Situation { spot_tokens: 1, ..sit };
    let m = attack_odds(&a, &a.mech.weapons[0], &t, &spotted, &Options::default()).unwrap().expected_integrity_loss;
    let got = r.token_round_one().expect("a token run");
    assert_eq!(got.len(), 1, "{got:?}");
    assert!((got[0] - 91.0 / 216.0 * m).abs() < 1e-15, "{got:?} vs {}", 91.0 / 216.0 * m);
    assert!(run(&a, &t, &sit, &never()).token_round_one().is_none());
}

#[test]
fn mean_attacks_to_kill_counts_the_kills_an_attack_made() {
    // One action a round at a Burned 2-Integrity duck: round 1 spots and the duck burns
    // to 1; in round 2 a token means a sure kill by the first attack, no token a Spot
    // and the duck burns out with no attack made. The mean attacks to kill is over the
    // kills an attack made, so exactly 1 (as the Monte Carlo counts it), not 91/216.
    let t = duck(2).with_conditions(Conditions::of(&[Condition::Burned]));
    let r = AttackRun::new(
        &shooter(3, vec![mortar(&[])]),
        &t,
        &Situation::at_range(8),
        &Options::default(),
        RunPolicy::default(),
        3,
    )
    .unwrap();
    let e = r.exact();
    assert!((e.p_kill - 1.0).abs() < 1e-15 && (e.kill_by_attack[0] - 91.0 / 216.0).abs() < 1e-15, "{e:?}");
    assert!(e.mean_attacks.is_some_and(|m| (m - 1.0).abs() < 1e-15), "{:?}", e.mean_attacks);
    let tally = monte_carlo(&r, 5);
    assert_eq!(tally.kills_by_action.iter().skip(1).sum::<u64>(), 0, "every attack kill is the first attack's");
}
