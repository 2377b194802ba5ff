//! The printable odds card of a MECHCOM mech: per weapon, P(at least one hit), P(at
//! least one crit) and the expected Integrity lost against each target Armour, by cover
//! and range band, with the effective Stability of each shot. Every number is the `odds`
//! command's exact [`attack_odds`].

use crate::charts::card::{Card, CardMap, whole_ranges};
use crate::charts::data::Heatmap;
use crate::output::percent::percent_exact;

use super::catalogue::{Catalogue, perk_name};
use super::mech::{Mech, Model};
use super::odds::{AttackOdds, attack_odds};
use super::options::Options;
use super::situation::{Cover, Situation};
use super::stability::COVER_STABILITY;
use super::weapon::{Damage, Perk, Weapon, WeaponRange};

/// Target Armour columns when the catalogue has no mech to take them from.
const DEFAULT_ARMOURS: [i32; 3] = [3, 4, 5];

/// A row of the card: its label and the range (hexes) it is computed at.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub label: String,
    pub range: u32,
}

/// The range bands of `w`: one per asked range (hexes), or, with none asked, melee
/// range (where shooting takes +2 Stability) and the rest of the weapon's reach.
pub fn bands(w: &Weapon, ranges: &[u32], o: &Options) -> Vec<Band> {
    let hexes = |r: u32| if r == 1 { "1 hex".to_string() } else { format!("{r} hexes") };
    let melee = o.melee_range_hexes;
    let engaged = |r: u32| r <= melee && !w.is_melee() && !w.has(Perk::Ultralight);
    if !ranges.is_empty() {
        return ranges
            .iter()
            .map(|&r| Band { label: if engaged(r) { format!("{}, engaged", hexes(r)) } else { hexes(r) }, range: r })
            .collect();
    }
    let span = |a: u32, b: u32| if a == b { hexes(a) } else { format!("{a}-{b} hexes") };
    match w.range {
        WeaponRange::Melee => vec![Band { label: format!("{}: melee", span(1, melee)), range: 1 }],
        WeaponRange::Hexes(r) => {
            let mut v = Vec::new();
            let near = r.min(melee);
            if near >= 1 {
                let label = if engaged(1) { format!("{}, engaged", span(1, near)) } else { span(1, near) };
                v.push(Band { label, range: near });
            }
            if r > melee {
                v.push(Band { label: span(melee + 1, r), range: r });
            }
            v
        }
    }
}

/// The target Armour columns: every Armour of the catalogue's mechs, ascending.
fn armours(cat: &Catalogue) -> Vec<i32> {
    let mut v: Vec<i32> = cat.mechs.iter().filter(|m| m.faction.is_some()).map(|m| m.armour).collect();
    v.sort_unstable();
    v.dedup();
    if v.is_empty() { DEFAULT_ARMOURS.to_vec() } else { v }
}

/// A generic target: Armour `armour`, Strength 0, Integrity `integrity`, no conditions.
fn target(armour: i32, integrity: u32) -> Model {
    Model::new(&Mech::simple(&format!("Armour {armour}"), 0, 0, armour, integrity), None)
}

fn damage_text(d: Damage) -> String {
    match d {
        Damage::Fixed(x) => x.to_string(),
        Damage::D3 => "d3".into(),
    }
}

/// "2 decimals", the way the card prints an expected Integrity loss (−0 never shows).
fn loss_text(x: f64) -> String {
    let s = format!("{x:.2}");
    if s == "-0.00" { "0.00".into() } else { s }
}

/// The card's block for one weapon of `attacker`.
pub fn weapon_map(
    attacker: &Model,
    w: &Weapon,
    ranges: &[u32],
    armours: &[i32],
    integrity: u32,
    o: &Options,
) -> CardMap {
    let covers: Vec<(String, Cover)> = if w.is_melee() {
        vec![(String::new(), Cover::None)]
    } else {
        vec![
            ("No cover".into(), Cover::None),
            (format!("Half or soft cover: +{COVER_STABILITY} Stability"), Cover::Half),
        ]
    };
    let rows = bands(w, ranges, o);
    let mut x = vec!["P(hit)".to_string(), "P(crit)".to_string()];
    x.extend(armours.iter().map(|a| format!("Armour {a}")));
    let (mut panels, mut notes, mut texts) = (Vec::new(), Vec::new(), Vec::new());
    for (name, cover) in &covers {
        let (mut grid, mut note_grid, mut text_grid) = (Vec::new(), Vec::new(), Vec::new());
        for band in &rows {
            let sit = Situation { range: band.range, cover: *cover, ..Situation::default() };
            let odds: Vec<Result<AttackOdds, String>> = armours
                .iter()
                .map(|&a| attack_odds(attacker, w, &target(a, integrity), &sit, o).map_err(|e| e.to_string()))
                .collect();
            let (mut row, mut note_row, mut text_row) = (Vec::new(), Vec::new(), Vec::new());
            match odds.first() {
                Some(Ok(first)) => {
                    row.push(Some(first.p_hit));
                    note_row.push(Some(match first.stability {
                        Some(s) => format!("Stability {s}"),
                        None => format!("{} dice", first.dice),
                    }));
                    text_row.push(None);
                    row.push(Some(first.p_crit));
                    note_row.push(None);
                    text_row.push(None);
                    for r in &odds {
                        let Ok(od) = r else {
                            row.push(None);
                            note_row.push(Some("no shot".into()));
                            text_row.push(None);
                            continue;
                        };
                        let p_lose = (1.0 - od.integrity_loss.first().copied().unwrap_or(1.0)).clamp(0.0, 1.0);
                        row.push(Some(p_lose));
                        text_row.push(Some(loss_text(od.expected_integrity_loss)));
                        note_row.push(Some(format!("≥1: {}", percent_exact(p_lose))));
                    }
                }
                _ => {
                    for _ in 0..x.len() {
                        row.push(None);
                        note_row.push(Some("no shot".into()));
                        text_row.push(None);
                    }
                }
            }
            grid.push(row);
            note_grid.push(note_row);
            text_grid.push(text_row);
        }
        panels.push((name.clone(), grid));
        notes.push(note_grid);
        texts.push(text_grid);
    }
    let reach = match w.range {
        WeaponRange::Melee => "Range M".to_string(),
        WeaponRange::Hexes(r) => format!("Range {r}"),
    };
    let mut facts = vec![reach, format!("Damage {}", damage_text(w.damage)), format!("{} attacks", w.attacks)];
    facts.extend(w.perks.iter().map(|&p| perk_name(p)));
    let map = Heatmap {
        title: format!("{}: {}", w.name, facts.join(", ")),
        x_label: "chance of at least one hit and one crit; expected Integrity lost against the target's Armour".into(),
        y_label: "Range".into(),
        x,
        y: rows.iter().map(|b| b.label.clone()).collect(),
        panels,
        notes: Some(notes),
        scale_label: "Chance (P(hit), P(crit), P(at least 1 Integrity lost))".into(),
    };
    CardMap { texts: Some(texts), ..CardMap::from(map) }
}

/// The odds card of mech `name` (a mech, or `Mech (Pilot)`) over `ranges` (hexes;
/// empty: each weapon's bands).
///
/// # Errors
/// An unknown mech or pilot, or a range that is not a whole number of hexes.
pub fn odds_card(cat: &Catalogue, name: &str, ranges: &[f64], o: &Options) -> Result<Card, String> {
    o.validate().map_err(|e| e.to_string())?;
    let ranges = whole_ranges(ranges, "hexes")?;
    let attacker = cat.model_named(name)?;
    let armours = armours(cat);
    let integrity = cat.mechs.iter().map(|m| m.integrity).max().unwrap_or(1).max(1);
    let m = &attacker.mech;
    let maps = m.weapons.iter().map(|w| weapon_map(&attacker, w, &ranges, &armours, integrity, o)).collect();
    Ok(Card {
        title: format!("Odds card: {name} (Stability {}, Strength {:+})", m.stability, m.strength),
        subtitle: "One attack at a fresh target on the same level, no spot tokens, wielder stationary: \
                   a die at or above the effective Stability hits, a natural 6 is a crit worth 2 hits; \
                   the Armour columns give the expected Integrity lost (and the chance of losing any)"
            .into(),
        maps,
        footer: format!(
            "volley {} · MECHCOM · catalogue {} ({}) · Stability (lower is better): +2 engaged, +2 half cover, \
             −1 per spot token, −1 per 2 levels above · melee: Strength against the target's Strength 0",
            env!("CARGO_PKG_VERSION"),
            cat.hash,
            cat.origin
        ),
    })
}
