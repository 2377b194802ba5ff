//! Battles against the duel (draw for draw, and Monte Carlo against the exact duel law
//! with a negative control), a hand-computed two-against-one case, ECV budgets and
//! forces in the catalogue.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::*;
use crate::catalogue::source::SourceFile;
use crate::engine::battle::{BattleRules, Ending, Outcome, play_battle};
use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::ExactTtk;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use super::super::attack_run::AttackRun;
use super::super::duel::{DuelKernel, Winner};

fn embedded() -> Catalogue {
    Catalogue::embedded().unwrap()
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn compile_text(
    cat: &Catalogue,
    a: &str,
    b: &str,
    c: &Conditions,
    o: &Options,
    policy: Option<&str>,
    turns: Option<u32>,
) -> Result<(ForceBattle, BattleInfo), String> {
    let f = [ForceSpec::parse(a).unwrap(), ForceSpec::parse(b).unwrap()];
    battle(cat, "equal-ecv", &f, &[*c], o, policy, turns)
}

fn duel(cat: &Catalogue, a: &str, b: &str, c: &Conditions, o: &Options, turns: u32) -> DuelKernel {
    let (au, bu) = (cat.unit(a).unwrap(), cat.unit(b).unwrap());
    DuelKernel::new(
        AttackRun::new(cat, au, bu, c, o, turns).unwrap(),
        AttackRun::new(cat, bu, au, c, o, turns).unwrap(),
    )
    .unwrap()
}

/// One battle of any policy on `rng`.
fn play_one(b: &ForceBattle, rng: &mut Xoshiro256PlusPlus) -> Outcome {
    let mut out = Outcome::new();
    match b {
        ForceBattle::MostDamaged(x) => play_battle(&x.game, &x.policy, &mut x.game.new_state(), rng, &mut out),
        ForceBattle::HighestEcv(x) => play_battle(&x.game, &x.policy, &mut x.game.new_state(), rng, &mut out),
        ForceBattle::Random(x) => play_battle(&x.game, &x.policy, &mut x.game.new_state(), rng, &mut out),
    }
    out
}

/// The duel's result in the battle's terms: (ending, turns, decided).
fn as_battle((w, t, mutual): (Winner, u32, bool)) -> (Ending, u32, bool) {
    match w {
        Winner::A => (Ending::Winner(0), t, true),
        Winner::B => (Ending::Winner(1), t, true),
        Winner::Draw => (Ending::Draw, t, mutual),
    }
}

/// Trials (of `n`) where the battle of `a` against `b` and the duel of `da` against `db`
/// part, both played from one seed per trial.
fn mismatches(
    cat: &Catalogue,
    (a, b): (&str, &str),
    (da, db): (&str, &str),
    c: &Conditions,
    o: &Options,
    policy: &str,
    n: u64,
) -> usize {
    let loose = Options { ecv_tolerance: 100, ..o.clone() };
    let (bat, _) = compile_text(cat, a, b, c, &loose, Some(policy), Some(12)).unwrap();
    let d = duel(cat, da, db, c, o, 12);
    (0..n)
        .filter(|&i| {
            let (mut r1, mut r2) = (Xoshiro256PlusPlus::seed_from_u64(i), Xoshiro256PlusPlus::seed_from_u64(i));
            let want = as_battle(d.play_one(&mut r1));
            let o = play_one(&bat, &mut r2);
            (o.ending, o.turns, o.decided) != want || r1 != r2
        })
        .count()
}

fn pairs() -> Vec<(Catalogue, &'static str, &'static str, Conditions)> {
    let c = Conditions::default();
    vec![
        (embedded(), "Main Battle Tank", "Jagdpanther", c),
        (embedded(), "Illustrative tank", "Illustrative tank", c),
        (embedded(), "Panzer IV", "Infantry Fighting Vehicle", Conditions { range: 1, point_blank: true, ..c }),
        (super::super::tests::catalogue(), "Soft Target", "Soft Target", Conditions { range: 0, ..c }),
    ]
}

#[test]
fn one_unit_a_side_is_the_duel_draw_for_draw() {
    for (cat, a, b, c) in pairs() {
        for sampler in ["TABLE", "DICE"] {
            let o = opts(&[("MC_SAMPLER", sampler)]);
            for policy in BATTLE_POLICIES {
                let bad = mismatches(&cat, (a, b), (a, b), &c, &o, policy, 400);
                assert_eq!(bad, 0, "{a} v {b}, {sampler}, {policy}: {bad} of 400 trials differ from the duel");
            }
        }
    }
}

#[test]
fn the_draw_for_draw_check_sees_a_change_of_firing_order() {
    // Negative control: side B firing first (the forces swapped against the same duel)
    // plays the same laws in another order and must part from the duel.
    let cat = embedded();
    let o = Options::default();
    let c = Conditions::default();
    assert!(
        mismatches(
            &cat,
            ("Jagdpanther", "Main Battle Tank"),
            ("Main Battle Tank", "Jagdpanther"),
            &c,
            &o,
            "most-damaged",
            400
        ) > 0
    );
}

/// The law of a duel in which A fires first and a unit destroyed does not fire back:
/// (P(A wins), P(B wins), P(draw)). Only the negative control uses it.
fn sequential(a: &ExactTtk, b: &ExactTtk) -> (f64, f64, f64) {
    let (mut pa, mut pb, mut a_by, mut b_by) = (0.0, 0.0, 0.0, 0.0);
    for (ka, kb) in a.kill_by_turn.iter().zip(&b.kill_by_turn) {
        pa += ka * (1.0 - b_by);
        a_by += ka;
        pb += kb * (1.0 - a_by);
        b_by += kb;
    }
    (pa, pb, 1.0 - pa - pb)
}

fn monte_carlo(b: &ForceBattle, seed: u64, trials: u64) -> crate::engine::battle::BattleTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    run(&[Cell { key: 11, kernel: b }], &cfg, &Silent).unwrap().remove(0)
}

#[test]
fn one_unit_a_side_agrees_with_the_exact_duel_and_not_with_sequential_fire() {
    let cat = embedded();
    let c = Conditions::default();
    let o = opts(&[("ECV_TOLERANCE", "100")]);
    let alpha = FAMILY_ALPHA / 12.0;
    let near = Conditions { range: 1, point_blank: true, ..c };
    for (a, b, c) in [("Main Battle Tank", "Jagdpanther", c), ("Panzer IV", "Infantry Fighting Vehicle", near)] {
        let (bat, _) = compile_text(&cat, a, b, &c, &o, None, Some(10)).unwrap();
        let d = duel(&cat, a, b, &c, &o, 10);
        let e = d.exact();
        let t = monte_carlo(&bat, 9, 20_000);
        let n = t.trials;
        assert!(consistent(t.wins[0], n, e.p_a_wins, alpha), "{a} v {b}: A {} vs {e:?}", t.wins[0]);
        assert!(consistent(t.wins[1], n, e.p_b_wins, alpha), "{a} v {b}: B {} vs {e:?}", t.wins[1]);
        assert!(consistent(t.draws, n, e.p_mutual + e.p_timeout, alpha), "{a} v {b}: draws {} vs {e:?}", t.draws);
        let timeouts = n - t.ended_in_turn.iter().sum::<u64>();
        assert!(consistent(timeouts, n, e.p_timeout, alpha), "{a} v {b}: at the cap {timeouts} vs {e:?}");
        // Negative control: the law of sequential fire is rejected by the same check.
        let (_, _, draw) = sequential(&d.a.exact(), &d.b.exact());
        assert!(e.p_mutual > 0.01, "{a} v {b}: both fall in one turn often enough to tell");
        assert!(!consistent(t.draws, n, draw, alpha), "{a} v {b}: sequential fire's draws {draw} not rejected");
        // No side acts first: the initiative split is unknown.
        let s = t.initiative(0);
        assert!(s.own_first.is_none() && s.other_first.is_none(), "{s:?}");
    }
}

/// Two "Soft Target"s (one 2/0/0 gunner at TN 11 against armour 0, Dead 11+: one
/// attack destroys with p = 51/800, shellshock.md §7 vector 15) against one, two turns.
#[test]
fn two_against_one_by_hand() {
    let cat = super::super::tests::catalogue();
    let c = Conditions { range: 0, ..Conditions::default() };
    let o = opts(&[("ECV_TOLERANCE", "100")]);
    let (bat, info) = compile_text(&cat, "2*Soft Target", "Soft Target", &c, &o, None, Some(2)).unwrap();
    assert_eq!(info.sides, vec![("2*Soft Target".to_string(), 100.0), ("Soft Target".to_string(), 50.0)]);
    let p: f64 = 51.0 / 800.0;
    let f = bat.forces();
    let law = f.run(2, 0).step_law(0, 0);
    assert!((law.kill - p).abs() < 1e-15, "{}", law.kill);
    let q = 1.0 - p;
    let two = 1.0 - q * q; // two gunners at one target: the second fires only if the first missed it
    // Turn 1: B falls with `two`; B still fires at slot 0 (most damaged, ties to listing).
    // Turn 2: with two A units B falls with `two` and cannot win; with one, both fire at
    // once and may both fall (a draw).
    let a_wins = two + q * q * (q * two + p * p * q);
    let b_wins = q * q * p * q * p;
    let lost0 = p + q * q * q * p;
    let lost1 = q * q * p * p;
    let n = 200_000;
    let t = monte_carlo(&bat, 2026, n);
    let alpha = FAMILY_ALPHA / 6.0;
    assert!(consistent(t.wins[0], n, a_wins, alpha), "A {} vs {a_wins}", t.wins[0]);
    assert!(consistent(t.wins[1], n, b_wins, alpha), "B {} vs {b_wins}", t.wins[1]);
    assert!(consistent(t.ended_in_turn[0], n, two, alpha), "turn 1 {} vs {two}", t.ended_in_turn[0]);
    assert!(consistent(t.lost[0], n, lost0, alpha), "slot 0 lost {} vs {lost0}", t.lost[0]);
    assert!(consistent(t.lost[1], n, lost1, alpha), "slot 1 lost {} vs {lost1}", t.lost[1]);
    assert!(consistent(t.lost[2], n, a_wins, alpha), "B lost {} vs {a_wins}", t.lost[2]);
    assert_eq!(t.kills[2], t.lost[0] + t.lost[1], "every A unit lost is B's kill");
    assert_eq!(t.points_destroyed[1].0, u128::from(t.lost[0] + t.lost[1]) * 50_000, "ECV in thousandths");
}

#[test]
fn forces_off_equal_ecv_are_refused_naming_force_and_excess() {
    let cat = embedded();
    let c = Conditions::default();
    let o = Options::default();
    let go = |a: &str, b: &str, o: &Options| compile_text(&cat, a, b, &c, o, None, None).map(|_| ());
    // 400 against 400: equal.
    assert!(go("Jagdpanther+3*Panzer IV", "2*Main Battle Tank", &o).is_ok());
    // 360 against 400: under the budget (the larger force) by 40.
    let e = go("4*Panzer IV", "2*Main Battle Tank", &o).unwrap_err();
    assert!(e.contains("`4*Panzer IV`") && e.contains("under its budget of 400 ECV by 40"), "{e}");
    // ... accepted within ECV_TOLERANCE=10 (percent).
    assert!(go("4*Panzer IV", "2*Main Battle Tank", &opts(&[("ECV_TOLERANCE", "10")])).is_ok());
    // ECV_BUDGET: both over; the first named with its excess.
    let e = go("Jagdpanther+3*Panzer IV", "2*Main Battle Tank", &opts(&[("ECV_BUDGET", "300")])).unwrap_err();
    assert!(e.contains("`Jagdpanther+3*Panzer IV` costs 400 ECV, over its budget of 300 ECV by 100"), "{e}");
    // A force's own budget wins over ECV_BUDGET.
    let mut a = ForceSpec::parse("2*Main Battle Tank").unwrap();
    a.budget = Some(350.0);
    let b = ForceSpec::parse("Jagdpanther+3*Panzer IV").unwrap();
    let e = battle(&cat, "equal-ecv", &[a, b], &[c], &opts(&[("ECV_BUDGET", "400")]), None, None).unwrap_err();
    assert!(e.contains("`2*Main Battle Tank` costs 400 ECV, over its budget of 350 ECV by 50"), "{e}");
    // Unknown names and modes.
    let e = go("Tiger+Panzer IV", "2*Main Battle Tank", &o).unwrap_err();
    assert!(e.starts_with("force `Tiger+Panzer IV`") && e.contains("`Tiger`"), "{e}");
    let f = [ForceSpec::parse("2*Main Battle Tank").unwrap(), ForceSpec::parse("Jagdpanther+3*Panzer IV").unwrap()];
    assert!(battle(&cat, "squad", &f, &[c], &o, None, None).unwrap_err().contains("equal-ecv"));
    assert!(
        compile_text(&cat, "2*Main Battle Tank", "Jagdpanther+3*Panzer IV", &c, &o, Some("nearest"), None)
            .unwrap_err()
            .contains("most-damaged")
    );
    let full = opts(&[("MODEL", "FULL_CHART")]);
    assert!(go("2*Main Battle Tank", "Jagdpanther+3*Panzer IV", &full).unwrap_err().contains("FULL_CHART"));
}

#[test]
fn the_embedded_forces_are_at_equal_ecv_and_fight() {
    let cat = embedded();
    assert!(cat.forces.len() >= 3, "a few embedded forces");
    let budgets: Vec<f64> = cat.forces.iter().map(|f| resolve(&cat, f).unwrap().ecv).collect();
    assert!(budgets.iter().all(|&b| b == budgets[0]), "one ECV: {budgets:?}");
    let (a, b) = (&cat.forces[0], &cat.forces[1]);
    for policy in BATTLE_POLICIES {
        let (bat, info) = battle(
            &cat,
            "equal-ecv",
            &[a.clone(), b.clone()],
            &[Conditions::default()],
            &Options::default(),
            Some(policy),
            None,
        )
        .unwrap();
        assert_eq!(info.max_turns, 50);
        let t = monte_carlo(&bat, 1, 300);
        assert_eq!(t.wins[0] + t.wins[1] + t.draws, 300);
        assert!(t.wins[0] > 0 && t.wins[1] > 0, "{policy}: both forces win sometimes: {:?}", t.wins);
    }
}

#[test]
fn catalogue_forces_name_units() {
    let text = format!(
        "{}\n[[force]]\nname = \"Pair\"\nunits = [{{ build = \"Soft Targt\", count = 2 }}]\n",
        super::super::tests::VECTORS
    );
    let e =
        Catalogue::from_read("t", &[SourceFile { name: "t.toml".into(), text }], Vec::new()).unwrap_err().to_string();
    assert!(e.contains("units[0].build") && e.contains("Soft Target"), "{e}");
}
