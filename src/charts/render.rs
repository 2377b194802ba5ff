//! Rendering a chart to SVG text and to a 300 dpi PNG.

use plotters::prelude::*;

use super::data::{Bars, CurvePanels, Heatmap};
use super::draw;
use super::style::{DPI, register_fonts};

/// What a chart draws.
#[derive(Debug, Clone, PartialEq)]
pub enum ChartKind {
    Heatmap(Heatmap),
    Curves(CurvePanels),
    Bars(Bars),
    /// Small multiples of lines over a varied stat (sensitivity sweeps).
    Lines(super::lines::LinePanels),
}

/// A chart and the file stem it is written under (`charts/<name>.svg|png`).
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    pub name: String,
    pub kind: ChartKind,
    /// Every value drawn is exact (a detail table's): the footer then states that instead
    /// of the report's trials per cell (see [`super::footer_of`]).
    pub exact: bool,
}

/// Page width in pixels: 10 inches at 300 dpi.
pub const WIDTH: u32 = 3000;

/// Height of the shared legend of small multiples across the page inside its margins.
fn legend_height(labels: &[String]) -> u32 {
    draw::legend_height(labels, WIDTH as i32 - 2 * super::style::Sizes::margin() as i32)
}

impl Chart {
    pub fn title(&self) -> &str {
        match &self.kind {
            ChartKind::Heatmap(h) => &h.title,
            ChartKind::Curves(c) => &c.title,
            ChartKind::Bars(b) => &b.title,
            ChartKind::Lines(l) => &l.title,
        }
    }

    /// Width and height in pixels (at 300 dpi).
    pub fn size(&self) -> (u32, u32) {
        match &self.kind {
            ChartKind::Heatmap(h) => (WIDTH, draw::heatmap_height(h).max(900)),
            ChartKind::Curves(c) => {
                let labels =
                    draw::series_labels(c.panels.iter().flat_map(|(_, cs)| cs.iter().map(|c| c.label.as_str())));
                (WIDTH, 260 + legend_height(&labels) + 900 * c.panels.len().max(1).div_ceil(3) as u32)
            }
            ChartKind::Bars(b) => (WIDTH, draw::bars_height(b).max(900)),
            ChartKind::Lines(l) => {
                let labels = super::lines::labels(l);
                (WIDTH, 260 + legend_height(&labels) + 900 * l.panels.len().max(1).div_ceil(3) as u32)
            }
        }
    }

    fn draw_on<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
        footer: &str,
    ) -> Result<(), String> {
        match &self.kind {
            ChartKind::Heatmap(h) => draw::heatmap(root, h, footer),
            ChartKind::Curves(c) => draw::curves(root, c, footer),
            ChartKind::Bars(b) => draw::bars(root, b, footer),
            ChartKind::Lines(l) => super::lines::draw(&draw::frame(root, &l.title, footer)?, l),
        }
    }

    /// The chart as an SVG document.
    pub fn svg(&self, footer: &str) -> Result<String, String> {
        register_fonts();
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, self.size()).into_drawing_area();
            self.draw_on(&root, footer)?;
            root.present().map_err(|e| format!("cannot render SVG: {e:?}"))?;
        }
        Ok(xml_chars(out))
    }

    /// The chart as a PNG file at 300 dpi (the resolution is recorded in the file).
    pub fn png(&self, footer: &str) -> Result<Vec<u8>, String> {
        register_fonts();
        let (w, h) = self.size();
        let mut rgb = vec![255u8; (w * h * 3) as usize];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            self.draw_on(&root, footer)?;
            root.present().map_err(|e| format!("cannot render PNG: {e:?}"))?;
        }
        encode_png(&rgb, w, h)
    }
}

/// `svg` with every character XML 1.0 does not allow (control characters other than tab,
/// line feed and carriage return; U+FFFE and U+FFFF) replaced by U+FFFD, so that the
/// document parses whatever text a chart was given (markup characters are escaped by the
/// SVG backend).
pub fn xml_chars(svg: String) -> String {
    let bad = |c: char| (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || matches!(c, '\u{fffe}' | '\u{ffff}');
    if !svg.contains(bad) {
        return svg;
    }
    svg.chars().map(|c| if bad(c) { '\u{fffd}' } else { c }).collect()
}

/// RGB pixels to PNG bytes with a pHYs chunk saying 300 dpi (zlib level 2).
pub fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let ppm = (DPI / 0.0254).round() as u32;
        enc.set_pixel_dims(Some(png::PixelDimensions { xppu: ppm, yppu: ppm, unit: png::Unit::Meter }));
        // zlib level 2 with adaptive filters: on the standard sweep's charts, 5% more
        // bytes than the default level 6 in two thirds of the time (the pixels are the
        // same at any level).
        enc.set_deflate_compression(png::DeflateCompression::Level(2));
        enc.set_filter(png::Filter::Adaptive);
        let mut writer = enc.write_header().map_err(|e| format!("cannot encode PNG: {e}"))?;
        writer.write_image_data(rgb).map_err(|e| format!("cannot encode PNG: {e}"))?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_forbidden_characters_become_replacement_characters() {
        let svg = "<svg><text>a\0b\u{1b}[31m\u{7}\t\n\u{fffe}&amp;</text></svg>".to_string();
        assert_eq!(xml_chars(svg), "<svg><text>a\u{fffd}b\u{fffd}[31m\u{fffd}\t\n\u{fffd}&amp;</text></svg>");
        let clean = "<svg><text>Ünïcødé &lt;</text></svg>".to_string();
        assert_eq!(xml_chars(clean.clone()), clean);
    }
}
