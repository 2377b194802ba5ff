//! `volley odds-card`: multi-page cards inside print margins, readable cell text, PDF
//! pages of the right size, ordinary file permissions, no overwrite without --force.

use super::*;
use std::path::{Path, PathBuf};

/// 300 dpi: SVG user units per inch.
const DPI: f64 = 300.0;
/// The margin every page must keep clear: a quarter inch.
const MARGIN: f64 = 0.25 * DPI;
/// The smallest readable text: 7 pt at print size, in SVG user units.
const MIN_TEXT: f64 = 7.0 * DPI / 72.0;

/// The shipped catalogue plus a vehicle with six weapon systems.
fn six_system_catalogue() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("loadouts").join("techcommander");
    for e in fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
    }
    let mut builds = fs::read_to_string(dir.path().join("builds.toml")).unwrap();
    builds.push_str(
        r#"
[[build]]
name = "Rhino Arsenal"
unit = "Rhino"
weapons = [
  { name = "Devastator", count = 2 },
  { name = "Kabaaam" },
  { name = "Blackout" },
  { name = "Ripper Autocannon", count = 3 },
  { name = "Lance Railgun" },
  { name = "Thumper Mortar" },
]
"#,
    );
    fs::write(dir.path().join("builds.toml"), builds).unwrap();
    dir
}

/// Run volley in `cwd` under `umask 022` (set in the child's shell).
fn volley_umask(cwd: &Path, args: &[&str]) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("volley");
    std::process::Command::new("sh")
        .arg("-c")
        .arg("umask 022; exec \"$0\" \"$@\"")
        .arg(bin)
        .args(args)
        .current_dir(cwd)
        .env_remove("VOLLEY_LOADOUTS")
        .output()
        .unwrap()
}

/// Advance widths of the embedded fonts, to measure SVG text.
struct Fonts {
    regular: Vec<u8>,
    bold: Vec<u8>,
}

impl Fonts {
    fn load() -> Fonts {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/charts/fonts");
        Fonts {
            regular: fs::read(dir.join("DejaVuSans.ttf")).unwrap(),
            bold: fs::read(dir.join("DejaVuSans-Bold.ttf")).unwrap(),
        }
    }

    /// Width of `text` in em, from the font's advances, plus 10% (kerning can only
    /// tighten DejaVu text, so this overestimates).
    fn width_em(&self, text: &str, bold: bool) -> f64 {
        let face = ttf_parser::Face::parse(if bold { &self.bold } else { &self.regular }, 0).unwrap();
        let upem = face.units_per_em() as f64;
        let units: f64 = text
            .chars()
            .map(|c| face.glyph_index(c).and_then(|g| face.glyph_hor_advance(g)).unwrap_or(face.units_per_em()) as f64)
            .sum();
        1.1 * units / upem
    }
}

/// Check one SVG page: its size, every text inside the page minus the margins (extents
/// estimated conservatively) and not below the minimum size, and every rectangle but the
/// page background inside the margins. Returns the number of texts checked.
fn check_page(svg: &str, fonts: &Fonts, size: (f64, f64), name: &str) -> usize {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let root = doc.root_element();
    let num = |n: roxmltree::Node, a: &str| n.attribute(a).unwrap_or("0").parse::<f64>().unwrap();
    // the page's user units (pixels at 300 dpi) in the viewBox, its print size in inches
    // or millimetres
    let view: Vec<f64> = root.attribute("viewBox").unwrap().split(' ').map(|v| v.parse().unwrap()).collect();
    assert_eq!((view[2], view[3]), size, "{name}: page size");
    let physical = match size {
        (2550.0, 3300.0) => ("8.5in", "11in"),
        _ => ("210mm", "297mm"),
    };
    assert_eq!((root.attribute("width").unwrap(), root.attribute("height").unwrap()), physical, "{name}");
    let (w, h) = size;
    let mut texts = 0;
    for t in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let s = t.text().unwrap_or("").trim();
        let fs = num(t, "font-size");
        assert!(fs >= MIN_TEXT - 1e-6, "{name}: {s:?} at {:.2} pt", fs * 72.0 / DPI);
        assert!(t.attribute("transform").is_none(), "{name}: rotated text {s:?}");
        let bold = t.attribute("font-weight") == Some("bold");
        let width = fonts.width_em(s, bold) * fs;
        let x = num(t, "x");
        let (left, right) = match t.attribute("text-anchor").unwrap_or("start") {
            "middle" => (x - width / 2.0, x + width / 2.0),
            "end" => (x - width, x),
            _ => (x, x + width),
        };
        // baseline: dy is 0.76em (top), 0.5ex (centre) or -0.5ex (bottom); an ex is at
        // most 0.6 em. Glyphs reach 0.95 em above the baseline and 0.25 em below.
        let y = num(t, "y");
        let (lo, hi) = match t.attribute("dy").unwrap_or("0") {
            "0.76em" => (0.76, 0.76),
            "0.5ex" => (0.0, 0.3),
            "-0.5ex" => (-0.3, 0.0),
            other => panic!("{name}: unexpected dy {other}"),
        };
        let (top, bottom) = (y + (lo - 0.95) * fs, y + (hi + 0.25) * fs);
        assert!(
            left >= MARGIN && right <= w - MARGIN && top >= MARGIN && bottom <= h - MARGIN,
            "{name}: {s:?} spans x {left:.0}..{right:.0}, y {top:.0}..{bottom:.0} on a {w}x{h} page"
        );
        texts += 1;
    }
    for r in doc.descendants().filter(|n| n.has_tag_name("rect")).skip(1) {
        let (x, y) = (num(r, "x"), num(r, "y"));
        let (x1, y1) = (x + num(r, "width"), y + num(r, "height"));
        assert!(x >= MARGIN && x1 <= w - MARGIN && y >= MARGIN && y1 <= h - MARGIN, "{name}: rect {x},{y}..{x1},{y1}");
    }
    texts
}

/// The page count and every page's MediaBox (width, height in points, rounded).
pub(crate) fn pdf_pages(pdf: &[u8]) -> (usize, Vec<(i64, i64)>) {
    assert!(pdf.starts_with(b"%PDF-"), "a PDF file");
    let text = String::from_utf8_lossy(pdf);
    let pages = text.matches("/Type /Page\n").count() + text.matches("/Type /Page\r").count();
    let boxes = text
        .match_indices("/MediaBox [")
        .map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let nums: Vec<f64> =
                rest[..rest.find(']').unwrap()].split_whitespace().map(|n| n.parse().unwrap()).collect();
            ((nums[2] - nums[0]).round() as i64, (nums[3] - nums[1]).round() as i64)
        })
        .collect();
    (pages, boxes)
}

fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    fs::metadata(p).unwrap().permissions().mode() & 0o777
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    v.sort();
    v
}

#[test]
fn six_systems_make_a_multi_page_card_inside_the_margins() {
    let cat = six_system_catalogue();
    let out = tempfile::tempdir().unwrap();
    let catdir = cat.path().to_str().unwrap();
    let run = volley_umask(out.path(), &["--loadouts", catdir, "odds-card", "Rhino Arsenal"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stem = "odds-card-rhino-arsenal";
    let expected_pages = 2;
    let mut want: Vec<String> = Vec::new();
    for ext in ["png", "svg"] {
        want.extend((1..=expected_pages).map(|k| format!("{stem}-p{k}.{ext}")));
    }
    want.push(format!("{stem}.pdf"));
    want.sort();
    assert_eq!(names(out.path()), want, "numbered PNG and SVG pages, one PDF");
    let fonts = Fonts::load();
    let mut cells = 0;
    for k in 1..=expected_pages {
        let name = format!("{stem}-p{k}.svg");
        let svg = fs::read_to_string(out.path().join(&name)).unwrap();
        assert!(check_page(&svg, &fonts, (2550.0, 3300.0), &name) > 100);
        assert!(svg.contains(&format!("page {k} of {expected_pages}")), "{name}: page number in the footer");
        let doc = roxmltree::Document::parse(&svg).unwrap();
        cells += doc
            .descendants()
            .filter(|n| n.has_tag_name("text"))
            .filter_map(|n| n.text())
            .map(str::trim)
            .filter(|t| t.starts_with("roll ≤") || ["always", "never", "no shot"].contains(t))
            .count();
        let png = fs::read(out.path().join(format!("{stem}-p{k}.png"))).unwrap();
        let info = png::Decoder::new(std::io::Cursor::new(png.as_slice())).read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), (2550, 3300), "US Letter at 300 dpi");
    }
    // six weapons, two panels of 6 ACs by 7 ranges: every cell's roll is printed once
    assert_eq!(cells, 6 * 2 * 6 * 7, "cells printed");
    let (pages, boxes) = pdf_pages(&fs::read(out.path().join(format!("{stem}.pdf"))).unwrap());
    assert_eq!(pages, expected_pages, "PDF pages");
    assert_eq!(boxes, vec![(612, 792); expected_pages], "US Letter pages in points");
    for n in names(out.path()) {
        assert_eq!(mode(&out.path().join(&n)), 0o644, "{n}: permissions under umask 022");
    }
}

#[test]
fn a4_pdf_alone_and_the_margins_hold_on_a4() {
    let cat = six_system_catalogue();
    let out = tempfile::tempdir().unwrap();
    let catdir = cat.path().to_str().unwrap();
    let run = volley_umask(
        out.path(),
        &["--loadouts", catdir, "odds-card", "Rhino Arsenal", "--paper", "a4", "--out", "card.pdf"],
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(names(out.path()), ["card.pdf"], "--out writes only that format");
    assert_eq!(mode(&out.path().join("card.pdf")), 0o644);
    let (pages, boxes) = pdf_pages(&fs::read(out.path().join("card.pdf")).unwrap());
    assert!(pages >= 2, "{pages} pages");
    assert_eq!(boxes, vec![(595, 842); pages], "A4 pages in points");
    let run = volley_umask(
        out.path(),
        &["--loadouts", catdir, "odds-card", "Rhino Arsenal", "--paper", "a4", "--out", "card.svg"],
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let fonts = Fonts::load();
    for k in 1..=pages {
        let name = format!("card-p{k}.svg");
        check_page(&fs::read_to_string(out.path().join(&name)).unwrap(), &fonts, (2480.0, 3508.0), &name);
    }
}

#[test]
fn existing_files_are_refused_before_any_work_unless_forced() {
    let out = tempfile::tempdir().unwrap();
    let card = |extra: &[&str]| {
        let mut args = vec!["odds-card", "Dwarf ALPHA"];
        args.extend_from_slice(extra);
        volley().current_dir(out.path()).args(&args).output().unwrap()
    };
    let first = card(&[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let all = ["odds-card-dwarf-alpha.pdf", "odds-card-dwarf-alpha.png", "odds-card-dwarf-alpha.svg"];
    assert_eq!(names(out.path()), all, "one page: plain names");
    // only the PDF is left: the run must refuse and must not write the PNG or SVG first
    fs::remove_file(out.path().join(all[1])).unwrap();
    fs::remove_file(out.path().join(all[2])).unwrap();
    fs::write(out.path().join(all[0]), "keep me").unwrap();
    let refused = card(&[]);
    assert_eq!(refused.status.code(), Some(1));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("odds-card-dwarf-alpha.pdf already exists") && err.contains("--force"), "{err}");
    assert_eq!(names(out.path()), [all[0]], "nothing written");
    assert_eq!(fs::read_to_string(out.path().join(all[0])).unwrap(), "keep me");
    let forced = card(&["--force"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    assert_eq!(names(out.path()), all);
    assert!(fs::read(out.path().join(all[0])).unwrap().starts_with(b"%PDF-"), "replaced");
    // an unknown format is a usage error
    let bad = card(&["--out", "card.jpg"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains(".png, .svg or .pdf"));
}

/// A shorter card under the same name: the pages of the longer one it would not
/// overwrite are refused without --force and removed with it, so no stale page reads as
/// part of the new card.
#[test]
fn a_shorter_card_refuses_then_removes_the_old_cards_extra_pages() {
    let cat = six_system_catalogue();
    let out = tempfile::tempdir().unwrap();
    let card = |extra: &[&str]| {
        let mut args = vec!["--loadouts", cat.path().to_str().unwrap(), "odds-card", "Rhino Arsenal", "--out", "r.png"];
        args.extend_from_slice(extra);
        volley().current_dir(out.path()).args(&args).output().unwrap()
    };
    let long = card(&["--ranges", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16"]);
    assert!(long.status.success(), "{}", String::from_utf8_lossy(&long.stderr));
    let long_pages = names(out.path());
    assert!(long_pages.len() >= 3, "a long card: {long_pages:?}");
    let short = card(&["--ranges", "12"]);
    assert_eq!(short.status.code(), Some(1), "refused without --force");
    assert_eq!(names(out.path()), long_pages, "nothing written or removed");
    let forced = card(&["--ranges", "12", "--force"]);
    assert!(forced.status.success(), "{}", String::from_utf8_lossy(&forced.stderr));
    let now = names(out.path());
    assert!(now.len() < long_pages.len(), "{now:?}");
    let n = now.len();
    let expected: Vec<String> =
        if n == 1 { vec!["r.png".into()] } else { (1..=n).map(|k| format!("r-p{k}.png")).collect() };
    assert_eq!(now, expected, "only the new card's pages remain");
    let bad = card(&["--ranges=12,-1"]);
    assert_eq!(bad.status.code(), Some(2), "a negative range is a usage error");
}

/// Where the files of a single-format run land: beside --out, in its directory.
#[test]
fn out_in_another_directory_numbers_pages_beside_it() {
    let cat = six_system_catalogue();
    let out = tempfile::tempdir().unwrap();
    let target: PathBuf = out.path().join("cards").join("rhino.png");
    fs::create_dir(out.path().join("cards")).unwrap();
    let run = volley()
        .args(["--loadouts", cat.path().to_str().unwrap(), "odds-card", "Rhino Arsenal", "--out"])
        .arg(&target)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(names(&out.path().join("cards")), ["rhino-p1.png", "rhino-p2.png"]);
}
