//! Fists and bayonet in squad fights at range 1 (§4 "Melee Combat", "Weapons and
//! Equipment"; option `FISTS_AND_BAYONET`, on).
//!
//! # The book
//! "A trooper always has their fists and a bayonet/knife"; "Any rifle or SMG
//! automatically comes with a bayonet attached" (every weapon of the Primary Weapons
//! table is a rifle or an SMG); "The attacking trooper may use a bayonet attached to
//! their current active weapon ... A trooper can always make a melee attack with their
//! fists." A melee attack costs 5 AP, TN 4 with no cover modifier, adjacent only, and is
//! resolved when the target activates, before it acts: in the squad fight's terms a
//! one-attack "arc" on the first enemy to activate. Combat actions are plural ("use any
//! remaining AP for combat actions, such as establishing a firing arc, engaging in hand
//! to hand combat"), so a trooper may set an arc and keep 5 AP for a melee attack.
//!
//! # What the squad fight plays
//! At `--range 1` a basic trooper whose active weapon is a primary (a rifle or SMG)
//! carries its bayonet (Bayonet/Knife, 3X) as a second attack; any other basic trooper
//! (a crew weapon, a pistol) its fists ((max AP / 2)\, Ruling `FISTS_ROUND_DOWN`).
//! Power armour has its own fists (Power Armor "Melee Combat": 1X plus (max AP / 2)\,
//! 5 AP), a third attack beside its arcs: "Power armor troopers largely use the same
//! rules as standard troopers", and a melee attack needs no arc. A trooper whose active
//! weapon is itself a melee weapon has no second one. The numbers are the book's Melee
//! Secondary Weapons and Power Armor Melee Weapons tables (a catalogue's entries of the
//! same names are not read here).
//!
//! # The combat knife (Ruling `KNIFE_NOT_DRAWN`)
//! A trooper without a bayonet (its active weapon a pistol, a crew weapon, a launcher)
//! could make the knife its active weapon: "It costs 3 AP to change active weapons", so
//! a knife attack costs 3 + 5 = 8 AP, and changing back to its gun 3 AP more. The book
//! gives the cost and nothing else, so the squad fight's reading: the knife is not
//! drawn; such a trooper strikes with its fists, which are always at hand ("A trooper
//! can always make a melee attack with their fists"). Why: 8 AP is a regular trooper's
//! whole AP, so a knife turn leaves no arc and a further 3 AP the next turn to get its
//! gun back, and the squad fight keeps no active weapon from turn to turn (the gun is
//! chosen before the fight, with no switching cost); playing the knife would need that
//! state, and a rule for when a trooper puts the knife away, which the book does not
//! give. The fists' (max AP / 2)\ (4\ fresh) against the knife's 3X is the price of
//! that reading for such troopers.
//!
//! # Policy (Ruling `SQUAD_POLICY`, extended)
//! When it pays its arcs, such a trooper compares two plans: the widest arc its AP
//! pays (as without melee), or the widest arc its AP less 5 pays plus the melee attack;
//! it takes the second when its expected number of enemies put out is larger (the arc
//! value of module `throwing`: one attack at each of the first `shots` enemies in the
//! fight, the melee attack at the first). Attacks at an activating enemy come gun by
//! gun, the melee attack after the arc's shot. No draw is made to choose.

use super::limits::{MAX_GUNS, NO_LAW, UNLIMITED};
use super::state::{FightGame, FightState};
use super::throwing::p_out_after;

impl FightGame {
    /// Shots per gun when `t` pays the widest arcs `ap` allows, gun by gun, from gun 0
    /// up to (not including) gun `end`.
    fn widest(&self, t: usize, mut ap: i32, end: usize) -> [u32; MAX_GUNS] {
        let mut shots = [0; MAX_GUNS];
        for (g, (kind, _)) in self.fight.units[t].guns.iter().enumerate().take(end) {
            if let Some((cost, k)) = kind.pay(ap) {
                ap -= cost;
                shots[g] = k;
            }
        }
        shots
    }

    /// The shots per gun `t` sets now: the widest arcs (Ruling `SQUAD_POLICY`), or, for
    /// a trooper with fists or bayonet at range 1, the better plan (module docs).
    pub fn arc_plan(&self, s: &FightState, t: usize) -> [u32; MAX_GUNS] {
        self.arc_plan_with(s, t, self.fight.units[t].ap[s.col[t] as usize])
    }

    /// [`FightGame::arc_plan`] with `ap` to spend (power armour after firing a launcher).
    pub fn arc_plan_with(&self, s: &FightState, t: usize, ap: i32) -> [u32; MAX_GUNS] {
        let unit = &self.fight.units[t];
        let n = unit.guns.len();
        let widest = self.widest(t, ap, n);
        if !unit.melee_addon || ap < 5 {
            return widest;
        }
        let mut with = self.widest(t, ap - 5, n - 1);
        with[n - 1] = 1;
        if self.shots_value(s, t, &with) > self.shots_value(s, t, &widest) { with } else { widest }
    }

    /// Expected enemies put out by `t`'s guns holding `shots`: one attack at each of the
    /// first `shots` enemies in the fight, in roster order, from their current cards.
    pub fn shots_value(&self, s: &FightState, t: usize, shots: &[u32; MAX_GUNS]) -> f64 {
        let unit = &self.fight.units[t];
        let col = s.col[t] as usize;
        let enemies: Vec<usize> = self.slots(1 - unit.side as usize).filter(|&j| !s.out[j]).collect();
        let mut v = 0.0;
        for (g, &k) in shots.iter().enumerate().take(unit.guns.len()) {
            let k = if k == UNLIMITED { enemies.len() } else { (k as usize).min(enemies.len()) };
            for &j in &enemies[..k] {
                let l = self.fight.law(t, g, j, col);
                if l != NO_LAW {
                    v += p_out_after(&self.fight.graphs[self.fight.units[j].graph], l as usize, s.card[j] as usize);
                }
            }
        }
        v
    }
}
