//! The compiled data of the rallied group actions (techcommander-battles.md §2.4, §4):
//! each shot's life-loss law capped at 20, what a target is worth to each attacker, and
//! the whole group's Rallied Attack score by target, in-the-red combination and life
//! ([`Rally`]), built before the first battle; [`super::rally`] plays and scores the
//! actions from them.

use super::tables::{ByLife, NO_SYSTEM, NONE, Tables, Value, Weight, state_of};
use super::units::BattleUnit;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;

pub(super) const FULL: usize = STARTING_LIFE as usize;
/// A life-loss law capped at 20: `law[n]` = P(min(loss, 20) = n), n in 0..=20.
pub type Capped = [f64; FULL + 1];
/// `law` (P(loss = n) by n) capped at 20.
pub(super) fn capped(law: &[f64]) -> Capped {
    let mut c = [0.0; FULL + 1];
    for (n, p) in law.iter().enumerate() {
        c[n.min(FULL)] += p;
    }
    c
}

/// The law of no loss.
pub(super) const NO_LOSS: Capped = {
    let mut l = [0.0; FULL + 1];
    l[0] = 1.0;
    l
};
/// Members whose in-the-red state [`Rally::attack`] covers.
pub const RED_MEMBERS: usize = 3;
/// Members whose choice of system [`Rally::attack`] covers: each fires its best system
/// ([`FIRES_BEST`]), its second ([`FIRES_SECOND`], the best spent) or nothing
/// ([`FIRES_NONE`], the best spent and no other reaches); a later member fires its best.
pub const CHOICE_MEMBERS: usize = 2;
/// A member of [`CHOICE_MEMBERS`] fires its best system at the target.
pub(super) const FIRES_BEST: usize = 0;
/// It fires its second best (the best is spent this turn or dry).
pub(super) const FIRES_SECOND: usize = 1;
/// It fires nothing (the best is spent and no other system reaches the target).
pub(super) const FIRES_NONE: usize = 2;
/// The largest group whose members' choices [`Rally::attack`] holds: each choice
/// multiplies a group's table by 3 and every entry convolves every member, so a larger
/// group's table holds only [`FIRES_BEST`] (its members with their best spent are scored
/// member by member).
pub const CHOICE_GROUP: usize = 3;
/// Choices per member of [`CHOICE_MEMBERS`].
const PER_MEMBER: usize = 3;
/// Weight of member `i`'s choice in an index of choices (member i's choice times 3^i).
#[inline(always)]
pub(super) const fn choice_weight(i: usize) -> usize {
    PER_MEMBER.pow(i as u32)
}

/// Where one side's part of [`Rally::attack`] lies, and its shape.
#[derive(Debug, Clone, Copy, Default)]
pub struct SideTable {
    /// Its first row.
    start: usize,
    /// In-the-red combinations: 2^min(members, [`RED_MEMBERS`]).
    combos: usize,
    /// Combinations of its members' choices of system: 3^min(members,
    /// [`CHOICE_MEMBERS`]) in a group of at most [`CHOICE_GROUP`], else 1.
    pub choices: usize,
}

/// The trample's system index among the special attacks ([`super::specials::MODES`]).
pub const TRAMPLE: usize = 3;
/// A group action is chosen over an equal-scoring earlier candidate only when it beats
/// it by more than this relative margin (the scores are sums of f32 and f64 terms in
/// different orders; the margin keeps a one-member group's Rallied Attack, equal to its
/// member's attack, from displacing it on rounding).
const MARGIN: f32 = 1e-5;

/// Whether `score` beats `best` (if any) by more than [`MARGIN`].
#[inline(always)]
pub fn beats(score: f32, best: Option<f32>) -> bool {
    best.is_none_or(|b| score > b + MARGIN * b.abs().max(1.0))
}

/// The compiled data of the group actions: capped laws of every [`Tables`] entry and
/// what a target is worth to each attacker. Empty when no unit is rallied.
#[derive(Debug, Clone, Default)]
pub struct Rally {
    units: usize,
    /// Per [`Tables`] entry (same index): its law capped at 20.
    pub capped: Vec<Capped>,
    /// `value[a * units + t]`: what destroying and damaging `t` is worth to `a`.
    pub value: Vec<Value>,
    /// `attack[start + (t * combos + red) * choices + choice][life]` (the side's
    /// [`SideTable`], [`Rally::attack_at`]): the
    /// Rallied Attack score of `side`'s whole group at `t` (NaN: nobody can fire at it)
    /// in the common case: every member ready, no smoke on the line, `t`'s gear online
    /// and not dug in, no Moneyshot variants, and each member out of the red or in it
    /// with its jury rig still to roll, `red` holding a bit per member of the second kind
    /// (the first [`RED_MEMBERS`] members only; a member at 0 life or less still fires
    /// until removal, in the red). Each member fires its best system at `t`, except the
    /// first [`CHOICE_MEMBERS`] of a group of at most [`CHOICE_GROUP`], whose choice
    /// ([`FIRES_BEST`], [`FIRES_SECOND`], [`FIRES_NONE`]) `choice` holds, member i's
    /// times [`choice_weight`]`(i)` (0 in a larger group). The same number
    /// [`TcGame::rally_attack_exact`] computes member by member (same order of
    /// operations), read instead when the case holds.
    pub attack: Vec<ByLife>,
    /// Per side, its part of `attack`.
    pub sides: Vec<SideTable>,
}

impl Rally {
    /// Compile from the battle's `tables` (built with the same `value`).
    pub fn new(
        units: &[BattleUnit],
        tables: &Tables,
        o: &Options,
        value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
    ) -> Rally {
        if !units.iter().any(|u| u.rallied) {
            return Rally::default();
        }
        let capped = tables.laws.iter().map(|law| capped(law)).collect();
        let value = units.iter().flat_map(|a| units.iter().map(move |t| value(a, t, o))).collect();
        let n = units.len();
        let sides = units.iter().map(|u| u.side + 1).max().unwrap_or(0);
        let group = |side: usize| (0..n).filter(move |&m| units[m].side == side && units[m].rallied);
        let mut start = 0;
        let layout = (0..sides)
            .map(|side| {
                let members = group(side).count();
                let combos = 1 << members.min(RED_MEMBERS);
                let choices =
                    if members <= CHOICE_GROUP { PER_MEMBER.pow(members.min(CHOICE_MEMBERS) as u32) } else { 1 };
                let table = SideTable { start, combos, choices };
                start += n * combos * choices;
                table
            })
            .collect();
        let mut r = Rally { units: n, capped, value, attack: vec![[f32::NAN; FULL + 1]; start], sides: layout };
        if tables.any_moneyshot {
            return r;
        }
        let jury = super::tables::jury_ok(o);
        let red_weight = if jury >= 1.0 { Weight::Kept } else { Weight::Mixed };
        let clear = state_of(false, false, false);
        for side in 0..sides {
            let members: Vec<usize> = group(side).collect();
            let SideTable { combos, choices, .. } = r.sides[side];
            for t in (0..n).filter(|&t| units[t].side != side) {
                for (red, choice) in (0..combos).flat_map(|red| (0..choices).map(move |c| (red, c))) {
                    for life in 1..=FULL {
                        let mut acc = NO_LOSS;
                        let mut any = None;
                        for (i, &m) in members.iter().enumerate() {
                            let w = if red & (1 << i) != 0 { red_weight } else { Weight::Kept };
                            let fires =
                                if i < CHOICE_MEMBERS { choice / choice_weight(i) % PER_MEMBER } else { FIRES_BEST };
                            // FIRES_BEST and FIRES_SECOND index the ranked pair.
                            let (sys, _) = match fires {
                                FIRES_NONE => continue,
                                k => tables.ranked(m, t, w, clear, life)[k],
                            };
                            if sys == NO_SYSTEM {
                                continue;
                            }
                            // TcGame::member_law's arithmetic.
                            let kept = r.capped[tables.entry(m, t, clear, sys as usize) as usize];
                            let law = if w == Weight::Kept {
                                kept
                            } else {
                                let e = tables.entry(m, t, state_of(true, false, false), sys as usize);
                                let lost = if e == NONE { NO_LOSS } else { r.capped[e as usize] };
                                let w = jury as f64;
                                std::array::from_fn(|k| w * kept[k] + (1.0 - w) * lost[k])
                            };
                            convolve(&mut acc, &law, life);
                            any = any.or(Some(m));
                        }
                        if let Some(m) = any {
                            let row = r.row(side, t, red * choices + choice);
                            r.attack[row][life] = score_of(&acc, life, r.value(m, t)) as f32;
                        }
                    }
                }
            }
        }
        r
    }

    /// The row of [`Rally::attack`] of `side`'s group at `t` in `case` (the in-the-red
    /// combination times the side's choices, plus its choice).
    #[inline(always)]
    fn row(&self, side: usize, t: usize, case: usize) -> usize {
        let st = &self.sides[side];
        st.start + t * st.combos * st.choices + case
    }

    /// [`Rally::attack`] of `side`'s group at `t` (at `life`, 1..=20) in `case`
    /// ([`TcGame::common_case_at`]).
    #[inline(always)]
    pub fn attack_at(&self, side: usize, t: usize, case: usize, life: usize) -> f32 {
        self.attack[self.row(side, t, case)][life]
    }

    /// What destroying and damaging `t` is worth to `a`.
    #[inline(always)]
    pub(super) fn value(&self, a: usize, t: usize) -> Value {
        self.value[a * self.units + t]
    }
}

/// `acc` ← the law of the sum of `acc` and `law`, both capped at `cap`.
#[inline(always)]
pub(super) fn convolve(acc: &mut Capped, law: &Capped, cap: usize) {
    // Only the supports: the terms skipped are products with 0.
    let top = |l: &Capped| l.iter().rposition(|&p| p != 0.0).unwrap_or(0);
    let (acc_top, law_top) = (top(acc).min(cap), top(law));
    let mut out = [0.0; FULL + 1];
    for (i, &p) in acc.iter().enumerate().take(acc_top + 1) {
        if p == 0.0 {
            continue;
        }
        for (j, &q) in law.iter().enumerate().take(law_top + 1) {
            if q != 0.0 {
                out[(i + j).min(cap)] += p * q;
            }
        }
    }
    *acc = out;
}

/// §2.7's score of a life-loss law (capped at or above `life`) against a target at
/// `life` worth `v`.
#[inline(always)]
pub(super) fn score_of(law: &Capped, life: usize, v: Value) -> f64 {
    let kill: f64 = law[life..].iter().sum();
    let e_min: f64 = law.iter().enumerate().map(|(n, p)| n.min(life) as f64 * p).sum();
    let per_kill = v.kill + if life == FULL { v.kill_from_full } else { 0.0 };
    per_kill * kill + v.damage * e_min / STARTING_LIFE as f64
}
