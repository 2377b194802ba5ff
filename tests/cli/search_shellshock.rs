//! `volley search` and ad-hoc builds for Shellshock: a unit × its gunners' Gunnery
//! levels (`Panzer IV[Gunnery 3]`, `Panzer IV[G1 Gunnery 3, G2 Gunnery 0]`).

use super::*;

fn ss() -> Command {
    let mut c = volley();
    c.args(["--ruleset", "shellshock"]);
    c
}

fn ok_json(c: &mut Command) -> serde_json::Value {
    let out = c.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn count_prints_the_size_of_the_space_counted_by_hand() {
    // Panzer IV: 2 gunners x 5 priced levels (0-4)
    let j = ok_json(ss().args(["search", "--field", "ww2", "--unit", "panzer iv", "--count", "--format", "json"]));
    assert_eq!(j["space_size"], 25, "{j}");
    assert!(j.get("leaderboard").is_none());
    // every unit: gunners 2, 2, 2, 2, 1, 3, 1
    let j = ok_json(ss().args(["search", "--field", "ww2", "--count", "--format", "json"]));
    assert_eq!(j["space_size"], 4 * 25 + 5 + 125 + 5, "{j}");
    assert_eq!(j["refused"], 0);
    let j = ok_json(ss().args([
        "search",
        "--field",
        "ww2",
        "--must-include",
        "G3 Gunnery 4",
        "--count",
        "--format",
        "json",
    ]));
    assert_eq!(j["space_size"], 25, "{j}");
    let out = ss()
        .args(["search", "--field", "ww2", "--unit", "Hover Skirmisher", "--top", "1", "--count"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("5 legal Shellshock builds"), "{text}");
}

/// Two weak units with four gunners each (625 builds apiece) and one planted unit whose
/// big gun, at the sparse Gunnery 10, kills the field's armoured dummy far more often
/// than at any other level; the weak units' guns cannot kill it.
const PLANTED: &str = r#"
[[weapon]]
name = "Big Gun"
type = "B"
damage = 10
range = 120

[[weapon]]
name = "Pea"
type = "B"
damage = 0
shock = 1
range = 120

[[weapon]]
name = "Plink"
type = "SA"
damage = 1
range = 120

[[chart]]
name = "c"
lines = "ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB"
equipment = [{ letter = "A", name = "Crew" }, { letter = "B", name = "Engine" }]

[[unit]]
name = "Weak A"
era = "future"
defense = { B = 12, M = 12, E = 12, I = 12, SA = 30, P = 12 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 10
penetration_factor = 10
dead_at = 20
chart = "c"
gunners = [{ skill = 0, weapons = ["Pea"] }, { skill = 0, weapons = ["Pea"] }, { skill = 0, weapons = ["Pea"] }, { skill = 0, weapons = ["Pea"] }]
ecv = 100

[[unit]]
name = "Weak B"
era = "future"
defense = { B = 12, M = 12, E = 12, I = 12, SA = 30, P = 12 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 10
penetration_factor = 10
dead_at = 20
chart = "c"
gunners = [{ skill = 1, weapons = ["Pea"] }, { skill = 1, weapons = ["Pea"] }, { skill = 1, weapons = ["Pea"] }, { skill = 1, weapons = ["Pea"] }]
ecv = 100

[[unit]]
name = "Planted"
era = "future"
defense = { B = 12, M = 12, E = 12, I = 12, SA = 30, P = 12 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 10
penetration_factor = 10
dead_at = 20
chart = "c"
gunners = [{ skill = 0, weapons = ["Big Gun"] }]
ecv = 100

[[unit]]
name = "Dummy"
era = "future"
defense = { B = 25, M = 25, E = 25, I = 25, SA = 25, P = 25 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 10
penetration_factor = 10
dead_at = 6
chart = "c"
gunners = [{ weapons = ["Plink"] }]
ecv = 100

[[field]]
name = "dummy"
opponents = ["Dummy"]

[[crew]]
role = "gunner"
skill = 0
ecv = 0

[[crew]]
role = "gunner"
skill = 1
ecv = 1

[[crew]]
role = "gunner"
skill = 2
ecv = 2

[[crew]]
role = "gunner"
skill = 3
ecv = 3

[[crew]]
role = "gunner"
skill = 10
ecv = 10
"#;

#[test]
fn a_planted_dominant_build_comes_first() {
    let dir = catalogue_dir(&[("planted.toml", PLANTED)]);
    let mut c = ss();
    c.args(["--loadouts", dir.path().to_str().unwrap(), "search", "--field", "dummy", "--exclude", "Dummy"]).args([
        "--top",
        "1",
        "--trials",
        "20",
        "--stages",
        "4",
        "--max-turns",
        "10",
        "--format",
        "json",
        "-q",
    ]);
    let j = ok_json(&mut c);
    assert_eq!(j["space_size"], 2 * 625 + 5, "{}", j["space_size"]);
    let first = &j["leaderboard"][0];
    assert_eq!(first["candidate"], "Planted[Gunnery 10]", "{first}");
    assert_eq!(first["cost"], 110.0);
    assert_eq!(first["tie_group"], 1);
    assert!(j["leaderboard"][1]["tie_group"].is_null(), "{}", j["leaderboard"][1]);
}

/// A hand-written unit equal to Panzer IV with both gunners at Gunnery 3, and its ECV
/// with the crew swapped: 90 + (24 - 6) + (24 - 0) = 132.
const TWIN: &str = r#"
[[unit]]
name = "Panzer IV Veterans"
era = "ww2"
defense = { B = 11, M = 10, E = 8, I = 10, SA = 22, P = 13 }
defense_side = { B = 9, M = 9, E = 7, I = 10, SA = 20, P = 12 }
armor = { front = 16, side = 10, rear = 8, top = 4 }
shock_threshold = 5
penetration_factor = 5
dead_at = 16
internal = [{ from = 2, percent = 5, hits = 1 }, { from = 5, percent = 10, hits = 1 }, { from = 8, percent = 20, hits = 2 }, { from = 13, percent = 30, hits = 3 }]
chart = "default"
gunners = [{ skill = 3, weapons = ["75mm Cannon", "7.62mm Coaxial MG"] }, { skill = 3, weapons = ["7.62mm Coaxial MG"] }]
ecv = 132
"#;

#[test]
fn duel_compare_and_meta_take_adhoc_builds() {
    let dir = catalogue_dir(&[("twin.toml", TWIN)]);
    let add = dir.path().join("twin.toml");
    let exact = |a: &str| {
        let j = ok_json(
            ss().args(["--add-loadouts", add.to_str().unwrap(), "duel", a, "Jagdpanther", "--exact"])
                .args(["--format", "json"]),
        );
        (j["p_a_wins"].as_f64().unwrap(), j["p_b_wins"].as_f64().unwrap(), j["p_draw"].as_f64().unwrap())
    };
    let twin = exact("Panzer IV Veterans");
    assert_eq!(exact("Panzer IV[Gunnery 3]"), twin);
    assert_eq!(exact(" panzer iv [G2 Gunnery 3,gunnery 3] "), twin);
    assert_ne!(exact("Panzer IV"), twin, "the skill counts");
    // the ECV is the twin's
    let j = ok_json(
        ss().args(["--add-loadouts", add.to_str().unwrap(), "compare", "Panzer IV[Gunnery 3]", "Panzer IV Veterans"])
            .args(["--against", "ww2", "--trials", "20", "--format", "json", "-q"]),
    );
    assert_eq!((j["a_points"].as_f64(), j["b_points"].as_f64()), (Some(132.0), Some(132.0)), "{}", j["cost"]);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    for args in [
        vec![
            "compare",
            "Panzer IV[Gunnery 4]",
            "Panzer IV[G1 Gunnery 4, G2 Gunnery 0]",
            "--against",
            "ww2",
            "--trials",
            "20",
        ],
        vec![
            "meta",
            "Panzer IV[Gunnery 4]",
            "Jagdpanther[Gunnery 0]",
            "Main Battle Tank",
            "--trials",
            "20",
            "--bootstrap",
            "5",
        ],
        vec![
            "gauntlet",
            "Hover Skirmisher[Gunnery 4]",
            "--field",
            "ww2",
            "--trials",
            "20",
            "--out",
            out.to_str().unwrap(),
            "--no-charts",
        ],
    ] {
        let out = ss().args(&args).arg("-q").output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("Gunnery 4]"), "{args:?}");
    }
}

#[test]
fn bad_builds_and_bad_spaces_are_refused_before_any_work() {
    for (args, msg) in [
        (vec!["search", "--field", "ww2", "--unit", "Panzer V"], "Panzer IV"),
        (vec!["search", "--field", "ww2", "--must-include", "Gunnery 9"], "no build has Gunnery 9"),
        (vec!["search", "--field", "ww2", "--must-include", "Gunery 2"], "Gunnery 2"),
        (vec!["search", "--field", "ww2", "--max-cost", "10"], "the build space is empty"),
        (
            vec!["search", "--field", "ww2", "--unit", "Panzer IV", "--must-include", "G3 Gunnery 1"],
            "the build space is empty",
        ),
        (vec!["search", "--field", "ww2", "--limit", "100"], "holds 235 candidates"),
        (vec!["duel", "Panzer IV[Gunnery 9]", "Jagdpanther", "--trials", "10"], "Gunnery 9 has no ECV"),
        (vec!["duel", "Panzer IV[G3 Gunnery 1]", "Jagdpanther", "--trials", "10"], "has 2 gunners"),
        (vec!["duel", "Panzer IV[2*Gunnery 1]", "Jagdpanther", "--trials", "10"], "once"),
        (vec!["duel", "Panzer IV[Veteran]", "Jagdpanther", "--trials", "10"], "`Gunnery N`"),
        (vec!["duel", "Panzr IV[Gunnery 1]", "Jagdpanther", "--trials", "10"], "Panzer IV"),
    ] {
        let out = ss().args(&args).arg("-q").output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
