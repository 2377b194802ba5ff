//! Checking catalogue files into a [`Catalogue`]: parse, read every entry, find names
//! defined twice, then resolve references, reporting every independent error once.

use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use super::build::BuildSpec;
use super::classes::msv_class;
use super::field::FieldSpec;
use super::gear::Gear;
use super::unit::{Unit, UnitKind};
use super::validated::{Build, Catalogue, Field, SystemRef};
use super::weapon::Weapon;
use super::{BUILD, FIELD, FORCE, GEAR, SECTIONS, UNIT, WEAPON};
use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::fields::{Checked, Fields};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::{ParsedFile, RawEntry, Section, read_csv, read_toml};
use crate::catalogue::source::{self, SourceFile};

/// Tolerance for weight and power sums (they may be decimals).
const WEIGHT_EPSILON: f64 = 1e-9;

/// What checking a set of files gave.
pub(super) struct Outcome {
    pub(super) result: Result<Catalogue, CatalogErrors>,
    /// References to names no file defines (and no unreadable file may define).
    pub(super) unknown_references: usize,
}

/// Parse, read, check and resolve `files`; `read_errors` are problems met reading paths
/// (a path that could not be read may define any name, so no name is reported unknown).
pub(super) fn check(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Outcome {
    let anything_unreadable = !read_errors.is_empty();
    let mut errors = read_errors;
    let mut entries: Vec<RawEntry> = Vec::new();
    let mut unreadable: Vec<&str> = Vec::new();
    for file in files {
        let parsed = if file.name.ends_with(".csv") {
            let stem = Path::new(&file.name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
            match SECTIONS.from_csv_stem(stem) {
                Some(section) => read_csv(&file.name, section, &file.text),
                None => ParsedFile {
                    entries: Vec::new(),
                    errors: vec![CatalogError::new(
                        &file.name,
                        "a CSV catalogue file's name must end in `weapons`, `units` or `gear` (e.g. homebrew-weapons.csv)",
                    )],
                    unreadable: true,
                },
            }
        } else {
            read_toml(&file.name, &file.text, &SECTIONS)
        };
        let ParsedFile { entries: mut e, errors: mut errs, unreadable: broken } = parsed;
        entries.append(&mut e);
        errors.append(&mut errs);
        if broken {
            unreadable.push(&file.text);
        }
    }
    let mut failed = Failed { names: HashSet::new(), unreadable, anything_unreadable };
    let mut weapons = Vec::new();
    let mut units: Vec<Checked<Unit>> = Vec::new();
    let mut gear = Vec::new();
    let mut builds: Vec<Checked<BuildSpec>> = Vec::new();
    let mut fields: Vec<Checked<FieldSpec>> = Vec::new();
    let mut forces: Vec<Checked<ForceSpec>> = Vec::new();
    for entry in &entries {
        let f = Fields::new(entry, &mut errors);
        let ok = match entry.section {
            WEAPON => Weapon::read(f).map(|w| weapons.push(w)).is_some(),
            GEAR => Gear::read(f).map(|g| gear.push(g)).is_some(),
            UNIT => {
                units.push(Unit::read(f));
                true
            }
            BUILD => {
                builds.push(BuildSpec::read(f));
                true
            }
            FIELD => {
                fields.push(FieldSpec::read(f));
                true
            }
            FORCE => {
                forces.push(ForceSpec::read(f));
                true
            }
            _ => unreachable!("the reader yields only the sections it was given"),
        };
        if !ok && let Some(name) = entry.name() {
            failed.insert(entry.section, name);
        }
    }
    let mut names = NameChecker::default();
    for e in &entries {
        names.check(e, &mut errors, &mut failed);
    }
    let mut resolver =
        Resolver { weapons: &weapons, units: &units, unit_ok: Vec::new(), gear: &gear, failed, unknown: Cell::new(0) };
    let unit_ok: Vec<bool> = units.iter().map(|u| resolver.unit_card(u, &mut errors)).collect();
    for (u, ok) in units.iter().zip(&unit_ok) {
        if !ok {
            resolver.failed.insert(UNIT, &u.value.name);
        }
    }
    resolver.unit_ok = unit_ok;
    let mut resolved_builds = Vec::new();
    for b in &builds {
        match resolver.build(b, &mut errors) {
            Some(build) => resolved_builds.push(build),
            None => resolver.failed.insert(BUILD, &b.value.name),
        }
    }
    let mut resolved_fields = Vec::new();
    for checked in &fields {
        let f = &checked.value;
        let mut opponents = Vec::new();
        for (i, o) in f.opponents.iter().enumerate() {
            let index = resolved_builds.iter().position(|b: &Build| b.name == o.build);
            match resolver.lookup(BUILD, &o.build, index, builds.iter().map(|b| b.value.name.as_str())) {
                Lookup::Found(i) => opponents.push((i, o.weight)),
                Lookup::Failed => {}
                Lookup::Unknown(msg) => errors.push(
                    CatalogError::new(&f.file, msg)
                        .at(o.position)
                        .entry(format!("field \"{}\"", f.name))
                        .field(format!("opponents[{i}].build")),
                ),
            }
        }
        resolved_fields.push(Field { name: f.name.clone(), opponents });
    }
    for checked in &forces {
        let f = &checked.value;
        for (i, m) in f.members.iter().enumerate() {
            let index = resolved_builds.iter().position(|b: &Build| b.name == m.build);
            if let Lookup::Unknown(msg) =
                resolver.lookup(BUILD, &m.build, index, builds.iter().map(|b| b.value.name.as_str()))
            {
                errors.push(
                    CatalogError::new(&f.file, msg)
                        .at(m.position)
                        .entry(format!("force \"{}\"", f.name))
                        .field(format!("units[{i}].build")),
                );
            }
            let kind_of = |index: Option<usize>| index.map(|b| units[resolved_builds[b].unit].value.kind);
            let carrier = kind_of(index);
            if let Some(kind) = carrier.filter(|k| !m.passengers.is_empty() && !k.carries()) {
                errors.push(
                    CatalogError::new(
                        &f.file,
                        format!("`{}` is a {kind}: only an MSV or a vehicle carries passengers", m.build),
                    )
                    .at(m.position)
                    .entry(format!("force \"{}\"", f.name))
                    .field(format!("units[{i}].passengers")),
                );
            }
            for (j, p) in m.passengers.iter().enumerate() {
                let index = resolved_builds.iter().position(|b: &Build| b.name == p.build);
                let field = format!("units[{i}].passengers[{j}].build");
                match resolver.lookup(BUILD, &p.build, index, builds.iter().map(|b| b.value.name.as_str())) {
                    Lookup::Unknown(msg) => errors.push(
                        CatalogError::new(&f.file, msg)
                            .at(p.position)
                            .entry(format!("force \"{}\"", f.name))
                            .field(field),
                    ),
                    _ => {
                        if let Some(kind) = kind_of(index).filter(|k| !k.rides()) {
                            errors.push(
                                CatalogError::new(
                                    &f.file,
                                    format!("`{}` is a {kind}: only troops and crew ride aboard a carrier", p.build),
                                )
                                .at(p.position)
                                .entry(format!("force \"{}\"", f.name))
                                .field(field),
                            );
                        }
                    }
                }
            }
        }
    }
    let unknown_references = resolver.unknown.get();
    if !errors.is_empty() {
        errors.sort_by(|a, b| (a.file.as_str(), a.position).cmp(&(b.file.as_str(), b.position)));
        errors.dedup();
        return Outcome { result: Err(CatalogErrors(errors)), unknown_references };
    }
    let catalogue = Catalogue {
        weapons,
        units: units.into_iter().map(|u| u.value).collect(),
        gear,
        builds: resolved_builds,
        fields: resolved_fields,
        forces: forces.into_iter().map(|f| f.value).collect(),
        origin: origin.to_string(),
        hash: source::content_hash(files),
    };
    Outcome { result: Ok(catalogue), unknown_references }
}

/// Names whose entries failed (errors of their own, defined twice, or referring to a
/// failed entry): references to them are not checked further and get no error.
struct Failed<'a> {
    names: HashSet<(Section, String)>,
    /// Texts of files that could not be read: a name found in one may be defined there.
    unreadable: Vec<&'a str>,
    /// A path could not be read at all: any name may be defined there.
    anything_unreadable: bool,
}

impl Failed<'_> {
    fn insert(&mut self, section: Section, name: &str) {
        self.names.insert((section, name.to_string()));
    }
    fn contains(&self, section: Section, name: &str) -> bool {
        self.anything_unreadable
            || self.names.contains(&(section, name.to_string()))
            || self.unreadable.iter().any(|text| text.contains(name))
    }
}

/// Finds names defined twice within a section; the later definition is the error.
#[derive(Default)]
struct NameChecker {
    seen: HashMap<(Section, String), (String, Option<Position>)>,
}

impl NameChecker {
    fn check(&mut self, e: &RawEntry, errors: &mut Vec<CatalogError>, failed: &mut Failed<'_>) {
        let Some(name) = e.name() else { return };
        let key = (e.section, name.to_string());
        if let Some((file, pos)) = self.seen.get(&key) {
            let at = pos.map(|p| format!("{file}:{}:{}", p.line, p.column)).unwrap_or_else(|| file.clone());
            let name_position = e.fields.iter().find(|(k, _)| k == "name").and_then(|(_, f)| f.position);
            errors.push(
                CatalogError::new(
                    &e.file,
                    format!("duplicate name: {} \"{name}\" was first defined at {at}", e.section.key()),
                )
                .at(name_position.or(e.position))
                .entry(e.label())
                .field("name"),
            );
            failed.insert(e.section, name);
        } else {
            self.seen.insert(key, (e.file.clone(), e.position));
        }
    }
}

/// What a referenced name is.
enum Lookup {
    /// An entry that is fine, at this index.
    Found(usize),
    /// An entry with errors of its own: nothing more to say about the reference.
    Failed,
    /// No such entry: the message says so (with a suggestion).
    Unknown(String),
}

struct Resolver<'a> {
    weapons: &'a [Weapon],
    units: &'a [Checked<Unit>],
    /// Whether each unit's card is fine (read and checked).
    unit_ok: Vec<bool>,
    gear: &'a [Gear],
    failed: Failed<'a>,
    /// How many references named nothing.
    unknown: Cell<usize>,
}

impl Resolver<'_> {
    /// Look `name` up among `section`'s entries: `index` is where it was found among the
    /// entries that are fine; `candidates` are every name of the section, for suggestions.
    fn lookup<'c>(
        &self,
        section: Section,
        name: &str,
        index: Option<usize>,
        candidates: impl IntoIterator<Item = &'c str>,
    ) -> Lookup {
        if self.failed.contains(section, name) {
            return Lookup::Failed;
        }
        match index {
            Some(i) => Lookup::Found(i),
            None => {
                self.unknown.set(self.unknown.get() + 1);
                Lookup::Unknown(format!("unknown {} `{name}`{}", section.key(), did_you_mean(name, candidates)))
            }
        }
    }
    fn weapon(&self, name: &str) -> Lookup {
        let index = self.weapons.iter().position(|w| w.name == name);
        self.lookup(WEAPON, name, index, self.weapons.iter().map(|w| w.name.as_str()))
    }
    fn gear_item(&self, name: &str) -> Lookup {
        let index = self.gear.iter().position(|g| g.name == name);
        self.lookup(GEAR, name, index, self.gear.iter().map(|g| g.name.as_str()))
    }
    fn unit(&self, name: &str) -> Lookup {
        let index = self.units.iter().position(|u| u.value.name == name);
        match self.lookup(UNIT, name, index, self.units.iter().map(|u| u.value.name.as_str())) {
            Lookup::Found(i) if !self.unit_ok[i] => Lookup::Failed,
            other => other,
        }
    }

    /// Resolve a build. Every name it uses is checked, even when the entry has other
    /// errors; the checks that need its unit, weapons and gear (limits, weights) run when
    /// all of those are fine. `None` when the build has errors or uses a failed entry.
    fn build(&self, checked: &Checked<BuildSpec>, errors: &mut Vec<CatalogError>) -> Option<Build> {
        let b = &checked.value;
        let label = format!("build \"{}\"", b.name);
        let mut failed = !checked.ok;
        // Uses an entry that failed: the checks that need it are skipped.
        let mut incomplete = false;
        let mut err = |msg: String, field: &str, pos: Option<Position>| {
            failed = true;
            errors.push(CatalogError::new(&b.file, msg).at(pos.or(b.position)).entry(label.clone()).field(field));
        };
        let unit_index = if checked.is_bad("unit") {
            None
        } else {
            match self.unit(&b.unit) {
                Lookup::Found(i) => Some(i),
                Lookup::Failed => None,
                Lookup::Unknown(msg) => {
                    err(msg, "unit", b.unit_position);
                    None
                }
            }
        };
        incomplete |= unit_index.is_none();
        let unit = unit_index.map(|i| &self.units[i].value);
        if let Some(unit) = unit
            && unit.kind == UnitKind::Terrain
        {
            err(format!("unit `{}` is terrain: terrain cannot carry a build", unit.name), "unit", b.unit_position);
        }
        let mut systems = Vec::new();
        if let Some(unit) = unit {
            // The card is fine: its standard weapons resolve and were checked with it.
            for r in &unit.standard_weapons {
                if let Some(w) = self.weapons.iter().position(|w| w.name == r.name) {
                    for copies in linked_groups(r.count, self.weapons[w].linkable, unit.kind) {
                        systems.push(SystemRef { weapon: w, copies, standard: true });
                    }
                }
            }
        }
        for (i, r) in b.weapons.iter().enumerate() {
            let fname = format!("weapons[{i}]");
            match self.weapon(&r.name) {
                Lookup::Found(w) => {
                    let weapon = &self.weapons[w];
                    if let Some(s) = systems.iter().find(|s| s.weapon == w) {
                        let msg = if s.standard {
                            format!("`{}` is already a standard weapon of the unit", r.name)
                        } else {
                            format!(
                                "`{}` is listed twice: all copies of one weapon form one linked system, give them as one entry with a count",
                                r.name
                            )
                        };
                        err(msg, &fname, r.position);
                    } else {
                        // Copies beyond the link limit are systems of their own.
                        let kind = unit.map_or(UnitKind::Vehicle, |u| u.kind);
                        for copies in linked_groups(r.count, weapon.linkable, kind) {
                            systems.push(SystemRef { weapon: w, copies, standard: false });
                        }
                    }
                }
                Lookup::Failed => incomplete = true,
                Lookup::Unknown(msg) => err(msg, &format!("{fname}.name"), r.position),
            }
        }
        let mut gear = Vec::new();
        if let Some(unit) = unit {
            for (g, _) in &unit.standard_gear {
                if let Some(idx) = self.gear.iter().position(|x| &x.name == g) {
                    gear.push(idx);
                }
            }
        }
        let standard_gear = gear.len();
        let infiltrates = |idx: usize| self.gear[idx].infiltration && unit.is_some_and(|u| !u.kind.rides());
        for (i, (g, pos)) in b.gear.iter().enumerate() {
            match self.gear_item(g) {
                Lookup::Found(idx) if infiltrates(idx) => {
                    err(infiltration_refused(g, unit.map(|u| u.kind)), &format!("gear[{i}]"), *pos);
                }
                Lookup::Found(idx) => gear.push(idx),
                Lookup::Failed => incomplete = true,
                Lookup::Unknown(msg) => err(msg, &format!("gear[{i}]"), *pos),
            }
        }
        incomplete |= checked.is_bad("weapons") || checked.is_bad("gear");
        let unit = unit?;
        if b.weapons.is_empty() && systems.is_empty() && !checked.is_bad("weapons") {
            err("a build needs at least one weapon".into(), "weapons", b.position);
        }
        if incomplete {
            return None;
        }
        let swappable_weight: f64 = systems
            .iter()
            .filter(|s| !s.standard)
            .map(|s| self.weapons[s.weapon].weight * s.copies as f64)
            .sum::<f64>()
            + gear[standard_gear..].iter().map(|&g| self.gear[g].weight).sum::<f64>();
        let swappable_power: f64 =
            systems.iter().filter(|s| !s.standard).map(|s| self.weapons[s.weapon].power * s.copies as f64).sum::<f64>()
                + gear[standard_gear..].iter().map(|&g| self.gear[g].power).sum::<f64>();
        for (what, used, limit) in
            [("weight", swappable_weight, unit.free_weight), ("power", swappable_power, unit.free_power)]
        {
            if let Some(limit) = limit
                && used > limit + WEIGHT_EPSILON
            {
                err(
                    format!(
                        "over the free {what} of unit `{}` by {}: weapons and gear use {}, the unit has {}",
                        unit.name,
                        fmt_num(used - limit),
                        fmt_num(used),
                        fmt_num(limit)
                    ),
                    if what == "weight" { "weapons" } else { "gear" },
                    b.position,
                );
            }
        }
        if unit.kind == UnitKind::Msv
            && let Some(class) = msv_class(unit.ac)
        {
            let total_weight: f64 =
                systems.iter().map(|s| self.weapons[s.weapon].weight * s.copies as f64).sum::<f64>()
                    + gear.iter().map(|&g| self.gear[g].weight).sum::<f64>();
            let total_power: f64 = systems.iter().map(|s| self.weapons[s.weapon].power * s.copies as f64).sum::<f64>()
                + gear.iter().map(|&g| self.gear[g].power).sum::<f64>();
            for (what, used, limit) in
                [("gear weight", total_weight, class.gear_weight), ("power", total_power, class.power)]
            {
                if used > limit + WEIGHT_EPSILON {
                    err(
                        format!(
                            "breaks the {} MSV class limit (AC{}): {what} {} is over the class's {} by {}",
                            class.name,
                            class.ac,
                            fmt_num(used),
                            fmt_num(limit),
                            fmt_num(used - limit)
                        ),
                        "weapons",
                        b.position,
                    );
                }
            }
        }
        if failed {
            return None;
        }
        Some(Build {
            name: b.name.clone(),
            unit: unit_index?,
            systems,
            gear,
            points: b.points.unwrap_or(unit.points),
            weight: swappable_weight,
            power: swappable_power,
        })
    }

    /// Checks on a unit card alone: MSV class and standard equipment names.
    /// Each check runs when the fields it needs were read. True when the card is fine
    /// (read without error, checked without error, no standard equipment that failed).
    fn unit_card(&self, checked: &Checked<Unit>, errors: &mut Vec<CatalogError>) -> bool {
        let u = &checked.value;
        let bad = |key: &str| checked.is_bad(key);
        let label = format!("unit \"{}\"", u.name);
        let mut ok = checked.ok;
        // Standard equipment that failed on its own: the card cannot be used either.
        let mut uses_failed = false;
        let mut err = |msg: String, field: &str, position: Option<Position>| {
            ok = false;
            errors.push(CatalogError::new(&u.file, msg).at(position.or(u.position)).entry(label.clone()).field(field));
        };
        let msv = !bad("kind") && u.kind == UnitKind::Msv;
        if msv && !bad("ac") {
            match msv_class(u.ac) {
                None => err(
                    format!(
                        "an MSV's AC must be a class in the MSV classes table (3 to 6; 2 under the 2nd edition), got {}",
                        u.ac
                    ),
                    "ac",
                    None,
                ),
                Some(class) => {
                    for (key, value, limit) in
                        [("free_weight", u.free_weight, class.gear_weight), ("free_power", u.free_power, class.power)]
                    {
                        if let Some(v) = value
                            && !bad(key)
                            && v > limit + WEIGHT_EPSILON
                        {
                            err(
                                format!(
                                    "{} is over the {} MSV class limit of {} (AC{})",
                                    fmt_num(v),
                                    class.name,
                                    fmt_num(limit),
                                    class.ac
                                ),
                                key,
                                None,
                            );
                        }
                    }
                }
            }
        }
        if msv && !bad("power_armor") && u.power_armor {
            err("power armour is ECBS troop gear; an MSV cannot have it".into(), "power_armor", None);
        }
        let mut seen: Vec<&str> = Vec::new();
        for (i, r) in u.standard_weapons.iter().enumerate() {
            match self.weapon(&r.name) {
                // Copies beyond the link limit are systems of their own ([`linked_groups`]).
                Lookup::Found(_) => {}
                Lookup::Failed => uses_failed = true,
                Lookup::Unknown(msg) => err(msg, &format!("standard_weapons[{i}].name"), r.position),
            }
            if seen.contains(&r.name.as_str()) {
                err(format!("`{}` is listed twice", r.name), &format!("standard_weapons[{i}]"), r.position);
            }
            seen.push(&r.name);
        }
        for (i, (g, pos)) in u.standard_gear.iter().enumerate() {
            match self.gear_item(g) {
                Lookup::Found(idx) if self.gear[idx].infiltration && !u.kind.rides() => {
                    err(infiltration_refused(g, Some(u.kind)), &format!("standard_gear[{i}]"), *pos);
                }
                Lookup::Found(_) => {}
                Lookup::Failed => uses_failed = true,
                Lookup::Unknown(msg) => err(msg, &format!("standard_gear[{i}]"), *pos),
            }
        }
        ok && !uses_failed && !bad("standard_weapons") && !bad("standard_gear")
    }
}

/// How `count` copies of a weapon of link limit `linkable` carried by a unit of `kind`
/// form weapon systems, in order: one system of every copy on a vehicle (auto-stabilized:
/// "not bound by the link limit"), else as many full linked groups of `linkable` copies
/// as fit, then one of the rest. The books limit how many copies fire together ("may be
/// fired together, up to the linkable maximum"), not how many are carried, and Omega
/// Override's "ignore linkable limits" presumes extras; each group is its own system
/// (once per turn, an MSV's second attack may use another group).
pub(crate) fn linked_groups(count: u32, linkable: u32, kind: UnitKind) -> Vec<u32> {
    let linkable = linkable.max(1);
    if kind == UnitKind::Vehicle || count <= linkable {
        return vec![count];
    }
    let mut groups = vec![linkable; (count / linkable) as usize];
    if count % linkable != 0 {
        groups.push(count % linkable);
    }
    groups
}

/// A weight or power for messages: integers without decimals.
fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{:.2}", v).trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The error of infiltration gear (§2.4 "infiltrate": troop and crew only) on a unit of
/// another kind.
fn infiltration_refused(gear: &str, kind: Option<UnitKind>) -> String {
    let kind = kind.map_or_else(String::new, |k| format!(" (a {k})"));
    format!("gear `{gear}` is an infiltration system: only a troop or crew unit infiltrates, not this unit{kind}")
}
