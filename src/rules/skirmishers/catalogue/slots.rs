//! Which weapon a trooper may carry in which slot (§5 "Loadout"; Power Armor "Weapons and
//! Equipment"; Ruling `WEAPON_SLOTS`). The loader checks every trooper with these, and
//! the build space chooses from what they allow.
//!
//! - A basic trooper's primary is a weapon of slot `primary` or `primary-or-mounted`
//!   (never a power-armour weapon); its secondary, when it has one (Ruling
//!   `SECONDARY_OPTIONAL`), a weapon of slot `secondary`, or of slot `primary-or-mounted`
//!   under a primary of class `primary` (a grenade launcher under a rifle or SMG).
//! - Power armour's primaries are power-armour weapons ("Power armor troopers may use the
//!   following primary weapons"); its secondary any other weapon a basic trooper carries
//!   in a slot ("Any standard infantry weapons may be used as a secondary weapon").
//! - Weapons of slot `grenade` (thrown from the grenade boxes) and `carried` (fists, the
//!   bayonet/knife: "A trooper always has their fists and a bayonet/knife") are in no slot.

use super::super::track::TrackKind;
use super::super::weapon::{Class, Slot, Weapon};

/// Why `w` cannot be a primary of `trooper`, on `track`; `None` when it can.
pub fn primary_refusal(track: TrackKind, w: &Weapon, trooper: &str) -> Option<String> {
    match track {
        TrackKind::Basic if w.class == Class::PowerArmor => {
            Some(format!("`{}` is a power-armour weapon; `{trooper}` is not in power armour", w.name))
        }
        TrackKind::Basic if !w.slot.primary() => Some(format!(
            "`{}` is not a primary weapon (its slot is {}): a basic trooper's primary has slot primary or primary-or-mounted",
            w.name,
            w.slot.name()
        )),
        TrackKind::Power if w.class != Class::PowerArmor => Some(format!(
            "`{}` is not a power-armour weapon: power armour's primaries are of class power-armor (it may be the secondary)",
            w.name
        )),
        _ => None,
    }
}

/// Why `w` cannot be the secondary of `trooper`, on `track`, whose first primary is
/// `first`; `None` when it can.
pub fn secondary_refusal(track: TrackKind, first: Option<&Weapon>, w: &Weapon, trooper: &str) -> Option<String> {
    if w.class == Class::PowerArmor {
        return Some(match track {
            TrackKind::Basic => format!("`{}` is a power-armour weapon; `{trooper}` is not in power armour", w.name),
            TrackKind::Power => {
                format!("`{}` is a power-armour weapon: power armour's secondary is a standard infantry weapon", w.name)
            }
        });
    }
    match (track, w.slot) {
        (_, Slot::Grenade) => Some(format!(
            "`{}` is not a secondary weapon: it is thrown from the grenade boxes (its slot is grenade; see `grenade`)",
            w.name
        )),
        (_, Slot::Carried) => {
            Some(format!("`{}` is not a secondary weapon: every trooper carries it (its slot is carried)", w.name))
        }
        (TrackKind::Basic, Slot::Primary) => {
            Some(format!("`{}` is a primary weapon (its slot is primary), not a basic trooper's secondary", w.name))
        }
        (TrackKind::Basic, Slot::PrimaryOrMounted) if !first.is_some_and(|p| p.class == Class::Primary) => {
            Some(format!(
                "`{}` is a secondary only mounted under a rifle or SMG (a primary of class primary; its slot is primary-or-mounted)",
                w.name
            ))
        }
        _ => None,
    }
}
