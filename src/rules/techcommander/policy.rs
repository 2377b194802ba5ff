//! Firing policies: which weapon system a unit fires with each action.
//!
//! Every policy ranks the systems once per (attacker, target, fire-control state); at each
//! action the unit fires the first ranked system that is allowed: it has rounds left and
//! (for an MSV's second action) was not already fired this turn. A system with no shot or
//! no chance to take life is never ranked.

use std::fmt;
use std::str::FromStr;

/// A firing policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// The system with the highest expected life lost against the target (ties: catalogue order).
    #[default]
    BestExpected,
    /// The system with the highest chance to take the target from full life to 0 in one
    /// action, then the highest expected life lost, then catalogue order.
    KillChance,
    /// Systems in catalogue order.
    CatalogOrder,
}

impl Policy {
    pub const NAMES: &'static [&'static str] = &["best-expected", "kill-chance", "catalog-order"];
    pub fn name(self) -> &'static str {
        match self {
            Policy::BestExpected => "best-expected",
            Policy::KillChance => "kill-chance",
            Policy::CatalogOrder => "catalog-order",
        }
    }

    /// Rank systems given, per system, `Some((expected life lost, P(one-action kill)))`
    /// or `None` when it cannot fire. Systems that cannot take life are left out.
    pub fn rank(self, systems: &[Option<(f64, f64)>]) -> Vec<u8> {
        let mut ranked: Vec<(usize, f64, f64)> = systems
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.filter(|(e, _)| *e > 0.0).map(|(e, k)| (i, e, k)))
            .collect();
        match self {
            Policy::BestExpected => ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))),
            Policy::KillChance => {
                ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(b.1.total_cmp(&a.1)).then(a.0.cmp(&b.0)))
            }
            Policy::CatalogOrder => {}
        }
        ranked.into_iter().map(|(i, _, _)| i as u8).collect()
    }
}

/// Rounds left for a system that never runs out.
pub const UNLIMITED: u16 = u16::MAX;

/// The first ranked system not in `used_this_turn` (a bit mask) with rounds left.
#[inline(always)]
pub fn choose(ranking: &[u8], used_this_turn: u32, rounds_left: &[u16]) -> Option<u8> {
    ranking.iter().copied().find(|&s| used_this_turn & (1 << s) == 0 && rounds_left[s as usize] > 0)
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [Policy::BestExpected, Policy::KillChance, Policy::CatalogOrder]
            .into_iter()
            .find(|p| p.name() == s.trim().to_lowercase())
            .ok_or_else(|| format!("unknown policy `{s}`: expected one of {}", Policy::NAMES.join(", ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranking_and_choice() {
        let systems = [Some((3.0, 0.0)), None, Some((5.0, 0.1)), Some((0.0, 0.0)), Some((3.0, 0.2))];
        assert_eq!(Policy::BestExpected.rank(&systems), vec![2, 0, 4]);
        assert_eq!(Policy::KillChance.rank(&systems), vec![4, 2, 0]);
        assert_eq!(Policy::CatalogOrder.rank(&systems), vec![0, 2, 4]);
        let ranking = Policy::BestExpected.rank(&systems);
        let rounds = [UNLIMITED, UNLIMITED, UNLIMITED, UNLIMITED, 1];
        assert_eq!(choose(&ranking, 0, &rounds), Some(2));
        assert_eq!(choose(&ranking, 1 << 2, &rounds), Some(0));
        assert_eq!(choose(&ranking, (1 << 2) | 1, &rounds), Some(4));
        assert_eq!(choose(&ranking, (1 << 2) | 1, &[1, 1, 1, 1, 0]), None);
    }
}
