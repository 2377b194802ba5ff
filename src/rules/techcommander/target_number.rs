//! The target number of one shot (§2): T = 10 + size + fire control + attacker bonuses
//! − movement − cover − range − smoke − defender statuses (and the mode's own modifier),
//! with every modifier and ruling read from [`Options`].

use crate::rules::techcommander::catalogue::{UnitKind, Weapon};

use super::conditions::{AttackMode, Conditions, Cover, Movement, Smoke, cover_penalty};
use super::edition;
use super::options::{CoverBands, Options};
use super::profile::{Attacker, Target};
use super::rulings::{BASE_TARGET_NUMBER, DIE_SIDES};

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

/// A shot that can be taken: its modifiers, whether it is an NLOS shot, and the faces
/// of the d20 that hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    pub modifiers: Modifiers,
    pub nlos: bool,
    /// Faces that hit, 0..=20: [`hitting_faces`] of the target number under the options.
    pub faces: u32,
}

impl Shot {
    /// The same shot with `bonus` more on the target number (an attacker bonus that
    /// depends on more than the shot: Moneyshot), its faces recounted under `o`.
    pub fn with_bonus(mut self, bonus: i32, o: &Options) -> Shot {
        self.modifiers.attacker_bonus += bonus;
        self.faces = hitting_faces(self.modifiers.target_number(), o);
        self
    }
    /// The roll needed (unclamped: may be <= 0 or >= 20).
    pub fn target_number(&self) -> i32 {
        self.modifiers.target_number()
    }
    /// The count of faces that hit, 0..=20.
    pub fn hitting_faces(&self) -> u32 {
        self.faces
    }
}

/// Faces of the d20 that hit for target number `t`: clamp(T, 0, 20) with no automatic
/// hit or miss (option `NO_AUTOMATIC_HIT_OR_MISS`), else clamp(T, 1, 19).
pub fn hitting_faces(t: i32, o: &Options) -> u32 {
    let sides = DIE_SIDES as i32;
    if o.no_automatic_hit_or_miss { t.clamp(0, sides) as u32 } else { t.clamp(1, sides - 1) as u32 }
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

/// The cover band a shot is played at: the conditions' band, shifted by one under
/// `COVER_BANDS=how-to-attack` (heavy cover then counts as blocked).
pub fn effective_cover(cover: Cover, o: &Options) -> Cover {
    match (o.cover_bands, cover) {
        (CoverBands::CoverModifiers, c) => c,
        (CoverBands::HowToAttack, Cover::None) => Cover::None,
        (CoverBands::HowToAttack, Cover::Minor) => Cover::Half,
        (CoverBands::HowToAttack, Cover::Half) => Cover::Heavy,
        (CoverBands::HowToAttack, Cover::Heavy | Cover::Blocked) => Cover::Blocked,
    }
}

/// The target number of `weapon` fired by `attacker` at `target` under `cond`, played
/// by the options `o`.
pub fn shot(
    attacker: &Attacker,
    weapon: &Weapon,
    target: &Target,
    cond: &Conditions,
    o: &Options,
) -> Result<Shot, NoShot> {
    let range = cond.rounded_range();
    let cover = effective_cover(cond.cover, o);
    // An NLOS weapon takes the NLOS shot always (ruling), or only when it must.
    let mut nlos = weapon.nlos && (o.nlos_weapons_fire_nlos || cover == Cover::Blocked);
    let mut m = Modifiers::default();

    match cond.mode {
        AttackMode::FireForEffect | AttackMode::FireForEffectBlind => {
            let blind = cond.mode == AttackMode::FireForEffectBlind;
            if weapon.splash == 0 {
                return Err(NoShot::NotSplash);
            }
            if blind && o.fire_for_effect_blind_is_nlos {
                if !weapon.nlos {
                    return Err(NoShot::NeedsNlos);
                }
                nlos = true;
            }
            if range < weapon.min && !nlos {
                return Err(NoShot::UnderMinimum { min: weapon.min });
            }
            let penalty = if blind { o.fire_for_effect_no_los_penalty } else { o.fire_for_effect_los_penalty };
            m.mode = -(penalty as i32);
            m.smoke = -smoke_penalty(attacker, weapon, cond, nlos, o);
            if !o.fire_for_effect_at_a_spot {
                target_defences(&mut m, weapon, target, cond, cover, o);
            }
        }
        // A special attack (battles §4) is its own system (`super::special`); a weapon
        // fired with it (overrun's fire part) shoots normally.
        AttackMode::Normal
        | AttackMode::OmegaOverride
        | AttackMode::Ram
        | AttackMode::DeathFromAbove
        | AttackMode::Overrun
        | AttackMode::Trample => {
            if cond.mode == AttackMode::OmegaOverride && attacker.kind != UnitKind::Msv {
                return Err(NoShot::NotMsv);
            }
            if cover == Cover::Blocked && !weapon.nlos {
                return Err(NoShot::Blocked);
            }
            if range < weapon.min && !nlos {
                return Err(NoShot::UnderMinimum { min: weapon.min });
            }
            m.size = target.size_ac.min(o.size_bonus_cap) as i32;
            m.smoke = -smoke_penalty(attacker, weapon, cond, nlos, o);
            target_defences(&mut m, weapon, target, cond, cover, o);
        }
    }
    if fire_control_applies(target, cond) {
        m.fire_control = weapon.fire_control + faction_fire_control(attacker, cond, o);
    }
    // A prone troop (2nd-edition stances) adds to its own attacks, not to fire control.
    let prone = if edition::prone(o, attacker.kind, cond.movement) { o.prone_bonus as i32 } else { 0 };
    m.attacker_bonus = attacker.to_hit_bonus + prone;
    m.movement = -movement_penalty(attacker.kind, cond.movement, o);
    m.range = -range_penalty(weapon, range);
    if cond.mode == AttackMode::OmegaOverride {
        // No fire control and no positive modifiers.
        m.size = 0;
        m.fire_control = 0;
        m.attacker_bonus = m.attacker_bonus.min(0);
    }
    Ok(Shot { modifiers: m, nlos, faces: hitting_faces(m.target_number(), o) })
}

/// The target's cover (unless a designated missile ignores it) and statuses.
fn target_defences(m: &mut Modifiers, weapon: &Weapon, target: &Target, cond: &Conditions, cover: Cover, o: &Options) {
    let cover_ignored = cond.is_designated() && weapon.missile;
    m.cover = if cover_ignored { 0 } else { -cover_penalty(cover, o) };
    m.status = -status_penalty(target, cond, m.cover != 0, o);
}

pub(super) fn faction_fire_control(attacker: &Attacker, cond: &Conditions, o: &Options) -> i32 {
    let mut fc = 0;
    let trained = edition::faction_training(o);
    if trained && attacker.wetwire {
        fc += o.wetwire_fire_control as i32;
    }
    if trained && attacker.combined_arms && cond.friendly_msv {
        fc += o.combined_arms_fire_control as i32;
    }
    fc
}

/// Movement penalty magnitude; auto-stabilized (non-MSV) vehicles take one penalty at
/// any speed.
pub fn movement_penalty(kind: UnitKind, movement: Movement, o: &Options) -> i32 {
    let auto_stabilized = kind == UnitKind::Vehicle;
    let p = match movement {
        Movement::Stationary | Movement::AttackAndCover => 0,
        Movement::Half | Movement::Full if auto_stabilized => o.auto_stabilized_move_penalty,
        Movement::Half => o.half_move_penalty,
        Movement::Full => o.full_move_penalty,
        Movement::PopAndShoot => o.pop_and_shoot_penalty,
        Movement::JumpAssault => o.jump_assault_penalty,
        Movement::Offload => o.offload_penalty,
    };
    p as i32
}

fn smoke_penalty(attacker: &Attacker, weapon: &Weapon, cond: &Conditions, nlos_shot: bool, o: &Options) -> i32 {
    if nlos_shot || attacker.ignores_smoke || weapon.ignores_smoke {
        return 0;
    }
    let p = match cond.smoke {
        Smoke::None => 0,
        Smoke::Smoke if cond.designated => o.designated_smoke_penalty,
        Smoke::Smoke => o.smoke_penalty,
        Smoke::Designated => o.designated_smoke_penalty,
    };
    p as i32
}

pub(super) fn status_penalty(target: &Target, cond: &Conditions, has_cover_modifier: bool, o: &Options) -> i32 {
    let s = cond.statuses;
    let mut p = 0;
    if s.dug_in {
        let masters = edition::faction_training(o) && target.defense_masters;
        p += if masters { o.defense_masters_dug_in_penalty } else { o.dug_in_penalty };
    }
    if s.hull_down && (target.can_be_hull_down() || !o.hull_down_only_vehicles) {
        p += o.hull_down_penalty;
    }
    if s.posted_up && (has_cover_modifier || !o.posted_up_needs_cover) {
        p += o.posted_up_penalty;
    }
    if s.forest {
        p += o.forest_penalty;
    }
    p as i32
}
