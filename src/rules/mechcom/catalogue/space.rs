//! Ad-hoc builds and the build space: a mech with at most one pilot card and at most one
//! profile (§3 "Pilots": "a model can only ever have one pilot card equipped"; "Building
//! a force": a mech uses the Base profile unless one is paid for).
//!
//! A build `Mech[PART, PART]` names the mech, then its pilot and its profile in any
//! order, each matched by name in any case among the catalogue's pilots and the mech's
//! profiles (`BASE` included). Where a pilot and a profile of the mech share a name,
//! `pilot:NAME` or `profile:NAME` says which. The entry written is a `[[build]]`, so the
//! loader decides, as for a squad member, whether the pilot may fly the mech (its
//! faction, its `mechs`) and refuses neutral terrain.
//!
//! The space of a mech with a faction is: no pilot, or each pilot whose requirements it
//! meets, times each of its profiles (`BASE` first). Neutral terrain joins no squad and
//! has no space. A build is one model: the squad's budget (agreed per game, 1000 points
//! by default) does not bound it; `--max-cost` does (docs/mechcom.md, "Searching builds").

use crate::catalogue::adhoc::{AdHocBuild, toml_string};
use crate::rules::kit::names;
use crate::rules::ruleset::{SPACE_HARD_CAP, SpaceFilter};

use super::mech::Profile;
use super::pilot::requirement_unmet;
use super::{Catalogue, Mech, Pilot};

/// Written before a part's name, it says the part is a pilot (any case).
pub const PILOT_PREFIX: &str = "pilot:";
/// Written before a part's name, it says the part is a profile (any case).
pub const PROFILE_PREFIX: &str = "profile:";

/// Tolerance for comparing a cost with `--max-cost`.
const EPSILON: f64 = 1e-9;

/// What a part's text says it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pilot,
    Profile,
}

/// The kind a text names by its prefix (none: either), and the name after it.
fn split_kind(text: &str) -> (Option<Kind>, &str) {
    let t = text.trim();
    for (prefix, kind) in [(PILOT_PREFIX, Kind::Pilot), (PROFILE_PREFIX, Kind::Profile)] {
        if t.len() > prefix.len() && t.is_char_boundary(prefix.len()) && t[..prefix.len()].eq_ignore_ascii_case(prefix)
        {
            return (Some(kind), t[prefix.len()..].trim());
        }
    }
    (None, t)
}

/// A part of a build, resolved.
enum Part<'a> {
    Pilot(&'a Pilot),
    Profile(&'a Profile),
}

/// The index of the mech named `name`; the error names the nearest mech.
fn mech_index(cat: &Catalogue, name: &str) -> Result<usize, String> {
    names::position(&cat.mechs, |m| m.name.as_str(), name)
        .ok_or_else(|| names::unknown("mech", name, &cat.origin, cat.mechs.iter().map(|m| m.name.as_str())))
}

/// Resolve one part of a build on mech `mech`.
fn part<'a>(cat: &'a Catalogue, mech: usize, text: &str, build: &AdHocBuild) -> Result<Part<'a>, String> {
    let (kind, name) = split_kind(text);
    let m = &cat.mechs[mech];
    let pilot = if kind == Some(Kind::Profile) { None } else { cat.pilot(name) };
    let profile =
        if kind == Some(Kind::Pilot) { None } else { names::find(&cat.profiles[mech], |p| p.name.as_str(), name) };
    match (pilot, profile) {
        (Some(p), None) => Ok(Part::Pilot(p)),
        (None, Some(r)) => Ok(Part::Profile(r)),
        (Some(p), Some(r)) => Err(format!(
            "{build}: `{name}` is both the pilot `{}` and the profile `{}` of `{}`: write `{PILOT_PREFIX}{name}` or `{PROFILE_PREFIX}{name}`",
            p.name, r.name, m.name
        )),
        (None, None) => Err(format!("{build}: {}", unknown_part(cat, mech, kind, name))),
    }
}

/// Why `name` is no pilot or profile of mech `mech`: a part of the wrong kind (a weapon,
/// a mech, another mech's profile), else the nearest names.
fn unknown_part(cat: &Catalogue, mech: usize, kind: Option<Kind>, name: &str) -> String {
    let m = &cat.mechs[mech];
    let profiles = || cat.profiles[mech].iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
    if kind != Some(Kind::Pilot)
        && let Some(other) =
            cat.mechs.iter().zip(&cat.profiles).find(|(_, ps)| ps.iter().any(|p| names::same(&p.name, name)))
    {
        return format!(
            "`{name}` is a profile of `{}`, not of `{}` (its profiles: {})",
            other.0.name,
            m.name,
            profiles()
        );
    }
    if kind.is_none() {
        if let Some(w) = cat.weapon(name) {
            return format!(
                "`{}` is a weapon: a MECHCOM build is a mech with a pilot and a profile (its weapons are on its sheet; a pilot card may add some)",
                w.name
            );
        }
        if let Some(x) = cat.mech(name) {
            return format!("`{}` is a mech: a build is one mech, written before `[`", x.name);
        }
    }
    let pilots = cat.pilots.iter().map(|p| p.name.as_str()).filter(|_| kind != Some(Kind::Profile));
    let own = cat.profiles[mech].iter().map(|p| p.name.as_str()).filter(|_| kind != Some(Kind::Pilot));
    let what = match kind {
        Some(Kind::Pilot) => "pilot".to_string(),
        Some(Kind::Profile) => format!("profile of `{}`", m.name),
        None => format!("pilot or profile of `{}`", m.name),
    };
    names::unknown(&what, name, &cat.origin, pilots.chain(own))
}

/// The `[[build]]` entry named `name` of an ad-hoc build: its mech (the base) and at
/// most one pilot and one profile (the parts), each matched by name in any case and
/// written in the catalogue's spelling.
///
/// # Errors
/// An unknown mech or part (with the nearest names), a part of another kind (a weapon,
/// a mech, another mech's profile), a name that is both a pilot and a profile of the mech
/// (write `pilot:` or `profile:`), more than one pilot or profile, or a part named twice.
/// Whether the pilot may fly the mech is the loader's to say.
pub fn adhoc_entry(cat: &Catalogue, build: &AdHocBuild, name: &str) -> Result<String, String> {
    let mech = mech_index(cat, &build.base)?;
    let mut pilot: Option<&Pilot> = None;
    let mut profile: Option<&Profile> = None;
    for (copies, text) in &build.parts {
        let p = part(cat, mech, text, build)?;
        let (what, this) = match &p {
            Part::Pilot(p) => ("pilot card", p.name.as_str()),
            Part::Profile(r) => ("profile", r.name.as_str()),
        };
        if *copies > 1 {
            return Err(format!("{build}: a mech takes one {what}, not {copies} copies of `{this}`"));
        }
        let first = match p {
            Part::Pilot(p) => pilot.replace(p).map(|q| q.name.as_str()),
            Part::Profile(r) => profile.replace(r).map(|q| q.name.as_str()),
        };
        if let Some(first) = first {
            return Err(format!("{build}: a mech takes one {what}, not both `{first}` and `{this}`"));
        }
    }
    let mut entry = format!("[[build]]\nname = {}\nmech = {}\n", toml_string(name), toml_string(&cat.mechs[mech].name));
    if let Some(p) = pilot {
        entry += &format!("pilot = {}\n", toml_string(&p.name));
    }
    if let Some(r) = profile {
        entry += &format!("profile = {}\n", toml_string(&r.name));
    }
    Ok(entry)
}

/// A name a filter gives (`--must-include`, `--exclude`): a pilot, a profile or a mech.
struct Wanted<'a> {
    kind: Option<Kind>,
    name: &'a str,
}

impl<'a> Wanted<'a> {
    /// # Errors
    /// A name that is no pilot, no mech's profile and no mech (with the nearest names).
    fn new(cat: &Catalogue, text: &'a str) -> Result<Self, String> {
        let (kind, name) = split_kind(text);
        let w = Wanted { kind, name };
        let pilot = kind != Some(Kind::Profile) && cat.pilot(name).is_some();
        let profile = kind != Some(Kind::Pilot) && cat.profiles.iter().flatten().any(|p| names::same(&p.name, name));
        let mech = kind.is_none() && cat.mech(name).is_some();
        if pilot || profile || mech {
            return Ok(w);
        }
        let mut all: Vec<&str> = Vec::new();
        if kind != Some(Kind::Profile) {
            all.extend(cat.pilots.iter().map(|p| p.name.as_str()));
        }
        if kind != Some(Kind::Pilot) {
            for p in cat.profiles.iter().flatten() {
                if !all.contains(&p.name.as_str()) {
                    all.push(&p.name);
                }
            }
        }
        if kind.is_none() {
            all.extend(cat.mechs.iter().map(|m| m.name.as_str()));
        }
        let what = match kind {
            Some(Kind::Pilot) => "pilot",
            Some(Kind::Profile) => "profile",
            None => "pilot, profile or mech",
        };
        Err(names::unknown(what, name, &cat.origin, all))
    }

    /// Whether a build of `mech` flown by `pilot` in `profile` carries (or stands on) it.
    fn matches(&self, mech: &Mech, pilot: Option<&Pilot>, profile: &Profile) -> bool {
        let pilot = self.kind != Some(Kind::Profile) && pilot.is_some_and(|p| names::same(&p.name, self.name));
        let profile = self.kind != Some(Kind::Pilot) && names::same(&profile.name, self.name);
        pilot || profile || (self.kind.is_none() && names::same(&mech.name, self.name))
    }
}

/// The canonical build of mech `mech` with `pilot` and profile `profile` (an index into
/// its profiles): `Mech[Pilot, Profile]`, the pilot first, `BASE` left out, a prefix
/// only where a pilot and a profile of the mech share the name.
fn candidate(cat: &Catalogue, mech: usize, pilot: Option<&Pilot>, profile: usize) -> AdHocBuild {
    let mut parts = Vec::new();
    if let Some(p) = pilot {
        let shared = names::find(&cat.profiles[mech], |r| r.name.as_str(), &p.name).is_some();
        parts.push((1, if shared { format!("{PILOT_PREFIX}{}", p.name) } else { p.name.clone() }));
    }
    if profile > 0 {
        let r = &cat.profiles[mech][profile].name;
        parts.push((1, if cat.pilot(r).is_some() { format!("{PROFILE_PREFIX}{r}") } else { r.clone() }));
    }
    AdHocBuild { base: cat.mechs[mech].name.clone(), parts }
}

/// Every build the filter lets through (see the module): mechs in catalogue order, then
/// no pilot and the pilots in catalogue order, then the profiles (`BASE` first); at most
/// [`SPACE_HARD_CAP`]. Costs are mech + pilot + profile, as squads count them.
///
/// # Errors
/// A base, or a part to include or exclude, that the catalogue does not hold (with the
/// nearest names).
pub fn build_space(cat: &Catalogue, filter: &SpaceFilter) -> Result<Vec<AdHocBuild>, String> {
    for b in &filter.bases {
        mech_index(cat, b)?;
    }
    let must = filter.must_include.iter().map(|t| Wanted::new(cat, t)).collect::<Result<Vec<_>, _>>()?;
    let exclude = filter.exclude.iter().map(|t| Wanted::new(cat, t)).collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    for (i, m) in cat.mechs.iter().enumerate() {
        if m.faction.is_none() || !(filter.bases.is_empty() || filter.bases.iter().any(|b| names::same(b, &m.name))) {
            continue;
        }
        let pilots =
            std::iter::once(None).chain(cat.pilots.iter().filter(|p| requirement_unmet(p, m).is_none()).map(Some));
        for pilot in pilots {
            for (r, profile) in cat.profiles[i].iter().enumerate() {
                let cost = m.cost + profile.cost + pilot.map_or(0, |p| p.cost);
                if filter.max_cost.is_some_and(|c| f64::from(cost) > c + EPSILON)
                    || !must.iter().all(|w| w.matches(m, pilot, profile))
                    || exclude.iter().any(|w| w.matches(m, pilot, profile))
                {
                    continue;
                }
                out.push(candidate(cat, i, pilot, r));
                if out.len() >= SPACE_HARD_CAP {
                    return Ok(out);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
#[path = "space_tests.rs"]
mod tests;
