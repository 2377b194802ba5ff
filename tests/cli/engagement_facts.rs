//! Engagement facts every duel, battle, compare and gauntlet reports: whether each side
//! can attack at its conditions, and A's win rate split by who acted first.

use super::*;

fn num(j: &serde_json::Value, key: &str) -> f64 {
    j[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number: {j}"))
}

fn pair(j: &serde_json::Value, key: &str) -> (f64, f64) {
    let v = j[key].as_array().unwrap_or_else(|| panic!("{key} is not a pair: {j}"));
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

#[test]
fn a_duel_where_one_side_cannot_reach_says_so_and_still_splits_by_initiative() {
    // No Kerberos weapon reaches 3 hexes (the Thunderhead is not in the shipped
    // catalogue; the Sentinel's Gauss Railgun reaches).
    let args = ["--ruleset", "mechcom", "duel", "Sentinel", "Kerberos", "--range", "3", "--trials", "2000", "-q"];
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(false)), "{j}");
    assert_eq!(num(&j, "p_a_wins_a_first"), 1.0, "{j}");
    assert_eq!(num(&j, "p_a_wins_b_first"), 1.0, "{j}");
    assert_eq!(j["decided_by_initiative"], false);
    let text = stdout_of(&args);
    assert!(text.contains("one-sided: Kerberos cannot attack Sentinel"), "{text}");
    assert!(text.contains("initiative: P(A wins | A acts first) 1.0000"), "{text}");
}

/// `volley duel A B --range R --trials N -q --format json`.
fn sampled_duel(a: &str, b: &str, range: &str, trials: &str) -> serde_json::Value {
    json_of(&["duel", a, b, "--range", range, "--trials", trials, "-q", "--format", "json"])
}

#[test]
fn a_techcommander_duel_splits_its_win_rate_by_who_won_turn_one_s_initiative() {
    let j = sampled_duel("Paladin Siege", "Troll Brawler", "12", "4000");
    let (p1, p2, p) = (num(&j, "p_a_wins_a_first"), num(&j, "p_a_wins_b_first"), num(&j, "p_a_wins"));
    let (n1, n2) = (num(&j, "trials_a_first"), num(&j, "trials_b_first"));
    assert_eq!(n1 + n2, num(&j, "trials"), "{j}");
    // The overall rate is the mix of the two, weighted by how often each order came up.
    assert!((p1 * n1 + p2 * n2 - p * (n1 + n2)).abs() < 1e-6, "{j}");
    let ((l1, h1), (l2, h2)) = (pair(&j, "p_a_wins_a_first_ci95"), pair(&j, "p_a_wins_b_first_ci95"));
    assert!(l1 <= p1 && p1 <= h1 && l2 <= p2 && p2 <= h2, "{j}");
    assert!(l1.min(l2) <= p && p <= h1.max(h2), "the overall lies between the two intervals: {j}");
    // Initiative is a fair roll-off: each order about half the time.
    assert!((n1 / (n1 + n2) - 0.5).abs() < 0.05, "{j}");
    // A mirror reports its split too.
    let m = sampled_duel("Troll Brawler", "Troll Brawler", "6", "500");
    assert!(m["p_a_wins_a_first"].is_f64() && m["p_a_wins_b_first"].is_f64(), "{m}");
    // An exact TechCommander duel solves each order of turn 1 on its own; the Monte
    // Carlo's split is consistent with it at exact binomial bounds (family level 1e-4).
    let e = json_of(&["duel", "Paladin Siege", "Troll Brawler", "--range", "12", "--exact", "--format", "json"]);
    let sampled = sampled_duel("Paladin Siege", "Troll Brawler", "12", "100000");
    for (key, order) in [("p_a_wins_a_first", "trials_a_first"), ("p_a_wins_b_first", "trials_b_first")] {
        let (p, n) = (e[key].as_f64().unwrap(), sampled[order].as_u64().unwrap());
        let wins = (sampled[key].as_f64().unwrap() * n as f64).round() as u64;
        assert!(volley::stats::binomial::consistent(wins, n, p, 5e-5), "{key}: {wins} of {n} against {p}");
        // Negative control: a law 0.02 off is rejected.
        assert!(!volley::stats::binomial::consistent(wins, n, p + 0.02, 5e-5), "{key}");
    }
    assert!(e["initiative_note"].is_null(), "{e}");
    // MECHCOM solves each order of round 1's roll-off too.
    let m = json_of(&["--ruleset", "mechcom", "duel", "Wasp", "Junker", "--range", "3", "--exact", "--format", "json"]);
    let (x, y) = (m["p_a_wins_a_first"].as_f64().unwrap(), m["p_a_wins_b_first"].as_f64().unwrap());
    assert!(x - y > 0.02 && m["initiative_note"].is_null(), "{m}");
    // Where both sides fire at once (Shellshock) there is no split, exact or sampled, and
    // the exact duel says so rather than pointing at the Monte Carlo.
    let args = ["--ruleset", "shellshock", "duel", "Panzer IV", "Jagdpanther", "--range", "10"];
    let e = json_of(&[&args[..], &["--exact", "--format", "json"]].concat());
    assert!(e["p_a_wins_a_first"].is_null(), "{e}");
    assert_eq!(e["initiative_note"], "initiative: no side acts first (both fire at once): no split");
    let text = stdout_of(&[&args[..], &["--exact"]].concat());
    assert!(text.contains("initiative: no side acts first") && !text.contains("Monte Carlo only"), "{text}");
}

#[test]
fn a_skirmishers_squad_fight_mirror_is_decided_by_initiative() {
    // The side that activates first walks into the other's arcs (`SQUAD_OPENING`
    // contact): the mirror's 50/50 averages two one-sided fights.
    let args =
        ["--ruleset", "skirmishers", "battle", "Rifle squad", "Rifle squad", "--range", "10", "--trials", "400", "-q"];
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(j["decided_by_initiative"], true, "{j}");
    assert!((num(&j, "p_a_wins_a_first") - num(&j, "p_a_wins_b_first")).abs() > 0.9, "{j}");
    assert!(num(&j, "trials_a_first") > 0.0 && num(&j, "trials_b_first") > 0.0, "{j}");
    let text = stdout_of(&args);
    assert!(text.contains("DECIDED BY INITIATIVE"), "{text}");
}

#[test]
fn battles_say_which_side_and_which_units_cannot_attack() {
    // The example in docs/battles.md: three of the Kerberos Pack's four mechs reach nothing at 3
    // hexes (the Pythia's mortar does), so side A destroyed nothing.
    let args =
        ["--ruleset", "mechcom", "battle", "Kerberos Pack", "Hornet Lance", "--range", "3", "--trials", "40", "-q"];
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(true)), "{j}");
    let idle: Vec<(&str, &str)> = j["units_cannot_attack"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| (u["side"].as_str().unwrap(), u["unit"].as_str().unwrap()))
        .collect();
    assert_eq!(idle, [("A", "Kerberos+Steady Hand"), ("A", "Kerberos"), ("A", "Kerberos")], "{j}");
    let text = stdout_of(&args);
    assert!(text.contains("reach: 3 of 4 units of side A (Kerberos Pack) cannot attack any enemy unit"), "{text}");
    assert!(text.contains("initiative: P(A wins | A acts first)"), "{text}");
    // A force of Kerberos only cannot attack at all.
    let args = ["--ruleset", "mechcom", "battle", "Kerberos+Kerberos", "Wasp", "--range", "3", "--trials", "40", "-q"];
    let j = json_of(&[&args[..], &["--format", "json"]].concat());
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(false), Some(true)), "{j}");
    let text = stdout_of(&args);
    assert!(text.contains("one-sided: side A (Kerberos+Kerberos) cannot attack at range 3 hexes"), "{text}");
}

#[test]
fn compare_and_gauntlet_flag_one_sided_matchups() {
    let args = ["--ruleset", "mechcom", "compare", "Sentinel", "Wasp", "--against", "Kerberos", "--range", "3"];
    let j = json_of(&[&args[..], &["--trials", "200", "-q", "--format", "json"]].concat());
    let m = &j["matchups"][0];
    assert_eq!((m["a_can_attack"].as_bool(), m["b_can_attack"].as_bool()), (Some(true), Some(true)), "{m}");
    assert_eq!(m["opponent_can_attack_a"], false, "{m}");
    assert_eq!(m["one_sided"], true, "{m}");
    let text = stdout_of(&[&args[..], &["--trials", "200", "-q"]].concat());
    assert!(text.contains("one-sided: Kerberos cannot attack Sentinel (A) or Wasp (B) at range 3 hexes"), "{text}");
    let csv = stdout_of(&[&args[..], &["--trials", "200", "-q", "--format", "csv"]].concat());
    assert!(csv.lines().next().unwrap().ends_with("a_can_attack,b_can_attack"), "{csv}");

    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("g");
    let text = stdout_of(&[
        "--ruleset",
        "mechcom",
        "gauntlet",
        "Kerberos",
        "--field",
        "arena",
        "--range",
        "3",
        "--trials",
        "20",
        "-q",
        "--no-charts",
        "--format",
        "csv",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(text.contains("one-sided: build Kerberos cannot attack Wasp at range 3 hexes"), "{text}");
    let matchups = fs::read_to_string(out.join("gauntlet_matchups.csv")).unwrap();
    let header: Vec<&str> = matchups.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|c| *c == "a_can_attack").expect("a_can_attack column");
    assert!(matchups.lines().skip(1).all(|l| l.split(',').nth(col) == Some("false")), "{matchups}");
    let summary = fs::read_to_string(out.join("gauntlet_summary.csv")).unwrap();
    assert!(summary.lines().next().unwrap().ends_with("one_sided_matchups"), "{summary}");
}

#[test]
fn an_exact_skirmishers_duel_splits_exactly_and_monte_carlo_agrees() {
    let args = ["--ruleset", "skirmishers", "duel", "Rifleman", "Rifleman", "--range", "10", "--format", "json"];
    let e = json_of(&[&args[..], &["--exact"]].concat());
    let (x, y) = (num(&e, "p_a_wins_a_first"), num(&e, "p_a_wins_b_first"));
    // FIRST_SIDE random: each side leads half the duels.
    assert!(((x + y) / 2.0 - num(&e, "p_a_wins")).abs() < 1e-9, "{e}");
    assert_eq!(e["decided_by_initiative"], true, "{e}");
    // Each split's count against its exact value by the exact binomial test, at the
    // suite's family-wise level over the two splits (a 95% interval would miss one
    // correct split in twenty); 20,000 duels give each order about 10,000.
    let mc = json_of(&[&args[..], &["--trials", "20000", "-q"]].concat());
    let alpha = volley::stats::tolerance::FAMILY_ALPHA / 2.0;
    for (key, n_key, exact) in [("p_a_wins_a_first", "trials_a_first", x), ("p_a_wins_b_first", "trials_b_first", y)] {
        let n = mc[n_key].as_u64().unwrap();
        let k = (num(&mc, key) * n as f64).round() as u64;
        assert!(n > 9000, "{mc}");
        assert!(volley::stats::binomial::consistent(k, n, exact, alpha), "{key}: {k} of {n} against exact {exact}");
        // a negative control: the other order's exact value is far outside
        let other = if exact == x { y } else { x };
        assert!(!volley::stats::binomial::consistent(k, n, other, alpha), "{key} cannot tell the orders apart");
    }
}

#[test]
fn a_mirror_duel_names_its_outcome_rows_apart() {
    let out = volley()
        .args(["--ruleset", "skirmishers", "duel", "Rifleman", "Rifleman", "--range", "10", "--trials", "200", "-q"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Rifleman (A) wins") && text.contains("Rifleman (B) wins"), "{text}");
    let other = volley().args(["duel", "Troll Brawler", "Paladin Siege", "--trials", "50", "-q"]).output().unwrap();
    let text = String::from_utf8_lossy(&other.stdout);
    assert!(text.contains("Troll Brawler wins") && !text.contains("(A)"), "{text}");
}
