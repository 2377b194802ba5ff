//! Every ruling of `shared/rules/techcommander.md`, and the modifiers a designer may want
//! to vary, as a runtime option with its documented default, so a run can record and
//! switch them (manifest, cell key).
//!
//! Field names are the options' names in lower case; [`Options::pairs`] gives the
//! canonical `NAME=value` pairs (UPPER_SNAKE names, as the rules document spells its
//! rulings) for manifests and cell keys, [`Options::set`] switches one, and
//! [`specs`] lists them with a line of help for `volley rulesets`. Every option is
//! consulted: the constructors (`shot`, `system_odds`, `all_odds`, `AttackRun::new`,
//! `Duel::new`) compile them into target numbers, action tables and a duel's jury-rig
//! thresholds once, so the hot loops never read an option per shot.
//!
//! Penalties are magnitudes (a penalty of 2 subtracts 2 from the target number); bonuses
//! add. Book numbers no designer varies (the d20, base 10, 20 life, actions per turn)
//! stay constants in [`super::rulings`].

use serde::{Deserialize, Serialize};

/// Largest penalty or bonus an option accepts: far beyond any d20 roll, small enough
/// that no sum of modifiers overflows.
pub const MAX_MODIFIER: u32 = 100;

/// Which cover bands give which penalty (§2, ruling on cover).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoverBands {
    /// The 3rd edition's "Cover Modifiers" section and the 2nd-edition chart: minor,
    /// half and heavy cover take their own penalties (default).
    CoverModifiers,
    /// The 3rd edition's bullet list under "How to attack", which shifts the bands by
    /// one: minor cover takes the half-cover penalty, half cover the heavy-cover one,
    /// and heavy cover (over 75%) counts as blocked (no shot unless NLOS, then the
    /// blocked penalty).
    HowToAttack,
}

impl CoverBands {
    /// Every reading, default first.
    pub const ALL: [CoverBands; 2] = [CoverBands::CoverModifiers, CoverBands::HowToAttack];
}

/// The rulings TechCommander is played by. `Options::default()` is the documented
/// reading; every published number was computed with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE", deny_unknown_fields)]
pub struct Options {
    /// §5 `EDITION`: the rulebook played, 3 (3rd edition, the default) or 2 (2nd
    /// edition core rules); any other value is refused by [`Options::validate`]. Under 2
    /// the 2nd edition's rows of `techcommander-battles.md` §5 apply: faction training
    /// (with `FACTION_TRAINING` on), infantry stances (with `STANCES` on), a scan number
    /// per unit ([`super::edition::scan_target`]), the adjacent gap of 2
    /// ([`super::edition::adjacent_gap`]) and AC2 MSVs ([`super::edition::check_unit`]).
    pub edition: u32,
    /// §5 `STANCES`: the 2nd edition's optional infantry stances, under `EDITION=2` only
    /// (off by default: optional in the book). On: a stationary troop or crew attacker
    /// is prone and adds `PRONE_BONUS` to its own ranged attacks (not fire control, so
    /// it holds when fire control is lost).
    pub stances: bool,
    /// §5 `PRONE_BONUS`: a prone troop's bonus to its own ranged attacks (+1).
    pub prone_bonus: u32,
    /// §5 `MONEYSHOT_BONUS`: Mercenary *Moneyshot* (2nd-edition faction training) adds
    /// this to a shot when, with every shot of the action hitting, the life lost would
    /// reach the target's current life (ruling `MONEYSHOT`) (+2).
    pub moneyshot_bonus: u32,
    /// §1 `NO_AUTOMATIC_HIT_OR_MISS`: a target number of 20 or more always hits, 0 or
    /// less never does: P(hit) = clamp(T, 0, 20) / 20. Off: a natural 1 always hits and
    /// a natural 20 always misses: P(hit) = clamp(T, 1, 19) / 20.
    pub no_automatic_hit_or_miss: bool,
    /// §2 `SIZE_BONUS_CAP`: the size bonus is the target's AC, capped at this (+6).
    pub size_bonus_cap: u32,
    /// §2 `HALF_MOVE_PENALTY`: attacking after a half move (−1).
    pub half_move_penalty: u32,
    /// §2 `FULL_MOVE_PENALTY`: attacking after a full move (−4).
    pub full_move_penalty: u32,
    /// §2 `AUTO_STABILIZED_MOVE_PENALTY`: a non-MSV vehicle firing after a half or full
    /// move, at any speed (−1).
    pub auto_stabilized_move_penalty: u32,
    /// §2 `POP_AND_SHOOT_PENALTY` (−1).
    pub pop_and_shoot_penalty: u32,
    /// §2 `JUMP_ASSAULT_PENALTY` (−4).
    pub jump_assault_penalty: u32,
    /// §2 `OFFLOAD_PENALTY`: attacking from an offload (−1).
    pub offload_penalty: u32,
    /// §2 `COVER_BANDS`: which band gives which penalty (ruling: the "Cover Modifiers"
    /// section wins over the bullet list under "How to attack").
    pub cover_bands: CoverBands,
    /// §2 `MINOR_COVER_PENALTY`: 10-25% covered (−1).
    pub minor_cover_penalty: u32,
    /// §2 `HALF_COVER_PENALTY`: 25-75% covered (−2).
    pub half_cover_penalty: u32,
    /// §2 `HEAVY_COVER_PENALTY`: over 75% covered (−3).
    pub heavy_cover_penalty: u32,
    /// §2 `BLOCKED_NLOS_PENALTY`: line of sight blocked, NLOS weapons only (−6).
    pub blocked_nlos_penalty: u32,
    /// §2 `NLOS_WEAPONS_FIRE_NLOS` (ruling): an NLOS-capable weapon always takes the
    /// NLOS shot, so it ignores smoke and may fire under its minimum range; the cover
    /// modifier is still the target's cover. Off: it fires NLOS only when line of sight
    /// is blocked, and otherwise takes smoke and its minimum range like any weapon.
    pub nlos_weapons_fire_nlos: bool,
    /// §2 `SMOKE_PENALTY`: the line of fire crosses smoke; several areas never add more
    /// (−6).
    pub smoke_penalty: u32,
    /// §2 `DESIGNATED_SMOKE_PENALTY`: smoke against a laser-designated target (−3).
    pub designated_smoke_penalty: u32,
    /// §2 `DUG_IN_PENALTY` (−2).
    pub dug_in_penalty: u32,
    /// §2 `HULL_DOWN_PENALTY`: stacks with cover and dug in (−2).
    pub hull_down_penalty: u32,
    /// §2 `HULL_DOWN_ONLY_VEHICLES` (ruling): hull down adds nothing on a target that
    /// cannot be hull down (an MSV, troop, crew or terrain; a generic `ac:N` target
    /// can). Off: it applies to any target.
    pub hull_down_only_vehicles: bool,
    /// §2 `POSTED_UP_PENALTY` (−2).
    pub posted_up_penalty: u32,
    /// §2 `POSTED_UP_NEEDS_COVER` (ruling): posted up counts only when the target also
    /// has a cover modifier that applies to this shot. Off: it always counts.
    pub posted_up_needs_cover: bool,
    /// §2 `FOREST_PENALTY`: target fully inside forest, 2nd-edition terrain (−2; 0 plays
    /// the 3rd edition, which has no forest status).
    pub forest_penalty: u32,
    /// §2 `FACTION_TRAINING`: the 2nd edition's faction training, read from unit
    /// abilities: Syndicate *Wetwire*, Pirate *Combined Arms*, Syndicate *Defense
    /// Masters*, Mercenary *Moneyshot*. It applies only when `EDITION=2` and this is on
    /// (the 3rd edition has no faction training, so under `EDITION=3` it does nothing
    /// either way). Off: a 2nd-edition game without faction training.
    pub faction_training: bool,
    /// §2 `WETWIRE_FIRE_CONTROL`: Syndicate *Wetwire* adds this fire control (+1).
    pub wetwire_fire_control: u32,
    /// §2 `COMBINED_ARMS_FIRE_CONTROL`: Pirate *Combined Arms* adds this fire control
    /// with a friendly MSV on the field (+2).
    pub combined_arms_fire_control: u32,
    /// §2 `DEFENSE_MASTERS_DUG_IN_PENALTY`: dug in against a Syndicate *Defense
    /// Masters* unit (−3).
    pub defense_masters_dug_in_penalty: u32,
    /// §2 `FIRE_FOR_EFFECT_LOS_PENALTY`: fire for effect at a spot in line of sight (−4).
    pub fire_for_effect_los_penalty: u32,
    /// §2 `FIRE_FOR_EFFECT_NO_LOS_PENALTY`: fire for effect without line of sight (−8,
    /// instead of the NLOS −6).
    pub fire_for_effect_no_los_penalty: u32,
    /// §2 `FIRE_FOR_EFFECT_AT_A_SPOT` (ruling): fire for effect aims at a spot, so the
    /// target's cover and statuses do not apply. Off: they apply as to an aimed shot.
    pub fire_for_effect_at_a_spot: bool,
    /// §2 `FIRE_FOR_EFFECT_BLIND_IS_NLOS` (ruling): fire for effect without line of
    /// sight is an NLOS shot: it needs an NLOS weapon and ignores smoke. Off: any splash
    /// weapon may fire it, and smoke applies.
    pub fire_for_effect_blind_is_nlos: bool,
    /// §2-3 `FIRE_FOR_EFFECT_IS_SPLASH` (ruling): fire for effect deals its hits as
    /// splash damage, which never ignores armour ("Splash damage rules"), so armour
    /// piercing does not apply. Off: the weapon's armour piercing applies.
    pub fire_for_effect_is_splash: bool,
    /// §3 `OMEGA_USES_SMALLEST_ARMOR_PIERCING` (ruling): an Omega Override subtracts the
    /// target's reduction once from the combined total, less the smallest armour
    /// piercing among the weapons fired. Off: less the largest.
    pub omega_uses_smallest_armor_piercing: bool,
    /// §4 `IN_THE_RED_LIFE`: a unit with this much life or less (eliminated included)
    /// is in the red and rolls a jury rig for each action (5).
    pub in_the_red_life: u32,
    /// §4 `JURY_RIG_SUCCESS_MAX`: a jury-rig d20 of this or less acts normally;
    /// otherwise the action has no fire control (10).
    pub jury_rig_success_max: u32,
    /// §4 `JURY_RIG_PER_ACTION` (ruling): a unit in the red rolls once per action given
    /// (an MSV twice a turn). Off: once per turn, at its first action in the red; the
    /// result holds for its other actions that turn.
    pub jury_rig_per_action: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            edition: 3,
            stances: false,
            prone_bonus: 1,
            moneyshot_bonus: 2,
            no_automatic_hit_or_miss: true,
            size_bonus_cap: 6,
            half_move_penalty: 1,
            full_move_penalty: 4,
            auto_stabilized_move_penalty: 1,
            pop_and_shoot_penalty: 1,
            jump_assault_penalty: 4,
            offload_penalty: 1,
            cover_bands: CoverBands::CoverModifiers,
            minor_cover_penalty: 1,
            half_cover_penalty: 2,
            heavy_cover_penalty: 3,
            blocked_nlos_penalty: 6,
            nlos_weapons_fire_nlos: true,
            smoke_penalty: 6,
            designated_smoke_penalty: 3,
            dug_in_penalty: 2,
            hull_down_penalty: 2,
            hull_down_only_vehicles: true,
            posted_up_penalty: 2,
            posted_up_needs_cover: true,
            forest_penalty: 2,
            faction_training: true,
            wetwire_fire_control: 1,
            combined_arms_fire_control: 2,
            defense_masters_dug_in_penalty: 3,
            fire_for_effect_los_penalty: 4,
            fire_for_effect_no_los_penalty: 8,
            fire_for_effect_at_a_spot: true,
            fire_for_effect_blind_is_nlos: true,
            fire_for_effect_is_splash: true,
            omega_uses_smallest_armor_piercing: true,
            in_the_red_life: 5,
            jury_rig_success_max: 10,
            jury_rig_per_action: true,
        }
    }
}

/// One line of help per option, in declaration order (checked by a test).
const HELP: [(&str, &str); 39] = [
    ("EDITION", "§5 rulebook edition: 3 (3rd, default) or 2 (2nd: faction training, stances, scans, AC2 MSVs)"),
    ("STANCES", "§5 2nd-edition infantry stances (EDITION=2 only): stationary troops and crew are prone"),
    ("PRONE_BONUS", "§5 bonus of a prone troop or crew to its own ranged attacks (not fire control)"),
    ("MONEYSHOT_BONUS", "§5 Mercenary Moneyshot bonus when all shots hitting would eliminate the target"),
    (
        "NO_AUTOMATIC_HIT_OR_MISS",
        "§1 ruling: T >= 20 always hits, T <= 0 never; false: a 1 always hits, a 20 always misses",
    ),
    ("SIZE_BONUS_CAP", "§2 size bonus = target AC capped at this"),
    ("HALF_MOVE_PENALTY", "§2 penalty after a half move"),
    ("FULL_MOVE_PENALTY", "§2 penalty after a full move"),
    ("AUTO_STABILIZED_MOVE_PENALTY", "§2 penalty for a non-MSV vehicle firing after any move"),
    ("POP_AND_SHOOT_PENALTY", "§2 penalty for pop-and-shoot"),
    ("JUMP_ASSAULT_PENALTY", "§2 penalty for a jump assault"),
    ("OFFLOAD_PENALTY", "§2 penalty for attacking from an offload"),
    ("COVER_BANDS", "§2 ruling: cover-modifiers (minor/half/heavy) or how-to-attack (bands shifted by one)"),
    ("MINOR_COVER_PENALTY", "§2 penalty for minor cover (10-25%)"),
    ("HALF_COVER_PENALTY", "§2 penalty for half cover (25-75%)"),
    ("HEAVY_COVER_PENALTY", "§2 penalty for heavy cover (over 75%)"),
    ("BLOCKED_NLOS_PENALTY", "§2 penalty for an NLOS shot at a blocked target"),
    ("NLOS_WEAPONS_FIRE_NLOS", "§2 ruling: NLOS weapons always fire NLOS (ignore smoke and minimum range)"),
    ("SMOKE_PENALTY", "§2 penalty for smoke on the line of fire"),
    ("DESIGNATED_SMOKE_PENALTY", "§2 smoke penalty against a laser-designated target"),
    ("DUG_IN_PENALTY", "§2 penalty against a dug-in target"),
    ("HULL_DOWN_PENALTY", "§2 penalty against a hull-down target"),
    ("HULL_DOWN_ONLY_VEHICLES", "§2 ruling: hull down adds nothing on a target that cannot be hull down"),
    ("POSTED_UP_PENALTY", "§2 penalty against a posted-up target"),
    ("POSTED_UP_NEEDS_COVER", "§2 ruling: posted up counts only with a cover modifier on the shot"),
    ("FOREST_PENALTY", "§2 penalty against a target inside forest (2nd edition; 0: none)"),
    (
        "FACTION_TRAINING",
        "§2 2nd-edition faction training under EDITION=2 (Wetwire, Combined Arms, Defense Masters, Moneyshot)",
    ),
    ("WETWIRE_FIRE_CONTROL", "§2 fire control added by Syndicate Wetwire"),
    ("COMBINED_ARMS_FIRE_CONTROL", "§2 fire control added by Pirate Combined Arms with a friendly MSV"),
    ("DEFENSE_MASTERS_DUG_IN_PENALTY", "§2 dug-in penalty against Syndicate Defense Masters"),
    ("FIRE_FOR_EFFECT_LOS_PENALTY", "§2 fire-for-effect penalty with line of sight to the spot"),
    ("FIRE_FOR_EFFECT_NO_LOS_PENALTY", "§2 fire-for-effect penalty without line of sight"),
    ("FIRE_FOR_EFFECT_AT_A_SPOT", "§2 ruling: fire for effect ignores the target's cover and statuses"),
    ("FIRE_FOR_EFFECT_BLIND_IS_NLOS", "§2 ruling: blind fire for effect needs an NLOS weapon and ignores smoke"),
    ("FIRE_FOR_EFFECT_IS_SPLASH", "§3 ruling: fire for effect is splash damage, never armour piercing"),
    (
        "OMEGA_USES_SMALLEST_ARMOR_PIERCING",
        "§3 ruling: Omega Override pierces by the smallest piercing fired (false: largest)",
    ),
    ("IN_THE_RED_LIFE", "§4 life at or below which a unit is in the red"),
    ("JURY_RIG_SUCCESS_MAX", "§4 a jury-rig d20 of this or less keeps fire control"),
    ("JURY_RIG_PER_ACTION", "§4 ruling: one jury-rig roll per action (false: one per turn)"),
];

/// Every option as (`NAME`, default value as [`Options::pairs`] writes it, one line of
/// help), in declaration order: what `volley rulesets` lists.
pub fn specs() -> Vec<(&'static str, String, &'static str)> {
    Options::default().pairs().into_iter().zip(HELP).map(|((_, value), (name, help))| (name, value, help)).collect()
}

impl Options {
    /// Checks that every number is in range (every combination of switches is playable).
    ///
    /// # Errors
    /// Each option out of range, in one message: `EDITION` other than 2 or 3,
    /// penalties and bonuses above [`MAX_MODIFIER`], `IN_THE_RED_LIFE` above 20,
    /// `JURY_RIG_SUCCESS_MAX` above 20.
    pub fn validate(&self) -> Result<(), String> {
        let mut bad = Vec::new();
        if !super::edition::EDITIONS.contains(&self.edition) {
            bad.push(format!("EDITION={} (2 or 3)", self.edition));
        }
        for (name, value) in self.pairs() {
            let limit = match name.as_str() {
                "EDITION" => continue,
                "IN_THE_RED_LIFE" => super::rulings::STARTING_LIFE,
                "JURY_RIG_SUCCESS_MAX" => super::rulings::DIE_SIDES,
                _ => MAX_MODIFIER,
            };
            if let Ok(n) = value.parse::<u32>()
                && n > limit
            {
                bad.push(format!("{name}={n} (at most {limit})"));
            }
        }
        if bad.is_empty() { Ok(()) } else { Err(format!("TechCommander options out of range: {}", bad.join(", "))) }
    }

    /// Every option as (`NAME`, value) in declaration order: booleans `true`/`false`,
    /// numbers in decimal, choices in kebab-case (e.g. `COVER_BANDS=cover-modifiers`).
    pub fn pairs(&self) -> Vec<(String, String)> {
        crate::rules::named::pairs(self)
    }

    /// Every option as `NAME=value`, joined by `,`: canonical, so equal options give
    /// equal strings.
    pub fn canonical(&self) -> String {
        self.pairs().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
    }

    /// Switches option `name` (case-insensitive, `-` or `_`) to `value` (as
    /// [`Options::pairs`] writes it).
    ///
    /// # Errors
    /// An unknown option (with the nearest name), or a value of the wrong kind. The
    /// value's range is checked by [`Options::validate`].
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        crate::rules::named::set(self, name, value, "TechCommander option")
    }

    /// `self` with option `name` switched to `value`.
    ///
    /// # Errors
    /// As [`Options::set`].
    pub fn with(mut self, name: &str, value: &str) -> Result<Options, String> {
        self.set(name, value)?;
        Ok(self)
    }
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
