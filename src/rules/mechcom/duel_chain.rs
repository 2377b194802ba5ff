//! The exact MECHCOM duel, interacting or not (§7: "Duels with interaction ... are still
//! a finite joint Markov chain under a state-based policy"): the chain that
//! [`DuelKernel::play_one`] samples, solved round by round.
//!
//! # State
//! Between two steps of an activation: both models' Integrity (1..=full: a destroyed
//! model ends the duel at once), both models' condition bits among those each can carry
//! (its starting conditions and those the other's weapons land; see
//! [`super::duel_side`]), each side's Ammo for its weapons with the Ammo perk, and the
//! Spot tokens left on each model, 0..=the other side's cap (only the other side's
//! attacks use them up and its Spot actions and Tracker hits place them, so they are
//! counted with that side's Ammo). The
//! distribution is carried as one Integrity grid (A × B) per discrete context (the bits
//! and Ammo of both sides).
//!
//! # Transitions (the steps of [`super::duel_kernel`]'s module docs)
//! Each round, half the mass plays A's activation then B's, half B's then A's
//! (`ROLL_OFF`). An activation is a sequence of attack steps. At step k, a context whose
//! Energy (Stunned: half of it, rounded down, lost) still holds 3⚡ after k attacks, and
//! whose side has a weapon in reach with Ammo, attacks with the weapon `ACTION_POLICY`
//! ranks first for both models' current conditions, or takes the Spot action when
//! `SPOT_ACTION` says it pays (the same [`Side::choose`] the Monte Carlo asks; the
//! tokens left go up by the roll's sixes, capped); every other context finishes its
//! activation: `CLEAR_POLICY` with the Energy left, Burned's 1 Integrity, then the end
//! of Shocked, Blinded and Stunned. An attack follows the weapon's slot law, the very
//! table the Monte Carlo samples ([`Law::probs`]): the loss applies (below 1 the target
//! is destroyed), the conditions land, a Tracker weapon adds the loss to the tokens
//! left, then Backfire costs the attacker. A destroyed
//! model's death explosion (`EXPLOSION_TIMING` = immediately, in melee range) follows
//! the blast law against the other model (its Corroded bit of that moment); if that
//! destroys it too, the duel is a mutual kill. Mass alive after the round cap is the
//! undecided share.
//!
//! # Size and cost
//! States: Integrity A × Integrity B × reachable condition sets × Ammo states of both
//! sides. Above [`MAX_STATES`] (e.g. several Ammo weapons on models that also carry many
//! conditions) [`solve`] returns `None` and the duel is played by Monte Carlo only. Each
//! attack step costs about (grids with mass) × (grid size) × (slots of the law)
//! multiply-adds, contiguous along B's Integrity.

use super::duel::ExactDuel;
use super::duel_kernel::DuelKernel;
use super::duel_side::{
    Action, BURNED, CORRODED, ENDS_WITH_ACTIVATION, Law, MAX_WEAPONS, STUNNED, Side, UNLIMITED, clear_leftover, law_at,
    view,
};
use super::energy::ATTACK_ENERGY;

/// Most states (Integrity A × Integrity B × condition sets × Ammo states) the exact
/// duel carries; larger duels are Monte Carlo only. 2^17 states are 1 MiB per
/// distribution (six are held) and a few milliseconds per round.
pub const MAX_STATES: usize = 1 << 17;

/// Condition bit sets a model may carry (5 tracked bits).
const BIT_SETS: usize = 32;

/// One side's coordinates in the chain.
#[derive(Debug)]
struct Axis {
    integrity: usize,
    /// The condition sets it can carry, by index.
    bits: Vec<u8>,
    /// The index of each set in `bits` (only those valid).
    index: [usize; BIT_SETS],
    /// For each weapon, `Some((starting Ammo, stride))` when its Ammo is finite: its Ammo
    /// left in Ammo state `a` is `a / stride % (Ammo + 1)`.
    ammo: [Option<(usize, usize)>; MAX_WEAPONS],
    /// `Some((most Spot tokens on the other model, stride))` when there may be any:
    /// tokens left in Ammo state `a` are `a / stride % (most + 1)` (this side's attacks
    /// use them up, as its Ammo; its Spots and Tracker hits place them).
    spot: Option<(usize, usize)>,
    /// Ammo states, the Spot tokens left counted in.
    ammo_states: usize,
    /// The starting context (bits index × Ammo states + Ammo state).
    start: usize,
}

impl Axis {
    /// The coordinates of `me`, attacked by `foe`.
    fn new(me: &Side, foe: &Side) -> Axis {
        let lands = foe.weapons.iter().flat_map(|w| &w.laws).flat_map(|l| &l.slots).fold(0, |m, &(_, b)| m | b);
        let mask = me.start | lands;
        let bits: Vec<u8> = (0..BIT_SETS as u8).filter(|b| b & !mask == 0).collect();
        let mut index = [usize::MAX; BIT_SETS];
        for (i, &b) in bits.iter().enumerate() {
            index[b as usize] = i;
        }
        let mut ammo = [None; MAX_WEAPONS];
        let (mut stride, mut full) = (1usize, 0usize);
        for (w, &a) in me.ammo.iter().enumerate().take(me.weapons.len()) {
            if a != UNLIMITED {
                ammo[w] = Some((a as usize, stride));
                full = full.saturating_add((a as usize).saturating_mul(stride));
                stride = stride.saturating_mul(a as usize + 1);
            }
        }
        let spot = (me.cap > 0).then(|| {
            let most = me.cap as usize;
            let at = (most, stride);
            full = full.saturating_add((me.spot as usize).saturating_mul(stride));
            stride = stride.saturating_mul(most + 1);
            at
        });
        let start = index[me.start as usize] * stride + full;
        Axis { integrity: me.integrity as usize, bits, index, ammo, spot, ammo_states: stride, start }
    }

    /// Discrete contexts of this side (condition sets × Ammo states), saturating.
    fn contexts(&self) -> usize {
        self.bits.len().saturating_mul(self.ammo_states)
    }

    /// The condition bits of context `c`.
    fn bits_of(&self, c: usize) -> u8 {
        self.bits[c / self.ammo_states]
    }

    /// Context `c` with condition bits `b`.
    fn with_bits(&self, c: usize, b: u8) -> usize {
        self.index[b as usize] * self.ammo_states + c % self.ammo_states
    }

    /// Whether weapon `w` has Ammo left in context `c`.
    fn loaded(&self, c: usize, w: usize) -> bool {
        self.ammo[w].is_none_or(|(full, stride)| c % self.ammo_states / stride % (full + 1) > 0)
    }

    /// The Spot tokens left on the other model in context `c`.
    fn tokens(&self, c: usize) -> u32 {
        self.spot.map_or(0, |(full, stride)| (c % self.ammo_states / stride % (full + 1)) as u32)
    }

    /// Context `c` with `tokens` Spot tokens left on the other model (at most the cap).
    fn with_tokens(&self, c: usize, tokens: u32) -> usize {
        self.spot.map_or(c, |(_, stride)| c - self.tokens(c) as usize * stride + tokens as usize * stride)
    }

    /// Context `c` after one attack with weapon `w` that uses up `spent` Spot tokens.
    fn fired(&self, c: usize, w: usize, spent: u32) -> usize {
        let c = self.ammo[w].map_or(c, |(_, stride)| c - stride);
        self.spot.map_or(c, |(_, stride)| c - spent as usize * stride)
    }
}

/// One weapon's law against the other model in one view.
#[derive(Debug)]
struct Attack {
    /// Per condition set of the target (by its index): (Integrity lost, the target's
    /// condition set after, probability), the slots of one loss and one resulting set
    /// merged, only the losses that leave the target at full Integrity alive.
    slots: Vec<Vec<(usize, usize, f64)>>,
    /// `tail[t]` = P(at least t Integrity lost), t in 0..=the target's full Integrity.
    tail: Vec<f64>,
    /// The most Integrity the attack can take (`tail[t]` = 0 above it).
    reach: usize,
    backfire: usize,
}

impl Attack {
    /// `law` fired by `weapon`'s side at a target with coordinates `foe`.
    fn new(law: &Law, backfire: u32, foe: &Axis) -> Attack {
        let all: Vec<(u32, u8, f64)> = law.probs().collect();
        let full = foe.integrity;
        let slots = foe
            .bits
            .iter()
            .map(|&before| {
                let mut merged: Vec<(usize, usize, f64)> = Vec::new();
                for &(loss, adds, p) in all.iter().filter(|s| (s.0 as usize) < full) {
                    let key = (loss as usize, foe.index[(before | adds) as usize]);
                    match merged.iter_mut().find(|m| (m.0, m.1) == key) {
                        Some(m) => m.2 += p,
                        None => merged.push((key.0, key.1, p)),
                    }
                }
                merged
            })
            .collect();
        let reach = all.iter().map(|s| s.0 as usize).max().unwrap_or(0).min(full);
        Attack {
            slots,
            tail: tail_of(all.iter().map(|&(loss, _, p)| (loss as usize, p)), full),
            reach,
            backfire: backfire as usize,
        }
    }
}

/// `tail[t]` = P(at least t lost), t in 0..=`full`, of (loss, probability) outcomes.
fn tail_of(outcomes: impl Iterator<Item = (usize, f64)>, full: usize) -> Vec<f64> {
    let mut pmf = vec![0.0; full + 1];
    for (loss, p) in outcomes {
        pmf[loss.min(full)] += p;
    }
    let mut tail = vec![0.0; full + 2];
    for t in (0..=full).rev() {
        tail[t] = tail[t + 1] + pmf[t];
    }
    tail.truncate(full + 1);
    tail
}

/// A distribution over states: one Integrity grid per context.
struct Layer {
    p: Vec<f64>,
    live: Vec<bool>,
    grid: usize,
}

impl Layer {
    fn new(contexts: usize, grid: usize) -> Layer {
        Layer { p: vec![0.0; contexts * grid], live: vec![false; contexts], grid }
    }

    fn any(&self) -> bool {
        self.live.iter().any(|&l| l)
    }

    fn grid(&self, c: usize) -> &[f64] {
        &self.p[c * self.grid..(c + 1) * self.grid]
    }

    /// Context `c`'s grid, marked as holding mass.
    fn grid_mut(&mut self, c: usize) -> &mut [f64] {
        self.live[c] = true;
        &mut self.p[c * self.grid..(c + 1) * self.grid]
    }

    fn clear(&mut self) {
        for c in 0..self.live.len() {
            if std::mem::take(&mut self.live[c]) {
                self.p[c * self.grid..(c + 1) * self.grid].fill(0.0);
            }
        }
    }
}

/// `dst[r − dr][c − dc] += p · src[r][c]` for every row r ≥ dr and column c ≥ dc of
/// grids with `cols` columns (a loss of `dr` rows' and `dc` columns' Integrity).
#[inline]
fn shift_add(src: &[f64], dst: &mut [f64], cols: usize, dr: usize, dc: usize, p: f64) {
    if dc >= cols {
        return;
    }
    let rows = src.len() / cols;
    for r in dr..rows {
        let s = &src[r * cols + dc..(r + 1) * cols];
        let d = &mut dst[(r - dr) * cols..(r - dr + 1) * cols - dc];
        for (x, y) in d.iter_mut().zip(s) {
            *x += p * y;
        }
    }
}

/// Who ends the duel, per activation: P(A wins), P(B wins), P(mutual kill).
type Ends = [f64; 3];
const MUTUAL: usize = 2;

/// The compiled chain of one duel.
struct Chain<'k> {
    k: &'k DuelKernel,
    axes: [Axis; 2],
    /// Contexts of B (a context is A's × B's + B's).
    contexts_b: usize,
    /// Attack laws by side: weapon × (laws per weapon) + [`law_at`] (Spot tokens left,
    /// view).
    attacks: [Vec<Attack>; 2],
    /// `blast[s][c][l]` = P(the death explosion takes at least l Integrity off side `s`
    /// with Corroded bit `c`).
    blast: [[Vec<f64>; 2]; 2],
}

impl DuelKernel {
    /// The exact duel: the joint Markov chain of exactly what [`DuelKernel::play_one`]
    /// plays ([`solve`]), interacting sides included; `None` when its state space exceeds
    /// [`MAX_STATES`] or a side plays Heat (then Monte Carlo only).
    pub fn exact(&self) -> Option<ExactDuel> {
        if self.solvable() { solve(self, None) } else { None }
    }

    /// The exact outcome given that side `first` (0: A, 1: B) won round 1's roll-off
    /// (later rounds roll off as usual): the initiative split's conditional laws, whose
    /// average is [`DuelKernel::exact`]. `None` where `exact` is.
    pub fn exact_first(&self, first: usize) -> Option<ExactDuel> {
        if self.solvable() { solve(self, Some(first)) } else { None }
    }

    /// Whether [`DuelKernel::exact`] gives an outcome, decided without solving: no side
    /// plays Heat and the state space is at most [`MAX_STATES`].
    pub fn solvable(&self) -> bool {
        if self.sides.iter().any(|s| s.heat.is_some()) {
            // A side's Heat (Malfunctioning rolls, Reactor crits) is not in the chain: the
            // Typhon's mind (Heat 0-5, Malfunctioning, 0-5 Searing Waves and vents left:
            // 432 values) times the Integrity grid and the condition sets is already
            // above MAX_STATES against the Kerberos (10 × 11 × 432 × 2 × 2 ≈ 190,000),
            // and its activation mixes 1⚡ vents and Searing Waves with 3⚡ attacks, which
            // the chain's steps (k attacks have spent 3k⚡) do not hold.
            return false;
        }
        states(self) <= MAX_STATES
    }
}

/// The chain's state count for `k` (saturating).
fn states(k: &DuelKernel) -> usize {
    let sides = &k.sides;
    let axes = [Axis::new(&sides[0], &sides[1]), Axis::new(&sides[1], &sides[0])];
    let grid = axes[0].integrity * axes[1].integrity;
    axes[0].contexts().saturating_mul(axes[1].contexts()).saturating_mul(grid)
}

/// The exact duel of `k` (module docs), given round 1's first side when `first` is
/// `Some` (else each round's roll-off fair); `None` when its state space exceeds
/// [`MAX_STATES`].
pub fn solve(k: &DuelKernel, first: Option<usize>) -> Option<ExactDuel> {
    let sides = &k.sides;
    let axes = [Axis::new(&sides[0], &sides[1]), Axis::new(&sides[1], &sides[0])];
    if states(k) > MAX_STATES {
        return None;
    }
    let attacks = [0, 1].map(|who| {
        let foe = &axes[1 - who];
        sides[who].weapons.iter().flat_map(|w| w.laws.iter().map(|law| Attack::new(law, w.backfire, foe))).collect()
    });
    let blast = [0, 1].map(|s| {
        sides[s].blast.each_ref().map(|l| tail_of(l.probs().map(|(loss, _, p)| (loss as usize, p)), axes[s].integrity))
    });
    let chain = Chain { k, contexts_b: axes[1].contexts(), axes, attacks, blast };
    Some(chain.run(first))
}

impl Chain<'_> {
    /// Side `who`'s own context within the joint context `c`.
    fn own(&self, who: usize, c: usize) -> usize {
        if who == 0 { c / self.contexts_b } else { c % self.contexts_b }
    }

    /// The joint context with side `who`'s own context replaced by `own`.
    fn joint(&self, who: usize, c: usize, own: usize) -> usize {
        if who == 0 { own * self.contexts_b + c % self.contexts_b } else { c - c % self.contexts_b + own }
    }

    /// The grid shift (rows, columns) of `own` Integrity lost by side `who` and `foe`
    /// by the other.
    fn shift(who: usize, own: usize, foe: usize) -> (usize, usize) {
        if who == 0 { (own, foe) } else { (foe, own) }
    }

    /// P(the death explosion destroys side `s`, at `life` with bits `bits`); 0 when
    /// explosions do not reach.
    fn blown(&self, s: usize, bits: u8, life: usize) -> f64 {
        if self.k.explosions { self.blast[s][(bits & CORRODED != 0) as usize][life] } else { 0.0 }
    }

    /// The chain from the start; round 1's first side `given` when `Some`.
    fn run(&self, given: Option<usize>) -> ExactDuel {
        let rounds = self.k.max_rounds as usize;
        let (ia, ib) = (self.axes[0].integrity, self.axes[1].integrity);
        let contexts = self.axes[0].contexts() * self.contexts_b;
        let grid = ia * ib;
        let layer = || Layer::new(contexts, grid);
        let (mut start, mut next, mut between) = (layer(), layer(), layer());
        let mut scratch = [layer(), layer()];
        let c0 = self.axes[0].start * self.contexts_b + self.axes[1].start;
        start.grid_mut(c0)[grid - 1] = 1.0;
        let mut by_round = vec![[0.0; 3]; rounds];
        let forced = [given.unwrap_or(0)];
        for (round, ends) in by_round.iter_mut().enumerate() {
            if !start.any() {
                break;
            }
            // Each side first with probability 1/2, or round 1's given side for sure.
            let firsts: &[usize] = match given {
                Some(_) if round == 0 => &forced,
                _ => {
                    for c in 0..contexts {
                        if start.live[c] {
                            start.grid_mut(c).iter_mut().for_each(|p| *p *= 0.5);
                        }
                    }
                    &[0, 1]
                }
            };
            for &first in firsts {
                self.activation(first, &start, &mut between, &mut scratch, ends);
                self.activation(1 - first, &between, &mut next, &mut scratch, ends);
                between.clear();
            }
            start.clear();
            std::mem::swap(&mut start, &mut next);
        }
        let column = |i: usize| by_round.iter().map(|e| e[i]).collect::<Vec<f64>>();
        let (a, b, m) = (column(0), column(1), column(MUTUAL));
        ExactDuel {
            p_a_wins: a.iter().sum(),
            p_b_wins: b.iter().sum(),
            p_mutual: m.iter().sum(),
            p_undecided: start.p.iter().sum(),
            a_wins_by_round: a,
            b_wins_by_round: b,
            mutual_by_round: m,
        }
    }

    /// Side `who`'s activation from `src` into `out` (added), ends into `ends`.
    fn activation(&self, who: usize, src: &Layer, out: &mut Layer, scratch: &mut [Layer; 2], ends: &mut Ends) {
        let [cur, nxt] = scratch;
        self.step(who, 0, src, cur, out, ends);
        let mut k = 1;
        while cur.any() {
            self.step(who, k, cur, nxt, out, ends);
            cur.clear();
            std::mem::swap(cur, nxt);
            k += 1;
        }
    }

    /// Step `k` of side `who`'s activation: the contexts that still attack go to `next`,
    /// the others finish into `out`.
    fn step(&self, who: usize, k: u32, src: &Layer, next: &mut Layer, out: &mut Layer, ends: &mut Ends) {
        let side = &self.k.sides[who];
        let axis = &self.axes[who];
        for c in (0..src.live.len()).filter(|&c| src.live[c]) {
            let own = self.own(who, c);
            let foe = self.own(1 - who, c);
            let bits = axis.bits_of(own);
            let foe_bits = self.axes[1 - who].bits_of(foe);
            let energy = if bits & STUNNED != 0 { side.energy - side.energy / 2 } else { side.energy };
            debug_assert!(energy >= ATTACK_ENERGY * k, "only contexts that attacked step on");
            let left = energy - ATTACK_ENERGY * k;
            let v = view(bits, foe_bits);
            let tokens = axis.tokens(own);
            let action = if left >= ATTACK_ENERGY { side.choose(tokens, v, |w| axis.loaded(own, w)) } else { None };
            match action {
                Some(Action::Attack(w)) => {
                    let spent = side.weapons[w].spends[tokens as usize].expect("a weapon that fires");
                    let fired = self.joint(who, c, axis.fired(own, w, spent));
                    let per_weapon = side.weapons[w].laws.len();
                    let a = &self.attacks[who][w * per_weapon + law_at(tokens, v)];
                    self.attack(who, c, fired, a, side.weapons[w].tracker, src, next, ends);
                }
                Some(Action::Spot) => {
                    let roll = side.spotting.as_ref().expect("a side that spots");
                    for (k, &p) in roll.p.iter().enumerate().filter(|(_, p)| **p > 0.0) {
                        let to = self.joint(who, c, axis.with_tokens(own, (tokens + k as u32).min(side.cap)));
                        let (d, g) = (next.grid_mut(to), src.grid(c));
                        for (x, y) in d.iter_mut().zip(g) {
                            *x += p * y;
                        }
                    }
                }
                None => self.finish(who, c, left, src, out, ends),
            }
        }
    }

    /// The index of grid cell (own life, foe life) for side `who`, lives from 1.
    #[inline(always)]
    fn at(&self, who: usize, own: usize, foe: usize) -> usize {
        let cols = self.axes[1].integrity;
        if who == 0 { (own - 1) * cols + foe - 1 } else { (foe - 1) * cols + own - 1 }
    }

    /// One attack by side `who` from context `c` (`fired`: its Ammo and the tokens it
    /// consumed spent; `tracker`: the loss is added to the tokens left, capped).
    #[allow(clippy::too_many_arguments)]
    fn attack(
        &self,
        who: usize,
        c: usize,
        fired: usize,
        a: &Attack,
        tracker: bool,
        src: &Layer,
        next: &mut Layer,
        ends: &mut Ends,
    ) {
        let foe = 1 - who;
        let (full, foe_full, cols) = (self.axes[who].integrity, self.axes[foe].integrity, self.axes[1].integrity);
        let g = src.grid(c);
        let bits = self.axes[who].bits_of(self.own(who, c));
        let foe_own = self.own(foe, c);
        let foe_set = foe_own / self.axes[foe].ammo_states;
        // The target destroyed: `who` wins unless the explosion takes it too.
        for foe_life in 1..=a.reach {
            let t = a.tail[foe_life];
            for life in 1..=full {
                let q = g[self.at(who, life, foe_life)] * t;
                let x = q * self.blown(who, bits, life);
                ends[who] += q - x;
                ends[MUTUAL] += x;
            }
        }
        let foe_axis = &self.axes[foe];
        let (axis, fired_own) = (&self.axes[who], self.own(who, fired));
        let cap = self.k.sides[who].cap;
        for &(loss, after, p) in &a.slots[foe_set] {
            let fired = if tracker {
                let tokens = (axis.tokens(fired_own) + loss as u32).min(cap);
                self.joint(who, fired, axis.with_tokens(fired_own, tokens))
            } else {
                fired
            };
            let to = self.joint(foe, fired, after * foe_axis.ammo_states + foe_own % foe_axis.ammo_states);
            let (dr, dc) = Self::shift(who, a.backfire, loss);
            shift_add(g, next.grid_mut(to), cols, dr, dc, p);
            // Backfire destroys the attacker: the target wins unless the explosion takes
            // it too.
            for life in 1..=a.backfire.min(full) {
                for foe_life in loss + 1..=foe_full {
                    let q = g[self.at(who, life, foe_life)] * p;
                    let x = q * self.blown(foe, foe_axis.bits[after], foe_life - loss);
                    ends[foe] += q - x;
                    ends[MUTUAL] += x;
                }
            }
        }
    }

    /// The end of side `who`'s activation in context `c` with `left` ⚡: clears, Burned,
    /// conditions that end with the activation.
    fn finish(&self, who: usize, c: usize, left: u32, src: &Layer, out: &mut Layer, ends: &mut Ends) {
        let (foe, cols) = (1 - who, self.axes[1].integrity);
        let axis = &self.axes[who];
        let own = self.own(who, c);
        let mut bits = axis.bits_of(own);
        if self.k.clear {
            clear_leftover(&mut bits, left);
        }
        let burned = bits & BURNED != 0;
        let to = self.joint(who, c, axis.with_bits(own, bits & !ENDS_WITH_ACTIVATION));
        let g = src.grid(c);
        let (dr, dc) = Self::shift(who, burned as usize, 0);
        shift_add(g, out.grid_mut(to), cols, dr, dc, 1.0);
        if burned {
            // Burned destroys it: the other wins unless the explosion takes it too.
            let foe_bits = self.axes[foe].bits_of(self.own(foe, c));
            for foe_life in 1..=self.axes[foe].integrity {
                let m = g[self.at(who, 1, foe_life)];
                let x = m * self.blown(foe, foe_bits, foe_life);
                ends[foe] += m - x;
                ends[MUTUAL] += x;
            }
        }
    }
}
