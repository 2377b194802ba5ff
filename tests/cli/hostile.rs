//! Hostile names and values, oversized inputs and closed outputs: every one is refused up
//! front with the file and field named, or written so that no reader (a spreadsheet, a
//! Markdown or HTML viewer, an XML parser, a terminal) runs or breaks on it.

use super::*;
use std::path::Path;
use std::process::Stdio;

/// The shipped TechCommander catalogue with two builds renamed everywhere they appear.
fn renamed_catalogue(renames: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("loadouts/techcommander");
    for entry in fs::read_dir(&from).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        if !(name.ends_with(".toml") || name.ends_with(".csv")) {
            continue;
        }
        let mut text = fs::read_to_string(&path).unwrap();
        for (old, new) in renames {
            text = text.replace(&format!("\"{old}\""), &format!("\"{new}\""));
        }
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn help_and_version_written_to_a_full_device_fail() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for arg in ["--help", "--version"] {
        let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_volley"))
            .arg(arg)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{arg}: {}", stderr_of(&out));
        assert!(stderr_of(&out).contains("No space left on device"), "{arg}: {}", stderr_of(&out));
    }
    // A reader that stops early is still a normal end.
    let out = volley().arg("--help").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_endless_input_file_stops_at_the_size_limit() {
    if Path::new("/dev/zero").exists() {
        let out =
            volley().args(["validate", "/dev/zero"]).timeout(std::time::Duration::from_secs(20)).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
        assert!(stderr_of(&out).contains("/dev/zero: cannot read: larger than 16777216 bytes"), "{}", stderr_of(&out));
        assert!(stderr_of(&out).contains("--max-input-bytes"), "{}", stderr_of(&out));
    }
    // The limit applies to scenario files too, and the flag moves it.
    let dir = tempfile::tempdir().unwrap();
    let scenario = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/quick.toml")).unwrap();
    let path = write(dir.path(), "s.toml", &scenario);
    let out = volley()
        .args(["--max-input-bytes", "100", "sweep", &path, "--out"])
        .arg(dir.path().join("r"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("cannot read scenario: larger than 100 bytes"), "{}", stderr_of(&out));
    let weapons = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander/weapons.toml");
    let out = volley().args(["--max-input-bytes", "100", "validate", weapons]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr_of(&out).contains("weapons.toml: cannot read: larger than 100 bytes"), "{}", stderr_of(&out));
}

#[test]
fn control_characters_in_catalogue_names_are_refused_all_at_once() {
    let cat = renamed_catalogue(&[
        ("Troll Brawler", "Troll\\u001b[31mBrawler"),
        ("Beagle Hunter", "Beagle\\u0000Hunter\\u0007"),
    ]);
    let out = volley().arg("--loadouts").arg(cat.path()).arg("catalog").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr_of(&out);
    assert!(
        !err.contains('\u{1b}') && !err.contains('\0') && !err.contains('\u{7}'),
        "raw control characters: {err:?}"
    );
    assert!(
        err.contains(
            "builds.toml:18:8: build \"Troll\\u{1b}[31mBrawler\": field `name`: contains the control character \\u{1b}"
        ),
        "{err}"
    );
    assert!(
        err.contains("build \"Beagle\\u{0}Hunter\\u{7}\": field `name`: contains the control character \\u{0}"),
        "{err}"
    );
}

#[test]
fn a_scenario_name_with_nul_or_300_characters_is_blamed_on_its_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let body = "engagement = \"attack-run\"\ntrials = 10\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"Stingray\"]\n";
    for name in ["bad\\u0000name".to_string(), "x".repeat(300)] {
        let path = write(dir.path(), "s.toml", &format!("name = \"{name}\"\n{body}"));
        let out = volley().args(["sweep", &path, "--out"]).arg(dir.path().join("out")).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = stderr_of(&out);
        assert!(err.contains("s.toml:1:8: scenario \"") && err.contains("field `name`"), "{err}");
        assert!(!err.contains("output directory") && !err.contains('\0'), "{err}");
        assert!(!dir.path().join("out").exists());
    }
}

#[test]
fn grid_errors_and_unknown_names_are_reported_in_one_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "s.toml",
        "name = \"two\"\nengagement = \"attack-run\"\ntrials = 10\nattackers = [\"Nobody Atall\"]\n\
         targets = [\"Stingray\"]\n\n[grid]\ncover = [\"light\"]\n",
    );
    let out = volley().args(["sweep", &path, "--out"]).arg(dir.path().join("out")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(err.contains("2 errors found"), "{err}");
    assert!(err.contains("s.toml:4:14: scenario \"two\": field `attackers[0]`"), "{err}");
    assert!(err.contains("s.toml:8:10: scenario \"two\": field `grid.cover`: unknown cover `light`"), "{err}");
}

#[test]
fn field_weights_whose_sum_overflows_are_refused_naming_the_entry() {
    let dir = catalogue_dir(&[(
        "fields.toml",
        "[[field]]\nname = \"huge\"\nopponents = [\n  { build = \"Dwarf ALPHA\", weight = 1e308 },\n  \
         { build = \"Stingray Standard\", weight = 1e308 },\n]\n",
    )]);
    let out = volley().arg("validate").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("2 errors found"), "{err}");
    assert!(
        err.contains("fields.toml:4:37: field \"huge\": field `opponents[0].weight`: must be at most 1e12 (sums of such values must stay finite), got 1e308"),
        "{err}"
    );
    assert!(err.contains("field `opponents[1].weight`"), "{err}");
}

#[test]
fn grids_and_plans_too_large_are_refused_before_anything_expands() {
    let dir = tempfile::tempdir().unwrap();
    let ranges: Vec<String> = (1..=2000).map(|r| r.to_string()).collect();
    let path = write(
        dir.path(),
        "big.toml",
        &format!(
            "name = \"big\"\nengagement = \"attack-run\"\ntrials = 1\nattackers = [\"Dwarf ALPHA\"]\n\
             targets = [\"Stingray\"]\n[grid]\nrange = [{}]\nsmoke = [\"none\", \"smoke\", \"designated\"]\n\
             cover = [\"none\", \"minor\", \"half\", \"heavy\", \"blocked\"]\n\
             movement = [\"stationary\", \"half\", \"full\", \"attack-and-cover\", \"pop-and-shoot\", \"jump-assault\", \"offload\"]\n",
            ranges.join(", ")
        ),
    );
    let out = volley()
        .args(["sweep", &path, "--out"])
        .arg(dir.path().join("out"))
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.contains("big.toml:6:1: scenario \"big\": field `grid`: the grid's 210000 points make 210000 cells"),
        "{err}"
    );
    assert!(err.contains("--max-cells N raises the limit"), "{err}");
    // Sides count: 3 builds × 5 targets × 4 points is over 50 cells; and trials in all.
    let quick = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/quick.toml");
    let out = volley().args(["--max-cells", "50", "sweep", quick, "--out"]).arg(dir.path().join("q")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("the grid's 4 points × 3 attackers × 5 targets make 60 cells"),
        "{}",
        stderr_of(&out)
    );
    let out = volley()
        .args(["--max-work", "1000000", "sweep", quick, "--trials", "20000", "--out"])
        .arg(dir.path().join("q"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr_of(&out).contains("1200000 trials in all, more than the limit of 1000000 (--max-work"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn generated_force_spaces_beyond_the_cell_limit_are_refused_up_front() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "gen.toml",
        "name = \"gen\"\nengagement = \"battle\"\nmode = \"skirmish\"\ntrials = 100\n\
         generate = { budget = 12, max_units = 4, limit = 100 }\n[grid]\nrange = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]\n",
    );
    let out = volley()
        .args(["sweep", &path, "--out"])
        .arg(dir.path().join("out"))
        .timeout(std::time::Duration::from_secs(20))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("gen.toml:5:12: scenario \"gen\": field `generate`:"), "{err}");
    assert!(
        err.contains("100 forces at the grid's 11 points make 108900 cells")
            && err.contains("more than the limit of 100000"),
        "{err}"
    );
    assert!(err.contains("--max-cells"), "{err}");
}

#[test]
fn csv_cells_a_spreadsheet_would_run_are_escaped_unless_raw_is_asked() {
    let cat =
        renamed_catalogue(&[("Dwarf ALPHA", "=HYPERLINK(\\\"x\\\")"), ("Pigeonhawk Standard", "+cmd|' /C calc'!A0")]);
    let run = |extra: &[&str], env: Option<&str>| {
        let mut cmd = volley();
        cmd.arg("--loadouts").arg(cat.path()).args(extra).args(["catalog", "builds", "--format", "csv"]);
        if let Some(v) = env {
            cmd.env("VOLLEY_CSV_RAW", v);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr_of(&out));
        String::from_utf8(out.stdout).unwrap()
    };
    let escaped = run(&[], None);
    assert!(escaped.contains("\n\"'=HYPERLINK(\"\"x\"\")\",Dwarf,"), "{escaped}");
    assert!(escaped.contains("\n'+cmd|' /C calc'!A0,Pigeonhawk,"), "{escaped}");
    assert_eq!(run(&[], Some("0")), escaped);
    for raw in [run(&["--csv-raw"], None), run(&[], Some("1"))] {
        assert!(raw.contains("\n\"=HYPERLINK(\"\"x\"\")\",Dwarf,"), "{raw}");
        assert!(raw.contains("\n+cmd|' /C calc'!A0,Pigeonhawk,"), "{raw}");
    }
}

/// One small sweep with hostile names: its CSV tables are escaped (numbers untouched),
/// `index.md` and `index.html` show the names as text, and every SVG parses as XML.
#[test]
fn a_report_with_hostile_names_is_safe_to_open_everywhere() {
    let cat = renamed_catalogue(&[("Dwarf ALPHA", "<script>&\\\"'"), ("Pigeonhawk Standard", "-2+3 @x")]);
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "s.toml",
        "name = \"hostile\"\nengagement = \"attack-run\"\ntrials = 50\n\
         attackers = [\"<script>&\\\"'\", \"-2+3 @x\"]\ntargets = [\"Stingray\"]\n",
    );
    let out_dir = dir.path().join("r");
    let out = volley()
        .arg("--loadouts")
        .arg(cat.path())
        .args(["sweep", &path, "--format", "csv", "-q", "--out"])
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let ttk = fs::read_to_string(out_dir.join("time_to_kill.csv")).unwrap();
    assert!(ttk.contains("\n\"techcommander\",\"'-2+3 @x\"") || ttk.contains("\ntechcommander,'-2+3 @x,"), "{ttk}");
    assert!(ttk.contains("\ntechcommander,\"<script>&\"\"'\","), "{ttk}");
    let md = fs::read_to_string(out_dir.join("index.md")).unwrap();
    assert!(!md.contains("<script"), "{md}");
    assert!(md.contains("&lt;script&gt;&amp;"), "{md}");
    let html = fs::read_to_string(out_dir.join("index.html")).unwrap();
    assert!(!html.contains("<script"), "raw tag in index.html");
    let mut svgs = 0;
    for entry in fs::read_dir(out_dir.join("charts")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "svg") {
            let text = fs::read_to_string(&p).unwrap();
            roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{} is not XML: {e}", p.display()));
            svgs += 1;
        }
    }
    assert!(svgs >= 3, "{svgs} SVGs");
    // The CSV-only report charts again with the names as written, not as escaped.
    let out = volley().arg("chart").arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    let md = fs::read_to_string(out_dir.join("index.md")).unwrap();
    assert!(md.contains("-2+3 @x") && !md.contains("'-2+3 @x"), "{md}");
}

#[test]
fn a_command_line_name_with_a_control_character_is_refused_and_shown_escaped() {
    let out = volley().args(["duel", "Dwarf\u{1b}[2JALPHA", "Stingray Standard", "--trials", "10"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(!err.contains('\u{1b}'), "raw escape on the terminal: {err:?}");
    assert!(err.contains("build name `Dwarf\\u{1b}[2JALPHA` contains the control character \\u{1b}"), "{err}");
}

#[test]
fn compare_gauntlet_and_diff_report_scenario_errors_and_unknown_names_in_one_pass() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "s.toml",
        "name = \"two\"\nengagement = \"attack-run\"\ntrials = 10\nattackers = [\"Dwarf ALPHA\"]\n\
         targets = [\"Nobody Atall\"]\n\n[grid]\ncover = [\"light\"]\n",
    );
    let runs: [Vec<&str>; 3] = [
        vec!["compare", "Stingray Standard", "Dwarf ALPHA", "--scenario", &path, "--quiet"],
        vec!["gauntlet", "Dwarf ALPHA", "--field", "meta", "--scenario", &path, "--quiet"],
        vec!["diff", "loadouts/techcommander", "loadouts/techcommander", "--scenario", &path, "--quiet"],
    ];
    for args in runs {
        let out = volley().current_dir(env!("CARGO_MANIFEST_DIR")).args(&args).output().unwrap();
        let err = stderr_of(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("2 errors found"), "{args:?}: {err}");
        assert!(err.contains("s.toml:5:12: scenario \"two\": field `targets[0]`"), "{args:?}: {err}");
        assert!(
            err.contains("s.toml:8:10: scenario \"two\": field `grid.cover`: unknown cover `light`"),
            "{args:?}: {err}"
        );
    }
}
