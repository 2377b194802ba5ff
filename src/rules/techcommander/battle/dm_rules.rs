//! The deathmatch game type's rules (techcommander-battles.md §3): caps, spawn lists,
//! kill chips, the scoring table. [`super::deathmatch`] plays them in the turn
//! machinery of [`super::game::TcGame`].

use super::units::{BattleUnit, battle_unit};
use crate::catalogue::force::ForceSpec;
use crate::engine::battle::MAX_UNITS;
use crate::rules::techcommander::catalogue::{Catalogue, UnitKind};
use crate::rules::techcommander::options::Options;

/// Base player actions per turn in a deathmatch.
pub const DM_BASE_ACTIONS: u32 = 2;
/// Points for bonus B or C (§3.4).
pub const ONE_ACTION_BONUS: u32 = 5;
/// Survival points (E) before the per-unit point.
pub const SURVIVAL_POINTS: u32 = 5;

/// One entry of a player's ordered spawn list and the unit slots that may play it.
#[derive(Debug, Clone, PartialEq)]
pub struct SpawnEntry {
    pub points: f64,
    pub slots: Vec<u8>,
}

/// A deathmatch's rules, compiled from the options.
#[derive(Debug, Clone, PartialEq)]
pub struct DmRules {
    pub start_cap: u32,
    pub max_cap: u32,
    pub o: Options,
    /// Per player, the ordered spawn list.
    pub spawn: Vec<Vec<SpawnEntry>>,
    /// Per player, its unit slots in slot order (every entry's slots).
    pub player_units: Vec<Vec<u8>>,
    /// The teams (§3.3, `DM_TEAM_ORDER`); `None`: free-for-all.
    pub teams: Option<super::teams::Teams>,
}

/// Bonus B or C of §3.4 for a kill from full life in one action: B when the victim is a
/// vehicle or MSV; C when an infantry (troop or crew) attacker kills infantry.
pub fn one_action_bonus(attacker: UnitKind, victim: UnitKind) -> u32 {
    let infantry = |k: UnitKind| matches!(k, UnitKind::Troop | UnitKind::Crew);
    if matches!(victim, UnitKind::Msv | UnitKind::Vehicle) || (infantry(attacker) && infantry(victim)) {
        ONE_ACTION_BONUS
    } else {
        0
    }
}

/// Points and kill chips for eliminating a unit of AC `victim_ac` and kind `victim`
/// (A, plus B or C when `from_full_in_one_action`), with `passengers` (their ACs) still
/// aboard at turn end, each a kill worth its AC.
pub fn kill_score(
    victim_ac: u32,
    victim: UnitKind,
    attacker: UnitKind,
    from_full_in_one_action: bool,
    passengers: &[u32],
) -> (u32, u32) {
    let bonus = if from_full_in_one_action { one_action_bonus(attacker, victim) } else { 0 };
    (victim_ac + bonus + passengers.iter().sum::<u32>(), 1 + passengers.len() as u32)
}

/// The cap after handing in kill chips (`DM_PERKS` = cap first): +`step` per chip up to
/// `max`. Returns (cap, chips left).
pub fn cap_after(cap: u32, max: u32, step: u32, chips: u32) -> (u32, u32) {
    let (mut cap, mut chips) = (cap, chips);
    while chips > 0 && cap < max && step > 0 {
        cap = (cap + step).min(max);
        chips -= 1;
    }
    (cap, chips)
}

/// Survival points (E) of a player with `units` units through the whole turn.
pub fn survival_score(units: u32, per_unit: bool) -> u32 {
    if units == 0 { 0 } else { SURVIVAL_POINTS + if per_unit { units } else { 0 } }
}

impl DmRules {
    pub fn new(o: &Options) -> DmRules {
        let (start_cap, max_cap) = if o.dm_large_cap { (4, 12) } else { (3, 8) };
        DmRules { start_cap, max_cap, o: *o, spawn: Vec::new(), player_units: Vec::new(), teams: None }
    }

    /// Unit slots for every player's spawn list: each distinct build in list order, with
    /// as many slots as copies fit the maximum cap.
    ///
    /// # Errors
    /// An unknown build, a build over the maximum cap, too many slots.
    pub fn slots(&mut self, cat: &Catalogue, forces: &[ForceSpec]) -> Result<Vec<BattleUnit>, String> {
        let mut units = Vec::new();
        let mut errors = Vec::new();
        self.spawn = vec![Vec::new(); forces.len()];
        self.player_units = vec![Vec::new(); forces.len()];
        for (side, force) in forces.iter().enumerate() {
            let mut seen: Vec<&str> = Vec::new();
            for m in &force.members {
                if !m.passengers.is_empty() {
                    errors.push(format!(
                        "spawn list `{}`: `{}` carries passengers; deathmatch spawn lists do not play them yet",
                        force.name, m.build
                    ));
                    continue;
                }
                if seen.contains(&m.build.as_str()) {
                    continue;
                }
                seen.push(&m.build);
                let Some(build) = cat.build(&m.build) else {
                    errors.push(format!(
                        "spawn list `{}`: no build named `{}` in the {}",
                        force.name, m.build, cat.origin
                    ));
                    continue;
                };
                if build.points > self.max_cap as f64 {
                    errors.push(format!(
                        "spawn list `{}`: `{}` costs {} points, over the maximum cap of {}",
                        force.name, build.name, build.points, self.max_cap
                    ));
                    continue;
                }
                let copies = ((self.max_cap as f64 + 1e-9) / build.points).floor().max(1.0) as usize;
                let mut slots = Vec::new();
                for _ in 0..copies {
                    slots.push(units.len() as u8);
                    self.player_units[side].push(units.len() as u8);
                    units.push(battle_unit(cat, build, side, &self.o));
                }
                self.spawn[side].push(SpawnEntry { points: build.points, slots });
            }
        }
        if units.len() > MAX_UNITS {
            errors.push(format!(
                "the deathmatch needs {} unit slots (spawn lists × cap); at most {MAX_UNITS}",
                units.len()
            ));
        }
        if errors.is_empty() { Ok(units) } else { Err(errors.join("\n")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scoring_vectors_of_section_7() {
        use UnitKind::*;
        // An AC2 tank kills a full-life AC3 MSV in one action: +8 points, 1 kill chip.
        assert_eq!(kill_score(3, Msv, Vehicle, true, &[]), (8, 1));
        // Rallied marines kill a full-life ECBS troop: +6; finish a damaged AC4 LAV: +4.
        assert_eq!(kill_score(1, Troop, Troop, true, &[]), (6, 1));
        assert_eq!(kill_score(4, Vehicle, Troop, false, &[]), (4, 1));
        // A full-life AC3 carrier eliminated in one action, 2 troops aboard: 10, 3 kills.
        assert_eq!(kill_score(3, Vehicle, Vehicle, true, &[1, 1]), (10, 3));
        // A vehicle finishing infantry from full life: no bonus (neither B nor C).
        assert_eq!(kill_score(1, Troop, Vehicle, true, &[]), (1, 1));
        // Survival: 2 units through the turn: +7 (an escaped crew adds nothing).
        assert_eq!(survival_score(2, true), 7);
        assert_eq!(survival_score(0, true), 0);
        // Caps: start 3, three chips: 6; large cap start 4, 20 chips: 12 (8 left).
        assert_eq!(cap_after(3, 8, 1, 3), (6, 0));
        assert_eq!(cap_after(4, 12, 1, 20), (12, 12));
    }
}
