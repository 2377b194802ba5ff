//! Plumbing: stdout into a closed pipe, signals and partial reports, usage errors exit 2,
//! and help texts of shared options.

use super::*;
use std::path::Path;
use std::process::Stdio;

/// The binary as a plain process (for pipes and signals).
fn bin() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_volley"));
    c.env_remove("VOLLEY_LOADOUTS");
    c
}

/// A pipe whose reading end is already closed: the one into the stdin of a process that
/// exited without reading it.
fn closed_pipe() -> std::process::ChildStdin {
    let mut gone = std::process::Command::new("true").stdin(Stdio::piped()).spawn().unwrap();
    let writer = gone.stdin.take().unwrap();
    gone.wait().unwrap();
    writer
}

/// Run volley with stdout a closed pipe.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    bin().args(args).stdout(Stdio::from(closed_pipe())).stderr(Stdio::piped()).output().unwrap()
}

const ODDS: [&str; 5] = ["odds", "--attacker", "Dwarf ALPHA", "--target-ac", "3"];

#[test]
fn a_closed_stdout_is_a_normal_end() {
    let json = [&ODDS[..], &["--format", "json"]].concat();
    let csv = [&ODDS[..], &["--format", "csv"]].concat();
    let exact = ["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--exact"];
    let duel = ["duel", "Dwarf ALPHA", "Troll Brawler", "--trials", "5000"];
    let cases: [&[&str]; 11] = [
        &["validate"],
        &ODDS,
        &json,
        &csv,
        &exact,
        &duel,
        &["catalog", "weapons"],
        &["--help"],
        &["--version"],
        &["sweep", "--help"],
        &["odds", "--help"],
    ];
    let mut probe = closed_pipe();
    let err = std::io::Write::write_all(&mut probe, b"x").unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::BrokenPipe, "the pipe is closed");
    for args in cases {
        let out = into_closed_pipe(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?} said: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// Whether `code` calls macro `name!` (not a longer name ending in it: `eprintln!` is not `println!`).
fn calls_macro(code: &str, name: &str) -> bool {
    let needle = format!("{name}!");
    code.match_indices(&needle)
        .any(|(i, _)| code[..i].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_')))
}

#[test]
fn stdout_has_one_writer_and_the_library_never_prints_or_exits() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offences = Vec::new();
    for file in rust_files(&src) {
        let rel = file.strip_prefix(&src).unwrap().to_path_buf();
        let binary = rel.starts_with("cli") || rel == Path::new("main.rs");
        for (n, line) in fs::read_to_string(&file).unwrap().lines().enumerate() {
            let code = line.split("//").next().unwrap();
            // stdout only through cli::write_stdout, which survives a closed pipe
            let mut bad: Vec<&str> = ["print", "println", "dbg"].into_iter().filter(|m| calls_macro(code, m)).collect();
            if !binary {
                bad.extend(["eprint", "eprintln"].into_iter().filter(|m| calls_macro(code, m)));
                if code.contains("process::exit") || code.contains("exit(") && code.contains("std::process") {
                    bad.push("process::exit");
                }
            }
            for b in bad {
                offences.push(format!("{}:{}: {b}", rel.display(), n + 1));
            }
        }
    }
    assert!(
        offences.is_empty(),
        "use cli::write_stdout (binary) or return a value (library):\n{}",
        offences.join("\n")
    );
    assert!(calls_macro("  println!(\"x\")", "println") && !calls_macro("eprintln!(\"x\")", "println"));
}

/// Exit code 2 and `needle` on stderr.
fn usage_error(args: &[&str], needle: &str) -> String {
    let out = volley().args(args).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(needle), "{args:?}: no `{needle}` in {err}");
    assert!(out.stdout.is_empty());
    err
}

#[test]
fn invalid_option_values_are_usage_errors_exit_2() {
    let ttk = ["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "3"];
    let with = |base: &[&str], extra: &[&'static str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |args: Vec<String>, needle: &str| {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        usage_error(&refs, needle)
    };
    let err = run(with(&ODDS, &["--range", "-3"]), "distance in inches");
    assert!(err.contains("at least 0") && !err.contains("-- -3"), "no tip about passing negative numbers: {err}");
    run(with(&ODDS, &["--range", "far"]), "number of inches");
    run(with(&ttk, &["--precision", "2"]), "precision must be a half-width between 0 and 0.5");
    run(with(&ttk, &["--precision", "0"]), "precision must be");
    run(with(&ttk, &["--precision", "0.01", "--max-trials", "0"]), "--max-trials");
    run(with(&ttk, &["--exact", "--trials", "5"]), "'--exact' cannot be used with '--trials");
    run(with(&ttk, &["--exact", "--seed", "5"]), "cannot be used with");
    run(with(&ttk, &["--exact", "--precision", "0.01"]), "cannot be used with");
    run(with(&ttk, &["--mode", "omega-override"]), "odds-only");
    run(
        vec!["duel".into(), "Dwarf ALPHA".into(), "Troll Brawler".into(), "--mode".into(), "omega-override".into()],
        "odds-only",
    );
    run(with(&ODDS, &["--mode", "omega-override", "--move", "half"]), "cannot move");
    run(vec!["odds".into(), "--attacker".into(), "Dwarf ALPHA".into(), "--target".into(), "ac:0".into()], "ac:N");
    run(vec!["sweep".into(), "quick".into(), "--precision".into(), "0.7".into()], "precision must be");
    // A well-formed value the catalogue does not know is not a usage error.
    let out = volley().args(["odds", "--attacker", "Dwarf ALPA", "--target-ac", "3"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn ttk_exact_runs_without_monte_carlo_options() {
    let out = stdout_of(&["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--exact", "--threads", "1"]);
    assert!(out.contains("method: exact"), "{out}");
    assert!(stdout_of(&["ttk", "--help"]).contains("takes no --trials"));
}

#[test]
fn duel_and_gauntlet_help_say_conditions_apply_to_both_sides() {
    for cmd in ["duel", "gauntlet"] {
        let help = stdout_of(&[cmd, "--help"]);
        for needle in [
            "Range between the two builds",
            "Cover of both builds",
            "How both builds moved",
            "Status of both builds",
            "Both builds are laser designated",
        ] {
            assert!(help.contains(needle), "{cmd}: missing {needle} in\n{help}");
        }
        for wrong in ["Cover of the target", "Target status", "The attacker", "The target is"] {
            assert!(!help.contains(wrong), "{cmd}: still says {wrong}:\n{help}");
        }
    }
    let odds = stdout_of(&["odds", "--help"]);
    assert!(odds.contains("Cover of the target") && odds.contains("How the attacker moved"), "{odds}");
}

#[cfg(unix)]
mod signals {
    use super::*;
    use nix::sys::signal::{Signal, kill};
    use nix::unistd::Pid;
    use std::time::{Duration, Instant};

    /// Trials per cell for a run that lasts minutes (stopped by the signal long before).
    const LONG: &str = "100000000";

    /// Poll `done` every 20 ms for up to `secs` seconds.
    fn wait_until(secs: u64, mut done: impl FnMut() -> bool) -> bool {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(secs) {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }

    /// Entries of `dir` (names), sorted.
    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    /// Start `args` in `cwd`; once it runs (its partial report `out` exists, when given),
    /// send `signal`; return its exit code, stdout and stderr.
    fn signalled(cwd: &Path, args: &[&str], out: Option<&str>, signal: Signal) -> (Option<i32>, String, String) {
        let mut child =
            bin().current_dir(cwd).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let pid = child.id();
        if let Some(out) = out {
            let partial = cwd.join(format!(".{out}.partial-{pid}"));
            assert!(wait_until(120, || partial.is_dir()), "{args:?}: no partial report");
        }
        // Let the engagements start.
        std::thread::sleep(Duration::from_millis(500));
        assert!(child.try_wait().unwrap().is_none(), "{args:?} ended before the signal");
        kill(Pid::from_raw(pid as i32), signal).unwrap();
        let ended = wait_until(60, || child.try_wait().unwrap().is_some());
        if !ended {
            let _ = child.kill();
        }
        let output = child.wait_with_output().unwrap();
        assert!(ended, "{args:?} did not stop after {signal}");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    fn check(args: &[&str], out: Option<&str>, signal: Signal, code: i32) {
        let dir = tempfile::tempdir().unwrap();
        let (got, stdout, stderr) = signalled(dir.path(), args, out, signal);
        assert_eq!(got, Some(code), "{args:?} after {signal}: {stderr}");
        assert_eq!(stderr.matches("interrupted by").count(), 1, "one message: {stderr}");
        assert!(stderr.contains(&format!("interrupted by {}", signal.as_str())), "{stderr}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(entries(dir.path()), Vec::<String>::new(), "{args:?}: nothing may remain after {signal}");
    }

    #[test]
    fn a_signalled_sweep_stops_and_leaves_nothing() {
        let sweep = ["sweep", "quick", "--out", "rep", "--trials", LONG, "--quiet"];
        check(&sweep, Some("rep"), Signal::SIGTERM, 143);
        check(&sweep, Some("rep"), Signal::SIGINT, 130);
        check(&sweep, Some("rep"), Signal::SIGHUP, 129);
    }

    #[test]
    fn a_signalled_gauntlet_or_ttk_stops_and_leaves_nothing() {
        let gauntlet = ["gauntlet", "Dwarf ALPHA", "--field", "meta", "--out", "g", "--trials", LONG, "--quiet"];
        check(&gauntlet, Some("g"), Signal::SIGTERM, 143);
        let ttk = ["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--trials", "1000000000", "--quiet"];
        check(&ttk, None, Signal::SIGINT, 130);
    }

    #[test]
    fn a_signalled_chart_redraw_leaves_the_report_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let made = bin()
            .current_dir(dir.path())
            .args(["sweep", "quick", "--out", "rep", "--trials", "2000", "--quiet"])
            .output()
            .unwrap();
        assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
        let report = dir.path().join("rep");
        let charts_before = entries(&report.join("charts"));
        let page_before = fs::read(report.join("index.html")).unwrap();
        let child = bin()
            .current_dir(dir.path())
            .args(["chart", "rep", "--quiet"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let partial = report.join(format!(".chart.partial-{pid}"));
        assert!(wait_until(120, || partial.is_dir()), "no charts being drawn");
        kill(Pid::from_raw(pid as i32), Signal::SIGTERM).unwrap();
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(143), "{stderr}");
        assert!(stderr.contains("interrupted by SIGTERM"), "{stderr}");
        assert!(!partial.exists(), "the half-drawn charts are removed");
        assert_eq!(entries(&report.join("charts")), charts_before);
        assert_eq!(fs::read(report.join("index.html")).unwrap(), page_before, "the page is untouched");
        // nothing hidden left but the report's own volley marker
        assert!(
            entries(&report).iter().all(|e| !e.starts_with('.') || e == ".volley-output"),
            "{:?}",
            entries(&report)
        );
    }

    #[test]
    fn the_next_run_removes_partial_reports_of_dead_processes_only() {
        let dir = tempfile::tempdir().unwrap();
        // A sweep killed outright (no chance to clean up) leaves its partial report.
        let mut killed = bin()
            .current_dir(dir.path())
            .args(["sweep", "quick", "--out", "rep", "--trials", LONG, "--quiet"])
            .spawn()
            .unwrap();
        let left = dir.path().join(format!(".rep.partial-{}", killed.id()));
        assert!(wait_until(120, || left.is_dir()));
        killed.kill().unwrap();
        killed.wait().unwrap();
        assert!(left.is_dir(), "SIGKILL cannot be handled");
        // One of a process that still runs must stay.
        let mut alive = std::process::Command::new("sleep").arg("60").spawn().unwrap();
        let live = dir.path().join(format!(".rep.partial-{}", alive.id()));
        fs::create_dir(&live).unwrap();
        fs::write(live.join("time_to_kill.csv"), "half").unwrap();
        let out = bin()
            .current_dir(dir.path())
            .args(["sweep", "quick", "--out", "rep", "--trials", "1000", "--no-charts", "--quiet"])
            .output()
            .unwrap();
        let _ = alive.kill();
        let _ = alive.wait();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!left.exists(), "the dead sweep's partial report is removed");
        assert!(live.join("time_to_kill.csv").exists(), "a live process's partial report is kept");
        assert!(dir.path().join("rep/time_to_kill.csv").exists());
    }
}

/// With stderr not a terminal (a Slurm log, CI) a long run prints a plain progress line
/// every few seconds (`VOLLEY_PROGRESS_SECONDS`), never a bar; `--quiet` and `0` print none.
#[test]
fn progress_is_a_plain_line_when_stderr_is_not_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str, every: Option<&str>, quiet: bool| {
        let mut c = bin();
        c.args(["sweep", "quick", "--no-charts", "--trials", "40000", "--out"]).arg(dir.path().join(out));
        if quiet {
            c.arg("--quiet");
        }
        match every {
            Some(s) => c.env("VOLLEY_PROGRESS_SECONDS", s),
            None => c.env_remove("VOLLEY_PROGRESS_SECONDS"),
        };
        let out = c.stderr(Stdio::piped()).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap()
    };
    let lines = run("a", Some("0.000001"), false);
    let plain: Vec<&str> = lines.lines().filter(|l| l.starts_with("progress: ")).collect();
    assert!(!plain.is_empty(), "no progress line in:\n{lines}");
    assert!(plain.iter().all(|l| l.contains(" engagements (") && l.contains(", cells ") && l.contains(" M/s, ETA ")));
    assert!(!lines.contains('\u{1b}'), "no terminal escapes in a log: {lines:?}");
    assert!(!run("b", Some("0"), false).contains("progress: "));
    assert!(!run("c", Some("0.000001"), true).contains("progress: "));
}
