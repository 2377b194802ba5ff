//! Exact MECHCOM duels of interacting sides on the command line: `duel --exact` and the
//! `duels` table's `exact_*` columns (the joint chain of `rules::mechcom::duel_chain`).

use super::*;
use volley::stats::binomial::consistent;

fn f(j: &serde_json::Value, k: &str) -> f64 {
    j[k].as_f64().unwrap_or_else(|| panic!("{k} is not a number: {j}"))
}

/// Kerberos (Volt Lance: Critical condition Shocked; Acid Sprayer: Corroded) against
/// Valkyrie (Flash Emitter: Blinded; Talon Claws) at melee range: the sides change each
/// other's state.
const DUEL: [&str; 9] = ["--ruleset", "mechcom", "duel", "Kerberos", "Valkyrie", "--range", "1", "--max-turns", "10"];

#[test]
fn mechcom_duel_exact_covers_interacting_sides_and_monte_carlo_agrees() {
    let e = json_of(&[&DUEL[..], &["--exact", "--format", "json"]].concat());
    assert_eq!(e["method"], "exact");
    assert_eq!(e["ruleset"], "mechcom");
    let (a, b, d) = (f(&e, "p_a_wins"), f(&e, "p_b_wins"), f(&e, "p_draw"));
    assert!((a + b + d - 1.0).abs() < 1e-12, "{e}");
    assert!(a > 0.05 && b > 0.05, "{e}");
    // The same duel simulated: inside exact binomial bounds, and its JSON carries the
    // exact law.
    let n = 100_000u64;
    let mc = json_of(&[&DUEL[..], &["--trials", "100000", "--quiet", "--format", "json"]].concat());
    let count = |k: &str| (f(&mc, k) * n as f64).round() as u64;
    for (k, p) in [("p_a_wins", a), ("p_b_wins", b), ("p_draw", d)] {
        assert!(consistent(count(k), n, p, 1e-6), "{k}: {} vs exact {p}", mc[k]);
    }
    assert_eq!(f(&mc["exact"], "p_a_wins"), a);
    // Explosions at once in melee: mutual kills are draws, exactly.
    let boom =
        json_of(&[&DUEL[..], &["--option", "EXPLOSION_TIMING=immediately", "--exact", "--format", "json"]].concat());
    assert!(f(&boom, "p_draw") > d + 0.01, "{boom} vs {e}");
}

#[test]
fn mechcom_duel_sweeps_fill_the_exact_columns_of_interacting_pairs() {
    let text = "ruleset = \"mechcom\"\nname = \"d\"\nengagement = \"duel\"\nseed = 3\ntrials = 2000\nmax_turns = 10\nattackers = [\"Kerberos\", \"Junker\"]\nopponents = [\"Valkyrie\"]\n[grid]\nrange = [1, 2]\n";
    super::exactfit::exact_columns_match_duel_exact(&["--ruleset", "mechcom"], text, 4);
}
