//! The edition switch (`EDITION`, `shared/rules/techcommander-battles.md` §5): what the
//! 2nd edition (`000_*` core rules) plays differently from the 3rd (`001_*`, the
//! default), as pure functions of the options, for the kernels here and the battle
//! engine.
//!
//! Rows of §5 and where they live:
//! - faction training: [`faction_training`] (Wetwire, Combined Arms, Defense Masters in
//!   [`super::target_number`]; Moneyshot in [`super::odds`]; the USSC badge repair in
//!   [`badge_repair_distribution`]);
//! - infantry stances: [`prone`], applied in [`super::target_number`];
//! - scan: [`scan_target`]; adjacent: [`adjacent_gap`];
//! - MSV AC 2 to 6: [`check_unit`] (the catalogue, loaded before the options are known,
//!   accepts 2..=6 and an engagement refuses an AC2 MSV under the 3rd edition);
//! - fire for effect, "regular damage ignored, splash only": both editions, by the
//!   ruling `FIRE_FOR_EFFECT_IS_SPLASH` (the hits are splash damage: no armour piercing);
//! - the rows the simulator plays the same in both (initiative order, command rounds,
//!   range rounding, cover, aerial units, crew escape, deathmatch numbers) are not
//!   switched here;
//! - terrain: the `forest` status is 2nd-edition terrain ("Trees (forest)"; the 3rd
//!   edition's terrain hinders speed only): [`check_conditions`] refuses it under the
//!   3rd edition.

use crate::catalogue::error::CatalogError;

use super::catalogue::{Unit, UnitKind};
use super::conditions::cover_penalty;
use super::conditions::{Conditions, Cover, Movement};
use super::options::Options;
use super::rulings::{DIE_SIDES, SCAN_TARGET};

pub use super::options::EDITIONS;

/// Whether the options play the 2nd edition (`EDITION=2`).
pub fn second_edition(o: &Options) -> bool {
    o.edition == 2
}

/// Whether faction training applies: the 2nd edition's "Base faction training" exists
/// only under `EDITION=2`, and there only with `FACTION_TRAINING` on.
pub fn faction_training(o: &Options) -> bool {
    second_edition(o) && o.faction_training
}

/// Whether an attacker of `kind` that moved by `movement` is prone (2nd edition
/// "Optional Advanced Rules: Infantry Stances", `STANCES`): under `EDITION=2` with
/// `STANCES` on, a troop or crew unit (infantry) that stayed stationary is prone; one
/// that moved is standing or kneeling.
pub fn prone(o: &Options, kind: UnitKind, movement: Movement) -> bool {
    second_edition(o)
        && o.stances
        && matches!(kind, UnitKind::Troop | UnitKind::Crew)
        && movement == Movement::Stationary
}

/// How far apart two units may be and still count as adjacent, in inches (ruling
/// `ADJACENT_GAP`): the option's gap (0, base-to-base contact) under the 3rd edition, 2
/// more under the 2nd ("about 2 units apart"). The reach of a special attack is
/// speed ≥ range − gap.
pub fn adjacent_gap(o: &Options) -> u32 {
    o.adjacent_gap + if second_edition(o) { 2 } else { 0 }
}

/// The scan number for one unit in scan range under `cover` (a scan d20 of this or less
/// reveals it), before scanner gear and training bonuses.
///
/// 3rd edition ("Scanning"): one d20 ≤ 12 for every unit in range, so `cover` does not
/// matter. 2nd edition ("Scanning"): 12 with, unit by unit, −1 for 25% cover, −2 for 50%,
/// −3 for 75-95% and −6 with no line of sight: the cover bands `minor`, `half`, `heavy`
/// and `blocked`, whose magnitudes are the options `MINOR_COVER_PENALTY`,
/// `HALF_COVER_PENALTY`, `HEAVY_COVER_PENALTY` and `BLOCKED_NLOS_PENALTY` (1, 2, 3, 6 by
/// default, the scan's own numbers; `COVER_BANDS` does not shift them: it reads the
/// attack bullet list). Range 0..=20 (clamped at 0).
pub fn scan_target(o: &Options, cover: Cover) -> u32 {
    if second_edition(o) { SCAN_TARGET.saturating_sub(cover_penalty(cover, o) as u32) } else { SCAN_TARGET }
}

/// Life the USSC *Advanced MSV Warfare Badge* repairs for a repair d20 of `roll`
/// (1..=20): 1-5 none, 6-10 2, 11-15 4, 16-20 8 (2nd edition "Base faction training").
///
/// # Panics
/// When `roll` is not a d20 face (a programming error).
pub fn badge_repair(roll: u32) -> u32 {
    assert!((1..=DIE_SIDES).contains(&roll), "a d20 roll is 1 to 20, got {roll}");
    match roll {
        1..=5 => 0,
        6..=10 => 2,
        11..=15 => 4,
        _ => 8,
    }
}

/// The exact distribution of life one badge repair restores: index = life repaired
/// (0..=8), value = probability (0, 2, 4 and 8 each 5/20 = 1/4, exact in `f64`; the other
/// indices 0). The repair exists only where [`faction_training`] holds.
pub fn badge_repair_distribution() -> Vec<f64> {
    let mut pmf = vec![0.0; badge_repair(DIE_SIDES) as usize + 1];
    for roll in 1..=DIE_SIDES {
        pmf[badge_repair(roll) as usize] += 1.0 / DIE_SIDES as f64;
    }
    pmf
}

/// Checks conditions against the edition: the `forest` status (2nd edition "Trees
/// (forest)": −2 to target a unit fully inside) exists only under `EDITION=2`; the 3rd
/// edition's terrain hinders speed only, so it has no forest modifier to play.
///
/// # Errors
/// The `forest` status under `EDITION=3`, naming the option.
pub fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
    if c.statuses.forest && !second_edition(o) {
        return Err("--status forest is 2nd-edition terrain (\"Trees (forest)\"; the 3rd edition's terrain hinders speed only): play it with EDITION=2".into());
    }
    Ok(())
}

/// Checks a catalogue unit against the edition: an MSV of AC2 (the 2nd edition's
/// "anywhere from AC2 to AC6") is playable only under `EDITION=2`. The catalogue accepts
/// MSV AC 2 to 6 whatever the edition, because it is loaded before the options are known;
/// every engagement checks its units here.
///
/// # Errors
/// An AC2 MSV under `EDITION=3`, as a catalogue error: file, line, entry, field `ac`.
pub fn check_unit(unit: &Unit, o: &Options) -> Result<(), String> {
    if unit.kind == UnitKind::Msv && unit.ac < 3 && !second_edition(o) {
        let e = CatalogError::new(&unit.file, format!(
            "an MSV of AC{} is 2nd-edition only (the 3rd edition's MSV classes are AC3 to AC6): play it with EDITION=2",
            unit.ac
        ))
        .at(unit.position)
        .entry(format!("unit \"{}\"", unit.name))
        .field("ac");
        return Err(e.to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn second() -> Options {
        Options { edition: 2, ..Options::default() }
    }

    #[test]
    fn adjacent_gap_follows_the_edition() {
        assert_eq!(adjacent_gap(&Options::default()), 0);
        assert_eq!(adjacent_gap(&second()), 2);
    }

    #[test]
    fn scan_numbers_are_per_unit_only_in_the_second_edition() {
        // 3rd: 12 for everyone in range. 2nd: 12, 11, 10, 9 and 6 by cover.
        let third: Vec<u32> = Cover::ALL.iter().map(|&c| scan_target(&Options::default(), c)).collect();
        assert_eq!(third, [12, 12, 12, 12, 12]);
        let by_cover: Vec<u32> = Cover::ALL.iter().map(|&c| scan_target(&second(), c)).collect();
        assert_eq!(by_cover, [12, 11, 10, 9, 6]);
        // the cover options move it, and it never goes below 0
        let deep = Options { blocked_nlos_penalty: 30, ..second() };
        assert_eq!(scan_target(&deep, Cover::Blocked), 0);
    }

    #[test]
    fn forest_is_second_edition_terrain() {
        let forest = Conditions { statuses: "forest".parse().unwrap(), ..Conditions::default() };
        let e = check_conditions(&forest, &Options::default()).unwrap_err();
        assert!(e.contains("forest") && e.contains("EDITION=2"), "{e}");
        assert!(check_conditions(&forest, &second()).is_ok());
        assert!(check_conditions(&Conditions::default(), &Options::default()).is_ok());
    }

    #[test]
    fn badge_repair_table() {
        let rolls: Vec<u32> = [1, 5, 6, 10, 11, 15, 16, 20].into_iter().map(badge_repair).collect();
        assert_eq!(rolls, [0, 0, 2, 2, 4, 4, 8, 8]);
        assert_eq!(badge_repair_distribution(), [0.25, 0.0, 0.25, 0.0, 0.25, 0.0, 0.0, 0.0, 0.25]);
    }

    #[test]
    fn faction_training_and_stances_need_the_second_edition() {
        assert!(!faction_training(&Options::default()), "3rd edition: no faction training");
        assert!(faction_training(&second()));
        assert!(!faction_training(&Options { faction_training: false, ..second() }));
        let stances = Options { stances: true, ..second() };
        assert!(prone(&stances, UnitKind::Troop, Movement::Stationary));
        assert!(prone(&stances, UnitKind::Crew, Movement::Stationary));
        assert!(!prone(&stances, UnitKind::Troop, Movement::Half));
        assert!(!prone(&stances, UnitKind::Vehicle, Movement::Stationary));
        assert!(!prone(&second(), UnitKind::Troop, Movement::Stationary), "STANCES off");
        assert!(!prone(&Options { stances: true, ..Options::default() }, UnitKind::Troop, Movement::Stationary));
    }
}
