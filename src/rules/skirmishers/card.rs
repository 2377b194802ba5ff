//! The printable odds card of a Skirmishers trooper: per weapon, the target number and
//! P(hit) by range band, prone states and obstructions on the line of fire, and the
//! damage track outcome of one attack on a fresh trooper like it. Every number is the
//! `odds` command's exact [`attack_odds`] (counts out of 36 and 1296).

use crate::charts::card::{Card, CardMap};
use crate::charts::data::Heatmap;
use crate::output::percent::percent_exact;

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::odds::attack_odds;
use super::options::Options;
use super::trooper::{Armour, Trooper};
use super::weapon::{Use, Weapon};

/// Obstruction columns: 0 to this many.
const MAX_OBSTRUCTIONS: u32 = 3;
/// Throw rows: 1 dot up to this many (as far as the AP reaches).
const MAX_THROW_DOTS: u32 = 6;

/// A row of the card: its label and the range (dots) it is computed at.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    pub label: String,
    pub range: u32,
}

fn dots(r: u32) -> String {
    if r == 1 { "1 dot".into() } else { format!("{r} dots") }
}

/// The book's band of range `r` for `w`: "Short", "Long" or "" (melee, throws, beyond).
fn band_name(w: &Weapon, r: u32) -> &'static str {
    match w.usage() {
        Use::Arc { .. } | Use::Launcher { .. } => {
            let short = w.short.unwrap_or(0);
            let long = w.long.unwrap_or(short).max(short);
            if r <= short {
                "Short"
            } else if r <= long {
                "Long"
            } else {
                ""
            }
        }
        _ => "",
    }
}

/// The rows of `w`: one per asked range (dots), or, with none asked, adjacent (prone
/// targets count differently there), the rest of Short, and Long; throws 1 dot and up.
pub fn bands(w: &Weapon, ranges: &[u32]) -> Vec<Band> {
    if !ranges.is_empty() {
        return ranges
            .iter()
            .map(|&r| {
                let b = band_name(w, r);
                Band { label: if b.is_empty() { dots(r) } else { format!("{} ({b})", dots(r)) }, range: r }
            })
            .collect();
    }
    match w.usage() {
        Use::Melee => vec![Band { label: "1 dot (melee)".into(), range: 1 }],
        Use::Thrown { .. } => {
            (1..=MAX_THROW_DOTS).map(|r| Band { label: format!("{} (throw)", dots(r)), range: r }).collect()
        }
        Use::Arc { .. } | Use::Launcher { .. } => {
            let short = w.short.unwrap_or(0);
            let long = w.long.unwrap_or(short).max(short);
            let mut v = vec![Band { label: "1 dot (adjacent)".into(), range: 1 }];
            let span = |a: u32, b: u32| if a == b { dots(a) } else { format!("{a}-{b} dots") };
            if short >= 2 {
                v.push(Band { label: format!("{} (Short)", span(2, short)), range: short });
            }
            if long > short {
                v.push(Band { label: format!("{} (Long)", span(short.max(1) + 1, long)), range: long });
            }
            v
        }
    }
}

/// The prone panels: (title, attacker prone, target prone).
const PRONE: [(&str, bool, bool); 3] =
    [("Both standing", false, false), ("Target prone", false, true), ("Firer prone", true, false)];

/// The weapons of `t` in card order: primaries, secondary, grenade.
fn weapons(t: &Trooper) -> Vec<&Weapon> {
    t.primaries.iter().chain(t.secondary.as_ref()).chain(t.grenade.as_ref().filter(|_| t.grenades > 0)).collect()
}

/// The damage track line of one attack of `w` at `c` on a fresh `t`.
fn outcome(t: &Trooper, w: &Weapon, c: &Conditions, o: &Options) -> String {
    let odds = attack_odds(t, w, t, c, o);
    let total = f64::from(super::law::TOTAL);
    let parts: Vec<String> = odds
        .hp
        .iter()
        .map(|(h, n)| {
            let k = h.map_or("out".to_string(), |h| format!("HP {h}"));
            format!("{k} {}", percent_exact(f64::from(*n) / total))
        })
        .collect();
    format!("{} (Dead {})", parts.join(", "), percent_exact(odds.p_dead()))
}

/// The card's block for weapon `w` of trooper `t`.
pub fn weapon_map(t: &Trooper, w: &Weapon, ranges: &[u32], o: &Options) -> CardMap {
    let rows = bands(w, ranges);
    let x: Vec<String> = (0..=MAX_OBSTRUCTIONS).map(|k| k.to_string()).collect();
    let (mut panels, mut notes) = (Vec::new(), Vec::new());
    for (name, ap, tp) in PRONE {
        let (mut grid, mut note_grid) = (Vec::new(), Vec::new());
        for band in &rows {
            let (mut row, mut note_row) = (Vec::new(), Vec::new());
            for k in 0..=MAX_OBSTRUCTIONS {
                let c = Conditions {
                    range: band.range,
                    obstructions: k,
                    attacker_prone: ap,
                    target_prone: tp,
                    ..Conditions::default()
                };
                let odds = attack_odds(t, w, t, &c, o);
                match odds.target_number {
                    Ok(tn) => {
                        row.push(Some(odds.p_hit()));
                        note_row.push(Some(format!("TN {tn}")));
                    }
                    Err(_) => {
                        row.push(None);
                        note_row.push(Some("no attack".into()));
                    }
                }
            }
            grid.push(row);
            note_grid.push(note_row);
        }
        panels.push((name.to_string(), grid));
        notes.push(note_grid);
    }
    // the damage track: one attack at the first row, both standing, nothing in the way
    let first = rows.first().map_or(1, |b| b.range);
    let at = Conditions { range: first, ..Conditions::default() };
    let mut caption = vec![format!(
        "Damage track, one attack at {}, both standing, no obstructions, on a fresh {} ({}): {}",
        dots(first),
        t.name,
        armour_words(t.armour),
        outcome(t, w, &at, o)
    )];
    let by_armour: Vec<String> = Armour::NAMES
        .iter()
        .filter_map(|n| Armour::parse(n))
        .map(|a| {
            let c = Conditions { armour: Some(a), ..at };
            format!("{} {}", a.name(), percent_exact(attack_odds(t, w, t, &c, o).p_out()))
        })
        .collect();
    caption.push(format!("Out in one attack by the target's armour: {}", by_armour.join(", ")));
    let map = Heatmap {
        title: [
            Some(format!("{}: {}", w.name, w.damage_text())),
            w.short.map(|x| format!("Short {x}")),
            w.long.map(|x| format!("Long {x}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", "),
        x_label: "Obstructions (+1 TN each)".into(),
        y_label: "Range".into(),
        x,
        y: rows.iter().map(|b| b.label.clone()).collect(),
        panels,
        notes: Some(notes),
        scale_label: "P(hit): 2D6 at or above the TN".into(),
    };
    CardMap { caption, shared_row_labels: true, ..CardMap::from(map) }
}

/// "no armour", "basic armour", ...
fn armour_words(a: Armour) -> String {
    if a == Armour::None { "no armour".into() } else { format!("{} armour", a.name()) }
}

/// The odds card of trooper `name` over `ranges` (dots; empty: each weapon's bands).
///
/// # Errors
/// An unknown trooper, or a range that is not a whole number of dots.
pub fn odds_card(cat: &Catalogue, name: &str, ranges: &[f64], o: &Options) -> Result<Card, String> {
    let ranges = crate::charts::card::whole_ranges(ranges, "dots")?;
    let t = cat.trooper(name)?;
    let maps = weapons(t).into_iter().map(|w| weapon_map(t, w, &ranges, o)).collect();
    Ok(Card {
        title: format!(
            "Odds card: {} ({} track, {}, {})",
            t.name,
            t.track.name(),
            armour_words(t.armour),
            t.experience.name()
        ),
        subtitle: "One attack by a fresh firer at a fresh target like it, stationary: P(2D6 at or above the \
                   target number) and the TN; rows: range band, columns: obstructions on the line of fire \
                   (none between the firer and a dot next to it counts)"
            .into(),
        maps,
        footer: format!(
            "volley {} · Skirmishers · catalogue {} ({}) · TN: Long +2, each obstruction +1, each smoke dot +3, \
             firer prone −1, target prone +1 (adjacent −1, never against explosives)",
            env!("CARGO_PKG_VERSION"),
            cat.hash,
            cat.origin
        ),
    })
}
