//! The target number of one shot (§2): T = 10 + size + fire control + attacker bonuses
//! − movement − cover − range − smoke − defender statuses (and the mode's own modifier).

use crate::rules::techcommander::catalogue::{UnitKind, Weapon};

use super::conditions::{AttackMode, Conditions, Cover, Movement, Smoke};
use super::profile::{Attacker, Target};
use super::rulings::*;

/// Each term of the target number, signed as it is added (penalties are negative).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Modifiers {
    pub size: i32,
    pub fire_control: i32,
    pub attacker_bonus: i32,
    pub movement: i32,
    pub cover: i32,
    pub range: i32,
    pub smoke: i32,
    pub status: i32,
    /// Fire for effect's -4 / -8.
    pub mode: i32,
}

impl Modifiers {
    pub fn total(&self) -> i32 {
        self.size
            + self.fire_control
            + self.attacker_bonus
            + self.movement
            + self.cover
            + self.range
            + self.smoke
            + self.status
            + self.mode
    }
    pub fn target_number(&self) -> i32 {
        BASE_TARGET_NUMBER + self.total()
    }
}

/// Why a weapon cannot fire at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoShot {
    /// Line of sight blocked and the weapon is not NLOS.
    Blocked,
    /// Under the weapon's minimum range for a line-of-sight shot.
    UnderMinimum { min: u32 },
    /// Fire for effect needs a splash weapon.
    NotSplash,
    /// Fire for effect without line of sight needs an NLOS weapon.
    NeedsNlos,
    /// Omega Override is an MSV action.
    NotMsv,
}

impl NoShot {
    pub fn describe(&self) -> String {
        match self {
            NoShot::Blocked => "blocked: no line of sight and the weapon is not NLOS".into(),
            NoShot::UnderMinimum { min } => format!("under the minimum range of {min} for a line-of-sight shot"),
            NoShot::NotSplash => "fire for effect needs a splash weapon".into(),
            NoShot::NeedsNlos => "fire for effect without line of sight needs an NLOS weapon".into(),
            NoShot::NotMsv => "only an MSV can Omega Override".into(),
        }
    }
    /// Short code for tables.
    pub fn code(&self) -> &'static str {
        match self {
            NoShot::Blocked => "blocked",
            NoShot::UnderMinimum { .. } => "under-minimum-range",
            NoShot::NotSplash => "not-splash",
            NoShot::NeedsNlos => "needs-nlos",
            NoShot::NotMsv => "not-msv",
        }
    }
}

/// A shot that can be taken: its modifiers and whether it is an NLOS shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    pub modifiers: Modifiers,
    pub nlos: bool,
}

impl Shot {
    /// The roll needed (unclamped: may be <= 0 or >= 20).
    pub fn target_number(&self) -> i32 {
        self.modifiers.target_number()
    }
    /// The target number clamped to the die: the count of faces that hit, 0..=20.
    pub fn hitting_faces(&self) -> u32 {
        hitting_faces(self.target_number())
    }
}

/// Faces of the d20 that hit for target number `t` (ruling: no automatic hit or miss).
pub fn hitting_faces(t: i32) -> u32 {
    t.clamp(0, ALWAYS_HITS_AT) as u32
}

/// Range penalty (positive magnitude) for a weapon at `range` (already rounded up):
/// DROP × ceil((range − OPT) / PER) beyond OPT, else 0.
pub fn range_penalty(weapon: &Weapon, range: u32) -> i32 {
    if range <= weapon.opt {
        0
    } else {
        let steps = (range - weapon.opt).div_ceil(weapon.drop_per);
        (weapon.drop as i64 * steps as i64).min(i32::MAX as i64) as i32
    }
}

/// Whether fire control applies to this attack (§2, "Fire control is lost when").
pub fn fire_control_applies(target: &Target, cond: &Conditions) -> bool {
    !(target.negates_fire_control
        || cond.under_crewed
        || cond.jury_rig_failed
        || cond.mode == AttackMode::OmegaOverride)
}

/// The target number of `weapon` fired by `attacker` at `target` under `cond`.
pub fn shot(attacker: &Attacker, weapon: &Weapon, target: &Target, cond: &Conditions) -> Result<Shot, NoShot> {
    let range = cond.rounded_range();
    let designated = cond.is_designated();
    let nlos = weapon.nlos && NLOS_WEAPONS_FIRE_NLOS;
    let mut m = Modifiers::default();

    match cond.mode {
        AttackMode::FireForEffect | AttackMode::FireForEffectBlind => {
            let blind = cond.mode == AttackMode::FireForEffectBlind;
            if weapon.splash == 0 {
                return Err(NoShot::NotSplash);
            }
            if blind && !weapon.nlos {
                return Err(NoShot::NeedsNlos);
            }
            if range < weapon.min && !weapon.nlos {
                return Err(NoShot::UnderMinimum { min: weapon.min });
            }
            m.mode = -if blind { FIRE_FOR_EFFECT_NO_LOS_PENALTY } else { FIRE_FOR_EFFECT_LOS_PENALTY };
            m.smoke = -smoke_penalty(attacker, weapon, cond, nlos || blind);
        }
        AttackMode::Normal | AttackMode::OmegaOverride => {
            if cond.mode == AttackMode::OmegaOverride && attacker.kind != UnitKind::Msv {
                return Err(NoShot::NotMsv);
            }
            if cond.cover == Cover::Blocked && !weapon.nlos {
                return Err(NoShot::Blocked);
            }
            if range < weapon.min && !nlos {
                return Err(NoShot::UnderMinimum { min: weapon.min });
            }
            m.size = target.size_ac.min(SIZE_BONUS_CAP) as i32;
            let cover_ignored = designated && weapon.missile;
            m.cover = if cover_ignored { 0 } else { -cover_penalty(cond.cover) };
            m.smoke = -smoke_penalty(attacker, weapon, cond, nlos);
            m.status = -status_penalty(target, cond, m.cover != 0);
        }
    }
    if fire_control_applies(target, cond) {
        m.fire_control = weapon.fire_control + faction_fire_control(attacker, cond);
    }
    m.attacker_bonus = attacker.to_hit_bonus;
    m.movement = -movement_penalty(attacker.kind, cond.movement);
    m.range = -range_penalty(weapon, range);
    if cond.mode == AttackMode::OmegaOverride {
        // No fire control and no positive modifiers.
        m.size = 0;
        m.fire_control = 0;
        m.attacker_bonus = m.attacker_bonus.min(0);
    }
    Ok(Shot { modifiers: m, nlos })
}

fn faction_fire_control(attacker: &Attacker, cond: &Conditions) -> i32 {
    let mut fc = 0;
    if attacker.wetwire {
        fc += WETWIRE_FIRE_CONTROL;
    }
    if attacker.combined_arms && cond.friendly_msv {
        fc += COMBINED_ARMS_FIRE_CONTROL;
    }
    fc
}

/// Movement penalty magnitude; auto-stabilized (non-MSV) vehicles take -1 at any speed.
pub fn movement_penalty(kind: UnitKind, movement: Movement) -> i32 {
    let auto_stabilized = kind == UnitKind::Vehicle;
    match movement {
        Movement::Stationary | Movement::AttackAndCover => 0,
        Movement::Half | Movement::Full if auto_stabilized => AUTO_STABILIZED_MOVE_PENALTY,
        Movement::Half => HALF_MOVE_PENALTY,
        Movement::Full => FULL_MOVE_PENALTY,
        Movement::PopAndShoot => POP_AND_SHOOT_PENALTY,
        Movement::JumpAssault => JUMP_ASSAULT_PENALTY,
        Movement::Offload => OFFLOAD_PENALTY,
    }
}

/// Cover penalty magnitude (blocked: the NLOS -6).
pub fn cover_penalty(cover: Cover) -> i32 {
    match cover {
        Cover::None => 0,
        Cover::Minor => MINOR_COVER_PENALTY,
        Cover::Half => HALF_COVER_PENALTY,
        Cover::Heavy => HEAVY_COVER_PENALTY,
        Cover::Blocked => BLOCKED_NLOS_PENALTY,
    }
}

fn smoke_penalty(attacker: &Attacker, weapon: &Weapon, cond: &Conditions, nlos_shot: bool) -> i32 {
    if nlos_shot || attacker.ignores_smoke || weapon.ignores_smoke {
        return 0;
    }
    match cond.smoke {
        Smoke::None => 0,
        Smoke::Smoke if cond.designated => DESIGNATED_SMOKE_PENALTY,
        Smoke::Smoke => SMOKE_PENALTY,
        Smoke::Designated => DESIGNATED_SMOKE_PENALTY,
    }
}

fn status_penalty(target: &Target, cond: &Conditions, has_cover_modifier: bool) -> i32 {
    let s = cond.statuses;
    let mut p = 0;
    if s.dug_in {
        p += if target.defense_masters { DEFENSE_MASTERS_DUG_IN_PENALTY } else { DUG_IN_PENALTY };
    }
    if s.hull_down && target.can_be_hull_down() {
        p += HULL_DOWN_PENALTY;
    }
    if s.posted_up && has_cover_modifier {
        p += POSTED_UP_PENALTY;
    }
    if s.forest {
        p += FOREST_PENALTY;
    }
    p
}
