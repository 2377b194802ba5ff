//! The printable odds card of a TechCommander build: per weapon system, the hit chance
//! and the roll needed against target AC 1-6 by range, in the open and in smoke.

use crate::charts::card::{Card, CardMap};
use crate::charts::data::Heatmap;

use super::catalogue::Catalogue;
use super::conditions::{Conditions, Smoke};
use super::odds::system_odds;
use super::options::Options;
use super::profile::{Attacker, Target};

/// The card's heatmaps: per weapon system, target AC 1-6 against range, open and smoke.
pub fn card_maps(attacker: &Attacker, ranges: &[f64], o: &Options) -> Vec<Heatmap> {
    let acs: Vec<u32> = (1..=6).collect();
    attacker
        .systems
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let w = &s.weapon;
            let mut panels = Vec::new();
            let mut notes = Vec::new();
            for (name, smoke) in [("In the open", Smoke::None), ("In smoke", Smoke::Smoke)] {
                let mut grid = Vec::new();
                let mut note_grid = Vec::new();
                for &ac in &acs {
                    let mut row = Vec::new();
                    let mut note_row = Vec::new();
                    for &range in ranges {
                        let c = Conditions { range, smoke, ..Conditions::default() };
                        let odds = system_odds(attacker, i, &Target::generic(ac), &c, o);
                        match odds.target_number() {
                            Some(t) => {
                                row.push(odds.p_hit());
                                note_row.push(Some(if t >= 20 {
                                    "always".into()
                                } else if t <= 0 {
                                    "never".into()
                                } else {
                                    format!("roll ≤{t}")
                                }));
                            }
                            None => {
                                row.push(None);
                                note_row.push(Some("no shot".into()));
                            }
                        }
                    }
                    grid.push(row);
                    note_grid.push(note_row);
                }
                panels.push((name.to_string(), grid));
                notes.push(note_grid);
            }
            let copies = if s.copies > 1 { format!(" ×{} linked", s.copies) } else { String::new() };
            let mut facts = vec![
                format!("{} d20 per action", s.dice()),
                format!("{} damage a hit", w.damage),
                format!("FC {:+}", w.fire_control),
                format!("OPT {}", w.opt),
            ];
            if w.drop > 0 {
                facts.push(format!("−{} per {} beyond", w.drop, w.drop_per));
            }
            if w.min > 0 {
                facts.push(format!("MIN {}", w.min));
            }
            if w.nlos {
                facts.push("NLOS".into());
            }
            if w.rounds > 0 {
                facts.push(format!("{} rounds", w.rounds));
            }
            Heatmap {
                title: format!("{}{copies}: {}", w.name, facts.join(", ")),
                x_label: "Range (inches)".into(),
                y_label: "Target AC".into(),
                x: ranges.iter().map(|r| format!("{r}")).collect(),
                y: acs.iter().map(|a| format!("AC{a}")).collect(),
                panels,
                notes: Some(notes),
                scale_label: "P(hit) per shot".into(),
            }
        })
        .collect()
}

/// The ranges of a card when none are asked for, in inches.
pub const DEFAULT_RANGES: [f64; 7] = [6.0, 12.0, 18.0, 24.0, 30.0, 36.0, 48.0];

/// The odds card of build `name` over `ranges` (inches; empty: [`DEFAULT_RANGES`]).
///
/// # Errors
/// An unknown build.
pub fn odds_card(cat: &Catalogue, name: &str, ranges: &[f64], o: &Options) -> Result<Card, String> {
    let ranges = if ranges.is_empty() { &DEFAULT_RANGES[..] } else { ranges };
    let build = cat.find_build(name)?;
    let attacker = Attacker::from_build(cat, build);
    let unit = cat.unit_of(build);
    super::edition::check_unit(unit, o)?;
    let bonus =
        if attacker.to_hit_bonus != 0 { format!(", {:+} to hit", attacker.to_hit_bonus) } else { String::new() };
    Ok(Card {
        title: format!("Odds card: {} ({} AC{}{bonus})", build.name, unit.kind, unit.ac),
        subtitle: "Hit chance per shot and the roll needed (d20, roll that or less), stationary; \
                   rows: target AC, columns: range in inches"
            .into(),
        maps: card_maps(&attacker, ranges, o).into_iter().map(|m| CardMap::from(m).with_column_unit("in.")).collect(),
        footer: format!(
            "volley {} · TechCommander · catalogue {} ({}) · cover: −1 minor, −2 half, −3 heavy · moving: −1 half, −4 full",
            env!("CARGO_PKG_VERSION"),
            cat.hash,
            cat.origin
        ),
    })
}
