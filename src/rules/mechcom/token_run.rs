//! Attack runs whose attacker places Spot tokens: the Spot action (§1 "Spotting (3⚡)",
//! `SPOT_ACTION`) and Tracker hits ([`super::spot`]), played as duels play them.
//!
//! Tokens placed during a run make the tokens left before an attack random, and with
//! them the weapon the policy picks, the tokens it consumes and its law. The run is then
//! an automaton of *nodes* (phase, Spot tokens left, Ammo left): round 1 is phase 0
//! (the attacker's starting conditions), later rounds phase 1. Each node holds its 3⚡
//! action, chosen as the fixed plan chooses one ([`super::attack_run`], the run's
//! [`super::run_policy::RunPolicy`] ranking each weapon by phase and tokens left
//! against the target's starting conditions), except that the Spot action is taken
//! when it pays ([`super::spot::Spotting::pays`]: the expected gain of its tokens to
//! the next attack beats the attack it replaces, both in expected Integrity loss; ties
//! to the attack), as a duel side takes it ([`super::duel_side::Side::choose`]):
//!
//! - a Spot rolls its dice and places a token per six;
//! - an attack consumes its tokens (`SPOT_POLICY`), then a Tracker weapon places as
//!   many as the Integrity the target lost to it;
//! - tokens beyond the cap ([`super::spot::MAX_SPOT_TOKENS`], or the situation's
//!   tokens when more) are not placed, as in duels and battles;
//! - a node with nothing to do passes the rest of its round.
//!
//! The next node after an action is indexed by the tokens left after it. The Monte
//! Carlo walks the nodes (one draw per Spot and per attack); the exact chain carries a
//! distribution over (node, attacks made) × (Integrity, tracked conditions). A Spot is
//! not an attack: "attacks to kill" counts attacks only.

use std::collections::{BTreeMap, HashMap, VecDeque};

use rand_xoshiro::Xoshiro256PlusPlus;

use crate::stats::TtkTally;

use super::run_laws::{Laws, Struck, attack_outcomes, target_activation};
use super::spot::Spotting;
use super::tracked::STATES;

/// Most nodes (phase × tokens left × Ammo states) a run's automaton may hold; a larger
/// one is not built and the run keeps its fixed plan, with a note.
pub const MAX_TOKEN_NODES: usize = 4096;

/// A node's 3⚡ action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// The Spot action: a token per six of the attacker's Spot roll.
    Spot,
    /// An attack: the run's law index, its weapon slot in the run's weapons, the tokens
    /// it consumes and whether its weapon has Tracker.
    Attack { law: u16, weapon: u8, consumed: u32, tracker: bool },
    /// Nothing can fire and a Spot does not pay: the rest of the round passes.
    Pass,
}

/// What a node's chooser picks, before laws are indexed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pick {
    Spot,
    /// Arsenal weapon, tokens it consumes.
    Attack(usize, u32),
    Pass,
}

/// One node of the automaton.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Spot tokens left on the target.
    pub tokens: u32,
    pub act: Move,
    /// The node after the act, by the tokens left after it (0..=cap; `NONE` where none
    /// can be left).
    pub next: Vec<u32>,
    /// This node's tokens and Ammo in the later phase (round 2 on).
    pub later: u32,
}

/// No node.
pub const NONE: u32 = u32::MAX;

/// An attack run's token automaton (module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct TokenRun {
    pub nodes: Vec<Node>,
    pub start: u32,
    pub cap: u32,
    /// The attacker's Spot roll at the target, when it may spot.
    pub spotting: Option<Spotting>,
    /// 3⚡ actions in round 1 (a Stunned attacker's Energy halved) and in later rounds.
    pub actions: [u32; 2],
    pub max_rounds: u32,
}

/// The inputs of [`TokenRun::build`] besides the chooser.
pub struct Setup {
    pub tokens: u32,
    pub cap: u32,
    /// Starting Ammo per arsenal weapon (`None`: unlimited).
    pub ammo: Vec<Option<u32>>,
    /// Tracker per arsenal weapon.
    pub tracker: Vec<bool>,
    pub spotting: Option<Spotting>,
    pub actions: [u32; 2],
    pub max_rounds: u32,
    /// The target's Integrity (the most a Tracker hit can place).
    pub integrity: u32,
}

type Key = (usize, u32, Vec<Option<u32>>);

/// A node's chooser: (phase, tokens left, Ammo left) → its action.
pub type Chooser<'c> = dyn FnMut(usize, u32, &[Option<u32>]) -> Result<Pick, String> + 'c;

impl TokenRun {
    /// The automaton reachable from round 1 with the setup's tokens and Ammo. `choose`
    /// picks a node's action from (phase, tokens left, Ammo left); `index` gives an
    /// attack's (law, weapon slot) from (arsenal weapon, phase, tokens consumed).
    ///
    /// # Errors
    /// What `choose` or `index` return; more than [`MAX_TOKEN_NODES`] nodes (`Ok(None)`).
    pub fn build(
        setup: Setup,
        choose: &mut Chooser<'_>,
        index: &mut dyn FnMut(usize, usize, u32) -> Result<(u16, u8), String>,
    ) -> Result<Option<TokenRun>, String> {
        let mut ids: HashMap<Key, u32> = HashMap::new();
        let mut keys: Vec<Key> = Vec::new();
        let mut queue = VecDeque::new();
        let mut id = |k: Key, keys: &mut Vec<Key>, queue: &mut VecDeque<u32>| -> u32 {
            *ids.entry(k.clone()).or_insert_with(|| {
                keys.push(k);
                queue.push_back(keys.len() as u32 - 1);
                keys.len() as u32 - 1
            })
        };
        let start = id((0, setup.tokens, setup.ammo.clone()), &mut keys, &mut queue);
        let mut nodes: Vec<Option<Node>> = Vec::new();
        while let Some(n) = queue.pop_front() {
            if keys.len() > MAX_TOKEN_NODES {
                return Ok(None);
            }
            let (phase, tokens, ammo) = keys[n as usize].clone();
            let mut next = vec![NONE; setup.cap as usize + 1];
            let act = match choose(phase, tokens, &ammo)? {
                Pick::Spot => {
                    let dice = setup.spotting.as_ref().map_or(0, |s| s.dice);
                    for k in 0..=dice {
                        let t = (tokens + k).min(setup.cap);
                        next[t as usize] = id((phase, t, ammo.clone()), &mut keys, &mut queue);
                    }
                    Move::Spot
                }
                Pick::Attack(w, consumed) => {
                    let mut left = ammo.clone();
                    if let Some(a) = left[w].as_mut() {
                        *a -= 1;
                    }
                    let base = tokens - consumed;
                    let most = if setup.tracker[w] { setup.integrity } else { 0 };
                    for loss in 0..=most {
                        let t = (base + loss).min(setup.cap);
                        next[t as usize] = id((phase, t, left.clone()), &mut keys, &mut queue);
                    }
                    let (law, weapon) = index(w, phase, consumed)?;
                    Move::Attack { law, weapon, consumed, tracker: setup.tracker[w] }
                }
                Pick::Pass => {
                    next[tokens as usize] = n;
                    Move::Pass
                }
            };
            let later = if setup.max_rounds > 1 { id((1, tokens, ammo), &mut keys, &mut queue) } else { n };
            if nodes.len() <= n as usize {
                nodes.resize(n as usize + 1, None);
            }
            nodes[n as usize] = Some(Node { tokens, act, next, later });
        }
        if keys.len() > MAX_TOKEN_NODES {
            return Ok(None);
        }
        let nodes = nodes.into_iter().map(|n| n.expect("every queued node is built")).collect();
        Ok(Some(TokenRun {
            nodes,
            start,
            cap: setup.cap,
            spotting: setup.spotting,
            actions: setup.actions,
            max_rounds: setup.max_rounds,
        }))
    }

    /// Whether the automaton plays anything the fixed plan does not: a reachable Spot,
    /// or an attack with a Tracker weapon.
    pub fn places_tokens(&self) -> bool {
        self.nodes.iter().any(|n| matches!(n.act, Move::Spot | Move::Attack { tracker: true, .. }))
    }

    /// Whether some node spots.
    pub fn spots(&self) -> bool {
        self.nodes.iter().any(|n| n.act == Move::Spot)
    }

    /// The most attacks a run makes: every action of every round an attack.
    pub fn max_attacks(&self) -> usize {
        (self.actions[0] + self.actions[1] * self.max_rounds.saturating_sub(1)) as usize
    }

    /// 3⚡ actions in round `round` (0-based).
    fn actions_in(&self, round: usize) -> u32 {
        self.actions[(round > 0) as usize]
    }

    /// The node after a Spot from `node` that placed `placed` tokens.
    #[inline(always)]
    fn after_spot(&self, node: &Node, placed: u32) -> u32 {
        node.next[(node.tokens + placed).min(self.cap) as usize]
    }

    /// The node after an attack from `node` that consumed `consumed` and took `loss`.
    #[inline(always)]
    fn after_attack(&self, node: &Node, consumed: u32, tracker: bool, loss: u32) -> u32 {
        let t = node.tokens - consumed + if tracker { loss } else { 0 };
        node.next[t.min(self.cap) as usize]
    }

    /// Plays `trials` runs into `tally`'s kills (the caller counts the trials): one draw
    /// per Spot (the sixes) and per attack (its outcome against the target's current
    /// conditions).
    pub(super) fn play(
        &self,
        laws: &[Laws],
        integrity: u32,
        start_state: u8,
        rng: &mut Xoshiro256PlusPlus,
        trials: u32,
        tally: &mut TtkTally,
    ) {
        let full = integrity as i32;
        'run: for _ in 0..trials {
            let mut target = Struck { life: full, state: start_state };
            let (mut node, mut made) = (self.start, 0usize);
            for round in 0..self.max_rounds as usize {
                for _ in 0..self.actions_in(round) {
                    let n = &self.nodes[node as usize];
                    match n.act {
                        Move::Spot => {
                            let sp = self.spotting.as_ref().expect("a spotting node has a Spot roll");
                            let (placed, _) = sp.law.draw(rng);
                            node = self.after_spot(n, placed);
                        }
                        Move::Attack { law, consumed, tracker, .. } => {
                            let loss = target.attack(&laws[law as usize], rng);
                            if target.life <= 0 {
                                tally.kills_by_turn[round] += 1;
                                tally.kills_by_action[made] += 1;
                                continue 'run;
                            }
                            made += 1;
                            node = self.after_attack(n, consumed, tracker, loss);
                        }
                        Move::Pass => break,
                    }
                }
                if target.end_round(round, made, tally) {
                    continue 'run;
                }
                node = self.nodes[node as usize].later;
            }
        }
    }

    /// The exact kill pmfs (by round, by attack; a kill before any attack, a Burned
    /// target's end of round while the attacker still spots, counts by round only): the
    /// chain over (node, attacks made) × (Integrity, tracked conditions).
    pub(super) fn pmfs(&self, laws: &[Laws], integrity: u32, start_state: u8) -> (Vec<f64>, Vec<f64>) {
        let full = integrity as usize;
        let cells = (full + 1) * STATES;
        let mut grid = vec![0.0f64; cells];
        grid[full * STATES + start_state as usize] = 1.0;
        let mut cur: BTreeMap<(u32, usize), Vec<f64>> = BTreeMap::from([((self.start, 0), grid)]);
        let mut by_round = vec![0.0; self.max_rounds as usize];
        let mut by_attack = vec![0.0; self.max_attacks().max(1)];
        for (round, killed_in_round) in by_round.iter_mut().enumerate() {
            for _ in 0..self.actions_in(round) {
                let mut next: BTreeMap<(u32, usize), Vec<f64>> = BTreeMap::new();
                let mut add = |key: (u32, usize), at: usize, p: f64| {
                    next.entry(key).or_insert_with(|| vec![0.0; cells])[at] += p;
                };
                for (&(node, made), grid) in &cur {
                    let n = &self.nodes[node as usize];
                    match n.act {
                        Move::Spot => {
                            let sp = self.spotting.as_ref().expect("a spotting node has a Spot roll");
                            for (k, &pk) in sp.p.iter().enumerate() {
                                let to = self.after_spot(n, k as u32);
                                for (at, &p) in grid.iter().enumerate().filter(|(_, p)| **p != 0.0) {
                                    add((to, made), at, p * pk);
                                }
                            }
                        }
                        Move::Attack { law, consumed, tracker, .. } => {
                            let killed = attack_outcomes(&laws[law as usize], grid, full, |at, loss, p| {
                                add((self.after_attack(n, consumed, tracker, loss), made + 1), at, p);
                            });
                            *killed_in_round += killed;
                            by_attack[made] += killed;
                        }
                        Move::Pass => {
                            for (at, &p) in grid.iter().enumerate().filter(|(_, p)| **p != 0.0) {
                                add((node, made), at, p);
                            }
                        }
                    }
                }
                cur = next;
            }
            let mut next: BTreeMap<(u32, usize), Vec<f64>> = BTreeMap::new();
            for ((node, made), grid) in cur {
                let (after, burned_out) = target_activation(&grid, full);
                *killed_in_round += burned_out;
                if made > 0 {
                    by_attack[made - 1] += burned_out;
                }
                let slot = next.entry((self.nodes[node as usize].later, made)).or_insert_with(|| vec![0.0; cells]);
                for (s, a) in slot.iter_mut().zip(after) {
                    *s += a;
                }
            }
            cur = next;
        }
        (by_round, by_attack)
    }

    /// Round 1's expected Integrity taken by each 3⚡ action that may be an attack, from
    /// the untouched target (each attack's mean against the starting state, weighted by
    /// the chance the action is that attack), in action order; actions that are never
    /// an attack are left out. The fixed plan's round 1 is the special case of chance 1.
    pub(super) fn round_one(&self, laws: &[Laws], means: &[f64], start_state: u8) -> Vec<f64> {
        let mut at = BTreeMap::from([(self.start, 1.0f64)]);
        let mut slots = Vec::new();
        for _ in 0..self.actions[0] {
            let (mut next, mut slot, mut attacks) = (BTreeMap::new(), 0.0, false);
            for (&node, &p) in &at {
                let n = &self.nodes[node as usize];
                match n.act {
                    Move::Spot => {
                        let sp = self.spotting.as_ref().expect("a spotting node has a Spot roll");
                        for (k, &pk) in sp.p.iter().enumerate() {
                            *next.entry(self.after_spot(n, k as u32)).or_insert(0.0) += p * pk;
                        }
                    }
                    Move::Attack { law, consumed, tracker, .. } => {
                        (slot, attacks) = (slot + p * means[law as usize], true);
                        for o in &laws[law as usize].outcomes[start_state as usize] {
                            *next.entry(self.after_attack(n, consumed, tracker, o.loss)).or_insert(0.0) += p * o.p;
                        }
                    }
                    Move::Pass => *next.entry(node).or_insert(0.0) += p,
                }
            }
            if attacks {
                slots.push(slot);
            }
            at = next;
        }
        slots
    }

    /// The likeliest path's attacks, per round, as (law, weapon slot): each Spot places
    /// its likeliest number of tokens among those that place any, each Tracker attack
    /// takes its likeliest loss against the target's starting state (for the run's plan
    /// report and its round-1 figures).
    pub(super) fn path(&self, laws: &[Laws], start_state: u8) -> Vec<Vec<(u16, u8)>> {
        let mut node = self.start;
        let mut rounds = Vec::new();
        for round in 0..self.max_rounds as usize {
            let mut steps = Vec::new();
            for _ in 0..self.actions_in(round) {
                let n = &self.nodes[node as usize];
                match n.act {
                    Move::Spot => {
                        let sp = self.spotting.as_ref().expect("a spotting node has a Spot roll");
                        let k =
                            (1..sp.p.len()).max_by(|&a, &b| sp.p[a].total_cmp(&sp.p[b]).then(b.cmp(&a))).unwrap_or(0);
                        node = self.after_spot(n, k as u32);
                    }
                    Move::Attack { law, weapon, consumed, tracker } => {
                        steps.push((law, weapon));
                        let likeliest = laws[law as usize].outcomes[start_state as usize]
                            .iter()
                            .max_by(|a, b| a.p.total_cmp(&b.p))
                            .map_or(0, |o| o.loss);
                        node = self.after_attack(n, consumed, tracker, likeliest);
                    }
                    Move::Pass => break,
                }
            }
            rounds.push(steps);
            node = self.nodes[node as usize].later;
        }
        rounds
    }
}
