//! The squad battle's rules for the shared engine ([`BattleRules`]): a turn is a round,
//! with one phase of alternating activations; a step is one model's activation; a
//! side's budget is its models still to activate this round; a side with none left
//! passes (`ALTERNATION_RUNOUT`).
//!
//! Each round (rulings in capitals, `shared/rules/mechcom.md` §4):
//! 1. Start phase: `ROLL_OFF` (one fair bit a round with two players: the same
//!    roll-off stream as the duel) picks who activates first; Energy refills
//!    (`ENERGY_RESET_AT_START_PHASE`).
//! 2. The sides alternate, one activation each, models in `ACTIVATION_ORDER` (the
//!    policy's choice). An activation plays exactly the duel's procedure
//!    ([`crate::rules::mechcom::duel_kernel`], steps 2-4): Stunned halves the Energy;
//!    while 3⚡ remain, the model attacks the target its targeting rule picks
//!    (`TARGET_POLICY`, asked again after every attack) with the weapon of highest
//!    expected Integrity loss per ⚡ against it in the current conditions that has Ammo
//!    (`ACTION_POLICY`, `REPEAT_ACTIONS`), or spots it instead when `SPOT_ACTION` says
//!    the tokens are worth more to its side (the best gain over the side's living
//!    models, tokens being shared: `SquadGame::spot_pays`; one draw of its side's
//!    stream); a Tracker hit adds the Integrity it took in tokens; a Multi weapon's dice
//!    are split among the enemies it reaches (`MULTI_POLICY`,
//!    `SquadGame::multi_attack`: one draw per target); each attack is one draw from the
//!    exact law of
//!    (Integrity lost, conditions added); damage lands at once; Backfire follows; then
//!    `CLEAR_POLICY` spends leftover ⚡, Burned costs 1 Integrity, and Blinded, Shocked
//!    and Stunned end (`END_OF_TURN`).
//! 3. A model below 1 Integrity is destroyed and never acts again; when one side alone
//!    has models left it wins at once ("Victory"). A kill is credited to the attacker;
//!    a model lost to its own Backfire or Burned, or to an explosion, credits no unit,
//!    but its points count as destroyed by the other side.
//! 4. Death explosions, when enemies are in melee range (`EXPLOSION_ABSTRACT_TARGETS`:
//!    every enemy at the engagement's range, no friend): one attack (Damage 4,
//!    Stability 2, `EXPLOSION_AS_SHOOTING`) against each living enemy in melee range,
//!    at the end of the next activation after the destruction, or in the End phase if
//!    none is left that round (`EXPLOSION_TIMING`, default), or at once (`immediately`,
//!    before the victory check, as the duel: both sides emptied is a draw). Explosions
//!    chain.
//! 5. `MAX_ROUNDS` reached with both sides alive: undecided.
//!
//! Random numbers: each battle draws exactly three u64 from the trial generator, the
//! seeds of the roll-off stream and of one stream per side
//! ([`crate::rules::mechcom::duel_kernel::TrialStreams`]); each side's attacks (and
//! the explosions of its destroyed models) draw from its own stream, one uniform per
//! attack. A battle of one model a side is therefore the duel of the two models, draw
//! for draw.

use std::convert::Infallible;
use std::marker::PhantomData;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform::roll;
use crate::engine::battle::{BattleRules, Ending, MAX_SIDES, MAX_UNITS, Outcome};
use crate::rules::mechcom::duel_kernel::{HeatMind, TrialStreams};
use crate::rules::mechcom::duel_side::{
    BURNED, CORRODED, ENDS_WITH_ACTIVATION, STUNNED, UNLIMITED, clear_leftover, law_at, view,
};
use crate::rules::mechcom::energy::ATTACK_ENERGY;
use crate::rules::mechcom::heat::{HeatMove, MALFUNCTION_CLEARS_ON};
use crate::rules::mechcom::notes::PROGRAMMING_HEAT;
use crate::rules::mechcom::spot::{SPOT_ENERGY, Spotting};

use super::compiled::{Explosions, Pair, Squads};
use super::state::{ARMED, DESTROYED_NOW, SquadState};
use super::target::Targeting;

/// The squad battle with targeting rule `T`.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadGame<T> {
    pub squads: Squads,
    pub targeting: PhantomData<T>,
}

impl<T> SquadGame<T> {
    pub fn new(squads: Squads) -> SquadGame<T> {
        SquadGame { squads, targeting: PhantomData }
    }
}

impl<T: Targeting> SquadGame<T> {
    /// Unit `dead` is destroyed (by `killer`, if an attack of an enemy unit did it):
    /// counted, its explosion resolved or armed (`Squads::explosions`). Returns whether
    /// the battle is over.
    pub(super) fn destroyed(&self, s: &mut SquadState, dead: usize, killer: Option<usize>, out: &mut Outcome) -> bool {
        self.count_loss(s, dead, killer, out);
        match self.squads.explosions {
            Explosions::Never => {}
            Explosions::Immediately => {
                // Chains resolve at once, last destroyed first.
                let mut stack = [0u8; MAX_UNITS];
                let mut top = 1;
                stack[0] = dead as u8;
                while top > 0 {
                    top -= 1;
                    let d = stack[top] as usize;
                    self.explode(s, d, out, |u| {
                        stack[top] = u as u8;
                        top += 1;
                    });
                }
            }
            Explosions::EndOfNextActivation => s.pending[dead] = DESTROYED_NOW,
        }
        self.check_over(s)
    }

    /// Count unit `dead`'s loss in `out` and take it out of play.
    fn count_loss(&self, s: &mut SquadState, dead: usize, killer: Option<usize>, out: &mut Outcome) {
        let unit = &self.squads.units[dead];
        let side = unit.side as usize;
        let other = 1 - side;
        out.lost[dead] += 1;
        out.points_lost_milli[side] += unit.cost as u64 * 1000;
        out.points_destroyed_milli[other] += unit.cost as u64 * 1000;
        out.score[other] += unit.cost;
        if let Some(k) = killer {
            out.kills[k] += 1;
        }
        s.done[dead] = true;
        s.alive[side] -= 1;
    }

    /// Unit `dead`'s death explosion against every living enemy in melee range of it,
    /// drawn from its side's stream in slot order; `chained` gets each unit it destroys
    /// (after that unit's loss is counted).
    fn explode(&self, s: &mut SquadState, dead: usize, out: &mut Outcome, mut chained: impl FnMut(usize)) {
        let q = &self.squads;
        let side = q.units[dead].side as usize;
        let (lo, hi) = q.sides[1 - side];
        for e in lo as usize..hi as usize {
            if s.life[e] <= 0 || !q.pair(dead, e).melee {
                continue;
            }
            let law = &q.pair(e, dead).side.blast[(s.cond[e] & CORRODED != 0) as usize];
            s.life[e] -= law.draw(&mut s.streams.sides[side]).0 as i32;
            if s.life[e] <= 0 {
                self.count_loss(s, e, None, out);
                chained(e);
            }
        }
    }

    /// Whether a side is out of models (then the battle is over: the other wins, or a
    /// draw when both are).
    fn check_over(&self, s: &mut SquadState) -> bool {
        if s.over.is_none() {
            s.over = match s.alive {
                [0, 0] => Some(Ending::Draw),
                [0, _] => Some(Ending::Winner(1)),
                [_, 0] => Some(Ending::Winner(0)),
                _ => None,
            };
        }
        s.over.is_some()
    }

    /// End of an activation (or the End phase): the explosions armed before it resolve,
    /// in slot order; those of units destroyed since are armed for the next one.
    pub(super) fn resolve_armed(&self, s: &mut SquadState, out: &mut Outcome) {
        if self.squads.explosions != Explosions::EndOfNextActivation {
            return;
        }
        for d in 0..self.squads.units.len() {
            if s.pending[d] != ARMED || s.over.is_some() {
                continue;
            }
            s.pending[d] = 0;
            let mut armed = [false; MAX_UNITS];
            self.explode(s, d, out, |u| armed[u] = true);
            for (u, &a) in armed.iter().enumerate() {
                if a {
                    s.pending[u] = DESTROYED_NOW;
                }
            }
            self.check_over(s);
        }
        for p in &mut s.pending {
            if *p == DESTROYED_NOW {
                *p = ARMED;
            }
        }
    }

    /// Unit `me` attacks `foe` with weapon `w` of their pair in view `v` (one uniform
    /// of its side's stream), using up the Spot tokens on `foe` the weapon consumes: the
    /// loss and conditions land, Tracker adds the loss to the tokens on `foe`, a Red-Hot
    /// Reactor target with Programming gains a Heat per crit (at 6 it is
    /// Malfunctioning), then Backfire.
    /// Returns whether `me`'s activation ends (the battle is over, or `me` is destroyed).
    #[inline(always)]
    fn strike(&self, s: &mut SquadState, me: usize, foe: usize, w: usize, v: usize, out: &mut Outcome) -> bool {
        if self.roll_at(s, me, foe, w, v, usize::MAX, out) {
            return true;
        }
        self.backfire(s, me, self.squads.pair(me, foe).side.weapons[w].backfire, out)
    }

    /// [`Self::strike`] with `dice` of the weapon's dice (all of them from its
    /// [`crate::rules::mechcom::duel_side::SideWeapon::dice`] up; fewer only for a
    /// split Multi weapon), without Backfire.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn roll_at(
        &self,
        s: &mut SquadState,
        me: usize,
        foe: usize,
        w: usize,
        v: usize,
        dice: usize,
        out: &mut Outcome,
    ) -> bool {
        let q = &self.squads;
        let side = q.units[me].side as usize;
        let weapon = &q.pair(me, foe).side.weapons[w];
        let tokens = s.spot[foe];
        let law = weapon.law_of(dice, law_at(tokens, v));
        s.spot[foe] = tokens - weapon.spends[tokens as usize].expect("a weapon that fires");
        let slot = law.draw_slot(&mut s.streams.sides[side]);
        let (loss, adds) = law.slots[slot];
        s.life[foe] -= loss as i32;
        s.cond[foe] |= adds;
        if s.life[foe] <= 0 && (self.destroyed(s, foe, Some(me), out) || s.life[me] <= 0) {
            return true;
        }
        if weapon.tracker && s.life[foe] > 0 {
            s.spot[foe] = (s.spot[foe] + loss).min(q.pair(me, foe).side.cap);
        }
        if let Some(&crits) = law.crits.get(slot)
            && s.life[foe] > 0
        {
            s.minds[foe].heat += u32::from(crits);
            if s.minds[foe].heat >= PROGRAMMING_HEAT {
                s.minds[foe] = HeatMind { heat: 0, malfunctioning: true, ..s.minds[foe] };
            }
        }
        false
    }

    /// Backfire X after an attack: `me` loses `amount` Integrity; whether it is destroyed.
    #[inline(always)]
    fn backfire(&self, s: &mut SquadState, me: usize, amount: u32, out: &mut Outcome) -> bool {
        if amount > 0 {
            s.life[me] -= amount as i32;
            if s.life[me] <= 0 {
                self.destroyed(s, me, None, out);
                return true;
            }
        }
        false
    }

    /// `MULTI_POLICY` = split: unit `me` attacks with its Multi weapon `w` of its pair
    /// with `foe` (the target `TARGET_POLICY` picked). Before any die is rolled, its dice
    /// go one at a time to the valid target (a living enemy the same weapon reaches and
    /// may fire at) where the die adds the most to E[Integrity taken, capped at the
    /// target's Integrity left], ties to `foe`, then slot order; then each target's dice
    /// are one attack roll at it ([`Self::roll_at`], one uniform each, targets in slot
    /// order), and Backfire follows once. All the dice on `foe` is the attack
    /// [`Self::strike`] makes, draw for draw. Returns whether `me`'s activation ends.
    fn multi_attack(&self, s: &mut SquadState, me: usize, foe: usize, w: usize, out: &mut Outcome) -> bool {
        let q = &self.squads;
        let pair = q.pair(me, foe);
        let (n, arsenal, backfire) = (pair.side.weapons[w].dice(), pair.arsenal[w], pair.side.weapons[w].backfire);
        let (lo, hi) = q.sides[1 - q.units[me].side as usize];
        // Valid targets: `foe` first, then the others in slot order; the weapon's index
        // in each pair; the dice each gets.
        let (mut at, mut with, mut dice, mut m) = ([0usize; MAX_UNITS], [0usize; MAX_UNITS], [0usize; MAX_UNITS], 0);
        for e in std::iter::once(foe).chain((lo as usize..hi as usize).filter(|&e| e != foe)) {
            let p = q.pair(me, e);
            let found = (0..p.side.weapons.len()).find(|&x| p.arsenal[x] == arsenal);
            if let Some(x) = found
                && s.life[e] > 0
                && p.side.fires(x, s.spot[e])
            {
                (at[m], with[m]) = (e, x);
                m += 1;
            }
        }
        let taken = |i: usize, k: usize| -> f64 {
            if k == 0 {
                return 0.0;
            }
            let e = at[i];
            let law = q.pair(me, e).side.weapons[with[i]].law_of(k, law_at(s.spot[e], view(s.cond[me], s.cond[e])));
            let life = s.life[e] as u32;
            law.probs().map(|(loss, _, p)| p * f64::from(loss.min(life))).sum()
        };
        for _ in 0..n {
            let (mut best, mut gain) = (0, f64::NEG_INFINITY);
            for (i, &d) in dice.iter().enumerate().take(m) {
                let g = taken(i, d + 1) - taken(i, d);
                if g > gain {
                    (best, gain) = (i, g);
                }
            }
            dice[best] += 1;
        }
        for e in lo as usize..hi as usize {
            let Some(i) = (0..m).find(|&i| at[i] == e) else { continue };
            if dice[i] > 0
                && s.life[e] > 0
                && self.roll_at(s, me, e, with[i], view(s.cond[me], s.cond[e]), dice[i], out)
            {
                return true;
            }
        }
        self.backfire(s, me, backfire, out)
    }

    /// The activation of a unit that plays Heat: the duel's
    /// ([`crate::rules::mechcom::duel_kernel`]'s `activate_hot`) move for move, against
    /// the target `TARGET_POLICY` picks before each attack. Searing Wave attacks every
    /// living enemy its pair reaches (no map: every enemy is within 3 hexes when the
    /// engagement's range is), each with one draw in slot order, and is ranked by the
    /// sum of those attacks' expected losses.
    #[allow(clippy::needless_range_loop)]
    fn activate_hot(&self, s: &mut SquadState, me: usize, out: &mut Outcome) {
        let q = &self.squads;
        let unit = &q.units[me];
        let side = unit.side as usize;
        s.done[me] = true;
        let mut energy = unit.energy;
        if s.cond[me] & STUNNED != 0 {
            energy -= energy / 2;
        }
        if s.minds[me].malfunctioning && roll(&mut s.streams.sides[side], 6) == MALFUNCTION_CLEARS_ON {
            s.minds[me] = HeatMind { heat: 0, malfunctioning: false, ..s.minds[me] };
        }
        let loaded = |s: &SquadState, pair: &Pair, w: usize| s.ammo[unit.ammo_at + pair.arsenal[w] as usize] > 0;
        let spend = |s: &mut SquadState, pair: &Pair, w: usize| {
            let counter = &mut s.ammo[unit.ammo_at + pair.arsenal[w] as usize];
            if *counter != UNLIMITED {
                *counter -= 1;
            }
        };
        if s.minds[me].malfunctioning {
            while energy >= ATTACK_ENERGY {
                let Some(foe) = T::pick(q, s, me) else { break };
                let pair = q.pair(me, foe);
                let h = pair.side.heat.as_ref().expect("a unit with Heat");
                let v = view(s.cond[me], s.cond[foe]);
                let (tokens, mut best) = (s.spot[foe], None);
                for w in 0..pair.side.weapons.len() {
                    let laws = |w: usize| pair.side.weapons[w].laws[law_at(tokens, v)].mean;
                    let ready = h.sheet[w] && loaded(s, pair, w) && pair.side.fires(w, tokens);
                    if ready && best.is_none_or(|b| laws(b) < laws(w)) {
                        best = Some(w);
                    }
                }
                let Some(w) = best else { break };
                energy -= ATTACK_ENERGY;
                spend(s, pair, w);
                if self.strike(s, me, foe, w, v, out) {
                    return;
                }
                if h.one_action {
                    break;
                }
            }
        } else {
            while let Some(foe) = T::pick(q, s, me) {
                let pair = q.pair(me, foe);
                let h = pair.side.heat.as_ref().expect("a unit with Heat");
                let v = view(s.cond[me], s.cond[foe]);
                let m = s.minds[me];
                let knobs = h.knobs(pair.side.weapons.len());
                // Searing Wave: the sum over the living enemies it reaches.
                let (lo, hi) = q.sides[1 - side];
                let wave_mean = || -> f64 {
                    (lo as usize..hi as usize)
                        .filter(|&e| s.life[e] > 0)
                        .filter_map(|e| {
                            let p = q.pair(me, e);
                            let k = p.side.heat.as_ref()?.wave?;
                            Some(p.side.weapons[k].laws[law_at(s.spot[e], view(s.cond[me], s.cond[e]))].mean)
                        })
                        .sum()
                };
                let rank = |w: usize| match (Some(w) == h.wave, h.ability_cost) {
                    (false, _) => pair.side.weapons[w].laws[law_at(s.spot[foe], v)].mean,
                    (true, 0) => f64::INFINITY,
                    (true, c) => wave_mean() * f64::from(ATTACK_ENERGY) / f64::from(c),
                };
                let Ok(next) = knobs.next_move(m.heat, m.vents, energy, |w| -> Result<_, Infallible> {
                    let ready = if Some(w) == h.wave { m.waves > 0 } else { loaded(s, pair, w) };
                    Ok((ready && pair.side.fires(w, s.spot[foe])).then(|| rank(w)))
                });
                let w = match next {
                    None => break,
                    Some(HeatMove::Vent) => {
                        s.minds[me] = HeatMind { heat: 0, vents: m.vents - 1, ..m };
                        energy -= h.ability_cost;
                        continue;
                    }
                    Some(HeatMove::Attack(w)) => w,
                };
                energy -= knobs.cost(w);
                if Some(w) == h.wave {
                    s.minds[me].waves -= 1;
                    let mut targets = [0u8; MAX_UNITS];
                    let mut n = 0;
                    for e in lo as usize..hi as usize {
                        if s.life[e] > 0 {
                            targets[n] = e as u8;
                            n += 1;
                        }
                    }
                    for &e in &targets[..n] {
                        let e = e as usize;
                        let p = q.pair(me, e);
                        let Some(k) = p.side.heat.as_ref().and_then(|h| h.wave) else { continue };
                        if s.life[e] > 0 && self.strike(s, me, e, k, view(s.cond[me], s.cond[e]), out) {
                            return;
                        }
                    }
                } else {
                    spend(s, pair, w);
                    if self.strike(s, me, foe, w, v, out) {
                        return;
                    }
                }
                s.minds[me].heat += h.gain[w];
                if h.programming && s.minds[me].heat >= PROGRAMMING_HEAT {
                    s.minds[me] = HeatMind { heat: 0, malfunctioning: true, ..s.minds[me] };
                    break;
                }
            }
        }
        // Not while Malfunctioning: the AI table replaces every action.
        let may_clear = !s.minds[me].malfunctioning;
        self.end_activation(s, me, energy, may_clear, out);
    }

    /// Unit `me`'s activation (module docs, step 2).
    fn activate(&self, s: &mut SquadState, me: usize, out: &mut Outcome) {
        let q = &self.squads;
        let unit = &q.units[me];
        if unit.heat {
            return self.activate_hot(s, me, out);
        }
        s.done[me] = true;
        let mut energy = unit.energy;
        if s.cond[me] & STUNNED != 0 {
            energy -= energy / 2;
        }
        while energy >= ATTACK_ENERGY {
            let Some(foe) = T::pick(q, s, me) else { break };
            let pair = q.pair(me, foe);
            let v = view(s.cond[me], s.cond[foe]);
            let ammo_at = unit.ammo_at;
            let attack = pair.side.best(s.spot[foe], v, |w| s.ammo[ammo_at + pair.arsenal[w] as usize] > 0);
            if let Some(roll) = &pair.side.spotting
                && self.spot_pays(s, me, foe, roll, attack.map_or(0.0, |b| b.1))
            {
                energy -= SPOT_ENERGY;
                let placed = roll.law.draw(&mut s.streams.sides[unit.side as usize]).0;
                s.spot[foe] = (s.spot[foe] + placed).min(pair.side.cap);
                continue;
            }
            let Some((w, _)) = attack else { break };
            energy -= ATTACK_ENERGY;
            let counter = &mut s.ammo[ammo_at + pair.arsenal[w] as usize];
            if *counter != UNLIMITED {
                *counter -= 1;
            }
            let split = !pair.side.weapons[w].multi.is_empty();
            if if split { self.multi_attack(s, me, foe, w, out) } else { self.strike(s, me, foe, w, v, out) } {
                return;
            }
        }
        self.end_activation(s, me, energy, true, out);
    }

    /// `SPOT_ACTION` = when-it-pays in a battle: whether `me`'s Spot roll at `foe` is
    /// worth more than `attack`, the expected loss of `me`'s best attack at it. The
    /// tokens are shared (`SPOT_TOKENS_SHARED`), so the Spot's worth is the largest
    /// [`Spotting::gain`] over the side's living models (`me` included), each read from
    /// its own `ACTION_POLICY` ranking at `foe`, with its Ammo and conditions.
    #[inline]
    fn spot_pays(&self, s: &SquadState, me: usize, foe: usize, roll: &Spotting, attack: f64) -> bool {
        let q = &self.squads;
        let (tokens, cap) = (s.spot[foe], q.pair(me, foe).side.cap);
        let (lo, hi) = q.sides[q.units[me].side as usize];
        (lo as usize..hi as usize).filter(|&f| s.life[f] > 0).any(|f| {
            let (pair, at) = (q.pair(f, foe), q.units[f].ammo_at);
            let v = view(s.cond[f], s.cond[foe]);
            let loaded = |w: usize| s.ammo[at + pair.arsenal[w] as usize] > 0;
            roll.pays(tokens, cap, attack, |t| pair.side.best(t, v, loaded).map_or(0.0, |b| b.1))
        })
    }

    /// The end of unit `me`'s activation with `energy` ⚡ left: `CLEAR_POLICY` when
    /// `may_clear`, Burned costs 1 Integrity, Shocked, Blinded and Stunned end.
    #[inline(always)]
    fn end_activation(&self, s: &mut SquadState, me: usize, energy: u32, may_clear: bool, out: &mut Outcome) {
        if self.squads.clear && may_clear {
            clear_leftover(&mut s.cond[me], energy);
        }
        if s.cond[me] & BURNED != 0 {
            s.life[me] -= 1;
            if s.life[me] <= 0 {
                self.destroyed(s, me, None, out);
                return;
            }
        }
        s.cond[me] &= !ENDS_WITH_ACTIVATION;
    }
}

impl<T: Targeting> BattleRules for SquadGame<T> {
    type State = SquadState;
    /// The unit slot that activates.
    type Action = u8;

    fn sides(&self) -> usize {
        2
    }
    fn units(&self) -> usize {
        self.squads.units.len()
    }
    fn side_of(&self, unit: usize) -> usize {
        self.squads.units[unit].side as usize
    }
    fn max_turns(&self) -> u32 {
        self.squads.max_rounds
    }
    fn phases(&self) -> usize {
        1
    }
    fn pass_ends_turn(&self) -> bool {
        true
    }

    fn new_state(&self) -> SquadState {
        let idle = Xoshiro256PlusPlus::seed_from_u64(0);
        SquadState {
            life: [0; MAX_UNITS],
            cond: [0; MAX_UNITS],
            done: [true; MAX_UNITS],
            alive: [0; 2],
            ammo: self.squads.start_ammo.clone(),
            streams: TrialStreams { roll_off: idle.clone(), sides: [idle.clone(), idle] },
            roll_bits: 0,
            over: None,
            pending: [0; MAX_UNITS],
            minds: [HeatMind { heat: 0, malfunctioning: false, waves: 0, vents: 0 }; MAX_UNITS],
            spot: [0; MAX_UNITS],
        }
    }

    fn begin_battle(&self, s: &mut SquadState, rng: &mut Xoshiro256PlusPlus) {
        s.streams = TrialStreams::next(rng);
        s.alive = [0; 2];
        for (u, unit) in self.squads.units.iter().enumerate() {
            s.life[u] = unit.integrity as i32;
            s.cond[u] = unit.start;
            s.spot[u] = unit.spot;
            s.alive[unit.side as usize] += 1;
        }
        s.ammo.copy_from_slice(&self.squads.start_ammo);
        s.over = None;
        s.pending = [0; MAX_UNITS];
        for u in 0..self.squads.units.len() {
            let (lo, hi) = self.squads.sides[1 - self.squads.units[u].side as usize];
            s.minds[u] = (lo..hi).next().map_or(HeatMind { heat: 0, malfunctioning: false, waves: 0, vents: 0 }, |e| {
                HeatMind::of(&self.squads.pair(u, e as usize).side)
            });
        }
    }

    fn begin_turn(
        &self,
        s: &mut SquadState,
        turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize {
        let bit = turn % u64::BITS;
        if bit == 0 {
            s.roll_bits = s.streams.roll_off.next_u64();
        }
        let first = (s.roll_bits >> bit & 1) as u8;
        order[0] = first;
        order[1] = 1 - first;
        for u in 0..self.squads.units.len() {
            s.done[u] = s.life[u] <= 0;
        }
        2
    }

    fn budget(&self, s: &SquadState, side: usize, _phase: usize) -> u32 {
        let (lo, hi) = self.squads.sides[side];
        (lo..hi).filter(|&u| !s.done[u as usize]).count() as u32
    }

    fn act(&self, s: &mut SquadState, _side: usize, unit: u8, _rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        self.activate(s, unit as usize, out);
        self.resolve_armed(s, out);
    }

    fn end_turn(
        &self,
        s: &mut SquadState,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    ) -> Option<Ending> {
        // End phase: explosions of the round's last activation.
        self.resolve_armed(s, out);
        s.over
    }

    fn time_called(&self, _s: &SquadState, _out: &mut Outcome) -> Ending {
        Ending::Undecided
    }
}
