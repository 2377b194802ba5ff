//! The `EDITION` option (TechCommander, `techcommander-battles.md` §5) through the real
//! binary: the 2nd edition's AC2 MSVs, faction training read from catalogue abilities,
//! and the option's place in `volley rulesets`.

use super::*;

/// An AC2 MSV (2nd edition only) with a build firing one built-in Devastator (3 shots,
/// FC +1), added to the built-in catalogue.
const KOBOLD: &str = r#"[[unit]]
name = "Kobold"
kind = "msv"
ac = 2
speed = 14
free_weight = 10
free_power = 20

[[build]]
name = "Kobold Gun"
unit = "Kobold"
weapons = [{ name = "Devastator", count = 1 }]
"#;

/// The AC2 MSV's refusal under the 3rd edition: file, line, entry and field.
const REFUSED: &str = "kobold.toml:1:1: unit \"Kobold\": field `ac`: an MSV of AC2 is 2nd-edition only";

fn run_in(dir: &tempfile::TempDir, args: &[&str]) -> std::process::Output {
    volley().current_dir(dir.path()).args(args).output().unwrap()
}

#[test]
fn an_ac2_msv_loads_but_plays_only_under_the_second_edition() {
    let dir = catalogue_dir(&[("kobold.toml", KOBOLD)]);
    let add = ["--add-loadouts", "kobold.toml"];
    let engagements: [Vec<&str>; 4] = [
        vec!["odds", "--attacker", "Kobold Gun", "--target-ac", "3"],
        vec!["odds", "--attacker", "Dwarf ALPHA", "--target", "Kobold"],
        vec!["ttk", "--attacker", "Kobold Gun", "--target", "Stingray", "--trials", "200"],
        vec!["duel", "Dwarf ALPHA", "Kobold Gun", "--trials", "200"],
    ];
    for args in &engagements {
        let args: Vec<&str> = args.iter().chain(&add).copied().collect();
        // 3rd edition (the default): refused as a catalogue error (exit 1).
        let out = run_in(&dir, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(REFUSED), "{args:?}: {err}");
        // 2nd edition: it plays.
        let second: Vec<&str> = args.iter().copied().chain(["--option", "EDITION=2"]).collect();
        let out = run_in(&dir, &second);
        assert!(out.status.success(), "{second:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // Its shot is the plain one: 10 + 3 size + 1 FC = 14.
    let args = ["odds", "--attacker", "Kobold Gun", "--target-ac", "3", "--option", "EDITION=2", "--format", "json"];
    let out = run_in(&dir, &[&args[..], &add[..]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows[0]["target_number"], 14, "{rows}");
    // A build that does not involve it plays under the 3rd edition as before.
    let out = run_in(&dir, &["odds", "--attacker", "Dwarf ALPHA", "--target-ac", "2", "--add-loadouts", "kobold.toml"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn an_ac2_msv_keeps_the_second_edition_class_rule() {
    // 2nd edition "Equipping MSV units": gear weight AC x 10 / 2 = 10, power AC x 10 = 20.
    let over = KOBOLD.replace("free_weight = 10", "free_weight = 11").replace("free_power = 20", "free_power = 21");
    let dir = catalogue_dir(&[("kobold.toml", &over)]);
    let out = run_in(&dir, &["odds", "--attacker", "Kobold Gun", "--target-ac", "3", "--add-loadouts", "kobold.toml"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    for field in
        ["field `free_weight`: 11 is over the AC2 (2nd edition) MSV class limit of 10 (AC2)", "field `free_power`: 21"]
    {
        assert!(err.contains(field), "{field}: {err}");
    }
    // AC1 is no MSV in either edition
    let dir = catalogue_dir(&[("kobold.toml", &KOBOLD.replace("ac = 2", "ac = 1"))]);
    let out = run_in(&dir, &["odds", "--attacker", "Kobold Gun", "--target-ac", "3", "--add-loadouts", "kobold.toml"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("an MSV's AC must be a class in the MSV classes table (3 to 6; 2 under the 2nd edition), got 1"),
        "{err}"
    );
}

/// A Syndicate trooper with the Wetwire ability, a Devastator (FC +1) each.
const SYNDICATE: &str = r#"[[unit]]
name = "Syndicate Trooper"
kind = "troop"
ac = 1
abilities = ["Wetwire"]

[[build]]
name = "Wetwired"
unit = "Syndicate Trooper"
weapons = [{ name = "Devastator", count = 1 }]
"#;

#[test]
fn faction_training_from_the_catalogue_needs_the_second_edition() {
    // §5 faction training: a Wetwire trooper at AC3 needs 10 + 3 + 1 FC = 14 under the
    // 3rd edition, 15 under the 2nd (+1 FC); FACTION_TRAINING=false takes it back to 14,
    // and STANCES=true makes the stationary trooper prone: 16.
    let dir = catalogue_dir(&[("syndicate.toml", SYNDICATE)]);
    let tn = |extra: &[&str]| {
        let mut args = vec!["odds", "--attacker", "Wetwired", "--target-ac", "3", "--format", "json"];
        args.extend(["--add-loadouts", "syndicate.toml"]);
        args.extend(extra);
        let out = run_in(&dir, &args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        rows[0]["target_number"].as_i64().unwrap()
    };
    assert_eq!(tn(&[]), 14);
    assert_eq!(tn(&["--option", "EDITION=2"]), 15);
    assert_eq!(tn(&["--option", "EDITION=2", "--option", "FACTION_TRAINING=false"]), 14);
    assert_eq!(tn(&["--option", "EDITION=2", "--option", "STANCES=true"]), 16);
    assert_eq!(tn(&["--option", "STANCES=true"]), 14, "stances are 2nd-edition only");
}

#[test]
fn edition_is_the_first_option_and_refuses_other_editions() {
    let listing = stdout_of(&["rulesets"]);
    let options: Vec<&str> = listing.lines().map(str::trim).filter(|l| l.contains("§")).collect();
    assert!(options[0].starts_with("EDITION=3 "), "{options:?}");
    let out = volley()
        .args(["odds", "--attacker", "Dwarf ALPHA", "--target-ac", "3", "--option", "EDITION=4"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("EDITION") && err.contains("`4` is not a whole number from 2 to 3"), "{err}");
}
