//! The chart of `volley fit`: each build's fitted points cost with its 95% interval,
//! its current cost in its label.

use crate::output::Table;

use super::axes::number_text;
use super::data::{Bar, Bars};
use super::page::Finding;
use super::render::{Chart, ChartKind};
use crate::output::percent::percent;

/// Fitted costs as bars with whiskers, largest first, from the `fit` table; `None` when
/// no build was fitted.
pub fn fit_chart(fit: &Table) -> Option<Chart> {
    let mut bars: Vec<Bar> = (0..fit.rows.len())
        .filter_map(|i| {
            let value = fit.float(i, "fitted_points")?;
            let label = format!("{} (now {})", fit.text(i, "build")?, number_text(fit.float(i, "points")?));
            Some(Bar {
                label,
                value,
                low: fit.float(i, "fitted_points_ci95_low"),
                high: fit.float(i, "fitted_points_ci95_high"),
            })
        })
        .collect();
    if bars.is_empty() {
        return None;
    }
    bars.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.label.cmp(&b.label)));
    Some(Chart {
        name: "fit-points".into(),
        kind: ChartKind::Bars(Bars {
            title: "Fitted points cost against the field (95% interval); current cost in brackets".into(),
            value_label: "points".into(),
            bars,
        }),
        exact: false,
    })
}

/// The report page's findings of a `fit` table, one per build in table order: the
/// fitted cost with its 95% interval beside the current one, and the result at the
/// current cost with its interval (or why the build has no fitted cost).
pub fn fit_findings(fit: &Table) -> Vec<Finding> {
    let interval =
        |i: usize, low: &str, high: &str, show: &dyn Fn(f64) -> String| match (fit.float(i, low), fit.float(i, high)) {
            (Some(l), Some(h)) if l == h => String::from(" (exact)"),
            (Some(l), Some(h)) => format!(" [{}, {}]", show(l), show(h)),
            _ => String::new(),
        };
    (0..fit.rows.len())
        .filter_map(|i| {
            let build = fit.text(i, "build")?;
            let now = number_text(fit.float(i, "points")?);
            let at_current = fit.float(i, "result_at_current").map_or(String::from("?"), percent);
            let at_current_ci = interval(i, "result_at_current_ci95_low", "result_at_current_ci95_high", &|v| percent(v));
            Some(match fit.float(i, "fitted_points") {
                Some(f) => format!(
                    "{build}: fair cost {f:.2} points{} (now {now}); result at the current cost {at_current}{at_current_ci}",
                    interval(i, "fitted_points_ci95_low", "fitted_points_ci95_high", &|v| format!("{v:.2}")),
                ),
                None => format!(
                    "{build}: no fitted cost ({}); result at the current cost {now} is {at_current}{at_current_ci}",
                    fit.text(i, "status").unwrap_or("unfitted"),
                ),
            })
        })
        .collect()
}
