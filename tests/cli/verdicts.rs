//! Verdicts: cost-aware comparisons, fits that converge or say so, sides that cannot attack.

use super::*;

fn num(j: &serde_json::Value, k: &str) -> f64 {
    j[k].as_f64().unwrap_or_else(|| panic!("{k} is not a number: {j}"))
}

/// The run's stdout and exit code.
fn run_of(args: &[&str]) -> (String, String, Option<i32>) {
    let out = volley().args(args).output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into(), out.status.code())
}

#[test]
fn the_raw_winner_can_lose_per_point_and_compare_says_so() {
    // Skirmishers: the Rifleman wins more but the SMG gunner wins more per point
    // (0.234% against 0.238% per PV): the old verdict printed both as 0.2%.
    let args = ["--ruleset", "skirmishers", "compare", "Rifleman", "Veteran SMG Gunner", "--against", "Rifle squad"];
    let args = [&args[..], &["--range", "10", "--quiet"]].concat();
    let text = stdout_of(&args);
    let line = text.lines().find(|l| l.contains("per PV: A ")).unwrap_or_else(|| panic!("{text}"));
    let (a, b) = line.split_once("per PV: A ").unwrap().1.split_once(", B ").unwrap();
    assert_ne!(a, b, "different per-point values print alike: {line}");
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    let (a, b) = (num(&j, "a_per_100"), num(&j, "b_per_100"));
    assert!(b > a, "the SMG gunner is better per point: {j}");
    let d = num(&j, "difference_per_100");
    assert!((d - (a - b)).abs() < 1e-12);
    let ci = j["difference_per_100_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= d && d <= ci[1].as_f64().unwrap(), "{j}");
    let verdict = j["better_per_cost"].as_str().unwrap();
    let tie = ci[0].as_f64().unwrap() <= 0.0 && ci[1].as_f64().unwrap() >= 0.0;
    assert_eq!(verdict, if tie { "tie" } else { "b" }, "{j}");
    if tie {
        assert!(text.contains("tied within the interval (sidegrade)"), "{text}");
    } else {
        assert!(text.contains("Veteran SMG Gunner is better per PV"), "{text}");
    }
    // The parity cost solves the per-cost equality: B at cost c is worth A per PV.
    let parity = num(&j, "parity_cost_unrounded");
    let (pa, pb) = (num(&j["overall"], "a"), num(&j["overall"], "b"));
    assert!((parity - num(&j, "a_points") * pb / pa).abs() < 1e-9, "{j}");
    assert_eq!(num(&j, "parity_cost"), (parity / num(&j, "cost_granularity")).round() * num(&j, "cost_granularity"));
    let pci = j["parity_cost_ci95"].as_array().unwrap();
    assert!(pci[0].as_f64().unwrap() <= parity && pci[1].as_f64().is_none_or(|h| h >= parity), "{j}");
}

#[test]
fn a_dearer_tank_that_wins_more_is_worse_per_ecv() {
    let args = [
        "--ruleset",
        "shellshock",
        "compare",
        "Main Battle Tank",
        "Hover Skirmisher",
        "--against",
        "mixed",
        "--range",
        "36",
        "--quiet",
        "--format",
        "json",
    ];
    let j = json_of(&args);
    assert_eq!(j["cost_unit"], "ECV");
    assert!(num(&j, "a_points") > num(&j, "b_points"), "{j}");
    assert!(num(&j, "a_per_100") < num(&j, "b_per_100"), "the tank is worse per ECV: {j}");
    assert_ne!(j["better_per_cost"], "a", "{j}");
}

#[test]
fn a_build_that_never_kills_is_not_better_per_point_in_turns() {
    // The Wasp cannot reach the Bulwark at 8 hexes: its turns are the cap + 1 = 21, and
    // 21 × 180 / 100 = 37.8 would beat the Pythia's 19.34 × 200 / 100 = 38.68.
    let args = [
        "--ruleset",
        "mechcom",
        "compare",
        "Pythia",
        "Wasp",
        "--target",
        "Bulwark",
        "--range",
        "8",
        "--exact",
        "--metric",
        "turns",
    ];
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(j["better_per_cost"], "a", "{j}");
    assert_eq!((j["a_never_kills"].as_bool(), j["b_never_kills"].as_bool()), (Some(false), Some(true)));
    assert!(j["b_per_100"].is_null() && j["parity_cost"].is_null(), "{j}");
    assert!((num(&j, "a_per_100") - 38.682132419266736).abs() < 1e-9);
    let text = stdout_of(&args);
    assert!(text.contains("B unbounded: Wasp never kills in some matchup"), "{text}");
    assert!(text.contains("Pythia is better per point at any price of Wasp"), "{text}");
    // Swapped, the same verdict from the other side.
    let swapped = [&args[..3], &["Wasp", "Pythia"], &args[5..]].concat();
    let j = json_of(&[&swapped[..], &["--format", "json"]].concat());
    assert_eq!((j["better_per_cost"].as_str(), j["a_never_kills"].as_bool()), (Some("b"), Some(true)), "{j}");
    let text = stdout_of(&swapped);
    assert!(text.contains("A unbounded, B 38.6821: Wasp never kills in some matchup (it has no weapon"), "{text}");
    assert!(text.contains("Pythia is better per point at any price of Pythia"), "{text}");
    // Both reach: finite figures and a parity cost, as before.
    let both = [&args[..3], &["Pythia", "Sentinel"], &args[5..]].concat();
    let j = json_of(&[&both[..], &["--format", "json"]].concat());
    assert!(j["b_per_100"].is_f64() && j["b_never_kills"] == false, "{j}");
    // A build that reaches but never kills within the cap: the Crew's sidearm against a
    // Rhino at 30 inches.
    let crew = [
        "compare",
        "Crew Sidearm",
        "Gladiator Lancer",
        "--target",
        "Rhino Standard",
        "--range",
        "30",
        "--exact",
        "--metric",
        "turns",
    ];
    let text = stdout_of(&crew);
    assert!(text.contains("Crew Sidearm never kills in some matchup (it reaches, but no run of it kills"), "{text}");
    assert_eq!(json_of(&[&crew[..], &["--format", "json"]].concat())["a_never_kills"], true);
}

#[test]
fn exact_attack_runs_get_a_per_point_figure_and_parity_cost() {
    let args = ["compare", "Paladin Siege", "Troll Brawler", "--target", "Stingray", "--target", "ac:4", "--exact"];
    let text = stdout_of(&args);
    assert!(text.contains("turns a 100-point budget of copies takes, fewer is better): A "), "{text}");
    assert!(text.contains("parity cost: Troll Brawler would break even"), "{text}");
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    let (ta, tb) = (num(&j["overall"], "a"), num(&j["overall"], "b"));
    let (ca, cb) = (num(&j, "a_points"), num(&j, "b_points"));
    assert!((num(&j, "a_per_100") - ta * ca / 100.0).abs() < 1e-9, "{j}");
    assert!((num(&j, "difference_per_100") - (ta * ca - tb * cb) / 100.0).abs() < 1e-9, "{j}");
    let ci = j["difference_per_100_ci95"].as_array().unwrap();
    assert_eq!(ci[0], ci[1], "exact: zero width");
    let better = if ta * ca < tb * cb { "a" } else { "b" };
    assert_eq!(j["better_per_cost"], better, "{j}");
    assert!((num(&j, "parity_cost_unrounded") - ca * ta / tb).abs() < 1e-9, "{j}");
}

/// `fit --all` at a ruleset's defaults as JSON, checked to exit 0.
fn fit_all(ruleset: &str, extra: &[&str]) -> serde_json::Value {
    let args = [&["--ruleset", ruleset, "fit", "--all", "--quiet", "--format", "json"][..], extra].concat();
    let (out, err, code) = run_of(&args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    serde_json::from_str(&out).unwrap()
}

/// Every row is a finite fit with its interval, or an unfitted status with no cost.
fn check_fit_rows(j: &serde_json::Value) {
    for k in ["field", "conditions", "metric", "target"] {
        assert!(!j[k].is_null(), "{k}: {j}");
    }
    let rows = j["rows"].as_array().unwrap();
    for r in rows {
        let status = r["status"].as_str().unwrap();
        assert!(["fitted", "unbeatable", "hopeless", "cannot-attack", "not-converged"].contains(&status), "{status}");
        if status == "fitted" {
            let c = num(r, "cost");
            let ci = r["cost_ci95"].as_array().unwrap();
            assert!(c.is_finite() && c > 0.0, "{r}");
            assert!(ci[0].as_f64().unwrap() <= c && ci[1].as_f64().is_none_or(|h| h >= c), "{r}");
            let g = num(j, "cost_granularity");
            assert!(((c / g) - (c / g).round()).abs() < 1e-6, "rounded to the catalogue's step {g}: {r}");
        } else {
            assert!(r["cost"].is_null() && r["fitted_points"].is_null(), "{r}");
        }
    }
    assert!(rows.iter().any(|r| r["status"] == "fitted"), "{j}");
}

#[test]
fn techcommander_fit_all_converges_or_says_so() {
    // Was: "did not converge after 1 iterations (largest last change NaN)", exit 0,
    // with costs printed (Paladin Siege 1901, Stingray 0.022).
    let args = ["fit", "--all", "--range", "12", "--quiet", "--format", "json"];
    let (out, err, code) = run_of(&args);
    assert!(!err.contains("NaN") && !out.contains("NaN"), "{err}{out}");
    match code {
        Some(0) => {
            let j: serde_json::Value = serde_json::from_str(&out).unwrap();
            assert_eq!(j["convergence"]["converged"], true, "{j}");
            check_fit_rows(&j);
        }
        Some(1) => {
            assert!(out.is_empty(), "no costs when the fit did not converge: {out}");
            assert!(err.contains("no costs for: "), "{err}");
            // Was: "did not converge after 0 steps (largest distance 5.0e-1)" for a lone
            // build left when every other had left the fit: it never had a fit to converge.
            assert!(!err.contains("after 0 steps"), "{err}");
            assert!(
                err.contains("did not converge")
                    || err.contains("nothing to price")
                    || err.contains("no costs the catalogue can write"),
                "{err}"
            );
            if err.contains("nothing to price") {
                assert!(err.contains("hopeless") || err.contains("unbeatable"), "names why the others left: {err}");
            }
        }
        other => panic!("exit {other:?}: {err}"),
    }
}

#[test]
fn techcommander_fit_all_at_its_defaults_refuses_naming_the_step_not_a_false_verdict() {
    // The joint fit converges, but scaled to the catalogue's total only the Paladin Siege
    // and the Beagle Hunter reach half a point. Was: "nothing to price Crew Sidearm
    // against ... 3 unbeatable: Beagle Hunter, Paladin Siege, ECBS Pirate AT", though
    // neither is unbeatable in the full field.
    let (out, err, code) = run_of(&["fit", "--all", "--quiet"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(out.is_empty(), "no costs: {out}");
    assert!(err.contains("no costs the catalogue can write") && err.contains("it converged ("), "{err}");
    assert!(err.contains("below half the catalogue's step of 1 point: ") && err.contains("Stingray Standard"), "{err}");
    assert!(err.contains("without the costliest (Paladin Siege, Beagle Hunter)"), "{err}");
    assert!(!err.contains("unbeatable: Beagle Hunter") && !err.contains("NaN"), "{err}");
    let (out, _, code) = run_of(&["fit", "--all", "--quiet", "--format", "json"]);
    assert_eq!((code, out.is_empty()), (Some(1), true));
}

#[test]
fn fit_text_prints_costs_at_the_catalogue_step_and_conditions_in_words() {
    // Was: `2.0000` and three interval columns.
    let text = stdout_of(&["fit", "Gladiator Lancer", "--field", "meta", "--range", "12", "--quiet"]);
    let header = text.lines().find(|l| l.starts_with("build")).unwrap();
    assert!(header.contains("cost_ci95") && !header.contains("cost_ci95_low"), "{header}");
    let row = text.lines().find(|l| l.starts_with("Gladiator Lancer")).unwrap();
    let words: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&words[2..6], ["4", "2", "exact", "0.3822"], "{row}");
    // Monte Carlo: the interval at the catalogue's step of 10; left-out matchups in words
    // (was: `range=3|cover=none|engaged=false|...`), counted with the right plural.
    let args = ["--ruleset", "mechcom", "fit", "Kerberos", "Wasp", "--field", "Junker", "--range", "3"];
    let text = stdout_of(&[&args[..], &["--method", "monte-carlo", "--trials", "300", "--quiet"]].concat());
    assert!(text.contains("left out: 1 matchup where"), "{text}");
    let line = text.lines().find(|l| l.trim_start().starts_with("Kerberos vs Junker")).unwrap();
    assert!(line.contains("(range 3 hexes") && !line.contains("range=3|"), "{line}");
    let wasp = text.lines().find(|l| l.starts_with("Wasp")).unwrap();
    let cost: Vec<&str> = wasp.split_whitespace().collect();
    assert!(cost[2].parse::<u64>().is_ok_and(|c| c % 10 == 0) && cost[4] == "to", "{wasp}");
}

#[test]
fn mechcom_fit_all_converges_at_its_defaults() {
    // Was: exit 1 on the Typhon.
    let j = fit_all("mechcom", &[]);
    assert_eq!(j["convergence"]["converged"], true, "{j}");
    check_fit_rows(&j);
}

#[test]
fn skirmishers_fit_all_gives_no_absurd_costs() {
    // Was: Rocketeer 0.047 against Heavy Power Trooper 2,985.
    let j = fit_all("skirmishers", &[]);
    assert_eq!(j["convergence"]["converged"], true, "{j}");
    check_fit_rows(&j);
}

#[test]
fn shellshock_fit_all_converges_at_its_defaults() {
    let j = fit_all("shellshock", &[]);
    assert_eq!(j["convergence"]["converged"], true, "{j}");
    check_fit_rows(&j);
}

#[test]
fn a_fit_names_its_field_conditions_metric_and_target() {
    let text = stdout_of(&["fit", "Dwarf ALPHA", "--field", "meta", "--range", "12", "--quiet"]);
    assert!(text.contains("field: ") && text.contains("conditions: range 12"), "{text}");
    assert!(text.contains("metric win at target 0.5"), "{text}");
}

#[test]
fn duels_say_which_side_cannot_attack() {
    // No Kerberos weapon reaches 3 hexes: it cannot attack, and the duel says so.
    let args = ["--ruleset", "mechcom", "duel", "Wasp", "Kerberos", "--range", "3", "--quiet"];
    let j = json_of(&[&args[..], &["--format", "json", "--trials", "2000"]].concat());
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(false)), "{j}");
    let text = stdout_of(&[&args[..], &["--trials", "2000"]].concat());
    assert!(text.contains("Kerberos cannot attack Wasp"), "{text}");
    // Both reach at 2 (Needle Pistol 4 hexes, Acid Sprayer 2); neither at 12 (the
    // Buzzkil Rifle reaches 6).
    let neither = json_of(&[
        "--ruleset",
        "mechcom",
        "duel",
        "Wasp",
        "Kerberos",
        "--range",
        "12",
        "--trials",
        "200",
        "--format",
        "json",
    ]);
    assert_eq!((neither["a_can_attack"].as_bool(), neither["b_can_attack"].as_bool()), (Some(false), Some(false)));
    let j = json_of(&[
        "--ruleset",
        "mechcom",
        "duel",
        "Wasp",
        "Kerberos",
        "--range",
        "2",
        "--trials",
        "200",
        "--format",
        "json",
    ]);
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(true)), "{j}");
}

#[test]
fn fits_leave_out_one_sided_matchups() {
    // Was: one mech priced at 10,051 against its 230, from matchups it could not lose.
    let j =
        json_of(&["--ruleset", "mechcom", "fit", "--field", "arena", "--range", "3", "--quiet", "--format", "json"]);
    let one_sided = j["one_sided"].as_array().unwrap();
    assert!(!one_sided.is_empty(), "{j}");
    // Every matchup left out has a side that cannot attack, or a duel the rules refuse to
    // play (the Typhon's Heat), which says why.
    assert!(
        one_sided
            .iter()
            .all(|m| m["build_can_attack"] == false || m["opponent_can_attack"] == false || m["refused"].is_string()),
        "{j}"
    );
    // Kerberos reaches nobody at 3 hexes: it is not priced (was 0.0008 points).
    let rows = j["rows"].as_array().unwrap();
    let kerberos = rows.iter().find(|r| r["build"] == "Kerberos").unwrap();
    assert_eq!(kerberos["status"], "cannot-attack", "{kerberos}");
    assert!(kerberos["cost"].is_null(), "{kerberos}");
    for r in rows.iter().filter(|r| r["status"] == "fitted") {
        assert!((num(r, "result_at_fitted") - 0.5).abs() < 1e-6, "{r}");
    }
}

#[test]
fn gauntlet_prints_win_per_100_with_digits_that_tell_builds_apart() {
    // Was: "win per point" 0.2% for both (0.234% and 0.238% per PV).
    let dir = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(dir.path())
        .args(["--ruleset", "skirmishers", "gauntlet", "Rifleman", "Veteran SMG Gunner", "--field", "Rifle squad"])
        .args(["--range", "10", "--quiet", "--no-charts", "--out", "g"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("wins per 100 PV"), "{text}");
    let header = text.lines().find(|l| l.starts_with("build")).unwrap();
    let at = header.find("wins per 100 PV").unwrap();
    let per_100: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("Rifleman") || l.starts_with("Veteran SMG Gunner"))
        .map(|l| l[at..].split_whitespace().next().unwrap())
        .collect();
    assert_eq!(per_100.len(), 2, "{text}");
    assert_ne!(per_100[0], per_100[1], "{text}");
    // A count of wins per 100 PV, not a probability: no `%` (was "0.2%" and, in
    // TechCommander, "661.9%"), with its interval and a verdict per cost.
    assert!(per_100.iter().all(|w| !w.ends_with('%') && w.parse::<f64>().is_ok()), "{text}");
    assert!(header.contains("per_100_ci95") && header.contains("tied per cost with"), "{header}");
    assert!(text.contains("most wins per 100 PV: "), "{text}");
}

#[test]
fn gauntlet_wins_per_100_points_carry_an_interval_and_a_tie_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(dir.path())
        .args(["gauntlet", "Dwarf ALPHA", "Troll Brawler", "Paladin Siege", "--field", "meta", "--range", "20"])
        .args(["--trials", "2000", "--quiet", "--format", "csv", "--out", "g"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut r = csv::Reader::from_path(dir.path().join("g/gauntlet_summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|c| c == name).unwrap_or_else(|| panic!("{name}: {h:?}"));
    for row in r.records() {
        let row = row.unwrap();
        let f = |name: &str| row[col(name)].parse::<f64>().unwrap();
        let (points, v, lo, hi) =
            (f("points"), f("p_win_per_point"), f("p_win_per_point_ci95_low"), f("p_win_per_point_ci95_high"));
        assert!(lo <= v && v <= hi && lo < hi, "{row:?}");
        // The win rate's interval divided by the cost.
        assert!((lo * points - f("weighted_p_win_ci95_low")).abs() < 1e-12, "{row:?}");
        assert!((hi * points - f("weighted_p_win_ci95_high")).abs() < 1e-12, "{row:?}");
    }
    let page = fs::read_to_string(dir.path().join("g/index.md")).unwrap();
    assert!(page.contains("wins per 100 points (95% CI ") && page.contains("Most wins per 100 points: **"), "{page}");
}
