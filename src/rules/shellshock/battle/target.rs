//! Targeting policies (§5: "each gunner picks a target by the scenario's targeting
//! policy"; the book leaves targeting to the player). A gunner picks in the Targeting
//! Phase, before any shot of the turn: it reads the enemies as they were at the start of
//! the turn (in the fight, armour left on the facing hit, chart lines marked), never the
//! damage of shots fired earlier in the same turn.

use std::cmp::Ordering;

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform_below;

use super::compiled::Forces;
use super::state::FireState;

/// How a gunner picks its one target.
pub trait Targeting: Copy + Send + Sync + std::fmt::Debug {
    /// The policy's name (one of [`super::BATTLE_POLICIES`]).
    const NAME: &'static str;
    /// The enemy (a slot of side `enemy`, in the fight at the start of the turn) that
    /// gunner `g` of unit `shooter` fires at, or `None` when no enemy is left.
    fn pick(
        &self,
        f: &Forces,
        s: &FireState,
        shooter: usize,
        g: usize,
        enemy: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<usize>;
}

/// The damage order of the start-of-turn view: least armour left on the facing hit,
/// then most chart lines marked (both bring a unit nearer the Dead box or 100 lines).
#[inline]
fn more_damaged(s: &FireState, v: usize, w: usize) -> Ordering {
    let (a, b) = (s.seen[v], s.seen[w]);
    b.armour.cmp(&a.armour).then(a.lines.cmp(&b.lines))
}

/// The first slot of `enemy` in the fight that is best by `better` (ties to listing
/// order).
#[inline]
fn best(f: &Forces, s: &FireState, enemy: usize, better: impl Fn(usize, usize) -> Ordering) -> Option<usize> {
    let mut pick: Option<usize> = None;
    for v in f.slots(enemy) {
        if s.out[v] {
            continue;
        }
        pick = match pick {
            Some(p) if better(v, p) != Ordering::Greater => Some(p),
            _ => Some(v),
        };
    }
    pick
}

/// `most-damaged` (default): every gunner fires at the enemy with the least armour left
/// on the facing hit, ties to the most chart lines marked, then listing order: finish
/// off the weakest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MostDamaged;

impl Targeting for MostDamaged {
    const NAME: &'static str = "most-damaged";
    #[inline]
    fn pick(
        &self,
        f: &Forces,
        s: &FireState,
        _shooter: usize,
        _g: usize,
        enemy: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<usize> {
        best(f, s, enemy, |v, w| more_damaged(s, v, w))
    }
}

/// `highest-ecv`: the enemy of the highest ECV, ties as `most-damaged`: take the most
/// ECV first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HighestEcv;

impl Targeting for HighestEcv {
    const NAME: &'static str = "highest-ecv";
    #[inline]
    fn pick(
        &self,
        f: &Forces,
        s: &FireState,
        _shooter: usize,
        _g: usize,
        enemy: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<usize> {
        best(f, s, enemy, |v, w| {
            f.units[v].ecv.partial_cmp(&f.units[w].ecv).unwrap_or(Ordering::Equal).then(more_damaged(s, v, w))
        })
    }
}

/// `random`: each gunner picks uniformly among the enemies in the fight, one draw per
/// gunner (none when a single enemy is left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RandomTarget;

impl Targeting for RandomTarget {
    const NAME: &'static str = "random";
    #[inline]
    fn pick(
        &self,
        f: &Forces,
        s: &FireState,
        _shooter: usize,
        _g: usize,
        enemy: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<usize> {
        let left = s.in_fight[enemy] as u64;
        match left {
            0 => None,
            1 => f.slots(enemy).find(|&v| !s.out[v]),
            _ => {
                let k = uniform_below(rng, left, left.wrapping_neg() % left) as usize;
                f.slots(enemy).filter(|&v| !s.out[v]).nth(k)
            }
        }
    }
}
