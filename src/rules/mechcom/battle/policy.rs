//! The squad battle's policy for the engine ([`BattlePolicy`]): which model activates
//! next (`ACTIVATION_ORDER`: the side's most expensive model first, ties in force
//! order, compiled into [`super::compiled::Squads::order`]). Where it attacks is the
//! game's targeting rule ([`super::target::Targeting`]); with what, `ACTION_POLICY`.

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::battle::BattlePolicy;

use super::game::SquadGame;
use super::target::Targeting;

/// `ACTIVATION_ORDER` = most expensive first. Passes when the battle is over or the
/// side has no model left to activate this round (`ALTERNATION_RUNOUT`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MostExpensiveFirst;

impl<T: Targeting> BattlePolicy<SquadGame<T>> for MostExpensiveFirst {
    #[inline]
    fn choose(
        &self,
        game: &SquadGame<T>,
        s: &<SquadGame<T> as crate::engine::battle::BattleRules>::State,
        side: usize,
        _phase: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<u8> {
        if s.over.is_some() {
            return None;
        }
        game.squads.order[side].iter().copied().find(|&u| !s.done[u as usize])
    }
}
