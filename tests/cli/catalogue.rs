//! Catalogue and scenario handling as a user meets it: errors all at once, additions to
//! the catalogue, empty selections, scenario names and files.

use super::*;
use std::path::Path;

const ZAPPER: &str =
    "[[weapon]]\nname = \"Zapper\"\ndamage = 5\nshots = 2\nfire_control = 0\nopt = 10\nweight = 1\npower = 1\n";

/// An additions-only file: a build on the built-in Dwarf with a built-in weapon and a new one.
const EXTRA_BUILD: &str = r#"[[build]]
name = "Dwarf Zap"
unit = "Dwarf"
weapons = [{ name = "Devastator", count = 1 }, { name = "Zapper" }]
"#;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn validate_shows_every_independent_error_at_once_and_no_knock_ons() {
    let dir = catalogue_dir(&[
        (
            "a.toml",
            &(ZAPPER.to_string() + "\n" + &ZAPPER.replace("Zapper", "Broken").replace("damage = 5", "damage = 0")),
        ),
        (
            "b.toml",
            r#"[[weapon]]
name = "Zapper"
damage = 5
shots = 2
fire_control = 0
opt = 10
weight = 1
power = 1

[[unit]]
name = "Bot"
kind = "vehicle"
ac = 2
colour = "grey"

[[build]]
name = "Bot One"
unit = "Bot"
weapons = ["Zapper", "Broken", "Zaper"]
colour = "grey"

[[field]]
name = "meta"
opponents = [{ build = "Bot One" }, { build = "Bot Two" }]
"#,
        ),
    ]);
    let out = volley().arg("validate").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let a = dir.path().join("a.toml").display().to_string();
    let b = dir.path().join("b.toml").display().to_string();
    for needle in [
        "6 errors found".to_string(),
        format!("{a}:12:10: weapon \"Broken\": field `damage`: must be between 1 and 10000, got 0"),
        format!(
            "{b}:2:8: weapon \"Zapper\": field `name`: duplicate name: weapon \"Zapper\" was first defined at {a}:1:1"
        ),
        format!("{b}:14:1: unit \"Bot\": field `colour`: unknown key"),
        format!(
            "{b}:19:32: build \"Bot One\": field `weapons[2].name`: unknown weapon `Zaper` (did you mean `Zapper`?)"
        ),
        format!("{b}:20:1: build \"Bot One\": field `colour`: unknown key"),
        format!("{b}:24:37: field \"meta\": field `opponents[1].build`: unknown build `Bot Two`"),
    ] {
        assert!(err.contains(&needle), "missing `{needle}` in:\n{err}");
    }
    assert!(!err.contains("unknown build `Bot One`"), "a failed build is not unknown:\n{err}");
    assert!(!err.contains("`Broken`"), "a failed weapon gets no knock-on error:\n{err}");
}

#[test]
fn add_loadouts_extends_the_built_in_catalogue() {
    let extra = catalogue_dir(&[("w.toml", ZAPPER), ("b.toml", EXTRA_BUILD)]);
    let more = catalogue_dir(&[(
        "b.toml",
        "[[build]]\nname = \"Dwarf Twin\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Zapper\", count = 1 }]\n",
    )]);
    let out = volley()
        .args(["catalog", "--format", "csv", "--add-loadouts"])
        .arg(extra.path())
        .arg("--add-loadouts")
        .arg(more.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    for name in ["Dwarf ALPHA", "Dwarf Zap", "Dwarf Twin"] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    // a clash names both places and blames the addition
    let clash = catalogue_dir(&[("w.toml", &ZAPPER.replace("Zapper", "Devastator"))]);
    let out = volley().args(["catalog", "--add-loadouts"]).arg(clash.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let file = clash.path().join("w.toml").display().to_string();
    assert!(
        err.contains(&format!("{file}:2:8: weapon \"Devastator\": field `name`: duplicate name: weapon \"Devastator\" was first defined at <embedded>/techcommander/weapons.toml:")),
        "{err}"
    );
    assert!(err.contains("with additions from"), "{err}");
}

#[test]
fn validate_checks_an_additions_file_against_the_active_catalogue() {
    let dir = catalogue_dir(&[("extra.toml", &(ZAPPER.to_string() + "\n" + EXTRA_BUILD))]);
    let file = dir.path().join("extra.toml");
    let out = volley().arg("validate").arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("OK: 12 weapons, 15 units, 6 gear, 13 builds, 1 field"), "{text}");
    assert!(text.contains("embedded default catalogue with additions from"), "{text}");
    // a typo in an additions file is reported as such
    fs::write(&file, ZAPPER.to_string() + "\n" + &EXTRA_BUILD.replace("\"Devastator\"", "\"Devastater\"")).unwrap();
    let out = volley().arg("validate").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("checked as additions to the embedded default catalogue"), "{err}");
    assert!(err.contains("1 error found"), "{err}");
    assert!(err.contains("unknown weapon `Devastater` (did you mean `Devastator`?)"), "{err}");
}

#[test]
fn an_empty_loadouts_variable_means_no_override() {
    let out = volley().args(["validate"]).env("VOLLEY_LOADOUTS", "").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("(embedded default catalogue)"));
    // an explicit empty value on the command line stays a usage error
    let out = volley().args(["validate", "--loadouts", ""]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn messages_name_a_loaded_catalogue_properly() {
    let dir = catalogue_dir(&[
        ("w.toml", ZAPPER),
        ("u.toml", "[[unit]]\nname = \"Bot\"\nkind = \"vehicle\"\nac = 2\n"),
        ("b.toml", "[[build]]\nname = \"Bot One\"\nunit = \"Bot\"\nweapons = [\"Zapper\"]\n"),
    ]);
    let out = volley()
        .arg("--loadouts")
        .arg(dir.path())
        .args(["odds", "--attacker", "Bot Two", "--target-ac", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains(&format!("no build named `Bot Two` in the catalogue from {}", dir.path().display())), "{err}");
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn scenario_loadouts_add_is_relative_to_the_scenario_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("extra")).unwrap();
    write(&dir.path().join("extra"), "zap.toml", &(ZAPPER.to_string() + "\n" + EXTRA_BUILD));
    let scenario = write(
        dir.path(),
        "s.toml",
        "name = \"s\"\ntrials = 2000\nloadouts_add = [\"extra\"]\nattackers = [\"Dwarf Zap\"]\ntargets = [\"ac:3\"]\n",
    );
    let cwd = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(cwd.path())
        .args(["sweep", &scenario, "--out", "r", "--quiet", "--no-charts", "--format", "csv"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let table = fs::read_to_string(cwd.path().join("r/time_to_kill.csv")).unwrap();
    assert!(table.contains("Dwarf Zap"), "{table}");
}

#[test]
fn compare_and_gauntlet_scenarios_use_their_loadouts_add_too() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("extra")).unwrap();
    write(&dir.path().join("extra"), "zap.toml", &(ZAPPER.to_string() + "\n" + EXTRA_BUILD));
    let targets = write(
        dir.path(),
        "runs.toml",
        "name = \"runs\"\ntrials = 2000\nloadouts_add = [\"extra\"]\nattackers = [\"Dwarf Zap\"]\ntargets = [\"ac:3\"]\n",
    );
    let out = volley()
        .args(["compare", "Dwarf Zap", "Dwarf ALPHA", "--scenario", &targets, "--format", "json", "--quiet"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let duels = write(
        dir.path(),
        "duels.toml",
        "name = \"duels\"\nengagement = \"duel\"\ntrials = 2000\nloadouts_add = [\"extra\"]\nattackers = [\"Dwarf Zap\"]\nopponents = [\"Dwarf ALPHA\"]\n",
    );
    let cwd = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(cwd.path())
        .args([
            "gauntlet",
            "Dwarf Zap",
            "--field",
            "Dwarf ALPHA",
            "--scenario",
            &duels,
            "--out",
            "g",
            "--no-charts",
            "--quiet",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Runs a sweep that must be refused; returns stderr and checks nothing was written.
fn refused_sweep(catalogue: &[(&str, &str)], scenario: &str) -> String {
    let cat = catalogue_dir(catalogue);
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "s.toml", scenario);
    let out = volley()
        .current_dir(dir.path())
        .arg("--loadouts")
        .arg(cat.path())
        .args(["sweep", &file, "--out", "out", "--quiet", "--no-charts"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(!dir.path().join("out").exists(), "wrote a report");
    stderr(&out)
}

#[test]
fn empty_selections_are_refused_with_the_selector_and_the_file() {
    let units = "[[unit]]\nname = \"Bot\"\nkind = \"vehicle\"\nac = 2\n";
    let err = refused_sweep(
        &[("w.toml", ZAPPER), ("u.toml", units)],
        "name = \"s\"\nattackers = [\"all\"]\ntargets = [\"ac:3\"]\n",
    );
    assert!(err.contains("s.toml:2:14: scenario \"s\": field `attackers[0]`: `all` selects no build"), "{err}");
    let build = "[[build]]\nname = \"Bot One\"\nunit = \"Bot\"\nweapons = [\"Zapper\"]\n";
    let err = refused_sweep(
        &[("w.toml", ZAPPER), ("u.toml", units), ("b.toml", build)],
        "name = \"s\"\nattackers = [\"kind:msv\"]\ntargets = [\"ac:3\"]\n",
    );
    assert!(
        err.contains("s.toml:2:14: scenario \"s\": field `attackers[0]`: `kind:msv` selects no build: no build in the catalogue from"),
        "{err}"
    );
    assert!(err.contains("has a unit of kind msv"), "{err}");
    let err = refused_sweep(
        &[("w.toml", ZAPPER), ("u.toml", units), ("b.toml", build)],
        "name = \"s\"\nattackers = []\ntargets = [\"ac:3\"]\n",
    );
    assert!(err.contains("s.toml:2:13: scenario \"s\": field `attackers`: must not be empty"), "{err}");
    assert!(!err.contains("Every build"), "{err}");
}

#[test]
fn a_folder_named_like_a_built_in_scenario_does_not_hide_it() {
    let cwd = tempfile::tempdir().unwrap();
    let run = |extra: &[&str]| {
        volley()
            .current_dir(cwd.path())
            .args(["sweep", "quick", "--out", "quick", "--trials", "1000", "--quiet", "--no-charts"])
            .args(extra)
            .output()
            .unwrap()
    };
    let first = run(&[]);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = run(&["--force"]);
    assert!(second.status.success(), "{}", stderr(&second));
    let manifest = fs::read_to_string(cwd.path().join("quick/manifest.json")).unwrap();
    assert!(manifest.contains("\"name\": \"quick\""), "{manifest}");
}

#[test]
fn scenario_arguments_follow_one_rule() {
    let cwd = tempfile::tempdir().unwrap();
    // a regular file named like a built-in is a path
    fs::write(cwd.path().join("quick"), "name = \"mine\"\n").unwrap();
    let out = volley().current_dir(cwd.path()).args(["sweep", "quick", "--quiet"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("quick:"), "{}", stderr(&out));
    assert!(stderr(&out).contains("needs attackers"), "read as a file: {}", stderr(&out));
    // an unknown name lists the built-ins and says how to give a path
    let out = volley().current_dir(cwd.path()).args(["sweep", "quik"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("no built-in scenario `quik` (did you mean `quick`?) (built in: battles, duels, mechcom-duels, mechcom-quick, mechcom-standard, quick, shellshock-duels, shellshock-quick, shellshock-standard, skirmishers-quick, skirmishers-standard, standard)"),
        "{err}"
    );
    assert!(err.contains("give its path"), "{err}");
}

#[test]
fn scenario_list_and_show_print_the_built_ins() {
    let list = stdout_of(&["scenario", "list"]);
    let names: Vec<&str> = list.lines().map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "standard",
            "battles",
            "duels",
            "quick",
            "mechcom-standard",
            "mechcom-duels",
            "mechcom-quick",
            "skirmishers-standard",
            "skirmishers-quick",
            "shellshock-standard",
            "shellshock-duels",
            "shellshock-quick",
        ],
        "{list}"
    );
    assert!(list.contains("mechcom-quick\tmechcom\t"), "another ruleset's scenarios say so: {list}");
    let shipped = fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/quick.toml")).unwrap();
    assert_eq!(stdout_of(&["scenario", "show", "quick"]), shipped);
    let out = volley().args(["scenario", "show", "quik"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("did you mean `quick`?"), "{}", stderr(&out));
}

#[test]
fn a_path_that_cannot_be_read_does_not_hide_the_other_files_errors() {
    let dir = catalogue_dir(&[("w.toml", &ZAPPER.replace("damage = 5", "damage = 0"))]);
    let out = volley().arg("validate").arg(dir.path()).arg("/no/such/place.toml").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("2 errors found"), "{err}");
    assert!(err.contains("/no/such/place.toml: cannot read"), "{err}");
    assert!(
        err.contains("w.toml:3:10: weapon \"Zapper\": field `damage`: must be between 1 and 10000, got 0"),
        "{err}"
    );
}
