//! What a paired comparison measures per trial.

/// What a paired comparison measures per trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Duels: 1 when the compared side wins.
    Win,
    /// Attack runs: 1 when the target is destroyed by turn k.
    KillByTurn(u32),
    /// Attack runs: turns to kill, a censored run counting as the cap + 1 (a restricted mean).
    Turns,
}

impl Metric {
    /// Parse `win`, `turns` or `kill-by-turn:K`.
    ///
    /// # Errors
    /// Any other text.
    pub fn parse(s: &str) -> Result<Metric, String> {
        match s.trim() {
            "win" => Ok(Metric::Win),
            "turns" => Ok(Metric::Turns),
            other => match other.strip_prefix("kill-by-turn:").map(str::parse::<u32>) {
                Some(Ok(k)) if k >= 1 => Ok(Metric::KillByTurn(k)),
                _ => Err(format!("unknown metric `{s}`: expected win, turns or kill-by-turn:K")),
            },
        }
    }

    /// Whether a larger value is better for the attacker (fewer turns to kill is better).
    pub fn higher_is_better(&self) -> bool {
        !matches!(self, Metric::Turns)
    }

    /// The metric's column name (`p_win`, `p_kill_by_turn_3`, `turns_to_kill`).
    pub fn name(&self) -> String {
        match self {
            Metric::Win => "p_win".into(),
            Metric::KillByTurn(k) => format!("p_kill_by_turn_{k}"),
            Metric::Turns => "turns_to_kill".into(),
        }
    }
}
