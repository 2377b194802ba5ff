//! A search played stage by stage in shards: every stage dealt to shards, merged, and
//! resumed from the merge's state directory, ends bit for bit as the search in one
//! process; forged states, mixed stages and stray flags are refused.

use std::path::{Path, PathBuf};

use super::*;

const SEARCH: &[&str] = &[
    "search",
    "--no-exact",
    "--field",
    "meta",
    "--unit",
    "Dwarf",
    "--must-include",
    "Blackout",
    "--top",
    "2",
    "--trials",
    "20",
    "--range",
    "12",
    "--format",
    "json",
];

fn run(args: &[&str], envs: &[(&str, &str)]) -> std::process::Output {
    let mut c = volley();
    c.args(args);
    for (k, v) in envs {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn ok(args: &[&str], envs: &[(&str, &str)]) -> Vec<u8> {
    let out = run(args, envs);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Play every stage in `shards` shards (stage 2 on takes its place from a Slurm array's
/// variables), merging each stage; returns the final merge's stdout, its report
/// directory and the state directories written on the way.
fn staged(root: &Path, shards: usize) -> (Vec<u8>, PathBuf, Vec<PathBuf>) {
    let mut states: Vec<PathBuf> = Vec::new();
    for stage in 1.. {
        let mut dirs = Vec::new();
        for k in 1..=shards {
            let dir = root.join(format!("stage{stage}-shard{k}"));
            let (k_text, n_text) = ((k - 1).to_string(), shards.to_string());
            match states.last() {
                None => {
                    let place = format!("{k}/{shards}");
                    ok(&[SEARCH, &["--shard", &place, "--out", s(&dir), "-q"]].concat(), &[]);
                }
                Some(state) => {
                    let slurm = [("SLURM_ARRAY_TASK_ID", k_text.as_str()), ("SLURM_ARRAY_TASK_COUNT", n_text.as_str())];
                    ok(&["search", "--resume", s(state), "--out", s(&dir), "-q"], &slurm);
                }
            }
            dirs.push(dir);
        }
        let out = root.join(format!("merged{stage}"));
        let mut merge = vec!["merge".to_string()];
        merge.extend(dirs.iter().rev().map(|d| s(d).to_string()));
        merge.extend(["--out".into(), s(&out).into(), "-q".into()]);
        let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
        let stdout = ok(&merge, &[]);
        if out.join("search-state.json").is_file() {
            assert!(stdout.is_empty(), "a merged stage that is not the last prints nothing");
            states.push(out);
            assert!(stage < 10, "the race never ended");
        } else {
            return (stdout, out, states);
        }
    }
    unreachable!()
}

/// The tables of a search report, byte for byte.
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    ["search_leaderboard.csv", "search_stages.csv"]
        .iter()
        .map(|f| (f.to_string(), fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()))))
        .collect()
}

#[test]
fn a_search_played_in_shards_stage_by_stage_merges_bit_for_bit_to_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let whole_dir = tmp.path().join("whole");
    let whole = ok(&[SEARCH, &["--out", s(&whole_dir), "-q"]].concat(), &[]);
    let j: serde_json::Value = serde_json::from_slice(&whole).unwrap();
    let stages = j["stages"].as_array().unwrap().len();
    assert!(stages >= 2, "the race must have a later stage to resume: {stages}");
    let (merged, report, states) = staged(tmp.path(), 3);
    assert_eq!(states.len(), stages - 1, "one state directory between each two stages");
    assert_eq!(String::from_utf8_lossy(&merged), String::from_utf8_lossy(&whole));
    assert_eq!(tables(&report), tables(&whole_dir));
    // the same race on another split (2 shards) ends the same
    let other = tmp.path().join("two");
    fs::create_dir(&other).unwrap();
    let (two, _, _) = staged(&other, 2);
    assert_eq!(two, whole);
    // the rest of the race from a merged state, in one process
    let rest = ok(&["search", "--resume", s(&states[0]), "-q"], &[]);
    assert_eq!(rest, whole);
}

#[test]
fn a_resumed_search_refuses_forged_states_mixed_stages_and_its_own_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let s1: Vec<PathBuf> = (1..=2).map(|k| root.join(format!("a{k}"))).collect();
    for (k, d) in s1.iter().enumerate() {
        ok(&[SEARCH, &["--shard", &format!("{}/2", k + 1), "--out", s(d), "-q"]].concat(), &[]);
    }
    let state = root.join("state");
    ok(&["merge", s(&s1[0]), s(&s1[1]), "--out", s(&state), "-q"], &[]);
    // flags of the search itself cannot be changed on resuming (exit 2)
    let out = run(&["search", "--resume", s(&state), "--top", "5", "--shard", "1/2"], &[]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--top 5"), "{}", String::from_utf8_lossy(&out.stderr));
    // a stage-2 shard and a stage-1 shard are not shards of one run
    let b1 = root.join("b1");
    ok(&["search", "--resume", s(&state), "--shard", "1/2", "--out", s(&b1), "-q"], &[]);
    let mixed = run(&["merge", s(&b1), s(&s1[1]), "--out", s(&root.join("mixed"))], &[]);
    assert_eq!(mixed.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&mixed.stderr).contains("another run"),
        "{}",
        String::from_utf8_lossy(&mixed.stderr)
    );
    assert!(!root.join("mixed").exists());
    // an edited count in the state is caught by its seal
    let text = fs::read_to_string(state.join("search-state.json")).unwrap();
    let forged = text.replacen("\"alive\": false", "\"alive\": true", 1);
    assert_ne!(forged, text);
    fs::write(state.join("search-state.json"), forged).unwrap();
    let out = run(&["search", "--resume", s(&state), "--shard", "2/2", "--out", s(&root.join("b2"))], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("seal"), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!root.join("b2").exists());
    // the state copied into a stage-2 shard is covered by its shard.json
    fs::write(b1.join("search-state.json"), "{}").unwrap();
    let out = run(&["merge", s(&b1), "--out", s(&root.join("m2"))], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("search-state.json"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a report directory is not a state to resume
    let report = root.join("report");
    ok(&[SEARCH, &["--out", s(&report), "-q"]].concat(), &[]);
    let out = run(&["search", "--resume", s(&report)], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a search state"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A resumed search plays in the state's ruleset, whatever the command line's default:
/// `search --resume` of a MECHCOM state (no `--ruleset` given) ends as the MECHCOM search.
/// Was: the state's catalogue loaded as a TechCommander one, and failed.
#[test]
fn a_resumed_search_plays_in_the_states_ruleset() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let search = [
        "--ruleset",
        "mechcom",
        "search",
        "--no-exact",
        "--field",
        "arena",
        "--unit",
        "Wasp,Sentinel",
        "--top",
        "2",
        "--trials",
        "20",
    ];
    let json = ["--format", "json", "-q"];
    let whole = ok(&[&search[..], &json].concat(), &[]);
    let shards: Vec<PathBuf> = (1..=2).map(|k| root.join(format!("m{k}"))).collect();
    for (k, d) in shards.iter().enumerate() {
        ok(&[&search[..], &json, &["--shard", &format!("{}/2", k + 1), "--out", s(d)]].concat(), &[]);
    }
    let state = root.join("state");
    ok(&["merge", s(&shards[0]), s(&shards[1]), "--out", s(&state), "-q"], &[]);
    assert!(state.join("search-state.json").is_file(), "the race must go on past stage 1");
    assert_eq!(ok(&["search", "--resume", s(&state), "-q"], &[]), whole);
}

/// Exact values are solved once: each first-stage shard solves its own share of the
/// candidates (candidate i by shard i mod N + 1) and writes them in `exact.json`; the
/// merge reads them rather than solving any, and ends as the search in one process. An
/// `exact.json` changed since its shard wrote it is refused.
#[test]
fn exact_values_are_solved_once_each_by_one_first_stage_shard() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let search = [
        "search",
        "--field",
        "meta",
        "--unit",
        "Dwarf",
        "--must-include",
        "Blackout",
        "--exclude",
        "Bubble Shield Projector",
        "--top",
        "2",
        "--range",
        "12",
        "--format",
        "json",
    ];
    let whole = ok(&[&search[..], &["-q"]].concat(), &[]);
    let j: serde_json::Value = serde_json::from_slice(&whole).unwrap();
    let exact = j["exact_candidates"].as_u64().unwrap() as usize;
    assert!(exact > 10, "a TechCommander space is solved exactly: {exact}");
    let n = 3;
    let dirs: Vec<PathBuf> = (1..=n).map(|k| root.join(format!("x{k}"))).collect();
    let mut solved = Vec::new();
    for (k, d) in dirs.iter().enumerate() {
        ok(&[&search[..], &["--shard", &format!("{}/{n}", k + 1), "--out", s(d), "-q"]].concat(), &[]);
        let records: Vec<serde_json::Value> = serde_json::from_slice(&fs::read(d.join("exact.json")).unwrap()).unwrap();
        for r in &records {
            let i = r["candidate"].as_u64().unwrap() as usize;
            assert_eq!(i % n, k, "shard {} solved candidate {i}", k + 1);
            solved.push(i);
        }
    }
    solved.sort_unstable();
    assert_eq!(solved, (0..exact).collect::<Vec<_>>(), "every candidate solved once");
    let out = root.join("merged");
    let mut merge = vec!["merge".to_string()];
    merge.extend(dirs.iter().map(|d| s(d).to_string()));
    merge.extend(["--out".into(), s(&out).into(), "-q".into()]);
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    assert_eq!(String::from_utf8_lossy(&ok(&merge, &[])), String::from_utf8_lossy(&whole));
    // one value changed in a shard's exact.json: refused by its shard.json's hash
    let p = dirs[1].join("exact.json");
    let text = fs::read_to_string(&p).unwrap();
    let at = text.find("\"3f").expect("a value in (0, 1)") + 5;
    let mut forged = text.clone().into_bytes();
    forged[at] = if forged[at] == b'0' { b'1' } else { b'0' };
    fs::write(&p, forged).unwrap();
    let bad = run(&[&merge[..merge.len() - 3], &["--out", s(&root.join("forged"))]].concat(), &[]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("exact.json"), "{}", String::from_utf8_lossy(&bad.stderr));
    assert!(!root.join("forged").exists());
}
