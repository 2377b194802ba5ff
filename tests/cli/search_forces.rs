//! `volley search --forces --budget`: every force of catalogue builds that spends a
//! budget, raced through a field of forces in battles.

use std::path::Path;

use super::*;

/// The planted weapon of the build search's tests ([`super::search::PLANTED`]) on a
/// 4-point Dwarf: a force with more of it should beat every force with fewer.
const PLANTED_DWARF: &str = r#"
[[build]]
name = "Planted Dwarf"
unit = "Dwarf"
weapons = [{ name = "Planted Lance", count = 1 }]
"#;

/// The planted weapon and build, as one catalogue file's text.
fn planted_text() -> String {
    format!("{}{PLANTED_DWARF}", super::search::PLANTED)
}

const BUILDS: &str = "Planted Dwarf,Dwarf ALPHA,Troll Brawler,Stingray Standard,Rhino Standard,Beagle Hunter";

/// The force search of the tests on the catalogue with the planted build added.
fn forces(add: &Path, extra: &[&str]) -> std::process::Output {
    forces_on(add, "12", "Lance Group,Siege Group", extra)
}

/// [`forces`] with another budget and field.
fn forces_on(add: &Path, budget: &str, field: &str, extra: &[&str]) -> std::process::Output {
    volley()
        .args(["--add-loadouts", add.to_str().unwrap(), "search", "--forces", "--budget", budget, "--max-units", "4"])
        .args(["--builds", BUILDS, "--field", field, "--range", "12"])
        .args(extra)
        .output()
        .unwrap()
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn names(j: &serde_json::Value) -> Vec<String> {
    j["leaderboard"].as_array().unwrap().iter().map(|r| r["candidate"].as_str().unwrap().to_string()).collect()
}

fn planted() -> tempfile::TempDir {
    catalogue_dir(&[("planted.toml", &planted_text())])
}

#[test]
fn a_planted_dominant_build_leads_the_forces_that_spend_the_budget() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let j = json_of(&forces(&add, &["--top", "3", "--trials", "20", "--stages", "3", "--format", "json", "-q"]));
    assert_eq!(j["kind"], "forces");
    assert_eq!(j["budget"], 12.0);
    let board = names(&j);
    assert_eq!(board.len() as u64, j["space_size"].as_u64().unwrap());
    assert!(board.len() > 30, "{}", board.len());
    // every force spends the budget: at most 12 points and more than 12 minus the
    // cheapest member's (Beagle Hunter, Stingray and Rhino cost 2), at most 4 units
    for r in j["leaderboard"].as_array().unwrap() {
        let cost = r["cost"].as_f64().unwrap();
        assert!(cost <= 12.0 && cost > 10.0, "{r}");
        let units: u32 = r["candidate"]
            .as_str()
            .unwrap()
            .split('+')
            .map(|m| m.split_once('*').map_or(1, |(n, _)| n.parse().unwrap()))
            .sum();
        assert!(units <= 4, "{r}");
    }
    assert!(board[0].contains("Planted Dwarf"), "{board:?}");
    // every force still in the race carries the planted build
    for r in j["leaderboard"].as_array().unwrap().iter().filter(|r| r["in_race"] == true) {
        assert!(r["candidate"].as_str().unwrap().contains("Planted Dwarf"), "{r}");
    }
    // the leader's matchups are battles against each field force
    let m = j["matchups"][&board[0]].as_array().unwrap();
    let opponents: Vec<&str> = m.iter().map(|r| r["opponent"].as_str().unwrap()).collect();
    assert_eq!(opponents, ["Lance Group", "Siege Group"]);
}

/// A `[[force]]` entry named `name` for a force text `A+2*B`, with a budget of 12.
pub(super) fn force_entry(name: &str, text: &str) -> String {
    let units: Vec<String> = text
        .split('+')
        .map(|m| match m.split_once('*') {
            Some((n, b)) => format!("{{ build = \"{b}\", count = {n} }}"),
            None => format!("{{ build = \"{m}\" }}"),
        })
        .collect();
    format!("[[force]]\nname = \"{name}\"\nbudget = 12\nunits = [{}]\n", units.join(", "))
}

/// Stage 1 plays each candidate's battles exactly as `gauntlet --battle` does at the
/// same seed and trials, for the same forces under the same budget (a force's budget is
/// part of its battle's key): the race's first estimates are the gauntlet's win rates.
#[test]
fn stage_one_of_a_force_search_is_the_battle_gauntlet() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let j = json_of(&forces(
        &add,
        &[
            "--must-include",
            "Planted Dwarf",
            "--must-include",
            "Planted Dwarf",
            "--top",
            "1",
            "--stages",
            "1",
            "--trials",
            "40",
            "--format",
            "json",
            "-q",
        ],
    ));
    let board = names(&j);
    assert!(board.len() >= 3, "{board:?}");
    for b in &board {
        assert!(b.starts_with("2*Planted Dwarf") || b.starts_with("3*Planted Dwarf"), "{b}");
    }
    // The same forces and field as catalogue forces with a budget of 12.
    let mut entries = planted_text();
    entries += &force_entry("Lance 12", "Gladiator Lancer+Beagle Hunter+Hunter IV Standard");
    entries += &force_entry("Siege 12", "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT");
    for (i, b) in board.iter().enumerate() {
        entries += &force_entry(&format!("Candidate {i}"), b);
    }
    let cat = catalogue_dir(&[("forces.toml", &entries)]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    let sides: Vec<String> = (0..board.len()).map(|i| format!("Candidate {i}")).collect();
    let run = volley()
        .args(["--add-loadouts", cat.path().join("forces.toml").to_str().unwrap(), "gauntlet", "--battle"])
        .args(&sides)
        .args(["--field", "Lance 12,Siege 12", "--range", "12", "--trials", "40", "--out"])
        .args([out.to_str().unwrap(), "--format", "csv", "--no-charts", "-q"])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let summary = fs::read_to_string(out.join("gauntlet_summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(summary.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name}: {head:?}"));
    let (b, w) = (col("build"), col("weighted_p_win"));
    let gauntlet: Vec<(String, f64)> =
        rdr.records().map(|r| r.unwrap()).map(|r| (r[b].to_string(), r[w].parse().unwrap())).collect();
    assert_eq!(gauntlet.len(), board.len());
    for r in j["leaderboard"].as_array().unwrap() {
        let name = r["candidate"].as_str().unwrap();
        let i = board.iter().position(|b| b == name).unwrap();
        let label = format!("Candidate {i}");
        let g = gauntlet.iter().find(|(n, _)| *n == label).unwrap_or_else(|| panic!("{label} not in {gauntlet:?}"));
        assert!((g.1 - r["estimate"].as_f64().unwrap()).abs() < 1e-12, "{name}: gauntlet {} search {r}", g.1);
    }
}

#[test]
fn must_include_and_exclude_shape_the_force_space() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let all = json_of(&forces(&add, &["--count", "--format", "json"]))["space_size"].as_u64().unwrap();
    let with = json_of(&forces(&add, &["--count", "--format", "json", "--must-include", "Planted Dwarf"]));
    let without = json_of(&forces(&add, &["--count", "--format", "json", "--exclude", "Planted Dwarf"]));
    let (w, wo) = (with["space_size"].as_u64().unwrap(), without["space_size"].as_u64().unwrap());
    assert!(w > 0 && wo > 0);
    assert_eq!(w + wo, all, "forces with and without the build make up the space");
    let raced = json_of(&forces(
        &add,
        &["--exclude", "Planted Dwarf", "--top", "2", "--trials", "10", "--stages", "1", "--format", "json", "-q"],
    ));
    assert!(names(&raced).iter().all(|n| !n.contains("Planted Dwarf")));
}

#[test]
fn a_force_search_refuses_bad_spaces_before_any_work() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let field = "Lance Group,Siege Group";
    let cases: [(&str, &str, &[&str], &str); 8] = [
        ("1", field, &[], "no force of at most 4 units spends a budget of 1"),
        ("12", field, &["--limit", "10"], "more than 10 forces, more than the limit"),
        ("12", field, &["--unit", "Dwarf"], "with --forces, pick the member builds with --builds"),
        ("12", field, &["--must-include", "Planted Dwarff"], "is not one of the member builds"),
        (
            "12",
            field,
            &["--battle-mode", "siege"],
            "--battle-mode: unknown battle mode `siege`: expected one of skirmish, deathmatch",
        ),
        ("12", field, &["--max-turns", "5"], "--max-turns is not taken with --forces"),
        ("12", field, &["--must-include", "Rhino Standard", "--exclude", "Rhino Standard"], "both required"),
        ("12", "Lance Group,Nonesuch Force", &[], "Nonesuch Force"),
    ];
    for (budget, field, args, msg) in cases {
        let out = forces_on(&add, budget, field, &[args, &["-q"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // --budget belongs to --forces, and --forces needs it
    let out = volley().args(["search", "--field", "meta", "--budget", "12"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = volley().args(["search", "--field", "meta", "--forces"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// Forces some rulesets refuse in battle (Shellshock: at exactly equal ECV) are dropped
/// before the race and counted, with the first reason.
#[test]
fn forces_the_ruleset_refuses_are_counted_with_a_reason() {
    let out = volley()
        .args(["--ruleset", "shellshock", "search", "--forces", "--budget", "400", "--max-units", "4"])
        .args(["--field", "Panzer column,Modern pair", "--count", "--format", "json"])
        .output()
        .unwrap();
    let j = json_of(&out);
    let (legal, listed) = (j["space_size"].as_u64().unwrap(), j["listed"].as_u64().unwrap());
    assert!(legal > 0 && legal < listed, "{j}");
    assert_eq!(j["refused"].as_u64().unwrap(), listed - legal);
    assert!(j["refusal"].as_str().unwrap().contains("ECV"), "{j}");
}

/// A force search's leaders are a meta's players with --battle; without it, refused.
#[test]
fn a_meta_plays_the_leading_forces_of_a_search() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("s");
    let j = json_of(&forces(
        &add,
        &["--top", "2", "--trials", "10", "--stages", "2", "--no-charts", "--format", "json", "-q", "--out"]
            .iter()
            .copied()
            .chain([report.to_str().unwrap()])
            .collect::<Vec<_>>(),
    ));
    let board = names(&j);
    let meta = |battle: bool| {
        let mut c = volley();
        c.args(["--add-loadouts", add.to_str().unwrap(), "meta", "--search", report.to_str().unwrap()]);
        c.args(["--top", "3", "--trials", "20", "--bootstrap", "0", "--format", "json", "-q"]);
        if battle {
            c.arg("--battle");
        }
        c.output().unwrap()
    };
    let m = json_of(&meta(true));
    let players: Vec<&str> = m["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(players, [&board[0], &board[1], &board[2]]);
    let refused = meta(false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("a search of forces: play its meta with --battle"));
}

/// A force search dealt to two shards per stage, each stage merged and resumed from its
/// state, prints exactly what the search in one process prints.
#[test]
fn a_sharded_force_search_merges_bit_for_bit() {
    let dir = planted();
    let add = dir.path().join("planted.toml");
    let race = ["--top", "2", "--trials", "10", "--stages", "3", "--format", "json"];
    let single = forces(&add, &[&race[..], &["-q"]].concat());
    assert!(single.status.success(), "{}", String::from_utf8_lossy(&single.stderr));
    let tmp = tempfile::tempdir().unwrap();
    let mut state: Option<std::path::PathBuf> = None;
    for stage in 1..=3 {
        let mut shards = Vec::new();
        for k in 1..=2 {
            let shard = tmp.path().join(format!("stage{stage}-{k}"));
            let place = format!("{k}/2");
            let out = match &state {
                None => {
                    forces(&add, &[&race[..], &["--shard", &place, "--out", shard.to_str().unwrap(), "-q"]].concat())
                }
                Some(s) => volley()
                    .args(["search", "--resume", s.to_str().unwrap(), "--shard", &place])
                    .args(["--out", shard.to_str().unwrap(), "-q"])
                    .output()
                    .unwrap(),
            };
            assert!(out.status.success(), "stage {stage} shard {k}: {}", String::from_utf8_lossy(&out.stderr));
            shards.push(shard);
        }
        let merged = tmp.path().join(format!("merged{stage}"));
        let out = volley().arg("merge").args(&shards).args(["--out", merged.to_str().unwrap(), "-q"]).output().unwrap();
        assert!(out.status.success(), "merge {stage}: {}", String::from_utf8_lossy(&out.stderr));
        if merged.join("search-state.json").is_file() {
            state = Some(merged);
        } else {
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&single.stdout),
                "the merged search prints what the single run prints"
            );
            return;
        }
    }
    panic!("the race did not end within its 3 stages");
}
