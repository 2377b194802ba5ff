//! The force-against-force battle as rules of the shared engine ([`BattleRules`]) and
//! its firing order ([`ListingOrder`]).
//!
//! One engine turn is one game turn (§5): Initiative and Movement are not played
//! (`ENGAGEMENT_MOVEMENT = NONE`: the conditions fix range and facing, so who moves
//! first changes nothing). Targeting and Firing are the engine's two phases: side A's
//! units fire in phase 0, side B's in phase 1, each unit (a step, in listing order) with
//! every gunner in card order, each gunner at the target its policy picks from the
//! start-of-turn view ([`super::target`]). This order is the rules document's
//! `SEQUENTIAL_BOOKKEEPING` (attacking unit in listing order, then gunners in card
//! order): armour and marked lines update at once, but destruction takes effect in
//! (Aftermath), so **a unit destroyed in turn t still fires in turn t** (every unit in
//! the fight at the start of the turn fires). (Clean Up) ([`BattleRules::end_turn`])
//! removes the destroyed; a side with no unit left loses, both sides emptied in one turn
//! is a draw, and at the turn cap the battle is a draw (§5).
//!
//! Ruling `LOST_SHOT` (the book is silent): a gunner whose target was destroyed earlier
//! in the same Firing Phase does not fire (targets are picked in the Targeting Phase,
//! before any shot), and draws no random number. The duel plays the same: once its
//! target is down, a side's later gunners do not roll.
//!
//! Random draws: one `u64` per gunner step (the table sampler; `MC_SAMPLER = DICE` rolls
//! every die), in the order above, exactly as the duel draws them ([`AttackRun::step`]),
//! plus the `random` policy's one draw per gunner facing two enemies or more. So a battle
//! of one unit a side replays the duel draw for draw.
//!
//! "Able to fight" (§5) is "not out of action" (§3 `OUT_OF_ACTION`, card-free: the Dead
//! box, a second 20, 100 lines marked): a unit with no weapon in range stays in the
//! fight (it can still be destroyed), as in the duel.
//!
//! [`AttackRun::step`]: super::super::attack_run::AttackRun::step

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::battle::{BattlePolicy, BattleRules, Ending, MAX_SIDES, MAX_UNITS, Outcome};

use super::super::attack_run::State;
use super::super::gunner::resolve;
use super::compiled::Forces;
use super::state::FireState;
use super::target::Targeting;

/// The battle as engine rules; `T` is the targeting policy.
#[derive(Debug, Clone)]
pub struct Firefight<T> {
    pub forces: Forces,
    pub targeting: T,
}

/// A destroyed unit's ECV in thousandths (the outcome's integer points).
fn milli(ecv: f64) -> u64 {
    (ecv * 1000.0).round() as u64
}

impl<T: Targeting> BattleRules for Firefight<T> {
    type State = FireState;
    type Action = u8;

    fn sides(&self) -> usize {
        2
    }
    fn units(&self) -> usize {
        self.forces.units.len()
    }
    fn side_of(&self, unit: usize) -> usize {
        self.forces.units[unit].side as usize
    }
    fn max_turns(&self) -> u32 {
        self.forces.max_turns
    }
    fn phases(&self) -> usize {
        2
    }
    fn pass_ends_turn(&self) -> bool {
        false
    }
    fn simultaneous(&self) -> bool {
        true
    }

    fn new_state(&self) -> FireState {
        let zero = State { armour: 0, lines: 0 };
        FireState {
            card: [zero; MAX_UNITS],
            seen: [zero; MAX_UNITS],
            out: [false; MAX_UNITS],
            down: [false; MAX_UNITS],
            fired: [false; MAX_UNITS],
            in_fight: [0; 2],
            ammo: self.forces.ammo_start.clone(),
        }
    }

    fn begin_battle(&self, s: &mut FireState, _rng: &mut Xoshiro256PlusPlus) {
        let n = self.units();
        s.card[..n].copy_from_slice(&self.forces.fresh);
        s.out.fill(false);
        s.down.fill(false);
        s.in_fight = [self.forces.count[0] as u32, self.forces.count[1] as u32];
        s.ammo.copy_from_slice(&self.forces.ammo_start);
    }

    fn begin_turn(
        &self,
        s: &mut FireState,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize {
        let n = self.units();
        s.seen[..n].copy_from_slice(&s.card[..n]);
        s.fired[..n].copy_from_slice(&s.out[..n]);
        order[0] = 0;
        order[1] = 1;
        2
    }

    fn budget(&self, s: &FireState, side: usize, phase: usize) -> u32 {
        if side == phase { s.in_fight[side] } else { 0 }
    }

    fn act(&self, s: &mut FireState, side: usize, unit: u8, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        let u = unit as usize;
        s.fired[u] = true;
        let enemy = 1 - side;
        if self.forces.units[u].choosy {
            return self.act_choosy(s, side, u, rng, out);
        }
        for g in 0..self.forces.units[u].gunners {
            let Some(v) = self.targeting.pick(&self.forces, s, u, g, enemy, rng) else { return };
            if s.down[v] {
                continue; // LOST_SHOT
            }
            self.shot(s, side, u, v, g, rng, out);
        }
    }

    fn end_turn(
        &self,
        s: &mut FireState,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        _out: &mut Outcome,
    ) -> Option<Ending> {
        for v in 0..self.units() {
            if s.down[v] {
                s.down[v] = false;
                s.out[v] = true;
                s.in_fight[self.side_of(v)] -= 1;
            }
        }
        match s.in_fight {
            [0, 0] => Some(Ending::Draw),
            [0, _] => Some(Ending::Winner(1)),
            [_, 0] => Some(Ending::Winner(0)),
            _ => None,
        }
    }

    fn time_called(&self, _s: &FireState, _out: &mut Outcome) -> Ending {
        Ending::Draw
    }
}

impl<T: Targeting> Firefight<T> {
    /// Gunner plan `p` of unit `u` (side `side`) rolls at `v`, scoring a kill.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn shot(
        &self,
        s: &mut FireState,
        side: usize,
        u: usize,
        v: usize,
        p: usize,
        rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    ) {
        if self.forces.run(u, v).step(p, &mut s.card[v], rng) {
            let enemy = 1 - side;
            s.down[v] = true;
            out.lost[v] += 1;
            out.kills[u] += 1;
            out.score[side] += 1;
            let pts = milli(self.forces.units[v].ecv);
            out.points_lost_milli[enemy] += pts;
            out.points_destroyed_milli[side] += pts;
        }
    }

    /// A unit whose fire is chosen turn by turn ([`super::compiled::Slot::choosy`]): every
    /// gunner picks its target first (in card order, as the Targeting Phase comes before
    /// any shot), then the unit chooses what each fires from the rounds left and the
    /// targets (`FIRING_LIMITS`, `AMMO`, one physical attack per unit:
    /// [`resolve`]), then the gunners fire in card order. A gunner that loses its shot
    /// (`LOST_SHOT`) spends no round.
    fn act_choosy(&self, s: &mut FireState, side: usize, u: usize, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        let f = &self.forces;
        let slot = &f.units[u];
        let mut targets = Vec::with_capacity(slot.gunners);
        for g in 0..slot.gunners {
            let Some(v) = self.targeting.pick(f, s, u, g, 1 - side, rng) else { return };
            targets.push(v);
        }
        let masks: Vec<u32> = targets
            .iter()
            .enumerate()
            .map(|(g, &v)| {
                let m = &f.run(u, v).arsenal.as_ref().expect("a compiled arsenal").menus[g];
                let at = slot.ammo_at[g];
                (0..m.counted.len()).fold(0u32, |k, b| k | (u32::from(s.ammo[at + b] > 0) << b))
            })
            .collect();
        let chosen = resolve(targets.iter().zip(&masks).enumerate().map(|(g, (&v, &k))| {
            let m = &f.run(u, v).arsenal.as_ref().expect("a compiled arsenal").menus[g];
            (m.fire[k as usize], m.punch[k as usize])
        }));
        for (g, p) in chosen.into_iter().enumerate() {
            let (Some(p), v) = (p, targets[g]) else { continue };
            if s.down[v] {
                continue; // LOST_SHOT
            }
            let uses = f.run(u, v).arsenal.as_ref().expect("a compiled arsenal").uses[p];
            for b in 0..32 {
                if uses >> b & 1 == 1 {
                    s.ammo[slot.ammo_at[g] + b] -= 1;
                }
            }
            self.shot(s, side, u, v, p, rng, out);
        }
    }
}

/// Which unit fires next: the first of its side, in listing order, that was in the
/// fight at the start of the turn and has not fired (the rules document's
/// `SEQUENTIAL_BOOKKEEPING`). Draws nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ListingOrder;

impl<T: Targeting> BattlePolicy<Firefight<T>> for ListingOrder {
    #[inline]
    fn choose(
        &self,
        game: &Firefight<T>,
        s: &FireState,
        side: usize,
        _phase: usize,
        _rng: &mut Xoshiro256PlusPlus,
    ) -> Option<u8> {
        game.forces.slots(side).find(|&u| !s.fired[u]).map(|u| u as u8)
    }
}
