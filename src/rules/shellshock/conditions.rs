//! The conditions of one engagement (shellshock.md §2, §5) and the target number.

use super::options::Options;
use super::roll::Dice;
use super::unit::{DvType, Unit};
use crate::output::wording::unit_for;

/// Which armour section and DV column an attack meets (`FACING_MAP`: front and rear
/// hexsides hit Front and Rear, the four others a Side).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    Front,
    Side,
    Rear,
}

impl Facing {
    pub const NAMES: [&'static str; 3] = ["front", "side", "rear"];
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Typed conditions of an engagement; duels apply them to both sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conditions {
    /// Hexes between the units.
    pub range: u32,
    pub facing: Facing,
    pub hull_down: bool,
    /// Point blank asked for (at range 0 or 1): every DV but M and P is halved. Range 1
    /// is point blank whatever this says ([`Conditions::is_point_blank`]).
    pub point_blank: bool,
    /// The target is immobile: every DV is 0 (stealth and range still count).
    pub immobile: bool,
    /// To-hit dice for every gunner instead of the card's.
    pub dice: Option<Dice>,
    /// Added to every gunner's Gunnery skill.
    pub gunnery: i32,
    /// The target dodges (`DODGE`): two dice levels off, + its Piloting to the TN.
    pub target_dodging: bool,
    /// The attacker dodges: its pilot does not fire, its other gunners lose two dice
    /// levels and add its Piloting to their TNs.
    pub attacker_dodging: bool,
}

impl Default for Conditions {
    fn default() -> Self {
        Conditions {
            range: 24,
            facing: Facing::Front,
            hull_down: false,
            point_blank: false,
            immobile: false,
            dice: None,
            gunnery: 0,
            target_dodging: false,
            attacker_dodging: false,
        }
    }
}

impl Conditions {
    /// Whether the target is point blank. "Point Blank": "All Defense Values except
    /// Missile and Physical Attack are halved when the target is in an adjacent hex": an
    /// adjacent hex is range 1, so range 1 always is; range 0 (the same hex) only when
    /// asked for with `point_blank`.
    pub fn is_point_blank(&self) -> bool {
        self.point_blank || self.range == 1
    }

    /// The range modifier: +1 per `RANGE_STEP` full hexes, doubled on a hull-down target.
    pub fn range_modifier(&self, o: &Options) -> u32 {
        (self.range / o.range_step()) * if self.hull_down { 2 } else { 1 }
    }

    /// The TN of a weapon of type `kind` against `target` (§2): its DV for the facing
    /// (0 if immobile), halved at point blank (M and P excepted; `POINT_BLANK_ROUND`),
    /// + stealth + the range modifier.
    pub fn target_number(&self, kind: DvType, target: &Unit, o: &Options) -> i64 {
        let column = if self.facing == Facing::Side { &target.defense_side } else { &target.defense };
        let mut dv = if self.immobile { 0 } else { column[kind as usize] };
        if self.is_point_blank() && kind.halved_at_point_blank() {
            dv = if o.point_blank_ceil() { dv.div_ceil(2) } else { dv / 2 };
        }
        i64::from(dv + target.stealth + self.range_modifier(o))
    }

    /// These conditions with `DODGE` played: under `ALWAYS` every unit under fire dodges
    /// every turn unless immobile (the conditions' `immobile`): the target, and the
    /// attacker too when the enemy fires back (`both_fire`: duels and battles).
    pub fn dodging(&self, o: &Options, both_fire: bool) -> Conditions {
        let on = o.dodge_always() && !self.immobile;
        Conditions { target_dodging: on, attacker_dodging: on && both_fire, ..*self }
    }

    /// The armour section the attack hits.
    pub fn armour(&self, target: &Unit) -> u32 {
        match self.facing {
            Facing::Front => target.armor.front,
            Facing::Side => target.armor.side,
            Facing::Rear => target.armor.rear,
        }
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        let mut s =
            format!("range {} {}, {} facing", self.range, unit_for(f64::from(self.range), "hexes"), self.facing.name());
        for (on, word) in [
            (self.hull_down, "hull down"),
            (self.is_point_blank(), "point blank"),
            (self.immobile, "immobile"),
            (self.target_dodging, "target dodging"),
            (self.attacker_dodging, "attacker dodging"),
        ] {
            if on {
                s.push_str(", ");
                s.push_str(word);
            }
        }
        if let Some(d) = self.dice {
            s.push_str(&format!(", dice {}", d.name()));
        }
        if self.gunnery != 0 {
            s.push_str(&format!(", gunnery {:+}", self.gunnery));
        }
        s
    }
}
