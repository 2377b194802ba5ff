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
    fn tail(&self) -> String {
        let mut s = String::new();
        for (n, v) in self.options {
            s.push('|');
            s.push_str(n);
            s.push('=');
            s.push_str(v);
        }
        format!("{s}|policy={}|max_turns={}", self.policy, self.max_turns)
    }

    /// The key of an attack run of `attacker` against `target` at `point`.
    pub fn attack_run(&self, attacker: &str, target: &str, point: &Point) -> String {
        format!("attack-run|ruleset={}|{attacker}|{target}|{}{}", self.ruleset, point.key(), self.tail())
    }

    /// The key of a duel of `a` and `b` at `point`.
    pub fn duel(&self, a: &str, b: &str, point: &Point) -> String {
        format!("duel|ruleset={}|{a}|{b}|{}{}", self.ruleset, point.key(), self.tail())
    }

    /// The key of a battle: `mode`, the forces as canonical text (one per side) and the
    /// conditions of each side's shots.
    pub fn battle(&self, mode: &str, forces: &[String], points: &[Point]) -> String {
        let sides: Vec<String> =
            forces.iter().zip(points).enumerate().map(|(i, (f, p))| format!("side{i}={f}|{}", p.key())).collect();
        format!("battle|ruleset={}|mode={mode}|{}{}", self.ruleset, sides.join("|"), self.tail())
    }

    /// The key of a comparison's matchup against `versus` at `point`: everything but the
    /// two compared sides, so both meet the same dice.
    pub fn matchup(&self, versus: &str, point: &Point, metric: &str) -> String {
        format!("compare|ruleset={}|{versus}|{}{}|metric={metric}", self.ruleset, point.key(), self.tail())
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
        let other = CellSpec { options: &[], ..spec };
        assert_ne!(spec.duel("A", "B", &p), other.duel("A", "B", &p), "an option changes the streams");
    }
}
