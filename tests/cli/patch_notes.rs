//! `volley diff`'s balance patch notes: the per-build summary, ranked by the largest
//! change in win rate or kill points per cost, with paired intervals, as a table,
//! Markdown and JSON.

use super::*;

use std::path::{Path, PathBuf};

use serde_json::Value;

const CATALOGUE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/techcommander");

/// A copy of the built-in TechCommander catalogue with `edit` applied to each file's
/// text (by file name).
fn edited(dir: &Path, name: &str, edit: impl Fn(&str, &mut String)) -> PathBuf {
    let out = dir.join(name);
    fs::create_dir_all(&out).unwrap();
    for e in fs::read_dir(CATALOGUE).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "toml" || x == "csv") {
            let mut text = fs::read_to_string(&p).unwrap();
            edit(p.file_name().unwrap().to_str().unwrap(), &mut text);
            fs::write(out.join(p.file_name().unwrap()), text).unwrap();
        }
    }
    out
}

/// The Devastator's damage 12 instead of 8: the Dwarf ALPHA and the Gladiator
/// Skirmisher carry it (two each), the Beagle Hunter and the Pigeonhawk do not.
fn stronger_devastator(dir: &Path) -> PathBuf {
    edited(dir, "devastator-12", |file, text| {
        if file == "weapons.toml" {
            let at = text.find("name = \"Devastator\"").unwrap();
            let d = at + text[at..].find("damage = 8").unwrap();
            text.replace_range(d..d + "damage = 8".len(), "damage = 12");
        }
    })
}

/// The Beagle Hunter priced at 7 points instead of its unit's 5; nothing else changed.
fn dearer_beagle(dir: &Path) -> PathBuf {
    edited(dir, "beagle-7", |file, text| {
        if file == "builds.toml" {
            let at = text.find("name = \"Beagle Hunter\"").unwrap();
            let u = at + text[at..].find("unit = \"Beagle\"\n").unwrap() + "unit = \"Beagle\"\n".len();
            text.insert_str(u, "points = 7\n");
        }
    })
}

fn scenario(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(format!("{name}.toml"));
    fs::write(&p, format!("name = \"{name}\"\n{text}")).unwrap();
    p
}

const ATTACK: &str = r#"attackers = ["Beagle Hunter", "Dwarf ALPHA", "Pigeonhawk Standard", "Gladiator Skirmisher"]
targets = ["Stingray", "Hunter IV", "ac:6"]
[grid]
range = [12, 27]
"#;

const DUEL: &str = r#"engagement = "duel"
trials = 4000
attackers = ["Beagle Hunter", "Dwarf ALPHA"]
opponents = ["Pigeonhawk Standard", "Troll Brawler"]
[grid]
range = [12]
"#;

fn diff(old: &Path, new: &Path, scenario: &Path, extra: &[&str]) -> String {
    let out = volley().arg("diff").arg(old).arg(new).arg("--scenario").arg(scenario).args(extra).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn summary(old: &Path, new: &Path, scenario: &Path) -> Vec<Value> {
    let v: Value = serde_json::from_str(&diff(old, new, scenario, &["--format", "json"])).unwrap();
    assert!(v["rows"].as_array().is_some_and(|r| !r.is_empty()), "the rows stay under `rows`");
    v["summary"].as_array().unwrap().clone()
}

fn f(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

fn ci(v: &Value, key: &str) -> (f64, f64) {
    let a = v[key].as_array().unwrap_or_else(|| panic!("{key} in {v}"));
    (a[0].as_f64().unwrap(), a[1].as_f64().unwrap())
}

fn names(s: &[Value]) -> Vec<&str> {
    s.iter().map(|b| b["build"].as_str().unwrap()).collect()
}

#[test]
fn a_stronger_weapon_ranks_the_builds_that_carry_it_first() {
    let dir = tempfile::tempdir().unwrap();
    let new = stronger_devastator(dir.path());
    // Exact attack runs: the carriers gain, the others are exactly unchanged.
    let s = summary(Path::new(CATALOGUE), &new, &scenario(dir.path(), "attack", ATTACK));
    let mut top = names(&s)[..2].to_vec();
    top.sort_unstable();
    assert_eq!(top, ["Dwarf ALPHA", "Gladiator Skirmisher"], "{s:?}");
    for b in &s[..2] {
        assert_eq!(b["verdict"], "stronger", "{b}");
        assert_eq!(b["method"], "exact", "{b}");
        assert!(f(b, "win_rate_change") >= 0.0 && f(b, "kill_points_per_100_change") > 0.0, "{b}");
        assert_eq!(ci(b, "kill_points_per_100_change_ci95").0, f(b, "kill_points_per_100_change"), "{b}");
        assert_eq!(b["cells"], 6, "3 targets × 2 ranges: {b}");
    }
    for b in &s[2..] {
        assert_eq!((b["verdict"].as_str(), f(b, "change_size")), (Some("unchanged"), 0.0), "{b}");
    }
    // Paired duels: the Dwarf gains, with an interval above 0; the Beagle's opponents
    // did not change, so neither did it (no trial played differently).
    let s = summary(Path::new(CATALOGUE), &new, &scenario(dir.path(), "duel", DUEL));
    assert_eq!(names(&s), ["Dwarf ALPHA", "Beagle Hunter"], "{s:?}");
    let dwarf = &s[0];
    assert_eq!((dwarf["verdict"].as_str(), dwarf["method"].as_str()), (Some("stronger"), Some("paired")));
    assert!(ci(dwarf, "win_rate_change_ci95").0 > 0.0, "{dwarf}");
    assert!(ci(dwarf, "kill_points_per_100_change_ci95").0 > 0.0, "{dwarf}");
    let (old, new) = (f(dwarf, "win_rate_old"), f(dwarf, "win_rate_new"));
    assert!((new - old - f(dwarf, "win_rate_change")).abs() < 1e-12, "{dwarf}");
    assert_eq!((s[1]["verdict"].as_str(), f(&s[1], "win_rate_change")), (Some("unchanged"), 0.0));
}

#[test]
fn the_summary_is_ranked_by_the_size_of_its_largest_change() {
    let dir = tempfile::tempdir().unwrap();
    let both = edited(dir.path(), "both", |file, text| {
        let dev = fs::read_to_string(stronger_devastator(dir.path()).join(file)).unwrap();
        let beagle = fs::read_to_string(dearer_beagle(dir.path()).join(file)).unwrap();
        *text = if file == "weapons.toml" { dev } else { beagle };
    });
    let s = summary(Path::new(CATALOGUE), &both, &scenario(dir.path(), "attack", ATTACK));
    assert_eq!(s.len(), 4);
    for (i, b) in s.iter().enumerate() {
        assert_eq!(b["rank"], i + 1);
        // The size is the larger of |Δ win rate| and |Δ kill points per 100| relative
        // to the larger of its two values.
        let kp = f(b, "kill_points_per_100_change").abs()
            / f(b, "kill_points_per_100_old").abs().max(f(b, "kill_points_per_100_new").abs());
        let size = f(b, "win_rate_change").abs().max(if kp.is_nan() { 0.0 } else { kp });
        assert!((f(b, "change_size") - size).abs() < 1e-12, "{b}");
    }
    let sizes: Vec<f64> = s.iter().map(|b| f(b, "change_size")).collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    assert!(sizes[2] > 0.0 && sizes[3] == 0.0, "three builds moved: {sizes:?}");
    assert_eq!(s[3]["build"], "Pigeonhawk Standard");
}

#[test]
fn a_build_whose_cost_changed_shows_the_per_cost_change() {
    let dir = tempfile::tempdir().unwrap();
    let dearer = dearer_beagle(dir.path());
    let s = summary(Path::new(CATALOGUE), &dearer, &scenario(dir.path(), "attack", ATTACK));
    let beagle = &s[0];
    assert_eq!(beagle["build"], "Beagle Hunter", "{s:?}");
    assert_eq!((f(beagle, "cost_old"), f(beagle, "cost_new")), (5.0, 7.0));
    assert_eq!(beagle["cost_unit"], "points");
    // Its fights are the same; per point it destroys 5/7 of what it did.
    assert_eq!(f(beagle, "win_rate_change"), 0.0, "{beagle}");
    let (old, new) = (f(beagle, "kill_points_per_100_old"), f(beagle, "kill_points_per_100_new"));
    assert!((new / old - 5.0 / 7.0).abs() < 1e-9, "{beagle}");
    assert!((f(beagle, "kill_points_per_100_change") - (new - old)).abs() < 1e-9);
    assert_eq!(beagle["verdict"], "weaker");
    assert!((f(beagle, "change_size") - 2.0 / 7.0).abs() < 1e-9, "{beagle}");
    // The text table says so.
    let text = diff(Path::new(CATALOGUE), &dearer, &scenario(dir.path(), "attack", ATTACK), &[]);
    let line = text.lines().find(|l| l.contains("Beagle Hunter")).unwrap();
    assert!(line.contains("5 → 7") && line.contains("weaker per cost"), "{line}");
}

#[test]
fn markdown_is_a_table_ready_for_errata() {
    let dir = tempfile::tempdir().unwrap();
    let new = stronger_devastator(dir.path());
    let md = diff(Path::new(CATALOGUE), &new, &scenario(dir.path(), "duel", DUEL), &["--format", "markdown"]);
    assert!(md.starts_with("## Balance changes: duel\n"), "{md}");
    let table: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    // A header, the separator, one row per build that changed.
    assert_eq!(table.len(), 3, "{md}");
    let cells = |l: &str| -> Vec<String> {
        let inner = l.strip_prefix('|').and_then(|l| l.strip_suffix('|')).unwrap_or_else(|| panic!("{l}"));
        inner.split('|').map(|c| c.trim().to_string()).collect()
    };
    let header = cells(table[0]);
    assert_eq!(
        header,
        [
            "Build",
            "Cost (points)",
            "Win rate",
            "Change (95% interval)",
            "Kill points per 100 points",
            "Change (95% interval)",
            "Own change (95% interval)",
            "Verdict"
        ]
    );
    assert!(cells(table[1]).iter().all(|c| c.trim_matches(':').chars().all(|x| x == '-') && c.len() >= 3));
    let dwarf = cells(table[2]);
    assert_eq!(dwarf.len(), header.len());
    assert_eq!(dwarf[0], "Dwarf ALPHA");
    assert!(dwarf[2].contains(" → ") && dwarf[3].starts_with('+') && dwarf[3].contains(" to "), "{dwarf:?}");
    assert!(dwarf[6].starts_with('+') && dwarf[6].contains(" to "), "the change the verdict reads: {dwarf:?}");
    assert_eq!(dwarf[7], "stronger per cost");
    assert!(md.contains("\nUnchanged: Beagle Hunter.\n"), "{md}");
}

#[test]
fn the_text_leads_with_the_summary_and_lists_rows_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let new = stronger_devastator(dir.path());
    let file = scenario(dir.path(), "attack", ATTACK);
    let text = diff(Path::new(CATALOGUE), &new, &file, &[]);
    let header = text.lines().find(|l| l.starts_with("rank")).unwrap();
    assert!(header.contains("win rate") && header.contains("kill points per 100 points"), "{header}");
    assert!(!text.contains("p_kill_turn1"), "no rows without --rows: {text}");
    assert!(text.contains("rows not shown: --rows lists them"), "{text}");
    for flag in ["--rows", "--changed"] {
        let with = diff(Path::new(CATALOGUE), &new, &file, &[flag]);
        assert!(with.starts_with(text.lines().next().unwrap()), "{flag}: the summary leads");
        assert!(with.contains("p_kill_turn1"), "{flag}: {with}");
    }
}

#[test]
fn identical_catalogues_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Path::new(CATALOGUE);
    for (name, text) in [("attack", ATTACK), ("duel", DUEL)] {
        let file = scenario(dir.path(), name, text);
        let s = summary(cat, cat, &file);
        assert_eq!(s.len(), 2 + 2 * usize::from(name == "attack"));
        for b in &s {
            assert_eq!(b["verdict"], "unchanged", "{b}");
            assert_eq!((f(b, "change_size"), f(b, "win_rate_change")), (0.0, 0.0), "{b}");
            let (lo, hi) = ci(b, "win_rate_change_ci95");
            assert!(lo <= 0.0 && hi >= 0.0, "{b}");
        }
        let md = diff(cat, cat, &file, &["--format", "markdown"]);
        assert!(md.contains("No build changed.") && !md.contains("| Build |"), "{md}");
    }
}

#[test]
fn an_opponents_new_price_alone_makes_no_build_stronger_or_weaker() {
    // Only the Beagle Hunter's price changes (5 → 7). The Dwarf's cost and fights are the
    // same; its kill points per 100 against the Beagle rise only because the Beagle is
    // dearer. Was: the Dwarf "stronger per cost".
    let dir = tempfile::tempdir().unwrap();
    let dearer = dearer_beagle(dir.path());
    let duel = r#"engagement = "duel"
trials = 2000
attackers = ["Dwarf ALPHA", "Beagle Hunter"]
opponents = ["Beagle Hunter", "Troll Brawler"]
[grid]
range = [12]
"#;
    let attack = r#"attackers = ["Dwarf ALPHA", "Beagle Hunter"]
targets = ["Beagle Hunter", "Stingray"]
[grid]
range = [12]
"#;
    for (name, text) in [("duel", duel), ("attack", attack)] {
        let file = scenario(dir.path(), name, text);
        let s = summary(Path::new(CATALOGUE), &dearer, &file);
        let by = |b: &str| s.iter().find(|x| x["build"] == b).unwrap_or_else(|| panic!("{b}: {s:?}"));
        let dwarf = by("Dwarf ALPHA");
        assert_eq!(dwarf["verdict"], "unchanged", "{name}: {dwarf}");
        assert_eq!(f(dwarf, "change_size"), 0.0, "{name}: {dwarf}");
        assert_eq!(dwarf["moved_by"], serde_json::json!(["opponent costs"]), "{name}: {dwarf}");
        assert_eq!(f(dwarf, "own_kill_points_per_100_change"), 0.0, "{name}: {dwarf}");
        // The Beagle's own price moved: weaker, and said why.
        let beagle = by("Beagle Hunter");
        assert_eq!(beagle["verdict"], "weaker", "{name}: {beagle}");
        assert_eq!(beagle["moved_by"][0], "cost", "{name}: {beagle}");
        let text = diff(Path::new(CATALOGUE), &dearer, &file, &[]);
        let line = text.lines().find(|l| l.contains("Dwarf ALPHA")).unwrap();
        assert!(line.contains("unchanged") && line.contains("opponent costs"), "{line}");
    }
}

#[test]
fn changed_rows_never_print_a_change_as_zero() {
    // Damage 9 instead of 8: small exact changes. Was: 194 rows printing 0.0000 or
    // -0.0000, and ranges as 12.0000.
    let dir = tempfile::tempdir().unwrap();
    let new = edited(dir.path(), "devastator-9", |file, text| {
        if file == "weapons.toml" {
            let at = text.find("name = \"Devastator\"").unwrap();
            let d = at + text[at..].find("damage = 8").unwrap();
            text.replace_range(d..d + "damage = 8".len(), "damage = 9");
        }
    });
    let text = diff(Path::new(CATALOGUE), &new, &scenario(dir.path(), "attack", ATTACK), &["--changed"]);
    let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("ruleset")).skip(2).collect();
    assert!(!rows.is_empty(), "{text}");
    for r in &rows {
        let w: Vec<&str> = r.split_whitespace().collect();
        // old, new, difference, its interval: the last seven words hold them, then `-` `-`.
        let (old, new, d) = (w[w.len() - 7], w[w.len() - 6], w[w.len() - 5]);
        assert!(old != new, "a changed row's values read alike: {r}");
        assert!(!d.trim_start_matches(['+', '-']).trim_start_matches(['0', '.']).is_empty(), "{r}");
        assert!(!r.contains(" 12.0000 "), "{r}");
    }
}
