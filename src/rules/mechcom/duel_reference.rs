//! Test-only: an independent exact evaluator of small MECHCOM duels, sharing no code
//! with the kernel. Each attack's law comes from enumerating every die (attack face,
//! then one armour face per hit, a crit making two; for the unarmed attack the attack,
//! defence and d3 faces), and the duel is a distribution over both models' (Integrity,
//! conditions), pushed activation by activation through both roll-off orders.
//!
//! Plays what the kernel's module docs describe, for: shooting weapons with fixed
//! Damage, Condition / Critical condition X on the duel's tracked conditions, Backfire;
//! the unarmed attack at melee range (1 hex); Stability +2 engaged, +2 Blinded, +1
//! Shocked; Armour −1 Corroded; Stunned Energy; clearing Burned then Corroded with
//! leftover Energy; Burned at the end of the own activation; the death explosion at
//! once. Not: Ammo, Flurry, d3 weapons, melee weapons, cover, height, Spot tokens.

use std::collections::HashMap;

pub const BURNED: u8 = 1;
pub const CORRODED: u8 = 2;
pub const SHOCKED: u8 = 4;
pub const BLINDED: u8 = 8;
pub const STUNNED: u8 = 16;

#[derive(Debug, Clone)]
pub struct RefWeapon {
    pub range: u32,
    pub dice: u32,
    pub damage: i32,
    /// Condition bits put on the target by >= 1 hit / >= 1 crit.
    pub on_hit: u8,
    pub on_crit: u8,
    pub backfire: i32,
}

#[derive(Debug, Clone)]
pub struct RefModel {
    pub stability: i32,
    pub strength: i32,
    pub armour: i32,
    pub integrity: i32,
    pub energy: u32,
    pub weapons: Vec<RefWeapon>,
    pub start: u8,
}

/// The duel's settings.
#[derive(Debug, Clone, Copy)]
pub struct RefRules {
    pub range: u32,
    pub rounds: usize,
    /// Clear Burned, then Corroded, with leftover Energy (2 each).
    pub clear: bool,
    /// The death explosion resolves at once (only at melee range).
    pub explode_at_once: bool,
}

/// P(A wins / B wins / mutual kill in round r+1), P(timeout).
#[derive(Debug, Clone, Default)]
pub struct RefResult {
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub mutual: Vec<f64>,
    pub timeout: f64,
}

/// (loss, bits added, probability)
type Law = Vec<(i32, u8, f64)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct St {
    life: [i32; 2],
    bits: [u8; 2],
}

enum Next {
    Cont(St),
    Won(usize),
    Mutual,
}

struct Eval<'a> {
    models: [&'a RefModel; 2],
    rules: RefRules,
    /// laws[who][attack][own bits Blinded/Shocked (0..4)][foe bits Corroded/Shocked (0..4)]
    laws: [Vec<Vec<Vec<Law>>>; 2],
    blast: [[Law; 2]; 2],
}

fn d6() -> std::ops::RangeInclusive<i32> {
    1..=6
}

/// One shooting attack, die by die.
fn shot(w: &RefWeapon, stability: i32, armour: i32) -> Law {
    let mut acc: HashMap<(i32, bool, bool), f64> = HashMap::from([((0, false, false), 1.0)]);
    for _ in 0..w.dice {
        let mut next = HashMap::new();
        for (&(loss, hit, crit), &p) in &acc {
            for face in d6() {
                let hits = if face == 6 {
                    2
                } else if face >= stability {
                    1
                } else {
                    0
                };
                // every armour roll of this die's hits
                let combos = 6i32.pow(hits);
                for c in 0..combos {
                    let mut through = 0;
                    let mut k = c;
                    for _ in 0..hits {
                        let armour_face = k % 6 + 1;
                        k /= 6;
                        through += (armour_face >= armour) as i32;
                    }
                    let key = (loss + through * w.damage, hit || hits > 0, crit || face == 6);
                    *next.entry(key).or_insert(0.0) += p / 6.0 / combos as f64;
                }
            }
        }
        acc = next;
    }
    acc.into_iter()
        .map(|((loss, hit, crit), p)| {
            let adds = if crit {
                w.on_hit | w.on_crit
            } else if hit {
                w.on_hit
            } else {
                0
            };
            (loss, adds, p)
        })
        .collect()
}

/// The unarmed attack: 1d6 + Strength against 1d6 + Strength, strictly greater wins,
/// 1d3 lost.
fn unarmed(attack_bonus: i32, defence_bonus: i32) -> Law {
    let mut by_loss: HashMap<i32, f64> = HashMap::new();
    for a in d6() {
        for d in d6() {
            for z in d6() {
                let win = a + attack_bonus > d + defence_bonus;
                *by_loss.entry(if win { (z + 1) / 2 } else { 0 }).or_insert(0.0) += 1.0 / 216.0;
            }
        }
    }
    by_loss.into_iter().map(|(loss, p)| (loss, 0, p)).collect()
}

fn mean(law: &Law) -> f64 {
    law.iter().map(|&(l, _, p)| l as f64 * p).sum()
}

impl<'a> Eval<'a> {
    fn new(a: &'a RefModel, b: &'a RefModel, rules: RefRules) -> Eval<'a> {
        let models = [a, b];
        let laws = [0, 1].map(|who| {
            let (me, foe) = (models[who], models[1 - who]);
            let mut attacks: Vec<Vec<Vec<Law>>> = Vec::new();
            for w in me.weapons.iter().filter(|w| rules.range <= w.range) {
                attacks.push(
                    (0..4)
                        .map(|own| {
                            (0..4)
                                .map(|f| {
                                    let s = me.stability
                                        + if rules.range <= 1 { 2 } else { 0 }
                                        + if own & 1 != 0 { 2 } else { 0 }
                                        + if own & 2 != 0 { 1 } else { 0 };
                                    shot(w, s, foe.armour - (f & 1))
                                })
                                .collect()
                        })
                        .collect(),
                );
            }
            if rules.range <= 1 {
                attacks.push(
                    (0..4)
                        .map(|own| (0..4).map(|f| unarmed(me.strength - (own >> 1), foe.strength - (f >> 1))).collect())
                        .collect(),
                );
            }
            attacks
        });
        let explosion = |armour: i32| {
            shot(&RefWeapon { range: 1, dice: 1, damage: 4, on_hit: 0, on_crit: 0, backfire: 0 }, 2, armour)
        };
        let blast = [0, 1].map(|who| [explosion(models[who].armour), explosion(models[who].armour - 1)]);
        Eval { models, rules, laws, blast }
    }

    fn backfire(&self, who: usize, attack: usize) -> i32 {
        let me = self.models[who];
        me.weapons.iter().filter(|w| self.rules.range <= w.range).nth(attack).map_or(0, |w| w.backfire)
    }

    fn destroyed(&self, dead: usize, st: St, p: f64, out: &mut Vec<(Next, f64)>) {
        let other = 1 - dead;
        if self.rules.explode_at_once && self.rules.range <= 1 {
            let corroded = (st.bits[other] & CORRODED != 0) as usize;
            for &(loss, _, q) in &self.blast[other][corroded] {
                let next = if st.life[other] - loss <= 0 { Next::Mutual } else { Next::Won(other) };
                out.push((next, p * q));
            }
        } else {
            out.push((Next::Won(other), p));
        }
    }

    fn attacks(&self, who: usize, st: St, energy: u32, p: f64, out: &mut Vec<(Next, f64)>) {
        let foe = 1 - who;
        let own = ((st.bits[who] & BLINDED != 0) as usize) | (((st.bits[who] & SHOCKED != 0) as usize) << 1);
        let theirs = ((st.bits[foe] & CORRODED != 0) as usize) | (((st.bits[foe] & SHOCKED != 0) as usize) << 1);
        let options = &self.laws[who];
        if energy < 3 || options.is_empty() {
            return self.finish(who, st, energy, p, out);
        }
        let mut best = 0;
        for i in 1..options.len() {
            if mean(&options[i][own][theirs]) > mean(&options[best][own][theirs]) {
                best = i;
            }
        }
        for &(loss, adds, q) in &options[best][own][theirs] {
            let mut s = st;
            s.life[foe] -= loss;
            s.bits[foe] |= adds;
            if s.life[foe] <= 0 {
                self.destroyed(foe, s, p * q, out);
                continue;
            }
            s.life[who] -= self.backfire(who, best);
            if s.life[who] <= 0 {
                self.destroyed(who, s, p * q, out);
                continue;
            }
            self.attacks(who, s, energy - 3, p * q, out);
        }
    }

    fn finish(&self, who: usize, mut st: St, mut energy: u32, p: f64, out: &mut Vec<(Next, f64)>) {
        if self.rules.clear {
            for c in [BURNED, CORRODED] {
                if st.bits[who] & c != 0 && energy >= 2 {
                    st.bits[who] &= !c;
                    energy -= 2;
                }
            }
        }
        if st.bits[who] & BURNED != 0 {
            st.life[who] -= 1;
            if st.life[who] <= 0 {
                return self.destroyed(who, st, p, out);
            }
        }
        st.bits[who] &= !(SHOCKED | BLINDED | STUNNED);
        out.push((Next::Cont(st), p));
    }

    fn activation(&self, who: usize, st: St, p: f64) -> Vec<(Next, f64)> {
        let e = self.models[who].energy;
        let energy = if st.bits[who] & STUNNED != 0 { e.div_ceil(2) } else { e };
        let mut out = Vec::new();
        self.attacks(who, st, energy, p, &mut out);
        out
    }
}

/// The exact duel of `a` and `b` under `rules`.
pub fn evaluate(a: &RefModel, b: &RefModel, rules: RefRules) -> RefResult {
    let ev = Eval::new(a, b, rules);
    let n = rules.rounds;
    let mut r = RefResult { a: vec![0.0; n], b: vec![0.0; n], mutual: vec![0.0; n], timeout: 0.0 };
    let start = St { life: [a.integrity, b.integrity], bits: [a.start, b.start] };
    let mut dist: HashMap<St, f64> = HashMap::from([(start, 1.0)]);
    for round in 0..n {
        let mut next: HashMap<St, f64> = HashMap::new();
        let mut end = |what: Next, p: f64, next: &mut HashMap<St, f64>| match what {
            Next::Cont(s) => *next.entry(s).or_insert(0.0) += p,
            Next::Won(0) => r.a[round] += p,
            Next::Won(_) => r.b[round] += p,
            Next::Mutual => r.mutual[round] += p,
        };
        for (&st, &p) in &dist {
            for first in [0, 1] {
                for (after, p1) in ev.activation(first, st, p / 2.0) {
                    match after {
                        Next::Cont(s1) => {
                            for (done, p2) in ev.activation(1 - first, s1, p1) {
                                end(done, p2, &mut next);
                            }
                        }
                        other => end(other, p1, &mut next),
                    }
                }
            }
        }
        dist = next;
    }
    r.timeout = dist.values().sum();
    r
}
