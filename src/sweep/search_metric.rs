//! What a search ranks by (`volley search --metric`): a win rate, a kill chance, a time
//! to kill or kill points, each read as a score in [0, 1] per engagement (higher is
//! better) so one race ([`crate::stats::racing`]) serves them all, and shown back in the
//! metric's own unit.

use crate::stats::Interval;

/// A search's metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchMetric {
    /// Duels (builds) or battles (forces): 1 when the candidate wins, else 0.
    Win,
    /// Attack runs of the candidate against each field member as an inert target: 1
    /// when the target is destroyed by turn k (1 ≤ k ≤ the turn cap).
    KillByTurn(u32),
    /// Attack runs: the turns to kill, a run censored at the cap counting as cap + 1 (a
    /// restricted mean; fewer is better). Scored as (cap + 1 − turns) / cap.
    Turns,
    /// Battles (forces): the share of the opposing force's points destroyed.
    KillPoints,
}

impl SearchMetric {
    /// Parse `win`, `kill-by-turn:K`, `turns` or `kill-points`.
    ///
    /// # Errors
    /// Any other text, naming the choices.
    pub fn parse(s: &str) -> Result<SearchMetric, String> {
        match s.trim() {
            "win" => Ok(SearchMetric::Win),
            "turns" => Ok(SearchMetric::Turns),
            "kill-points" => Ok(SearchMetric::KillPoints),
            other => match other.strip_prefix("kill-by-turn:").map(str::parse::<u32>) {
                Some(Ok(k)) if k >= 1 => Ok(SearchMetric::KillByTurn(k)),
                _ => Err(format!(
                    "unknown metric `{s}`: expected win, kill-by-turn:K (K ≥ 1), turns (builds) or kill-points (forces)"
                )),
            },
        }
    }

    /// Its name as `--metric` takes it.
    pub fn id(&self) -> String {
        match self {
            SearchMetric::Win => "win".into(),
            SearchMetric::KillByTurn(k) => format!("kill-by-turn:{k}"),
            SearchMetric::Turns => "turns".into(),
            SearchMetric::KillPoints => "kill-points".into(),
        }
    }

    /// Whether it is measured in attack runs (else in duels or battles).
    pub fn attack_runs(&self) -> bool {
        matches!(self, SearchMetric::KillByTurn(_) | SearchMetric::Turns)
    }

    /// Whether a larger shown value is better (fewer turns to kill is better).
    pub fn higher_is_better(&self) -> bool {
        !matches!(self, SearchMetric::Turns)
    }

    /// Whether it is a rate or share shown as a percentage (else a number of turns).
    pub fn is_share(&self) -> bool {
        !matches!(self, SearchMetric::Turns)
    }

    /// Refuse what this metric cannot measure: `forces` (battles) take `win` and
    /// `kill-points`, builds the others; turns to kill has no per-cost reading; a kill
    /// turn beyond the cap `max_turns` of builds' attack runs.
    ///
    /// # Errors
    /// A usage message naming the conflict.
    pub fn check(&self, forces: bool, per_cost: bool, max_turns: u32) -> Result<(), String> {
        match (self, forces) {
            (SearchMetric::KillPoints, false) => {
                Err("--metric kill-points is a battle measure: it is taken with --forces".into())
            }
            (SearchMetric::KillByTurn(_) | SearchMetric::Turns, true) => Err(format!(
                "--metric {} is an attack-run measure of builds: force searches take win or kill-points",
                self.id()
            )),
            (SearchMetric::Turns, _) if per_cost => Err(
                "--metric turns has no per-cost reading (fewer turns is better): rank by kill-by-turn:K with --per-cost"
                    .into(),
            ),
            (SearchMetric::KillByTurn(k), _) if *k > max_turns => {
                Err(format!("--metric kill-by-turn:{k} is past the turn cap (--max-turns {max_turns})"))
            }
            _ => Ok(()),
        }
    }

    /// A score in [0, 1] (per cost: times 100 / cost) in the metric's own unit: the same
    /// for shares, turns = cap + 1 − cap · score for [`SearchMetric::Turns`] (`cap`: the
    /// attack runs' turn cap). Per-cost values are shown as they are.
    pub fn shown(&self, score: f64, cap: u32) -> f64 {
        match self {
            SearchMetric::Turns => f64::from(cap) + 1.0 - f64::from(cap) * score,
            _ => score,
        }
    }

    /// An interval of scores in the metric's own unit (ends swapped where fewer is better).
    pub fn shown_interval(&self, i: Interval, cap: u32) -> Interval {
        let (a, b) = (self.shown(i.low, cap), self.shown(i.high, cap));
        Interval { low: a.min(b), high: a.max(b) }
    }

    /// The metric in words, for reports.
    pub fn describe(&self, per_cost: bool, cost_unit: &str, forces: bool) -> String {
        let engagement = if forces { "battles" } else { "duels" };
        let raw = match self {
            SearchMetric::Win => format!("win rate in {engagement} against the field"),
            SearchMetric::KillByTurn(k) => {
                format!("chance to destroy each field member by turn {k} in an attack run against it")
            }
            SearchMetric::Turns => "turns to destroy each field member in an attack run against it, fewer is better \
                 (a run that reaches the turn cap counts as the cap + 1)"
                .into(),
            SearchMetric::KillPoints => {
                "share of the opposing force's points destroyed in battles against the field".into()
            }
        };
        let raw = format!("{raw}, weighted by the field and the conditions");
        if per_cost { format!("{raw}, per 100 {cost_unit} of cost") } else { raw }
    }

    /// Its short name for chart axes (`win rate`, `P(kill by turn 3)`, `turns to kill`,
    /// `share of points destroyed`).
    pub fn short(&self) -> String {
        match self {
            SearchMetric::Win => "win rate".into(),
            SearchMetric::KillByTurn(k) => format!("P(kill by turn {k})"),
            SearchMetric::Turns => "turns to kill".into(),
            SearchMetric::KillPoints => "share of points destroyed".into(),
        }
    }

    /// The matchup columns' name (`p_win`, `p_kill_by_turn_3`, `turns_to_kill`,
    /// `kill_points_share`).
    pub fn column(&self) -> String {
        match self {
            SearchMetric::Win => "p_win".into(),
            SearchMetric::KillByTurn(k) => format!("p_kill_by_turn_{k}"),
            SearchMetric::Turns => "turns_to_kill".into(),
            SearchMetric::KillPoints => "kill_points_share".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_parse_and_name_themselves() {
        for m in [SearchMetric::Win, SearchMetric::KillByTurn(3), SearchMetric::Turns, SearchMetric::KillPoints] {
            assert_eq!(SearchMetric::parse(&m.id()), Ok(m));
        }
        for bad in ["", "kill-by-turn:0", "kill-by-turn:x", "wins", "ttk"] {
            assert!(SearchMetric::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn turns_are_shown_back_from_their_score() {
        let m = SearchMetric::Turns;
        // a kill on turn 1 of a 20-turn cap scores 1, a censored run 0
        assert_eq!(m.shown(1.0, 20), 1.0);
        assert_eq!(m.shown(0.0, 20), 21.0);
        let i = m.shown_interval(Interval { low: 0.5, high: 0.75 }, 20);
        assert_eq!((i.low, i.high), (6.0, 11.0));
        assert_eq!(SearchMetric::Win.shown(0.25, 20), 0.25);
    }

    #[test]
    fn each_kind_takes_its_own_metrics() {
        assert!(SearchMetric::KillPoints.check(false, false, 20).is_err());
        assert!(SearchMetric::KillPoints.check(true, true, 20).is_ok());
        assert!(SearchMetric::Turns.check(true, false, 20).is_err());
        assert!(SearchMetric::Turns.check(false, true, 20).is_err());
        assert!(SearchMetric::KillByTurn(21).check(false, false, 20).is_err());
        assert!(SearchMetric::KillByTurn(20).check(false, true, 20).is_ok());
        assert!(SearchMetric::Win.check(true, true, 20).is_ok());
    }
}
