//! One gunner compiled against one target (§1-§3): the weapons that fire, their TNs and
//! dice after spreadfire, the exact roll law and the joint hit law, and from them the
//! exact law of one gunner's step on the card-free state (armour left, lines marked).

use std::collections::BTreeMap;

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::damage::{Defence, Internal, internal_law};
use super::options::{DamageDice, Options};
use super::roll::{Dice, MULTIPLIERS, RollLaw, required_depth};
use super::unit::{DvType, Unit};

/// A weapon that fires this turn.
#[derive(Debug, Clone, PartialEq)]
pub struct FiringWeapon {
    pub name: String,
    pub kind: DvType,
    pub target_number: i64,
    /// Damage, Shock, Penetration dice after spreadfire.
    pub dice: [u32; 3],
}

/// A gunner's one roll a turn against every weapon it fires.
#[derive(Debug, Clone, PartialEq)]
pub struct GunnerPlan {
    /// The gunner's number on the card, from 1.
    pub number: usize,
    /// Sorted by target number, ascending (ties in card order).
    pub weapons: Vec<FiringWeapon>,
    pub gunnery: i64,
    pub dice: Dice,
    pub spread: u32,
    pub law: RollLaw,
    /// (weapons hit: the first k; multiplier index; probability).
    pub classes: Vec<(usize, usize, f64)>,
    /// P(second 20).
    pub p_second_20: f64,
    /// `pools[k]`: pooled (Damage, Shock, Penetration) dice of the first k weapons.
    pub pools: Vec<[u32; 3]>,
}

/// The target's card as the card-free model reads it, on the attack's facing.
pub fn defence(target: &Unit, c: &Conditions) -> Defence {
    Defence {
        armour: c.armour(target),
        shock_threshold: target.shock_threshold,
        penetration_factor: target.penetration_factor,
        dead_at: target.dead_at,
        boxes: target.internal.clone(),
    }
}

/// Compile every gunner of `attacker` that has a weapon able to fire at `target` (in
/// range; type I not under `INDIRECT_MIN_RANGE`), in card order. Gunners with nothing
/// to fire do not roll. A gunner fires at spreadfire level `SPREAD` when every weapon
/// it fires can spread, else at 0 (§2: all weapons at one level).
pub fn plans(cat: &Catalogue, attacker: &Unit, target: &Unit, c: &Conditions, o: &Options) -> Vec<GunnerPlan> {
    let mut out = Vec::new();
    for (gi, g) in attacker.gunners.iter().enumerate() {
        let ws: Vec<_> = g
            .weapons
            .iter()
            .map(|&i| &cat.weapons[i])
            .filter(|w| w.range >= c.range && !(w.kind == DvType::I && c.range < o.indirect_min_range()))
            .collect();
        if ws.is_empty() {
            continue;
        }
        let spread = if ws.iter().all(|w| w.spreadfire) { o.spread() } else { 0 };
        let mut weapons: Vec<FiringWeapon> = ws
            .iter()
            .map(|w| FiringWeapon {
                name: w.name.clone(),
                kind: w.kind,
                target_number: c.target_number(w.kind, target, o),
                dice: [w.damage, w.shock, w.penetration].map(|d| d.saturating_sub(spread)),
            })
            .collect();
        weapons.sort_by_key(|w| w.target_number);
        let gunnery = i64::from(g.skill.unwrap_or(o.skill_default()) + c.gunnery);
        let dice = c.dice.unwrap_or(attacker.dice);
        let max_t = weapons.iter().map(|w| w.target_number - gunnery).max().unwrap_or(0);
        let depth = o.exact_depth().unwrap_or_else(|| required_depth(max_t));
        let law = RollLaw::new(dice, spread, depth, o.double_stacks(), o.second_20_destroys());
        let tns: Vec<i64> = weapons.iter().map(|w| w.target_number).collect();
        let (classes, p_second_20) = law.hit_classes(&tns, gunnery);
        let mut pools = vec![[0u32; 3]];
        for w in &weapons {
            let last = *pools.last().expect("one pool");
            pools.push([0, 1, 2].map(|i| last[i] + w.dice[i]));
        }
        out.push(GunnerPlan { number: gi + 1, weapons, gunnery, dice, spread, law, classes, p_second_20, pools });
    }
    out
}

/// The exact law of one gunner's step on armour `armour` left, card-free.
#[derive(Debug, Clone, PartialEq)]
pub struct StepLaw {
    /// P(destroyed: Dead box or second 20).
    pub kill: f64,
    /// (armour left after, lines marked, probability), lines >= 0, each pair once.
    pub outcomes: Vec<(u32, u32, f64)>,
}

impl GunnerPlan {
    /// The law of (armour after, Internal) of one roll on `armour` left, summed over the
    /// hit classes; the second 20 apart.
    pub fn internal_joint(&self, def: &Defence, armour: u32, how: DamageDice) -> Vec<(u32, u32, f64)> {
        let mut acc: BTreeMap<(u32, u32), f64> = BTreeMap::new();
        for &(k, m, p) in &self.classes {
            let part = if k == 0 {
                vec![(armour, 0, 1.0)]
            } else {
                internal_law(def, armour, self.pools[k], MULTIPLIERS[m], how)
            };
            for (a, i, q) in part {
                *acc.entry((a, i)).or_insert(0.0) += p * q;
            }
        }
        acc.into_iter().map(|((a, i), p)| (a, i, p)).collect()
    }

    /// One step on `armour` left (§3 steps 1-9, card-free).
    pub fn step_law(&self, def: &Defence, armour: u32, how: DamageDice) -> StepLaw {
        let mut kill = self.p_second_20;
        let mut outcomes: BTreeMap<(u32, u32), f64> = BTreeMap::new();
        for (a, i, p) in self.internal_joint(def, armour, how) {
            match def.internal(i) {
                Internal::Dead => kill += p,
                Internal::None => *outcomes.entry((a, 0)).or_insert(0.0) += p,
                Internal::Lines(l) => *outcomes.entry((a, l)).or_insert(0.0) += p,
            }
        }
        StepLaw { kill, outcomes: outcomes.into_iter().map(|((a, l), p)| (a, l, p)).collect() }
    }
}
