//! Sensitivity sweeps (`[vary]` in scenarios) and the catalogue every report saves.

use super::*;

use std::collections::BTreeMap;
use std::path::Path;

/// A CSV table as rows of column → text.
fn read_csv_rows(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records().map(|rec| headers.iter().cloned().zip(rec.unwrap().iter().map(str::to_string)).collect()).collect()
}

fn num(row: &BTreeMap<String, String>, col: &str) -> f64 {
    row.get(col).unwrap_or_else(|| panic!("no column {col}")).parse().unwrap_or_else(|_| panic!("{col}: {row:?}"))
}

/// Run a scenario given as text (no charts, CSV only) and return the report directory.
fn sweep(dir: &Path, name: &str, scenario: &str) -> std::path::PathBuf {
    let file = dir.join(format!("{name}.toml"));
    fs::write(&file, scenario).unwrap();
    let out = dir.join(format!("report-{name}"));
    let o = volley()
        .arg("sweep")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(["--no-charts", "--quiet", "--format", "csv"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
    out
}

/// The row's key columns other than `skip`, as one text.
fn key_of(row: &BTreeMap<String, String>, keys: &[&str]) -> String {
    keys.iter().map(|k| row.get(*k).cloned().unwrap_or_default()).collect::<Vec<_>>().join("|")
}

const TTK_KEYS: [&str; 5] = ["attacker", "target", "range", "smoke", "turn"];

#[test]
fn more_damage_never_lowers_an_exact_kill_chance() {
    let dir = tempfile::tempdir().unwrap();
    let out = sweep(
        dir.path(),
        "damage",
        r#"name = "damage"
trials = 300
attackers = ["Dwarf ALPHA", "Gladiator Skirmisher", "Beagle Hunter"]
targets = ["Stingray", "Hunter IV", "ac:6"]
[grid]
range = [12, 27]
smoke = ["none", "smoke"]
[vary]
"Devastator".damage = [4, 8, 12]
"#,
    );
    let rows = read_csv_rows(&out.join("ttk_by_turn.csv"));
    // (cell, turn) -> [(damage, exact P(killed by turn))]
    let mut by_cell: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in &rows {
        by_cell
            .entry(key_of(r, &TTK_KEYS))
            .or_default()
            .push((num(r, "vary.Devastator.damage"), num(r, "exact_p_killed_by_turn")));
    }
    assert_eq!(by_cell.len() * 3, rows.len(), "every cell at each of the three values");
    let mut moved = BTreeMap::new();
    for (cell, mut v) in by_cell {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert_eq!(v.iter().map(|x| x.0).collect::<Vec<_>>(), [4.0, 8.0, 12.0], "{cell}");
        for w in v.windows(2) {
            assert!(
                w[1].1 >= w[0].1 - 1e-12,
                "{cell}: damage {} gives {} < {} at damage {}",
                w[1].0,
                w[1].1,
                w[0].1,
                w[0].0
            );
        }
        if v[2].1 > v[0].1 + 1e-9 {
            moved.insert(cell.split('|').next().unwrap().to_string(), ());
        }
    }
    // The builds that carry Devastators move; the Beagle Hunter (no Devastator) does not.
    assert!(moved.contains_key("Dwarf ALPHA") && moved.contains_key("Gladiator Skirmisher"), "{moved:?}");
    assert!(!moved.contains_key("Beagle Hunter"), "a build without the weapon must not move: {moved:?}");
}

#[test]
fn the_base_value_gives_the_plain_sweeps_exact_numbers_and_keys_depend_on_the_value_only() {
    let dir = tempfile::tempdir().unwrap();
    let head = r#"trials = 500
attackers = ["Dwarf ALPHA", "Pigeonhawk Standard"]
targets = ["Stingray", "Wall"]
[grid]
range = [12, 27]
"#;
    let plain = sweep(dir.path(), "plain", &format!("name = \"plain\"\n{head}"));
    let one = sweep(dir.path(), "one", &format!("name = \"one\"\n{head}[vary]\n\"Devastator\".damage = [8]\n"));
    let two = sweep(dir.path(), "two", &format!("name = \"two\"\n{head}[vary]\n\"Devastator\".damage = [10, 8]\n"));
    let keys = ["attacker", "target", "range"];
    let index = |dir: &Path| -> BTreeMap<String, BTreeMap<String, String>> {
        read_csv_rows(&dir.join("time_to_kill.csv"))
            .into_iter()
            .filter(|r| r.get("vary.Devastator.damage").is_none_or(|v| v == "8.0" || v == "8"))
            .map(|r| (key_of(&r, &keys), r))
            .collect()
    };
    let (p, a, b) = (index(&plain), index(&one), index(&two));
    assert_eq!(p.len(), 8);
    assert_eq!(a.len(), 8);
    assert_eq!(b.len(), 8);
    for (k, row) in &p {
        // 8 is the catalogue's own Devastator damage: the exact law is the same.
        for col in ["exact_p_kill", "exact_mean_turns", "points", "target_points"] {
            assert_eq!(row[col], a[k][col], "{k} {col}");
        }
        // The varied value is part of the cell key: the same value gives the same
        // numbers whatever else the list holds.
        for col in ["p_kill", "mean_turns", "mean_actions"] {
            assert_eq!(a[k][col], b[k][col], "{k} {col}");
        }
    }
    // ... and a sensitivity sweep's cells are keyed apart from the plain sweep's.
    assert!(
        p.iter().any(|(k, row)| row["mean_turns"] != a[k]["mean_turns"]),
        "the varied value is part of every cell key: other streams than the plain sweep"
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(two.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["vary"][0]["column"], "vary.Devastator.damage");
    assert_eq!(manifest["vary"][0]["values"], serde_json::json!([10.0, 8.0]));
    assert!(
        manifest.get("vary").is_some()
            && serde_json::from_str::<serde_json::Value>(&fs::read_to_string(plain.join("manifest.json")).unwrap())
                .unwrap()
                .get("vary")
                .is_none()
    );
}

#[test]
fn csv_entries_and_other_rulesets_vary_too() {
    let dir = tempfile::tempdir().unwrap();
    // `Wall` lives in a CSV stat sheet: a higher armour class never makes it easier to kill.
    let out = sweep(
        dir.path(),
        "wall",
        r#"name = "wall"
trials = 200
attackers = ["Dwarf ALPHA"]
targets = ["Wall"]
[vary]
"Wall".ac = [2, 6]
"#,
    );
    let rows = read_csv_rows(&out.join("time_to_kill.csv"));
    let at = |ac: f64| rows.iter().find(|r| num(r, "vary.Wall.ac") == ac).map(|r| num(r, "exact_mean_turns")).unwrap();
    assert!(at(6.0) > at(2.0), "a harder wall takes longer: {} vs {}", at(6.0), at(2.0));
    assert_eq!(rows.iter().map(|r| num(r, "target_ac")).collect::<Vec<_>>(), [2.0, 6.0]);

    let out = sweep(
        dir.path(),
        "mechcom",
        r#"ruleset = "mechcom"
name = "mechcom"
trials = 200
max_turns = 12
attackers = ["Wasp", "Typhon"]
targets = ["Kerberos"]
[grid]
range = [3, 6]
[vary]
"Buzzkil Rifle".damage = [1, 3]
"#,
    );
    let rows = read_csv_rows(&out.join("time_to_kill.csv"));
    for attacker in ["Wasp", "Typhon"] {
        for range in ["3", "3.0", "6", "6.0"] {
            let p: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r["attacker"] == attacker && r["range"] == range)
                .map(|r| (num(r, "vary.Buzzkil Rifle.damage"), num(r, "exact_p_kill")))
                .collect();
            if p.is_empty() {
                continue;
            }
            let (low, high) = (p.iter().find(|x| x.0 == 1.0).unwrap().1, p.iter().find(|x| x.0 == 3.0).unwrap().1);
            assert!(high >= low, "{attacker} at {range}: {high} < {low}");
            if attacker == "Typhon" {
                assert_eq!(high, low, "the Typhon carries no Buzzkil Rifle");
            }
        }
    }
    let wasp_moves = rows
        .iter()
        .filter(|r| r["attacker"] == "Wasp")
        .map(|r| r["exact_p_kill"].clone())
        .collect::<std::collections::BTreeSet<_>>();
    assert!(wasp_moves.len() > 1, "the Wasp's Buzzkil Rifle damage changes its kill chance");
}

#[test]
fn vary_errors_name_file_line_entry_and_field_all_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    fs::write(
        &file,
        r#"name = "bad"
attackers = ["Dwarf ALPHA"]
targets = ["ac:4"]

[vary]
"Devastater".damage = [6, 8]
"Devastator".damag = [6]
"Devastator".name = [3]
"Dwarf".ac = [-3, 4]
"Wall".kind = [1]
"#,
    )
    .unwrap();
    let o = volley().arg("sweep").arg(&file).arg("--out").arg(dir.path().join("r")).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    let f = file.display().to_string();
    for want in [
        "5 errors found".to_string(),
        format!(
            "{f}:6:24: scenario \"bad\": field `vary.Devastater.damage`: no catalogue entry is named `Devastater` (did you mean `Devastator`?)"
        ),
        format!(
            "{f}:7:23: scenario \"bad\": field `vary.Devastator.damag`: the catalogue refuses it: weapon \"Devastator\": field `damag`: unknown key (did you mean `damage`?)"
        ),
        format!(
            "{f}:8:22: scenario \"bad\": field `vary.Devastator.name`: weapon \"Devastator\" writes name as `Devastator`"
        ),
        format!(
            "{f}:9:15: scenario \"bad\": field `vary.Dwarf.ac`: the catalogue refuses ac = -3: unit \"Dwarf\": field `ac`: must be between"
        ),
        format!("{f}:10:16: scenario \"bad\": field `vary.Wall.kind`: unit \"Wall\" writes kind as `terrain`"),
    ] {
        assert!(err.contains(&want), "missing {want}\nin:\n{err}");
    }
    assert!(!dir.path().join("r").exists(), "no report for a bad scenario");
}

#[test]
fn malformed_vary_tables_are_scenario_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    fs::write(
        &file,
        "name = \"bad\"\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"ac:4\"]\n[vary]\n\"Dwarf\".ac = []\n\"Devastator\".damage = [6, \"x\", 6]\n\"Wall\" = 3\n",
    )
    .unwrap();
    let o = volley().arg("sweep").arg(&file).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr).unwrap();
    for want in [
        "field `vary.Dwarf.ac`: list at least one value",
        "field `vary.Devastator.damage[1]`: expected a number",
        "field `vary.Devastator.damage`: 6 is listed twice",
        "field `vary.Wall`: expected a table",
    ] {
        assert!(err.contains(want), "missing {want}\nin:\n{err}");
    }
}

#[test]
fn a_report_saves_the_catalogue_it_ran_on() {
    let dir = tempfile::tempdir().unwrap();
    let extra = catalogue_dir(&[(
        "extra-builds.toml",
        "[[build]]\nname = \"Dwarf Brawler\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Devastator\", count = 1 }]\n",
    )]);
    let scenario = format!(
        "name = \"saved\"\ntrials = 200\nattackers = [\"Dwarf Brawler\"]\ntargets = [\"ac:4\"]\nloadouts_add = [{:?}]\n",
        extra.path().join("extra-builds.toml").display().to_string()
    );
    let out = sweep(dir.path(), "saved", &scenario);
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let saved = &manifest["catalogue"]["saved"];
    assert_eq!(saved["dir"], "catalogue");
    let names: Vec<&str> = saved["files"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(names.contains(&"weapons.toml") && names.contains(&"extra-builds.toml"), "{names:?}");
    for n in &names {
        assert!(out.join("catalogue").join(n).is_file(), "{n}");
    }
    // The saved directory is a catalogue of its own, with the same content hash.
    let ok = stdout_of(&["validate", out.join("catalogue").to_str().unwrap()]);
    assert!(ok.starts_with("OK: 11 weapons, 15 units, 6 gear, 13 builds"), "{ok}");
    let again = dir.path().join("again");
    // Run again on the saved catalogue alone (the addition is part of it now).
    let plain = "name = \"again\"\ntrials = 200\nattackers = [\"Dwarf Brawler\"]\ntargets = [\"ac:4\"]\n";
    let file = dir.path().join("again.toml");
    fs::write(&file, plain).unwrap();
    let o = volley()
        .arg("--loadouts")
        .arg(out.join("catalogue"))
        .args(["sweep", "--no-charts", "--quiet", "--format", "csv", "--out"])
        .arg(&again)
        .arg(&file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m2: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(again.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m2["catalogue"]["hash"], manifest["catalogue"]["hash"], "same files, same hash");
    assert_eq!(
        fs::read_to_string(again.join("time_to_kill.csv")).unwrap(),
        fs::read_to_string(out.join("time_to_kill.csv")).unwrap(),
        "the saved catalogue gives the same numbers"
    );
}

#[test]
fn the_report_page_shows_how_each_headline_metric_moves() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.toml");
    fs::write(
        &file,
        "name = \"page\"\ntrials = 200\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"Stingray\"]\n[vary]\n\"Devastator\".damage = [4, 12]\n",
    )
    .unwrap();
    let out = dir.path().join("r");
    let o =
        volley().arg("sweep").arg(&file).arg("--out").arg(&out).args(["--quiet", "--format", "csv"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("charts/vary-devastator-damage.svg").is_file());
    let md = fs::read_to_string(out.join("index.md")).unwrap();
    assert!(md.contains("Sensitivity to Devastator damage"), "{md}");
    // The exact answer at each value, lowest first: more damage, a higher kill chance in turn 1 is
    // not shown, but the exact mean turns to kill must fall.
    let line = md.lines().find(|l| l.contains("**Devastator damage**: mean turns to kill, exact")).expect(&md);
    let nums: Vec<f64> = line
        .split(": ")
        .last()
        .unwrap()
        .trim_end_matches('.')
        .split(" → ")
        .map(|s| s.split(" at ").next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(nums.len(), 2, "{line}");
    assert!(nums[1] < nums[0], "more damage kills sooner: {line}");
    // The exact values on the page are the table's.
    let rows = read_csv_rows(&out.join("time_to_kill.csv"));
    let at4 = rows.iter().find(|r| num(r, "vary.Devastator.damage") == 4.0).unwrap();
    assert_eq!(format!("{:.3}", num(at4, "exact_mean_turns")), format!("{:.3}", nums[0]));
}

#[test]
fn a_gauntlet_report_saves_its_catalogue_too() {
    let dir = tempfile::tempdir().unwrap();
    let field = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander/fields.toml")).unwrap();
    let name = field
        .lines()
        .find_map(|l| l.strip_prefix("name = \""))
        .map(|l| l.split('"').next().unwrap().to_string())
        .unwrap();
    let out = dir.path().join("g");
    let o = volley()
        .args([
            "gauntlet",
            "Dwarf ALPHA",
            "--field",
            &name,
            "--trials",
            "200",
            "--quiet",
            "--no-charts",
            "--format",
            "csv",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["catalogue"]["saved"]["dir"], "catalogue");
    let ok = stdout_of(&["validate", out.join("catalogue").to_str().unwrap()]);
    assert!(ok.starts_with("OK: 11 weapons, 15 units, 6 gear, 12 builds"), "{ok}");
}

#[test]
fn vary_findings_count_only_the_builds_that_carry_the_varied_entry() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("carry.toml");
    fs::write(
        &file,
        "name = \"carry\"\ntrials = 100\nattackers = [\"Dwarf ALPHA\", \"Beagle Hunter\"]\ntargets = [\"Stingray\"]\n[vary]\n\"Devastator\".damage = [4, 12]\n",
    )
    .unwrap();
    let out = dir.path().join("r");
    let o =
        volley().arg("sweep").arg(&file).arg("--out").arg(&out).args(["--quiet", "--format", "csv"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    let carriers = manifest["vary"][0]["carriers"].as_array().unwrap();
    assert!(
        carriers.iter().any(|c| c == "Dwarf ALPHA") && !carriers.iter().any(|c| c == "Beagle Hunter"),
        "{carriers:?}"
    );
    // The Beagle Hunter carries no Devastator: the finding is the Dwarf's alone.
    let md = fs::read_to_string(out.join("index.md")).unwrap();
    let line = md.lines().find(|l| l.contains("**Devastator damage**: P(kill), exact")).expect(&md);
    assert!(line.contains("the 1 build of 2 that carry it: Dwarf ALPHA"), "{line}");
    let rows = read_csv_rows(&out.join("time_to_kill.csv"));
    let dwarf = |d: f64| {
        let r = rows.iter().find(|r| r["attacker"] == "Dwarf ALPHA" && num(r, "vary.Devastator.damage") == d).unwrap();
        num(r, "exact_p_kill")
    };
    let pct = volley::output::percent::percent;
    let want = format!("{} at 4 → {} at 12", pct(dwarf(4.0)), pct(dwarf(12.0)));
    assert!(line.contains(&want), "{line} lacks {want}");
}

#[test]
fn vary_findings_rank_efficiency_over_every_value_and_chart_redraws_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("v.toml");
    fs::write(
        &file,
        r#"name = "v"
trials = 100
attackers = ["Dwarf ALPHA", "Beagle Hunter"]
targets = ["Stingray"]
[grid]
range = [12]
[vary]
"Devastator".damage = [4, 16]
"#,
    )
    .unwrap();
    let out = dir.path().join("r");
    let o =
        volley().arg("sweep").arg(&file).arg("--out").arg(&out).args(["--quiet", "--format", "csv"]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let findings = |dir: &Path| {
        let page = fs::read_to_string(dir.join("index.md")).unwrap();
        page.split("## Headline findings").nth(1).unwrap().split("## Charts").next().unwrap().to_string()
    };
    let page = findings(&out);
    // Was: "most efficient per point" judged at damage 4 only, with nothing saying so.
    let e = page.lines().find(|l| l.contains("most efficient build per point")).unwrap_or_else(|| panic!("{page}"));
    assert!(e.contains("at 4 **") && e.contains("at 16 **") && e.contains("over the whole grid"), "{e}");
    assert!(e.contains("at 16 **Dwarf ALPHA**"), "the Dwarf carries the Devastator: {e}");
    assert!(page.contains("At Devastator damage 4 (each varied stat's first value): Most efficient"), "{page}");
    // `volley chart` redraws the same findings (was: none of the `[vary]` ones, and the
    // others over every varied value at once).
    let o = volley().arg("chart").arg(&out).arg("--quiet").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(findings(&out), page);
}

#[test]
fn attack_run_tables_say_what_each_run_plays_beyond_the_cards() {
    // The Pythia's mortar fires on the Spot tokens it places itself: its rows say so;
    // the Wasp's run plays only its cards (null).
    let dir = tempfile::tempdir().unwrap();
    let scenario = "ruleset = \"mechcom\"\nname = \"played\"\nengagement = \"attack-run\"\nseed = 1\ntrials = 500\n\
                    max_turns = 6\nattackers = [\"Pythia\", \"Wasp\"]\ntargets = [\"Kerberos\"]\n\n[grid]\nrange = [3, 10]\n";
    let report = sweep(dir.path(), "played", scenario);
    let rows = read_csv_rows(&report.join("time_to_kill.csv"));
    assert_eq!(rows.len(), 4);
    // Each row says what `ttk` says of the same run.
    for row in &rows {
        let (a, range) = (&row["attacker"], &row["range"]);
        let j = json_of(&[
            "--ruleset",
            "mechcom",
            "ttk",
            "--attacker",
            a,
            "--target",
            "Kerberos",
            "--range",
            range,
            "--exact",
            "--format",
            "json",
        ]);
        let joined = |key: &str| {
            j[key].as_array().unwrap().iter().map(|s| s.as_str().unwrap().to_string()).collect::<Vec<_>>().join("; ")
        };
        assert_eq!(row["played"], joined("played"), "{row:?}");
        assert_eq!(row["not_modelled"], joined("not_modelled"), "{row:?}");
    }
    let pythia_far = rows.iter().find(|r| r["attacker"] == "Pythia" && r["range"] == "10").unwrap();
    assert!(pythia_far["played"].contains("Spot action"), "{pythia_far:?}");
    assert!(rows.iter().filter(|r| r["attacker"] == "Wasp").all(|r| r["played"].is_empty()));
}
