//! The Spot action (§1 "Spotting (3⚡)") and Tracker ("List of Perks") as duels and
//! battles play them: what places Spot tokens. Attacks use tokens up as before
//! (`SPOT_POLICY`, [`super::stability::shooting_aim`]).
//!
//! # The Spot action
//! For [`SPOT_ENERGY`] a model rolls [`SPOT_DICE`] d6 at an enemy, −1 die across half
//! cover (soft cover and a Submerged target count as half cover, as for Stability:
//! `SOFT_COVER_IS_HALF_COVER`, `COVER_STACKS`), +1 die per full 2 levels above it;
//! each 6 places one Spot token on it. No Spot at an Invisible enemy nor through total
//! cover. Without a map every enemy is within Sensors and LoS (`NON_SPATIAL`), so the
//! range and Hacked do not limit it, and no token decays. When a model spots is
//! `SPOT_ACTION` ([`super::options::Options::spot_action`], [`Spotting::pays`]).
//!
//! # Tracker
//! "Hits made with this weapon add Spot tokens to the enemy model equal to the damage
//! dealt": after an attack with a Tracker weapon the target gets as many tokens as the
//! Integrity it lost in that attack (after the tokens the attack consumed are gone).
//!
//! # Bound
//! A model carries at most [`MAX_SPOT_TOKENS`] tokens in an engagement that places
//! them (the attack laws are compiled per number of tokens left): tokens placed beyond
//! it are not placed. A simulator bound, not a rule: one token buys one attack one
//! Stability (all of them one Sniper attack, to S = 1 at most 5), so eight on one
//! model are more than its attackers use before they are refilled.

use crate::dice::{Dist, SamplingTable, dist::pool};

use super::conditions::Condition;
use super::energy::ATTACK_ENERGY;
use super::law::Law;
use super::mech::Model;
use super::options::Options;
use super::situation::{Cover, Situation};
use super::stability::effective_levels;

/// Most Spot tokens on a model a duel or battle side plays (laws are compiled for each
/// number left).
pub const MAX_SPOT_TOKENS: u32 = 8;

/// ⚡ of the Spot action ("Rounds › Actions": Spotting (3⚡)).
pub const SPOT_ENERGY: u32 = 3;
/// Dice of the Spot action before cover and height.
pub const SPOT_DICE: u32 = 3;
/// The face that places a token.
pub const SPOT_FACE: u32 = 6;
/// Most Spot dice a roll is compiled for (more is no Spot: an exact law of more than
/// this many dice is not held).
pub const MAX_SPOT_DICE: u32 = 40;

// The exact duel chain's steps spend 3⚡ each, attacks and Spots alike.
const _: () = assert!(SPOT_ENERGY == ATTACK_ENERGY);

/// Spot dice `me` rolls at `foe` (module docs), or `None` when it cannot spot it
/// (Invisible, total cover, no die left).
pub fn spot_dice(me: &Model, foe: &Model, sit: &Situation, o: &Options) -> Option<u32> {
    if foe.conditions.has(Condition::Invisible) {
        return None;
    }
    let mut half = match sit.cover {
        Cover::None => 0,
        Cover::Half => 1,
        Cover::Soft => o.soft_cover_is_half_cover as i32,
        Cover::Total => return None,
    };
    let submerged = |m: &Model| m.conditions.has(Condition::Submerged);
    if submerged(foe) && !submerged(me) {
        half += 1;
    }
    if !o.cover_stacks {
        half = half.min(1);
    }
    let levels = effective_levels(me, foe, sit);
    let height = if levels >= 2 { levels / 2 } else { 0 };
    let dice = SPOT_DICE as i32 - half + height;
    (1..=MAX_SPOT_DICE as i32).contains(&dice).then_some(dice as u32)
}

/// One model's Spot roll at one enemy: the law of the tokens it places.
#[derive(Debug, Clone, PartialEq)]
pub struct Spotting {
    pub dice: u32,
    /// One uniform draw: slots are (tokens placed, 0), exact counts over 6^dice.
    pub law: Law,
    /// `p[k]` = P(k sixes), k in 0..=dice.
    pub p: Vec<f64>,
}

impl Spotting {
    /// The roll of `dice` d6 (`dice` in 1..=[`MAX_SPOT_DICE`]).
    pub fn new(dice: u32) -> Spotting {
        let counts: Dist<u128> = pool(dice, 6, |f| (f == SPOT_FACE) as usize).expect("a spot roll that fits");
        let table = SamplingTable::new(&counts);
        let slots = table.outcomes.iter().map(|&k| (k as u32, 0)).collect();
        let p = counts.probs();
        Spotting { dice, law: Law { table, slots, crits: Vec::new(), mean: f64::from(dice) / 6.0 }, p }
    }

    /// The Spot's expected Integrity loss: E over the sixes k of
    /// [`best(min(tokens + k, cap)) − best(tokens)`], where `best(t)` is the expected
    /// loss of the best ready attack with t tokens on the target (0 when none can fire).
    pub fn gain(&self, tokens: u32, cap: u32, best: impl Fn(u32) -> f64) -> f64 {
        let now = best(tokens);
        self.p.iter().enumerate().skip(1).map(|(k, &p)| p * (best((tokens + k as u32).min(cap)) - now)).sum()
    }

    /// `SPOT_ACTION` = when-it-pays: spot when the Spot's gain beats `attack`, the
    /// expected loss of the attack it would replace (both cost 3⚡; ties to the attack).
    pub fn pays(&self, tokens: u32, cap: u32, attack: f64, best: impl Fn(u32) -> f64) -> bool {
        tokens < cap && self.gain(tokens, cap, best) > attack
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::mechcom::conditions::Conditions;
    use crate::rules::mechcom::mech::{Mech, Model};

    fn model(levels_down: bool) -> Model {
        let m = Model::new(&Mech::simple("m", 4, 0, 4, 10), None);
        if levels_down { m.with_conditions(Conditions::of(&[Condition::Submerged])) } else { m }
    }

    #[test]
    fn a_spot_roll_places_a_token_per_six() {
        // 3d6: P(0..3 sixes) = 125, 75, 15, 1 in 216; 2d6 across half cover: 25, 10, 1
        // in 36; 4d6 from 2 levels above: 625, 500, 150, 20, 1 in 1296.
        let o = Options::default();
        let (a, b) = (model(false), model(false));
        let cases = [
            (Situation::default(), vec![125.0 / 216.0, 75.0 / 216.0, 15.0 / 216.0, 1.0 / 216.0]),
            (Situation { cover: Cover::Half, ..Situation::default() }, vec![25.0 / 36.0, 10.0 / 36.0, 1.0 / 36.0]),
            (
                Situation { levels_above: 3, ..Situation::default() },
                vec![625.0 / 1296.0, 500.0 / 1296.0, 150.0 / 1296.0, 20.0 / 1296.0, 1.0 / 1296.0],
            ),
        ];
        for (sit, want) in cases {
            let s = Spotting::new(spot_dice(&a, &b, &sit, &o).unwrap());
            assert_eq!(s.p.len(), want.len(), "{sit:?}");
            assert!(s.p.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-15), "{:?} vs {want:?}", s.p);
            assert!(s.law.table.exact);
            let total = s.law.table.range as f64;
            let drawn: Vec<f64> = s.law.probs().map(|(_, _, p)| p).collect();
            assert!(drawn.iter().zip(&want).all(|(g, w)| (g - w).abs() < 1e-15), "{drawn:?} at {total}");
        }
        // A Submerged target is half cover too (cover does not stack by default), and
        // counts 2 levels below: +1 die.
        let sub = Situation { cover: Cover::Half, ..Situation::default() };
        assert_eq!(spot_dice(&a, &model(true), &sub, &o), Some(3));
        let stacks = Options { cover_stacks: true, ..Options::default() };
        assert_eq!(spot_dice(&a, &model(true), &sub, &stacks), Some(2));
        assert_eq!(spot_dice(&model(true), &model(true), &sub, &stacks), Some(2));
        let total = Situation { cover: Cover::Total, ..Situation::default() };
        assert_eq!(spot_dice(&a, &b, &total, &o), None);
        let invisible = b.clone().with_conditions(Conditions::of(&[Condition::Invisible]));
        assert_eq!(spot_dice(&a, &invisible, &Situation::default(), &o), None);
    }

    #[test]
    fn a_spot_pays_when_its_tokens_add_more_than_an_attack() {
        // Artillery alone (best 0 without a token, 3/2 with one): the Spot's gain is
        // P(>= 1 six) · 3/2 = 91/216 · 3/2 > 0, the attack it replaces is worth 0.
        let s = Spotting::new(3);
        let arty = |t: u32| if t == 0 { 0.0 } else { 1.5 };
        assert!((s.gain(0, 8, arty) - 91.0 / 216.0 * 1.5).abs() < 1e-15);
        assert!(s.pays(0, 8, 0.0, arty));
        // A token adds 1/3 to a 5/3 attack: 91/216 · 1/3 < 5/3, the attack is better.
        let gun = |t: u32| if t == 0 { 5.0 / 3.0 } else { 2.0 };
        assert!(!s.pays(0, 8, 5.0 / 3.0, gun));
        // At the bound nothing is placed, so it never pays.
        assert!(!s.pays(8, 8, 0.0, |t| t as f64));
    }
}
