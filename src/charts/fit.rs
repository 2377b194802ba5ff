//! The chart of `volley fit`: each build's fitted points cost with its 95% interval,
//! its current cost in its label.

use crate::output::Table;

use super::axes::number_text;
use super::data::{Bar, Bars};
use super::render::{Chart, ChartKind};

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
    })
}
