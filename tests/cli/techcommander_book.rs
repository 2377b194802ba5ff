//! TechCommander against its books, through the binary: copies beyond the link limit, an
//! overrun that fires, an aerial unit in the red, and the options that name them.

use super::*;

const EPS: f64 = 1e-12;

/// The book-rule test cards the battle unit tests play (an aerial and a ground AC2
/// vehicle, and `Sure Post`: an AC3 vehicle of speed 0, so no ram or overrun reaches,
/// whose 30-damage gun always hits), and an AC4 MSV carrying two Blackouts (not
/// linkable: the book's own example).
const BOOK_CARDS: &str = include_str!("../../src/rules/techcommander/battle/book_cards.toml");
const TWIN: &str = r#"
[[unit]]
name = "Twin"
kind = "msv"
ac = 4
speed = 8
free_weight = 20
free_power = 20

[[build]]
name = "Twin Blackout"
unit = "Twin"
weapons = [{ name = "Blackout", count = 2 }]
"#;

fn cards() -> tempfile::TempDir {
    catalogue_dir(&[("cards.toml", &format!("{BOOK_CARDS}{TWIN}"))])
}

fn json_in(dir: &tempfile::TempDir, args: &[&str]) -> serde_json::Value {
    let args: Vec<&str> = args.iter().copied().chain(["--add-loadouts", "cards.toml", "--format", "json"]).collect();
    let out = volley().current_dir(dir.path()).args(&args).output().unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn close(v: &serde_json::Value, x: f64, what: &str) {
    let got = v.as_f64().unwrap_or_else(|| panic!("{what}: {v}"));
    assert!((got - x).abs() < EPS, "{what}: {got} vs {x}");
}

/// Two Blackouts on an MSV build: each copy beyond the link limit (1) is a system of its
/// own. Against an AC1 target at range 10, each fires 2 shots at T = 10 + 1 + 2 = 13;
/// the Omega Override fires all four at T 10 (no fire control, no size), 12 life a hit:
/// P(kill) = 1 − (1 + 4)/16 = 11/16. An attack run fires one Blackout per action: two
/// hits in four shots at .65 kill in turn 1: 1 − .35⁴ − 4 × .65 × .35³ = .87351875.
#[test]
fn copies_beyond_the_link_limit_are_separate_systems() {
    let dir = cards();
    let rows = json_in(&dir, &["odds", "--attacker", "Twin Blackout", "--target", "ac:1", "--range", "10"]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for r in rows {
        assert_eq!(
            (r["weapon"].as_str(), r["copies"].as_u64(), r["shots"].as_u64()),
            (Some("Blackout"), Some(1), Some(2))
        );
        assert_eq!(r["target_number"], 13);
        close(&r["p_one_action_kill"], 0.65 * 0.65, "one Blackout");
    }
    let omega = json_in(
        &dir,
        &["odds", "--attacker", "Twin Blackout", "--target", "ac:1", "--range", "10", "--mode", "omega-override"],
    );
    let last = omega.as_array().unwrap().last().unwrap().clone();
    assert_eq!((last["weapon"].as_str(), last["shots"].as_u64()), (Some("Omega Override"), Some(4)));
    close(&last["p_one_action_kill"], 11.0 / 16.0, "Omega Override");
    let ttk = json_in(&dir, &["ttk", "--attacker", "Twin Blackout", "--target", "ac:1", "--range", "10", "--exact"]);
    close(&ttk["p_kill_by_turn"][0], 0.87351875, "turn 1");
}

/// "Aerial units that are 'In the red' ... must immediately land, if they cannot land,
/// they are eliminated": the post's one sure shot takes the Hover from 20 to 5 life
/// (30 / 2), so it wins every one-turn battle (`AERIAL_IN_THE_RED=eliminated`); when the
/// Hover lands it survives and the battle is a draw.
#[test]
fn an_aerial_unit_in_the_red_is_eliminated() {
    let dir = cards();
    let args = ["battle", "Sure Post", "Hover", "--range", "12", "--max-turns", "1", "--trials", "200", "-q"];
    let j = json_in(&dir, &args);
    close(&j["p_a_wins"], 1.0, "eliminated");
    let j = json_in(&dir, &[&args[..], &["--option", "AERIAL_IN_THE_RED=lands"]].concat());
    close(&j["p_a_wins"], 0.0, "lands");
}

/// The new rulings are options with the book's reading as default, listed by `volley
/// rulesets`.
#[test]
fn the_new_rulings_are_listed_options() {
    let specs = json_of(&["rulesets", "--format", "json"]);
    let tc = specs.as_array().unwrap().iter().find(|r| r["name"] == "techcommander").expect("techcommander");
    let options = tc["options"].as_array().unwrap();
    for (name, default) in [
        ("OVERRUN_FIRE", "true"),
        ("AERIAL_IN_THE_RED", "eliminated"),
        ("FREE_DIG_IN", "true"),
        ("SPLIT_SHOTS", "true"),
        ("REPAIR", "true"),
        ("REPAIR_REVIVES", "true"),
    ] {
        let o = options.iter().find(|o| o["name"] == name).unwrap_or_else(|| panic!("{name} listed"));
        assert_eq!(o["default"], default, "{o}");
    }
}
