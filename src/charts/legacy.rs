//! Reports written before volley recorded their axes: a manifest without `axes` is a
//! TechCommander report, the only ruleset volley had then. This is the one place the
//! charts know a ruleset: its five axes (values from the scenario's grid, cover and smoke
//! in the order the rules list them), its word for a turn and its hit-chance heatmaps, so
//! such reports still redraw with `volley chart`.

use serde_json::Value;

use super::axes::{Axis, AxisKind, value_text};
use super::shape::{CostChart, DetailChart, ReportShape};

/// The ruleset every sweep report without `axes` is: (id, name on charts).
const RULESET: (&str, &str) = ("techcommander", "TechCommander");

/// Cover and smoke orders, as the TechCommander rules list them.
const COVER_ORDER: [&str; 5] = ["none", "minor", "half", "heavy", "blocked"];
const SMOKE_ORDER: [&str; 3] = ["none", "smoke", "designated"];

/// One axis: (name, kind, unit, label, order of values or empty for the grid's own order,
/// value when the grid lacks the axis).
type AxisRow = (&'static str, AxisKind, Option<&'static str>, &'static str, &'static [&'static str], &'static str);

/// The five axes.
const AXES: [AxisRow; 5] = [
    ("range", AxisKind::Number, Some("inches"), "Range (inches)", &[], "12"),
    ("cover", AxisKind::Choice, None, "Target cover", &COVER_ORDER, "none"),
    ("smoke", AxisKind::Choice, None, "Smoke", &SMOKE_ORDER, "none"),
    ("movement", AxisKind::Choice, None, "Movement", &[], "stationary"),
    ("status", AxisKind::Choice, None, "Target status", &[], "none"),
];

/// The shape of a report whose manifest has no `axes`: TechCommander's five axes with the
/// values of `scenario.grid` (a condition set leaving an axis out takes the grid's first
/// value, as the scenario wrote it), turns, and the hit-chance heatmaps of
/// `hit_probability` (per attacker and weapon, targets by AC, across cover and range,
/// one panel per smoke state). Named `ruleset_label`, else TechCommander unless the
/// manifest's `ruleset` names another (a report without axes, such as a gauntlet, of
/// another ruleset).
pub fn shape(manifest: &Value) -> ReportShape {
    let ruleset = match (manifest["ruleset_label"].as_str(), manifest["ruleset"].as_str()) {
        (Some(label), _) => label,
        (None, Some(id)) if id != RULESET.0 => id,
        _ => RULESET.1,
    };
    let grid = &manifest["scenario"]["grid"];
    let axes = AXES
        .iter()
        .map(|&(name, kind, unit, label, order, default)| {
            let played: Vec<String> =
                grid[name].as_array().map(|a| a.iter().filter_map(value_text).collect()).unwrap_or_default();
            let first = played.first().cloned().unwrap_or_else(|| default.to_string());
            let mut values = if played.is_empty() { vec![default.to_string()] } else { played };
            if !order.is_empty() {
                values.sort_by_key(|v| order.iter().position(|o| o == v).unwrap_or(usize::MAX));
            }
            Axis {
                name: name.into(),
                kind,
                unit: unit.map(str::to_string),
                label: label.into(),
                values,
                first: Some(first),
            }
        })
        .collect();
    let hit = DetailChart {
        table: "hit_probability".into(),
        value: "p_hit".into(),
        value_label: "Hit chance per shot".into(),
        per: vec!["attacker".into(), "weapon".into()],
        rows: "target".into(),
        row_order: Some("target_ac".into()),
        row_order_label: Some("AC".into()),
        x_axes: vec!["cover".into(), "range".into()],
        panel_axis: Some("smoke".into()),
        name: Some("hit".into()),
    };
    ReportShape {
        ruleset: ruleset.into(),
        axes,
        turn: "turn".into(),
        cost_unit: "points".into(),
        details: vec![hit],
        costs: costs(),
        seatings: super::shape::pooled_seatings(manifest),
    }
}

/// TechCommander's two cost rankings beyond the common one: life per turn per point
/// (sides) and life per ton (weapons, limited rounds stated).
pub fn costs() -> Vec<CostChart> {
    vec![
        CostChart {
            name: "cost-life-per-turn-per-point".into(),
            column: "life_per_turn_per_point".into(),
            weapons: false,
            title: "Expected life taken per {turn} (all attacks of {turn} 1), per point".into(),
            value_label: "life per {turn} per point".into(),
            finding: "Most life taken per {turn} per point (every attack of its {turn})".into(),
            unit: "life per {turn} per point".into(),
            note: None,
        },
        CostChart {
            name: "cost-weapon-life-per-ton".into(),
            column: "life_per_ton".into(),
            weapons: true,
            title: "Weapons: expected life taken per attack (at most one a {turn}), per ton".into(),
            value_label: "life per attack per ton (limited rounds in brackets)".into(),
            finding: "Weapons that dominate per ton (one attack a {turn} each; limited rounds in brackets)".into(),
            unit: "life per attack per ton".into(),
            note: Some(("rounds".into(), "rounds".into())),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn old_manifests_read_as_the_five_axes_of_their_grid() {
        let m = json!({"scenario": {"grid": {"range": [36.0, 12.0], "cover": ["heavy", "none"], "smoke": ["none"],
            "movement": ["stationary"], "status": ["none"]},
            "chart_conditions": [{"range": null, "cover": "none", "smoke": null, "movement": null, "status": null}]}});
        let s = ReportShape::of_manifest(&m);
        assert_eq!(s.ruleset, "TechCommander");
        assert_eq!(s.axis_names(), ["range", "cover", "smoke", "movement", "status"]);
        let cover = s.axis("cover").unwrap();
        assert_eq!(cover.values, ["none", "heavy"], "the rules' order");
        assert_eq!(cover.first.as_deref(), Some("heavy"), "the grid's first value");
        let sets = s.condition_sets(&m);
        assert_eq!(sets[0].label(), "range 36, cover none, smoke none, movement stationary, status none");
        assert_eq!(s.details.len(), 1);
        assert_eq!(s.target_order().unwrap().column, "target_ac");
        // a manifest without axes of another ruleset (a gauntlet's) keeps that ruleset's name
        assert_eq!(ReportShape::of_manifest(&json!({"ruleset": "techcommander"})).ruleset, "TechCommander");
        assert_eq!(ReportShape::of_manifest(&json!({"ruleset": "skyball"})).ruleset, "skyball");
        assert_eq!(ReportShape::of_manifest(&json!({"ruleset_label": "Skyball"})).ruleset, "Skyball");
    }

    #[test]
    fn a_manifest_with_axes_is_read_as_written() {
        let m = json!({"ruleset": "techcommander", "axes": [], "scenario": {"grid": {"range": [12.0]}}});
        let s = ReportShape::of_manifest(&m);
        assert_eq!(s.ruleset, "techcommander");
        assert!(s.axes.is_empty() && s.details.is_empty(), "no detail charts unless listed");
    }
}
