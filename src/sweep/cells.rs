//! Stable cell keys: the text a cell's random streams are keyed by. A key is built from
//! canonical `axis=value` pairs, the ruleset's options and the engagement's settings, so
//! the same cell and seed give the same numbers in `volley ttk`, `volley sweep` and on
//! any machine, and any change of a ruling gives other streams.

use crate::rules::axis::Point;

/// What an engagement cell plays, apart from its conditions.
#[derive(Debug, Clone, Copy)]
pub struct CellSpec<'a> {
    /// The ruleset's id.
    pub ruleset: &'a str,
    /// The ruleset's options as canonical `(NAME, value)` pairs.
    pub options: &'a [(String, String)],
    /// The policy's canonical name.
    pub policy: &'a str,
    pub max_turns: u32,
}

impl CellSpec<'_> {
    /// `head` with the options, policy and turn cap appended: the end every key shares.
    /// Reserved at once, as the options make most of a key.
    fn with_tail(&self, mut head: String) -> String {
        use std::fmt::Write;
        head.reserve(self.options.iter().map(|(n, v)| n.len() + v.len() + 2).sum::<usize>() + self.policy.len() + 32);
        for (n, v) in self.options {
            head.push('|');
            head.push_str(n);
            head.push('=');
            head.push_str(v);
        }
        write!(head, "|policy={}|max_turns={}", self.policy, self.max_turns).expect("a String takes any text");
        head
    }

    /// The key of an attack run of `attacker` against `target` at `point`.
    pub fn attack_run(&self, attacker: &str, target: &str, point: &Point) -> String {
        self.with_tail(format!("attack-run|ruleset={}|{attacker}|{target}|{}", self.ruleset, point.key()))
    }

    /// The key of a duel of `a` and `b` at `point`.
    pub fn duel(&self, a: &str, b: &str, point: &Point) -> String {
        self.with_tail(format!("duel|ruleset={}|{a}|{b}|{}", self.ruleset, point.key()))
    }

    /// The key of a battle: `mode`, the forces as canonical text (one per side) and the
    /// conditions of each side's shots.
    pub fn battle(&self, mode: &str, forces: &[String], points: &[Point]) -> String {
        let sides: Vec<String> =
            forces.iter().zip(points).enumerate().map(|(i, (f, p))| format!("side{i}={f}|{}", p.key())).collect();
        self.with_tail(format!("battle|ruleset={}|mode={mode}|{}", self.ruleset, sides.join("|")))
    }

    /// The key of a comparison's matchup against `versus` at `point`: everything but the
    /// two compared sides, so both meet the same dice.
    pub fn matchup(&self, versus: &str, point: &Point, metric: &str) -> String {
        let mut key = self.with_tail(format!("compare|ruleset={}|{versus}|{}", self.ruleset, point.key()));
        key.push_str("|metric=");
        key.push_str(metric);
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::axis::{AxisKind, AxisSpec};

    const SPECS: [AxisSpec; 1] = [AxisSpec {
        name: "weather",
        flag: "weather",
        kind: AxisKind::Choice(&["dry", "rain"]),
        default: "dry",
        help: "",
        duel_help: "",
        label: "",
        unit: "",
    }];

    #[test]
    fn keys_name_ruleset_point_options_policy_and_cap() {
        let p = Point::new(&SPECS, &[("weather", "rain".into())]).unwrap();
        let options = [("SIX_ALWAYS_CRITS".to_string(), "true".to_string())];
        let spec = CellSpec { ruleset: "game", options: &options, policy: "best", max_turns: 9 };
        assert_eq!(
            spec.attack_run("A", "T", &p),
            "attack-run|ruleset=game|A|T|weather=rain|SIX_ALWAYS_CRITS=true|policy=best|max_turns=9"
        );
        assert_eq!(
            spec.duel("A", "B", &p),
            "duel|ruleset=game|A|B|weather=rain|SIX_ALWAYS_CRITS=true|policy=best|max_turns=9"
        );
        assert_eq!(
            spec.battle("m", &["F1".into(), "F2".into()], &[p.clone(), p.clone()]),
            "battle|ruleset=game|mode=m|side0=F1|weather=rain|side1=F2|weather=rain|SIX_ALWAYS_CRITS=true|policy=best|max_turns=9"
        );
        assert_eq!(
            spec.matchup("V", &p, "win"),
            "compare|ruleset=game|V|weather=rain|SIX_ALWAYS_CRITS=true|policy=best|max_turns=9|metric=win"
        );
        let other = CellSpec { options: &[], ..spec };
        assert_ne!(spec.duel("A", "B", &p), other.duel("A", "B", &p), "an option changes the streams");
    }
}
