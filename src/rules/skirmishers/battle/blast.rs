//! Thrown explosives in squad fights (§3 "Explosives", §4 "Squad fight"): what a trooper
//! can throw, and the abstract geometry that says which troopers a blast catches.
//!
//! # The rules played
//! - A throw costs 3 AP to make the explosive the active weapon plus the AP per dot times
//!   the range (hand grenade 1, satchel 2; doubled when the thrower is prone), paid from
//!   the thrower's current AP; its TN is the throw's AP (not the 3 to ready) plus the
//!   thrower's Mods, cover and smoke ("Explosives": "The base target number is the number
//!   of AP used to throw"). A trooper that throws sets up no arc that turn ("A trooper
//!   cannot set up a firing arc after using an explosive"); one throw an activation.
//! - Ammunition is counted: 4 hand grenades are 4 throws (a thrown secondary, a satchel
//!   charge, brings its Ammo column).
//! - The blast is resolved at the end of the thrower's side's turn ("resolve the
//!   explosive after all troopers on your side have activated"): one 2D6 against the TN
//!   (one draw of 36); a miss scatters `SCATTER_DOTS` dots in a 1D6 direction (one draw
//!   of 6; incendiaries do not scatter, Ruling `INCENDIARY_MISS_NO_EFFECT`). Then every
//!   enemy trooper still in the fight within the rings takes the ring's lethal damage,
//!   each rolling its own initial cell (Ruling `BLAST_ROLL_EACH`), in roster order, one
//!   draw each from its card's exact counts.
//!
//! # Launchers (option `LAUNCHERS`, on)
//! "Ranged explosive weapons are resolved in the same way as hand grenades and satchel
//! charges, but they use a base target number of 6 like other ranged weapons"
//! ("Explosive Ranged Weapons"; incendiary ranged weapons "are resolved like explosive
//! ranged weapons, but they do not scatter"). A launcher (a weapon of [`Use::Launcher`]:
//! the advanced explosive and incendiary tables, the power-armour flamethrower and
//! anti-tank missile) is played as a throw: its TN is 6, +2 at long range, plus the
//! firer's Mods, cover and smoke (never a prone-target modifier: it targets a dot); it
//! costs its AP Cost column, its rounds are its Ammo column ("-" = unlimited), its blast
//! is resolved at the end of the side's turn with the scatter and rings above, and the
//! same policy (`SQUAD_THROW`) chooses between it, the throws and the arcs. Readings:
//! - Ruling `LAUNCHER_READY`: "It costs 3 AP to change active weapons, including to
//!   change to an explosive": a launcher costs 3 AP more, except the trooper's first
//!   primary (its active weapon), a Grenade Launcher carried as the secondary of a
//!   rifle or SMG ("does not have to pay AP to switch between their primary weapon and
//!   a mounted grenade launcher") and any weapon of power armour (which "may use the
//!   explosive and establish firing arcs with their other weapons"). The arcs keep the
//!   squad fight's rule: the gun is chosen before the fight, with no switching cost.
//! - A basic trooper that fires a launcher sets no arc that turn ("A trooper cannot set
//!   up a firing arc after using an explosive"); power armour fires its launcher and
//!   then pays the arcs of its other weapons with the AP left (Power Armor "Firing
//!   Arcs"). A power-armour launcher with no AP Cost ("- (end of turn)") costs 0 AP.
//! - One explosive an activation, as for throws (the book sets no limit; the squad
//!   fight's policy looks one blast ahead).
//!
//! # Geometry (Ruling `SQUAD_SPACING`)
//! The squad fight has no map. Each side stands in a line, in roster order, its
//! neighbours `SQUAD_SPACING` dots apart (default 2 dots = 5 m: the book gives no
//! spacing; 2 dots is the usual field interval, and it keeps neighbours out of each
//! other's inner ring), the two lines parallel and `--range` dots apart. The dots are
//! the book's hexagonal grid: the line runs along one hex axis, trooper k of a side
//! sits at axial (k x spacing, 0), and distances are hex steps (a dot scattered 1 step
//! from a trooper's dot is 1 step from it and s-1, s, s, s+1, s+1 or s+1 steps from its
//! neighbour s dots along the line). Troopers put out stay where they fell (the line
//! does not close up). A blast at d steps from a trooper deals ring d (centre = 0).
//!
//! # Friendly fire
//! The policy never throws a blast that could reach its own line: an explosive is
//! thrown only when the range is larger than its outer ring plus the scatter distance,
//! so a hand grenade (three rings, 1 dot scatter) needs 4 dots or more.

use super::super::conditions::Conditions;
use super::super::dice::success_ways;
use super::super::options::Options;
use super::super::tn::target_number;
use super::super::track::TrackKind;
use super::super::trooper::Trooper;
use super::super::weapon::{Class, Use, Weapon};
use super::limits::COLS;

/// Most kinds of explosive one unit throws or fires (its grenades or a thrown secondary,
/// and its launchers: power armour carries no grenades, two primaries and a secondary).
pub const MAX_THROWS: usize = 3;

/// `Throw::rounds` of a launcher with unlimited ammunition ("-"): never spent.
pub const UNLIMITED_ROUNDS: u32 = u8::MAX as u32;

/// One kind of thrown explosive a unit carries.
#[derive(Debug, Clone, PartialEq)]
pub struct Throw {
    pub name: String,
    /// Throws it has (hand grenades carried, or the weapon's ammunition).
    pub rounds: u32,
    /// AP of one throw: 3 to ready + the throw's AP.
    pub cost: i32,
    /// 36 x P(hit) per thrower column (TN = throw AP + the column's Mods + cover + smoke).
    pub hit: [u32; COLS],
    /// Lethal points per ring, centre first.
    pub rings: Vec<u32>,
    /// A miss scatters (else it does nothing: an incendiary).
    pub scatters: bool,
    /// Power armour's explosive: it still pays the arcs of its other weapons with the AP
    /// left (a basic trooper sets no arc after an explosive).
    pub keeps_arcs: bool,
}

/// The hex steps between axial dots `a` and `b`.
#[inline]
pub fn hex_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// The six scatter directions (1D6: 1 = the first, then clockwise).
pub const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// The dot of the `k`-th trooper of a side's line.
#[inline]
pub fn dot(k: usize, spacing: i32) -> (i32, i32) {
    (k as i32 * spacing, 0)
}

/// What `t` (of a side firing under conditions `c`) can throw or launch in a squad
/// fight: with `GRENADES`, its hand grenades while it carries any and a thrown secondary
/// (satchel charge); with `LAUNCHERS`, its launchers (primaries, then the secondary; see
/// the module docs). Explosives whose use its fresh AP cannot pay, or whose blast could
/// reach its own line (see the module docs), are left out; at most [`MAX_THROWS`].
pub fn throws(t: &Trooper, c: &Conditions, o: &Options) -> Vec<Throw> {
    let power = t.track == TrackKind::Power;
    let mut v = Vec::new();
    let mut add = |w: &Weapon, rounds: u32, launch: Option<i32>| {
        let (cost, rounds) = match (w.usage(), launch) {
            (Use::Thrown { per_dot }, None) if o.on("GRENADES") => {
                (3 + (c.range.max(1) * per_dot * if c.attacker_prone { 2 } else { 1 }) as i32, rounds)
            }
            (Use::Launcher { ap }, Some(ready)) if o.on("LAUNCHERS") => {
                (ready + ap.unwrap_or(0) as i32, w.ammo.map_or(UNLIMITED_ROUNDS, |n| n.min(UNLIMITED_ROUNDS - 1)))
            }
            _ => return,
        };
        let Ok(tn0) = target_number(w, c, false, 0, t.max_ap(0), o) else { return };
        let scatters = !(w.incendiary && o.on("INCENDIARY_MISS_NO_EFFECT"));
        let reach = w.lethal.len() as u32 - 1 + if scatters { o.int("SCATTER_DOTS") as u32 } else { 0 };
        if rounds == 0 || c.range <= reach || cost > t.max_ap(0) {
            return;
        }
        let mut hit = [0; COLS];
        for (col, h) in hit.iter_mut().enumerate() {
            if col < t.track.cells() && !t.track.out_column(col) {
                *h = success_ways(tn0 + t.track.mods(col), o.on("NO_AUTOMATIC_RESULT"));
            }
        }
        v.push(Throw {
            name: w.name.clone(),
            rounds,
            cost,
            hit,
            rings: w.lethal.clone(),
            scatters,
            keeps_arcs: power && matches!(w.usage(), Use::Launcher { .. }),
        });
    };
    if let Some(g) = &t.grenade {
        add(g, t.grenades, None);
    }
    if let Some(s) = &t.secondary {
        add(s, s.ammo.unwrap_or(1), None);
    }
    // LAUNCHERS: Ruling LAUNCHER_READY (3 AP to make the launcher the active weapon).
    for (k, w) in t.primaries.iter().enumerate() {
        add(w, 0, Some(if k == 0 || power { 0 } else { 3 }));
    }
    if let Some(s) = &t.secondary {
        let mounted = s.name.eq_ignore_ascii_case("Grenade Launcher")
            && t.primaries.first().is_some_and(|p| p.class == Class::Primary);
        add(s, 0, Some(if mounted || power { 0 } else { 3 }));
    }
    v.truncate(MAX_THROWS);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distances the module docs give: a neighbour s dots along the line is s-1, s,
    /// s, s+1, s+1, s+1 steps from the six dots around the other's.
    #[test]
    fn scatter_distances_on_the_hex_line() {
        for s in 1..5 {
            let mut d: Vec<i32> = DIRECTIONS.iter().map(|&(q, r)| hex_distance((q, r), dot(1, s))).collect();
            d.sort();
            assert_eq!(d, vec![s - 1, s, s, s + 1, s + 1, s + 1], "spacing {s}");
            assert_eq!(hex_distance(dot(0, s), dot(3, s)), 3 * s);
        }
    }
}
