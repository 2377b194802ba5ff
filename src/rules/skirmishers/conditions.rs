//! The conditions of one engagement (§2), as the command line and sweeps give them.

use super::trooper::{Armour, Experience};
use crate::output::wording::{count, unit_for};

/// Every unit stationary at a fixed range; open ground unless cover or smoke is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conditions {
    /// Dots on the shortest path (>= 1).
    pub range: u32,
    /// Obstructions on the line of fire beyond the firer's adjacent dots (+1 TN each; an
    /// intervening trooper counts). At range 1 none counts (`COVER_SKIPS_FIRER_ADJACENT`,
    /// see [`super::tn::counted_obstructions`]).
    pub obstructions: u32,
    /// Smoke dots on the line of fire (+3 TN each, Ruling `SMOKE_REPLACES_COVER`).
    pub smoke_dots: u32,
    pub attacker_prone: bool,
    pub target_prone: bool,
    /// The target wears a sneak suit (besides troopers the catalogue gives one).
    pub sneak_suit: bool,
    /// The firer's current HP (`None`: fresh); clamped to its track.
    pub firer_hp: Option<i32>,
    /// Override the target's armour class (`None`: the catalogue's).
    pub armour: Option<Armour>,
    /// Override both sides' experience (`None`: the catalogue's).
    pub experience: Option<Experience>,
    /// The firer is entangled (barbed wire): +1 TN. Advanced Terrain (`ADVANCED_TERRAIN`).
    pub entangled: bool,
    /// Both troopers are in a tunnel (tunnel combat): +2 TN. Advanced Terrain.
    pub tunnel: bool,
    /// The target is swimming: +1 TN. Advanced Terrain.
    pub target_swimming: bool,
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions {
            range: 5,
            obstructions: 0,
            smoke_dots: 0,
            attacker_prone: false,
            target_prone: false,
            sneak_suit: false,
            firer_hp: None,
            armour: None,
            experience: None,
            entangled: false,
            tunnel: false,
            target_swimming: false,
        }
    }
}

impl Conditions {
    /// The Advanced Terrain conditions set, by flag name (each needs `ADVANCED_TERRAIN`).
    pub fn terrain(&self) -> Vec<&'static str> {
        [("entangled", self.entangled), ("tunnel", self.tunnel), ("target-swimming", self.target_swimming)]
            .iter()
            .filter(|(_, on)| *on)
            .map(|(n, _)| *n)
            .collect()
    }

    /// "range 5 dots, 1 obstruction, ..." for people.
    pub fn describe(&self) -> String {
        let mut v = vec![format!("range {} {}", self.range, unit_for(f64::from(self.range), "dots"))];
        if self.obstructions > 0 {
            v.push(count(self.obstructions, "obstruction"));
        }
        if self.smoke_dots > 0 {
            v.push(count(self.smoke_dots, "smoke dot"));
        }
        if self.attacker_prone {
            v.push("attacker prone".into());
        }
        if self.target_prone {
            v.push("target prone".into());
        }
        if self.sneak_suit {
            v.push("target in a sneak suit".into());
        }
        if let Some(hp) = self.firer_hp {
            v.push(format!("firer at HP {hp}"));
        }
        if let Some(a) = self.armour {
            v.push(format!("target armour {}", a.name()));
        }
        if let Some(e) = self.experience {
            v.push(format!("experience {}", e.name()));
        }
        if self.entangled {
            v.push("attacker entangled".into());
        }
        if self.tunnel {
            v.push("tunnel combat".into());
        }
        if self.target_swimming {
            v.push("target swimming".into());
        }
        v.join(", ")
    }
}
