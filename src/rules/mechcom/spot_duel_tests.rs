//! Spot tokens in duels and battles (§1 `SPOT_TOKENS_SHARED`, `SPOT_POLICY`): each
//! attack uses up what its weapon consumes, as in attack runs. Hand-computed vectors,
//! the independent-sides formula (two attack runs, which use tokens up), the Monte
//! Carlo against the exact chain (exact binomial bounds, with a negative control), and
//! a battle of one model a side against the duel, draw for draw.

use super::catalogue::Catalogue;
use super::duel_tests::{comparisons, independent_cells, monte_carlo, outside};
use super::*;
use crate::stats::tolerance::FAMILY_ALPHA;

fn flamer() -> Model {
    let mut m = Mech::simple("flamer", 4, 0, 4, 10);
    m.energy = 6;
    m.weapons = vec![Weapon::prometheus_flamethrower()];
    Model::new(&m, None)
}

fn target(armour: i32, integrity: u32) -> Model {
    Model::new(&Mech::simple("target", 4, 0, armour, integrity), None)
}

#[test]
fn a_duels_spot_token_is_used_up_by_the_first_attack() {
    // The flamer's two attacks a round at a target that cannot reach it (range 3): per
    // die against Armour 4 (q = 1/2), unblocked hits 0/1/2 at S 3: 15/24, 8/24, 1/24;
    // at S 4: 17/24, 6/24, 1/24. Integrity 10 at Damage 2 falls on >= 5 unblocked hits
    // of the round's four dice, so P(A wins in round 1) = 3077/331776 with the token
    // used up by the first attack (3965/331776 when every attack took it, as duels
    // played before).
    let sit = Situation { spot_tokens: 1, ..Situation::at_range(3) };
    let k = DuelKernel::new(&flamer(), &target(4, 10), &sit, &Options::default(), 4).unwrap();
    assert!(k.not_modelled[0].is_empty(), "{:?}", k.not_modelled);
    let e = k.exact().unwrap();
    assert!((e.a_wins_by_round[0] - 3077.0 / 331776.0).abs() < 1e-15, "round 1: {}", e.a_wins_by_round[0]);
    assert_eq!(e.p_b_wins, 0.0);
}

#[test]
fn with_spot_tokens_independent_duels_are_the_two_attack_runs() {
    // Each side uses up the tokens on the other only, so sides that cannot change each
    // other's state stay independent: the chain is the roll-off formula over the two
    // attack runs, which use tokens up (to 1e-12 in every round).
    let sniper = Weapon::ranged("sniper", 6, Damage::Fixed(2), 2, &[Perk::Sniper]);
    let arty = Weapon::ranged("arty", 8, Damage::Fixed(3), 3, &[Perk::Artillery]);
    let mut cases: Vec<(String, Model, Model, Situation)> = Vec::new();
    for (name, a, b, sit) in independent_cells() {
        for tokens in 1..=3 {
            cases.push((
                format!("{name}, {tokens} tokens"),
                a.model("A"),
                b.model("B"),
                Situation { spot_tokens: tokens, ..sit },
            ));
        }
    }
    let shooter = |w: Weapon, energy: u32| {
        let mut m = Mech::simple("shooter", 4, 0, 4, 9);
        m.energy = energy;
        m.weapons = vec![w, Weapon::ranged("pistol", 6, Damage::Fixed(1), 2, &[])];
        Model::new(&m, None)
    };
    for tokens in 1..=3 {
        let sit = Situation { spot_tokens: tokens, ..Situation::at_range(5) };
        cases.push((
            format!("sniper vs arty, {tokens} tokens"),
            shooter(sniper.clone(), 6),
            shooter(arty.clone(), 9),
            sit,
        ));
    }
    let mut compared = 0;
    // The attack-run formula places no token: no Spot action (SPOT_ACTION=never).
    let o = Options { spot_action: options::SpotAction::Never, ..Options::default() };
    for (name, a, b, sit) in cases {
        let k = DuelKernel::new(&a, &b, &sit, &o, 12).unwrap();
        assert!(k.independent, "{name}");
        let formula = exact_duel(&a, &b, &sit, &o, 12).unwrap();
        let chain = k.exact().unwrap();
        for (got, want) in
            [(&chain.a_wins_by_round, &formula.a_wins_by_round), (&chain.b_wins_by_round, &formula.b_wins_by_round)]
        {
            assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12), "{name}: {got:?} vs {want:?}");
        }
        compared += 1;
    }
    assert_eq!(compared, 12);
}

/// Catalogue duels with Spot tokens: a Sniper, Artillery (it stops when none is left)
/// and interacting conditions.
fn spotted_kernels(o: &Options) -> Vec<(String, DuelKernel)> {
    let cat = Catalogue::embedded().unwrap();
    let mut out = Vec::new();
    for (a, b, range, tokens) in [
        ("Pythia", "Wasp", 4, 2),
        ("Wasp", "Pythia", 6, 3),
        ("Kerberos", "Valkyrie", 1, 1),
        ("Sentinel", "Bulwark", 5, 2),
    ] {
        let sit = Situation { spot_tokens: tokens, ..Situation::at_range(range) };
        let (ma, mb) = (cat.model_named(a).unwrap(), cat.model_named(b).unwrap());
        out.push((format!("{a} vs {b} at {range}, {tokens} tokens"), DuelKernel::new(&ma, &mb, &sit, o, 10).unwrap()));
    }
    out
}

/// Every count of the Monte Carlo duels outside its exact bound, against the chains of
/// the same duels under `o`.
fn rejected(o: &Options) -> Vec<String> {
    let played = spotted_kernels(&Options::default());
    let exact = spotted_kernels(o);
    let alpha = FAMILY_ALPHA / (played.len() * comparisons(10)) as f64;
    let mut bad = Vec::new();
    for ((name, k), (_, e)) in played.iter().zip(&exact) {
        let law = e.exact().unwrap_or_else(|| panic!("{name}: exact"));
        bad.extend(
            outside(&monte_carlo(k, 2028, 60_000), &law.into(), alpha).into_iter().map(|b| format!("{name}: {b}")),
        );
    }
    bad
}

#[test]
fn monte_carlo_duels_with_spot_tokens_agree_with_the_exact_chain() {
    let bad = rejected(&Options::default());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_spot_agreement_test_rejects_tokens_never_used() {
    // Negative control: the chains with SPOT_POLICY=never (Artillery still uses one)
    // must disagree with the Monte Carlo somewhere.
    let never = Options { spot_policy: options::SpotPolicy::Never, ..Options::default() };
    assert!(!rejected(&never).is_empty(), "the test cannot see the tokens");
}

#[test]
fn a_side_with_more_spot_tokens_than_the_laws_hold_is_refused() {
    let sit = Situation { spot_tokens: duel_side::MAX_SPOT_TOKENS + 1, ..Situation::at_range(3) };
    let err = DuelKernel::new(&flamer(), &target(4, 10), &sit, &Options::default(), 4).unwrap_err();
    assert!(err.contains("Spot tokens"), "{err}");
}
