//! The squad fight's rules for the shared engine ([`BattleRules`]) and its activation
//! policies ([`BattlePolicy`]).
//!
//! Round = engine turn (Ruling `ROUND`), two phases: the first side's turn, then the
//! other's (IGOUGO; the first side is drawn once per battle with one `next_u64`, Ruling
//! `FIRST_SIDE`, and keeps the lead every round, as the duel). A step is one trooper's
//! activation: every enemy unit with shots left in an arc and a law at its current
//! column attacks it once, guns in weapon order, units in roster order, until it is out
//! (`VOLLEY`: a gun spends all its shots on the trigger); each attack is one draw from
//! the target card's exact counts out of 1296 ([`Graph::sample`]). A survivor then pays
//! the widest arc its current AP allows, gun by gun (power armour: one per weapon),
//! replacing its previous arcs (step (a) "remove its own firing arcs" happens before
//! the trooper's first chance to fire again, so doing it at activation is the same).
//! `SQUAD_OPENING`: `contact` (default) starts the fight with every trooper's arcs set
//! as at the end of an earlier turn (paid at its starting AP), so the first side's
//! troopers activate into the other side's arcs as the second side's do; `cold` starts
//! with no arc, so the side that moves first takes no fire in its first turn. No draw
//! either way.
//! With `GRENADES` (on), a survivor with explosives left may throw instead of setting
//! its arcs (policy `SQUAD_THROW`, module `throwing`); the side's blasts are resolved
//! when its last trooper has activated (module `blast`: rules, geometry, draws).
//! With `MORALE` (off), a side's troopers check morale at its first activation of the
//! turn (module `morale`); one that fails activates but takes no action.
//! A side with no trooper left loses at once (blasts still waiting are not resolved);
//! the round cap ends in `SQUAD_CAP_RESULT`.

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform_below;
use crate::engine::battle::{BattlePolicy, BattleRules, Ending, MAX_SIDES, MAX_UNITS, Outcome};

use super::super::graph::Graph;
use super::blast::MAX_THROWS;
use super::limits::{MAX_GUNS, NO_LAW, UNLIMITED};
use super::state::{FightGame, FightState};

impl FightGame {
    fn graph(&self, u: usize) -> &Graph {
        &self.fight.graphs[self.fight.units[u].graph]
    }

    /// The first and past-the-last unit slot of `side`.
    #[inline]
    pub fn slots(&self, side: usize) -> std::ops::Range<usize> {
        if side == 0 { 0..self.fight.count[0] } else { self.fight.count[0]..self.fight.units.len() }
    }

    /// `t` pays the widest arcs its current AP allows, gun by gun, replacing its arcs
    /// (at range 1 with fists or bayonet, the plan of module `melee`).
    #[inline]
    fn pay_arcs(&self, s: &mut FightState, t: usize) {
        let shots = self.arc_plan(s, t);
        s.shots[t * MAX_GUNS..(t + 1) * MAX_GUNS].copy_from_slice(&shots);
    }

    /// One attack of `f`'s gun `g` at `t`; returns whether `t` went out.
    #[inline]
    fn attack(&self, s: &mut FightState, f: usize, g: usize, t: usize, rng: &mut Xoshiro256PlusPlus) -> bool {
        let l = self.fight.law(f, g, t, s.col[f] as usize);
        if l == NO_LAW {
            return false;
        }
        let graph = self.graph(t);
        let next = graph.sample(l as usize, s.card[t] as usize, rng);
        s.card[t] = next as u32;
        s.col[t] = graph.cols[next];
        graph.out[next]
    }
}

impl BattleRules for FightGame {
    type State = FightState;
    type Action = u8;

    fn sides(&self) -> usize {
        2
    }
    fn units(&self) -> usize {
        self.fight.units.len()
    }
    fn side_of(&self, unit: usize) -> usize {
        self.fight.units[unit].side as usize
    }
    fn max_turns(&self) -> u32 {
        self.fight.max_rounds
    }
    fn phases(&self) -> usize {
        2
    }
    fn pass_ends_turn(&self) -> bool {
        true
    }

    fn new_state(&self) -> FightState {
        FightState {
            card: [0; MAX_UNITS],
            col: [0; MAX_UNITS],
            out: [false; MAX_UNITS],
            done: [false; MAX_UNITS],
            shots: [0; MAX_UNITS * MAX_GUNS],
            alive: [0; 2],
            first: 0,
            over: None,
            rounds: [0; MAX_UNITS * MAX_THROWS],
            pending: [(0, 0, 0, 0); MAX_UNITS],
            pending_n: 0,
            checked: [false; 2],
            shaken: [false; MAX_UNITS],
        }
    }

    fn begin_battle(&self, s: &mut FightState, rng: &mut Xoshiro256PlusPlus) {
        let n = self.fight.units.len();
        s.card[..n].fill(0);
        for u in 0..n {
            s.col[u] = self.graph(u).cols[0];
            s.out[u] = self.graph(u).out[0];
        }
        s.shots.fill(0);
        s.rounds.fill(0);
        for u in 0..n {
            for (g, th) in self.fight.units[u].throws.iter().enumerate() {
                s.rounds[u * MAX_THROWS + g] = th.rounds.min(u8::MAX as u32) as u8;
            }
        }
        s.pending_n = 0;
        s.shaken.fill(false);
        if self.fight.contact {
            // SQUAD_OPENING=contact: every trooper's arcs as it set them at the end of its
            // activation in an earlier turn, at its starting AP.
            for u in 0..n {
                if !s.out[u] {
                    self.pay_arcs(s, u);
                }
            }
        }
        s.alive = [0, 1].map(|side| self.slots(side).filter(|&u| !s.out[u]).count() as u32);
        s.first = match self.fight.first {
            Some(f) => f,
            None => (rng.next_u64() & 1) as u8,
        };
        s.over = None;
    }

    fn begin_turn(
        &self,
        s: &mut FightState,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        order: &mut [u8; MAX_SIDES],
    ) -> usize {
        let n = self.fight.units.len();
        for u in 0..n {
            s.done[u] = s.out[u];
        }
        s.checked = [false; 2];
        order[0] = s.first;
        order[1] = 1 - s.first;
        2
    }

    fn budget(&self, s: &FightState, side: usize, phase: usize) -> u32 {
        let acting = if phase == 0 { s.first as usize } else { 1 - s.first as usize };
        if side == acting { s.alive[side] } else { 0 }
    }

    fn act(&self, s: &mut FightState, side: usize, unit: u8, rng: &mut Xoshiro256PlusPlus, out: &mut Outcome) {
        let t = unit as usize;
        if self.fight.morale && !s.checked[side] {
            self.morale_checks(s, side, rng);
        }
        s.done[t] = true;
        let enemy = 1 - side;
        'fire: for f in self.slots(enemy) {
            if s.out[f] {
                continue;
            }
            for g in 0..self.fight.units[f].guns.len() {
                let k = f * MAX_GUNS + g;
                while s.shots[k] > 0 {
                    if s.shots[k] != UNLIMITED {
                        s.shots[k] -= 1;
                    }
                    if self.attack(s, f, g, t, rng) {
                        self.put_out(s, t, f, out);
                        break 'fire;
                    }
                    if !self.fight.volley || s.shots[k] == UNLIMITED {
                        break;
                    }
                }
            }
        }
        if !s.out[t] && s.shaken[t] {
            // Failed its morale check: no action (its arcs were removed at step (a)).
            s.shots[t * MAX_GUNS..(t + 1) * MAX_GUNS].fill(0);
        } else if !s.out[t] {
            // Survived: throw (SQUAD_THROW), or pay the widest arcs the current AP
            // allows, gun by gun.
            match self.choose_throw(s, t) {
                Some((g, c)) => self.throw(s, t, g, c),
                None => self.pay_arcs(s, t),
            }
        }
        // The side's last activation: its blasts go off.
        if s.pending_n > 0 && self.slots(side).all(|u| s.done[u]) {
            self.resolve_blasts(s, rng, out);
        }
    }

    fn end_turn(
        &self,
        s: &mut FightState,
        _turn: u32,
        _rng: &mut Xoshiro256PlusPlus,
        _out: &mut Outcome,
    ) -> Option<Ending> {
        s.over
    }

    fn time_called(&self, _s: &FightState, _out: &mut Outcome) -> Ending {
        if self.fight.cap_is_draw { Ending::Draw } else { Ending::Undecided }
    }
}

/// Which trooper of a side activates next (§4 leaves the order to the players; Ruling
/// `SQUAD_POLICY` plays roster order). The target of every attack is fixed by the
/// procedure (the activating trooper), so the order is the side's one choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// `roster` (default): roster order.
    Roster,
    /// `healthiest-first`: the trooper at the lowest column (least damaged) first, ties in
    /// roster order: the enemy's limited arc shots are drawn by whoever best survives them.
    HealthiestFirst,
    /// `random`: uniformly among the troopers not yet activated (one draw per choice).
    Random,
}

impl Activation {
    pub const NAMES: &'static [&'static str] = &["roster", "healthiest-first", "random"];
    pub fn parse(s: &str) -> Option<Activation> {
        match s.trim().to_ascii_lowercase().as_str() {
            "roster" => Some(Activation::Roster),
            "healthiest-first" => Some(Activation::HealthiestFirst),
            "random" => Some(Activation::Random),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

impl BattlePolicy<FightGame> for Activation {
    #[inline]
    fn choose(
        &self,
        game: &FightGame,
        s: &FightState,
        side: usize,
        _phase: usize,
        rng: &mut Xoshiro256PlusPlus,
    ) -> Option<u8> {
        if s.over.is_some() {
            return None;
        }
        let mut slots = game.slots(side).filter(|&u| !s.done[u]);
        let u = match self {
            Activation::Roster => slots.next(),
            Activation::HealthiestFirst => slots.min_by_key(|&u| (s.col[u], u)),
            Activation::Random => {
                let left = game.slots(side).filter(|&u| !s.done[u]).count() as u64;
                if left == 0 {
                    None
                } else {
                    let k = uniform_below(rng, left, left.wrapping_neg() % left) as usize;
                    slots.nth(k)
                }
            }
        };
        u.map(|u| u as u8)
    }
}
