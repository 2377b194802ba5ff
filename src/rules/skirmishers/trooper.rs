//! Troopers: a card (track, experience, armour) and a loadout (§5 "Unit Card",
//! "Loadout"). AP follows §4: 8 + experience - body armour (power armour: no cost),
//! then the current column's AP entry, never below 0 (Ruling `AP_FLOOR`).

use super::track::TrackKind;
use super::weapon::Weapon;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experience {
    Green,
    Regular,
    Veteran,
    Elite,
}

impl Experience {
    pub const NAMES: &'static [&'static str] = &["green", "regular", "veteran", "elite"];
    const ALL: [Experience; 4] = [Experience::Green, Experience::Regular, Experience::Veteran, Experience::Elite];
    pub fn parse(s: &str) -> Option<Experience> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// AP added to every AP entry.
    pub fn ap(self) -> i32 {
        self as i32 - 1
    }
    /// Base morale TN ("Morale Checks").
    pub fn morale_tn(self) -> i32 {
        [9, 7, 5, 2][self as usize]
    }
}

/// Body armour, or the power-armour suit's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Armour {
    None,
    Basic,
    Standard,
    Heavy,
}

impl Armour {
    pub const NAMES: &'static [&'static str] = &["none", "basic", "standard", "heavy"];
    const ALL: [Armour; 4] = [Armour::None, Armour::Basic, Armour::Standard, Armour::Heavy];
    pub fn parse(s: &str) -> Option<Armour> {
        Self::NAMES.iter().position(|n| n.eq_ignore_ascii_case(s.trim())).map(|i| Self::ALL[i])
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
    /// Armour cells: body armour 0/2/4/6, power armour 4/6/8 ("Body Armor", "Power Armor").
    pub fn cells(self, track: TrackKind) -> u32 {
        match track {
            TrackKind::Basic => 2 * self as u32,
            TrackKind::Power => 2 + 2 * self as u32,
        }
    }
    /// AP taken off every AP entry: body armour 1/2/3; power armour none.
    pub fn ap_cost(self, track: TrackKind) -> i32 {
        match track {
            TrackKind::Basic => self as i32,
            TrackKind::Power => 0,
        }
    }
}

/// A trooper of the catalogue, its weapons resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Trooper {
    pub name: String,
    pub track: TrackKind,
    pub experience: Experience,
    pub armour: Armour,
    /// One primary (two for standard and heavy power armour).
    pub primaries: Vec<Weapon>,
    pub secondary: Option<Weapon>,
    /// Hand grenades carried, and the weapon they are.
    pub grenades: u32,
    pub grenade: Option<Weapon>,
    pub sneak_suit: bool,
    /// Unit PV (Ruling `UNIT_PV`: printed PVs summed unless the catalogue gives one).
    pub pv: u32,
}

impl Trooper {
    /// Maximum AP at column `col` (0 in the absolute columns).
    pub fn max_ap(&self, col: usize) -> i32 {
        match self.track.ap_entry(col) {
            Some(e) => (8 + self.experience.ap() - self.armour.ap_cost(self.track) + e).max(0),
            None => 0,
        }
    }
    /// Armour cells on a fresh card.
    pub fn armour_cells(&self) -> u32 {
        self.armour.cells(self.track)
    }
    /// Primaries, then the secondary, then the grenade when any are carried.
    pub fn weapons(&self) -> Vec<&Weapon> {
        let mut v: Vec<&Weapon> = self.primaries.iter().collect();
        v.extend(self.secondary.iter());
        if self.grenades > 0 {
            v.extend(self.grenade.iter());
        }
        v
    }
}
