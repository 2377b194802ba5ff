//! The Skirmishers catalogue: `[[weapon]]`, `[[trooper]]` and `[[squad]]` entries read with
//! the shared reader (`crate::catalogue`) and checked in one pass, every error naming file,
//! line, entry and field. Every key is documented in `loadouts/skirmishers/README.md`.

mod read;
mod resolve;
pub mod slots;
pub mod space;

use crate::catalogue::{Section, Sections};
use crate::rules::kit::names;
use crate::rules::kit::select::{Prefix, Selector, forms, selected};

use super::trooper::Trooper;
use super::weapon::Weapon;

/// `[[weapon]]`: one row of the book's weapon tables.
pub const WEAPON: Section = Section("weapon");
/// `[[trooper]]`: a card and loadout.
pub const TROOPER: Section = Section("trooper");
/// `[[squad]]`: troopers with counts (also a gauntlet field, weighted by count).
pub const SQUAD: Section = Section("squad");
/// The embedded catalogue's directory, `loadouts/skirmishers/`.
pub const CATALOGUE_DIR: &str = "skirmishers";
pub const SECTIONS: Sections =
    Sections { toml: &[WEAPON, TROOPER, SQUAD], csv: &[("weapons", WEAPON), ("troopers", TROOPER)] };

/// A squad: troopers (indices into [`Catalogue::troopers`]) with counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Squad {
    pub name: String,
    pub members: Vec<(usize, u32)>,
    /// Sum of the members' PV.
    pub pv: u32,
}

/// A checked catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    pub weapons: Vec<Weapon>,
    pub troopers: Vec<Trooper>,
    pub squads: Vec<Squad>,
    pub origin: String,
    pub hash: String,
}

impl Catalogue {
    /// The default catalogue built into the binary.
    ///
    /// # Errors
    /// The embedded files' errors (a build with a broken catalogue).
    pub fn embedded() -> Result<Catalogue, crate::catalogue::CatalogErrors> {
        resolve::check("embedded default catalogue", &crate::catalogue::source::embedded(CATALOGUE_DIR), Vec::new())
    }

    /// Check `files` (with `read_errors` among the errors).
    ///
    /// # Errors
    /// Every error found, sorted by file and position.
    pub fn from_read(
        origin: &str,
        files: &[crate::catalogue::source::SourceFile],
        read_errors: Vec<crate::catalogue::CatalogError>,
    ) -> Result<Catalogue, crate::catalogue::CatalogErrors> {
        resolve::check(origin, files, read_errors)
    }

    /// Whether `files` use weapon or trooper names they do not define: additions to
    /// another catalogue rather than a catalogue of their own.
    pub fn refers_to_undefined(files: &[crate::catalogue::source::SourceFile]) -> bool {
        resolve::unknown_references(files) > 0
    }

    /// The trooper named `name` (any case: [`names::lookup`]).
    ///
    /// # Errors
    /// An unknown name, with the nearest.
    pub fn trooper(&self, name: &str) -> Result<&Trooper, String> {
        names::lookup(&self.troopers, |t| t.name.as_str(), name, "trooper", &self.origin)
    }

    /// The weapon named `name` (any case: [`names::lookup`]).
    ///
    /// # Errors
    /// An unknown name, with the nearest.
    pub fn weapon(&self, name: &str) -> Result<&Weapon, String> {
        names::lookup(&self.weapons, |w| w.name.as_str(), name, "weapon", &self.origin)
    }

    /// The squad named `name` (any case: [`names::lookup`]).
    ///
    /// # Errors
    /// An unknown name, with the nearest.
    pub fn squad(&self, name: &str) -> Result<&Squad, String> {
        names::lookup(&self.squads, |s| s.name.as_str(), name, "squad", &self.origin)
    }

    /// Names a selector picks: `all`, `track:basic|power`, `squad:NAME` (its troopers,
    /// each once), or a trooper, as the catalogue spells them.
    ///
    /// # Errors
    /// An unknown trooper, squad or track, or a selection of nothing. A squad's name
    /// alone is not a trooper: the message says to write `squad:NAME`.
    pub fn select(&self, selector: &str) -> Result<Vec<String>, String> {
        let picked = match Selector::parse(selector, SELECTORS) {
            Selector::All => self.troopers.iter().map(|t| t.name.clone()).collect(),
            Selector::Prefixed { prefix: "track", value } => {
                if !["basic", "power"].iter().any(|t| t.eq_ignore_ascii_case(value)) {
                    return Err(format!("unknown track `{value}` in `{}`: basic or power", selector.trim()));
                }
                self.troopers
                    .iter()
                    .filter(|t| t.track.name().eq_ignore_ascii_case(value))
                    .map(|t| t.name.clone())
                    .collect()
            }
            Selector::Prefixed { value, .. } => {
                let squad = self.squad(value)?;
                let mut v: Vec<String> = Vec::new();
                for (i, _) in &squad.members {
                    if !v.contains(&self.troopers[*i].name) {
                        v.push(self.troopers[*i].name.clone());
                    }
                }
                v
            }
            Selector::Name(n) => match self.trooper(n) {
                Ok(t) => vec![t.name.clone()],
                Err(e) => {
                    return Err(match self.squad(n) {
                        Ok(q) => format!("`{n}` is a squad, not a trooper: `squad:{}` selects its troopers", q.name),
                        Err(_) => format!("{e}; a selector is {}", forms(SELECTORS, "or a trooper")),
                    });
                }
            },
        };
        selected(selector, &self.origin, picked)
    }
}

/// The selector prefixes of a Skirmishers catalogue.
pub const SELECTORS: &[Prefix] = &[
    Prefix { word: "track", selects: "the troopers on that damage track (basic or power)" },
    Prefix { word: "squad", selects: "the squad's troopers, each once" },
];

#[cfg(test)]
mod tests;
