//! The output-safety layer and authenticated shards: `--force` replaces only volley's own
//! output, no output path comes from an input file's contents or is one of the run's
//! inputs, replacement is atomic and recovered after a crash (proved at every step with
//! the `VOLLEY_FAIL_AT` / `VOLLEY_CRASH_AT` hook), every file is staged, and forged or
//! relabelled shards are refused.

use super::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use volley::sweep::shard::ShardMeta;

/// The variables that pick a shard or inject faults; every command here starts without them.
fn clean() -> Command {
    let mut c = volley();
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_MAX",
        "SLURM_ARRAY_TASK_STEP",
        "JOB_COMPLETION_INDEX",
        "VOLLEY_SHARDS",
        "VOLLEY_FAIL_AT",
        "VOLLEY_CRASH_AT",
    ] {
        c.env_remove(v);
    }
    c
}

fn run(c: &mut Command) -> (Option<i32>, String) {
    let o = c.output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn ok(c: &mut Command) {
    let (code, err) = run(c);
    assert_eq!(code, Some(0), "{err}");
}

/// A PID that no process has now (a child that ran and was reaped).
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// Every file under `dir`, relative path to bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

/// A small sweep of the built-in `quick` scenario into `out` (relative to `d`).
fn sweep(d: &Path, out: &str, seed: &str, extra: &[&str]) -> Command {
    let mut c = clean();
    c.current_dir(d).args(["sweep", "quick", "--trials", "300", "--seed", seed, "--quiet", "--no-charts"]);
    c.args(["--format", "csv", "--out", out]).args(extra);
    c
}

/// Shards 1..=n of `command` into `d/work/s<k>`.
fn shards(d: &Path, command: &[&str], n: u32, work: &str) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let s = d.join(work).join(format!("s{k}"));
            ok(clean()
                .current_dir(d)
                .args(command)
                .args(["--quiet", "--out", s.to_str().unwrap()])
                .args(["--shard", &format!("{k}/{n}")]));
            s
        })
        .collect()
}

/// Edit a shard's `shard.json` with `edit`; `reseal`: recompute its seal as a forger would.
fn edit_shard(dir: &Path, reseal: bool, edit: impl Fn(&mut serde_json::Value)) {
    let path = dir.join("shard.json");
    let mut v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    edit(&mut v);
    if reseal {
        let meta: ShardMeta = serde_json::from_value(v).unwrap();
        v = serde_json::to_value(meta.sealed()).unwrap();
    }
    fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

fn merge(d: &Path, dirs: &[PathBuf], extra: &[&str]) -> (Option<i32>, String) {
    run(clean().current_dir(d).arg("merge").args(dirs).args(["--quiet", "--no-charts", "--format", "csv"]).args(extra))
}

const GAUNTLET: [&str; 9] =
    ["gauntlet", "Dwarf ALPHA", "Paladin Siege", "--field", "meta", "--range", "20", "--trials", "600"];

#[test]
fn merge_never_writes_where_shard_json_says() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let work = d.join("a/b/c");
    fs::create_dir_all(&work).unwrap();
    let set = shards(&work, &GAUNTLET, 2, "w");
    let outside = d.join("abs-victim");
    for (name, victim) in [("../../victim", d.join("a/victim")), (outside.to_str().unwrap(), outside.clone())] {
        for s in &set {
            edit_shard(s, false, |v| v["scenario_name"] = name.into());
        }
        let (code, err) = merge(&work, &set, &["--force"]);
        assert_eq!(code, Some(1), "an edited shard.json is refused: {err}");
        assert!(err.contains("does not match its seal"), "{err}");
        // Even resealed (a forger who recomputes the seal), the name is not a path.
        for s in &set {
            edit_shard(s, true, |v| v["scenario_name"] = name.into());
        }
        let (code, err) = merge(&work, &set, &["--force"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(!victim.exists(), "{name}: merge wrote {}", victim.display());
        assert!(work.join("reports/gauntlet-meta/gauntlet_summary.csv").exists(), "named from the field");
    }
}

#[test]
fn force_replaces_only_volley_output_or_an_empty_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("p")).unwrap();
    fs::write(d.join("p/thesis.txt"), "t").unwrap();
    let (code, err) = run(&mut sweep(d, "p", "1", &["--force"]));
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("p/thesis.txt") && err.contains("not written by volley"), "{err}");
    assert_eq!(fs::read_to_string(d.join("p/thesis.txt")).unwrap(), "t");
    fs::create_dir(d.join("empty")).unwrap();
    ok(&mut sweep(d, "empty", "1", &["--force"]));
    assert!(d.join("empty/.volley-output").is_file(), "a report carries the marker");
    ok(&mut sweep(d, "empty", "2", &["--force"]));
}

#[test]
fn merge_refuses_to_write_over_one_of_its_shards() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = shards(d, &["sweep", "quick", "--trials", "300", "--no-charts"], 2, "w");
    let before = snapshot(&set[0]);
    for out in [set[0].to_str().unwrap(), "w/s1/inner", "w"] {
        let (code, err) = merge(d, &set, &["--out", out, "--force"]);
        assert_eq!(code, Some(1), "{out}: {err}");
        assert!(err.contains("which this run reads"), "{err}");
        assert_eq!(snapshot(&set[0]), before, "the shard is untouched");
    }
}

#[test]
fn forged_relabelled_and_foreign_version_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 9000 trials: two full streams and a short one per cell, so shards 1 and 2 hold the
    // same number of engagements of the same cells (only the replay tells them apart).
    let command = ["sweep", "quick", "--trials", "9000", "--no-charts", "--format", "csv"];
    let set = shards(d, &command, 2, "w");
    let fake = d.join("w/fake2");
    copy_dir(&set[0], &fake);
    edit_shard(&fake, false, |v| v["shard"] = 2.into());
    let pair = [set[0].clone(), fake.clone()];
    let (code, err) = merge(d, &pair, &["--out", "m1"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("does not match its seal"), "{err}");
    edit_shard(&fake, true, |v| v["shard"] = 2.into());
    let (code, err) = merge(d, &pair, &["--out", "m2"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("is not shard 2 of 2"), "{err}");
    // Seed 7 written into every shard over seed 1's tallies.
    let reseeded: Vec<PathBuf> = set
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let c = d.join(format!("w/seed{k}"));
            copy_dir(s, &c);
            c
        })
        .collect();
    for (reseal, out) in [(false, "m3"), (true, "m4")] {
        for s in &reseeded {
            edit_shard(s, reseal, |v| v["seed"] = 7.into());
        }
        let (code, err) = merge(d, &reseeded, &["--out", out]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains(if reseal { "is not shard 1 of 2" } else { "seal" }), "{err}");
    }
    // Another volley version: refused unless accepted; another schema: refused.
    let old: Vec<PathBuf> = set
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let c = d.join(format!("w/old{k}"));
            copy_dir(s, &c);
            edit_shard(&c, true, |v| v["volley_version"] = "0.0.9".into());
            c
        })
        .collect();
    let (code, err) = merge(d, &old, &["--out", "m5"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("volley 0.0.9") && err.contains("--accept-other-version"), "{err}");
    let (code, err) = merge(d, &old, &["--out", "m6", "--accept-other-version"]);
    assert_eq!(code, Some(0), "{err}");
    for s in &old {
        edit_shard(s, true, |v| v["schema_version"] = 1.into());
    }
    let (code, err) = merge(d, &old, &["--out", "m7", "--accept-other-version"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("shard schema version 1"), "{err}");
    let (code, err) = merge(d, &set, &["--out", "m8"]);
    assert_eq!(code, Some(0), "the genuine shards merge: {err}");
    assert_eq!(
        snapshot(&d.join("m8")).get(Path::new("time_to_kill.csv")),
        snapshot(&d.join("m6")).get(Path::new("time_to_kill.csv"))
    );
}

#[test]
fn a_huge_claimed_shard_count_or_a_help_request_is_a_clean_failure() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set = shards(d, &GAUNTLET, 2, "w");
    let huge: Vec<PathBuf> = set
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let c = d.join(format!("w/huge{k}"));
            copy_dir(s, &c);
            edit_shard(&c, true, |v| v["shards"] = 4294967295u32.into());
            c
        })
        .collect();
    let (code, err) = merge(d, &huge, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("missing shards 3, 4,") && err.contains("more of 4294967295"), "{err}");
    for s in &set {
        edit_shard(s, true, |v| v["args"] = serde_json::json!(["--help"]));
    }
    let (code, err) = merge(d, &set, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("is not a command to merge"), "{err}");
}

#[test]
fn an_old_copy_left_by_a_killed_replacement_is_put_back() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(&mut sweep(d, "r", "1", &[]));
    let old = snapshot(&d.join("r"));
    // Killed between the two renames of --force: no `r`, the old copy beside it.
    let pid = dead_pid();
    fs::rename(d.join("r"), d.join(format!(".r.old-{pid}"))).unwrap();
    fs::create_dir(d.join(format!(".r.partial-{pid}"))).unwrap();
    fs::write(d.join(format!(".r.partial-{pid}/half.csv")), "a,").unwrap();
    let (code, err) = run(&mut sweep(d, "r", "2", &[]));
    assert_eq!(code, Some(1), "the restored report is not replaced without --force: {err}");
    assert!(err.contains("already exists"), "{err}");
    assert_eq!(snapshot(&d.join("r")), old, "the old copy is back");
    assert_eq!(names(d), ["r"], "no temporary directory left");
}

/// A report's files without `manifest.json` (which records wall time), and its seed.
fn report(dir: &Path) -> (BTreeMap<PathBuf, Vec<u8>>, serde_json::Value) {
    let mut files = snapshot(dir);
    let manifest: serde_json::Value =
        serde_json::from_slice(&files.remove(Path::new("manifest.json")).expect("a manifest")).unwrap();
    (files, manifest["seed"].clone())
}

/// Leftovers of the replace protocol beside `r`.
fn temporaries(d: &Path) -> Vec<String> {
    names(d).into_iter().filter(|n| n != "r" && n != "ref").collect()
}

#[test]
fn every_step_of_the_replace_protocol_leaves_the_old_or_the_new_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(&mut sweep(d, "ref/new", "2", &[]));
    let new = report(&d.join("ref/new"));
    ok(&mut sweep(d, "r", "1", &[]));
    let old = report(&d.join("r"));
    assert!(old != new);
    let mut failed = 0;
    // A failing step (a full disk): the command's own clean-up runs.
    for n in 1..60 {
        let (code, err) = run(sweep(d, "r", "2", &["--force"]).env("VOLLEY_FAIL_AT", n.to_string()));
        let now = if d.join("r").exists() { report(&d.join("r")) } else { (BTreeMap::new(), serde_json::Value::Null) };
        assert!(now == old || now == new, "step {n}: neither the old nor the new report: {err}");
        if code == Some(0) {
            // A failed removal of the old copy after the new one is in place leaves it
            // for the next run, which removes it.
            assert!(now == new);
            let _ = run(&mut sweep(d, "r", "3", &[]));
            assert_eq!(temporaries(d), Vec::<String>::new(), "step {n}: {err}");
            break;
        }
        assert_eq!(temporaries(d), Vec::<String>::new(), "step {n}: {err}");
        failed += 1;
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(err.matches("No space left on device").count(), 1, "said once: {err}");
        assert!(now == old, "step {n}: a failed run leaves the old report: {err}");
    }
    assert!(failed >= 4, "the hook stopped {failed} steps");
    // A crash at each step (nothing after it runs, no clean-up), then the next run.
    let mut crashed = 0;
    for n in 1..60 {
        let (code, _) = run(sweep(d, "r", "2", &["--force"]).env("VOLLEY_CRASH_AT", n.to_string()));
        let (_, err) = run(&mut sweep(d, "r", "3", &[])); // recovers, then refuses: r exists
        assert!(err.contains("already exists"), "step {n}: {err}");
        let now = if d.join("r").exists() { report(&d.join("r")) } else { (BTreeMap::new(), serde_json::Value::Null) };
        assert!(now == old || now == new, "step {n}: neither the old nor the new report");
        assert_eq!(temporaries(d), Vec::<String>::new(), "step {n}: leftovers after recovery");
        if code == Some(0) {
            break;
        }
        crashed += 1;
        if now == new {
            ok(&mut sweep(d, "r", "1", &["--force"]));
        }
    }
    assert!(crashed >= 4, "the hook crashed {crashed} steps");
}

#[test]
fn dangling_links_and_dot_names_are_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::os::unix::fs::symlink(d.join("nowhere"), d.join("link")).unwrap();
    fs::create_dir(d.join("dir")).unwrap();
    for (out, needle) in [("link", "symbolic link"), ("dir/.", "directory of its own")] {
        let (code, err) = run(&mut sweep(d, out, "1", &["--force"]));
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains(needle), "{out}: {err}");
    }
    assert_eq!(names(d), ["dir", "link"]);
    assert_eq!(names(&d.join("dir")), Vec::<String>::new());
}

/// One attacker, one target, one grid point: a report with few charts.
const TINY: &str = r#"
name = "tiny"
engagement = "attack-run"
seed = 1
trials = 200
attackers = ["Dwarf ALPHA"]
targets = ["ac:5"]
[grid]
range = [12]
"#;

#[test]
fn chart_stages_its_files_and_removes_the_leftovers_of_dead_runs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    ok(clean().current_dir(d).args(["sweep", "tiny.toml", "--quiet", "--format", "csv", "--out", "r"]));
    let r = d.join("r");
    let pid = dead_pid();
    for left in [format!(".charts.partial-{pid}"), format!(".chart.partial-{pid}")] {
        fs::create_dir(r.join(&left)).unwrap();
        fs::write(r.join(&left).join("index.html"), "").unwrap();
    }
    let settled = |all: BTreeMap<PathBuf, Vec<u8>>| -> BTreeMap<PathBuf, Vec<u8>> {
        all.into_iter().filter(|(p, _)| !p.to_string_lossy().starts_with(".chart")).collect()
    };
    let before = settled(snapshot(&r));
    for n in 1..4 {
        let (code, err) = run(clean().current_dir(d).args(["chart", "r", "-q"]).env("VOLLEY_FAIL_AT", n.to_string()));
        assert_eq!(code, Some(1), "step {n}: {err}");
        assert!(err.contains("nothing was changed"), "{err}");
        assert!(settled(snapshot(&r)) == before, "step {n}: the report is not as it was");
    }
    ok(clean().current_dir(d).args(["chart", "r", "-q"]));
    assert!(names(&r).iter().all(|n| !n.contains(".partial-") && !n.contains(".old-")), "{:?}", names(&r));
    assert!(!fs::read(r.join("index.html")).unwrap().is_empty());
}

#[test]
fn odds_card_shows_no_file_until_all_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let all = ["odds-card-dwarf-alpha.pdf", "odds-card-dwarf-alpha.png", "odds-card-dwarf-alpha.svg"];
    let visible = || names(d).into_iter().filter(|n| !n.starts_with('.')).collect::<Vec<_>>();
    // Steps 1-3 stage the PNG, SVG and PDF, 4-6 rename them into place (each run renders
    // the 300 dpi PNG: two of them only, to stay fast). Step 5 fails with the PNG in place.
    for n in [1, 5] {
        let (code, err) =
            run(clean().current_dir(d).args(["odds-card", "Dwarf ALPHA"]).env("VOLLEY_FAIL_AT", n.to_string()));
        assert_eq!(code, Some(1), "step {n}: {err}");
        assert!(err.contains("No space left on device"), "step {n}: {err}");
        assert_eq!(visible(), Vec::<String>::new(), "step {n}: no card file unless every one is: {err}");
    }
    let (code, err) = run(clean().current_dir(d).args(["odds-card", "Dwarf ALPHA"]).env("VOLLEY_FAIL_AT", "7"));
    assert_eq!(code, Some(0), "six steps only: {err}");
    assert_eq!(visible(), all);
    fs::write(d.join(format!(".volley-{}-abc123.partial", dead_pid())), "half").unwrap();
    ok(clean().current_dir(d).args(["odds-card", "Dwarf ALPHA", "--force", "--out", "odds-card-dwarf-alpha.svg"]));
    assert_eq!(names(d), all, "the dead run's partial is gone, no temporary left");
}

#[test]
fn odds_card_stopped_by_a_signal_leaves_nothing_and_says_so() {
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    let bin = assert_cmd::cargo::cargo_bin("volley");
    let mut stopped = 0;
    for ms in [40, 150, 400] {
        let dir = tempfile::tempdir().unwrap();
        let child = std::process::Command::new(&bin)
            .current_dir(dir.path())
            .args(["odds-card", "Dwarf ALPHA"])
            .env_remove("VOLLEY_LOADOUTS")
            .env_remove("VOLLEY_RULESET")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(ms));
        let _ = kill(Pid::from_raw(child.id() as i32), Signal::SIGINT);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            Some(130) => {
                stopped += 1;
                assert!(err.contains("nothing written"), "{err}");
                assert_eq!(names(dir.path()), Vec::<String>::new(), "{ms} ms: {err}");
            }
            Some(0) => assert_eq!(names(dir.path()).len(), 3, "{ms} ms: finished: {err}"),
            // Ended before its handlers were installed: no card file either.
            None => assert!(names(dir.path()).iter().all(|n| n.starts_with('.')), "{ms} ms: {err}"),
            other => panic!("{ms} ms: exit {other:?}: {err}"),
        }
    }
    assert!(stopped > 0, "no run was stopped: the delays are too long for this machine");
}

#[test]
fn sweep_and_gauntlet_never_write_over_or_into_what_they_read() {
    // Was: `sweep S.toml --out DIR --force` replaced the directory holding the scenario,
    // and `--out` inside a `--loadouts` directory wrote a report that later runs read
    // as catalogue files.
    let d = tempfile::tempdir().unwrap();
    let cat = d.path().join("cat");
    fs::create_dir(&cat).unwrap();
    fs::write(cat.join("extra.toml"), "").unwrap();
    let scenario = d.path().join("here").join("s.toml");
    fs::create_dir(scenario.parent().unwrap()).unwrap();
    fs::write(&scenario, volley::sweep::scenario::embedded_text("quick").unwrap()).unwrap();
    let before = snapshot(d.path());
    let cases: Vec<(Vec<String>, &Path)> = vec![
        (
            vec![
                "sweep".into(),
                scenario.display().to_string(),
                "--out".into(),
                d.path().join("here").display().to_string(),
            ],
            &scenario,
        ),
        (
            vec![
                "--add-loadouts".into(),
                cat.display().to_string(),
                "sweep".into(),
                "quick".into(),
                "--out".into(),
                cat.join("report").display().to_string(),
            ],
            &cat,
        ),
        (
            vec![
                "--add-loadouts".into(),
                cat.display().to_string(),
                "gauntlet".into(),
                "all".into(),
                "--field".into(),
                "all".into(),
                "--out".into(),
                d.path().display().to_string(),
            ],
            &cat,
        ),
    ];
    for (args, input) in cases {
        let (code, err) = run(clean().args(&args).arg("--force").arg("--quiet").arg("--no-charts"));
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(err.contains("which this run reads") && err.contains(&input.display().to_string()), "{args:?}: {err}");
        assert_eq!(snapshot(d.path()), before, "{args:?} changed the files");
    }
}
