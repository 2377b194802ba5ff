//! TechCommander battles (`shared/rules/techcommander-battles.md`): whole forces through
//! the shared battle engine ([`crate::engine::battle`]).
//!
//! - [`units`]: forces resolved into unit slots, budgets checked.
//! - [`tables`]: per pair of enemy units, fire-control and smoke state and system, the
//!   exact life-loss sampler and the policy's scores, before the first battle.
//! - [`state`]: the mutable state of one battle, with the masks of the units standing
//!   and on the field that the policy's scans walk.
//! - [`game`]: the skirmish game type (§2) as battle rules, and the turn machinery the
//!   deathmatch shares.
//! - [`dm_rules`]: the deathmatch's rules (§3): caps, spawn lists, the scoring table;
//!   [`deathmatch`] plays them (deployment, scoring, the result); [`teams`]: team
//!   deathmatches (captains, alternating teams, pooled budgets, no friendly fire),
//!   played through the game by [`team_play`].
//! - [`specials`]: ram, death from above, overrun and trample as actions where the
//!   attacker reaches (`REACH_RULE`).
//! - [`omega`]: Omega Override as an action, compared exactly with the MSV's best
//!   two-attack sequence.
//! - [`rally_laws`]: the rallied group actions' compiled laws and scores.
//! - [`rally`]: the rallied group's Rallied Attack and Rallied Assault, and a trample
//!   over several members of a group, scored exactly.
//! - [`dig_in`]: the dig-in action, its penalty and one return attack (`POLICY_DIG_IN`).
//! - [`variant_tables`]: the tables of those shots, as the game holds them.
//! - [`variants`]: shots under other modifiers than the side's: at dug-in targets
//!   (special attacks, Omega Overrides, offloads), Rallied Assault (no move modifier)
//!   and an overrun's fire (`OVERRUN_FIRE`).
//! - [`infiltration_facts`]: who infiltrates, sees through infiltration and scans with
//!   what number, compiled before the first battle.
//! - [`infiltration`]: infiltrated units (untargetable until revealed, stealth rolls,
//!   Reset) and the scan action.
//! - [`repair`]: the 2nd edition's MSV Warfare Badge repair as an action.
//! - [`shield_tables`]: bubble shields, who carries and who bypasses them, and the shots
//!   at a covered unit, compiled by [`shield_compile`]; [`shield`] plays them (drop,
//!   leave, break, recharge);
//!   [`shield_group`] scores the rallied group actions at carriers.
//! - [`classes`]: twin classes, slots of the same card and side that the greedy search
//!   scores once per distinct state.
//! - [`policy`]: the named policies (§2.7 greedy, focus-lowest, random).
//! - [`kernel`]: one compiled battle per policy, and the setup from the command line.

pub mod best_shot;
pub mod classes;
pub mod deathmatch;
pub mod dig_in;
pub mod dm_rules;
pub mod game;
pub mod infiltration;
pub mod infiltration_facts;
pub mod kernel;
pub mod omega;
pub mod policy;
pub mod rally;
pub mod rally_laws;
pub mod repair;
pub mod repair_law;
pub mod shield;
pub mod shield_compile;
pub mod shield_group;
pub mod shield_tables;
pub mod specials;
pub mod split;
pub mod state;
pub mod tables;
pub mod team_play;
pub mod teams;
pub mod units;
pub mod variant_tables;
pub mod variants;

pub use kernel::{MODES, TcBattle, compile, compile_teams};
pub use policy::BattlePolicyName;

#[cfg(test)]
mod book_tests;
#[cfg(test)]
mod rally_tests;
#[cfg(test)]
mod teams_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
