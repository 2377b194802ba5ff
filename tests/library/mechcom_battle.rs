//! MECHCOM squad battles through the ruleset boundary and the engine: one model a side
//! against the duel's exact odds, mirror battles, budgets, the round cap, determinism
//! across thread counts, and the `[[force]]` catalogue section.

use volley::catalogue::force::ForceSpec;
use volley::catalogue::source::SourceFile;
use volley::engine::battle::BattleTally;
use volley::engine::{Cell, RunConfig, Silent, Trials, run};
use volley::rules::battle::BattleSetup;
use volley::rules::mechcom::catalogue::{CatalogErrors, Catalogue};
use volley::rules::mechcom::report::Setting;
use volley::rules::mechcom::{Conditions, Mechcom, Options, RunPolicy, Situation};
use volley::rules::ruleset::{Battles, prelude::*};
use volley::stats::binomial::consistent;
use volley::stats::tolerance::FAMILY_ALPHA;

fn setting(range: u32) -> Setting {
    Setting { sit: Situation::at_range(range), attacker: Conditions::NONE, target: Conditions::NONE }
}

fn battle(
    cat: &Catalogue,
    forces: &[ForceSpec],
    range: u32,
    policy: Option<&str>,
    max_turns: Option<u32>,
) -> Result<<Mechcom as Battles>::Battle, String> {
    let conditions = [setting(range)];
    let setup =
        BattleSetup { mode: "squad", forces, conditions: &conditions, options: &Options::default(), policy, max_turns };
    Mechcom::battle(cat, &setup).map(|(b, _)| b)
}

fn play(b: &<Mechcom as Battles>::Battle, seed: u64, trials: u64, threads: usize, batch: u32) -> BattleTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), threads: Some(threads), batch_streams: batch };
    run(&[Cell { key: 3, kernel: b }], &cfg, &Silent).unwrap().remove(0)
}

fn text(f: &str) -> ForceSpec {
    ForceSpec::parse(f).unwrap()
}

#[test]
fn one_model_a_side_matches_the_exact_duel() {
    // Duels whose sides cannot change each other's state have exact odds; the battle of
    // the same two models must agree within an exact binomial test (family level
    // FAMILY_ALPHA over the 3 × 3 counts).
    let cat = Catalogue::embedded().unwrap();
    let o = Options::default();
    let trials = 60_000;
    for (a, b, range) in [("Wasp+Rook", "Wasp", 6), ("Sentinel", "Wasp+Rook", 6), ("Bulwark", "Wasp", 5)] {
        let duel = Mechcom::duel(&cat, a, b, &setting(range), &o, RunPolicy::default(), 50).unwrap();
        let exact = Mechcom::exact_duel(&duel).expect("independent sides");
        let k = battle(&cat, &[text(a), text(b)], range, None, Some(50)).unwrap();
        let t = play(&k, 21, trials, 2, 4);
        assert_eq!(t.trials, trials);
        for (count, p, what) in [
            (t.wins[0], exact.p_a_wins, "A"),
            (t.wins[1], exact.p_b_wins, "B"),
            (t.undecided, exact.p_draw(), "undecided"),
        ] {
            assert!(consistent(count, trials, p, FAMILY_ALPHA / 9.0), "{a} vs {b}: {what} {count}/{trials}, exact {p}");
        }
        assert_eq!(t.draws, 0);
    }
}

#[test]
fn a_mirror_battle_is_even() {
    let cat = Catalogue::embedded().unwrap();
    let forces = Mechcom::forces(&cat);
    let names: Vec<&str> = forces.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["Kerberos Pack", "Hornet Lance", "Iron Wall"]);
    for (f, range) in [(&forces[0], 2), (&forces[1], 4), (&forces[2], 2)] {
        for policy in Mechcom::BATTLE_POLICIES {
            let k = battle(&cat, &[f.clone(), f.clone()], range, Some(policy), None).unwrap();
            let t = play(&k, 5, 12_000, 2, 1);
            let decided = t.wins[0] + t.wins[1];
            assert!(decided > 10_000, "{}: {:?}", f.name, t.wins);
            assert!(
                consistent(t.wins[0], decided, 0.5, FAMILY_ALPHA / 6.0),
                "{} ({policy}): {:?} of {decided}",
                f.name,
                t.wins
            );
        }
    }
}

#[test]
fn forces_over_budget_are_refused_naming_the_force_and_the_excess() {
    let cat = Catalogue::embedded().unwrap();
    let small = ForceSpec { budget: Some(800.0), ..Mechcom::forces(&cat)[1].clone() };
    let e = battle(&cat, &[small, text("Wasp")], 4, None, None).unwrap_err();
    assert!(e.contains("force `Hornet Lance` is over budget by 170"), "{e}");
    let e = battle(&cat, &[text("Wasp"), text("3*Sentinel+Wasp+Rook")], 4, None, None).unwrap_err();
    assert!(e.contains("force `3*Sentinel+Wasp+Rook` is over budget by 70"), "{e}");
}

#[test]
fn out_of_reach_battles_are_undecided_at_the_cap() {
    let cat = Catalogue::embedded().unwrap();
    let forces = Mechcom::forces(&cat);
    // No weapon reaches 40 hexes: nothing is ever destroyed.
    let k = battle(&cat, &[forces[0].clone(), forces[2].clone()], 40, Some("focus-highest-cost"), Some(9)).unwrap();
    let t = play(&k, 1, 5000, 1, 1);
    assert_eq!((t.undecided, t.trials), (5000, 5000));
    assert_eq!(t.turns_sum, 9 * 5000);
    assert_eq!(t.actions, vec![4 * 9 * 5000, 3 * 9 * 5000], "every model activates once a round");
    let s = t.summary();
    assert_eq!(s.p_undecided, 1.0);
    assert!(s.p_decided_by_turn.iter().all(|(p, _)| *p == 0.0));
    // The default cap is MAX_ROUNDS = 50.
    let k = battle(&cat, &[forces[0].clone(), forces[2].clone()], 40, None, None).unwrap();
    assert_eq!(play(&k, 1, 10, 1, 1).turns_sum, 500);
}

#[test]
fn the_same_seed_gives_the_same_tally_for_any_thread_count() {
    let cat = Catalogue::embedded().unwrap();
    let forces = Mechcom::forces(&cat);
    let k = battle(&cat, &[forces[0].clone(), forces[1].clone()], 3, None, None).unwrap();
    let trials = 3 * 4096 + 123;
    let one = play(&k, 77, trials, 1, 1);
    let two = play(&k, 77, trials, 2, 16);
    assert_eq!(one, two);
    assert_ne!(one, play(&k, 78, trials, 2, 1), "another seed, other numbers");
    assert!(one.kills.iter().sum::<u64>() > 0);
}

fn load(files: &[(&str, &str)]) -> Result<Catalogue, CatalogErrors> {
    let mut sources: Vec<SourceFile> = volley::catalogue::source::embedded("mechcom")
        .into_iter()
        .filter(|f| !f.name.ends_with("forces.toml"))
        .collect();
    sources.extend(files.iter().map(|(n, t)| SourceFile { name: n.to_string(), text: t.to_string() }));
    Catalogue::from_read("test", &sources, Vec::new())
}

#[test]
fn force_entries_are_checked_at_load() {
    let good = r#"
[[force]]
name = "Pair"
budget = 500
units = [{ build = "Wasp+Rook" }, { build = "Wasp" }]
"#;
    let cat = load(&[("f.toml", good)]).unwrap();
    assert_eq!(cat.forces.len(), 1);
    assert_eq!((cat.forces[0].budget, cat.forces[0].size()), (Some(500.0), 2));
    let bad = r#"
[[force]]
name = "Bad"
units = [
  { build = "Wasp" },
  { build = "Kerbros" },
  { build = "Wasp+Rok" },
  { build = "Wasp+Iris Kade", count = 2 },
]

[[force]]
name = "Empty"
units = []
colour = "red"
"#;
    let e: Vec<String> = match load(&[("f.toml", bad)]) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    };
    let expected = [
        "f.toml:6:3: force \"Bad\": field `units[1].build`: unknown mech `Kerbros` (did you mean `Kerberos`?)",
        "f.toml:7:3: force \"Bad\": field `units[2].build`: unknown pilot `Rok` (did you mean `Rook`?)",
        "f.toml:8:3: force \"Bad\": field `units[3].build`: pilot `Iris Kade` requires a HERAKLES mech; `Wasp` is I.C.S.E.",
    ];
    for x in expected {
        assert!(e.iter().any(|m| m == x), "missing {x}\nin {e:#?}");
    }
    assert!(e.iter().any(|m| m.contains("force \"Empty\"") && m.contains("colour")), "{e:#?}");
    assert!(e.iter().any(|m| m.contains("force \"Empty\"") && m.contains("at least one unit")), "{e:#?}");
}
