//! The Skirmishers catalogue: `[[weapon]]`, `[[trooper]]` and `[[squad]]` entries read with
//! the shared reader (`crate::catalogue`) and checked in one pass, every error naming file,
//! line, entry and field. Every key is documented in `loadouts/skirmishers/README.md`.

mod read;
mod resolve;

use crate::catalogue::error::did_you_mean;
use crate::catalogue::{Section, Sections};

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

    pub fn trooper(&self, name: &str) -> Result<&Trooper, String> {
        let n = name.trim();
        self.troopers.iter().find(|t| t.name.eq_ignore_ascii_case(n)).ok_or_else(|| {
            format!(
                "no trooper named `{n}` in the {}{}",
                self.origin,
                did_you_mean(n, self.troopers.iter().map(|t| t.name.as_str()))
            )
        })
    }

    pub fn weapon(&self, name: &str) -> Result<&Weapon, String> {
        let n = name.trim();
        self.weapons.iter().find(|w| w.name.eq_ignore_ascii_case(n)).ok_or_else(|| {
            format!(
                "no weapon named `{n}` in the {}{}",
                self.origin,
                did_you_mean(n, self.weapons.iter().map(|w| w.name.as_str()))
            )
        })
    }

    pub fn squad(&self, name: &str) -> Result<&Squad, String> {
        let n = name.trim();
        self.squads.iter().find(|s| s.name.eq_ignore_ascii_case(n)).ok_or_else(|| {
            format!(
                "no squad named `{n}` in the {}{}",
                self.origin,
                did_you_mean(n, self.squads.iter().map(|s| s.name.as_str()))
            )
        })
    }

    /// Names a selector picks: `all`, `track:basic|power`, `squad:NAME`, or a trooper.
    ///
    /// # Errors
    /// An unknown trooper, squad or track.
    pub fn select(&self, selector: &str) -> Result<Vec<String>, String> {
        let s = selector.trim();
        if s == "all" {
            return Ok(self.troopers.iter().map(|t| t.name.clone()).collect());
        }
        if let Some(k) = s.strip_prefix("track:") {
            let v: Vec<String> =
                self.troopers.iter().filter(|t| t.track.name() == k.trim()).map(|t| t.name.clone()).collect();
            return if v.is_empty() { Err(format!("no trooper on track `{k}` (basic or power)")) } else { Ok(v) };
        }
        if let Some(q) = s.strip_prefix("squad:") {
            let squad = self.squad(q)?;
            return Ok(squad.members.iter().map(|(i, _)| self.troopers[*i].name.clone()).collect());
        }
        self.trooper(s)
            .map(|t| vec![t.name.clone()])
            .map_err(|e| format!("{e}; a selector is `all`, `track:basic`, `track:power`, `squad:NAME` or a trooper"))
    }
}

#[cfg(test)]
mod tests;
