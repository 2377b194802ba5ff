//! The Shellshock catalogue (`loadouts/shellshock/`, every key documented in its
//! README): weapons, units, Internal Damage Charts and fields, read with the shared
//! reader (`crate::catalogue`) and checked in one pass. Every independent error is
//! reported at once, each naming file, line, entry and field: unknown keys (with the
//! nearest), values out of range, a dVT, era or dice that does not exist, to-hit dice
//! the era does not allow, Internal %'s boxes out of order, a chart that is not 100
//! lines or uses a letter its equipment list lacks, names defined twice (the later
//! definition is the error), and unknown weapon, chart or unit names (with the nearest).
//! `[[force]]` entries (`crate::catalogue::force::ForceSpec`) name units of this
//! catalogue and carry no passengers; budgets are checked when a battle is set up.
//! `[[crew]]` prices skill levels and `[[build]]` re-skills a unit's crew (`super::build`):
//! a build is checked like a unit (unknown unit, gunner or unpriced level, a name a unit
//! has) and joins `units` after the cards.
//! An entry that refers to an entry with errors gets no error of its own for it.

use std::path::Path;

use crate::catalogue::error::{CatalogError, CatalogErrors, did_you_mean};
use crate::catalogue::fields::Fields;
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::{ParsedFile, RawEntry, read_csv, read_toml};
use crate::catalogue::source::{self, SourceFile};
use crate::catalogue::{Section, Sections};
use crate::rules::kit::names;
use crate::rules::kit::select::{Prefix, Selector, forms, selected};

use super::build::{self, CrewPrice};
use super::damage::InternalBox;
use super::roll::Dice;
use super::unit::{Armor, Chart, DvType, Equipment, Era, Field, Gunner, Unit, Weapon, WeaponClass};

pub const WEAPON: Section = Section("weapon");
pub const UNIT: Section = Section("unit");
const CHART: Section = Section("chart");
pub const FIELD: Section = Section("field");
/// `[[force]]`: a force for battles, units by name (`units = [{ build = "Panzer IV", count = 3 }]`).
pub const FORCE: Section = Section("force");
/// `[[crew]]`: the ECV of one skill level of gunners or pilots (`super::build`).
pub const CREW: Section = Section("crew");
/// `[[build]]`: a `[[unit]]` with its crew re-skilled (`super::build`).
pub const BUILD: Section = Section("build");

/// The embedded default catalogue: `loadouts/shellshock/`.
pub const CATALOGUE_DIR: &str = "shellshock";

/// The sections of a Shellshock catalogue file (TOML; `*weapons.csv` stat sheets too).
pub const SECTIONS: Sections =
    Sections { toml: &[WEAPON, UNIT, CHART, FIELD, FORCE, CREW, BUILD], csv: &[("weapons", WEAPON)] };

const WEAPON_KEYS: &[&str] =
    &["name", "type", "damage", "shock", "penetration", "spreadfire", "indirect", "range", "class", "ammo", "note"];
const UNIT_KEYS: &[&str] = &[
    "name",
    "era",
    "to_hit_dice",
    "defense",
    "defense_side",
    "stealth",
    "armor",
    "shock_threshold",
    "penetration_factor",
    "dead_at",
    "internal",
    "chart",
    "gunners",
    "ecv",
    "piloting",
    "pilot",
    "note",
];
const CHART_KEYS: &[&str] = &["name", "lines", "equipment", "locomotion", "note"];
const FIELD_KEYS: &[&str] = &["name", "opponents", "note"];
/// Largest d6 count of one weapon (the book mentions weapons with up to 20).
const MAX_DICE: i64 = 40;
/// Largest DV, armour, threshold or factor accepted.
const MAX_STAT: i64 = 1000;

/// A checked catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalogue {
    pub weapons: Vec<Weapon>,
    pub units: Vec<Unit>,
    pub charts: Vec<Chart>,
    pub fields: Vec<Field>,
    /// `[[force]]` entries, every member naming a unit of this catalogue.
    pub forces: Vec<ForceSpec>,
    /// `[[crew]]` prices, in catalogue order.
    pub crew: Vec<CrewPrice>,
    /// How many of `units` are `[[unit]]` cards (the first ones); the rest are
    /// `[[build]]` entries, in catalogue order.
    pub cards: usize,
    pub origin: String,
    pub hash: String,
}

impl Catalogue {
    /// The catalogue built into the binary.
    ///
    /// # Errors
    /// As [`Catalogue::from_read`] (never for the shipped files: a test checks them).
    pub fn embedded() -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read("embedded default catalogue", &source::embedded(CATALOGUE_DIR), Vec::new())
    }

    /// Parse and check `files`; `read_errors` are reported among the others.
    ///
    /// # Errors
    /// Every error found, sorted by file and position.
    pub fn from_read(
        origin: &str,
        files: &[SourceFile],
        read_errors: Vec<CatalogError>,
    ) -> Result<Catalogue, CatalogErrors> {
        check(origin, files, read_errors).0
    }

    /// Whether the files name weapons, charts or units they do not define.
    pub fn refers_to_undefined(files: &[SourceFile]) -> bool {
        check("", files, Vec::new()).1 > 0
    }

    /// The unit named `name` (any case: [`names::lookup`]).
    ///
    /// # Errors
    /// An unknown name, with the nearest.
    pub fn unit(&self, name: &str) -> Result<&Unit, String> {
        names::lookup(&self.units, |u| u.name.as_str(), name, "unit", &self.origin)
    }

    /// `all`, a unit name, or `era:ww2|modern|future`, in catalogue order, as the
    /// catalogue spells them.
    ///
    /// # Errors
    /// An unknown name or era, or a selection of nothing.
    pub fn select(&self, selector: &str) -> Result<Vec<String>, String> {
        let picked = match Selector::parse(selector, SELECTORS) {
            Selector::All => self.units.iter().map(|u| u.name.clone()).collect(),
            Selector::Prefixed { value, .. } => {
                let Some(era) = Era::NAMES.iter().find(|e| e.eq_ignore_ascii_case(value)) else {
                    return Err(format!("unknown era `{value}`: expected one of {}", Era::NAMES.join(", ")));
                };
                self.units.iter().filter(|u| u.era.name() == *era).map(|u| u.name.clone()).collect()
            }
            Selector::Name(n) => vec![
                self.unit(n).map_err(|e| format!("{e}; a selector is {}", forms(SELECTORS, "or a unit")))?.name.clone(),
            ],
        };
        selected(selector, &self.origin, picked)
    }
}

/// The selector prefixes of a Shellshock catalogue.
pub const SELECTORS: &[Prefix] = &[Prefix { word: "era", selects: "the units of that era (ww2, modern, future)" }];

fn parse(files: &[SourceFile], errors: &mut Vec<CatalogError>) -> (Vec<RawEntry>, bool) {
    let mut entries = Vec::new();
    let mut unreadable = false;
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
        unreadable |= parsed.unreadable;
    }
    (entries, unreadable)
}

/// Names: defined (in any entry), and which of them read cleanly.
struct Names<'a> {
    defined: Vec<&'a str>,
    /// Something could not be read: an unknown name may be defined there.
    unsure: bool,
    unknown: usize,
}

impl Names<'_> {
    /// Look `name` up among `good` (clean entries); report it unknown only when no entry
    /// defines it. `Ok(Some(i))` found, `Ok(None)` defined but broken, `Err` unknown.
    fn lookup(&mut self, name: &str, good: &[&str], what: &str) -> Result<Option<usize>, String> {
        if let Some(i) = good.iter().position(|g| *g == name) {
            return Ok(Some(i));
        }
        if self.defined.contains(&name) || self.unsure {
            return Ok(None);
        }
        self.unknown += 1;
        Err(format!("unknown {what} `{name}`{}", did_you_mean(name, self.defined.iter().copied())))
    }
}

fn read_weapon(mut f: Fields<'_>) -> Option<Weapon> {
    let name = f.string("name", true);
    let kind_text = f.string("type", true);
    let kind = kind_text.as_deref().and_then(|k| {
        let t = DvType::parse(k);
        if t.is_none() {
            let pos = f.position_of("type");
            f.error(Some("type"), pos, format!("unknown dVT `{k}`: expected one of {}", DvType::NAMES.join(", ")));
        }
        t
    });
    let damage = f.int("damage", None, 0, MAX_DICE) as u32;
    let shock = f.int("shock", Some(0), 0, MAX_DICE) as u32;
    let penetration = f.int("penetration", Some(0), 0, MAX_DICE) as u32;
    let spreadfire = f.boolean("spreadfire", false);
    let indirect = f.boolean("indirect", false);
    let range = f.int("range", None, 1, 1_000_000) as u32;
    let class = match f.string("class", false) {
        None => Some(WeaponClass::Other),
        Some(c) => {
            let class = WeaponClass::parse(&c);
            if class.is_none() {
                let pos = f.position_of("class");
                let msg = format!("unknown weapon class `{c}`: expected one of {}", WeaponClass::NAMES.join(", "));
                f.error(Some("class"), pos, msg);
            }
            class
        }
    };
    let ammo = f.has("ammo").then(|| f.int("ammo", None, 1, 10_000) as u32);
    let _ = f.string("note", false);
    let ok = f.finish(WEAPON_KEYS);
    Some(Weapon {
        name: name?,
        kind: kind?,
        damage,
        shock,
        penetration,
        spreadfire,
        indirect,
        range,
        class: class?,
        ammo,
    })
    .filter(|_| ok)
}

fn read_dv(f: &mut Fields<'_>, key: &str, required: bool) -> Option<[u32; 6]> {
    if !f.has(key) {
        if required {
            f.error(Some(key), None, "missing required field");
        }
        return None;
    }
    f.table(key, |t| {
        let mut dv = [0u32; 6];
        for (i, n) in DvType::NAMES.iter().enumerate() {
            dv[i] = t.int(n, None, 0, MAX_STAT) as u32;
        }
        t.reject_unknown(&DvType::NAMES);
        dv
    })
}

struct UnitRead {
    unit: Unit,
    chart_name: Option<String>,
}

fn read_unit(
    mut f: Fields<'_>,
    names: &mut Names<'_>,
    weapons: &[&str],
    charts: &[&str],
    unknown: &mut usize,
) -> Option<UnitRead> {
    let name = f.string("name", true);
    let era_text = f.string("era", true);
    let era = era_text.as_deref().and_then(|e| {
        let era =
            Era::NAMES.iter().position(|n| n.eq_ignore_ascii_case(e)).map(|i| [Era::Ww2, Era::Modern, Era::Future][i]);
        if era.is_none() {
            let pos = f.position_of("era");
            f.error(Some("era"), pos, format!("unknown era `{e}`: expected one of {}", Era::NAMES.join(", ")));
        }
        era
    });
    let dice_text = f.string("to_hit_dice", false);
    let dice = match (era, dice_text) {
        (None, _) => None,
        (Some(era), None) => Some(match era {
            Era::Ww2 => Dice::D10D6,
            Era::Modern => Dice::D10D8,
            Era::Future => Dice::TwoD10,
        }),
        (Some(era), Some(t)) => {
            let pos = f.position_of("to_hit_dice");
            let allowed: &[Dice] = match era {
                Era::Ww2 => &[Dice::D10D6],
                Era::Modern => &[Dice::D10D8, Dice::TwoD10],
                Era::Future => &[Dice::TwoD10],
            };
            match Dice::parse(&t) {
                Ok(d) if allowed.contains(&d) => Some(d),
                Ok(d) => {
                    let names: Vec<&str> = allowed.iter().map(|d| d.name()).collect();
                    f.error(
                        Some("to_hit_dice"),
                        pos,
                        format!("{} units roll {}, not {}", era.name(), names.join(" or "), d.name()),
                    );
                    None
                }
                Err(e) => {
                    f.error(Some("to_hit_dice"), pos, e);
                    None
                }
            }
        }
    };
    let defense = read_dv(&mut f, "defense", true);
    let defense_side = read_dv(&mut f, "defense_side", false);
    let stealth = f.int("stealth", Some(0), 0, MAX_STAT) as u32;
    let armor = if f.has("armor") {
        f.table("armor", |t| {
            let a = Armor {
                front: t.int("front", None, 0, MAX_STAT) as u32,
                side: t.int("side", None, 0, MAX_STAT) as u32,
                rear: t.int("rear", None, 0, MAX_STAT) as u32,
                top: t.int("top", Some(0), 0, MAX_STAT) as u32,
            };
            t.reject_unknown(&["front", "side", "rear", "top"]);
            a
        })
    } else {
        f.error(Some("armor"), None, "missing required field");
        None
    };
    let shock_threshold = f.int("shock_threshold", None, 0, MAX_STAT) as u32;
    let penetration_factor = f.int("penetration_factor", None, 0, MAX_STAT) as u32;
    let dead_at = f.int("dead_at", None, 1, MAX_STAT) as u32;
    let boxes = f.table_list("internal", |t| {
        let b = InternalBox {
            from: t.int("from", None, 1, MAX_STAT) as u32,
            percent: t.int("percent", None, 1, 99) as u32,
            hits: t.int("hits", None, 1, 100) as u32,
        };
        t.reject_unknown(&["from", "percent", "hits"]);
        (!t.failed()).then_some(b)
    });
    if !f.is_bad("internal") && !f.is_bad("dead_at") {
        let pos = f.position_of("internal");
        for (i, w) in boxes.windows(2).enumerate() {
            if w[1].from <= w[0].from {
                f.error(
                    Some(&format!("internal[{}].from", i + 1)),
                    pos,
                    format!("boxes must start at increasing Internal: {} after {}", w[1].from, w[0].from),
                );
            }
        }
        if let Some(b) = boxes.iter().find(|b| b.from >= dead_at) {
            f.error(
                Some("internal"),
                pos,
                format!("a box from {} is at or past the Dead box ({dead_at}+): it can never be reached", b.from),
            );
        }
    }
    let chart_name = f.string("chart", true);
    if let Some(c) = &chart_name {
        match names.lookup(c, charts, "chart") {
            Ok(_) => {}
            Err(msg) => {
                *unknown += 1;
                let pos = f.position_of("chart");
                f.error(Some("chart"), pos, msg);
            }
        }
    }
    let mut broken_ref = false;
    let gunners = f.table_list("gunners", |t| {
        let skill = t.has("skill").then(|| t.int("skill", Some(0), -10, 20) as i32);
        let list = t.string_list("weapons");
        if list.is_empty() && !t.failed() {
            t.error(Some("weapons"), None, "a gunner needs at least one weapon");
        }
        let mut idx = Vec::new();
        for (j, (w, pos)) in list.iter().enumerate() {
            match names.lookup(w, weapons, "weapon") {
                Ok(Some(i)) if idx.contains(&i) => {
                    t.error(Some(&format!("weapons[{j}]")), *pos, format!("weapon `{w}` is listed twice"))
                }
                Ok(Some(i)) => idx.push(i),
                Ok(None) => broken_ref = true,
                Err(msg) => {
                    *unknown += 1;
                    t.error(Some(&format!("weapons[{j}]")), *pos, msg);
                }
            }
        }
        t.reject_unknown(&["skill", "weapons"]);
        (!t.failed()).then_some(Gunner { skill, weapons: idx })
    });
    if !f.has("gunners") {
        f.error(Some("gunners"), None, "missing required field");
    }
    let ecv = if f.has("ecv") {
        f.positive_number("ecv")
    } else {
        f.error(Some("ecv"), None, "missing required field: every unit needs its printed ECV (ECV_FROM_CARD)");
        None
    };
    let piloting = f.has("piloting").then(|| f.int("piloting", Some(0), -10, 20) as i32);
    let pilot = f.has("pilot").then(|| f.int("pilot", None, 1, 50) as u32);
    if let Some(p) = pilot.filter(|&p| p as usize > gunners.len() && !f.is_bad("gunners") && !f.is_bad("pilot")) {
        let pos = f.position_of("pilot");
        f.error(Some("pilot"), pos, format!("pilot {p} names no gunner: the unit has {}", gunners.len()));
    }
    let _ = f.string("note", false);
    let ok = f.finish(UNIT_KEYS);
    if !ok || broken_ref {
        return None;
    }
    let defense = defense?;
    Some(UnitRead {
        unit: Unit {
            name: name?,
            era: era?,
            dice: dice?,
            defense,
            defense_side: defense_side.unwrap_or(defense),
            stealth,
            armor: armor?,
            shock_threshold,
            penetration_factor,
            dead_at,
            internal: boxes,
            chart: 0,
            gunners,
            ecv: ecv?,
            piloting,
            pilot,
        },
        chart_name,
    })
}

fn read_chart(mut f: Fields<'_>, names: &mut Names<'_>, weapons: &[&str]) -> Option<Chart> {
    let name = f.string("name", true);
    let text = f.string("lines", true);
    let equipment = f.table_list("equipment", |t| {
        let letter = t.string("letter", true);
        let has_bonus = t.has("bonus");
        let e = Equipment {
            letter: ' ',
            name: t.string("name", true).unwrap_or_default(),
            kind: t.string("kind", false).unwrap_or_else(|| "other".into()),
            hits: t.int("hits", Some(1), 1, 100) as u32,
            gunner: t.has("gunner").then(|| t.int("gunner", None, 1, 50) as u32),
            weapon: t.string("weapon", false),
            bonus: t.int("bonus", Some(0), -10, 10) as i32,
        };
        let mut chars = letter.as_deref().unwrap_or("").chars();
        let l = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphanumeric() => Some(c),
            _ if letter.is_some() => {
                let pos = t.position_of("letter");
                t.error(Some("letter"), pos, "must be one letter or digit");
                None
            }
            _ => None,
        };
        // The full chart model's keys (illustrative): each only where its kind uses it.
        let kind = e.kind.to_ascii_lowercase();
        let misplaced = [
            (
                "gunner",
                e.gunner.is_some() && kind != "crew" && kind != "weapon",
                "only crew and weapon items belong to a gunner",
            ),
            ("weapon", e.weapon.is_some() && kind != "weapon", "only a weapon item names a weapon"),
            (
                "weapon",
                e.weapon.is_some() && e.gunner.is_none(),
                "a weapon item that names a weapon needs its `gunner`",
            ),
            ("bonus", has_bonus && kind != "halon", "only a halon item has a bonus"),
        ];
        for (key, bad, msg) in misplaced {
            if bad {
                let pos = t.position_of(key);
                t.error(Some(key), pos, msg);
            }
        }
        if let Some(w) = &e.weapon {
            if let Err(msg) = names.lookup(w, weapons, "weapon") {
                let pos = t.position_of("weapon");
                t.error(Some("weapon"), pos, msg);
            }
        }
        t.reject_unknown(&["letter", "name", "kind", "hits", "gunner", "weapon", "bonus"]);
        (!t.failed()).then_some(Equipment { letter: l?, ..e })
    });
    let lines: Vec<char> = text.as_deref().unwrap_or("").chars().filter(|c| !c.is_whitespace()).collect();
    if text.is_some() && !f.is_bad("lines") {
        let pos = f.position_of("lines");
        if lines.len() != 100 {
            f.error(Some("lines"), pos, format!("an Internal Damage Chart has 100 lines, got {}", lines.len()));
        }
        if !f.is_bad("equipment") {
            for (i, e) in equipment.iter().enumerate() {
                if equipment[..i].iter().any(|x| x.letter == e.letter) {
                    f.error(
                        Some(&format!("equipment[{i}].letter")),
                        pos,
                        format!("letter `{}` is listed twice", e.letter),
                    );
                }
            }
            let mut missing: Vec<char> =
                lines.iter().copied().filter(|c| !equipment.iter().any(|e| e.letter == *c)).collect();
            missing.sort_unstable();
            missing.dedup();
            if !missing.is_empty() {
                let list: String = missing.iter().collect();
                f.error(Some("lines"), pos, format!("letters `{list}` are not in the equipment list"));
            }
        }
    }
    let locomotion = read_locomotion(&mut f);
    let _ = f.string("note", false);
    let ok = f.finish(CHART_KEYS);
    ok.then_some(Chart { name: name?, lines, equipment, locomotion })
}

/// The optional Locomotion Damage Chart of a chart: 10 strings of 6 entries each.
fn read_locomotion(f: &mut Fields<'_>) -> Option<Vec<Vec<String>>> {
    if !f.has("locomotion") {
        return None;
    }
    let pos = f.position_of("locomotion");
    let rows = f.string_list("locomotion");
    if f.is_bad("locomotion") {
        return None;
    }
    if rows.len() != 10 {
        f.error(Some("locomotion"), pos, format!("a Locomotion Damage Chart has 10 rows (d10), got {}", rows.len()));
        return None;
    }
    let mut out = Vec::new();
    for (i, (row, p)) in rows.iter().enumerate() {
        let cells: Vec<String> = row.split_whitespace().map(str::to_ascii_uppercase).collect();
        let field = format!("locomotion[{i}]");
        if cells.len() != 6 {
            f.error(Some(&field), p.or(pos), format!("a row has 6 entries (d6), got {}", cells.len()));
            return None;
        }
        for c in &cells {
            let ok =
                matches!(c.as_str(), "SLIP" | "TURN" | "MSRP" | "X" | "-") || c.parse::<u32>().is_ok_and(|n| n <= 20);
            if !ok {
                f.error(
                    Some(&field),
                    p.or(pos),
                    format!("`{c}` is not a loss 0-20, SLIP, TURN, MSRP, X (immobile) or -"),
                );
                return None;
            }
        }
        out.push(cells);
    }
    Some(out)
}

fn read_field(mut f: Fields<'_>, names: &mut Names<'_>, units: &[&str], unknown: &mut usize) -> Option<Field> {
    let name = f.string("name", true);
    let mut broken = false;
    let opponents = f.table_list("opponents", |t| {
        let unit = t.string("unit", false).or_else(|| t.string("name", false));
        let weight = t.number("weight", Some(1.0));
        if weight <= 0.0 && !t.is_bad("weight") {
            let pos = t.position_of("weight");
            t.error(Some("weight"), pos, "must be greater than 0");
        }
        let u = unit?;
        match names.lookup(&u, units, "unit") {
            Ok(Some(_)) => {}
            Ok(None) => broken = true,
            Err(msg) => {
                *unknown += 1;
                let pos = t.position_of("unit").or_else(|| t.position_of("name"));
                t.error(Some("unit"), pos, msg);
            }
        }
        t.reject_unknown(&["unit", "name", "weight"]);
        (!t.failed()).then_some((u, weight))
    });
    if opponents.is_empty() && !f.failed() {
        f.error(Some("opponents"), None, "a field needs at least one opponent");
    }
    let _ = f.string("note", false);
    let ok = f.finish(FIELD_KEYS);
    (ok && !broken).then_some(Field { name: name?, opponents })
}

/// Check a force: every member names a unit (errors name `units[i].build`); no
/// passengers (Shellshock units carry none in battles).
fn check_force(
    checked: crate::catalogue::fields::Checked<ForceSpec>,
    names: &mut Names<'_>,
    units: &[&str],
    errors: &mut Vec<CatalogError>,
) -> Option<ForceSpec> {
    let f = checked.value;
    let mut ok = checked.ok && !checked.bad_keys.iter().any(|k| k == "units");
    let label = format!("force \"{}\"", f.name);
    for (i, m) in f.members.iter().enumerate() {
        let mut bad: Vec<(String, String)> = Vec::new();
        match names.lookup(&m.build, units, "unit") {
            Ok(Some(_)) => {}
            Ok(None) => ok = false,
            Err(msg) => bad.push((format!("units[{i}].build"), msg)),
        }
        if !m.passengers.is_empty() {
            bad.push((format!("units[{i}].passengers"), "Shellshock forces carry no passengers".into()));
        }
        for (field, msg) in bad {
            ok = false;
            errors.push(CatalogError::new(&f.file, msg).at(m.position.or(f.position)).entry(&label).field(field));
        }
    }
    ok.then_some(f)
}

/// Check `files`: the catalogue or every error, and how many references named nothing.
fn check(
    origin: &str,
    files: &[SourceFile],
    read_errors: Vec<CatalogError>,
) -> (Result<Catalogue, CatalogErrors>, usize) {
    let unsure_paths = !read_errors.is_empty();
    let mut errors = read_errors;
    let (entries, unreadable) = parse(files, &mut errors);
    let of = |s: Section| entries.iter().filter(move |e| e.section == s);
    let mut names = Names { defined: Vec::new(), unsure: unsure_paths || unreadable, unknown: 0 };
    let mut unknown = 0usize;

    // names defined twice: the later definition is the error
    let mut seen: Vec<(Section, String, &RawEntry)> = Vec::new();
    let mut twice: Vec<usize> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(n) = e.name() {
            if let Some((_, _, first)) = seen.iter().find(|(s, m, _)| *s == e.section && m.eq_ignore_ascii_case(n)) {
                let at = first.position.map_or(String::new(), |p| format!(" at line {}", p.line));
                errors.push(
                    CatalogError::new(
                        &e.file,
                        format!("{} `{n}` is defined twice (first in {}{at})", e.section.key(), first.file),
                    )
                    .at(e.position)
                    .entry(e.label())
                    .field("name"),
                );
                twice.push(i);
            } else {
                seen.push((e.section, n.to_string(), e));
            }
        }
    }
    let clean = |i: usize| !twice.contains(&i);

    let mut weapons = Vec::new();
    for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.section == WEAPON) {
        if let Some(w) = read_weapon(Fields::new(e, &mut errors)) {
            if clean(i) {
                weapons.push(w);
            }
        }
    }
    let mut charts = Vec::new();
    names.defined = of(WEAPON).filter_map(RawEntry::name).collect();
    let weapon_names: Vec<&str> = weapons.iter().map(|w| w.name.as_str()).collect();
    for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.section == CHART) {
        if let Some(c) = read_chart(Fields::new(e, &mut errors), &mut names, &weapon_names) {
            if clean(i) {
                charts.push(c);
            }
        }
    }
    let mut units = Vec::new();
    {
        names.defined = of(WEAPON).chain(of(CHART)).filter_map(RawEntry::name).collect();
        let wn: Vec<&str> = weapons.iter().map(|w| w.name.as_str()).collect();
        let cn: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.section == UNIT) {
            if let Some(r) = read_unit(Fields::new(e, &mut errors), &mut names, &wn, &cn, &mut unknown) {
                let chart = r.chart_name.and_then(|c| cn.iter().position(|n| *n == c));
                if let (true, Some(chart)) = (clean(i), chart) {
                    units.push(Unit { chart, ..r.unit });
                }
            }
        }
    }
    let mut crew: Vec<CrewPrice> = Vec::new();
    let mut crew_broken = false;
    for e in of(CREW) {
        match build::read_crew(Fields::new(e, &mut errors)) {
            Some(c) if crew.iter().any(|x| x.role == c.role && x.level == c.level) => {
                crew_broken = true;
                errors.push(
                    CatalogError::new(
                        &e.file,
                        format!("{} {} {} is priced twice", c.role.name(), c.role.skill(), c.level),
                    )
                    .at(e.position)
                    .entry(e.label())
                    .field("skill"),
                );
            }
            Some(c) => crew.push(c),
            None => crew_broken = true,
        }
    }
    let cards = units.len();
    {
        names.defined = of(UNIT).filter_map(RawEntry::name).collect();
        let un: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        let mut builds = Vec::new();
        for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.section == BUILD) {
            let mut f = Fields::new(e, &mut errors);
            let build::BuildRead { name, unit, gunnery, piloting } = build::read_build(&mut f);
            let mut broken = false;
            let card = unit.as_deref().and_then(|u| match names.lookup(u, &un, "unit") {
                Ok(found) => {
                    broken |= found.is_none();
                    found
                }
                Err(msg) => {
                    unknown += 1;
                    let pos = f.position_of("unit");
                    f.error(Some("unit"), pos, msg);
                    None
                }
            });
            if let Some(n) = name.as_deref().filter(|n| un.iter().any(|u| u.eq_ignore_ascii_case(n))) {
                let pos = f.position_of("name");
                f.error(Some("name"), pos, format!("`{n}` is the name of a unit: a build needs a name of its own"));
            }
            let mut ecv = None;
            if let (Some(c), false) = (card, f.is_bad("gunnery") || f.is_bad("piloting")) {
                match build::build_ecv(&units[c], &crew, &gunnery, piloting) {
                    Ok(v) => ecv = Some(v),
                    // a price missing from a broken [[crew]] entry is that entry's error
                    Err(_) if crew_broken => broken = true,
                    Err((field, msg)) => {
                        let root = field.split('.').next().unwrap_or("gunnery").to_string();
                        let pos = f.position_of(&root);
                        f.error(Some(&field), pos, msg);
                    }
                }
            }
            let ok = f.finish(build::BUILD_KEYS);
            if let (true, false, true, Some(c), Some(n), Some(v)) = (ok, broken, clean(i), card, name, ecv) {
                builds.push(build::built(&units[c], n, &gunnery, piloting, v));
            }
        }
        units.extend(builds);
    }
    let mut fields = Vec::new();
    {
        names.defined = of(UNIT).chain(of(BUILD)).filter_map(RawEntry::name).collect();
        let un: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        for e in of(FIELD) {
            if let Some(f) = read_field(Fields::new(e, &mut errors), &mut names, &un, &mut unknown) {
                fields.push(f);
            }
        }
    }
    let mut forces = Vec::new();
    {
        names.defined = of(UNIT).chain(of(BUILD)).filter_map(RawEntry::name).collect();
        let un: Vec<&str> = units.iter().map(|u| u.name.as_str()).collect();
        for (i, e) in entries.iter().enumerate().filter(|(_, e)| e.section == FORCE) {
            let checked = ForceSpec::read(Fields::new(e, &mut errors));
            if let Some(f) = check_force(checked, &mut names, &un, &mut errors)
                && clean(i)
            {
                forces.push(f);
            }
        }
    }
    let unknown = unknown.max(names.unknown);
    if !errors.is_empty() {
        errors.sort_by(|a, b| (a.file.as_str(), a.position).cmp(&(b.file.as_str(), b.position)));
        errors.dedup();
        return (Err(CatalogErrors(errors)), unknown);
    }
    (
        Ok(Catalogue {
            weapons,
            units,
            charts,
            fields,
            forces,
            crew,
            cards,
            origin: origin.to_string(),
            hash: source::content_hash(files),
        }),
        unknown,
    )
}
