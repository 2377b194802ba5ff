//! `volley odds-card` for every ruleset: one page on letter and on A4 for the shipped
//! sides, SVG files in physical units with the font embedded and the catalogue named in
//! the footer, and cells equal to the `odds` command's exact values.

use super::*;
use std::path::Path;

use serde_json::Value;
use volley::output::percent::percent_exact;

/// (ruleset, side) of a card per ruleset.
const SIDES: [(&str, &str); 4] = [
    ("techcommander", "Paladin Siege"),
    ("mechcom", "Kerberos"),
    ("skirmishers", "Rifleman"),
    ("shellshock", "Main Battle Tank"),
];

/// (paper, SVG width, height, viewBox, PDF points).
type Paper = (&'static str, &'static str, &'static str, &'static str, (i64, i64));

const PAPERS: [Paper; 2] =
    [("letter", "8.5in", "11in", "0 0 2550 3300", (612, 792)), ("a4", "210mm", "297mm", "0 0 2480 3508", (595, 842))];

fn card(dir: &Path, ruleset: &str, name: &str, paper: &str, out: &str) -> std::process::Output {
    volley()
        .current_dir(dir)
        .args(["--ruleset", ruleset, "odds-card", name, "--paper", paper, "--out", out])
        .output()
        .unwrap()
}

/// The texts of an SVG page, in drawing order.
fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or("").trim().to_string()).collect()
}

/// The texts after row label `row` of the panel titled `panel` (first found after the
/// block whose title starts with `block`): the row's cells, main text then note.
fn cells_after<'a>(t: &'a [String], block: &str, panel: &str, row: &str) -> &'a [String] {
    let b = t.iter().position(|x| x.starts_with(block)).unwrap_or_else(|| panic!("no block {block}: {t:?}"));
    let p = b + t[b..].iter().position(|x| x == panel).unwrap_or_else(|| panic!("no panel {panel}"));
    let r = p + t[p..].iter().position(|x| x == row).unwrap_or_else(|| panic!("no row {row}"));
    &t[r + 1..]
}

fn odds(ruleset: &str, args: &[&str]) -> Value {
    let mut all = vec!["--ruleset", ruleset, "odds"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let out = volley().args(&all).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn pct(v: &Value) -> String {
    percent_exact(v.as_f64().unwrap())
}

#[test]
fn every_rulesets_card_is_one_page_on_letter_and_a4_in_physical_units_with_its_font_and_catalogue() {
    for (ruleset, name) in SIDES {
        for (paper, w, h, view, points) in PAPERS {
            let dir = tempfile::tempdir().unwrap();
            let run = card(dir.path(), ruleset, name, paper, "card.svg");
            assert!(run.status.success(), "{ruleset} {paper}: {}", String::from_utf8_lossy(&run.stderr));
            assert!(dir.path().join("card.svg").exists(), "{ruleset} {paper}: one page, no numbered pages");
            let svg = fs::read_to_string(dir.path().join("card.svg")).unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let root = doc.root_element();
            assert_eq!(
                (root.attribute("width"), root.attribute("height"), root.attribute("viewBox")),
                (Some(w), Some(h), Some(view)),
                "{ruleset} {paper}: physical size"
            );
            assert!(svg.contains("@font-face") && svg.contains("data:font/ttf;base64,AAEAAA"), "{ruleset}: font");
            let footer = texts(&svg).into_iter().filter(|t| t.contains("catalogue ")).collect::<Vec<_>>().join(" ");
            assert!(footer.contains("(embedded default catalogue)"), "{ruleset}: footer {footer}");
            let run = card(dir.path(), ruleset, name, paper, "card.pdf");
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            let (pages, boxes) = super::oddscard::pdf_pages(&fs::read(dir.path().join("card.pdf")).unwrap());
            assert_eq!((pages, boxes), (1, vec![points]), "{ruleset} {paper}: one PDF page");
        }
    }
}

/// The footer names the catalogue's hash, as `validate` and the manifests do.
#[test]
fn the_footer_names_the_catalogue_hash() {
    let dir = tempfile::tempdir().unwrap();
    let run = card(dir.path(), "mechcom", "Wasp", "letter", "w.svg");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let t = texts(&fs::read_to_string(dir.path().join("w.svg")).unwrap());
    let footer = t.iter().find(|x| x.contains("MECHCOM · catalogue ")).unwrap();
    let hash = footer.split("catalogue ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(hash.len() >= 12 && hash.chars().all(|c| c.is_ascii_hexdigit()), "{footer}");
}

#[test]
fn mechcom_cells_are_the_odds_commands_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    let run = card(dir.path(), "mechcom", "Kerberos", "letter", "k.svg");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let t = texts(&fs::read_to_string(dir.path().join("k.svg")).unwrap());
    // the Wasp has Armour 3: the Armour 3 column
    for (panel, cover) in [("No cover", "none"), ("Half or soft cover: +2 Stability", "half")] {
        let j = &odds(
            "mechcom",
            &[
                "--attacker",
                "Kerberos",
                "--target",
                "Wasp",
                "--weapon",
                "Acid Sprayer",
                "--range",
                "2",
                "--cover",
                cover,
            ],
        )[0];
        let c = cells_after(&t, "Acid Sprayer:", panel, "2 hexes");
        assert_eq!(c[0], pct(&j["p_hit"]), "{panel}: P(hit)");
        assert_eq!(c[1], format!("Stability {}", j["stability"]), "{panel}");
        assert_eq!(c[2], pct(&j["p_crit"]), "{panel}: P(crit)");
        assert_eq!(c[3], format!("{:.2}", j["expected_integrity_loss"].as_f64().unwrap()), "{panel}: E[loss]");
        let none = j["integrity_loss_distribution"]["0"].as_f64().unwrap_or(0.0);
        assert_eq!(c[4], format!("≥1: {}", percent_exact(1.0 - none)), "{panel}");
    }
}

#[test]
fn skirmishers_cells_are_the_odds_commands_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    let run = card(dir.path(), "skirmishers", "Rifleman", "a4", "r.svg");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let t = texts(&fs::read_to_string(dir.path().join("r.svg")).unwrap());
    let c = cells_after(&t, "Rifle:", "Both standing", "27-85 dots (Long)");
    for k in 0..4 {
        let obs = k.to_string();
        let j = &odds(
            "skirmishers",
            &[
                "--attacker",
                "Rifleman",
                "--target",
                "Rifleman",
                "--weapon",
                "Rifle",
                "--range",
                "85",
                "--obstructions",
                &obs,
            ],
        )[0];
        assert_eq!(c[2 * k], pct(&j["p_hit"]), "{k} obstructions");
        assert_eq!(c[2 * k + 1], format!("TN {}", j["target_number"]), "{k} obstructions");
    }
    // the damage track line: one attack at 1 dot on a fresh Rifleman
    let j =
        &odds("skirmishers", &["--attacker", "Rifleman", "--target", "Rifleman", "--weapon", "Rifle", "--range", "1"])
            [0];
    let track = t.iter().skip_while(|x| !x.starts_with("Damage track")).take(3).cloned().collect::<Vec<_>>().join(" ");
    assert!(track.contains(&format!("out {}", pct(&j["p_out"]))), "{track}");
    assert!(track.contains(&format!("(Dead {})", pct(&j["p_dead"]))), "{track}");
}

#[test]
fn shellshock_cells_are_the_odds_commands_exact_values() {
    let dir = tempfile::tempdir().unwrap();
    let run = card(dir.path(), "shellshock", "Main Battle Tank", "letter", "m.svg");
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let t = texts(&fs::read_to_string(dir.path().join("m.svg")).unwrap());
    let c = cells_after(&t, "Gunner 1 ", "Front hit", "Hover Skirmisher");
    for (k, range) in ["1", "12", "24"].iter().enumerate() {
        let j = odds(
            "shellshock",
            &["--attacker", "Main Battle Tank", "--target", "Hover Skirmisher", "--range", range, "--facing", "front"],
        );
        let g = &j["gunners"][0];
        assert_eq!(g["gunner"], 1);
        assert_eq!(c[2 * k], pct(&g["p_any_hit"]), "range {range}");
        assert_eq!(c[2 * k + 1], format!("Dead {}", pct(&g["p_dead_box"])), "range {range}");
    }
}

/// Whole numbers of hexes and dots: a fraction is refused.
#[test]
fn ranges_of_the_hex_and_dot_games_are_whole() {
    let dir = tempfile::tempdir().unwrap();
    let run = volley()
        .current_dir(dir.path())
        .args(["--ruleset", "shellshock", "odds-card", "Panzer IV", "--ranges", "1.5", "--out", "p.svg"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("whole hexes"));
    assert!(!dir.path().join("p.svg").exists());
}

/// Shipped sides of every ruleset with odds cards (`only`: these (ruleset, side) pairs;
/// empty: every side): each card's page count on letter and on A4, laid out as
/// `odds-card` lays it out (no rendering).
fn shipped_card_pages(only: &'static [(&'static str, &'static str)]) -> Vec<(String, String, usize, usize)> {
    use volley::catalogue::layers::Layers;
    use volley::charts::card::{Paper, layout};
    use volley::rules::{Role, RulesetId, Visit};

    struct Pages(&'static [(&'static str, &'static str)]);
    impl Visit for Pages {
        type Output = Vec<(String, String, usize, usize)>;
        fn visit<R: volley::rules::Ruleset>(self) -> Self::Output {
            if !R::ODDS_CARDS {
                return Vec::new();
            }
            let cat = Layers::base(None, R::NAME).load(R::load).unwrap();
            R::select(&cat, Role::Attacker, "all")
                .unwrap()
                .into_iter()
                .filter(|name| self.0.is_empty() || self.0.contains(&(R::NAME, name.as_str())))
                .map(|name| {
                    let card = R::odds_card(&cat, &name, &[], &R::Options::default()).unwrap();
                    let pages =
                        |paper| layout(&card, paper).unwrap_or_else(|e| panic!("{}: {name}: {e}", R::NAME)).len();
                    let (letter, a4) = (pages(Paper::Letter), pages(Paper::A4));
                    (R::NAME.to_string(), name, letter, a4)
                })
                .collect()
        }
    }
    RulesetId::ALL.iter().flat_map(|r| r.visit(Pages(only))).collect()
}

/// The cards that took two A4 pages (the Shellshock Panzer IV and Jagdpanther: their
/// three facing panels stacked) and one side per ruleset are one page on letter and A4.
#[test]
fn long_named_cards_are_one_page_on_letter_and_a4() {
    let mut only = vec![("shellshock", "Panzer IV"), ("shellshock", "Jagdpanther")];
    only.extend(SIDES);
    let only: &'static [(&str, &str)] = Box::leak(only.into_boxed_slice());
    let cards = shipped_card_pages(only);
    assert_eq!(cards.len(), only.len(), "{cards:?}");
    let long: Vec<_> = cards.iter().filter(|c| c.2 != 1 || c.3 != 1).collect();
    assert!(long.is_empty(), "(ruleset, side, letter pages, A4 pages) of cards longer than a page: {long:?}");
}

/// Every shipped side's card is one page on letter and on A4. About 70 s in a debug
/// build (40 sides, every spacing tried on both papers): run it with
/// `cargo test --test cli every_shipped_sides -- --ignored`.
#[test]
#[ignore]
fn every_shipped_sides_card_is_one_page_on_letter_and_a4() {
    let all = shipped_card_pages(&[]);
    for ruleset in ["techcommander", "mechcom", "skirmishers", "shellshock"] {
        assert!(all.iter().filter(|c| c.0 == ruleset).count() >= 5, "{ruleset}: its sides are all laid out");
    }
    let long: Vec<_> = all.iter().filter(|c| c.2 != 1 || c.3 != 1).collect();
    assert!(long.is_empty(), "(ruleset, side, letter pages, A4 pages) of cards longer than a page: {long:?}");
}

/// The SVG pages embed the font's glyphs they use and nothing more: each page well under
/// 300 KB (was about 2 MB: the whole of DejaVu Sans, regular and bold, in base64), its
/// faces still real fonts that map every character of the page's texts.
#[test]
fn svg_pages_embed_a_subset_of_the_font_under_300_kb() {
    for (ruleset, name) in SIDES {
        let dir = tempfile::tempdir().unwrap();
        let run = card(dir.path(), ruleset, name, "a4", "card.svg");
        assert!(run.status.success(), "{ruleset}: {}", String::from_utf8_lossy(&run.stderr));
        let svg = fs::read_to_string(dir.path().join("card.svg")).unwrap();
        assert!(svg.len() < 300_000, "{ruleset}: {} bytes", svg.len());
        let faces: Vec<&str> = svg.split("data:font/ttf;base64,").skip(1).map(|s| &s[..s.find(')').unwrap()]).collect();
        assert_eq!(faces.len(), 2, "{ruleset}: regular and bold");
        let chars: String = texts(&svg).concat();
        for b64 in faces {
            let font = base64_decode(b64);
            let face = ttf_parser::Face::parse(&font, 0).unwrap_or_else(|e| panic!("{ruleset}: {e}"));
            for c in chars.chars().filter(|c| !c.is_whitespace()) {
                assert!(face.glyph_index(c).is_some(), "{ruleset}: no glyph for {c:?}");
            }
        }
    }
}

/// Standard base64 (with padding) decoded.
fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &c)| n | (val(c) as u32) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}
