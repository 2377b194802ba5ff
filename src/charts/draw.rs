//! Drawing the charts with plotters on any backend (SVG and bitmap share this code).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::{Bars, CurvePanels, Heatmap};
use super::style::{FONT, INK, NO_VALUE, Sizes, ink_on, scale, series_colour, text_size};

type Area<'a, DB> = DrawingArea<DB, Shift>;
/// Drawing errors, as text.
pub type DrawResult = Result<(), String>;

fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

fn text_style(size: u32, colour: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    TextStyle { color: colour.to_backend_color(), ..TextStyle::from((FONT, size as f64).into_font()) }
        .pos(Pos::new(h, v))
}

fn bold(size: u32) -> TextStyle<'static> {
    TextStyle { color: INK.to_backend_color(), ..TextStyle::from((FONT, size as f64, FontStyle::Bold).into_font()) }
        .pos(Pos::new(HPos::Center, VPos::Top))
}

fn put<DB: DrawingBackend>(area: &Area<'_, DB>, s: &str, at: (i32, i32), style: &TextStyle<'_>) -> DrawResult {
    area.draw(&Text::new(s.to_string(), at, style.clone())).map_err(err)
}

/// Width of `s` in pixels at `size`, measured in the embedded font.
fn text_width(s: &str, size: u32) -> i32 {
    text_size(s, size as f64, false).0 as i32
}

fn width_at(s: &str, size: u32, is_bold: bool) -> i32 {
    text_size(s, size as f64, is_bold).0 as i32
}

/// Text laid out to fit a width: the size it is drawn at and its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub size: u32,
    pub lines: Vec<String>,
}

impl Fitted {
    /// Distance between the tops of two lines.
    pub fn line_height(&self) -> i32 {
        (self.size as f64 * 1.2).ceil() as i32
    }
    /// Height of all the lines.
    pub fn height(&self) -> i32 {
        self.line_height() * self.lines.len().max(1) as i32
    }
}

/// Greedy word wrap of `text` into lines no wider than `max_w` at `size` (a single word
/// wider than that keeps a line of its own).
fn wrap(text: &str, max_w: i32, size: u32, is_bold: bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if line.is_empty() || width_at(&candidate, size, is_bold) <= max_w {
            line = candidate;
        } else {
            lines.push(std::mem::take(&mut line));
            line = word.to_string();
        }
    }
    lines.push(line);
    lines
}

/// Fit `text` into `max_w` pixels: at `size` on one line if it fits there; else wrapped
/// at spaces into at most `max_lines` lines, shrinking step by step down to `min` until it
/// does; else (very long text) at `min` on as many lines as it takes, shrinking further
/// only if a single word is still too wide. Every line of the result fits `max_w`.
pub fn fit(text: &str, max_w: i32, size: u32, min: u32, max_lines: usize, is_bold: bool) -> Fitted {
    let max_w = max_w.max(1);
    let min = min.min(size).max(1);
    let fits = |lines: &[String], sz: u32| lines.iter().all(|l| width_at(l, sz, is_bold) <= max_w);
    let mut sz = size;
    loop {
        let lines = wrap(text, max_w, sz, is_bold);
        if lines.len() <= max_lines.max(1) && fits(&lines, sz) {
            return Fitted { size: sz, lines };
        }
        if sz <= min {
            break;
        }
        sz = (sz * 19 / 20).max(min).min(sz - 1);
    }
    let mut sz = min;
    loop {
        let lines = wrap(text, max_w, sz, is_bold);
        if fits(&lines, sz) || sz <= 1 {
            return Fitted { size: sz, lines };
        }
        sz -= 1;
    }
}

/// The size at which `text` fits `max_w` on one line: `size`, or smaller.
fn one_line_size(text: &str, max_w: i32, size: u32, is_bold: bool) -> u32 {
    let w = width_at(text, size, is_bold);
    if w <= max_w.max(1) {
        return size;
    }
    let mut sz = ((size as f64 * max_w.max(1) as f64 / w as f64).floor() as u32).clamp(1, size);
    while sz > 1 && width_at(text, sz, is_bold) > max_w {
        sz -= 1;
    }
    sz
}

/// Title at the top, footer at the bottom, both fitted to the width inside the margins;
/// returns the area between, inside the side margins.
pub(super) fn frame<'a, DB: DrawingBackend>(
    root: &'a Area<'a, DB>,
    title: &str,
    footer: &str,
) -> Result<Area<'a, DB>, String> {
    root.fill(&WHITE).map_err(err)?;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let m = Sizes::margin() as i32;
    let inner = w - 2 * m;
    let t = fit(title, inner, Sizes::title(), Sizes::label(), 2, true);
    for (i, line) in t.lines.iter().enumerate() {
        put(root, line, (w / 2, m / 2 + i as i32 * t.line_height()), &bold(t.size))?;
    }
    let f = fit(footer, inner, Sizes::footer(), Sizes::smallest(), 2, false);
    let foot_top = h - m / 2 - f.height();
    let grey = text_style(f.size, RGBColor(90, 90, 90), HPos::Center, VPos::Top);
    for (i, line) in f.lines.iter().enumerate() {
        put(root, line, (w / 2, foot_top + i as i32 * f.line_height()), &grey)?;
    }
    let top = m / 2 + t.height() + Sizes::title() as i32 / 2;
    let bottom = foot_top - Sizes::footer() as i32;
    Ok(root.clone().shrink((m, top), (inner.max(1) as u32, (bottom - top).max(1) as u32)))
}

/// Percent text in the one format of [`crate::output::percent`] ("37.0%", "0.4%", "99.96%").
pub fn percent(v: f64) -> String {
    crate::output::percent::percent(v)
}

/// Pixel height a heatmap needs.
pub fn heatmap_height(h: &Heatmap) -> u32 {
    let cell = if h.notes.is_some() { Sizes::cell() * 3 } else { Sizes::cell() * 2 + Sizes::cell() / 2 };
    Sizes::title() * 2 + Sizes::footer() * 2 + Sizes::label() * 5 + cell * h.y.len() as u32 + Sizes::tick() * 2
}

/// A heatmap: panels side by side, every cell printed with its percentage, colour bar right.
pub fn heatmap<DB: DrawingBackend>(root: &Area<'_, DB>, h: &Heatmap, footer: &str) -> DrawResult {
    let body = frame(root, &h.title, footer)?;
    heatmap_body(&body, h)
}

fn heatmap_body<DB: DrawingBackend>(body: &Area<'_, DB>, h: &Heatmap) -> DrawResult {
    let body = body.clone();
    let (w, ht) = body.dim_in_pixel();
    let (w, ht) = (w as i32, ht as i32);
    // row labels: at most 40% of the width, shrunk to fit that
    let widest = h.y.iter().max_by_key(|s| text_width(s, Sizes::tick())).map_or("", String::as_str);
    let y_size = one_line_size(widest, w * 2 / 5 - Sizes::label() as i32 * 2, Sizes::tick(), false);
    let label_w = h.y.iter().map(|s| text_width(s, y_size)).max().unwrap_or(0) + Sizes::label() as i32 * 2;
    let bar_w = Sizes::label() as i32 * 6;
    let panel_gap = Sizes::label() as i32;
    let n_panels = h.panels.len().max(1) as i32;
    let grid_w = w - label_w - bar_w - panel_gap * (n_panels - 1);
    let panel_w = grid_w / n_panels;
    let panel_title_h = if h.panels.iter().any(|(t, _)| !t.is_empty()) { Sizes::label() as i32 * 2 } else { 0 };
    let rows = h.y.len().max(1) as i32;
    let cols = h.x.len().max(1) as i32;
    let cell_w = panel_w / cols;
    // column labels: one size for all, wrapped to two lines within their column if need be
    let x_fits: Vec<Fitted> =
        h.x.iter()
            .map(|s| fit(s, cell_w - Sizes::tick() as i32 / 3, Sizes::tick(), Sizes::smallest(), 2, false))
            .collect();
    let x_size = x_fits.iter().map(|f| f.size).min().unwrap_or(Sizes::tick());
    let x_lines: Vec<Fitted> =
        h.x.iter().map(|s| fit(s, cell_w - Sizes::tick() as i32 / 3, x_size, x_size, 2, false)).collect();
    let x_ticks_h = (x_lines.iter().map(Fitted::height).max().unwrap_or(0) + Sizes::tick() as i32 * 2 / 3)
        .max(Sizes::tick() as i32 * 2);
    let x_label_h = Sizes::label() as i32 * 2;
    let grid_h = ht - panel_title_h - x_ticks_h - x_label_h;
    let cell_h = grid_h / rows;
    let tick = text_style(y_size, INK, HPos::Right, VPos::Center);
    for (r, name) in h.y.iter().enumerate() {
        put(&body, name, (label_w - Sizes::tick() as i32 / 2, panel_title_h + r as i32 * cell_h + cell_h / 2), &tick)?;
    }
    let y_label_size = one_line_size(&h.y_label, grid_h, Sizes::label(), false);
    let y_label = text_style(y_label_size, INK, HPos::Center, VPos::Center).transform(FontTransform::Rotate270);
    put(&body, &h.y_label, (Sizes::label() as i32 * 2 / 3, panel_title_h + grid_h / 2), &y_label)?;
    for (p, (title, grid)) in h.panels.iter().enumerate() {
        let x0 = label_w + p as i32 * (panel_w + panel_gap);
        if !title.is_empty() {
            put(&body, title, (x0 + panel_w / 2, 0), &bold(one_line_size(title, panel_w, Sizes::label(), true)))?;
        }
        for (r, row) in grid.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let (cx, cy) = (x0 + c as i32 * cell_w, panel_title_h + r as i32 * cell_h);
                let bg = v.map_or(NO_VALUE, scale);
                body.draw(&Rectangle::new([(cx, cy), (cx + cell_w - 2, cy + cell_h - 2)], bg.filled())).map_err(err)?;
                let ink = ink_on(bg);
                let centre = (cx + cell_w / 2, cy + cell_h / 2);
                let note = h.notes.as_ref().and_then(|n| n.get(p)).and_then(|g| g[r][c].as_deref());
                let main = v.map_or("–".to_string(), percent);
                match note {
                    Some(d) => {
                        put(
                            &body,
                            &main,
                            (centre.0, centre.1 - Sizes::cell() as i32 / 2),
                            &text_style(Sizes::cell(), ink, HPos::Center, VPos::Center),
                        )?;
                        let small = one_line_size(d, cell_w - 4, Sizes::cell() * 3 / 4, false);
                        let small = text_style(small, ink, HPos::Center, VPos::Center);
                        put(&body, d, (centre.0, centre.1 + Sizes::cell() as i32 * 2 / 3), &small)?;
                    }
                    None => put(&body, &main, centre, &text_style(Sizes::cell(), ink, HPos::Center, VPos::Center))?,
                }
            }
        }
        let xt = text_style(x_size, INK, HPos::Center, VPos::Top);
        for (c, lines) in x_lines.iter().enumerate() {
            for (i, line) in lines.lines.iter().enumerate() {
                put(
                    &body,
                    line,
                    (
                        x0 + c as i32 * cell_w + cell_w / 2,
                        panel_title_h + grid_h + Sizes::tick() as i32 / 3 + i as i32 * lines.line_height(),
                    ),
                    &xt,
                )?;
            }
        }
    }
    let x_label_size = one_line_size(&h.x_label, grid_w, Sizes::label(), false);
    put(
        &body,
        &h.x_label,
        (label_w + grid_w / 2, ht - x_label_h / 2),
        &text_style(x_label_size, INK, HPos::Center, VPos::Center),
    )?;
    colour_bar(&body, (w - bar_w + Sizes::label() as i32 / 2, panel_title_h), grid_h, &h.scale_label)
}

/// A vertical 0-100% colour bar at `at` of height `height`.
fn colour_bar<DB: DrawingBackend>(area: &Area<'_, DB>, at: (i32, i32), height: i32, label: &str) -> DrawResult {
    let bw = Sizes::label() as i32;
    let steps = 100;
    for i in 0..steps {
        let v = 1.0 - i as f64 / steps as f64;
        let y0 = at.1 + height * i / steps;
        let y1 = at.1 + height * (i + 1) / steps;
        area.draw(&Rectangle::new([(at.0, y0), (at.0 + bw, y1)], scale(v).filled())).map_err(err)?;
    }
    area.draw(&Rectangle::new([(at.0, at.1), (at.0 + bw, at.1 + height)], INK.stroke_width(2))).map_err(err)?;
    let tick = text_style(Sizes::tick() * 4 / 5, INK, HPos::Left, VPos::Center);
    for k in 0..=4 {
        let y = at.1 + height - height * k / 4;
        put(area, &format!("{}%", k * 25), (at.0 + bw + 6, y), &tick)?;
    }
    let size = one_line_size(label, height, Sizes::tick() * 4 / 5, false);
    let rot = text_style(size, INK, HPos::Center, VPos::Center).transform(FontTransform::Rotate90);
    put(
        area,
        label,
        (at.0 + bw + text_width("100%", Sizes::tick() * 4 / 5) + Sizes::tick() as i32, at.1 + height / 2),
        &rot,
    )
}

const MARKERS: usize = 4;

/// The series of small multiples, each once, in first-seen order: one legend for every
/// panel, colours and markers by this order ([`series_colour`], `i % MARKERS`).
pub fn series_labels<'a>(panels: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for l in panels {
        if !out.iter().any(|o| o == l) {
            out.push(l.to_string());
        }
    }
    out
}

/// Text size of legend entries.
fn legend_size() -> u32 {
    Sizes::tick() * 4 / 5
}

/// The legend's entries placed in rows across `width`: (row, x of the entry's left end).
fn legend_places(labels: &[String], width: i32) -> Vec<(i32, i32)> {
    let sample = Sizes::tick() as i32 * 2;
    let gap = Sizes::tick() as i32 * 2;
    let (mut row, mut x) = (0, 0);
    labels
        .iter()
        .map(|l| {
            let w = sample + Sizes::tick() as i32 / 2 + text_width(l, legend_size());
            if x > 0 && x + w > width {
                row += 1;
                x = 0;
            }
            let at = (row, x);
            x += w + gap;
            at
        })
        .collect()
}

/// Height in pixels of the shared legend of `labels` across `width` (0 without labels).
pub fn legend_height(labels: &[String], width: i32) -> u32 {
    let rows = legend_places(labels, width).last().map_or(0, |p| p.0 + 1);
    rows as u32 * (Sizes::tick() * 3 / 2) + if rows > 0 { Sizes::tick() / 2 } else { 0 }
}

/// Draw marker number `i % MARKERS` of `colour` at `at` (pixels of `area`).
fn marker_at<DB: DrawingBackend>(area: &Area<'_, DB>, i: usize, at: (i32, i32), colour: RGBColor) -> DrawResult {
    let (m, width) = (Sizes::tick() as i32 / 4, Sizes::tick() / 8);
    match i % MARKERS {
        0 => area.draw(&Circle::new(at, m, colour.filled())),
        1 => area.draw(&TriangleMarker::new(at, m + 2, colour.filled())),
        2 => area.draw(&Cross::new(at, m, colour.stroke_width(width))),
        _ => area.draw(&Circle::new(at, m, colour.stroke_width(width))),
    }
    .map_err(err)
}

/// One legend for every panel, in rows across the top of `body` (so it covers no curve);
/// returns the area below it.
pub(super) fn shared_legend<'a, DB: DrawingBackend>(
    body: &Area<'a, DB>,
    labels: &[String],
) -> Result<Area<'a, DB>, String> {
    let (w, _) = body.dim_in_pixel();
    let h = legend_height(labels, w as i32);
    if h == 0 {
        return Ok(body.clone());
    }
    let places = legend_places(labels, w as i32);
    let rows = places.last().map_or(0, |p| p.0 + 1);
    let widths: Vec<i32> = (0..rows)
        .map(|r| {
            let last = places.iter().rposition(|p| p.0 == r).expect("a row has an entry");
            places[last].1 + Sizes::tick() as i32 * 5 / 2 + text_width(&labels[last], legend_size())
        })
        .collect();
    let (sample, row_h) = (Sizes::tick() as i32 * 2, (Sizes::tick() * 3 / 2) as i32);
    let n = labels.len();
    for (i, (label, &(row, x))) in labels.iter().zip(&places).enumerate() {
        let x = x + (w as i32 - widths[row as usize]) / 2;
        let y = row * row_h + row_h / 2;
        let colour = series_colour(i, n);
        body.draw(&PathElement::new(vec![(x, y), (x + sample, y)], colour.stroke_width(Sizes::tick() / 8)))
            .map_err(err)?;
        marker_at(body, i, (x + sample / 2, y), colour)?;
        let style = text_style(legend_size(), INK, HPos::Left, VPos::Center);
        put(body, label, (x + sample + Sizes::tick() as i32 / 2, y), &style)?;
    }
    let (_, bh) = body.dim_in_pixel();
    Ok(body.clone().shrink((0, h as i32), (w, bh.saturating_sub(h))))
}

/// Small multiples of time-to-kill curves with shaded 95% bands, one legend above them.
pub fn curves<DB: DrawingBackend>(root: &Area<'_, DB>, c: &CurvePanels, footer: &str) -> DrawResult {
    let body = frame(root, &c.title, footer)?;
    let labels = series_labels(c.panels.iter().flat_map(|(_, cs)| cs.iter().map(|c| c.label.as_str())));
    let body = shared_legend(&body, &labels)?;
    let n = c.panels.len().max(1);
    let cols = n.min(3);
    let rows = n.div_ceil(cols);
    let cells = body.split_evenly((rows, cols));
    let max_turn = c.max_turn.max(1) as f64;
    let mut word = c.turn.chars();
    let x_desc: String = word.next().map_or_else(String::new, |f| f.to_uppercase().chain(word).collect());
    let y_desc = format!("P(destroyed by {})", c.turn);
    for ((attacker, curves), area) in c.panels.iter().zip(cells.iter()) {
        let mut chart = ChartBuilder::on(area)
            .caption(attacker, (FONT, Sizes::label() as f64, FontStyle::Bold))
            .margin(Sizes::tick())
            .x_label_area_size(Sizes::label() * 2)
            .y_label_area_size(Sizes::label() * 3)
            .build_cartesian_2d(0.5f64..max_turn + 0.5, 0f64..1.0)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc(x_desc.as_str())
            .y_desc(y_desc.as_str())
            .axis_desc_style((FONT, Sizes::tick() as f64))
            .label_style((FONT, Sizes::tick() as f64 * 0.85))
            .y_label_formatter(&|v| format!("{:.0}%", v * 100.0))
            .x_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        let k = labels.len();
        for curve in curves {
            // colour and marker by the series' place in the shared legend
            let i = labels.iter().position(|l| *l == curve.label).expect("every label is in the legend");
            let colour = series_colour(i, k);
            let shown: Vec<_> = curve.points.iter().filter(|p| p.0 <= c.max_turn).collect();
            let mut band: Vec<(f64, f64)> = shown.iter().map(|p| (p.0 as f64, p.3)).collect();
            band.extend(shown.iter().rev().map(|p| (p.0 as f64, p.2)));
            chart.draw_series(std::iter::once(Polygon::new(band, colour.mix(0.22).filled()))).map_err(err)?;
            let line: Vec<(f64, f64)> = shown.iter().map(|p| (p.0 as f64, p.1)).collect();
            let width = Sizes::tick() / 8;
            let marker = Sizes::tick() as i32 / 4;
            chart.draw_series(LineSeries::new(line.clone(), colour.stroke_width(width))).map_err(err)?;
            // markers tell the series apart in greyscale
            let style = colour.filled();
            match i % MARKERS {
                0 => chart.draw_series(line.iter().map(|&p| Circle::new(p, marker, style))).map(|_| ()),
                1 => chart.draw_series(line.iter().map(|&p| TriangleMarker::new(p, marker + 2, style))).map(|_| ()),
                2 => chart
                    .draw_series(line.iter().map(|&p| Cross::new(p, marker, colour.stroke_width(width))))
                    .map(|_| ()),
                _ => chart
                    .draw_series(line.iter().map(|&p| Circle::new(p, marker, colour.stroke_width(width))))
                    .map(|_| ()),
            }
            .map_err(err)?;
        }
    }
    Ok(())
}

/// Pixel height a bar panel needs.
pub fn bars_height(b: &Bars) -> u32 {
    Sizes::title() * 2 + Sizes::footer() * 2 + Sizes::label() * 4 + b.bars.len().max(1) as u32 * Sizes::label() * 2
}

/// Nice tick step for an axis from 0 to `max`.
pub fn tick_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag)
}

/// Horizontal bars, largest first, with 95% whiskers where known.
pub fn bars<DB: DrawingBackend>(root: &Area<'_, DB>, b: &Bars, footer: &str) -> DrawResult {
    let body = frame(root, &b.title, footer)?;
    let (w, h) = body.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    // bar labels: at most 45% of the width, shrunk to fit that
    let widest = b.bars.iter().map(|x| x.label.as_str()).max_by_key(|l| text_width(l, Sizes::tick())).unwrap_or("");
    let label_size = one_line_size(widest, w * 9 / 20 - Sizes::tick() as i32, Sizes::tick(), false);
    let label_w = b.bars.iter().map(|x| text_width(&x.label, label_size)).max().unwrap_or(0) + Sizes::tick() as i32;
    let axis_h = Sizes::label() as i32 * 3;
    let max = b.bars.iter().map(|x| x.high.unwrap_or(x.value).max(x.value)).fold(0.0, f64::max);
    let step = tick_step(max);
    // room right of the longest bar for its value (and for the last tick's label)
    let value_w = b
        .bars
        .iter()
        .map(|x| text_width(&fmt_value(x.value, step / 10.0), Sizes::tick() * 4 / 5))
        .max()
        .unwrap_or(0)
        .max(text_width(&fmt_value(max.max(step) * 2.0, step), Sizes::tick() * 4 / 5) / 2);
    let plot_w = w - label_w - (value_w + Sizes::tick() as i32).max(Sizes::label() as i32 * 4);
    let plot_h = h - axis_h;
    let top = (max / step).ceil().max(1.0) * step;
    let xs = |v: f64| label_w + (v / top * plot_w as f64) as i32;
    let n = b.bars.len().max(1) as i32;
    let row_h = plot_h / n;
    let grid = RGBColor(225, 225, 225);
    let mut t = 0.0;
    while t <= top + 1e-12 {
        body.draw(&PathElement::new(vec![(xs(t), 0), (xs(t), plot_h)], grid.stroke_width(2))).map_err(err)?;
        put(
            &body,
            &fmt_value(t, step),
            (xs(t), plot_h + 6),
            &text_style(Sizes::tick() * 4 / 5, INK, HPos::Center, VPos::Top),
        )?;
        t += step;
    }
    for (i, bar) in b.bars.iter().enumerate() {
        let y0 = i as i32 * row_h + row_h / 6;
        let y1 = (i as i32 + 1) * row_h - row_h / 6;
        let colour = scale(0.35);
        body.draw(&Rectangle::new([(xs(0.0), y0), (xs(bar.value), y1)], colour.filled())).map_err(err)?;
        let mid = (y0 + y1) / 2;
        put(
            &body,
            &bar.label,
            (label_w - Sizes::tick() as i32 / 2, mid),
            &text_style(label_size, INK, HPos::Right, VPos::Center),
        )?;
        let mut end = xs(bar.value);
        if let (Some(lo), Some(hi)) = (bar.low, bar.high) {
            let cap = (y1 - y0) / 3;
            let line = INK.stroke_width(3);
            body.draw(&PathElement::new(vec![(xs(lo), mid), (xs(hi), mid)], line)).map_err(err)?;
            for x in [xs(lo), xs(hi)] {
                body.draw(&PathElement::new(vec![(x, mid - cap), (x, mid + cap)], line)).map_err(err)?;
            }
            end = end.max(xs(hi));
        }
        put(
            &body,
            &fmt_value(bar.value, step / 10.0),
            (end + Sizes::tick() as i32 / 3, mid),
            &text_style(Sizes::tick() * 4 / 5, INK, HPos::Left, VPos::Center),
        )?;
    }
    body.draw(&PathElement::new(vec![(label_w, 0), (label_w, plot_h)], INK.stroke_width(3))).map_err(err)?;
    put(
        &body,
        &b.value_label,
        (w / 2, h - Sizes::label() as i32 / 2),
        &text_style(one_line_size(&b.value_label, w, Sizes::label(), false), INK, HPos::Center, VPos::Bottom),
    )
}

/// A value with as many decimals as `step` needs.
fn fmt_value(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 { 0 } else { (-step.log10().floor()) as usize };
    format!("{v:.decimals$}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_text_never_exceeds_its_width() {
        let long = "Weapons: expected life taken per attack (at most one a turn), per ton (mean over targets; \
                    range 36, terrain heavy, weather overcast, attack-and-dodge, target dug-in+forest)";
        let size = Sizes::title();
        assert!(text_width(long, size) > 2916, "the case needs fitting");
        let f = fit(long, 2916, size, Sizes::label(), 2, true);
        assert!(f.lines.len() <= 2 && f.size <= size && f.size >= Sizes::label(), "{f:?}");
        assert!(f.lines.iter().all(|l| width_at(l, f.size, true) <= 2916), "{f:?}");
        assert_eq!(f.lines.join(" "), long, "wrapping loses no word");
        // short text is left alone
        assert_eq!(fit("Turn", 2916, size, 10, 2, false), Fitted { size, lines: vec!["Turn".into()] });
        // a single word too wide for the room shrinks until it fits
        let narrow = fit("Autocannon", 60, Sizes::tick(), Sizes::smallest(), 2, false);
        assert!(text_width(&narrow.lines[0], narrow.size) <= 60 && narrow.size < Sizes::smallest());
        assert!(one_line_size(long, 1000, size, false) < size);
        assert!(text_width(long, one_line_size(long, 1000, size, false)) <= 1000);
    }
}
