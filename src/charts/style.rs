//! Print styling: sizes at 300 dpi, the font, colour scales that read in greyscale and
//! for colour-blind readers (viridis: monotone lightness, no red-green contrast).

use plotters::style::colors::colormaps::{ColorMap, ViridisRGB};
use plotters::style::{FontStyle, RGBColor};

/// Pixels per inch of the PNG files (and the SVG user units).
pub const DPI: f64 = 300.0;
/// The font family every chart uses (registered from the embedded DejaVu Sans).
pub const FONT: &str = "sans-serif";

/// The embedded DejaVu Sans (regular and bold), also embedded in PDF output.
pub static REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
pub static BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");

/// Register the embedded fonts (once): PNG text then renders the same on every machine.
pub fn register_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The fonts are compiled in: a parse failure would be a build defect.
        assert!(plotters::style::register_font(FONT, FontStyle::Normal, REGULAR).is_ok(), "embedded font parses");
        assert!(plotters::style::register_font(FONT, FontStyle::Bold, BOLD).is_ok(), "embedded font parses");
    });
}

/// Width and height in pixels of `text` drawn at `size` pixels (plotters' size: the SVG
/// font-size is `size / 1.24`) in the embedded font: the measure every chart lays out by.
/// Measured from the font's advance widths and kerning, so it is exact for the PNG and an
/// upper bound for the SVG drawn in the same font.
pub fn text_size(text: &str, size: f64, bold: bool) -> (u32, u32) {
    use plotters::style::IntoFont;
    register_fonts();
    let style = if bold { FontStyle::Bold } else { FontStyle::Normal };
    let font = (FONT, size, style).into_font();
    // The font is embedded and registered, so measuring cannot fail; fall back to a
    // generous 0.7 em per character should it ever.
    font.box_size(text).unwrap_or(((text.chars().count() as f64 * size * 0.7) as u32, size as u32))
}

/// Points to pixels at [`DPI`].
pub fn pt(points: f64) -> u32 {
    (points * DPI / 72.0).round() as u32
}

/// Title, label, tick, cell and footer sizes in pixels.
pub struct Sizes;
impl Sizes {
    pub fn title() -> u32 {
        pt(13.0)
    }
    pub fn label() -> u32 {
        pt(10.0)
    }
    pub fn tick() -> u32 {
        pt(8.5)
    }
    pub fn cell() -> u32 {
        pt(8.0)
    }
    pub fn footer() -> u32 {
        pt(6.5)
    }
    /// Blank space kept between any text and the edges of the canvas.
    pub fn margin() -> u32 {
        pt(10.0)
    }
    /// The smallest size text is shrunk to before it is wrapped instead.
    pub fn smallest() -> u32 {
        pt(6.0)
    }
}

/// The colour of `v` in [0, 1] on the viridis scale.
pub fn scale(v: f64) -> RGBColor {
    ViridisRGB.get_color(v.clamp(0.0, 1.0) as f32)
}

/// Black or white, whichever reads on `bg`.
pub fn ink_on(bg: RGBColor) -> RGBColor {
    let lum = 0.2126 * bg.0 as f64 + 0.7152 * bg.1 as f64 + 0.0722 * bg.2 as f64;
    if lum > 140.0 { RGBColor(0, 0, 0) } else { RGBColor(255, 255, 255) }
}

/// `n` distinct series colours from viridis (its yellow end left out for contrast on white).
pub fn series_colour(i: usize, n: usize) -> RGBColor {
    if n <= 1 {
        return scale(0.0);
    }
    scale(0.85 * i as f64 / (n - 1) as f64)
}

/// Grey for cells without a value.
pub const NO_VALUE: RGBColor = RGBColor(221, 221, 221);
/// Axis and text grey.
pub const INK: RGBColor = RGBColor(30, 30, 30);
