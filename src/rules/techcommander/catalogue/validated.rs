//! The validated catalogue: every name resolved, every build inside its limits.

use super::gear::{Effects, Gear};
use super::unit::Unit;
use super::weapon::Weapon;
use crate::rules::kit::names;

/// One weapon system of a build: `copies` of one weapon fired together as one action.
#[derive(Debug, Clone, PartialEq)]
pub struct SystemRef {
    /// Index into [`Catalogue::weapons`].
    pub weapon: usize,
    pub copies: u32,
    /// Standard (chassis) weapon rather than swappable.
    pub standard: bool,
}

/// A resolved build.
#[derive(Debug, Clone, PartialEq)]
pub struct Build {
    pub name: String,
    /// Index into [`Catalogue::units`].
    pub unit: usize,
    /// Weapon systems in catalogue order: the unit's standard weapons, then the build's.
    pub systems: Vec<SystemRef>,
    /// Indexes into [`Catalogue::gear`]: standard gear, then the build's.
    pub gear: Vec<usize>,
    pub points: f64,
    /// Swappable weight and power used.
    pub weight: f64,
    pub power: f64,
}

/// A resolved field of opponents.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    /// (index into [`Catalogue::builds`], relative weight).
    pub opponents: Vec<(usize, f64)>,
}

/// A validated catalogue. Construct with [`Catalogue::from_sources`] and friends.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    pub weapons: Vec<Weapon>,
    pub units: Vec<Unit>,
    pub gear: Vec<Gear>,
    pub builds: Vec<Build>,
    pub fields: Vec<Field>,
    /// Named forces for battles; every member names a build of this catalogue.
    pub forces: Vec<crate::catalogue::force::ForceSpec>,
    /// What was loaded, for messages ("embedded default catalogue", a path).
    pub origin: String,
    /// [`crate::catalogue::source::content_hash`] of the files.
    pub hash: String,
}

impl Catalogue {
    /// The weapon named `name` (any case: [`names::find`]).
    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        names::find(&self.weapons, |w| w.name.as_str(), name)
    }
    /// The unit named `name` (any case: [`names::find`]).
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        names::find(&self.units, |u| u.name.as_str(), name)
    }
    /// The build named `name` (any case: [`names::find`]).
    pub fn build(&self, name: &str) -> Option<&Build> {
        names::find(&self.builds, |b| b.name.as_str(), name)
    }
    /// The field named `name` (any case: [`names::find`]).
    pub fn field(&self, name: &str) -> Option<&Field> {
        names::find(&self.fields, |f| f.name.as_str(), name)
    }
    /// The unit a build is made from.
    pub fn unit_of(&self, build: &Build) -> &Unit {
        &self.units[build.unit]
    }
    /// A build's unit effects combined with all its gear.
    pub fn effects_of(&self, build: &Build) -> Effects {
        build.gear.iter().fold(self.unit_of(build).effects, |acc, &g| acc.combine(self.gear[g].effects))
    }

    /// The bubble shields build `build` can drop in a game: the `rounds` of its
    /// `bubble_shield` gear, at least 1 a projector (as smoke gear's pops), summed over
    /// its projectors; 0 without one.
    pub fn shields_of(&self, build: &Build) -> u32 {
        build.gear.iter().map(|&g| &self.gear[g]).filter(|g| g.bubble_shield).map(|g| g.rounds.max(1)).sum()
    }

    /// Look up a build by name (any case); the error suggests the closest name.
    pub fn find_build(&self, name: &str) -> Result<&Build, String> {
        names::lookup(&self.builds, |b| b.name.as_str(), name, "build", &self.origin)
    }
    /// Look up a unit by name (any case); the error suggests the closest name.
    pub fn find_unit(&self, name: &str) -> Result<&Unit, String> {
        names::lookup(&self.units, |u| u.name.as_str(), name, "unit", &self.origin)
    }
}
