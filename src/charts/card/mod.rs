//! Printable odds cards: a card's heatmaps laid out over as many pages as they need, at a
//! fixed readable size, inside print margins.
//!
//! Layout contract (every page, every paper size):
//! - all text and colour lies inside the page minus [`MARGIN_IN`] on every side;
//! - every text is at least [`MIN_TEXT_PT`] points at print size (cell text: the hit
//!   chance at [`CELL_PT`], the roll needed at [`MIN_TEXT_PT`]);
//! - a heatmap cell is never narrower than its widest text: when a weapon's panels do not
//!   fit side by side they are stacked, and when one panel's ranges do not fit across
//!   the page they continue on further rows; a weapon whose rows do not fit on the page
//!   continues on the next page (its title repeated, "continued").
//!
//! The layout is a display list of rectangles and texts in pixels at [`DPI`] (the SVG
//! user units), drawn with plotters on the SVG and bitmap backends alike.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::Heatmap;
use super::render::encode_png;
use super::style::{DPI, FONT, INK, NO_VALUE, ink_on, register_fonts, scale};
use crate::output::percent::percent_exact;

mod map;
mod print;
pub mod subset;

pub use map::{CardMap, whole_ranges};

/// Print margin on every side, in inches (at least 0.25 inch, what most printers need).
pub const MARGIN_IN: f64 = 0.35;
/// The smallest text on a card, in points at print size (the roll needed in each cell).
pub const MIN_TEXT_PT: f64 = 7.0;
/// The hit chance printed in each cell, in points.
pub const CELL_PT: f64 = 9.0;
const TITLE_PT: f64 = 14.0;
const SUBTITLE_PT: f64 = 9.0;
const BLOCK_TITLE_PT: f64 = 10.0;
const PANEL_TITLE_PT: f64 = 9.0;
const TICK_PT: f64 = 8.0;
const FOOTER_PT: f64 = MIN_TEXT_PT;
const CAPTION_PT: f64 = 7.5;
/// Cell height in points: two lines of text (hit chance and roll) with padding.
const CELL_H_PT: f64 = 22.0;
/// Widest a cell is stretched to, in points (one inch).
const MAX_CELL_W_PT: f64 = 72.0;
/// Padding either side of a cell's text, in points.
const CELL_PAD_PT: f64 = 3.0;
/// Gap between panels side by side, in points.
const PANEL_GAP_PT: f64 = 14.0;
/// Gap after a weapon's block, in points.
const BLOCK_GAP_PT: f64 = 12.0;
/// Line height as a multiple of the font size.
const LINE: f64 = 1.3;
/// The spacing of a layout, in points: the usual one first, then tighter ones the
/// layout falls back to when a card takes more pages than a tighter one needs (text sizes
/// never change: only padding, gaps and cell height, and last how row labels are set).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Spacing {
    cell_h: f64,
    pad: f64,
    panel_gap: f64,
    block_gap: f64,
    labels: Labels,
}

/// How a block may set its row labels to keep its panels side by side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Labels {
    /// As the card map asks (once, or beside every panel).
    AsAsked,
    /// Once, left of the first panel, when the panels fit side by side only so.
    Once,
    /// Once, and on two lines (a cell holds two), when only that fits.
    TwoLines,
}

const SPACINGS: [Spacing; 8] = [
    Spacing {
        cell_h: CELL_H_PT,
        pad: CELL_PAD_PT,
        panel_gap: PANEL_GAP_PT,
        block_gap: BLOCK_GAP_PT,
        labels: Labels::AsAsked,
    },
    // tighter columns: two panels of seven ranges side by side on A4
    Spacing { cell_h: CELL_H_PT, pad: 1.5, panel_gap: 8.0, block_gap: BLOCK_GAP_PT, labels: Labels::AsAsked },
    // and tighter rows (the cell's two lines of text, 17 points, still fit)
    Spacing { cell_h: 19.5, pad: 1.5, panel_gap: 8.0, block_gap: 8.0, labels: Labels::AsAsked },
    // the tightest: cells barely wider than their text
    Spacing { cell_h: 19.5, pad: 0.75, panel_gap: 6.0, block_gap: 8.0, labels: Labels::AsAsked },
    // the usual spacing, panels side by side with their row labels once ...
    Spacing {
        cell_h: CELL_H_PT,
        pad: CELL_PAD_PT,
        panel_gap: PANEL_GAP_PT,
        block_gap: BLOCK_GAP_PT,
        labels: Labels::Once,
    },
    // ... or on two lines (three facings of Shellshock's long unit names on A4)
    Spacing {
        cell_h: CELL_H_PT,
        pad: CELL_PAD_PT,
        panel_gap: PANEL_GAP_PT,
        block_gap: BLOCK_GAP_PT,
        labels: Labels::TwoLines,
    },
    // ... with tighter columns, and the tightest
    Spacing { cell_h: CELL_H_PT, pad: 1.5, panel_gap: 8.0, block_gap: BLOCK_GAP_PT, labels: Labels::TwoLines },
    Spacing { cell_h: 19.5, pad: 0.75, panel_gap: 6.0, block_gap: 8.0, labels: Labels::TwoLines },
];

/// Lines of text are wrapped to this share of the width between the margins: slack for
/// renderers that set the font a little wider than its advances say.
const WRAP_SHARE: f64 = 0.94;

/// Paper sizes the card is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Paper {
    /// US Letter, 8.5 x 11 inches.
    #[default]
    Letter,
    /// ISO A4, 210 x 297 mm.
    A4,
}

impl Paper {
    /// Width and height in PDF points (1/72 inch): letter 612 x 792, A4 595.3 x 841.9.
    pub fn points(self) -> (f64, f64) {
        match self {
            Paper::Letter => (612.0, 792.0),
            Paper::A4 => (210.0 / 25.4 * 72.0, 297.0 / 25.4 * 72.0),
        }
    }

    /// Width and height in pixels at [`DPI`]: letter 2550 x 3300, A4 2480 x 3508.
    pub fn pixels(self) -> (u32, u32) {
        let (w, h) = self.points();
        (px(w).round() as u32, px(h).round() as u32)
    }
}

/// Points to pixels at [`DPI`].
fn px(points: f64) -> f64 {
    points * DPI / 72.0
}

/// A card before layout: its title, subtitle, one block per weapon (or gunner), and the
/// footer line (provenance: the program, the game, the catalogue's hash and origin)
/// printed on every page with the page number.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub title: String,
    pub subtitle: String,
    pub maps: Vec<CardMap>,
    pub footer: String,
}

/// Where a text's x coordinate is: its left end, centre or right end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Left,
    Centre,
    Right,
}

/// One line of text; `top` is the top of its line box (the SVG is written with
/// `dy="0.76em"`: the baseline lies 0.76 em below `top`).
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    pub text: String,
    pub x: f64,
    pub top: f64,
    /// Font size in points at print size.
    pub pt: f64,
    pub bold: bool,
    pub anchor: Anchor,
    pub colour: RGBColor,
}

/// A filled rectangle, corners in pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct RectItem {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub colour: RGBColor,
}

/// One laid-out page: size in pixels at [`DPI`] and what is drawn on it.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// The paper it is laid out for (the SVG file's physical size).
    pub paper: Paper,
    pub width: u32,
    pub height: u32,
    pub rects: Vec<RectItem>,
    pub texts: Vec<TextItem>,
}

/// Plotters' font size for `pt` points: plotters writes SVG `font-size` as its size
/// divided by 1.24, so this makes the SVG (and print) size exactly `pt`.
fn plotters_size(pt: f64) -> f64 {
    px(pt) * 1.24
}

/// Width in pixels of `text` at `pt` points, from the embedded font's advances (as the
/// bitmap backend draws it, a few percent wider than the SVG renders it).
pub fn text_width(text: &str, pt: f64, bold: bool) -> f64 {
    register_fonts();
    let style = if bold { FontStyle::Bold } else { FontStyle::Normal };
    let font = FontDesc::new(FontFamily::Name(FONT), plotters_size(pt), style);
    match font.layout_box(text) {
        Ok(((x0, _), (x1, _))) => (x1 - x0) as f64,
        // Unreachable with the embedded fonts; a generous estimate keeps the layout safe.
        Err(_) => text.chars().count() as f64 * px(pt),
    }
}

/// Greedy word wrap of `text` into lines no wider than `width` pixels. A single word
/// wider than `width` is cut at characters.
pub fn wrap(text: &str, pt: f64, bold: bool, width: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let candidate = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if text_width(&candidate, pt, bold) <= width {
            line = candidate;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if text_width(word, pt, bold) <= width {
            line = word.to_string();
        } else {
            for c in word.chars() {
                let mut next = line.clone();
                next.push(c);
                if !line.is_empty() && text_width(&next, pt, bold) > width {
                    lines.push(std::mem::take(&mut line));
                    line.push(c);
                } else {
                    line = next;
                }
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// A page being filled.
struct Sheet {
    page: Page,
    margin: f64,
}

impl Sheet {
    // one flat call per text keeps the layout code readable: the fields of a `TextItem`
    #[allow(clippy::too_many_arguments)]
    fn text(&mut self, text: &str, x: f64, top: f64, pt: f64, bold: bool, anchor: Anchor, colour: RGBColor) {
        self.page.texts.push(TextItem { text: text.to_string(), x, top, pt, bold, anchor, colour });
    }

    fn rect(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, colour: RGBColor) {
        self.page.rects.push(RectItem { x0, y0, x1, y1, colour });
    }

    /// The width lines of text are wrapped to.
    fn text_width(&self) -> f64 {
        (self.page.width as f64 - 2.0 * self.margin) * WRAP_SHARE
    }

    /// Centred lines from `top`; returns the y below them.
    fn lines(&mut self, lines: &[String], top: f64, pt: f64, bold: bool) -> f64 {
        let x = self.page.width as f64 / 2.0;
        let mut y = top;
        for l in lines {
            self.text(l, x, y, pt, bold, Anchor::Centre, INK);
            y += px(pt * LINE);
        }
        y
    }
}

/// One row of panels of a weapon's block: which panel, which columns.
#[derive(Debug, Clone)]
struct Row {
    units: Vec<(usize, std::ops::Range<usize>)>,
}

/// A weapon's block measured for layout.
struct Block<'a> {
    sp: Spacing,
    cm: &'a CardMap,
    map: &'a Heatmap,
    title: Vec<String>,
    caption: Vec<String>,
    rows: Vec<Row>,
    ytick_w: f64,
    /// Some panel's columns continue on another row (its title then names its span).
    split: bool,
    cell_w: f64,
    /// Panels side by side print the row labels once, left of the first: the card map
    /// asks for it, or the panels fit side by side only that way.
    shared: bool,
    /// Each row label's lines: one, or two when the panels fit side by side only so.
    ylabels: Vec<Vec<String>>,
}

/// Line height of a row label on two lines, as a multiple of its size.
const LABEL_LINE: f64 = 1.15;

/// `label` on two lines broken at the space that makes the wider line narrowest (one line
/// when it has no space).
fn two_lines(label: &str, pt: f64) -> Vec<String> {
    label
        .match_indices(' ')
        .map(|(i, _)| vec![label[..i].to_string(), label[i + 1..].to_string()])
        .min_by(|a, b| {
            let w = |l: &Vec<String>| l.iter().map(|s| text_width(s, pt, false)).fold(0.0, f64::max);
            w(a).total_cmp(&w(b))
        })
        .unwrap_or_else(|| vec![label.to_string()])
}

fn cell_texts(cm: &CardMap, p: usize, r: usize, c: usize) -> (String, Option<String>) {
    let map = &cm.map;
    let v = map.panels[p].1.get(r).and_then(|row| row.get(c)).copied().flatten();
    let main = match cm.text(p, r, c) {
        Some(t) => t.to_string(),
        None => v.map_or("–".to_string(), percent_exact),
    };
    let note = map.notes.as_ref().and_then(|n| n.get(p)).and_then(|g| g.get(r)?.get(c)?.clone());
    (main, note)
}

impl<'a> Block<'a> {
    fn new(cm: &'a CardMap, width: f64, sp: Spacing) -> Block<'a> {
        let map = &cm.map;
        let pad = px(sp.pad);
        let label_width = |ls: &[Vec<String>]| {
            ls.iter().flatten().map(|s| text_width(s, TICK_PT, false)).fold(0.0, f64::max) + 2.0 * pad
        };
        let one_line: Vec<Vec<String>> = map.y.iter().map(|s| vec![s.clone()]).collect();
        let mut cell_w: f64 = map.x.iter().map(|s| text_width(s, TICK_PT, false)).fold(0.0, f64::max);
        for p in 0..map.panels.len() {
            for r in 0..map.y.len() {
                for c in 0..map.x.len() {
                    let (main, note) = cell_texts(cm, p, r, c);
                    cell_w = cell_w.max(text_width(&main, CELL_PT, false));
                    if let Some(n) = note {
                        cell_w = cell_w.max(text_width(&n, MIN_TEXT_PT, false));
                    }
                }
            }
        }
        let min_cell_w = (cell_w + 2.0 * pad).ceil();
        let gap = px(sp.panel_gap);
        let (n_panels, n_cols) = (map.panels.len().max(1), map.x.len().max(1));
        let fits_with = |across: usize, cols: usize, shared: bool, ytick_w: f64| {
            let labels = if shared { 1 } else { across } as f64 * ytick_w;
            labels + (across * cols) as f64 * min_cell_w + (across - 1) as f64 * gap <= width
        };
        // Every panel has the same rows, so when the panels do not fit side by side as
        // asked, printing the row labels once, then on two lines (where a cell holds two
        // lines), keeps them side by side (the spacing says whether it may: a layout
        // that fits the card as asked keeps its look).
        let two_lines_fit = px(sp.cell_h) - 3.0 >= px(TICK_PT) + px(TICK_PT * LABEL_LINE);
        let mut ways = vec![(cm.shared_row_labels, one_line.clone())];
        if sp.labels >= Labels::Once {
            ways.push((true, one_line.clone()));
        }
        if sp.labels >= Labels::TwoLines && two_lines_fit {
            ways.push((true, map.y.iter().map(|s| two_lines(s, TICK_PT)).collect()));
        }
        let (shared, ylabels) = ways
            .into_iter()
            .find(|(shared, ls)| fits_with(n_panels, n_cols, *shared, label_width(ls)))
            .unwrap_or((cm.shared_row_labels, one_line));
        let ytick_w = label_width(&ylabels);
        let labels = |across: usize| if shared { 1 } else { across } as f64 * ytick_w;
        let fits = |across: usize, cols: usize| fits_with(across, cols, shared, ytick_w);
        let mut rows = Vec::new();
        let (across, chunk) = if fits(n_panels, n_cols) {
            rows.push(Row { units: (0..n_panels).map(|p| (p, 0..n_cols)).collect() });
            (n_panels, n_cols)
        } else {
            // as few rows as fit, of balanced widths (no orphan column on a row of its own)
            let most = (1..=n_cols).rev().find(|&k| fits(1, k)).unwrap_or(1);
            let chunk = n_cols.div_ceil(n_cols.div_ceil(most));
            for p in 0..n_panels {
                let mut c0 = 0;
                while c0 < n_cols {
                    let c1 = (c0 + chunk).min(n_cols);
                    rows.push(Row { units: vec![(p, c0..c1)] });
                    c0 = c1;
                }
            }
            (1, chunk)
        };
        // stretch cells to use the width, up to an inch
        let room = (width - labels(across) - (across - 1) as f64 * gap) / (across * chunk) as f64;
        let cell_w = room.min(px(MAX_CELL_W_PT)).max(min_cell_w).floor();
        let title = wrap(&map.title, BLOCK_TITLE_PT, true, width * WRAP_SHARE);
        let caption = cm.caption.iter().flat_map(|l| wrap(l, CAPTION_PT, false, width * WRAP_SHARE)).collect();
        let split = rows.iter().any(|r| r.units.iter().any(|(_, c)| c.len() < map.x.len()));
        Block { sp, cm, map, title, caption, rows, ytick_w, ylabels, cell_w, split, shared }
    }

    fn title_height(&self) -> f64 {
        self.title.len() as f64 * px(BLOCK_TITLE_PT * LINE) + px(2.0)
    }

    /// Height of the caption lines under the last row (0 without a caption).
    fn caption_height(&self) -> f64 {
        self.caption.len() as f64 * px(CAPTION_PT * LINE)
    }

    /// Draw the caption lines from `top`, left-aligned at the page's text margin.
    fn draw_caption(&self, sheet: &mut Sheet, top: f64) {
        let x = sheet.margin + (sheet.page.width as f64 - 2.0 * sheet.margin) * (1.0 - WRAP_SHARE) / 2.0;
        for (k, l) in self.caption.iter().enumerate() {
            sheet.text(l, x, top + k as f64 * px(CAPTION_PT * LINE), CAPTION_PT, false, Anchor::Left, INK);
        }
    }

    fn panel_title_h(&self) -> f64 {
        if self.split || self.map.panels.iter().any(|(t, _)| !t.is_empty()) { px(PANEL_TITLE_PT * LINE) } else { 0.0 }
    }

    fn row_height(&self) -> f64 {
        self.panel_title_h()
            + px(self.sp.cell_h) * self.map.y.len() as f64
            + px(3.0)
            + 2.0 * px(TICK_PT * LINE)
            + px(self.sp.block_gap) / 2.0
    }

    /// Draw row `i` with its top at `top`.
    fn draw_row(&self, sheet: &mut Sheet, i: usize, top: f64) {
        let m = self.map;
        let row = &self.rows[i];
        let gap = px(self.sp.panel_gap);
        // with shared row labels only the first panel of a row prints them
        let label_w = |j: usize| if j == 0 || !self.shared { self.ytick_w } else { 0.0 };
        let unit_w = |j: usize, cols: usize| label_w(j) + cols as f64 * self.cell_w;
        let total: f64 = row.units.iter().enumerate().map(|(j, (_, c))| unit_w(j, c.len())).sum::<f64>()
            + gap * (row.units.len() - 1) as f64;
        let mut x0 = (sheet.page.width as f64 - total) / 2.0;
        let cell_h = px(self.sp.cell_h);
        let pad = px(self.sp.pad);
        for (j, (p, cols)) in row.units.iter().enumerate() {
            let (p, cols) = (*p, cols.clone());
            let grid_x = x0 + label_w(j);
            let grid_w = cols.len() as f64 * self.cell_w;
            let mut title = m.panels[p].0.clone();
            if cols.len() < m.x.len() {
                let span = if cols.len() == 1 {
                    m.x[cols.start].clone()
                } else {
                    format!("{}-{}", m.x[cols.start], m.x[cols.end - 1])
                };
                let span =
                    if self.cm.column_unit.is_empty() { span } else { format!("{span} {}", self.cm.column_unit) };
                title = format!("{title} ({span})").trim().to_string();
            }
            if !title.is_empty() {
                sheet.text(&title, grid_x + grid_w / 2.0, top, PANEL_TITLE_PT, true, Anchor::Centre, INK);
            }
            let grid_top = top + self.panel_title_h();
            for (r, lines) in self.ylabels.iter().enumerate() {
                let cy = grid_top + r as f64 * cell_h;
                if label_w(j) > 0.0 {
                    let lh = px(TICK_PT * LABEL_LINE);
                    let top = cy + (cell_h - px(TICK_PT) - lh * (lines.len() as f64 - 1.0)) / 2.0;
                    for (k, line) in lines.iter().enumerate() {
                        sheet.text(line, grid_x - pad, top + k as f64 * lh, TICK_PT, false, Anchor::Right, INK);
                    }
                }
                for (k, c) in cols.clone().enumerate() {
                    let cx = grid_x + k as f64 * self.cell_w;
                    let v = m.panels[p].1.get(r).and_then(|row| row.get(c)).copied().flatten();
                    let bg = v.map_or(NO_VALUE, scale);
                    sheet.rect(cx, cy, cx + self.cell_w - 3.0, cy + cell_h - 3.0, bg);
                    let ink = ink_on(bg);
                    let (main, note) = cell_texts(self.cm, p, r, c);
                    let centre = cx + (self.cell_w - 3.0) / 2.0;
                    match note {
                        Some(n) => {
                            let block = px(CELL_PT) + px(1.0) + px(MIN_TEXT_PT);
                            let t = cy + (cell_h - 3.0 - block) / 2.0;
                            sheet.text(&main, centre, t, CELL_PT, false, Anchor::Centre, ink);
                            sheet.text(&n, centre, t + px(CELL_PT) + px(1.0), MIN_TEXT_PT, false, Anchor::Centre, ink);
                        }
                        None => {
                            let t = cy + (cell_h - 3.0 - px(CELL_PT)) / 2.0;
                            sheet.text(&main, centre, t, CELL_PT, false, Anchor::Centre, ink);
                        }
                    }
                }
            }
            let ticks_top = grid_top + cell_h * m.y.len() as f64 + px(3.0);
            for (k, c) in cols.clone().enumerate() {
                let cx = grid_x + k as f64 * self.cell_w + (self.cell_w - 3.0) / 2.0;
                sheet.text(&m.x[c], cx, ticks_top, TICK_PT, false, Anchor::Centre, INK);
            }
            let label_top = ticks_top + px(TICK_PT * LINE);
            sheet.text(&m.x_label, grid_x + grid_w / 2.0, label_top, TICK_PT, false, Anchor::Centre, INK);
            x0 += unit_w(j, cols.len()) + gap;
        }
    }
}

/// The page header (title, subtitle, colour legend) from the top margin; returns the y
/// below it.
fn header(sheet: &mut Sheet, card: &Card, scale_label: &str) -> f64 {
    let w = sheet.text_width();
    let mut y = sheet.margin;
    y = sheet.lines(&wrap(&card.title, TITLE_PT, true, w), y, TITLE_PT, true);
    y = sheet.lines(&wrap(&card.subtitle, SUBTITLE_PT, false, w), y, SUBTITLE_PT, false);
    y += px(4.0);
    // a horizontal colour bar, 0% to 100%, labelled on its left
    let label = format!("{scale_label}:");
    let label_w = text_width(&label, TICK_PT, false);
    let bar_w = px(200.0).min(w - label_w - px(20.0));
    let bar_h = px(TICK_PT);
    let x0 = (sheet.page.width as f64 - (label_w + px(8.0) + bar_w)) / 2.0;
    sheet.text(&label, x0, y, TICK_PT, false, Anchor::Left, INK);
    let bx = x0 + label_w + px(8.0);
    let steps = 50;
    for i in 0..steps {
        let a = bx + bar_w * i as f64 / steps as f64;
        let b = bx + bar_w * (i + 1) as f64 / steps as f64;
        sheet.rect(a, y, b + 1.0, y + bar_h, scale((i as f64 + 0.5) / steps as f64));
    }
    for k in 0..=4 {
        let x = bx + bar_w * k as f64 / 4.0;
        sheet.rect(x - 1.5, y + bar_h, x + 1.5, y + bar_h + px(2.0), INK);
        sheet.text(&format!("{}%", k * 25), x, y + bar_h + px(2.5), MIN_TEXT_PT, false, Anchor::Centre, INK);
    }
    y + bar_h + px(2.5) + px(MIN_TEXT_PT * LINE) + px(8.0)
}

/// Lay `card` out on pages of `paper`, as many as it needs (at least one).
///
/// # Errors
/// When one row of a heatmap does not fit on an empty page (a heatmap with very many
/// target rows): the card is refused rather than printed below the readable size.
pub fn layout(card: &Card, paper: Paper) -> Result<Vec<Page>, String> {
    // the usual spacing unless a tighter one takes fewer pages (then the loosest of those)
    let mut best = layout_with(card, paper, SPACINGS[0]);
    for sp in &SPACINGS[1..] {
        match (&best, layout_with(card, paper, *sp)) {
            (Ok(b), Ok(t)) if b.len() > 1 && t.len() < b.len() => best = Ok(t),
            (Err(_), Ok(t)) => best = Ok(t),
            _ => {}
        }
    }
    best
}

fn layout_with(card: &Card, paper: Paper, sp: Spacing) -> Result<Vec<Page>, String> {
    let (width, height) = paper.pixels();
    let margin = px(MARGIN_IN * 72.0).ceil();
    let content_w = width as f64 - 2.0 * margin;
    let blank = || Sheet { page: Page { paper, width, height, rects: Vec::new(), texts: Vec::new() }, margin };
    let scale_label = card.maps.first().map_or("P(hit) per shot", |m| m.map.scale_label.as_str()).to_string();
    // the footer is wrapped for the widest page number it can carry
    let footer_lines = |k: usize, n: usize| {
        wrap(&format!("{} · page {k} of {n}", card.footer), FOOTER_PT, false, content_w * WRAP_SHARE)
    };
    let footer_h = footer_lines(999, 999).len() as f64 * px(FOOTER_PT * LINE);
    let bottom = height as f64 - margin - footer_h - px(6.0);
    let blocks: Vec<Block> = card.maps.iter().map(|m| Block::new(m, content_w, sp)).collect();

    let mut sheets = Vec::new();
    let mut sheet = blank();
    let mut y = header(&mut sheet, card, &scale_label);
    let mut used = false;
    for b in &blocks {
        let last = b.rows.len().saturating_sub(1);
        for (i, _) in b.rows.iter().enumerate() {
            let title_h = if i == 0 { b.title_height() } else { 0.0 };
            let caption_h = if i == last { b.caption_height() } else { 0.0 };
            if y + title_h + b.row_height() + caption_h > bottom && used {
                sheets.push(std::mem::replace(&mut sheet, blank()));
                y = header(&mut sheet, card, &scale_label);
                if i > 0 {
                    let cont = wrap(&format!("{} (continued)", b.map.title), BLOCK_TITLE_PT, true, sheet.text_width());
                    y = sheet.lines(&cont, y, BLOCK_TITLE_PT, true) + px(2.0);
                }
            }
            if i == 0 {
                y = sheet.lines(&b.title, y, BLOCK_TITLE_PT, true) + px(2.0);
            }
            if y + b.row_height() + caption_h > bottom + px(b.sp.block_gap) / 2.0 {
                return Err(format!(
                    "the heatmap of {} is too tall for one page even at the smallest readable size",
                    b.map.title
                ));
            }
            b.draw_row(&mut sheet, i, y);
            y += b.row_height();
            if i == last && caption_h > 0.0 {
                b.draw_caption(&mut sheet, y - px(b.sp.block_gap) / 2.0);
                y += caption_h;
            }
            used = true;
        }
        y += px(b.sp.block_gap) / 2.0;
    }
    sheets.push(sheet);
    let n = sheets.len();
    let mut pages = Vec::with_capacity(n);
    for (k, mut s) in sheets.into_iter().enumerate() {
        let lines = footer_lines(k + 1, n);
        let mut top = height as f64 - margin - lines.len() as f64 * px(FOOTER_PT * LINE);
        for l in &lines {
            s.text(l, width as f64 / 2.0, top, FOOTER_PT, false, Anchor::Centre, RGBColor(90, 90, 90));
            top += px(FOOTER_PT * LINE);
        }
        pages.push(s.page);
    }
    Ok(pages)
}

impl Page {
    fn draw_on<DB: DrawingBackend>(&self, root: &DrawingArea<DB, plotters::coord::Shift>) -> Result<(), String> {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing failed: {e:?}");
        root.fill(&WHITE).map_err(err)?;
        for r in &self.rects {
            let (a, b) = ((r.x0.round() as i32, r.y0.round() as i32), (r.x1.round() as i32, r.y1.round() as i32));
            root.draw(&Rectangle::new([a, b], r.colour.filled())).map_err(err)?;
        }
        for t in &self.texts {
            let style = if t.bold { FontStyle::Bold } else { FontStyle::Normal };
            let h = match t.anchor {
                Anchor::Left => HPos::Left,
                Anchor::Centre => HPos::Center,
                Anchor::Right => HPos::Right,
            };
            let ts = TextStyle {
                color: t.colour.to_backend_color(),
                ..TextStyle::from((FONT, plotters_size(t.pt), style).into_font())
            }
            .pos(Pos::new(h, VPos::Top));
            root.draw(&Text::new(t.text.clone(), (t.x.round() as i32, t.top.round() as i32), ts)).map_err(err)?;
        }
        Ok(())
    }

    /// The page as an SVG document (user units are pixels at [`DPI`]).
    pub fn svg(&self) -> Result<String, String> {
        register_fonts();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (self.width, self.height)).into_drawing_area();
            self.draw_on(&root)?;
            root.present().map_err(|e| format!("cannot render SVG: {e:?}"))?;
        }
        Ok(out)
    }

    /// The page as an SVG print file: physical size (`width="8.5in"`, `"210mm"`), user
    /// units pixels at [`DPI`] through the `viewBox`, DejaVu Sans embedded (only the
    /// glyphs of the page's characters: [`subset`]).
    pub fn svg_file(&self) -> Result<String, String> {
        print::print_file(&self.svg()?, self.paper)
    }

    /// The page as a PNG at [`DPI`] (the resolution is recorded in the file).
    pub fn png(&self) -> Result<Vec<u8>, String> {
        register_fonts();
        let (w, h) = (self.width, self.height);
        let mut rgb = vec![255u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            self.draw_on(&root)?;
            root.present().map_err(|e| format!("cannot render PNG: {e:?}"))?;
        }
        encode_png(&rgb, w, h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(title: &str, ranges: usize) -> Heatmap {
        let x: Vec<String> = (1..=ranges).map(|r| format!("{}", r * 6)).collect();
        let grid = vec![vec![Some(0.55); ranges]; 6];
        let notes = vec![vec![vec![Some("roll ≤11".to_string()); ranges]; 6]; 2];
        Heatmap {
            title: title.into(),
            x_label: "Range (inches)".into(),
            y_label: "Target AC".into(),
            x,
            y: (1..=6).map(|a| format!("AC{a}")).collect(),
            panels: vec![("In the open".into(), grid.clone()), ("In the fog".into(), grid)],
            notes: Some(notes),
            scale_label: "P(hit) per shot".into(),
        }
    }

    fn card(n: usize, ranges: usize) -> Card {
        Card {
            title: "Odds card: Test".into(),
            subtitle: "Hit chance per shot".into(),
            maps: (0..n)
                .map(|i| map(&format!("Weapon {i}: 6 d20 per action, 8 damage a hit"), ranges).into())
                .collect(),
            footer: "volley test".into(),
        }
    }

    /// Every text (by measured width) and rectangle lies inside the margins, and no
    /// text is below the minimum size.
    fn assert_inside(pages: &[Page]) {
        let m = px(MARGIN_IN * 72.0);
        for (k, p) in pages.iter().enumerate() {
            let (w, h) = (p.width as f64, p.height as f64);
            for t in &p.texts {
                assert!(t.pt >= MIN_TEXT_PT, "page {k}: {:?} at {} pt", t.text, t.pt);
                let tw = text_width(&t.text, t.pt, t.bold);
                let (l, r) = match t.anchor {
                    Anchor::Left => (t.x, t.x + tw),
                    Anchor::Centre => (t.x - tw / 2.0, t.x + tw / 2.0),
                    Anchor::Right => (t.x - tw, t.x),
                };
                assert!(l >= m && r <= w - m, "page {k}: {:?} spans {l:.0}..{r:.0} of {w}", t.text);
                assert!(t.top >= m && t.top + px(t.pt) * 1.2 <= h - m, "page {k}: {:?} at y {:.0}", t.text, t.top);
            }
            for r in &p.rects {
                assert!(r.x0 >= m && r.x1 <= w - m && r.y0 >= m && r.y1 <= h - m, "page {k}: {r:?}");
            }
        }
    }

    #[test]
    fn one_weapon_is_one_page_and_six_take_more() {
        let one = layout(&card(1, 7), Paper::Letter).unwrap();
        assert_eq!(one.len(), 1);
        assert_inside(&one);
        let six = layout(&card(6, 7), Paper::Letter).unwrap();
        assert!(six.len() >= 2, "six weapons at readable size need more than a page");
        assert_inside(&six);
        assert!(six.iter().all(|p| (p.width, p.height) == (2550, 3300)));
        let a4 = layout(&card(6, 7), Paper::A4).unwrap();
        assert!(a4.iter().all(|p| (p.width, p.height) == (2480, 3508)));
        assert_inside(&a4);
    }

    #[test]
    fn many_ranges_stack_and_wrap_instead_of_shrinking() {
        for ranges in [1, 7, 12, 30] {
            let pages = layout(&card(2, ranges), Paper::A4).unwrap();
            assert_inside(&pages);
            // every cell is at least as wide as its widest text
            let cells: Vec<&RectItem> = pages
                .iter()
                .flat_map(|p| p.rects.iter())
                .filter(|r| r.y1 - r.y0 > px(SPACINGS[2].cell_h) - 4.0)
                .collect();
            assert_eq!(cells.len(), 2 * 2 * 6 * ranges, "every cell drawn once at {ranges} ranges");
            let need = text_width("roll ≤11", MIN_TEXT_PT, false);
            assert!(cells.iter().all(|r| r.x1 - r.x0 >= need), "{ranges} ranges: a cell narrower than its text");
        }
    }

    #[test]
    fn ranges_split_into_balanced_rows() {
        let width = Paper::Letter.pixels().0 as f64 - 2.0 * px(MARGIN_IN * 72.0);
        let m = map("W", 16).into();
        let b = Block::new(&m, width, SPACINGS[0]);
        let widths: Vec<usize> = b.rows.iter().map(|r| r.units[0].1.len()).collect();
        assert_eq!(widths, [8, 8, 8, 8], "two panels of 16 ranges: two rows of 8 each");
        let m = map("W", 7).into();
        assert_eq!(Block::new(&m, width, SPACINGS[0]).rows.len(), 1, "7 ranges: both panels side by side");
    }

    #[test]
    fn panels_share_their_row_labels_rather_than_stack() {
        // three panels of two columns with long row labels: side by side only when the
        // labels are printed once (A4) at the usual spacing; stacked, two such blocks take
        // two pages, so the layout keeps them side by side and the card stays one page
        let long = |p: usize| -> Heatmap {
            let mut m = map("W", 2);
            m.y = (1..=6).map(|a| format!("Strider Walker {a}")).collect();
            m.notes = Some(vec![vec![vec![Some("Dead <0.1%".to_string()); 2]; 6]; p]);
            m.panels = (0..p).map(|k| (format!("Panel {k}"), vec![vec![Some(0.5); 2]; 6])).collect();
            m
        };
        let width = Paper::A4.pixels().0 as f64 - 2.0 * px(MARGIN_IN * 72.0);
        let m: CardMap = long(3).into();
        assert!(!Block::new(&m, width, SPACINGS[0]).shared, "the usual spacing keeps the labels as asked");
        let b = Block::new(&m, width, SPACINGS[4]);
        let cells = 6.0 * (text_width("Dead <0.1%", MIN_TEXT_PT, false) + 2.0 * px(SPACINGS[4].pad));
        let thrice = 3.0 * b.ytick_w + cells + 2.0 * px(SPACINGS[4].panel_gap);
        assert!(thrice > width, "the case needs the labels printed once");
        assert!(b.shared && b.rows.len() == 1, "side by side, labels once: {} rows", b.rows.len());
        let card = Card { title: "T".into(), subtitle: "S".into(), maps: vec![m.clone(), m], footer: "f".into() };
        let pages = layout(&card, Paper::A4).unwrap();
        assert_eq!(pages.len(), 1);
        assert_inside(&pages);
        // one panel keeps its own labels (nothing to share)
        let one: CardMap = long(1).into();
        assert!(!Block::new(&one, width, SPACINGS[4]).shared);
    }

    #[test]
    fn wrap_keeps_lines_within_width() {
        let text = "volley 0.1.0 · Rules Manual · catalogue 182525334767d65c (/a/very/long/path/to/a/catalogue/dir)";
        let lines = wrap(text, 7.0, false, 600.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| text_width(l, 7.0, false) <= 600.0), "{lines:?}");
        assert_eq!(lines.join(" "), text);
    }
}
