//! `volley search --metric`: what a search ranks by (win rate, kill chance by a turn,
//! turns to kill, kill points), candidates that start from their exact values, and a
//! range envelope of conditions.

use super::*;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A small TechCommander space: 133 Dwarfs that carry a Kabaaam and no bubble shield
/// (every duel of which TechCommander solves exactly; a shield's duels are Monte Carlo).
const SPACE: &[&str] = &[
    "search",
    "--unit",
    "Dwarf",
    "--must-include",
    "Kabaaam",
    "--exclude",
    "SEER",
    "--exclude",
    "Bubble Shield Projector",
    "--top",
    "3",
];
const TARGET: &str = "Beagle Hunter";

fn json(args: &[&str]) -> serde_json::Value {
    let out = volley().args(args).args(["--format", "json", "-q"]).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn search(extra: &[&str]) -> serde_json::Value {
    json(&[SPACE, &["--field", TARGET], extra].concat())
}

fn rows(j: &serde_json::Value) -> &Vec<serde_json::Value> {
    j["leaderboard"].as_array().unwrap()
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-11, "{what}: {a} vs {b}");
}

/// Where every duel has an exact solution (TechCommander's), every candidate starts
/// with it: the leaderboard's estimates are `duel --exact`'s P(A wins), with no trial
/// played, ranked by them. `--no-exact` races the same space by Monte Carlo (the
/// negative control: its estimates are not the exact ones).
#[test]
fn exact_candidates_are_the_exact_duels() {
    let j = search(&["--range", "12"]);
    assert_eq!(j["exact_candidates"], 133);
    assert_eq!(j["space_size"], 133);
    assert_eq!(j["trials_used"], 0);
    let board = rows(&j);
    assert!(board.iter().all(|r| r["exact"] == true && r["trials"] == 0));
    let alive: Vec<f64> = board.iter().filter(|r| r["in_race"] == true).map(|r| f(&r["estimate"])).collect();
    assert!(alive.windows(2).all(|w| w[0] >= w[1]), "{alive:?}");
    let best = alive[0];
    assert!(board.iter().all(|r| f(&r["estimate"]) <= best));
    for r in &board[..3] {
        let name = r["candidate"].as_str().unwrap();
        let d = json(&["duel", name, TARGET, "--exact", "--range", "12"]);
        close(f(&r["estimate"]), f(&d["p_a_wins"]), name);
        let ci = r["estimate_ci95"].as_array().unwrap();
        assert_eq!((f(&ci[0]), f(&ci[1])), (f(&r["estimate"]), f(&r["estimate"])));
    }
    let mc = search(&["--range", "12", "--no-exact", "--stages", "1"]);
    assert_eq!(mc["exact_candidates"], 0);
    let first = &rows(&mc)[0];
    assert_eq!(first["exact"], false);
    assert_eq!(first["trials"], 100);
    let name = first["candidate"].as_str().unwrap();
    let exact = rows(&j).iter().find(|r| r["candidate"] == name).unwrap();
    assert_ne!(f(&first["estimate"]), f(&exact["estimate"]), "a Monte Carlo estimate is not the exact value");
}

/// `--metric kill-by-turn:K` and `--metric turns` start from the exact attack runs of
/// `ttk --exact`: P(kill by turn K), and the turns to kill with a run censored at the cap
/// counted as the cap + 1. Fewer turns rank first.
#[test]
fn attack_run_metrics_start_from_the_exact_runs() {
    let k = search(&["--metric", "kill-by-turn:2"]);
    assert_eq!(k["metric_name"], "kill-by-turn:2");
    let t = search(&["--metric", "turns", "--max-turns", "6"]);
    assert_eq!(t["higher_is_better"], false);
    let turns: Vec<f64> = rows(&t).iter().filter(|r| r["in_race"] == true).map(|r| f(&r["estimate"])).collect();
    assert!(turns.windows(2).all(|w| w[0] <= w[1]), "fewest turns first: {turns:?}");
    for (j, cap) in [(&k, 20usize), (&t, 6)] {
        for r in &rows(j)[..2] {
            let name = r["candidate"].as_str().unwrap();
            assert_eq!(r["exact"], true);
            let run =
                json(&["ttk", "--attacker", name, "--target", TARGET, "--exact", "--max-turns", &cap.to_string()]);
            let by_turn: Vec<f64> = run["p_kill_by_turn"].as_array().unwrap().iter().map(f).collect();
            let want = if j["metric_name"] == "turns" {
                // E[min(T, cap + 1)] = 1 + Σ_{t = 1..cap} P(T > t), from the cumulative law
                1.0 + (0..cap).map(|i| 1.0 - by_turn[i]).sum::<f64>()
            } else {
                by_turn[1]
            };
            close(f(&r["estimate"]), want, name);
        }
    }
}

/// A Monte Carlo attack-run race: its stage 1 plays the cells of `volley ttk` (same key,
/// seed and trials), and its turns-to-kill intervals hold the exact values.
#[test]
fn monte_carlo_attack_runs_are_ttks_cells_and_cover_the_exact_value() {
    let mc = search(&["--metric", "kill-by-turn:2", "--no-exact", "--stages", "1", "--trials", "400"]);
    let leader = rows(&mc)[0]["candidate"].as_str().unwrap().to_string();
    let run = json(&["ttk", "--attacker", &leader, "--target", TARGET, "--trials", "400"]);
    close(f(&rows(&mc)[0]["estimate"]), f(&run["p_kill_by_turn"][1]), &leader);
    let t = search(&["--metric", "turns", "--no-exact", "--trials", "200", "--stages", "2"]);
    let exact = search(&["--metric", "turns"]);
    for r in rows(&t).iter().take(20) {
        let name = &r["candidate"];
        let want = f(&rows(&exact).iter().find(|e| &e["candidate"] == name).unwrap()["estimate"]);
        let ci = r["estimate_ci95"].as_array().unwrap();
        assert!(f(&ci[0]) <= want && want <= f(&ci[1]), "{name}: {want} outside {ci:?}");
        assert!(f(&ci[0]) < f(&ci[1]), "{name}: a Monte Carlo interval has width");
    }
}

/// A range envelope weighs each range as `duel --range 6,12 --range-weights 1,3` does:
/// the exact candidate's estimate is the duel's exact weighted average.
#[test]
fn a_range_envelope_weighs_each_range() {
    let j = search(&["--range", "6,12", "--range-weights", "1,3"]);
    assert_eq!(j["conditions"].as_array().unwrap().len(), 2);
    assert_eq!(j["condition_weights"], serde_json::json!([0.25, 0.75]));
    for r in &rows(&j)[..2] {
        let name = r["candidate"].as_str().unwrap();
        let d = json(&["duel", name, TARGET, "--exact", "--range", "6,12", "--range-weights", "1,3"]);
        close(f(&r["estimate"]), f(&d["envelope"]["p_a_wins"]), name);
    }
    // each leader's matchups list both ranges
    let leader = rows(&j)[0]["candidate"].as_str().unwrap();
    assert_eq!(j["matchups"][leader].as_array().unwrap().len(), 2);
}

/// `--metric kill-points` in a force search: stage 1's share of the opposing force's
/// points destroyed is `volley battle`'s mean points destroyed by side A over that
/// force's points, at the same seed and trials, for the same forces under the same
/// budget.
#[test]
fn kill_points_of_forces_are_the_battles_points_destroyed() {
    let builds = "Dwarf ALPHA,Troll Brawler,Stingray Standard,Rhino Standard,Beagle Hunter";
    let j = json(&[
        "search",
        "--forces",
        "--budget",
        "12",
        "--max-units",
        "4",
        "--builds",
        builds,
        "--field",
        "Lance Group,Siege Group",
        "--range",
        "12",
        "--metric",
        "kill-points",
        "--top",
        "2",
        "--trials",
        "60",
        "--stages",
        "1",
    ]);
    assert_eq!(j["metric_name"], "kill-points");
    let leader = rows(&j)[0]["candidate"].as_str().unwrap().to_string();
    // the leader and the field as catalogue forces under the search's budget, which is
    // part of a battle's key (a field force with no budget of its own spends the search's)
    let entry = super::search_forces::force_entry;
    let text = entry("Leader", &leader)
        + &entry("Lance Group 12", "Gladiator Lancer+Beagle Hunter+Hunter IV Standard")
        + &entry("Siege Group 12", "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT");
    let cat = catalogue_dir(&[("leader.toml", &text)]);
    let add = cat.path().join("leader.toml");
    let mut shares = Vec::new();
    for m in j["matchups"][&leader].as_array().unwrap() {
        let opponent = format!("{} 12", m["opponent"].as_str().unwrap());
        let opponent = opponent.as_str();
        let b = json(&[
            "--add-loadouts",
            add.to_str().unwrap(),
            "battle",
            "Leader",
            opponent,
            "--range",
            "12",
            "--trials",
            "60",
            "--option",
            "FORCE_BUDGET=12",
        ]);
        let whole = b["sides"][1]["points"].as_f64().unwrap_or(12.0);
        close(f(&m["kill_points_share"]), f(&b["mean_points_destroyed_a"]) / whole, opponent);
        shares.push(f(&m["kill_points_share"]));
    }
    // a share below 1 somewhere, so the equality says more than "everything destroyed"
    assert!(shares.iter().any(|&s| s < 0.999), "{shares:?}");
}

/// Metrics a search cannot measure are refused before any work (exit 2).
#[test]
fn metrics_the_search_cannot_measure_are_refused() {
    let forces = ["--forces", "--budget", "12", "--builds", "Dwarf ALPHA,Troll Brawler", "--field", "Lance Group"];
    for (extra, says) in [
        (&["--field", TARGET, "--metric", "kill-points"][..], "taken with --forces"),
        (&["--field", TARGET, "--metric", "turns", "--per-cost"][..], "no per-cost reading"),
        (&["--field", TARGET, "--metric", "kill-by-turn:21"][..], "past the turn cap"),
        (&["--field", TARGET, "--metric", "ttk"][..], "unknown metric"),
        (&[&forces[..], &["--metric", "turns"]].concat()[..], "force searches take win or kill-points"),
    ] {
        let out = volley().args(SPACE).args(extra).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{extra:?}: {err}");
    }
}

/// Every ruleset with a build space searches by an attack-run metric.
#[test]
fn every_ruleset_searches_by_turns_to_kill() {
    for (ruleset, field, unit) in [
        ("mechcom", "arena", "Wasp"),
        ("skirmishers", "Rifle squad", "Rifleman"),
        ("shellshock", "ww2", "Hover Skirmisher"),
    ] {
        let j = json(&[
            "--ruleset",
            ruleset,
            "search",
            "--field",
            field,
            "--unit",
            unit,
            "--metric",
            "turns",
            "--top",
            "1",
            "--trials",
            "50",
            "--stages",
            "2",
        ]);
        let first = &rows(&j)[0];
        let v = f(&first["estimate"]);
        assert!((1.0..=21.0).contains(&v), "{ruleset}: {v}");
        assert_eq!(j["metric_name"], "turns", "{ruleset}");
    }
}

/// A search of exact candidates only, dealt to two shards (which play nothing) and
/// merged, prints what the search prints in one process.
#[test]
fn an_exact_search_in_shards_merges_to_the_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let args = [SPACE, &["--field", "meta", "--range", "12", "--format", "json", "-q"]].concat();
    let (whole, merged, _) = whole_and_merged(&args, tmp.path());
    assert_eq!(merged.stdout, whole.stdout);
}

/// `args` run in one process, and dealt to two shards merged into `tmp/merged`: the
/// single run's output, the merge's, and the merged directory. Each run must succeed.
fn whole_and_merged(args: &[&str], tmp: &Path) -> (Output, Output, PathBuf) {
    let whole = volley().args(args).output().unwrap();
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let dirs: Vec<String> = (1..=2).map(|k| tmp.join(format!("s{k}")).to_str().unwrap().to_string()).collect();
    for (k, d) in dirs.iter().enumerate() {
        let out = volley().args(args).args(["--shard", &format!("{}/2", k + 1), "--out", d]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let m = tmp.join("merged");
    let merged = volley().args(["merge", &dirs[0], &dirs[1], "--out", m.to_str().unwrap(), "-q"]).output().unwrap();
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    (whole, merged, m)
}

/// A MECHCOM candidate against Kerberos (an exact duel chain) and the Typhon (Heat: no
/// exact chain) keeps its exact value against Kerberos and plays only the Typhon: that
/// part is `volley duel`'s at the same seed and trials, the exact one `duel --exact`'s.
/// `--no-exact` plays both (the negative control: more duels, and an estimate against
/// Kerberos that is not the exact one). Dealt to shards, merged and resumed, the race
/// ends as in one process.
#[test]
fn partly_exact_candidates_play_only_the_engagements_with_no_exact_value() {
    let space = ["--ruleset", "mechcom", "search", "--field", "Kerberos,Typhon", "--range", "2", "--top", "2"];
    let one = json(&[&space[..], &["--stages", "1", "--show", "40"]].concat());
    let (partly, exact) = (one["partly_exact_candidates"].as_u64().unwrap(), one["exact_candidates"].as_u64().unwrap());
    assert!(partly > 0 && exact == 0, "{partly} partly exact, {exact} exact");
    let n = rows(&one).len() as u64;
    // the partly exact play one duel cell of 100, the others (Typhons) two
    assert_eq!(f(&one["engagements"]) as u64, 100 * (partly + 2 * (n - partly)));
    let name = rows(&one)[0]["candidate"].as_str().unwrap();
    let parts = one["matchups"][name].as_array().unwrap();
    let (kerberos, typhon) = (&parts[0], &parts[1]);
    assert_eq!((kerberos["exact"].clone(), kerberos["trials"].clone()), (true.into(), 0.into()));
    let d = json(&["--ruleset", "mechcom", "duel", name, "Kerberos", "--exact", "--range", "2"]);
    close(f(&kerberos["p_win"]), f(&d["p_a_wins"]), name);
    assert_eq!((typhon["exact"].clone(), typhon["trials"].clone()), (false.into(), 100.into()));
    let d = json(&["--ruleset", "mechcom", "duel", name, "Typhon", "--trials", "100", "--range", "2"]);
    close(f(&typhon["p_win"]), f(&d["p_a_wins"]), name);
    let mc = json(&[&space[..], &["--stages", "1", "--no-exact", "--show", "40"]].concat());
    assert_eq!(f(&mc["engagements"]) as u64, 200 * n);
    let mc_name = rows(&mc)[0]["candidate"].as_str().unwrap();
    let k = &mc["matchups"][mc_name][0];
    assert_eq!((k["exact"].clone(), k["trials"].clone()), (false.into(), 100.into()));
    let d = json(&["--ruleset", "mechcom", "duel", mc_name, "Kerberos", "--exact", "--range", "2"]);
    assert_ne!(f(&k["p_win"]), f(&d["p_a_wins"]), "a Monte Carlo estimate is not the exact value");
    // stage by stage in shards, merged and resumed: the single run, bit for bit
    let tmp = tempfile::tempdir().unwrap();
    let args = [&space[..], &["--trials", "40", "--format", "json", "-q"]].concat();
    let (whole, _, state) = whole_and_merged(&args, tmp.path());
    assert!(state.join("search-state.json").is_file(), "the race must go on past stage 1");
    let rest = volley().args(["search", "--resume", state.to_str().unwrap(), "-q"]).output().unwrap();
    assert!(rest.status.success(), "{}", String::from_utf8_lossy(&rest.stderr));
    assert_eq!(String::from_utf8_lossy(&rest.stdout), String::from_utf8_lossy(&whole.stdout));
}
