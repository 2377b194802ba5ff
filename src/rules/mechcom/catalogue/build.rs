//! `[[build]]` entries: a mech with an optional pilot and an optional profile, under a
//! name of its own. They are what an ad-hoc build (`Typhon[Iris Kade, Overclocked]`)
//! becomes ([`super::space`]), and a designer may write them by hand; either way the
//! loader checks them as a squad member is checked (§3 "Building a force").

use super::lookup::{Lookup, Names};
use super::mech::Profile;
use super::pilot::requirement_unmet;
use super::{MECH, PILOT};
use crate::catalogue::error::{CatalogError, Position, did_you_mean};
use crate::catalogue::fields::{Checked, Fields};
use crate::rules::kit::names;
use crate::rules::mechcom::mech::{Mech, Pilot};

/// Every key a build entry may have.
pub const BUILD_KEYS: &[&str] = &["name", "mech", "pilot", "profile"];

/// A validated build: one model as a squad would field it.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    /// Its name, a model name of its own (no `+`, not a mech's name).
    pub name: String,
    /// Index into the catalogue's mechs (never neutral terrain).
    pub mech: usize,
    /// Index into the catalogue's pilots; the pilot may fly the mech.
    pub pilot: Option<usize>,
    /// Index into the mech's profiles (0 = `BASE`).
    pub profile: usize,
}

/// A build as written.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildSpec {
    pub name: String,
    pub mech: String,
    pub pilot: Option<String>,
    pub profile: Option<String>,
    /// Where the `name`, `mech`, `pilot` and `profile` values are written.
    pub positions: [Option<Position>; 4],
    pub position: Option<Position>,
    pub file: String,
    /// How errors name the entry (`build "Typhon[Iris Kade]"`).
    pub label: String,
}

/// Read a build; the value is kept even when the entry had errors, so that its names
/// are still checked.
pub fn read(mut f: Fields<'_>) -> Checked<BuildSpec> {
    let positions = ["name", "mech", "pilot", "profile"].map(|k| f.position_of(k));
    let name = f.string("name", true).unwrap_or_default();
    if name.contains('+') {
        f.error(Some("name"), positions[0], "must not contain `+`: it joins a mech and its pilot in model names");
    }
    let mech = f.string("mech", true).unwrap_or_default();
    let pilot = f.string("pilot", false);
    let profile = f.string("profile", false);
    let position = f.entry().position;
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    f.finish_checked(BUILD_KEYS, BuildSpec { name, mech, pilot, profile, positions, position, file, label })
}

/// What a build is checked against: the mechs (with their profiles) and pilots that
/// are fine, and every name written for each kind (for suggestions).
pub(super) struct Known<'a> {
    pub mechs: &'a [(Mech, Vec<Profile>)],
    pub pilots: &'a [Pilot],
    pub names: &'a Names<'a>,
    pub mech_names: Vec<&'a str>,
    pub pilot_names: Vec<&'a str>,
}

/// Check a build: its name is no mech's (any case), its mech and pilot exist, the mech
/// is not neutral terrain, the profile is one of the mech's (any case), the pilot may fly
/// the mech (faction and `mechs`). `None` when anything is wrong (errors pushed, each
/// at its field).
pub(super) fn resolve(checked: &Checked<BuildSpec>, k: &Known<'_>, errors: &mut Vec<CatalogError>) -> Option<Build> {
    let b = &checked.value;
    let mut ok = checked.ok;
    // A name whose entry failed: nothing more to say about it.
    let mut failed = false;
    let mut push = |msg: String, field: &str, at: usize| {
        ok = false;
        errors.push(CatalogError::new(&b.file, msg).at(b.positions[at].or(b.position)).entry(&b.label).field(field));
    };
    if let Some(m) = k.mech_names.iter().find(|m| names::same(m, &b.name)) {
        push(format!("a build may not take the name of mech `{m}`: model names would not tell them apart"), "name", 0);
    }
    let mech = match k.names.lookup(
        MECH,
        &b.mech,
        k.mechs.iter().position(|(m, _)| m.name == b.mech),
        k.mech_names.iter().copied(),
    ) {
        Lookup::Found(i) => Some(i),
        Lookup::Failed => {
            failed = true;
            None
        }
        Lookup::Unknown(msg) => {
            push(msg, "mech", 1);
            None
        }
    };
    let pilot = match &b.pilot {
        None => Some(None),
        Some(name) => match k.names.lookup(
            PILOT,
            name,
            k.pilots.iter().position(|p| &p.name == name),
            k.pilot_names.iter().copied(),
        ) {
            Lookup::Found(i) => Some(Some(i)),
            Lookup::Failed => {
                failed = true;
                None
            }
            Lookup::Unknown(msg) => {
                push(msg, "pilot", 2);
                None
            }
        },
    };
    let mech = mech?;
    let (m, profiles) = &k.mechs[mech];
    if m.faction.is_none() {
        push(
            format!("mech `{}` is neutral terrain: it takes no pilot or profile and joins no squad", m.name),
            "mech",
            1,
        );
    }
    let profile = match &b.profile {
        None => Some(0),
        Some(name) => match profiles.iter().position(|p| p.name.eq_ignore_ascii_case(name)) {
            Some(i) => Some(i),
            None => {
                let list = profiles.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
                let hint = did_you_mean(name, profiles.iter().map(|p| p.name.as_str()));
                push(format!("mech `{}` has no profile `{name}`{hint}; its profiles: {list}", m.name), "profile", 3);
                None
            }
        },
    };
    if let Some(Some(p)) = pilot
        && m.faction.is_some()
        && let Some(why) = requirement_unmet(&k.pilots[p], m)
    {
        push(why, "pilot", 2);
    }
    let (pilot, profile) = (pilot?, profile?);
    (ok && !failed).then(|| Build { name: b.name.clone(), mech, pilot, profile })
}
