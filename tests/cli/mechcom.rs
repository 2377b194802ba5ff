//! MECHCOM end to end through the binary, on a catalogue that is not in the repository,
//! against exact values computed here independently: every face of every die
//! enumerated for one attack, and a plain dynamic programme over Integrity for attack
//! runs and duels (mechcom.md §1, §2, §7). Monte Carlo must agree with them within
//! exact binomial bounds (Bonferroni over every probability checked).

use super::*;
use volley::stats::binomial::consistent;

/// Two plain shooters and a target: no perks, so the rules of §1-§2 alone decide.
const CATALOGUE: &str = r#"
[[weapon]]
name = "Test Cannon"
range = 6
damage = 2
attacks = 3

[[weapon]]
name = "Test Rifle"
range = 8
damage = 1
attacks = 4

[[mech]]
name = "Gunner"
faction = "Corpro"
cost = 200
energy = 6
movement = 4
sensors = 8
stability = 3
strength = 0
armour = 4
integrity = 9
weapons = ["Test Cannon"]

[[mech]]
name = "Plinker"
faction = "Corpro"
cost = 150
energy = 9
movement = 4
sensors = 8
stability = 4
strength = 0
armour = 3
integrity = 7
weapons = ["Test Rifle"]

[[mech]]
name = "Block"
faction = "Corpro"
cost = 250
energy = 6
movement = 3
sensors = 6
stability = 5
strength = 1
armour = 5
integrity = 8
weapons = ["Test Rifle"]
"#;

fn catalogue() -> tempfile::TempDir {
    catalogue_dir(&[("test.toml", CATALOGUE)])
}

fn mc(dir: &tempfile::TempDir, args: &[&str]) -> Vec<String> {
    let mut v: Vec<String> =
        ["--ruleset", "mechcom", "--loadouts", dir.path().to_str().unwrap()].iter().map(|s| s.to_string()).collect();
    v.extend(args.iter().map(|s| s.to_string()));
    v
}

fn json(dir: &tempfile::TempDir, args: &[&str]) -> serde_json::Value {
    let v = mc(dir, args);
    json_of(&v.iter().map(String::as_str).collect::<Vec<_>>())
}

/// P(Integrity lost = l) of one shooting attack: `dice` d6 at effective Stability `s`
/// (a 6 is a crit worth 2 hits; a face >= s otherwise 1 hit), each hit an armour roll
/// that costs `damage` on a face >= `armour`. Enumerates every face of every die.
fn shooting_law(dice: u32, s: i32, armour: i32, damage: u32) -> Vec<f64> {
    let mut hits = vec![0.0f64; 2 * dice as usize + 1];
    let total = 6u32.pow(dice);
    for code in 0..total {
        let (mut c, mut h) = (code, 0usize);
        for _ in 0..dice {
            let face = (c % 6) as i32 + 1;
            c /= 6;
            h += if face == 6 { 2 } else { usize::from(face >= s) };
        }
        hits[h] += 1.0 / total as f64;
    }
    let q = (7 - armour).clamp(0, 6) as f64 / 6.0;
    let mut loss = vec![0.0f64; 2 * dice as usize * damage as usize + 1];
    for (h, &ph) in hits.iter().enumerate() {
        for k in 0..=h {
            let choose = (0..k).fold(1.0, |acc, i| acc * (h - i) as f64 / (i + 1) as f64);
            loss[k * damage as usize] += ph * choose * q.powi(k as i32) * (1.0 - q).powi((h - k) as i32);
        }
    }
    loss
}

/// P(destroyed by the end of round r+1) of an inert target of `integrity` taking
/// `attacks` attacks a round, each with loss law `law`.
fn run_law(law: &[f64], attacks: usize, integrity: usize, rounds: usize) -> Vec<f64> {
    let mut alive = vec![0.0f64; integrity + 1];
    alive[integrity] = 1.0;
    let mut dead = 0.0;
    let mut out = Vec::new();
    for _ in 0..rounds {
        for _ in 0..attacks {
            let mut next = vec![0.0f64; integrity + 1];
            for (life, &p) in alive.iter().enumerate().skip(1) {
                for (l, &pl) in law.iter().enumerate() {
                    if l >= life { dead += p * pl } else { next[life - l] += p * pl }
                }
            }
            alive = next;
        }
        out.push(dead);
    }
    out
}

fn floats(v: &serde_json::Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn rulesets_lists_techcommander_and_mechcom_with_axes_options_and_defaults() {
    let all = json_of(&["rulesets", "--format", "json"]);
    let names: Vec<&str> = all.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["techcommander", "mechcom", "skirmishers", "shellshock"]);
    let m = &all[1];
    let axes: Vec<&str> = m["axes"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(axes, ["range", "cover", "engaged", "levels_above", "spot_tokens", "target_conditions"]);
    assert_eq!(m["axes"][1]["values"], serde_json::json!(["none", "half", "soft", "total"]));
    let options = m["options"].as_array().unwrap();
    assert!(options.iter().any(|o| o["name"] == "SIX_ALWAYS_CRITS" && o["default"] == "true"), "{options:?}");
    assert_eq!(m["turn"], "round");
    assert!(stdout_of(&["rulesets"]).contains("mechcom"));
}

#[test]
fn odds_of_one_attack_match_every_face_enumerated() {
    let dir = catalogue();
    // Gunner (Stability 3) shoots Block (Armour 5) at 3 hexes: engaged +2, half cover
    // +2, one spot token -1: S = 6.
    let cases: [(&[&str], i32); 3] =
        [(&[], 3), (&["--cover", "half"], 5), (&["--cover", "half", "--engaged", "--spot-tokens", "1"], 6)];
    for (extra, s) in cases {
        let mut args = vec!["odds", "--attacker", "Gunner", "--target", "Block", "--range", "3", "--format", "json"];
        args.extend_from_slice(extra);
        let j = json(&dir, &args);
        let row = &j[0];
        assert_eq!(row["weapon"], "Test Cannon");
        assert_eq!(row["stability"], s, "{extra:?}");
        assert_eq!(row["dice"], 3);
        let law = shooting_law(3, s, 5, 2);
        let dist = row["integrity_loss_distribution"].as_object().unwrap();
        for (l, &p) in law.iter().enumerate() {
            let got = dist.get(&l.to_string()).and_then(|v| v.as_f64()).unwrap_or(0.0);
            assert!((got - p).abs() < 1e-12, "{extra:?} loss {l}: {got} vs {p}");
        }
        let mean: f64 = law.iter().enumerate().map(|(l, p)| l as f64 * p).sum();
        assert!((row["expected_integrity_loss"].as_f64().unwrap() - mean).abs() < 1e-12);
        let p_destroy: f64 = law.iter().skip(8).sum();
        assert!((row["p_destroy"].as_f64().unwrap() - p_destroy).abs() < 1e-12);
        // per die: faces s..=5 one hit each, a 6 two hits
        let e_hits = 3.0 * ((6 - s).max(0) as f64 / 6.0 + 2.0 / 6.0);
        assert!((row["expected_hits"].as_f64().unwrap() - e_hits).abs() < 1e-12, "{extra:?}");
    }
    // Out of range: no attack, said so.
    let j = json(&dir, &["odds", "--attacker", "Gunner", "--target", "Block", "--range", "7", "--format", "json"]);
    assert!(j[0]["no_attack"].as_str().unwrap().contains("out of range"), "{j}");
}

#[test]
fn attack_runs_exact_and_monte_carlo_agree_with_an_independent_chain() {
    let dir = catalogue();
    // Gunner: Energy 6 = two attacks a round; Plinker (Armour 3, Integrity 7) at 4 hexes.
    let law = shooting_law(3, 3, 3, 2);
    let expected = run_law(&law, 2, 7, 8);
    let exact = json(
        &dir,
        &[
            "ttk",
            "--attacker",
            "Gunner",
            "--target",
            "Plinker",
            "--range",
            "4",
            "--max-turns",
            "8",
            "--exact",
            "--format",
            "json",
        ],
    );
    let got = floats(&exact["p_kill_by_turn"]);
    for (r, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!((g - e).abs() < 1e-12, "round {}: {g} vs {e}", r + 1);
    }
    assert_eq!(exact["turn"], "round");
    let n = 40_000u64;
    let sim = json(
        &dir,
        &[
            "ttk",
            "--attacker",
            "Gunner",
            "--target",
            "Plinker",
            "--range",
            "4",
            "--max-turns",
            "8",
            "--trials",
            "40000",
            "--seed",
            "5",
            "--quiet",
            "--format",
            "json",
        ],
    );
    let by_round = floats(&sim["p_kill_by_turn"]);
    let alpha = 1e-6 / expected.len() as f64;
    for (r, (&p, &e)) in by_round.iter().zip(&expected).enumerate() {
        let k = (p * n as f64).round() as u64;
        assert!(consistent(k, n, e, alpha), "round {}: {k}/{n} vs exact {e}", r + 1);
    }
    // The check can fail: the exact law of a target with two more Integrity (losses come
    // in steps of 2, so 8 would die exactly like 7) is refused.
    let wrong = run_law(&law, 2, 9, 8);
    let refused = by_round.iter().zip(&wrong).any(|(&p, &e)| !consistent((p * n as f64).round() as u64, n, e, alpha));
    assert!(refused, "the bounds are too loose to tell Integrity 7 from 9");
}

#[test]
fn duels_of_independent_sides_agree_with_the_exact_roll_off_formula() {
    let dir = catalogue();
    // Gunner (S3, two attacks a round) vs Plinker (S4, three attacks a round of Test
    // Rifle: 4 dice, damage 1) at 5 hexes: neither changes the other's state.
    let rounds = 10;
    let ta = run_law(&shooting_law(3, 3, 3, 2), 2, 7, rounds);
    let tb = run_law(&shooting_law(4, 4, 4, 1), 3, 9, rounds);
    let on = |t: &[f64], r: usize| t[r] - if r == 0 { 0.0 } else { t[r - 1] };
    let p_a: f64 = (0..rounds).map(|r| on(&ta, r) * ((1.0 - tb[r]) + 0.5 * on(&tb, r))).sum();
    let p_b: f64 = (0..rounds).map(|r| on(&tb, r) * ((1.0 - ta[r]) + 0.5 * on(&ta, r))).sum();
    let n = 40_000u64;
    let j = json(
        &dir,
        &[
            "duel",
            "Gunner",
            "Plinker",
            "--range",
            "5",
            "--max-turns",
            "10",
            "--trials",
            "40000",
            "--quiet",
            "--format",
            "json",
        ],
    );
    let count = |k: &str| (j[k].as_f64().unwrap() * n as f64).round() as u64;
    assert!(consistent(count("p_a_wins"), n, p_a, 1e-6), "A wins {} vs exact {p_a}", j["p_a_wins"]);
    assert!(consistent(count("p_b_wins"), n, p_b, 1e-6), "B wins {} vs exact {p_b}", j["p_b_wins"]);
    assert_eq!(j["ruleset"], "mechcom");
    // `--exact` gives the formula's values (the ruleset's solver, computed its own way).
    let e =
        json(&dir, &["duel", "Gunner", "Plinker", "--range", "5", "--max-turns", "10", "--exact", "--format", "json"]);
    assert_eq!(e["method"], "exact");
    assert!((e["p_a_wins"].as_f64().unwrap() - p_a).abs() < 1e-12, "{} vs {p_a}", e["p_a_wins"]);
    assert!((e["p_b_wins"].as_f64().unwrap() - p_b).abs() < 1e-12, "{} vs {p_b}", e["p_b_wins"]);
    assert!((j["exact"]["p_a_wins"].as_f64().unwrap() - p_a).abs() < 1e-12, "the Monte Carlo JSON carries it");
}

#[test]
fn sweep_writes_the_common_tables_and_attack_odds_as_parquet_and_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(dir.path())
        .args(["sweep", "mechcom-quick", "--out", "r", "--trials", "2000", "--quiet", "--no-charts"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = dir.path().join("r");
    for t in ["time_to_kill", "ttk_by_turn", "cost_efficiency", "attack_odds"] {
        assert!(r.join(format!("{t}.parquet")).exists() && r.join(format!("{t}.csv")).exists(), "{t}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(r.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["ruleset"], "mechcom");
    assert_eq!(manifest["turn"], "round");
    assert!(manifest["options"]["SIX_ALWAYS_CRITS"] == "true", "options recorded: {}", manifest["options"]);
    let ttk = fs::read_to_string(r.join("time_to_kill.csv")).unwrap();
    let header = ttk.lines().next().unwrap();
    assert!(
        header.starts_with(
            "ruleset,attacker,target,target_integrity,range,cover,engaged,levels_above,spot_tokens,target_conditions,"
        ),
        "{header}"
    );
    assert!(ttk.lines().nth(1).unwrap().starts_with("mechcom,"));
}

#[test]
fn a_scenarios_ruleset_key_wins_and_a_ruling_changes_the_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let scenario =
        "ruleset = \"mechcom\"\nname = \"s\"\ntrials = 3000\nattackers = [\"Wasp\"]\ntargets = [\"Kerberos\"]\n";
    fs::write(dir.path().join("s.toml"), scenario).unwrap();
    let run = |extra: &[&str], out: &str| {
        let mut args = vec!["--ruleset", "techcommander", "sweep", "s.toml", "--out", out, "--quiet", "--no-charts"];
        args.extend_from_slice(extra);
        let o = volley().current_dir(dir.path()).args(&args).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        fs::read_to_string(dir.path().join(out).join("time_to_kill.csv")).unwrap()
    };
    let plain = run(&[], "a");
    assert!(plain.lines().nth(1).unwrap().starts_with("mechcom,Wasp,Kerberos"), "{plain}");
    let strict = run(&["--option", "SIX_ALWAYS_CRITS=false"], "b");
    assert_ne!(plain, strict, "a ruling is part of the cell key and of the rules");
    // An unknown ruling is a usage error naming the nearest.
    let o = volley()
        .args([
            "--ruleset",
            "mechcom",
            "--option",
            "SIX_ALWAYS_CRIT=false",
            "ttk",
            "--attacker",
            "Wasp",
            "--target",
            "Kerberos",
            "--exact",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("SIX_ALWAYS_CRITS"));
}

#[test]
fn compare_pairs_mechcom_sides_and_exact_comparison_has_zero_width() {
    let dir = catalogue();
    let j = json(
        &dir,
        &["compare", "Gunner", "Block", "--target", "Plinker", "--range", "4", "--exact", "--format", "json"],
    );
    let a = run_law(&shooting_law(3, 3, 3, 2), 2, 7, 20);
    let turns = |t: &[f64]| {
        (0..t.len()).map(|r| (r + 1) as f64 * (t[r] - if r == 0 { 0.0 } else { t[r - 1] })).sum::<f64>()
            + 21.0 * (1.0 - t[t.len() - 1])
    };
    assert!((j["overall"]["a"].as_f64().unwrap() - turns(&a)).abs() < 1e-9, "{}", j["overall"]);
    assert_eq!(j["overall"]["difference_ci95"][0], j["overall"]["difference_ci95"][1]);
    let m = json(
        &dir,
        &[
            "compare", "Gunner", "Block", "--target", "Plinker", "--range", "4", "--trials", "20000", "--quiet",
            "--format", "json",
        ],
    );
    let o = &m["overall"];
    let (lo, hi) = (o["difference_ci95"][0].as_f64().unwrap(), o["difference_ci95"][1].as_f64().unwrap());
    let exact_d = j["overall"]["difference"].as_f64().unwrap();
    assert!(lo <= exact_d && exact_d <= hi, "{lo}..{hi} vs {exact_d}");
    assert!(o["paired_to_independent_width"].as_f64().unwrap() < 1.0, "pairing narrows the interval: {o}");
}

#[test]
fn engagements_a_ruleset_cannot_play_say_so() {
    let out = volley()
        .args(["--ruleset", "mechcom", "odds", "--attacker", "Typhon", "--target", "Kerberos", "--smoke", "smoke"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "TechCommander's flags are not MECHCOM's");
}

#[test]
fn validate_catalog_and_gauntlet_work_for_mechcom() {
    let ok = stdout_of(&["--ruleset", "mechcom", "validate"]);
    assert!(ok.starts_with("OK: ") && ok.contains("mechs") && ok.contains("squads"), "{ok}");
    let mechs = stdout_of(&["--ruleset", "mechcom", "catalog", "--format", "csv"]);
    assert!(mechs.starts_with("name,faction,cost,") && mechs.contains("Typhon,HERAKLES,240,"), "{mechs}");
    let out = volley().args(["--ruleset", "mechcom", "catalog", "builds"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "TechCommander's listing is not MECHCOM's");
    // An addition that names a mech it does not define is checked against the catalogue.
    let dir = catalogue_dir(&[(
        "extra.toml",
        "[[mech]]\nname = \"Twin\"\nfaction = \"HERAKLES\"\ncost = 200\nenergy = 6\nmovement = 4\nsensors = 6\nstability = 4\nstrength = 0\narmour = 4\nintegrity = 9\nweapons = [\"Prometheus Model Flamethrower\"]\n",
    )]);
    let ok = stdout_of(&["--ruleset", "mechcom", "validate", dir.path().to_str().unwrap()]);
    assert!(ok.contains("additions from"), "{ok}");
    let work = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(work.path())
        .args(["--ruleset", "mechcom", "gauntlet", "Kerberos", "Sentinel", "--field", "arena", "--range", "3"])
        .args(["--trials", "3000", "--quiet", "--no-charts", "--out", "g"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let summary = fs::read_to_string(work.path().join("g/gauntlet_summary.csv")).unwrap();
    assert!(summary.starts_with("ruleset,build,points,"), "{summary}");
    assert_eq!(summary.lines().filter(|l| l.starts_with("mechcom,")).count(), 2, "{summary}");
    let matchups = fs::read_to_string(work.path().join("g/gauntlet_matchups.csv")).unwrap();
    assert!(
        matchups.lines().next().unwrap().contains("range,cover,engaged,levels_above,spot_tokens,target_conditions")
    );
}

#[test]
fn an_artillery_mech_spots_for_itself_in_attack_runs_as_in_duels() {
    // The Pythia's Longbow Mortar (Artillery) fires only with a Spot token; at 10 hexes
    // the Kerberos cannot reach it, so its attack run is the duel's win law.
    let ttk = |extra: &[&str]| {
        json_of(
            &[
                &[
                    "--ruleset",
                    "mechcom",
                    "ttk",
                    "--attacker",
                    "Pythia",
                    "--target",
                    "Kerberos",
                    "--range",
                    "10",
                    "--format",
                    "json",
                ],
                extra,
            ]
            .concat(),
        )
    };
    let run = ttk(&["--exact"]);
    let duel = json_of(&[
        "--ruleset",
        "mechcom",
        "duel",
        "Pythia",
        "Kerberos",
        "--range",
        "10",
        "--exact",
        "--format",
        "json",
    ]);
    let (p_kill, p_win) = (run["p_kill"].as_f64().unwrap(), duel["p_a_wins"].as_f64().unwrap());
    assert!(p_kill > 0.5 && (p_kill - p_win).abs() < 1e-9, "run {p_kill}, duel {p_win}");
    assert!(run["played"].to_string().contains("Spot action"), "{run}");
    let never = ttk(&["--exact", "--option", "SPOT_ACTION=never"]);
    assert_eq!(never["p_kill"].as_f64(), Some(0.0), "{never}");
    let mc = ttk(&["--trials", "20000", "--seed", "3"]);
    assert!(
        mc["p_kill_ci95"][0].as_f64().unwrap() <= p_kill && p_kill <= mc["p_kill_ci95"][1].as_f64().unwrap(),
        "{mc}"
    );
    // The one-sided check counts the Pythia's Spot: only the Kerberos cannot attack.
    let text = stdout_of(&["--ruleset", "mechcom", "duel", "Pythia", "Kerberos", "--range", "10", "--exact"]);
    assert!(text.contains("one-sided: Kerberos cannot attack Pythia"), "{text}");
}
