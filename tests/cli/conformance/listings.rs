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
/// opponent; every other listing one row per entry, with its `name` (squads are checked
/// by `contract_unowned_catalog_squads_share_one_shape`).
fn listing_keys(section: &str) -> &'static [&'static str] {
    match section {
        "fields" => &["field", "opponent", "weight"],
        "squads" => &[],
        _ => &["name"],
    }
}

/// `catalog squads` has one shape in every ruleset that has squads: one row per squad
/// with its `name` (MECHCOM lists one row per member under `squad`; Skirmishers one row
/// per squad under `name`). Nobody owns this yet.
#[test]
fn contract_unowned_catalog_squads_share_one_shape() {
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
