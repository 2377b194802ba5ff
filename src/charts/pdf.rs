//! A multi-page PDF from SVG pages: each page is converted to vector PDF content by
//! svg2pdf (text stays text, in the embedded DejaVu Sans the charts use) and scaled to
//! fill a page of the chosen paper.

use std::collections::HashMap;

use pdf_writer::{Finish, Name, Pdf, Rect, Ref, TextStr};
use svg2pdf::usvg;

use super::card::Paper;
use super::style::{BOLD, REGULAR};

/// Parsing options with only the embedded fonts (no system fonts: the same file on
/// every machine), `sans-serif` resolving to DejaVu Sans.
fn options() -> usvg::Options<'static> {
    let mut opt = usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_font_data(REGULAR.to_vec());
    db.load_font_data(BOLD.to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    opt.font_family = "DejaVu Sans".into();
    opt
}

/// One PDF with one page per SVG document, each page `paper` sized (the SVG is scaled
/// to the page: draw it with the paper's aspect ratio).
///
/// # Errors
/// When an SVG does not parse or cannot be converted (text in the SVG: messages name the
/// page, counted from 1).
pub fn pdf_pages(svgs: &[String], paper: Paper) -> Result<Vec<u8>, String> {
    let opt = options();
    let (w, h) = paper.points();
    let mut alloc = Ref::new(1);
    let catalog = alloc.bump();
    let tree_ref = alloc.bump();
    let page_refs: Vec<Ref> = svgs.iter().map(|_| alloc.bump()).collect();
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree_ref);
    pdf.pages(tree_ref).kids(page_refs.iter().copied()).count(svgs.len() as i32);
    for (k, (svg, &page_ref)) in svgs.iter().zip(&page_refs).enumerate() {
        let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("page {}: cannot read the SVG: {e}", k + 1))?;
        let (chunk, form) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| format!("page {}: cannot convert to PDF: {e}", k + 1))?;
        let mut map = HashMap::new();
        let chunk = chunk.renumber(|old| *map.entry(old).or_insert_with(|| alloc.bump()));
        let form = map[&form];
        let content_ref = alloc.bump();
        let name = Name(b"S1");
        let mut page = pdf.page(page_ref);
        page.media_box(Rect::new(0.0, 0.0, w as f32, h as f32));
        page.parent(tree_ref);
        page.contents(content_ref);
        page.resources().x_objects().pair(name, form);
        page.finish();
        let mut content = pdf_writer::Content::new();
        // the form is a unit square: scale it to the page
        content.save_state().transform([w as f32, 0.0, 0.0, h as f32, 0.0, 0.0]).x_object(name).restore_state();
        pdf.stream(content_ref, &content.finish());
        pdf.extend(&chunk);
    }
    let info = alloc.bump();
    pdf.document_info(info).producer(TextStr(concat!("volley ", env!("CARGO_PKG_VERSION"))));
    Ok(pdf.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::card::{Card, layout};

    #[test]
    fn one_pdf_page_per_svg_page_at_the_paper_size() {
        let card =
            Card { title: "Odds card".into(), subtitle: "test".into(), maps: Vec::new(), footer: "volley".into() };
        let pages = layout(&card, Paper::A4).unwrap();
        let svgs: Vec<String> = pages.iter().map(|p| p.svg().unwrap()).collect();
        let two = [svgs[0].clone(), svgs[0].clone()];
        let bytes = pdf_pages(&two, Paper::A4).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.starts_with("%PDF-"));
        assert!(text.contains("/Count 2"), "two pages");
        assert_eq!(text.matches("/MediaBox [0 0 595.2756 841.8898]").count(), 2, "A4 pages");
        assert!(text.contains("/FontFile2"), "the font is embedded");
    }
}
