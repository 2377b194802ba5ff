//! TechCommander: battles of whole forces ([`crate::rules::ruleset::Battles`]).

use super::*;

impl crate::rules::ruleset::Battles for TechCommander {
    type Battle = crate::rules::techcommander::battle::TcBattle;

    const BATTLE_MODES: &'static [crate::rules::battle::BattleMode] = crate::rules::techcommander::battle::MODES;

    const BATTLE_POLICIES: &'static [&'static str] = crate::rules::techcommander::battle::BattlePolicyName::NAMES;

    fn battle(
        cat: &Catalogue,
        setup: &crate::rules::battle::BattleSetup<'_, Conditions, Options>,
    ) -> Result<(Self::Battle, crate::rules::battle::BattleInfo), String> {
        crate::rules::techcommander::battle::compile(cat, setup)
    }

    fn team_battle(
        cat: &Catalogue,
        setup: &crate::rules::battle::BattleSetup<'_, Conditions, Options>,
        teams: &[usize],
    ) -> Result<(Self::Battle, crate::rules::battle::BattleInfo), String> {
        crate::rules::techcommander::battle::compile_teams(cat, setup, Some(teams))
    }
}
