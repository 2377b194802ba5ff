//! The card's SVG as a print file: the page's physical size on the root element (its
//! user units stay pixels at [`DPI`](super::DPI) through the `viewBox`) and the embedded
//! DejaVu Sans, cut down to the glyphs the page uses, as `@font-face` rules with base64
//! data, so the file prints the same on a machine without the font.

use super::Paper;
use crate::charts::style::{BOLD, REGULAR};

/// The family name the embedded faces are declared under (the texts ask for it first).
pub const EMBEDDED_FAMILY: &str = "volley DejaVu Sans";

impl Paper {
    /// The SVG `width` and `height` of the page: `8.5in` x `11in`, `210mm` x `297mm`.
    pub fn svg_size(self) -> (&'static str, &'static str) {
        match self {
            Paper::Letter => ("8.5in", "11in"),
            Paper::A4 => ("210mm", "297mm"),
        }
    }
}

/// Standard base64 (RFC 4648, with padding) of `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The `<style>` element declaring the embedded faces (regular and bold) and asking
/// every text for them (a style rule outranks plotters' `font-family` attribute). Each
/// face holds only the glyphs of the characters of `svg` (every character of the
/// document, markup included: a superset of its texts', a few dozen glyphs), so a page
/// carries tens of kilobytes of font instead of the whole faces' 1.4 MB in base64.
///
/// # Errors
/// An embedded face that cannot be subset (a build defect).
fn font_style(svg: &str) -> Result<String, String> {
    let face = |data: &[u8], weight: &str| -> Result<String, String> {
        Ok(format!(
            "@font-face{{font-family:\"{EMBEDDED_FAMILY}\";font-weight:{weight};font-style:normal;\
             src:url(data:font/ttf;base64,{}) format(\"truetype\");}}",
            base64(&super::subset::subset_font(data, svg)?)
        ))
    };
    Ok(format!(
        "<style>{}{}text{{font-family:\"{EMBEDDED_FAMILY}\",\"DejaVu Sans\",sans-serif;}}</style>",
        face(REGULAR, "normal")?,
        face(BOLD, "bold")?
    ))
}

/// `svg` (a plotters document in pixel units) as a print file for `paper`: the root's
/// `width`/`height` in physical units, its `viewBox` kept, the font embedded (the glyphs
/// it uses).
///
/// # Errors
/// A document without an `<svg ...>` root element.
pub fn print_file(svg: &str, paper: Paper) -> Result<String, String> {
    let start = svg.find("<svg").ok_or("the card's SVG has no <svg> element")?;
    let end = start + svg[start..].find('>').ok_or("the card's SVG root element is not closed")?;
    let root = &svg[start..end];
    let (w, h) = paper.svg_size();
    let mut attrs = String::new();
    let mut rest = root.trim_start_matches("<svg");
    // rewrite width= and height=, keep every other attribute
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq].trim();
        let after = &rest[eq + 1..];
        let quote = after.chars().next().ok_or("a malformed SVG root attribute")?;
        let close = after[1..].find(quote).ok_or("a malformed SVG root attribute")? + 1;
        let value = &after[1..close];
        let value = match name {
            "width" => w,
            "height" => h,
            _ => value,
        };
        attrs.push_str(&format!(" {name}=\"{value}\""));
        rest = &after[close + 1..];
    }
    Ok(format!("{}<svg{attrs}>{}{}", &svg[..start], font_style(svg)?, &svg[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        for (plain, enc) in
            [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("foobar", "Zm9vYmFy")]
        {
            assert_eq!(base64(plain.as_bytes()), enc);
        }
    }

    #[test]
    fn the_root_gets_physical_units_and_the_font() {
        let svg = "<svg width=\"2480\" height=\"3508\" viewBox=\"0 0 2480 3508\" xmlns=\"http://www.w3.org/2000/svg\">\n<text>x</text></svg>";
        let out = print_file(svg, Paper::A4).unwrap();
        assert!(out.starts_with(
            "<svg width=\"210mm\" height=\"297mm\" viewBox=\"0 0 2480 3508\" xmlns=\"http://www.w3.org/2000/svg\"><style>@font-face"
        ));
        assert!(out.contains("font-weight:bold") && out.ends_with("<text>x</text></svg>"));
    }
}
