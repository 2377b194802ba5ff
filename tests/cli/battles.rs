//! Battles in sweeps (`engagement = "battle"`), gauntlets and compares.

use super::*;
use std::path::Path;

use super::shard::sweep_file_refused;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn sweep(dir: &Path, scenario: &str, out: &str, extra: &[&str]) -> std::process::Output {
    volley()
        .current_dir(dir)
        .args(["sweep", scenario, "--out", out, "--quiet", "--no-charts", "--format", "csv"])
        .args(extra)
        .output()
        .unwrap()
}

/// Header and rows of a CSV file.
fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect();
    (headers, rows)
}

fn col(headers: &[String], name: &str) -> usize {
    headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {headers:?}"))
}

fn manifest(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

const FORCES: [&str; 3] =
    ["2*Gladiator Lancer+Dwarf ALPHA", "3*Stingray Standard+Paladin Siege", "4*Hunter IV Standard"];

fn listed(seed: u64, trials: u64) -> String {
    format!(
        "name = \"b\"\nengagement = \"battle\"\nseed = {seed}\ntrials = {trials}\nforces = [{}]\n\n[grid]\nrange = [12, 24]\n",
        FORCES.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(", ")
    )
}

#[test]
fn a_battle_sweep_writes_one_row_per_ordered_pair_and_point_with_the_common_columns() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "b.toml", &listed(5, 300));
    let out = sweep(dir.path(), &s, "r", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = dir.path().join("r");
    let (h, rows) = csv_rows(&r.join("battles.csv"));
    for c in [
        "force_a",
        "force_b",
        "points_a",
        "points_b",
        "range",
        "cover",
        "trials",
        "p_a_wins",
        "p_a_wins_ci95_low",
        "p_a_wins_ci95_high",
        "p_b_wins",
        "p_b_wins_ci95_low",
        "p_b_wins_ci95_high",
        "p_draw",
        "p_draw_ci95_low",
        "p_draw_ci95_high",
        "p_undecided",
        "mean_turns",
        "mean_points_destroyed_a",
        "mean_points_destroyed_b",
    ] {
        col(&h, c);
    }
    // 3 forces: 6 ordered pairs of distinct forces, at 2 ranges
    assert_eq!(rows.len(), 12);
    let (fa, fb, range) = (col(&h, "force_a"), col(&h, "force_b"), col(&h, "range"));
    for a in FORCES {
        for b in FORCES {
            let n = rows.iter().filter(|r| r[fa] == a && r[fb] == b).count();
            assert_eq!(n, if a == b { 0 } else { 2 }, "{a} vs {b}");
        }
    }
    for r in &rows {
        assert_eq!(r[col(&h, "trials")], "300");
        let p = |c: &str| r[col(&h, c)].parse::<f64>().unwrap();
        let total = p("p_a_wins") + p("p_b_wins") + p("p_draw") + p("p_undecided");
        assert!((total - 1.0).abs() < 1e-9, "outcomes cover every battle: {total}");
        assert!(p("p_a_wins_ci95_low") <= p("p_a_wins") && p("p_a_wins") <= p("p_a_wins_ci95_high"));
        assert_eq!(p("points_a"), 12.0);
    }
    // The same cell as `volley battle` of the same forces, conditions and seed: same key, same numbers.
    let row = rows.iter().find(|r| r[fa] == FORCES[0] && r[fb] == FORCES[2] && r[range] == "24.0").unwrap();
    let j = json_of(&[
        "battle", FORCES[0], FORCES[2], "--range", "24", "--seed", "5", "--trials", "300", "--quiet", "--format",
        "json",
    ]);
    for c in ["p_a_wins", "p_b_wins", "p_draw", "mean_points_destroyed_a"] {
        let v: f64 = row[col(&h, c)].parse().unwrap();
        assert!((v - j[c].as_f64().unwrap()).abs() < 1e-12, "{c}: sweep {v} vs battle {}", j[c]);
    }
    // Per-unit rows: every unit slot of both sides, in every cell.
    let (uh, units) = csv_rows(&r.join("battle_units.csv"));
    for c in ["force_a", "force_b", "range", "side", "unit", "points", "p_lost", "mean_kills", "kill_share"] {
        col(&uh, c);
    }
    let size = [3, 4, 4];
    let expected: usize = (0..3).flat_map(|a| (0..3).filter(move |&b| b != a).map(move |b| size[a] + size[b])).sum();
    assert_eq!(units.len(), expected * 2);
    let m = manifest(&r);
    assert_eq!(m["kind"], "battle-sweep");
    assert_eq!(m["battle"]["forces"].as_array().unwrap().len(), 3);
    assert_eq!(m["battle"]["mode"], "skirmish");
    assert!(m["tables"].as_array().unwrap().iter().any(|t| t["name"] == "battles" && t["rows"] == 12));
}

#[test]
fn a_battle_sweep_is_identical_with_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "b.toml", &listed(9, 400));
    for (out, threads) in [("t1", "1"), ("t2", "2")] {
        let o = sweep(dir.path(), &s, out, &["--threads", threads]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for table in ["battles.csv", "battle_units.csv"] {
        let a = fs::read_to_string(dir.path().join("t1").join(table)).unwrap();
        let b = fs::read_to_string(dir.path().join("t2").join(table)).unwrap();
        assert_eq!(a, b, "{table} differs between 1 and 2 threads");
    }
    // and another seed gives other numbers
    let o = sweep(dir.path(), &s, "s2", &["--seed", "10"]);
    assert!(o.status.success());
    assert_ne!(
        fs::read_to_string(dir.path().join("t1/battles.csv")).unwrap(),
        fs::read_to_string(dir.path().join("s2/battles.csv")).unwrap()
    );
}

#[test]
fn generated_forces_spend_the_budget_within_the_unit_cap_and_the_limit_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    // The cheapest builds cost 1 point, so forces of a 6-point budget spend exactly 6.
    let s = write(
        dir.path(),
        "g.toml",
        "name = \"g\"\nengagement = \"battle\"\ntrials = 50\ngenerate = { budget = 6, max_units = 2, limit = 4 }\n",
    );
    let out = sweep(dir.path(), &s, "r", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = dir.path().join("r");
    let m = manifest(&r);
    let g = &m["battle"]["generated"];
    assert_eq!(g["count"], 4);
    assert_eq!(g["truncated"], true, "more than 4 forces of at most 2 units cost 6 points");
    assert!(g["note"].as_str().unwrap().contains("limit of 4"));
    let forces = m["battle"]["forces"].as_array().unwrap();
    assert_eq!(forces.len(), 4);
    for f in forces {
        assert_eq!(f["points"], 6.0, "{f}");
        assert!(f["units"].as_u64().unwrap() <= 2, "{f}");
    }
    // Fewest units first: the catalogue's 6-point build alone comes first.
    assert_eq!(forces[0]["name"], "Paladin Siege");
    let (h, rows) = csv_rows(&r.join("battles.csv"));
    assert_eq!(rows.len(), 4 * 3, "every ordered pair of the 4 forces at the one default point");
    for row in &rows {
        assert_eq!(row[col(&h, "points_a")].parse::<f64>().unwrap(), 6.0);
    }

    // A limit that covers every force: nothing left out.
    let s = write(
        dir.path(),
        "all.toml",
        "name = \"all\"\nengagement = \"battle\"\ntrials = 20\ngenerate = { budget = 2, max_units = 1, limit = 10 }\n",
    );
    let out = sweep(dir.path(), &s, "all", &[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m = manifest(&dir.path().join("all"));
    assert_eq!(m["battle"]["generated"]["truncated"], false);
    let names: Vec<&str> =
        m["battle"]["forces"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Stingray Standard", "Rhino Standard"], "every 2-point build, catalogue order");
}

#[test]
fn a_bad_force_in_a_scenario_names_the_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let err = sweep_file_refused(
        d,
        "bad.toml",
        "name = \"bad\"\nengagement = \"battle\"\ntrials = 10\nforces = [\"Gladiator Lancer\", \"2*Gladiator Lancre\"]\n",
    );
    assert!(err.contains("bad.toml"), "{err}");
    assert!(err.contains("forces[1]"), "{err}");
    assert!(err.contains("Gladiator Lancre"), "{err}");

    // over budget: the ruleset's message, at the key
    let err = sweep_file_refused(
        d,
        "over.toml",
        "name = \"over\"\nengagement = \"battle\"\ntrials = 10\nforces = [\"Gladiator Lancer\", \"4*Beagle Hunter\"]\n",
    );
    assert!(err.contains("over.toml") && err.contains("forces[1]") && err.contains("budget"), "{err}");

    // battle keys in a duel scenario, and a battle scenario with nothing to fight
    let err = sweep_file_refused(
        d,
        "mixed.toml",
        "name = \"m\"\nengagement = \"duel\"\nattackers = [\"all\"]\nopponents = [\"all\"]\nforces = [\"A\"]\n",
    );
    assert!(err.contains("forces") && err.contains("battle scenarios"), "{err}");
    let err = sweep_file_refused(d, "none.toml", "name = \"n\"\nengagement = \"battle\"\n");
    assert!(err.contains("forces = [...] or generate"), "{err}");
}

#[test]
fn the_built_in_battle_scenario_is_listed_and_runs() {
    let list = stdout_of(&["scenario", "list"]);
    assert!(list.contains("battles"), "{list}");
    let dir = tempfile::tempdir().unwrap();
    let out = sweep(dir.path(), "battles", "r", &["--trials", "50"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (_, rows) = csv_rows(&dir.path().join("r/battles.csv"));
    assert_eq!(rows.len(), 4 * 3 * 2, "4 forces, ordered pairs, 2 ranges");
}

#[test]
fn a_battle_sweep_report_draws_the_force_matrix() {
    let dir = tempfile::tempdir().unwrap();
    let s = write(dir.path(), "b.toml", &listed(2, 50));
    let out = volley().current_dir(dir.path()).args(["sweep", &s, "--out", "r", "--quiet"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = dir.path().join("r");
    assert!(r.join("charts/battle-matrix.svg").exists());
    let page = fs::read_to_string(r.join("index.md")).unwrap();
    assert!(page.contains("battle-matrix.png"), "{page}");
    assert!(page.contains("Strongest force: "), "{page}");
    // `volley chart` redraws it from the files
    fs::remove_dir_all(r.join("charts")).unwrap();
    let out = volley().current_dir(dir.path()).args(["chart", "r"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(r.join("charts/battle-matrix.svg").exists());
}

const FIELD: [&str; 2] = ["3*Stingray Standard+Paladin Siege", "Beagle Hunter+Troll Brawler+2*Stingray Standard"];

/// P(A wins) of `volley battle A B` at the default conditions.
fn battle_p(a: &str, b: &str, seed: &str, trials: &str) -> f64 {
    let j = json_of(&["battle", a, b, "--seed", seed, "--trials", trials, "--quiet", "--format", "json"]);
    j["p_a_wins"].as_f64().unwrap()
}

#[test]
fn a_gauntlet_of_forces_weighs_battles_like_duels() {
    let dir = tempfile::tempdir().unwrap();
    let field = FIELD.join(",");
    let out = volley()
        .current_dir(dir.path())
        .args(["gauntlet", "--battle", FORCES[0], FORCES[2], "--field", &field])
        .args(["--trials", "200", "--seed", "4", "--out", "g", "--format", "csv", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let g = dir.path().join("g");
    let (h, rows) = csv_rows(&g.join("gauntlet_matchups.csv"));
    assert_eq!(rows.len(), 4, "2 forces x 2 opponents x 1 point");
    let p = |r: &Vec<String>, c: &str| r[col(&h, c)].parse::<f64>().unwrap();
    for r in &rows {
        let (side, opponent) = (&r[col(&h, "build")], &r[col(&h, "opponent")]);
        assert!((p(r, "p_win") + p(r, "p_draw") + p(r, "p_loss") - 1.0).abs() < 1e-9);
        let expected = battle_p(side, opponent, "4", "200");
        assert!(
            (p(r, "p_win") - expected).abs() < 1e-12,
            "{side} vs {opponent}: {} vs battle {expected}",
            p(r, "p_win")
        );
    }
    let (sh, summary) = csv_rows(&g.join("gauntlet_summary.csv"));
    assert_eq!(summary.len(), 2);
    for s in &summary {
        let name = &s[col(&sh, "build")];
        let mean: f64 = rows.iter().filter(|r| &r[col(&h, "build")] == name).map(|r| p(r, "p_win")).sum::<f64>() / 2.0;
        let w: f64 = s[col(&sh, "weighted_p_win")].parse().unwrap();
        assert!((w - mean).abs() < 1e-12, "equal weights: the mean of the matchups");
        assert_eq!(s[col(&sh, "points")].parse::<f64>().unwrap(), 12.0);
    }
    let m = manifest(&g);
    assert_eq!(m["kind"], "gauntlet");
    assert_eq!(m["battle"]["mode"], "skirmish");
    assert!(g.join("charts/gauntlet-win-rate.svg").exists());

    // a bad force in the field is a usage error naming it
    let out = volley().args(["gauntlet", "--battle", FORCES[0], "--field", "2*Nope Tank", "--quiet"]).output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Nope Tank"));
}

#[test]
fn compare_of_forces_reports_the_difference_of_win_rates_with_an_independent_interval() {
    let versus = FIELD.join(",");
    let j = json_of(&[
        "compare",
        "--battle",
        FORCES[2],
        FORCES[0],
        "--versus",
        &versus,
        "--pairing",
        "independent",
        "--trials",
        "300",
        "--seed",
        "6",
        "--quiet",
        "--format",
        "json",
    ]);
    let matchups = j["matchups"].as_array().unwrap();
    assert_eq!(matchups.len(), 2);
    for (m, v) in matchups.iter().zip(FIELD) {
        let (a, b) = (m["a"].as_f64().unwrap(), m["b"].as_f64().unwrap());
        assert!((a - battle_p(FORCES[2], v, "6", "300")).abs() < 1e-12, "A's rate is volley battle's");
        assert!((b - battle_p(FORCES[0], v, "6", "300")).abs() < 1e-12, "B's rate is volley battle's");
        assert!((m["difference"].as_f64().unwrap() - (a - b)).abs() < 1e-12);
        let ci = m["difference_ci95"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= a - b && a - b <= hi && lo > -1.0 - 1e-12 && hi < 1.0 + 1e-12, "[{lo}, {hi}]");
    }
    let o = &j["overall"];
    let mean = |k: &str| matchups.iter().map(|m| m[k].as_f64().unwrap()).sum::<f64>() / 2.0;
    assert!((o["difference"].as_f64().unwrap() - (mean("a") - mean("b"))).abs() < 1e-12);
    assert!(j["pairing"].as_str().unwrap().contains("independent"));

    // --battle needs --versus; --versus needs --battle
    let out = volley().args(["compare", "--battle", FORCES[0], FORCES[1]]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = volley().args(["compare", FORCES[0], FORCES[1], "--versus", FIELD[0]]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}
