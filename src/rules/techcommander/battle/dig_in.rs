//! Dig in (techcommander-battles.md §2.4 row "Dig in", ruling `POLICY_DIG_IN`, off by
//! default; `FREE_DIG_IN`, on) under fixed geometry.
//!
//! - With `FREE_DIG_IN` on, every troop and crew unit on the field that is not dug in is
//!   declared dug in as each turn begins, before anyone acts, at no action ("Crew or
//!   troop units that have not acted may be declared as being dug-in at any point"),
//!   with one return attack; what follows is the same as for a unit that dug in as an
//!   action.
//! - With `POLICY_DIG_IN` on, a unit may dig in as an action (the book's half move:
//!   it costs the unit's action and one player action). It stays dug in, across
//!   Resets, until it moves position (3rd edition "Dig In": "The unit may stay dug-in
//!   until it moves position on the battlefield (other than pop and shoot or rotating
//!   in place)"): every attack at it takes `DUG_IN_PENALTY` (−2; Syndicate *Defense
//!   Masters* −3 under the 2nd edition's faction training), through [`dig_in_tables`].
//! - Ruling on moving position under fixed geometry: a unit moves when it attacks
//!   under its side's scenario movement `half`, `full`, `attack-and-cover`,
//!   `jump-assault` or `offload` ([`moves_position`]; `stationary` and `pop-and-shoot`
//!   do not), makes a special attack (ram, death from above, overrun, trample: each
//!   moves it adjacent), or pops smoke (a Move action, `SMOKE_POP`). A scan, a repair,
//!   an Omega Override ("no move"), its return attack and the rallied group's actions
//!   fired without a move keep it dug in: the book's "up to half speed" allows no move,
//!   and the map that would make one worth it is not modelled.
//! - "One return attack when targeted", played as: the first attack made at a dug-in
//!   unit after it dug in draws its one return attack, right after that attack
//!   resolves, at the attacker (when it may target it), with the weapon system that
//!   scores best against it among those with rounds left (`SYSTEM_ONCE_PER_TURN` does
//!   not apply: return fire is exempt), costing no action. A unit at 0 life or less
//!   still returns fire (it acts until removed, §1). Nothing more until it digs in
//!   again ("The unit may only make a return attack once").
//! - The greedy policy digs in when the option is on and no attack (nor scan) scores
//!   above `DIG_IN_THRESHOLD` (0.5 points): the unit of the side with an action left,
//!   not yet dug in, with the most points (ties: force order).
//! - Every policy scores a weapon-system attack at a dug-in unit as it is shot, from
//!   the dug-in tables ([`TcGame::aim`]): the best shot, the rallied groups'
//!   member shots and their Rallied Attack (member by member at a dug-in target), the
//!   command-threat check and the return attack's choice of system.
//! - Ram and death from above, Omega Overrides and offload shots at a dug-in unit take
//!   the penalty too ("Opposing units get a −2 to target a dug-in unit";
//!   `CLOSE_MODIFIERS` lists defender statuses) and draw the return attack, from their
//!   dug-in variants ([`super::variants`]); an overrun or trample is dodged, not rolled
//!   to hit, so dug in changes nothing there but the return attack it draws.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{State, TcGame};
use super::tables::{Tables, Value};
use super::units::BattleUnit;
use crate::rules::techcommander::conditions::{Conditions, Movement, Statuses};
use crate::rules::techcommander::options::Options;

/// The shots at a dug-in target: every pair of the battle under each side's conditions
/// with the target's status dug in; `None` unless some unit may dig in
/// ([`dig_in_played`]).
pub fn dig_in_tables(
    units: &[BattleUnit],
    conditions: &[Conditions],
    o: &Options,
    value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
) -> Option<Tables> {
    if !dig_in_played(units, o) {
        return None;
    }
    let dug: Vec<Conditions> =
        conditions.iter().map(|c| Conditions { statuses: Statuses { dug_in: true, ..c.statuses }, ..*c }).collect();
    Some(Tables::new(units, &dug, o, value))
}

/// Whether some unit of `units` may be dug in: any under `POLICY_DIG_IN` (an action),
/// troops and crew under `FREE_DIG_IN` (declared for free).
pub fn dig_in_played(units: &[BattleUnit], o: &Options) -> bool {
    o.policy_dig_in || o.free_dig_in && units.iter().any(|u| u.kind.rides())
}

/// Whether an attack under scenario movement `m` moves the attacker's position (ending
/// its dig-in): every movement but `stationary` and `pop-and-shoot` (the book's
/// exception: "other than pop and shoot or rotating in place").
pub fn moves_position(m: Movement) -> bool {
    !matches!(m, Movement::Stationary | Movement::PopAndShoot)
}

impl TcGame {
    /// `u` digs in: it spends its action and is dug in until it moves position, with one
    /// return attack ready.
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
        // Return fire is shot from the dug-in position: it neither spends the system
        // nor moves the unit.
        let (used, dug_in) = (s.used[d], s.dug_in[d]);
        self.fire_with(&self.tables, s, d, sys, a, rng);
        s.used[d] = used;
        s.dug_in[d] = dug_in;
    }

    /// `FREE_DIG_IN`: every troop and crew unit on the field that is not dug in is
    /// declared dug in as the turn begins (none has acted yet), with its one return
    /// attack ready.
    pub(crate) fn declare_free_dig_in(&self, s: &mut State) {
        for (u, &free) in self.free_dig_in.iter().enumerate() {
            if free && s.present[u] && !s.dug_in[u] {
                s.dug_in[u] = true;
                s.return_ready[u] = true;
            }
        }
    }

    /// The unit the greedy policy digs in for `side`, if any (see the module docs).
    pub fn dig_in_candidate(&self, s: &State, side: usize) -> Option<usize> {
        if !self.o.policy_dig_in {
            return None;
        }
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
