//! The battles capability: whole forces against each other.

use crate::engine::Kernel;
use crate::engine::battle::BattleTally;
use crate::rules::battle::{BattleInfo, BattleMode, BattleSetup};

use super::{Catalogue, ConditionRules};

/// Battles of whole forces, where a game has them; every method defaults to "not
/// available", so a game without battles writes nothing here.
pub trait Battles: Catalogue + ConditionRules {
    /// Whole forces in battle ([`crate::rules::battle::NoBattle`] for a game without battles).
    /// `Send`: a sweep compiles its battles on several threads.
    type Battle: Kernel<Tally = BattleTally> + Send;

    /// The battles this game plays, the default first; empty: none.
    const BATTLE_MODES: &'static [BattleMode] = &[];
    /// The battle policies [`Battles::battle`] accepts, the default first.
    const BATTLE_POLICIES: &'static [&'static str] = &[];

    /// Compile a battle: forces resolved and checked against their budget, conditions
    /// and options compiled, every table the policy reads precomputed.
    ///
    /// # Errors
    /// An unknown mode, policy or name, a force over its budget (naming the force and the
    /// excess), a side count the mode does not take, or a game without battles.
    fn battle(
        _cat: &Self::Catalogue,
        _setup: &BattleSetup<'_, Self::Conditions, Self::Options>,
    ) -> Result<(Self::Battle, BattleInfo), String> {
        Err(format!("battles are not available for {} yet", Self::LABEL))
    }

    /// Compile a battle of teams: as [`Battles::battle`], with `teams[i]` the team label
    /// of side `i` (sides sharing a label are one team).
    ///
    /// # Errors
    /// As [`Battles::battle`]; a mode without teams, or a game without team battles.
    fn team_battle(
        _cat: &Self::Catalogue,
        _setup: &BattleSetup<'_, Self::Conditions, Self::Options>,
        _teams: &[usize],
    ) -> Result<(Self::Battle, BattleInfo), String> {
        Err(format!("team battles are not available for {} yet", Self::LABEL))
    }
}
