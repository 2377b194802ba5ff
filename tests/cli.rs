//! Tests that drive the real `volley` binary, grouped by command.

use assert_cmd::Command;
use std::fs;

fn volley() -> Command {
    let mut c = Command::cargo_bin("volley").expect("binary");
    c.env_remove("VOLLEY_LOADOUTS");
    c
}

fn stdout_of(args: &[&str]) -> String {
    let out = volley().args(args).output().unwrap();
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json_of(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&stdout_of(args)).expect("JSON on stdout")
}

/// A catalogue directory with the given files.
fn catalogue_dir(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

mod validate {
    use super::*;

    #[test]
    fn the_default_catalogue_is_ok() {
        let out = stdout_of(&["validate"]);
        assert!(out.starts_with("OK: 11 weapons, 15 units, 6 gear, 12 builds, 1 fields"), "{out}");
    }

    #[test]
    fn shipped_loadouts_directory_is_ok() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts");
        let out = stdout_of(&["validate", dir]);
        assert!(out.starts_with("OK: 11 weapons"), "{out}");
    }

    #[test]
    fn bad_files_fail_with_every_error_and_nothing_on_stdout() {
        let dir = catalogue_dir(&[(
            "w.toml",
            "[[weapon]]\nname = \"Gun\"\ndamage = 0\nshots = 3\nfire_control = 1\nopt = 24\nweight = 5\npower = 5\ncolour = 1\n",
        )]);
        let out = volley().arg("validate").arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("the catalogue has 2 errors"), "{err}");
        assert!(err.contains("w.toml:3:10: weapon \"Gun\": field `damage`: must be"), "{err}");
        assert!(err.contains("w.toml:9:1: weapon \"Gun\": field `colour`: unknown key"), "{err}");
    }

    #[test]
    fn a_missing_path_is_an_error() {
        let out = volley().args(["validate", "/no/such/place.toml"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/place.toml: cannot read"));
    }
}

mod catalog {
    use super::*;

    #[test]
    fn lists_builds_weapons_units_and_gear() {
        assert!(stdout_of(&["catalog"]).contains("Dwarf ALPHA"));
        let weapons = json_of(&["catalog", "weapons", "--format", "json"]);
        let dev = weapons.as_array().unwrap().iter().find(|w| w["name"] == "Devastator").unwrap();
        assert_eq!(dev["shots"], 3);
        let units = stdout_of(&["catalog", "units", "--format", "csv"]);
        assert!(units.lines().any(|l| l.starts_with("Bubble Shield,terrain,5,1,")), "{units}");
        assert!(stdout_of(&["catalog", "gear"]).contains("SEER"));
    }

    #[test]
    fn loadouts_flag_and_variable_replace_the_default() {
        let dir = catalogue_dir(&[
            (
                "w.toml",
                "[[weapon]]\nname = \"Zapper\"\ndamage = 5\nshots = 2\nfire_control = 0\nopt = 10\nweight = 1\npower = 1\n",
            ),
            ("u.toml", "[[unit]]\nname = \"Bot\"\nkind = \"vehicle\"\nac = 2\n"),
            ("b.toml", "[[build]]\nname = \"Bot One\"\nunit = \"Bot\"\nweapons = [{ name = \"Zapper\" }]\n"),
        ]);
        let by_flag = volley().args(["catalog", "--loadouts"]).arg(dir.path()).output().unwrap();
        assert!(String::from_utf8_lossy(&by_flag.stdout).contains("Bot One"));
        let by_env = volley().args(["catalog"]).env("VOLLEY_LOADOUTS", dir.path()).output().unwrap();
        let text = String::from_utf8_lossy(&by_env.stdout);
        assert!(text.contains("Bot One") && !text.contains("Dwarf ALPHA"), "{text}");
    }
}

mod odds {
    use super::*;

    #[test]
    fn worked_example_as_json() {
        let rows = json_of(&[
            "odds",
            "--attacker",
            "Dwarf ALPHA",
            "--target",
            "Stingray",
            "--range",
            "27",
            "--smoke",
            "smoke",
            "--format",
            "json",
        ]);
        let row = &rows[0];
        for key in [
            "weapon",
            "target_number",
            "p_hit",
            "shots",
            "expected_hits",
            "p_any_hit",
            "expected_damage",
            "expected_life_loss",
            "p_one_action_kill",
        ] {
            assert!(row.get(key).is_some(), "missing {key}");
        }
        assert_eq!(row["weapon"], "Devastator");
        assert_eq!(row["target_number"], 5);
        assert_eq!(row["p_hit"], 0.25);
        assert_eq!(row["shots"], 6);
        assert_eq!(row["expected_hits"], 1.5);
        // 6 dice, 8 damage per hit, AC2: 4 life per hit
        assert_eq!(row["expected_life_loss"], 6.0);
        assert_eq!(row["modifiers"]["range"], -3);
        assert_eq!(row["modifiers"]["smoke"], -6);
        let p_any = 1.0 - 0.75f64.powi(6);
        assert!((row["p_any_hit"].as_f64().unwrap() - p_any).abs() < 1e-15);
    }

    #[test]
    fn weapon_filter_and_generic_targets() {
        let rows = json_of(&[
            "odds",
            "--attacker",
            "Paladin Siege",
            "--weapon",
            "heavy cannon",
            "--target-ac",
            "4",
            "--range",
            "30",
            "--format",
            "json",
        ]);
        assert_eq!(rows.as_array().unwrap().len(), 1);
        assert_eq!(rows[0]["target_number"], 15);
        assert_eq!(rows[0]["shots"], 4);
        let csv = stdout_of(&["odds", "--attacker", "Paladin Siege", "--target", "ac:4", "--format", "csv"]);
        assert_eq!(csv.lines().count(), 4, "{csv}");
    }

    #[test]
    fn no_shot_rows_say_why() {
        let rows = json_of(&[
            "odds",
            "--attacker",
            "Paladin Siege",
            "--target-ac",
            "3",
            "--cover",
            "blocked",
            "--format",
            "json",
        ]);
        let blackout = rows.as_array().unwrap().iter().find(|r| r["weapon"] == "Blackout").unwrap();
        assert!(blackout["target_number"].is_null());
        assert_eq!(blackout["p_hit"], 0.0);
        assert!(blackout["no_shot"].as_str().unwrap().contains("blocked"));
        let mortar = rows.as_array().unwrap().iter().find(|r| r["weapon"] == "Thumper Mortar").unwrap();
        assert_eq!(mortar["target_number"], 10 + 3 - 6, "NLOS mortar shoots blocked at -6");
    }

    #[test]
    fn bad_names_suggest_and_fail() {
        let out = volley().args(["odds", "--attacker", "Dwarf ALPA", "--target-ac", "3"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `Dwarf ALPHA`?"));
        let out = volley().args(["odds", "--attacker", "Dwarf ALPHA", "--target", "Stingary"]).output().unwrap();
        assert!(String::from_utf8_lossy(&out.stderr).contains("did you mean `Stingray`?"));
        let out = volley()
            .args(["odds", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--cover", "partial"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
        let out = volley()
            .args(["odds", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--target", "Rhino"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "one target only");
    }

    #[test]
    fn help_explains_options_with_units_and_defaults() {
        let help = stdout_of(&["odds", "--help"]);
        for needle in [
            "--range <INCHES>",
            "[default: 12]",
            "--cover",
            "minor -1",
            "--status",
            "--target-ac",
            "--format",
            "omega-override",
        ] {
            assert!(help.contains(needle), "missing {needle} in\n{help}");
        }
    }
}
