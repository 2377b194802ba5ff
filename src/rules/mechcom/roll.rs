//! The exact distribution of one attack (§1, §2, §7): the joint law of the Integrity
//! lost and of the attack's flags (no hit, hit, crit), by counting every combination of
//! d6 faces behind it.
//!
//! One die's elementary events are its attack face, two armour faces (a crit makes two
//! armour rolls) and, for d3 damage, two damage faces: 6^3 (or 6^5) equally likely
//! events. n dice are n independent copies, so outcome counts over 6^(3n) are exact
//! integers while they fit a u128; beyond that, and for Flurry (an unbounded chain whose
//! law has a denominator that is no power of 6), the law is computed in `f64` by the
//! same convolutions. Melee dice all face one defence die: the law is the sum over the
//! defender's 6 faces of n independent dice given that face.

use crate::dice::{Dist, chain, pool};

use super::options::Options;
use super::stability::Aim;
use super::weapon::Damage;

/// Flags of an attack: 0 = no hit, 1 = at least one hit and no crit, 2 = a crit.
/// Whether a blocked hit counts is `HIT_MEANS_ATTACK_ROLL_HIT`.
pub const FLAGS: usize = 3;
pub const NO_HIT: usize = 0;
pub const HIT: usize = 1;
pub const CRIT: usize = 2;

/// What one attack die does (§1 step 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DieResult {
    Miss,
    Hit,
    /// Worth two hits in Shooting.
    Crit,
}

/// The result of attack face `face` (1..=6) at `aim` (§1: `SIX_ALWAYS_CRITS`,
/// `NO_AUTOMATIC_MISS`, `MODIFIERS_MOVE_STABILITY`).
pub fn classify(face: i32, aim: &Aim, o: &Options) -> DieResult {
    if !o.no_automatic_miss && face == 1 {
        return DieResult::Miss;
    }
    let roll = face + aim.die_bonus;
    let six = if o.modifiers_move_stability { face == 6 } else { roll >= 6 };
    if six && (o.six_always_crits || roll >= aim.stability) {
        DieResult::Crit
    } else if roll >= aim.stability {
        DieResult::Hit
    } else {
        DieResult::Miss
    }
}

/// Whether armour face `face` (1..=6) lets a hit through against effective Armour `a`
/// (`ARMOUR_NO_AUTOMATIC_RESULT`).
pub fn armour_fails(face: i32, a: i32, o: &Options) -> bool {
    if o.armour_no_automatic_result { face >= a } else { face == 6 || (face != 1 && face >= a) }
}

/// The joint law of (flags, Integrity lost) of one attack; losses are capped at `cap`
/// (the last loss entry lumps every loss >= cap).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    pub cap: u32,
    /// Outcome `flag * (cap + 1) + loss`, as probabilities.
    pub probs: Dist<f64>,
    /// The same as exact counts, when they fit a u128.
    pub exact: Option<Dist<u128>>,
}

impl Joint {
    pub fn index(cap: u32, flag: usize, loss: u32) -> usize {
        flag * (cap as usize + 1) + loss.min(cap) as usize
    }

    /// (flag, loss) of outcome `i`.
    pub fn split(&self, i: usize) -> (usize, u32) {
        let w = self.cap as usize + 1;
        (i / w, (i % w) as u32)
    }

    /// P(Integrity lost = l), l = 0..=cap (the last entry: >= cap).
    pub fn loss(&self) -> Vec<f64> {
        if let Some((counts, total)) = self.exact_loss() {
            // sum exact counts before dividing: one rounding per entry
            return counts.into_iter().map(|c| c as f64 / total as f64).collect();
        }
        marginal(&self.probs.weights, self.cap).into_iter().map(|w| w / self.probs.total).collect()
    }

    /// Exact counts of each loss and their total, when exact.
    pub fn exact_loss(&self) -> Option<(Vec<u128>, u128)> {
        self.exact.as_ref().map(|d| (marginal(&d.weights, self.cap), d.total))
    }

    /// P(flag >= f): f = HIT for "at least one hit", CRIT for "at least one crit".
    pub fn p_flag(&self, f: usize) -> f64 {
        let w = self.cap as usize + 1;
        if let Some(e) = &self.exact {
            return e.weights[f * w..].iter().sum::<u128>() as f64 / e.total as f64;
        }
        self.probs.weights[f * w..].iter().sum::<f64>() / self.probs.total
    }
}

fn marginal<W: crate::dice::Weight>(weights: &[W], cap: u32) -> Vec<W> {
    let w = cap as usize + 1;
    (0..w).map(|l| (0..FLAGS).fold(W::default(), |acc, f| acc + weights[f * w + l])).collect()
}

/// Combines two outcomes of independent dice: flags take the max, losses add (capped).
fn fold(cap: u32) -> impl Fn(usize, usize) -> usize + Copy {
    let w = cap as usize + 1;
    move |a, b| (a / w).max(b / w) * w + (a % w + b % w).min(cap as usize)
}

/// Outcomes in an order that lets [`chain`] solve them: by loss, then flag.
fn chain_order(cap: u32) -> Vec<usize> {
    let w = cap as usize + 1;
    (0..w).flat_map(|l| (0..FLAGS).map(move |f| f * w + l)).collect()
}

/// One elementary event of one die: its flag, Integrity lost, and whether it rolls one
/// more die (Flurry).
#[derive(Debug, Clone, Copy)]
struct Event {
    flag: usize,
    loss: u32,
    more: bool,
    /// The die is a crit of the attack roll (Red-Hot Reactor counts it, blocked or not).
    crit: bool,
}

/// The flag of one die: by its attack result, or (`HIT_MEANS_ATTACK_ROLL_HIT` off) only
/// when some of its Integrity got through.
fn flag_of(result: DieResult, unblocked: bool, o: &Options) -> usize {
    let counted = o.hit_means_attack_roll_hit || unblocked;
    match result {
        DieResult::Miss => NO_HIT,
        DieResult::Hit if counted => HIT,
        DieResult::Crit if counted => CRIT,
        _ => NO_HIT,
    }
}

/// The law of n dice whose one-die events are `events` (all equally likely): exact
/// counts when no event chains and the counts fit, `f64` otherwise.
fn dice_law(events: &[Event], dice: u32, cap: u32) -> Joint {
    let len = FLAGS * (cap as usize + 1);
    let idx = |e: &Event| Joint::index(cap, e.flag, e.loss);
    let op = fold(cap);
    let chains = events.iter().any(|e| e.more);
    if !chains {
        let one: Dist<u128> = Dist::count(len, events.iter().map(idx));
        if one.fits_power(dice) {
            let exact = one.power(dice, 0, op);
            return Joint { cap, probs: exact.to_f64(), exact: Some(exact) };
        }
        let probs = one.to_f64().power(dice, 0, op);
        return Joint { cap, probs, exact: None };
    }
    let total = events.len() as f64;
    let mut end = vec![0.0; len];
    let mut more = vec![0.0; len];
    for e in events {
        let slot = if e.more { &mut more } else { &mut end };
        slot[idx(e)] += 1.0 / total;
    }
    let one = Dist { weights: chain(&end, &more, &chain_order(cap), op), total: 1.0 };
    Joint { cap, probs: one.power(dice, 0, op), exact: None }
}

/// The joint law of (crits in the attack roll, flag, Integrity lost) of one attack, for
/// Red-Hot Reactor ("for every crit in the attack roll, it gains a Heat token"): outcome
/// `(crits * FLAGS + flag) * (cap + 1) + loss`, crits capped at `crits_cap` and losses
/// at `cap`.
#[derive(Debug, Clone, PartialEq)]
pub struct CritJoint {
    pub cap: u32,
    pub crits_cap: u32,
    pub probs: Dist<f64>,
    /// The same as exact counts, when they fit a u128.
    pub exact: Option<Dist<u128>>,
}

impl CritJoint {
    /// (crits, flag, loss) of outcome `i`.
    pub fn split(&self, i: usize) -> (u32, usize, u32) {
        let w = self.cap as usize + 1;
        ((i / (FLAGS * w)) as u32, i / w % FLAGS, (i % w) as u32)
    }
}

/// [`CritJoint`] of n dice whose one-die events are `events` (all equally likely).
/// Flurry chains are solved as in [`dice_law`], ordered by crits, then loss, then flag;
/// `chained_crits` (`REACTOR_COUNTS_FLURRY_CRITS`) says whether the crits of Flurry's
/// extra dice count, or only those of the first roll.
fn crit_law(events: &[Event], dice: u32, cap: u32, crits_cap: u32, chained_crits: bool) -> CritJoint {
    let w = cap as usize + 1;
    let block = FLAGS * w;
    let len = block * (crits_cap as usize + 1);
    let idx = |e: &Event, count: bool| {
        ((e.crit && count) as usize).min(crits_cap as usize) * block + e.flag * w + e.loss.min(cap) as usize
    };
    let op = move |a: usize, b: usize| {
        let crits = (a / block + b / block).min(crits_cap as usize);
        let flag = (a % block / w).max(b % block / w);
        crits * block + flag * w + (a % w + b % w).min(cap as usize)
    };
    if !events.iter().any(|e| e.more) {
        let one: Dist<u128> = Dist::count(len, events.iter().map(|e| idx(e, true)));
        if one.fits_power(dice) {
            let exact = one.power(dice, 0, op);
            return CritJoint { cap, crits_cap, probs: exact.to_f64(), exact: Some(exact) };
        }
        return CritJoint { cap, crits_cap, probs: one.to_f64().power(dice, 0, op), exact: None };
    }
    let total = events.len() as f64;
    let split = |count: bool| {
        let (mut end, mut more) = (vec![0.0; len], vec![0.0; len]);
        for e in events {
            let slot = if e.more { &mut more } else { &mut end };
            slot[idx(e, count)] += 1.0 / total;
        }
        (end, more)
    };
    let order: Vec<usize> = (0..=crits_cap as usize)
        .flat_map(|c| (0..w).flat_map(move |l| (0..FLAGS).map(move |f| c * block + f * w + l)))
        .collect();
    let (end, more) = split(true);
    let first = if chained_crits {
        chain(&end, &more, &order, op)
    } else {
        // The extra dice's crits do not count: the first die, then a chain without crits.
        let (end0, more0) = split(false);
        let rest = chain(&end0, &more0, &order, op);
        let mut f = end;
        for (i, &m) in more.iter().enumerate().filter(|(_, m)| **m > 0.0) {
            for (j, &r) in rest.iter().enumerate().filter(|(_, r)| **r > 0.0) {
                f[op(i, j)] += m * r;
            }
        }
        f
    };
    CritJoint { cap, crits_cap, probs: Dist { weights: first, total: 1.0 }.power(dice, 0, op), exact: None }
}

/// A Shooting attack: `dice` dice at `aim`, hits against effective Armour `armour`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShotRoll {
    pub dice: u32,
    pub aim: Aim,
    pub armour: i32,
    pub damage: Damage,
    pub flurry: bool,
}

impl ShotRoll {
    fn events(&self, o: &Options) -> Vec<Event> {
        let dmg: Vec<u32> = match self.damage {
            Damage::Fixed(d) => vec![d],
            Damage::D3 => Damage::D3.by_face().to_vec(),
        };
        let mut out = Vec::with_capacity(6 * 36 * dmg.len() * dmg.len());
        for a in 1..=6 {
            let result = classify(a, &self.aim, o);
            let rolls = match result {
                DieResult::Miss => 0,
                DieResult::Hit => 1,
                DieResult::Crit => 2,
            };
            for r1 in 1..=6 {
                for r2 in 1..=6 {
                    for &d1 in &dmg {
                        for &d2 in &dmg {
                            let through1 = rolls >= 1 && armour_fails(r1, self.armour, o);
                            let through2 = rolls >= 2 && armour_fails(r2, self.armour, o);
                            let loss = through1 as u32 * d1 + through2 as u32 * d2;
                            out.push(Event {
                                flag: flag_of(result, through1 || through2, o),
                                loss,
                                more: result == DieResult::Crit && self.flurry && o.flurry_always_rolls,
                                crit: result == DieResult::Crit,
                            });
                        }
                    }
                }
            }
        }
        out
    }

    /// The joint law with losses capped at `cap`.
    pub fn joint(&self, cap: u32, o: &Options) -> Joint {
        dice_law(&self.events(o), self.dice, cap)
    }

    /// The [`CritJoint`].
    pub fn crit_joint(&self, cap: u32, crits_cap: u32, o: &Options) -> CritJoint {
        crit_law(&self.events(o), self.dice, cap, crits_cap, o.reactor_counts_flurry_crits)
    }
}

/// A Melee attack: `dice` dice (each + `attack_bonus`) against one defence die
/// (+ `defence_bonus`, Rend already subtracted).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeleeRoll {
    pub dice: u32,
    pub attack_bonus: i32,
    pub defence_bonus: i32,
    pub damage: Damage,
    pub flurry: bool,
    /// The unarmed attack with `UNARMED_D3_PER_DIE` off: one d3 for the whole attack.
    pub single_d3: bool,
    /// Effective Armour for `MELEE_ARMOUR_ROLL`.
    pub armour: i32,
}

impl MeleeRoll {
    fn events(&self, defence_face: i32, damage: Damage, o: &Options) -> Vec<Event> {
        let dmg: Vec<u32> = match damage {
            Damage::Fixed(d) => vec![d],
            Damage::D3 => Damage::D3.by_face().to_vec(),
        };
        let armour_faces: Vec<i32> = if o.melee_armour_roll { (1..=6).collect() } else { vec![6] };
        let defence = defence_face + self.defence_bonus;
        let mut out = Vec::new();
        for a in 1..=6 {
            let total = a + self.attack_bonus;
            let win = if o.melee_ties_fail { total > defence } else { total >= defence };
            let result = match (win, a == 6 && o.melee_crit) {
                (false, _) => DieResult::Miss,
                (true, true) => DieResult::Crit,
                (true, false) => DieResult::Hit,
            };
            for &r in &armour_faces {
                for &d in &dmg {
                    let through = win && (!o.melee_armour_roll || armour_fails(r, self.armour, o));
                    out.push(Event {
                        flag: flag_of(result, through, o),
                        loss: through as u32 * d,
                        more: result == DieResult::Crit && self.flurry && o.flurry_always_rolls,
                        crit: result == DieResult::Crit,
                    });
                }
            }
        }
        out
    }

    /// The [`CritJoint`] (a mixture over the defence die's faces); `None` for the single
    /// d3 of `UNARMED_D3_PER_DIE` off.
    pub fn crit_joint(&self, cap: u32, crits_cap: u32, o: &Options) -> Option<CritJoint> {
        if self.single_d3 {
            return None;
        }
        let chained = o.reactor_counts_flurry_crits;
        let per_face: Vec<CritJoint> =
            (1..=6).map(|d| crit_law(&self.events(d, self.damage, o), self.dice, cap, crits_cap, chained)).collect();
        let probs = Dist::sum_cases(&per_face.iter().map(|j| j.probs.clone()).collect::<Vec<_>>());
        let exact = per_face
            .iter()
            .map(|j| j.exact.clone())
            .collect::<Option<Vec<_>>>()
            .filter(|e| e[0].total.checked_mul(6).is_some())
            .map(|e| Dist::sum_cases(&e));
        Some(CritJoint { cap, crits_cap, probs, exact })
    }

    /// The joint law with losses capped at `cap`.
    pub fn joint(&self, cap: u32, o: &Options) -> Joint {
        if self.single_d3 {
            // Winning dice count with damage 1, then one d3 multiplies them.
            let wins = MeleeRoll { single_d3: false, damage: Damage::Fixed(1), ..*self }.joint(self.dice, o);
            let w = wins.cap as usize + 1;
            let relabel = |d3: u32| move |i: usize| Joint::index(cap, i / w, (i % w) as u32 * d3);
            let len = FLAGS * (cap as usize + 1);
            let faces = Damage::D3.by_face();
            let probs = Dist::sum_cases(&faces.map(|d| wins.probs.map(len, relabel(d))));
            let exact = wins.exact.as_ref().map(|e| Dist::sum_cases(&faces.map(|d| e.map(len, relabel(d)))));
            return Joint { cap, probs, exact };
        }
        let per_face: Vec<Joint> = (1..=6).map(|d| dice_law(&self.events(d, self.damage, o), self.dice, cap)).collect();
        let probs = Dist::sum_cases(&per_face.iter().map(|j| j.probs.clone()).collect::<Vec<_>>());
        let exact = per_face
            .iter()
            .map(|j| j.exact.clone())
            .collect::<Option<Vec<_>>>()
            .filter(|e| e[0].total.checked_mul(6).is_some())
            .map(|e| Dist::sum_cases(&e));
        Joint { cap, probs, exact }
    }
}

/// The law of the attack roll's hits among `dice` dice at `aim` (a crit is 2 hits), as
/// counts over 6^dice: outcome k = k hits. Panics beyond 49 dice.
pub fn hit_counts(dice: u32, aim: &Aim, o: &Options) -> Dist<u128> {
    let value = |f: u32| match classify(f as i32, aim, o) {
        DieResult::Miss => 0,
        DieResult::Hit => 1,
        DieResult::Crit => 2,
    };
    let mut d = pool(dice, 6, value).expect("6^dice fits a u128 for pools of up to 49 dice");
    // every count from 0 to 2·dice, even those no face reaches
    d.weights.resize(2 * dice as usize + 1, 0);
    d
}
