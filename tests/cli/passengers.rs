//! `volley battle` with passengers aboard carriers (techcommander-battles.md §2.4-2.6).

use super::*;

const SIEGE: &str = "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT";

#[test]
fn the_shipped_force_with_passengers_fights_and_lists_its_passengers() {
    let j = json_of(&[
        "battle",
        "Mounted Troops",
        "Siege Group",
        "--trials",
        "2000",
        "--seed",
        "3",
        "-q",
        "--format",
        "json",
    ]);
    assert_eq!(j["trials"].as_u64(), Some(2000));
    let units = j["units"].as_array().unwrap();
    assert_eq!(units.len(), 6 + 5, "carrier, 2 passengers, MSV, tank, troop + the siege group");
    let total: f64 = ["p_a_wins", "p_b_wins", "p_draw", "p_undecided"].iter().map(|k| j[k].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12);
    // The same force written on the command line with brackets plays the same battles.
    let text = "Hunter IV Standard[2*ECBS Pirate AT]+Gladiator Lancer+Stingray Standard+ECBS Pirate AT";
    let t = json_of(&["battle", text, SIEGE, "--trials", "2000", "--seed", "3", "-q", "--format", "json"]);
    assert_eq!(t["p_a_wins"], j["p_a_wins"]);
    assert_eq!(t["units"], j["units"]);
}

#[test]
fn bad_passengers_are_refused_with_the_reason() {
    let out = volley().args(["battle", "ECBS Pirate AT[ECBS Pirate AT]", SIEGE, "-q"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("only an MSV or a vehicle carries passengers"), "{err}");
    let out = volley().args(["battle", "Rhino Standard[2*ECBS Pirate AT", SIEGE, "-q"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("without its"));
    let out = volley()
        .args(["battle", "--mode", "deathmatch", "Rhino Standard[ECBS Pirate AT]", SIEGE, "-q"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("deathmatch spawn lists do not play them"));
}
