//! The embedded faces of an odds card's SVG cut down to the glyphs the card uses.
//!
//! `subsetter` (the subsetter typst uses) keeps the glyphs asked for and the tables a PDF
//! needs; a browser or an SVG renderer also needs the font's character map (`cmap`) and
//! its `OS/2` metrics, which it leaves out. This module adds them: a format 4 `cmap` of
//! exactly the characters kept, pointing at their new glyph ids, and the original
//! `OS/2`, then writes the tables back as one TrueType file (sorted table records,
//! 4-byte alignment, checksums and `head.checkSumAdjustment` as the OpenType
//! specification defines them).

/// `font` (a TrueType file) reduced to the glyphs of the characters of `text` (each
/// character once; characters the font lacks are left out and render as `.notdef`).
///
/// # Errors
/// A font that cannot be read or subset (the embedded fonts can: a failure is a defect).
pub fn subset_font(font: &[u8], text: &str) -> Result<Vec<u8>, String> {
    let face = ttf_parser::Face::parse(font, 0).map_err(|e| format!("cannot read the embedded font: {e}"))?;
    let mut chars: Vec<char> = document_chars(text).into_iter().filter(|c| (*c as u32) <= 0xFFFF).collect();
    chars.sort_unstable();
    chars.dedup();
    let mut remapper = subsetter::GlyphRemapper::new();
    let mut map: Vec<(u16, u16)> = Vec::new();
    for c in chars {
        if let Some(g) = face.glyph_index(c) {
            map.push((c as u16, remapper.remap(g.0)));
        }
    }
    let cut = subsetter::subset(font, 0, &remapper).map_err(|e| format!("cannot subset the embedded font: {e}"))?;
    let mut tables = read_tables(&cut)?;
    tables.retain(|(tag, _)| tag != b"cmap" && tag != b"OS/2");
    tables.push((*b"cmap", cmap(&map)));
    if let Some(os2) = table(font, b"OS/2")? {
        tables.push((*b"OS/2", os2.to_vec()));
    }
    Ok(write_font(tables))
}

/// The characters `doc` (XML text) can show: its own, the five the markup escapes
/// (`&amp;` and the rest stand for them), and those of numeric character references
/// (`&#233;`, `&#xE9;`).
pub fn document_chars(doc: &str) -> Vec<char> {
    let mut out: Vec<char> = doc.chars().chain("&<>\"'".chars()).collect();
    for part in doc.split("&#").skip(1) {
        let Some(end) = part.find(';') else { continue };
        let code = &part[..end];
        let n = match code.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => code.parse::<u32>().ok(),
        };
        out.extend(n.and_then(char::from_u32));
    }
    out
}

fn be16(b: &[u8], at: usize) -> Result<u16, String> {
    b.get(at..at + 2).map(|x| u16::from_be_bytes([x[0], x[1]])).ok_or_else(|| "a truncated font".to_string())
}

fn be32(b: &[u8], at: usize) -> Result<u32, String> {
    b.get(at..at + 4)
        .map(|x| u32::from_be_bytes([x[0], x[1], x[2], x[3]]))
        .ok_or_else(|| "a truncated font".to_string())
}

/// A font table: its tag and bytes.
type FontTable = ([u8; 4], Vec<u8>);

/// Every table of a font file, in the file's record order.
fn read_tables(font: &[u8]) -> Result<Vec<FontTable>, String> {
    let n = be16(font, 4)? as usize;
    (0..n)
        .map(|i| {
            let rec = 12 + 16 * i;
            let tag: [u8; 4] = font.get(rec..rec + 4).ok_or("a truncated font")?.try_into().expect("four bytes");
            let (off, len) = (be32(font, rec + 8)? as usize, be32(font, rec + 12)? as usize);
            let data = font.get(off..off + len).ok_or("a font table past the end of the file")?;
            Ok((tag, data.to_vec()))
        })
        .collect()
}

/// The bytes of table `tag` of `font`, if it has one.
fn table<'a>(font: &'a [u8], tag: &[u8; 4]) -> Result<Option<&'a [u8]>, String> {
    let n = be16(font, 4)? as usize;
    for i in 0..n {
        let rec = 12 + 16 * i;
        if font.get(rec..rec + 4) == Some(&tag[..]) {
            let (off, len) = (be32(font, rec + 8)? as usize, be32(font, rec + 12)? as usize);
            return font.get(off..off + len).map(Some).ok_or_else(|| "a font table past the end".to_string());
        }
    }
    Ok(None)
}

/// A `cmap` table with one Windows Unicode BMP (3, 1) subtable of format 4 mapping each
/// (character, glyph) of `map` (characters ascending, each once): one segment per run of
/// characters whose glyph ids run alongside them, and the final `0xFFFF` segment.
pub fn cmap(map: &[(u16, u16)]) -> Vec<u8> {
    // segments: (start, end, delta)
    let mut segs: Vec<(u16, u16, u16)> = Vec::new();
    for &(c, g) in map {
        let delta = g.wrapping_sub(c);
        match segs.last_mut() {
            Some(s) if s.1.wrapping_add(1) == c && s.2 == delta && c != 0xFFFF => s.1 = c,
            _ if c == 0xFFFF => {}
            _ => segs.push((c, c, delta)),
        }
    }
    segs.push((0xFFFF, 0xFFFF, 1));
    let n = segs.len() as u16;
    let mut sub = Vec::new();
    let search = 2 * (1u16 << (15 - n.leading_zeros().min(15)));
    let search = if search > 2 * n { search / 2 } else { search };
    let selector = (search / 2).trailing_zeros() as u16;
    let length = 16 + 8 * n;
    for v in [4u16, length, 0, 2 * n, search, selector, 2 * n - search] {
        sub.extend_from_slice(&v.to_be_bytes());
    }
    segs.iter().for_each(|s| sub.extend_from_slice(&s.1.to_be_bytes()));
    sub.extend_from_slice(&0u16.to_be_bytes()); // reservedPad
    segs.iter().for_each(|s| sub.extend_from_slice(&s.0.to_be_bytes()));
    segs.iter().for_each(|s| sub.extend_from_slice(&s.2.to_be_bytes()));
    segs.iter().for_each(|_| sub.extend_from_slice(&0u16.to_be_bytes())); // idRangeOffset
    let mut out = Vec::new();
    for v in [0u16, 1, 3, 1] {
        out.extend_from_slice(&v.to_be_bytes()); // version, one subtable, platform 3, encoding 1
    }
    out.extend_from_slice(&12u32.to_be_bytes());
    out.extend_from_slice(&sub);
    out
}

/// The OpenType checksum of `data`: the sum of its big-endian 32-bit words (zero-padded).
fn checksum(data: &[u8]) -> u32 {
    data.chunks(4).fold(0u32, |sum, w| {
        let mut b = [0u8; 4];
        b[..w.len()].copy_from_slice(w);
        sum.wrapping_add(u32::from_be_bytes(b))
    })
}

/// A TrueType file of `tables`: records sorted by tag, each table 4-byte aligned, with
/// its checksum, and `head.checkSumAdjustment` set so the whole file sums to `0xB1B0AFBA`.
fn write_font(mut tables: Vec<FontTable>) -> Vec<u8> {
    tables.sort_by_key(|t| t.0);
    for (tag, data) in &mut tables {
        if tag == b"head" && data.len() >= 12 {
            data[8..12].copy_from_slice(&[0; 4]);
        }
    }
    let n = tables.len() as u16;
    let pow = 1u16 << (15 - n.leading_zeros().min(15));
    let pow = if pow > n { pow / 2 } else { pow }.max(1);
    let mut out = Vec::new();
    out.extend_from_slice(&0x0001_0000u32.to_be_bytes());
    for v in [n, pow * 16, pow.trailing_zeros() as u16, n * 16 - pow * 16] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    let mut head_at = None;
    for (tag, data) in &tables {
        out.extend_from_slice(tag);
        out.extend_from_slice(&checksum(data).to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        if tag == b"head" {
            head_at = Some(offset);
        }
        offset += data.len().div_ceil(4) * 4;
    }
    for (_, data) in &tables {
        out.extend_from_slice(data);
        out.resize(out.len().div_ceil(4) * 4, 0);
    }
    if let Some(h) = head_at.filter(|h| out.len() >= h + 12) {
        let adjust = 0xB1B0_AFBAu32.wrapping_sub(checksum(&out));
        out[h + 8..h + 12].copy_from_slice(&adjust.to_be_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::style::{BOLD, REGULAR};

    #[test]
    fn the_subset_maps_every_character_to_its_own_outline_and_advance() {
        let text = "Odds card: Panzer IV (d10+d6) · Dead <0.1% ≤ – ’é";
        for font in [REGULAR, BOLD] {
            let cut = subset_font(font, text).unwrap();
            assert!(cut.len() * 20 < font.len(), "{} of {} bytes", cut.len(), font.len());
            let (old, new) = (ttf_parser::Face::parse(font, 0).unwrap(), ttf_parser::Face::parse(&cut, 0).unwrap());
            for c in text.chars() {
                let (a, b) = (old.glyph_index(c).unwrap(), new.glyph_index(c).unwrap_or_else(|| panic!("{c:?}")));
                assert_eq!(old.glyph_hor_advance(a), new.glyph_hor_advance(b), "{c:?}");
                assert_eq!(old.glyph_bounding_box(a), new.glyph_bounding_box(b), "{c:?}");
            }
            assert_eq!(new.glyph_index('Z'), None, "a character the text lacks is left out");
            assert!(new.tables().os2.is_some() && new.tables().cmap.is_some());
            assert_eq!(checksum(&cut), 0xB1B0_AFBA, "the whole file sums as OpenType requires");
        }
    }

    #[test]
    fn escaped_characters_are_kept() {
        let cut = subset_font(REGULAR, "<text>O&apos;Neil &amp; caf&#233; &#x2264;</text>").unwrap();
        let face = ttf_parser::Face::parse(&cut, 0).unwrap();
        for c in ['\'', '&', 'é', '≤', '"'] {
            assert!(face.glyph_index(c).is_some(), "{c:?}");
        }
    }

    #[test]
    fn a_cmap_of_runs_and_gaps() {
        let map = [(0x41u16, 1u16), (0x42, 2), (0x43, 3), (0x61, 4), (0x2264, 5)];
        let t = cmap(&map);
        // three runs and the final segment
        assert_eq!(u16::from_be_bytes([t[12 + 6], t[12 + 7]]), 2 * 4, "segCountX2");
    }
}
