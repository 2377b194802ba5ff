//! Skirmishers' build space (`trooper × primary × secondary × armour × experience`) in
//! `volley search`, and its ad-hoc builds (`Rifleman[Laser Rifle, Auto Pistol, standard
//! armour, veteran]`) wherever a trooper name is taken.

use super::*;

fn sk(args: &[&str]) -> std::process::Output {
    volley().args(["--ruleset", "skirmishers"]).args(args).output().unwrap()
}

fn sk_json(args: &[&str]) -> serde_json::Value {
    let out = sk(&[args, &["--format", "json", "-q"]].concat());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A catalogue not in the repository: a carbine, a planted rifle far better at the same
/// range (12 lethal: out on every hit of a fresh unarmoured trooper, three shots an arc),
/// a sidearm, a baton, and a squad of carbineers as the field.
const PLANTED: &str = r#"
[[weapon]]
name = "Carbine"
class = "primary"
lethal = 3
shots = 1
short = 10
long = 30
pv = 40

[[weapon]]
name = "Planted Rifle"
class = "primary"
lethal = 12
shots = 3
short = 30
long = 60
pv = 40

[[weapon]]
name = "Sidearm"
class = "secondary"
lethal = 2
shots = 1
short = 5
long = 15
pv = 10

[[weapon]]
name = "Baton"
class = "melee"
bludgeoning = 6
ap_cost = 5
pv = 5

[[trooper]]
name = "Grunt"
primary = "Carbine"
grenades = 0

[[squad]]
name = "Grunts"
members = [{ trooper = "Grunt", count = 2 }]
"#;

/// By hand: the Rifleman's card with a Laser Rifle has 12 secondaries (none, 3 ranged, 5
/// melee, satchel charge, light anti-tank weapon, grenade launcher mounted under the
/// rifle), 4 armours and 4 experiences.
#[test]
fn count_prints_the_size_of_the_space() {
    let args = ["search", "--field", "Rifle squad", "--unit", "Rifleman", "--must-include", "Laser Rifle", "--count"];
    let j = sk_json(&args);
    assert_eq!(j["space_size"].as_u64(), Some(12 * 4 * 4), "{j}");
    assert_eq!(j["refused"].as_u64(), Some(0), "{j}");
    assert!(j["space"].as_str().unwrap().starts_with("trooper × primary × secondary × armour × experience"));
    let out = sk(&args);
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("192 legal Skirmishers builds"));
    // any case, `armor` too; a trooper excluded hands its card to the next one on it
    let j = sk_json(&[&args[..], &["--must-include", "VETERAN", "--must-include", "heavy armor"]].concat());
    assert_eq!(j["space_size"].as_u64(), Some(12));
    let j = sk_json(&[
        "search",
        "--field",
        "Rifle squad",
        "--exclude",
        "Rifleman",
        "--must-include",
        "Laser Rifle",
        "--count",
    ]);
    let k = sk_json(&["search", "--field", "Rifle squad", "--must-include", "Laser Rifle", "--count"]);
    assert_eq!(j["space_size"], k["space_size"]);
}

#[test]
fn a_planted_dominant_build_comes_first() {
    let dir = catalogue_dir(&[("planted.toml", PLANTED)]);
    let j = sk_json(&[
        "--loadouts",
        dir.path().to_str().unwrap(),
        "search",
        "--field",
        "Grunts",
        "--must-include",
        "no armour",
        "--range",
        "10",
        "--top",
        "1",
        "--trials",
        "20",
        "--stages",
        "3",
    ]);
    // 2 primaries x 3 secondaries (none, Sidearm, Baton) x 4 experiences, unarmoured (a
    // heavy vest alone shrugs off the field's carbines)
    let size = j["space_size"].as_u64().unwrap();
    assert_eq!(size, 24);
    let board: Vec<&serde_json::Value> = j["leaderboard"].as_array().unwrap().iter().collect();
    assert_eq!(board.len() as u64, size);
    let first = board[0]["candidate"].as_str().unwrap();
    assert!(first.starts_with("Grunt[Planted Rifle"), "{first}");
    assert_eq!(board[0]["tie_group"], 1);
    // every build the race could not tell from the first carries the planted rifle
    for r in board.iter().filter(|r| r["tie_group"] == 1) {
        assert!(r["candidate"].as_str().unwrap().contains("Planted Rifle"), "{r}");
    }
    // and the carbine's builds are all behind the planted rifle's best
    let carbine = board.iter().position(|r| r["candidate"].as_str().unwrap().contains("[Carbine")).unwrap();
    assert!(carbine >= 1, "{carbine}");
}

fn exact_duel(a: &str, b: &str) -> (f64, f64, f64) {
    let j = sk_json(&["duel", a, b, "--range", "5", "--exact"]);
    (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap(), j["p_draw"].as_f64().unwrap())
}

/// An ad-hoc build plays exactly as the catalogue trooper with the same card and loadout
/// (bit-identical exact duel odds, either side), and duel, compare and meta take it.
#[test]
fn an_adhoc_build_is_its_catalogue_twin() {
    let adhoc = "Rifleman[Rifle, Grenade Launcher]";
    assert_eq!(exact_duel(adhoc, "Rifleman"), exact_duel("Grenadier", "Rifleman"));
    assert_eq!(exact_duel("Shock Trooper", adhoc), exact_duel("Shock Trooper", "Grenadier"));
    // written in another case and spacing, it is the same build
    let twin = "Power Trooper[PA Heavy Laser, PA Machine Gun, Pistol, heavy armour, veteran]";
    let other = " power trooper [pa heavy laser,PA MACHINE GUN , pistol, Heavy Armor, VETERAN] ";
    let want = exact_duel("Heavy Power Trooper", "Rifleman");
    assert_eq!(exact_duel(twin, "Rifleman"), want);
    assert_eq!(exact_duel(other, "Rifleman"), want);
    // its PV is the printed weapons' (UNIT_PV): Laser Rifle 143 + Auto Pistol 19 + 44
    let laser = "Rifleman[Laser Rifle, Auto Pistol, standard armour, veteran]";
    let j = sk_json(&["compare", laser, "Rifleman", "--against", "Rifle squad", "--trials", "20"]);
    assert_eq!((j["a_points"].as_f64(), j["b_points"].as_f64()), (Some(206.0), Some(216.0)), "{j}");
    for args in [
        vec!["compare", adhoc, laser, "--against", "Rifle squad", "--trials", "20"],
        vec![
            "meta",
            adhoc,
            "Rifleman[SMG, Vibroblade, heavy armour]",
            "Rifleman",
            "--trials",
            "20",
            "--bootstrap",
            "5",
        ],
        vec!["duel", "Rifleman[elite]", "Rifleman", "--trials", "20"],
    ] {
        let out = sk(&[&args[..], &["-q"]].concat());
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains('['), "{args:?}");
    }
}

/// Bad builds and bad spaces are refused before any work, exit 2, saying why.
#[test]
fn bad_builds_and_spaces_are_refused_before_any_work() {
    for (bad, msg) in [
        ("Rifleman[Pistol]", "`Pistol` is not a primary weapon"),
        ("Rifleman[Rifle, SMG]", "`SMG` is a primary weapon"),
        ("Rifleman[Rocket Launcher, Grenade Launcher]", "mounted under a rifle or SMG"),
        ("Rifleman[Rifle, Pistol, Sword]", "not 3 weapons"),
        ("Rifleman[Rifle, Hand Grenade]", "grenade boxes"),
        ("Rifleman[PA Machine Gun]", "not in power armour"),
        ("Power Trooper[PA Machine Gun, PA Heavy Laser]", "at most 1"),
        ("Power Trooper[Rifle]", "power-armour weapons"),
        ("Rifleman[Lazer Rifle]", "Laser Rifle"),
        ("Rifleman[veteran, elite]", "one experience"),
        ("Rifleman[2*Rifle]", "carried once"),
        ("Riflemann[Rifle]", "Rifleman"),
    ] {
        let out = sk(&["duel", bad, "Rifleman", "--trials", "10", "-q"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(msg), "{bad}: {err}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
    let cases: [(&[&str], &str); 5] = [
        (&["--max-cost", "20"], "the build space is empty"),
        (&["--limit", "100"], "more than the limit of 100"),
        (&["--must-include", "Lazer Rifle"], "Laser Rifle"),
        (&["--unit", "Riflemann"], "Rifleman"),
        (&["--exclude", "veterann"], "veteran"),
    ];
    for (args, msg) in cases {
        let out = sk(&[&["search", "--field", "Rifle squad", "-q"], args].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A build the construction rules allow may have no duel at the search's range (a
/// rifleman whose SMG does not reach 20" and whose other weapon is a launcher, which
/// duels do not fire): it is dropped before the race and counted, not left to stop the
/// race when its first duel is compiled.
#[test]
fn builds_with_no_duel_at_the_range_are_dropped_before_the_race() {
    let space = ["search", "--field", "Rifle squad", "--range", "20", "--unit", "Rifleman"];
    let space = [&space[..], &["--must-include", "Light Anti-Tank Weapon"]].concat();
    let count = sk_json(&[&space[..], &["--count"]].concat());
    let (legal, listed) = (count["space_size"].as_u64().unwrap(), count["listed"].as_u64().unwrap());
    let unplayable = count["unplayable"].as_u64().unwrap();
    assert!(unplayable > 0 && legal + unplayable == listed, "{count}");
    assert!(count["refusal"].as_str().unwrap().contains("duels play arc and melee weapons"), "{count}");
    let j = sk_json(&[&space[..], &["--trials", "5", "--stages", "1", "--top", "1"]].concat());
    assert_eq!(j["space_size"].as_u64(), Some(legal));
    assert_eq!(j["unplayable"].as_u64(), Some(unplayable));
    let board = j["leaderboard"].as_array().unwrap();
    assert_eq!(board.len() as u64, legal);
    assert!(board.iter().all(|r| !r["candidate"].as_str().unwrap().starts_with("Rifleman[SMG, Light Anti-Tank")));
    // at 12", where the SMG reaches, none is dropped
    let near = sk_json(&[
        "search",
        "--field",
        "Rifle squad",
        "--range",
        "12",
        "--unit",
        "Rifleman",
        "--must-include",
        "Light Anti-Tank Weapon",
        "--count",
    ]);
    assert_eq!(near["unplayable"].as_u64(), Some(0));
    assert_eq!(near["space_size"].as_u64(), Some(listed));
}
