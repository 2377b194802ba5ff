//! Targeting rules (`TARGET_POLICY`, §4): which enemy a model attacks next. Asked before
//! every attack, so a model whose target is destroyed turns to the next one with the
//! Energy it has left. Each rule is a type, so the hot loop is monomorphic.

use super::compiled::Squads;
use super::state::SquadState;

/// A targeting rule: deterministic, reading only the state (no random numbers).
pub trait Targeting: Copy + Default + Send + Sync + 'static {
    /// The battle policy name this rule belongs to.
    const NAME: &'static str;
    /// The enemy `attacker` attacks next, or `None` when no enemy is left.
    fn pick(q: &Squads, s: &SquadState, attacker: usize) -> Option<usize>;
}

/// The enemy slots of `attacker` that are alive.
#[inline(always)]
fn enemies<'a>(q: &'a Squads, s: &'a SquadState, attacker: usize) -> impl Iterator<Item = usize> + 'a {
    let (lo, hi) = q.sides[1 - q.units[attacker].side as usize];
    (lo as usize..hi as usize).filter(move |&u| s.life[u] > 0)
}

/// The rules document's default: the enemy with the lowest remaining Integrity, ties
/// to the highest cost, then to the first slot (the force's order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LowestIntegrity;

impl Targeting for LowestIntegrity {
    const NAME: &'static str = "lowest-integrity";
    #[inline(always)]
    fn pick(q: &Squads, s: &SquadState, attacker: usize) -> Option<usize> {
        // min_by_key keeps the first of equal keys: slot order breaks the last tie.
        enemies(q, s, attacker).min_by_key(|&u| (s.life[u], std::cmp::Reverse(q.units[u].cost)))
    }
}

/// Focus the enemy with the highest cost (the most points to take), ties to the lowest
/// remaining Integrity, then to the first slot: every model of a side fires at the same
/// target until it falls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FocusHighestCost;

impl Targeting for FocusHighestCost {
    const NAME: &'static str = "focus-highest-cost";
    #[inline(always)]
    fn pick(q: &Squads, s: &SquadState, attacker: usize) -> Option<usize> {
        enemies(q, s, attacker).min_by_key(|&u| (std::cmp::Reverse(q.units[u].cost), s.life[u]))
    }
}
