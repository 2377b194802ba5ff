//! Forces: named lists of catalogue builds that fight together in a battle, read from a
//! `[[force]]` section (the section is declared by each ruleset that plays battles) or
//! written on the command line as `BUILD+BUILD+2*BUILD`.
//!
//! ```toml
//! [[force]]
//! name = "Lancer pair"
//! budget = 12                 # optional: the force's own budget (else the battle's)
//! units = [{ build = "Gladiator Lancer", count = 2 }]
//!
//! [[force]]
//! name = "Mounted troops"
//! units = [{ build = "Rhino Standard", passengers = [{ build = "ECBS Pirate AT", count = 2 }] }]
//! ```
//! Passengers ride aboard their carrier: `passengers` lists them as `units` does (each
//! copy of the carrier carries them all); on the command line they are written in
//! brackets after the carrier, `Rhino Standard[2*ECBS Pirate AT]`. Passengers are units
//! of the force and cost their own points; they carry nobody themselves.
//! Names (and whether a build may carry or ride) are resolved by the ruleset, which
//! knows its builds.

use super::error::Position;
use super::fields::{Checked, Fields};

/// Most copies of one build in a force entry.
const MAX_COUNT: u32 = 64;

/// One line of a force: `count` copies of a build or unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub build: String,
    pub count: u32,
    pub position: Option<Position>,
    /// Passengers aboard each copy (empty for most members; never nested).
    pub passengers: Vec<Member>,
}

impl Member {
    /// `count` copies of `build`, no passengers.
    pub fn new(build: impl Into<String>, count: u32) -> Member {
        Member { build: build.into(), count, position: None, passengers: Vec::new() }
    }
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
const FORCE_KEYS: &[&str] = &["name", "units", "budget"];

impl ForceSpec {
    /// Read a `[[force]]` entry; members read are kept even when the entry had errors.
    pub fn read(mut f: Fields<'_>) -> Checked<ForceSpec> {
        let name = f.string("name", true).unwrap_or_default();
        let budget = f.positive_number("budget");
        let members = f.table_list("units", |m| {
            let position = m.position();
            let build = m.string("build", true);
            let count = m.int("count", Some(1), 1, MAX_COUNT as i64) as u32;
            let passengers = m.table_list("passengers", |p| {
                let position = p.position();
                let build = p.string("build", true);
                let count = p.int("count", Some(1), 1, MAX_COUNT as i64) as u32;
                p.reject_unknown(&["build", "count"]);
                Some(Member { build: build?, count, position, passengers: Vec::new() })
            });
            m.reject_unknown(&["build", "count", "passengers"]);
            Some(Member { build: build?, count, position, passengers })
        });
        if members.is_empty() && !f.is_bad("units") {
            f.error(Some("units"), None, "a force needs at least one unit");
        }
        let position = f.entry().position;
        let file = f.entry().file.clone();
        f.finish_checked(FORCE_KEYS, ForceSpec { name, members, budget, position, file })
    }

    /// Parse a force written as builds joined by `+`, each optionally `N*NAME` (e.g.
    /// `Gladiator Lancer+2*Stingray`), a carrier optionally followed by its passengers
    /// in brackets (`Rhino Standard[2*ECBS Pirate AT+Crew]`). The force is named by the
    /// text.
    ///
    /// # Errors
    /// An empty name, a count that is not 1..=[`MAX_COUNT`], unbalanced or nested
    /// brackets, or text after a closing bracket.
    pub fn parse(text: &str) -> Result<ForceSpec, String> {
        Ok(ForceSpec {
            name: text.trim().to_string(),
            members: parse_members(text, true)?,
            budget: None,
            position: None,
            file: "command line".into(),
        })
    }

    /// Canonical text for cell keys: `N*BUILD` joined by `+`, in written order, then
    /// `@budget` when the force names one.
    /// Passengers follow their carrier in brackets: `1*Rhino[2*ECBS]`.
    pub fn canonical(&self) -> String {
        let members: Vec<String> = self.members.iter().map(canonical_member).collect();
        match self.budget {
            Some(b) => format!("{}@{b}", members.join("+")),
            None => members.join("+"),
        }
    }

    /// Total number of units, passengers included.
    pub fn size(&self) -> u32 {
        self.members.iter().map(|m| m.count * (1 + m.passengers.iter().map(|p| p.count).sum::<u32>())).sum()
    }

    /// Whether any member carries passengers.
    pub fn has_passengers(&self) -> bool {
        self.members.iter().any(|m| !m.passengers.is_empty())
    }
}

fn canonical_member(m: &Member) -> String {
    if m.passengers.is_empty() {
        return format!("{}*{}", m.count, m.build);
    }
    let inner: Vec<String> = m.passengers.iter().map(canonical_member).collect();
    format!("{}*{}[{}]", m.count, m.build, inner.join("+"))
}

/// Split `text` on `+` outside brackets.
fn split_top(text: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            '+' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        if !(0..=1).contains(&depth) {
            return Err(format!("`{text}`: passengers are written CARRIER[N*BUILD+...], one level of brackets"));
        }
    }
    if depth != 0 {
        return Err(format!("`{text}`: a `[` without its `]`"));
    }
    parts.push(&text[start..]);
    Ok(parts)
}

/// Members written as `N*NAME` joined by `+`; `carriers`: a member may have
/// `[passengers]`.
fn parse_members(text: &str, carriers: bool) -> Result<Vec<Member>, String> {
    let mut members = Vec::new();
    for part in split_top(text)? {
        let part = part.trim();
        let (head, passengers) = match part.find('[') {
            Some(open) => {
                if !carriers {
                    return Err(format!("`{text}`: passengers carry nobody (no brackets inside brackets)"));
                }
                let Some(inner) = part[open + 1..].strip_suffix(']') else {
                    return Err(format!("`{part}`: nothing may follow a carrier's `]`"));
                };
                let passengers = parse_members(inner, false)?;
                (part[..open].trim(), passengers)
            }
            None => (part, Vec::new()),
        };
        let (count, build) = match head.split_once('*') {
            Some((n, b)) => match n.trim().parse::<u32>() {
                Ok(n) if (1..=MAX_COUNT).contains(&n) => (n, b.trim()),
                _ => return Err(format!("`{head}`: a count is written N*NAME with N from 1 to {MAX_COUNT}")),
            },
            None => (1, head),
        };
        if build.is_empty() {
            return Err(format!("`{text}`: empty build name in a force (builds are joined by +)"));
        }
        members.push(Member { build: build.to_string(), count, position: None, passengers });
    }
    Ok(members)
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

    #[test]
    fn parses_passengers_in_brackets() {
        let f = ForceSpec::parse("2*Rhino[2*Troop+Crew]+Gladiator").unwrap();
        assert_eq!(f.members.len(), 2);
        let rhino = &f.members[0];
        assert_eq!((rhino.build.as_str(), rhino.count, rhino.passengers.len()), ("Rhino", 2, 2));
        assert_eq!((rhino.passengers[0].build.as_str(), rhino.passengers[0].count), ("Troop", 2));
        assert_eq!(f.size(), 2 * 4 + 1);
        assert!(f.has_passengers());
        assert_eq!(f.canonical(), "2*Rhino[2*Troop+1*Crew]+1*Gladiator");
        assert!(ForceSpec::parse("Rhino[Troop").unwrap_err().contains("without its"));
        assert!(ForceSpec::parse("Rhino[Troop]x").unwrap_err().contains("nothing may follow"));
        assert!(ForceSpec::parse("Rhino[Bus[Troop]]").unwrap_err().contains("one level"));
        assert!(ForceSpec::parse("Rhino[]").unwrap_err().contains("empty build name"));
    }
}
