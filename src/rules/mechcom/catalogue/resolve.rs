//! Checking catalogue files into a [`Catalogue`]: parse, read every entry, find names
//! defined twice, then resolve references (mech → weapons, pilot → mechs, build, squad
//! and field → mechs, pilots, profiles, force → mechs, pilots, builds), reporting every
//! independent error once.

use std::path::Path;

use super::build::{Build, BuildSpec, Known};
use super::lookup::{Lookup, Names};
use super::mech::MechSpec;
use super::mech::Profile;
use super::pilot::PilotSpec;
use super::squad::{FieldSpec, ModelRef, SquadSpec, read_field, read_squad};
use super::validated::{Catalogue, Field, Member, Opponent, Squad, is_unique, requirement_unmet, split_model_name};
use super::{BUILD, FIELD, FORCE, MECH, PILOT, SECTIONS, SQUAD, WEAPON};
use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::fields::{Checked, Fields};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::{ParsedFile, RawEntry, read_csv, read_toml};
use crate::catalogue::source::{self, SourceFile};
use crate::rules::mechcom::mech::{Mech, Pilot, PilotKind};
use crate::rules::mechcom::weapon::Weapon;

/// What checking a set of files gave.
pub(super) struct Outcome {
    pub(super) result: Result<Catalogue, CatalogErrors>,
    /// References to names no file defines (and no unreadable file may define).
    pub(super) unknown_references: usize,
}

/// Parse every file: the entries read and whether each file could be parsed.
fn parse<'a>(files: &'a [SourceFile], errors: &mut Vec<CatalogError>) -> (Vec<RawEntry>, Vec<&'a str>) {
    let mut entries = Vec::new();
    let mut unreadable = Vec::new();
    for file in files {
        let parsed = if file.name.ends_with(".csv") {
            let stem = Path::new(&file.name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
            match SECTIONS.from_csv_stem(stem) {
                Some(section) => read_csv(&file.name, section, &file.text),
                None => ParsedFile {
                    entries: Vec::new(),
                    errors: vec![CatalogError::new(
                        &file.name,
                        format!(
                            "a CSV catalogue file's name must end in {} (e.g. homebrew-mechs.csv)",
                            SECTIONS.csv_list()
                        ),
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
            unreadable.push(file.text.as_str());
        }
    }
    (entries, unreadable)
}

/// Parse, read, check and resolve `files`; `read_errors` are problems met reading paths
/// (a path that could not be read may define any name, so no name is reported unknown).
pub(super) fn check(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Outcome {
    let anything_unreadable = !read_errors.is_empty();
    let mut errors = read_errors;
    let (entries, unreadable) = parse(files, &mut errors);
    let mut names = Names::new(unreadable, anything_unreadable);
    let mut weapons: Vec<Weapon> = Vec::new();
    let mut mechs: Vec<Checked<MechSpec>> = Vec::new();
    let mut pilots: Vec<Checked<PilotSpec>> = Vec::new();
    let mut squads: Vec<Checked<SquadSpec>> = Vec::new();
    let mut fields: Vec<Checked<FieldSpec>> = Vec::new();
    let mut forces: Vec<Checked<ForceSpec>> = Vec::new();
    let mut builds: Vec<Checked<BuildSpec>> = Vec::new();
    for entry in &entries {
        let f = Fields::new(entry, &mut errors);
        match entry.section {
            WEAPON => match super::weapon::read(f) {
                Some(w) => weapons.push(w),
                None => names.fail(WEAPON, entry.name().unwrap_or_default()),
            },
            MECH => mechs.push(super::mech::read(f)),
            PILOT => pilots.push(super::pilot::read(f)),
            SQUAD => squads.push(read_squad(f)),
            FIELD => fields.push(read_field(f)),
            FORCE => forces.push(ForceSpec::read(f)),
            BUILD => builds.push(super::build::read(f)),
            _ => unreachable!("the reader yields only the sections it was given"),
        }
    }
    names.duplicates(&entries, &mut errors);
    let all_names = |section| entries.iter().filter(move |e| e.section == section).filter_map(RawEntry::name);

    // Mechs: resolve weapons.
    let mut good_mechs: Vec<(Mech, Vec<Profile>)> = Vec::new();
    for checked in &mechs {
        let m = &checked.value;
        let mut ok = checked.ok;
        let mut resolved = Vec::new();
        for (i, (w, pos)) in m.weapons.iter().enumerate() {
            let index = weapons.iter().position(|x| &x.name == w);
            let mut err = |msg: String| {
                ok = false;
                errors.push(error(&m.file, &m.label, &format!("weapons[{i}]"), pos.or(m.position), msg));
            };
            match names.lookup(WEAPON, w, index, all_names(WEAPON)) {
                Lookup::Found(_) if resolved.iter().any(|r: &Weapon| &r.name == w) => {
                    err(format!("weapon `{w}` is listed twice"))
                }
                Lookup::Found(x) => resolved.push(weapons[x].clone()),
                Lookup::Failed => ok = false,
                Lookup::Unknown(msg) => err(msg),
            }
        }
        if ok && !names.failed(MECH, &m.mech.name) {
            good_mechs.push((Mech { weapons: resolved, ..m.mech.clone() }, m.profiles.clone()));
        } else {
            names.fail(MECH, &m.mech.name);
        }
    }
    let find_mech = |name: &str| good_mechs.iter().position(|(m, _)| m.name == name);

    // Pilots: resolve the mechs they may fly and check them against the pilot's faction.
    let mut good_pilots: Vec<Pilot> = Vec::new();
    for checked in &pilots {
        let p = &checked.value;
        let mut ok = checked.ok;
        for (i, (name, pos)) in p.pilot.mechs.iter().zip(&p.mech_positions).enumerate() {
            let mut err = |msg: String| {
                ok = false;
                errors.push(error(&p.file, &p.label, &format!("mechs[{i}]"), pos.or(p.position), msg));
            };
            match names.lookup(MECH, name, find_mech(name), all_names(MECH)) {
                Lookup::Found(x) if !checked.is_bad("faction") && !checked.is_bad("type") => {
                    let mech = &good_mechs[x].0;
                    let any_faction = Pilot { mechs: Vec::new(), ..p.pilot.clone() };
                    if let Some(why) = requirement_unmet(&any_faction, mech) {
                        err(why);
                    }
                }
                Lookup::Found(_) => {}
                Lookup::Failed => ok = false,
                Lookup::Unknown(msg) => err(msg),
            }
        }
        // The weapons it gives: resolved as a mech's.
        let mut gear: Vec<Weapon> = Vec::new();
        for (i, (w, pos)) in p.weapons.iter().enumerate() {
            let index = weapons.iter().position(|x| &x.name == w);
            let mut err = |msg: String| {
                ok = false;
                errors.push(error(&p.file, &p.label, &format!("weapons[{i}]"), pos.or(p.position), msg));
            };
            match names.lookup(WEAPON, w, index, all_names(WEAPON)) {
                Lookup::Found(_) if gear.iter().any(|r| &r.name == w) => err(format!("weapon `{w}` is listed twice")),
                Lookup::Found(x) => gear.push(weapons[x].clone()),
                Lookup::Failed => ok = false,
                Lookup::Unknown(msg) => err(msg),
            }
        }
        if ok && !names.failed(PILOT, &p.pilot.name) {
            good_pilots.push(Pilot { weapons: gear, ..p.pilot.clone() });
        } else {
            names.fail(PILOT, &p.pilot.name);
        }
    }
    // Builds: a mech, its pilot and profile, checked as a squad member is.
    let known = Known {
        mechs: &good_mechs,
        pilots: &good_pilots,
        names: &names,
        mech_names: all_names(MECH).collect(),
        pilot_names: all_names(PILOT).collect(),
    };
    let mut good_builds: Vec<Build> = Vec::new();
    let mut failed_builds: Vec<&str> = Vec::new();
    for b in &builds {
        match super::build::resolve(b, &known, &mut errors) {
            Some(good) if !names.failed(BUILD, &good.name) => good_builds.push(good),
            _ => failed_builds.push(&b.value.name),
        }
    }
    for name in failed_builds {
        names.fail(BUILD, name);
    }
    let catalogue = Catalogue {
        weapons,
        mechs: good_mechs.iter().map(|(m, _)| m.clone()).collect(),
        profiles: good_mechs.into_iter().map(|(_, p)| p).collect(),
        pilots: good_pilots,
        builds: good_builds,
        squads: Vec::new(),
        fields: Vec::new(),
        forces: Vec::new(),
        origin: origin.to_string(),
        hash: source::content_hash(files),
    };
    let resolver = Resolver {
        cat: &catalogue,
        names: &names,
        mech_names: all_names(MECH).collect(),
        pilot_names: all_names(PILOT).collect(),
    };
    let squads: Vec<Squad> = squads.iter().filter_map(|s| resolver.squad(s, &mut errors)).collect();
    let fields: Vec<Field> = fields.iter().filter_map(|f| resolver.field(f, &mut errors)).collect();
    let forces: Vec<ForceSpec> = forces.iter().filter_map(|f| resolver.force(f, &mut errors)).collect();
    let unknown_references = names.unknown.get();
    if !errors.is_empty() {
        errors.sort_by(|a, b| (a.file.as_str(), a.position).cmp(&(b.file.as_str(), b.position)));
        errors.dedup();
        return Outcome { result: Err(CatalogErrors(errors)), unknown_references };
    }
    Outcome { result: Ok(Catalogue { squads, fields, forces, ..catalogue }), unknown_references }
}

fn error(file: &str, label: &str, field: &str, position: Option<Position>, msg: String) -> CatalogError {
    CatalogError::new(file, msg).at(position).entry(label).field(field)
}

/// A model reference resolved: indexes into the catalogue.
struct Resolved {
    mech: usize,
    pilot: Option<usize>,
    profile: usize,
}

/// Resolves squads and fields against the mechs and pilots that are fine.
struct Resolver<'a> {
    cat: &'a Catalogue,
    names: &'a Names<'a>,
    mech_names: Vec<&'a str>,
    pilot_names: Vec<&'a str>,
}

impl Resolver<'_> {
    /// Resolve one model item of `list` (`members` or `opponents`). Errors go to `err`
    /// with their field path; `None` when the item has an error or uses a failed entry.
    fn model(
        &self,
        list: &str,
        r: &ModelRef,
        err: &mut dyn FnMut(String, String, Option<Position>),
    ) -> Option<Resolved> {
        let path =
            |key: &str| if r.by_name { format!("{list}[{}]", r.index) } else { format!("{list}[{}].{key}", r.index) };
        let mech = match self.names.lookup(
            MECH,
            &r.mech,
            self.cat.mechs.iter().position(|m| m.name == r.mech),
            self.mech_names.iter().copied(),
        ) {
            Lookup::Found(i) => Some(i),
            Lookup::Failed => None,
            Lookup::Unknown(msg) => {
                err(msg, path("mech"), r.mech_position);
                None
            }
        };
        let pilot = match &r.pilot {
            None => Some(None),
            Some(name) => match self.names.lookup(
                PILOT,
                name,
                self.cat.pilots.iter().position(|p| &p.name == name),
                self.pilot_names.iter().copied(),
            ) {
                Lookup::Found(i) => Some(Some(i)),
                Lookup::Failed => None,
                Lookup::Unknown(msg) => {
                    err(msg, path("pilot"), r.pilot_position);
                    None
                }
            },
        };
        let mech = mech?;
        let profiles = &self.cat.profiles[mech];
        let profile = match &r.profile {
            None => Some(0),
            Some(name) => match profiles.iter().position(|p| p.name.eq_ignore_ascii_case(name)) {
                Some(i) => Some(i),
                None => {
                    let names = profiles.iter().map(|p| p.name.as_str());
                    let list = profiles.iter().map(|p| p.name.as_str()).collect::<Vec<_>>().join(", ");
                    err(
                        format!(
                            "mech `{}` has no profile `{name}`{}; its profiles: {list}",
                            r.mech,
                            did_you_mean(name, names)
                        ),
                        path("profile"),
                        r.profile_position,
                    );
                    None
                }
            },
        };
        Some(Resolved { mech, pilot: pilot?, profile: profile? })
    }

    /// Resolve a squad: members, one faction, pilot requirements, unique Aces and
    /// Mercenaries, budget. `None` (and the name failed) when anything is wrong.
    fn squad(&self, checked: &Checked<SquadSpec>, errors: &mut Vec<CatalogError>) -> Option<Squad> {
        let s = &checked.value;
        let mut ok = checked.ok;
        let mut complete = !checked.is_bad("members");
        let mut push = |msg: String, field: String, pos: Option<Position>| {
            ok = false;
            errors.push(error(&s.file, &s.label, &field, pos.or(s.position), msg));
        };
        let mut members = Vec::new();
        let mut unique_seen: Vec<(usize, usize)> = Vec::new();
        for r in &s.members {
            let path = |key: &str| {
                if r.by_name { format!("members[{}]", r.index) } else { format!("members[{}].{key}", r.index) }
            };
            let Some(m) = self.model("members", r, &mut push) else {
                complete = false;
                continue;
            };
            let mech = &self.cat.mechs[m.mech];
            let mut same_faction = true;
            match (mech.faction, s.faction) {
                (None, _) => {
                    push(
                        format!("mech `{}` is neutral terrain: it cannot join a squad", mech.name),
                        path("mech"),
                        r.mech_position,
                    );
                    same_faction = false;
                }
                (Some(f), Some(squad)) if f != squad => {
                    push(
                        format!("mixed factions: mech `{}` is {}, the squad is {}", mech.name, f.name(), squad.name()),
                        path("mech"),
                        r.mech_position,
                    );
                    same_faction = false;
                }
                _ => {}
            }
            if let Some(p) = m.pilot {
                let pilot = &self.cat.pilots[p];
                if same_faction && let Some(why) = requirement_unmet(pilot, mech) {
                    push(why, path("pilot"), r.pilot_position);
                }
                if is_unique(pilot.kind) {
                    if let Some(&(_, first)) = unique_seen.iter().find(|(q, _)| *q == p) {
                        let kind = if pilot.kind == PilotKind::Ace { "Ace" } else { "Mercenary" };
                        push(
                            format!(
                                "{kind} `{}` is already in the squad (members[{first}]): each Ace or Mercenary card is taken at most once (`ACES_MERCS_UNIQUE`)",
                                pilot.name
                            ),
                            path("pilot"),
                            r.pilot_position,
                        );
                    } else {
                        unique_seen.push((p, r.index));
                    }
                }
            }
            let points =
                mech.cost + self.cat.profiles[m.mech][m.profile].cost + m.pilot.map_or(0, |p| self.cat.pilots[p].cost);
            members.push(Member { mech: m.mech, pilot: m.pilot, profile: m.profile, points });
        }
        if complete && !checked.is_bad("budget") {
            let total: u32 = members.iter().map(|m| m.points).sum();
            if total > s.budget {
                let mechs: u32 = members.iter().map(|m| self.cat.mechs[m.mech].cost).sum();
                let profiles: u32 = members.iter().map(|m| self.cat.profiles[m.mech][m.profile].cost).sum();
                let pilots: u32 = members.iter().map(|m| m.pilot.map_or(0, |p| self.cat.pilots[p].cost)).sum();
                push(
                    format!(
                        "over budget by {}: the squad costs {total} points (mechs {mechs}, profiles {profiles}, pilots {pilots}) and its budget is {}",
                        total - s.budget,
                        s.budget
                    ),
                    "members".into(),
                    None,
                );
            }
        }
        let faction = s.faction?;
        (ok && complete).then(|| Squad {
            name: s.name.clone(),
            faction,
            budget: s.budget,
            points: members.iter().map(|m| m.points).sum(),
            members,
        })
    }

    /// Check a force: each member names a model (`Mech` or `Mech+Pilot`) whose pilot
    /// may fly its mech. Errors name `units[i].build`.
    fn force(&self, checked: &Checked<ForceSpec>, errors: &mut Vec<CatalogError>) -> Option<ForceSpec> {
        let f = &checked.value;
        let label = format!("force \"{}\"", f.name);
        let mut ok = checked.ok;
        let mut failed = false;
        for (i, m) in f.members.iter().enumerate() {
            let field = format!("units[{i}].build");
            let mut push = |msg: String| {
                ok = false;
                errors.push(error(&f.file, &label, &field, m.position.or(f.position), msg));
            };
            // A `[[build]]` by name: already checked (pilot, profile) where it is defined.
            if self.cat.builds.iter().any(|b| b.name == m.build.trim()) {
                continue;
            }
            if self.names.failed(BUILD, m.build.trim()) && !m.build.contains('+') {
                failed = true;
                continue;
            }
            let (mech, pilot) = split_model_name(&m.build);
            let mech_at = match self.names.lookup(
                MECH,
                mech,
                self.cat.mechs.iter().position(|x| x.name == mech),
                self.mech_names.iter().copied(),
            ) {
                Lookup::Found(x) => Some(x),
                Lookup::Failed => {
                    failed = true;
                    None
                }
                Lookup::Unknown(msg) => {
                    push(msg);
                    None
                }
            };
            let pilot_at = match pilot {
                None => None,
                Some(p) => match self.names.lookup(
                    PILOT,
                    p,
                    self.cat.pilots.iter().position(|x| x.name == p),
                    self.pilot_names.iter().copied(),
                ) {
                    Lookup::Found(x) => Some(x),
                    Lookup::Failed => {
                        failed = true;
                        None
                    }
                    Lookup::Unknown(msg) => {
                        push(msg);
                        None
                    }
                },
            };
            if let (Some(x), Some(p)) = (mech_at, pilot_at)
                && let Some(why) = requirement_unmet(&self.cat.pilots[p], &self.cat.mechs[x])
            {
                push(why);
            }
        }
        (ok && !failed && !checked.is_bad("units")).then(|| f.clone())
    }

    /// Resolve a field: each opponent's mech and pilot, and the pilot's requirements.
    fn field(&self, checked: &Checked<FieldSpec>, errors: &mut Vec<CatalogError>) -> Option<Field> {
        let f = &checked.value;
        let mut ok = checked.ok;
        let mut push = |msg: String, field: String, pos: Option<Position>| {
            ok = false;
            errors.push(error(&f.file, &f.label, &field, pos.or(f.position), msg));
        };
        let mut opponents = Vec::new();
        let mut complete = true;
        for r in &f.opponents {
            let Some(m) = self.model("opponents", r, &mut push) else {
                complete = false;
                continue;
            };
            let mech = &self.cat.mechs[m.mech];
            if let Some(p) = m.pilot
                && let Some(why) = requirement_unmet(&self.cat.pilots[p], mech)
            {
                let field =
                    if r.by_name { format!("opponents[{}]", r.index) } else { format!("opponents[{}].pilot", r.index) };
                push(why, field, r.pilot_position);
                continue;
            }
            let model = super::validated::model_name(&mech.name, m.pilot.map(|p| self.cat.pilots[p].name.as_str()));
            opponents.push(Opponent { model, mech: m.mech, pilot: m.pilot, weight: r.weight });
        }
        (ok && complete && !checked.is_bad("opponents")).then(|| Field { name: f.name.clone(), opponents })
    }
}
