//! `volley chart` on every kind of report, missing columns, text that fits its canvas,
//! and cost rankings that agree between the headline and the charts.

use super::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// An attack-run sweep with the longest build, weapon and condition names the catalogue
/// and the grid allow (limited rounds included: the Kabaaam).
const LONG_SWEEP: &str = r#"
name = "long names"
trials = 200
max_turns = 4
attackers = ["Gladiator Skirmisher", "Pigeonhawk Standard", "Hunter IV Standard", "Dwarf ALPHA"]
targets = ["Stingray", "ac:6"]
[grid]
range = [12, 36]
cover = ["none", "heavy"]
smoke = ["designated"]
movement = ["attack-and-cover"]
status = ["dug-in+hull-down"]
"#;

/// A duel sweep between long-named builds.
const LONG_DUELS: &str = r#"
name = "long duels"
engagement = "duel"
trials = 200
max_turns = 4
attackers = ["Gladiator Skirmisher", "Pigeonhawk Standard"]
opponents = ["Hunter IV Standard", "Stingray Standard", "Gladiator Lancer"]
[grid]
range = [24]
movement = ["attack-and-cover"]
"#;

/// The field of the gauntlet test: the longest build names.
const LONG_FIELD: &str =
    "Gladiator Skirmisher,Pigeonhawk Standard,Hunter IV Standard,Stingray Standard,Gladiator Lancer";

/// Every file under `dir`, relative path to bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(p.strip_prefix(dir).unwrap().to_path_buf(), fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn run_ok(dir: &Path, args: &[&str]) {
    let out = volley().current_dir(dir).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// Write a scenario and sweep it into `dir/r`.
fn sweep_report(dir: &Path, scenario: &str) -> PathBuf {
    fs::write(dir.join("s.toml"), scenario).unwrap();
    run_ok(dir, &["sweep", "s.toml", "--out", "r", "--quiet"]);
    dir.join("r")
}

fn gauntlet_report(dir: &Path) -> PathBuf {
    run_ok(
        dir,
        &["gauntlet", "Gladiator Skirmisher", "Pigeonhawk Standard", "--field", LONG_FIELD, "--range", "24"]
            .into_iter()
            .chain(["--trials", "200", "--quiet", "--out", "g"])
            .collect::<Vec<_>>(),
    );
    dir.join("g")
}

/// Delete the charts and the page, redraw with `volley chart`, and require the same bytes
/// for every file of the report.
fn redraws_identically(report: &Path, kind: &str) {
    let before = snapshot(report);
    assert!(before.keys().any(|p| p.starts_with("charts")), "{kind}: no charts drawn");
    let manifest: serde_json::Value =
        serde_json::from_slice(&before[&PathBuf::from("manifest.json")]).expect("manifest");
    assert_eq!(manifest["kind"], kind);
    fs::remove_dir_all(report.join("charts")).unwrap();
    for f in ["index.md", "index.html", "COLUMNS.md"] {
        fs::remove_file(report.join(f)).unwrap();
    }
    let out = volley().arg("chart").arg(report).output().unwrap();
    assert!(out.status.success(), "{kind}: {}", String::from_utf8_lossy(&out.stderr));
    let charts = before.keys().filter(|p| p.starts_with("charts") && p.extension().is_some_and(|e| e == "svg")).count();
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(said.contains(&format!("redrew the {charts} charts")) && said.contains(kind), "{kind}: {said}");
    let after = snapshot(report);
    assert_eq!(before.keys().collect::<Vec<_>>(), after.keys().collect::<Vec<_>>(), "{kind}: other files");
    for (path, bytes) in &before {
        assert!(after[path] == *bytes, "{kind}: {} differs after volley chart", path.display());
    }
}

/// One text element of an SVG and the box it covers, in canvas pixels.
fn text_boxes(svg: &str) -> (f64, f64, Vec<(String, [f64; 4])>) {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap_or_else(|| panic!("no {a}")).parse::<f64>().unwrap();
    let (w, h) = (num(root, "width"), num(root, "height"));
    let mut out = Vec::new();
    for t in doc.descendants().filter(|n| n.has_tag_name("text")) {
        // plotters puts the text on a line of its own
        let text = t.text().unwrap_or("").trim().to_string();
        if text.trim().is_empty() {
            continue;
        }
        let (x, y, css) = (num(t, "x"), num(t, "y"), num(t, "font-size"));
        // plotters writes font-size = size / 1.24; measure at its size, in the font the
        // charts are laid out with (an upper bound of the SVG's own DejaVu rendering)
        let size = css * 1.24;
        let (tw, _) = volley::charts::style::text_size(&text, size, t.attribute("font-weight") == Some("bold"));
        let tw = tw as f64;
        let (x0, x1) = match t.attribute("text-anchor") {
            Some("middle") => (x - tw / 2.0, x + tw / 2.0),
            Some("end") => (x - tw, x),
            _ => (x, x + tw),
        };
        let (y0, y1) = match t.attribute("dy") {
            Some("0.76em") => (y, y + size),
            Some("-0.5ex") => (y - size, y),
            _ => (y - size / 2.0, y + size / 2.0),
        };
        let mut corners = vec![(x0, y0), (x1, y0), (x0, y1), (x1, y1)];
        if let Some(tr) = t.attribute("transform") {
            let args: Vec<f64> = tr
                .trim_start_matches("rotate(")
                .trim_end_matches(')')
                .split(',')
                .map(|v| v.trim().parse().unwrap())
                .collect();
            let (a, cx, cy) = (args[0].to_radians(), args[1], args[2]);
            corners = corners
                .iter()
                .map(|&(px, py)| {
                    let (dx, dy) = (px - cx, py - cy);
                    (cx + dx * a.cos() - dy * a.sin(), cy + dx * a.sin() + dy * a.cos())
                })
                .collect();
        }
        let xs = corners.iter().map(|c| c.0);
        let ys = corners.iter().map(|c| c.1);
        let bbox = [
            xs.clone().fold(f64::INFINITY, f64::min),
            ys.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max),
            ys.fold(f64::NEG_INFINITY, f64::max),
        ];
        out.push((text, bbox));
    }
    (w, h, out)
}

/// Blank pixels every text keeps from the canvas edges (the charts keep more: this only
/// catches text that touches an edge, as rotated axis labels at x = 0 used to).
const EDGE: f64 = 10.0;

/// No text of any SVG chart of `report` extends past its canvas or touches its edges.
fn every_text_fits(report: &Path) {
    let mut checked = 0;
    for e in fs::read_dir(report.join("charts")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|e| e != "svg") {
            continue;
        }
        let (w, h, boxes) = text_boxes(&fs::read_to_string(&p).unwrap());
        for (text, b) in boxes {
            assert!(
                b[0] >= EDGE && b[1] >= EDGE && b[2] <= w - EDGE && b[3] <= h - EDGE,
                "{}: `{text}` spans x {:.0}..{:.0}, y {:.0}..{:.0} on a {w}x{h} canvas",
                p.display(),
                b[0],
                b[2],
                b[1],
                b[3]
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} texts checked");
}

#[test]
fn attack_run_sweeps_redraw_identically_and_fit_their_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let report = sweep_report(dir.path(), LONG_SWEEP);
    every_text_fits(&report);
    redraws_identically(&report, "attack-run-sweep");
}

#[test]
fn duel_sweeps_redraw_identically_and_fit_their_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let report = sweep_report(dir.path(), LONG_DUELS);
    assert!(report.join("charts/duel-matrix.svg").exists());
    every_text_fits(&report);
    redraws_identically(&report, "duel-sweep");
}

#[test]
fn gauntlets_redraw_identically_and_fit_their_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let report = gauntlet_report(dir.path());
    for name in ["gauntlet-win-rate", "gauntlet-matchups"] {
        assert!(report.join(format!("charts/{name}.svg")).exists(), "{name}");
    }
    let md = fs::read_to_string(report.join("index.md")).unwrap();
    assert!(!md.contains("| ? |") && !md.contains("null"), "{md}");
    every_text_fits(&report);
    redraws_identically(&report, "gauntlet");
    // A manifest from before `kind` was recorded: the kind is read from its contents.
    let path = report.join("manifest.json");
    let mut manifest: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    manifest.as_object_mut().unwrap().remove("kind");
    fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let before = snapshot(&report);
    let out = volley().args(["chart", "--quiet"]).arg(&report).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(snapshot(&report) == before, "an old gauntlet manifest redraws the same report");
    // A kind this volley does not know is refused, and nothing changes.
    manifest["kind"] = "skirmish".into();
    fs::write(&path, serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let before = snapshot(&report);
    let out = volley().args(["chart"]).arg(&report).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`skirmish` report") && err.contains("nothing was changed"), "{err}");
    assert!(snapshot(&report) == before);
}

/// Rewrite `TABLE.csv` without `columns`.
fn drop_csv_columns(path: &Path, columns: &[&str]) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    let keep: Vec<usize> = (0..headers.len()).filter(|&i| !columns.contains(&headers[i].as_str())).collect();
    assert!(keep.len() + columns.len() == headers.len(), "{columns:?} in {headers:?}");
    let mut w = csv::Writer::from_path(path).unwrap();
    w.write_record(keep.iter().map(|&i| &headers[i])).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        w.write_record(keep.iter().map(|&i| &rec[i])).unwrap();
    }
    w.flush().unwrap();
}

/// Rewrite `TABLE.parquet` without `columns`.
fn drop_parquet_columns(path: &Path, columns: &[&str]) {
    use polars::prelude::{ParquetReader, ParquetWriter, SerReader};
    let mut df = ParquetReader::new(fs::File::open(path).unwrap()).finish().unwrap();
    for c in columns {
        df = df.drop(c).unwrap();
    }
    ParquetWriter::new(fs::File::create(path).unwrap()).finish(&mut df).unwrap();
}

#[test]
fn missing_columns_are_all_named_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("s.toml"),
        "name = \"small\"\ntrials = 200\nmax_turns = 3\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"ac:4\"]\n",
    )
    .unwrap();
    run_ok(dir.path(), &["sweep", "s.toml", "--out", "r", "--quiet"]);
    let report = dir.path().join("r");
    // From Parquet (preferred when present) and from CSV.
    drop_parquet_columns(&report.join("cost_efficiency.parquet"), &["life_per_turn_per_point", "rounds"]);
    drop_parquet_columns(&report.join("ttk_by_turn.parquet"), &["ci95_high"]);
    fs::remove_file(report.join("hit_probability.parquet")).unwrap();
    drop_csv_columns(&report.join("hit_probability.csv"), &["p_hit"]);
    let before = snapshot(&report);
    let out = volley().arg("chart").arg(&report).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "nothing was changed",
        "table `cost_efficiency` (cost_efficiency.parquet): missing columns `rounds`, `life_per_turn_per_point`",
        "table `ttk_by_turn` (ttk_by_turn.parquet): missing column `ci95_high`",
        "table `hit_probability` (hit_probability.csv): missing column `p_hit`",
    ] {
        assert!(err.contains(needle), "lacks {needle:?}:\n{err}");
    }
    assert!(snapshot(&report) == before, "a refused redraw changed the report");
    // A whole table missing is named too.
    fs::remove_file(report.join("time_to_kill.parquet")).unwrap();
    fs::remove_file(report.join("time_to_kill.csv")).unwrap();
    let out = volley().arg("chart").arg(&report).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("table `time_to_kill`: missing"));
}

/// Rows of a CSV as maps from column to text.
fn csv_maps(path: &Path) -> Vec<BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers: Vec<String> = r.headers().unwrap().iter().map(str::to_string).collect();
    r.records().map(|rec| headers.iter().cloned().zip(rec.unwrap().iter().map(str::to_string)).collect()).collect()
}

/// The build labels of a bar chart's SVG, top to bottom.
fn bar_order(svg: &Path, builds: &[&str]) -> Vec<String> {
    let text = fs::read_to_string(svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let mut labels: Vec<(f64, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| {
            let t = n.text()?.trim().to_string();
            builds.contains(&t.as_str()).then(|| (n.attribute("y").unwrap().parse().unwrap(), t))
        })
        .collect();
    labels.sort_by(|a, b| a.0.total_cmp(&b.0));
    labels.into_iter().map(|(_, t)| t).collect()
}

#[test]
fn headline_and_cost_charts_rank_builds_by_the_same_per_turn_quantity() {
    let dir = tempfile::tempdir().unwrap();
    let builds = ["Dwarf ALPHA", "Gladiator Lancer", "Pigeonhawk Standard", "Stingray Standard"];
    fs::write(
        dir.path().join("s.toml"),
        format!(
            "name = \"cost\"\ntrials = 300\nmax_turns = 6\nattackers = {builds:?}\ntargets = [\"ac:2\", \"ac:4\"]\n\
             [grid]\nrange = [12, 24]\n[charts]\nttk_conditions = [{{ range = 24 }}]\n"
        ),
    )
    .unwrap();
    run_ok(dir.path(), &["sweep", "s.toml", "--out", "r", "--quiet"]);
    let report = dir.path().join("r");
    let rows = csv_maps(&report.join("cost_efficiency.csv"));
    let f = |r: &BTreeMap<String, String>, c: &str| r[c].parse::<f64>().unwrap();
    // Order of builds by the mean over targets of `col`, at the chart conditions (range 24).
    let order = |col: &str| {
        let mut means: Vec<(String, f64)> = builds
            .iter()
            .map(|b| {
                let v: Vec<f64> = rows
                    .iter()
                    .filter(|r| r["attacker"] == *b && r["weapon"].is_empty() && r["range"] == "24.0")
                    .map(|r| f(r, col))
                    .collect();
                assert_eq!(v.len(), 2, "{b}: one row per target");
                (b.to_string(), v.iter().sum::<f64>() / 2.0)
            })
            .collect();
        means.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        means.into_iter().map(|(b, _)| b).collect::<Vec<_>>()
    };
    let by_kill_points = order("kill_points_per_turn_per_point");
    let by_life_per_turn = order("life_per_turn_per_point");
    assert_eq!(bar_order(&report.join("charts/cost-kill-points-per-point.svg"), &builds), by_kill_points);
    assert_eq!(bar_order(&report.join("charts/cost-life-per-turn-per-point.svg"), &builds), by_life_per_turn);
    // The first cost chart on the page is the headline's ranking, and the headline names
    // its first and last builds.
    let md = fs::read_to_string(report.join("index.md")).unwrap();
    let first_cost = md.find("charts/cost-").unwrap();
    assert_eq!(&md[first_cost..first_cost + "charts/cost-kill-points".len()], "charts/cost-kill-points");
    let headline = md.lines().find(|l| l.contains("Most efficient build per point")).expect("headline");
    assert!(headline.contains("range 24"), "{headline}");
    let best = headline.find(&format!("**{}**", by_kill_points[0])).expect("best named");
    let worst = headline.find(&format!("**{}**", by_kill_points[3])).expect("worst named");
    assert!(best < worst, "{headline}");
    let life = md.lines().find(|l| l.contains("Most life taken per turn per point")).expect("life headline");
    assert!(life.find(&format!("**{}**", by_life_per_turn[0])) < life.find(&format!("**{}**", by_life_per_turn[3])));

    // Per turn, a one-system MSV attacks once: the Dwarf ALPHA's two linked Devastators
    // (6 shots of 8 damage) against AC2 at range 12 hit on 14 (10 + fire control 1 + size
    // 2 + Wet Wire Jacks 1), p = 0.7, and each hit takes 8 / 2 = 4 life: 6 × 0.7 × 4 = 16.8
    // life per turn, 4.2 per point (4 points), whereas counting two actions would double it.
    let dwarf = rows
        .iter()
        .find(|r| {
            r["attacker"] == "Dwarf ALPHA" && r["weapon"].is_empty() && r["target"] == "ac:2" && r["range"] == "12.0"
        })
        .unwrap();
    assert_eq!(dwarf["attacks_per_turn"], "1");
    assert!((f(dwarf, "expected_life_loss_per_turn") - 16.8).abs() < 1e-9, "{dwarf:?}");
    assert!((f(dwarf, "life_per_turn_per_point") - 4.2).abs() < 1e-9, "{dwarf:?}");
    // A two-system MSV attacks twice, and its turn is the sum of its two systems' attacks.
    let lancer: Vec<_> = rows
        .iter()
        .filter(|r| r["attacker"] == "Gladiator Lancer" && r["target"] == "ac:2" && r["range"] == "12.0")
        .collect();
    let build = lancer.iter().find(|r| r["weapon"].is_empty()).unwrap();
    assert_eq!(build["attacks_per_turn"], "2");
    let systems: f64 =
        lancer.iter().filter(|r| !r["weapon"].is_empty()).map(|r| f(r, "expected_life_loss_per_turn")).sum();
    assert!((f(build, "expected_life_loss_per_turn") - systems).abs() < 1e-9);
    // Limited rounds are stated: the Kabaaam's 6, in the table and on the per-ton chart.
    let kabaaam = rows.iter().find(|r| r["weapon"] == "Kabaaam").unwrap();
    assert_eq!(kabaaam["rounds"], "6");
    let per_ton = fs::read_to_string(report.join("charts/cost-weapon-life-per-ton.svg")).unwrap();
    assert!(per_ton.contains("Kabaaam (Pigeonhawk Standard; 6 rounds)"));
    // The page links the column guide written beside the tables.
    assert!(md.contains("[COLUMNS.md](COLUMNS.md)"));
    let guide = fs::read_to_string(report.join("COLUMNS.md")).unwrap();
    assert_eq!(guide, include_str!("../../reports/COLUMNS.md"));
    for column in ["expected_life_loss_per_turn", "life_per_turn_per_point", "attacks_per_turn", "rounds"] {
        assert!(guide.contains(&format!("`{column}`")), "{column} undocumented");
    }
}

/// A report of a made-up ruleset, written by hand: axes `altitude` (a number, listed
/// 200 before 50), `weather` and `wind` (listed in an order that is not the alphabet's),
/// rounds instead of turns, and a detail table `landing_odds` charted by its manifest.
fn made_up_report(dir: &Path) -> PathBuf {
    let report = dir.join("r");
    fs::create_dir(&report).unwrap();
    let manifest = serde_json::json!({
        "volley_version": "0.0.0",
        "kind": "attack-run-sweep",
        "ruleset": "skyball",
        "axes": [
            {"name": "altitude", "kind": "number", "unit": "metres", "label": "Altitude (metres)", "values": ["200", "50"]},
            {"name": "weather", "kind": "choice", "label": "Weather", "values": ["storm", "clear", "rain"]},
            {"name": "wind", "kind": "choice", "label": "Wind", "values": ["calm", "gusty"]},
        ],
        "turn": "round",
        "detail_charts": [{"table": "landing_odds", "value": "p_land", "value_label": "Landing chance",
            "per": ["attacker", "weapon"], "rows": "target", "row_order": "target_mass", "row_order_label": "mass ",
            "x_axes": ["weather", "altitude"], "panel_axis": "wind"}],
        "cost_charts": [
            {"name": "cost-life-per-turn-per-point", "column": "life_per_turn_per_point", "weapons": false,
             "title": "Lift per {turn}, per point", "value_label": "lift per {turn} per point",
             "finding": "Most lift per {turn} per point", "unit": "lift"},
            {"name": "cost-weapon-life-per-ton", "column": "life_per_ton", "weapons": true,
             "title": "Gear: lift per use, per ton", "value_label": "lift per ton",
             "finding": "Gear that lifts most per ton", "unit": "lift per ton", "note": {"column": "rounds", "word": "uses"}}],
        "scenario": {"name": "made up", "engagement": "attack-run", "policy": "greedy", "max_turns": 4,
            "chart_conditions": [{"altitude": "50"}, {"weather": "storm", "wind": "gusty"}]},
        "scenario_file": "made-up.toml",
        "seed": 7,
        "trials_per_cell": {"fixed": 100},
        "cells": 48,
        "engagements": 4800,
        "catalogue": {"origin": "by hand", "hash": "0123456789abcdef"},
        "attackers": ["Glider", "Zeppelin"],
        "targets": ["Barge", "Kite"],
        "files": ["time_to_kill.csv", "ttk_by_turn.csv", "cost_efficiency.csv", "landing_odds.csv"],
    });
    fs::write(report.join("manifest.json"), serde_json::to_string_pretty(&manifest).unwrap()).unwrap();
    let write = |name: &str, header: &[&str], rows: Vec<Vec<String>>| {
        let mut w = csv::Writer::from_path(report.join(format!("{name}.csv"))).unwrap();
        w.write_record(header).unwrap();
        for r in rows {
            w.write_record(&r).unwrap();
        }
        w.flush().unwrap();
    };
    // every cell of the grid: (altitude, weather, wind, a number that tells cells apart)
    let mut cells = Vec::new();
    for (alt, a) in [("50.0", 0.2), ("200.0", 0.0)] {
        for (weather, w) in [("rain", 0.01), ("clear", 0.02), ("storm", 0.03)] {
            for (wind, v) in [("gusty", 0.001), ("calm", 0.002)] {
                cells.push((alt, weather, wind, a + w + v));
            }
        }
    }
    let targets = [("Kite", "2", 0.3), ("Barge", "9", 0.1)];
    let s = |x: f64| x.to_string();
    let conditions = |alt: &str, weather: &str, wind: &str| [alt.to_string(), weather.to_string(), wind.to_string()];
    let mut ttk = Vec::new();
    let mut by_round = Vec::new();
    let mut cost = Vec::new();
    let mut odds = Vec::new();
    for (attacker, weapon, b) in [("Glider", "Flaps", 0.0), ("Zeppelin", "Ropes", 0.4)] {
        for &(alt, weather, wind, c) in &cells {
            for (target, mass, t) in targets {
                let p = t + c + b;
                let key = ["skyball", attacker, target, mass].map(str::to_string);
                ttk.push([&key[..], &conditions(alt, weather, wind), &[s(1.0 - p), s(1.0 - p), s(1.0 / p)]].concat());
                for round in 1..=4 {
                    let q = 1.0 - (1.0 - p).powi(round);
                    let band = [s(round as f64), s(q), s((q - 0.05).max(0.0)), s((q + 0.05).min(1.0))];
                    by_round.push([&key[..], &conditions(alt, weather, wind), &band].concat());
                }
                let k = p / 3.0;
                for (weapon, rounds, per_ton) in [("", "", String::new()), (weapon, "6", s(p / 2.0))] {
                    let vals = [s(k), s(k - 0.01), s(k + 0.01), s(p), per_ton];
                    let head = ["skyball", attacker, weapon, rounds, target].map(str::to_string);
                    cost.push([&head[..], &conditions(alt, weather, wind), &vals].concat());
                }
                let land = ["skyball", attacker, weapon, target, mass].map(str::to_string);
                odds.push([&land[..], &conditions(alt, weather, wind), &[s(p)]].concat());
            }
        }
    }
    let axes = ["altitude", "weather", "wind"];
    let cols =
        |before: &[&'static str], after: &[&'static str]| -> Vec<&'static str> { [before, &axes[..], after].concat() };
    let key = ["ruleset", "attacker", "target", "target_mass"];
    write("time_to_kill", &cols(&key, &["p_kill", "exact_p_kill", "exact_mean_turns"]), ttk);
    write("ttk_by_turn", &cols(&key, &["turn", "p_killed_by_turn", "ci95_low", "ci95_high"]), by_round);
    let money = [
        "kill_points_per_turn_per_point",
        "kill_points_per_turn_per_point_mc_ci95_low",
        "kill_points_per_turn_per_point_mc_ci95_high",
        "life_per_turn_per_point",
        "life_per_ton",
    ];
    write("cost_efficiency", &cols(&["ruleset", "attacker", "weapon", "rounds", "target"], &money), cost);
    write("landing_odds", &cols(&["ruleset", "attacker", "weapon", "target", "target_mass"], &["p_land"]), odds);
    report
}

/// The text of the `<text>` elements of an SVG, left to right.
fn texts_left_to_right(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let mut v: Vec<(f64, String)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| Some((n.attribute("x")?.parse().ok()?, n.text()?.trim().to_string())))
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v.into_iter().map(|(_, t)| t).collect()
}

#[test]
fn a_made_up_ruleset_draws_by_its_axis_names() {
    let dir = tempfile::tempdir().unwrap();
    let report = made_up_report(dir.path());
    let out = volley().arg("chart").arg(&report).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let charts = report.join("charts");
    // the second chart condition set: altitude at its first listed value, 200
    for name in [
        "ttk",
        "ttk-a200-storm-gusty",
        "cost-kill-points-per-point",
        "cost-life-per-turn-per-point-a200-storm-gusty",
        "cost-weapon-life-per-ton",
        "landing-odds-glider-flaps-weather",
        "landing-odds-glider-flaps-altitude",
        "landing-odds-zeppelin-ropes-weather",
    ] {
        for ext in ["svg", "png"] {
            assert!(charts.join(format!("{name}.{ext}")).exists(), "{name}.{ext}");
        }
    }
    let svg = |name: &str| fs::read_to_string(charts.join(format!("{name}.svg"))).unwrap();
    // The detail heatmap: weather in the axis's order, targets by mass, a panel per wind.
    let weather = svg("landing-odds-glider-flaps-weather");
    assert!(weather.contains("Weather") && weather.contains("wind: calm") && weather.contains("wind: gusty"));
    assert!(weather.contains("Landing chance") && weather.contains("altitude 50"), "title at the chart conditions");
    assert!(weather.contains("Kite (mass 2)") && weather.contains("Barge (mass 9)"));
    let order: Vec<String> = texts_left_to_right(&weather)
        .into_iter()
        .filter(|t| ["storm", "clear", "rain"].contains(&t.as_str()))
        .collect();
    assert_eq!(order[..3], ["storm", "clear", "rain"], "the axis's order, not the alphabet's");
    let altitude = svg("landing-odds-glider-flaps-altitude");
    // the first chart condition set leaves weather and wind at their first listed values
    assert!(altitude.contains("Altitude (metres)") && altitude.contains("weather storm"));
    // Kite (p 0.3) at altitude 50 (+0.2), storm (+0.03), calm (+0.002): 53.2%
    assert!(altitude.contains("53.2%"), "the cell's value as a percentage");
    // Curves and bars speak of rounds, and every footer names the ruleset.
    let ttk = svg("ttk");
    assert!(ttk.contains("Round") && ttk.contains("by round") && ttk.contains("altitude 50, weather storm, wind calm"));
    for e in fs::read_dir(&charts).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "svg") {
            let text = fs::read_to_string(&p).unwrap();
            assert!(text.contains("· skyball ·"), "{}: footer", p.display());
            for word in ["cover", "smoke", "TechCommander", "turn"] {
                assert!(!text.contains(word), "{} says {word}", p.display());
            }
        }
    }
    // The page lists the grid by axis name with units, in the axes' order.
    let md = fs::read_to_string(report.join("index.md")).unwrap();
    for line in [
        "| Grid: altitude (metres) | 200, 50 |",
        "| Grid: weather | storm, clear, rain |",
        "| Grid: wind | calm, gusty |",
        "| Policy, round cap | greedy, 4 rounds |",
    ] {
        assert!(md.contains(line), "lacks {line:?}:\n{md}");
    }
    assert!(md.contains("charts/landing-odds-glider-flaps-weather.png"));
    let findings = &md[md.find("## Headline findings").unwrap()..md.find("## Charts").unwrap()];
    assert!(findings.contains("rounds on average") && !findings.contains("turn"), "{findings}");
    for word in ["cover", "smoke", "TechCommander"] {
        assert!(!md.contains(word), "the page says {word}");
    }
    every_text_fits(&report);
    redraws_identically(&report, "attack-run-sweep");
    // A detail chart's table lacking its value column is named, with the axis columns.
    drop_csv_columns(&report.join("landing_odds.csv"), &["p_land", "wind"]);
    let out = volley().arg("chart").arg(&report).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("table `landing_odds` (landing_odds.csv): missing columns `p_land`, `wind`"), "{err}");
}

/// A CSV table edited after the report was written is the one `chart` reads (an edit is
/// never silently ignored for the Parquet twin), and a corrupt Parquet table is an error
/// naming its file (exit 1), never a panic.
#[test]
fn an_edited_csv_is_read_and_a_corrupt_parquet_is_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("s.toml"),
        "name = \"small\"\ntrials = 200\nmax_turns = 3\nattackers = [\"Dwarf ALPHA\"]\ntargets = [\"ac:4\"]\n",
    )
    .unwrap();
    run_ok(dir.path(), &["sweep", "s.toml", "--out", "r", "--quiet"]);
    let report = dir.path().join("r");
    let csv = report.join("cost_efficiency.csv");
    drop_csv_columns(&csv, &["rounds"]);
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    fs::File::options().write(true).open(&csv).unwrap().set_modified(later).unwrap();
    let out = volley().arg("chart").arg(&report).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("table `cost_efficiency` (cost_efficiency.csv): missing column `rounds`"), "{err}");

    let parquet = report.join("ttk_by_turn.parquet");
    let mut bytes = fs::read(&parquet).unwrap();
    let n = bytes.len();
    for b in &mut bytes[n - 200..n - 8] {
        *b ^= 0x5a;
    }
    fs::write(&parquet, bytes).unwrap();
    let out = volley().arg("chart").arg(&report).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("ttk_by_turn.parquet"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
