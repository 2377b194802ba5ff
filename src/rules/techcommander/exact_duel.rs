//! The exact outcome of a duel: a finite Markov chain played exactly as
//! [`Duel::play_with`] plays it (module docs of [`super::duel`]).
//!
//! State: each side's life (0..=20; life at or below 0 is kept as 0, since an eliminated
//! unit's further losses change nothing), each side's rounds left per system, the
//! systems it fired this turn, this turn's jury-rig result (with one roll per turn), and
//! the bubble shields' state: the life of the shield covering each side (0..=20, 0 for
//! none), the shields it has left, and whether it dropped, lost or left one this turn.
//! Within a turn the order of actions is fixed once initiative is known: P(A acts first)
//! is exactly 1/2 (two d20, ties rerolled, lowest first). Each action: a unit in the red
//! (its life <= `IN_THE_RED_LIFE`, eliminated included) loses fire control with
//! probability (20 − `JURY_RIG_SUCCESS_MAX`)/20; the policy's ranking for that
//! fire-control state picks the system (rounds left, not fired this turn); Moneyshot's
//! table applies once the target's life is at most the system's threshold; the target
//! loses life by the action's exact law (capped at 20, as the sampler caps it). Bubble
//! shields move as the Monte Carlo moves them (module docs of [`super::duel`]): a side
//! that fires leaves its shield unless it sorties; a target with none covering it drops
//! one while it may; an attack at a covered target moves the shield's life by the
//! attack's law at the shield (its overflow lost), or the unit's life when the attacker
//! bypasses the shield. After the turn: both at 0 a draw (mutual kill), one at 0 loses,
//! else power armour resets life to 20 and a standing shield is back at 20. Mass left
//! after the turn cap is a timeout (a draw).
//!
//! The distribution is carried as one 21 × 21 life grid per discrete context (rounds,
//! systems fired, jury-rig results), so the work per action is contexts × 441 × (life
//! outcomes) floating-point operations; a duel whose systems all have unlimited rounds
//! has a handful of contexts.

use std::collections::HashMap;

use foldhash::fast::FixedState;

use super::compiled::{CompiledSide, FC_LOST, FC_NORMAL, MAX_SYSTEMS, MONEYSHOT, TABLES};
use super::duel::Duel;
use super::policy::{UNLIMITED, choose};
use super::rulings::{DIE_SIDES, SHIELD_LIFE, STARTING_LIFE};
use crate::stats::ExactDuelOdds;

/// Lives 0..=20 per side.
const LIVES: usize = STARTING_LIFE as usize + 1;
/// One life grid: index `life_a * LIVES + life_b`.
const GRID: usize = LIVES * LIVES;

/// The exact law of a duel's outcome, turn by turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactDuel {
    /// P(A wins on turn t+1), t < the turn cap.
    pub a_wins_by_turn: Vec<f64>,
    /// P(B wins on turn t+1).
    pub b_wins_by_turn: Vec<f64>,
    /// P(both eliminated on turn t+1).
    pub mutual_by_turn: Vec<f64>,
    /// P(both alive after the turn cap).
    pub p_timeout: f64,
}

impl ExactDuel {
    pub fn p_a_wins(&self) -> f64 {
        self.a_wins_by_turn.iter().sum()
    }
    pub fn p_b_wins(&self) -> f64 {
        self.b_wins_by_turn.iter().sum()
    }
    pub fn p_mutual_kill(&self) -> f64 {
        self.mutual_by_turn.iter().sum()
    }
    /// The four outcomes: A wins, B wins, mutual kill, timeout.
    pub fn odds(&self) -> ExactDuelOdds {
        ExactDuelOdds {
            p_a_wins: self.p_a_wins(),
            p_b_wins: self.p_b_wins(),
            p_mutual: self.p_mutual_kill(),
            p_timeout: self.p_timeout,
        }
    }
    /// E[turns played], a timeout counting as the turn cap.
    pub fn mean_turns(&self) -> f64 {
        let cap = self.a_wins_by_turn.len();
        let ended: f64 = (0..cap)
            .map(|t| (t + 1) as f64 * (self.a_wins_by_turn[t] + self.b_wins_by_turn[t] + self.mutual_by_turn[t]))
            .sum();
        ended + cap as f64 * self.p_timeout
    }
}

/// The discrete part of a state (everything but the two lives).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Context {
    rounds: [[u16; MAX_SYSTEMS]; 2],
    /// Systems fired this turn (bit masks).
    used: [u32; 2],
    /// This turn's jury-rig result with one roll per turn: 0 not rolled, 1 failed,
    /// 2 succeeded. Always 0 with one roll per action.
    jury: [u8; 2],
    /// The life of the bubble shield covering each side, 0..=20 (0: none covers it).
    cover: [u8; 2],
    /// Bubble shields each side has left to drop.
    spare: [u32; 2],
    /// Each side dropped, lost or left a shield this turn, so it drops no other before
    /// the next.
    settled: [bool; 2],
}

/// Life grids by context, in the order they were first reached (the order every sum
/// runs in; the index only finds a context's grid, with a fast unseeded hash).
#[derive(Default)]
struct Layer {
    contexts: Vec<Context>,
    grids: Vec<[f64; GRID]>,
    index: HashMap<Context, usize, FixedState>,
}

impl Layer {
    /// The grid of `c`, created empty when new.
    fn slot(&mut self, c: Context) -> usize {
        if let Some(&i) = self.index.get(&c) {
            return i;
        }
        self.contexts.push(c);
        self.grids.push([0.0; GRID]);
        self.index.insert(c, self.contexts.len() - 1);
        self.contexts.len() - 1
    }
}

/// What one action does from a context, for one fire-control outcome.
struct Branch {
    /// P(this fire-control outcome).
    p: f64,
    /// The context after the action (an index into the next layer).
    next: usize,
    /// What the action does to the target's life.
    fire: Fire,
}

/// An action's effect on the target's life.
#[derive(Clone, Copy)]
enum Fire {
    /// None: the side is idle, or its attack went to the shield (whose new life is in
    /// the branch's context) or could not hurt it.
    Nothing,
    /// System `s` fired at the unit from action table `fc` (a fire-control state), by
    /// the side's own laws or, while a shield covers the target and the side bypasses
    /// it (`covered`), by its laws compiled for that.
    Unit { s: u8, fc: usize, covered: bool },
}

/// The life one action takes, capped at 20.
struct Law {
    /// `tail[t]` = P(t or more life lost): a target with t life falls.
    tail: [f64; LIVES + 1],
    /// `moves[t][j]` = P(a target with t life is left with j > 0), i.e. P(t − j life
    /// lost), for 1 <= j <= t; 0 elsewhere (j = 0 and j > t). A row is added whole to a
    /// fixed-size accumulator: the zeros add +0.0, which leaves every sum's bits as the
    /// sparse sum's (all terms are nonnegative), while the loop keeps its accumulator in
    /// registers.
    moves: Box<[[f64; LIVES]; LIVES]>,
}

impl Law {
    fn new(capped: Vec<f64>) -> Law {
        let mut tail = [0.0; LIVES + 1];
        for t in (0..LIVES).rev() {
            tail[t] = tail[t + 1] + capped.get(t).copied().unwrap_or(0.0);
        }
        let mut moves = Box::new([[0.0; LIVES]; LIVES]);
        for (t, row) in moves.iter_mut().enumerate() {
            for (j, m) in row.iter_mut().enumerate().take(t + 1).skip(1) {
                *m = capped.get(t - j).copied().unwrap_or(0.0);
            }
        }
        Law { tail, moves }
    }
}

/// The target's life after one shot from the states `row` (by the target's life) times
/// `p`, the shot's law at target life t being `law(t)`. An eliminated target stays
/// eliminated. Every sum runs in the order of the sparse loop (target life ascending);
/// the rows of [`Law::moves`] add exact zeros beside it, which change no bit.
fn fire<'l>(row: &[f64; LIVES], p: f64, law: impl Fn(usize) -> &'l Law) -> [f64; LIVES] {
    let mut acc = [0.0; LIVES];
    acc[0] = row[0] * p;
    for (t, &r) in row.iter().enumerate().skip(1) {
        let q = r * p;
        if q == 0.0 {
            continue;
        }
        let l = law(t);
        acc[0] += q * l.tail[t];
        for (a, &m) in acc.iter_mut().zip(&l.moves[t]).skip(1) {
            *a += q * m;
        }
    }
    acc
}

/// Life lost per (table, system) for one side; `None` where the system cannot fire (or,
/// against a shield, cannot hurt it).
type SideLaws = [Vec<Option<Law>>; TABLES];

/// Life lost per side: at the other unit, and at it while a shield covers it (at the
/// shield, or at the unit when the side bypasses it; `None` when the other has none).
struct Laws {
    plain: [SideLaws; 2],
    covered: [Option<SideLaws>; 2],
}

/// The laws of `side`'s systems, each capped at 20 life.
fn side_laws(side: &CompiledSide) -> SideLaws {
    let full = STARTING_LIFE as usize;
    side.specs.clone().map(|table| {
        table
            .iter()
            .map(|spec| {
                spec.as_ref().map(|s| {
                    let mut pmf = vec![0.0; LIVES];
                    for (d, p) in s.odds().life_lost.into_iter().enumerate() {
                        pmf[d.min(full)] += p;
                    }
                    Law::new(pmf)
                })
            })
            .collect()
    })
}

impl Duel {
    /// The duel's exact outcome law (module docs), bubble shields included.
    pub fn exact(&self) -> ExactDuel {
        self.exact_given(None)
    }

    /// The exact outcome law given that side `first` (0: A, 1: B) won turn 1's
    /// initiative (acted first in turn 1; later turns roll as usual): the initiative
    /// split's conditional laws. Each is the law over duels in that order, so
    /// [`Duel::exact`] is their average.
    pub fn exact_first(&self, first: usize) -> ExactDuel {
        self.exact_given(Some(first))
    }

    /// [`Duel::exact`] (`first` `None`: each turn's order fair) or [`Duel::exact_first`].
    fn exact_given(&self, first: Option<usize>) -> ExactDuel {
        let full = STARTING_LIFE as usize;
        let laws = Laws {
            plain: [0, 1].map(|side| side_laws(&self.sides[side])),
            covered: [0, 1].map(|side| self.covered[side].as_ref().map(side_laws)),
        };
        let apt = [self.sides[0].actions_per_turn, self.sides[1].actions_per_turn];
        let order = |first: usize| {
            let (mut left, mut who, mut seq) = (apt, first, Vec::new());
            while left[0] + left[1] > 0 {
                if left[who] == 0 {
                    who = 1 - who;
                    continue;
                }
                left[who] -= 1;
                seq.push(who);
                who = 1 - who;
            }
            seq
        };
        let orders = [order(0), order(1)];
        let fails = DIE_SIDES.saturating_sub(self.jury_rig_success_max.min(DIE_SIDES));
        let q = fails as f64 / DIE_SIDES as f64;

        let cap = self.max_turns as usize;
        let mut law = ExactDuel {
            a_wins_by_turn: vec![0.0; cap],
            b_wins_by_turn: vec![0.0; cap],
            mutual_by_turn: vec![0.0; cap],
            p_timeout: 0.0,
        };
        let mut start = Layer::default();
        let s0 = start.slot(Context {
            rounds: [self.sides[0].rounds, self.sides[1].rounds],
            used: [0; 2],
            jury: [0; 2],
            cover: [0; 2],
            spare: self.shields,
            settled: [false; 2],
        });
        start.grids[s0][full * LIVES + full] = 1.0;
        for turn in 0..cap {
            let mut next_start = Layer::default();
            for (order, seq) in orders.iter().enumerate() {
                // Each order with probability 1/2, or turn 1's given order for sure.
                let weight = match first {
                    Some(f) if turn == 0 => {
                        if order != f {
                            continue;
                        }
                        1.0
                    }
                    _ => 0.5,
                };
                let mut layer = Layer::default();
                for (c, g) in start.contexts.iter().zip(&start.grids) {
                    let i = layer.slot(*c);
                    for (x, y) in layer.grids[i].iter_mut().zip(g.iter()) {
                        *x += weight * y;
                    }
                }
                for &who in seq {
                    layer = self.step(&layer, who, q, &laws);
                }
                for (c, g) in layer.contexts.iter().zip(&layer.grids) {
                    let mut survivors = None;
                    for a in 0..LIVES {
                        for b in 0..LIVES {
                            let p = g[a * LIVES + b];
                            if p == 0.0 {
                                continue;
                            }
                            match (a == 0, b == 0) {
                                (true, true) => law.mutual_by_turn[turn] += p,
                                (false, true) => law.a_wins_by_turn[turn] += p,
                                (true, false) => law.b_wins_by_turn[turn] += p,
                                (false, false) => {
                                    let i = *survivors.get_or_insert_with(|| {
                                        // A shield still covering its side is back at 20.
                                        let cover = c.cover.map(|l| if l > 0 { SHIELD_LIFE as u8 } else { 0 });
                                        let settled = [false; 2];
                                        next_start.slot(Context { used: [0; 2], jury: [0; 2], cover, settled, ..*c })
                                    });
                                    let a2 = if self.power_armor[0] { full } else { a };
                                    let b2 = if self.power_armor[1] { full } else { b };
                                    next_start.grids[i][a2 * LIVES + b2] += p;
                                }
                            }
                        }
                    }
                }
            }
            start = next_start;
        }
        law.p_timeout = start.grids.iter().map(|g| g.iter().sum::<f64>()).sum();
        law
    }

    /// One action of side `who` from every state of `layer`; `q` = P(a jury rig fails).
    fn step(&self, layer: &Layer, who: usize, q: f64, laws: &Laws) -> Layer {
        let side = &self.sides[who];
        let mut out = Layer::default();
        for (c, grid) in layer.contexts.iter().zip(&layer.grids) {
            // Whether any mass is out of the red, in the red (no empty contexts made).
            let in_red = |own: usize| own as i32 <= self.in_the_red_life;
            let mass = |red: bool| {
                (0..LIVES).filter(|&own| in_red(own) == red).any(|own| {
                    (0..LIVES).any(|t| grid[if who == 0 { own * LIVES + t } else { t * LIVES + own }] != 0.0)
                })
            };
            let (any_calm, any_red) = (mass(false), mass(true));
            // Fire-control outcomes out of the red, then in the red.
            let mut branches = |p: f64, fc: usize, jury: u8| -> Vec<Branch> {
                let mut n = *c;
                n.jury[who] = jury;
                let Some(s) = choose(&side.ranking[fc], c.used[who], &c.rounds[who]) else {
                    return vec![Branch { p, next: out.slot(n), fire: Fire::Nothing }];
                };
                n.used[who] |= 1 << s;
                if n.rounds[who][s as usize] != UNLIMITED {
                    n.rounds[who][s as usize] -= 1;
                }
                let d = 1 - who;
                // The shields' moves before the attack, as `Duel::play_with` makes them:
                // a covered side leaves its shield to fire unless it sorties; a target
                // with none covering it drops one while any is left and it may.
                if n.cover[who] > 0 && !self.sorties[who] {
                    (n.cover[who], n.settled[who]) = (0, true);
                }
                if n.cover[d] == 0 && n.spare[d] > 0 && !n.settled[d] {
                    (n.cover[d], n.spare[d], n.settled[d]) = (SHIELD_LIFE as u8, n.spare[d] - 1, true);
                }
                if n.cover[d] == 0 {
                    return vec![Branch { p, next: out.slot(n), fire: Fire::Unit { s, fc, covered: false } }];
                }
                let covered = laws.covered[who].as_ref().expect("a shield's attackers are compiled");
                if self.bypass[who] {
                    let fire = if covered[fc][s as usize].is_some() {
                        Fire::Unit { s, fc, covered: true }
                    } else {
                        Fire::Nothing
                    };
                    return vec![Branch { p, next: out.slot(n), fire }];
                }
                // At the shield: the target's life is untouched; the shield's, in the
                // context, moves by the attack's law at it (Moneyshot reading its life).
                let at = self.covered[who].as_ref().expect("a shield's attackers are compiled");
                let life = n.cover[d] as usize;
                let boosted = life as i32 <= at.moneyshot_life[s as usize];
                let law = boosted.then(|| covered[fc + MONEYSHOT][s as usize].as_ref()).flatten();
                let Some(law) = law.or(covered[fc][s as usize].as_ref()) else {
                    return vec![Branch { p, next: out.slot(n), fire: Fire::Nothing }];
                };
                let mut to = |left: usize, q: f64| {
                    let mut m = n;
                    m.cover[d] = left as u8;
                    m.settled[d] |= left == 0;
                    Branch { p: p * q, next: out.slot(m), fire: Fire::Nothing }
                };
                let mut split = Vec::new();
                if law.tail[life] > 0.0 {
                    split.push(to(0, law.tail[life]));
                }
                for (left, &q) in law.moves[life].iter().enumerate().take(life + 1).skip(1) {
                    if q > 0.0 {
                        split.push(to(left, q));
                    }
                }
                split
            };
            let calm: Vec<Branch> = if any_calm { branches(1.0, FC_NORMAL, c.jury[who]) } else { Vec::new() };
            let red: Vec<Branch> = if !any_red {
                Vec::new()
            } else if self.jury_rig_per_action || c.jury[who] == 0 {
                let (fail, ok) = if self.jury_rig_per_action { (0, 0) } else { (1, 2) };
                [(1.0 - q, FC_NORMAL, ok), (q, FC_LOST, fail)]
                    .into_iter()
                    .filter(|b| b.0 > 0.0)
                    .flat_map(|(p, fc, j)| branches(p, fc, j))
                    .collect()
            } else if c.jury[who] == 1 {
                branches(1.0, FC_LOST, 1)
            } else {
                branches(1.0, FC_NORMAL, 2)
            };
            for own in 0..LIVES {
                let branches: &[Branch] = if in_red(own) { &red } else { &calm };
                let at = |t: usize| if who == 0 { own * LIVES + t } else { t * LIVES + own };
                // The states with this own life, by the target's life.
                let mut row = [0.0; LIVES];
                for (t, r) in row.iter_mut().enumerate() {
                    *r = grid[at(t)];
                }
                if row.iter().all(|&p| p == 0.0) {
                    continue;
                }
                for br in branches {
                    let acc = match br.fire {
                        Fire::Nothing => row.map(|r| r * br.p),
                        Fire::Unit { s, fc, covered } => {
                            let (set, threshold) = if covered {
                                let at = self.covered[who].as_ref().expect("a shield's attackers are compiled");
                                (laws.covered[who].as_ref().expect("compiled with it"), at.moneyshot_life[s as usize])
                            } else {
                                (&laws.plain[who], side.moneyshot_life[s as usize])
                            };
                            let law = |table: usize| set[table][s as usize].as_ref();
                            let plain = law(fc).expect("ranked systems can fire");
                            let boosted = law(fc + MONEYSHOT);
                            fire(&row, br.p, |t| match boosted {
                                Some(b) if t as i32 <= threshold => b,
                                _ => plain,
                            })
                        }
                    };
                    let g = &mut out.grids[br.next];
                    for (t, a) in acc.iter().enumerate() {
                        g[at(t)] += a;
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A uniform draw in [0, 1).
    fn u(rng: &mut impl Rng) -> f64 {
        (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// The sparse loop `fire` replaced: each life-lost outcome added where it lands.
    fn sparse(row: &[f64; LIVES], p: f64, pmf: &[f64], tail: &[f64; LIVES + 1]) -> [f64; LIVES] {
        let mut acc = [0.0; LIVES];
        acc[0] = row[0] * p;
        for t in 1..LIVES {
            let q = row[t] * p;
            if q == 0.0 {
                continue;
            }
            acc[0] += q * tail[t];
            for (d, &pd) in pmf.iter().enumerate().take(t) {
                acc[t - d] += q * pd;
            }
        }
        acc
    }

    #[test]
    fn a_shot_moves_every_state_bit_for_bit_as_the_sparse_loop() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        for case in 0..2000 {
            // A law with gaps and a support of 1 to 21 outcomes; rows with zeros.
            let support = 1 + case % LIVES;
            let mut capped: Vec<f64> =
                (0..LIVES).map(|d| if d < support && u(&mut rng) < 0.7 { u(&mut rng) } else { 0.0 }).collect();
            let total: f64 = capped.iter().sum();
            if total == 0.0 {
                capped[0] = 1.0;
            } else {
                capped.iter_mut().for_each(|x| *x /= total);
            }
            let law = Law::new(capped.clone());
            let mut pmf = capped;
            while pmf.last() == Some(&0.0) {
                pmf.pop();
            }
            let row: [f64; LIVES] = std::array::from_fn(|_| if u(&mut rng) < 0.5 { u(&mut rng) } else { 0.0 });
            let p = u(&mut rng);
            let want = sparse(&row, p, &pmf, &law.tail);
            let got = fire(&row, p, |_| &law);
            assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "case {case}");
        }
    }
}
