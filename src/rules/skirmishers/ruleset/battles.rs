//! Skirmishers: battles of whole forces ([`crate::rules::ruleset::Battles`]).

use super::*;

impl crate::rules::ruleset::Battles for Skirmishers {
    type Battle = SquadFight;

    const BATTLE_MODES: &'static [BattleMode] = crate::rules::skirmishers::battle::BATTLE_MODES;

    const BATTLE_POLICIES: &'static [&'static str] = crate::rules::skirmishers::battle::BATTLE_POLICIES;

    fn battle(
        cat: &Catalogue,
        setup: &BattleSetup<'_, Conditions, Options>,
    ) -> Result<(SquadFight, BattleInfo), String> {
        for c in setup.conditions {
            check_conditions(c, setup.options)?;
        }
        crate::rules::skirmishers::battle::battle(
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
