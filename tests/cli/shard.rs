//! Sharded sweeps: shards played as separate processes (through `--shard`, and through
//! the environment Slurm job arrays and Kubernetes Indexed Jobs give), merged by
//! `volley merge`, equal the single-process report exactly; the recipes in
//! scenarios/cluster/ run the very commands tested here.

use super::*;
use std::path::{Path, PathBuf};
use volley::output::read::read_table;

/// Attack runs: 2 × 2 sides × 4 points, four streams per cell (the last one short).
const ATTACK_RUNS: &str = r#"
name = "sharded"
engagement = "attack-run"
seed = 11
trials = 12388
max_turns = 8
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
targets = ["Stingray", "ac:5"]

[grid]
range = [12, 30]
smoke = ["none", "designated"]
"#;

const DUELS: &str = r#"
name = "sharded-duels"
engagement = "duel"
seed = 4
trials = 9000
max_turns = 10
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
opponents = ["Beagle Hunter"]

[grid]
range = [12, 24]
"#;

/// The variables that make volley pick a shard; every command here starts without them.
const SHARD_VARS: [&str; 7] = [
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_COUNT",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_MAX",
    "SLURM_ARRAY_TASK_STEP",
    "JOB_COMPLETION_INDEX",
    "VOLLEY_SHARDS",
];

pub(super) fn clean(mut c: Command) -> Command {
    for v in SHARD_VARS {
        c.env_remove(v);
    }
    c
}

pub(super) fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Sweeps the scenario file `scenario` (in `d`) as `n` shards (CSV tables, no charts, into
/// `d/s1` ... `d/sN`), then merges them into `d/merged`; returns that directory.
pub(super) fn sweep_sharded_and_merge(d: &Path, scenario: &str, n: usize) -> std::path::PathBuf {
    let mut shards = Vec::new();
    for k in 1..=n {
        let s = d.join(format!("s{k}"));
        run_ok(
            clean(volley())
                .current_dir(d)
                .args(["sweep", scenario, "--quiet", "--no-charts", "--format", "csv"])
                .args(["--shard", &format!("{k}/{n}"), "--out", s.to_str().unwrap()]),
        );
        shards.push(s);
    }
    run_ok(clean(volley()).current_dir(d).arg("merge").args(&shards).args(["--out", "merged", "--quiet"]));
    d.join("merged")
}

/// Writes `text` as `bad.toml` in `d` and sweeps it: asserts the sweep fails with exit
/// code 1 and writes no output directory, and returns its stderr.
pub(super) fn sweep_refused(d: &Path, text: &str) -> String {
    sweep_file_refused(d, "bad.toml", text)
}

/// [`sweep_refused`] with the scenario written as `name`.
pub(super) fn sweep_file_refused(d: &Path, name: &str, text: &str) -> String {
    fs::write(d.join(name), text).unwrap();
    let o = clean(volley())
        .current_dir(d)
        .args(["sweep", name, "--out", "refused", "--quiet", "--no-charts"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(!d.join("refused").exists(), "a refused sweep wrote {}", d.join("refused").display());
    err
}

/// A shell command with the volley under test first on PATH, no shard variables, in `dir`.
fn shell(program: &str, dir: &Path) -> Command {
    let bin = assert_cmd::cargo::cargo_bin("volley");
    let path = format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    let mut c = clean(Command::new(program));
    c.current_dir(dir).env("PATH", path).env_remove("VOLLEY_LOADOUTS").env_remove("VOLLEY_RULESET");
    c
}

pub(super) fn write_scenario(dir: &Path, text: &str) -> String {
    let p = dir.join("scenario.toml");
    fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn single(dir: &Path, scenario: &str) -> PathBuf {
    let out = dir.join("single");
    run_ok(clean(volley()).current_dir(dir).args(["sweep", scenario, "--out", "single", "--quiet", "--no-charts"]));
    out
}

pub(super) fn merge(dir: &Path, shards: &[PathBuf], out: &str) -> std::process::Output {
    let mut c = clean(volley());
    c.current_dir(dir).arg("merge").args(shards).args(["--out", out, "--quiet", "--no-charts"]);
    c.output().unwrap()
}

/// Every CSV byte for byte, every Parquet table cell for cell.
pub(super) fn assert_same_report(single: &Path, merged: &Path) {
    let mut tables = 0;
    for entry in fs::read_dir(single).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".csv") {
            tables += 1;
            let (a, b) = (fs::read(single.join(&name)).unwrap(), fs::read(merged.join(&name)).unwrap());
            assert!(a == b, "{name} differs between the single run and the merged shards");
            let pa = read_table(single, stem).unwrap().unwrap();
            let pb = read_table(merged, stem).unwrap().unwrap();
            assert_eq!(pa, pb, "{stem}.parquet");
        }
    }
    assert!(tables >= 2, "a report has tables");
}

pub(super) fn shard_dirs(work: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(work).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

#[test]
fn shards_through_the_flag_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let scenario = write_scenario(dir.path(), ATTACK_RUNS);
    let reference = single(dir.path(), &scenario);
    for n in [1, 2, 3, 7] {
        let work = dir.path().join(format!("flag-{n}"));
        // Shards in reverse order: the order they run or are given in does not matter.
        for k in (1..=n).rev() {
            let out = run_ok(clean(volley()).current_dir(dir.path()).args([
                "sweep",
                &scenario,
                "--shard",
                &format!("{k}/{n}"),
                "--out",
                work.join(format!("s{k}")).to_str().unwrap(),
            ]));
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(&format!("shard {k} of {n} (from --shard {k}/{n})")), "{err}");
        }
        let mut dirs = shard_dirs(&work);
        dirs.reverse();
        let out = merge(dir.path(), &dirs, &format!("merged-{n}"));
        assert!(out.status.success(), "{n}: {}", String::from_utf8_lossy(&out.stderr));
        assert_same_report(&reference, &dir.path().join(format!("merged-{n}")));
    }
}

#[test]
fn duel_and_battle_sweeps_merge_exactly_too() {
    let dir = tempfile::tempdir().unwrap();
    let duels = write_scenario(dir.path(), DUELS);
    for (scenario, trials) in [(duels.as_str(), None), ("battles", Some("3000"))] {
        let extra: Vec<&str> = trials.map(|t| vec!["--trials", t]).unwrap_or_default();
        run_ok(
            clean(volley())
                .current_dir(dir.path())
                .args(["sweep", scenario, "--out", "one", "--quiet", "--no-charts", "--force"])
                .args(&extra),
        );
        // Battle sweeps compile and play their cells a chunk at a time (24 cells here: one
        // chunk by default); chunks of 5 or 1, sharded and merged or not, give the same report.
        let chunks: &[Option<&str>] = if scenario == "battles" { &[None, Some("5"), Some("1")] } else { &[None] };
        for &chunk in chunks {
            let with_chunk = |mut c: Command| {
                if let Some(n) = chunk {
                    c.env("VOLLEY_BATTLE_CHUNK", n);
                }
                c
            };
            if chunk.is_some() {
                let _ = fs::remove_dir_all(dir.path().join("chunked"));
                run_ok(
                    with_chunk(clean(volley()))
                        .current_dir(dir.path())
                        .args(["sweep", scenario, "--out", "chunked", "--quiet", "--no-charts"])
                        .args(&extra),
                );
                assert_same_report(&dir.path().join("one"), &dir.path().join("chunked"));
            }
            let mut dirs = Vec::new();
            for k in 1..=3 {
                let d = dir.path().join(format!("part-{k}"));
                let _ = fs::remove_dir_all(&d);
                run_ok(
                    with_chunk(clean(volley()))
                        .current_dir(dir.path())
                        .args([
                            "sweep",
                            scenario,
                            "--quiet",
                            "--shard",
                            &format!("{k}/3"),
                            "--out",
                            d.to_str().unwrap(),
                        ])
                        .args(&extra),
                );
                dirs.push(d);
            }
            let _ = fs::remove_dir_all(dir.path().join("both"));
            let out = with_chunk(clean(volley()))
                .current_dir(dir.path())
                .arg("merge")
                .args(&dirs)
                .args(["--out", "both", "--quiet", "--no-charts"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{scenario} chunk {chunk:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_same_report(&dir.path().join("one"), &dir.path().join("both"));
        }
    }
}

/// The Slurm recipe: scenarios/cluster/slurm/shard.sbatch run as Slurm runs it (one
/// process per array task, with the variables Slurm sets), then merge.sbatch.
#[test]
fn the_slurm_array_scripts_shard_and_merge_exactly() {
    let cluster = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cluster/slurm");
    let dir = tempfile::tempdir().unwrap();
    let scenario = write_scenario(dir.path(), ATTACK_RUNS);
    let reference = single(dir.path(), &scenario);
    for (n, first) in [(1u32, 1u32), (3, 1), (7, 0)] {
        let work = dir.path().join(format!("slurm-{n}"));
        for id in first..first + n {
            let mut c = shell("bash", dir.path());
            c.arg(cluster.join("shard.sbatch"))
                .env("SCENARIO", &scenario)
                .env("WORK", &work)
                .env("SLURM_CPUS_PER_TASK", "2")
                .env("SLURM_ARRAY_TASK_ID", id.to_string())
                .env("SLURM_ARRAY_TASK_MIN", first.to_string())
                .env("SLURM_ARRAY_TASK_MAX", (first + n - 1).to_string());
            if n != 7 {
                c.env("SLURM_ARRAY_TASK_COUNT", n.to_string()); // Slurm sets it; MIN/MAX suffice
            }
            let out = run_ok(&mut c);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(err.contains(&format!("shard {} of {n} (from SLURM_ARRAY_TASK_ID={id}", id - first + 1)), "{err}");
        }
        let out = format!("slurm-report-{n}");
        let mut c = shell("bash", dir.path());
        c.arg(cluster.join("merge.sbatch")).env("WORK", &work).env("OUT", &out);
        run_ok(&mut c);
        assert_same_report(&reference, &dir.path().join(&out));
    }
}

fn yaml(path: &Path) -> yaml_rust2::Yaml {
    let text = fs::read_to_string(path).unwrap();
    let mut docs = yaml_rust2::YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(docs.len(), 1, "{}", path.display());
    docs.remove(0)
}

/// A container's command and environment from a Job manifest.
fn container(job: &yaml_rust2::Yaml) -> (Vec<String>, Vec<(String, String)>) {
    let c = &job["spec"]["template"]["spec"]["containers"][0];
    let command = c["command"].as_vec().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect();
    let env = c["env"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["value"].as_str().unwrap().to_string()))
        .collect();
    (command, env)
}

/// The Kubernetes recipe: the Indexed Job's container command run once per completion
/// index (as the pods run it), then the merge Job's command.
#[test]
fn the_kubernetes_indexed_job_shards_and_merges_exactly() {
    let k8s = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cluster/kubernetes");
    let shards = yaml(&k8s.join("shards.yaml"));
    let merge_job = yaml(&k8s.join("merge.yaml"));
    let volume = yaml(&k8s.join("volume.yaml"));
    assert_eq!(shards["kind"].as_str(), Some("Job"));
    assert_eq!(shards["spec"]["completionMode"].as_str(), Some("Indexed"));
    assert_eq!(merge_job["kind"].as_str(), Some("Job"));
    assert_eq!(volume["kind"].as_str(), Some("PersistentVolumeClaim"));
    let (command, env) = container(&shards);
    let completions = shards["spec"]["completions"].as_i64().unwrap();
    let declared = env.iter().find(|(n, _)| n == "VOLLEY_SHARDS").map(|(_, v)| v.parse::<i64>().unwrap());
    assert_eq!(declared, Some(completions), "VOLLEY_SHARDS must equal completions");
    let claim = |job: &yaml_rust2::Yaml| {
        job["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"].as_str().map(str::to_string)
    };
    assert_eq!(claim(&shards), volume["metadata"]["name"].as_str().map(str::to_string));
    assert_eq!(claim(&merge_job), claim(&shards), "the merge reads the shards' volume");
    let (merge_command, merge_env) = container(&merge_job);
    let value = |env: &[(String, String)], name: &str| env.iter().find(|(n, _)| n == name).unwrap().1.clone();
    assert_eq!(value(&env, "WORK"), value(&merge_env, "WORK"), "the merge reads where the shards write");

    let dir = tempfile::tempdir().unwrap();
    let scenario = write_scenario(dir.path(), ATTACK_RUNS);
    let reference = single(dir.path(), &scenario);
    for n in [2, 3, 7] {
        let work = dir.path().join(format!("k8s-{n}"));
        for index in 0..n {
            let mut c = shell(&command[0], dir.path());
            c.args(&command[1..]);
            for (name, v) in &env {
                c.env(name, v);
            }
            c.env("VOLLEY_SHARDS", n.to_string()).env("SCENARIO", &scenario).env("WORK", &work);
            c.env("JOB_COMPLETION_INDEX", index.to_string());
            let out = run_ok(&mut c);
            let err = String::from_utf8_lossy(&out.stderr);
            let expected = format!("shard {} of {n} (from JOB_COMPLETION_INDEX={index}, VOLLEY_SHARDS={n})", index + 1);
            assert!(err.contains(&expected), "{err}");
        }
        let report = format!("k8s-report-{n}");
        let mut c = shell(&merge_command[0], dir.path());
        c.args(&merge_command[1..]).env("WORK", &work).env("OUT", &report);
        run_ok(&mut c);
        assert_same_report(&reference, &dir.path().join(&report));
    }
}

/// The plain shell loop, two shards at a time.
#[test]
fn the_shell_loop_shards_and_merges_exactly() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cluster/run-shards.sh");
    let dir = tempfile::tempdir().unwrap();
    let scenario = write_scenario(dir.path(), ATTACK_RUNS);
    let reference = single(dir.path(), &scenario);
    let bin = assert_cmd::cargo::cargo_bin("volley");
    let mut c = shell("sh", dir.path());
    c.arg(&script)
        .env("VOLLEY", &bin)
        .env("SCENARIO", &scenario)
        .env("SHARDS", "3")
        .env("JOBS", "2")
        .env("VOLLEY_THREADS", "1")
        .env("WORK", "loop-shards")
        .env("OUT", "loop-report");
    run_ok(&mut c);
    assert_eq!(shard_dirs(&dir.path().join("loop-shards")).len(), 3);
    assert_same_report(&reference, &dir.path().join("loop-report"));
}

/// Shards of a 3-way split of `ATTACK_RUNS` (seed `seed`) under `work`.
fn three_shards(dir: &Path, scenario: &str, work: &str, seed: &str) -> Vec<PathBuf> {
    (1..=3)
        .map(|k| {
            let d = dir.join(work).join(format!("s{k}"));
            run_ok(clean(volley()).current_dir(dir).args([
                "sweep",
                scenario,
                "--quiet",
                "--seed",
                seed,
                "--shard",
                &format!("{k}/3"),
                "--out",
                d.to_str().unwrap(),
            ]));
            d
        })
        .collect()
}

pub(super) fn refused(dir: &Path, shards: &[PathBuf]) -> String {
    let out = merge(dir, shards, "refused");
    assert!(!out.status.success(), "merged {shards:?}");
    assert!(!dir.join("refused").exists(), "no report");
    String::from_utf8_lossy(&out.stderr).to_string()
}

#[test]
fn missing_duplicate_foreign_and_damaged_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scenario = write_scenario(d, ATTACK_RUNS);
    let ours = three_shards(d, &scenario, "ours", "11");
    let theirs = three_shards(d, &scenario, "theirs", "12");
    let name = |p: &PathBuf| p.display().to_string();

    let err = refused(d, &[ours[0].clone(), ours[2].clone()]);
    assert!(err.contains("missing shard 2 of 3"), "{err}");
    let err = refused(d, &[ours[0].clone(), ours[1].clone(), ours[2].clone(), ours[1].clone()]);
    assert!(err.contains(&format!("shard 2 of 3 is given 2 times: {}, {}", name(&ours[1]), name(&ours[1]))), "{err}");
    let err = refused(d, &[ours[0].clone(), theirs[1].clone(), ours[1].clone(), ours[2].clone()]);
    assert!(
        err.contains(&format!("{} is a shard of another run: seed 12 (the others: 11)", name(&theirs[1]))),
        "{err}"
    );
    // A shard from another run in place of ours is foreign, and ours is then missing.
    let err = refused(d, &[ours[0].clone(), theirs[1].clone(), ours[2].clone()]);
    assert!(err.contains("is a shard of another run") && err.contains("missing shard 2 of 3"), "{err}");
    let err = refused(d, &[d.join("nowhere")]);
    assert!(err.contains("is not a shard directory"), "{err}");
    // A damaged tally file no longer matches its recorded hash.
    let t = ours[1].join("tallies.parquet");
    let mut bytes = fs::read(&t).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    fs::write(&t, bytes).unwrap();
    let err = refused(d, &ours);
    assert!(err.contains("tallies.parquet does not match its shard.json"), "{err}");
}

#[test]
fn a_rerun_shard_is_identical_and_precision_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scenario = write_scenario(d, ATTACK_RUNS);
    let a = three_shards(d, &scenario, "a", "11");
    let b = three_shards(d, &scenario, "b", "11");
    for f in ["tallies.parquet", "scenario.toml", "catalogue.json"] {
        assert_eq!(fs::read(a[1].join(f)).unwrap(), fs::read(b[1].join(f)).unwrap(), "{f}");
    }
    let out = clean(volley())
        .current_dir(d)
        .args(["sweep", &scenario, "--precision", "0.01", "--shard", "1/2", "--out", "p"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--precision cannot be sharded"), "{err}");
    assert!(!d.join("p").exists());
    // An index without a count is a usage error naming what is missing.
    let out = clean(volley())
        .current_dir(d)
        .args(["sweep", &scenario, "--out", "q"])
        .env("JOB_COMPLETION_INDEX", "0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--shards N or VOLLEY_SHARDS"));
}

/// A shard stopped part way leaves no directory (neither under its name nor a partial one).
#[cfg(unix)]
#[test]
fn an_interrupted_shard_leaves_no_directory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("volley"))
        .current_dir(d)
        .args(["sweep", "standard", "--trials", "10000000", "--shard", "1/2", "--out", "big", "--quiet"])
        .env_remove("VOLLEY_LOADOUTS")
        .env_remove("VOLLEY_RULESET")
        .spawn()
        .unwrap();
    let partial =
        || fs::read_dir(d).unwrap().any(|e| e.unwrap().file_name().to_string_lossy().starts_with(".big.partial"));
    let start = std::time::Instant::now();
    while !partial() {
        assert!(start.elapsed().as_secs() < 60, "the shard never started writing");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), nix::sys::signal::Signal::SIGTERM).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(143));
    let left: Vec<_> = fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn the_cluster_directory_keeps_the_scenario_list_and_parses() {
    let list = stdout_of(&["scenario", "list"]);
    assert!(list.lines().all(|l| l.split('\t').count() == 3), "{list}");
    assert!(list.contains("standard\ttechcommander\t"));
    let cluster = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cluster/cluster.toml");
    let text = volley::sweep::ScenarioText::load(cluster.to_str().unwrap()).unwrap();
    let s = text.parse::<volley::rules::techcommander::TechCommander>().unwrap();
    assert_eq!(s.trials, volley::engine::Trials::Fixed(10_000_000));
    assert_eq!(s.grid.len(), 8 * 4 * 3 * 3);
}
