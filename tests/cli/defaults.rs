//! Every ruleset its own defaults: standard scenarios, sweep and diff without a scenario, wording.

use super::*;

use volley::rules::RulesetId;
use volley::sweep::scenario::standard_scenario;

/// `volley --ruleset NAME ARGS...` with stdout, stderr and the exit code.
fn run_on(ruleset: RulesetId, args: &[&str]) -> (String, String, Option<i32>) {
    let out = volley().arg("--ruleset").arg(ruleset.name()).args(args).output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

fn manifest(dir: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn every_ruleset_ships_a_standard_scenario_of_its_own() {
    for &r in RulesetId::ALL {
        let name = standard_scenario(r.name());
        let text = volley::sweep::ScenarioText::load(&name).unwrap_or_else(|e| panic!("{r}: {name}: {e}"));
        assert_eq!(text.ruleset().unwrap().unwrap_or_default(), r, "{name} is a {r} scenario");
    }
    assert_eq!(standard_scenario("techcommander"), "standard", "TechCommander's keeps its published name");
}

#[test]
fn sweep_without_a_scenario_plays_the_rulesets_standard_scenario() {
    for &r in RulesetId::ALL {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r");
        let args =
            ["sweep", "--trials", "1", "--no-charts", "--quiet", "--format", "csv", "--out", out.to_str().unwrap()];
        let (_, err, code) = run_on(r, &args);
        assert_eq!(code, Some(0), "{r}: {err}");
        let m = manifest(&out);
        assert_eq!(m["ruleset"], r.name(), "{r}");
        assert_eq!(m["scenario"]["name"], standard_scenario(r.name()), "{r}");
        let axes: Vec<&str> = m["axes"].as_array().unwrap().iter().map(|a| a["name"].as_str().unwrap()).collect();
        let swept = m["axes"].as_array().unwrap().iter().filter(|a| a["values"].as_array().unwrap().len() > 1).count();
        assert!(swept >= 4, "{r}: the standard scenario sweeps most of its axes, {axes:?}: {swept}");
    }
}

#[test]
fn diff_without_a_scenario_plays_the_rulesets_standard_scenario() {
    // TechCommander's default was always its own `standard`; the others played it too.
    for &r in RulesetId::ALL.iter().filter(|r| **r != RulesetId::default()) {
        let cat = format!("{}/loadouts/{}", env!("CARGO_MANIFEST_DIR"), r.name());
        let (out, err, code) = run_on(r, &["diff", &cat, &cat, "--trials", "1", "--format", "json", "--quiet"]);
        assert_eq!(code, Some(0), "{r}: {err}");
        let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(
            !rows["rows"].as_array().unwrap().is_empty() && !rows["summary"].as_array().unwrap().is_empty(),
            "{r}: {out}"
        );
    }
}

#[test]
fn scenario_list_groups_the_scenarios_by_ruleset() {
    let list = stdout_of(&["scenario", "list"]);
    let rows: Vec<Vec<&str>> = list.lines().map(|l| l.split('\t').collect()).collect();
    assert!(rows.iter().all(|r| r.len() == 3), "name, ruleset, description: {list}");
    let order: Vec<usize> =
        rows.iter().map(|r| RulesetId::ALL.iter().position(|id| id.name() == r[1]).expect("a ruleset")).collect();
    assert!(order.windows(2).all(|w| w[0] <= w[1]), "grouped in registry order: {list}");
    for &r in RulesetId::ALL {
        let first = rows.iter().find(|row| row[1] == r.name()).unwrap_or_else(|| panic!("{r} has scenarios: {list}"));
        assert_eq!(first[0], standard_scenario(r.name()), "{r}'s default first: {list}");
        assert!(first[2].contains("default"), "{list}");
    }
    for row in &rows {
        let text = volley::sweep::ScenarioText::load(row[0]).unwrap();
        assert_eq!(text.ruleset().unwrap().unwrap_or_default().name(), row[1], "{list}");
    }
}

/// Headers count in the game's word for a turn, with the singular for one.
#[test]
fn headers_say_rounds_where_the_game_plays_rounds_and_one_in_the_singular() {
    let (out, err, code) = run_on(
        RulesetId::Mechcom,
        &["ttk", "--attacker", "Wasp", "--target", "Kerberos", "--range", "1", "--trials", "1", "--max-turns", "1"],
    );
    assert_eq!(code, Some(0), "{err}");
    let head: Vec<&str> = out.lines().collect();
    assert!(head[0].contains("range 1 hex,") && head[0].contains("1 round max"), "{out}");
    assert!(head[1].contains("1 engagement,"), "{out}");
    assert!(out.contains("P(kill within 1 round)"), "{out}");
    let table = out.lines().find(|l| l.contains("p_killed_by")).unwrap();
    assert!(table.starts_with("round") && table.contains("p_killed_by_round"), "{out}");

    let (out, err, code) = run_on(RulesetId::Mechcom, &["duel", "Wasp", "Kerberos", "--range", "3", "--trials", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("range 3 hexes") && out.contains("Monte Carlo, 1 duel,"), "{out}");

    let (out, err, code) = run_on(
        RulesetId::Skirmishers,
        &["ttk", "--attacker", "Rifleman", "--target", "Rifleman", "--range", "1", "--trials", "10"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().next().unwrap().contains("range 1 dot,"), "{out}");
    let (out, err, code) = run_on(
        RulesetId::Shellshock,
        &["duel", "Panzer IV", "Jagdpanther", "--range", "1", "--trials", "1", "--max-turns", "1"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("range 1 hex,") && out.contains("1 turn max"), "{out}");
}

#[test]
fn compare_counts_one_matchup_in_the_singular() {
    let (out, err, code) = run_on(
        RulesetId::Mechcom,
        &["compare", "Wasp", "Sentinel", "--versus", "Kerberos", "--battle", "--trials", "20"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.lines().next().unwrap().contains("1 matchup,"), "{out}");
}

/// Points print as the catalogue writes them: whole costs without decimals.
#[test]
fn points_print_at_the_catalogues_granularity() {
    let (out, err, code) = run_on(RulesetId::Mechcom, &["battle", "Kerberos Pack", "Iron Wall", "--trials", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let row = out.lines().find(|l| l.contains("Kerberos Pack") && l.starts_with('A')).unwrap();
    assert!(row.split_whitespace().any(|w| w == "890"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("g");
    let (out, err, code) = run_on(
        RulesetId::Mechcom,
        &[
            "gauntlet",
            "Wasp",
            "--field",
            "Kerberos",
            "--trials",
            "10",
            "--no-charts",
            "--out",
            report.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("the field costs 220 points"), "{out}");
    let row = out.lines().find(|l| l.starts_with("Wasp")).unwrap();
    assert!(row.split_whitespace().nth(1) == Some("180"), "{out}");
}

/// Whether reports/COLUMNS.md names `column`: as itself in backticks, or an interval
/// column as its stem with `_ci95_low/high` or with `_ci95_low`/`_ci95_high`.
fn documented(doc: &str, column: &str) -> bool {
    if doc.contains(&format!("`{column}`")) {
        return true;
    }
    let stem = column.strip_suffix("_ci95_low").or_else(|| column.strip_suffix("_ci95_high"));
    stem.is_some_and(|s| {
        doc.contains(&format!("`{s}_ci95_low/high`"))
            || (doc.contains(&format!("`{s}`")) && doc.contains("`_ci95_low`") && doc.contains("`_ci95_high`"))
    })
}

#[test]
fn every_column_of_every_table_every_ruleset_writes_is_documented() {
    let doc = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/reports/COLUMNS.md")).unwrap();
    let scenarios = [
        (RulesetId::TechCommander, "quick"),
        (RulesetId::TechCommander, "duels"),
        (RulesetId::Mechcom, "mechcom-quick"),
        (RulesetId::Skirmishers, "skirmishers-quick"),
        (RulesetId::Shellshock, "shellshock-quick"),
        (RulesetId::Shellshock, "shellshock-duels"),
    ];
    let mut missing = Vec::new();
    let mut written = std::collections::BTreeSet::new();
    for (r, scenario) in scenarios {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("r");
        let args = ["sweep", scenario, "--trials", "2", "--no-charts", "--quiet", "--format", "csv", "--out"];
        let (_, err, code) = run_on(r, &[&args[..], &[out.to_str().unwrap()]].concat());
        assert_eq!(code, Some(0), "{scenario}: {err}");
        for e in fs::read_dir(&out).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "csv") {
                let table = path.file_stem().unwrap().to_string_lossy().into_owned();
                assert!(doc.contains(&format!("`{table}`")), "table {table} of {scenario} is not in COLUMNS.md");
                written.insert(table.clone());
                let text = fs::read_to_string(&path).unwrap();
                for c in text.lines().next().unwrap().split(',') {
                    if !documented(&doc, c) {
                        missing.push(format!("{r} {table}.{c}"));
                    }
                }
            }
        }
    }
    for detail in ["hit_probability", "attack_odds", "track_odds", "gunner_odds"] {
        assert!(written.contains(detail), "the scenarios write {detail}: {written:?}");
    }
    missing.dedup();
    assert!(missing.is_empty(), "columns not in reports/COLUMNS.md: {missing:?}");
}
