//! Tests that drive the real `volley` binary, grouped by command.

use assert_cmd::Command;
use std::fs;

fn volley() -> Command {
    let mut c = Command::cargo_bin("volley").expect("binary");
    c.env_remove("VOLLEY_LOADOUTS").env_remove("VOLLEY_RULESET");
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

/// A duel result's outcomes as counts of its `n` duels ([A wins, B wins, mutual kills,
/// timeouts]), read through `p(column)`: each must be a whole count, the four must cover
/// every duel exactly once, and draws must be mutual kills plus timeouts.
fn duel_outcome_counts(p: impl Fn(&str) -> f64, n: u64, what: &str) -> [u64; 4] {
    let count = |col: &str| {
        let k = p(col) * n as f64;
        assert!((k - k.round()).abs() < 1e-6, "{what}: {col} = {} is not a count of {n}", p(col));
        k.round() as u64
    };
    let (a, b, draw) = (count("p_a_wins"), count("p_b_wins"), count("p_draw"));
    let (mutual, timeout) = (count("p_mutual_kill"), count("p_timeout"));
    assert_eq!(draw, mutual + timeout, "{what}: draws are mutual kills and timeouts");
    assert_eq!(a + b + mutual + timeout, n, "{what}: every duel has exactly one outcome");
    [a, b, mutual, timeout]
}

/// The engine's own counts [A wins, B wins, mutual kills, timeouts] for a duel of two
/// built-in builds at `range` (default policy and turn cap), under the cell key that
/// `volley duel` and `volley sweep` use.
fn engine_duel_counts(a: &str, b: &str, range: f64, seed: u64, trials: u64) -> [u64; 4] {
    use volley::engine::{Cell, RunConfig, Silent, Trials, cell_key, run};
    use volley::rules::techcommander::{Attacker, Conditions, DEFAULT_MAX_TURNS, Duel, Policy, Target};
    let cat = volley::rules::techcommander::catalogue::Catalogue::embedded().unwrap();
    let (x, y) = (cat.build(a).unwrap(), cat.build(b).unwrap());
    let c = Conditions::at_range(range);
    let duel = Duel::new(
        (&Attacker::from_build(&cat, x), &Target::from_build(&cat, x)),
        (&Attacker::from_build(&cat, y), &Target::from_build(&cat, y)),
        &c,
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        DEFAULT_MAX_TURNS,
    )
    .unwrap();
    let point = volley::rules::Point::new(
        &volley::sweep::run::all_specs::<volley::rules::techcommander::TechCommander>(),
        &[("range", range.to_string())],
    )
    .unwrap();
    let options = volley::rules::techcommander::options::Options::default().pairs();
    let spec = volley::sweep::cells::CellSpec {
        ruleset: "techcommander",
        options: &options,
        policy: Policy::BestExpected.name(),
        max_turns: DEFAULT_MAX_TURNS,
    };
    let key = cell_key(&spec.duel(&x.name, &y.name, &point));
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    let t = run(&[Cell { key, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
    [t.a_wins(), t.b_wins(), t.mutual_by_turn.iter().sum(), t.timeouts]
}

#[path = "cli/battle.rs"]
mod battle;
#[path = "cli/catalogue.rs"]
mod catalogue;
#[path = "cli/hostile.rs"]
mod hostile;
#[path = "cli/charts.rs"]
mod report_charts;

mod validate {
    use super::*;

    #[test]
    fn the_default_catalogue_is_ok() {
        let out = stdout_of(&["validate"]);
        assert!(out.starts_with("OK: 11 weapons, 15 units, 6 gear, 12 builds, 1 field"), "{out}");
    }

    #[test]
    fn shipped_loadouts_directory_is_ok() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander");
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
        assert!(err.contains("2 errors found"), "{err}");
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

mod ttk {
    use super::*;

    fn ttk_json(extra: &[&str]) -> serde_json::Value {
        let mut args = vec![
            "ttk",
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
            "--quiet",
        ];
        args.extend_from_slice(extra);
        json_of(&args)
    }

    #[test]
    fn monte_carlo_json_has_the_contract_keys_and_agrees_with_exact() {
        let mc = ttk_json(&["--trials", "200000"]);
        for key in ["method", "trials", "p_kill", "p_kill_by_turn", "mean_turns", "mean_actions", "p_kill_by_turn_ci95"]
        {
            assert!(mc.get(key).is_some(), "missing {key}");
        }
        assert_eq!(mc["method"], "monte-carlo");
        assert_eq!(mc["trials"], 200_000);
        let exact = ttk_json(&["--exact"]);
        assert_eq!(exact["method"], "exact");
        assert_eq!(exact["trials"], 0);
        let by_turn = mc["p_kill_by_turn"].as_array().unwrap();
        assert_eq!(by_turn.len(), 20);
        // Each count of kills by turn k against the exact probability: exact binomial
        // tests, Bonferroni over the 20 turns (see volley::stats::tolerance).
        let alpha = volley::stats::tolerance::FAMILY_ALPHA / 20.0;
        for (k, p) in by_turn.iter().enumerate() {
            let kills = (p.as_f64().unwrap() * 200_000.0).round() as u64;
            let x = exact["p_kill_by_turn"][k].as_f64().unwrap();
            assert!(volley::stats::binomial::consistent(kills, 200_000, x, alpha), "turn {}: {kills} vs {x}", k + 1);
        }
        // turn 1: one attack of 6 dice at T=5, 8 damage vs AC2 (4 life a hit): 5+ hits
        let p1 = 6.0 * 0.25f64.powi(5) * 0.75 + 0.25f64.powi(6);
        assert!((exact["p_kill_by_turn"][0].as_f64().unwrap() - p1).abs() < 1e-15);
    }

    #[test]
    fn same_seed_same_output_on_any_thread_count() {
        let one = stdout_of(&[
            "ttk",
            "--attacker",
            "Troll Brawler",
            "--target-ac",
            "4",
            "--trials",
            "300000",
            "--threads",
            "1",
            "--format",
            "json",
        ]);
        let two = stdout_of(&[
            "ttk",
            "--attacker",
            "Troll Brawler",
            "--target-ac",
            "4",
            "--trials",
            "300000",
            "--threads",
            "2",
            "--format",
            "json",
        ]);
        assert_eq!(one, two);
        let other = stdout_of(&[
            "ttk",
            "--attacker",
            "Troll Brawler",
            "--target-ac",
            "4",
            "--trials",
            "300000",
            "--seed",
            "2",
            "--format",
            "json",
        ]);
        assert_ne!(one, other);
    }

    #[test]
    fn precision_mode_reports_the_trials_used() {
        let j = ttk_json(&["--precision", "0.01"]);
        let trials = j["trials"].as_u64().unwrap();
        assert!(trials >= 16_384 && trials % 4096 == 0, "{trials}");
        let worst = j["p_kill_by_turn_ci95"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c[1].as_f64().unwrap() - c[0].as_f64().unwrap()) / 2.0)
            .fold(0.0, f64::max);
        assert!(worst <= 0.01, "{worst}");
    }

    #[test]
    fn table_and_csv_outputs() {
        let text = stdout_of(&["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "2", "--exact"]);
        assert!(text.contains("method: exact") && text.contains("p_killed_by_turn"), "{text}");
        let csv = stdout_of(&[
            "ttk",
            "--attacker",
            "Dwarf ALPHA",
            "--target-ac",
            "2",
            "--trials",
            "1000",
            "--max-turns",
            "5",
            "--format",
            "csv",
        ]);
        assert_eq!(csv.lines().next(), Some("turn,p_killed_by_turn,ci95_low,ci95_high"));
        assert_eq!(csv.lines().count(), 6);
    }

    #[test]
    fn bad_run_options_fail_cleanly() {
        let out = volley()
            .args(["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "2", "--precision", "0.7"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "usage errors exit 2");
        assert!(String::from_utf8_lossy(&out.stderr).contains("precision must be"));
        let out =
            volley().args(["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "2", "--trials", "0"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let out = volley()
            .args(["ttk", "--attacker", "Dwarf ALPHA", "--target-ac", "2", "--mode", "omega-override"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "an odds-only mode is a usage error of ttk");
        assert!(String::from_utf8_lossy(&out.stderr).contains("odds-only"));
    }
}

mod duel {
    use super::*;

    #[test]
    fn json_contract_and_outcome_counts_are_the_engines() {
        let j = json_of(&[
            "duel",
            "Dwarf ALPHA",
            "Gladiator Lancer",
            "--range",
            "20",
            "--trials",
            "50000",
            "--format",
            "json",
        ]);
        for key in
            ["trials", "p_a_wins", "p_a_wins_ci95", "p_b_wins", "p_b_wins_ci95", "p_draw", "p_draw_ci95", "mean_turns"]
        {
            assert!(j.get(key).is_some(), "missing {key}");
        }
        let n = 50_000u64;
        assert_eq!(j["trials"], n);
        // Every probability is a count of the n duels. The outcomes are counted apart (A
        // wins, B wins, mutual kills, timeouts): together they must cover every duel
        // exactly once, a draw is a mutual kill or a timeout, and the counts are the
        // engine's own for this cell under its key and seed.
        let counts = duel_outcome_counts(|k| j[k].as_f64().unwrap(), n, "volley duel");
        let engine = engine_duel_counts("Dwarf ALPHA", "Gladiator Lancer", 20.0, j["seed"].as_u64().unwrap(), n);
        assert_eq!(counts, engine);
    }

    #[test]
    fn a_mirror_match_is_symmetric_within_its_intervals() {
        let j = json_of(&["duel", "Troll Brawler", "Troll Brawler", "--trials", "200000", "--format", "json"]);
        let (a, b) = (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap());
        let half = (j["p_a_wins_ci95"][1].as_f64().unwrap() - j["p_a_wins_ci95"][0].as_f64().unwrap()) / 2.0;
        assert!((a - b).abs() < 3.0 * half, "{a} vs {b}");
    }
}

mod sweep {
    use super::*;
    use polars::prelude::{DataFrame, ParquetReader, SerReader};
    use std::path::Path;
    use volley::rules::techcommander::catalogue::Catalogue;
    use volley::rules::techcommander::{AttackRun, Attacker, Conditions, Cover, Policy, Smoke, TargetSpec, all_odds};

    const SMALL: &str = r#"
name = "small"
engagement = "attack-run"
seed = 3
trials = 20000
max_turns = 8
attackers = ["Dwarf ALPHA", "Gladiator Lancer"]
targets = ["Stingray", "ac:5"]

[grid]
range = [12, 30]
cover = ["none", "half"]
smoke = ["none", "designated"]
"#;

    fn scenario_file(dir: &Path, name: &str, text: &str) -> String {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p.display().to_string()
    }

    fn sweep(dir: &Path, scenario: &str, out: &str, extra: &[&str]) -> std::process::Output {
        volley()
            .current_dir(dir)
            .args(["sweep", scenario, "--out", out, "--quiet", "--no-charts"])
            .args(extra)
            .output()
            .unwrap()
    }

    fn parquet(path: &Path) -> DataFrame {
        ParquetReader::new(fs::File::open(path).unwrap()).finish().unwrap()
    }

    fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
        let mut r = csv::Reader::from_path(path).unwrap();
        let headers = r.headers().unwrap().iter().map(str::to_string).collect();
        let rows = r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect();
        (headers, rows)
    }

    /// The value of column `name` in row `i` of a DataFrame, as text comparable with CSV.
    fn cell(df: &DataFrame, name: &str, i: usize) -> String {
        let v = df.column(name).unwrap().get(i).unwrap();
        match v {
            polars::prelude::AnyValue::Null => String::new(),
            polars::prelude::AnyValue::String(s) => s.to_string(),
            polars::prelude::AnyValue::StringOwned(s) => s.to_string(),
            other => other.to_string(),
        }
    }

    fn num(df: &DataFrame, name: &str, i: usize) -> Option<f64> {
        df.column(name).unwrap().get(i).unwrap().extract::<f64>()
    }

    #[test]
    fn small_sweep_tables_agree_across_formats_and_with_the_exact_kernel() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario_file(dir.path(), "small.toml", SMALL);
        let out = sweep(dir.path(), &scenario, "report", &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stdout.is_empty(), "nothing on stdout unless asked");
        let report = dir.path().join("report");
        let cells = 2 * 2 * 2 * 2 * 2;
        for (table, rows) in [("time_to_kill", cells), ("ttk_by_turn", cells * 8), ("hit_probability", cells / 2 * 3)] {
            let df = parquet(&report.join(format!("{table}.parquet")));
            assert_eq!(df.height(), rows, "{table}");
            let (headers, csv) = csv_rows(&report.join(format!("{table}.csv")));
            assert_eq!(headers, df.get_column_names().iter().map(|c| c.to_string()).collect::<Vec<_>>());
            assert_eq!(csv.len(), rows);
            // Same rows: every numeric cell equal after parsing, every text cell equal.
            for (i, row) in csv.iter().enumerate() {
                for (j, h) in headers.iter().enumerate() {
                    match num(&df, h, i) {
                        Some(x) if !row[j].is_empty() && row[j].parse::<f64>().is_ok() => {
                            assert_eq!(row[j].parse::<f64>().unwrap(), x, "{table} row {i} {h}")
                        }
                        _ => assert_eq!(row[j], cell(&df, h, i), "{table} row {i} {h}"),
                    }
                }
            }
        }
        // Hit probabilities are the kernel's exact values.
        let cat = Catalogue::embedded().unwrap();
        let hp = parquet(&report.join("hit_probability.parquet"));
        for i in 0..hp.height() {
            let a = Attacker::from_build(&cat, cat.build(&cell(&hp, "attacker", i)).unwrap());
            let t = TargetSpec::parse(&cell(&hp, "target", i)).unwrap().resolve(&cat).unwrap();
            let c = Conditions {
                range: num(&hp, "range", i).unwrap(),
                cover: cell(&hp, "cover", i).parse::<Cover>().unwrap(),
                smoke: cell(&hp, "smoke", i).parse::<Smoke>().unwrap(),
                ..Conditions::default()
            };
            let rows = all_odds(&a, &t, &c, &volley::rules::techcommander::Options::default());
            let r = rows.iter().find(|r| r.weapon == cell(&hp, "weapon", i)).unwrap();
            // Exact values, rounded as exact values are written (`output::number::exact`).
            let x = volley::output::number::exact;
            assert_eq!(num(&hp, "p_hit", i), r.p_hit().map(x));
            assert_eq!(num(&hp, "expected_life_loss", i), Some(x(r.odds.expected_life_loss)));
            assert_eq!(num(&hp, "p_one_action_kill", i), Some(x(r.odds.p_one_action_kill)));
        }
        // Time to kill: the exact column is the exact chain; Monte Carlo is consistent with it.
        let ttk = parquet(&report.join("time_to_kill.parquet"));
        for i in 0..ttk.height() {
            let a = Attacker::from_build(&cat, cat.build(&cell(&ttk, "attacker", i)).unwrap());
            let t = TargetSpec::parse(&cell(&ttk, "target", i)).unwrap().resolve(&cat).unwrap();
            let c = Conditions {
                range: num(&ttk, "range", i).unwrap(),
                cover: cell(&ttk, "cover", i).parse::<Cover>().unwrap(),
                smoke: cell(&ttk, "smoke", i).parse::<Smoke>().unwrap(),
                ..Conditions::default()
            };
            let exact =
                AttackRun::new(&a, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 8)
                    .unwrap()
                    .exact();
            assert_eq!(num(&ttk, "exact_p_kill", i), Some(volley::output::number::exact(exact.p_kill)));
            let trials = num(&ttk, "trials", i).unwrap() as u64;
            let kills = (num(&ttk, "p_kill", i).unwrap() * trials as f64).round() as u64;
            let alpha = volley::stats::tolerance::FAMILY_ALPHA / ttk.height() as f64;
            assert!(volley::stats::binomial::consistent(kills, trials, exact.p_kill, alpha), "row {i}");
        }
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(report.join("manifest.json")).unwrap()).unwrap();
        for key in
            ["volley_version", "seed", "scenario", "trials_per_cell", "cells", "wall_seconds", "engagements_per_second"]
        {
            assert!(manifest.get(key).is_some(), "manifest lacks {key}");
        }
        assert_eq!(manifest["catalogue"]["hash"], cat.hash);
        assert_eq!(manifest["cells"], cells);
        assert_eq!(manifest["scenario"]["grid"]["smoke"], serde_json::json!(["none", "designated"]));
    }

    #[test]
    fn same_seed_same_files_on_any_thread_count() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario_file(dir.path(), "small.toml", SMALL);
        assert!(sweep(dir.path(), &scenario, "one", &["--threads", "1", "--format", "csv"]).status.success());
        assert!(sweep(dir.path(), &scenario, "two", &["--threads", "2", "--format", "csv"]).status.success());
        for t in ["hit_probability", "time_to_kill", "ttk_by_turn", "cost_efficiency"] {
            let a = fs::read(dir.path().join("one").join(format!("{t}.csv"))).unwrap();
            let b = fs::read(dir.path().join("two").join(format!("{t}.csv"))).unwrap();
            assert!(a == b, "{t} differs between 1 and 2 threads");
        }
        assert!(!dir.path().join("one/time_to_kill.parquet").exists(), "--format csv writes only CSV");
    }

    #[test]
    fn sweep_and_ttk_agree_on_the_same_cell() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario_file(dir.path(), "small.toml", SMALL);
        assert!(sweep(dir.path(), &scenario, "r", &["--format", "parquet"]).status.success());
        let ttk = parquet(&dir.path().join("r/time_to_kill.parquet"));
        let j = json_of(&[
            "ttk",
            "--attacker",
            "Dwarf ALPHA",
            "--target",
            "Stingray",
            "--range",
            "30",
            "--cover",
            "half",
            "--smoke",
            "designated",
            "--trials",
            "20000",
            "--seed",
            "3",
            "--max-turns",
            "8",
            "--format",
            "json",
        ]);
        let i = (0..ttk.height())
            .find(|&i| {
                cell(&ttk, "attacker", i) == "Dwarf ALPHA"
                    && cell(&ttk, "target", i) == "Stingray"
                    && num(&ttk, "range", i) == Some(30.0)
                    && cell(&ttk, "cover", i) == "half"
                    && cell(&ttk, "smoke", i) == "designated"
            })
            .unwrap();
        assert_eq!(num(&ttk, "mean_turns", i), j["mean_turns"].as_f64());
        assert_eq!(num(&ttk, "p_kill", i), j["p_kill"].as_f64());
    }

    #[test]
    fn duel_scenarios_write_a_duels_table() {
        let dir = tempfile::tempdir().unwrap();
        let text = "name = \"d\"\nengagement = \"duel\"\nseed = 3\ntrials = 5000\nattackers = [\"Dwarf ALPHA\", \"Troll Brawler\"]\nopponents = [\"kind:vehicle\"]\n[grid]\nrange = [12, 24]\n";
        let scenario = scenario_file(dir.path(), "d.toml", text);
        let out = sweep(dir.path(), &scenario, "d", &[]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let duels = parquet(&dir.path().join("d/duels.parquet"));
        assert_eq!(duels.height(), 2 * 3 * 2);
        // Each row's outcomes, as counts, cover its duels exactly once (draws are mutual
        // kills plus timeouts, each counted apart) and are the engine's own counts for
        // that cell under the sweep's key and seed.
        for i in 0..duels.height() {
            let n = num(&duels, "trials", i).unwrap();
            assert_eq!(n, 5000.0);
            let counts = duel_outcome_counts(|col| num(&duels, col, i).unwrap(), 5000, &format!("row {i}"));
            let (a, b) = (cell(&duels, "a", i), cell(&duels, "b", i));
            let engine = engine_duel_counts(&a, &b, num(&duels, "range", i).unwrap(), 3, 5000);
            assert_eq!(counts, engine, "row {i}");
        }
        assert!(dir.path().join("d/hit_probability.csv").exists());
    }

    /// Runs a bad scenario; checks the exit code, the message, and that nothing was written.
    fn refused(text: &str, needles: &[&str]) {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario_file(dir.path(), "bad.toml", text);
        let out = sweep(dir.path(), &scenario, "out", &[]);
        assert_eq!(out.status.code(), Some(1), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        for n in needles {
            assert!(err.contains(n), "missing `{n}` in:\n{err}");
        }
        let left: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 1, "wrote something: {left:?}");
    }

    #[test]
    fn bad_scenarios_are_refused_with_file_and_key() {
        refused(
            &SMALL.replace("\"Gladiator Lancer\"", "\"Gladiator Lancr\""),
            &["bad.toml:7:", "field `attackers[1]`", "did you mean `Gladiator Lancer`?"],
        );
        refused(
            &SMALL.replace("\"ac:5\"", "\"Stingrey\""),
            &["bad.toml:8:", "field `targets[1]`", "did you mean `Stingray`?"],
        );
        refused(
            &SMALL.replace("cover = [\"none\", \"half\"]", "cover = []"),
            &["field `grid.cover`", "at least one value"],
        );
        refused(&SMALL.replace("\"designated\"", "\"fog\""), &["field `grid.smoke`", "unknown smoke `fog`"]);
        refused(&SMALL.replace("trials = 20000", "trials = 0"), &["field `trials`", "must be between 1 and"]);
        refused(&SMALL.replace("trials = 20000", "precision = 0.9"), &["field `precision`", "precision must be"]);
        refused(
            &SMALL.replace("engagement = \"attack-run\"", "engagement = \"duel\""),
            &["field `opponents`", "a duel scenario needs opponents"],
        );
        refused(&SMALL.replace("[grid]", "[grid]\nwind = [1]"), &["field `grid.wind`", "unknown key"]);
        refused("name = \"x\"\ntargets = [\"ac:1\"]\n", &["field `attackers`", "needs attackers"]);
        refused(
            &(SMALL.to_string() + "[charts]\nttk_conditions = [{ range = 24 }]\n"),
            &["field `charts.ttk_conditions[0]`", "range 24 is not in the grid"],
        );
        refused("name = \"x\"\nattackers = [\"Dwarf ALPHA\"\n", &["bad.toml:2:", "not valid TOML"]);
    }

    #[test]
    fn existing_or_unwritable_output_is_refused_before_any_work() {
        let dir = tempfile::tempdir().unwrap();
        let scenario = scenario_file(dir.path(), "small.toml", SMALL);
        fs::create_dir(dir.path().join("taken")).unwrap();
        let out = sweep(dir.path(), &scenario, "taken", &[]);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("already exists"));
        assert_eq!(fs::read_dir(dir.path().join("taken")).unwrap().count(), 0);
        assert!(sweep(dir.path(), &scenario, "taken", &["--force", "--trials", "1000"]).status.success());
        assert!(dir.path().join("taken/time_to_kill.csv").exists());
        // a file where the parent directory should be
        fs::write(dir.path().join("blocker"), "x").unwrap();
        let out = sweep(dir.path(), &scenario, "blocker/report", &[]);
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot"), "{}", String::from_utf8_lossy(&out.stderr));
        let out = volley().current_dir(dir.path()).args(["sweep", "no-such-scenario"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("built in: battles, duels, mechcom-duels, mechcom-quick, mechcom-standard, quick, shellshock-duels, shellshock-quick, shellshock-standard, skirmishers-quick, skirmishers-standard, standard")
        );
    }

    /// Parses a built-in scenario with its ruleset and resolves it against that ruleset's
    /// built-in catalogue: the number of attackers it selects (battles: of forces).
    struct Resolve(String);

    impl volley::rules::Visit for Resolve {
        type Output = usize;
        fn visit<R: volley::rules::Ruleset>(self) -> usize {
            let cat = volley::catalogue::Layers::base(None, R::NAME).load(R::load).unwrap();
            let s = volley::sweep::ScenarioText::load(&self.0).unwrap().parse::<R>().unwrap();
            let r = s.resolve::<R>(&cat).unwrap();
            r.attackers.len() + r.forces.len()
        }
    }

    fn attackers_of(name: &str) -> usize {
        let text = volley::sweep::ScenarioText::load(name).unwrap();
        text.ruleset().unwrap().unwrap_or_default().visit(Resolve(name.to_string()))
    }

    #[test]
    fn built_in_scenarios_parse_and_resolve() {
        for name in volley::sweep::scenario::embedded_names() {
            assert!(attackers_of(&name) > 0, "{name}");
        }
        assert_eq!(attackers_of("standard"), 7, "every MSV build");
    }
}

mod charts {
    use super::*;
    use std::path::Path;

    const SCENARIO: &str = r#"
name = "charted"
trials = 2000
max_turns = 6
attackers = ["Dwarf ALPHA", "Beagle Hunter"]
targets = ["ac:2", "ac:5"]
[grid]
range = [12, 30]
smoke = ["none", "smoke"]
"#;

    fn files(dir: &Path, ext: &str) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), fs::read(&p).unwrap()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn every_chart_is_a_valid_file_and_volley_chart_redraws_them_identically() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("s.toml"), SCENARIO).unwrap();
        let out = volley().current_dir(dir.path()).args(["sweep", "s.toml", "--out", "r", "--quiet"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let report = dir.path().join("r");
        let charts = report.join("charts");
        let pngs = files(&charts, "png");
        let svgs = files(&charts, "svg");
        // 3 hit-chance weapons x (cover, range) + ttk + 3 cost charts
        assert_eq!(pngs.len(), 3 * 2 + 1 + 3, "{:?}", pngs.iter().map(|p| &p.0).collect::<Vec<_>>());
        assert_eq!(svgs.len(), pngs.len());
        for (name, bytes) in &pngs {
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes.as_slice()));
            let mut reader = decoder.read_info().unwrap_or_else(|e| panic!("{name}: {e}"));
            let info = reader.info().clone();
            assert_eq!(info.width, 3000, "{name}");
            assert!(info.height >= 900, "{name}");
            let dims = info.pixel_dims.expect("pHYs chunk");
            assert_eq!((dims.xppu, dims.unit), (11811, png::Unit::Meter), "{name}: 300 dpi");
            let mut buf = vec![0; reader.output_buffer_size().unwrap()];
            reader.next_frame(&mut buf).unwrap();
            assert!(buf.iter().any(|&b| b < 128), "{name} is blank");
        }
        for (name, bytes) in &svgs {
            let text = std::str::from_utf8(bytes).unwrap();
            let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(doc.root_element().tag_name().name(), "svg");
            assert!(doc.descendants().filter(|n| n.has_tag_name("text")).count() > 5, "{name} has no labels");
            assert!(text.contains("volley ") && text.contains("seed 1"), "{name} lacks its footer");
        }
        let html = fs::read_to_string(report.join("index.html")).unwrap();
        assert!(
            !html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<script"),
            "self-contained"
        );
        assert_eq!(html.matches("<svg").count(), svgs.len(), "every chart inline");
        let md = fs::read_to_string(report.join("index.md")).unwrap();
        assert!(
            md.contains("## Headline findings")
                && md.contains("charts/ttk.png")
                && md.contains("(time_to_kill.parquet)")
        );
        // Redraw from the files alone: the same bytes.
        fs::remove_dir_all(&charts).unwrap();
        fs::remove_file(report.join("index.html")).unwrap();
        let out = volley().args(["chart", "--quiet"]).arg(&report).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(files(&charts, "svg") == svgs, "SVGs differ after volley chart");
        assert!(files(&charts, "png") == pngs, "PNGs differ after volley chart");
        assert_eq!(fs::read_to_string(report.join("index.html")).unwrap(), html);
        // ... and from CSV alone when the Parquet files are gone.
        for (name, _) in files(&report, "parquet") {
            fs::remove_file(report.join(name)).unwrap();
        }
        assert!(volley().args(["chart", "--quiet"]).arg(&report).output().unwrap().status.success());
        assert!(files(&charts, "svg") == svgs, "SVGs differ when redrawn from CSV");
        let out = volley().args(["chart"]).arg(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&out.stderr).contains("not a volley report"));
    }

    #[test]
    fn odds_card_writes_png_and_svg() {
        let dir = tempfile::tempdir().unwrap();
        let out = volley().current_dir(dir.path()).args(["odds-card", "Dwarf ALPHA"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let png = fs::read(dir.path().join("odds-card-dwarf-alpha.png")).unwrap();
        let info = png::Decoder::new(std::io::Cursor::new(png.as_slice())).read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), (2550, 3300), "US Letter at 300 dpi");
        let svg = fs::read_to_string(dir.path().join("odds-card-dwarf-alpha.svg")).unwrap();
        roxmltree::Document::parse(&svg).unwrap();
        // the worked example's cell: AC2 at range 27 in smoke needs a 5
        let out = volley()
            .current_dir(dir.path())
            .args(["odds-card", "Dwarf ALPHA", "--ranges", "27", "--out", "card.svg"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let svg = fs::read_to_string(dir.path().join("card.svg")).unwrap();
        assert!(svg.contains("roll ≤5"), "the worked example's roll");
        let out =
            volley().current_dir(dir.path()).args(["odds-card", "Dwarf ALPHA", "--out", "card.pdf"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(fs::read(dir.path().join("card.pdf")).unwrap().starts_with(b"%PDF-"));
    }
}

mod compare {
    use super::*;

    fn compare_json(args: &[&str]) -> serde_json::Value {
        let mut v = vec!["compare"];
        v.extend_from_slice(args);
        v.extend_from_slice(&["--format", "json", "--quiet"]);
        json_of(&v)
    }

    #[test]
    fn a_build_compared_with_itself_differs_by_exactly_zero() {
        for extra in [
            &["--against", "meta", "--trials", "20000"][..],
            &["--target", "ac:4", "--target", "Stingray", "--trials", "20000"][..],
        ] {
            let mut args = vec!["Dwarf ALPHA", "Dwarf ALPHA"];
            args.extend_from_slice(extra);
            let j = compare_json(&args);
            for part in std::iter::once(&j["overall"]).chain(j["matchups"].as_array().unwrap()) {
                assert_eq!(part["difference"], 0.0);
                // no spread in the sample, but an honest interval: symmetric, not [0, 0]
                let (low, high) =
                    (part["difference_ci95"][0].as_f64().unwrap(), part["difference_ci95"][1].as_f64().unwrap());
                assert!(low < 0.0 && high > 0.0 && low == -high, "{low} {high}");
                assert_eq!(part["significant"], false);
            }
            for key in ["metric", "a", "b", "difference", "difference_ci95", "independent_ci95"] {
                assert!(j["overall"].get(key).is_some(), "overall lacks {key}");
            }
        }
    }

    #[test]
    fn swapping_a_and_b_flips_the_sign_exactly() {
        let ab = compare_json(&["Gladiator Skirmisher", "Dwarf ALPHA", "--against", "meta", "--trials", "20000"]);
        let ba = compare_json(&["Dwarf ALPHA", "Gladiator Skirmisher", "--against", "meta", "--trials", "20000"]);
        let f = |v: &serde_json::Value| v.as_f64().unwrap();
        assert_eq!(f(&ab["overall"]["difference"]), -f(&ba["overall"]["difference"]));
        assert_eq!(f(&ab["overall"]["a"]), f(&ba["overall"]["b"]));
        for (x, y) in ab["matchups"].as_array().unwrap().iter().zip(ba["matchups"].as_array().unwrap()) {
            assert_eq!(x["opponent"], y["opponent"]);
            assert_eq!(f(&x["difference"]), -f(&y["difference"]));
            assert_eq!(f(&x["difference_ci95"][0]), -f(&y["difference_ci95"][1]));
        }
    }

    #[test]
    fn pairing_narrows_the_interval_for_similar_builds() {
        // Dwarf BRAVO: Dwarf ALPHA with a SEER instead of the smoke launcher.
        let dir = tempfile::tempdir().unwrap();
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander");
        for e in fs::read_dir(src).unwrap() {
            let p = e.unwrap().path();
            fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
        }
        fs::write(
            dir.path().join("bravo.toml"),
            "[[build]]\nname = \"Dwarf BRAVO\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Devastator\", count = 2 }]\ngear = [\"SEER\"]\n",
        )
        .unwrap();
        let out = volley()
            .args([
                "compare",
                "Dwarf BRAVO",
                "Dwarf ALPHA",
                "--against",
                "meta",
                "--smoke",
                "smoke",
                "--range",
                "20",
                "--trials",
                "40000",
                "--format",
                "json",
                "--loadouts",
            ])
            .arg(dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let half = |v: &serde_json::Value| (v[1].as_f64().unwrap() - v[0].as_f64().unwrap()) / 2.0;
        let (paired, independent) = (half(&j["overall"]["difference_ci95"]), half(&j["overall"]["independent_ci95"]));
        // Without pairing the ratio would be 1.00 ± ~0.01 at this size (the two variance
        // estimates each have a relative error of about √(2/n)); 0.9 leaves no room for
        // that to pass by chance. Measured: 0.83.
        assert!(paired < 0.9 * independent, "paired {paired} vs independent {independent}");
        assert_eq!(j["overall"]["significant"], true, "thermal sight in smoke is a real edge");
        assert!(j["overall"]["difference"].as_f64().unwrap() > 0.0);
    }

    #[test]
    fn compare_needs_something_to_face() {
        let out = volley().args(["compare", "Dwarf ALPHA", "Troll Brawler"]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "nothing to face is a usage error");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--against FIELD"));
        let out =
            volley().args(["compare", "Dwarf ALPHA", "Troll Brawler", "--against", "nosuchfield"]).output().unwrap();
        assert!(String::from_utf8_lossy(&out.stderr).contains("neither a field"));
    }
}

mod gauntlet {
    use super::*;
    use polars::prelude::{ParquetReader, SerReader};

    fn run(dir: &std::path::Path, field: &str, out: &str) -> (volley::output::Table, volley::output::Table) {
        let o = volley()
            .current_dir(dir)
            .args([
                "gauntlet",
                "Dwarf ALPHA",
                "Paladin Siege",
                "--field",
                field,
                "--range",
                "20",
                "--trials",
                "5000",
                "--quiet",
                "--out",
                out,
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains("best matchup"));
        let read = |name: &str| {
            let f = fs::File::open(dir.join(out).join(format!("{name}.parquet"))).unwrap();
            volley::output::read::from_dataframe(&ParquetReader::new(f).finish().unwrap())
        };
        (read("gauntlet_summary"), read("gauntlet_matchups"))
    }

    #[test]
    fn weights_change_the_weighted_result_as_the_arithmetic_says() {
        let dir = tempfile::tempdir().unwrap();
        let (summary, matchups) = run(dir.path(), "meta", "meta");
        let (flat, flat_matchups) =
            run(dir.path(), "Dwarf ALPHA,Gladiator Lancer,Beagle Hunter,Pigeonhawk Standard,Stingray Standard", "flat");
        for (s, m) in [(&summary, &matchups), (&flat, &flat_matchups)] {
            for i in 0..s.rows.len() {
                let build = s.text(i, "build").unwrap();
                let rows: Vec<usize> = (0..m.rows.len()).filter(|&j| m.text(j, "build") == Some(build)).collect();
                let wsum: f64 = rows.iter().map(|&j| m.float(j, "weight").unwrap()).sum();
                let expect =
                    rows.iter().map(|&j| m.float(j, "weight").unwrap() * m.float(j, "p_win").unwrap()).sum::<f64>()
                        / wsum;
                assert!((s.float(i, "weighted_p_win").unwrap() - expect).abs() < 1e-12, "{build}");
            }
        }
        // the same duels (same cells, same seed), different weights: meta weighs the Dwarf 3
        assert_eq!(matchups.float(0, "p_win"), flat_matchups.float(0, "p_win"));
        assert_ne!(summary.float(0, "weighted_p_win"), flat.float(0, "weighted_p_win"));
        let meta_weights: Vec<f64> = (0..5).map(|j| matchups.float(j, "weight").unwrap()).collect();
        assert_eq!(meta_weights, vec![3.0, 2.0, 2.0, 2.0, 1.0]);
        assert!(dir.path().join("meta/charts/gauntlet-win-rate.png").exists());
        assert!(dir.path().join("meta/index.html").exists());
    }
}

#[path = "cli/stats.rs"]
mod stats;

mod snapshots {
    use super::*;

    /// Exact exports are pinned: a change to any number the kernel reports, or to the
    /// format, shows up as a snapshot diff.
    #[test]
    fn exact_odds_exports_are_stable() {
        let json = stdout_of(&[
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
        insta::assert_snapshot!("odds_worked_example_json", json);
        let csv = stdout_of(&[
            "odds",
            "--attacker",
            "Paladin Siege",
            "--target-ac",
            "4",
            "--range",
            "30",
            "--cover",
            "half",
            "--status",
            "dug-in",
            "--format",
            "csv",
        ]);
        insta::assert_snapshot!("odds_paladin_csv", csv);
        let exact = stdout_of(&[
            "ttk",
            "--attacker",
            "Beagle Hunter",
            "--target",
            "ECBS Troop",
            "--exact",
            "--max-turns",
            "6",
            "--format",
            "csv",
        ]);
        insta::assert_snapshot!("ttk_exact_beagle_vs_troop_csv", exact);
    }
}

#[path = "cli/battles.rs"]
mod battles;
#[path = "cli/diff.rs"]
mod diff;
#[path = "cli/dmteams.rs"]
mod dmteams;
#[path = "cli/edition.rs"]
mod edition;
#[path = "cli/exactfit.rs"]
mod exactfit;
#[path = "cli/mechcom.rs"]
mod mechcom;
#[path = "cli/mechcom_exact.rs"]
mod mechcom_exact;
#[path = "cli/oddscard.rs"]
mod oddscard;
#[path = "cli/oddscard_rooms.rs"]
mod oddscard_rooms;
#[path = "cli/passengers.rs"]
mod passengers;
#[path = "cli/plumbing.rs"]
mod plumbing;
#[path = "cli/safety.rs"]
mod safety;
#[path = "cli/seat_matrix.rs"]
mod seat_matrix;
#[path = "cli/seatings.rs"]
mod seatings;
#[path = "cli/shard.rs"]
mod shard;
#[path = "cli/shard_more.rs"]
mod shard_more;
#[path = "cli/shellshock.rs"]
mod shellshock;
#[path = "cli/skirmishers.rs"]
mod skirmishers;
#[path = "cli/special.rs"]
mod special;
#[path = "cli/teams_lists.rs"]
mod teams_lists;
#[path = "cli/vary.rs"]
mod vary;

#[path = "cli/crn.rs"]
mod crn;

#[path = "cli/books_rooms.rs"]
mod books_rooms;
#[path = "cli/books_tc.rs"]
mod books_tc;
#[path = "cli/bubble_shield.rs"]
mod bubble_shield;
#[path = "cli/chart_defects.rs"]
mod chart_defects;
#[path = "cli/conformance/mod.rs"]
mod conformance;
#[path = "cli/defaults.rs"]
mod defaults;
#[path = "cli/engagement_facts.rs"]
mod engagement_facts;
#[path = "cli/envelope.rs"]
mod envelope;
#[path = "cli/faults_campaign.rs"]
mod faults_campaign;
#[path = "cli/fuzz_dirs.rs"]
mod fuzz_dirs;
#[path = "cli/mechcom_heat.rs"]
mod mechcom_heat;
#[path = "cli/meta.rs"]
mod meta;
#[path = "cli/mode_flags.rs"]
mod mode_flags;
#[path = "cli/names.rs"]
mod names;
#[path = "cli/one_sided.rs"]
mod one_sided;
#[path = "cli/options_syntax.rs"]
mod options_syntax;
#[path = "cli/patch_notes.rs"]
mod patch_notes;
#[path = "cli/readme_examples.rs"]
mod readme_examples;
#[path = "cli/search.rs"]
mod search;
#[path = "cli/search_forces.rs"]
mod search_forces;
#[path = "cli/search_mechcom.rs"]
mod search_mechcom;
#[path = "cli/search_metrics.rs"]
mod search_metrics;
#[path = "cli/search_shards.rs"]
mod search_shards;
#[path = "cli/search_shellshock.rs"]
mod search_shellshock;
#[path = "cli/search_skirmishers.rs"]
mod search_skirmishers;
#[path = "cli/shellshock_rules.rs"]
mod shellshock_rules;
#[path = "cli/techcommander_book.rs"]
mod techcommander_book;
#[path = "cli/verdicts.rs"]
mod verdicts;
