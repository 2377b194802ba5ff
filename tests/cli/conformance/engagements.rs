//! `odds`, `ttk` and `duel` (with and without `--exact`) on every ruleset and catalogue.

use super::*;

/// Keys every ruleset's `odds --format json` has (per row, or in its one object).
const ODDS_JSON: &[&str] = &["attacker", "target"];
/// Columns every ruleset's `odds` table has.
const ODDS_COLUMNS: &[&str] = &["attacker", "weapon", "target"];
const TTK_JSON: &[&str] = &[
    "ruleset",
    "attacker",
    "target",
    "conditions",
    "policy",
    "max_turns",
    "turn",
    "method",
    "seed",
    "trials",
    "p_kill",
    "p_kill_by_turn",
    "mean_turns",
    "mean_actions",
    "plan",
];
const TTK_MC_JSON: &[&str] = &["p_kill_ci95", "p_kill_by_turn_ci95", "mean_turns_ci95", "mean_actions_ci95"];
const DUEL_JSON: &[&str] = &[
    "ruleset",
    "a",
    "b",
    "conditions",
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
    "p_mutual_kill",
    "p_timeout",
    "mean_turns",
    "exact",
    "a_can_attack",
    "b_can_attack",
    "p_a_wins_a_first",
    "p_a_wins_a_first_ci95",
    "p_a_wins_b_first",
    "p_a_wins_b_first_ci95",
    "decided_by_initiative",
];
const DUEL_EXACT_JSON: &[&str] = &[
    "ruleset",
    "a",
    "b",
    "conditions",
    "policy",
    "max_turns",
    "method",
    "p_a_wins",
    "p_b_wins",
    "p_draw",
    "p_mutual_kill",
    "p_timeout",
    "a_can_attack",
    "b_can_attack",
    "decided_by_initiative",
];

#[test]
fn contract_odds() {
    let mut p = Problems::new();
    for case in cases() {
        let n = case.names;
        let base = ["odds", "--attacker", n.attacker, "--target", n.target];
        for opt in [None, Some(case.fx.option)] {
            let with = |format: &str| {
                let mut a: Vec<&str> = base.to_vec();
                a.extend(["--format", format]);
                if let Some(o) = opt {
                    a.extend(["--option", o]);
                }
                case.run(&a)
            };
            p.ok(&with("table"), true);
            p.ok_json(&with("json"), true, ODDS_JSON);
            let csv = with("csv");
            if p.ok(&csv, true) {
                p.csv(&csv.what, &csv.stdout, &|_| true);
                let header: Vec<&str> = csv.stdout.lines().next().unwrap_or("").split(',').collect();
                let missing: Vec<&&str> = ODDS_COLUMNS.iter().filter(|c| !header.contains(c)).collect();
                if !missing.is_empty() {
                    p.add(format!("{}: odds table lacks the columns {missing:?}: {header:?}", csv.what));
                }
            }
        }
    }
    p.finish();
}

#[test]
fn contract_ttk() {
    let mut p = Problems::new();
    for case in cases() {
        let n = case.names;
        let base = ["ttk", "--attacker", n.attacker, "--target", n.target, "--max-turns", "8", "-q"];
        let mc = |format: &str, opt: Option<&str>| {
            let mut a: Vec<&str> = base.to_vec();
            a.extend(["--trials", "60", "--format", format]);
            if let Some(o) = opt {
                a.extend(["--option", o]);
            }
            case.run(&a)
        };
        let exact = |format: &str| {
            let mut a: Vec<&str> = base.to_vec();
            a.extend(["--exact", "--format", format]);
            case.run(&a)
        };
        p.ok(&mc("table", None), false);
        p.ok(&mc("table", Some(case.fx.option)), false);
        let keys: Vec<&str> = TTK_JSON.iter().chain(TTK_MC_JSON).copied().collect();
        p.ok_json(&mc("json", None), false, &keys);
        let csv = mc("csv", None);
        if p.ok(&csv, false) {
            p.csv(&csv.what, &csv.stdout, &|_| false);
        }
        p.ok(&exact("table"), true);
        p.ok_json(&exact("json"), true, TTK_JSON);
        let csv = exact("csv");
        if p.ok(&csv, true) {
            p.csv(&csv.what, &csv.stdout, &|_| true);
        }
    }
    p.finish();
}

#[test]
fn contract_duel() {
    let mut p = Problems::new();
    for case in cases() {
        let (a, b) = case.names.duel;
        let base = ["duel", a, b, "--max-turns", "8", "-q"];
        let mc = |format: &str, opt: Option<&str>| {
            let mut args: Vec<&str> = base.to_vec();
            args.extend(["--trials", "60", "--format", format]);
            if let Some(o) = opt {
                args.extend(["--option", o]);
            }
            case.run(&args)
        };
        let exact = |format: &str| {
            let mut args: Vec<&str> = base.to_vec();
            args.extend(["--exact", "--format", format]);
            case.run(&args)
        };
        p.ok(&mc("table", None), false);
        p.ok(&mc("table", Some(case.fx.option)), false);
        p.ok_json(&mc("json", None), false, DUEL_JSON);
        let csv = mc("csv", None);
        if p.ok(&csv, false) {
            p.csv(&csv.what, &csv.stdout, &|_| false);
        }
        p.ok(&exact("table"), true);
        let run = exact("json");
        if let Some(j) = p.ok_json(&run, true, DUEL_EXACT_JSON) {
            // the four outcomes kept apart: they add to 1, and a draw is a mutual kill
            // or a timeout
            let v = |k: &str| j[k].as_f64().unwrap_or(f64::NAN);
            let four = v("p_a_wins") + v("p_b_wins") + v("p_mutual_kill") + v("p_timeout");
            if (four - 1.0).abs() > 1e-12 || (v("p_mutual_kill") + v("p_timeout") - v("p_draw")).abs() > 1e-12 {
                p.add(format!("{}: the four exact outcomes do not add up: {j}", run.what));
            }
        }
        let csv = exact("csv");
        if p.ok(&csv, true) {
            p.csv(&csv.what, &csv.stdout, &|_| true);
        }
    }
    p.finish();
}
