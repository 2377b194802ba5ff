//! `volley meta`: the matchup matrix of named players and its mixed equilibrium.

use super::*;

fn meta_json(args: &[&str]) -> serde_json::Value {
    let out = volley().arg("meta").args(args).args(["--format", "json", "-q"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn share(j: &serde_json::Value, name: &str) -> f64 {
    j["shares"][name].as_f64().unwrap_or_else(|| panic!("no share of {name}: {j}"))
}

const THREE: [&str; 3] = ["Paladin Siege", "Troll Brawler", "Stingray Standard"];

#[test]
fn a_build_that_beats_every_other_takes_the_whole_meta_and_dominates_the_rest() {
    let j = meta_json(&[&THREE[..], &["--range", "12", "--trials", "2000", "--bootstrap", "50"]].concat());
    assert_eq!(share(&j, "Paladin Siege"), 1.0, "{j}");
    for n in &THREE[1..] {
        assert_eq!(share(&j, n), 0.0);
        assert_eq!(j["dominated"][n], "Paladin Siege", "{j}");
        assert!(j["value"][n].as_f64().unwrap() < 0.5, "{j}");
    }
    assert!(j["dominated"].get("Paladin Siege").is_none());
    assert!((j["game_value"].as_f64().unwrap() - 0.5).abs() < 1e-9);
    // The Stingray never beats the Paladin: its score's interval still leaves room above 0.
    let ci = &j["matrix_ci95"][2][0];
    assert_eq!(j["matrix"][2][0], 0.0, "{j}");
    assert!(ci[0].as_f64().unwrap() == 0.0 && ci[1].as_f64().unwrap() > 0.0, "{ci}");
    assert_eq!(j["replicator"]["final"]["Paladin Siege"].as_f64().unwrap().round(), 1.0);
}

#[test]
fn a_meta_is_bit_identical_on_one_thread_and_on_two() {
    let base = [&THREE[..], &["--range", "24", "--trials", "500", "--bootstrap", "40"]].concat();
    let one = volley().arg("meta").args(&base).args(["--threads", "1", "--format", "json", "-q"]).output().unwrap();
    let two = volley().arg("meta").args(&base).args(["--threads", "2", "--format", "json", "-q"]).output().unwrap();
    assert!(one.status.success());
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn meta_refuses_what_it_cannot_solve_before_playing() {
    let cases: [&[&str]; 4] = [
        &["Paladin Siege"],
        &["Paladin Siege", "Paladin Siege"],
        &["Paladin Siege", "Troll Brawler", "--start", "1,2,3"],
        &["Paladin Siege", "No Such Build"],
    ];
    let expect = ["at least two players", "named twice", "--start gives 3 weights for 2 players", "No Such Build"];
    for (args, msg) in cases.iter().zip(expect) {
        let out = volley().arg("meta").args(*args).args(["--trials", "10", "-q"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn meta_diff_shows_a_stronger_weapon_moving_the_equilibrium() {
    let dir = tempfile::tempdir().unwrap();
    let old = super::diff::devastator_damage(dir.path(), 8);
    let new = super::diff::devastator_damage(dir.path(), 30);
    let players = ["Dwarf ALPHA", "Pigeonhawk Standard", "Troll Brawler", "Beagle Hunter"];
    let out = volley()
        .arg("meta")
        .args(players)
        .args(["--range", "12", "--trials", "2000", "--bootstrap", "20", "--format", "json", "-q", "--diff"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    // The Dwarf carries two Devastators: at damage 30 it takes the meta from the Beagle.
    assert_eq!(share(&j["old"], "Dwarf ALPHA"), 0.0, "{j}");
    assert_eq!(share(&j["new"], "Dwarf ALPHA"), 1.0, "{j}");
    let changes = j["changes"].as_array().unwrap();
    assert_eq!(changes.len(), players.len());
    let size: Vec<f64> = changes.iter().map(|c| c["change"].as_f64().unwrap().abs()).collect();
    assert!(size.windows(2).all(|w| w[0] >= w[1]), "changes ranked by size: {size:?}");
    assert_eq!(changes[0]["change"].as_f64().unwrap().abs(), 1.0);
}

#[test]
fn meta_out_writes_its_tables_atomically_beside_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let run = volley()
        .arg("meta")
        .args(THREE)
        .args(["--trials", "200", "--bootstrap", "10", "--generations", "3", "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8_lossy(&run.stdout);
    assert!(text.contains("equilibrium") && text.contains("Paladin Siege"), "{text}");
    for t in ["meta_shares", "meta_matrix", "meta_replicator"] {
        assert!(out.join(format!("{t}.csv")).is_file() && out.join(format!("{t}.parquet")).is_file(), "{t}");
    }
    let csv = fs::read_to_string(out.join("meta_replicator.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 3 * 4, "header and 3 players x 4 generations:\n{csv}");
}

#[test]
fn meta_names_the_matchups_a_player_cannot_reach() {
    // MECHCOM at range 3: no Kerberos weapon reaches the Sentinel
    let out = volley()
        .args(["--ruleset", "mechcom", "meta", "Sentinel", "Kerberos", "--range", "3", "--trials", "200", "-q"])
        .args(["--bootstrap", "10", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let pairs = j["cannot_attack"].as_array().unwrap();
    assert!(pairs.iter().any(|p| p["player"] == "Kerberos" && p["opponent"] == "Sentinel"), "{j}");
}

#[test]
fn the_header_names_only_the_conditions_changed_from_the_defaults() {
    // MECHCOM's flags (attacker conditions, barrage dice) default to values other than
    // false: at their defaults they are not named.
    let run = |args: &[&str]| {
        let out = volley().args(args).args(["--trials", "20", "--bootstrap", "0", "-q"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string()
    };
    let plain = run(&["--ruleset", "mechcom", "meta", "Wasp", "Sentinel"]);
    assert!(plain.contains("at the default conditions:"), "{plain}");
    let moved = run(&["--ruleset", "mechcom", "meta", "Wasp", "Sentinel", "--range", "5"]);
    assert!(moved.contains("at range=5:"), "{moved}");
}
