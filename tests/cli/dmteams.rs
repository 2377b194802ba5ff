//! Deathmatch teams (`volley battle --mode deathmatch --teams N`) and N-player battle
//! sweeps.

use super::shard::{clean, run_ok, sweep_sharded_and_merge};
use super::*;

const P: &str = "Stingray Standard+ECBS Pirate AT";
const Q: &str = "Pigeonhawk Standard";

fn team_battle(extra: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["battle", "--mode", "deathmatch", P, Q, P, Q, "--trials", "3000", "--seed", "6", "-q"]
        .map(String::from)
        .into();
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn a_team_deathmatch_reports_teams_and_players() {
    let j = json_of(&args(&team_battle(&["--teams", "2", "--format", "json"])));
    let teams = j["teams"].as_array().unwrap();
    assert_eq!(teams.len(), 2);
    assert_eq!(teams[0]["players"], "A+B");
    assert_eq!(teams[1]["players"], "C+D");
    assert_eq!(j["a"], format!("{P} + {Q}"));
    let players = j["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    assert_eq!(players[3]["team"], "team 2");
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    // A team's points are its players' sum; its kills and deaths too.
    for (t, m) in [(0, [0, 1]), (1, [2, 3])] {
        for key in ["mean_points", "mean_kills", "mean_deaths"] {
            let sum: f64 = m.iter().map(|&p| f(&players[p][key])).sum();
            assert!((f(&teams[t][key]) - sum).abs() < 1e-9, "team {t} {key}");
        }
    }
    // Every team battle has one result: team 1, team 2 or shared (none at the cap).
    let total = f(&j["p_a_wins"]) + f(&j["p_b_wins"]) + f(&j["p_draw"]);
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    assert_eq!(f(&j["p_a_wins"]), f(&teams[0]["p_wins"]));
    // Non-captains act through their captains: the sides' rows show them at 0 actions.
    assert_eq!(f(&j["sides"][1]["mean_actions"]), 0.0);
    assert!(f(&teams[0]["mean_actions"]) >= 4.0, "a team of two gives at least 2 x 2 actions a turn");
}

#[test]
fn team_tables_print_per_team_and_per_player() {
    let table = stdout_of(&args(&team_battle(&["--teams", "2"])));
    assert!(table.contains("team 1 (A+B) wins"), "{table}");
    assert!(table.contains("mean_deaths"), "{table}");
    let csv = stdout_of(&args(&team_battle(&["--teams", "2", "--format", "csv"])));
    assert!(
        csv.starts_with("team,players,forces,p_wins,ci95_low,ci95_high,mean_points,mean_kills,mean_deaths"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 3);
    let players = stdout_of(&args(&team_battle(&["--teams", "2", "--format", "csv", "--players"])));
    assert!(
        players.starts_with("player,team,force,mean_points,ci95_low,ci95_high,mean_kills,mean_deaths"),
        "{players}"
    );
    assert_eq!(players.lines().count(), 5);
    assert!(players.lines().nth(3).unwrap().starts_with("C,team 2,"), "{players}");
}

#[test]
fn teams_of_one_are_the_free_for_all_and_bad_splits_are_usage_errors() {
    let ffa = stdout_of(&args(&team_battle(&["--format", "json"])));
    let ones = stdout_of(&args(&team_battle(&["--teams", "4", "--format", "json"])));
    let ffa_j: serde_json::Value = serde_json::from_str(&ffa).unwrap();
    let ones_j: serde_json::Value = serde_json::from_str(&ones).unwrap();
    assert_eq!(ffa_j["sides"], ones_j["sides"], "same key, same battles");
    assert!(ones_j.get("teams").is_none());
    let teams = json_of(&args(&team_battle(&["--teams", "2", "--format", "json"])));
    assert_ne!(teams["sides"], ffa_j["sides"], "teams play another battle");
    for (extra, message) in [(&["--teams", "3"][..], "do not split into 3 teams"), (&["--teams", "1"][..], "--teams")] {
        let o = volley().args(args(&team_battle(extra))).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains(message), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = volley().args(["battle", P, Q, "--teams", "2", "-q"]).output().unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("teams play a deathmatch"));
}

#[test]
fn a_sharded_team_battle_merges_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = team_battle(&["--teams", "2"]);
    let whole = |extra: &[&str]| {
        let o = run_ok(clean(volley()).current_dir(d).args(args(&base)).args(extra));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let (table, teams, players) = (whole(&[]), whole(&["--format", "csv"]), whole(&["--format", "csv", "--players"]));
    let mut shards = Vec::new();
    for k in 1..=2 {
        let s = d.join(format!("s{k}"));
        run_ok(clean(volley()).current_dir(d).args(args(&base)).args([
            "--shard",
            &format!("{k}/2"),
            "--out",
            s.to_str().unwrap(),
        ]));
        shards.push(s);
    }
    let o = run_ok(clean(volley()).current_dir(d).arg("merge").args(&shards).args(["--out", "merged", "--quiet"]));
    assert_eq!(String::from_utf8_lossy(&o.stdout), table);
    assert_eq!(fs::read_to_string(d.join("merged/teams.csv")).unwrap(), teams);
    assert_eq!(fs::read_to_string(d.join("merged/players.csv")).unwrap(), players);
}

const SPAWN: [&str; 4] =
    ["Stingray Standard+ECBS Pirate AT", "Pigeonhawk Standard", "3*ECBS Pirate AT", "Hunter IV Standard"];

fn three_player_scenario() -> String {
    format!(
        "name = \"ffa\"\nengagement = \"battle\"\nmode = \"deathmatch\"\nplayers = 3\nseed = 11\ntrials = 400\nforces = [{}]\n\n[grid]\nrange = [12, 24]\n",
        SPAWN.iter().map(|f| format!("\"{f}\"")).collect::<Vec<_>>().join(", ")
    )
}

fn csv_of(path: &std::path::Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().iter().map(str::to_string).collect();
    (headers, r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect())
}

#[test]
fn a_three_player_sweep_plays_every_combination_as_volley_battle_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("ffa.toml"), three_player_scenario()).unwrap();
    let o = volley()
        .current_dir(d)
        .args(["sweep", "ffa.toml", "--out", "r", "--quiet", "--no-charts", "--format", "csv"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (h, rows) = csv_of(&d.join("r/battles.csv"));
    let col = |name: &str| h.iter().position(|c| c == name).unwrap_or_else(|| panic!("no {name} in {h:?}"));
    // 4 forces: 4 combinations of 3, at 2 ranges, 3 seats each.
    assert_eq!(rows.len(), 4 * 2 * 3);
    let combos = [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]];
    for c in combos {
        let matchup = c.map(|i| SPAWN[i]).join(" / ");
        let seats: Vec<&Vec<String>> = rows.iter().filter(|r| r[col("matchup")] == matchup).collect();
        assert_eq!(seats.len(), 6, "{matchup}");
        // The same cells as `volley battle --mode deathmatch` of the forces in seat order.
        let mut args = vec!["battle", "--mode", "deathmatch"];
        args.extend(c.map(|i| SPAWN[i]));
        args.extend(["--range", "24", "--seed", "11", "--trials", "400", "-q", "--format", "json"]);
        let j = json_of(&args);
        for (seat, &force) in c.iter().enumerate() {
            let letter = ((b'A' + seat as u8) as char).to_string();
            let r = seats.iter().find(|r| r[col("seat")] == letter && r[col("range")] == "24.0").unwrap();
            assert_eq!(r[col("force_a")], SPAWN[force]);
            let others: Vec<&str> = c.iter().filter(|&&i| i != force).map(|&i| SPAWN[i]).collect();
            assert_eq!(r[col("force_b")], others.join(" / "));
            let f = |c: &str| r[col(c)].parse::<f64>().unwrap();
            let side = &j["sides"][seat];
            assert!((f("p_a_wins") - side["p_wins"].as_f64().unwrap()).abs() < 1e-12, "{matchup} seat {letter}");
            assert!((f("mean_score_a") - side["mean_score"].as_f64().unwrap()).abs() < 1e-9);
            assert!((f("p_draw") - j["p_draw"].as_f64().unwrap()).abs() < 1e-12);
            let player = &j["players"][seat];
            assert!((f("mean_kills_a") - player["mean_kills"].as_f64().unwrap()).abs() < 1e-9);
            assert!((f("mean_deaths_a") - player["mean_deaths"].as_f64().unwrap()).abs() < 1e-9);
        }
        // Seats' outright wins and shared results cover every battle.
        for range in ["12.0", "24.0"] {
            let at: Vec<_> = seats.iter().filter(|r| r[col("range")] == range).collect();
            let wins: f64 = at.iter().map(|r| r[col("p_a_wins")].parse::<f64>().unwrap()).sum();
            let draw: f64 = at[0][col("p_draw")].parse().unwrap();
            assert!((wins + draw - 1.0).abs() < 1e-9, "{matchup} at {range}: {wins} + {draw}");
        }
    }
    let m: serde_json::Value = serde_json::from_str(&fs::read_to_string(d.join("r/manifest.json")).unwrap()).unwrap();
    assert_eq!(m["battle"]["players"], 3);
    // A sharded sweep merges to the same tables.
    sweep_sharded_and_merge(d, "ffa.toml", 3);
    for t in ["battles.csv", "battle_units.csv"] {
        assert_eq!(
            fs::read_to_string(d.join("merged").join(t)).unwrap(),
            fs::read_to_string(d.join("r").join(t)).unwrap(),
            "{t}"
        );
    }
}

#[test]
fn players_beyond_the_mode_or_the_forces_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (text, message) in [
        (three_player_scenario().replace("mode = \"deathmatch\"\n", ""), "a skirmish takes 2 to 2 forces"),
        (three_player_scenario().replace("players = 3", "players = 5"), "players = 5 needs at least 5 distinct forces"),
    ] {
        let err = super::shard::sweep_refused(d, &text);
        assert!(err.contains(message), "{err}");
    }
}
