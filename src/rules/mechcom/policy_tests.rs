//! Attack-run policies: they change the plan, and the exact chain and the Monte Carlo
//! kernel agree under each of them.

use crate::stats::tolerance::FAMILY_ALPHA;

use super::monte_carlo_tests::{ROUNDS, model, monte_carlo, outside};
use super::*;

/// A lance (2 dice, Damage 3) and a scatter gun (4 dice, Damage 1) against Armour 4: the
/// lance takes more Integrity per attack, the scatter gun rolls more dice.
fn two_weapons() -> (Model, Model, Situation) {
    let lance = Weapon::ranged("lance", 6, Damage::Fixed(3), 2, &[]);
    let scatter = Weapon::ranged("scatter", 6, Damage::Fixed(1), 4, &[Perk::Condition(Condition::Burned)]);
    (model(4, 0, 4, 10, 6, vec![lance, scatter]), model(4, 0, 4, 12, 0, vec![]), Situation::at_range(4))
}

fn weapons_used(r: &AttackRun) -> Vec<&str> {
    r.plan.iter().map(|s| r.weapons[s.weapon as usize].as_str()).collect()
}

#[test]
fn the_policy_picks_the_weapon() {
    let (a, t, sit) = two_weapons();
    let o = Options::default();
    let expected = |w: usize| attack_odds(&a, &a.mech.weapons[w], &t, &sit, &o).unwrap().expected_integrity_loss;
    assert!(expected(0) > expected(1), "the lance takes more per attack: {} vs {}", expected(0), expected(1));
    let best = AttackRun::new(&a, &t, &sit, &o, RunPolicy::BestPerEnergy, 3).unwrap();
    let dice = AttackRun::new(&a, &t, &sit, &o, RunPolicy::MostDice, 3).unwrap();
    assert_eq!(weapons_used(&best), vec!["lance"; 6]);
    assert_eq!(weapons_used(&dice), vec!["scatter"; 6]);
    assert!(!best.changes_state && dice.changes_state);
}

#[test]
fn most_dice_falls_back_when_ammo_runs_out() {
    let (mut a, t, sit) = two_weapons();
    a.mech.weapons[1].perks.push(Perk::Ammo(3));
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::MostDice, 3).unwrap();
    assert_eq!(weapons_used(&r), vec!["scatter", "scatter", "scatter", "lance", "lance", "lance"]);
}

#[test]
fn monte_carlo_agrees_with_the_exact_chain_under_most_dice() {
    let (a, t, sit) = two_weapons();
    let r = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::MostDice, ROUNDS).unwrap();
    assert!(r.is_compact());
    let exact = r.exact();
    let tally = monte_carlo(&r, 7);
    let alpha = FAMILY_ALPHA / ROUNDS as f64;
    assert!(outside(&tally, &exact, alpha).is_empty(), "rounds {:?}", outside(&tally, &exact, alpha));
    // Negative control: the lance's exact law is far from the scatter gun's runs.
    let lance = AttackRun::new(&a, &t, &sit, &Options::default(), RunPolicy::BestPerEnergy, ROUNDS).unwrap();
    assert!(!outside(&tally, &lance.exact(), alpha).is_empty());
}
