//! Dig in (techcommander-battles.md §2.4 row "Dig in", ruling `POLICY_DIG_IN`, off by
//! default) under fixed geometry.
//!
//! - With `POLICY_DIG_IN` on, a unit may dig in as an action (the book's half move:
//!   it costs the unit's action and one player action). Until Reset it is dug in:
//!   every attack at it takes `DUG_IN_PENALTY` (−2; Syndicate *Defense Masters* −3
//!   under the 2nd edition's faction training), through [`dig_in_tables`].
//! - "One return attack when targeted", played as: the first attack made at a dug-in
//!   unit after it dug in draws its one return attack, right after that attack
//!   resolves, at the attacker (when it may target it), with the weapon system that
//!   scores best against it among those with rounds left (`SYSTEM_ONCE_PER_TURN` does
//!   not apply: return fire is exempt), costing no action. A unit at 0 life or less
//!   still returns fire (it acts until removed, §1). Nothing more until it digs in
//!   again; Reset ends the dig-in.
//! - The greedy policy digs in when the option is on and no attack (nor scan) scores
//!   above `DIG_IN_THRESHOLD` (0.5 points): the unit of the side with an action left,
//!   not yet dug in, with the most points (ties: force order).
//! - Every policy scores a weapon-system attack at a dug-in unit as it is shot, from
//!   the dug-in tables ([`TcGame::shot_tables`]): the best shot, the rallied groups'
//!   member shots and their Rallied Attack (member by member at a dug-in target), the
//!   command-threat check and the return attack's choice of system.
//! - Not played: offload shots and Omega Overrides at a dug-in unit take no penalty and
//!   draw no return attack (their own tables); special attacks draw the return attack
//!   but take no penalty (`CLOSE_MODIFIERS` tables are compiled once).

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{State, TcGame};
use super::tables::{Tables, Value};
use super::units::BattleUnit;
use crate::rules::techcommander::conditions::{Conditions, Statuses};
use crate::rules::techcommander::options::Options;

/// The shots at a dug-in target: every pair of the battle under each side's conditions
/// with the target's status dug in; `None` unless `POLICY_DIG_IN` is on.
pub fn dig_in_tables(
    units: &[BattleUnit],
    conditions: &[Conditions],
    o: &Options,
    value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
) -> Option<Tables> {
    if !o.policy_dig_in {
        return None;
    }
    let dug: Vec<Conditions> =
        conditions.iter().map(|c| Conditions { statuses: Statuses { dug_in: true, ..c.statuses }, ..*c }).collect();
    Some(Tables::new(units, &dug, o, value))
}

impl TcGame {
    /// `u` digs in: it spends its action and is dug in until Reset, with one return
    /// attack ready.
    pub(crate) fn dig_in(&self, s: &mut State, u: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[u] -= 1;
        s.dug_in[u] = true;
        s.return_ready[u] = true;
        self.acted(s, u, rng);
    }

    /// Dug-in unit `d` was just attacked by `a`: its one return attack (see the module
    /// docs), if it has one ready.
    pub(crate) fn return_attack(&self, s: &mut State, d: usize, a: usize, rng: &mut Xoshiro256PlusPlus) {
        if !s.return_ready[d] {
            return;
        }
        s.return_ready[d] = false;
        if !s.present[d] || !self.targetable_by(s, d, a) {
            return;
        }
        let mut best: Option<(usize, f32)> = None;
        for sys in 0..self.units[d].attacker.systems.len() {
            if s.rounds[d][sys] == 0 {
                continue;
            }
            if let Some(score) = self.score(s, d, sys, a)
                && score > 0.0
                && best.is_none_or(|b| score > b.1)
            {
                best = Some((sys, score));
            }
        }
        let Some((sys, _)) = best else {
            return;
        };
        let used = s.used[d];
        self.fire_with(self.shot_tables(s, a), s, d, sys, a, rng);
        s.used[d] = used;
    }

    /// The unit the greedy policy digs in for `side`, if any (see the module docs).
    pub fn dig_in_candidate(&self, s: &State, side: usize) -> Option<usize> {
        self.dug_in_tables.as_ref()?;
        let mut best: Option<usize> = None;
        for &u in &self.side_units[side] {
            let u = u as usize;
            if !s.present[u] || s.life[u] <= 0 || s.actions[u] == 0 || s.dug_in[u] {
                continue;
            }
            if best.is_none_or(|b| self.units[u].points > self.units[b].points) {
                best = Some(u);
            }
        }
        best
    }
}

#[cfg(test)]
#[path = "dig_in_tests.rs"]
mod tests;
