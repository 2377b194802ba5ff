//! Parts of the contract that other lines of work deliver: each test names its owner
//! (`contract_pending_<branch>_...`) and fails until that work lands.

use super::checks::first_line;
use super::*;

/// Run `args` on `case`: a problem unless it exits 0.
fn expect_ok(p: &mut Problems, case: &Case, args: &[&str]) -> Run {
    let run = case.run(args);
    p.ok(&run, false);
    run
}

/// `volley --ruleset X sweep` with no scenario runs X's own standard scenario.
#[test]
fn contract_pending_defaults_sweep_without_a_scenario_plays_the_rulesets_own() {
    let mut p = Problems::new();
    for fx in FIXTURES {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("r");
        let o = out.to_str().unwrap();
        let run = volley()
            .args([
                "--ruleset",
                fx.ruleset,
                "sweep",
                "--trials",
                "4",
                "--out",
                o,
                "--format",
                "csv",
                "--no-charts",
                "-q",
            ])
            .output()
            .unwrap();
        if run.status.code() != Some(0) {
            p.add(format!(
                "{}: sweep: exit {:?}: {}",
                fx.ruleset,
                run.status.code(),
                first_line(&String::from_utf8_lossy(&run.stderr))
            ));
            continue;
        }
        let manifest = fs::read_to_string(out.join("manifest.json")).unwrap_or_default();
        let m: serde_json::Value = serde_json::from_str(&manifest).unwrap_or_default();
        if m["ruleset"] != fx.ruleset {
            p.add(format!("{}: sweep ran a scenario of ruleset {}", fx.ruleset, m["ruleset"]));
        }
        p.report_dir(&format!("{}: sweep", fx.ruleset), &out, &[]);
    }
    p.finish();
}

/// `volley --ruleset X diff OLD NEW` with no scenario plays X's standard scenario.
#[test]
fn contract_pending_defaults_diff_without_a_scenario_plays_the_rulesets_own() {
    let mut p = Problems::new();
    for case in cases().iter().filter(|c| c.label.ends_with("/builtin")) {
        let old = case.catalogue_path().display().to_string();
        expect_ok(&mut p, case, &["diff", &old, &old, "--trials", "4", "-q", "--format", "csv"]);
    }
    p.finish();
}

/// `scenario list` groups the built-in scenarios by ruleset (a ruleset column).
#[test]
fn contract_pending_defaults_scenario_list_groups_by_ruleset() {
    // `NAME<TAB>RULESET<TAB>DESCRIPTION`, grouped by ruleset in registry order.
    let list = stdout_of(&["scenario", "list"]);
    let rulesets: Vec<&str> = FIXTURES.iter().map(|f| f.ruleset).collect();
    let mut seen: Vec<&str> = Vec::new();
    for line in list.lines().filter(|l| !l.trim().is_empty()) {
        let ruleset = line.split('\t').nth(1).unwrap_or_else(|| panic!("no ruleset column: {line:?}\n{list}"));
        if seen.last() != Some(&ruleset) {
            assert!(!seen.contains(&ruleset), "{ruleset} is not one group:\n{list}");
            seen.push(ruleset);
        }
    }
    assert_eq!(seen, rulesets, "a group per ruleset, in registry order:\n{list}");
}

/// Every selector form on the command line: `gauntlet SELECTOR`, `fit SELECTOR`, and a
/// `squad:` selector as `--field`.
#[test]
fn contract_pending_names_selectors_on_the_command_line() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        for (i, sel) in case.names.selectors.iter().enumerate() {
            let o = tmp.path().join(format!("g{i}")).display().to_string();
            let g = ["gauntlet", sel, "--field", case.names.field, "--trials", "10", "--max-turns", "6"];
            expect_ok(&mut p, &case, &[&g[..], &["-q", "--out", &o, "--format", "csv", "--no-charts"]].concat());
            expect_ok(&mut p, &case, &["fit", "--field", case.names.field, sel, "--max-turns", "6", "-q"]);
            if sel.starts_with("squad:") {
                let o = tmp.path().join(format!("s{i}")).display().to_string();
                let g = ["gauntlet", case.names.attacker, "--field", sel, "--trials", "10", "--max-turns", "6"];
                expect_ok(&mut p, &case, &[&g[..], &["-q", "--out", &o, "--format", "csv", "--no-charts"]].concat());
            }
        }
    }
    p.finish();
}

/// Names match in any case in every ruleset.
#[test]
fn contract_pending_names_case_insensitive_names() {
    let mut p = Problems::new();
    for case in cases() {
        let (a, t) = (case.names.attacker.to_uppercase(), case.names.target.to_lowercase());
        expect_ok(&mut p, &case, &["odds", "--attacker", &a, "--target", &t]);
        expect_ok(&mut p, &case, &["duel", &a, &t, "--trials", "10", "-q"]);
    }
    p.finish();
}

/// `validate FILE` of a file of additions checks it against the active catalogue.
#[test]
fn contract_pending_names_validate_a_file_of_additions() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("additions.toml");
        fs::write(&file, case.names.additions).unwrap();
        let run = expect_ok(&mut p, &case, &["validate", file.to_str().unwrap()]);
        if run.code == Some(0) && !run.stdout.starts_with("OK: ") {
            p.add(format!("{}: prints no OK line: {}", run.what, run.stdout));
        }
    }
    p.finish();
}

/// `catalog forces` lists forces in every ruleset with battles, and `catalog fields` the
/// fields of every ruleset whose catalogue has a `[[field]]` section.
#[test]
fn contract_pending_names_catalog_lists_forces_and_fields() {
    let mut p = Problems::new();
    let registry = json_of(&["rulesets", "--format", "json"]);
    for case in cases() {
        let r = registry.as_array().unwrap().iter().find(|r| r["name"] == case.fx.ruleset).unwrap();
        let sections: Vec<&str> = r["sections"].as_array().unwrap().iter().filter_map(|s| s.as_str()).collect();
        if case.fx.battles {
            let run = expect_ok(&mut p, &case, &["catalog", "forces"]);
            let (a, _) = case.names.forces.unwrap();
            if run.code == Some(0) && !a.contains('*') && !a.contains('+') && !run.stdout.contains(a) {
                p.add(format!("{}: `catalog forces` does not list {a}", run.what));
            }
        }
        if sections.contains(&"field") {
            let run = expect_ok(&mut p, &case, &["catalog", "fields"]);
            if run.code == Some(0) && !run.stdout.contains(case.names.field) {
                p.add(format!("{}: `catalog fields` does not list {}", run.what, case.names.field));
            }
        }
    }
    p.finish();
}

/// A boolean option takes `true`/`false` and `on`/`off` in every ruleset.
#[test]
fn contract_pending_options_boolean_syntax() {
    let mut p = Problems::new();
    for case in cases().iter().filter(|c| c.label.ends_with("/builtin")) {
        for v in ["true", "false", "on", "off"] {
            let o = format!("{}={v}", case.fx.switch);
            let n = case.names;
            expect_ok(&mut p, case, &["odds", "--attacker", n.attacker, "--target", n.target, "--option", &o]);
        }
    }
    p.finish();
}

/// `--option` on a command that reads no option, or naming no option of the ruleset, is
/// refused with exit 2.
#[test]
fn contract_pending_options_ignored_option_is_refused() {
    let mut p = Problems::new();
    for case in cases().iter().filter(|c| c.label.ends_with("/builtin")) {
        for args in [vec!["catalog", "--option", case.fx.option], vec!["validate", "--option", case.fx.option]] {
            let run = case.run(&args);
            if run.code != Some(2) {
                p.add(format!("{}: exit {:?}, expected 2 (the command reads no option)", run.what, run.code));
            }
        }
    }
    p.finish();
}

/// The text header of every engagement command echoes a non-default option.
#[test]
fn contract_header_echoes_non_default_options() {
    let mut p = Problems::new();
    for case in cases() {
        let n = case.names;
        let o = case.fx.option;
        let (a, b) = n.duel;
        let tmp = tempfile::tempdir().unwrap();
        let g = tmp.path().join("g").display().to_string();
        let mut commands: Vec<Vec<&str>> = vec![
            vec!["odds", "--attacker", n.attacker, "--target", n.target],
            vec!["ttk", "--attacker", n.attacker, "--target", n.target, "--trials", "20", "-q"],
            vec!["duel", a, b, "--trials", "20", "-q"],
            vec!["compare", a, b, "--against", n.field, "--trials", "20", "-q"],
            vec!["gauntlet", n.attacker, "--field", n.field, "--trials", "20", "-q", "--out", &g, "--no-charts"],
            vec!["fit", "--field", n.field, n.attacker, "-q"],
        ];
        if let Some((x, y)) = n.forces {
            commands.push(vec!["battle", x, y, "--trials", "10", "-q"]);
        }
        for mut args in commands {
            args.extend(["--option", o]);
            let run = case.run(&args);
            if run.code != Some(0) {
                p.add(format!("{}: exit {:?}: {}", run.what, run.code, first_line(&run.stderr)));
            } else if !run.stdout.contains(o) {
                p.add(format!("{}: the header does not echo `{o}`", run.what));
            }
        }
    }
    p.finish();
}
