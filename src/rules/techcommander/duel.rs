//! The duel: two builds fire at each other until one or both fall.
//!
//! Procedure (`shared/rules/techcommander.md` §3-5), each turn:
//! 1. Initiative: each side rolls a d20, ties are rerolled, the lowest acts first. The
//!    initiative split counts the side that won turn 1's roll as the one that acted first.
//! 2. Actions alternate one at a time, starting with the initiative winner: an MSV has
//!    two (one when under-crewed), other units one; a side with actions left after the
//!    other has none takes them in a row.
//! 3. Before each action, a unit with 5 or less life (eliminated included) rolls a d20
//!    jury rig: 10 or less acts normally, otherwise that action has no fire control
//!    (options `IN_THE_RED_LIFE`, `JURY_RIG_SUCCESS_MAX`; with `JURY_RIG_PER_ACTION`
//!    off, one roll at its first action in the red holds for the rest of the turn). The
//!    policy then picks a system as in the attack run (rounds run out, an MSV's second
//!    attack uses another system); damage applies at once. A Moneyshot attacker (2nd
//!    edition) fires with its bonus once the target's life is at most what the system
//!    can take with every shot hitting.
//! 4. Eliminated units still act until the end of the turn. Then: both at 0 or less is a
//!    draw (mutual kill); one at 0 or less loses; otherwise power armour resets to 20.
//! 5. Both alive after the turn cap is a draw (timeout).
//!
//! Bubble shields (`BUBBLE_SHIELD`; docs/battles.md "The bubble shield"): a side whose
//! gear carries them drops one when it is attacked with no shield covering it, while any
//! is left, but not in a turn it dropped, lost or left one. Attacks at a covered side are
//! rolled as in the attack run ([`super::attack_run::shield`]): at the shield (AC5
//! targeted, AC1 damaged, the overflow lost) or, by an auto-stabilized attacker within
//! its speed of it, at the unit after a half move (`SHIELD_BYPASS`). A covered side that fires leaves its shield first
//! ("cannot shoot from inside to the outside"), unless it is auto-stabilized: it fires
//! from outside during its move and returns inside (Ruling `SHIELD_SORTIE`); it never
//! stays inside to wait (a duel is won by firing). A shield still covering its side at
//! the end of a turn is back at 20.
//!
//! The conditions apply to both sides' shots (each is the other's target).

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::DuelTally;

use super::attack_run::MAX_TURNS_LIMIT;
use super::attack_run::shield::covered_side;
use super::compiled::TABLES;
use super::compiled::{CompiledSide, FC_LOST, FC_NORMAL, MONEYSHOT};
use super::conditions::Conditions;
use super::dice::roll_d20;
use super::options::Options;
use super::policy::{Policy, UNLIMITED, choose};
use super::profile::{Attacker, Target};
use super::rulings::{SHIELD_LIFE, STARTING_LIFE};
use super::sampler::ActionSampler;

/// A compiled duel: `sides[0]` is A firing at B, `sides[1]` is B firing at A.
#[derive(Debug, Clone, PartialEq)]
pub struct Duel {
    pub sides: [CompiledSide; 2],
    /// Whether A, B have power armour.
    pub power_armor: [bool; 2],
    /// Bubble shields A, B carry (under `BUBBLE_SHIELD`), 0..=1000.
    pub shields: [u32; 2],
    /// `covered[who]`: side `who` compiled for its attacks at the other while a shield
    /// covers it (at the shield, or at the unit after a move when `bypass[who]`); `None`
    /// when the other carries no shield. Its action tables are numbered from [`TABLES`]
    /// in [`DuelDice::life_lost`].
    pub covered: [Option<CompiledSide>; 2],
    /// `bypass[who]`: side `who` fires at the unit from inside the other's shield.
    pub bypass: [bool; 2],
    /// `sorties[who]`: side `who` (auto-stabilized) fires from outside its shield and
    /// returns inside; otherwise it leaves its shield to fire.
    pub sorties: [bool; 2],
    pub max_turns: u32,
    /// A unit with this much life or less rolls a jury rig (option `IN_THE_RED_LIFE`).
    pub(super) in_the_red_life: i32,
    /// A jury-rig roll above this loses fire control (option `JURY_RIG_SUCCESS_MAX`).
    pub(super) jury_rig_success_max: u32,
    /// One jury-rig roll per action, else per turn (option `JURY_RIG_PER_ACTION`).
    pub(super) jury_rig_per_action: bool,
    /// Whether a side has a Moneyshot table (else the hot loop skips the check).
    any_moneyshot: bool,
}

impl Duel {
    /// Compile a duel; `a.1`/`b.1` are A and B seen as targets. Played by the options
    /// `o` (compiled here: the hot loop reads no option).
    ///
    /// # Errors
    /// A message when the turn cap or the options are out of range, or a side cannot
    /// be compiled.
    pub fn new(
        a: (&Attacker, &Target),
        b: (&Attacker, &Target),
        cond: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<Duel, String> {
        if !(1..=MAX_TURNS_LIMIT).contains(&max_turns) {
            return Err(format!("max turns must be between 1 and {MAX_TURNS_LIMIT}, got {max_turns}"));
        }
        let a_side = CompiledSide::new(a.0, b.1, cond, o, policy)?;
        let b_side = CompiledSide::new(b.0, a.1, cond, o, policy)?;
        let shields = [a.1.shields_played(o), b.1.shields_played(o)];
        let cover = |att: &Attacker, def: &Target, n: u32| -> Result<Option<(CompiledSide, bool)>, String> {
            if n == 0 { Ok(None) } else { covered_side(att, def, cond, o, policy).map(Some) }
        };
        let (a_cover, b_cover) = (cover(a.0, b.1, shields[1])?, cover(b.0, a.1, shields[0])?);
        let bypass = [&a_cover, &b_cover].map(|c| c.as_ref().is_some_and(|c| c.1));
        let covered = [a_cover.map(|c| c.0), b_cover.map(|c| c.0)];
        let any_moneyshot = [Some(&a_side), Some(&b_side), covered[0].as_ref(), covered[1].as_ref()]
            .iter()
            .flatten()
            .any(|s| s.moneyshot_life.iter().any(|&l| l != super::compiled::NO_MONEYSHOT));
        Ok(Duel {
            sides: [a_side, b_side],
            power_armor: [a.1.power_armor, b.1.power_armor],
            shields,
            covered,
            bypass,
            sorties: [a.0, b.0].map(super::attack_run::shield::sorties),
            max_turns,
            in_the_red_life: o.in_the_red_life as i32,
            jury_rig_success_max: o.jury_rig_success_max,
            jury_rig_per_action: o.jury_rig_per_action,
            any_moneyshot,
        })
    }

    /// Play one duel drawing everything from one generator, in the order the rules
    /// need numbers. Returns (turn index, outcome) with outcome 0 = A wins, 1 = B wins,
    /// 2 = mutual kill, or `None` for a timeout.
    /// The second value: whether A won the first turn's initiative (acted first).
    #[inline]
    fn play_one(&self, rng: &mut Xoshiro256PlusPlus) -> (Option<(usize, u8)>, bool) {
        self.play_first(&mut OneStream(rng))
    }

    /// The duel procedure (module docs), drawing its numbers from `dice`.
    #[inline(always)]
    pub(crate) fn play_with<D: DuelDice>(&self, dice: &mut D) -> Option<(usize, u8)> {
        self.play_first(dice).0
    }

    /// [`Duel::play_with`], and whether A won the first turn's initiative roll (acted
    /// first in turn 1): what the initiative split counts.
    #[inline(always)]
    fn play_first<D: DuelDice>(&self, dice: &mut D) -> (Option<(usize, u8)>, bool) {
        // Moneyshot's per-action check and the shields' are compiled in only where they
        // can apply.
        match (self.any_moneyshot, self.shields != [0, 0]) {
            (false, false) => self.play_duel::<D, false, false>(dice),
            (true, false) => self.play_duel::<D, true, false>(dice),
            (false, true) => self.play_duel::<D, false, true>(dice),
            (true, true) => self.play_duel::<D, true, true>(dice),
        }
    }

    /// The duel procedure; `ANY_MONEYSHOT`: whether a side has a Moneyshot table;
    /// `SHIELDS`: whether a side carries a bubble shield.
    #[inline(always)]
    fn play_duel<D: DuelDice, const ANY_MONEYSHOT: bool, const SHIELDS: bool>(
        &self,
        dice: &mut D,
    ) -> (Option<(usize, u8)>, bool) {
        let full = STARTING_LIFE as i32;
        let mut life = [full; 2];
        // The life of the shield covering each side (0: none covers it), shields left.
        let mut cover = [0i32; 2];
        let mut spare = self.shields;
        let mut rounds = [self.sides[0].rounds, self.sides[1].rounds];
        let apt = [self.sides[0].actions_per_turn, self.sides[1].actions_per_turn];
        let mut a_first = false;
        for turn in 0..self.max_turns as usize {
            let first = loop {
                let (ra, rb) = (dice.initiative(), dice.initiative());
                if ra != rb {
                    break if ra < rb { 0 } else { 1 };
                }
            };
            if turn == 0 {
                a_first = first == 0;
            }
            let mut left = apt;
            let mut used = [0u32; 2];
            // A side that dropped, lost or left a shield this turn drops no other before
            // the next ("may not be dropped at, or overlapping, the eliminated shield's
            // area for the remainder of the turn"; one next to a shield it just left
            // would overlap it, "eliminate both shields").
            let mut settled = [false; 2];
            // This turn's jury-rig result per side (true: failed), once rolled.
            let mut jury: [Option<bool>; 2] = [None; 2];
            let mut who = first;
            while left[0] + left[1] > 0 {
                if left[who] == 0 {
                    who = 1 - who;
                    continue;
                }
                left[who] -= 1;
                let in_the_red = life[who] <= self.in_the_red_life;
                let roll_now = in_the_red && (self.jury_rig_per_action || jury[who].is_none());
                if let Some(r) = dice.jury_rig(who, roll_now) {
                    jury[who] = Some(r > self.jury_rig_success_max);
                }
                let failed = in_the_red && jury[who] == Some(true);
                let fc = if failed { FC_LOST } else { FC_NORMAL };
                let side = &self.sides[who];
                match choose(&side.ranking[fc], used[who], &rounds[who]) {
                    Some(s) => {
                        used[who] |= 1 << s;
                        if rounds[who][s as usize] != UNLIMITED {
                            rounds[who][s as usize] -= 1;
                        }
                        let d = 1 - who;
                        if SHIELDS {
                            if cover[who] > 0 && !self.sorties[who] {
                                (cover[who], settled[who]) = (0, true); // it leaves its shield to fire
                            }
                            if cover[d] == 0 && spare[d] > 0 && !settled[d] {
                                (cover[d], spare[d], settled[d]) = (SHIELD_LIFE as i32, spare[d] - 1, true);
                            }
                        }
                        // While a shield covers the target: the side compiled for it,
                        // hitting the shield unless it bypasses it.
                        let covered = SHIELDS && cover[d] > 0;
                        let at_shield = covered && !self.bypass[who];
                        let (at, first_table) = if covered {
                            (self.covered[who].as_ref().expect("a shield's attackers are compiled"), TABLES)
                        } else {
                            (side, 0)
                        };
                        // Moneyshot: its table once what the attack hits is low enough.
                        let hit = if at_shield { cover[d] } else { life[d] };
                        let moneyshot = ANY_MONEYSHOT && hit <= at.moneyshot_life[s as usize];
                        let table = if moneyshot { fc + MONEYSHOT } else { fc };
                        // Ranked systems can fire at the unit; one may never hit a shield.
                        let lost = match at.samplers[table][s as usize].as_ref() {
                            Some(sampler) => dice.life_lost(who, first_table + table, s, sampler) as i32,
                            None => {
                                assert!(covered, "ranked systems can fire");
                                dice.idle(who);
                                0
                            }
                        };
                        if at_shield {
                            cover[d] = (cover[d] - lost).max(0);
                            settled[d] |= cover[d] == 0;
                        } else {
                            life[d] -= lost;
                        }
                    }
                    None => dice.idle(who),
                }
                who = 1 - who;
            }
            dice.end_turn(apt);
            match (life[0] <= 0, life[1] <= 0) {
                (true, true) => return (Some((turn, 2)), a_first),
                (false, true) => return (Some((turn, 0)), a_first),
                (true, false) => return (Some((turn, 1)), a_first),
                (false, false) => {
                    if SHIELDS {
                        cover = cover.map(|c| if c > 0 { SHIELD_LIFE as i32 } else { 0 });
                    }
                    for (l, &armoured) in life.iter_mut().zip(&self.power_armor) {
                        if armoured {
                            *l = full;
                        }
                    }
                }
            }
        }
        (None, a_first)
    }
}

/// Where a duel's random numbers come from.
pub(crate) trait DuelDice {
    /// One initiative d20.
    fn initiative(&mut self) -> u32;
    /// Side `who`'s jury-rig d20, drawn when it is in the red (a source may draw it
    /// anyway to keep its slots aligned); `None` when no roll is needed.
    fn jury_rig(&mut self, who: usize, in_the_red: bool) -> Option<u32>;
    /// Life lost by side `who`'s target when it fires system `system` from action table
    /// `table` (fire-control state, plus [`MONEYSHOT`] when it applies: an index into
    /// the side's samplers; plus [`TABLES`] for the tables of [`Duel::covered`]), whose
    /// sampler is `sampler`.
    fn life_lost(&mut self, who: usize, table: usize, system: u8, sampler: &ActionSampler) -> u32;
    /// Side `who` had an action but no system to fire.
    fn idle(&mut self, who: usize);
    /// The turn's actions are over; side `who` had `actions[who]` of them (a source
    /// that keeps slots aligned draws for the slots a side did not have).
    fn end_turn(&mut self, actions: [u32; 2]);
}

/// Everything from one generator, drawn only when needed.
struct OneStream<'a>(&'a mut Xoshiro256PlusPlus);

impl DuelDice for OneStream<'_> {
    #[inline(always)]
    fn initiative(&mut self) -> u32 {
        roll_d20(self.0)
    }
    #[inline(always)]
    fn jury_rig(&mut self, _who: usize, in_the_red: bool) -> Option<u32> {
        in_the_red.then(|| roll_d20(self.0))
    }
    #[inline(always)]
    fn life_lost(&mut self, _who: usize, _table: usize, _system: u8, sampler: &ActionSampler) -> u32 {
        sampler.sample(self.0)
    }
    #[inline(always)]
    fn idle(&mut self, _who: usize) {}
    #[inline(always)]
    fn end_turn(&mut self, _actions: [u32; 2]) {}
}

impl Kernel for Duel {
    type Tally = DuelTally;

    fn new_tally(&self) -> DuelTally {
        DuelTally::new(self.max_turns as usize)
    }

    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut DuelTally) {
        tally.trials += trials as u64;
        for _ in 0..trials {
            let (end, a_first) = self.play_one(rng);
            tally.count_first(a_first, matches!(end, Some((_, 0))));
            match end {
                Some((t, 0)) => tally.a_wins_by_turn[t] += 1,
                Some((t, 1)) => tally.b_wins_by_turn[t] += 1,
                Some((t, _)) => tally.mutual_by_turn[t] += 1,
                None => tally.timeouts += 1,
            }
        }
    }
}

#[cfg(test)]
#[path = "duel_shield_tests.rs"]
mod shield_tests;
