//! The ruleset boundary: everything the shared rooms (catalogue reader, engine, sweep,
//! output, charts, command line) need from a game, and nothing more.
//!
//! A ruleset is a zero-sized type. The command line picks one with a single `match` on
//! [`super::RulesetId`] and calls generic code with it, so every kernel is a concrete
//! type and the hot loops stay monomorphic: no dynamic dispatch per action.
//!
//! A game implements six capability traits on one base, each in a file of its room named
//! for it, and gets [`Ruleset`] for free:
//!
//! | trait | what the game supplies | kit defaults |
//! | --- | --- | --- |
//! | [`Game`] | names, turn word, cost unit, selectors, catalogue/options/conditions/policy types | |
//! | [`Catalogue`] | loading, listings, selectors, fields, points, target columns | origin, counts ([`crate::rules::kit::catalogue`]), forces |
//! | [`ConditionRules`] | axes, flags, typed conditions and their checks | checks accept |
//! | [`Engagements`] | exact odds, attack runs, duels, exact laws, pairings | can-attack from the exact law, notes |
//! | [`Reports`] | detail and cost tables and charts, odds cards | no extra cost charts, no cards |
//! | [`Battles`] | battles of whole forces | not available |
//! | [`Builds`] | ad-hoc builds and the build space a search walks | not available |
//!
//! The shared rooms see names, canonical `axis=value` pairs, kernels and tallies. Code
//! generic over a game takes `R: Ruleset` and reaches every capability through it.

mod battles;
mod builds;
mod catalogue;
mod conditions;
mod engagements;
mod game;
mod listings;
mod reports;
mod types;

pub use battles::Battles;
pub use builds::{Builds, SPACE_HARD_CAP, SpaceFilter};
pub use catalogue::Catalogue;
pub use conditions::ConditionRules;
pub use engagements::{CAN_ATTACK_TURNS, Engagements};
pub use game::Game;
pub use listings::{fields_table, forces_table};
pub use reports::Reports;
pub use types::{
    ColumnNotes, CostChart, CostRow, DetailChart, DetailRow, DetailTable, OddsReport, OptionSpec, Role, RuleOptions,
    Weighted,
};

/// A game volley plays: every capability at once. Implemented for every type that
/// implements the six capability traits; never implemented by hand.
pub trait Ruleset: Game + Catalogue + ConditionRules + Engagements + Reports + Battles + Builds {}

impl<T: Game + Catalogue + ConditionRules + Engagements + Reports + Battles + Builds> Ruleset for T {}

/// `use crate::rules::ruleset::prelude::*` brings [`Ruleset`] and every capability's
/// methods into scope, for code that calls them on a concrete game
/// (`TechCommander::duel(...)`).
pub mod prelude {
    pub use super::{
        Battles as _, Builds as _, Catalogue as _, ConditionRules as _, Engagements as _, Game as _, Reports as _,
        Ruleset,
    };
}
