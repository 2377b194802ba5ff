//! Checking files into a [`Catalogue`]: parse, read every entry, report names defined
//! twice, then resolve trooper weapons and squad members by name. An entry that refers to
//! an entry with errors gets no error of its own for it; every other error is reported,
//! all at once, sorted by file and position.

use std::collections::HashMap;
use std::path::Path;

use super::read::{self, SquadSpec, TrooperSpec};
use super::slots;
use super::{Catalogue, SECTIONS, SQUAD, Squad, TROOPER, WEAPON};
use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::fields::Fields;
use crate::catalogue::raw::{ParsedFile, RawEntry, read_csv, read_toml};
use crate::catalogue::source::{SourceFile, content_hash};
use crate::rules::kit::names;
use crate::rules::skirmishers::trooper::Trooper;
use crate::rules::skirmishers::weapon::Weapon;

fn parse(files: &[SourceFile], errors: &mut Vec<CatalogError>) -> Vec<RawEntry> {
    let mut entries = Vec::new();
    for file in files {
        let parsed = if file.name.ends_with(".csv") {
            let stem = Path::new(&file.name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
            match SECTIONS.from_csv_stem(stem) {
                Some(section) => read_csv(&file.name, section, &file.text),
                None => ParsedFile {
                    entries: Vec::new(),
                    errors: vec![CatalogError::new(
                        &file.name,
                        format!("a CSV catalogue file's name must end in {}", SECTIONS.csv_list()),
                    )],
                    unreadable: true,
                },
            }
        } else {
            read_toml(&file.name, &file.text, &SECTIONS)
        };
        entries.extend(parsed.entries);
        errors.extend(parsed.errors);
    }
    entries
}

fn error(file: &str, label: &str, field: &str, pos: Option<Position>, msg: String) -> CatalogError {
    CatalogError::new(file, msg).at(pos).entry(label).field(field)
}

/// Names defined more than once: an error of the later definition.
fn duplicates(entries: &[RawEntry], errors: &mut Vec<CatalogError>) -> Vec<(crate::catalogue::Section, String)> {
    let mut seen: HashMap<(crate::catalogue::Section, String), (String, Option<Position>)> = HashMap::new();
    let mut dup = Vec::new();
    for e in entries {
        let Some(name) = e.name() else { continue };
        let key = (e.section, name.to_ascii_lowercase());
        if let Some((file, pos)) = seen.get(&key) {
            let at = pos.map_or_else(|| file.clone(), |p| format!("{file}:{}:{}", p.line, p.column));
            let name_pos = e.fields.iter().find(|(k, _)| k == "name").and_then(|(_, f)| f.position);
            errors.push(error(
                &e.file,
                &e.label(),
                "name",
                name_pos.or(e.position),
                format!("duplicate name: {} \"{name}\" was first defined at {at}", e.section.key()),
            ));
            dup.push(key);
        } else {
            seen.insert(key, (e.file.clone(), e.position));
        }
    }
    dup
}

/// Look a name up among `good`; `Err(None)`: defined but with errors (no new error).
fn lookup<'a, T>(
    name: &str,
    good: &'a [T],
    name_of: impl Fn(&T) -> &str,
    defined: &[String],
    what: &str,
) -> Result<&'a T, Option<String>> {
    if let Some(x) = names::find(good, &name_of, name) {
        return Ok(x);
    }
    if defined.iter().any(|d| names::same(d, name)) {
        return Err(None);
    }
    Err(Some(format!("unknown {what} `{name}`{}", did_you_mean(name, defined.iter().map(String::as_str)))))
}

pub(super) fn check(
    origin: &str,
    files: &[SourceFile],
    read_errors: Vec<CatalogError>,
) -> Result<Catalogue, CatalogErrors> {
    check_counting(origin, files, read_errors).0
}

/// How many references in `files` name a weapon or trooper they do not define: more than
/// none means the files are additions to another catalogue (`volley validate FILES`).
pub(super) fn unknown_references(files: &[SourceFile]) -> usize {
    check_counting("", files, Vec::new()).1
}

/// [`check`], and the number of references to names no entry defines.
fn check_counting(
    origin: &str,
    files: &[SourceFile],
    read_errors: Vec<CatalogError>,
) -> (Result<Catalogue, CatalogErrors>, usize) {
    let mut unknown = 0usize;
    let mut errors = read_errors;
    let entries = parse(files, &mut errors);
    let mut weapons: Vec<Weapon> = Vec::new();
    let mut troopers: Vec<TrooperSpec> = Vec::new();
    let mut squads: Vec<SquadSpec> = Vec::new();
    for entry in &entries {
        let f = Fields::new(entry, &mut errors);
        match entry.section {
            WEAPON => weapons.extend(read::weapon(f)),
            TROOPER => troopers.push(read::trooper(f)),
            SQUAD => squads.push(read::squad(f)),
            _ => unreachable!("the reader yields only the sections it was given"),
        }
    }
    let dup = duplicates(&entries, &mut errors);
    let defined = |section| -> Vec<String> {
        entries.iter().filter(|e| e.section == section).filter_map(|e| e.name().map(str::to_string)).collect()
    };
    let is_dup = |section, name: &str| dup.contains(&(section, name.to_ascii_lowercase()));
    weapons.retain(|w| !is_dup(WEAPON, &w.name));
    let weapon_names = defined(WEAPON);

    let mut good_troopers: Vec<Trooper> = Vec::new();
    for t in &troopers {
        let mut ok = t.ok && !is_dup(TROOPER, &t.name);
        let mut find =
            |name: &str, field: &str, pos: Option<Position>, errors: &mut Vec<CatalogError>| -> Option<Weapon> {
                match lookup(name, &weapons, |w| &w.name, &weapon_names, "weapon") {
                    Ok(w) => Some(w.clone()),
                    Err(msg) => {
                        ok = false;
                        if let Some(m) = msg {
                            unknown += 1;
                            errors.push(error(&t.file, &t.label, field, pos.or(t.position), m));
                        }
                        None
                    }
                }
            };
        let primaries: Vec<Weapon> = t
            .primaries
            .iter()
            .enumerate()
            .filter_map(|(i, (n, pos))| {
                let field = if t.primaries.len() > 1 { format!("primary[{i}]") } else { "primary".to_string() };
                find(n, &field, *pos, &mut errors)
            })
            .collect();
        let secondary = t.secondary.as_ref().and_then(|(n, pos)| find(n, "secondary", *pos, &mut errors));
        let grenade = if t.grenades > 0 { find(&t.grenade.0, "grenade", t.grenade.1, &mut errors) } else { None };
        // Ruling WEAPON_SLOTS: which weapon each slot takes (module `slots`); checked only
        // when every weapon named was found, so field indices match.
        if primaries.len() == t.primaries.len() {
            for (i, w) in primaries.iter().enumerate() {
                if let Some(m) = slots::primary_refusal(t.track, w, &t.name) {
                    ok = false;
                    let field = if primaries.len() > 1 { format!("primary[{i}]") } else { "primary".to_string() };
                    errors.push(error(&t.file, &t.label, &field, t.primaries[i].1.or(t.position), m));
                }
            }
        }
        if let (Some(w), Some((_, pos))) = (&secondary, &t.secondary)
            && let Some(m) = slots::secondary_refusal(t.track, primaries.first(), w, &t.name)
        {
            ok = false;
            errors.push(error(&t.file, &t.label, "secondary", pos.or(t.position), m));
        }
        if !ok {
            continue;
        }
        let printed: u32 = primaries.iter().chain(secondary.iter()).map(|w| w.pv).sum::<u32>()
            + grenade.as_ref().map_or(0, |g| g.pv * t.grenades / g.ammo.unwrap_or(1).max(1));
        good_troopers.push(Trooper {
            name: t.name.clone(),
            track: t.track,
            experience: t.experience,
            armour: t.armour,
            primaries,
            secondary,
            grenades: t.grenades,
            grenade,
            sneak_suit: t.sneak_suit,
            pv: t.pv.unwrap_or(printed),
        });
    }
    let trooper_names = defined(TROOPER);
    let mut good_squads = Vec::new();
    for s in &squads {
        let mut ok = s.ok && !is_dup(SQUAD, &s.name);
        let mut members = Vec::new();
        for (i, (n, count, pos)) in s.members.iter().enumerate() {
            match lookup(n, &good_troopers, |t| &t.name, &trooper_names, "trooper") {
                Ok(t) => {
                    let idx = good_troopers.iter().position(|x| x.name == t.name).expect("found");
                    members.push((idx, *count));
                }
                Err(msg) => {
                    ok = false;
                    if let Some(m) = msg {
                        unknown += 1;
                        errors.push(error(&s.file, &s.label, &format!("members[{i}].trooper"), pos.or(s.position), m));
                    }
                }
            }
        }
        if ok {
            let pv = members.iter().map(|(i, n)| good_troopers[*i].pv * n).sum();
            good_squads.push(Squad { name: s.name.clone(), members, pv });
        }
    }
    if !errors.is_empty() {
        errors.sort_by(|a, b| (a.file.as_str(), a.position).cmp(&(b.file.as_str(), b.position)));
        return (Err(CatalogErrors(errors)), unknown);
    }
    let cat = Catalogue {
        weapons,
        troopers: good_troopers,
        squads: good_squads,
        origin: origin.to_string(),
        hash: content_hash(files),
    };
    (Ok(cat), unknown)
}
