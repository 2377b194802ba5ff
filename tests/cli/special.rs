//! `volley odds --mode ram|death-from-above|overrun|trample`: one exact row per attacker
//! (the special attack is its own system), refusals naming the rule, odds only.

use super::*;

const EPS: f64 = 1e-12;

/// A jump MSV (AC3, speed 12) and its build, added to the built-in catalogue.
const HOPPER: &str = r#"[[unit]]
name = "Hopper"
kind = "msv"
ac = 3
speed = 12
free_weight = 13
free_power = 26
abilities = ["Jump"]

[[build]]
name = "Hopper Standard"
unit = "Hopper"
weapons = [{ name = "Ripper Autocannon", count = 1 }]
"#;

fn row(args: &[&str]) -> serde_json::Value {
    let json = json_of(&[args, &["--format", "json"]].concat());
    let rows = json.as_array().expect("rows");
    assert_eq!(rows.len(), 1, "one row per attacker: {json}");
    rows[0].clone()
}

fn num(v: &serde_json::Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} missing in {v}"))
}

fn refused(args: &[&str], code: i32, needle: &str) {
    let out = volley().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: no `{needle}` in {err}");
}

#[test]
fn ram_row_is_exact() {
    // Gladiator (AC4, speed 10) rams a Stingray (AC2 vehicle): T = 10 + 2 + FC 2 = 14;
    // kill when 4 × d20 / 2 >= 20 (d20 >= 10): 14/20 × 11/20; the rammer loses
    // ceil(4 d / 2) / 4 = floor(d / 2), 5 on average.
    let r = row(&["odds", "--attacker", "Gladiator Lancer", "--target", "Stingray", "--mode", "ram", "--range", "5"]);
    assert_eq!(r["attack"], "Ram");
    assert_eq!(r["target_number"], 14);
    assert!(r["dodge_target"].is_null());
    assert!((num(&r, "p_hit") - 0.7).abs() < EPS);
    assert!((num(&r, "p_kill") - 0.7 * 11.0 / 20.0).abs() < EPS);
    assert!((num(&r, "expected_self_loss") - 0.7 * 5.0).abs() < EPS);
    assert_eq!(num(&r, "p_self_eliminated"), 0.0);
    let total: f64 = r["outcomes"].as_array().unwrap().iter().map(|o| o["p"].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < EPS);
    assert_eq!(r["conditions"]["mode"], "ram");
    // Smoke costs a ram its fire control (SMOKE_CLOSE), the option switches it back.
    let args = [
        "odds",
        "--attacker",
        "Gladiator Lancer",
        "--target",
        "Stingray",
        "--mode",
        "ram",
        "--range",
        "5",
        "--smoke",
        "smoke",
    ];
    assert_eq!(row(&args)["target_number"], 12);
    assert_eq!(row(&[&args[..], &["--option", "SMOKE_CLOSE=ignored"]].concat())["target_number"], 14);
}

#[test]
fn overrun_and_trample_rows_use_the_dodge() {
    // AC4 over an ECBS troop: dodge on 12, then 4 × d20 >= 20 (d20 >= 5).
    let base = ["odds", "--attacker", "Gladiator Lancer", "--target", "ECBS Troop", "--range", "5"];
    for mode in ["overrun", "trample"] {
        let r = row(&[&base[..], &["--mode", mode]].concat());
        assert_eq!(r["dodge_target"], 12, "{mode}");
        assert!(r["target_number"].is_null());
        assert!((num(&r, "p_hit") - 0.4).abs() < EPS, "{mode}");
        assert!((num(&r, "p_kill") - 8.0 / 25.0).abs() < EPS, "{mode}");
        assert_eq!(num(&r, "expected_self_loss"), 0.0);
    }
    let csv = stdout_of(&[&base[..], &["--mode", "trample", "--format", "csv"]].concat());
    assert!(csv.starts_with("attacker,attack,target,target_ac,target_number,dodge_target,p_hit,"), "{csv}");
    assert_eq!(csv.lines().count(), 2, "{csv}");
}

#[test]
fn death_from_above_needs_a_jump_msv() {
    let dir = catalogue_dir(&[("hopper.toml", HOPPER)]);
    let add = dir.path().to_str().unwrap();
    // AC3 on a Gladiator (AC4): T 14, kill only on a damage d20 of 20: 14/20 × 1/20; the
    // landing d20 costs floor(d / 3), 3.15 on average.
    let r = row(&[
        "odds",
        "--add-loadouts",
        add,
        "--attacker",
        "Hopper Standard",
        "--target",
        "Gladiator",
        "--mode",
        "death-from-above",
        "--range",
        "12",
    ]);
    assert_eq!(r["target_number"], 14);
    assert!((num(&r, "p_kill") - 7.0 / 200.0).abs() < EPS);
    assert!((num(&r, "expected_self_loss") - 0.7 * 3.15).abs() < EPS);
    let dfa = ["odds", "--attacker", "Gladiator Lancer", "--target", "Stingray", "--mode", "death-from-above"];
    refused(&dfa, 1, "ability `Jump`");
}

#[test]
fn illegal_and_out_of_reach_special_attacks_are_refused() {
    let odds = |target: &str, mode: &str, range: &str| {
        ["odds", "--attacker", "Gladiator Lancer", "--target", target, "--mode", mode, "--range", range]
            .map(String::from)
    };
    let run = |args: [String; 9], code: i32, needle: &str| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&refs, code, needle);
    };
    run(odds("ECBS Troop", "ram", "0"), 1, "Ram targets an MSV, a vehicle or terrain");
    run(odds("Stingray", "trample", "0"), 1, "Trample targets troops or crew");
    run(odds("Stingray", "ram", "11"), 1, "REACH_RULE");
    run(odds("ECBS Troop", "trample", "6"), 1, "half speed");
    let vehicle = ["odds", "--attacker", "Stingray Standard", "--target", "ECBS Troop", "--mode", "trample"];
    refused(&vehicle, 1, "Trample is made by an MSV");
    let weapon = ["odds", "--attacker", "Gladiator Lancer", "--weapon", "Devastator", "--target", "Stingray"];
    refused(&[&weapon[..], &["--mode", "ram"]].concat(), 1, "its own system");
    // The gap between adjacent units lets the same ram reach.
    let far = ["odds", "--attacker", "Gladiator Lancer", "--target", "Stingray", "--mode", "ram", "--range", "12"];
    assert!((num(&row(&[&far[..], &["--option", "ADJACENT_GAP=2"]].concat()), "p_hit") - 0.7).abs() < EPS);
    // Odds only: engagements refuse the special modes.
    refused(&["ttk", "--attacker", "Gladiator Lancer", "--target", "Stingray", "--mode", "ram"], 2, "odds-only");
    refused(&["duel", "Gladiator Lancer", "Troll Brawler", "--mode", "overrun"], 2, "odds-only");
}
