//! Bubble shields in battles (`BUBBLE_SHIELD`; docs/battles.md "The bubble shield"),
//! played as in duels, unit by unit:
//!
//! - A carrier attacked by a shot with no shield covering it drops one, while any is
//!   left, but not in a turn it dropped, lost or left one. A covered unit is revealed
//!   ("All units within the shield are revealed") and stays so at Reset while its
//!   shield stands.
//! - While a shield covers its carrier, a shot at the carrier hits the shield (size AC5,
//!   damage AC1, the line's modifiers but none of the carrier's postures; the compiled
//!   tables of [`super::shield_tables`]) and the shot that breaks it loses its overflow;
//!   later shots that turn reach the unit. A bypassing attacker (`SHIELD_BYPASS`) fires
//!   at the unit from inside the shield, after at least a half move.
//! - A covered unit that attacks leaves its shield first ("cannot shoot from inside to
//!   the outside"), unless it is an auto-stabilized vehicle, which fires from outside
//!   during its move and returns inside (`SHIELD_SORTIE`).
//! - Reset: a standing shield is back at 20.
//!
//! Rulings for the battles (each the project's, with its reason):
//! - A shield covers its carrier only. Under fixed geometry (`BATTLE_GEOMETRY`) no unit
//!   is placed within 5 inches of another, so the one unit sure to stand inside is the
//!   one that dropped it "adjacent to the controlling unit".
//! - Special attacks (ram, death from above, overrun, trample) are no shots: the
//!   attacker enters the shield ("units can enter or leave"), so they reach the unit
//!   and draw no drop. A repair reaches its friend the same way.
//! - A dug-in carrier's shield still draws its return attack: the carrier was targeted.
//! - The greedy score of a shot at a shield is `DAMAGE_WEIGHT` × V(carrier) × P(the shot
//!   breaks it) ([`super::shield_tables::break_value`]): a broken shield is 20 life of
//!   protection the carrier loses, scored as §2.7's damage term scores 20 life; damage
//!   short of a break scores nothing, as against any target that resets to 20
//!   (techcommander-battles.md §2.7). Breaking it is no kill: valued as one, the policy
//!   spent its fire on shields while the carriers' friends killed its own units.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{State, TcGame};
use super::omega::Omega;
use super::tables::{NONE, Tables, state_of};
use crate::rules::techcommander::rulings::SHIELD_LIFE;

/// What a shot by `a` at `t` reads now ([`TcGame::aim`]).
#[derive(Debug, Clone, Copy)]
pub struct Aim<'t> {
    pub tables: &'t Tables,
    /// The life the shot meets: the shield's when [`Aim::shield`], else the unit's.
    pub life: i32,
    /// The shot hits `t`'s shield.
    pub shield: bool,
}

impl TcGame {
    /// The life of the shield a shot at `t` meets now: the one covering it, or the fresh
    /// one it would drop (20); 0 when none.
    #[inline(always)]
    pub fn shield_life(&self, s: &State, t: usize) -> i32 {
        if s.cover[t] > 0 {
            s.cover[t] as i32
        } else if s.spare[t] > 0 && !s.settled[t] {
            SHIELD_LIFE as i32
        } else {
            0
        }
    }

    /// The tables and life a weapon shot of `base` (the battle's tables or a variant:
    /// offload, Rallied Assault, an overrun's fire) by `a` at `t` reads now: at `t`'s
    /// shield while one stands or would be dropped, at the unit from inside it when `a`
    /// bypasses it, else at the unit (dug in or not: [`TcGame::tables_at`]).
    #[inline(always)]
    pub fn aim<'t>(&'t self, base: &'t Tables, s: &State, a: usize, t: usize) -> Aim<'t> {
        if self.shields.any
            && let Some(aim) = self.aim_shield(base, s, a, t)
        {
            return aim;
        }
        Aim { tables: self.tables_at(base, s, t), life: s.life[t], shield: false }
    }

    /// [`TcGame::aim`] where a shield stands or would be dropped (out of line).
    #[inline(never)]
    fn aim_shield<'t>(&'t self, base: &'t Tables, s: &State, a: usize, t: usize) -> Option<Aim<'t>> {
        let sh = &self.shields;
        let life = if sh.count[t] == 0 { 0 } else { self.shield_life(s, t) };
        if life == 0 {
            return None;
        }
        if sh.bypass[a] {
            // After at least a half move: the battle's shots; the variants' movement
            // (offload, stationary assault, an overrun's full move) is their own.
            if !std::ptr::eq(base, &self.tables) {
                return None;
            }
            let tables = match (&sh.bypass_dug, &sh.bypass_base) {
                (Some(dug), _) if s.dug_in[t] => dug,
                (_, Some(moved)) => moved,
                _ => return None,
            };
            return Some(Aim { tables, life: s.life[t], shield: false });
        }
        Some(Aim { tables: self.shield_of(base), life, shield: true })
    }

    /// The shield variant of `base` ([`super::shield_tables::Shields`]).
    pub(super) fn shield_of(&self, base: &Tables) -> &Tables {
        let (sh, v) = (&self.shields, &self.variants);
        [
            (Some(&self.tables), &sh.base),
            (self.offload.as_ref(), &sh.offload),
            (v.assault.as_ref(), &sh.assault),
            (v.overrun_fire.as_ref(), &sh.overrun_fire),
        ]
        .into_iter()
        .find(|(b, _)| b.is_some_and(|b| std::ptr::eq(base, b)))
        .and_then(|(_, shield)| shield.as_ref())
        .expect("every shot's tables have a shield variant")
    }

    /// The Omega Overrides of `a` at `t` now and the life they meet: at `t`'s shield
    /// while one stands or would be dropped (an MSV never bypasses it), else as
    /// [`TcGame::omega_for`].
    #[inline(always)]
    pub fn omega_at(&self, s: &State, a: usize, t: usize) -> (&Omega, i32, bool) {
        if self.shields.any && self.shields.count[t] > 0 && !self.shields.bypass[a] {
            let c = self.shield_life(s, t);
            if c > 0
                && let Some(om) = &self.shields.omega
            {
                return (om, c, true);
            }
        }
        (self.omega_for(s, t), s.life[t], false)
    }

    /// `t` is attacked by a shot: with no shield covering it, it drops one if it may
    /// (and is revealed).
    #[inline(always)]
    pub(super) fn shelter(&self, s: &mut State, t: usize) {
        if self.shields.any && s.cover[t] == 0 && s.spare[t] > 0 && !s.settled[t] {
            s.cover[t] = SHIELD_LIFE as u8;
            s.spare[t] -= 1;
            s.settled[t] = true;
            s.hidden[t] = false;
        }
    }

    /// `a` attacks: a covered unit leaves its shield first, unless it sorties.
    #[inline(always)]
    pub(super) fn leave_shield(&self, s: &mut State, a: usize) {
        if self.shields.any && s.cover[a] > 0 && !self.shields.sorties[a] {
            s.cover[a] = 0;
            s.settled[a] = true;
        }
    }

    /// `loss` of an attack by `a` lands on `t`'s shield (the overflow of the attack
    /// that breaks it lost) or on `t` itself.
    #[inline(always)]
    pub(super) fn land(&self, s: &mut State, shield: bool, t: usize, loss: u32, a: usize) {
        if shield {
            s.cover[t] = if loss >= s.cover[t] as u32 { 0 } else { s.cover[t] - loss as u8 };
        } else {
            self.take(s, t, loss, a);
        }
    }

    /// One weapon-system shot of `a` at `t` with the shots of `base`, fire control lost
    /// when `fc_lost` (the actor's jury rig, round and use already taken): `t` shelters,
    /// one draw of the life lost from what the shot meets.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn shot(
        &self,
        base: &Tables,
        s: &mut State,
        a: usize,
        system: usize,
        t: usize,
        fc_lost: bool,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        self.shelter(s, t);
        let aim = self.aim(base, s, a, t);
        let e = aim.tables.entry(a, t, state_of(fc_lost, self.smoked(s, a, t), s.offline[t]), system);
        if e == NONE {
            return;
        }
        let loss = aim.tables.samplers[aim.tables.at_life(e, aim.life) as usize].sample(rng);
        self.land(s, aim.shield, t, loss, a);
    }

    /// Reset: a standing shield is back at 20; any unit may drop one again.
    pub(super) fn recharge_shields(&self, s: &mut State) {
        if !self.shields.any {
            return;
        }
        for u in 0..self.units.len() {
            if s.cover[u] > 0 {
                s.cover[u] = SHIELD_LIFE as u8;
            }
            s.settled[u] = false;
        }
    }
}

#[cfg(test)]
#[path = "shield_tests.rs"]
mod tests;
