//! MECHCOM Heat through the binary (Typhon sheet: Programming, Red-Hot Reactor, Searing
//! Wave, Vent Coolant; "Superheated"; "Malfunctioning"; the HERAKLES AI table). Expected
//! values are worked out by hand from the book and the rulings `HEAT_PLAYED`,
//! `HEAT_POLICY`, `MALFUNCTION_ONE_ACTION` (the sums are in the comments).

use super::*;
use volley::stats::binomial::consistent;

fn with(dir: Option<&tempfile::TempDir>, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--ruleset", "mechcom"];
    if let Some(d) = dir {
        all.extend(["--loadouts", d.path().to_str().unwrap()]);
    }
    all.extend_from_slice(args);
    volley().args(&all).output().unwrap()
}

fn ok_json(dir: Option<&tempfile::TempDir>, args: &[&str]) -> serde_json::Value {
    let out = with(dir, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// A Programming mech with a Superheated brand that costs exactly 3 Integrity an attack
/// (melee, one die at Strength 6 against Strength 0: every die wins, and melee sixes
/// are not worth two), 10⚡, Vent Coolant; and an inert post of Integrity 27.
const FORGE: &str = r#"
[[weapon]]
name = "Brand"
range = "M"
damage = 3
attacks = 1
perks = ["Superheated"]

[[mech]]
name = "Forge"
faction = "HERAKLES"
cost = 200
energy = 10
movement = 4
sensors = 8
stability = 4
strength = 6
armour = 4
integrity = 10
weapons = ["Brand"]
abilities = ["Programming", "Vent Coolant"]

[[mech]]
name = "Post"
faction = "Corpro"
cost = 100
energy = 0
movement = 0
sensors = 0
stability = 6
strength = 0
armour = 4
integrity = 27
weapons = []
"#;

fn catalogue() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("forge.toml"), FORGE).unwrap();
    dir
}

fn p_by_round(j: &serde_json::Value) -> Vec<f64> {
    j["p_kill_by_turn"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).collect()
}

#[test]
fn programming_makes_the_sixth_superheated_attack_malfunction() {
    // Nine attacks of 3 kill the Post. ignore-heat: three a round (9⚡), Heat 6 on the
    // sixth attack, then each round a d6: a 6 (1/6) gives three attacks, else the AI
    // table's one. Killed by round 3 with 1/6, by round 4 with 1/6 + 5/36 = 11/36, by
    // round 5 always. The default vents at Heat 5 (1⚡ of the 10) and kills in round 3.
    // Before Heat was played every policy killed in round 3.
    let dir = catalogue();
    let run = ["ttk", "--attacker", "Forge", "--target", "Post", "--range", "1", "--exact", "--format", "json"];
    let ignore = ok_json(Some(&dir), &[&run[..], &["--option", "HEAT_POLICY=ignore-heat"]].concat());
    let want = [0.0, 0.0, 1.0 / 6.0, 11.0 / 36.0, 1.0];
    for (r, (&got, w)) in p_by_round(&ignore).iter().zip(want).enumerate() {
        assert!((got - w).abs() < 1e-12, "round {}: {got} vs {w}", r + 1);
    }
    let vent = ok_json(Some(&dir), &run);
    assert_eq!(p_by_round(&vent)[..3], [0.0, 0.0, 1.0]);
    // HEAT_PLAYED=false: the old reading, the Forge never malfunctions.
    let off = ok_json(
        Some(&dir),
        &[&run[..], &["--option", "HEAT_PLAYED=false", "--option", "HEAT_POLICY=ignore-heat"]].concat(),
    );
    assert_eq!(p_by_round(&off)[..3], [0.0, 0.0, 1.0]);
    // Monte Carlo plays the same law (the d6 of each Malfunctioning round included).
    let mc = ok_json(
        Some(&dir),
        &[
            "ttk",
            "--attacker",
            "Forge",
            "--target",
            "Post",
            "--range",
            "1",
            "--format",
            "json",
            "--option",
            "HEAT_POLICY=ignore-heat",
            "--trials",
            "100000",
            "--seed",
            "9",
            "-q",
        ],
    );
    let alpha = 1e-4 / want.len() as f64;
    for (k, (&p, &w)) in p_by_round(&mc).iter().zip(&want).enumerate() {
        let kills = (p * 100000.0).round() as u64;
        assert!(consistent(kills, 100000, w, alpha), "round {}: {p} vs {w}", k + 1);
    }
}

#[test]
fn the_typhon_no_longer_plans_three_flamethrower_attacks_every_round() {
    // The shipped Typhon (9⚡) at range 2: round 1 is its five Searing Waves (1⚡ each,
    // venting twice), round 2 three flamethrower attacks to Heat 5, then vent and two,
    // three, ...; in round 9, with no vent left, its one attack brings Heat to 6 and it
    // malfunctions: from round 10 its likeliest rounds are one AI-table attack each.
    let run = ["ttk", "--attacker", "Typhon", "--target", "Kerberos", "--range", "2", "--exact", "--format", "json"];
    let j = ok_json(None, &run);
    let plan = j["plan"].as_array().unwrap();
    let in_round = |r: u64| -> Vec<&str> {
        plan.iter().filter(|s| s["round"] == r).map(|s| s["weapon"].as_str().unwrap()).collect()
    };
    assert_eq!(in_round(1), vec!["Searing Wave"; 5]);
    let counts: Vec<usize> = (1..=11).map(|r| in_round(r).len()).collect();
    assert_eq!(counts, vec![5, 3, 2, 3, 2, 3, 2, 3, 1, 1, 1]);
    assert_eq!(in_round(10), vec!["Prometheus Model Flamethrower (AI table)"]);
    // Heat is played: no note says it is not.
    let notes = j["not_modelled"].as_array().unwrap();
    assert!(notes.iter().all(|n| !n.as_str().unwrap().contains("Heat")), "{notes:?}");
    // The exact law is a law: P(kill) within the cap is the sum by round, and the
    // Monte Carlo agrees with it within exact binomial bounds.
    let exact = p_by_round(&j);
    let mc = ok_json(
        None,
        &[
            "ttk",
            "--attacker",
            "Typhon",
            "--target",
            "Kerberos",
            "--range",
            "2",
            "--format",
            "json",
            "--trials",
            "100000",
            "--seed",
            "3",
            "-q",
        ],
    );
    let alpha = 1e-4 / exact.len() as f64;
    for (k, (&p, &e)) in p_by_round(&mc).iter().zip(&exact).enumerate() {
        let kills = (p * 100000.0).round() as u64;
        assert!(consistent(kills, 100000, e.min(1.0), alpha), "round {}: {p} vs {e}", k + 1);
    }
}

#[test]
fn the_heat_rulings_are_listed() {
    let out = volley().args(["rulesets"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for name in ["HEAT_PLAYED=true", "HEAT_POLICY=vent-before-overheat", "SEARING_WAVE_AS_SHOOTING=true"] {
        assert!(text.contains(name), "{name} missing");
    }
}

#[test]
fn duels_gauntlets_and_fits_play_the_typhon() {
    // Before Heat was played every duel of the Typhon was refused (exit 1), and `fit
    // --all` left its 16 matchups out.
    let j =
        ok_json(None, &["duel", "Typhon", "Kerberos", "--range", "2", "--trials", "4000", "-q", "--format", "json"]);
    let (a, b) = (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap());
    assert!(a > 0.05 && b > 0.05 && (a + b + j["p_draw"].as_f64().unwrap() - 1.0).abs() < 1e-12, "{j}");
    assert!(j["exact"].is_null(), "no exact chain with Heat: {j}");
    let fit = ok_json(None, &["fit", "--all", "--quiet", "--format", "json", "--trials", "4000"]);
    assert_eq!(fit["convergence"]["converged"], true, "{fit}");
    assert_eq!(fit["one_sided"].as_array().unwrap().len(), 0, "{fit}");
    let typhon = fit["rows"].as_array().unwrap().iter().find(|r| r["build"] == "Typhon").unwrap();
    assert_eq!(typhon["status"], "fitted", "{typhon}");
    // A battle of one Typhon against one Kerberos plays too.
    let out = with(None, &["battle", "Typhon", "Kerberos", "--trials", "200", "-q"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}
