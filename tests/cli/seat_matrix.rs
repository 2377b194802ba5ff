//! The report's force matrix of N-player battle sweeps: the seat rows of `battles` when
//! the forces sit in force order (and for pairs), as before seatings existed; each force
//! pooled over every seat it held (`battle_forces`) when the seats rotate.

use std::collections::BTreeMap;
use std::path::Path;

use volley::charts::data::Heatmap;
use volley::charts::{ChartKind, ReportTables, condition_sets, report_charts};
use volley::output::percent::percent;

use super::seatings::{f, mirror_scenario as scenario, rows, sweep};
use super::shard::run_ok;
use super::*;

/// The force matrix the report in `dir` draws, read from its files as `volley chart` reads
/// them, with the label of its condition set.
fn matrix(dir: &Path) -> (Heatmap, String) {
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let tables = ReportTables::read(dir).unwrap();
    let chart = report_charts(&tables, &manifest).into_iter().find(|c| c.name == "battle-matrix").expect("a matrix");
    let ChartKind::Heatmap(h) = chart.kind else { panic!("the force matrix is a heatmap") };
    (h, condition_sets(&manifest)[0].title_label(&[]))
}

/// The value and draw note of cell (row `y`, column `x`) of `h`.
fn cell(h: &Heatmap, y: &str, x: &str) -> (Option<f64>, Option<String>) {
    let (r, c) = (h.y.iter().position(|n| n == y).unwrap(), h.x.iter().position(|n| n == x).unwrap());
    (h.panels[0].1[r][c], h.notes.as_ref().unwrap()[0][r][c].clone())
}

/// Today's matrix of seat rows (or pairs), stated from `battles` alone: every force and
/// field on both axes in first-seen order, each row's `p_a_wins` at (force_a, force_b)
/// with its draw rate below, nothing else.
fn assert_seat_row_matrix(h: &Heatmap, label: &str, battles: &[BTreeMap<String, String>]) {
    assert_eq!(h.title, format!("Battles: P(row force beats column force), draw rate below ({label})"));
    assert_eq!((h.x_label.as_str(), h.y_label.as_str(), h.scale_label.as_str()), ("Force B", "Force A", "P(A wins)"));
    let mut names: Vec<String> = Vec::new();
    for col in ["force_a", "force_b"] {
        for r in battles {
            if !names.contains(&r[col]) {
                names.push(r[col].clone());
            }
        }
    }
    assert_eq!((&h.x, &h.y), (&names, &names));
    for r in battles {
        let (p, note) = cell(h, &r["force_a"], &r["force_b"]);
        assert_eq!(p, Some(f(r, "p_a_wins")), "{r:?}");
        assert_eq!(note, Some(format!("draw {}", percent(f(r, "p_draw")))));
    }
    let filled = h.panels[0].1.iter().flatten().filter(|v| v.is_some()).count();
    assert_eq!(filled, battles.len(), "one cell per row, none other");
}

#[test]
fn seats_in_force_order_and_pairs_chart_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let none = sweep(d, "none", &scenario(3, None, 300));
    let (h, label) = matrix(&none);
    assert_seat_row_matrix(&h, &label, &rows(&none.join("battles.csv")));
    let fixed = sweep(d, "fixed", &scenario(3, Some("fixed"), 300));
    assert_eq!(matrix(&fixed).0, h, "seatings = \"fixed\" draws the matrix of no key");
    let pairs = sweep(d, "pairs", &scenario(2, None, 100));
    let battles = rows(&pairs.join("battles.csv"));
    assert_eq!(battles.len(), 6, "ordered pairs");
    let (h, label) = matrix(&pairs);
    assert_seat_row_matrix(&h, &label, &battles);
}

#[test]
fn a_rotated_mirror_matrix_pools_each_force_over_its_seats() {
    const TRIALS: u64 = 1000;
    let dir = tempfile::tempdir().unwrap();
    let out = sweep(dir.path(), "rotate", &scenario(3, Some("rotate"), TRIALS));
    let (battles, forces) = (rows(&out.join("battles.csv")), rows(&out.join("battle_forces.csv")));
    let (h, label) = matrix(&out);
    for r in &forces {
        let (p, note) = cell(&h, &r["force"], &r["field"]);
        assert_eq!(p, Some(f(r, "p_wins")), "{}", r["force"]);
        assert_eq!(note, Some(format!("draw {}", percent(f(r, "p_draw")))));
        // Pooled counts: the force's wins in every seat it held, over every battle.
        let held: Vec<_> = battles.iter().filter(|b| b["force_a"] == r["force"]).collect();
        assert_eq!(held.len(), 3);
        let wins: f64 = held.iter().map(|b| (f(b, "p_a_wins") * TRIALS as f64).round()).sum();
        assert_eq!((p.unwrap() * 3.0 * TRIALS as f64).round(), wins, "{}", r["force"]);
    }
    let filled = h.panels[0].1.iter().flatten().filter(|v| v.is_some()).count();
    assert_eq!(filled, 3, "one cell per force");
    assert_eq!(
        h.title,
        format!(
            "Battles: P(row force beats the column field), pooled over its 3 rotated seatings (seatings = rotate), draw rate below ({label})"
        )
    );
    assert_eq!((h.x_label.as_str(), h.y_label.as_str()), ("Field (the other forces)", "Force"));
    assert_eq!(h.y, ["Red", "Green", "Blue"]);
    assert_eq!(h.x, ["Green / Blue", "Red / Blue", "Red / Green"], "fields in force order, whatever the seat");
    // Every force of the mirror field has the same chance: the chart's cells are within
    // each other's intervals (each cell's Wilson interval from its battle_forces row)...
    let ci = |force: &str| {
        let r = forces.iter().find(|r| r["force"] == force).unwrap();
        let p = cell(&h, force, &r["field"]).0.unwrap();
        let (low, high) = (f(r, "p_wins_ci95_low"), f(r, "p_wins_ci95_high"));
        assert!(low <= p && p <= high);
        (low, high)
    };
    for (a, b) in [("Red", "Green"), ("Red", "Blue"), ("Green", "Blue")] {
        let (pa, pb) = (ci(a), ci(b));
        assert!(pa.0 <= pb.1 && pb.0 <= pa.1, "{a} {pa:?} vs {b} {pb:?}");
    }
    // ... while the force-order seating alone, which the seat rows would chart, is far
    // outside them (seat A against seat C).
    let seat = |s: &str| battles.iter().find(|b| b["matchup"] == "Red / Green / Blue" && b["seat"] == s).unwrap();
    assert!(f(seat("A"), "p_a_wins_ci95_high") < ci("Red").0, "{:?}", seat("A"));
    assert!(f(seat("C"), "p_a_wins_ci95_low") > ci("Blue").1, "{:?}", seat("C"));
}

#[test]
fn every_seat_order_pools_and_volley_chart_redraws_it_from_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = sweep(d, "all", &scenario(3, Some("all"), 100));
    let (h, _) = matrix(&out);
    assert!(h.title.contains("pooled over all 6 seat orders (seatings = all)"), "{}", h.title);
    for r in rows(&out.join("battle_forces.csv")) {
        assert_eq!(cell(&h, &r["force"], &r["field"]).0, Some(f(&r, "p_wins")));
    }
    run_ok(volley().current_dir(d).args(["chart", "all", "--quiet"]));
    let svg = fs::read_to_string(out.join("charts/battle-matrix.svg")).unwrap();
    assert!(svg.contains("Field (the other forces)"), "the pooled matrix is drawn");
    // Without the pooled table the matrix cannot be drawn honestly: refused, naming it.
    fs::remove_file(out.join("battle_forces.csv")).unwrap();
    let o = volley().current_dir(d).args(["chart", "all", "--quiet"]).output().unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("table `battle_forces`: missing"), "{err}");
}
