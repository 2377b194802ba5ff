//! A squad battle compiled (everything the hot loop and the policies read): one
//! [`Side`] per (attacker, enemy) pair, which holds the attacker's exact attack laws
//! against that enemy for every view of the conditions that change them, and the
//! weapon ranking of `ACTION_POLICY` per view; the units' starting Integrity, Energy,
//! conditions and Ammo; each side's activation order (`ACTIVATION_ORDER`).

use crate::engine::battle::MAX_UNITS;
use crate::rules::mechcom::conditions::Condition;
use crate::rules::mechcom::duel_side::{MAX_WEAPONS, Side, UNLIMITED, bits_of, plays_heat};
use crate::rules::mechcom::mech::Model;
use crate::rules::mechcom::odds::compile_attack;
use crate::rules::mechcom::options::SpotAction;
use crate::rules::mechcom::options::{ClearPolicy, ExplosionTiming, Options};
use crate::rules::mechcom::situation::Situation;
use crate::rules::mechcom::stability::{NoAttack, effective_levels};
use crate::rules::mechcom::weapon::{Perk, Weapon};

use super::force::ForceModel;

/// One unit slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub name: String,
    /// 0 or 1.
    pub side: u8,
    /// Points (mech + pilot).
    pub cost: u32,
    pub integrity: u32,
    pub energy: u32,
    /// Starting condition bits ([`crate::rules::mechcom::duel_side`]).
    pub start: u8,
    /// First index of its Ammo counters in [`Squads::start_ammo`] (one per arsenal
    /// weapon, then unarmed, then Searing Wave).
    pub ammo_at: usize,
    /// It plays Heat (`duel_side::plays_heat`): its activations follow its mind.
    pub heat: bool,
    /// Spot tokens on it at the start: the enemy side's situation's.
    pub spot: u32,
}

/// The attacks of one unit against one enemy.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub side: Side,
    /// The two models are within melee range (`MELEE_RANGE_HEXES`, at most 1 level
    /// apart, the attacker's side's situation): the attacker's death explosion reaches
    /// the other (`EXPLOSION_ABSTRACT_TARGETS`).
    pub melee: bool,
    /// For each weapon of `side` (the weapons in reach), its index in the attacker's
    /// arsenal (unarmed last): Ammo is counted per arsenal weapon, whatever the target.
    pub arsenal: [u8; MAX_WEAPONS],
}

/// A compiled squad battle of two sides (the rules part; the targeting rule is a type
/// parameter of [`super::game::SquadGame`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Squads {
    pub units: Vec<Unit>,
    /// `pairs[a * units + t]`: `a` attacking `t`; `None` within a side.
    pub pairs: Vec<Option<Pair>>,
    /// Starting Ammo counters of every unit, flat ([`UNLIMITED`] without the perk).
    pub start_ammo: Vec<u32>,
    /// Unit slots of each side: `sides[s].0..sides[s].1` (side 0 first).
    pub sides: [(u8, u8); 2],
    /// Each side's slots in activation order (most expensive first; ties: slot order).
    pub order: [Vec<u8>; 2],
    pub max_rounds: u32,
    /// `CLEAR_POLICY` spends leftover Energy on Burned, then Corroded.
    pub clear: bool,
    /// When death explosions resolve; [`Explosions::Never`] when no two enemies are in
    /// melee range (explosions reach only models in melee, `EXPLOSION_ABSTRACT_TARGETS`).
    pub explosions: Explosions,
}

/// When a destroyed model's death explosion (§2 "Integrity") resolves against the enemies
/// in melee range of it (`EXPLOSION_TIMING`, `EXPLOSION_ABSTRACT_TARGETS`: with no map,
/// every enemy at the engagement's range, and no friend, is in melee with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Explosions {
    /// No enemies in melee range: nothing to hit.
    Never,
    /// At the destruction, before the victory check (a one-model battle then plays the
    /// duel's mutual kill); explosions chain at once.
    Immediately,
    /// At the end of the next activation after the destruction, or in the End phase if
    /// no activation is left that round (default). The game ends first when the
    /// destruction leaves one side alone.
    EndOfNextActivation,
}

/// One side to compile: its models (starting conditions set) and the situation of
/// the shots it fires.
pub struct SideModels<'a> {
    pub models: &'a [ForceModel],
    pub sit: Situation,
}

impl Squads {
    /// Compile two sides.
    ///
    /// # Errors
    /// More than [`MAX_UNITS`] models; a model starting Malfunctioning with `HEAT_PLAYED`
    /// off; unplayable options
    /// (as the duel: `ROLL_OFF` and `EXPLOSION_ABSTRACT_TARGETS` have no other reading);
    /// what [`Side::new`] refuses.
    pub fn new(sides: [SideModels<'_>; 2], o: &Options, max_rounds: u32) -> Result<Squads, String> {
        o.validate()?;
        let off: Vec<&str> = [("ROLL_OFF", o.roll_off), ("EXPLOSION_ABSTRACT_TARGETS", o.explosion_abstract_targets)]
            .iter()
            .filter(|(_, on)| !on)
            .map(|(name, _)| *name)
            .collect();
        if !off.is_empty() {
            return Err(format!("MECHCOM squad battles play no other reading of: {}", off.join(", ")));
        }
        let n = sides[0].models.len() + sides[1].models.len();
        if n > MAX_UNITS {
            return Err(format!("a battle holds at most {MAX_UNITS} models, got {n}"));
        }
        let mut units = Vec::with_capacity(n);
        let mut start_ammo = Vec::new();
        let mut all: Vec<(&Model, usize)> = Vec::with_capacity(n);
        for (s, side) in sides.iter().enumerate() {
            for ForceModel { name, model: m, cost } in side.models {
                if m.conditions.has(Condition::Malfunctioning) && !plays_heat(m, o) {
                    return Err(format!(
                        "{name} starts Malfunctioning: the HERAKLES AI table is played only with HEAT_PLAYED=true"
                    ));
                }
                let ammo_at = start_ammo.len();
                start_ammo.extend(m.mech.weapons.iter().map(|w| w.ammo().unwrap_or(UNLIMITED)));
                // Unarmed, and Searing Wave (limited by its uses, not Ammo).
                start_ammo.extend([UNLIMITED, UNLIMITED]);
                units.push(Unit {
                    name: name.clone(),
                    side: s as u8,
                    cost: *cost,
                    integrity: m.mech.integrity,
                    energy: m.mech.energy,
                    start: bits_of(m.conditions),
                    ammo_at,
                    heat: plays_heat(m, o),
                    spot: sides[1 - s].sit.spot_tokens,
                });
                all.push((m, s));
            }
        }
        let mut in_melee = false;
        let mut pairs = Vec::with_capacity(n * n);
        // Spot tokens are shared: when any model may place them, every pair's laws go
        // up to the bound.
        let places = o.spot_action == SpotAction::WhenItPays
            || all.iter().any(|(m, _)| m.mech.weapons.iter().any(|w| w.has(Perk::Tracker)));
        for &(a, sa) in &all {
            for &(t, st) in &all {
                if sa == st {
                    pairs.push(None);
                    continue;
                }
                let sit = &sides[sa].sit;
                let melee = sit.range <= o.melee_range_hexes && effective_levels(a, t, sit).abs() <= 1;
                in_melee |= melee;
                let side = if places { Side::with_tokens(a, t, sit, o, true)? } else { Side::new(a, t, sit, o)? };
                let mut arsenal = arsenal_of(a, t, &Situation { spot_tokens: side.cap, ..*sit }, o)?;
                if let Some(w) = side.heat.as_ref().and_then(|h| h.wave) {
                    // Searing Wave's counter sits after unarmed (its uses are the mind's).
                    arsenal[w] = (a.mech.weapons.len() + 1) as u8;
                }
                pairs.push(Some(Pair { side, melee, arsenal }));
            }
        }
        let first = sides[0].models.len() as u8;
        let bounds = [(0u8, first), (first, n as u8)];
        let order = bounds.map(|(lo, hi)| {
            let mut slots: Vec<u8> = (lo..hi).collect();
            // stable: ties keep slot order
            slots.sort_by_key(|&u| std::cmp::Reverse(units[u as usize].cost));
            slots
        });
        Ok(Squads {
            units,
            pairs,
            start_ammo,
            sides: bounds,
            order,
            max_rounds,
            clear: o.clear_policy == ClearPolicy::LeftoverBurnedFirst,
            explosions: match o.explosion_timing {
                _ if !in_melee => Explosions::Never,
                ExplosionTiming::Immediately => Explosions::Immediately,
                ExplosionTiming::EndOfNextActivation => Explosions::EndOfNextActivation,
            },
        })
    }

    /// `a` attacking `t` (different sides).
    #[inline(always)]
    pub fn pair(&self, a: usize, t: usize) -> &Pair {
        self.pairs[a * self.units.len() + t].as_ref().expect("a pair of enemies")
    }
}

/// The arsenal index of each weapon [`Side::new`] keeps (the same filter, in the same
/// order: every weapon, unarmed last, whose attack compiles with the most Spot tokens
/// its laws hold, `sit`'s).
fn arsenal_of(me: &Model, foe: &Model, sit: &Situation, o: &Options) -> Result<[u8; MAX_WEAPONS], String> {
    let mut out = [0u8; MAX_WEAPONS];
    let mut k = 0;
    let arsenal = me.mech.weapons.iter().cloned().chain([Weapon::unarmed()]);
    for (i, w) in arsenal.enumerate() {
        match compile_attack(me, &w, foe, sit, o) {
            Ok(_) => {
                out[k] = i as u8;
                k += 1;
            }
            Err(NoAttack::Options(e)) => return Err(e),
            Err(_) => {}
        }
    }
    Ok(out)
}
