//! Ad-hoc builds and the build space: a unit × its gunners' Gunnery levels.
//!
//! A build is a `[[unit]]` card with crew skills set, written with these parts (any case,
//! each once):
//! - `Gunnery N`: every gunner at Gunnery N (`Panzer IV[Gunnery 2]`);
//! - `Gk Gunnery N`: gunner k (from 1, in card order, the book's G1, G2) at Gunnery N,
//!   over a `Gunnery N` of the same build (`Panzer IV[Gunnery 2, G2 Gunnery 0]`);
//! - `Piloting N`: the pilot at Piloting N.
//!
//! Gunners not named keep the card's skill; `Panzer IV[]` is the card. The build is
//! written as a `[[build]]` entry, which the loader prices from the `[[crew]]` table
//! (`super::build`) and checks like any hand-written one.
//!
//! The space of a card is every combination of Gunnery levels the catalogue prices for
//! gunners (`[[crew]]` with `role = "gunner"`), one level per gunner, in card order with
//! the last gunner varying fastest and levels ascending. A gunner whose card level is not
//! priced cannot be re-skilled (its ECV could not be swapped) and keeps the card's. The
//! levels are bounded by the loader's skill range, −10..=20. Piloting is not varied
//! (Ruling `SPACE_PILOTING = CARD`): it acts only while a unit dodges (`DODGE`, off by
//! default), so in the default engagements every piloting level of a build plays the same
//! at a different price; name `Piloting N` in an ad-hoc build to try one.
//!
//! A candidate is spelled `Unit[Gunnery N]` when every gunner is free and all share a
//! level, else `Unit[G1 Gunnery a, G2 Gunnery b, ...]` over the free gunners.
//! As a filter (`--must-include`, `--exclude`), `Gunnery N` means "a gunner at Gunnery
//! N", `Gk Gunnery N` gunner k at N and `Piloting N` the pilot at N; a card gives no skill
//! reads as 0 (Ruling `CREW_ECV_SWAP`).

use crate::catalogue::adhoc::{AdHocBuild, toml_string};
use crate::catalogue::error::did_you_mean;
use crate::rules::kit::names;
use crate::rules::ruleset::{SPACE_HARD_CAP, SpaceFilter};

use super::build::{CrewRole, UNSKILLED_PRICE_LEVEL, build_ecv, levels_text, priced_levels};
use super::catalogue::Catalogue;
use super::unit::Unit;

/// Tolerance for the cost filter.
const EPSILON: f64 = 1e-9;

/// One part of a Shellshock build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// `Gunnery N`: every gunner.
    Every(i32),
    /// `Gk Gunnery N`: gunner k (index from 0).
    Gunner(usize, i32),
    /// `Piloting N`.
    Piloting(i32),
}

impl Part {
    /// Read a part, any case and spacing; `None` when it is none of the forms.
    pub fn parse(text: &str) -> Option<Part> {
        let lower = text.trim().to_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        let level = |w: &str| w.parse::<i32>().ok();
        match words.as_slice() {
            ["gunnery", n] => Some(Part::Every(level(n)?)),
            ["piloting", n] => Some(Part::Piloting(level(n)?)),
            [g, "gunnery", n] => {
                let k = g.strip_prefix('g')?.parse::<usize>().ok().filter(|&k| k >= 1)?;
                Some(Part::Gunner(k - 1, level(n)?))
            }
            _ => None,
        }
    }

    /// The canonical spelling.
    pub fn text(self) -> String {
        match self {
            Part::Every(n) => format!("Gunnery {n}"),
            Part::Gunner(k, n) => format!("G{} Gunnery {n}", k + 1),
            Part::Piloting(n) => format!("Piloting {n}"),
        }
    }

    /// Whether a unit whose gunners are at `gunnery` and pilot at `piloting` has it (the
    /// filter reading: `Gunnery N` is any gunner at N).
    fn held_by(self, gunnery: &[i32], piloting: i32) -> bool {
        match self {
            Part::Every(n) => gunnery.contains(&n),
            Part::Gunner(k, n) => gunnery.get(k) == Some(&n),
            Part::Piloting(n) => piloting == n,
        }
    }
}

/// The cards (the `[[unit]]` entries, not the builds).
fn cards(cat: &Catalogue) -> &[Unit] {
    &cat.units[..cat.cards]
}

/// The card named `name` (any case).
fn card<'a>(cat: &'a Catalogue, name: &str) -> Result<&'a Unit, String> {
    if let Some(u) = names::find(cards(cat), |u| u.name.as_str(), name) {
        return Ok(u);
    }
    if let Some(b) = names::find(&cat.units[cat.cards..], |u| u.name.as_str(), name) {
        return Err(format!("`{}` is a [[build]]: a build starts from a [[unit]] card", b.name));
    }
    Err(names::unknown("unit", name, &cat.origin, cards(cat).iter().map(|u| u.name.as_str())))
}

/// The spellings a part of a build on `unit` (every card when `None`) could have, for
/// "did you mean".
fn spellings(cat: &Catalogue, unit: Option<&Unit>) -> Vec<String> {
    let mut levels = priced_levels(&cat.crew, CrewRole::Gunner);
    if levels.is_empty() {
        levels.push(UNSKILLED_PRICE_LEVEL);
    }
    let gunners =
        unit.map_or_else(|| cards(cat).iter().map(|u| u.gunners.len()).max().unwrap_or(0), |u| u.gunners.len());
    let mut out: Vec<String> = levels.iter().map(|&n| Part::Every(n).text()).collect();
    for k in 0..gunners {
        out.extend(levels.iter().map(|&n| Part::Gunner(k, n).text()));
    }
    let mut pilot = priced_levels(&cat.crew, CrewRole::Pilot);
    if pilot.is_empty() {
        pilot.push(UNSKILLED_PRICE_LEVEL);
    }
    out.extend(pilot.iter().map(|&n| Part::Piloting(n).text()));
    out
}

const FORMS: &str = "a Shellshock build part is `Gunnery N` (every gunner), `Gk Gunnery N` (gunner k) or `Piloting N`";

/// The `[[build]]` entry named `name` of an ad-hoc build (see the module).
///
/// # Errors
/// An unknown unit (with the nearest), a base that is a build, an unknown part (with the
/// nearest spellings), a part given more than once, a gunner the unit does not have, or
/// two levels for one gunner or for the pilot. Unpriced levels are the loader's to refuse.
pub fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
    let unit = card(cat, &build.base)?;
    let mut every: Option<i32> = None;
    let mut each: Vec<Option<i32>> = vec![None; unit.gunners.len()];
    let mut piloting: Option<i32> = None;
    for (copies, text) in &build.parts {
        let Some(part) = Part::parse(text) else {
            let all = spellings(cat, Some(unit));
            return Err(format!(
                "{build}: unknown part `{text}`: {FORMS}{}",
                did_you_mean(text, all.iter().map(String::as_str))
            ));
        };
        if *copies > 1 {
            return Err(format!("{build}: `{}` sets a skill: it is given once, not {copies} times", part.text()));
        }
        let twice = |what: &str| format!("{build}: {what} is given two levels");
        match part {
            Part::Every(n) => {
                if every.replace(n).is_some() {
                    return Err(twice("`Gunnery` (every gunner)"));
                }
            }
            Part::Gunner(k, n) => {
                let Some(slot) = each.get_mut(k) else {
                    let g = unit.gunners.len();
                    return Err(format!(
                        "{build}: `{}`: unit `{}` has {g} gunner{} (G1{})",
                        part.text(),
                        unit.name,
                        if g == 1 { "" } else { "s" },
                        if g > 1 { format!("-G{g}") } else { String::new() }
                    ));
                };
                if slot.replace(n).is_some() {
                    return Err(twice(&format!("gunner G{}", k + 1)));
                }
            }
            Part::Piloting(n) => {
                if piloting.replace(n).is_some() {
                    return Err(twice("the pilot"));
                }
            }
        }
    }
    let gunnery: Vec<String> =
        each.iter().enumerate().filter_map(|(k, n)| n.or(every).map(|n| format!("G{} = {n}", k + 1))).collect();
    let mut entry = format!("[[build]]\nname = {}\nunit = {}\n", toml_string(name), toml_string(&unit.name));
    if !gunnery.is_empty() {
        entry.push_str(&format!("gunnery = {{ {} }}\n", gunnery.join(", ")));
    }
    if let Some(p) = piloting {
        entry.push_str(&format!("piloting = {p}\n"));
    }
    Ok(entry)
}

/// A filter's part, or `None` for a card's name; checked against the levels the space
/// can hold.
fn filter_part(cat: &Catalogue, text: &str, base_ok: bool) -> Result<Option<Part>, String> {
    let Some(part) = Part::parse(text) else {
        if base_ok && names::find(cards(cat), |u| u.name.as_str(), text).is_some() {
            return Ok(None);
        }
        let mut all = spellings(cat, None);
        if base_ok {
            all.extend(cards(cat).iter().map(|u| u.name.clone()));
        }
        return Err(format!(
            "unknown part `{}`: {FORMS}{}",
            text.trim(),
            did_you_mean(text, all.iter().map(String::as_str))
        ));
    };
    let card_level = |s: Option<i32>| s.unwrap_or(UNSKILLED_PRICE_LEVEL);
    let (role, level, mut known) = match part {
        Part::Every(n) | Part::Gunner(_, n) => (
            CrewRole::Gunner,
            n,
            cards(cat).iter().flat_map(|u| u.gunners.iter().map(|g| card_level(g.skill))).collect::<Vec<_>>(),
        ),
        Part::Piloting(n) => (CrewRole::Pilot, n, cards(cat).iter().map(|u| card_level(u.piloting)).collect()),
    };
    if let Part::Gunner(k, _) = part {
        let most = cards(cat).iter().map(|u| u.gunners.len()).max().unwrap_or(0);
        if k >= most {
            return Err(format!("`{}`: no unit of the {} has a gunner G{}", part.text(), cat.origin, k + 1));
        }
    }
    known.extend(priced_levels(&cat.crew, role));
    known.sort_unstable();
    known.dedup();
    if !known.contains(&level) {
        return Err(format!(
            "`{}`: no build has {} {level}: the catalogue's units and [[crew]] prices give {} levels {}",
            part.text(),
            role.skill(),
            role.skill(),
            levels_text(&known)
        ));
    }
    Ok(Some(part))
}

/// Every build of the catalogue's cards the filter lets through (see the module), cards
/// in catalogue order, stopping at [`SPACE_HARD_CAP`].
///
/// # Errors
/// A base the filter names that is not a card, or a part it names that is unknown or
/// that no build can hold.
pub fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
    for b in &filter.bases {
        card(cat, b)?;
    }
    let must: Vec<Part> = filter
        .must_include
        .iter()
        .map(|p| filter_part(cat, p, false))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let mut not: Vec<Part> = Vec::new();
    let mut not_bases: Vec<&str> = Vec::new();
    for x in &filter.exclude {
        match filter_part(cat, x, true)? {
            Some(p) => not.push(p),
            None => not_bases.push(x),
        }
    }
    let levels = priced_levels(&cat.crew, CrewRole::Gunner);
    let mut out = Vec::new();
    for unit in cards(cat) {
        if !filter.base_passes(&unit.name) || not_bases.iter().any(|b| names::same(b, &unit.name)) {
            continue;
        }
        let card_levels: Vec<i32> = unit.gunners.iter().map(|g| g.skill.unwrap_or(UNSKILLED_PRICE_LEVEL)).collect();
        // Per gunner: the levels it takes (empty: it keeps the card's).
        let options: Vec<&[i32]> =
            card_levels.iter().map(|c| if levels.contains(c) { levels.as_slice() } else { &[][..] }).collect();
        let free: Vec<usize> = (0..options.len()).filter(|&g| !options[g].is_empty()).collect();
        let piloting = unit.piloting.unwrap_or(UNSKILLED_PRICE_LEVEL);
        let mut at = vec![0usize; free.len()];
        loop {
            let mut eff = card_levels.clone();
            let set: Vec<(usize, i32)> = free.iter().zip(&at).map(|(&g, &i)| (g, options[g][i])).collect();
            for &(g, n) in &set {
                eff[g] = n;
            }
            let cost_ok = match (filter.max_cost, build_ecv(unit, &cat.crew, &set, None)) {
                (_, Err(_)) => false,
                (Some(m), Ok(ecv)) => ecv <= m + EPSILON,
                (None, Ok(_)) => true,
            };
            let parts_ok =
                must.iter().all(|p| p.held_by(&eff, piloting)) && !not.iter().any(|p| p.held_by(&eff, piloting));
            if cost_ok && parts_ok {
                let parts = if free.len() == eff.len() && !set.is_empty() && set.iter().all(|s| s.1 == set[0].1) {
                    vec![(1, Part::Every(set[0].1).text())]
                } else {
                    set.iter().map(|&(g, n)| (1, Part::Gunner(g, n).text())).collect()
                };
                out.push(AdHocBuild { base: unit.name.clone(), parts });
                if out.len() >= SPACE_HARD_CAP {
                    return Ok(out);
                }
            }
            // the next combination: the last free gunner fastest
            let mut i = at.len();
            let done = loop {
                if i == 0 {
                    break true;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < options[free[i]].len() {
                    break false;
                }
                at[i] = 0;
            };
            if done {
                break;
            }
        }
    }
    Ok(out)
}
