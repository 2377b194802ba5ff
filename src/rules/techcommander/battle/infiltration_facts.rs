//! Infiltration and scanning compiled per unit slot before the first battle
//! ([`Infiltration`]); [`super::infiltration`] plays them.

use super::units::BattleUnit;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{Conditions, Movement};
use crate::rules::techcommander::edition::scan_target;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::DIE_SIDES;

/// Infiltration and scanning, compiled per unit slot before the first battle.
#[derive(Debug, Clone, Default)]
pub struct Infiltration {
    /// Whether any unit infiltrates: every hook is skipped otherwise.
    pub any: bool,
    /// Per unit: infiltrated when deployed and at every Reset.
    pub infiltrator: Vec<bool>,
    /// Per unit: as an attacker, ignores the infiltration of its targets.
    pub sees: Vec<bool>,
    /// Per side: its rallied group ignores infiltration (every member does: troops and
    /// crew of one side share its range and movement), so its Rallied Attacks and
    /// Assaults may target infiltrated enemies ([`super::game::TcGame::group_targetable`]).
    pub group_sees: Vec<bool>,
    /// Per unit: its scan number (a d20 of this or less reveals), 0..=20; 0 when it
    /// cannot scan (`SCANNING` off, or its speed short of its side's scenario range).
    pub scan_number: Vec<u32>,
}

impl Infiltration {
    /// Compile `units`; `conditions[side]` are the conditions of `side`'s shots.
    pub fn new(units: &[BattleUnit], conditions: &[Conditions], o: &Options) -> Infiltration {
        let infiltrator: Vec<bool> = units.iter().map(|u| o.infiltration && u.infiltrator).collect();
        let any = infiltrator.iter().any(|&i| i);
        let sees: Vec<bool> = units
            .iter()
            .map(|u| {
                let c = &conditions[u.side];
                matches!(u.kind, UnitKind::Troop | UnitKind::Crew)
                    && c.rounded_range() <= o.infiltration_spot_range
                    && !matches!(c.movement, Movement::Full | Movement::JumpAssault)
            })
            .collect();
        let scan_number = units
            .iter()
            .map(|u| {
                let c = &conditions[u.side];
                if !o.scanning || c.rounded_range() > u.speed {
                    return 0;
                }
                (scan_target(o, c.cover) as i64 + u.scan_bonus as i64).clamp(0, DIE_SIDES as i64) as u32
            })
            .collect();
        let group_sees = (0..conditions.len())
            .map(|side| {
                let mut members = units.iter().enumerate().filter(|(_, u)| u.side == side && u.rallied).peekable();
                members.peek().is_some() && members.all(|(i, _)| sees[i])
            })
            .collect();
        Infiltration { any, infiltrator, sees, group_sees, scan_number }
    }

    /// P(a scan by `scanner` reveals one given infiltrated enemy): scan number / 20.
    pub fn reveal_chance(&self, scanner: usize) -> f32 {
        self.scan_number[scanner] as f32 / DIE_SIDES as f32
    }
}
