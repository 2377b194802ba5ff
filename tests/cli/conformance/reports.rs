//! `sweep` (a small scenario of the fixture's names), `sweep --shard K/N` + `merge`,
//! `chart` and `diff` on every ruleset and catalogue.

use super::*;

/// The detail tables of each ruleset hold exact values only.
const EXACT_TABLES: &[&str] = &["hit_probability", "attack_odds", "track_odds", "gunner_odds"];
/// Tables every ruleset's attack-run sweep writes.
const SWEEP_TABLES: &[&str] = &["cost_efficiency", "time_to_kill", "ttk_by_turn"];

/// `sweep FILE` of attack runs and of duels: exit 0, every table within the contract.
#[test]
fn contract_sweep_of_a_scenario() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        for engagement in ["attack-run", "duel"] {
            let scenario = case.scenario(tmp.path(), engagement);
            let out = tmp.path().join(engagement);
            let run = case.run(&[
                "sweep",
                scenario.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--format",
                "csv",
                "--no-charts",
                "-q",
            ]);
            if p.ok(&run, false) {
                let tables = p.report_dir(&run.what, &out, EXACT_TABLES);
                let expected: &[&str] = if engagement == "duel" { &["duels"] } else { SWEEP_TABLES };
                for t in expected {
                    if !tables.iter().any(|x| x == t) {
                        p.add(format!("{}: no {t}.csv among {tables:?}", run.what));
                    }
                }
            }
        }
    }
    p.finish();
}

/// `sweep --shard 1/2` and `2/2`, then `merge`: the merged tables are the ones a single
/// process writes, byte for byte.
#[test]
fn contract_shard_and_merge() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let scenario = case.scenario(tmp.path(), "attack-run");
        let s = scenario.to_str().unwrap();
        let dir = |name: &str| tmp.path().join(name).display().to_string();
        let whole = case.run(&["sweep", s, "--out", &dir("whole"), "--format", "csv", "--no-charts", "-q"]);
        let mut shards = Vec::new();
        for k in ["1/2", "2/2"] {
            let d = dir(&format!("shard{}", &k[..1]));
            p.ok(&case.run(&["sweep", s, "--shard", k, "--out", &d, "-q"]), false);
            shards.push(d);
        }
        let merged = case.run(&[
            "merge",
            &shards[0],
            &shards[1],
            "--out",
            &dir("merged"),
            "--format",
            "csv",
            "--no-charts",
            "-q",
        ]);
        if p.ok(&whole, false) && p.ok(&merged, false) {
            p.report_dir(&merged.what, Path::new(&dir("merged")), EXACT_TABLES);
            for t in SWEEP_TABLES {
                let read = |d: &str| fs::read_to_string(Path::new(d).join(format!("{t}.csv"))).unwrap_or_default();
                if read(&dir("whole")) != read(&dir("merged")) || read(&dir("whole")).is_empty() {
                    p.add(format!("{}: merged {t}.csv differs from the single run's", merged.what));
                }
            }
        }
    }
    p.finish();
}

/// `chart DIR` redraws a sweep's report from its tables: exit 0, a report page.
#[test]
fn contract_chart() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let scenario = case.scenario(tmp.path(), "attack-run");
        let out = tmp.path().join("report");
        let o = out.to_str().unwrap();
        let sweep =
            case.run(&["sweep", scenario.to_str().unwrap(), "--out", o, "--format", "csv", "--no-charts", "-q"]);
        if p.ok(&sweep, false) && p.ok(&case.run(&["chart", o, "-q"]), false) && !out.join("index.html").exists() {
            p.add(format!("{}: `chart` wrote no index.html", case.label));
        }
    }
    p.finish();
}

/// `diff --scenario FILE OLD NEW` (NEW: OLD plus the fixture's additions): exit 0, JSON
/// rows with the common keys, CSV within the contract.
#[test]
fn contract_diff() {
    const DIFF_JSON: &[&str] =
        &["ruleset", "build", "against", "metric", "method", "old", "new", "difference", "difference_ci95"];
    const DIFF_SUMMARY_JSON: &[&str] = &["rank", "build", "verdict", "cost_old", "cost_new", "win_rate_change_ci95"];
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let scenario = case.scenario(tmp.path(), "attack-run");
        let new = tmp.path().join("new");
        fs::create_dir(&new).unwrap();
        for e in fs::read_dir(case.catalogue_path()).unwrap().flatten() {
            fs::copy(e.path(), new.join(e.file_name())).unwrap();
        }
        fs::write(new.join("zz-additions.toml"), case.names.additions).unwrap();
        let old = case.catalogue_path().display().to_string();
        let args = |format: &'static str| {
            vec![
                "diff".to_string(),
                "--scenario".into(),
                scenario.display().to_string(),
                old.clone(),
                new.display().to_string(),
                "-q".into(),
                "--format".into(),
                format.into(),
            ]
        };
        let run = |format| {
            let a = args(format);
            case.run(&a.iter().map(String::as_str).collect::<Vec<_>>())
        };
        p.ok(&run("table"), false);
        if let Some(j) = p.ok_json(&run("json"), false, &["summary", "rows"]) {
            for (part, keys) in [("rows", DIFF_JSON), ("summary", DIFF_SUMMARY_JSON)] {
                let rows = j[part].as_array().map_or(&[][..], Vec::as_slice);
                if rows.is_empty() || rows.iter().any(|r| keys.iter().any(|k| r.get(*k).is_none())) {
                    p.add(format!("{}: diff JSON `{part}` empty or without the keys {keys:?}", case.label));
                }
            }
        }
        let csv = run("csv");
        if p.ok(&csv, false) {
            p.csv(&csv.what, &csv.stdout, &|_| false);
        }
    }
    p.finish();
}

/// `cost_efficiency`'s Monte Carlo interval of the kill rate stands beside the Monte Carlo
/// estimate it belongs to (`kill_points_per_turn_per_point_mc`), not beside the exact
/// rate, which it holds only about 19 times in 20 (was: `..._ci95_low/high` beside the
/// exact value).
#[test]
fn contract_cost_efficiency_interval_holds_its_estimate() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let scenario = case.scenario(tmp.path(), "attack-run");
        let out = tmp.path().join("r");
        let o = out.to_str().unwrap();
        let run = case.run(&["sweep", scenario.to_str().unwrap(), "--out", o, "--format", "csv", "--no-charts", "-q"]);
        if p.ok(&run, false) {
            p.report_dir(&run.what, &out, EXACT_TABLES);
            let header = std::fs::read_to_string(out.join("cost_efficiency.csv")).unwrap_or_default();
            let header = header.lines().next().unwrap_or("");
            for c in ["kill_points_per_turn_per_point_mc", "kill_points_per_turn_per_point_mc_ci95_low"] {
                if !header.split(',').any(|h| h == c) {
                    p.add(format!("{}: cost_efficiency has no `{c}` column", run.what));
                }
            }
        }
    }
    p.finish();
}

/// The kinds of chart every ruleset's report draws (issue: reports at parity).
const CHART_KINDS: &[&str] = &["TTK curves", "cost bars", "per-weapon cost bars", "detail-odds heatmaps"];

/// `volley --ruleset X sweep` (X's standard scenario) draws the common chart set: the
/// time-to-kill curves, the common cost bars, a per-weapon cost chart and every detail
/// chart its manifest declares, each with something to draw. The charts are computed
/// from the report's tables as `volley chart` computes them, without rendering (fast).
#[test]
fn contract_default_report_draws_the_common_chart_set() {
    use volley::charts::{ChartKind, ReportKind, ReportTables, draw_report};
    let mut p = Problems::new();
    for fx in FIXTURES {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("r");
        let o = out.to_str().unwrap();
        let args =
            ["--ruleset", fx.ruleset, "sweep", "--trials", "4", "--out", o, "--format", "csv", "--no-charts", "-q"];
        let run = volley().args(args).output().unwrap();
        if run.status.code() != Some(0) {
            p.add(format!("{}: sweep: exit {:?}", fx.ruleset, run.status.code()));
            continue;
        }
        let manifest: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
        let drawn = ReportTables::read(&out)
            .map_err(|e| e.to_string())
            .and_then(|t| draw_report(ReportKind::AttackRunSweep, &t, &manifest).map_err(|e| e.to_string()));
        let charts = match drawn {
            Ok(d) => d.charts,
            Err(e) => {
                p.add(format!("{}: the report cannot be drawn: {e}", fx.ruleset));
                continue;
            }
        };
        let named = |name: &str| charts.iter().find(|c| c.name == name);
        let mut has = [false; 4];
        has[0] = matches!(named("ttk").map(|c| &c.kind), Some(ChartKind::Curves(c)) if !c.panels.is_empty());
        has[1] = matches!(named("cost-kill-points-per-point").map(|c| &c.kind), Some(ChartKind::Bars(b)) if !b.bars.is_empty());
        let list = |key: &str| manifest[key].as_array().cloned().unwrap_or_default();
        let weapons: Vec<String> = list("cost_charts")
            .iter()
            .filter(|c| c["weapons"] == true)
            .filter_map(|c| c["name"].as_str().map(str::to_string))
            .collect();
        has[2] = !weapons.is_empty()
            && weapons
                .iter()
                .all(|w| matches!(named(w).map(|c| &c.kind), Some(ChartKind::Bars(b)) if !b.bars.is_empty()));
        let details: Vec<String> =
            list("detail_charts").iter().filter_map(|d| d["name"].as_str().map(str::to_string)).collect();
        has[3] = !details.is_empty()
            && details.iter().all(|d| {
                charts.iter().any(|c| c.name.starts_with(&format!("{d}-")) && matches!(c.kind, ChartKind::Heatmap(_)))
            });
        for (kind, ok) in CHART_KINDS.iter().zip(has) {
            if !ok {
                let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
                p.add(format!("{}: the default report draws no {kind} (charts: {names:?})", fx.ruleset));
            }
        }
    }
    p.finish();
}

/// The reach and initiative columns every duel, battle and gauntlet table carries.
const ENGAGEMENT_COLUMNS: &[&str] = &[
    "a_can_attack",
    "b_can_attack",
    "p_a_wins_a_first",
    "p_a_wins_a_first_ci95_low",
    "p_a_wins_a_first_ci95_high",
    "p_a_wins_b_first",
    "p_a_wins_b_first_ci95_low",
    "p_a_wins_b_first_ci95_high",
    "decided_by_initiative",
];

/// Columns of `columns` missing from the header of `file` in `dir`.
fn missing_columns(dir: &Path, file: &str, columns: &[&str]) -> Vec<String> {
    let text = fs::read_to_string(dir.join(file)).unwrap_or_default();
    let header: Vec<&str> = text.lines().next().unwrap_or("").split(',').collect();
    columns.iter().filter(|c| !header.contains(c)).map(|c| c.to_string()).collect()
}

/// Duel sweeps (`duels`), battle sweeps (`battles`, where the game has battles) and
/// gauntlets (`gauntlet_matchups`) say whether each side can attack and how the win
/// rate splits by who acted first, on every ruleset (was: no such columns).
#[test]
fn contract_engagement_tables_carry_reach_and_initiative_columns() {
    let mut p = Problems::new();
    for case in cases() {
        let tmp = tempfile::tempdir().unwrap();
        let scenario = case.scenario(tmp.path(), "duel");
        let out = tmp.path().join("d");
        let o = out.to_str().unwrap();
        let run = case.run(&["sweep", scenario.to_str().unwrap(), "--out", o, "--format", "csv", "--no-charts", "-q"]);
        if p.ok(&run, false) {
            for c in missing_columns(&out, "duels.csv", ENGAGEMENT_COLUMNS) {
                p.add(format!("{}: duels has no `{c}` column", run.what));
            }
        }
        let out = tmp.path().join("g");
        let o = out.to_str().unwrap();
        let n = case.names;
        let run = case.run(&[
            "gauntlet",
            n.attacker,
            "--field",
            n.field,
            "--trials",
            "10",
            "--max-turns",
            "6",
            "-q",
            "--out",
            o,
            "--format",
            "csv",
            "--no-charts",
        ]);
        if p.ok(&run, false) {
            for c in missing_columns(&out, "gauntlet_matchups.csv", ENGAGEMENT_COLUMNS) {
                p.add(format!("{}: gauntlet_matchups has no `{c}` column", run.what));
            }
        }
        let Some((a, b)) = n.forces else { continue };
        let text = format!(
            "ruleset = \"{}\"\nname = \"conformance-battle\"\ndescription = \"conformance\"\nengagement = \"battle\"\n\
             seed = 3\ntrials = 8\nforces = [\"{a}\", \"{b}\"]\n\n[grid]\n{}\n",
            case.fx.ruleset, case.fx.grid
        );
        let scenario = tmp.path().join("battle.toml");
        fs::write(&scenario, text).unwrap();
        let out = tmp.path().join("b");
        let o = out.to_str().unwrap();
        let run = case.run(&["sweep", scenario.to_str().unwrap(), "--out", o, "--format", "csv", "--no-charts", "-q"]);
        if p.ok(&run, false) {
            for c in missing_columns(&out, "battles.csv", ENGAGEMENT_COLUMNS) {
                p.add(format!("{}: battles has no `{c}` column", run.what));
            }
        }
    }
    p.finish();
}
