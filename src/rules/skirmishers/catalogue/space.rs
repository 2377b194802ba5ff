//! Ad-hoc builds and the build space: trooper × primary × secondary × armour × experience.
//!
//! A build `TROOPER[PRIMARY, SECONDARY, ARMOUR, EXPERIENCE]` is the trooper (its track,
//! grenades and sneak suit) with the weapons, body armour and experience its parts name,
//! such as `Rifleman[Laser Rifle, Auto Pistol, standard armour, veteran]`. A part is a
//! weapon of the catalogue, an armour (`no armour`, `basic armour`, `standard armour`,
//! `heavy armour`; `armor` too) or an experience (`green`, `regular`, `veteran`,
//! `elite`), in any case:
//!
//! - the weapons named are the trooper's whole loadout: on a basic trooper the first is
//!   the primary and the second, if any, the secondary (none named: no secondary, Ruling
//!   `SECONDARY_OPTIONAL`); on power armour the power-armour weapons are the primaries (one,
//!   or two for standard and heavy suits; `2*PA Machine Gun` carries two) and any other
//!   weapon the secondary. A build naming no weapon keeps the trooper's.
//! - the armour and experience not named are the trooper's.
//!
//! Its `[[trooper]]` entry (PV `"auto"`, Ruling `UNIT_PV`) is checked by the loader like
//! any trooper, so which weapon may be a primary or a secondary (Ruling `WEAPON_SLOTS`,
//! module [`super::slots`]), the primaries a suit carries and power armour's armour are
//! decided there.
//!
//! The space of a trooper is every primary (power armour: one power-armour weapon for a
//! basic suit, every pair of them, repeats allowed, for standard and heavy suits), every
//! secondary or none, every armour of its track and every experience, as the loader
//! allows them, leaving out a build with no arc weapon (launchers, thrown explosives and
//! melee only): `search` races duels, which fire arc weapons (melee only at range 1), so
//! such a build has no duel weapon wherever its launcher reaches. Troopers whose cards differ only in what a build replaces (same track,
//! grenades and grenade weapon, sneak suit) give the same builds: the space keeps the
//! first in catalogue order that the filter lets through.

use crate::catalogue::adhoc::{AdHocBuild, toml_string};
use crate::rules::kit::names;
use crate::rules::ruleset::{SPACE_HARD_CAP, SpaceFilter};

use super::super::track::TrackKind;
use super::super::trooper::{Armour, Experience, Trooper};
use super::super::weapon::{Class, Use, Weapon};
use super::{Catalogue, slots};

/// Tolerance for the cost filter.
const EPSILON: f64 = 1e-9;

/// The part naming armour `a`: `no armour`, `basic armour`, `standard armour`, `heavy armour`.
pub fn armour_part(a: Armour) -> String {
    match a {
        Armour::None => "no armour".to_string(),
        a => format!("{} armour", a.name()),
    }
}

/// What a part names.
enum Part<'a> {
    Weapon(&'a Weapon),
    Armour(Armour),
    Experience(Experience),
}

/// The part `text` names (any case), or `None`.
fn read_part<'a>(cat: &'a Catalogue, text: &str) -> Option<Part<'a>> {
    if let Some(w) = names::find(&cat.weapons, |w| w.name.as_str(), text) {
        return Some(Part::Weapon(w));
    }
    let t = text.trim().to_ascii_lowercase();
    if let Some(kind) = t.strip_suffix("armour").or_else(|| t.strip_suffix("armor")) {
        let kind = kind.trim();
        return if kind == "no" { Some(Part::Armour(Armour::None)) } else { Armour::parse(kind).map(Part::Armour) };
    }
    Experience::parse(&t).map(Part::Experience)
}

/// The part's canonical spelling (the catalogue's for a weapon).
fn canonical(part: &Part<'_>) -> String {
    match part {
        Part::Weapon(w) => w.name.clone(),
        Part::Armour(a) => armour_part(*a),
        Part::Experience(e) => e.name().to_string(),
    }
}

/// Every part name, for suggestions.
fn part_names(cat: &Catalogue) -> Vec<String> {
    let armours = [Armour::None, Armour::Basic, Armour::Standard, Armour::Heavy].map(armour_part);
    cat.weapons
        .iter()
        .map(|w| w.name.clone())
        .chain(armours)
        .chain(Experience::NAMES.iter().map(|e| e.to_string()))
        .collect()
}

/// The `[[trooper]]` entry named `name` of an ad-hoc build (see the module).
///
/// # Errors
/// An unknown trooper or part (with the nearest names), more weapons than the card's
/// slots, two armours or experiences, or copies of anything but power armour's primaries.
pub fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
    let base = cat.trooper(&build.base)?;
    let mut weapons: Vec<&Weapon> = Vec::new();
    let (mut armour, mut experience): (Option<Armour>, Option<Experience>) = (None, None);
    for (copies, text) in &build.parts {
        let part = read_part(cat, text).ok_or_else(|| {
            let all = part_names(cat);
            format!(
                "{build}: {}",
                names::unknown("weapon, armour or experience", text, &cat.origin, all.iter().map(String::as_str))
            )
        })?;
        let repeatable =
            matches!(part, Part::Weapon(w) if w.class == Class::PowerArmor && base.track == TrackKind::Power);
        if *copies > 1 && !repeatable {
            return Err(format!("{build}: `{}` is carried once, not {copies} times", canonical(&part)));
        }
        let twice =
            |what: &str, first: String| format!("{build}: one {what}: `{first}` and `{}` named", canonical(&part));
        match part {
            Part::Weapon(w) => weapons.extend(std::iter::repeat_n(w, *copies as usize)),
            Part::Armour(a) => match armour {
                Some(first) => return Err(twice("armour", armour_part(first))),
                None => armour = Some(a),
            },
            Part::Experience(e) => match experience {
                Some(first) => return Err(twice("experience", first.name().to_string())),
                None => experience = Some(e),
            },
        }
    }
    let (primaries, secondary) = loadout(base, &weapons).map_err(|e| format!("{build}: {e}"))?;
    let list: Vec<String> = primaries.iter().map(|w| toml_string(&w.name)).collect();
    let mut entry = format!(
        "[[trooper]]\nname = {}\ntrack = \"{}\"\nexperience = \"{}\"\nbody_armor = \"{}\"\nprimary = [{}]\n",
        toml_string(name),
        base.track.name(),
        experience.unwrap_or(base.experience).name(),
        armour.unwrap_or(base.armour).name(),
        list.join(", ")
    );
    if let Some(s) = secondary {
        entry.push_str(&format!("secondary = {}\n", toml_string(&s.name)));
    }
    entry.push_str(&format!("grenades = {}\n", base.grenades));
    if let Some(g) = &base.grenade {
        entry.push_str(&format!("grenade = {}\n", toml_string(&g.name)));
    }
    entry.push_str(&format!("sneak_suit = {}\npv = \"auto\"\n", base.sneak_suit));
    Ok(entry)
}

/// The primaries and secondary of `base` carrying `weapons` (see the module).
fn loadout<'a>(base: &'a Trooper, weapons: &[&'a Weapon]) -> Result<(Vec<&'a Weapon>, Option<&'a Weapon>), String> {
    if weapons.is_empty() {
        return Ok((base.primaries.iter().collect(), base.secondary.as_ref()));
    }
    match base.track {
        TrackKind::Basic => {
            if weapons.len() > 2 {
                return Err(format!(
                    "a basic trooper carries a primary and a secondary, not {} weapons",
                    weapons.len()
                ));
            }
            Ok((vec![weapons[0]], weapons.get(1).copied()))
        }
        TrackKind::Power => {
            let (primaries, others): (Vec<&Weapon>, Vec<&Weapon>) =
                weapons.iter().partition(|w| w.class == Class::PowerArmor);
            if others.len() > 1 {
                return Err(format!(
                    "power armour carries one secondary: `{}` and `{}` named",
                    others[0].name, others[1].name
                ));
            }
            if primaries.is_empty() {
                return Err("power armour's primaries are power-armour weapons (class power-armor): name one".into());
            }
            Ok((primaries, others.first().copied()))
        }
    }
}

/// A trooper's card as far as a build keeps it: track, grenades (and their weapon when
/// any are carried), sneak suit.
fn card(t: &Trooper) -> (TrackKind, u32, Option<&str>, bool) {
    let grenade = if t.grenades > 0 { t.grenade.as_ref().map(|g| g.name.as_str()) } else { None };
    (t.track, t.grenades, grenade, t.sneak_suit)
}

/// Every build the filter lets through (see the module), troopers in catalogue order,
/// then primaries, secondaries (none first), armour and experience in catalogue and book
/// order, stopping at [`SPACE_HARD_CAP`].
///
/// # Errors
/// A trooper or part the filter names that the catalogue does not hold.
pub fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
    for b in &filter.bases {
        cat.trooper(b)?;
    }
    // Parts as the builds spell them, so `standard armor` or `LASER RIFLE` filter too.
    let mut spelled = filter.clone();
    for p in spelled.must_include.iter_mut().chain(spelled.exclude.iter_mut()) {
        match read_part(cat, p) {
            Some(part) => *p = canonical(&part),
            None if cat.trooper(p).is_ok() => {}
            None => {
                let all: Vec<String> =
                    part_names(cat).into_iter().chain(cat.troopers.iter().map(|t| t.name.clone())).collect();
                let what = "weapon, armour, experience or trooper";
                return Err(names::unknown(what, p, &cat.origin, all.iter().map(String::as_str)));
            }
        }
    }
    let mut out = Vec::new();
    let mut cards = Vec::new();
    for t in &cat.troopers {
        let excluded = spelled.exclude.iter().any(|x| names::same(x, &t.name));
        if !spelled.base_passes(&t.name) || excluded || cards.contains(&card(t)) {
            continue;
        }
        cards.push(card(t));
        trooper_space(cat, t, &spelled, &mut out);
        if out.len() >= SPACE_HARD_CAP {
            out.truncate(SPACE_HARD_CAP);
            break;
        }
    }
    Ok(out)
}

/// One trooper's builds, appended to `out` (stopping at the hard cap).
fn trooper_space(cat: &Catalogue, t: &Trooper, filter: &SpaceFilter, out: &mut Vec<AdHocBuild>) {
    let primaries: Vec<&Weapon> =
        cat.weapons.iter().filter(|w| slots::primary_refusal(t.track, w, &t.name).is_none()).collect();
    // (primaries, the armours that carry that many)
    let mut sets: Vec<(Vec<&Weapon>, Vec<Armour>)> = Vec::new();
    match t.track {
        TrackKind::Basic => {
            let all = vec![Armour::None, Armour::Basic, Armour::Standard, Armour::Heavy];
            sets.extend(primaries.iter().map(|w| (vec![*w], all.clone())));
        }
        TrackKind::Power => {
            sets.extend(primaries.iter().map(|w| (vec![*w], vec![Armour::Basic])));
            for (i, a) in primaries.iter().enumerate() {
                for b in &primaries[i..] {
                    sets.push((vec![*a, *b], vec![Armour::Standard, Armour::Heavy]));
                }
            }
        }
    }
    let grenades_pv = t.grenade.as_ref().map_or(0, |g| g.pv * t.grenades / g.ammo.unwrap_or(1).max(1));
    for (prim, armours) in &sets {
        let secondaries = std::iter::once(None).chain(
            cat.weapons
                .iter()
                .filter(|w| slots::secondary_refusal(t.track, prim.first().copied(), w, &t.name).is_none())
                .map(Some),
        );
        for sec in secondaries {
            if !prim.iter().chain(sec.iter()).any(|w| matches!(w.usage(), Use::Arc { .. })) {
                continue;
            }
            let pv = prim.iter().chain(sec.iter()).map(|w| w.pv).sum::<u32>() + grenades_pv;
            if filter.max_cost.is_some_and(|m| pv as f64 > m + EPSILON) {
                continue;
            }
            let mut weapons: Vec<(u32, String)> = Vec::new();
            for w in prim.iter().chain(sec.iter()) {
                match weapons.iter_mut().find(|(_, n)| *n == w.name) {
                    Some((c, _)) => *c += 1,
                    None => weapons.push((1, w.name.clone())),
                }
            }
            for a in armours {
                for e in Experience::NAMES {
                    let mut parts = weapons.clone();
                    parts.push((1, armour_part(*a)));
                    parts.push((1, e.to_string()));
                    let b = AdHocBuild { base: t.name.clone(), parts };
                    if filter.parts_pass(&b) {
                        out.push(b);
                        if out.len() >= SPACE_HARD_CAP {
                            return;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
