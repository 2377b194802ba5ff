//! Sharded `[vary]` sweeps, gauntlets and battles: shards played as separate processes
//! (through `--shard`, and through the environment Slurm job arrays and Kubernetes
//! Indexed Jobs give) and merged by `volley merge` equal the single-process run exactly.

use super::shard::{assert_same_report, clean, merge, refused, run_ok, write_scenario};
use super::*;
use std::path::{Path, PathBuf};

/// `ATTACK_RUNS` of the shard tests, smaller, with a `[vary]` of two stats: 2 × 2 sides
/// × 2 points × 3 × 2 combinations = 48 cells of one full and one short stream each.
const VARIED: &str = r#"
name = "sharded-vary"
engagement = "attack-run"
seed = 5
trials = 4500
max_turns = 8
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
targets = ["Stingray", "ac:5"]

[grid]
range = [12, 30]

[vary]
"Devastator".damage = [4, 8, 12]
"Stingray".ac = [3, 5]
"#;

/// How a shard learns its place: the flag, or the variables a Slurm job array or a
/// Kubernetes Indexed Job sets.
#[derive(Debug, Clone, Copy)]
enum How {
    Flag,
    Slurm,
    Kubernetes,
}

/// Play shards 1..=n of `command` (e.g. `["sweep", FILE]`) as separate processes into
/// `work/s<k>`, in reverse order; checks each names where its place came from.
fn play_shards(dir: &Path, command: &[&str], n: u32, how: How, work: &str) -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for k in (1..=n).rev() {
        let d = dir.join(work).join(format!("s{k}"));
        let mut c = clean(volley());
        c.current_dir(dir).args(command).args(["--quiet", "--out", d.to_str().unwrap()]);
        let source = match how {
            How::Flag => {
                c.args(["--shard", &format!("{k}/{n}")]);
                format!("--shard {k}/{n}")
            }
            How::Slurm => {
                c.env("SLURM_ARRAY_TASK_ID", k.to_string())
                    .env("SLURM_ARRAY_TASK_MIN", "1")
                    .env("SLURM_ARRAY_TASK_COUNT", n.to_string());
                format!("SLURM_ARRAY_TASK_ID={k}")
            }
            How::Kubernetes => {
                c.env("JOB_COMPLETION_INDEX", (k - 1).to_string()).env("VOLLEY_SHARDS", n.to_string());
                format!("JOB_COMPLETION_INDEX={}", k - 1)
            }
        };
        let out = run_ok(&mut c);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("shard {k} of {n} (from {source}")), "{how:?}: {err}");
        dirs.push(d);
    }
    dirs
}

fn merged_ok(dir: &Path, shards: &[PathBuf], out: &str) -> PathBuf {
    let o = merge(dir, shards, out);
    assert!(o.status.success(), "{out}: {}", String::from_utf8_lossy(&o.stderr));
    dir.join(out)
}

fn shard_json(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(dir.join("shard.json")).unwrap()).unwrap()
}

#[test]
fn varied_sweeps_shard_and_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scenario = write_scenario(d, VARIED);
    run_ok(clean(volley()).current_dir(d).args(["sweep", &scenario, "--out", "single", "--quiet", "--no-charts"]));
    let single = d.join("single");
    for n in [1, 2, 3, 7] {
        for how in [How::Flag, How::Slurm, How::Kubernetes] {
            let work = format!("{how:?}-{n}");
            let shards = play_shards(d, &["sweep", &scenario], n, how, &work);
            let merged = merged_ok(d, &shards, &format!("merged-{work}"));
            assert_same_report(&single, &merged);
            // The streams of all combinations are dealt as one run: within one stream.
            let streams: Vec<u64> = shards.iter().map(|s| shard_json(s)["streams"].as_u64().unwrap()).collect();
            assert_eq!(streams.iter().sum::<u64>(), 48 * 2, "{work}: {streams:?}");
            let (max, min) = (streams.iter().max().unwrap(), streams.iter().min().unwrap());
            assert!(max - min <= 1, "{work}: streams per shard {streams:?}");
            assert_eq!(shard_json(&shards[0])["vary"][1]["values"], serde_json::json!([3.0, 5.0]), "{work}");
        }
    }
}

#[test]
fn shards_of_another_vary_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let scenario = write_scenario(d, VARIED);
    let mine = play_shards(d, &["sweep", &scenario], 3, How::Flag, "mine");
    let other_file = d.join("other.toml");
    fs::write(&other_file, VARIED.replace("[3, 5]", "[3, 6]")).unwrap();
    let other = play_shards(d, &["sweep", other_file.to_str().unwrap()], 3, How::Flag, "other");
    let plain_file = d.join("plain.toml");
    fs::write(&plain_file, VARIED.split("[vary]").next().unwrap()).unwrap();
    let plain = play_shards(d, &["sweep", plain_file.to_str().unwrap()], 3, How::Flag, "plain");
    // Shard 3 of 3 (played first, so dirs[0]) swapped for another run's.
    for foreign in [&other[0], &plain[0]] {
        let err = refused(d, &[mine[2].clone(), mine[1].clone(), foreign.clone()]);
        assert!(err.contains(&format!("{} is a shard of another run", foreign.display())), "{err}");
        assert!(err.contains("[vary]"), "names the [vary] that differs: {err}");
        assert!(err.contains("missing shard 3 of 3"), "{err}");
    }
    // A shard whose scenario.toml was edited to other values (and its hashes forged to
    // match) is refused too: the plan rebuilt from the text is not the one recorded.
    let forged = d.join("forged");
    fs::create_dir_all(&forged).unwrap();
    for f in fs::read_dir(&mine[0]).unwrap() {
        let f = f.unwrap().path();
        fs::copy(&f, forged.join(f.file_name().unwrap())).unwrap();
    }
    let edited = fs::read_to_string(forged.join("scenario.toml")).unwrap().replace("[3, 5]", "[3, 6]");
    fs::write(forged.join("scenario.toml"), &edited).unwrap();
    let mut meta = shard_json(&forged);
    let hash = |b: &[u8]| volley::sweep::shard::sha256(b);
    for (i, s) in [&mine[1], &mine[2]].iter().enumerate() {
        // The other two shards get the edited text too, so the set agrees on it.
        let copy = d.join(format!("forged-{i}"));
        fs::create_dir_all(&copy).unwrap();
        for f in fs::read_dir(s).unwrap() {
            let f = f.unwrap().path();
            fs::copy(&f, copy.join(f.file_name().unwrap())).unwrap();
        }
        fs::write(copy.join("scenario.toml"), &edited).unwrap();
        let mut m = shard_json(&copy);
        m["scenario_sha256"] = hash(edited.as_bytes()).into();
        fs::write(copy.join("shard.json"), serde_json::to_string_pretty(&reseal(m)).unwrap()).unwrap();
    }
    meta["scenario_sha256"] = hash(edited.as_bytes()).into();
    fs::write(forged.join("shard.json"), serde_json::to_string_pretty(&reseal(meta)).unwrap()).unwrap();
    let err = refused(d, &[forged, d.join("forged-0"), d.join("forged-1")]);
    assert!(err.contains("varies other stats than they recorded"), "{err}");
}

/// A `shard.json` with its seal recomputed, as a forger would.
fn reseal(v: serde_json::Value) -> serde_json::Value {
    let meta: volley::sweep::shard::ShardMeta = serde_json::from_value(v).unwrap();
    serde_json::to_value(meta.sealed()).unwrap()
}

/// The unsharded command's report and stdout.
fn whole(dir: &Path, command: &[&str], out: &str) -> (PathBuf, String) {
    let o = run_ok(clean(volley()).current_dir(dir).args(command).args(["--quiet", "--out", out]));
    (dir.join(out), String::from_utf8_lossy(&o.stdout).to_string())
}

/// Merge `shards` into `out`; returns the report and what merge printed.
fn merged_printing(dir: &Path, shards: &[PathBuf], out: &str) -> (PathBuf, String) {
    let mut c = clean(volley());
    c.current_dir(dir).arg("merge").args(shards).args(["--out", out, "--quiet"]);
    let o = run_ok(&mut c);
    (dir.join(out), String::from_utf8_lossy(&o.stdout).to_string())
}

const GAUNTLET: [&str; 9] =
    ["gauntlet", "Dwarf ALPHA", "Paladin Siege", "--field", "meta", "--range", "20", "--trials", "5000"];

/// A duel scenario lending a gauntlet its grid, seed, trials and turn cap.
const GRID: &str = r#"
name = "grid"
engagement = "duel"
seed = 9
trials = 4200
max_turns = 12
attackers = ["Dwarf ALPHA"]
opponents = ["Beagle Hunter"]
[grid]
range = [12, 24]
"#;

/// Duel and battle gauntlets (and one over a scenario's grid, whose file is gone by the
/// merge: the shards carry it) merge to the unsharded report and summary.
#[test]
fn gauntlets_shard_and_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let grid = d.join("grid.toml");
    fs::write(&grid, GRID).unwrap();
    let grid_arg = grid.to_str().unwrap().to_string();
    let battle: Vec<&str> = vec![
        "gauntlet",
        "--battle",
        "Gladiator Lancer+Beagle Hunter",
        "--field",
        "Paladin Siege+Stingray Standard,Dwarf ALPHA+Hunter IV Standard",
        "--trials",
        "700",
        "--seed",
        "3",
    ];
    let with_scenario: Vec<&str> =
        vec!["gauntlet", "Dwarf ALPHA", "--field", "Gladiator Lancer,Beagle Hunter", "--scenario", &grid_arg];
    for (name, command, counts) in
        [("duels", GAUNTLET.to_vec(), &[1, 2, 3, 7][..]), ("battles", battle, &[3, 7]), ("grid", with_scenario, &[2])]
    {
        let (single, printed) = whole(d, &command, &format!("{name}-single"));
        for &n in counts {
            let hows: &[How] = if name == "grid" { &[How::Flag] } else { &[How::Flag, How::Slurm, How::Kubernetes] };
            for &how in hows {
                let work = format!("{name}-{how:?}-{n}");
                let shards = play_shards(d, &command, n, how, &work);
                if name == "grid" {
                    fs::write(&grid, "not a scenario").unwrap();
                }
                let (merged, merge_printed) = merged_printing(d, &shards, &format!("{work}-merged"));
                if name == "grid" {
                    fs::write(&grid, GRID).unwrap();
                }
                assert_same_report(&single, &merged);
                assert_eq!(merge_printed, printed, "{work}: the merge prints the gauntlet's summary");
            }
        }
    }
}

const A: &str = "Gladiator Lancer+Beagle Hunter+Hunter IV Standard";
const B: &str = "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT";

/// A battle has no report directory: its merge prints what the unsharded command prints
/// and writes sides.csv, units.csv and battle.json as `--format csv`, `--units --format
/// csv` and `--format json` print them.
#[test]
fn battles_shard_and_merge_to_the_single_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = ["battle", A, B, "--trials", "9000", "--seed", "4"];
    let print = |extra: &[&str]| {
        let o = run_ok(clean(volley()).current_dir(d).args(base).arg("-q").args(extra));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let (csv, units, json, table) =
        (print(&["--format", "csv"]), print(&["--format", "csv", "--units"]), print(&["--format", "json"]), print(&[]));
    for n in [1, 2, 3, 7] {
        for how in [How::Flag, How::Slurm, How::Kubernetes] {
            let work = format!("battle-{how:?}-{n}");
            let shards = play_shards(d, &base, n, how, &work);
            let (merged, printed) = merged_printing(d, &shards, &format!("{work}-merged"));
            assert_eq!(printed, table, "{work}: the merge prints the battle");
            assert_eq!(fs::read_to_string(merged.join("sides.csv")).unwrap(), csv, "{work}");
            assert_eq!(fs::read_to_string(merged.join("units.csv")).unwrap(), units, "{work}");
            assert_eq!(fs::read_to_string(merged.join("battle.json")).unwrap(), json, "{work}");
        }
    }
    // The merge prints in the shards' format.
    let shards = play_shards(d, &[&base[..], &["--format", "json"]].concat(), 2, How::Flag, "json");
    assert_eq!(merged_printing(d, &shards, "json-merged").1, json);
    // Shards of another battle or seed are foreign; --out without a shard is refused.
    let other = play_shards(d, &["battle", A, B, "--trials", "9000", "--seed", "5"], 2, How::Flag, "seed5");
    let err = refused(d, &[shards[0].clone(), other[0].clone()]);
    assert!(err.contains("is a shard of another run") && err.contains("seed 5"), "{err}");
    let o = clean(volley()).current_dir(d).args(base).args(["--out", "x"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn gauntlet_shards_of_another_field_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mine = play_shards(d, &GAUNTLET, 2, How::Flag, "mine");
    let other_field: Vec<&str> =
        GAUNTLET.iter().map(|&a| if a == "meta" { "Gladiator Lancer,Beagle Hunter" } else { a }).collect();
    let other = play_shards(d, &other_field, 2, How::Flag, "other");
    let err = refused(d, &[mine[1].clone(), other[0].clone()]);
    assert!(err.contains("is a shard of another run") && err.contains("command"), "{err}");
    let scenario = write_scenario(d, VARIED);
    let sweep = play_shards(d, &["sweep", &scenario], 2, How::Flag, "sweep");
    let err = refused(d, &[mine[1].clone(), sweep[0].clone()]);
    assert!(err.contains("is a shard of another run"), "{err}");
}
