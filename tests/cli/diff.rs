//! `volley diff OLD NEW`: catalogue changes per build and weapon, with paired intervals.

use super::*;

use std::path::{Path, PathBuf};

const CATALOGUE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander");

/// A copy of the built-in TechCommander catalogue with the Devastator's damage set to
/// `damage` (the catalogue's own is 8).
pub(crate) fn devastator_damage(dir: &Path, damage: u32) -> PathBuf {
    let out = dir.join(format!("devastator-{damage}"));
    fs::create_dir_all(&out).unwrap();
    for e in fs::read_dir(CATALOGUE).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml" || x == "csv") {
            let mut text = fs::read_to_string(&p).unwrap();
            if p.file_name().unwrap() == "weapons.toml" {
                let at = text.find("name = \"Devastator\"").unwrap();
                let d = at + text[at..].find("damage = 8").unwrap();
                text.replace_range(d..d + "damage = 8".len(), &format!("damage = {damage}"));
            }
            fs::write(out.join(p.file_name().unwrap()), text).unwrap();
        }
    }
    out
}

fn diff_json(old: &Path, new: &Path, scenario: &Path) -> Vec<serde_json::Value> {
    let out = volley()
        .arg("diff")
        .arg(old)
        .arg(new)
        .arg("--scenario")
        .arg(scenario)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()["rows"].as_array().unwrap().clone()
}

fn scenario(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(format!("{name}.toml"));
    fs::write(&p, format!("name = \"{name}\"\n{text}")).unwrap();
    p
}

const ATTACK: &str = r#"trials = 2000
attackers = ["Dwarf ALPHA", "Gladiator Skirmisher", "Beagle Hunter", "Pigeonhawk Standard"]
targets = ["Stingray", "Hunter IV", "ac:6"]
[grid]
range = [12, 27]
"#;

const DUEL: &str = r#"engagement = "duel"
trials = 20000
attackers = ["Dwarf ALPHA", "Beagle Hunter"]
opponents = ["Pigeonhawk Standard"]
[grid]
range = [12]
"#;

/// Rounding of the exact solvers' sums of probabilities (a few ulps of 1).
const ROUNDING: f64 = 1e-12;

fn f(row: &serde_json::Value, key: &str) -> f64 {
    row[key].as_f64().unwrap_or_else(|| panic!("{key} in {row}"))
}

#[test]
fn a_catalogue_diffed_with_itself_is_exactly_zero_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Path::new(CATALOGUE);
    for (name, text, method) in [("attack", ATTACK, "exact"), ("duel", DUEL, "monte-carlo")] {
        let rows = diff_json(cat, cat, &scenario(dir.path(), name, text));
        assert!(rows.len() >= 8, "{name}: {} rows", rows.len());
        for r in &rows {
            for key in ["build", "weapon", "metric", "old", "new", "difference", "difference_ci95"] {
                assert!(r.get(key).is_some(), "{name}: no {key} in {r}");
            }
            assert_eq!(r["method"], method, "{r}");
            if r["old"].is_null() {
                assert!(r["new"].is_null(), "{r}");
                continue;
            }
            assert_eq!(f(r, "difference"), 0.0, "{name}: {r}");
            assert_eq!(f(r, "old"), f(r, "new"), "{name}: {r}");
            if method == "exact" {
                assert_eq!(r["difference_ci95"], serde_json::json!([0.0, 0.0]), "{r}");
            } else {
                assert_eq!(r["changed_trials"], 0, "{r}");
                let ci = r["difference_ci95"].as_array().unwrap();
                assert!(ci[0].as_f64().unwrap() <= 0.0 && ci[1].as_f64().unwrap() >= 0.0, "{r}");
            }
        }
    }
    // Build rows carry a null weapon; weapon rows name theirs.
    let rows = diff_json(cat, cat, &dir.path().join("attack.toml"));
    assert!(rows.iter().any(|r| r["weapon"].is_null()) && rows.iter().any(|r| r["weapon"] == "Devastator"));
}

#[test]
fn a_one_stat_change_moves_only_the_builds_that_carry_it() {
    let dir = tempfile::tempdir().unwrap();
    let old = Path::new(CATALOGUE);
    let new = devastator_damage(dir.path(), 12);
    let carries = |b: &str| b == "Dwarf ALPHA" || b == "Gladiator Skirmisher";
    let rows = diff_json(old, &new, &scenario(dir.path(), "attack", ATTACK));
    let mut moved = std::collections::BTreeSet::new();
    for r in &rows {
        let build = r["build"].as_str().unwrap();
        let weapon = r["weapon"].as_str();
        let d = f(r, "difference");
        let touched = match weapon {
            Some(w) => w == "Devastator",
            None => carries(build) && r["metric"] != "points",
        };
        if !touched {
            assert_eq!(d, 0.0, "untouched: {r}");
            continue;
        }
        match r["metric"].as_str().unwrap() {
            // More damage never lowers a kill chance or a kill rate (up to the exact
            // solver's rounding: sums of probabilities, within ROUNDING).
            "p_kill" | "p_kill_turn1" | "kill_points_per_turn_per_point" => assert!(d >= -ROUNDING, "{r}"),
            _ => {}
        }
        if d > ROUNDING {
            moved.insert((build.to_string(), weapon.map(str::to_string)));
        }
    }
    for b in ["Dwarf ALPHA", "Gladiator Skirmisher"] {
        assert!(moved.contains(&(b.to_string(), None)), "{b} must move: {moved:?}");
        assert!(moved.contains(&(b.to_string(), Some("Devastator".to_string()))), "{b}'s Devastator: {moved:?}");
    }

    // Duels: the untouched duel is exactly 0 with no changed trial; the Dwarf gains.
    let rows = diff_json(old, &new, &scenario(dir.path(), "duel", DUEL));
    for r in &rows {
        if r["build"] == "Beagle Hunter" {
            assert_eq!(f(r, "difference"), 0.0, "{r}");
            assert_eq!(r["changed_trials"], 0, "{r}");
        }
    }
    let win = rows.iter().find(|r| r["build"] == "Dwarf ALPHA" && r["metric"] == "p_a_wins").unwrap();
    assert!(win["changed_trials"].as_u64().unwrap() > 0, "{win}");
    let ci = win["difference_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() > 0.0, "12 damage instead of 8 wins more duels: {win}");
    assert!((f(win, "new") - f(win, "old") - f(win, "difference")).abs() < 1e-12, "{win}");
}

#[test]
fn the_old_side_plays_the_sweeps_own_streams() {
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(dir.path(), "duel", DUEL);
    let new = devastator_damage(dir.path(), 10);
    let rows = diff_json(Path::new(CATALOGUE), &new, &file);
    let out = dir.path().join("report");
    let o = volley()
        .arg("sweep")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--no-charts", "--quiet", "--format", "csv"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut r = csv::Reader::from_path(out.join("duels.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let mut checked = 0;
    for rec in r.records() {
        let rec = rec.unwrap();
        for metric in ["p_a_wins", "p_b_wins", "p_draw", "mean_turns"] {
            let d = rows
                .iter()
                .find(|x| x["build"] == rec[col("a")] && x["against"] == rec[col("b")] && x["metric"] == metric)
                .unwrap();
            assert_eq!(f(d, "old"), rec[col(metric)].parse::<f64>().unwrap(), "{metric}: {d}");
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
}

#[test]
fn a_report_can_be_diffed_later_and_battles_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(dir.path(), "attack", ATTACK);
    let out = dir.path().join("report");
    let o = volley()
        .arg("sweep")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--no-charts", "--quiet", "--format", "csv", "--trials", "100"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = diff_json(&out.join("catalogue"), Path::new(CATALOGUE), &file);
    assert!(rows.iter().all(|r| r["difference"].is_null() || f(r, "difference") == 0.0));
    let varied = scenario(dir.path(), "varied", &format!("{ATTACK}[vary]\n\"Devastator\".damage = [6, 8]\n"));
    let o = volley().arg("diff").arg(CATALOGUE).arg(CATALOGUE).arg("--scenario").arg(&varied).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("without [vary]"), "{}", String::from_utf8_lossy(&o.stderr));
    let o = volley().args(["diff", CATALOGUE, CATALOGUE, "--scenario", "battles"]).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("not battles"), "{}", String::from_utf8_lossy(&o.stderr));
}
