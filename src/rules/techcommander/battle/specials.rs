//! Special attacks (ram, death from above, overrun, trample; techcommander-battles.md §4)
//! as battle actions: per pair of enemy units, fire-control and smoke state, the exact
//! joint (target loss, own loss) law of each attack the actor may make and reaches
//! (`REACH_RULE`), and a sampler for it. Each is its own system, once per turn
//! (`SPECIAL_AS_SYSTEM`). A trample of a rallied group's members is its own action over
//! several members ([`super::rally`]): its tables are kept apart
//! ([`Specials::trample_entry`]) and the single-target search never sees them; a trample
//! of a troop or crew unit that is not rallied stays a one-target special attack. An
//! attacker that destroys itself gives nobody kill credit.

use std::collections::HashMap;

use rand::Rng;

use super::tables::{ByLife, NONE, Value, state};
use super::units::BattleUnit;
use crate::dice::GuidedThresholds;
use crate::rules::techcommander::conditions::{AttackMode, Conditions, Smoke};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;
use crate::rules::techcommander::special::{ELIMINATED, SpecialOdds, check, state_odds};

/// The attack modes of the four special attacks, in system order after the weapons.
pub const MODES: [AttackMode; 4] =
    [AttackMode::Ram, AttackMode::DeathFromAbove, AttackMode::Overrun, AttackMode::Trample];

/// The index of the overrun in [`MODES`] (its system is `nsys + OVERRUN`).
pub const OVERRUN: usize = 2;

/// One special attack in one state: its outcomes and a sampler over them.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecialTable {
    /// Cumulative thresholds over the u64 range, one per outcome (the last is `u64::MAX`),
    /// with their guide table: a draw's outcome in a few steps, not a scan of them all.
    thresholds: GuidedThresholds,
    /// (target loss, own loss) per outcome; own loss [`ELIMINATED`] when it destroys the
    /// attacker outright.
    losses: Vec<(u32, u32)>,
    /// The greedy score's gain by the target's current life (index 1..=20) and cost by
    /// the attacker's own life (index 1..=20): score = gain[target] − cost[own].
    gain: ByLife,
    cost: ByLife,
}

impl SpecialTable {
    fn new(odds: SpecialOdds, target_value: Value, self_value: Value) -> SpecialTable {
        let mut acc = 0.0;
        let n = odds.outcomes.len();
        let thresholds = odds
            .outcomes
            .iter()
            .enumerate()
            .map(|(i, o)| {
                acc += o.p;
                if i + 1 == n { u64::MAX } else { (acc.min(1.0) * u64::MAX as f64) as u64 }
            })
            .collect();
        let thresholds = GuidedThresholds::new(thresholds);
        let losses = odds.outcomes.iter().map(|o| (o.target_loss, o.self_loss)).collect();
        let mut gain = [0f32; STARTING_LIFE as usize + 1];
        let mut cost = [0f32; STARTING_LIFE as usize + 1];
        for life in 1..=STARTING_LIFE {
            let (mut g, mut c) = (0.0, 0.0);
            for o in &odds.outcomes {
                let kill = target_value.kill + if life == STARTING_LIFE { target_value.kill_from_full } else { 0.0 };
                let t = o.target_loss;
                g += o.p
                    * (if t >= life { kill } else { 0.0 }
                        + target_value.damage * t.min(life) as f64 / STARTING_LIFE as f64);
                let s = o.self_loss;
                c += o.p
                    * (if s == ELIMINATED || s >= life { self_value.kill } else { 0.0 }
                        + self_value.damage * s.min(life) as f64 / STARTING_LIFE as f64);
            }
            gain[life as usize] = g as f32;
            cost[life as usize] = c as f32;
        }
        SpecialTable { thresholds, losses, gain, cost }
    }

    /// Every value of the table as bits: equal keys, equal tables.
    fn key(&self) -> Vec<u64> {
        let thresholds = self.thresholds.thresholds().iter().copied();
        let losses = self.losses.iter().map(|&(t, o)| u64::from(t) << 32 | u64::from(o));
        let scores = self.gain.iter().chain(&self.cost).map(|x| u64::from(x.to_bits()));
        thresholds.chain(losses).chain(scores).collect()
    }

    /// Draw one outcome: (target loss, own loss).
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> (u32, u32) {
        let u = rng.next_u64();
        self.losses[self.thresholds.index(u)]
    }

    /// The greedy score: the target's value of its loss at `target_life` minus the
    /// attacker's value of its own loss at `own_life` (§2.7 step 3); lives clamped to
    /// 1..=20.
    #[inline(always)]
    pub fn score(&self, target_life: i32, own_life: i32) -> f32 {
        let clamp = |l: i32| l.clamp(1, STARTING_LIFE as i32) as usize;
        self.gain[clamp(target_life)] - self.cost[clamp(own_life)]
    }

    /// The highest [`SpecialTable::score`] at `target_life` (1..=20) over every own life.
    fn best_at(&self, target_life: usize) -> f32 {
        let least_cost = self.cost[1..].iter().copied().fold(f32::INFINITY, f32::min);
        self.gain[target_life] - least_cost
    }
}

/// The special attacks of a battle.
#[derive(Debug, Clone, Default)]
pub struct Specials {
    units: usize,
    /// `entry[((a * units + t) * 4 + state) * 4 + k]`: index into `tables`, or [`NONE`].
    entry: Vec<u32>,
    pub tables: Vec<SpecialTable>,
    /// Whether each unit has any special attack against anyone.
    pub any: Vec<bool>,
    /// `mask[a * units + t]`: bit k set when special attack k of `a` on `t` exists.
    pub mask: Vec<u8>,
    /// `trample[(a * units + t) * 4 + state]`: the table of `a` trampling rallied member
    /// `t`, or [`NONE`] (§4: an MSV tramples members of one rallied group).
    trample: Vec<u32>,
    /// Whether each unit may trample some rallied member.
    pub group_trample_any: Vec<bool>,
    /// `bound[a * units + t][life]`: above every score of `a`'s special attacks on `t`
    /// at that target life (any own life, fire-control and smoke state, and any
    /// mixture of the fire-control states), so a policy that already holds a score at
    /// least this high may skip them.
    bound: Vec<ByLife>,
}

impl Specials {
    /// Every legal special attack between enemy units, where the attacker reaches.
    pub fn new(
        units: &[BattleUnit],
        conditions: &[Conditions],
        o: &Options,
        value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
    ) -> Specials {
        let n = units.len();
        let mut s = Specials {
            units: n,
            entry: vec![NONE; n * n * 16],
            tables: Vec::new(),
            any: vec![false; n],
            mask: vec![0; n * n],
            trample: vec![NONE; n * n * 4],
            group_trample_any: vec![false; n],
            bound: vec![[f32::NEG_INFINITY; STARTING_LIFE as usize + 1]; n * n],
        };
        // Each distinct table once: twin units share theirs.
        let mut known = HashMap::new();
        for (a, ua) in units.iter().enumerate() {
            for (d, ud) in units.iter().enumerate() {
                if ua.side == ud.side {
                    continue;
                }
                for (k, &mode) in MODES.iter().enumerate() {
                    let base = Conditions { mode, ..conditions[ua.side] };
                    if check(&ua.attacker, &ud.target, &base, o).is_err() {
                        continue;
                    }
                    let special =
                        crate::rules::techcommander::special::Special::from_mode(mode).expect("a special mode");
                    for fc_lost in [false, true] {
                        for smoked in [false, true] {
                            let mut cond = Conditions { jury_rig_failed: fc_lost, ..base };
                            if smoked && cond.smoke == Smoke::None {
                                cond.smoke = Smoke::Smoke;
                            }
                            let odds = state_odds(special, &ua.attacker, &ud.target, &cond, o);
                            let i = s.keep(SpecialTable::new(odds, value(ua, ud, o), value(ua, ua, o)), &mut known);
                            if mode == AttackMode::Trample && ud.rallied {
                                s.trample[(a * n + d) * 4 + state(fc_lost, smoked)] = i;
                                s.group_trample_any[a] = true;
                                continue;
                            }
                            let e = s.index(a, d, state(fc_lost, smoked), k);
                            s.entry[e] = i;
                            let table = &s.tables[i as usize];
                            for (life, b) in s.bound[a * n + d].iter_mut().enumerate().skip(1) {
                                *b = b.max(table.best_at(life));
                            }
                            s.any[a] = true;
                            s.mask[a * n + d] |= 1 << k;
                        }
                    }
                }
            }
        }
        // A mixture w × kept + (1 − w) × lost of two scores at most B is at most B up to
        // rounding: a relative margin far above f32's keeps the bound above it.
        for b in s.bound.iter_mut().flatten() {
            if b.is_finite() {
                *b += b.abs() * 1e-5 + 1e-6;
            }
        }
        s
    }

    /// The index of `table` in `tables`: of an equal table kept before (twin units, or
    /// states that play alike), else of `table`, now kept. One table per distinct law
    /// keeps the tables a battle reads about as many as its kinds of unit, not the
    /// square of its units, so they stay in cache as the forces grow.
    fn keep(&mut self, table: SpecialTable, known: &mut HashMap<Vec<u64>, u32>) -> u32 {
        let key = table.key();
        if let Some(&i) = known.get(&key) {
            return i;
        }
        let i = self.tables.len() as u32;
        self.tables.push(table);
        known.insert(key, i);
        i
    }

    /// Raises every [`Specials::bound`] to at least `other`'s (the same battle's special
    /// attacks at dug-in targets, [`super::variants`]), so one bound covers both.
    pub fn widen_bound(&mut self, other: &Specials) {
        for (b, o) in self.bound.iter_mut().zip(&other.bound) {
            for (x, y) in b.iter_mut().zip(o) {
                *x = x.max(*y);
            }
        }
    }

    /// Adds `extra[a]` to the bound of every pair where `a` may overrun: the most its
    /// overrun's follow-up shot can add to the overrun's score (`OVERRUN_FIRE`).
    pub fn raise_overrun_bound(&mut self, extra: &[f32]) {
        let n = self.units;
        for (a, &add) in extra.iter().enumerate().take(n) {
            for t in 0..n {
                if self.mask[a * n + t] & (1 << OVERRUN) != 0 {
                    for b in self.bound[a * n + t].iter_mut().skip(1) {
                        *b += add;
                    }
                }
            }
        }
    }

    /// Whether `a` may overrun someone.
    pub fn overruns(&self, a: usize) -> bool {
        let n = self.units;
        a < n && (0..n).any(|t| self.mask[a * n + t] & (1 << OVERRUN) != 0)
    }

    #[inline(always)]
    fn index(&self, a: usize, t: usize, state: usize, k: usize) -> usize {
        (((a * self.units + t) * 4 + state) * 4) + k
    }

    /// [`Specials::bound`] of `a` on `t` at `life` (1..=20).
    #[inline(always)]
    pub fn bound(&self, a: usize, t: usize, life: usize) -> f32 {
        self.bound[a * self.units + t][life]
    }

    /// Bits of the special attacks `a` has against `t`.
    #[inline(always)]
    pub fn against(&self, a: usize, t: usize) -> u8 {
        self.mask[a * self.units + t]
    }

    /// The table of `a` trampling rallied member `t` in `state`, or [`NONE`].
    #[inline(always)]
    pub fn trample_entry(&self, a: usize, t: usize, state: usize) -> u32 {
        self.trample.get((a * self.units + t) * 4 + state).copied().unwrap_or(NONE)
    }

    /// The table of special attack `k` of `a` on `t` in `state`, or [`NONE`].
    #[inline(always)]
    pub fn entry(&self, a: usize, t: usize, state: usize, k: usize) -> u32 {
        self.entry[self.index(a, t, state, k)]
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{TestBattle, embedded};

    /// Twin units share their special attacks' tables: 16 Stingrays a side read as many
    /// distinct laws as 2 do (one table per pair of units would give 64 times as many),
    /// and every pair's attack reads the same law as the first pair's.
    #[test]
    fn twin_units_share_their_special_attack_tables() {
        let cat = embedded();
        let laws = |n: usize| {
            let force = format!("{n}*Stingray Standard");
            let g = TestBattle::skirmish(&cat, &force, &force).game();
            let sp = &g.specials;
            let (a0, t0) = (g.side_units[0][0] as usize, g.side_units[1][0] as usize);
            let mut pairs = 0;
            for &a in &g.side_units[0] {
                for &t in &g.side_units[1] {
                    for st in 0..4 {
                        for k in 0..4 {
                            let e = sp.entry(a as usize, t as usize, st, k);
                            assert_eq!(e, sp.entry(a0, t0, st, k), "{n} a side: {a} -> {t}, state {st}, attack {k}");
                            pairs += usize::from(e != super::NONE);
                        }
                    }
                }
            }
            assert!(pairs >= n * n, "the Stingrays make special attacks");
            sp.tables.len()
        };
        let two = laws(2);
        assert!(two > 0);
        assert_eq!(laws(16), two);
    }

    /// The skip bound lies above every score a policy can compute for a special attack:
    /// every own life, fire-control and smoke state, and mixtures by any jury-rig weight.
    #[test]
    fn the_skip_bound_lies_above_every_special_attack_score() {
        let cat = embedded();
        let mut checked = 0;
        let lance = "Gladiator Lancer+Beagle Hunter+Hunter IV Standard";
        let siege = "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT";
        for (a, b) in [(lance, siege), (siege, lance)] {
            let g = TestBattle::skirmish(&cat, a, b).game();
            let sp = &g.specials;
            for at in 0..g.units.len() {
                for t in 0..g.units.len() {
                    for k in (0..4).filter(|&k| sp.against(at, t) & (1 << k) != 0) {
                        for smoked in [false, true] {
                            let kept = &sp.tables[sp.entry(at, t, super::state(false, smoked), k) as usize];
                            let lost = &sp.tables[sp.entry(at, t, super::state(true, smoked), k) as usize];
                            for life in 1..=20 {
                                let bound = sp.bound(at, t, life as usize);
                                for own in 1..=20 {
                                    for w in [0.0f32, 0.05, 0.25, 0.5, 0.55, 0.95, 1.0] {
                                        let score = w * kept.score(life, own) + (1.0 - w) * lost.score(life, own);
                                        assert!(score < bound, "{a} v {b}: {at}->{t} special {k} at {life}/{own}");
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        // The forces do make special attacks (rams at range 12).
        assert!(checked > 10_000, "only {checked} scores checked");
    }
}
