//! Duels (§4 "Duel"): A and B each in the other's arc, shots alternating. Round 1: the
//! leading side pays an arc; the other activates and is attacked once. Every later round:
//! the leading side activates and the other attacks it, then the other activates and the
//! leader attacks it. A shooter fires only while its current AP pays its arc (melee: 5
//! AP) and with its current Mods. Shots alternate, so there is no mutual kill; the round
//! cap is a draw. The exact chain runs over the pair of card states; Monte Carlo samples
//! the same counts with one draw per attack: the kernel ([`Kernel::play`]) through
//! [`Lanes`], several duels side by side, and [`Duel::play_one`] one duel at a time
//! through the graphs (the paired kernel's duel).

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::conditions::Conditions;
pub use super::duel_side::{DuelSide, First};
use super::graph::Graph;
use super::lanes::Lanes;
use super::law::{Law, law};
use super::options::Options;
use super::setup::{card, with_conditions};
use super::tn::{reaches_with_any, target_number};
use super::track::fresh;
use super::trooper::Trooper;
use super::weapon::{Use, Weapon};
use crate::engine::Kernel;
use crate::stats::DuelTally;

/// Largest pair-state count the exact duel steps through.
const MAX_PAIRS: usize = 4_000_000;

/// The exact outcome of a duel, by round.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactDuel {
    pub a_by_round: Vec<f64>,
    pub b_by_round: Vec<f64>,
    pub p_a_wins: f64,
    pub p_b_wins: f64,
    /// Both in the fight at the cap.
    pub p_undecided: f64,
}

/// A compiled duel.
#[derive(Debug, Clone, PartialEq)]
pub struct Duel {
    pub a: DuelSide,
    pub b: DuelSide,
    pub first: First,
    pub max_rounds: u32,
    /// The Monte Carlo kernel's tables, compiled from the two graphs.
    pub(super) lanes: Lanes,
}

/// The duel weapon of `x` at these conditions and its TN at Mods 0: its first primary,
/// else its secondary, that is an arc or melee weapon and reaches. `None` when no weapon
/// of `x` reaches at all ([`reaches_with_any`], grenade included): `x` cannot attack,
/// fires nothing and never scores, but is still a target (the commands flag such a side
/// through `can_attack`).
///
/// # Errors
/// Some weapon of `x` reaches, but none a duel plays (a launcher or grenade only).
fn weapon(x: &Trooper, c: &Conditions, sneak: bool, o: &Options) -> Result<Option<(Weapon, i32)>, String> {
    let fresh_ap = x.max_ap(0);
    let cands = x.primaries.iter().chain(x.secondary.iter());
    let mut why = Vec::new();
    for w in cands {
        if !matches!(w.usage(), Use::Arc { .. } | Use::Melee) {
            why.push(format!("{}: duels play arc and melee weapons", w.name));
            continue;
        }
        match target_number(w, c, sneak, 0, fresh_ap, o) {
            Ok(tn) => return Ok(Some((w.clone(), tn))),
            Err(e) => why.push(e),
        }
    }
    if !reaches_with_any(x, c, sneak, o) {
        return Ok(None);
    }
    Err(format!("{} has no weapon for this duel: {}", x.name, why.join("; ")))
}

/// The laws of `x` firing `w` (TN `tn0` at Mods 0) at each of its columns, and which law
/// each column fires (`None`: cannot pay the attack). Without a weapon: no law, and no
/// column fires.
fn laws_of(x: &Trooper, w: Option<&(Weapon, i32)>, o: &Options) -> (Vec<Law>, Vec<Option<u8>>) {
    let Some((w, tn0)) = w else {
        return (Vec::new(), vec![None; x.track.cells() + 1]);
    };
    let tn0 = *tn0;
    let cost = match w.usage() {
        Use::Arc { crew: true, .. } => o.int("CREW_ARC_AP") as i32,
        Use::Melee => 5,
        _ => 2,
    };
    let mut laws: Vec<Law> = Vec::new();
    let mut fire = Vec::new();
    for col in 0..=x.track.cells() {
        let ap = x.max_ap(col);
        if x.track.out_column(col) || ap < cost {
            fire.push(None);
            continue;
        }
        let l = law(w, tn0 + x.track.mods(col), ap, o);
        let i = laws.iter().position(|y| *y == l).unwrap_or_else(|| {
            laws.push(l);
            laws.len() - 1
        });
        fire.push(Some(i as u8));
    }
    (laws, fire)
}

impl Duel {
    /// Compile a duel of `a` and `b` (conditions apply to both as firer and target).
    ///
    /// A side none of whose weapons reaches gets no weapon (see [`weapon`]): it never
    /// fires, and the other side plays against a target that never shoots back.
    ///
    /// # Errors
    /// A side whose only weapons in reach are ones a duel does not play (launchers,
    /// grenades), or cards too large to play.
    pub fn new(a: &Trooper, b: &Trooper, c: &Conditions, o: &Options, max_rounds: u32) -> Result<Duel, String> {
        o.validate()?;
        let (a, b) = (with_conditions(a, c, true), with_conditions(b, c, true));
        let wa = weapon(&a, c, b.sneak_suit || c.sneak_suit, o)?;
        let wb = weapon(&b, c, a.sneak_suit || c.sneak_suit, o)?;
        let (la, fa) = laws_of(&a, wa.as_ref(), o);
        let (lb, fb) = laws_of(&b, wb.as_ref(), o);
        let ga = Graph::build(card(&a, o), fresh(a.armour_cells()), &lb)?;
        let gb = Graph::build(card(&b, o), fresh(b.armour_cells()), &la)?;
        let first = match o.choice("FIRST_SIDE") {
            "a" => First::A,
            "b" => First::B,
            _ => First::Random,
        };
        let mut duel = Duel {
            a: DuelSide { name: a.name.clone(), weapon: wa.map(|w| w.0.name), graph: ga, fire: fa },
            b: DuelSide { name: b.name.clone(), weapon: wb.map(|w| w.0.name), graph: gb, fire: fb },
            first,
            max_rounds: max_rounds.max(1),
            lanes: Lanes::default(),
        };
        duel.lanes = Lanes::new(&duel.a, &duel.b)?;
        Ok(duel)
    }

    /// One duel: (winner: 1 = A, 2 = B, 0 = draw at the cap, round index). One draw per
    /// attack made (none when the firer's AP cannot pay), one more under `FIRST_SIDE`
    /// random; the paired kernel replays it. Same law as the [`Kernel`], other draws.
    #[inline]
    pub fn play_one<R: Rng + ?Sized>(&self, rng: &mut R) -> (u8, usize) {
        let a_leads = match self.first {
            First::A => true,
            First::B => false,
            First::Random => rng.next_u64() & 1 == 0,
        };
        let (mut sa, mut sb) = (0usize, 0usize);
        // Returns true when the shot put the target out.
        let mut shoot = |from_a: bool, rng: &mut R| -> bool {
            let (x, y, sx, sy) = if from_a { (&self.a, &self.b, sa, &mut sb) } else { (&self.b, &self.a, sb, &mut sa) };
            match x.fire[x.graph.cols[sx] as usize] {
                Some(l) => {
                    *sy = y.graph.sample(l as usize, *sy, rng);
                    y.graph.out[*sy]
                }
                None => false,
            }
        };
        for r in 0..self.max_rounds as usize {
            if r > 0 && shoot(!a_leads, rng) {
                return (if a_leads { 2 } else { 1 }, r);
            }
            if shoot(a_leads, rng) {
                return (if a_leads { 1 } else { 2 }, r);
            }
        }
        (0, self.max_rounds as usize - 1)
    }

    /// The exact outcome (`None` when the pair of cards is too large).
    pub fn exact(&self) -> Option<ExactDuel> {
        let one = |a_leads: bool| self.exact_order(a_leads);
        match self.first {
            First::A => one(true),
            First::B => one(false),
            First::Random => {
                let (x, y) = (one(true)?, one(false)?);
                let avg = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(p, q)| (p + q) / 2.0).collect::<Vec<f64>>();
                Some(ExactDuel {
                    a_by_round: avg(&x.a_by_round, &y.a_by_round),
                    b_by_round: avg(&x.b_by_round, &y.b_by_round),
                    p_a_wins: (x.p_a_wins + y.p_a_wins) / 2.0,
                    p_b_wins: (x.p_b_wins + y.p_b_wins) / 2.0,
                    p_undecided: (x.p_undecided + y.p_undecided) / 2.0,
                })
            }
        }
    }

    /// The exact P(A wins | A leads) and P(A wins | B leads), each `None` where
    /// `FIRST_SIDE` never lets that side lead or the pair of cards is too large.
    pub fn exact_split(&self) -> (Option<f64>, Option<f64>) {
        let one = |a_leads: bool| self.exact_order(a_leads).map(|e| e.p_a_wins);
        match self.first {
            First::A => (one(true), None),
            First::B => (None, one(false)),
            First::Random => (one(true), one(false)),
        }
    }

    /// Whether [`Duel::exact`] gives an outcome, decided without solving: the pair of
    /// card graphs has at most [`MAX_PAIRS`] states.
    pub fn solvable(&self) -> bool {
        self.a.graph.len().checked_mul(self.b.graph.len()).is_some_and(|n| n <= MAX_PAIRS)
    }

    fn exact_order(&self, a_leads: bool) -> Option<ExactDuel> {
        if !self.solvable() {
            return None;
        }
        let (na, nb) = (self.a.graph.len(), self.b.graph.len());
        let mut p = vec![0.0f64; na * nb];
        p[0] = 1.0;
        let rounds = self.max_rounds as usize;
        let (mut a_by, mut b_by) = (vec![0.0; rounds], vec![0.0; rounds]);
        for r in 0..rounds {
            for from_a in [!a_leads, a_leads] {
                if r == 0 && from_a != a_leads {
                    continue;
                }
                let mut q = vec![0.0f64; na * nb];
                let mut won = 0.0;
                for i in 0..na {
                    for j in 0..nb {
                        let m = p[i * nb + j];
                        if m == 0.0 {
                            continue;
                        }
                        let (x, y, sx, sy) = if from_a { (&self.a, &self.b, i, j) } else { (&self.b, &self.a, j, i) };
                        let Some(l) = x.fire[x.graph.cols[sx] as usize] else {
                            q[i * nb + j] += m;
                            continue;
                        };
                        for (t, n) in y.graph.edges(l as usize, sy) {
                            let mass = m * n as f64 / super::law::TOTAL as f64;
                            if y.graph.out[t] {
                                won += mass;
                            } else if from_a {
                                q[i * nb + t] += mass;
                            } else {
                                q[t * nb + j] += mass;
                            }
                        }
                    }
                }
                if from_a {
                    a_by[r] += won;
                } else {
                    b_by[r] += won;
                }
                p = q;
            }
        }
        let (pa, pb) = (a_by.iter().sum::<f64>(), b_by.iter().sum::<f64>());
        Some(ExactDuel { a_by_round: a_by, b_by_round: b_by, p_a_wins: pa, p_b_wins: pb, p_undecided: p.iter().sum() })
    }
}

impl Kernel for Duel {
    type Tally = DuelTally;
    fn new_tally(&self) -> DuelTally {
        DuelTally::new(self.max_rounds as usize)
    }
    /// Duels side by side through [`Lanes`]: one draw per attack (see there).
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut DuelTally) {
        self.lanes.play(self.first, self.max_rounds, rng, trials, tally);
    }
}

impl crate::rules::kit::replay_paired::Replayable for Duel {
    fn a_wins(&self, rng: &mut Xoshiro256PlusPlus) -> bool {
        self.play_one(rng).0 == 1
    }
}
