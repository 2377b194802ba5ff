//! Compiles the battle's bubble shields ([`Shields`], [`super::shield_tables`]) once
//! the rest of the battle is set: the shots at a covered unit, the bypassing
//! attackers' shots, and what breaking a shield is worth to the greedy policy.

use super::game::TcGame;
use super::omega::Omega;
use super::shield_tables::{Shields, break_value};
use super::tables::{Tables, Value, deathmatch_value, skirmish_value};
use super::units::BattleUnit;
use super::variants::{ValueFn, best_score_of};
use crate::rules::techcommander::attack_run::shield::{at_shield, bypasses, moved, sorties};
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{Conditions, Movement};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::profile::Target;

/// `units` as targets of attacks at their shields: each unit targeted as a
/// [`Target::bubble_shield`] (no gear to take offline).
fn at_shields(units: &[BattleUnit]) -> Vec<BattleUnit> {
    let shield = Target::bubble_shield();
    units.iter().map(|u| BattleUnit { target: shield.clone(), offline_target: shield.clone(), ..u.clone() }).collect()
}

/// [`break_value`] of [`skirmish_value`].
fn skirmish_break(a: &BattleUnit, t: &BattleUnit, o: &Options) -> Value {
    break_value(skirmish_value(a, t, o), o)
}

/// [`break_value`] of [`deathmatch_value`].
fn deathmatch_break(a: &BattleUnit, t: &BattleUnit, o: &Options) -> Value {
    break_value(deathmatch_value(a, t, o), o)
}

/// `conditions` as an attack at a shield meets them ([`at_shield`]: no target postures).
fn shielded(conditions: &[Conditions], m: Option<Movement>) -> Vec<Conditions> {
    conditions
        .iter()
        .map(|c| {
            let c = at_shield(c);
            Conditions { movement: m.unwrap_or(c.movement), ..c }
        })
        .collect()
}

impl Shields {
    /// Compiles the shields `game` needs (its tables, Omegas, offload, variants and
    /// dug-in tables already set); nothing when no unit carries one. Raises the
    /// overrun's skip bound by what a follow-up shot at a shield can score.
    pub fn compile(game: &mut TcGame, conditions: &[Conditions], value: ValueFn) {
        let o: Options = game.o;
        // Shots at the unit (a bypass) are valued by `value`; shots at a shield by what
        // breaking it is worth.
        let at_value: ValueFn = if game.dm.is_some() { deathmatch_break } else { skirmish_break };
        let units = &game.units;
        let count: Vec<u8> = units.iter().map(|u| u.target.shields_played(&o).min(u8::MAX as u32) as u8).collect();
        if count.iter().all(|&c| c == 0) {
            game.shields = Shields::default();
            return;
        }
        let at = at_shields(units);
        let bypass: Vec<bool> = units.iter().map(|u| bypasses(&u.attacker, &conditions[u.side], &o)).collect();
        let mut sh = Shields {
            any: true,
            count,
            sorties: units.iter().map(|u| sorties(&u.attacker)).collect(),
            base: Some(Tables::new(&at, &shielded(conditions, None), &o, at_value)),
            ..Shields::default()
        };
        if game.offload.is_some() {
            sh.offload = Some(Tables::new(&at, &shielded(conditions, Some(Movement::Offload)), &o, at_value));
        }
        if game.variants.assault.is_some() {
            sh.assault = Some(Tables::new(&at, &shielded(conditions, Some(Movement::Stationary)), &o, at_value));
        }
        if game.variants.overrun_fire.is_some() {
            let tables = Tables::new(&at, &shielded(conditions, Some(Movement::Full)), &o, at_value);
            let extra: Vec<f32> = (0..units.len()).map(|a| best_score_of(&tables, units.len(), a)).collect();
            game.specials.raise_overrun_bound(&extra);
            sh.overrun_fire = Some(tables);
        }
        if o.omega_in_battles
            && units.iter().any(|u| u.kind == UnitKind::Msv)
            && let Some(base) = &sh.base
        {
            let om = Omega::new(&at, &shielded(conditions, None), base, &o, at_value, game.jury_ok as f64);
            game.omega.merge_look(&om);
            sh.omega = Some(om);
        }
        if bypass.iter().any(|&b| b) {
            let moved: Vec<Conditions> = conditions.iter().map(moved).collect();
            sh.bypass_base = Some(Tables::new(units, &moved, &o, value));
            sh.bypass_dug = super::dig_in::dig_in_tables(units, &moved, &o, value);
        }
        sh.bypass = bypass;
        game.shields = sh;
    }
}
