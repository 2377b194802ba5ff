//! The TechCommander ruleset (d20, roll-under, damage divided by AC).
//!
//! `options` holds every ruling and modifier as a runtime value with its documented
//! default, `rulings` the fixed book numbers; `conditions` and `profile` describe an
//! attack; `target_number`, `damage`, `dice` and `action` are the exact maths;
//! `odds` puts them together per weapon system; `special` gives the exact odds of the
//! special attacks (ram, death from above, overrun, trample).

pub mod action;
pub mod attack_run;
pub mod battle;
pub mod card;
pub mod catalogue;
pub mod compiled;
pub mod conditions;
pub mod coupled;
pub mod damage;
pub mod dice;
pub mod duel;
pub mod edition;
pub mod exact;
pub mod exact_duel;
pub mod listing;
pub mod odds;
pub mod options;
pub mod paired;
pub mod policy;
pub mod profile;
pub mod report;
pub mod ruleset;
pub mod rulings;
pub mod sampler;
pub mod special;
pub mod target_number;

pub use action::{ActionOdds, ActionSpec, DiceGroup};
pub use attack_run::{AttackRun, DEFAULT_MAX_TURNS};
pub use conditions::{AttackMode, Conditions, Cover, Movement, Smoke, Status, Statuses};
pub use duel::Duel;
pub use exact::ExactTtk;
pub use exact_duel::ExactDuel;
pub use odds::{RowShot, SystemOdds, all_odds, system_odds};
pub use options::{CoverBands, Options};
pub use policy::Policy;
pub use profile::{Attacker, System, Target, TargetSpec};
pub use ruleset::TechCommander;
pub use special::{NoSpecial, Special, SpecialOdds, SpecialOutcome, special_odds};
pub use target_number::{Modifiers, NoShot, Shot};

#[cfg(test)]
mod tests;

#[cfg(test)]
#[path = "exact_duel_tests.rs"]
mod exact_duel_tests;
