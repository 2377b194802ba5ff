//! Every number and ruling the TechCommander kernel plays by, in one place.
//!
//! Sources: `shared/rulebooks/001_*` (3rd edition Quick Start, the default) and
//! `000_*` (2nd edition core rules), as ruled in `shared/rules/techcommander.md`. A
//! designer who wants another reading changes the constant here (or the option named).

/// Faces on the die: one d20 per shot (§1).
pub const DIE_SIDES: u32 = 20;
/// Every shot hits on a roll <= the target number, which starts at 10 (§2).
pub const BASE_TARGET_NUMBER: i32 = 10;
/// Ruling (§1): no automatic hit or miss. A target number of 20 or more always hits,
/// 0 or less never does: P(hit) = clamp(T, 0, 20) / 20.
pub const ALWAYS_HITS_AT: i32 = 20;

/// Size bonus = target AC, capped at +6 ("AC size modifier plus is capped at 6") (§2).
pub const SIZE_BONUS_CAP: u32 = 6;

/// Movement modifiers (§2, "Attack (with or without moving)").
pub const HALF_MOVE_PENALTY: i32 = 1;
pub const FULL_MOVE_PENALTY: i32 = 4;
/// A non-MSV vehicle (auto-stabilized) firing while moving takes -1 at any speed.
pub const AUTO_STABILIZED_MOVE_PENALTY: i32 = 1;
pub const POP_AND_SHOOT_PENALTY: i32 = 1;
pub const JUMP_ASSAULT_PENALTY: i32 = 4;
pub const OFFLOAD_PENALTY: i32 = 1;

/// Cover modifiers. Ruling (§2): the "Cover Modifiers" section and the 2nd-edition chart
/// (minor -1, half -2, heavy -3, blocked -6 for NLOS) win over the 3rd-edition bullet
/// list under "How to attack", which shifts the bands by one.
pub const MINOR_COVER_PENALTY: i32 = 1;
pub const HALF_COVER_PENALTY: i32 = 2;
pub const HEAVY_COVER_PENALTY: i32 = 3;
/// Blocked line of sight: no shot, unless the weapon is NLOS, which takes -6.
pub const BLOCKED_NLOS_PENALTY: i32 = 6;

/// Smoke: -6 when the line of fire crosses smoke; several areas never exceed -6.
pub const SMOKE_PENALTY: i32 = 6;
/// Smoke against a laser-designated target.
pub const DESIGNATED_SMOKE_PENALTY: i32 = 3;

/// Ruling (§2, "Non-Line-of-Sight shots"): an NLOS-capable weapon always takes the NLOS
/// shot when that is allowed, so it ignores smoke and may fire under its minimum range.
/// The cover modifier is still the target's cover (-6 only when blocked).
pub const NLOS_WEAPONS_FIRE_NLOS: bool = true;

/// Defender statuses (§2, battle statuses).
pub const DUG_IN_PENALTY: i32 = 2;
/// Syndicate *Defense Masters*: dug in is -3 instead (ability name on the target unit).
pub const DEFENSE_MASTERS_DUG_IN_PENALTY: i32 = 3;
pub const DEFENSE_MASTERS_ABILITY: &str = "Defense Masters";
/// Hull down: non-MSV ground vehicles only; stacks with cover and dug in. Ruling: on a
/// target that cannot be hull down (an MSV, troop, crew or terrain) it adds nothing.
pub const HULL_DOWN_PENALTY: i32 = 2;
/// Posted up: only when the target also has a cover modifier that applies to this shot.
pub const POSTED_UP_PENALTY: i32 = 2;
/// Target fully inside forest (2nd-edition terrain).
pub const FOREST_PENALTY: i32 = 2;

/// 2nd-edition faction training read from attacker abilities: Syndicate *Wetwire* adds
/// +1 fire control; Pirate *Combined Arms* adds +2 fire control with a friendly MSV on the
/// field (the `friendly_msv` condition). Both are fire control, so they are lost with it.
/// Mercenary *Moneyshot* (+2 when the attack can eliminate the target) is not modelled.
pub const WETWIRE_ABILITY: &str = "Wetwire";
pub const WETWIRE_FIRE_CONTROL: i32 = 1;
pub const COMBINED_ARMS_ABILITY: &str = "Combined Arms";
pub const COMBINED_ARMS_FIRE_CONTROL: i32 = 2;

/// Fire for effect (splash weapons only): no size bonus, range penalty applies, -4 with
/// line of sight to the spot, -8 without (and then not the -6 NLOS modifier).
/// Ruling: it aims at a spot, so the target's cover and statuses do not apply; a shot
/// without line of sight needs an NLOS weapon and ignores smoke; hits deal their damage
/// to the target as splash, which never ignores armour (armour piercing is not applied).
pub const FIRE_FOR_EFFECT_LOS_PENALTY: i32 = 4;
pub const FIRE_FOR_EFFECT_NO_LOS_PENALTY: i32 = 8;

/// Ruling on Omega Override (fires all weapons, ignoring link limits, as one action):
/// damage reduction is subtracted once from the combined total, less the smallest
/// armour piercing among the weapons fired.
pub const OMEGA_USES_SMALLEST_ARMOR_PIERCING: bool = true;

/// Every unit and terrain feature starts with 20 life (§3).
pub const STARTING_LIFE: u32 = 20;
/// In the red: 5 or less life (including eliminated) (§4).
pub const IN_THE_RED_LIFE: i32 = 5;
/// Jury rig: a d20 of 10 or less acts normally; otherwise no fire control for that
/// action. Ruling (§4): one roll per action given.
pub const JURY_RIG_SUCCESS_MAX: u32 = 10;

/// Actions per turn (§5): an MSV two (its second attack with a different weapon
/// system), every other unit one. An under-crewed MSV loses its second action.
pub const MSV_ACTIONS_PER_TURN: u32 = 2;
pub const OTHER_ACTIONS_PER_TURN: u32 = 1;
