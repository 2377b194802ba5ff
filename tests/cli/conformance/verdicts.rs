//! `compare`, `gauntlet` and `fit` on every ruleset and catalogue.

use super::*;

const COMPARE_JSON: &[&str] =
    &["ruleset", "a", "b", "a_points", "b_points", "metric", "method", "pairing", "seed", "matchups", "overall"];
const FIT_JSON: &[&str] =
    &["ruleset", "field", "metric", "method", "target", "conditions", "policy", "max_turns", "seed", "rows"];
/// Tables every gauntlet report writes.
const GAUNTLET_TABLES: &[&str] = &["gauntlet_matchups", "gauntlet_summary"];

#[test]
fn contract_compare() {
    let mut p = Problems::new();
    for case in cases() {
        let (a, b) = case.names.duel;
        let base = ["compare", a, b, "--against", case.names.field, "--trials", "40", "--max-turns", "8", "-q"];
        let with = |extra: &[&str]| case.run(&base.iter().chain(extra).copied().collect::<Vec<_>>());
        p.ok(&with(&[]), false);
        p.ok(&with(&["--option", case.fx.option]), false);
        p.ok_json(&with(&["--format", "json"]), false, COMPARE_JSON);
        let t = ["compare", a, b, "--target", case.names.target, "--exact", "--metric", "turns", "--format", "json"];
        p.ok_json(&case.run(&t), false, COMPARE_JSON);
    }
    p.finish();
}

#[test]
fn contract_gauntlet() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        for (i, opt) in [None, Some(case.fx.option)].into_iter().enumerate() {
            let out = tmp.path().join(format!("g{i}"));
            let o = out.to_str().unwrap();
            let mut args = vec!["gauntlet", case.names.attacker, "--field", case.names.field, "--trials", "30"];
            args.extend(["--max-turns", "8", "-q", "--out", o, "--format", "csv", "--no-charts"]);
            if let Some(opt) = opt {
                args.extend(["--option", opt]);
            }
            let run = case.run(&args);
            if p.ok(&run, false) {
                let tables = p.report_dir(&run.what, &out, &[]);
                for t in GAUNTLET_TABLES {
                    if !tables.iter().any(|x| x == t) {
                        p.add(format!("{}: no {t}.csv among {tables:?}", run.what));
                    }
                }
            }
        }
    }
    p.finish();
}

#[test]
fn contract_fit() {
    let mut p = Problems::new();
    for case in cases() {
        let base = ["fit", "--field", case.names.field, case.names.attacker, "--max-turns", "8", "-q"];
        let with = |extra: &[&str]| case.run(&base.iter().chain(extra).copied().collect::<Vec<_>>());
        p.ok(&with(&[]), false);
        p.ok(&with(&["--option", case.fx.option]), false);
        if let Some(j) = p.ok_json(&with(&["--format", "json"]), false, FIT_JSON) {
            let rows = j["rows"].as_array().cloned().unwrap_or_default();
            if rows.is_empty() {
                p.add(format!("{}: fit JSON has no rows", case.label));
            }
        }
        let csv = with(&["--format", "csv"]);
        if p.ok(&csv, false) {
            p.csv(&csv.what, &csv.stdout, &|_| false);
        }
    }
    p.finish();
}

const META_JSON: &[&str] = &[
    "ruleset",
    "players",
    "costs",
    "conditions",
    "seed",
    "matrix",
    "matrix_ci95",
    "shares",
    "shares_ci95",
    "value",
    "game_value",
    "dominated",
    "replicator",
    "options",
];

/// `meta` of the duel pair (and of the two forces, where the game has battles): exit 0,
/// the common JSON keys, shares that sum to 1 inside their intervals, and a matrix whose
/// entries and their mirrors sum to 1 (within the 12 significant digits reported).
#[test]
fn contract_meta() {
    let mut p = Problems::new();
    for case in cases() {
        let (a, b) = case.names.duel;
        let base =
            ["meta", a, b, "--trials", "30", "--max-turns", "8", "-q", "--bootstrap", "20", "--generations", "5"];
        let with = |extra: &[&str]| case.run(&base.iter().chain(extra).copied().collect::<Vec<_>>());
        p.ok(&with(&[]), false);
        p.ok(&with(&["--option", case.fx.option]), false);
        let mut runs = vec![with(&["--format", "json"])];
        if let Some((fa, fb)) = case.names.forces {
            runs.push(case.run(&[
                "meta",
                "--battle",
                fa,
                fb,
                "--trials",
                "20",
                "-q",
                "--bootstrap",
                "10",
                "--format",
                "json",
            ]));
        }
        for run in runs {
            let Some(j) = p.ok_json(&run, false, META_JSON) else { continue };
            let players: Vec<String> =
                j["players"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
            let sum: f64 = players.iter().map(|n| j["shares"][n].as_f64().unwrap_or(f64::NAN)).sum();
            if (sum - 1.0).abs() > 1e-9 {
                p.add(format!("{}: shares sum to {sum}", run.what));
            }
            for (i, _) in players.iter().enumerate() {
                for (k, _) in players.iter().enumerate() {
                    let (x, y) = (j["matrix"][i][k].as_f64().unwrap(), j["matrix"][k][i].as_f64().unwrap());
                    if (x + y - 1.0).abs() > 1e-11 {
                        p.add(format!("{}: matrix[{i}][{k}] + matrix[{k}][{i}] = {}", run.what, x + y));
                    }
                }
            }
        }
    }
    p.finish();
}

/// The rulesets whose build space `search` walks, with filters that keep the built-in
/// catalogue's space small (the small catalogue's is searched whole); the others exit 2
/// "not available".
const SEARCH_RULESETS: &[(&str, &[&str])] = &[
    ("techcommander", &["--unit", "Dwarf", "--must-include", "Kabaaam"]),
    ("mechcom", &["--unit", "Wasp,Sentinel"]),
    ("shellshock", &["--unit", "Hover Skirmisher"]),
    (
        "skirmishers",
        &[
            "--unit",
            "Rifleman",
            "--must-include",
            "Laser Rifle",
            "--must-include",
            "veteran",
            "--must-include",
            "no armour",
        ],
    ),
];

/// Keys every `search --format json` document has.
const SEARCH_JSON: &[&str] = &[
    "ruleset",
    "space",
    "space_size",
    "field",
    "conditions",
    "seed",
    "metric",
    "stages",
    "leaderboard",
    "pareto",
    "matchups",
];

/// `search` on every ruleset and both catalogues: where the game has a build space, a
/// short race exits 0 with the common keys, a leaderboard as long as the space, and
/// stages whose survivors never grow; elsewhere exit 2, not available.
#[test]
fn contract_search() {
    let mut p = Problems::new();
    for case in cases() {
        let args = ["search", "--field", case.names.field, "--top", "1", "--trials", "5", "--stages", "2", "-q"];
        let Some((_, filters)) = SEARCH_RULESETS.iter().find(|(r, _)| *r == case.fx.ruleset) else {
            p.not_available(&case.run(&args));
            continue;
        };
        let filters: &[&str] = if case.label.ends_with("builtin") { filters } else { &[] };
        let run = case.run(&[&args[..], filters, &["--max-turns", "8", "--format", "json"]].concat());
        let Some(j) = p.ok_json(&run, false, SEARCH_JSON) else { continue };
        let size = j["space_size"].as_u64().unwrap_or(0);
        if size == 0 || j["leaderboard"].as_array().map(Vec::len) != Some(size as usize) {
            p.add(format!("{}: a space of {size} with a leaderboard of another length", run.what));
        }
        let survivors: Vec<u64> =
            j["stages"].as_array().unwrap().iter().map(|s| s["survivors"].as_u64().unwrap()).collect();
        if survivors.windows(2).any(|w| w[1] > w[0]) {
            p.add(format!("{}: survivors grew: {survivors:?}", run.what));
        }
    }
    p.finish();
}
