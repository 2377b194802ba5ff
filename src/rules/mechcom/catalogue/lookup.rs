//! Name bookkeeping for one checking pass: names defined twice, names whose entries
//! failed, and looking a reference up so that each problem is reported once.
//!
//! (Generic over sections; written here because `crate::catalogue` has no such helper
//! yet.)

use std::cell::Cell;
use std::collections::{HashMap, HashSet};

use crate::catalogue::error::{CatalogError, Position, did_you_mean};
use crate::catalogue::raw::{RawEntry, Section};

/// What a referenced name is.
pub(super) enum Lookup {
    /// An entry that is fine, at this index.
    Found(usize),
    /// An entry with errors of its own (or defined twice, or maybe in an unreadable
    /// file): nothing more to say about the reference.
    Failed,
    /// No such entry: the message says so, with a suggestion.
    Unknown(String),
}

/// Names whose entries failed, and what could not be read.
pub(super) struct Names<'a> {
    failed: HashSet<(Section, String)>,
    /// Texts of files that could not be parsed: a name found in one may be defined there.
    unreadable: Vec<&'a str>,
    /// A path could not be read at all: any name may be defined there.
    anything_unreadable: bool,
    /// How many references named nothing.
    pub(super) unknown: Cell<usize>,
}

impl<'a> Names<'a> {
    pub(super) fn new(unreadable: Vec<&'a str>, anything_unreadable: bool) -> Self {
        Names { failed: HashSet::new(), unreadable, anything_unreadable, unknown: Cell::new(0) }
    }

    pub(super) fn fail(&mut self, section: Section, name: &str) {
        self.failed.insert((section, name.to_string()));
    }

    pub(super) fn failed(&self, section: Section, name: &str) -> bool {
        self.anything_unreadable
            || self.failed.contains(&(section, name.to_string()))
            || self.unreadable.iter().any(|text| text.contains(name))
    }

    /// Look `name` up among `section`'s entries: `found` is its index among the entries
    /// that are fine; `candidates` are every name of the section, for suggestions.
    pub(super) fn lookup<'c>(
        &self,
        section: Section,
        name: &str,
        found: Option<usize>,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> Lookup {
        if self.failed(section, name) {
            return Lookup::Failed;
        }
        match found {
            Some(i) => Lookup::Found(i),
            None => {
                self.unknown.set(self.unknown.get() + 1);
                Lookup::Unknown(format!("unknown {} `{name}`{}", section.key(), did_you_mean(name, candidates)))
            }
        }
    }

    /// Report every name defined twice in a section: the later definition is the error
    /// (at its `name` value), pointing at the first; the name counts as failed.
    pub(super) fn duplicates(&mut self, entries: &[RawEntry], errors: &mut Vec<CatalogError>) {
        let mut seen: HashMap<(Section, &str), (&str, Option<Position>)> = HashMap::new();
        for e in entries {
            let Some(name) = e.name() else { continue };
            match seen.get(&(e.section, name)) {
                Some(&(file, pos)) => {
                    let at = pos.map_or_else(|| file.to_string(), |p| format!("{file}:{}:{}", p.line, p.column));
                    let name_pos = e.fields.iter().find(|(k, _)| k == "name").and_then(|(_, f)| f.position);
                    errors.push(
                        CatalogError::new(
                            &e.file,
                            format!("duplicate name: {} \"{name}\" was first defined at {at}", e.section.key()),
                        )
                        .at(name_pos.or(e.position))
                        .entry(e.label())
                        .field("name"),
                    );
                    self.fail(e.section, name);
                }
                None => {
                    seen.insert((e.section, name), (&e.file, e.position));
                }
            }
        }
    }
}
