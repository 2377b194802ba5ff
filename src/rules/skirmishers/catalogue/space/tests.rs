//! The space counted by hand on a tiny catalogue, its filters, the loader's legal set,
//! ad-hoc builds equal to their hand-written twins, and errors.

use super::*;
use crate::catalogue::source::SourceFile;

/// Two primaries, a secondary, a launcher (primary, or mounted under a rifle), a knife
/// every trooper carries, a grenade, two power-armour weapons; troopers on three basic
/// cards (`Twin` has `Grunt`'s card) and one power card.
const TINY: &str = r#"
[[weapon]]
name = "Carbine"
class = "primary"
lethal = 3
shots = 2
short = 10
long = 30
pv = 40

[[weapon]]
name = "Blaster"
class = "primary"
lethal = 5
shots = 1
short = 20
long = 60
pv = 60

[[weapon]]
name = "Sidearm"
class = "secondary"
lethal = 2
shots = 2
short = 5
long = 15
pv = 10

[[weapon]]
name = "Knife"
class = "melee"
slot = "carried"
lethal = 3
ap_cost = 5

[[weapon]]
name = "Launcher"
class = "advanced-explosive"
slot = "primary-or-mounted"
lethal = [4, 2, 1]
ap_cost = 3
ammo = 4
short = 10
long = 30
pv = 100

[[weapon]]
name = "Nade"
class = "explosive"
slot = "grenade"
lethal = [6, 3, 1]
ap_cost = "1/dot"
ammo = 4
pv = 44

[[weapon]]
name = "PA Gun"
class = "power-armor"
lethal = 6
shots = "unlimited"
short = 40
long = 100
pv = 200

[[weapon]]
name = "PA Cannon"
class = "power-armor"
lethal = 10
shots = 1
short = 50
long = 150
pv = 300

[[trooper]]
name = "Grunt"
primary = "Carbine"
grenade = "Nade"

[[trooper]]
name = "Twin"
experience = "elite"
body_armor = "heavy"
primary = "Blaster"
secondary = "Sidearm"
grenade = "Nade"

[[trooper]]
name = "Sniper"
primary = "Blaster"
grenades = 2
grenade = "Nade"
sneak_suit = true

[[trooper]]
name = "Suit"
track = "power"
body_armor = "basic"
primary = "PA Gun"
"#;

fn files(extra: &[String]) -> Vec<SourceFile> {
    let mut f = vec![SourceFile { name: "tiny.toml".into(), text: TINY.into() }];
    if !extra.is_empty() {
        f.push(SourceFile { name: "adhoc.toml".into(), text: extra.join("\n") });
    }
    f
}

fn tiny() -> Catalogue {
    Catalogue::from_read("test", &files(&[]), Vec::new()).unwrap()
}

fn space(filter: SpaceFilter) -> Vec<String> {
    build_space(&tiny(), &filter).unwrap().iter().map(|b| b.to_string()).collect()
}

fn entry(cat: &Catalogue, text: &str) -> Result<String, String> {
    let b = AdHocBuild::parse(text).unwrap();
    adhoc_entry(cat, &b, &b.to_string())
}

/// The catalogue with the ad-hoc builds added, or the loader's errors.
fn load(texts: &[&str]) -> Result<Catalogue, String> {
    let cat = tiny();
    let entries = texts.iter().map(|t| entry(&cat, t)).collect::<Result<Vec<_>, _>>()?;
    Catalogue::from_read("test", &files(&entries), Vec::new()).map_err(|e| e.to_string())
}

/// By hand: a basic card has 3 primaries (Carbine, Blaster, Launcher) with 3, 3 and 1
/// secondaries (none, Sidearm, and the Launcher mounted under the two rifles; the
/// Launcher alone has no arc weapon), 4 armours and 4 experiences: 7 x 16 = 112; Grunt
/// and Sniper are two cards (Twin is Grunt's).
/// The power card: 2 single primaries (basic suit) and 3 pairs (standard, heavy suits),
/// 5 secondaries (none, Carbine, Blaster, Sidearm, Launcher), 4 experiences: 8 x 5 x 4.
#[test]
fn the_space_counted_by_hand() {
    let all = space(SpaceFilter::default());
    assert_eq!(all.len(), 2 * 112 + 8 * 5 * 4);
    let mut sorted = all.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), all.len(), "every build once");
    assert_eq!(all[0], "Grunt[Carbine, no armour, green]");
    assert_eq!(all[4], "Grunt[Carbine, basic armour, green]");
    assert!(!all.iter().any(|b| b.starts_with("Twin[")));
    assert!(all.contains(&"Suit[2*PA Gun, Launcher, heavy armour, elite]".to_string()));
    assert!(all.contains(&"Sniper[Blaster, Launcher, standard armour, veteran]".to_string()));
    assert!(!all.iter().any(|b| b.contains("Knife") || b.contains("Nade")));
    assert!(!all.iter().any(|b| b.contains("[Sidearm")
        || b.contains("[Launcher, no armour")
        || b.starts_with("Suit[PA Gun, PA Cannon, basic")));
}

#[test]
fn filters_restrict_the_space() {
    let f = |bases: &[&str], cost: Option<f64>, must: &[&str], excl: &[&str]| SpaceFilter {
        bases: bases.iter().map(|s| s.to_string()).collect(),
        max_cost: cost,
        must_include: must.iter().map(|s| s.to_string()).collect(),
        exclude: excl.iter().map(|s| s.to_string()).collect(),
    };
    // a trooper named by the filter stands for its card
    let twin = space(f(&["twin"], None, &[], &[]));
    assert_eq!(twin.len(), 112);
    assert!(twin.iter().all(|b| b.starts_with("Twin[")));
    // PV (UNIT_PV) at most 100: Grunt (44 of grenades) with Carbine and none or Sidearm,
    // Sniper (22) with Carbine or Blaster and none or Sidearm: 6 loadouts x 16
    assert_eq!(space(f(&[], Some(100.0), &[], &[])).len(), 6 * 16);
    // any case, `armor` too: 7 loadouts x 2 basic cards, 3 pairs x 5 secondaries
    assert_eq!(space(f(&[], None, &["VETERAN", "standard armor"], &[])).len(), 14 + 15);
    assert_eq!(space(f(&[], None, &[], &["launcher"])).len(), 2 * 4 * 16 + 8 * 4 * 4);
    // excluding a trooper leaves its card to the next trooper on it
    let no_grunt = space(f(&[], None, &[], &["Grunt"]));
    assert_eq!(no_grunt.len(), 2 * 112 + 160);
    assert!(no_grunt[0].starts_with("Twin["), "{}", no_grunt[0]);
    for (bad, near) in [("Sidarm", "Sidearm"), ("veterann", "veteran"), ("Gruntt", "Grunt")] {
        let e = build_space(&tiny(), &f(&[], None, &[bad], &[])).unwrap_err();
        assert!(e.contains(near), "{bad}: {e}");
    }
    assert!(build_space(&tiny(), &f(&["Grnt"], None, &[], &[])).unwrap_err().contains("Grunt"));
}

/// Every build of the space loads, with the PV the space filtered on; what the loader
/// accepts beyond the space is only a standard or heavy suit with one primary (the book:
/// those suits "have two primary weapons"), a pair of primaries in the other order, or a
/// build with no arc weapon.
#[test]
fn the_space_is_the_loaders_legal_set() {
    let cat = tiny();
    let all = build_space(&cat, &SpaceFilter::default()).unwrap();
    let texts: Vec<String> = all.iter().map(|b| b.to_string()).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let loaded = load(&refs).unwrap();
    let grunt = loaded.trooper("Grunt[Carbine, Launcher, heavy armour, elite]").unwrap();
    assert_eq!((grunt.pv, grunt.grenades), (40 + 100 + 44, 4));
    // every weapon in every slot, on each card, against the loader
    let weapons: Vec<&str> = cat.weapons.iter().map(|w| w.name.as_str()).collect();
    // a build as its entry without the name: weapons written in another order are one build
    let unnamed = |b: &AdHocBuild| adhoc_entry(&cat, b, "x").unwrap();
    let listed: Vec<String> = all.iter().map(unnamed).collect();
    let mut extra = Vec::new();
    for base in ["Grunt", "Sniper", "Suit"] {
        let power = base == "Suit";
        let mut prims: Vec<Vec<&str>> = weapons.iter().map(|w| vec![*w]).collect();
        if power {
            for (i, a) in weapons.iter().enumerate() {
                prims.extend(weapons[i..].iter().map(|b| vec![*a, *b]));
            }
        }
        for p in &prims {
            for s in std::iter::once(None).chain(weapons.iter().map(Some)) {
                for a in ["no armour", "basic armour", "standard armour", "heavy armour"] {
                    let mut parts: Vec<&str> = p.clone();
                    parts.extend(s);
                    let text = format!("{base}[{}, {a}, regular]", parts.join(", "));
                    let Ok(b) = AdHocBuild::parse(&text) else { continue };
                    let Ok(e) = adhoc_entry(&cat, &b, &b.to_string()) else { continue };
                    let legal = Catalogue::from_read("test", &files(&[e]), Vec::new()).is_ok();
                    if listed.contains(&unnamed(&b)) {
                        assert!(legal, "{b}");
                    } else if legal {
                        extra.push(b.to_string());
                    }
                }
            }
        }
    }
    assert!(!extra.is_empty());
    extra.sort();
    extra.dedup();
    let extras: Vec<&str> = extra.iter().map(String::as_str).collect();
    let loaded = load(&extras).unwrap();
    for b in &extra {
        let t = loaded.trooper(b).unwrap();
        let one_primary_suit = t.track == TrackKind::Power && t.armour != Armour::Basic && t.primaries.len() == 1;
        // two primaries in the other order: the space lists each pair once
        let swapped = t.primaries.len() == 2 && {
            let mut parts: Vec<&str> = vec![&t.primaries[1].name, &t.primaries[0].name];
            parts.extend(t.secondary.iter().map(|w| w.name.as_str()));
            let text = format!("Suit[{}, {}, regular]", parts.join(", "), armour_part(t.armour));
            listed.contains(&unnamed(&AdHocBuild::parse(&text).unwrap()))
        };
        let no_arc = !t.primaries.iter().chain(t.secondary.iter()).any(|w| matches!(w.usage(), Use::Arc { .. }));
        assert!(one_primary_suit || swapped || no_arc, "legal but not in the space: {b}");
    }
}

#[test]
fn the_loader_refuses_weapons_in_the_wrong_slot() {
    for (bad, msg) in [
        ("Grunt[Sidearm]", "`Sidearm` is not a primary weapon"),
        ("Grunt[Carbine, Blaster]", "`Blaster` is a primary weapon"),
        ("Grunt[Launcher, Launcher]", "carried once"),
        ("Grunt[Launcher, Sidearm, Carbine]", "not 3 weapons"),
        ("Grunt[Sidearm, Launcher]", "mounted under a rifle or SMG"),
        ("Grunt[Carbine, Knife]", "every trooper carries it"),
        ("Grunt[Carbine, Nade]", "grenade boxes"),
        ("Grunt[PA Gun]", "not in power armour"),
        ("Suit[Carbine]", "power-armour weapons"),
        ("Suit[PA Gun, PA Cannon]", "at most 1"),
        ("Suit[2*PA Gun, heavy armour, Carbine, Sidearm]", "one secondary"),
        ("Suit[no armour]", "power armour is basic, standard or heavy"),
    ] {
        let e = load(&[bad]).unwrap_err();
        assert!(e.contains(msg), "{bad}: {e}");
    }
    assert!(load(&["Grunt[Launcher, Sidearm]", "Grunt[Blaster, Launcher]", "Suit[PA Cannon, 2*PA Gun]"]).is_err());
    assert!(
        load(&["Grunt[Launcher, Sidearm]", "Grunt[Blaster, Launcher]", "Suit[PA Cannon, PA Gun, heavy armour]"])
            .is_ok()
    );
}

#[test]
fn unknown_and_repeated_parts_are_refused_with_the_nearest_names() {
    let cat = tiny();
    for (bad, msg) in [
        ("Grnt[Carbine]", "Grunt"),
        ("Grunt[Carbin]", "Carbine"),
        ("Grunt[veterann]", "veteran"),
        ("Grunt[standard armur]", "standard armour"),
        ("Grunt[2*veteran]", "carried once"),
        ("Grunt[veteran, green]", "one experience: `veteran` and `green`"),
        ("Grunt[heavy armor, no armour]", "one armour: `heavy armour` and `no armour`"),
    ] {
        let e = entry(&cat, bad).unwrap_err();
        assert!(e.contains(msg), "{bad}: {e}");
    }
}

/// What a build does not name is the trooper's, and a build with the hand-written
/// trooper's every field loads as that trooper (the engine reads nothing else).
#[test]
fn an_adhoc_build_loads_as_its_hand_written_twin() {
    let loaded =
        load(&["Twin[veteran]", "twin[Carbine, no armour]", "Suit[pa cannon, PA GUN, STANDARD ARMOR]"]).unwrap();
    let t = loaded.trooper("Twin[veteran]").unwrap();
    assert_eq!(
        (t.experience, t.armour, t.secondary.as_ref().unwrap().name.as_str()),
        (Experience::Veteran, Armour::Heavy, "Sidearm")
    );
    let t = loaded.trooper("twin[Carbine, no armour]").unwrap();
    assert_eq!((t.experience, t.armour, t.secondary.is_none(), t.pv), (Experience::Elite, Armour::None, true, 84));
    let t = loaded.trooper("Suit[pa cannon, PA GUN, STANDARD ARMOR]").unwrap();
    let names: Vec<&str> = t.primaries.iter().map(|w| w.name.as_str()).collect();
    assert_eq!((names, t.armour, t.pv), (vec!["PA Cannon", "PA Gun"], Armour::Standard, 500));
    // the embedded catalogue's troopers, rebuilt from others' cards
    let cat = Catalogue::embedded().unwrap();
    for (adhoc, twin) in [
        ("Rifleman[Rifle, Grenade Launcher]", "Grenadier"),
        ("Green Rifleman[Laser Rifle, Laser Pistol, heavy armour, elite]", "Elite Laser Sniper"),
        ("Power Trooper[PA Heavy Laser, PA Machine Gun, Pistol, heavy armour, veteran]", "Heavy Power Trooper"),
        ("Rifleman[SMG, Vibroblade, standard armour, veteran]", "Shock Trooper"),
    ] {
        let b = AdHocBuild::parse(adhoc).unwrap();
        let e = adhoc_entry(&cat, &b, adhoc).unwrap();
        let mut files = crate::catalogue::source::embedded(super::super::CATALOGUE_DIR);
        files.push(SourceFile { name: "adhoc.toml".into(), text: e });
        let with = Catalogue::from_read("test", &files, Vec::new()).unwrap();
        let mut got = with.trooper(adhoc).unwrap().clone();
        let want = with.trooper(twin).unwrap();
        if twin == "Elite Laser Sniper" {
            // the sniper carries 2 grenades and a sneak suit: the card the build keeps
            assert_eq!((got.grenades, got.sneak_suit), (4, false));
            got.grenades = 2;
            got.sneak_suit = true;
            got.pv = want.pv;
        }
        got.name = want.name.clone();
        assert_eq!(&got, want, "{adhoc}");
    }
}
