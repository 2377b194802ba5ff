//! Shellshock: battles of whole forces ([`crate::rules::ruleset::Battles`]).

use super::*;
use crate::rules::battle::{BattleInfo, BattleMode, BattleSetup};
use crate::rules::shellshock::battle::ForceBattle;

impl crate::rules::ruleset::Battles for Shellshock {
    type Battle = ForceBattle;

    const BATTLE_MODES: &'static [BattleMode] = crate::rules::shellshock::battle::BATTLE_MODES;

    const BATTLE_POLICIES: &'static [&'static str] = crate::rules::shellshock::battle::BATTLE_POLICIES;

    fn battle(
        cat: &Catalogue,
        setup: &BattleSetup<'_, Conditions, Options>,
    ) -> Result<(ForceBattle, BattleInfo), String> {
        crate::rules::shellshock::battle::battle(
            cat,
            setup.mode,
            setup.forces,
            setup.conditions,
            setup.options,
            setup.policy,
            setup.max_turns,
        )
    }
}
