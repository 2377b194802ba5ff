//! `battle` (and `compare --battle`, `gauntlet --battle`) where the game has battles, and
//! `odds-card` where it has cards; elsewhere each exits 2 saying it is not available.

use super::*;

const BATTLE_JSON: &[&str] = &[
    "ruleset",
    "a",
    "b",
    "mode",
    "policy",
    "max_turns",
    "seed",
    "trials",
    "p_a_wins",
    "p_a_wins_ci95",
    "p_b_wins",
    "p_b_wins_ci95",
    "p_draw",
    "p_draw_ci95",
    "mean_turns",
    "sides",
    "units",
    "a_can_attack",
    "b_can_attack",
    "p_a_wins_a_first",
    "p_a_wins_a_first_ci95",
    "p_a_wins_b_first",
    "p_a_wins_b_first_ci95",
    "decided_by_initiative",
];

#[test]
fn contract_battle() {
    let mut p = Problems::new();
    for case in cases() {
        let Some((a, b)) = case.names.forces else {
            assert!(!case.fx.battles, "{}: a game with battles names two forces", case.label);
            continue;
        };
        let base = ["battle", a, b, "--trials", "12", "-q"];
        let with = |extra: &[&str]| case.run(&base.iter().chain(extra).copied().collect::<Vec<_>>());
        p.ok(&with(&[]), false);
        p.ok(&with(&["--option", case.fx.option]), false);
        p.ok(&with(&["--units"]), false);
        p.ok_json(&with(&["--format", "json"]), false, BATTLE_JSON);
        let csv = with(&["--format", "csv"]);
        if p.ok(&csv, false) {
            p.csv(&csv.what, &csv.stdout, &|_| false);
        }
    }
    p.finish();
}

/// Commands a ruleset does not have exit 2 with "not available for <ruleset>", before
/// any name is looked up (the names given here exist in no catalogue).
#[test]
fn contract_commands_a_ruleset_lacks_exit_2() {
    let mut p = Problems::new();
    for case in cases() {
        if !case.fx.battles {
            p.not_available(&case.run(&["battle", "No Such Force", "Nor This One", "--trials", "5", "-q"]));
            p.not_available(&case.run(&["compare", "--battle", "No Such", "Nor This", "--versus", "Other", "-q"]));
            let tmp = tempfile::tempdir().unwrap();
            let o = tmp.path().join("g").display().to_string();
            p.not_available(&case.run(&["gauntlet", "--battle", "No Such", "--field", "Nor This", "--out", &o, "-q"]));
        }
        if !case.fx.odds_card {
            p.not_available(&case.run(&["odds-card", "No Such Side"]));
        }
    }
    p.finish();
}

#[test]
fn contract_odds_card() {
    let mut p = Problems::new();
    for case in cases().iter().filter(|c| c.fx.odds_card) {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("card.svg");
        let run = case.run(&["odds-card", case.names.attacker, "--out", out.to_str().unwrap()]);
        if p.ok(&run, false) {
            let svg = fs::read_to_string(&out).unwrap_or_default();
            if !svg.contains("<svg") {
                p.add(format!("{}: no SVG written", run.what));
            }
            p.numbers(&format!("{}: card.svg", run.what), &svg, false);
            if !svg.contains("width=\"8.5in\" height=\"11in\"") || !svg.contains("@font-face") {
                p.add(format!("{}: card.svg is not in inches with its font embedded", run.what));
            }
        }
    }
    p.finish();
}
