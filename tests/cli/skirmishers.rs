//! Skirmishers end to end through the binary, on a catalogue that is not in the
//! repository, against exact values computed here independently (a plain dynamic
//! programme over the set of fully crossed cells and the armour left, skirmishers.md
//! §1-§3), and Monte Carlo within exact binomial bounds of them.

use std::collections::HashMap;

use super::*;
use volley::stats::binomial::consistent;

const CATALOGUE: &str = r#"
[[weapon]]
name = "Test Carbine"
class = "primary"
lethal = 3
shots = 2
short = 10
long = 30
pv = 50

[[trooper]]
name = "Carbineer"
primary = "Test Carbine"
grenades = 0

[[trooper]]
name = "Vest"
body_armor = "basic"
primary = "Test Carbine"
grenades = 0
"#;

fn run(dir: &tempfile::TempDir, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--ruleset", "skirmishers", "--loadouts", dir.path().to_str().unwrap()];
    all.extend_from_slice(args);
    json_of(&all)
}

/// 36 x P(2D6 >= tn).
fn ways(tn: i32) -> u32 {
    (1..=6).flat_map(|a| (1..=6).map(move |b| a + b)).filter(|&s| s >= tn).count() as u32
}

/// One hit of `x` lethal on (full-cell mask over cells 10..0, armour) at initial roll `r`.
fn hit(mask: u16, armour: u32, x: u32, r: i32) -> (u16, u32) {
    let soak = armour.min(x);
    let mut left = x - soak;
    let mut m = mask;
    let mut i = (10 - r).max(0) as usize;
    while left > 0 && i < 11 {
        if m & (1 << i) == 0 {
            m |= 1 << i;
            left -= 1;
        }
        i += 1;
    }
    (m, armour - soak)
}

/// Out: the rightmost full cell is cell 1 (index 9) or cell 0 (index 10).
fn out(mask: u16) -> bool {
    mask >> 9 != 0
}

/// P(out by round k), k = 1..=rounds, one attack a round at `tn`.
fn exact_run(tn: i32, x: u32, armour: u32, rounds: usize) -> Vec<f64> {
    let p_hit = ways(tn) as f64 / 36.0;
    let mut dist: HashMap<(u16, u32), f64> = HashMap::from([((0, armour), 1.0)]);
    let mut by = Vec::new();
    for _ in 0..rounds {
        let mut next: HashMap<(u16, u32), f64> = HashMap::new();
        for (&(m, a), &p) in &dist {
            if out(m) {
                *next.entry((m, a)).or_default() += p;
                continue;
            }
            *next.entry((m, a)).or_default() += p * (1.0 - p_hit);
            for d1 in 1..=6 {
                for d2 in 1..=6 {
                    *next.entry(hit(m, a, x, d1 + d2)).or_default() += p * p_hit / 36.0;
                }
            }
        }
        dist = next;
        by.push(dist.iter().filter(|((m, _), _)| out(*m)).map(|(_, p)| p).sum());
    }
    by
}

#[test]
fn odds_match_an_independent_count() {
    let dir = catalogue_dir(&[("test.toml", CATALOGUE)]);
    // Long range (20 > 10) and one obstruction: 6 + 2 + 1 = 9.
    let j = run(
        &dir,
        &[
            "odds",
            "--attacker",
            "Carbineer",
            "--target",
            "Carbineer",
            "--range",
            "20",
            "--obstructions",
            "1",
            "--format",
            "json",
        ],
    );
    let row = &j.as_array().unwrap()[0];
    assert_eq!(row["weapon"], "Test Carbine");
    assert_eq!(row["target_number"], 9);
    assert!((row["p_hit"].as_f64().unwrap() - 10.0 / 36.0).abs() < 1e-12);
    let p_out = exact_run(9, 3, 0, 1)[0];
    assert!((row["p_out"].as_f64().unwrap() - p_out).abs() < 1e-12);
    let hp = row["hp_distribution"].as_object().unwrap();
    assert!((hp["out"].as_f64().unwrap() - p_out).abs() < 1e-12);
    assert!((hp["10"].as_f64().unwrap() - 26.0 / 36.0).abs() < 1e-12);
    let total: f64 = hp.values().map(|v| v.as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // The firer's damage: at HP 5 its Mods add +2 (TN 11).
    let j = run(
        &dir,
        &[
            "odds",
            "--attacker",
            "Carbineer",
            "--target",
            "Vest",
            "--range",
            "20",
            "--obstructions",
            "1",
            "--firer-hp",
            "5",
            "--format",
            "json",
        ],
    );
    assert_eq!(j[0]["target_number"], 11);
}

#[test]
fn advanced_terrain_conditions_need_their_switch() {
    let dir = catalogue_dir(&[("test.toml", CATALOGUE)]);
    let odds = ["odds", "--attacker", "Carbineer", "--target", "Carbineer", "--range", "20", "--format", "json"];
    // Tunnel combat +2 and a swimming target +1 on the long-range 8: 11, 3/36.
    let terrain = ["--tunnel", "--target-swimming"];
    let j = run(&dir, &[&["--option", "ADVANCED_TERRAIN=on"][..], &odds[..], &terrain[..]].concat());
    assert_eq!(j[0]["target_number"], 11);
    assert!((j[0]["p_hit"].as_f64().unwrap() - 3.0 / 36.0).abs() < 1e-12);
    // Without the switch the conditions are refused (not silently ignored).
    let out = volley()
        .args(["--ruleset", "skirmishers", "--loadouts", dir.path().to_str().unwrap()])
        .args(odds)
        .args(terrain)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "a usage error: {err}");
    assert!(err.contains("ADVANCED_TERRAIN=on") && err.contains("--tunnel"), "{err}");
}

#[test]
fn exact_and_monte_carlo_attack_runs_match_the_independent_chain() {
    let dir = catalogue_dir(&[("test.toml", CATALOGUE)]);
    let want = exact_run(8, 3, 2, 8);
    let e = run(
        &dir,
        &[
            "ttk",
            "--attacker",
            "Carbineer",
            "--target",
            "Vest",
            "--range",
            "20",
            "--max-turns",
            "8",
            "--exact",
            "--format",
            "json",
        ],
    );
    let got: Vec<f64> = e["p_kill_by_turn"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    for (g, w) in got.iter().zip(&want) {
        assert!((g - w).abs() < 1e-12, "{got:?} vs {want:?}");
    }
    let n = 40_000u64;
    let m = run(
        &dir,
        &[
            "ttk",
            "--attacker",
            "Carbineer",
            "--target",
            "Vest",
            "--range",
            "20",
            "--max-turns",
            "8",
            "--trials",
            "40000",
            "--format",
            "json",
        ],
    );
    let alpha = 1e-4 / 8.0;
    for (k, v) in m["p_kill_by_turn"].as_array().unwrap().iter().enumerate() {
        let kills = (v.as_f64().unwrap() * n as f64).round() as u64;
        assert!(consistent(kills, n, want[k], alpha), "round {}: {kills}/{n} vs {}", k + 1, want[k]);
    }
}

#[test]
fn duels_exact_and_monte_carlo_agree() {
    let dir = catalogue_dir(&[("test.toml", CATALOGUE)]);
    let args = [
        "duel",
        "Carbineer",
        "Vest",
        "--range",
        "8",
        "--option",
        "FIRST_SIDE=a",
        "--max-turns",
        "12",
        "--format",
        "json",
    ];
    let mut exact = args.to_vec();
    exact.push("--exact");
    let e = run(&dir, &exact);
    let mut mc = args.to_vec();
    mc.extend(["--trials", "40000"]);
    let m = run(&dir, &mc);
    let sum: f64 = ["p_a_wins", "p_b_wins", "p_draw"].iter().map(|k| e[k].as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9);
    for key in ["p_a_wins", "p_b_wins"] {
        let k = (m[key].as_f64().unwrap() * 40_000.0).round() as u64;
        assert!(consistent(k, 40_000, e[key].as_f64().unwrap(), 1e-4 / 2.0), "{key}");
    }
    // The vest's armour soaks the first hits: B wins more often than A.
    assert!(e["p_b_wins"].as_f64().unwrap() > e["p_a_wins"].as_f64().unwrap());
}

#[test]
fn a_sweep_writes_the_track_odds_table() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("r");
    volley()
        .args([
            "sweep",
            "scenarios/skirmishers-quick.toml",
            "--trials",
            "2000",
            "--no-charts",
            "--format",
            "csv",
            "--out",
        ])
        .arg(&dir)
        .assert()
        .success();
    let odds = fs::read_to_string(dir.join("track_odds.csv")).unwrap();
    let header = odds.lines().next().unwrap();
    for col in
        ["attacker", "weapon", "target", "range", "obstructions", "target_prone", "target_number", "p_hit", "p_out"]
    {
        assert!(header.split(',').any(|c| c == col), "{col} in {header}");
    }
    assert_eq!(odds.lines().count(), 1 + 288);
    assert!(dir.join("time_to_kill.csv").exists() && dir.join("cost_efficiency.csv").exists());
}

#[test]
fn a_bad_catalogue_reports_every_error() {
    let dir = catalogue_dir(&[("bad.toml", "[[trooper]]\nname = \"X\"\nprimary = \"Nothing\"\nhue = 1\n")]);
    let out = volley()
        .args(["--ruleset", "skirmishers", "--loadouts", dir.path().to_str().unwrap(), "validate"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.toml") && err.contains("primary") && err.contains("hue"), "{err}");
}

/// `volley --ruleset skirmishers battle`: one trooper a side, opening cold as the duel
/// does (`SQUAD_OPENING=cold`), is the duel (the battle's Monte Carlo inside exact
/// binomial bounds of `duel --exact`, draws at the cap as the duel's undecided), with
/// both sides' PV reported.
#[test]
fn a_squad_fight_of_one_trooper_a_side_follows_the_exact_duel() {
    let dir = catalogue_dir(&[("test.toml", CATALOGUE)]);
    let common = ["--range", "8", "--max-turns", "12", "--format", "json", "--option", "SQUAD_PV_TOLERANCE=100"];
    let mut exact = vec!["duel", "Carbineer", "Vest", "--exact"];
    exact.extend_from_slice(&common);
    let e = run(&dir, &exact);
    let mut battle =
        vec!["battle", "Carbineer", "Vest", "--trials", "40000", "--seed", "3", "-q", "--option", "SQUAD_OPENING=cold"];
    battle.extend_from_slice(&common);
    let b = run(&dir, &battle);
    assert_eq!(b["mode"], "squad-fight");
    assert_eq!(b["policy"], "roster");
    assert_eq!(b["sides"][0]["points"], 50.0);
    assert_eq!(b["sides"][1]["points"], 50.0);
    for (bk, ek) in [("p_a_wins", "p_a_wins"), ("p_b_wins", "p_b_wins"), ("p_draw", "p_draw")] {
        let k = (b[bk].as_f64().unwrap() * 40_000.0).round() as u64;
        assert!(consistent(k, 40_000, e[ek].as_f64().unwrap(), 1e-4 / 2.0), "{bk}: {} vs {}", b[bk], e[ek]);
    }
}

/// The built-in squads fight by name; unequal PV is refused naming both; the numbers do
/// not depend on the thread count.
#[test]
fn built_in_squads_fight_at_equal_pv_whatever_the_thread_count() {
    let args = |threads: &'static str| {
        vec![
            "--ruleset",
            "skirmishers",
            "battle",
            "Rifle squad",
            "5*Rifleman+Grenadier+Machine Gunner",
            "--range",
            "20",
            "--trials",
            "5000",
            "--seed",
            "9",
            "-q",
            "--format",
            "json",
            "--threads",
            threads,
        ]
    };
    let one = json_of(&args("1"));
    let two = json_of(&args("2"));
    assert_eq!(one, two);
    assert_eq!((one["sides"][0]["points"].as_f64(), one["sides"][1]["points"].as_f64()), (Some(1728.0), Some(1738.0)));
    let p = |k: &str| one[k].as_f64().unwrap();
    assert!((p("p_a_wins") + p("p_b_wins") + p("p_draw") + p("p_undecided") - 1.0).abs() < 1e-12);
    let out = volley().args(["--ruleset", "skirmishers", "battle", "Rifle squad", "Weapons squad"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("1728") && err.contains("2180"), "{err}");
}
