//! Skirmishers matchups in which one side has no weapon in reach: every engagement
//! command plays them (the side never scores) and flags the side, as the other rulesets
//! do. The Rifle reaches 40 dots; the Veteran SMG Gunner's SMG (Long 17) and Auto Pistol
//! (22) do not.

use super::*;

const SK: [&str; 2] = ["--ruleset", "skirmishers"];

fn run_ok(args: &[&str]) -> String {
    let out = volley().args([&SK[..], args].concat()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn json_ok(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&run_ok(&[args, &["--format", "json"]].concat())).unwrap()
}

const DUEL: [&str; 5] = ["duel", "Rifleman", "Veteran SMG Gunner", "--range", "40"];

#[test]
fn a_skirmishers_duel_out_of_one_sides_reach_is_played_and_flagged() {
    // Was: exit 1, "Veteran SMG Gunner has no weapon for this duel".
    let j = json_ok(&[&DUEL[..], &["--trials", "4000", "-q"]].concat());
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(false)), "{j}");
    assert_eq!(j["p_b_wins"], 0.0, "{j}");
    let text = run_ok(&[&DUEL[..], &["--trials", "4000", "-q"]].concat());
    assert!(text.contains("one-sided: Veteran SMG Gunner cannot attack Rifleman"), "{text}");
    // Exact: B never wins; A wins when its Rifle puts the gunner out by the round cap.
    let e = json_ok(&[&DUEL[..], &["--exact"]].concat());
    assert_eq!((e["a_can_attack"].as_bool(), e["b_can_attack"].as_bool()), (Some(true), Some(false)), "{e}");
    assert_eq!(e["p_b_wins"], 0.0, "{e}");
    let p = e["p_a_wins"].as_f64().unwrap();
    assert!(p > 0.0 && p < 1.0, "{e}");
    let text = run_ok(&[&DUEL[..], &["--exact"]].concat());
    assert!(text.contains("one-sided: Veteran SMG Gunner cannot attack Rifleman"), "{text}");
}

#[test]
fn a_skirmishers_squad_fight_out_of_one_sides_reach_is_played_and_flagged() {
    let args = ["battle", "2*Rifleman", "5*Veteran SMG Gunner", "--range", "40", "--trials", "200", "-q"];
    let j = json_ok(&args);
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(false)), "{j}");
    let text = run_ok(&args);
    assert!(text.contains("one-sided: side B"), "{text}");
}

#[test]
fn a_skirmishers_compare_out_of_one_sides_reach_is_played_and_says_who_never_scores() {
    let args = ["compare", "Rifleman", "Veteran SMG Gunner", "--against", "Rifle squad", "--range", "40"];
    let args = [&args[..], &["--trials", "2000", "-q"]].concat();
    let j = json_ok(&args);
    let m = &j["matchups"][0];
    assert_eq!((m["a_can_attack"].as_bool(), m["b_can_attack"].as_bool()), (Some(true), Some(false)), "{m}");
    assert_eq!(m["one_sided"], true, "{m}");
    let text = run_ok(&args);
    assert!(text.contains("one-sided: Veteran SMG Gunner cannot attack Rifleman at range 40 dots"), "{text}");
    // Was: "parity cost: none (A or B never scores)".
    assert!(
        text.contains(
            "parity cost: none: Veteran SMG Gunner (B) never scores here (it has no weapon in reach at these conditions)"
        ),
        "{text}"
    );
    assert!(!text.contains("or Veteran SMG Gunner never scores"), "{text}");
    // No line twice.
    let mut lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let n = lines.len();
    lines.sort();
    lines.dedup();
    assert_eq!(lines.len(), n, "{text}");
}

#[test]
fn a_skirmishers_gauntlet_and_duel_sweep_out_of_one_sides_reach_are_played_and_flagged() {
    let tmp = tempfile::tempdir().unwrap();
    let g = tmp.path().join("g");
    let text = run_ok(&[
        "gauntlet",
        "Veteran SMG Gunner",
        "--field",
        "Rifle squad",
        "--range",
        "40",
        "--trials",
        "200",
        "-q",
        "--no-charts",
        "--out",
        g.to_str().unwrap(),
    ]);
    assert!(text.contains("one-sided: build Veteran SMG Gunner cannot attack Rifleman"), "{text}");
    let scenario = tmp.path().join("s.toml");
    fs::write(
        &scenario,
        "ruleset = \"skirmishers\"\nname = \"far\"\nengagement = \"duel\"\nseed = 1\ntrials = 200\nmax_turns = 6\n\
         attackers = [\"Rifleman\"]\nopponents = [\"Veteran SMG Gunner\"]\n\n[grid]\nrange = [10, 40]\n",
    )
    .unwrap();
    let dir = tmp.path().join("r");
    let out = volley()
        .args(["sweep", scenario.to_str().unwrap(), "--no-charts", "--format", "csv", "-q", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let duels = fs::read_to_string(dir.join("duels.csv")).unwrap();
    let header: Vec<&str> = duels.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap_or_else(|| panic!("{name}: {duels}"));
    let (range, b) = (col("range"), col("b_can_attack"));
    let rows: Vec<Vec<&str>> = duels.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{duels}");
    for r in rows {
        let far = r[range].starts_with("40");
        assert_eq!(r[b], if far { "false" } else { "true" }, "{duels}");
    }
}

#[test]
fn a_skirmishers_fit_leaves_out_matchups_out_of_reach() {
    // Was: exit 1 on the duel. At 40 dots the gunner reaches nobody: nothing to price.
    let out = volley()
        .args([&SK[..], &["fit", "Veteran SMG Gunner", "--field", "Rifle squad", "--range", "40", "-q"]].concat())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no matchup to price from"), "{err}");
    assert!(!err.contains("no weapon for this duel"), "{err}");
    // Over 10 and 40 dots it prices from 10 alone and lists 40 as one-sided.
    let j = json_ok(&["fit", "Veteran SMG Gunner", "--field", "Rifle squad", "--range", "10,40", "-q"]);
    let left = j["one_sided"].as_array().unwrap();
    assert_eq!(left.len(), 1, "{j}");
    assert_eq!(left[0]["build_can_attack"], false, "{j}");
}

#[test]
fn a_battle_compare_decided_by_initiative_says_so() {
    // Skirmishers squad fights are won by the order of play; compare --battle pooled the
    // orders and said nothing.
    let args = [
        "compare",
        "--battle",
        "Rifle squad",
        "7*Rifleman+Veteran SMG Gunner",
        "--versus",
        "Rifle squad",
        "--range",
        "10",
        "--trials",
        "400",
        "-q",
    ];
    let text = run_ok(&args);
    assert!(text.contains("initiative: DECIDED BY INITIATIVE in 1 of 1 matchup"), "{text}");
    assert!(text.contains("A (Rifle squad) vs Rifle squad at range 10 dots: P(A wins | A acts first)"), "{text}");
    let j = json_ok(&args);
    assert_eq!(j["decided_by_initiative"], true, "{j}");
    let m = &j["matchups"][0];
    assert_eq!(m["decided_by_initiative"], true, "{m}");
    for side in ["a_initiative", "b_initiative"] {
        let s = &m[side];
        let n = s["trials_a_first"].as_u64().unwrap() + s["trials_b_first"].as_u64().unwrap();
        assert_eq!(n, 400, "{s}");
        let (x, y) = (s["p_a_wins_a_first"].as_f64().unwrap(), s["p_a_wins_b_first"].as_f64().unwrap());
        assert!((x - y).abs() > 0.25 && s["decided_by_initiative"] == true, "{s}");
        // The split mixes back into the pooled win rate.
        let pooled = (x * s["trials_a_first"].as_u64().unwrap() as f64
            + y * s["trials_b_first"].as_u64().unwrap() as f64)
            / n as f64;
        let key = if side == "a_initiative" { "a" } else { "b" };
        assert!((pooled - m[key].as_f64().unwrap()).abs() < 1e-9, "{m}");
    }
}

#[test]
fn a_battle_compare_not_decided_by_initiative_has_no_caveat() {
    let args = [
        "compare",
        "--battle",
        "2*Gladiator Lancer+Dwarf ALPHA",
        "3*Stingray Standard+Paladin Siege",
        "--versus",
        "Beagle Hunter+Troll Brawler+2*Stingray Standard",
        "--range",
        "12",
        "--trials",
        "400",
        "-q",
    ];
    let out = volley().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("DECIDED BY INITIATIVE"), "{text}");
    let j: serde_json::Value =
        serde_json::from_slice(&volley().args([&args[..], &["--format", "json"]].concat()).output().unwrap().stdout)
            .unwrap();
    assert_eq!(j["decided_by_initiative"], false, "{j}");
    assert_eq!(j["matchups"][0]["a_initiative"]["decided_by_initiative"], false, "{j}");
    assert!(j["matchups"][0]["b_initiative"]["p_a_wins_a_first"].is_number(), "{j}");
}
