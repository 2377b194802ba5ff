//! Heatmaps of a ruleset's detail tables, as its manifest's `detail_charts` describe them
//! ([`DetailChart`]): plain data, drawn by the sibling modules.

use super::axes::{Axis, ConditionSet, number_text};
use super::data::{Heatmap, ordered_rows};
use super::render::{Chart, ChartKind};
use super::shape::{DetailChart, RowOrder};
use super::slug;
use crate::output::{Cell, Table};

/// The value of column `col` in row `i` of `t` as text, whatever its type (a number as
/// [`number_text`], a flag as `true`/`false`); `None` for null or a missing column.
pub fn cell_text(t: &Table, i: usize, col: &str) -> Option<String> {
    match t.get(i, col)? {
        Cell::Text(s) => Some(s.clone()),
        Cell::Int(v) => Some(v.to_string()),
        Cell::Float(v) => Some(number_text(*v)),
        Cell::Bool(b) => Some(b.to_string()),
        Cell::Null => None,
    }
}

/// How a chart title names one part of a key: a text as itself (`Panzer IV`), any other
/// value after its column's name (`gunner 1`), so a bare number says what it counts.
fn key_part_label(t: &Table, col: &str, value: &str) -> String {
    let is_text = (0..t.rows.len()).find_map(|i| match t.get(i, col) {
        Some(Cell::Null) | None => None,
        Some(c) => Some(matches!(c, Cell::Text(_))),
    });
    if is_text == Some(false) { format!("{} {value}", col.replace('_', " ")) } else { value.to_string() }
}

/// The distinct combinations of `cols` among the rows of `t`, in table order (rows lacking
/// any of them are skipped). Cells of any type are keys (a gunner's number as `1`).
pub fn keys(t: &Table, cols: &[String]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for i in 0..t.rows.len() {
        let key: Option<Vec<String>> = cols.iter().map(|c| cell_text(t, i, c)).collect();
        if let Some(key) = key
            && !out.contains(&key)
        {
            out.push(key);
        }
    }
    out
}

/// A capitalised column name as an axis title: `target` -> `Target`.
fn title_case(col: &str) -> String {
    let text = col.replace('_', " ");
    let mut c = text.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// One heatmap of `chart`: the rows of `t` whose `per` columns are `key`, across `x`, one
/// panel per value of `panel` (one untitled panel without), the other axes at `at`.
pub fn detail_heatmap(
    t: &Table,
    chart: &DetailChart,
    key: &[String],
    x: &Axis,
    panel: Option<&Axis>,
    at: &ConditionSet,
) -> Heatmap {
    let mut free = vec![x.name.as_str()];
    free.extend(panel.map(|p| p.name.as_str()));
    let rows: Vec<usize> = (0..t.rows.len())
        .filter(|&i| chart.per.iter().zip(key).all(|(c, k)| cell_text(t, i, c).as_deref() == Some(k.as_str())))
        .filter(|&i| at.matches(t, i, &free))
        .collect();
    let sub =
        Table { columns: t.columns.clone(), rows: rows.iter().map(|&i| t.rows[i].clone()).collect(), kinds: None };
    let order = chart.row_order.as_ref().map(|c| RowOrder { column: c.clone(), label: chart.row_order_label.clone() });
    let ys = ordered_rows(&sub, &chart.rows, order.as_ref());
    let xs = x.present(&sub, 0..sub.rows.len());
    let panel_values: Vec<Option<String>> = match panel {
        Some(p) => p.present(&sub, 0..sub.rows.len()).into_iter().map(Some).collect(),
        None => vec![None],
    };
    let panels = panel_values
        .iter()
        .map(|pv| {
            let grid = ys
                .iter()
                .map(|(y, _)| {
                    xs.iter()
                        .map(|xv| {
                            (0..sub.rows.len())
                                .find(|&i| {
                                    sub.text(i, &chart.rows) == Some(y.as_str())
                                        && x.holds(&sub, i, xv)
                                        && match (panel, pv) {
                                            (Some(p), Some(v)) => p.holds(&sub, i, v),
                                            _ => true,
                                        }
                                })
                                .and_then(|i| sub.float(i, &chart.value))
                        })
                        .collect()
                })
                .collect();
            let title = match (panel, pv) {
                (Some(p), Some(v)) => format!("{}: {v}", p.name.replace('_', " ")),
                _ => String::new(),
            };
            (title, grid)
        })
        .collect();
    Heatmap {
        title: {
            let who = chart.per.iter().zip(key).map(|(c, k)| key_part_label(t, c, k)).collect::<Vec<_>>().join(", ");
            match at.title_label(&free) {
                at if at.is_empty() => format!("{who}: {}", chart.value_label),
                at => format!("{who}: {} ({at})", chart.value_label),
            }
        },
        x_label: x.label.clone(),
        y_label: title_case(&chart.rows),
        x: xs,
        y: ys.into_iter().map(|(_, label)| label).collect(),
        panels,
        notes: None,
        scale_label: chart.value_label.clone(),
    }
}

/// Every heatmap of `chart` from its table `t` at `at`: per key of its `per` columns, one
/// per x axis (the first always, the others when `t` holds more than one of their
/// values), named `<name>-<key slugs>-<x axis>`. Axes the report does not have are skipped.
/// Detail tables hold exact values, so these charts are marked exact (their footer names
/// no trial count).
pub fn detail_charts(t: &Table, chart: &DetailChart, axes: &[Axis], at: &ConditionSet) -> Vec<Chart> {
    let axis = |name: &str| axes.iter().find(|a| a.name == name);
    let panel = chart.panel_axis.as_deref().and_then(axis);
    let xs: Vec<&Axis> = chart
        .x_axes
        .iter()
        .filter_map(|n| axis(n))
        .enumerate()
        .filter(|(i, a)| *i == 0 || a.present(t, 0..t.rows.len()).len() > 1)
        .map(|(_, a)| a)
        .collect();
    let stem = chart.name.clone().unwrap_or_else(|| slug(&chart.table));
    let mut out = Vec::new();
    for key in keys(t, &chart.per) {
        let key_slug: String = key.iter().map(|k| format!("-{}", slug(k))).collect();
        for x in &xs {
            out.push(Chart {
                name: format!("{stem}{key_slug}-{}", slug(&x.name)),
                kind: ChartKind::Heatmap(detail_heatmap(t, chart, &key, x, panel, at)),
                exact: true,
            });
        }
    }
    out
}
