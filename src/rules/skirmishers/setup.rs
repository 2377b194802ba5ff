//! The two sides of an engagement with the conditions applied: experience and armour
//! overrides, the firer's current column, and the target's card.

use super::conditions::Conditions;
use super::law::Card;
use super::options::Options;
use super::trooper::Trooper;
use super::weapon::Use;

/// `t` with the conditions' experience and (for a target) armour overrides.
pub fn with_conditions(t: &Trooper, c: &Conditions, as_target: bool) -> Trooper {
    let mut t = t.clone();
    if let Some(e) = c.experience {
        t.experience = e;
    }
    if as_target && let Some(a) = c.armour {
        t.armour = if t.track == super::track::TrackKind::Power && a == super::trooper::Armour::None {
            super::trooper::Armour::Basic
        } else {
            a
        };
    }
    t
}

/// The firer's column for `--firer-hp` (fresh when not given).
pub fn firer_column(a: &Trooper, c: &Conditions) -> usize {
    c.firer_hp.map_or(0, |hp| a.track.column_of(hp))
}

/// AP of the cheapest attack `t` can make (a 30 degree arc, a crew arc, melee, a throw
/// of one dot, a launcher's cost), for `OUT_WHEN_CANNOT_ATTACK`.
fn cheapest_attack(t: &Trooper, o: &Options) -> i32 {
    t.weapons()
        .iter()
        .map(|w| match w.usage() {
            Use::Arc { crew: true, .. } => o.int("CREW_ARC_AP") as i32,
            Use::Arc { .. } => 2,
            Use::Melee => 5,
            Use::Thrown { per_dot } => 3 + per_dot as i32,
            Use::Launcher { ap } => ap.unwrap_or(0) as i32,
        })
        .min()
        .unwrap_or(5)
}

/// The card of target `t` (fresh with its armour).
pub fn card(t: &Trooper, o: &Options) -> Card {
    let cheapest = cheapest_attack(t, o);
    let cannot = o.on("OUT_WHEN_CANNOT_ATTACK");
    Card {
        kind: t.track,
        marking: o.marking(),
        out: (0..=t.track.cells()).map(|col| t.track.out_column(col) || (cannot && t.max_ap(col) < cheapest)).collect(),
        armour: t.armour_cells(),
    }
}
