//! Shellshock's Weapons Selection limits (`FIRING_LIMITS`), ammunition (`AMMO`),
//! physical attacks (`PHYSICAL`) and dodging (`DODGE`) end to end through the binary, on
//! a catalogue that is not in the repository, against values computed here by hand.
//!
//! Every target is "Box": every DV 11, armour 0, Shock Threshold and Penetration Factor
//! 6, Dead 7+. Weapons of one Damage die, range 0, 2d10 at Gunnery 0: a roll at TN 11 hits
//! every weapon it fires (undoubled 261/500, doubled and not destroyed 279/10000, a second
//! 20 1/10000), and k Damage dice destroy when they make 7 (undoubled) or 4 (doubled):
//! K(1) = 281/20000, K(2) = 118863/360000, K(3) = 1083321/2160000. Dodging (two dice
//! levels off, 2d10 to d10+d6) at TN 11 with one die: P(hit) = 7/20, doubled 1/100 (a 10
//! then a 10 on the d10), so K = 1/100 x 1/2 = 1/200.

use super::*;

const CATALOGUE: &str = r#"
[[weapon]]
name = "Cannon"
type = "B"
damage = 1
range = 60

[[weapon]]
name = "Pod A"
type = "M"
class = "rocket-pod"
damage = 1
range = 60

[[weapon]]
name = "Pod B"
type = "M"
class = "rocket-pod"
damage = 1
range = 60

[[weapon]]
name = "Pod Two Rounds"
type = "M"
class = "rocket-pod"
damage = 1
range = 60
ammo = 2

[[weapon]]
name = "Kick"
type = "P"
damage = 2
range = 1

[[chart]]
name = "plain"
lines = "ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB"
equipment = [{ letter = "A", name = "Crew", kind = "crew" }, { letter = "B", name = "Hull" }]

[[unit]]
name = "Box"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon"] }]
ecv = 10

[[unit]]
name = "Battery"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Pod A", "Pod B"] }]
ecv = 10

[[unit]]
name = "Two Rounds"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Pod Two Rounds"] }]
ecv = 10

[[unit]]
name = "Kicker"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Kick"] }]
ecv = 10
"#;

const K1: f64 = 281.0 / 20000.0;
const K2: f64 = 118863.0 / 360000.0;
const K3: f64 = 1083321.0 / 2160000.0;

/// `ttk --exact` of `attacker` at Box, range 0, 6 turns, with `options`: P(kill by turn).
fn exact(dir: &tempfile::TempDir, attacker: &str, options: &[&str]) -> Vec<f64> {
    let mut args = vec![
        "--ruleset",
        "shellshock",
        "--loadouts",
        dir.path().to_str().unwrap(),
        "ttk",
        "--attacker",
        attacker,
        "--target",
        "Box",
        "--range",
        "0",
        "--max-turns",
        "6",
        "--exact",
        "--format",
        "json",
    ];
    for o in options {
        args.extend_from_slice(&["--option", o]);
    }
    let out = volley().args(&args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    j["p_kill_by_turn"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

fn by_turn(per_turn: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut alive = 1.0;
    (1..=6)
        .map(|t| {
            alive *= 1.0 - per_turn(t);
            1.0 - alive
        })
        .collect()
}

fn same(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (k, (g, w)) in got.iter().zip(want).enumerate() {
        assert!((g - w).abs() < 1e-12, "{what}, turn {}: {g} vs {w}", k + 1);
    }
}

#[test]
fn limits_rounds_kicks_and_dodges_by_hand() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    same(&exact(&dir, "Battery", &[]), &by_turn(|_| K2), "Battery: a cannon and one pod");
    same(&exact(&dir, "Battery", &["FIRING_LIMITS=OFF"]), &by_turn(|_| K3), "Battery, FIRING_LIMITS=OFF");
    same(&exact(&dir, "Two Rounds", &[]), &by_turn(|t| if t <= 2 { K1 } else { 0.0 }), "two rounds");
    same(&exact(&dir, "Two Rounds", &["AMMO=UNLIMITED"]), &by_turn(|_| K1), "AMMO=UNLIMITED");
    same(&exact(&dir, "Kicker", &[]), &by_turn(|_| K2), "Kicker: the kick alone");
    same(&exact(&dir, "Kicker", &["PHYSICAL=OFF"]), &by_turn(|_| K3), "PHYSICAL=OFF");
    same(&exact(&dir, "Box", &["DODGE=ALWAYS"]), &by_turn(|_| 1.0 / 200.0), "a dodging Box");
}

#[test]
fn unknown_classes_and_counts_are_catalogue_errors() {
    let bad = CATALOGUE.replace(
        "class = \"rocket-pod\"\ndamage = 1\nrange = 60\nammo = 2",
        "class = \"torpedo\"\ndamage = 1\nrange = 60\nammo = 0",
    );
    let dir = catalogue_dir(&[("units.toml", &bad)]);
    let out = volley().args(["--ruleset", "shellshock", "validate", dir.path().to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown weapon class `torpedo`") && err.contains("ammo"), "{err}");
}
