//! The small-multiples line chart (`ChartKind::Lines`): panels of lines over a numeric x
//! axis, three panels a row. Sensitivity sweeps (`charts::vary`) fill it; this module
//! only draws.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::style::{FONT, Sizes, series_colour};

/// One line: a series' mean value at each varied value, in value order.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// One panel: a metric and its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub probability: bool,
    pub lines: Vec<Line>,
}

/// The small multiples of one varied stat.
#[derive(Debug, Clone, PartialEq)]
pub struct LinePanels {
    pub title: String,
    /// The varied stat, for the x axis (`Devastator damage`).
    pub x_label: String,
    pub panels: Vec<Panel>,
}

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

/// The lines' labels, each once, in first-seen order: the shared legend's entries.
pub fn labels(c: &LinePanels) -> Vec<String> {
    super::draw::series_labels(c.panels.iter().flat_map(|p| p.lines.iter().map(|l| l.label.as_str())))
}

/// How far series `i` of `n` is drawn beside its true x, as a share of the x span: the
/// series are spread symmetrically around each value, `DODGE` apart, so lines with the
/// same values stay visible side by side instead of hiding each other.
const DODGE: f64 = 0.012;

/// The x offset of series `i` of `n` over a span of `span` (see [`DODGE`]).
pub fn dodge(i: usize, n: usize, span: f64) -> f64 {
    if n <= 1 { 0.0 } else { (i as f64 - (n - 1) as f64 / 2.0) * DODGE * span }
}

/// Draw the panels (three per row) inside `body`, one legend above them. Series keep
/// their colour and marker in every panel and are dodged ([`dodge`]) so that equal
/// values do not overlap.
pub fn draw<DB: DrawingBackend>(body: &DrawingArea<DB, Shift>, c: &LinePanels) -> Result<(), String> {
    let labels = labels(c);
    let body = super::draw::shared_legend(body, &labels)?;
    let n = c.panels.len().max(1);
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let cells = body.split_evenly((rows, cols));
    let xs: Vec<f64> =
        c.panels.iter().flat_map(|p| p.lines.iter().flat_map(|l| l.points.iter().map(|q| q.0))).collect();
    let (lo, hi) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    // room either side for the dodged series
    let spread = dodge(labels.len().saturating_sub(1), labels.len(), if hi > lo { hi - lo } else { 1.0 });
    let pad = if hi > lo { (hi - lo) * 0.08 } else { 1.0 } + spread;
    for (panel, area) in c.panels.iter().zip(cells.iter()) {
        let top = if panel.probability {
            1.0
        } else {
            panel.lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).fold(0.0, f64::max) * 1.1 + 1e-9
        };
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, (FONT, Sizes::label() as f64, FontStyle::Bold))
            .margin(Sizes::tick())
            .x_label_area_size(Sizes::label() * 2)
            .y_label_area_size(Sizes::label() * 3)
            .build_cartesian_2d(lo - pad..hi + pad, 0f64..top)
            .map_err(err)?;
        let probability = panel.probability;
        chart
            .configure_mesh()
            .x_desc(c.x_label.as_str())
            .axis_desc_style((FONT, Sizes::tick() as f64))
            .label_style((FONT, Sizes::tick() as f64 * 0.85))
            .y_label_formatter(&|v| if probability { format!("{:.0}%", v * 100.0) } else { format!("{v:.2}") })
            .x_label_formatter(&|v| super::axes::number_text(*v))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        let k = labels.len();
        let span = if hi > lo { hi - lo } else { 1.0 };
        for line in &panel.lines {
            let i = labels.iter().position(|l| *l == line.label).expect("every label is in the legend");
            let colour = series_colour(i, k);
            let width = Sizes::tick() / 8;
            let marker = Sizes::tick() as i32 / 4;
            let dx = dodge(i, k, span);
            let points: Vec<(f64, f64)> = line.points.iter().map(|&(x, y)| (x + dx, y)).collect();
            chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(width))).map_err(err)?;
            let style = colour.filled();
            match i % 4 {
                0 => chart.draw_series(points.iter().map(|&p| Circle::new(p, marker, style))).map(|_| ()),
                1 => chart.draw_series(points.iter().map(|&p| TriangleMarker::new(p, marker + 2, style))).map(|_| ()),
                2 => chart
                    .draw_series(points.iter().map(|&p| Cross::new(p, marker, colour.stroke_width(width))))
                    .map(|_| ()),
                _ => chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, marker, colour.stroke_width(width))))
                    .map(|_| ()),
            }
            .map_err(err)?;
        }
    }
    Ok(())
}
