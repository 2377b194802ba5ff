//! The book numbers the TechCommander kernel plays by that no ruling or designer varies.
//!
//! Sources: `shared/rulebooks/001_*` (3rd edition Quick Start, the default) and
//! `000_*` (2nd edition core rules), as ruled in `shared/rules/techcommander.md`. Every
//! ruling, every alternative reading and every modifier a designer may want to vary is a
//! runtime option in [`super::options::Options`] instead.

/// Faces on the die: one d20 per shot (§1).
pub const DIE_SIDES: u32 = 20;
/// Every shot hits on a roll <= the target number, which starts at 10 (§2).
pub const BASE_TARGET_NUMBER: i32 = 10;

/// Ability names the catalogue gives units for the 2nd edition's faction training
/// (`EDITION=2` with option `FACTION_TRAINING`): Syndicate *Wetwire* (+fire control),
/// Pirate *Combined Arms* (+fire control with a friendly MSV on the field), Syndicate
/// *Defense Masters* (a larger dug-in penalty), Mercenary *Moneyshot* (+2 when the
/// attack can eliminate the target), USSC *MSV Warfare Badge* (repairs an MSV: see
/// [`super::edition::badge_repair_distribution`]).
pub const WETWIRE_ABILITY: &str = "Wetwire";
pub const COMBINED_ARMS_ABILITY: &str = "Combined Arms";
pub const DEFENSE_MASTERS_ABILITY: &str = "Defense Masters";
pub const MONEYSHOT_ABILITY: &str = "Moneyshot";
pub const MSV_WARFARE_BADGE_ABILITY: &str = "MSV Warfare Badge";

/// A scan d20 of this or less reveals (both editions' "Scanning"; the 2nd edition
/// subtracts each unit's cover: [`super::edition::scan_target`]).
pub const SCAN_TARGET: u32 = 12;

/// Every unit and terrain feature starts with 20 life (§3).
pub const STARTING_LIFE: u32 = 20;

/// Actions per turn (§5): an MSV two (its second attack with a different weapon
/// system), every other unit one. An under-crewed MSV loses its second action.
pub const MSV_ACTIONS_PER_TURN: u32 = 2;
pub const OTHER_ACTIONS_PER_TURN: u32 = 1;

/// The largest turn cap of any engagement or battle.
pub const MAX_TURNS_LIMIT: u32 = 1000;

/// Unit abilities the special attacks read (techcommander-battles.md §4).
/// Unit ability of a jump or leap MSV: it may attack by death from above.
pub const JUMP_ABILITY: &str = "Jump";
/// Unit ability of an aerial vehicle (VTOL, UAV): no overrun; a ram eliminates it
/// (`AERIAL_RULES`, both editions).
pub const AERIAL_ABILITY: &str = "Aerial";
/// USSC faction training (2nd edition, read under `FACTION_TRAINING`): dodges on 14.
pub const COMBAT_AGILITY_ABILITY: &str = "Combat Agility";

/// The bubble shield (3rd and 2nd edition "BUBBLE SHIELD"): "Shield starts with 20 life,
/// and recharges to 20 at end of round unless eliminated"; "may be targeted as an AC5
/// size object but takes damage as a normal AC1 deployable".
pub const SHIELD_LIFE: u32 = 20;
pub const SHIELD_SIZE_AC: u32 = 5;
pub const SHIELD_DAMAGE_AC: u32 = 1;
/// "Creates 5 radius, 2 high deployable shield cover": inches from its centre.
pub const SHIELD_RADIUS: f64 = 5.0;
