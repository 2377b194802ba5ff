//! The Shellshock Combat System (exploding 2d10 against Defense Values; Damage, Shock
//! and Penetration; Internal damage), as ruled in `shared/rules/shellshock.md` from the
//! 1996-2016 battlefield rules. This room names no other ruleset.
//!
//! # Modules
//! - `options`: every Ruling of the rules document as a named option with its default.
//! - `unit`, `catalogue`: typed weapons, units, charts, fields and their checking.
//! - `build`: `[[crew]]` prices of skill levels and `[[build]]` units with re-skilled
//!   crews (their ECV); `space`: ad-hoc builds `Unit[Gunnery N, ...]` and the build space
//!   a search walks (unit × Gunnery levels).
//! - `roll`: the exact to-hit law under the `EXACT_DEPTH` cut (exact, not approximate,
//!   for the TNs asked: see its documentation), the joint hit law of one gunner, and
//!   one roll of real dice exploding without limit (Monte Carlo).
//! - `damage`: d6 pools, armour, Overshock, Overpenetration, Internal %'s boxes.
//! - `conditions`: range, facing, hull down, point blank, immobile, dice, gunnery; TNs.
//! - `gunner`: one gunner compiled against a target, and its exact step law on the
//!   card-free state (armour left on the facing, chart lines marked).
//! - `odds`: `volley odds` (one turn of every gunner, JSON keys of issue 13).
//! - `step_table`: integer alias tables that draw one gunner's whole step with one u64.
//! - `attack_run`: the attack run's exact Markov chain and Monte Carlo kernel;
//!   `duel`: simultaneous duels, exact from two kill-turn laws and Monte Carlo.
//! - `battle`: force against force at equal ECV (§5), every shot the duel's step,
//!   through the shared battle engine.
//! - `chart`: the 100-line chart's marking rules (§3 step 9) as plain reference code.
//! - `full_chart`: the full chart model's per-trial card (fixed-size state) and step.
//!
//! # The card-free model (default)
//! A unit is out of action on (a) one gunner's Internal reaching Dead X+, (b) a second
//! 20, or (d) all 100 chart lines marked; marked lines never overlap, so the lines add
//! up (XX+1 per box, 1 per Core Hit).
//!
//! # The full chart model (`MODEL = FULL_CHART`, Monte Carlo only)
//! Equipment lines, item hits, sympathetic explosions, locomotion and their effects on
//! later turns; out of action (a)-(f). See `full_chart`. No exact law: `--exact`,
//! exact duels and paired attack-run comparisons are not available with it.

pub mod attack_run;
pub mod battle;
pub mod build;
pub mod card;
pub mod catalogue;
pub mod chart;
pub mod conditions;
pub mod damage;
pub mod duel;
pub mod full_chart;
pub mod gunner;
pub mod odds;
pub mod options;
pub mod reference;
pub mod roll;
pub mod ruleset;
pub mod space;
pub mod step_table;
pub mod unit;

pub use attack_run::AttackRun;
pub use catalogue::Catalogue;
pub use conditions::{Conditions, Facing};
pub use duel::DuelKernel;
pub use options::Options;
pub use roll::{Dice, RollLaw};
pub use ruleset::Shellshock;

#[cfg(test)]
mod dodge_tests;
#[cfg(test)]
mod full_chart_tests;
#[cfg(test)]
mod limits_tests;
#[cfg(test)]
mod monte_carlo_tests;
#[cfg(test)]
mod space_tests;
#[cfg(test)]
mod tests;
