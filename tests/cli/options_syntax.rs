//! Options: one value syntax for every ruleset, echoed in headers, refused where unused.

use super::*;

/// Per ruleset: its name, two built-in builds for a time-to-kill run, and a switch whose
/// value is not its default with that value.
const RULESETS: [(&str, &str, &str, &str, &str); 4] = [
    ("techcommander", "Dwarf ALPHA", "Pigeonhawk Standard", "SMOKE_POP", "false"),
    ("mechcom", "Typhon", "Kerberos", "COVER_STACKS", "true"),
    ("skirmishers", "Rifleman", "Green Rifleman", "VOLLEY", "true"),
    ("shellshock", "Panzer IV", "Jagdpanther", "DOUBLE_STACKS", "true"),
];

/// The spellings of a switch value that every ruleset reads alike.
fn spellings(value: &str) -> [&'static str; 4] {
    if value == "true" { ["true", "on", "YES", "On"] } else { ["false", "off", "NO", "Off"] }
}

fn ttk(ruleset: &str, a: &str, t: &str, option: &str, extra: &[&str]) -> std::process::Output {
    let args = [
        &["--ruleset", ruleset, "--option", option, "ttk", "--attacker", a, "--target", t][..],
        &["--trials", "300", "--seed", "7", "--quiet"][..],
        extra,
    ]
    .concat();
    volley().args(&args).output().unwrap()
}

#[test]
fn on_off_yes_no_and_true_false_give_the_same_cell_and_numbers_in_every_ruleset() {
    for (ruleset, a, t, name, value) in RULESETS {
        let mut outputs = Vec::new();
        for spelled in spellings(value) {
            let option = format!("{}={spelled}", name.to_lowercase().replace('_', "-"));
            let out = ttk(ruleset, a, t, &option, &["--format", "json"]);
            assert!(out.status.success(), "{ruleset} {option}: {}", String::from_utf8_lossy(&out.stderr));
            let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(j["options"][name], value, "{ruleset}: the JSON options object has the canonical value");
            outputs.push(j);
        }
        assert!(outputs.windows(2).all(|w| w[0] == w[1]), "{ruleset}: every spelling of {name}={value} is one run");
    }
}

#[test]
fn the_text_header_echoes_every_non_default_option_and_only_those() {
    for (ruleset, a, t, name, value) in RULESETS {
        let spelled = spellings(value)[1];
        let out = ttk(ruleset, a, t, &format!("{name}={spelled}"), &[]);
        assert!(out.status.success(), "{ruleset}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let header: Vec<&str> = text.lines().take(3).collect();
        assert!(header.contains(&format!("options: {name}={value}").as_str()), "{ruleset}: {header:?}");
        let default = ttk(ruleset, a, t, &format!("{name}={}", if value == "true" { "false" } else { "true" }), &[]);
        let text = String::from_utf8(default.stdout).unwrap();
        assert!(!text.contains("options:"), "{ruleset}: defaults are not echoed: {text}");
    }
}

#[test]
fn a_bad_value_or_an_unknown_name_is_a_usage_error_with_the_nearest_name() {
    for (ruleset, a, t, name, _) in RULESETS {
        let out = ttk(ruleset, a, t, &format!("{name}=maybe"), &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{ruleset}: {err}");
        assert!(err.contains(name) && err.contains("true or false"), "{ruleset}: {err}");
        let typo = &name[..name.len() - 1];
        let out = ttk(ruleset, a, t, &format!("{typo}=true"), &[]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{ruleset}: {err}");
        assert!(err.contains(&format!("did you mean {name}?")), "{ruleset}: {err}");
    }
}

#[test]
fn choices_are_read_in_any_case_with_dash_or_underscore() {
    // Shellshock writes its choices in upper case; MECHCOM and TechCommander in kebab case.
    for (ruleset, a, t, option, canonical) in [
        ("shellshock", "Panzer IV", "Jagdpanther", "damage-dice=bell-d12", "BELL_D12"),
        ("mechcom", "Typhon", "Kerberos", "SPOT_POLICY=NEVER", "never"),
        ("techcommander", "Dwarf ALPHA", "Pigeonhawk Standard", "cover_bands=HOW_TO_ATTACK", "how-to-attack"),
    ] {
        let out = ttk(ruleset, a, t, option, &["--format", "json"]);
        assert!(out.status.success(), "{ruleset} {option}: {}", String::from_utf8_lossy(&out.stderr));
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let name = option.split('=').next().unwrap().to_uppercase().replace('-', "_");
        assert_eq!(j["options"][&name], canonical, "{ruleset}");
    }
}

#[test]
fn option_is_refused_by_commands_that_play_no_rules() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    for args in [
        &["--ruleset", "mechcom", "catalog", "--option", "SMOKE_PENALTY=4"][..],
        &["--ruleset", "mechcom", "catalog", "--option", "COVER_STACKS=true"][..],
        &["chart", path, "--option", "SMOKE_PENALTY=4"][..],
        &["validate", path, "--option", "SMOKE_PENALTY=4"][..],
        &["scenario", "list", "--option", "SMOKE_PENALTY=4"][..],
        &["rulesets", "--option", "SMOKE_PENALTY=4"][..],
    ] {
        let out = volley().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("--option") && err.contains("takes no --option"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn rulesets_lists_every_option_with_its_default_values_and_help() {
    let all = json_of(&["rulesets", "--format", "json"]);
    for r in all.as_array().unwrap() {
        let options = r["options"].as_array().unwrap();
        assert!(!options.is_empty(), "{}", r["name"]);
        for o in options {
            for key in ["name", "default", "values", "help"] {
                assert!(o[key].as_str().is_some_and(|s| !s.is_empty()), "{}: {o}", r["name"]);
            }
            if o["values"] == "true or false (on/off)" {
                assert!(o["default"] == "true" || o["default"] == "false", "{}: {o}", r["name"]);
            }
        }
    }
}
