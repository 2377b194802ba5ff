//! Effective Stability of a shot: the table of §1 "Stability modifiers".

use std::fmt;

use super::conditions::Condition;
use super::mech::Model;
use super::options::{Options, SpotPolicy};
use super::situation::{Cover, Situation};
use super::weapon::{Perk, Weapon};

/// Stability added by shooting in melee range (§1 "Shooting"), by half or soft cover
/// ("Elevation › Half cover"), by a Blinded or Shocked attacker and by an Invisible
/// target ("List of Conditions").
pub const ENGAGED_STABILITY: i32 = 2;
pub const COVER_STABILITY: i32 = 2;
pub const BLINDED_STABILITY: i32 = 2;
pub const SHOCKED_STABILITY: i32 = 1;
pub const INVISIBLE_STABILITY: i32 = 2;
/// Levels a Submerged model counts below its hex ("List of Conditions").
pub const SUBMERGED_LEVELS: i32 = 2;

/// Why an attack cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAttack {
    /// The range is beyond the weapon's (or beyond melee range for a melee weapon).
    OutOfRange { range: u32 },
    /// Total cover: no shot (§1; Artillery exempt).
    TotalCover,
    /// Artillery must consume a Spot token and the target has none.
    NoSpotToken,
    /// Melee more than one level apart ("Elevation › Melee").
    TooFarApartForMelee { levels: i32 },
    /// A weapon with no dice.
    NoDice,
    /// Flurry with every face a crit (only when bonuses move die faces): the chain
    /// never ends.
    EndlessFlurry,
    /// Options switched to a reading volley does not play.
    Options(String),
}

impl fmt::Display for NoAttack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoAttack::OutOfRange { range } => write!(f, "out of range at {range} hexes"),
            NoAttack::TotalCover => f.write_str("total cover: no shot (only Artillery fires)"),
            NoAttack::NoSpotToken => f.write_str("Artillery must consume a Spot token and the target has none"),
            NoAttack::TooFarApartForMelee { levels } => {
                write!(f, "no melee between models {levels} levels apart (at most 1)")
            }
            NoAttack::NoDice => f.write_str("the attack rolls no dice"),
            NoAttack::EndlessFlurry => f.write_str("every die is a crit and Flurry rerolls it forever"),
            NoAttack::Options(e) => f.write_str(e),
        }
    }
}

impl std::error::Error for NoAttack {}

/// The aim of one shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aim {
    /// Effective Stability S: a die face >= S hits (any integer; only 1..=6 matter,
    /// see `SIX_ALWAYS_CRITS` and `NO_AUTOMATIC_MISS`).
    pub stability: i32,
    /// Spot tokens the shot consumes.
    pub spot_consumed: u32,
    /// Added to every die face: the spot bonus when `MODIFIERS_MOVE_STABILITY` is off
    /// (otherwise 0, the bonus being in `stability`).
    pub die_bonus: i32,
}

/// Levels the attacker counts above the target, Submerged included.
pub fn effective_levels(attacker: &Model, target: &Model, sit: &Situation) -> i32 {
    let sub = |m: &Model| m.conditions.has(Condition::Submerged) as i32 * SUBMERGED_LEVELS;
    sit.levels_above + sub(target) - sub(attacker)
}

/// The effective Stability of `attacker` shooting `weapon` at `target` (§1).
///
/// # Errors
/// [`NoAttack::TotalCover`] behind total cover without Artillery, [`NoAttack::NoSpotToken`]
/// for Artillery with no token to consume.
pub fn shooting_aim(
    attacker: &Model,
    weapon: &Weapon,
    target: &Model,
    sit: &Situation,
    o: &Options,
) -> Result<Aim, NoAttack> {
    let artillery = weapon.has(Perk::Artillery);
    let mut s = attacker.mech.stability;
    let engaged = sit.engaged || sit.range <= o.melee_range_hexes;
    if engaged && !weapon.has(Perk::Ultralight) {
        s += ENGAGED_STABILITY;
    }
    let mut cover_sources = 0;
    match sit.cover {
        Cover::None => {}
        Cover::Half => cover_sources += 1,
        Cover::Soft => cover_sources += o.soft_cover_is_half_cover as i32,
        Cover::Total if artillery => {}
        Cover::Total => return Err(NoAttack::TotalCover),
    }
    let submerged = |m: &Model| m.conditions.has(Condition::Submerged);
    if submerged(target) && !submerged(attacker) {
        cover_sources += 1;
    }
    if !o.cover_stacks {
        cover_sources = cover_sources.min(1);
    }
    s += COVER_STABILITY * cover_sources;
    let levels = effective_levels(attacker, target, sit);
    if !artillery && levels >= 2 {
        s += (levels / 2) * o.height_stability_per_2_levels;
    }
    if weapon.has(Perk::Heavy) && sit.heavy_moved {
        s += o.heavy_moved_stability;
    }
    if attacker.conditions.has(Condition::Blinded) {
        s += BLINDED_STABILITY;
    }
    if attacker.conditions.has(Condition::Shocked) {
        s += SHOCKED_STABILITY;
    }
    if target.conditions.has(Condition::Invisible) {
        s += INVISIBLE_STABILITY;
    }
    let (spot_consumed, bonus) = if artillery {
        if sit.spot_tokens == 0 {
            return Err(NoAttack::NoSpotToken);
        }
        (1, 0)
    } else {
        match o.spot_policy {
            SpotPolicy::Never => (0, 0),
            SpotPolicy::ConsumeOne if weapon.has(Perk::Sniper) => (sit.spot_tokens, sit.spot_tokens as i32),
            SpotPolicy::ConsumeOne => {
                let n = sit.spot_tokens.min(1);
                (n, n as i32)
            }
        }
    };
    if o.modifiers_move_stability {
        Ok(Aim { stability: s - bonus, spot_consumed, die_bonus: 0 })
    } else {
        Ok(Aim { stability: s, spot_consumed, die_bonus: bonus })
    }
}
