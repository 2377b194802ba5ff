//! The validated MECHCOM catalogue and the ways commands name what is in it.

use crate::catalogue::force::ForceSpec;
use crate::rules::kit::names;
use crate::rules::kit::select::{Prefix, Selector, forms, selected};
use crate::rules::mechcom::mech::{Faction, Mech, Model, Pilot, PilotKind};
use crate::rules::mechcom::weapon::Weapon;

use super::build::Build;
use super::mech::{Profile, parse_faction, unknown_faction};
pub use super::pilot::requirement_unmet;

/// The selector prefixes of a MECHCOM catalogue.
pub const SELECTORS: &[Prefix] = &[
    Prefix { word: "faction", selects: "every mech of that faction" },
    Prefix { word: "squad", selects: "the squad's members as model names, each once" },
];

/// One model of a squad.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// Index into [`Catalogue::mechs`].
    pub mech: usize,
    /// Index into [`Catalogue::pilots`].
    pub pilot: Option<usize>,
    /// Index into the mech's [`Catalogue::profiles`] (0 = `BASE`).
    pub profile: usize,
    /// Mech cost + profile cost + pilot cost.
    pub points: u32,
}

/// A validated squad: one faction (Mercenary pilots excepted), within its budget.
#[derive(Debug, Clone, PartialEq)]
pub struct Squad {
    pub name: String,
    pub faction: Faction,
    /// Points allowed (1000 by default).
    pub budget: u32,
    pub members: Vec<Member>,
    /// Sum of the members' points, <= `budget`.
    pub points: u32,
}

/// One weighted opponent of a field.
#[derive(Debug, Clone, PartialEq)]
pub struct Opponent {
    /// The model name (`Mech` or `Mech+Pilot`).
    pub model: String,
    /// Index into [`Catalogue::mechs`].
    pub mech: usize,
    /// Index into [`Catalogue::pilots`].
    pub pilot: Option<usize>,
    /// How often this opponent is expected, relative to the others (> 0).
    pub weight: f64,
}

/// A validated field of opponents, for gauntlets.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub opponents: Vec<Opponent>,
}

/// A validated MECHCOM catalogue. Construct with [`Catalogue::embedded`] or
/// [`Catalogue::from_read`].
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    pub weapons: Vec<Weapon>,
    /// Each with its weapons resolved (copies of [`Catalogue::weapons`] entries).
    pub mechs: Vec<Mech>,
    /// `profiles[i]`: the profiles of `mechs[i]`, `BASE` first.
    pub profiles: Vec<Vec<Profile>>,
    pub pilots: Vec<Pilot>,
    /// `[[build]]` entries (the command line's ad-hoc builds among them), each checked
    /// as a squad member is; their names are model names.
    pub builds: Vec<Build>,
    pub squads: Vec<Squad>,
    pub fields: Vec<Field>,
    /// `[[force]]` entries, every member naming a model of this catalogue (budgets,
    /// factions and unique pilots are checked when a battle is set up).
    pub forces: Vec<ForceSpec>,
    /// What was loaded, for messages ("embedded default catalogue", a path).
    pub origin: String,
    /// [`crate::catalogue::source::content_hash`] of the files.
    pub hash: String,
}

/// Split a model name at its first `+`: `"Typhon+Ace"` is (`"Typhon"`, `Some("Ace")`),
/// `"Typhon"` is (`"Typhon"`, `None`). Spaces around the parts are ignored.
pub fn split_model_name(name: &str) -> (&str, Option<&str>) {
    match name.split_once('+') {
        Some((mech, pilot)) => (mech.trim(), Some(pilot.trim())),
        None => (name.trim(), None),
    }
}

/// The model name of a mech with an optional pilot: `Mech` or `Mech+Pilot`.
pub fn model_name(mech: &str, pilot: Option<&str>) -> String {
    match pilot {
        Some(p) => format!("{mech}+{p}"),
        None => mech.to_string(),
    }
}

/// Whether a pilot card is unique per squad (`ACES_MERCS_UNIQUE`).
pub fn is_unique(kind: PilotKind) -> bool {
    kind != PilotKind::Regular
}

impl Catalogue {
    /// The weapon named `name` (any case: [`names::find`]).
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        names::find(&self.weapons, |w| w.name.as_str(), name)
    }
    /// The mech named `name` (a plain mech name, no pilot; any case: [`names::find`]).
    pub fn mech(&self, name: &str) -> Option<&Mech> {
        names::find(&self.mechs, |m| m.name.as_str(), name)
    }
    /// The pilot named `name` (any case: [`names::find`]).
    pub fn pilot(&self, name: &str) -> Option<&Pilot> {
        names::find(&self.pilots, |p| p.name.as_str(), name)
    }
    /// The build named `name` (any case: [`names::find`]).
    pub fn build(&self, name: &str) -> Option<&Build> {
        names::find(&self.builds, |b| b.name.as_str(), name)
    }
    /// The points of a build as a squad counts them: mech + profile + pilot.
    pub fn build_points(&self, b: &Build) -> u32 {
        self.mechs[b.mech].cost + self.profiles[b.mech][b.profile].cost + b.pilot.map_or(0, |p| self.pilots[p].cost)
    }
    /// The pilot a model name names: a build's, or the `Pilot` of `Mech+Pilot`.
    pub fn pilot_of(&self, name: &str) -> Option<&Pilot> {
        match self.build(name) {
            Some(b) => b.pilot.map(|p| &self.pilots[p]),
            None => split_model_name(name).1.and_then(|p| self.pilot(p)),
        }
    }
    /// The squad named `name` (any case: [`names::find`]).
    pub fn squad(&self, name: &str) -> Option<&Squad> {
        names::find(&self.squads, |s| s.name.as_str(), name)
    }
    /// The field named `name` (any case: [`names::find`]).
    pub fn field(&self, name: &str) -> Option<&Field> {
        names::find(&self.fields, |f| f.name.as_str(), name)
    }
    /// The profiles of a mech (`BASE` first); empty for a mech not in the catalogue.
    pub fn profiles_of(&self, mech: &str) -> &[Profile] {
        self.mechs.iter().position(|m| m.name == mech).map_or(&[], |i| &self.profiles[i])
    }

    /// The mech named `name`; the error suggests the closest name.
    pub fn find_mech(&self, name: &str) -> Result<&Mech, String> {
        names::lookup(&self.mechs, |m| m.name.as_str(), name, "mech", &self.origin)
    }

    /// The pilot named `name`; the error suggests the closest name.
    pub fn find_pilot(&self, name: &str) -> Result<&Pilot, String> {
        names::lookup(&self.pilots, |p| p.name.as_str(), name, "pilot", &self.origin)
    }

    /// The model of `mech` flown by `pilot` (bonuses applied, no conditions).
    ///
    /// # Errors
    /// An unknown mech or pilot (with a suggestion), or a pilot whose requirements the
    /// mech does not meet.
    pub fn model(&self, mech: &str, pilot: Option<&str>) -> Result<Model, String> {
        let m = self.find_mech(mech)?;
        let p = match pilot {
            Some(name) => {
                let p = self.find_pilot(name)?;
                if let Some(why) = requirement_unmet(p, m) {
                    return Err(why);
                }
                Some(p)
            }
            None => None,
        };
        Ok(Model::new(m, p))
    }

    /// The model a model name (a build's name, `Mech` or `Mech+Pilot`) names; errors as
    /// for [`Catalogue::model`].
    pub fn model_named(&self, name: &str) -> Result<Model, String> {
        if let Some(b) = self.build(name) {
            return Ok(Model::new(&self.mechs[b.mech], b.pilot.map(|p| &self.pilots[p])));
        }
        let (mech, pilot) = split_model_name(name);
        self.model(mech, pilot)
    }

    /// The points of a model: the mech's cost plus the pilot's (`COST_IS_PRINTED`). A
    /// name not in the catalogue adds nothing.
    pub fn cost(&self, mech: &str, pilot: Option<&str>) -> f64 {
        let m = self.mech(mech).map_or(0, |m| m.cost);
        let p = pilot.and_then(|p| self.pilot(p)).map_or(0, |p| p.cost);
        (m + p) as f64
    }

    /// The points of a model name: a build's [`Catalogue::build_points`], or for `Mech`
    /// and `Mech+Pilot` [`Catalogue::cost`].
    pub fn model_cost(&self, name: &str) -> f64 {
        if let Some(b) = self.build(name) {
            return self.build_points(b) as f64;
        }
        let (mech, pilot) = split_model_name(name);
        self.cost(mech, pilot)
    }

    /// The model name of a squad member (its profile is not part of the name).
    pub fn member_name(&self, m: &Member) -> String {
        model_name(&self.mechs[m.mech].name, m.pilot.map(|p| self.pilots[p].name.as_str()))
    }

    /// The names of every mech, in catalogue order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.mechs.iter().map(|m| m.name.as_str())
    }

    /// The model names a selector picks, in catalogue order:
    /// - `all`: every mech with a faction (neutral terrain is left out);
    /// - `faction:NAME`: every mech of that faction (`faction:herakles` works too);
    /// - `squad:NAME`: the squad's members as model names (`Mech+Pilot` when piloted),
    ///   each once;
    /// - a model name: a build's, `Mech` or `Mech+Pilot`.
    ///
    /// # Errors
    /// An unknown faction, squad, mech or pilot (with a suggestion), a pilot that may
    /// not fly the mech, or a selection of nothing (naming the selector).
    pub fn select(&self, selector: &str) -> Result<Vec<String>, String> {
        let picked: Vec<String> = match Selector::parse(selector, SELECTORS) {
            Selector::All => self.mechs.iter().filter(|m| m.faction.is_some()).map(|m| m.name.clone()).collect(),
            Selector::Prefixed { prefix: "faction", value } => {
                let faction = parse_faction(value).ok_or_else(|| unknown_faction(value, false))?;
                self.mechs.iter().filter(|m| m.faction == Some(faction)).map(|m| m.name.clone()).collect()
            }
            Selector::Prefixed { value, .. } => {
                let squad = names::lookup(&self.squads, |q| q.name.as_str(), value, "squad", &self.origin)?;
                let mut members: Vec<String> = Vec::new();
                for m in &squad.members {
                    let name = self.member_name(m);
                    if !members.contains(&name) {
                        members.push(name);
                    }
                }
                members
            }
            Selector::Name(name) if self.build(name).is_some() => {
                vec![self.build(name).map_or_else(String::new, |b| b.name.clone())]
            }
            Selector::Name(name) => {
                let (mech, pilot) = split_model_name(name);
                self.model(mech, pilot).map_err(|e| {
                    if self.mech(mech).is_none() {
                        format!("{e}; a selector is {}", forms(SELECTORS, "`MECH` or `MECH+PILOT`"))
                    } else {
                        e
                    }
                })?;
                // the catalogue's spelling, as keys and tables print it (both found above)
                let pilot = pilot.map(|p| self.pilot(p).map_or(p, |p| p.name.as_str()));
                vec![model_name(self.mech(mech).map_or(mech, |m| m.name.as_str()), pilot)]
            }
        };
        selected(selector, &self.origin, picked)
    }
}
