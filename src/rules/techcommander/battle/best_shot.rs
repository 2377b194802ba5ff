//! The best-shot search of the battle policies: the enemies a side may target now
//! ([`Sights`], read once per policy step) and each actor's best weapon system or
//! special attack against them by the greedy score (§2.7), from the ranked tables
//! compiled before the first battle ([`Tables::ranked`]), with no allocation.

use std::cell::OnceCell;

use super::classes::{MAX_CLASSES, NO_CLASS};
use super::game::{State, TcGame};
use super::specials::{OVERRUN, Specials};
use super::tables::{NO_SYSTEM, NONE, Tables, Weight, ranked_target_sight, sight_of, state, state_of};
use arrayvec::ArrayVec;

use crate::engine::battle::MAX_UNITS;
use crate::engine::battle::slots::ones;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// The enemies a side may target now, read once per policy step ([`TcGame::sights`]),
/// in the side's enemy order.
#[derive(Debug, Clone)]
pub struct Sights {
    /// The enemies, in order (an `ArrayVec`: nothing to clear per step).
    pub targets: ArrayVec<Sight, MAX_UNITS>,
    /// Some enemy on the field is infiltrated, so left out.
    pub hidden: bool,
    /// Only the enemies with the least life.
    pub focus: bool,
}

impl Sights {
    /// No enemy yet, to be filled by [`TcGame::see`].
    #[inline(always)]
    pub fn new(focus: bool) -> Sights {
        Sights { targets: ArrayVec::new(), hidden: false, focus }
    }
}

/// One enemy of [`Sights`].
#[derive(Debug, Clone, Copy)]
pub struct Sight {
    /// Its unit slot.
    pub slot: u8,
    /// Current life (1..=20).
    pub life: u8,
    /// The target's [`sight_of`] bits: smoked 1, gear offline 2.
    pub sight: u8,
    /// The slot whose [`Tables::ranked`] rows its shots read: the first of its card
    /// and side ([`Tables::rep`]).
    pub row: u8,
}

impl TcGame {
    /// The best (system, target, score) of `a` by the greedy score, or by least target
    /// life first when `focus`; ties go to the earlier target, then the earlier system.
    /// The same scores as [`TcGame::score`], with the per-actor work done once.
    #[inline(always)]
    pub fn best_shot(&self, s: &State, a: usize, focus: bool) -> Option<(usize, usize, f32)> {
        self.best_shot_with(&self.tables, true, s, a, focus)
    }

    /// [`TcGame::best_shot`] from `tables`, with the special attacks when `specials`.
    #[inline]
    pub fn best_shot_with(
        &self,
        tables: &Tables,
        specials: bool,
        s: &State,
        a: usize,
        focus: bool,
    ) -> Option<(usize, usize, f32)> {
        // Filled in place: a `Sights` returned by value is copied.
        let mut sights = Sights::new(focus);
        self.see(s, self.facts[a].side as usize, false, &mut sights);
        self.best_shot_in(tables, specials, s, a, &sights)
    }

    /// The enemies of `side` it may target now ([`Sights`]), all of them or, when
    /// `focus`, those with the least life.
    #[inline(always)]
    pub fn sights(&self, s: &State, side: usize, focus: bool) -> Sights {
        let mut v = Sights::new(focus);
        self.see(s, side, false, &mut v);
        v
    }

    /// Fills the empty `v` with [`TcGame::sights`] of `side` (under `v.focus`), with the
    /// infiltrated enemies too when `seer` (an actor that ignores infiltration:
    /// [`TcGame::targetable_by`]). In place: a policy step's sights are not copied.
    ///
    /// An enemy of a twin class ([`TcGame::class`]) in plain sight (not smoked, gear
    /// online, not dug in) at the life of an earlier one of its class is left out: it
    /// would score exactly as that one does, and every search keeps the earlier of equal
    /// scores ([`super::classes`]).
    #[inline(always)]
    pub(super) fn see(&self, s: &State, side: usize, seer: bool, v: &mut Sights) {
        let focus = v.focus;
        let mut least = i32::MAX;
        // Per twin class, a bit per life of an enemy in plain sight already in `v`.
        let mut seen = [0u32; MAX_CLASSES];
        debug_assert_eq!((s.up, s.field), s.standing(), "State::up out of step with present and life");
        // The standing enemies in slot order (the order of `self.enemies[side]`): the
        // fallen cost nothing.
        for tu in ones(s.up & self.enemy_bits[side]) {
            let t = tu as u8;
            if s.hidden[tu] {
                v.hidden = true;
                if !seer {
                    continue;
                }
            }
            let life = s.life[tu];
            if focus {
                if life > least {
                    continue;
                }
                if life < least {
                    least = life;
                    v.targets.clear();
                }
            }
            let sight = sight_of(state_of(false, s.smoked[tu], s.offline[tu])) as u8;
            let class = self.class[tu];
            if class != NO_CLASS && sight == 0 && !s.dug_in[tu] && life <= STARTING_LIFE as i32 {
                // A twin seen at this life already (with `focus`, a clear above only
                // dropped enemies of more life than any seen since).
                let bit = 1u32 << life;
                let seen = &mut seen[class as usize];
                if *seen & bit != 0 {
                    continue;
                }
                *seen |= bit;
            }
            // At most MAX_UNITS - 1 enemies: never full.
            let row = self.tables.rep[tu];
            v.targets.push(Sight { slot: t, life: life.clamp(1, STARTING_LIFE as i32) as u8, sight, row });
        }
    }

    /// The best Omega Override of MSV `a` now and its score (greedy, or at the
    /// least-life enemy when `focus`): only with no earlier action this turn
    /// ([`super::omega::Omega::fresh`]), every system it fires ready, and a score above
    /// the best sequence of ordinary attacks it could make instead at that target (two,
    /// one when under-crewed: [`super::omega`]). Ties go to the earlier target.
    #[inline]
    pub fn best_omega(&self, s: &State, a: usize, focus: bool) -> Option<(usize, f32)> {
        let om = &self.omega;
        if s.actions[a] != om.look_at[a] {
            return None;
        }
        self.best_omega_in(s, a, &self.sights(s, self.facts[a].side as usize, focus))
    }

    /// [`TcGame::best_omega`] over the targets of `sights` (the actor's side's).
    #[inline]
    pub fn best_omega_in(&self, s: &State, a: usize, sights: &Sights) -> Option<(usize, f32)> {
        let om = &self.omega;
        if s.actions[a] != om.look_at[a] {
            return None;
        }
        let ready = self.ready_systems(s, a);
        let all = self.facts[a].all;
        if ready == all && !om.beats[a] {
            return None;
        }
        let red = self.in_the_red(s, a) as usize;
        let own_smoke = (self.o.smoke_both_ways && s.smoked[a]) as u8;
        let mut best: Option<(usize, f32)> = None;
        for target in &sights.targets {
            let t = target.slot as usize;
            let sight = target.sight | own_smoke;
            let (om, shield_life, shield) = self.omega_at(s, a, t);
            let e = om.entry(a, t, super::omega::omega_state(sight & 1 != 0, sight & 2 != 0));
            if e == NONE || om.systems[e as usize] & !ready != 0 {
                continue;
            }
            let life = if shield { shield_life as usize } else { target.life as usize };
            let score = om.score[e as usize][red][life];
            let wins = if ready == all {
                om.wins[e as usize][red] & 1 << life != 0
            } else {
                score > om.best_over(e, red, ready, life)
            };
            if wins && best.is_none_or(|b| score > b.1) {
                best = Some((t, score));
            }
        }
        best
    }

    /// [`TcGame::best_shot_with`] over the targets of `sights` (the actor's side's, read
    /// from the same state).
    #[inline(always)]
    pub fn best_shot_in(
        &self,
        tables: &Tables,
        specials: bool,
        s: &State,
        a: usize,
        sights: &Sights,
    ) -> Option<(usize, usize, f32)> {
        // A shot at a covered enemy reads a shield variant of `tables`, a shot at a
        // dug-in enemy its dug-in variant ([`TcGame::aim`]): kept out of line.
        if self.shields.any {
            return self.best_shot_shielded(tables, specials, s, a, sights);
        }
        if let Some(dug) = self.dug_of(tables) {
            return self.best_shot_dug(tables, dug, specials, s, a, sights);
        }
        self.best_shot_at(tables, |_, life| (tables, life), specials, s, a, sights)
    }

    /// [`TcGame::best_shot_in`] of `tables` in a battle with bubble shields: each shot
    /// at `t` read as [`TcGame::aim`] gives it, at the life it meets (the shield's, or
    /// the unit's).
    #[inline(never)]
    fn best_shot_shielded(
        &self,
        tables: &Tables,
        specials: bool,
        s: &State,
        a: usize,
        sights: &Sights,
    ) -> Option<(usize, usize, f32)> {
        let at = |t: usize, life: u8| {
            let aim = self.aim(tables, s, a, t);
            (aim.tables, if aim.shield { aim.life as u8 } else { life })
        };
        self.best_shot_at(tables, at, specials, s, a, sights)
    }

    /// [`TcGame::best_shot_in`] of `tables`, the shots at a dug-in target read from
    /// `dug` (the same layout).
    #[inline(never)]
    fn best_shot_dug(
        &self,
        tables: &Tables,
        dug: &Tables,
        specials: bool,
        s: &State,
        a: usize,
        sights: &Sights,
    ) -> Option<(usize, usize, f32)> {
        self.best_shot_at(tables, |t, life| (if s.dug_in[t] { dug } else { tables }, life), specials, s, a, sights)
    }

    /// The best-shot search of [`TcGame::best_shot_in`], each shot at `t` (seen at
    /// `life`) read from `at(t, life)`: tables of the same layout as `tables` (the same
    /// units, or their shield targets), and the life the shot meets.
    #[inline(always)]
    fn best_shot_at<'t>(
        &self,
        tables: &'t Tables,
        at: impl Fn(usize, u8) -> (&'t Tables, u8),
        specials: bool,
        s: &State,
        a: usize,
        sights: &Sights,
    ) -> Option<(usize, usize, f32)> {
        // An actor that ignores infiltration sees the hidden enemies too.
        let given = sights;
        let seen;
        let sights = if sights.hidden && self.facts[a].sees {
            seen = self.sights_seeing(s, self.facts[a].side as usize, sights.focus);
            &seen
        } else {
            sights
        };
        let ready = self.ready_systems(s, a);
        let has_specials = specials && self.facts[a].specials;
        if ready == 0 && !has_specials {
            return None;
        }
        let (weight, kept_weight) = self.kept_weight(s, a);
        let specials_left = if has_specials { !(s.used[a] >> self.facts[a].nsys) } else { 0 };
        let overrun = (specials_left & (1 << OVERRUN) != 0 && self.variants.overrun_fire.is_some()).then(|| Overrun {
            s,
            sights: given,
            bonus: OnceCell::new(),
        });
        let shooter = Shooter {
            a,
            ready,
            kept_weight,
            // The actor's own smoke lies on every line it fires (`SMOKE_BOTH_WAYS`).
            own_smoke: (self.o.smoke_both_ways && s.smoked[a]) as u8,
            own_life: s.life[a],
            specials_left,
            overrun,
        };
        if tables.any_moneyshot {
            return self.best_shot_moneyshot(at, &shooter, s, sights);
        }
        let mut best = Best::NONE;
        // The rows of the actor's and each target's first twin: the same values.
        let actor_row = tables.ranked_actor(tables.rep[a] as usize, weight);
        for target in &sights.targets {
            let t = target.slot as usize;
            let sight = (target.sight | shooter.own_smoke) as usize;
            // The best (else the second best) system is ready, so it is the best ready
            // one; no system at all, nothing to fire.
            let (tables, life) = at(t, target.life);
            let [first, second] =
                tables.ranked_at(actor_row + ranked_target_sight(target.row as usize, sight), life as usize);
            if first.0 == NO_SYSTEM {
                // No weapon system reaches `t` in this state.
            } else if ready & (1 << first.0) != 0 {
                best.offer(first.1, first.0 as usize, t);
            } else if second.0 != NO_SYSTEM && ready & (1 << second.0) != 0 {
                best.offer(second.1, second.0 as usize, t);
            } else {
                self.every_system(tables, &shooter, t, sight, life, &mut best);
            }
            // Special attacks (which reach the unit itself), unless none can beat the best
            // so far ([`Specials::bound`]).
            let life = target.life;
            if shooter.specials_left != 0 && self.specials.bound(a, t, life as usize) > best.score {
                self.specials_at(self.specials_for(s, t), &shooter, t, sight, life, &mut best);
            }
        }
        best.found()
    }

    /// The best-shot search of [`TcGame::best_shot_at`] when some shot has a 2nd-edition
    /// Moneyshot variant: every ready system at every target (out of line).
    #[inline(never)]
    fn best_shot_moneyshot<'t>(
        &self,
        at: impl Fn(usize, u8) -> (&'t Tables, u8),
        shooter: &Shooter,
        s: &State,
        sights: &Sights,
    ) -> Option<(usize, usize, f32)> {
        let mut best = Best::NONE;
        for target in &sights.targets {
            let t = target.slot as usize;
            let sight = (target.sight | shooter.own_smoke) as usize;
            let (tables, life) = at(t, target.life);
            self.every_system(tables, shooter, t, sight, life, &mut best);
            self.specials_at(self.specials_for(s, t), shooter, t, sight, target.life, &mut best);
        }
        best.found()
    }

    /// [`TcGame::sights`] with the infiltrated enemies too, for an actor that ignores
    /// infiltration (out of line: rare).
    #[inline(never)]
    fn sights_seeing(&self, s: &State, side: usize, focus: bool) -> Sights {
        let mut v = Sights::new(focus);
        self.see(s, side, true, &mut v);
        v
    }

    /// How `a`'s shots weigh the fire-control-kept tables now ([`Weight`] and the weight
    /// itself): 1 out of the red, else by the jury rig (this turn's result when it is
    /// kept for the turn).
    #[inline(always)]
    pub(super) fn kept_weight(&self, s: &State, a: usize) -> (Weight, f32) {
        if !self.in_the_red(s, a) {
            (Weight::Kept, 1.0)
        } else if self.o.jury_rig_per_action || s.jury[a] == 0 {
            (if self.jury_ok >= 1.0 { Weight::Kept } else { Weight::Mixed }, self.jury_ok)
        } else if s.jury[a] == 1 {
            (Weight::Kept, 1.0)
        } else {
            (Weight::Lost, 0.0)
        }
    }

    /// The best ready weapon system of `a` against `t` alone, at the target life `life`
    /// (clamped to 1..=20), with its greedy score; ties go to the earlier system. `None`
    /// when no ready system can fire at `t`. The same offers as the best-shot search
    /// makes at one target, without special attacks.
    pub fn best_system_at(&self, s: &State, a: usize, t: usize, life: i32) -> Option<(usize, f32)> {
        self.best_system_in(&self.tables, s, a, t, life)
    }

    /// [`TcGame::best_system_at`] with the shots of `base` (the battle's tables or a
    /// variant of them, [`TcGame::tables_at`]). While a shield covers `t` (or would be
    /// dropped), a shot that hits it is scored at the shield's life now, not `life`
    /// ([`TcGame::aim`]).
    pub fn best_system_in(&self, base: &Tables, s: &State, a: usize, t: usize, life: i32) -> Option<(usize, f32)> {
        let aim = self.aim(base, s, a, t);
        self.best_system_from(aim.tables, s, a, t, if aim.shield { aim.life } else { life })
    }

    /// [`TcGame::best_system_in`] from `tables` as they are (no variant chosen), at the
    /// life `life` the shot meets (clamped to 1..=20).
    pub fn best_system_from(&self, tables: &Tables, s: &State, a: usize, t: usize, life: i32) -> Option<(usize, f32)> {
        let shooter = Shooter {
            a,
            ready: self.ready_systems(s, a),
            kept_weight: self.kept_weight(s, a).1,
            own_smoke: 0,
            own_life: s.life[a],
            specials_left: 0,
            overrun: None,
        };
        let sight = sight_of(state_of(false, self.smoked(s, a, t), s.offline[t]));
        let mut best = Best::NONE;
        self.every_system(tables, &shooter, t, sight, life.clamp(1, STARTING_LIFE as i32) as u8, &mut best);
        best.found().map(|(system, _, score)| (system, score))
    }

    /// Offers every ready weapon system of the shooter against `t` (seen with `sight`,
    /// at `life` 1..=20), in system order, fire-control states mixed by its weight.
    /// Out of line: the ranked fast path of [`TcGame::best_shot_at`] serves most shots.
    #[inline(never)]
    fn every_system(&self, tables: &Tables, sh: &Shooter, t: usize, sight: usize, life: u8, best: &mut Best) {
        let kept_state = state_of(false, sight & 1 != 0, sight & 2 != 0);
        let kept = tables.row(sh.a, t, kept_state);
        let lost = tables.row(sh.a, t, kept_state | 2);
        let (life_now, l) = (life as i32, life as usize);
        let scores = &tables.score;
        for sys in ones(sh.ready.into()) {
            let e = kept[sys];
            if e == NONE {
                continue;
            }
            let mut score = scores[tables.at_life(e, life_now) as usize][l];
            if sh.kept_weight < 1.0 {
                let f = lost[sys];
                let lost_score = if f == NONE { 0.0 } else { scores[tables.at_life(f, life_now) as usize][l] };
                score = sh.kept_weight * score + (1.0 - sh.kept_weight) * lost_score;
            }
            best.offer(score, sys, t);
        }
    }

    /// Offers the shooter's special attacks not yet made this turn against `t`, in
    /// order, after its weapon systems (system index `nsys + k`). Out of line: most
    /// searches skip them under [`Specials::bound`](super::specials::Specials::bound).
    #[inline(never)]
    fn specials_at(&self, sp: &Specials, sh: &Shooter, t: usize, sight: usize, life: u8, best: &mut Best) {
        let a = sh.a;
        let nsys = self.facts[a].nsys as usize;
        let smoked = sight & 1 != 0;
        for k in ones((sp.against(a, t) as u32 & sh.specials_left).into()) {
            let e = sp.entry(a, t, state(false, smoked), k);
            if e == NONE {
                continue;
            }
            let mut score = sp.tables[e as usize].score(life as i32, sh.own_life);
            if sh.kept_weight < 1.0 {
                let f = sp.entry(a, t, state(true, smoked), k);
                let lost = sp.tables[f as usize].score(life as i32, sh.own_life);
                score = sh.kept_weight * score + (1.0 - sh.kept_weight) * lost;
            }
            if k == OVERRUN {
                // `OVERRUN_FIRE`: the follow-up shot's best score now ([`super::variants`]).
                score += self.overrun_bonus(sh);
            }
            best.offer(score, nsys + k, t);
        }
    }

    /// What the shooter's overrun's follow-up shot adds to its score (`OVERRUN_FIRE`;
    /// 0 when the overrun is not searched): computed at the first overrun a search
    /// scores, once for all its targets, and never in a search whose overruns
    /// [`Specials::bound`] skips.
    #[inline(never)]
    fn overrun_bonus(&self, sh: &Shooter) -> f32 {
        sh.overrun.as_ref().map_or(0.0, |o| *o.bonus.get_or_init(|| self.overrun_fire_score_in(o.s, sh.a, o.sights)))
    }
}

/// The per-actor facts of one best-shot search.
struct Shooter<'s> {
    a: usize,
    /// [`TcGame::ready_systems`].
    ready: u32,
    /// Weight of the fire-control-kept tables (1 out of the red).
    kept_weight: f32,
    /// 1 when the shooter's own smoke lies on its lines.
    own_smoke: u8,
    own_life: i32,
    /// Bits of the special attacks it may still make (0 when they are not searched).
    specials_left: u32,
    /// Where an overrun's follow-up shot is scored from (`OVERRUN_FIRE`); `None` when
    /// the overrun is not searched ([`TcGame::overrun_bonus`]).
    overrun: Option<Overrun<'s>>,
}

/// The state and sights of a best-shot search whose actor may overrun under
/// `OVERRUN_FIRE`, and the follow-up shot's score once computed (the same for every
/// target of the search).
struct Overrun<'s> {
    s: &'s State,
    sights: &'s Sights,
    bonus: OnceCell<f32>,
}

/// The best shot so far: every score is finite, so the first offer always wins over
/// [`Best::NONE`] and a later one only by a higher score (ties to the earlier).
struct Best {
    score: f32,
    system: usize,
    target: usize,
}

impl Best {
    const NONE: Best = Best { score: f32::NEG_INFINITY, system: 0, target: usize::MAX };

    #[inline(always)]
    fn offer(&mut self, score: f32, system: usize, target: usize) {
        if score > self.score {
            *self = Best { score, system, target };
        }
    }

    /// (system, target, score), or `None` when nothing was offered.
    #[inline(always)]
    fn found(&self) -> Option<(usize, usize, f32)> {
        (self.target != usize::MAX).then_some((self.system, self.target, self.score))
    }
}
