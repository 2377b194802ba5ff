//! The battle part of the ruleset boundary: what the command line and sweeps give a
//! ruleset to set up a battle, and what it gives back to label the results.

use crate::catalogue::force::ForceSpec;
use crate::engine::Kernel;
use crate::engine::battle::BattleTally;

/// A kind of battle a ruleset plays (`skirmish`, `deathmatch`, `squad`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleMode {
    pub name: &'static str,
    /// One line for `--help` and `volley rulesets`.
    pub help: &'static str,
    /// How many sides (forces) it takes, inclusive.
    pub sides: (usize, usize),
}

/// The mode of `modes` that `name` names, case and surrounding blanks aside.
///
/// # Errors
/// An unknown name: `unknown battle mode `NAME`: expected one of A, B`.
pub fn find_mode(modes: &'static [BattleMode], name: &str) -> Result<&'static BattleMode, String> {
    modes.iter().find(|m| m.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
        let names: Vec<&str> = modes.iter().map(|m| m.name).collect();
        format!("unknown battle mode `{name}`: expected one of {}", names.join(", "))
    })
}

/// Everything that sets up one battle.
#[derive(Debug, Clone)]
pub struct BattleSetup<'a, C, O> {
    /// One of the ruleset's [`BattleMode`] names.
    pub mode: &'a str,
    /// One force per side, in side order.
    pub forces: &'a [ForceSpec],
    /// The conditions of the shots each side fires, one per side.
    pub conditions: &'a [C],
    pub options: &'a O,
    /// A battle policy name of the ruleset; `None` = its default.
    pub policy: Option<&'a str>,
    /// Turn cap; `None` = the mode's documented default.
    pub max_turns: Option<u32>,
}

/// One unit slot of a compiled battle, for per-unit tables.
#[derive(Debug, Clone, PartialEq)]
pub struct UnitInfo {
    pub side: usize,
    /// The catalogue name of its build or unit.
    pub name: String,
    pub points: f64,
}

/// What a compiled battle is, for people and manifests.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleInfo {
    pub mode: &'static str,
    /// The policy's canonical name.
    pub policy: String,
    pub max_turns: u32,
    /// Force names and their total points, per side.
    pub sides: Vec<(String, f64)>,
    pub units: Vec<UnitInfo>,
    /// What the battle leaves out of the rules for these forces, one sentence each (the
    /// report's `not modelled:` lines and JSON key `not_modelled`); empty when it plays
    /// every rule their cards name.
    pub not_modelled: Vec<String>,
    /// What the battle plays beyond the cards for these forces, one sentence each (the
    /// report's `played:` lines and JSON key `played`; TechCommander: each build that
    /// carries a bubble shield); empty when nothing is.
    pub played: Vec<String>,
}

/// The battle kernel of a ruleset that plays no battles: it cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoBattle {}

impl Kernel for NoBattle {
    type Tally = BattleTally;
    fn new_tally(&self) -> BattleTally {
        match *self {}
    }
    fn play(&self, _rng: &mut rand_xoshiro::Xoshiro256PlusPlus, _trials: u32, _tally: &mut BattleTally) {
        match *self {}
    }
}
