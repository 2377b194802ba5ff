//! Range envelopes: `--range 6,12,24`, `--range 3..30:3` and `--range-weights` on duel,
//! compare (duels and battles), gauntlet, battle and fit: per-range results equal single-range runs, the weighted average,
//! each side's best range, fits over the envelope, one-sided ranges left out.

use super::*;

fn num(j: &serde_json::Value, k: &str) -> f64 {
    j[k].as_f64().unwrap_or_else(|| panic!("{k} is not a number: {j}"))
}

/// A single-range document without its `options` (the envelope gives them once).
fn single(mut j: serde_json::Value) -> serde_json::Value {
    j.as_object_mut().unwrap().remove("options");
    j
}

/// A per-range object without the keys the envelope adds to it.
fn bare(j: &serde_json::Value) -> serde_json::Value {
    let mut j = j.clone();
    let o = j.as_object_mut().unwrap();
    o.remove("range");
    o.remove("weight");
    j
}

#[test]
fn malformed_envelopes_are_usage_errors_naming_the_flag_and_the_item() {
    let cases: [(&[&str], &str); 9] = [
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "6,,12"], "empty item"),
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "6,x"], "`x`"),
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "30..3"], "band `30..3`"),
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "3..30:0"], "step `0`"),
        (
            &["compare", "Dwarf ALPHA", "Gladiator Lancer", "--against", "meta", "--range", "6,6"],
            "range 6 is given twice",
        ),
        (&["--ruleset", "mechcom", "duel", "Wasp", "Kerberos", "--range", "0..100"], "more than the 64"),
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "6,12", "--range-weights", "1"], "1 weights for 2"),
        (&["duel", "Dwarf ALPHA", "Gladiator Lancer", "--range", "6,12", "--range-weights", "1,-2"], "`-2`"),
        (&["fit", "Dwarf ALPHA", "--field", "meta", "--range", "12", "--range-weights", "1"], "--range-weights"),
    ];
    for (args, says) in cases {
        let out = volley().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--range") && err.contains(says), "{args:?}: {err}");
    }
    // Commands without envelopes keep taking one range.
    let out = volley().args(["ttk", "--attacker", "Dwarf ALPHA", "--target", "Stingray", "--range", "6,12"]).output();
    assert_eq!(out.unwrap().status.code(), Some(2));
}

#[test]
fn duel_ranges_equal_single_range_duels_and_average_with_weights() {
    // MECHCOM: both reach at 2 hexes, only the Wasp at 3, neither at 12.
    let base = ["--ruleset", "mechcom", "duel", "Wasp", "Kerberos", "--trials", "3000", "--seed", "7", "--quiet"];
    let json = |extra: &[&str]| json_of(&[&base[..], extra, &["--format", "json"]].concat());
    let j = json(&["--range", "2,3,12", "--range-weights", "1,2,1"]);
    let ranges = j["ranges"].as_array().unwrap();
    assert_eq!(ranges.len(), 3, "{j}");
    let weights = [0.25, 0.5, 0.25];
    let mut mean = [0.0; 3];
    for ((r, row), w) in ["2", "3", "12"].iter().zip(ranges).zip(weights) {
        // Bit for bit what `volley duel` says at that range alone, at the same seed.
        assert_eq!(bare(row), single(json(&["--range", r])), "range {r}");
        assert_eq!(row["range"].to_string(), *r);
        assert_eq!(num(row, "weight"), w);
        for (m, k) in mean.iter_mut().zip(["p_a_wins", "p_b_wins", "p_draw"]) {
            *m += w * num(row, k);
        }
    }
    let e = &j["envelope"];
    for (m, k) in mean.iter().zip(["p_a_wins", "p_b_wins", "p_draw"]) {
        assert!((num(e, k) - m).abs() < 1e-12, "{k}: {e}");
        let ci = e[format!("{k}_ci95")].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!((0.0..=*m).contains(&lo) && (*m..=1.0).contains(&hi) && hi > lo, "{k}: {e}");
    }
    assert_eq!(e["weights"], serde_json::json!(weights));
    // A (the Wasp) does best where the Kerberos cannot shoot back; B where it can at all.
    let best = &j["best_range"];
    let p = |i: usize, k: &str| num(&ranges[i], k);
    let a_best = (0..3).max_by(|&x, &y| p(x, "p_a_wins").total_cmp(&p(y, "p_a_wins"))).unwrap();
    assert_eq!(best["a"]["range"], ranges[a_best]["range"], "{best}");
    assert_eq!(best["a"]["side"], "Wasp");
    assert_eq!(best["b"]["range"], 2, "{best}");
    assert_eq!(best["b"]["tie"], false, "{best}");
    let text = stdout_of(&[&base[..], &["--range", "2,3,12", "--range-weights", "1,2,1"]].concat());
    assert!(text.contains("range 3: one-sided: Kerberos cannot attack Wasp"), "{text}");
    assert!(text.contains("range 12: one-sided: neither"), "{text}");
    assert!(text.contains("best range for Kerberos: 2 "), "{text}");
    assert!(text.contains("weighted average: Wasp wins"), "{text}");
    // A band writes its ranges out: 2..12:5 is 2, 7, 12.
    let band = json(&["--range", "2..12:5"]);
    let got: Vec<String> = band["ranges"].as_array().unwrap().iter().map(|r| r["range"].to_string()).collect();
    assert_eq!(got, ["2", "7", "12"]);
    assert_eq!(band["envelope"]["weights"], serde_json::json!([1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]));
}

#[test]
fn exact_duel_envelopes_average_exactly() {
    let base = ["duel", "Dwarf ALPHA", "Gladiator Lancer", "--exact"];
    let json = |extra: &[&str]| json_of(&[&base[..], extra, &["--format", "json"]].concat());
    let j = json(&["--range", "6,20"]);
    let ranges = j["ranges"].as_array().unwrap();
    let mut mean = 0.0;
    for (r, row) in ["6", "20"].iter().zip(ranges) {
        assert_eq!(bare(row), single(json(&["--range", r])), "range {r}");
        mean += 0.5 * num(row, "p_a_wins");
    }
    let e = &j["envelope"];
    assert!((num(e, "p_a_wins") - mean).abs() < 1e-12, "{e}");
    assert_eq!(e["p_a_wins_ci95"][0], e["p_a_wins"], "exact: zero width");
    assert_eq!(j["method"], "exact");
    let best = if num(&ranges[0], "p_a_wins") >= num(&ranges[1], "p_a_wins") { 6 } else { 20 };
    assert_eq!(j["best_range"]["a"]["range"], best);
    let text = stdout_of(&[&base[..], &["--range", "6,20"]].concat());
    assert!(text.contains(&format!("best range for Dwarf ALPHA: {best} ")), "{text}");
    assert!(text.contains("method: exact"), "{text}");
}

#[test]
fn compare_ranges_equal_single_range_comparisons() {
    let base = ["--ruleset", "skirmishers", "compare", "Rifleman", "Veteran SMG Gunner", "--against", "Rifle squad"];
    let json = |extra: &[&str]| {
        json_of(&[&base[..], extra, &["--trials", "2000", "--seed", "3", "--quiet", "--format", "json"]].concat())
    };
    let j = json(&["--range", "5,10", "--range-weights", "3,1"]);
    let ranges = j["ranges"].as_array().unwrap();
    let mut mean = (0.0, 0.0);
    for ((r, row), w) in ["5", "10"].iter().zip(ranges).zip([0.75, 0.25]) {
        assert_eq!(bare(row), json(&["--range", r])["overall"], "range {r}");
        mean.0 += w * num(row, "a");
        mean.1 += w * num(row, "b");
    }
    let e = &j["envelope"];
    assert!((num(e, "a") - mean.0).abs() < 1e-12 && (num(e, "b") - mean.1).abs() < 1e-12, "{e}");
    assert!((num(e, "difference") - (mean.0 - mean.1)).abs() < 1e-12, "{e}");
    // The matchups carry each range's weight times the opponent's.
    let total =
        |j: &serde_json::Value| -> f64 { j["matchups"].as_array().unwrap().iter().map(|m| num(m, "weight")).sum() };
    assert!((total(&j) - total(&json(&["--range", "5"]))).abs() < 1e-12, "{j}");
    for side in ["a", "b"] {
        let b = &j["best_range"][side];
        let i = usize::from(b["range"] == 10);
        assert_eq!(num(b, "value"), num(&ranges[i], side), "{b}");
        assert!(num(&ranges[i], side) >= num(&ranges[1 - i], side), "{j}");
        assert_eq!(b["tie"], !b["tied_with"].as_array().unwrap().is_empty());
    }
}

#[test]
fn fit_prices_from_the_weighted_envelope() {
    let base = ["fit", "Gladiator Lancer", "--field", "meta", "--quiet", "--format", "json"];
    let fitted = |extra: &[&str]| {
        let j = json_of(&[&base[..], extra].concat());
        assert_eq!(j["method"], "exact", "{j}");
        num(&j["rows"][0], "fitted_points")
    };
    let (near, far) = (fitted(&["--range", "12"]), fitted(&["--range", "30"]));
    // All the weight on one range: that range's fit, exactly.
    assert_eq!(fitted(&["--range", "12,30", "--range-weights", "1,0"]), near);
    assert_eq!(fitted(&["--range", "12,30", "--range-weights", "0,1"]), far);
    // Equal weights: the cost where the average result meets the target lies between.
    let both = fitted(&["--range", "12,30"]);
    assert!(near.min(far) < both && both < near.max(far), "{near} {both} {far}");
    let j = json_of(&[&base[..], &["--range", "12,30"]].concat());
    assert_eq!(j["envelope"]["ranges"], serde_json::json!([12, 30]), "{j}");
    assert!((num(&j["rows"][0], "result_at_fitted") - 0.5).abs() < 1e-6, "{j}");
}

#[test]
fn fit_leaves_out_ranges_where_a_side_cannot_attack() {
    // MECHCOM: the Kerberos cannot attack the Wasp at 3 hexes, neither can at 12.
    let base = ["--ruleset", "mechcom", "fit", "Wasp", "--field", "Kerberos", "--trials", "2000", "--quiet"];
    let json = |extra: &[&str]| json_of(&[&base[..], extra, &["--format", "json"]].concat());
    let j = json(&["--range", "2,3"]);
    let left: Vec<&str> =
        j["one_sided"].as_array().unwrap().iter().map(|m| m["conditions"].as_str().unwrap()).collect();
    assert_eq!(left.len(), 1, "{j}");
    assert!(left[0].starts_with("range=3|"), "{j}");
    assert_eq!(j["one_sided"][0]["opponent_can_attack"], false);
    // Priced from range 2 alone.
    assert_eq!(j["rows"][0]["fitted_points"], json(&["--range", "2"])["rows"][0]["fitted_points"], "{j}");
    let text = stdout_of(&[&base[..], &["--range", "2,3"]].concat());
    assert!(
        text.contains("Wasp vs Kerberos (range 3 hexes, cover none)") && text.contains("Kerberos cannot attack"),
        "{text}"
    );
    // Nothing left to price from: a failure.
    let out = volley().args([&base[..], &["--range", "3,12"]].concat()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no matchup to price from"));
}

#[test]
fn battle_ranges_equal_single_range_battles() {
    let base = ["--ruleset", "mechcom", "battle", "Kerberos Pack", "Hornet Lance", "--trials", "300", "--quiet"];
    let json = |extra: &[&str]| json_of(&[&base[..], extra, &["--format", "json"]].concat());
    let j = json(&["--range", "2,6", "--range-weights", "1,3"]);
    let ranges = j["ranges"].as_array().unwrap();
    let mut mean = [0.0; 2];
    for ((r, row), w) in ["2", "6"].iter().zip(ranges).zip([0.25, 0.75]) {
        assert_eq!(bare(row), json(&["--range", r]), "range {r}");
        mean[0] += w * num(row, "p_a_wins");
        mean[1] += w * num(row, "p_b_wins");
    }
    let e = &j["envelope"];
    assert!((num(e, "p_a_wins") - mean[0]).abs() < 1e-12 && (num(e, "p_b_wins") - mean[1]).abs() < 1e-12, "{e}");
    let a_best = if num(&ranges[0], "p_a_wins") >= num(&ranges[1], "p_a_wins") { 2 } else { 6 };
    assert_eq!(j["best_range"]["a"]["range"], a_best, "{j}");
    let text = stdout_of(&[&base[..], &["--range", "2,6"]].concat());
    assert!(text.contains(&format!("best range for Kerberos Pack: {a_best} ")), "{text}");
    // Shards take one range.
    let out = volley().args([&base[..], &["--range", "2,6", "--shard", "1/2"]].concat()).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A gauntlet's CSV table as (header, rows).
fn table(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(String::from).collect();
    (header, r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect())
}

fn cell<'a>(header: &[String], row: &'a [String], name: &str) -> &'a str {
    &row[header.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"))]
}

/// Each range of a gauntlet envelope plays the cells a single-range gauntlet plays; the
/// summary weights the ranges by `--range-weights` and names each build's best range.
#[test]
fn gauntlet_ranges_equal_single_range_gauntlets_and_weigh_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, range: &[&str]| {
        let out = tmp.path().join(name);
        let base = ["--ruleset", "mechcom", "gauntlet", "Kerberos", "Wasp", "--field", "arena", "--trials", "200"];
        let tail = ["-q", "--no-charts", "--format", "csv", "--out", out.to_str().unwrap()];
        let text = stdout_of(&[&base[..], range, &tail[..]].concat());
        (out, text)
    };
    let (env, text) = run("env", &["--range", "3,12", "--range-weights", "1,3"]);
    assert!(text.contains("best range"), "{text}");
    let (h, rows) = table(&env.join("gauntlet_matchups.csv"));
    for r in ["3", "12"] {
        let (single, _) = run(&format!("r{r}"), &["--range", r]);
        let (sh, srows) = table(&single.join("gauntlet_matchups.csv"));
        let mine: Vec<&Vec<String>> = rows.iter().filter(|x| cell(&h, x, "range") == r).collect();
        assert_eq!(mine.len(), srows.len(), "range {r}");
        for (a, b) in mine.iter().zip(&srows) {
            for c in ["build", "opponent", "trials", "p_win", "p_draw", "p_loss", "a_can_attack"] {
                assert_eq!(cell(&h, a, c), cell(&sh, b, c), "range {r}, column {c}");
            }
        }
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(env.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["condition_weights"], serde_json::json!([0.25, 0.75]), "{manifest}");
    let (sh, summary) = table(&env.join("gauntlet_summary.csv"));
    let field: f64 = rows
        .iter()
        .filter(|x| cell(&h, x, "build") == "Kerberos")
        .map(|x| cell(&h, x, "weight").parse::<f64>().unwrap())
        .sum::<f64>()
        / 2.0;
    for s in &summary {
        let build = cell(&sh, s, "build");
        let rate = |r: &str| -> f64 {
            rows.iter()
                .filter(|x| cell(&h, x, "build") == build && cell(&h, x, "range") == r)
                .map(|x| cell(&h, x, "weight").parse::<f64>().unwrap() * cell(&h, x, "p_win").parse::<f64>().unwrap())
                .sum::<f64>()
                / field
        };
        let (at3, at12) = (rate("3"), rate("12"));
        let want = 0.25 * at3 + 0.75 * at12;
        let got: f64 = cell(&sh, s, "weighted_p_win").parse().unwrap();
        assert!((got - want).abs() < 1e-12, "{build}: weighted_p_win {got}, want {want}");
        let best = if at3 >= at12 { "3" } else { "12" };
        assert_eq!(cell(&sh, s, "best_range"), best, "{build}: {at3} at 3, {at12} at 12");
        let p: f64 = cell(&sh, s, "best_range_p_win").parse().unwrap();
        assert!((p - at3.max(at12)).abs() < 1e-12, "{build}");
    }
    // A meta takes one range.
    let out = volley()
        .args(["--ruleset", "mechcom", "meta", "Kerberos", "Wasp", "--range", "3,12", "--trials", "20", "-q"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("'3,12' for '--range"));
}

/// `compare --battle` over ranges: each range's comparison is the single-range one, the
/// overall their weighted average, and the verdict is read per cost.
#[test]
fn battle_comparisons_take_ranges_and_read_per_cost() {
    let base = [
        "--ruleset",
        "mechcom",
        "compare",
        "Kerberos Pack",
        "Hornet Lance",
        "--battle",
        "--versus",
        "Hornet Lance",
        "--trials",
        "200",
        "-q",
        "--format",
        "json",
    ];
    let json = |extra: &[&str]| json_of(&[&base[..], extra].concat());
    let j = json(&["--range", "2,6", "--range-weights", "3,1"]);
    let ranges = j["ranges"].as_array().unwrap();
    let mut mean = [0.0; 2];
    for ((r, row), w) in ["2", "6"].iter().zip(ranges).zip([0.75, 0.25]) {
        let one = json(&["--range", r]);
        for k in ["a", "b", "difference"] {
            assert!(
                (num(row, k) - num(&one["overall"], k)).abs() < 1e-12,
                "range {r} {k}: {row} vs {}",
                one["overall"]
            );
        }
        mean[0] += w * num(row, "a");
        mean[1] += w * num(row, "b");
    }
    let o = &j["overall"];
    assert!((num(o, "a") - mean[0]).abs() < 1e-12 && (num(o, "b") - mean[1]).abs() < 1e-12, "{o}");
    let a_best = if num(&ranges[0], "a") >= num(&ranges[1], "a") { 2 } else { 6 };
    assert_eq!(j["best_range"]["a"]["range"], a_best, "{j}");
    // Per cost: 100 × win rate / the force's points, and the verdict follows the interval.
    let (ca, cb) = (num(&j, "a_points"), num(&j, "b_points"));
    assert!((num(&j, "a_per_100") - 100.0 * num(o, "a") / ca).abs() < 1e-9, "{j}");
    assert!((num(&j, "b_per_100") - 100.0 * num(o, "b") / cb).abs() < 1e-9, "{j}");
    let ci = j["difference_per_100_ci95"].as_array().unwrap();
    let (low, high) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
    let want = if low > 0.0 {
        "a"
    } else if high < 0.0 {
        "b"
    } else {
        "tie"
    };
    assert_eq!(j["better_per_cost"], want, "{j}");
    assert!(low <= num(&j, "difference_per_100") && num(&j, "difference_per_100") <= high, "{j}");
    let text = stdout_of(&[&base[..base.len() - 2], &["--range", "2,6", "--pairing", "independent"]].concat());
    assert!(text.contains("best range for Kerberos Pack") && text.contains("per 100 points"), "{text}");
}
