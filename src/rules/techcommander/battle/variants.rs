//! Shots the book plays under other modifiers than the side's scenario conditions,
//! compiled before the first battle only when a battle can make them:
//!
//! - **At a dug-in target** (`POLICY_DIG_IN`): "Opposing units get a −2 to target a
//!   dug-in unit" (3rd and 2nd edition "Dug-in"), so ram and death from above
//!   (`CLOSE_MODIFIERS`: "defender statuses (dug in, ...)"), Omega Overrides and the
//!   shots of an offload take `DUG_IN_PENALTY` too, and each draws the target's one
//!   return attack, as a weapon-system attack does ([`super::dig_in`]). Ruling: an
//!   overrun or trample is no attack roll (the target dodges), so dug in changes
//!   nothing there; it still draws the return attack ("If this unit is targeted").
//! - **Rallied Assault** (3rd edition "Rallied Assault": "No move modifiers apply to
//!   these attacks"): its members' shots are taken stationary, whatever the side's
//!   scenario movement.
//! - **The overrun's fire** (`OVERRUN_FIRE`; "Overrunning unit may fire its weapon(s) as
//!   described in normal move and shoot rules"): after the overrun resolves, in the
//!   same action and under the same jury rig, the unit fires its best ready weapon
//!   system (greedy score, by the state after the overrun) at the full-move modifier
//!   (MSV `FULL_MOVE_PENALTY`, auto-stabilized `AUTO_STABILIZED_MOVE_PENALTY`). The
//!   policies score an overrun as the overrun's score plus that shot's best score at
//!   the state before it (the follow-up's target may be any enemy, so it is not known
//!   before the overrun resolves).

use rand_xoshiro::Xoshiro256PlusPlus;

use super::best_shot::Sights;
use super::dig_in::dig_in_tables;
use super::game::{State, TcGame};
use super::omega::Omega;
use super::specials::Specials;
use super::tables::{NONE, STATES, Tables, Value};
use super::units::BattleUnit;
use super::variant_tables::Variants;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::conditions::{Conditions, Movement, Statuses};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// The greedy value of a target to an attacker ([`super::tables::skirmish_value`] or
/// [`super::tables::deathmatch_value`]).
pub type ValueFn = fn(&BattleUnit, &BattleUnit, &Options) -> Value;

/// `conditions` with every target dug in.
fn dug(conditions: &[Conditions]) -> Vec<Conditions> {
    conditions.iter().map(|c| Conditions { statuses: Statuses { dug_in: true, ..c.statuses }, ..*c }).collect()
}

/// `conditions` with every side's movement `m`.
fn moving(conditions: &[Conditions], m: Movement) -> Vec<Conditions> {
    conditions.iter().map(|c| Conditions { movement: m, ..*c }).collect()
}

/// The highest score in `tables` of any shot by `a` (every target, state, system and
/// target life; 0 when none): what a follow-up shot can add to a score.
pub(super) fn best_score_of(tables: &Tables, units: usize, a: usize) -> f32 {
    let mut best = 0.0f32;
    for t in 0..units {
        for state in 0..STATES {
            for &e in tables.row(a, t, state) {
                if e == NONE {
                    continue;
                }
                for life in 1..=STARTING_LIFE as i32 {
                    best = best.max(tables.score[tables.at_life(e, life) as usize][life as usize]);
                }
            }
        }
    }
    best
}

impl Variants {
    /// Compiles the variants `game` needs (its units, tables, special attacks, Omegas,
    /// offload tables, rallied groups and dug-in tables already set), widening the
    /// special attacks' skip bound and the Omegas' looks to cover them.
    pub fn compile(game: &mut TcGame, conditions: &[Conditions], value: ValueFn) {
        let o = game.o;
        let units = &game.units;
        let n = units.len();
        let mut v = Variants::default();
        if game.dug_in_tables.is_some() {
            if game.specials.any.iter().any(|&x| x) {
                let sp = Specials::new(units, &dug(conditions), &o, value);
                game.specials.widen_bound(&sp);
                v.specials_dug = Some(sp);
            }
            if let Some(dug_tables) = &game.dug_in_tables
                && o.omega_in_battles
                && units.iter().any(|u| u.kind == UnitKind::Msv)
            {
                let om = Omega::new(units, &dug(conditions), dug_tables, &o, value, game.jury_ok as f64);
                game.omega.merge_look(&om);
                v.omega_dug = Some(om);
            }
            if game.offload.is_some() {
                v.offload_dug = Some(Tables::new(units, &dug(&moving(conditions, Movement::Offload)), &o, value));
            }
        }
        let still_differs = conditions.iter().any(|c| c.movement != Movement::Stationary);
        if still_differs && game.assault_sides.iter().any(|&x| x) {
            let still = moving(conditions, Movement::Stationary);
            v.assault = Some(Tables::new(units, &still, &o, value));
            v.assault_dug = dig_in_tables(units, &still, &o, value);
        }
        if o.overrun_fire && (0..n).any(|a| game.specials.overruns(a)) {
            let full = moving(conditions, Movement::Full);
            let tables = Tables::new(units, &full, &o, value);
            let dug_tables = dig_in_tables(units, &full, &o, value);
            let extra: Vec<f32> = (0..n)
                .map(|a| {
                    let best = best_score_of(&tables, n, a);
                    dug_tables.as_ref().map_or(best, |d| best.max(best_score_of(d, n, a)))
                })
                .collect();
            game.specials.raise_overrun_bound(&extra);
            v.overrun_fire = Some(tables);
            v.overrun_fire_dug = dug_tables;
        }
        game.variants = v;
    }
}

impl TcGame {
    /// The dug-in variant of `base` (the battle's tables or one of their variants),
    /// if the battle has one.
    #[inline(always)]
    pub fn dug_of(&self, base: &Tables) -> Option<&Tables> {
        let v = &self.variants;
        if std::ptr::eq(base, &self.tables) {
            return self.dug_in_tables.as_ref();
        }
        [(&self.offload, &v.offload_dug), (&v.assault, &v.assault_dug), (&v.overrun_fire, &v.overrun_fire_dug)]
            .into_iter()
            .find(|(b, _)| b.as_ref().is_some_and(|b| std::ptr::eq(base, b)))
            .and_then(|(_, d)| d.as_ref())
    }

    /// The tables a shot of `base` at `t` reads now: `base`'s dug-in variant when `t` is
    /// dug in, else `base`.
    #[inline(always)]
    pub fn tables_at<'a>(&'a self, base: &'a Tables, s: &State, t: usize) -> &'a Tables {
        if s.dug_in[t]
            && let Some(d) = self.dug_of(base)
        {
            return d;
        }
        base
    }

    /// `a` fires `system` at `t` with the shots of `base`: at a dug-in `t` from its
    /// dug-in variant, then `t`'s return attack; at a covered `t`, at its shield
    /// ([`TcGame::aim`]; [`TcGame::fire`] for the battle's).
    pub fn fire_in(
        &self,
        base: &Tables,
        s: &mut State,
        a: usize,
        system: usize,
        t: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) {
        let returns = s.dug_in[t] && self.dug_of(base).is_some();
        self.fire_with(base, s, a, system, t, rng);
        if returns {
            self.return_attack(s, t, a, rng);
        }
    }

    /// The special attacks at `t` now: at dug-in targets when `t` is dug in.
    #[inline(always)]
    pub fn specials_for(&self, s: &State, t: usize) -> &Specials {
        match &self.variants.specials_dug {
            Some(d) if s.dug_in[t] => d,
            _ => &self.specials,
        }
    }

    /// The Omega Overrides at `t` now: at dug-in targets when `t` is dug in.
    #[inline(always)]
    pub fn omega_for(&self, s: &State, t: usize) -> &Omega {
        match &self.variants.omega_dug {
            Some(d) if s.dug_in[t] => d,
            _ => &self.omega,
        }
    }

    /// The tables of a Rallied Assault's shots (stationary; the battle's when every
    /// side is stationary anyway).
    #[inline(always)]
    pub fn assault_tables(&self) -> &Tables {
        self.variants.assault.as_ref().unwrap_or(&self.tables)
    }

    /// The best score of `a`'s overrun follow-up shot now (0 without `OVERRUN_FIRE`).
    pub(super) fn overrun_fire_score(&self, s: &State, a: usize) -> f32 {
        match &self.variants.overrun_fire {
            Some(t) => self.best_shot_with(t, false, s, a, false).map_or(0.0, |(_, _, score)| score.max(0.0)),
            None => 0.0,
        }
    }

    /// [`TcGame::overrun_fire_score`] with `sights`, the sights of `a`'s side now: the
    /// follow-up shot searches them as they are unless they see only the least-life
    /// enemies (then it sees every enemy, as the shot does).
    #[inline]
    pub(super) fn overrun_fire_score_in(&self, s: &State, a: usize, sights: &Sights) -> f32 {
        match &self.variants.overrun_fire {
            Some(t) if !sights.focus => {
                self.best_shot_in(t, false, s, a, sights).map_or(0.0, |(_, _, score)| score.max(0.0))
            }
            _ => self.overrun_fire_score(s, a),
        }
    }

    /// `a` just overran: under `OVERRUN_FIRE` it fires its best ready weapon system at
    /// the enemy the greedy score picks now, at the full-move modifier, under the
    /// action's jury rig (`fc_lost`); the system is spent for the turn.
    pub(super) fn overrun_fire(&self, s: &mut State, a: usize, fc_lost: bool, rng: &mut Xoshiro256PlusPlus) {
        let Some(base) = &self.variants.overrun_fire else {
            return;
        };
        let Some((sys, t, score)) = self.best_shot_with(base, false, s, a, false) else {
            return;
        };
        if score <= 0.0 {
            return;
        }
        let returns = s.dug_in[t] && self.dug_of(base).is_some();
        s.used[a] |= 1 << sys;
        self.spend_round(s, a, sys);
        self.shot(base, s, a, sys, t, fc_lost, rng);
        if returns {
            self.return_attack(s, t, a, rng);
        }
    }
}
