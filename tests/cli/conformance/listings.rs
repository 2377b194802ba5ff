//! `catalog` of every section and `validate` on every ruleset and catalogue.

use super::*;

#[test]
fn contract_catalog_of_every_section() {
    let mut p = Problems::new();
    for case in cases() {
        p.ok(&case.run(&["catalog"]), false);
        for section in case.fx.listings {
            p.ok(&case.run(&["catalog", section]), false);
            p.ok(&case.run(&["catalog", section, "--format", "csv"]), false);
            p.ok_json(&case.run(&["catalog", section, "--format", "json"]), false, listing_keys(section));
        }
    }
    p.finish();
}

/// The keys every row of a listing has, whatever the ruleset: a field lists one row per
/// opponent; every other listing one row per entry, with its `name` (squads with their
/// `members` too).
fn listing_keys(section: &str) -> &'static [&'static str] {
    match section {
        "fields" => &["field", "opponent", "weight"],
        "squads" => &["name", "members"],
        _ => &["name"],
    }
}

/// `catalog squads` has one shape in every ruleset that has squads: one row per squad
/// with its `name` (MECHCOM listed one row per member under `squad`).
#[test]
fn contract_catalog_squads_share_one_shape() {
    let mut p = Problems::new();
    for case in cases().iter().filter(|c| c.fx.listings.contains(&"squads")) {
        p.ok_json(&case.run(&["catalog", "squads", "--format", "json"]), false, &["name"]);
    }
    p.finish();
}

#[test]
fn contract_validate() {
    let mut p = Problems::new();
    for case in cases() {
        let run = case.run(&["validate"]);
        if p.ok(&run, false) && !run.stdout.starts_with("OK: ") {
            p.add(format!("{}: prints no OK line: {}", run.what, run.stdout));
        }
    }
    p.finish();
}

/// MECHCOM's built-in catalogue selected whole holds the Typhon, whose duels play its Heat
/// (`HEAT_PLAYED`): a gauntlet of every mech plays (exit 0) and its table has the
/// Typhon's row. With `HEAT_PLAYED=false` its duels are refused again, naming Heat.
#[test]
fn a_mechcom_gauntlet_of_every_mech_plays_the_typhons_heat() {
    let dir = tempfile::tempdir().unwrap();
    let gauntlet = |extra: &[&str]| {
        volley()
            .current_dir(dir.path())
            .args(["--ruleset", "mechcom", "gauntlet", "all", "--field", "arena", "--trials", "10"])
            .args(["--max-turns", "6", "-q", "--no-charts", "--format", "csv"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = gauntlet(&["--out", "g"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let table = std::fs::read_dir(dir.path().join("g"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect::<String>();
    assert!(table.contains("Typhon"), "{table}");
    let out = gauntlet(&["--out", "h", "--option", "HEAT_PLAYED=false"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("Typhon") && err.contains("Heat"), "{err}");
    assert!(!dir.path().join("h").exists(), "a failed gauntlet leaves no report");
}
