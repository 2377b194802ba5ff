//! One gunner compiled against one target (§1-§3): the weapons that fire, their TNs and
//! dice after spreadfire, the exact roll law and the joint hit law, and from them the
//! exact law of one gunner's step on the card-free state (armour left, lines marked).

use std::collections::BTreeMap;

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::damage::{Defence, Internal, internal_law};
use super::options::{DamageDice, FiringLimits, Options};
use super::roll::{Dice, MULTIPLIERS, RollLaw, required_depth};
use super::unit::{DvType, Gunner, Unit, Weapon};

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
/// range; type I not under `INDIRECT_MIN_RANGE`), in card order, as it fires in the
/// first turn (every round still carried): the set of weapons `FIRING_LIMITS` and
/// `PHYSICAL` let it fire ([`Arsenal`]). Gunners with nothing to fire do not roll. A
/// gunner fires at spreadfire level `SPREAD` when every weapon it fires can spread, else
/// at 0 (§2: all weapons at one level).
pub fn plans(cat: &Catalogue, attacker: &Unit, target: &Unit, c: &Conditions, o: &Options) -> Vec<GunnerPlan> {
    let a = Arsenal::new(cat, attacker, target, c, o);
    a.choose(&a.full_masks()).into_iter().flatten().map(|p| a.plans[p].clone()).collect()
}

/// The weapons of gunner `g` (from 0) able to fire at `c`'s range, as catalogue indexes in
/// card order.
fn in_range(cat: &Catalogue, g: &Gunner, c: &Conditions, o: &Options) -> Vec<usize> {
    g.weapons
        .iter()
        .copied()
        .filter(|&i| {
            let w = &cat.weapons[i];
            w.range >= c.range
                && !(w.kind == DvType::I && c.range < o.indirect_min_range())
                && !(o.physical() && w.kind == DvType::P && c.range > 1)
        })
        .collect()
}

/// Compile the plan of gunner `gi` of `attacker` firing the weapons `set` (catalogue
/// indexes) at `target`.
fn compile_plan(
    cat: &Catalogue,
    attacker: &Unit,
    gi: usize,
    set: &[usize],
    target: &Unit,
    c: &Conditions,
    o: &Options,
) -> GunnerPlan {
    let ws: Vec<&Weapon> = set.iter().map(|&i| &cat.weapons[i]).collect();
    // (Dodging): two dice levels and the dodging pilot's Piloting per dodging side.
    let piloting = |u: &Unit| i64::from(u.piloting.unwrap_or(o.skill_default()));
    let (mut levels, mut dodge_tn) = (0, 0);
    if c.target_dodging {
        levels += 2;
        dodge_tn += piloting(target);
    }
    if c.attacker_dodging {
        levels += 2;
        dodge_tn += piloting(attacker);
    }
    let spread = if ws.iter().all(|w| w.spreadfire) { o.spread() } else { 0 };
    let mut weapons: Vec<FiringWeapon> = ws
        .iter()
        .map(|w| FiringWeapon {
            name: w.name.clone(),
            kind: w.kind,
            target_number: c.target_number(w.kind, target, o) + dodge_tn,
            dice: [w.damage, w.shock, w.penetration].map(|d| d.saturating_sub(spread)),
        })
        .collect();
    weapons.sort_by_key(|w| w.target_number);
    let g = &attacker.gunners[gi];
    let gunnery = i64::from(g.skill.unwrap_or(o.skill_default()) + c.gunnery);
    let dice = c.dice.unwrap_or(attacker.dice).lose_levels(levels);
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
    GunnerPlan { number: gi + 1, weapons, gunnery, dice, spread, law, classes, p_second_20, pools }
}

/// The sets of weapons (indexes into `ws`) one gunner may fire together in one turn under
/// `limits` ("Weapons Selection"), without its physical attacks: every other weapon with
/// one limited weapon (or none when it has none), or two limited weapons alone (`Book`:
/// any two; `SameClassPairs`: two of one class), or one alone. Each weapon at most once.
pub fn fire_sets(ws: &[&Weapon], limits: FiringLimits) -> Vec<Vec<usize>> {
    let all: Vec<usize> = (0..ws.len()).collect();
    let limited: Vec<usize> = all.iter().copied().filter(|&i| ws[i].class.limited()).collect();
    if ws.is_empty() {
        return Vec::new();
    }
    if limits == FiringLimits::Off || limited.len() <= 1 {
        return vec![all];
    }
    let others: Vec<usize> = all.iter().copied().filter(|&i| !ws[i].class.limited()).collect();
    let mut sets = Vec::new();
    for &l in &limited {
        let mut s = others.clone();
        s.push(l);
        s.sort_unstable();
        sets.push(s);
    }
    for (j, &l) in limited.iter().enumerate() {
        for &m in &limited[j + 1..] {
            if limits == FiringLimits::Book || ws[l].class == ws[m].class {
                sets.push(vec![l, m]);
            }
        }
    }
    sets
}

/// One gunner's choices against one target, per availability of its counted weapons.
#[derive(Debug, Clone, PartialEq)]
pub struct Menu {
    /// The gunner's number on the card, from 1.
    pub number: usize,
    /// Its weapons in range that carry an ammunition count (`AMMO = CARD`), in card
    /// order: (catalogue index, rounds). Bit i of an availability mask: `counted[i]` has
    /// rounds left.
    pub counted: Vec<(usize, u32)>,
    /// `fire[mask]`: its best set without a physical attack (plan, value), or none.
    pub fire: Vec<Option<(usize, f64)>>,
    /// `punch[mask]`: its best physical attack (plan, value), or none.
    pub punch: Vec<Option<(usize, f64)>>,
}

/// Most weapons with an ammunition count one gunner may carry (2^8 availability masks);
/// [`super::attack_run::AttackRun::new`] refuses more.
pub const MAX_COUNTED: usize = 8;

/// Every gunner of a unit compiled against one target: each distinct set of weapons it may
/// fire (per `FIRING_LIMITS`, `PHYSICAL` and which counted weapons have rounds left), as
/// a plan, and what to fire given what is left ([`Arsenal::choose`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Arsenal {
    pub plans: Vec<GunnerPlan>,
    /// `uses[p]`: the counted weapons plan `p` fires, as a mask of its gunner's `counted`.
    pub uses: Vec<u32>,
    /// `menus[m]`: the m-th gunner with a weapon in range, in card order.
    pub menus: Vec<Menu>,
    /// Whether any physical attack or counted weapon makes a choice across turns or gunners.
    pub choosy: bool,
}

/// The one-turn value of a plan against the untouched target: P(destroyed) + expected
/// lines marked / 100 + expected armour removed / (100 x (armour + 1)).
fn value(plan: &GunnerPlan, def: &Defence, how: DamageDice) -> f64 {
    let law = plan.step_law(def, def.armour, how);
    let scale = 100.0 * f64::from(def.armour + 1);
    law.kill
        + law
            .outcomes
            .iter()
            .map(|&(a, l, p)| p * (f64::from(l) / 100.0 + f64::from(def.armour - a) / scale))
            .sum::<f64>()
}

impl Arsenal {
    /// Compile `attacker`'s gunners against `target` in `c`.
    pub fn new(cat: &Catalogue, attacker: &Unit, target: &Unit, c: &Conditions, o: &Options) -> Arsenal {
        let def = defence(target, c);
        let how = o.damage_dice();
        let mut plans: Vec<GunnerPlan> = Vec::new();
        let mut uses = Vec::new();
        let mut values = Vec::new();
        let mut seen: BTreeMap<(usize, Vec<usize>), usize> = BTreeMap::new();
        let mut menus = Vec::new();
        let mut choosy = false;
        for (gi, g) in attacker.gunners.iter().enumerate() {
            if c.attacker_dodging && attacker.pilot == Some(gi as u32 + 1) {
                continue; // a dodging pilot cannot fire
            }
            let ws = in_range(cat, g, c, o);
            if ws.is_empty() {
                continue;
            }
            let counted: Vec<(usize, u32)> = if o.ammo_counted() {
                ws.iter().filter_map(|&i| cat.weapons[i].ammo.map(|n| (i, n))).collect()
            } else {
                Vec::new()
            };
            let is_physical = |i: usize| o.physical() && cat.weapons[i].kind == DvType::P;
            choosy |= !counted.is_empty();
            let mut menu = Menu { number: gi + 1, counted: counted.clone(), fire: Vec::new(), punch: Vec::new() };
            for mask in 0..(1u32 << counted.len()) {
                let left: Vec<usize> = ws
                    .iter()
                    .copied()
                    .filter(|i| counted.iter().position(|(c, _)| c == i).is_none_or(|b| mask >> b & 1 == 1))
                    .collect();
                let mut best = |sets: Vec<Vec<usize>>| -> Option<(usize, f64)> {
                    let mut pick: Option<(usize, f64)> = None;
                    for set in sets {
                        let key = (gi, set.clone());
                        let p = match seen.get(&key) {
                            Some(&p) => p,
                            None => {
                                let plan = compile_plan(cat, attacker, gi, &set, target, c, o);
                                values.push(value(&plan, &def, how));
                                uses.push(
                                    counted
                                        .iter()
                                        .enumerate()
                                        .filter(|(_, (w, _))| set.contains(w))
                                        .fold(0u32, |m, (b, _)| m | 1 << b),
                                );
                                plans.push(plan);
                                seen.insert(key, plans.len() - 1);
                                plans.len() - 1
                            }
                        };
                        if pick.is_none_or(|(_, v)| values[p] > v) {
                            pick = Some((p, values[p]));
                        }
                    }
                    pick
                };
                let (punches, guns): (Vec<usize>, Vec<usize>) = left.iter().partition(|&&i| is_physical(i));
                let gun_refs: Vec<&Weapon> = guns.iter().map(|&i| &cat.weapons[i]).collect();
                let fire_sets: Vec<Vec<usize>> = fire_sets(&gun_refs, o.firing_limits())
                    .into_iter()
                    .map(|s| s.into_iter().map(|j| guns[j]).collect())
                    .collect();
                menu.fire.push(best(fire_sets));
                menu.punch.push(best(punches.iter().map(|&i| vec![i]).collect()));
            }
            menus.push(menu);
        }
        let full = (0..menus.len()).filter(|&i| menus[i].punch[menus[i].punch.len() - 1].is_some());
        let punchers: Vec<usize> = full.collect();
        choosy |= punchers.len() > 1 || punchers.iter().any(|&i| menus[i].fire[menus[i].fire.len() - 1].is_some());
        Arsenal { plans, uses, menus, choosy }
    }

    /// Put the first turn's plans (every round left) first, in card order, renumbering
    /// the menus; returns how many there are.
    pub fn first_turn_first(&mut self) -> usize {
        let first: Vec<usize> = self.choose(&self.full_masks()).into_iter().flatten().collect();
        let order: Vec<usize> =
            first.iter().copied().chain((0..self.plans.len()).filter(|p| !first.contains(p))).collect();
        let mut new_of = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            new_of[old] = new;
        }
        self.plans = order.iter().map(|&p| self.plans[p].clone()).collect();
        self.uses = order.iter().map(|&p| self.uses[p]).collect();
        for m in &mut self.menus {
            for o in m.fire.iter_mut().chain(m.punch.iter_mut()).flatten() {
                o.0 = new_of[o.0];
            }
        }
        first.len()
    }

    /// Every counted weapon with rounds left, per menu.
    pub fn full_masks(&self) -> Vec<u32> {
        self.menus.iter().map(|m| (1u32 << m.counted.len()) - 1).collect()
    }

    /// What each menu's gunner fires given `masks` (its counted weapons with rounds left):
    /// its best fire, except that the one gunner of the unit with the most to gain from a
    /// physical attack over its best fire makes it (one physical attack per unit, §6);
    /// `None`: that gunner does not roll.
    pub fn choose(&self, masks: &[u32]) -> Vec<Option<usize>> {
        resolve(self.menus.iter().zip(masks).map(|(m, &k)| (m.fire[k as usize], m.punch[k as usize])))
    }
}

/// The unit's choice from each gunner's (best fire, best physical attack), each as
/// (plan, value): every gunner fires its best fire, except the one gunner with the most
/// to gain from a physical attack over its best fire (a gunner with no fire gains the
/// attack's value + 1), who makes it: one physical attack per unit (§6). Ties go to the
/// first gunner; `None`: that gunner does not roll.
pub fn resolve(options: impl Iterator<Item = (Option<(usize, f64)>, Option<(usize, f64)>)>) -> Vec<Option<usize>> {
    let mut out = Vec::new();
    let mut best: Option<(usize, usize, f64)> = None;
    for (i, (fire, punch)) in options.enumerate() {
        out.push(fire.map(|f| f.0));
        if let Some((p, v)) = punch {
            let gain = v - fire.map_or(-1.0, |f| f.1);
            if gain > 0.0 && best.is_none_or(|b| gain > b.2) {
                best = Some((i, p, gain));
            }
        }
    }
    if let Some((i, p, _)) = best {
        out[i] = Some(p);
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
