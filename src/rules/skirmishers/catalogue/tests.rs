//! The embedded catalogue, and validation errors (file, line, entry, field; all at once).

use super::Catalogue;
use crate::catalogue::source::SourceFile;
use crate::rules::skirmishers::track::TrackKind;
use crate::rules::skirmishers::trooper::{Armour, Experience};

/// The 36 rows of the book's weapon tables.
const BOOK: [&str; 36] = [
    "SMG",
    "Rifle",
    "Laser SMG",
    "Laser Rifle",
    "Gyrojet Rifle",
    "Pistol",
    "Auto Pistol",
    "Laser Pistol",
    "Fists",
    "Bayonet/Knife",
    "Blackjack",
    "Club",
    "Stun Baton",
    "Sword",
    "Vibroblade",
    "Hand Grenade",
    "Satchel Charge",
    "Light Machine Gun",
    "Medium Machine Gun",
    "Heavy Machine Gun",
    "Semi-Portable Laser",
    "Heavy Semi-Portable Laser",
    "Light Anti-Tank Weapon",
    "Rocket Launcher",
    "Anti-Tank Missile",
    "Grenade Launcher",
    "Auto-Grenade Launcher",
    "Recoilless Rifle",
    "Flamethrower",
    "Heavy Flamethrower",
    "Incendiary Grenade",
    "Incendiary Rocket",
    "PA Machine Gun",
    "PA Heavy Laser",
    "PA Flamethrower",
    "PA Anti-Tank Missile",
];

#[test]
fn the_embedded_catalogue_ships_every_book_weapon_and_varied_troopers() {
    let c = Catalogue::embedded().unwrap();
    for name in BOOK {
        assert!(c.weapon(name).is_ok(), "{name}");
    }
    let rifle = c.weapon("Rifle").unwrap();
    assert_eq!((rifle.lethal.clone(), rifle.short, rifle.long, rifle.pv), (vec![4], Some(26), Some(85), 159));
    assert_eq!(c.weapon("Anti-Tank Missile").unwrap().lethal, vec![13, 6, 3, 1]);
    assert!(c.troopers.len() >= 8);
    assert_eq!(c.squads.len(), 3);
    for track in [TrackKind::Basic, TrackKind::Power] {
        assert!(c.troopers.iter().any(|t| t.track == track));
    }
    for a in [Armour::None, Armour::Basic, Armour::Standard, Armour::Heavy] {
        assert!(c.troopers.iter().any(|t| t.armour == a), "{a:?}");
    }
    for e in [Experience::Green, Experience::Regular, Experience::Veteran, Experience::Elite] {
        assert!(c.troopers.iter().any(|t| t.experience == e), "{e:?}");
    }
    // UNIT_PV: Rifle 159 + Pistol 13 + 4 hand grenades 44.
    assert_eq!(c.trooper("Rifleman").unwrap().pv, 216);
    assert_eq!(c.squad("Rifle squad").unwrap().pv, 8 * 216);
    assert_eq!(c.select("squad:Power lance").unwrap(), vec!["Power Trooper", "Heavy Power Trooper"]);
}

#[test]
fn every_error_at_once_with_file_line_entry_and_field() {
    let text = r#"
[[weapon]]
name = "Rifle"
class = "primary"
lethal = 4
shots = 1
short = 26
long = 85

[[weapon]]
name = "Blaster"
class = "ray-gun"
lethal = 5
colour = "red"

[[trooper]]
name = "Trooper"
primary = "Rifel"
grenades = 4

[[trooper]]
name = "Suit"
track = "power"
body_armor = "none"
primary = "Rifle"
grenades = 2

[[squad]]
name = "Squad"
members = [{ trooper = "Nobody", count = 2 }]

[[weapon]]
name = "Rifle"
class = "primary"
lethal = 4
shots = 1
short = 30
long = 20
"#;
    let files = [SourceFile { name: "bad.toml".into(), text: text.into() }];
    let errs = Catalogue::from_read("test", &files, Vec::new()).unwrap_err().0;
    let find = |field: &str| {
        errs.iter()
            .find(|e| e.field.as_deref() == Some(field))
            .unwrap_or_else(|| panic!("no error on {field}: {errs:#?}"))
    };
    assert!(find("class").message.contains("unknown class `ray-gun`"));
    assert!(find("colour").message.contains("unknown key"));
    let primary = find("primary");
    assert!(primary.message.contains("did you mean") || primary.message.contains("Rifle"), "{}", primary.message);
    assert_eq!(primary.entry.as_deref(), Some("trooper \"Trooper\""));
    assert_eq!(primary.position.unwrap().line, 18);
    assert!(find("body_armor").message.contains("power armour"));
    assert!(find("grenades").message.contains("cannot use hand grenades"));
    assert!(find("members[0].trooper").message.contains("unknown trooper `Nobody`"));
    assert!(find("name").message.contains("duplicate name"));
    assert!(find("long").message.contains("shorter than short"));
    assert!(errs.iter().all(|e| e.file == "bad.toml"));
    assert!(errs.len() >= 8, "{errs:#?}");
}

#[test]
fn explosives_and_incendiaries_with_shots_are_refused_like_melee_weapons() {
    // A weapon with `shots` fires from an arc; an explosive targets a dot at the end of
    // the turn ("Explosives": "do not apply any modifiers for a prone target").
    let text = r#"
[[weapon]]
name = "Hand Grenade"
class = "explosive"
lethal = [6, 3, 1]
ap_cost = "1/dot"
ammo = 4
shots = 2

[[weapon]]
name = "Grenade Launcher"
class = "advanced-explosive"
lethal = [4, 2, 1]
ap_cost = 3
ammo = 4
short = 19
long = 65
shots = 1

[[weapon]]
name = "Flamethrower"
class = "incendiary"
lethal = [2, 1]
ap_cost = 2
short = 7
long = 17
shots = 1

[[weapon]]
name = "Napalm Gun"
class = "power-armor"
incendiary = true
lethal = [8, 4, 2]
short = 12
long = 28
shots = 3
"#;
    let files = [SourceFile { name: "boom.toml".into(), text: text.into() }];
    let errs = Catalogue::from_read("test", &files, Vec::new()).unwrap_err().0;
    let shots: Vec<_> = errs.iter().filter(|e| e.field.as_deref() == Some("shots")).collect();
    let entries: Vec<&str> = shots.iter().map(|e| e.entry.as_deref().unwrap()).collect();
    assert_eq!(
        entries,
        vec![
            "weapon \"Hand Grenade\"",
            "weapon \"Grenade Launcher\"",
            "weapon \"Flamethrower\"",
            "weapon \"Napalm Gun\""
        ],
        "{errs:#?}"
    );
    let lines: Vec<usize> = shots.iter().map(|e| e.position.unwrap().line).collect();
    assert_eq!(lines, vec![8, 18, 27, 36]);
    assert!(shots.iter().all(|e| e.file == "boom.toml" && e.message.contains("has no shots")), "{shots:#?}");
    assert!(shots[0].message.contains("thrown explosive") && shots[1].message.contains("launcher"));
}
