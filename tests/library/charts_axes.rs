//! Chart data by axis name: TechCommander sweeps (whose manifests predate recorded axes,
//! so they read through the old-manifest fallback) and a made-up ruleset's detail table.

use serde_json::json;
use volley::charts::axes::ConditionSet;
use volley::charts::data::{cost_bars, duel_matrix, ttk_curves};
use volley::charts::detail::{detail_charts, detail_heatmap};
use volley::charts::{ChartKind, ReportShape, ReportTables, condition_sets, report_charts};
use volley::engine::{RunConfig, Silent};
use volley::output::{Cell, Table};
use volley::rules::techcommander::TechCommander;
use volley::rules::techcommander::catalogue::Catalogue;
use volley::sweep::{Scenario, run_sweep};

fn report(text: &str) -> (ReportTables, serde_json::Value) {
    let cat = Catalogue::embedded().unwrap();
    let s = Scenario::parse::<TechCommander>("t.toml", text).unwrap();
    let r = s.resolve::<TechCommander>(&cat).unwrap();
    let cfg = RunConfig { seed: s.seed, trials: s.trials, ..RunConfig::default() };
    let out = run_sweep::<TechCommander>(&s, &r, &cat, &cfg, &Silent).unwrap();
    (ReportTables::from_named(&out.tables), out.manifest)
}

const ATTACK: &str = "name = \"t\"\ntrials = 4000\nmax_turns = 6\nattackers = [\"Dwarf ALPHA\", \"Paladin Siege\"]\ntargets = [\"ac:2\", \"Stingray\", \"ac:6\"]\n[grid]\nrange = [12, 30]\ncover = [\"none\", \"half\"]\nsmoke = [\"none\", \"smoke\"]\n[charts]\nttk_conditions = [{ cover = \"half\" }, { smoke = \"smoke\", range = 30 }]\n";

/// The condition set at (range, cover, smoke), the other axes at the grid's first value.
fn at(shape: &ReportShape, range: f64, cover: &str, smoke: &str) -> ConditionSet {
    ConditionSet::resolve(&shape.axes, &json!({"range": range, "cover": cover, "smoke": smoke}))
}

fn table<'a>(t: &'a ReportTables, name: &str) -> &'a Table {
    t.get(name).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn condition_sets_fill_unset_axes_from_the_grid() {
    let (_, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let sets = condition_sets(&manifest);
    assert_eq!(sets, vec![at(&shape, 12.0, "half", "none"), at(&shape, 30.0, "none", "smoke")]);
    assert_eq!(sets[1].get("movement"), Some("stationary"));
}

#[test]
fn heatmap_cells_are_the_table_values() {
    let (t, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let hit = table(&t, "hit_probability");
    let chart = &shape.details[0];
    let key = ["Paladin Siege".to_string(), "Blackout".to_string()];
    let (cover, range, smoke) = (shape.axis("cover").unwrap(), shape.axis("range").unwrap(), shape.axis("smoke"));
    let h = detail_heatmap(hit, chart, &key, cover, smoke, &at(&shape, 30.0, "none", "none"));
    assert_eq!(h.x, vec!["none", "half"]);
    assert_eq!(h.y, vec!["AC2", "Stingray (AC2)", "AC6"], "targets by AC then name");
    assert_eq!(h.panels.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(), vec!["smoke: none", "smoke: smoke"]);
    assert_eq!(h.x_label, "Target cover");
    // Blackout at 30: 10 + size + 2 FC - 3 range (-2 half cover) (-6 smoke)
    let p = |t: i32| Some(t as f64 / 20.0);
    assert_eq!(h.panels[0].1[0], vec![p(11), p(9)]);
    assert_eq!(h.panels[0].1[2], vec![p(15), p(13)]);
    assert_eq!(h.panels[1].1[2], vec![p(9), p(7)]);
    let by_range = detail_heatmap(hit, chart, &key, range, smoke, &at(&shape, 12.0, "none", "none"));
    assert_eq!(by_range.x, vec!["12", "30"]);
    assert_eq!(by_range.x_label, "Range (inches)");
    assert_eq!(by_range.panels[0].1[2], vec![p(18), p(15)]);
}

/// The curves of one (attacker, target) the plain way: every row of the pair at `at`,
/// in table order, sorted stably by turn.
fn curve_points(by_turn: &Table, at: &ConditionSet, attacker: &str, target: &str) -> Vec<(u32, f64, f64, f64)> {
    let mut points: Vec<(u32, f64, f64, f64)> = (0..by_turn.rows.len())
        .filter(|&i| by_turn.text(i, "attacker") == Some(attacker) && by_turn.text(i, "target") == Some(target))
        .filter(|&i| at.matches(by_turn, i, &[]))
        .filter_map(|i| {
            Some((
                by_turn.float(i, "turn")? as u32,
                by_turn.float(i, "p_killed_by_turn")?,
                by_turn.float(i, "ci95_low")?,
                by_turn.float(i, "ci95_high")?,
            ))
        })
        .collect();
    points.sort_by_key(|p| p.0);
    points
}

#[test]
fn curves_group_every_row_as_the_plain_filter_does() {
    let (t, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let by_turn = table(&t, "ttk_by_turn");
    // The rows reversed, and with a second copy of every turn-2 row at other values:
    // each curve keeps its rows in table order (equal turns stay as they come).
    let mut shuffled = by_turn.clone();
    shuffled.rows.reverse();
    let turn = by_turn.column("turn").unwrap();
    let p = by_turn.column("p_killed_by_turn").unwrap();
    for row in by_turn.rows.iter().filter(|r| r[turn] == Cell::Float(2.0) || r[turn] == Cell::Int(2)) {
        let mut copy = row.clone();
        copy[p] = Cell::Float(0.5);
        shuffled.rows.push(copy);
    }
    let mut checked = 0;
    // Panels in the order attackers first appear; curves in the targets' order.
    for (table, attackers) in
        [(by_turn, ["Dwarf ALPHA", "Paladin Siege"]), (&shuffled, ["Paladin Siege", "Dwarf ALPHA"])]
    {
        for at in
            [at(&shape, 12.0, "half", "none"), at(&shape, 30.0, "none", "smoke"), at(&shape, 30.0, "half", "smoke")]
        {
            let c = ttk_curves(table, &at, &shape);
            assert_eq!(c.panels.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(), attackers);
            for (attacker, curves) in &c.panels {
                let labels: Vec<&str> = curves.iter().map(|c| c.label.as_str()).collect();
                assert_eq!(labels, ["AC2", "Stingray (AC2)", "AC6"]);
                for (curve, target) in curves.iter().zip(["ac:2", "Stingray", "ac:6"]) {
                    let plain = curve_points(table, &at, attacker, target);
                    assert!(!plain.is_empty());
                    assert_eq!(curve.points, plain, "{attacker} at {target}");
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 2 * 3 * 2 * 3);
}

#[test]
fn curves_are_the_by_turn_rows_with_their_bands() {
    let (t, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let by_turn = table(&t, "ttk_by_turn");
    let c = ttk_curves(by_turn, &at(&shape, 12.0, "half", "none"), &shape);
    assert_eq!(c.panels.len(), 2);
    let (name, curves) = &c.panels[0];
    assert_eq!(name, "Dwarf ALPHA");
    assert_eq!(curves.iter().map(|c| c.label.as_str()).collect::<Vec<_>>(), ["AC2", "Stingray (AC2)", "AC6"]);
    let row = (0..by_turn.rows.len())
        .find(|&i| {
            by_turn.text(i, "attacker") == Some("Dwarf ALPHA")
                && by_turn.text(i, "target") == Some("ac:6")
                && by_turn.float(i, "range") == Some(12.0)
                && by_turn.text(i, "cover") == Some("half")
                && by_turn.text(i, "smoke") == Some("none")
                && by_turn.float(i, "turn") == Some(2.0)
        })
        .unwrap();
    let point = curves[2].points[1];
    assert_eq!(
        point,
        (
            2,
            by_turn.float(row, "p_killed_by_turn").unwrap(),
            by_turn.float(row, "ci95_low").unwrap(),
            by_turn.float(row, "ci95_high").unwrap()
        )
    );
    assert!(curves.iter().all(|c| c.points.windows(2).all(|w| w[0].1 <= w[1].1)), "cumulative");
}

#[test]
fn cost_bars_are_sorted_means_over_targets() {
    let (t, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let cost = table(&t, "cost_efficiency");
    let here = at(&shape, 12.0, "none", "none");
    let bars: Vec<_> = cost_bars(cost, &here, "turn", &shape.costs).into_iter().map(|(_, b)| b).collect();
    assert_eq!(bars.len(), 3, "the common chart and TechCommander's two");
    for b in &bars {
        assert!(b.bars.windows(2).all(|w| w[0].value >= w[1].value), "{}: sorted", b.title);
    }
    let rows: Vec<usize> = (0..cost.rows.len())
        .filter(|&i| {
            here.matches(cost, i, &[])
                && cost.text(i, "weapon").is_none()
                && cost.text(i, "attacker") == Some("Dwarf ALPHA")
        })
        .collect();
    assert_eq!(rows.len(), 3, "one build row per target");
    let mean = rows.iter().map(|&i| cost.float(i, "kill_points_per_turn_per_point").unwrap()).sum::<f64>() / 3.0;
    // the first cost chart ranks by the headline's quantity
    let bar = bars[0].bars.iter().find(|b| b.label == "Dwarf ALPHA").unwrap();
    assert!((bar.value - mean).abs() < 1e-15);
    assert!(bar.low.unwrap() <= bar.value && bar.value <= bar.high.unwrap());
    assert!(bars[2].bars.iter().any(|b| b.label == "Blackout (Paladin Siege)"));
}

#[test]
fn duel_matrix_rows_beat_columns() {
    let text = "name = \"d\"\nengagement = \"duel\"\ntrials = 3000\nattackers = [\"Dwarf ALPHA\", \"Paladin Siege\"]\nopponents = [\"Dwarf ALPHA\", \"Paladin Siege\"]\n";
    let (t, manifest) = report(text);
    let duels = table(&t, "duels");
    let m = duel_matrix(duels, &condition_sets(&manifest)[0]);
    assert_eq!(m.y, vec!["Dwarf ALPHA", "Paladin Siege"]);
    let i = (0..duels.rows.len())
        .find(|&i| duels.text(i, "a") == Some("Paladin Siege") && duels.text(i, "b") == Some("Dwarf ALPHA"))
        .unwrap();
    assert_eq!(m.panels[0].1[1][0], duels.float(i, "p_a_wins"));
    assert!(m.notes.as_ref().unwrap()[0][1][0].as_ref().unwrap().starts_with("draw "));
    let charts = report_charts(&t, &manifest);
    assert!(charts.iter().any(|c| c.name == "duel-matrix" && matches!(c.kind, ChartKind::Heatmap(_))));
    assert!(!charts.iter().any(|c| c.name.starts_with("ttk")), "no time-to-kill charts in a duel report");
}

#[test]
fn one_chart_set_per_condition_set() {
    let (t, manifest) = report(ATTACK);
    let names: Vec<String> = report_charts(&t, &manifest).into_iter().map(|c| c.name).collect();
    assert!(names.contains(&"ttk".to_string()));
    assert!(names.iter().any(|n| n.starts_with("ttk-r30")), "{names:?}");
    assert_eq!(
        names.iter().filter(|n| n.starts_with("hit-")).count(),
        4 * 2,
        "Devastator, Blackout, Heavy Cannon, Thumper Mortar"
    );
}

/// A made-up ruleset's manifest: axes `altitude` (number), `weather` and `wind` (listed
/// in an order that is not the alphabet's), rounds, and one detail chart.
fn made_up_manifest() -> serde_json::Value {
    json!({
        "ruleset": "skyball",
        "ruleset_label": "Skyball",
        "axes": [
            {"name": "altitude", "kind": "number", "unit": "metres", "label": "Altitude (metres)", "values": ["200", "50"]},
            {"name": "weather", "kind": "choice", "label": "Weather", "values": ["storm", "clear", "rain"]},
            {"name": "wind", "kind": "choice", "label": "Wind", "values": ["calm", "gusty"]},
        ],
        "turn": "round",
        "detail_charts": [{"table": "landing_odds", "value": "p_land", "value_label": "Landing chance",
            "per": ["pilot"], "rows": "field", "row_order": "field_size", "row_order_label": "size ",
            "x_axes": ["weather", "altitude"], "panel_axis": "wind"}],
        "scenario": {"chart_conditions": [{"weather": "rain"}]},
    })
}

/// `landing_odds` of the made-up ruleset: p_land = a function of every key, so a cell
/// read from the wrong row shows.
fn landing_odds() -> Table {
    let mut t = Table::new(["ruleset", "pilot", "field", "field_size", "altitude", "weather", "wind", "p_land"]);
    for (pilot, skill) in [("Ace", 0.5), ("Rookie", 0.1)] {
        for (field, size) in [("meadow", 3), ("pad:1", 1), ("roof", 1)] {
            for (altitude, a) in [(50.0, 0.2), (200.0, 0.0)] {
                for (weather, w) in [("rain", 0.01), ("clear", 0.02), ("storm", 0.03)] {
                    for (wind, v) in [("gusty", 0.001), ("calm", 0.002)] {
                        let p = skill + size as f64 / 10.0 + a + w + v;
                        t.push(vec![
                            "skyball".into(),
                            pilot.into(),
                            field.into(),
                            Cell::Int(size),
                            altitude.into(),
                            weather.into(),
                            wind.into(),
                            p.into(),
                        ]);
                    }
                }
            }
        }
    }
    t
}

#[test]
fn a_made_up_rulesets_detail_table_charts_by_its_axis_names() {
    let manifest = made_up_manifest();
    let shape = ReportShape::of_manifest(&manifest);
    let at = &shape.condition_sets(&manifest)[0];
    assert_eq!(at.label(), "altitude 200, weather rain, wind calm", "unset axes at their first listed value");
    let odds = landing_odds();
    let charts = detail_charts(&odds, &shape.details[0], &shape.axes, at);
    let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "landing-odds-ace-weather",
            "landing-odds-ace-altitude",
            "landing-odds-rookie-weather",
            "landing-odds-rookie-altitude"
        ]
    );
    let ChartKind::Heatmap(h) = &charts[0].kind else { panic!("a heatmap") };
    assert_eq!(h.x, ["storm", "clear", "rain"], "the axis's order, not the alphabet's");
    assert_eq!(h.x_label, "Weather");
    assert_eq!(h.y_label, "Field");
    assert_eq!(h.y, ["size 1", "roof (size 1)", "meadow (size 3)"], "by field size, a bare `pad:1` first");
    assert_eq!(h.panels.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(), ["wind: calm", "wind: gusty"]);
    assert_eq!(h.title, "Ace: Landing chance (altitude 200)");
    // Ace, roof (size 1), altitude 200, clear, gusty: 0.5 + 0.1 + 0 + 0.02 + 0.001
    assert_eq!(h.panels[1].1[1][1], Some(0.5 + 0.1 + 0.0 + 0.02 + 0.001));
    let ChartKind::Heatmap(by_alt) = &charts[1].kind else { panic!("a heatmap") };
    assert_eq!(by_alt.x, ["50", "200"], "numbers ascending");
    assert_eq!(by_alt.x_label, "Altitude (metres)");
    assert_eq!(by_alt.title, "Ace: Landing chance (weather rain)");
    // Ace, meadow (size 3), altitude 50, rain, calm
    assert_eq!(by_alt.panels[0].1[2][0], Some(0.5 + 0.3 + 0.2 + 0.01 + 0.002));
}

#[test]
fn a_row_matcher_picks_the_rows_matches_picks() {
    let (t, manifest) = report(ATTACK);
    let shape = ReportShape::of_manifest(&manifest);
    let sets = [at(&shape, 12.0, "half", "none"), at(&shape, 30.0, "none", "smoke"), at(&shape, 99.0, "half", "none")];
    let mut picked = 0;
    for name in ["ttk_by_turn", "time_to_kill", "cost_efficiency", "hit_probability"] {
        let table = table(&t, name);
        for set in &sets {
            for free in [&[][..], &["cover"][..], &["range", "smoke"][..]] {
                let matcher = set.matcher(table, free);
                for i in 0..table.rows.len() {
                    let plain = set.matches(table, i, free);
                    assert_eq!(matcher.matches(table, i), plain, "{name} row {i} at {set:?} free {free:?}");
                    picked += plain as usize;
                }
            }
        }
    }
    assert!(picked > 100, "{picked} rows matched");
}
