//! Property-based fuzzing of what volley reads back from disk besides catalogues and
//! scenarios: shard directories (`merge`), report directories (`chart`), and the scenario
//! names that become directory names.
//!
//! Mutations: a bit flipped or a file cut short anywhere in the directory, a file removed,
//! a field of `shard.json` or `manifest.json` replaced by a hostile value (out of range,
//! another type, a path, a huge count).
//!
//! Properties: volley never panics or aborts (exit 0, 1 or 2 only); a refusal says
//! `error:` and leaves nothing behind; a merge that succeeds gives exactly the single
//! run's tables (nothing forged); a failed `chart` changes nothing; a scenario name never
//! writes outside `reports/` nor more than one directory.
//!
//! Cases per property are few in `cargo test` (each spawns the binary) and drawn from a
//! fixed seed, so CI is repeatable; `PROPTEST_CASES=N` runs more, with fresh seeds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{TestCaseError, TestRng, TestRunner};

use super::*;

/// A small attack-run scenario: 4 cells, a few thousand trials each.
const SCENARIO: &str = r#"
name = "fuzzed"
engagement = "attack-run"
seed = 3
trials = 3000
max_turns = 6
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
targets = ["Stingray"]

[grid]
range = [12, 30]
"#;

fn runner(cases: u32) -> TestRunner {
    let mut config = ProptestConfig::default();
    match std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()) {
        Some(n) => {
            config.cases = n;
            TestRunner::new(config)
        }
        None => {
            config.cases = cases;
            config.failure_persistence = None;
            let rng = TestRng::deterministic_rng(config.rng_algorithm);
            TestRunner::new_with_rng(config, rng)
        }
    }
}

/// How one directory is damaged.
#[derive(Debug, Clone)]
enum Damage {
    /// Flip bit `bit` of a byte of a file.
    Flip { file: Index, byte: Index, bit: u8 },
    /// Cut a file short.
    Truncate { file: Index, at: Index },
    /// Remove a file.
    Remove { file: Index },
    /// Replace a top-level field of the directory's JSON description by `value`.
    Field { field: Index, value: String },
}

fn hostile_json() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("null".to_string()),
        Just("-1".to_string()),
        Just("0".to_string()),
        Just("4294967295".to_string()),
        Just("1e308".to_string()),
        Just("\"\"".to_string()),
        Just("\"../../victim\"".to_string()),
        Just("\"/tmp/volley-fuzz-victim\"".to_string()),
        Just("[]".to_string()),
        Just("{}".to_string()),
        Just("true".to_string()),
        Just("[\"--help\"]".to_string()),
        Just("\"0.0.9\"".to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        "[a-z0-9/. -]{0,40}".prop_map(|s| serde_json::to_string(&s).unwrap()),
    ]
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        3 => (any::<Index>(), any::<Index>(), 0u8..8).prop_map(|(file, byte, bit)| Damage::Flip { file, byte, bit }),
        1 => (any::<Index>(), any::<Index>()).prop_map(|(file, at)| Damage::Truncate { file, at }),
        1 => any::<Index>().prop_map(|file| Damage::Remove { file }),
        3 => (any::<Index>(), hostile_json()).prop_map(|(field, value)| Damage::Field { field, value }),
    ]
}

/// Every file under `dir`, in path order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() { stack.push(p) } else { out.push(p) }
        }
    }
    out.sort();
    out
}

/// Every file under `dir` with its bytes, by path relative to `dir`.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files(dir).into_iter().map(|p| (p.strip_prefix(dir).unwrap().to_path_buf(), fs::read(&p).unwrap())).collect()
}

fn copy_dir(from: &Path, to: &Path) {
    for (rel, bytes) in snapshot(from) {
        let p = to.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, bytes).unwrap();
    }
}

/// Damage `dir` as `d` says; `json` is the directory's JSON description. Returns what was
/// done, for the failure message.
fn apply(dir: &Path, json: &str, d: &Damage) -> String {
    let all = files(dir);
    match d {
        Damage::Flip { file, byte, bit } => {
            let p = file.get(&all);
            let mut bytes = fs::read(p).unwrap();
            if bytes.is_empty() {
                return format!("{} is empty: nothing flipped", p.display());
            }
            let i = byte.index(bytes.len());
            bytes[i] ^= 1 << bit;
            fs::write(p, bytes).unwrap();
            format!("bit {bit} of byte {i} of {} flipped", p.display())
        }
        Damage::Truncate { file, at } => {
            let p = file.get(&all);
            let bytes = fs::read(p).unwrap();
            let n = at.index(bytes.len().max(1));
            fs::write(p, &bytes[..n.min(bytes.len())]).unwrap();
            format!("{} cut to {n} bytes", p.display())
        }
        Damage::Remove { file } => {
            let p = file.get(&all);
            fs::remove_file(p).unwrap();
            format!("{} removed", p.display())
        }
        Damage::Field { field, value } => {
            let p = dir.join(json);
            let mut doc: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
            let keys: Vec<String> = doc.keys().cloned().collect();
            let key = field.get(&keys).clone();
            doc.insert(key.clone(), serde_json::from_str(value).unwrap());
            fs::write(&p, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
            format!("{json} field `{key}` set to {value}")
        }
    }
}

/// Exit 0, 1 or 2, never a panic (101), an abort or a signal; a failure says `error:`.
fn check_exit(out: &std::process::Output, what: &str) -> Result<bool, TestCaseError> {
    let err = String::from_utf8_lossy(&out.stderr);
    prop_assert!(matches!(out.status.code(), Some(0..=2)), "{what}: exit {:?}: {err}", out.status);
    prop_assert!(!err.contains("panicked"), "{what}: {err}");
    let ok = out.status.success();
    if !ok {
        prop_assert!(err.contains("error:"), "{what}: a refusal without `error:`: {err}");
    }
    Ok(ok)
}

/// Nothing but `expected` in `dir` (no leftover partial directory, nothing written
/// beside the output).
fn only(dir: &Path, expected: &[&str], what: &str) -> Result<(), TestCaseError> {
    let mut names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    prop_assert_eq!(names, want, "{}", what);
    Ok(())
}

#[test]
fn damaged_shards_merge_to_the_single_run_or_are_refused_leaving_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let scenario = super::shard::write_scenario(d, SCENARIO);
    super::shard::run_ok(super::shard::clean(volley()).current_dir(d).args([
        "sweep",
        &scenario,
        "--out",
        "single",
        "--quiet",
        "--no-charts",
    ]));
    for k in 1..=2 {
        super::shard::run_ok(super::shard::clean(volley()).current_dir(d).args([
            "sweep",
            &scenario,
            "--quiet",
            "--shard",
            &format!("{k}/2"),
            "--out",
            &format!("shard-{k}"),
        ]));
    }
    let single = snapshot(&d.join("single"));
    let case = std::cell::Cell::new(0u32);
    let result = runner(12).run(&(0usize..2, damage()), |(which, dmg)| {
        case.set(case.get() + 1);
        let work = d.join(format!("case-{}", case.get()));
        fs::create_dir(&work).unwrap();
        for k in 1..=2 {
            copy_dir(&d.join(format!("shard-{k}")), &work.join(format!("s{k}")));
        }
        let what = apply(&work.join(format!("s{}", which + 1)), "shard.json", &dmg);
        let out = super::shard::clean(volley())
            .current_dir(&work)
            .args(["merge", "s1", "s2", "--out", "merged", "--quiet", "--no-charts"])
            .output()
            .unwrap();
        if check_exit(&out, &what)? {
            // Whatever was accepted changed no number: the tables are the single run's.
            let merged = snapshot(&work.join("merged"));
            for (rel, bytes) in &single {
                if rel.extension().is_some_and(|e| e == "csv") {
                    prop_assert_eq!(
                        merged.get(rel),
                        Some(bytes),
                        "{}: {} differs from the single run",
                        what,
                        rel.display()
                    );
                }
            }
            only(&work, &["s1", "s2", "merged"], &what)?;
        } else {
            only(&work, &["s1", "s2"], &what)?;
        }
        fs::remove_dir_all(&work).unwrap();
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    prop_assert_nothing_escaped();
}

/// The hostile paths above never get written.
fn prop_assert_nothing_escaped() {
    assert!(!Path::new("/tmp/volley-fuzz-victim").exists(), "a shard field made merge write outside its --out");
}

#[test]
fn a_damaged_report_is_redrawn_or_refused_changing_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // A small gauntlet report (four charts): redrawing is what each case costs.
    super::shard::run_ok(super::shard::clean(volley()).current_dir(d).args([
        "gauntlet",
        "Dwarf ALPHA",
        "--field",
        "Stingray Standard",
        "--trials",
        "1000",
        "--out",
        "report",
        "--quiet",
    ]));
    let case = std::cell::Cell::new(0u32);
    let result = runner(8).run(&damage(), |dmg| {
        case.set(case.get() + 1);
        let work = d.join(format!("case-{}", case.get()));
        copy_dir(&d.join("report"), &work);
        let what = apply(&work, "manifest.json", &dmg);
        let before = snapshot(&work);
        let out = volley().arg("chart").arg(&work).arg("--quiet").output().unwrap();
        if !check_exit(&out, &what)? {
            let err = String::from_utf8_lossy(&out.stderr);
            prop_assert!(err.contains(work.to_str().unwrap()), "{}: the error names no file: {}", what, err);
            prop_assert!(snapshot(&work) == before, "{}: a refused chart changed the report", what);
        }
        fs::remove_dir_all(&work).unwrap();
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A TOML basic string of any text.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn any_scenario_name_writes_one_directory_under_reports_or_is_refused() {
    let names = prop_oneof![
        any::<String>(),
        "[./\\\\a-z \u{0}-\u{1f}\u{7f}]{0,12}",
        Just("..".to_string()),
        Just("../escape".to_string()),
        Just("/tmp/volley-fuzz-victim".to_string()),
        Just(".hidden".to_string()),
        Just("a".repeat(300)),
    ];
    let case = std::cell::Cell::new(0u32);
    let result = runner(16).run(&names, |name| {
        case.set(case.get() + 1);
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path().join("work");
        fs::create_dir(&d).unwrap();
        let text = SCENARIO.replace("name = \"fuzzed\"", &format!("name = {}", toml_string(&name)));
        fs::write(d.join("s.toml"), text).unwrap();
        let out = super::shard::clean(volley())
            .current_dir(&d)
            .args(["sweep", "s.toml", "--quiet", "--no-charts", "--trials", "100"])
            .output()
            .unwrap();
        let what = format!("name {name:?}");
        let escaped: Vec<_> = fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        prop_assert_eq!(escaped.len(), 1, "{}: wrote beside the working directory: {:?}", what, escaped);
        if check_exit(&out, &what)? {
            only(&d, &["reports", "s.toml"], &what)?;
            let reports: Vec<_> = fs::read_dir(d.join("reports")).unwrap().map(|e| e.unwrap().path()).collect();
            prop_assert_eq!(reports.len(), 1, "{}: {:?}", what, reports);
            prop_assert!(reports[0].join("manifest.json").is_file(), "{}: {:?}", what, reports);
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            prop_assert!(
                err.contains("s.toml") && err.contains("name"),
                "{}: the error names no file and field: {}",
                what,
                err
            );
            only(&d, &["s.toml"], &what)?;
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    prop_assert_nothing_escaped();
}
