//! `[[mech]]` entries (and `mechs.csv` rows): a mech sheet's stats with its weapons by
//! name (resolved later), abilities and profiles.

use crate::catalogue::error::{Position, did_you_mean};
use crate::catalogue::fields::{Checked, Fields};
use crate::rules::mechcom::mech::{Ability, Faction, Mech};

/// A mech profile ("Profiles"): extra points for the squad. Every mech has `BASE` at
/// cost 0. (volley plays no profile-tagged weapon or ability yet: a profile only costs.)
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub name: String,
    /// Points added to the mech's cost, >= 0.
    pub cost: u32,
}

/// Every key a mech entry may have.
pub const MECH_KEYS: &[&str] = &[
    "name",
    "faction",
    "cost",
    "energy",
    "movement",
    "sensors",
    "stability",
    "strength",
    "armour",
    "integrity",
    "weapons",
    "abilities",
    "profiles",
];

/// The profile every mech has, at no extra cost ("Profiles": Base by default).
pub const BASE_PROFILE: &str = "BASE";
/// `faction` of a neutral terrain deployable (a Building): no faction, no conditions,
/// never in a squad.
pub const NEUTRAL: &str = "neutral";

/// Stat ranges (§3 "Mech sheets: fields"; upper bounds keep tables small).
pub const MAX_COST: i64 = 10_000;
pub const MAX_ENERGY: i64 = 30;
pub const MAX_MOVEMENT: i64 = 30;
pub const MAX_SENSORS: i64 = 60;
/// Stability is a d6 face: only 1..=6 matter; 0 is a deployable's missing stat (it
/// plays as 1, `NO_AUTOMATIC_MISS`).
pub const STABILITY_RANGE: (i64, i64) = (0, 6);
/// Strength may go below 0.
pub const STRENGTH_RANGE: (i64, i64) = (-6, 6);
/// Armour is a d6 face: only 1..=7 matter; 0 is a deployable's missing stat.
pub const ARMOUR_RANGE: (i64, i64) = (0, 7);
pub const MAX_INTEGRITY: i64 = 100;

/// The abilities the catalogue accepts, by the book's name.
pub const ABILITIES: [(&str, Ability); 4] = [
    ("Programming", Ability::Programming),
    ("Red-Hot Reactor", Ability::RedHotReactor),
    ("Searing Wave", Ability::SearingWave),
    ("Vent Coolant", Ability::VentCoolant),
];

/// An ability as the book names it (`Red-Hot Reactor`).
pub fn ability_name(a: Ability) -> &'static str {
    ABILITIES.iter().find(|(_, x)| *x == a).map_or("", |(n, _)| n)
}

/// A faction by the book's spelling (any case; `ICSE`, `Sha'Vidaar`, `ShaViddaar` and
/// `Scrap-Monkeys` also read).
pub fn parse_faction(text: &str) -> Option<Faction> {
    let key = |s: &str| s.chars().filter(|c| c.is_alphanumeric()).collect::<String>().to_lowercase().replace('ð', "d");
    let k = key(text);
    Faction::ALL
        .into_iter()
        .find(|&f| key(f.name()) == k || (f == Faction::ShaViddaar && matches!(k.as_str(), "shavidaar" | "shaviddaar")))
}

/// "unknown faction `X` (did you mean ...); factions: ...".
pub fn unknown_faction(text: &str, neutral_allowed: bool) -> String {
    let mut names: Vec<&str> = Faction::ALL.iter().map(|f| f.name()).collect();
    if neutral_allowed {
        names.push(NEUTRAL);
    }
    format!("unknown faction `{text}`{}; factions: {}", did_you_mean(text, names.iter().copied()), names.join(", "))
}

/// A mech as written: weapons not yet resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct MechSpec {
    /// The stats, with no weapons yet.
    pub mech: Mech,
    pub weapons: Vec<(String, Option<Position>)>,
    /// `BASE` first, then the listed profiles.
    pub profiles: Vec<Profile>,
    pub position: Option<Position>,
    pub file: String,
    /// How errors name the entry (`mech "Typhon"`).
    pub label: String,
}

/// Read a mech. The value is kept even when the entry had errors, so that its weapon
/// names are still checked.
pub fn read(mut f: Fields<'_>) -> Checked<MechSpec> {
    let name = f.string("name", true).unwrap_or_default();
    if name.contains('+') {
        let pos = f.position_of("name");
        f.error(Some("name"), pos, "must not contain `+`: it joins a mech and its pilot in model names");
    }
    let faction_pos = f.position_of("faction");
    let faction = match f.string("faction", true) {
        Some(s) if s.eq_ignore_ascii_case(NEUTRAL) => None,
        Some(s) => parse_faction(&s).or_else(|| {
            f.error(Some("faction"), faction_pos, unknown_faction(&s, true));
            None
        }),
        None => None,
    };
    let int = |f: &mut Fields<'_>, key: &str, (min, max): (i64, i64)| f.int(key, None, min, max);
    let mut mech = Mech {
        name: name.clone(),
        faction,
        cost: int(&mut f, "cost", (0, MAX_COST)) as u32,
        energy: int(&mut f, "energy", (0, MAX_ENERGY)) as u32,
        movement: int(&mut f, "movement", (0, MAX_MOVEMENT)) as u32,
        sensors: int(&mut f, "sensors", (0, MAX_SENSORS)) as u32,
        stability: int(&mut f, "stability", STABILITY_RANGE) as i32,
        strength: int(&mut f, "strength", STRENGTH_RANGE) as i32,
        armour: int(&mut f, "armour", ARMOUR_RANGE) as i32,
        integrity: int(&mut f, "integrity", (1, MAX_INTEGRITY)) as u32,
        weapons: Vec::new(),
        abilities: Vec::new(),
    };
    let weapons = f.string_list("weapons");
    for (i, (text, pos)) in f.string_list("abilities").into_iter().enumerate() {
        match ABILITIES.iter().find(|(n, _)| n.eq_ignore_ascii_case(&text)) {
            Some(&(_, a)) if mech.abilities.contains(&a) => {
                f.error(Some(&format!("abilities[{i}]")), pos, format!("ability `{text}` is listed twice"))
            }
            Some(&(_, a)) => mech.abilities.push(a),
            None => {
                let names = ABILITIES.map(|(n, _)| n);
                f.error(
                    Some(&format!("abilities[{i}]")),
                    pos,
                    format!(
                        "unknown ability `{text}`{}; volley plays {}",
                        did_you_mean(&text, names),
                        names.join(", ")
                    ),
                );
            }
        }
    }
    let mut profiles = vec![Profile { name: BASE_PROFILE.into(), cost: 0 }];
    let listed = f.table_list("profiles", |p| {
        let position = p.position();
        let name = p.string("name", true);
        let cost = p.int("cost", None, 0, MAX_COST) as u32;
        p.reject_unknown(&["name", "cost"]);
        Some((name?, cost, position))
    });
    for (i, (pname, cost, pos)) in listed.into_iter().enumerate() {
        if profiles.iter().any(|p| p.name.eq_ignore_ascii_case(&pname)) {
            f.error(
                Some(&format!("profiles[{i}].name")),
                pos,
                format!("profile `{pname}` is listed twice (every mech has `{BASE_PROFILE}` at no cost)"),
            );
        } else {
            profiles.push(Profile { name: pname, cost });
        }
    }
    let position = f.entry().position;
    let file = f.entry().file.clone();
    let label = f.label().to_string();
    f.finish_checked(MECH_KEYS, MechSpec { mech, weapons, profiles, position, file, label })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factions_read_in_the_books_spelling_and_plain_ascii() {
        for f in Faction::ALL {
            assert_eq!(parse_faction(f.name()), Some(f));
            assert_eq!(parse_faction(&f.name().to_uppercase()), Some(f));
        }
        for (text, f) in [
            ("ICSE", Faction::Icse),
            ("Sha'Vidaar", Faction::ShaViddaar),
            ("ShaViddaar", Faction::ShaViddaar),
            ("herakles", Faction::Herakles),
            ("Scrap-Monkeys", Faction::ScrapMonkeys),
        ] {
            assert_eq!(parse_faction(text), Some(f), "{text}");
        }
        assert_eq!(parse_faction("Herakels"), None);
        assert_eq!(parse_faction(NEUTRAL), None);
    }
}
