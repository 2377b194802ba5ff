//! Failures the fault campaign (`scripts/fault-campaign.sh`) found, each pinned by a test
//! that failed before its fix: endless or blocking files in shard and report
//! directories.

use super::*;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// The variables that pick a shard or inject faults; every command here starts without them.
fn clean() -> Command {
    let mut c = volley();
    for v in ["SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX", "VOLLEY_SHARDS"] {
        c.env_remove(v);
    }
    for v in ["VOLLEY_FAIL_AT", "VOLLEY_CRASH_AT"] {
        c.env_remove(v);
    }
    c
}

fn ok(c: &mut Command) {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Run `volley ARGS` in `dir` for at most `secs` seconds; `None` when it was still running
/// then (it is killed).
fn run_for(dir: &Path, args: &[&str], secs: u64) -> Option<Output> {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("volley"))
        .current_dir(dir)
        .args(args)
        .env_remove("VOLLEY_LOADOUTS")
        .env_remove("VOLLEY_RULESET")
        .env_remove("VOLLEY_FAIL_AT")
        .env_remove("VOLLEY_CRASH_AT")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < deadline {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            copy_dir(&p, &to.join(p.file_name().unwrap()));
        } else {
            fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

/// Replace `path` by a FIFO (nothing ever writes to it: opening it for reading blocks).
fn fifo(path: &Path) {
    let _ = fs::remove_file(path);
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo");
}

#[cfg(unix)]
#[test]
fn merge_and_chart_refuse_blocking_and_oversized_files_before_reading_them() {
    // Was: merge read shard.json, scenario.toml, catalogue.json and tallies.parquet whole,
    // whatever they were: a link to /dev/zero took memory until the allocation failed
    // (8 GiB under the campaign's limit), and a FIFO stalled it for good (SIGTERM only
    // recorded, the open never returned). `chart` read manifest.json and its tables alike.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let set: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let s = d.join(format!("s{k}"));
            ok(clean()
                .current_dir(d)
                .args(["sweep", "quick", "--trials", "300", "--no-charts", "--format", "csv"])
                .args(["--quiet", "--out", s.to_str().unwrap(), "--shard", &format!("{k}/2")]));
            s
        })
        .collect();
    for file in ["shard.json", "scenario.toml", "catalogue.json", "tallies.parquet"] {
        let forged = d.join(format!("forged-{file}"));
        copy_dir(&set[1], &forged);
        fifo(&forged.join(file));
        let args = ["merge", set[0].to_str().unwrap(), forged.to_str().unwrap(), "-q", "--out", "m"];
        let out = run_for(d, &args, 60).unwrap_or_else(|| panic!("{file} as a FIFO: merge still blocked after 60 s"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains("is not a regular file") && err.contains(file), "{file}: {err}");
        assert!(!d.join("m").exists());
    }
    // A regular shard.json larger than the input limit is refused by its size, unread.
    let big = d.join("big");
    copy_dir(&set[1], &big);
    fs::File::options().write(true).open(big.join("shard.json")).unwrap().set_len(17 << 20).unwrap();
    let out = run_for(d, &["merge", set[0].to_str().unwrap(), big.to_str().unwrap(), "-q", "--out", "m"], 60).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("larger than") && err.contains("--max-input-bytes"), "{err}");

    // chart: the manifest or a table as a FIFO.
    ok(clean().current_dir(d).args(["sweep", "quick", "--trials", "300", "--no-charts", "--quiet", "--out", "r"]));
    for file in ["manifest.json", "time_to_kill.parquet"] {
        let r = d.join(format!("r-{file}"));
        copy_dir(&d.join("r"), &r);
        fifo(&r.join(file));
        let out = run_for(d, &["chart", r.to_str().unwrap(), "-q"], 60)
            .unwrap_or_else(|| panic!("{file} as a FIFO: chart still blocked after 60 s"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {err}");
        assert!(err.contains("is not a regular file") && err.contains(file), "{file}: {err}");
    }
}

#[test]
fn a_very_long_build_name_still_gives_charts_with_file_names_a_file_system_takes() {
    // Was: the detail heatmap of a build named with 300 characters is named
    // `hit-<300 characters>-...svg`, longer than the 255 bytes of a file name: the sweep
    // played every cell, then failed "File name too long" writing its charts.
    let long = format!("Pigeonhawk {}", "Extended ".repeat(33));
    let long = long.trim_end();
    let cat = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("loadouts/techcommander");
    for e in fs::read_dir(&from).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.ends_with(".toml") || name.ends_with(".csv") {
            let text = fs::read_to_string(&p).unwrap().replace("\"Pigeonhawk Standard\"", &format!("\"{long}\""));
            fs::write(cat.path().join(name), text).unwrap();
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let scenario = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/quick.toml"))
        .unwrap()
        .replace("\"Pigeonhawk Standard\"", &format!("\"{long}\""));
    fs::write(dir.path().join("long.toml"), scenario).unwrap();
    let out = clean()
        .current_dir(dir.path())
        .args(["--loadouts", cat.path().to_str().unwrap(), "sweep", "long.toml", "--trials", "200", "-q"])
        .args(["--format", "csv", "--out", "r"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let charts: Vec<String> = fs::read_dir(dir.path().join("r/charts"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(charts.iter().all(|n| n.len() <= 200), "{charts:?}");
    let ours: Vec<&String> = charts.iter().filter(|n| n.contains("pigeonhawk-extended")).collect();
    assert!(!ours.is_empty(), "the long build has its heatmaps: {charts:?}");
    let page = fs::read_to_string(dir.path().join("r/index.md")).unwrap();
    assert!(ours.iter().all(|n| page.contains(n.as_str()) || !n.ends_with(".svg")), "the page links them");
}

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

/// `volley chart r` in `d` with a fault hook set to `n`: (exit code, stderr).
fn chart_with(d: &Path, hook: &str, n: u32) -> (Option<i32>, String) {
    let out = clean().current_dir(d).args(["chart", "r", "-q"]).env(hook, n.to_string()).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn chart_moves_its_charts_and_page_in_as_one_change() {
    // Was: `chart` swapped its charts directory in, then renamed COLUMNS.md, index.html
    // and index.md one by one: a failure (disk full) or a kill between them left new charts
    // under the old page, and exit 1 saying only "cannot move index.html".
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("tiny.toml"), TINY).unwrap();
    ok(clean().current_dir(d).args(["sweep", "tiny.toml", "--quiet", "--format", "csv", "--out", "r"]));
    let r = d.join("r");
    // Marked, so that the old drawing tells itself apart from a new one.
    let mark = |r: &Path| {
        for f in ["index.md", "index.html", "COLUMNS.md", "charts/ttk.svg"] {
            let mut text = fs::read_to_string(r.join(f)).unwrap();
            text.push_str("<!-- old -->\n");
            fs::write(r.join(f), text).unwrap();
        }
    };
    let olds = |r: &Path| -> Vec<bool> {
        ["index.md", "index.html", "COLUMNS.md", "charts/ttk.svg"]
            .iter()
            .map(|f| fs::read_to_string(r.join(f)).is_ok_and(|t| t.ends_with("<!-- old -->\n")))
            .collect()
    };
    let temporaries = |r: &Path| -> Vec<String> {
        fs::read_dir(r)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.contains(".partial-") || n.contains(".old-"))
            .collect()
    };
    // The last step whose failure is an error (every step from there on crashes: exit 0
    // only past it), found by bisection.
    let (mut lo, mut hi) = (1u32, 256u32);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        mark(&r);
        let (code, err) = chart_with(d, "VOLLEY_CRASH_AT", mid);
        let _ = clean().current_dir(d).args(["chart", "r", "-q"]).output(); // recovers
        if code == Some(0) {
            hi = mid
        } else {
            assert_eq!(code, Some(1), "{err}");
            lo = mid
        }
    }
    let last = lo;
    // The moves come after every chart and page is drawn: the last dozen steps.
    for n in last.saturating_sub(11).max(1)..=last {
        for hook in ["VOLLEY_FAIL_AT", "VOLLEY_CRASH_AT"] {
            mark(&r);
            let (code, err) = chart_with(d, hook, n);
            assert_eq!(code, Some(1), "{hook}={n}: {err}");
            if hook == "VOLLEY_FAIL_AT" {
                assert_eq!(olds(&r), [true; 4], "{hook}={n}: the report is not as it was: {err}");
                assert!(err.contains("nothing was changed"), "{hook}={n}: {err}");
                assert_eq!(temporaries(&r), Vec::<String>::new(), "{hook}={n}");
            }
            // Killed: the old drawing or the new one in place, or the old copies kept in
            // the stage for the next run to put back.
            let state = olds(&r);
            let kept = fs::read_dir(&r).unwrap().flatten().any(|e| {
                e.file_name().to_string_lossy().starts_with(".chart.partial-")
                    && fs::read_dir(e.path().join("old")).is_ok_and(|mut o| o.next().is_some())
            });
            assert!(state == [true; 4] || state == [false; 4] || kept, "{hook}={n}: mixed and nothing kept: {state:?}");
            // The next run puts back what a killed one left, then draws anew.
            ok(clean().current_dir(d).args(["chart", "r", "-q"]));
            assert_eq!(olds(&r), [false; 4], "{hook}={n}: after the next run (left: {state:?})");
            assert_eq!(temporaries(&r), Vec::<String>::new(), "{hook}={n}");
        }
    }
}

/// A Parquet table whose write fails part way (a full disk; here a file-size limit, which
/// fails a write the same way) is reported with its cause. Was: the Parquet writer's
/// "Invalid thrift: transport error" on most of these limits.
#[test]
#[cfg(unix)]
fn a_parquet_write_that_fails_part_way_names_its_cause() {
    let dir = tempfile::tempdir().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("volley");
    let mut failed = 0;
    for blocks in (10..=40).step_by(2) {
        let script = format!(
            "trap '' XFSZ; ulimit -f {blocks}; exec \"$0\" --ruleset shellshock sweep shellshock-quick --trials 4000 \
             --seed 2 --out r{blocks} -q --no-charts --format parquet"
        );
        let out = std::process::Command::new("sh")
            .current_dir(dir.path())
            .env_remove("VOLLEY_LOADOUTS")
            .env_remove("VOLLEY_RULESET")
            .args(["-c", &script])
            .arg(&bin)
            .output()
            .unwrap();
        if out.status.success() {
            continue;
        }
        failed += 1;
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "limit {blocks}: {err}");
        assert!(
            err.contains("File too large") && !err.contains("thrift"),
            "limit {blocks}: the cause is hidden: {err}"
        );
        assert!(!dir.path().join(format!("r{blocks}")).exists(), "limit {blocks}: a half-written report");
    }
    assert!(failed >= 8, "the control: most limits must stop the sweep's tables ({failed} did)");
}
