//! Reading one entry's fields into the room's types (references by name are resolved in
//! `resolve`).

use crate::catalogue::Position;
use crate::catalogue::fields::Fields;

use super::super::track::TrackKind;
use super::super::trooper::{Armour, Experience};
use super::super::weapon::{ApCost, Blunt, Class, Shots, Slot, Weapon};

pub const WEAPON_KEYS: &[&str] = &[
    "name",
    "class",
    "lethal",
    "bludgeoning",
    "shots",
    "ap_cost",
    "ammo",
    "short",
    "long",
    "pv",
    "crew",
    "incendiary",
    "slot",
    "note",
];
const TROOPER_KEYS: &[&str] = &[
    "name",
    "track",
    "experience",
    "body_armor",
    "primary",
    "secondary",
    "grenades",
    "grenade",
    "sneak_suit",
    "pv",
    "note",
];
pub const SQUAD_KEYS: &[&str] = &["name", "members", "note"];

/// Largest number of lethal or bludgeoning points, dots of range and PV accepted.
pub const MAX_DAMAGE: u32 = 40;
const MAX_DOTS: u32 = 1000;
const MAX_PV: u32 = 100_000;

fn number(f: &mut Fields<'_>, key: &str, text: &str, pos: Option<Position>, max: u32, words: &str) -> Option<u32> {
    match text.trim().parse::<u32>() {
        Ok(v) if v <= max => Some(v),
        _ => {
            f.error(Some(key), pos, format!("expected a whole number from 0 to {max}{words}, found `{text}`"));
            None
        }
    }
}

/// A weapon, or `None` with its errors recorded.
pub fn weapon(mut f: Fields<'_>) -> Option<Weapon> {
    let name = f.string("name", true).unwrap_or_default();
    let class = match f.scalar("class") {
        Some((t, pos)) => Class::parse(&t).or_else(|| {
            f.error(Some("class"), pos, format!("unknown class `{t}`: expected one of {}", Class::NAMES.join(", ")));
            None
        }),
        None => {
            f.error(Some("class"), None, "missing required field");
            None
        }
    };
    let mut lethal = Vec::new();
    for (i, (t, pos)) in f.scalar_list("lethal").into_iter().enumerate() {
        if let Some(v) = number(&mut f, &format!("lethal[{i}]"), &t, pos, MAX_DAMAGE, "") {
            lethal.push(v);
        }
    }
    if lethal.is_empty() {
        lethal.push(0);
    }
    let blunt = match f.scalar("bludgeoning") {
        None => Blunt::Points(0),
        Some((t, _)) if t.eq_ignore_ascii_case("fists") => Blunt::Fists,
        Some((t, pos)) => {
            Blunt::Points(number(&mut f, "bludgeoning", &t, pos, MAX_DAMAGE, " or \"fists\"").unwrap_or(0))
        }
    };
    let shots = match f.scalar("shots") {
        None => None,
        Some((t, _)) if t.eq_ignore_ascii_case("unlimited") => Some(Shots::Unlimited),
        Some((t, pos)) => number(&mut f, "shots", &t, pos, 10, " or \"unlimited\"").map(Shots::Times),
    };
    let ap_cost = match f.scalar("ap_cost") {
        None => None,
        Some((t, pos)) => match t.trim().strip_suffix("/dot") {
            Some(d) => number(&mut f, "ap_cost", d, pos, 8, " AP per dot").map(ApCost::PerDot),
            None => number(&mut f, "ap_cost", &t, pos, 20, " or \"N/dot\" for a thrown weapon").map(ApCost::Fixed),
        },
    };
    let ammo = match f.scalar("ammo") {
        None => None,
        Some((t, _)) if t.eq_ignore_ascii_case("unlimited") => None,
        Some((t, pos)) => number(&mut f, "ammo", &t, pos, 100, " or \"unlimited\""),
    };
    let dots = |f: &mut Fields<'_>, key: &str| match f.scalar(key) {
        None => None,
        Some((t, pos)) => number(f, key, &t, pos, MAX_DOTS, " dots"),
    };
    let short = dots(&mut f, "short");
    let long = dots(&mut f, "long");
    let pv = f.int("pv", Some(0), 0, MAX_PV as i64) as u32;
    let crew = f.int("crew", Some(0), 0, 10) as u32;
    let incendiary = f.boolean("incendiary", class == Some(Class::Incendiary));
    let slot = match f.scalar("slot") {
        None => Slot::of_class(class.unwrap_or(Class::Primary)),
        Some((t, pos)) => Slot::parse(&t).unwrap_or_else(|| {
            f.error(Some("slot"), pos, format!("unknown slot `{t}`: expected one of {}", Slot::NAMES.join(", ")));
            Slot::Primary
        }),
    };
    let _ = f.string("note", false);
    if shots.is_some() && (short.is_none() || long.is_none()) && class != Some(Class::Melee) {
        f.error(Some("short"), None, "an arc weapon (with `shots`) needs `short` and `long`");
    }
    if let (Some(s), Some(l)) = (short, long)
        && l < s
    {
        let pos = f.position_of("long");
        f.error(Some("long"), pos, format!("long ({l}) is shorter than short ({s})"));
    }
    if class == Some(Class::Melee) && shots.is_some() {
        let pos = f.position_of("shots");
        f.error(Some("shots"), pos, "a melee weapon has no shots (it costs `ap_cost`)");
    }
    // Explosives and incendiaries target a dot and are resolved at the end of the turn
    // ("Explosives", "Advanced Explosives"): with `shots` one would fire from an arc and
    // take the target-prone modifier, which the book never gives against them.
    let targets_dot = matches!(class, Some(Class::Explosive | Class::AdvancedExplosive | Class::Incendiary));
    if (targets_dot || incendiary) && shots.is_some() {
        let pos = f.position_of("shots");
        let what = match class {
            Some(Class::Explosive) => "a thrown explosive",
            Some(Class::AdvancedExplosive) => "a ranged explosive (launcher)",
            _ => "an incendiary weapon",
        };
        f.error(
            Some("shots"),
            pos,
            format!(
                "{what} has no shots: it targets a dot and is resolved at the end of the turn, never from a firing arc \
                 (it costs `ap_cost`: \"N/dot\" when thrown)"
            ),
        );
    }
    let w = Weapon {
        name,
        class: class.unwrap_or(Class::Primary),
        lethal,
        blunt,
        shots,
        ap_cost,
        ammo,
        short: short.or(if class == Some(Class::Melee) { Some(1) } else { None }),
        long,
        pv,
        crew,
        incendiary,
        slot,
    };
    f.finish(WEAPON_KEYS).then_some(w)
}

/// A trooper as written: weapons by name with their positions.
#[derive(Debug, Clone)]
pub struct TrooperSpec {
    pub name: String,
    pub track: TrackKind,
    pub experience: Experience,
    pub armour: Armour,
    pub primaries: Vec<(String, Option<Position>)>,
    pub secondary: Option<(String, Option<Position>)>,
    pub grenades: u32,
    pub grenade: (String, Option<Position>),
    pub sneak_suit: bool,
    pub pv: Option<u32>,
    pub file: String,
    pub label: String,
    pub position: Option<Position>,
    pub ok: bool,
}

pub fn trooper(mut f: Fields<'_>) -> TrooperSpec {
    let name = f.string("name", true).unwrap_or_default();
    let choice = |f: &mut Fields<'_>, key: &str, names: &[&str], default: &str| -> String {
        match f.scalar(key) {
            None => default.to_string(),
            Some((t, pos)) => {
                let t = t.trim().to_ascii_lowercase();
                if names.contains(&t.as_str()) {
                    t
                } else {
                    f.error(Some(key), pos, format!("unknown {key} `{t}`: expected one of {}", names.join(", ")));
                    default.to_string()
                }
            }
        }
    };
    let track = if choice(&mut f, "track", &["basic", "power"], "basic") == "power" {
        TrackKind::Power
    } else {
        TrackKind::Basic
    };
    let experience =
        Experience::parse(&choice(&mut f, "experience", Experience::NAMES, "regular")).unwrap_or(Experience::Regular);
    let armour_default = if track == TrackKind::Power { "standard" } else { "none" };
    let armour_pos = f.position_of("body_armor");
    let armour = Armour::parse(&choice(&mut f, "body_armor", Armour::NAMES, armour_default)).unwrap_or(Armour::None);
    if track == TrackKind::Power && armour == Armour::None {
        f.error(Some("body_armor"), armour_pos, "power armour is basic, standard or heavy");
    }
    let primaries = f.scalar_list("primary");
    let max_primaries = if track == TrackKind::Power && armour != Armour::Basic { 2 } else { 1 };
    if primaries.is_empty() {
        f.error(Some("primary"), None, "missing required field");
    } else if primaries.len() > max_primaries {
        let pos = f.position_of("primary");
        f.error(
            Some("primary"),
            pos,
            format!("{} primaries: this card carries at most {max_primaries}", primaries.len()),
        );
    }
    let secondary = f.string("secondary", false).map(|s| (s, f.position_of("secondary")));
    let grenades_default = if track == TrackKind::Power { 0 } else { 4 };
    let grenades = f.int("grenades", Some(grenades_default), 0, 8) as u32;
    if track == TrackKind::Power && grenades > 0 {
        let pos = f.position_of("grenades");
        f.error(Some("grenades"), pos, "power armour cannot use hand grenades");
    }
    let grenade_pos = f.position_of("grenade");
    let grenade = (f.string("grenade", false).unwrap_or_else(|| "Hand Grenade".into()), grenade_pos);
    let sneak_suit = f.boolean("sneak_suit", false);
    let pv = match f.scalar("pv") {
        None => None,
        Some((t, _)) if t.eq_ignore_ascii_case("auto") => None,
        Some((t, pos)) => number(&mut f, "pv", &t, pos, MAX_PV, " or \"auto\""),
    };
    let _ = f.string("note", false);
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    let position = f.position();
    let ok = f.finish(TROOPER_KEYS);
    TrooperSpec {
        name,
        track,
        experience,
        armour,
        primaries,
        secondary,
        grenades,
        grenade,
        sneak_suit,
        pv,
        file,
        label,
        position,
        ok,
    }
}

/// A squad as written.
#[derive(Debug, Clone)]
pub struct SquadSpec {
    pub name: String,
    /// (trooper name, count, where), count 1..=64.
    pub members: Vec<(String, u32, Option<Position>)>,
    pub file: String,
    pub label: String,
    pub position: Option<Position>,
    pub ok: bool,
}

pub fn squad(mut f: Fields<'_>) -> SquadSpec {
    let name = f.string("name", true).unwrap_or_default();
    let members = f.table_list("members", |m| {
        let pos = m.position();
        let t = m.string("trooper", true)?;
        let n = m.int("count", Some(1), 1, 64) as u32;
        m.reject_unknown(&["trooper", "count"]);
        Some((t, n, pos))
    });
    if members.is_empty() && !f.is_bad("members") {
        f.error(Some("members"), None, "a squad needs at least one member");
    }
    let _ = f.string("note", false);
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    let position = f.position();
    let ok = f.finish(SQUAD_KEYS);
    SquadSpec { name, members, file, label, position, ok }
}
