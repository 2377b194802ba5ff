//! The printable odds card of a Shellshock unit: per gunner, the chance its one roll a
//! turn hits (at least one of its weapons) against each unit of the catalogue, by facing
//! and range, with the chance of the Dead box (Internal at or above Dead X+). Every
//! number is the `odds` command's exact [`GunnerOdds`].

use crate::charts::card::{Card, CardMap, whole_ranges};
use crate::charts::data::Heatmap;
use crate::output::percent::percent_exact;

use super::catalogue::Catalogue;
use super::conditions::{Conditions, Facing};
use super::gunner::{defence, plans};
use super::odds::GunnerOdds;
use super::options::Options;
use super::unit::Unit;

/// The ranges of a card when none are asked for, in hexes: point blank, and the first
/// two steps of the range modifier at its default step of 12.
pub const DEFAULT_RANGES: [u32; 3] = [1, 12, 24];

/// The facing panels.
const FACINGS: [(&str, Facing); 3] = [("Front", Facing::Front), ("Side", Facing::Side), ("Rear", Facing::Rear)];

/// The Dead box chance as printed: exact, but below 0.1% only "<0.1%" (the cells stay
/// narrow enough for the three facings side by side).
fn dead_text(p: f64) -> String {
    if p > 0.0 && p < 0.001 { "<0.1%".into() } else { percent_exact(p) }
}

/// The card's block for gunner `gi` (from 0) of `attacker`.
fn gunner_map(cat: &Catalogue, attacker: &Unit, gi: usize, ranges: &[u32], o: &Options) -> CardMap {
    let (mut panels, mut notes) = (Vec::new(), Vec::new());
    for (name, facing) in FACINGS {
        let (mut grid, mut note_grid) = (Vec::new(), Vec::new());
        for target in &cat.units {
            let (mut row, mut note_row) = (Vec::new(), Vec::new());
            for &range in ranges {
                let c = Conditions { range, facing, ..Conditions::default() }.dodging(o, false);
                let ps = plans(cat, attacker, target, &c, o);
                match ps.iter().find(|p| p.number == gi + 1) {
                    Some(plan) => {
                        let g = GunnerOdds::new(plan, &defence(target, &c), o.damage_dice());
                        row.push(Some(g.p_any_hit));
                        note_row.push(Some(format!("Dead {}", dead_text(g.p_dead_box))));
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
        panels.push((format!("{name} hit"), grid));
        notes.push(note_grid);
    }
    let g = &attacker.gunners[gi];
    let skill = g.skill.unwrap_or(o.skill_default());
    let weapons: Vec<String> = g
        .weapons
        .iter()
        .map(|&i| {
            let w = &cat.weapons[i];
            format!("{} ({}, range {})", w.name, w.kind.name(), w.range)
        })
        .collect();
    let map = Heatmap {
        title: format!("Gunner {} (Gunnery {skill}, {}): {}", gi + 1, attacker.dice.name(), weapons.join(", ")),
        x_label: "Range (hexes)".into(),
        y_label: "Target".into(),
        x: ranges.iter().map(|r| r.to_string()).collect(),
        y: cat.units.iter().map(|u| u.name.clone()).collect(),
        panels,
        notes: Some(notes),
        scale_label: "P(hit): the gunner's roll hits with at least one weapon".into(),
    };
    CardMap { shared_row_labels: true, ..CardMap::from(map).with_column_unit("hexes") }
}

/// The odds card of unit `name` over `ranges` (hexes; empty: [`DEFAULT_RANGES`]).
///
/// # Errors
/// An unknown unit, a range that is not a whole number of hexes, options the exact odds
/// do not play (`MODEL=FULL_CHART`).
pub fn odds_card(cat: &Catalogue, name: &str, ranges: &[f64], o: &Options) -> Result<Card, String> {
    o.validate()?;
    if o.full_chart() {
        return Err("odds cards are exact: MODEL=FULL_CHART is played by Monte Carlo only (ttk, duel)".into());
    }
    let asked = whole_ranges(ranges, "hexes")?;
    let ranges = if asked.is_empty() { DEFAULT_RANGES.to_vec() } else { asked };
    let u = cat.unit(name)?;
    let maps = (0..u.gunners.len()).map(|gi| gunner_map(cat, u, gi, &ranges, o)).collect();
    Ok(Card {
        title: format!("Odds card: {} ({} dice)", u.name, u.dice.name()),
        subtitle: format!(
            "Each gunner's one roll a turn, by the facing it hits: the chance of at least one hit (TN = the \
             target's DV for the weapon type and facing, halved at point blank, + stealth + 1 per {} hexes) \
             and of the Dead box; rows: target",
            o.range_step()
        ),
        maps,
        footer: format!(
            "volley {} · Shellshock · catalogue {} ({}) · range 1 is point blank · hull down doubles the range \
             modifier · an immobile target has DV 0",
            env!("CARGO_PKG_VERSION"),
            cat.hash,
            cat.origin
        ),
    })
}
