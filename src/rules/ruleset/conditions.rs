//! The conditions capability: the axes and flags of an engagement and their checks.

use crate::rules::axis::{AxisSpec, Point};

use super::{Game, Role};

/// The conditions a game's engagements are played in.
pub trait ConditionRules: Game {
    /// The axes a sweep may vary, in grid order: one table column each.
    fn axes() -> &'static [AxisSpec];
    /// Further conditions, set on the command line (or fixed in a scenario) but not
    /// swept and not table columns.
    fn flags() -> &'static [AxisSpec];
    /// The typed conditions of a point of [`ConditionRules::axes`] + [`ConditionRules::flags`].
    ///
    /// # Errors
    /// Values that contradict each other.
    fn conditions(point: &Point) -> Result<Self::Conditions, String>;
    /// Refuse conditions that `odds` accepts but engagements cannot play (an odds-only
    /// attack mode): a usage error of `ttk`, `duel`, `sweep`, `compare`, `gauntlet`.
    ///
    /// # Errors
    /// A message saying why.
    fn check_engagement(_c: &Self::Conditions) -> Result<(), String> {
        Ok(())
    }
    /// Refuse conditions battles cannot play (an attack action of duels and attack runs,
    /// where a battle's units choose their actions themselves): a usage error of
    /// `battle` and of `gauntlet`, `compare`, `meta` and `search` with battles. The
    /// default is [`ConditionRules::check_engagement`]'s; the battle kernels refuse them
    /// too.
    ///
    /// # Errors
    /// A message saying why.
    fn check_battle(c: &Self::Conditions) -> Result<(), String> {
        Self::check_engagement(c)
    }
    /// Refuse conditions that need a rule the options leave off (e.g. a terrain
    /// condition of an advanced rule that is switched off): a usage error on the command
    /// line; the engagements' constructors refuse them too.
    ///
    /// # Errors
    /// A message naming the conditions and the option.
    fn check_conditions(_c: &Self::Conditions, _o: &Self::Options) -> Result<(), String> {
        Ok(())
    }
    /// Check how a name is written before looking it up (`ac:0` is malformed): a usage
    /// error on the command line.
    ///
    /// # Errors
    /// A message saying how to write it.
    fn check_name(_role: Role, _name: &str) -> Result<(), String> {
        Ok(())
    }
    /// One line describing conditions for people ("range 12, cover none, ...").
    fn describe(c: &Self::Conditions) -> String;
}
