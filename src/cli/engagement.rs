//! How the engagement commands print the initiative split and reach warnings.

use serde_json::{Value, json};

use crate::stats::{Conditional, InitiativeSplit};
use crate::sweep::reach::CompareReach;

/// Why an exact duel has no initiative split where one side acts first.
pub const EXACT_NOTE: &str =
    "initiative split: Monte Carlo only (run without --exact for P(A wins | A first) and P(A wins | B first))";

/// Why a duel of a ruleset whose sides fire at once has no split, exact or sampled.
pub const AT_ONCE_NOTE: &str = "initiative: no side acts first (both fire at once): no split";

/// Add the split's keys to a JSON object: `p_a_wins_a_first`, `p_a_wins_b_first` (null
/// where that order never happened), their `_ci95` pairs, `decided_by_initiative`, and
/// the engagements played in each order (`trials_a_first`, `trials_b_first`: the
/// weights that mix the two rates back into `p_a_wins`).
pub fn insert_split(j: &mut Value, s: &InitiativeSplit) {
    let p = |c: Option<Conditional>| c.map_or(Value::Null, |c| json!(c.p));
    let ci = |c: Option<Conditional>| c.map_or(Value::Null, |c| json!(c.ci.pair()));
    j["p_a_wins_a_first"] = p(s.own_first);
    j["p_a_wins_a_first_ci95"] = ci(s.own_first);
    j["p_a_wins_b_first"] = p(s.other_first);
    j["p_a_wins_b_first_ci95"] = ci(s.other_first);
    j["decided_by_initiative"] = json!(s.decided_by_initiative());
    j["trials_a_first"] = json!(s.own_first.map_or(0, |c| c.trials));
    j["trials_b_first"] = json!(s.other_first.map_or(0, |c| c.trials));
}

/// One line for people: A's win rate when A acted first and when B did, with intervals,
/// and whether initiative decides the matchup; ends with a newline.
pub fn split_line(a: &str, b: &str, s: &InitiativeSplit) -> String {
    let one = |who: &str, c: Option<Conditional>| match c {
        Some(c) => {
            format!("P({a} wins | {who} acts first) {:.4} [{:.4}, {:.4}] over {}", c.p, c.ci.low, c.ci.high, c.trials)
        }
        None => format!("{who} never acted first"),
    };
    if s.own_first.is_none() && s.other_first.is_none() {
        return format!("{AT_ONCE_NOTE}\n");
    }
    let verdict = if s.decided_by_initiative() {
        format!(
            "; DECIDED BY INITIATIVE (the two differ by more than {}): the overall rate averages the two orders",
            crate::stats::DECIDED_BY_INITIATIVE
        )
    } else {
        String::new()
    };
    format!("initiative: {}; {}{verdict}\n", one(a, s.own_first), one(b, s.other_first))
}

/// Add a compared matchup's reach to its JSON object: `a_can_attack`, `b_can_attack`
/// (A, B can attack the `versus` side), `{versus}_can_attack_a` and `_b` (null against a
/// target, which never attacks), `one_sided`.
pub fn insert_compare_reach(o: &mut serde_json::Map<String, Value>, r: &CompareReach, versus: &str) {
    o.insert("a_can_attack".into(), json!(r.a));
    o.insert("b_can_attack".into(), json!(r.b));
    o.insert(format!("{versus}_can_attack_a"), json!(r.versus_a));
    o.insert(format!("{versus}_can_attack_b"), json!(r.versus_b));
    o.insert("one_sided".into(), json!(r.one_sided()));
}

/// The warning lines of a comparison's one-sided matchups, each ending with a newline;
/// `matchups`: (opponent or target, conditions in words, reach).
pub fn compare_reach_lines<'a>(
    names: (&str, &str),
    matchups: impl Iterator<Item = (&'a str, String, &'a CompareReach)>,
) -> String {
    let mut out = String::new();
    let mut one_sided = 0;
    for (versus, conditions, r) in matchups {
        if r.one_sided() {
            one_sided += 1;
        }
        for w in r.warnings(names, versus, &conditions) {
            out += &w;
            out += "\n";
        }
    }
    if one_sided > 0 {
        out += &format!(
            "{one_sided} one-sided matchup(s) count in the rates below: a side that cannot attack is harmless whatever the dice\n"
        );
    }
    out
}

/// Add an exact duel's split to its JSON: the exact values (intervals of zero width),
/// `decided_by_initiative`, and `initiative_note` when neither order has an exact value:
/// [`AT_ONCE_NOTE`] where no side acts first (`acts_first` false), else [`EXACT_NOTE`]
/// (the split is Monte Carlo only).
pub fn insert_exact_split(j: &mut Value, (first, second): (Option<f64>, Option<f64>), acts_first: bool) {
    let exact = |p: Option<f64>| p.map(crate::output::number::exact);
    let (first, second) = (exact(first), exact(second));
    j["p_a_wins_a_first"] = json!(first);
    j["p_a_wins_a_first_ci95"] = json!(first.map(|p| [p, p]));
    j["p_a_wins_b_first"] = json!(second);
    j["p_a_wins_b_first_ci95"] = json!(second.map(|p| [p, p]));
    j["decided_by_initiative"] = json!(match (first, second) {
        (Some(x), Some(y)) => (x - y).abs() > crate::stats::DECIDED_BY_INITIATIVE,
        _ => false,
    });
    if first.is_none() && second.is_none() {
        j["initiative_note"] = json!(if acts_first { EXACT_NOTE } else { AT_ONCE_NOTE });
    }
}

/// The exact split for people, ending with a newline: the exact values where the ruleset
/// solves each order, else [`AT_ONCE_NOTE`] where no side acts first (`acts_first`
/// false) or [`EXACT_NOTE`].
pub fn exact_split_line((first, second): (Option<f64>, Option<f64>), acts_first: bool) -> String {
    if first.is_none() && second.is_none() {
        return format!("{}\n", if acts_first { EXACT_NOTE } else { AT_ONCE_NOTE });
    }
    let one = |who: &str, p: Option<f64>| {
        p.map_or(format!("{who} never acts first"), |p| format!("P(A wins | {who} acts first) {p:.6}"))
    };
    let decided = match (first, second) {
        (Some(x), Some(y)) if (x - y).abs() > crate::stats::DECIDED_BY_INITIATIVE => "; DECIDED BY INITIATIVE",
        _ => "",
    };
    format!("initiative (exact): {}; {}{decided}\n", one("A", first), one("B", second))
}
