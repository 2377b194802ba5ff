//! A game's identity: its names, words and the types every capability shares.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use crate::catalogue::raw::Sections;
use crate::rules::kit::catalogue::Provenance;
use crate::rules::kit::prefix::Prefix;

use super::RuleOptions;

/// Who a game is and the types its capabilities share: the base of every capability
/// trait ([`super::Catalogue`], [`super::ConditionRules`], [`super::Engagements`],
/// [`super::Reports`], [`super::Battles`]).
pub trait Game: Sized + Send + Sync + 'static {
    /// The id on the command line and in manifests, tables and cell keys.
    const NAME: &'static str;
    /// The game's title and edition, for people.
    const TITLE: &'static str;
    /// The game's name as reports print it (`TechCommander`).
    const LABEL: &'static str;
    /// What this game calls a turn (`turn`, `round`): `ttk_by_turn` counts these.
    const TURN: &'static str;
    /// The catalogue's sections; the embedded catalogue is `loadouts/<NAME>/`.
    const SECTIONS: Sections;
    /// How `compare` pairs A and B (common random numbers), for its reports.
    const PAIRING: &'static str;
    /// The names [`Game::Policy`] parses, the default first.
    const POLICIES: &'static [&'static str];
    /// The selector prefixes this game's catalogue has (`kind:`, `faction:`, `era:`,
    /// `squad:`, ...), read by [`crate::rules::kit::select::Selector::parse`] for [`super::Catalogue::select`].
    const SELECTORS: &'static [Prefix];
    /// What the game calls its cost unit (`points`, `PV`, `ECV`): cost-aware verdicts
    /// print values "per 100" of it.
    const COST_UNIT: &'static str = "points";

    /// The checked catalogue; the kit reads its origin and hash ([`Provenance`]).
    type Catalogue: Provenance + Send + Sync;
    /// The rulings and edition, declared on the kit's option table.
    type Options: RuleOptions;
    /// The typed conditions of one engagement, made from a [`crate::rules::axis::Point`].
    type Conditions: Copy + Debug + Send + Sync;
    /// How a side picks its attacks (named, documented, deterministic).
    type Policy: Copy + Debug + Display + Default + FromStr<Err = String> + Send + Sync;
}
