//! Morale checks in squad fights (Advanced Combat "Morale Checks"; option `MORALE`, off).
//!
//! # Why off by default
//! Advanced Combat opens with "These rules are optional and may be added or excluded
//! individually", and morale is one of them: the basic game has none, so the default
//! fight has none; `--option MORALE=on` plays it.
//!
//! # The book
//! "Once 4 or more troopers in a squad have died, the remaining troopers must make
//! morale checks. Each remaining trooper must roll 2D6 and meet the target number"
//! (Green 9, Regular 7, Veteran 5, Elite 2), "+1 modifier for each additional dead
//! trooper above 4", "-N modifier based upon the leadership skill of the squad leader,
//! if the squad leader is alive. The standard leadership skill of a squad leader is 2."
//!
//! # Rulings (the book gives neither when nor what a failure does)
//! - `MORALE_TIMING`: each remaining trooper of a side checks at the start of its side's
//!   turn (played at the side's first activation, before any attack: the count of dead
//!   is the one the enemy's turn left); one draw of 36 a trooper, in roster order. A
//!   trooper that fails still activates (enemy arcs fire at it) but takes no action that
//!   turn: no arc, no throw, no melee attack.
//! - `MORALE_COUNTS_OUT`: a trooper out of the fight (HP 0 or DEAD) counts as dead.
//! - `DAMAGE_MODS_ALL_CHECKS`: the checking trooper's Mods are added to its TN.
//! - `SQUAD_LEADERSHIP` (2, the book's standard): the leadership of the squad leader,
//!   who is the side's first trooper in roster order (the catalogue names no leader).
//! - The squad is the side; its dead are its troopers out of the fight (a side of fewer
//!   than 5 troopers never checks).

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform_below;

use super::super::dice::success_ways;
use super::state::{FightGame, FightState};

/// Dead troopers in a squad from which the others check ("4 or more").
pub const MORALE_DEAD: u32 = 4;

impl FightGame {
    /// The morale TN of `u` now, with `dead` of its side out (see the module docs).
    pub fn morale_tn(&self, s: &FightState, u: usize, dead: u32) -> i32 {
        let unit = &self.fight.units[u];
        let side = unit.side as usize;
        let leader = self.slots(side).start;
        let lead = if s.out[leader] { 0 } else { self.fight.leadership };
        unit.morale_tn + (dead - MORALE_DEAD) as i32 - lead + unit.mods[s.col[u] as usize]
    }

    /// The start of `side`'s turn: every remaining trooper checks when 4 or more are
    /// dead; `shaken` says who failed.
    pub fn morale_checks(&self, s: &mut FightState, side: usize, rng: &mut Xoshiro256PlusPlus) {
        s.checked[side] = true;
        let dead = self.slots(side).filter(|&u| s.out[u]).count() as u32;
        for u in self.slots(side) {
            s.shaken[u] = false;
            if s.out[u] || dead < MORALE_DEAD {
                continue;
            }
            let ways = success_ways(self.morale_tn(s, u, dead), self.fight.no_automatic_result) as u64;
            s.shaken[u] = uniform_below(rng, 36, 36u64.wrapping_neg() % 36) >= ways;
        }
    }
}
