//! The bubble shield through the commands: `ttk` plays and names it, `odds`/`ttk` take an
//! ad-hoc target that carries it, `duel --exact` solves a duel with one (the Monte Carlo
//! agreeing), and `battle` plays it.

use super::*;
use volley::stats::binomial::consistent;

const SHIELDED: &str = "Gladiator[Lance Railgun, Devastator, Bubble Shield Projector]";
const BARE: &str = "Gladiator[Lance Railgun, Devastator]";

fn ttk(target: &str, extra: &[&str]) -> serde_json::Value {
    json_of(
        &[
            &["ttk", "--attacker", "Gladiator Lancer", "--target", target, "--range", "12", "--exact"][..],
            extra,
            &["--format", "json", "-q"],
        ]
        .concat(),
    )
}

#[test]
fn ttk_plays_the_shield_of_an_ad_hoc_target_and_says_so() {
    let (shielded, bare) = (ttk(SHIELDED, &[]), ttk(BARE, &[]));
    let mean = |j: &serde_json::Value| j["mean_turns"].as_f64().unwrap();
    // docs/battles.md: 3.498 turns with the projector, 2.677 without.
    assert!((mean(&shielded) - 3.4982394664224).abs() < 1e-9, "{}", mean(&shielded));
    assert!((mean(&bare) - 2.677).abs() < 5e-4, "{}", mean(&bare));
    let played = shielded["played"].as_array().unwrap();
    assert_eq!(played.len(), 1);
    assert!(played[0].as_str().unwrap().contains("1 bubble shield (BUBBLE_SHIELD)"), "{played:?}");
    assert_eq!(bare["played"], serde_json::json!([]));
    // The option off: the gear does nothing, and nothing is said.
    let off = ttk(SHIELDED, &["--option", "BUBBLE_SHIELD=false"]);
    assert_eq!(off["p_kill_by_turn"], bare["p_kill_by_turn"]);
    assert_eq!(off["played"], serde_json::json!([]));
    // The text report's line.
    let text = stdout_of(&["ttk", "--attacker", "Stingray Standard", "--target", SHIELDED, "--range", "12", "--exact"]);
    assert!(
        text.contains("played: the target's 1 bubble shield (BUBBLE_SHIELD): the attacker, auto-stabilized"),
        "{text}"
    );
}

#[test]
fn odds_take_an_ad_hoc_target() {
    let j =
        json_of(&["odds", "--attacker", "Gladiator Lancer", "--target", SHIELDED, "--range", "12", "--format", "json"]);
    let rows = j.as_array().unwrap();
    assert_eq!(rows.len(), 2, "one row per weapon system: {j}");
    assert!(rows.iter().all(|r| r["target"] == SHIELDED && r["target_ac"] == 4), "{j}");
}

#[test]
fn a_duel_with_a_shield_is_solved_exactly_and_the_monte_carlo_agrees() {
    let duel = |target: &str, extra: &[&str]| {
        let base = ["duel", "Gladiator Lancer", target, "--range", "12", "--format", "json", "-q"];
        json_of(&[&base[..], extra].concat())
    };
    let exact = duel(SHIELDED, &["--exact"]);
    assert_eq!(exact["method"], "exact");
    let p = |j: &serde_json::Value, key: &str| j[key].as_f64().unwrap();
    // The shield turns a 42% win into a 17% one (docs/battles.md).
    assert!((p(&exact, "p_a_wins") - 0.1712423519392).abs() < 1e-9, "{exact}");
    assert!((p(&exact, "p_b_wins") - 0.37932250986847).abs() < 1e-9, "{exact}");
    assert!(p(&duel(BARE, &["--exact"]), "p_a_wins") > 0.40);
    // The Monte Carlo's wins against the exact law at exact binomial bounds (two tests,
    // family level 1e-4); negative control: the unshielded duel's exact law is rejected.
    let n = 200_000u64;
    let sampled = duel(SHIELDED, &["--trials", &n.to_string()]);
    let wins = |key: &str| (p(&sampled, key) * n as f64).round() as u64;
    for key in ["p_a_wins", "p_b_wins"] {
        assert!(consistent(wins(key), n, p(&exact, key), 5e-5), "{key}: {} against {}", p(&sampled, key), exact[key]);
    }
    let bare = p(&duel(BARE, &["--exact"]), "p_a_wins");
    assert!(!consistent(wins("p_a_wins"), n, bare, 5e-5), "{bare}");
}

#[test]
fn battles_play_the_shield() {
    let dir = catalogue_dir(&[(
        "shield.toml",
        "[[build]]\nname = \"Gladiator Bubbled\"\nunit = \"Gladiator\"\n\
         weapons = [{ name = \"Lance Railgun\", count = 1 }, { name = \"Devastator\", count = 1 }]\n\
         gear = [\"Bubble Shield Projector\"]\n",
    )]);
    let add = dir.path().join("shield.toml");
    let n = 4_000u64;
    let battle = |extra: &[&str]| {
        let base = ["--add-loadouts", add.to_str().unwrap(), "battle", "Gladiator Lancer", "Gladiator Bubbled"];
        json_of(&[&base[..], &["--range", "12", "--trials", &n.to_string(), "--format", "json", "-q"], extra].concat())
    };
    let (shielded, off) = (battle(&[]), battle(&["--option", "BUBBLE_SHIELD=false"]));
    // Nothing is left out any more, and the report says what it plays.
    assert_eq!(shielded["not_modelled"], serde_json::json!([]));
    let played = shielded["played"].as_array().unwrap();
    assert_eq!(played.len(), 1);
    assert!(played[0].as_str().unwrap().starts_with("`Gladiator Bubbled` carries 1 bubble shield"), "{played:?}");
    assert_eq!(off["played"], serde_json::json!([]));
    // The shield turns the Lancer's 42% into about 17%, as in the duel (docs/battles.md);
    // off, the Gladiator fights bare. Each at exact binomial bounds against the other's
    // rate.
    let wins = |j: &serde_json::Value| (j["p_a_wins"].as_f64().unwrap() * n as f64).round() as u64;
    let rate = |j: &serde_json::Value| j["p_a_wins"].as_f64().unwrap();
    assert!(rate(&shielded) < 0.25 && rate(&off) > 0.35, "{} vs {}", rate(&shielded), rate(&off));
    assert!(!consistent(wins(&shielded), n, rate(&off), 1e-6));
    assert!(!consistent(wins(&off), n, rate(&shielded), 1e-6));
}
