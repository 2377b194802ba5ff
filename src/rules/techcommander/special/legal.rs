//! Who may make a special attack, on whom, and `REACH_RULE` (battles §4).

use std::fmt;

use super::Special;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{AttackMode, Conditions};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::rules::techcommander::rulings::JUMP_ABILITY;

/// Why a special attack cannot be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoSpecial {
    /// The attack mode is not a special attack.
    NotSpecial(AttackMode),
    /// This kind of unit cannot make this attack.
    Actor { special: Special, kind: UnitKind },
    /// Death from above needs a jump MSV (unit ability `Jump`).
    NotJump,
    /// An aerial unit cannot overrun.
    Aerial,
    /// This kind of unit cannot be the target of this attack.
    Target { special: Special, kind: UnitKind },
    /// `REACH_RULE`: the attacker cannot end adjacent this action.
    OutOfReach { special: Special, speed: u32, range: u32, gap: u32 },
}

impl fmt::Display for NoSpecial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NoSpecial::NotSpecial(m) => write!(f, "mode `{m}` is not a special attack"),
            NoSpecial::Actor { special: s, kind } => {
                let who = match s {
                    Special::Ram | Special::Overrun => "an MSV or a vehicle",
                    Special::DeathFromAbove => "a jump MSV",
                    Special::Trample => "an MSV",
                };
                write!(f, "{} is made by {who} (battles §4), not by a {kind}", s.label())
            }
            NoSpecial::NotJump => {
                write!(f, "Death from above needs a jump MSV (battles §4): give the unit the ability `{JUMP_ABILITY}`")
            }
            NoSpecial::Aerial => f.write_str("an aerial unit cannot overrun (battles §4, AERIAL_RULES)"),
            NoSpecial::Target { special: s, kind } => {
                let whom = match s {
                    Special::Ram => "an MSV, a vehicle or terrain",
                    Special::DeathFromAbove | Special::Overrun => "a unit (not terrain)",
                    Special::Trample => "troops or crew",
                };
                write!(f, "{} targets {whom} (battles §4), not {kind}", s.label())
            }
            NoSpecial::OutOfReach { special: s, speed, range, gap } => {
                let half = if s == Special::Trample { " (trample: half speed)" } else { "" };
                write!(
                    f,
                    "{} out of reach: REACH_RULE needs speed >= range - ADJACENT_GAP{half}; speed {speed}, range {range}, gap {gap}",
                    s.label()
                )
            }
        }
    }
}

/// `REACH_RULE`: whether the attacker ends adjacent this action: speed ≥ range −
/// `ADJACENT_GAP` (range rounded up), at half speed for a trample or after a failed jury
/// rig (`cond.jury_rig_failed`; the two do not compound: either way the unit moves at
/// half speed). Reads `cond.mode` for trample.
pub fn reach(attacker: &Attacker, cond: &Conditions, o: &Options) -> bool {
    let needed = u64::from(cond.rounded_range().saturating_sub(crate::rules::techcommander::edition::adjacent_gap(o)));
    let half = cond.mode == AttackMode::Trample || cond.jury_rig_failed;
    let speed = u64::from(attacker.speed);
    if half { speed >= 2 * needed } else { speed >= needed }
}

/// Whether `attacker` may make the special attack of `cond.mode` on `target` (kinds,
/// abilities, and `REACH_RULE` at its normal speed: a failed jury rig that then falls
/// short is a plain move, not an illegal action). A generic `ac:N` target fits any.
///
/// # Errors
/// Each refusal as a [`NoSpecial`], naming the rule.
pub fn check(attacker: &Attacker, target: &Target, cond: &Conditions, o: &Options) -> Result<Special, NoSpecial> {
    use UnitKind::{Crew, Msv, Terrain, Troop, Vehicle};
    let special = Special::from_mode(cond.mode).ok_or(NoSpecial::NotSpecial(cond.mode))?;
    let kind = attacker.kind;
    let actor_ok = match special {
        Special::Ram | Special::Overrun => matches!(kind, Msv | Vehicle),
        Special::DeathFromAbove | Special::Trample => kind == Msv,
    };
    if !actor_ok {
        return Err(NoSpecial::Actor { special, kind });
    }
    if special == Special::DeathFromAbove && !attacker.jump {
        return Err(NoSpecial::NotJump);
    }
    if special == Special::Overrun && attacker.aerial {
        return Err(NoSpecial::Aerial);
    }
    if let Some(kind) = target.kind {
        let target_ok = match special {
            Special::Ram => !matches!(kind, Troop | Crew),
            Special::DeathFromAbove | Special::Overrun => kind != Terrain,
            Special::Trample => matches!(kind, Troop | Crew),
        };
        if !target_ok {
            return Err(NoSpecial::Target { special, kind });
        }
    }
    let normal = Conditions { jury_rig_failed: false, ..*cond };
    if !reach(attacker, &normal, o) {
        return Err(NoSpecial::OutOfReach {
            special,
            speed: attacker.speed,
            range: cond.rounded_range(),
            gap: crate::rules::techcommander::edition::adjacent_gap(o),
        });
    }
    Ok(special)
}
