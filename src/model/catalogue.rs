//! The validated catalogue: every name resolved, every build inside its limits.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::build::BuildSpec;
use super::classes::msv_class;
use super::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use super::field::FieldSpec;
use super::fields::Fields;
use super::gear::{Effects, Gear};
use super::raw::{RawEntry, Section, parse_csv, parse_toml};
use super::source::{self, SourceFile};
use super::unit::{Unit, UnitKind, WeaponRef};
use super::weapon::Weapon;

/// Tolerance for weight and power sums (they may be decimals).
const WEIGHT_EPSILON: f64 = 1e-9;

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
    /// What was loaded, for messages ("embedded default catalogue", a path).
    pub origin: String,
    /// [`source::content_hash`] of the files.
    pub hash: String,
}

impl Catalogue {
    /// The default catalogue built into the binary.
    pub fn embedded() -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_sources("embedded default catalogue", &source::embedded())
    }

    /// Load every `.toml`/`.csv` file under the given files or directories.
    pub fn load(paths: &[PathBuf]) -> Result<Catalogue, CatalogErrors> {
        let files = source::read_paths(paths).map_err(CatalogErrors)?;
        let origin = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        Catalogue::from_sources(&origin, &files)
    }

    /// Load a directory.
    pub fn load_dir(dir: &Path) -> Result<Catalogue, CatalogErrors> {
        Catalogue::load(&[dir.to_path_buf()])
    }

    /// Parse, check and resolve catalogue files. Reports every error found.
    pub fn from_sources(origin: &str, files: &[SourceFile]) -> Result<Catalogue, CatalogErrors> {
        let mut errors = Vec::new();
        let mut entries: Vec<RawEntry> = Vec::new();
        for file in files {
            let parsed = if file.name.ends_with(".csv") {
                let stem = Path::new(&file.name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
                match Section::from_csv_stem(stem) {
                    Some(section) => parse_csv(&file.name, section, &file.text),
                    None => Err(vec![CatalogError::new(
                        &file.name,
                        "a CSV catalogue file's name must end in `weapons`, `units` or `gear` (e.g. homebrew-weapons.csv)",
                    )]),
                }
            } else {
                parse_toml(&file.name, &file.text)
            };
            match parsed {
                Ok(mut e) => entries.append(&mut e),
                Err(mut e) => errors.append(&mut e),
            }
        }
        let mut weapons = Vec::new();
        let mut units = Vec::new();
        let mut gear = Vec::new();
        let mut builds = Vec::new();
        let mut fields = Vec::new();
        for entry in &entries {
            let f = Fields::new(entry, &mut errors);
            match entry.section {
                Section::Weapon => weapons.extend(Weapon::read(f)),
                Section::Unit => units.extend(Unit::read(f)),
                Section::Gear => gear.extend(Gear::read(f)),
                Section::Build => builds.extend(BuildSpec::read(f)),
                Section::Field => fields.extend(FieldSpec::read(f)),
                Section::Scenario => unreachable!("catalogue files hold no scenario sections"),
            }
        }
        let mut names = NameChecker::default();
        for e in &entries {
            names.check(e, &mut errors);
        }
        let resolver = Resolver { weapons: &weapons, units: &units, gear: &gear };
        let mut resolved_builds = Vec::new();
        for b in &builds {
            if let Some(build) = resolver.build(b, &mut errors) {
                resolved_builds.push(build);
            }
        }
        for u in &units {
            resolver.unit_card(u, &mut errors);
        }
        let build_names: Vec<&str> = resolved_builds.iter().map(|b: &Build| b.name.as_str()).collect();
        let mut resolved_fields = Vec::new();
        for f in &fields {
            let mut opponents = Vec::new();
            for o in &f.opponents {
                match build_names.iter().position(|n| *n == o.build) {
                    Some(i) => opponents.push((i, o.weight)),
                    None => errors.push(
                        CatalogError::new(
                            &f.file,
                            format!(
                                "unknown build `{}`{}",
                                o.build,
                                did_you_mean(&o.build, builds.iter().map(|b| b.name.as_str()))
                            ),
                        )
                        .at(o.position)
                        .entry(format!("field \"{}\"", f.name))
                        .field("opponents"),
                    ),
                }
            }
            resolved_fields.push(Field { name: f.name.clone(), opponents });
        }
        if !errors.is_empty() {
            errors.sort_by(|a, b| (a.file.as_str(), a.position).cmp(&(b.file.as_str(), b.position)));
            errors.dedup();
            return Err(CatalogErrors(errors));
        }
        Ok(Catalogue {
            weapons,
            units,
            gear,
            builds: resolved_builds,
            fields: resolved_fields,
            origin: origin.to_string(),
            hash: source::content_hash(files),
        })
    }

    pub fn weapon(&self, name: &str) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.name == name)
    }
    pub fn unit(&self, name: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.name == name)
    }
    pub fn build(&self, name: &str) -> Option<&Build> {
        self.builds.iter().find(|b| b.name == name)
    }
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// The unit a build is made from.
    pub fn unit_of(&self, build: &Build) -> &Unit {
        &self.units[build.unit]
    }
    /// A build's unit effects combined with all its gear.
    pub fn effects_of(&self, build: &Build) -> Effects {
        build.gear.iter().fold(self.unit_of(build).effects, |acc, &g| acc.combine(self.gear[g].effects))
    }

    /// Look up a build by name; the error suggests the closest name.
    pub fn find_build(&self, name: &str) -> Result<&Build, String> {
        self.build(name).ok_or_else(|| {
            format!(
                "no build named `{name}` in the {}{}",
                self.origin,
                did_you_mean(name, self.builds.iter().map(|b| b.name.as_str()))
            )
        })
    }
    /// Look up a unit by name; the error suggests the closest name.
    pub fn find_unit(&self, name: &str) -> Result<&Unit, String> {
        self.unit(name).ok_or_else(|| {
            format!(
                "no unit named `{name}` in the {}{}",
                self.origin,
                did_you_mean(name, self.units.iter().map(|u| u.name.as_str()))
            )
        })
    }
}

/// Finds duplicate names within a section.
#[derive(Default)]
struct NameChecker {
    seen: HashMap<(Section, String), (String, Option<Position>)>,
}

impl NameChecker {
    fn check(&mut self, e: &RawEntry, errors: &mut Vec<CatalogError>) {
        let Some(name) = e.name() else { return };
        let key = (e.section, name.to_string());
        if let Some((file, pos)) = self.seen.get(&key) {
            let at = pos.map(|p| format!("{file}:{}:{}", p.line, p.column)).unwrap_or_else(|| file.clone());
            errors.push(
                CatalogError::new(
                    &e.file,
                    format!("duplicate name: {} \"{name}\" is already defined at {at}", e.section.key()),
                )
                .at(e.position)
                .entry(e.label())
                .field("name"),
            );
        } else {
            self.seen.insert(key, (e.file.clone(), e.position));
        }
    }
}

struct Resolver<'a> {
    weapons: &'a [Weapon],
    units: &'a [Unit],
    gear: &'a [Gear],
}

impl Resolver<'_> {
    fn weapon_index(&self, name: &str) -> Result<usize, String> {
        self.weapons.iter().position(|w| w.name == name).ok_or_else(|| {
            format!("unknown weapon `{name}`{}", did_you_mean(name, self.weapons.iter().map(|w| w.name.as_str())))
        })
    }
    fn gear_index(&self, name: &str) -> Result<usize, String> {
        self.gear.iter().position(|g| g.name == name).ok_or_else(|| {
            format!("unknown gear `{name}`{}", did_you_mean(name, self.gear.iter().map(|g| g.name.as_str())))
        })
    }

    /// Resolve weapon references into systems, checking links and repeats.
    fn systems(
        &self,
        refs: &[WeaponRef],
        standard: bool,
        kind: UnitKind,
        field: &str,
        err: &mut dyn FnMut(String, &str, Option<Position>),
        out: &mut Vec<SystemRef>,
    ) {
        for (i, r) in refs.iter().enumerate() {
            let fname = format!("{field}[{i}]");
            match self.weapon_index(&r.name) {
                Ok(w) => {
                    let weapon = &self.weapons[w];
                    // Ruling: auto-stabilized vehicles are not bound by the link limit.
                    if r.count > weapon.linkable && kind != UnitKind::Vehicle {
                        err(
                            format!(
                                "{} copies of `{}` fire together but it is linkable {} (list the extra copies as another build or lower the count)",
                                r.count, r.name, weapon.linkable
                            ),
                            &format!("{fname}.count"),
                            r.position,
                        );
                    }
                    if out.iter().any(|s| s.weapon == w) {
                        err(
                            format!(
                                "`{}` is listed twice: all copies of one weapon form one linked system, give them as one entry with a count",
                                r.name
                            ),
                            &fname,
                            r.position,
                        );
                    } else {
                        out.push(SystemRef { weapon: w, copies: r.count, standard });
                    }
                }
                Err(msg) => err(msg, &format!("{fname}.name"), r.position),
            }
        }
    }

    fn build(&self, b: &BuildSpec, errors: &mut Vec<CatalogError>) -> Option<Build> {
        let label = format!("build \"{}\"", b.name);
        let mut failed = false;
        let mut err = |msg: String, field: &str, pos: Option<Position>| {
            failed = true;
            errors.push(CatalogError::new(&b.file, msg).at(pos.or(b.position)).entry(label.clone()).field(field));
        };
        let Some(unit_index) = self.units.iter().position(|u| u.name == b.unit) else {
            err(
                format!(
                    "unknown unit `{}`{}",
                    b.unit,
                    did_you_mean(&b.unit, self.units.iter().map(|u| u.name.as_str()))
                ),
                "unit",
                b.unit_position,
            );
            // still check the weapon and gear names
            let mut systems = Vec::new();
            self.systems(&b.weapons, false, UnitKind::Vehicle, "weapons", &mut err, &mut systems);
            for (i, (g, pos)) in b.gear.iter().enumerate() {
                if let Err(msg) = self.gear_index(g) {
                    err(msg, &format!("gear[{i}]"), *pos);
                }
            }
            return None;
        };
        let unit = &self.units[unit_index];
        if unit.kind == UnitKind::Terrain {
            err(format!("unit `{}` is terrain: terrain cannot carry a build", unit.name), "unit", b.unit_position);
        }
        let mut systems = Vec::new();
        self.systems(&unit.standard_weapons, true, unit.kind, "standard_weapons (of the unit)", &mut err, &mut systems);
        self.systems(&b.weapons, false, unit.kind, "weapons", &mut err, &mut systems);
        let mut gear = Vec::new();
        for (i, (g, pos)) in unit.standard_gear.iter().enumerate() {
            match self.gear_index(g) {
                Ok(idx) => gear.push(idx),
                Err(msg) => err(msg, &format!("standard_gear[{i}] (of the unit)"), *pos),
            }
        }
        let standard_gear = gear.len();
        for (i, (g, pos)) in b.gear.iter().enumerate() {
            match self.gear_index(g) {
                Ok(idx) => gear.push(idx),
                Err(msg) => err(msg, &format!("gear[{i}]"), *pos),
            }
        }
        if systems.is_empty() && b.weapons.is_empty() && unit.standard_weapons.is_empty() {
            err("a build needs at least one weapon".into(), "weapons", b.position);
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
            unit: unit_index,
            systems,
            gear,
            points: b.points.unwrap_or(unit.points),
            weight: swappable_weight,
            power: swappable_power,
        })
    }

    /// Checks on a unit card alone: MSV class and standard equipment names.
    fn unit_card(&self, u: &Unit, errors: &mut Vec<CatalogError>) {
        let label = format!("unit \"{}\"", u.name);
        let mut err = |msg: String, field: &str| {
            errors.push(CatalogError::new(&u.file, msg).at(u.position).entry(label.clone()).field(field));
        };
        if u.kind == UnitKind::Msv {
            match msv_class(u.ac) {
                None => {
                    err(format!("an MSV's AC must be a class in the MSV classes table (3 to 6), got {}", u.ac), "ac")
                }
                Some(class) => {
                    for (key, value, limit) in
                        [("free_weight", u.free_weight, class.gear_weight), ("free_power", u.free_power, class.power)]
                    {
                        if let Some(v) = value
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
                            );
                        }
                    }
                }
            }
        }
        if u.power_armor && u.kind == UnitKind::Msv {
            err("power armour is ECBS troop gear; an MSV cannot have it".into(), "power_armor");
        }
        let mut seen = Vec::new();
        for (i, r) in u.standard_weapons.iter().enumerate() {
            if let Err(msg) = self.weapon_index(&r.name) {
                err(msg, &format!("standard_weapons[{i}].name"));
            }
            if seen.contains(&&r.name) {
                err(format!("`{}` is listed twice", r.name), &format!("standard_weapons[{i}]"));
            }
            seen.push(&r.name);
        }
        for (i, (g, _)) in u.standard_gear.iter().enumerate() {
            if let Err(msg) = self.gear_index(g) {
                err(msg, &format!("standard_gear[{i}]"));
            }
        }
    }
}

/// A weight or power for messages: integers without decimals.
fn fmt_num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{:.2}", v).trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
