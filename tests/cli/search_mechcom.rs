//! `volley search` on MECHCOM: the space mech × pilot × profile, and ad-hoc builds
//! `Mech[Pilot, Profile]` wherever a model name is taken.

use super::*;

fn mc(args: &[&str]) -> std::process::Output {
    volley().args(["--ruleset", "mechcom"]).args(args).output().unwrap()
}

fn mc_json(args: &[&str]) -> serde_json::Value {
    let out = mc(&[args, &["--format", "json", "-q"]].concat());
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The built-in catalogue's space, counted by hand from loadouts/mechcom: Typhon (no
/// pilot, Steady Hand, Iris Kade, Rook) × (BASE, Overclocked) = 8; Kerberos and Pythia
/// (none, Steady Hand, Rook) = 3 each; Wasp, Valkyrie, Junker, Rustbucket (none, Rook) =
/// 2 each; Sentinel (none, Rook) × (BASE, Spotter) = 4; Bulwark (none, Line Veteran,
/// Rook) × (BASE, Siege) = 6; the Building none: 32.
#[test]
fn count_prints_the_size_of_the_space() {
    assert_eq!(mc_json(&["search", "--field", "arena", "--top", "1", "--count"])["space_size"], 32);
    assert_eq!(mc_json(&["search", "--field", "arena", "--unit", "typhon", "--top", "1", "--count"])["space_size"], 8);
    let j = mc_json(&[
        "search",
        "--field",
        "arena",
        "--must-include",
        "Rook",
        "--max-cost",
        "300",
        "--top",
        "1",
        "--count",
    ]);
    // Wasp 230, Valkyrie 260, Junker 240, Rustbucket 200, Kerberos 270, Pythia 250, Typhon 290
    assert_eq!(j["space_size"], 7);
    let out = mc(&["search", "--field", "arena", "--unit", "Sentinel", "--top", "1", "--count"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("4 legal MECHCOM builds"));
}

/// A catalogue not in the repository: three Corpro mechs (one with two profiles), four
/// pilots, and an Ace whose card makes the Brick far stronger than anything else.
const PLANTED: &str = r#"
[[weapon]]
name = "Rivet Gun"
range = 6
damage = 2
attacks = 2

[[mech]]
name = "Brick"
faction = "Corpro"
cost = 200
energy = 6
movement = 3
sensors = 6
stability = 4
strength = 0
armour = 4
integrity = 8
weapons = ["Rivet Gun"]

[[mech]]
name = "Slab"
faction = "Corpro"
cost = 210
energy = 6
movement = 3
sensors = 6
stability = 4
strength = 0
armour = 4
integrity = 9
weapons = ["Rivet Gun"]
profiles = [{ name = "Heavy Plate", cost = 20 }, { name = "Spotter", cost = 10 }]

[[mech]]
name = "Chip"
faction = "Corpro"
cost = 150
energy = 6
movement = 4
sensors = 6
stability = 4
strength = 0
armour = 3
integrity = 7
weapons = ["Rivet Gun"]

[[pilot]]
name = "Steady"
type = "regular"
cost = 20
faction = "Corpro"
bonus = { stability = -1 }

[[pilot]]
name = "Tough"
type = "regular"
cost = 20
faction = "Corpro"
bonus = { integrity = 1 }

[[pilot]]
name = "Hired Gun"
type = "mercenary"
cost = 30
bonus = { energy = 3 }

[[pilot]]
name = "Planted Ace"
type = "ace"
cost = 40
faction = "Corpro"
mechs = ["Brick"]
bonus = { stability = -3, armour = 3, integrity = 10, energy = 6 }

[[field]]
name = "yard"
opponents = ["Slab", "Chip+Steady"]
"#;

#[test]
fn a_planted_dominant_build_comes_first() {
    let dir = catalogue_dir(&[("planted.toml", PLANTED)]);
    let d = dir.path().to_str().unwrap();
    let j = mc_json(&["--loadouts", d, "search", "--field", "yard", "--top", "1", "--trials", "20", "--stages", "3"]);
    // Brick (none + 4 pilots) 5, Slab (none + 3 pilots) × 3 profiles 12, Chip 4: 21
    assert_eq!(j["space_size"], 21);
    let board = j["leaderboard"].as_array().unwrap();
    assert_eq!(board.len(), 21);
    assert_eq!(board[0]["candidate"], "Brick[Planted Ace]");
    assert_eq!(board[0]["cost"], 240.0);
    assert_eq!(board[0]["tie_group"], 1);
    assert!(board[1]["tie_group"].is_null(), "{}", board[1]);
    let slab = board.iter().find(|r| r["candidate"] == "Slab[Hired Gun, Heavy Plate]").unwrap();
    assert_eq!(slab["cost"], 260.0);
}

/// An ad-hoc build plays as the same model written `Mech+Pilot` (bit-identical exact
/// duel odds), costs what a squad pays for it, and is taken by duel, compare and meta.
#[test]
fn duel_compare_and_meta_take_adhoc_builds() {
    let exact = |a: &str| {
        let j = mc_json(&["duel", a, "Wasp", "--exact"]);
        (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap(), j["p_draw"].as_f64().unwrap())
    };
    assert_eq!(exact("Kerberos[Steady Hand]"), exact("Kerberos+Steady Hand"));
    assert_eq!(exact(" kerberos [ STEADY HAND ] "), exact("Kerberos+Steady Hand"));
    assert_ne!(exact("Kerberos[Steady Hand]"), exact("Kerberos"));
    let c = mc_json(&["compare", "Sentinel[Spotter]", "Wasp[Rook]", "--against", "arena", "--trials", "20"]);
    assert_eq!((c["a"].as_str(), c["b"].as_str()), (Some("Sentinel[Spotter]"), Some("Wasp[Rook]")), "{c}");
    assert_eq!((c["a_points"].as_f64(), c["b_points"].as_f64()), (Some(310.0), Some(230.0)));
    let m = mc_json(&["meta", "Sentinel[Spotter]", "Wasp[Rook]", "Kerberos", "--trials", "20", "--bootstrap", "5"]);
    assert_eq!(m["players"], serde_json::json!(["Sentinel[Spotter]", "Wasp[Rook]", "Kerberos"]));
    let costs = serde_json::json!({ "Sentinel[Spotter]": 310.0, "Wasp[Rook]": 230.0, "Kerberos": 220.0 });
    assert_eq!(m["costs"], costs);
    for (bad, msg) in [
        ("Kerberos[Iris Kade]", "pilot `Iris Kade` flies only Typhon; not `Kerberos`"),
        ("Wasp[Spotter]", "`Spotter` is a profile of `Sentinel`, not of `Wasp`"),
        ("Wasp[Rook, Rook]", "not 2 copies of `Rook`"),
        ("Typhon[Steady Hand, Iris Kade]", "one pilot card"),
        ("Wasp[Rok]", "Rook"),
        ("Wsp[Rook]", "Wasp"),
        ("Building[]", "neutral terrain"),
    ] {
        let out = mc(&["duel", bad, "Wasp", "--trials", "10", "-q"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(msg), "{bad}: {err}");
    }
}

#[test]
fn bad_spaces_are_refused_before_any_work() {
    let cases: [(&[&str], &str); 6] = [
        (&["--max-cost", "100"], "the build space is empty"),
        (&["--unit", "Building"], "the build space is empty"),
        (&["--limit", "10"], "the build space holds 32 candidates, more than the limit of 10"),
        (&["--unit", "Wasp", "--must-include", "Rok"], "Rook"),
        (&["--unit", "Wsp"], "Wasp"),
        (&["--exclude", "Spoter"], "Spotter"),
    ];
    for (args, msg) in cases {
        let out = mc(&[&["search", "--field", "arena", "-q"][..], args].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
