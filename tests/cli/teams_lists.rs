//! Deathmatch teams written as lists of seats (`volley battle --teams A+C,B+D`) and teams
//! in battle sweeps (`teams = 2`, `teams = [["A", "C"], ["B", "D"]]`).

use super::shard::sweep_sharded_and_merge;
use super::*;

const FORCES: [&str; 4] =
    ["Stingray Standard+ECBS Pirate AT", "Pigeonhawk Standard", "3*ECBS Pirate AT", "Hunter IV Standard"];

/// `volley battle --mode deathmatch` of the four forces in order, 400 battles at range 24.
fn battle(extra: &[&str]) -> std::process::Output {
    volley()
        .args(["battle", "--mode", "deathmatch"])
        .args(FORCES)
        .args(["--range", "24", "--seed", "11", "--trials", "400", "-q"])
        .args(extra)
        .output()
        .unwrap()
}

fn battle_json(teams: &str) -> (String, serde_json::Value) {
    let o = battle(&["--teams", teams, "--format", "json"]);
    assert!(o.status.success(), "--teams {teams}: {}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let j = serde_json::from_str(&text).unwrap();
    (text, j)
}

#[test]
fn a_list_plays_the_battle_and_key_of_the_same_teams_written_as_a_count() {
    let (count, _) = battle_json("2");
    for same in ["A+B,C+D", "c+d, b+a", "1+2,3+4"] {
        assert_eq!(battle_json(same).0, count, "--teams {same} is --teams 2, bit for bit");
    }
    let (across, j) = battle_json("A+C,B+D");
    assert_eq!(battle_json("2+4,1+3").0, across, "seats by number, teams in any order");
    assert_ne!(across, count, "other teams play another battle");
    let teams = j["teams"].as_array().unwrap();
    assert_eq!((teams[0]["players"].as_str(), teams[1]["players"].as_str()), (Some("A+C"), Some("B+D")));
    assert_eq!(teams[0]["forces"], format!("{} + {}", FORCES[0], FORCES[2]));
    let team_of: Vec<&str> = j["players"].as_array().unwrap().iter().map(|p| p["team"].as_str().unwrap()).collect();
    assert_eq!(team_of, ["team 1", "team 2", "team 1", "team 2"]);
}

#[test]
fn teams_of_unequal_size_pool_their_players_actions() {
    let (_, j) = battle_json("A+B+D,C");
    let teams = j["teams"].as_array().unwrap();
    assert_eq!((teams[0]["players"].as_str(), teams[1]["players"].as_str()), (Some("A+B+D"), Some("C")));
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!(f(&teams[0]["mean_actions"]) >= 6.0, "three players give at least 3 x 2 actions a turn");
    let p: f64 = teams.iter().map(|t| f(&t["p_wins"])).sum::<f64>() + f(&j["p_draw"]) + f(&j["p_undecided"]);
    assert!((p - 1.0).abs() < 1e-9, "every battle is a team win, a draw or undecided: {p}");
}

#[test]
fn bad_team_lists_are_usage_errors_naming_the_problem() {
    for (teams, message) in [
        ("A+E,B+C+D", "unknown seat `E`: 4 players sit at A to D"),
        ("1+5,2+3+4", "unknown seat `5`"),
        ("A+B,B+C+D", "seat B is in more than one team"),
        ("A+B,C", "seat D is in no team"),
        ("A+B+C+D", "give at least 2 teams, got 1"),
        ("A+,B+C+D", "empty seat name"),
        ("3", "4 players do not split into 3 teams of equal size"),
    ] {
        let o = battle(&["--teams", teams]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "--teams {teams}: {err}");
        assert!(err.contains(&format!("--teams {teams}: {message}")), "--teams {teams}: {err}");
    }
}

fn scenario(teams: &str) -> String {
    format!(
        "name = \"teams\"\nengagement = \"battle\"\nmode = \"deathmatch\"\nplayers = 4\nseed = 11\ntrials = 400\n{teams}\nforces = [{}]\n\n[grid]\nrange = [24]\n",
        FORCES.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(", ")
    )
}

fn sweep(dir: &std::path::Path, text: &str) -> std::process::Output {
    fs::write(dir.join("teams.toml"), text).unwrap();
    volley()
        .current_dir(dir)
        .args(["sweep", "teams.toml", "--out", "r", "--quiet", "--no-charts", "--format", "csv"])
        .output()
        .unwrap()
}

/// The `battles` table of a sweep: headers and rows.
fn battles_csv(dir: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(dir.join("r/battles.csv")).unwrap();
    let headers = r.headers().unwrap().iter().map(str::to_string).collect();
    (headers, r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect())
}

#[test]
fn a_team_sweep_cell_is_volley_battle_of_the_same_teams() {
    for (key, teams) in [("teams = [[\"A\", \"C\"], [\"B\", \"D\"]]", "A+C,B+D"), ("teams = 2", "2")] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let o = sweep(d, &scenario(key));
        assert!(o.status.success(), "{key}: {}", String::from_utf8_lossy(&o.stderr));
        let (h, rows) = battles_csv(d);
        let col = |name: &str| h.iter().position(|c| c == name).unwrap_or_else(|| panic!("no {name} in {h:?}"));
        assert_eq!(rows.len(), 4, "one matchup of 4 seats at one range");
        let (_, j) = battle_json(teams);
        for (seat, r) in rows.iter().enumerate() {
            let f = |c: &str| r[col(c)].parse::<f64>().unwrap();
            assert_eq!(r[col("seat")], ((b'A' + seat as u8) as char).to_string());
            let player = &j["players"][seat];
            assert_eq!(r[col("team")], player["team"].as_str().unwrap(), "{key} seat {seat}");
            let side = &j["sides"][seat];
            assert_eq!(f("p_a_wins"), side["p_wins"].as_f64().unwrap(), "{key} seat {seat}");
            assert_eq!(f("mean_score_a"), side["mean_score"].as_f64().unwrap(), "{key} seat {seat}");
            assert_eq!(f("mean_kills_a"), player["mean_kills"].as_f64().unwrap(), "{key} seat {seat}");
            let team = j["teams"].as_array().unwrap().iter().find(|t| t["team"] == player["team"]).unwrap();
            assert_eq!(f("p_team_wins"), team["p_wins"].as_f64().unwrap(), "{key} seat {seat}");
            // The interval's bounds agree to the last printed digit (CSV and JSON print
            // a float each their own way: they may differ in its last unit).
            let near = |x: f64, y: f64| (x - y).abs() <= 4.0 * f64::EPSILON * x.abs().max(y.abs());
            assert!(near(f("p_team_wins_ci95_low"), team["p_wins_ci95"][0].as_f64().unwrap()), "{key} seat {seat}");
            assert!(near(f("p_team_wins_ci95_high"), team["p_wins_ci95"][1].as_f64().unwrap()), "{key} seat {seat}");
            assert_eq!(f("p_draw"), j["p_draw"].as_f64().unwrap());
        }
        let m: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(d.join("r/manifest.json")).unwrap()).unwrap();
        let expected: Vec<Vec<&str>> = j["teams"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["players"].as_str().unwrap().split('+').collect())
            .collect();
        assert_eq!(m["battle"]["teams"], serde_json::json!(expected), "{key}");
        // A sharded team sweep merges to the same table.
        sweep_sharded_and_merge(d, "teams.toml", 2);
        assert_eq!(
            fs::read_to_string(d.join("merged/battles.csv")).unwrap(),
            fs::read_to_string(d.join("r/battles.csv")).unwrap()
        );
    }
}

#[test]
fn a_sweep_without_teams_leaves_the_team_columns_empty() {
    let dir = tempfile::tempdir().unwrap();
    let o = sweep(dir.path(), &scenario(""));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = battles_csv(dir.path());
    let col = |name: &str| h.iter().position(|c| c == name).unwrap_or_else(|| panic!("no {name} in {h:?}"));
    for r in &rows {
        for c in ["team", "p_team_wins", "p_team_wins_ci95_low", "p_team_wins_ci95_high"] {
            assert_eq!(r[col(c)], "", "{c}");
        }
    }
    // The free-for-all is `volley battle` without teams (and with teams of one).
    let o = battle(&["--format", "json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(rows[0][col("p_a_wins")].parse::<f64>().unwrap(), j["sides"][0]["p_wins"].as_f64().unwrap());
    let dir = tempfile::tempdir().unwrap();
    assert!(sweep(dir.path(), &scenario("teams = 4")).status.success());
    assert_eq!(battles_csv(dir.path()).1, rows, "teams of one are the free-for-all");
}

#[test]
fn bad_scenario_teams_are_refused_naming_the_file_and_the_field() {
    for (text, messages) in [
        (
            scenario("teams = [[\"A\", \"E\"], [\"B\", \"C\", \"D\"]]"),
            &["teams.toml:7:", "field `teams`", "unknown seat `E`"][..],
        ),
        (
            scenario("teams = [[\"A\", \"B\"], [\"B\", \"C\", \"D\"]]"),
            &["field `teams`", "seat B is in more than one team"],
        ),
        (scenario("teams = [[\"A\", \"B\"], [\"C\"]]"), &["field `teams`", "seat D is in no team"]),
        (scenario("teams = 3"), &["field `teams`", "4 players do not split into 3 teams"]),
        (scenario("teams = -1"), &["field `teams`", "give at least 2 teams, got -1"]),
        (scenario("teams = [[\"A\", \"B\"], \"C+D\"]"), &["field `teams[1]`", "expected a team"]),
        (scenario("teams = \"A+B,C+D\""), &["field `teams`", "expected a number of teams", "found a string"]),
        (
            scenario("teams = 2").replace("mode = \"deathmatch\"\nplayers = 4\n", ""),
            &["field `teams`", "teams play a deathmatch"],
        ),
        (
            scenario("teams = 2").replace("players = 4", "players = 2"),
            &["field `teams`", "teams need players = 3 or more"],
        ),
        (
            "name = \"x\"\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"ac:1\"]\nteams = 2\n".to_string(),
            &["teams.toml:4:", "field `teams`", "teams is for battle scenarios"],
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let o = sweep(dir.path(), &text);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{text}\n{err}");
        for m in messages {
            assert!(err.contains(m), "missing `{m}` in:\n{err}");
        }
        assert!(!dir.path().join("r").exists());
    }
}
