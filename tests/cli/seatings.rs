//! Seat orders of N-player battle sweeps (`seatings = "fixed" | "rotate" | "all"`) and
//! the per-force table `battle_forces`.

use std::path::Path;

use super::shard::{clean, run_ok, sweep_sharded_and_merge};
use super::*;

/// Three forces of the same units (only their budgets differ, which no battle reads): a
/// mirror field, where seat order alone makes the difference.
pub(super) const MIRROR: &str = "\
[[force]]\nname = \"Red\"\nbudget = 12\nunits = [{ build = \"Stingray Standard\", count = 1 }, { build = \"ECBS Pirate AT\", count = 1 }]\n\
[[force]]\nname = \"Green\"\nbudget = 13\nunits = [{ build = \"Stingray Standard\", count = 1 }, { build = \"ECBS Pirate AT\", count = 1 }]\n\
[[force]]\nname = \"Blue\"\nbudget = 14\nunits = [{ build = \"Stingray Standard\", count = 1 }, { build = \"ECBS Pirate AT\", count = 1 }]\n";

const TRIALS: u64 = 1000;

/// A 3-player deathmatch of the mirror field at range 24, with `seatings` written as
/// `seatings` (None = the key left out).
fn scenario(seatings: Option<&str>) -> String {
    mirror_scenario(3, seatings, TRIALS)
}

/// A deathmatch of the mirror field at range 24 with `players` players, `trials` per
/// cell and `seatings` written as `seatings` (None = the key left out).
pub(super) fn mirror_scenario(players: u32, seatings: Option<&str>, trials: u64) -> String {
    let key = seatings.map_or(String::new(), |s| format!("seatings = \"{s}\"\n"));
    format!(
        "name = \"mirror\"\nengagement = \"battle\"\nmode = \"deathmatch\"\nplayers = {players}\n{key}seed = 6\ntrials = {trials}\nloadouts_add = [\"mirror.toml\"]\nforces = [\"Red\", \"Green\", \"Blue\"]\n\n[grid]\nrange = [24]\n"
    )
}

/// Run the scenario text `text` in `d` (as `name.toml`, with the mirror field beside it)
/// into `d/name`: CSV tables, no charts.
pub(super) fn sweep(d: &Path, name: &str, text: &str) -> std::path::PathBuf {
    fs::write(d.join("mirror.toml"), MIRROR).unwrap();
    fs::write(d.join(format!("{name}.toml")), text).unwrap();
    run_ok(clean(volley()).current_dir(d).args(["sweep", &format!("{name}.toml"), "--out", name]).args([
        "--quiet",
        "--no-charts",
        "--format",
        "csv",
    ]));
    d.join(name)
}

/// A CSV table's rows as column → text.
pub(super) fn rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let h: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records().map(|rec| h.iter().cloned().zip(rec.unwrap().iter().map(str::to_string)).collect()).collect()
}

/// Column `col` of row `r` as a number.
pub(super) fn f(r: &std::collections::BTreeMap<String, String>, col: &str) -> f64 {
    r.get(col).unwrap_or_else(|| panic!("no {col} in {r:?}")).parse().unwrap()
}

#[test]
fn a_rotated_mirror_field_gives_every_force_the_same_win_chance() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // In force order the seats differ far beyond their intervals (seat order matters)...
    let fixed = rows(&sweep(d, "fixed", &scenario(None)).join("battles.csv"));
    let seat = |s: &str| fixed.iter().find(|r| r["seat"] == s).unwrap();
    assert!(f(seat("A"), "p_a_wins_ci95_high") < f(seat("C"), "p_a_wins_ci95_low"), "{fixed:?}");
    // ... rotated, every force holds every seat once and the pooled chances agree.
    let out = sweep(d, "rotate", &scenario(Some("rotate")));
    let battles = rows(&out.join("battles.csv"));
    let forces = rows(&out.join("battle_forces.csv"));
    assert_eq!(battles.len(), 3 * 3, "3 rotations of 3 seats");
    assert_eq!(forces.len(), 3);
    for (x, y) in [(0, 1), (0, 2), (1, 2)] {
        let (a, b) = (&forces[x], &forces[y]);
        assert!(
            f(a, "p_wins_ci95_low") <= f(b, "p_wins_ci95_high") && f(b, "p_wins_ci95_low") <= f(a, "p_wins_ci95_high"),
            "{} {} vs {} {}",
            a["force"],
            a["p_wins"],
            b["force"],
            b["p_wins"]
        );
    }
    // Each pooled row is its force's seat rows merged: counts add up, seat by seat.
    for r in &forces {
        assert_eq!(
            (r["matchup"].as_str(), r["seatings"].as_str(), r["seats"].as_str()),
            ("Red / Green / Blue", "rotate", "A / B / C")
        );
        assert_eq!((f(r, "cells"), f(r, "trials")), (3.0, 3.0 * TRIALS as f64));
        let held: Vec<_> = battles.iter().filter(|b| b["force_a"] == r["force"]).collect();
        assert_eq!(held.iter().map(|b| b["seat"].as_str()).collect::<std::collections::BTreeSet<_>>().len(), 3);
        for (pooled, seat) in [("p_wins", "p_a_wins"), ("mean_score", "mean_score_a"), ("mean_kills", "mean_kills_a")] {
            let sum: f64 = held.iter().map(|b| f(b, seat)).sum();
            assert!((f(r, pooled) - sum / 3.0).abs() < 1e-9, "{pooled} of {}", r["force"]);
        }
        let draws: f64 = held.iter().map(|b| f(b, "p_draw")).sum();
        assert!((f(r, "p_draw") - draws / 3.0).abs() < 1e-12);
        // Reach holds in every seating, and the initiative split pools the seats' splits:
        // each pooled rate is a mean of the seats' rates weighted by their battles.
        assert_eq!((r["a_can_attack"].as_str(), r["b_can_attack"].as_str()), ("true", "true"), "{r:?}");
        for col in ["p_a_wins_a_first", "p_a_wins_b_first"] {
            let seats: Vec<f64> = held.iter().filter(|b| !b[col].is_empty()).map(|b| f(b, col)).collect();
            let (low, high) = seats.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| (l.min(x), h.max(x)));
            let pooled = f(r, col);
            assert!(low - 1e-12 <= pooled && pooled <= high + 1e-12, "{col} {pooled} outside the seats' {seats:?}");
        }
        assert!(["true", "false"].contains(&r["decided_by_initiative"].as_str()), "{r:?}");
    }
    let m: serde_json::Value = serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(m["battle"]["seatings"], "rotate");
}

#[test]
fn a_rotated_cell_is_volley_battle_of_the_forces_in_that_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let battles = rows(&sweep(d, "rotate", &scenario(Some("rotate"))).join("battles.csv"));
    // Rotation 1 seats Green, Blue, Red.
    let cell: Vec<_> = battles.iter().filter(|r| r["matchup"] == "Green / Blue / Red").collect();
    assert_eq!(cell.iter().map(|r| r["seat"].as_str()).collect::<Vec<_>>(), ["A", "B", "C"]);
    let (loadouts, trials) = (d.join("mirror.toml"), TRIALS.to_string());
    let j = json_of(&[
        "--add-loadouts",
        loadouts.to_str().unwrap(),
        "battle",
        "--mode",
        "deathmatch",
        "Green",
        "Blue",
        "Red",
        "--range",
        "24",
        "--seed",
        "6",
        "--trials",
        &trials,
        "-q",
        "--format",
        "json",
    ]);
    for (seat, r) in cell.iter().enumerate() {
        let side = &j["sides"][seat];
        assert!((f(r, "p_a_wins") - side["p_wins"].as_f64().unwrap()).abs() < 1e-12, "seat {seat}");
        assert!((f(r, "mean_score_a") - side["mean_score"].as_f64().unwrap()).abs() < 1e-9, "seat {seat}");
        assert!((f(r, "p_draw") - j["p_draw"].as_f64().unwrap()).abs() < 1e-12);
    }
    // Value stability: this cell's counts for seed 6 (a change in how the battle or its
    // streams draw shows here).
    let counts: Vec<u64> = cell.iter().map(|r| (f(r, "p_a_wins") * TRIALS as f64).round() as u64).collect();
    let scores: Vec<u64> = cell.iter().map(|r| (f(r, "mean_score_a") * TRIALS as f64).round() as u64).collect();
    assert_eq!((counts, scores), (vec![100, 236, 656], vec![46228, 52396, 61093]));
}

#[test]
fn fixed_seatings_are_todays_tables() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (none, fixed) = (sweep(d, "none", &scenario(None)), sweep(d, "fixed", &scenario(Some("fixed"))));
    for t in ["battles.csv", "battle_units.csv"] {
        assert_eq!(fs::read_to_string(fixed.join(t)).unwrap(), fs::read_to_string(none.join(t)).unwrap(), "{t}");
    }
    assert!(!fixed.join("battle_forces.csv").exists());
    let battle = |p: &Path| {
        let m: serde_json::Value = serde_json::from_str(&fs::read_to_string(p.join("manifest.json")).unwrap()).unwrap();
        m["battle"].clone()
    };
    assert_eq!(battle(&fixed), battle(&none));
}

#[test]
fn every_order_pools_each_seat_twice_and_shards_merge_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let text = scenario(Some("all")).replace(&format!("trials = {TRIALS}"), "trials = 200");
    let out = sweep(d, "all", &text);
    let battles = rows(&out.join("battles.csv"));
    assert_eq!(battles.len(), 6 * 3);
    let orders: std::collections::BTreeSet<_> = battles.iter().map(|r| r["matchup"].clone()).collect();
    assert_eq!(orders.len(), 6, "{orders:?}");
    for r in rows(&out.join("battle_forces.csv")) {
        assert_eq!((r["seats"].as_str(), f(&r, "cells"), f(&r, "trials")), ("A / B / C", 6.0, 1200.0));
    }
    sweep_sharded_and_merge(d, "all.toml", 2);
    for t in ["battles.csv", "battle_forces.csv"] {
        assert_eq!(
            fs::read_to_string(d.join("merged").join(t)).unwrap(),
            fs::read_to_string(out.join(t)).unwrap(),
            "{t}"
        );
    }
}

#[test]
fn bad_seatings_are_refused_naming_the_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("mirror.toml"), MIRROR).unwrap();
    // 7 generated forces, 6 players: 7 matchups in 720 orders each.
    let many = scenario(Some("all"))
        .replace("players = 3", "players = 6")
        .replace("forces = [\"Red\", \"Green\", \"Blue\"]", "generate = { budget = 3, max_units = 2, limit = 7 }");
    for (text, message) in [
        (
            many,
            "bad.toml:5:12: scenario \"mirror\": field `seatings`: seatings = \"all\" plays each of the 7 matchups of 6 players in 720 seatings: 5040 battles per grid point, over the limit of 5000",
        ),
        (
            scenario(Some("rotate")).replace("players = 3", "players = 2"),
            "field `seatings`: seatings = \"rotate\" is for players = 3 or more",
        ),
        (scenario(Some("shuffle")), "field `seatings`: unknown seatings `shuffle`: expected one of fixed, rotate, all"),
    ] {
        let err = super::shard::sweep_refused(d, &text);
        assert!(err.contains(message), "{err}");
    }
}
