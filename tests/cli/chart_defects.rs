//! Chart defects of the reports: the legend of small multiples covering a curve, equal
//! sensitivity lines hiding each other, titles naming every axis of a ruleset, exact
//! heatmaps claiming a trial count, and gauntlet charts that never said their range.

use super::*;
use std::path::Path;

use volley::charts::data::{Curve, CurvePanels};
use volley::charts::lines::{Line, LinePanels, Panel};
use volley::charts::{Chart, ChartKind};

/// (text, x, y) of every `<text>` of an SVG.
fn svg_texts(svg: &str) -> Vec<(String, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or(f64::NAN);
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| (n.text().unwrap_or("").trim().to_string(), num(n, "x"), num(n, "y")))
        .collect()
}

/// Curves lying along the bottom right of every panel (where the legend used to sit)
/// keep it clear: one legend for every panel, above them all (was: a legend in the lower
/// right of each panel, over such curves: the Skirmishers TTK chart).
#[test]
fn small_multiples_have_one_legend_above_their_panels() {
    let flat = |label: &str, p: f64| Curve {
        label: label.into(),
        points: (1..=8).map(|k| (k, p, (p - 0.01).max(0.0), p + 0.01)).collect(),
    };
    let attackers = ["Rifleman", "Green Rifleman", "Veteran SMG Gunner", "Rocketeer"];
    let panels: Vec<(String, Vec<Curve>)> = attackers
        .iter()
        .map(|a| (a.to_string(), vec![flat("Rifleman (armour 0)", 0.97), flat("Power Trooper (armour 4)", 0.1)]))
        .collect();
    let curves = CurvePanels { title: "Time to kill".into(), panels, max_turn: 8, turn: "round".into() };
    let line = |label: &str| Line { label: label.into(), points: vec![(4.0, 0.1), (8.0, 0.1)] };
    let lines = LinePanels {
        title: "Sensitivity".into(),
        x_label: "Rifle damage".into(),
        panels: attackers
            .iter()
            .map(|a| Panel { title: a.to_string(), probability: true, lines: vec![line("Alpha"), line("Beta")] })
            .collect(),
    };
    for (kind, labels) in [
        (ChartKind::Curves(curves), ["Rifleman (armour 0)", "Power Trooper (armour 4)"]),
        (ChartKind::Lines(lines), ["Alpha", "Beta"]),
    ] {
        let svg = Chart { name: "c".into(), kind, exact: false }.svg("footer").unwrap();
        let texts = svg_texts(&svg);
        let captions = texts.iter().filter(|t| attackers.contains(&t.0.as_str()) && t.0 != "Rifleman");
        let top_panel = captions.map(|t| t.2).fold(f64::INFINITY, f64::min);
        for label in labels {
            let at: Vec<&(String, f64, f64)> = texts.iter().filter(|t| t.0 == label).collect();
            assert_eq!(at.len(), 1, "{label}: one legend entry for every panel, not one per panel");
            assert!(at[0].2 < top_panel, "{label}: the legend ({}) lies above the panels ({top_panel})", at[0].2);
        }
    }
}

/// The centre of each marker (circle or polygon) of an SVG, keyed by its colour.
fn markers(svg: &str) -> Vec<(String, (i64, i64))> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let mut out = Vec::new();
    for n in doc.descendants() {
        let colour = n.attribute("fill").filter(|f| *f != "none").or(n.attribute("stroke")).unwrap_or("").to_string();
        if n.has_tag_name("circle") {
            let c = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap().round() as i64;
            out.push((colour, (c("cx"), c("cy"))));
        } else if n.has_tag_name("polygon") {
            let pts: Vec<f64> =
                n.attribute("points").unwrap().split([' ', ',']).filter_map(|v| v.parse().ok()).collect();
            let k = (pts.len() / 2) as f64;
            let (x, y) = pts.chunks(2).fold((0.0, 0.0), |(x, y), p| (x + p[0], y + p[1]));
            out.push((colour, ((x / k).round() as i64, (y / k).round() as i64)));
        }
    }
    out
}

/// Two builds whose sensitivity lines are equal are both seen: their markers stand apart
/// and differ in shape (was: the second drawn exactly over the first).
#[test]
fn equal_sensitivity_lines_do_not_hide_each_other() {
    let line = |label: &str| Line { label: label.into(), points: vec![(4.0, 0.5), (8.0, 0.75), (12.0, 1.0)] };
    let chart = Chart {
        name: "vary".into(),
        kind: ChartKind::Lines(LinePanels {
            title: "Sensitivity to Rifle damage".into(),
            x_label: "Rifle damage".into(),
            panels: vec![Panel {
                title: "P(kill), exact".into(),
                probability: true,
                lines: vec![line("A"), line("B")],
            }],
        }),
        exact: false,
    };
    let m = markers(&chart.svg("footer").unwrap());
    let colours: Vec<&String> = m.iter().map(|(c, _)| c).fold(Vec::new(), |mut v, c| {
        if !v.contains(&c) {
            v.push(c);
        }
        v
    });
    assert!(colours.len() >= 2, "two series of markers: {m:?}");
    for (c, at) in &m {
        let covered = m.iter().any(|(d, other)| d != c && (other.0 - at.0).abs() <= 2 && (other.1 - at.1).abs() <= 2);
        assert!(!covered, "a marker of {c} at {at:?} lies on another series' marker: {m:?}");
    }
}

fn run_in(dir: &Path, args: &[&str]) {
    let out = volley().current_dir(dir).args(args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// A Skirmishers report over range alone: its titles name the range, not the ten axes the
/// scenario leaves at one value (was: all 11 axes in every title); its detail heatmaps,
/// exact, say so in the footer instead of the trials per cell (was: "50 engagements per
/// cell" under exact values), while the Monte Carlo charts keep the trial count.
#[test]
fn titles_name_the_varied_axes_and_exact_heatmaps_claim_no_trials() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("s.toml"),
        "ruleset = \"skirmishers\"\nname = \"small\"\ntrials = 50\nmax_turns = 4\n\
         attackers = [\"Rifleman\"]\ntargets = [\"Machine Gunner\"]\n[grid]\nrange = [5, 20]\n",
    )
    .unwrap();
    run_in(dir.path(), &["sweep", "s.toml", "--out", "r", "-q"]);
    let charts = dir.path().join("r/charts");
    let svg = |name: &str| fs::read_to_string(charts.join(name)).unwrap();
    let all_text = |name: &str| svg_texts(&svg(name)).into_iter().map(|t| t.0).collect::<Vec<_>>().join(" ");
    let ttk = all_text("ttk.svg");
    assert!(ttk.contains("(range 5)"), "{ttk}");
    for fixed in ["sneak suit", "tunnel", "target swimming", "entangled"] {
        assert!(!ttk.contains(fixed), "the title names `{fixed}`, fixed for the whole report: {ttk}");
    }
    assert!(ttk.contains("50 engagements per cell"), "{ttk}");
    let detail: Vec<String> = fs::read_dir(&charts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| (n.starts_with("hit-") || n.starts_with("out-")) && n.ends_with(".svg"))
        .collect();
    assert!(!detail.is_empty(), "the report draws its detail heatmaps");
    for name in detail {
        let text = all_text(&name);
        assert!(text.contains("exact values") && !text.contains("engagements per cell"), "{name}: {text}");
        assert!(!text.contains("sneak suit"), "{name}: {text}");
    }
}

/// A gauntlet's charts state the conditions it was played at, the range first (was:
/// "mean over conditions", no range anywhere on the charts).
#[test]
fn gauntlet_charts_state_their_range() {
    let dir = tempfile::tempdir().unwrap();
    run_in(
        dir.path(),
        &["gauntlet", "Dwarf ALPHA", "--field", "Beagle Hunter,Stingray Standard", "--range", "24", "--trials", "40"]
            .into_iter()
            .chain(["-q", "--out", "g"])
            .collect::<Vec<_>>(),
    );
    for name in ["gauntlet-win-rate.svg", "gauntlet-matchups.svg"] {
        let text: String = svg_texts(&fs::read_to_string(dir.path().join("g/charts").join(name)).unwrap())
            .into_iter()
            .map(|t| t.0)
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains("range 24"), "{name}: {text}");
    }
}
