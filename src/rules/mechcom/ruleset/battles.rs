//! MECHCOM: battles of whole forces ([`crate::rules::ruleset::Battles`]).

use super::*;

impl crate::rules::ruleset::Battles for Mechcom {
    type Battle = SquadBattle;

    const BATTLE_MODES: &'static [BattleMode] = crate::rules::mechcom::battle::BATTLE_MODES;

    const BATTLE_POLICIES: &'static [&'static str] = crate::rules::mechcom::battle::BATTLE_POLICIES;

    fn battle(cat: &Catalogue, setup: &BattleSetup<'_, Setting, Options>) -> Result<(SquadBattle, BattleInfo), String> {
        crate::rules::mechcom::battle::battle(
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
