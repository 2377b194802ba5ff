//! The Monte Carlo attack-run kernel against the exact chain, over cells that exercise
//! every state the run tracks (Burned, Corroded, Shocked; Ammo; a Stunned attacker;
//! Flurry's quantised tables; rounds with no attack), with exact binomial bounds.

use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::TtkTally;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use super::*;

pub(super) const ROUNDS: u32 = 12;
const TRIALS: u64 = 200_000;

pub(super) fn model(
    stability: i32,
    strength: i32,
    armour: i32,
    integrity: u32,
    energy: u32,
    weapons: Vec<Weapon>,
) -> Model {
    let mut m = Mech::simple("m", stability, strength, armour, integrity);
    m.energy = energy;
    m.weapons = weapons;
    Model::new(&m, None)
}

/// (name, attacker, target, situation)
pub(super) fn cells() -> Vec<(&'static str, Model, Model, Situation)> {
    let flamer = model(4, 0, 4, 10, 6, vec![Weapon::prometheus_flamethrower()]);
    let corroder = Weapon::ranged(
        "corroder",
        6,
        Damage::D3,
        3,
        &[Perk::Flurry, Perk::CriticalCondition(Condition::Corroded), Perk::Volatile(1)],
    );
    let claw = Weapon::melee("claw", Damage::Fixed(2), 2, &[Perk::Rend(1), Perk::Condition(Condition::Shocked)]);
    let torch = Weapon::ranged("torch", 3, Damage::Fixed(4), 3, &[Perk::Ammo(2), Perk::Condition(Condition::Burned)]);
    let burns = Perk::Condition(Condition::Burned);
    let one_shot = Weapon::ranged("one shot", 8, Damage::Fixed(2), 2, &[Perk::Ammo(1)]);
    vec![
        ("reference flamethrower", flamer.clone(), model(4, 0, 4, 10, 0, vec![]), Situation::at_range(3)),
        (
            "reference flamethrower with three spot tokens, used up in rounds 1 and 2",
            flamer,
            model(4, 0, 4, 10, 0, vec![]),
            Situation { spot_tokens: 3, ..Situation::at_range(3) },
        ),
        (
            "flurry corroder in half cover with a spot token",
            model(3, 0, 4, 10, 9, vec![corroder]),
            model(4, 0, 4, 12, 0, vec![]),
            Situation { range: 5, cover: Cover::Half, spot_tokens: 1, ..Situation::default() },
        ),
        (
            "stunned brawler: claw and torch at melee range",
            model(4, 1, 4, 10, 9, vec![claw, torch]).with_conditions(Conditions::of(&[Condition::Stunned])),
            model(4, 1, 3, 14, 0, vec![]),
            Situation::at_range(1),
        ),
        (
            "burning target, one shot of ammo",
            model(3, 0, 4, 10, 3, vec![one_shot]),
            model(4, 0, 5, 6, 0, vec![]).with_conditions(Conditions::of(&[Condition::Burned, Condition::Invisible])),
            Situation::at_range(4),
        ),
        (
            "tough target, wide tables: 4 dice d3 Flurry, Burned on hit, Corroded on crit",
            model(
                4,
                0,
                4,
                10,
                6,
                vec![Weapon::ranged(
                    "swarm",
                    4,
                    Damage::D3,
                    4,
                    &[Perk::Flurry, burns, Perk::CriticalCondition(Condition::Corroded)],
                )],
            ),
            model(4, 0, 3, 24, 0, vec![]),
            Situation::at_range(2),
        ),
    ]
}

pub(super) fn monte_carlo(r: &AttackRun, seed: u64) -> TtkTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(TRIALS), ..RunConfig::default() };
    run(&[Cell { key: 11, kernel: r }], &cfg, &Silent).unwrap().remove(0)
}

/// Rounds whose count of kills by round k is inconsistent with the exact P(killed by
/// round k) at two-sided level `alpha`.
pub(super) fn outside(t: &TtkTally, e: &ExactRun, alpha: f64) -> Vec<usize> {
    let mut cum = 0;
    let mut bad = Vec::new();
    for (k, &kills) in t.kills_by_turn.iter().enumerate() {
        cum += kills;
        if !consistent(cum, t.trials, e.p_kill_by_round[k], alpha) {
            bad.push(k + 1);
        }
    }
    bad
}

/// Attacks whose count of kills by attack k is inconsistent with the exact P(killed by
/// attack k) at two-sided level `alpha`.
pub(super) fn outside_by_attack(t: &TtkTally, e: &ExactRun, alpha: f64) -> Vec<usize> {
    let (mut cum, mut p, mut bad) = (0, 0.0, Vec::new());
    for (k, &kills) in t.kills_by_action.iter().enumerate() {
        cum += kills;
        p += e.kill_by_attack[k];
        if !consistent(cum, t.trials, p.min(1.0), alpha) {
            bad.push(k + 1);
        }
    }
    bad
}

#[test]
fn monte_carlo_attack_runs_agree_with_the_exact_chain() {
    let cells = cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * 2.0 * ROUNDS as f64);
    let mut compact = Vec::new();
    for (name, a, t, sit) in &cells {
        let r = AttackRun::new(a, t, sit, &Options::default(), RunPolicy::default(), ROUNDS).unwrap();
        compact.push(r.is_compact());
        let exact = r.exact();
        let tally = monte_carlo(&r, 2026);
        assert_eq!(tally.trials, TRIALS);
        assert!(outside(&tally, &exact, alpha).is_empty(), "{name}: rounds {:?}", outside(&tally, &exact, alpha));
        let attacks = outside_by_attack(&tally, &exact, alpha);
        assert!(attacks.is_empty(), "{name}: attacks {attacks:?}");
    }
    assert!(compact.contains(&true) && compact.contains(&false), "both loops tested: {compact:?}");
}

#[test]
fn the_check_rejects_a_target_with_one_integrity_too_many() {
    // Negative control: the reference cell's Monte Carlo against the exact law of a
    // target with Integrity 11 must fail the same test.
    let (_, a, t, sit) = cells().remove(0);
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), ROUNDS).unwrap();
    let mut tougher = t.clone();
    tougher.mech.integrity += 1;
    let wrong = AttackRun::new(&a, &tougher, &sit, &Options::default(), RunPolicy::default(), ROUNDS).unwrap().exact();
    let alpha = FAMILY_ALPHA / ROUNDS as f64;
    assert!(!outside(&monte_carlo(&r, 2026), &wrong, alpha).is_empty());
}

#[test]
fn the_check_rejects_spot_tokens_that_are_never_used_up() {
    // Negative control: the Monte Carlo of a run whose one token is spent on its first
    // attack against the exact law of every attack taking the bonus (the attacker one
    // Stability better, no token) must fail the same test.
    let (_, a, t, _) = cells().remove(0);
    let sit = Situation { spot_tokens: 1, ..Situation::at_range(3) };
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), ROUNDS).unwrap();
    let mut steadier = a.clone();
    steadier.mech.stability -= 1;
    let wrong =
        AttackRun::new(&steadier, &t, &Situation::at_range(3), &Options::default(), RunPolicy::default(), ROUNDS)
            .unwrap()
            .exact();
    let alpha = FAMILY_ALPHA / ROUNDS as f64;
    assert!(outside(&monte_carlo(&r, 2026), &r.exact(), alpha).is_empty());
    assert!(!outside(&monte_carlo(&r, 2026), &wrong, alpha).is_empty());
}

#[test]
fn the_plan_follows_energy_ammo_and_a_stunned_first_round() {
    let (_, a, t, sit) = cells().remove(3);
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), 3).unwrap();
    // 9⚡, Stunned in round 1: 5⚡, one attack; then three a round. At melee range the
    // torch shoots at S 4 + 2 = 6: 3 dice × 1/3 hit × 4/6 through × 4 = 8/3 expected,
    // beating the claw's 2 × 21/36 × 2 = 7/3 until its 2 Ammo are spent.
    let names: Vec<(u16, &str)> = r.plan.iter().map(|s| (s.round, r.weapons[s.weapon as usize].as_str())).collect();
    assert_eq!(
        names,
        vec![(0, "torch"), (1, "torch"), (1, "claw"), (1, "claw"), (2, "claw"), (2, "claw"), (2, "claw")]
    );
}

#[test]
fn same_seed_same_tally_for_any_thread_count() {
    let (_, a, t, sit) = cells().remove(2);
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), ROUNDS).unwrap();
    let tally = |threads| {
        let cfg = RunConfig { seed: 5, trials: Trials::Fixed(50_000), threads: Some(threads), ..RunConfig::default() };
        run(&[Cell { key: 3, kernel: &r }], &cfg, &Silent).unwrap().remove(0)
    };
    assert_eq!(tally(1), tally(2));
}

/// Value stability: a fixed seed gives these exact counts. A change in how many random
/// numbers an attack draws, or in the order runs consume them, fails loudly.
#[test]
fn golden_seed_reference_run() {
    let (_, a, t, sit) = cells().remove(0);
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::default(), 8).unwrap();
    let cfg = RunConfig { seed: 20261121, trials: Trials::Fixed(10_000), ..RunConfig::default() };
    let tally = run(&[Cell { key: 1, kernel: &r }], &cfg, &Silent).unwrap().remove(0);
    // One draw per round since the compact loop samples each round's exact joint law
    // from an alias table (was one draw per attack: [80, 2676, 3050, 3163, 702, 296, 31, 1]).
    assert_eq!(tally.kills_by_turn, vec![87, 2654, 2939, 3289, 717, 269, 35, 9]);
}

#[test]
fn plans_are_bounded() {
    let big = model(4, 0, 4, 10, 300, vec![Weapon::prometheus_flamethrower()]);
    let t = model(4, 0, 4, 10, 0, vec![]);
    let e =
        AttackRun::new(&big, &t, &Situation::at_range(3), &Options::default(), RunPolicy::default(), 1000).unwrap_err();
    assert!(e.contains("at most"), "{e}");
    assert!(AttackRun::new(&big, &t, &Situation::at_range(3), &Options::default(), RunPolicy::default(), 0).is_err());
}
