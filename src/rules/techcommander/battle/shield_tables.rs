//! The battle's bubble shields as data (`BUBBLE_SHIELD`, [`super::shield`]): who carries
//! how many, who fires from outside its own and who gets inside an enemy's, and the
//! shot tables of attacks while a shield covers their target, compiled before the
//! first battle only when some unit carries one ([`super::shield_compile`]).

use super::omega::Omega;
use super::tables::{Tables, Value};
use crate::rules::techcommander::options::Options;

/// The battle's bubble shields; [`Shields::any`] false (and every list empty) when no
/// unit carries one.
#[derive(Debug, Clone, Default)]
pub struct Shields {
    /// Some unit carries a shield.
    pub any: bool,
    /// Per unit slot: shields it may drop in a battle (its projectors' rounds, at most
    /// 255), 0 for none.
    pub count: Vec<u8>,
    /// Per unit slot: an auto-stabilized vehicle, which fires from outside its shield
    /// during its move and returns inside (`SHIELD_SORTIE`); any other unit leaves its
    /// shield to fire.
    pub sorties: Vec<bool>,
    /// Per unit slot: as an attacker, it fires at a covered enemy from inside the
    /// shield (`SHIELD_BYPASS`, `attack_run::shield::bypasses` under its side's conditions).
    pub bypass: Vec<bool>,
    /// Shots at a covered target: at its shield, with the battle's shots' modifiers.
    pub base: Option<Tables>,
    /// The same for an offload's shots, a Rallied Assault's and an overrun's fire
    /// (each `Some` when the battle has those shots).
    pub offload: Option<Tables>,
    pub assault: Option<Tables>,
    pub overrun_fire: Option<Tables>,
    /// Omega Overrides at a covered target.
    pub omega: Option<Omega>,
    /// A bypassing attacker's shots at a covered unit: after at least a half move, and
    /// at a dug-in unit (`Some` when some attacker bypasses).
    pub bypass_base: Option<Tables>,
    pub bypass_dug: Option<Tables>,
}

/// The greedy value of breaking a shield, from `v`, its carrier's value to the attacker:
/// a broken shield is 20 life of protection its carrier loses, scored as §2.7's damage
/// term scores 20 life (`DAMAGE_WEIGHT` × V); damage short of a break scores nothing (the
/// shield resets to 20, techcommander-battles.md §2.7), and no unit is killed from full
/// life.
pub fn break_value(v: Value, o: &Options) -> Value {
    Value { kill: o.damage_weight.0 * v.kill, kill_from_full: 0.0, damage: 0.0 }
}
