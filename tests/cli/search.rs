//! `volley search`: the build space raced through a field, and ad-hoc builds
//! (`BASE[PART, N*PART]`) wherever a build name is taken.

use super::*;

fn search(args: &[&str]) -> std::process::Output {
    volley().arg("search").args(args).output().unwrap()
}

fn search_json(args: &[&str]) -> serde_json::Value {
    let out = volley().arg("search").args(args).args(["--format", "json", "-q"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A weapon far better than any other at the same weight and power: every build that
/// carries it should beat every build that does not.
pub(super) const PLANTED: &str = r#"
[[weapon]]
name = "Planted Lance"
damage = 30
shots = 3
fire_control = 4
min = 0
opt = 48
drop = 1
drop_per = 8
linkable = 2
rounds = 0
weight = 5
power = 5
class = "MSV"
"#;

fn leaderboard(j: &serde_json::Value) -> Vec<String> {
    j["leaderboard"].as_array().unwrap().iter().map(|r| r["candidate"].as_str().unwrap().to_string()).collect()
}

#[test]
fn a_planted_dominant_build_comes_first_among_thousands() {
    let dir = catalogue_dir(&[("planted.toml", PLANTED)]);
    let add = dir.path().join("planted.toml");
    let add = add.to_str().unwrap();
    let base = ["--add-loadouts", add, "search", "--field", "meta", "--unit", "Dwarf,Troll", "--range", "12"];
    let j = {
        let out = volley()
            .args(base)
            .args(["--top", "1", "--trials", "20", "--stages", "4", "--format", "json", "-q"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let size = j["space_size"].as_u64().unwrap();
    assert!(size > 2000, "{size}");
    let board = leaderboard(&j);
    assert_eq!(board.len() as u64, size);
    assert!(board[0].contains("Planted Lance"), "{}", board[0]);
    assert_eq!(j["leaderboard"][0]["tie_group"], 1);
    // the race spends a small share of what measuring everyone at its final precision would
    let (used, all) = (j["trials_used"].as_u64().unwrap(), j["exhaustive_trials"].as_u64().unwrap());
    assert!(used * 20 <= all, "{used} of {all}");
    let stages = j["stages"].as_array().unwrap();
    assert_eq!(stages[0]["candidates"].as_u64(), Some(size));
    assert!(stages[0]["survivors"].as_u64().unwrap() < size / 4, "{stages:?}");
    // every interval holds its estimate
    for r in j["leaderboard"].as_array().unwrap() {
        let (e, ci) = (r["estimate"].as_f64().unwrap(), &r["estimate_ci95"]);
        assert!(ci[0].as_f64().unwrap() <= e && e <= ci[1].as_f64().unwrap(), "{r}");
    }
    // the matchups of the leader are its pooled counts against each field member
    let m = j["matchups"][&board[0]].as_array().unwrap();
    assert_eq!(m.len(), 5);
    assert!(m.iter().all(|r| r["trials"].as_u64() == j["leaderboard"][0]["trials"].as_u64()));
}

/// The race's top 3, with the candidates it could not separate from them, holds the top 3
/// of every candidate measured by `gauntlet` at the race's final precision (the
/// cumulative trials of its last stage), on a space of 80.
#[test]
fn the_racing_top_k_agrees_with_an_exhaustive_gauntlet() {
    // Without the bubble shield: its carriers' duels are Monte Carlo only and crowd the
    // top with near-ties, which this test of the race's claim does not need.
    let filters = [
        "--unit",
        "Dwarf",
        "--must-include",
        "Kabaaam",
        "--exclude",
        "SEER",
        "--exclude",
        "Laser Designator",
        "--exclude",
        "Bubble Shield Projector",
    ];
    let common = ["--field", "meta", "--range", "12"];
    // Seed 2: how many candidates the race cannot separate from its top 3 is itself
    // random; on this space (80 builds) seeds 1-5 leave 11, 4, 5, 4 and 4 (measured when
    // the bubble-shield options changed every TechCommander cell key), and the claim
    // check below asks for a narrowed space, at most 8.
    let j = search_json(
        &[&filters[..], &common, &["--top", "3", "--trials", "30", "--stages", "3", "--no-exact", "--seed", "2"]]
            .concat(),
    );
    let board = leaderboard(&j);
    assert!(board.len() > 50 && board.len() < 400, "{}", board.len());
    let stages = j["stages"].as_array().unwrap().len() as u32;
    let full: u64 = (0..stages).map(|s| 30 * 4u64.pow(s)).sum();
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    let mut g = volley();
    g.arg("gauntlet").args(&board).args(common).args([
        "--trials",
        &full.to_string(),
        "--out",
        out.to_str().unwrap(),
        "--format",
        "csv",
        "--no-charts",
        "-q",
    ]);
    let run = g.output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let summary = fs::read_to_string(out.join("gauntlet_summary.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(summary.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let (b, w) =
        (head.iter().position(|h| h == "build").unwrap(), head.iter().position(|h| h == "weighted_p_win").unwrap());
    let mut rows: Vec<(String, f64)> =
        rdr.records().map(|r| r.unwrap()).map(|r| (r[b].to_string(), r[w].parse().unwrap())).collect();
    rows.sort_by(|x, y| y.1.total_cmp(&x.1));
    // What the race claims as its top 3: the candidates of the tie groups down to the
    // third's (exactly 3 when it separated them; more when it stopped with ties, as the
    // stage cap makes it here). The exhaustive run's top 3 must all be in that claim,
    // and the claim must have narrowed the space.
    let groups: Vec<Option<u64>> =
        j["leaderboard"].as_array().unwrap().iter().map(|r| r["tie_group"].as_u64()).collect();
    let third = groups[2].expect("the third candidate is in a tie group");
    let claimed: Vec<&str> =
        board.iter().zip(&groups).filter(|(_, g)| g.is_some_and(|g| g <= third)).map(|(c, _)| c.as_str()).collect();
    assert!(claimed.len() >= 3 && claimed.len() <= 8, "{claimed:?}");
    for (want, _) in &rows[..3] {
        assert!(
            claimed.contains(&want.as_str()),
            "{want} is in the exhaustive top 3, not in the race's: {claimed:?}; exhaustive: {:?}",
            &rows[..5]
        );
    }
}

#[test]
fn a_search_is_bit_identical_on_one_thread_and_on_two() {
    let base = ["--field", "meta", "--unit", "Dwarf", "--must-include", "Devastator", "--top", "2", "--trials", "10"];
    let one = volley().arg("search").args(base).args(["--threads", "1", "--format", "json", "-q"]).output().unwrap();
    let two = volley().arg("search").args(base).args(["--threads", "2", "--format", "json", "-q"]).output().unwrap();
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn count_prints_the_size_of_the_space_without_playing() {
    let j = search_json(&["--field", "meta", "--unit", "Dwarf", "--must-include", "Kabaaam", "--count"]);
    let n = j["space_size"].as_u64().unwrap();
    assert!(n > 50, "{j}");
    assert!(j.get("leaderboard").is_none());
    let out = search(&["--field", "meta", "--unit", "Dwarf", "--must-include", "Kabaaam", "--count"]);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with(&format!("{n} legal TechCommander builds")));
    // a space smaller than the default --top 10 is counted; racing it for a top 10 is refused
    let small = ["--ruleset", "shellshock", "search", "--field", "ww2", "--unit", "Hover Skirmisher"];
    let counted = volley().args(small).args(["--count", "--format", "json"]).output().unwrap();
    assert!(counted.status.success(), "{}", String::from_utf8_lossy(&counted.stderr));
    let size: serde_json::Value = serde_json::from_slice(&counted.stdout).unwrap();
    assert!(size["space_size"].as_u64().unwrap() < 10, "{size}");
    let raced = volley().args(small).output().unwrap();
    assert_eq!(raced.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&raced.stderr).contains("--top 10 asks for more"));
}

#[test]
fn search_refuses_bad_spaces_before_any_work() {
    let cases: [(&[&str], &str); 6] = [
        (&["--field", "meta", "--max-cost", "0.5"], "the build space is empty"),
        (&["--field", "meta"], "more than the limit of 20000"),
        (&["--field", "meta", "--unit", "Dwarf", "--must-include", "Kabam"], "Kabaaam"),
        (&["--field", "no such field", "--unit", "Dwarf"], "no such field"),
        (&["--field", "meta", "--unit", "Dwarff"], "Dwarf"),
        (&["--field", "meta", "--unit", "Dwarf", "--growth", "1"], "--growth"),
    ];
    for (args, msg) in cases {
        let out = search(&[args, &["-q"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// An ad-hoc build plays exactly as the catalogue build with the same unit, weapons and
/// gear (exact duel odds are equal), and is taken by duel, compare, gauntlet and meta.
#[test]
fn an_adhoc_build_is_its_catalogue_twin() {
    let exact = |a: &str| {
        let out =
            volley().args(["duel", a, "Dwarf ALPHA", "--range", "12", "--exact", "--format", "json"]).output().unwrap();
        assert!(out.status.success(), "{a}: {}", String::from_utf8_lossy(&out.stderr));
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap(), j["p_draw"].as_f64().unwrap())
    };
    let adhoc = "Gladiator[Lance Railgun, Devastator, ECM Suite]";
    assert_eq!(exact(adhoc), exact("Gladiator Lancer"));
    // written differently, it is the same build
    assert_eq!(exact(" Gladiator [ECM Suite,Devastator, Lance Railgun] "), exact("Gladiator Lancer"));
    for args in [
        vec!["compare", adhoc, "Gladiator[2*Devastator, Ripper Autocannon]", "--against", "meta", "--trials", "20"],
        vec!["meta", adhoc, "Dwarf[2*Devastator]", "Troll Brawler", "--trials", "20", "--bootstrap", "5"],
        vec!["ttk", "--attacker", "Dwarf[2*Kabaaam]", "--target", "Stingray Standard", "--exact"],
    ] {
        let out = volley().args(&args).arg("-q").output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains('['), "{args:?}");
    }
    for (bad, msg) in [
        ("Gladiator[Lance Railgn]", "Lance Railgun"),
        ("Gladiator[Lance Railgun", "must end with `]`"),
        ("Gladiator[9*Lance Railgun]", "over the free weight"),
    ] {
        let out = volley().args(["duel", bad, "Dwarf ALPHA", "--trials", "10", "-q"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(err.contains(msg), "{bad}: {err}");
    }
}

/// `--out DIR` writes the leaderboard and the stages as Parquet and CSV with a manifest:
/// the leaderboard has one row per candidate, ranked as the JSON ranks them.
#[test]
fn out_writes_the_leaderboard_and_the_stages() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let args = ["--field", "meta", "--unit", "Dwarf", "--must-include", "Blackout", "--top", "2", "--trials", "10"];
    let j = search_json(&[&args[..], &["--out", dir.to_str().unwrap()]].concat());
    for f in [
        "search_leaderboard.csv",
        "search_leaderboard.parquet",
        "search_stages.csv",
        "search_stages.parquet",
        "manifest.json",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let csv = fs::read_to_string(dir.join("search_leaderboard.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(csv.as_bytes());
    let head = rdr.headers().unwrap().clone();
    let at = |name: &str| head.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name}"));
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    assert_eq!(rows.len() as u64, j["space_size"].as_u64().unwrap());
    assert_eq!(&rows[0][at("candidate")], j["leaderboard"][0]["candidate"].as_str().unwrap());
    assert_eq!(&rows[0][at("tie_group")], "1");
    assert!(rows.iter().any(|r| &r[at("pareto")] == "true"));
    let stages = fs::read_to_string(dir.join("search_stages.csv")).unwrap();
    assert_eq!(stages.lines().count() - 1, j["stages"].as_array().unwrap().len());
    // a second run into the same directory needs --force
    let again = search(&[&args[..], &["--out", dir.to_str().unwrap(), "-q"]].concat());
    assert_ne!(again.status.code(), Some(0));
}

/// `meta --search DIR --top N` plays the search's first N candidates (by rank) as its
/// players, after the named ones; another report, or another ruleset, is refused.
#[test]
fn a_meta_plays_the_leaders_of_a_search() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let args = ["--field", "meta", "--unit", "Dwarf", "--must-include", "Blackout", "--top", "2", "--trials", "10"];
    let j = search_json(&[&args[..], &["--out", dir.to_str().unwrap()]].concat());
    let leaders = leaderboard(&j);
    let meta = |extra: &[&str]| {
        volley()
            .args(["meta", "--search", dir.to_str().unwrap(), "--trials", "200", "--bootstrap", "0", "-q"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = meta(&["--top", "3", "Stingray Standard", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let m: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let players: Vec<&str> = m["players"].as_array().unwrap().iter().map(|p| p.as_str().unwrap()).collect();
    assert_eq!(players, ["Stingray Standard", &leaders[0], &leaders[1], &leaders[2]], "named first, then the top 3");
    // The same players named on the command line give the same matrix.
    let named = volley()
        .args(["meta", "Stingray Standard", &leaders[0], &leaders[1], &leaders[2]])
        .args(["--trials", "200", "--bootstrap", "0", "-q", "--format", "json"])
        .output()
        .unwrap();
    assert!(named.status.success(), "{}", String::from_utf8_lossy(&named.stderr));
    let n: serde_json::Value = serde_json::from_slice(&named.stdout).unwrap();
    assert_eq!(m["matrix"], n["matrix"]);
    // Not a search report; a search of another ruleset.
    let out = volley().args(["meta", "--search", tmp.path().to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a search report"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = meta(&["--ruleset", "mechcom"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the search was of techcommander; play its meta with --ruleset techcommander"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--out` writes the charts (the leaders with their intervals, the Pareto front) and a
/// report page whose findings name the leader, the stop and the front; `--no-charts`
/// keeps the page and drops the charts.
#[test]
fn out_writes_the_charts_and_a_report_page() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("s");
    let args = ["--field", "meta", "--unit", "Dwarf", "--must-include", "Blackout", "--top", "2", "--trials", "10"];
    let j = search_json(&[&args[..], &["--out", dir.to_str().unwrap()]].concat());
    for f in
        ["charts/search-leaders.svg", "charts/search-leaders.png", "charts/search-pareto.svg", "index.md", "index.html"]
    {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let page = fs::read_to_string(dir.join("index.html")).unwrap();
    let leader = j["leaderboard"][0]["candidate"].as_str().unwrap();
    assert!(page.contains(&format!("{leader} (")), "the page names the leader {leader}:\n{page}");
    assert!(page.contains(&format!("The race stopped at stage {}", j["stages"].as_array().unwrap().len())), "{page}");
    assert!(page.contains("Pareto front"), "{page}");
    let svg = fs::read_to_string(dir.join("charts/search-leaders.svg")).unwrap();
    assert!(svg.contains(&format!("1. {leader}")), "the leaders chart starts with the leader");
    let bare = tmp.path().join("bare");
    search_json(&[&args[..], &["--out", bare.to_str().unwrap(), "--no-charts"]].concat());
    assert!(bare.join("index.md").is_file() && !bare.join("charts").exists());
}
