//! Exact TechCommander duels on the command line (`duel --exact`, the `duels` table's
//! `exact_*` columns) and cost fitting (`volley fit`).

use super::*;
use volley::stats::binomial::consistent;

fn f(j: &serde_json::Value, k: &str) -> f64 {
    j[k].as_f64().unwrap_or_else(|| panic!("{k} is not a number: {j}"))
}

#[test]
fn techcommander_duel_exact_json_is_the_exact_law_and_monte_carlo_agrees() {
    let args = ["duel", "Gladiator Lancer", "Dwarf ALPHA", "--range", "12", "--format", "json"];
    let e = json_of(&[&args[..], &["--exact"]].concat());
    assert_eq!(e["method"], "exact");
    assert_eq!(e["ruleset"], "techcommander");
    let (a, b, d) = (f(&e, "p_a_wins"), f(&e, "p_b_wins"), f(&e, "p_draw"));
    assert!((a + b + d - 1.0).abs() < 1e-9, "{e}");
    assert!(a > 0.0 && b > 0.0, "{e}");
    // The same duel simulated: its counts lie inside exact binomial bounds around the
    // exact law, and its JSON carries the exact law too.
    let n = 200_000u64;
    let mc = json_of(&[&args[..], &["--trials", "200000"]].concat());
    let count = |k: &str| (f(&mc, k) * n as f64).round() as u64;
    for (k, p) in [("p_a_wins", a), ("p_b_wins", b), ("p_draw", d)] {
        assert!(consistent(count(k), n, p, 1e-6), "{k}: {} vs exact {p}", mc[k]);
    }
    assert_eq!(f(&mc["exact"], "p_a_wins"), a);
    // --exact takes no trial settings: a usage error.
    let out = volley().args([&args[..], &["--exact", "--trials", "10"]].concat()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn duel_sweeps_carry_exact_columns_beside_the_monte_carlo_ones() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name = \"d\"\nengagement = \"duel\"\nseed = 3\ntrials = 2000\nmax_turns = 10\nattackers = [\"Dwarf ALPHA\"]\nopponents = [\"Troll Brawler\", \"Gladiator Lancer\"]\n[grid]\nrange = [12, 24]\n";
    fs::write(dir.path().join("d.toml"), text).unwrap();
    let out = volley()
        .current_dir(dir.path())
        .args(["sweep", "d.toml", "--out", "r", "--quiet", "--no-charts", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mut r = csv::Reader::from_path(dir.path().join("r/duels.csv")).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap_or_else(|| panic!("no {name}: {headers:?}"));
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        let e = json_of(&[
            "duel",
            &row[col("a")],
            &row[col("b")],
            "--range",
            &row[col("range")],
            "--max-turns",
            "10",
            "--exact",
            "--format",
            "json",
        ]);
        for k in ["p_a_wins", "p_b_wins", "p_draw"] {
            let v: f64 = row[col(&format!("exact_{k}"))].parse().unwrap();
            assert!((v - f(&e, k)).abs() < 1e-12, "{k}: {v} vs {}", e[k]);
        }
    }
}
