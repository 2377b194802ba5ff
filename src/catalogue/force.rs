//! Forces: named lists of catalogue builds that fight together in a battle, read from a
//! `[[force]]` section (the section is declared by each ruleset that plays battles) or
//! written on the command line as `BUILD+BUILD+2*BUILD`.
//!
//! ```toml
//! [[force]]
//! name = "Lancer pair"
//! budget = 12                 # optional: the force's own budget (else the battle's)
//! units = [{ build = "Gladiator Lancer", count = 2 }]
//! ```
//! Names are resolved by the ruleset, which knows its builds.

use super::error::Position;
use super::fields::{Checked, Fields};

/// Most copies of one build in a force entry.
pub const MAX_COUNT: u32 = 64;

/// One line of a force: `count` copies of a build or unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub build: String,
    pub count: u32,
    pub position: Option<Position>,
}

/// A force as written.
#[derive(Debug, Clone, PartialEq)]
pub struct ForceSpec {
    pub name: String,
    pub members: Vec<Member>,
    /// The force's own budget, if it names one (> 0).
    pub budget: Option<f64>,
    pub position: Option<Position>,
    /// The catalogue file, or `command line` for a force written as text.
    pub file: String,
}

/// Keys of a `[[force]]` entry.
pub const FORCE_KEYS: &[&str] = &["name", "units", "budget"];

impl ForceSpec {
    /// Read a `[[force]]` entry; members read are kept even when the entry had errors.
    pub fn read(mut f: Fields<'_>) -> Checked<ForceSpec> {
        let name = f.string("name", true).unwrap_or_default();
        let budget = f.positive_number("budget");
        let members = f.table_list("units", |m| {
            let position = m.position();
            let build = m.string("build", true);
            let count = m.int("count", Some(1), 1, MAX_COUNT as i64) as u32;
            m.reject_unknown(&["build", "count"]);
            Some(Member { build: build?, count, position })
        });
        if members.is_empty() && !f.is_bad("units") {
            f.error(Some("units"), None, "a force needs at least one unit");
        }
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish_checked(FORCE_KEYS, ForceSpec { name, members, budget, position, file })
    }

    /// Parse a force written as builds joined by `+`, each optionally `N*NAME` (e.g.
    /// `Gladiator Lancer+2*Stingray`). The force is named by the text.
    ///
    /// # Errors
    /// An empty name, or a count that is not 1..=[`MAX_COUNT`].
    pub fn parse(text: &str) -> Result<ForceSpec, String> {
        let mut members = Vec::new();
        for part in text.split('+') {
            let part = part.trim();
            let (count, build) = match part.split_once('*') {
                Some((n, b)) => match n.trim().parse::<u32>() {
                    Ok(n) if (1..=MAX_COUNT).contains(&n) => (n, b.trim()),
                    _ => return Err(format!("`{part}`: a count is written N*NAME with N from 1 to {MAX_COUNT}")),
                },
                None => (1, part),
            };
            if build.is_empty() {
                return Err(format!("`{text}`: empty build name in a force (builds are joined by +)"));
            }
            members.push(Member { build: build.to_string(), count, position: None });
        }
        Ok(ForceSpec {
            name: text.trim().to_string(),
            members,
            budget: None,
            position: None,
            file: "command line".into(),
        })
    }

    /// Canonical text for cell keys: `N*BUILD` joined by `+`, in written order, then
    /// `@budget` when the force names one.
    pub fn canonical(&self) -> String {
        let members: Vec<String> = self.members.iter().map(|m| format!("{}*{}", m.count, m.build)).collect();
        match self.budget {
            Some(b) => format!("{}@{b}", members.join("+")),
            None => members.join("+"),
        }
    }

    /// Total number of units.
    pub fn size(&self) -> u32 {
        self.members.iter().map(|m| m.count).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_counts_and_names() {
        let f = ForceSpec::parse("Gladiator Lancer + 2*Stingray").unwrap();
        assert_eq!(f.members.len(), 2);
        assert_eq!((f.members[1].build.as_str(), f.members[1].count), ("Stingray", 2));
        assert_eq!(f.size(), 3);
        assert!(ForceSpec::parse("A++B").unwrap_err().contains("empty build name"));
        assert!(ForceSpec::parse("0*A").unwrap_err().contains("N from 1"));
    }
}
