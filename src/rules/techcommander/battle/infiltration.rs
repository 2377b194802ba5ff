//! Infiltration and scanning (techcommander-battles.md §2.4 rows "infiltrate" and
//! "Scanning", §5 row "scan") under fixed geometry (`BATTLE_GEOMETRY`).
//!
//! - A troop or crew unit carrying infiltration gear ([`BattleUnit::infiltrator`]) is
//!   infiltrated when deployed and again at every Reset (`INFILTRATION`): no attack may
//!   target it ([`TcGame::targetable`]) until it is revealed.
//! - An infiltrated unit that acts, of a player who is not last in the turn's initiative
//!   order, rolls a stealth d20: above `STEALTH_TARGET` (10) it is revealed
//!   ([`TcGame::acted`]). The last player ("highest initiative") keeps infiltration.
//! - Enemy troop and crew ignore infiltration when their side's scenario range is at
//!   most `INFILTRATION_SPOT_RANGE` (6) and their movement is not full (full or jump
//!   assault): they may target an infiltrated unit ([`TcGame::targetable_by`]), and so
//!   may their side's rallied group in a Rallied Attack or Assault
//!   ([`TcGame::group_targetable`]).
//! - Scanning (`SCANNING`): an action of a unit whose speed reaches its side's scenario
//!   range. One d20 per scan in both editions: 3rd edition, ≤ 12 + gear (`scan_bonus`)
//!   reveals every infiltrated enemy; 2nd edition ("roll a single D20 and compare the
//!   roll to the needed value to scan each figure"), each figure's number is 12 − its
//!   cover penalty + gear ([`crate::rules::techcommander::edition::scan_target`]). Under
//!   `BATTLE_GEOMETRY` every figure a side scans stands in that side's scenario cover,
//!   so one number serves them all and the single d20 reveals all or none. The
//!   scanner, if infiltrated, reveals itself. An MSV's scan is free: in the same player
//!   action it takes its other action (its best attack, if it scores above 0).
//! - The greedy policy scans when that scores above its best attack ([`TcGame::best_scan`]):
//!   `SCAN_WEIGHT` × max over hidden enemies of P(the scan reveals it) × the best attack
//!   score a unit of the side could then make at it (the scanner itself only if it is an
//!   MSV, which keeps its other action). The other policies never scan.
//!
//! Nothing here draws a random number unless a unit infiltrates, so battles without
//! infiltration gear play exactly as before.
//!
//! Not modelled (need a map or stats the books do not give): positions of revealed
//! units, the scanner's half move, the 2nd edition's scan training bonuses (Bounty
//! Hunter, IO Coordination) and the saturation orbital scan perk.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::dice::roll_d20;

impl TcGame {
    /// Whether `t` is infiltrated at deployment and Reset.
    #[inline(always)]
    pub(crate) fn infiltrates(&self, t: usize) -> bool {
        self.infiltration.any && self.infiltration.infiltrator[t]
    }

    /// Unit `u` of `side` has acted: an infiltrated unit of a player who is not last in
    /// initiative rolls stealth (d20 ≤ `STEALTH_TARGET`) or is revealed. No draw for a
    /// unit that is not infiltrated.
    #[inline(always)]
    pub(crate) fn acted(&self, s: &mut State, u: usize, rng: &mut Xoshiro256PlusPlus) {
        if s.hidden[u] && self.units[u].side != s.last_side as usize && roll_d20(rng) > self.o.stealth_target {
            s.hidden[u] = false;
        }
    }

    /// `u` scans (§2.4 "Scanning"): it spends an action and reveals itself; one d20 (both
    /// editions) reveals every infiltrated enemy when at most the scan number; an MSV
    /// then takes its other action, its best attack (the free scan).
    pub(crate) fn scan(&self, s: &mut State, u: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[u] -= 1;
        s.hidden[u] = false;
        let side = self.units[u].side;
        // One d20 for the whole scan in both editions (2nd edition "Scanning": "roll a
        // single D20 and compare the roll to the needed value to scan each figure").
        if roll_d20(rng) <= self.infiltration.scan_number[u] {
            for &t in &self.enemies[side] {
                s.hidden[t as usize] = false;
            }
        }
        if self.units[u].kind == UnitKind::Msv
            && s.actions[u] > 0
            && let Some((sys, t, score)) = self.best_shot(s, u, false)
            && score > 0.0
        {
            s.actions[u] -= 1;
            self.fire(s, u, sys, t, rng);
        }
    }

    /// Whether an enemy of `side` is infiltrated now (on the field, above 0 life).
    pub(crate) fn hidden_enemy(&self, s: &State, side: usize) -> bool {
        self.infiltration.any
            && self.enemies[side].iter().map(|&t| t as usize).any(|t| s.hidden[t] && s.present[t] && s.life[t] > 0)
    }

    /// The greedy policy's best scan for `side` and its score (see the module docs),
    /// when an enemy is infiltrated; ties go to the earlier scanner. `None` when no unit
    /// can scan or no scan enables an attack.
    #[inline(always)]
    pub fn best_scan(&self, s: &State, side: usize) -> Option<(Action, f32)> {
        if !self.infiltration.any {
            return None;
        }
        self.best_scan_of(s, side)
    }

    /// [`TcGame::best_scan`] once some unit of the battle infiltrates.
    fn best_scan_of(&self, s: &State, side: usize) -> Option<(Action, f32)> {
        if !self.hidden_enemy(s, side) {
            return None;
        }
        let mut best: Option<(Action, f32)> = None;
        for &c in &self.side_units[side] {
            let c = c as usize;
            if !s.present[c] || s.actions[c] == 0 || self.infiltration.scan_number[c] == 0 {
                continue;
            }
            let p = self.infiltration.reveal_chance(c);
            let mut enabled = 0.0f32;
            for &t in &self.enemies[side] {
                let t = t as usize;
                if !(s.hidden[t] && s.present[t] && s.life[t] > 0) {
                    continue;
                }
                enabled = enabled.max(p * self.best_score_at(s, side, c, t));
            }
            let score = self.o.scan_weight.0 as f32 * enabled;
            if score > 0.0 && best.is_none_or(|b| score > b.1) {
                best = Some((Action::Scan { unit: c as u8 }, score));
            }
        }
        best
    }

    /// The best attack score a unit of `side` could make at `t` once revealed, after
    /// `scanner` scanned: every unit with an action left (the scanner only if it is an
    /// MSV, which keeps its other action), over its ready systems.
    fn best_score_at(&self, s: &State, side: usize, scanner: usize, t: usize) -> f32 {
        let mut best = 0.0f32;
        for &a in &self.side_units[side] {
            let a = a as usize;
            let left = if a == scanner {
                if self.units[a].kind == UnitKind::Msv { s.actions[a].saturating_sub(1) } else { 0 }
            } else {
                s.actions[a]
            };
            if !s.present[a] || left == 0 || (self.units[a].rallied && s.group_acted[side]) {
                continue;
            }
            for sys in 0..self.units[a].attacker.systems.len() {
                if self.system_ready(s, a, sys)
                    && let Some(score) = self.score(s, a, sys, t)
                {
                    best = best.max(score);
                }
            }
        }
        best
    }
}

#[cfg(test)]
#[path = "infiltration_tests.rs"]
mod tests;
