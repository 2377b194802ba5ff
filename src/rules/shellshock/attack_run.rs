//! The card-free attack run (§5 "Attack run", §3, §8): every turn each gunner of the
//! attacker rolls once with every weapon in range at a target that never fires back;
//! the target's state is (armour left on the facing section, chart lines marked), and it
//! is out of action on the Dead box, a second 20 or 100 lines marked.
//!
//! Exact: the Markov chain over that state ([`AttackRun::exact`]). Monte Carlo
//! (`MC_SAMPLER`): `TABLE` (default) draws a gunner's whole step (roll, hits, the three
//! pools, armour, Internal, box) from one exact integer table per (gunner, armour left)
//! with one u64: no rule of the card-free model needs the individual dice. `DICE` rolls
//! every die (d10s exploding without limit, every d6) and is what the full-chart model
//! will build on; the two must agree (tests).

use rand::Rng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::{ExactTtk, TtkTally};

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::damage::{Defence, Internal, roll_pool};
use super::full_chart::{self, CardState, ChartModel, Gate, Shooter};
use super::gunner::{GunnerPlan, StepLaw, defence, plans};
use super::options::{DamageDice, Options};
use super::roll::{MULTIPLIERS, roll_dice};
use super::unit::Unit;

/// The most turns an engagement may last.
pub const MAX_TURNS_LIMIT: u32 = 1000;
/// Lines on an Internal Damage Chart.
pub const CHART_LINES: u32 = 100;
/// A packed table outcome meaning "destroyed".
const KILL: u32 = u32::MAX;

/// The target's card-free state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub armour: u32,
    pub lines: u32,
}

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    pub plans: Vec<GunnerPlan>,
    pub defence: Defence,
    pub max_turns: u32,
    how: DamageDice,
    dice_mode: bool,
    double_stacks: bool,
    second_20_destroys: bool,
    /// `steps[g][a]`: gunner g's exact step law on armour a left.
    steps: Vec<Vec<StepLaw>>,
    /// Table slots of (gunner g, armour a): `start[g * (A+1) + a] .. start[.. + 1]`.
    start: Vec<u32>,
    /// Cumulative thresholds on [0, 2^64); the last slot of each table is `u64::MAX`.
    thresholds: Vec<u64>,
    /// Packed outcomes: armour after << 8 | lines marked, or [`KILL`].
    packed: Vec<u32>,
    /// The full chart model (`MODEL = FULL_CHART`), when played.
    pub full: Option<FullChart>,
}

/// A run compiled for the full chart model.
#[derive(Debug, Clone, PartialEq)]
pub struct FullChart {
    /// Gunner plans against the target as it is ([0]) and immobilised ([1]); the same
    /// gunners in the same order.
    pub plans: [Vec<GunnerPlan>; 2],
    /// `gates[k][g][w]`: what silences weapon w of `plans[k][g]` (attacker's chart).
    pub gates: [Vec<Vec<Gate>>; 2],
    /// The target's chart.
    pub target: ChartModel,
}

fn table(law: &StepLaw) -> Vec<(u64, u32)> {
    let mut items: Vec<(f64, u32)> = law.outcomes.iter().map(|&(a, l, p)| (p, (a << 8) | l.min(CHART_LINES))).collect();
    items.push((law.kill, KILL));
    items.retain(|(p, _)| *p > 0.0);
    items.sort_by(|x, y| y.0.total_cmp(&x.0));
    let total: f64 = items.iter().map(|x| x.0).sum();
    let mut acc = 0.0;
    let n = items.len();
    items
        .into_iter()
        .enumerate()
        .map(|(i, (p, o))| {
            acc += p / total;
            let t =
                if i + 1 == n { u64::MAX } else { (acc * 18_446_744_073_709_551_616.0).min(u64::MAX as f64) as u64 };
            (t, o)
        })
        .collect()
}

impl AttackRun {
    /// Compile the run of `attacker` against `target` in `c`.
    ///
    /// # Errors
    /// Options not played, or a turn cap outside 1..=[`MAX_TURNS_LIMIT`].
    pub fn new(
        cat: &Catalogue,
        attacker: &Unit,
        target: &Unit,
        c: &Conditions,
        o: &Options,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        o.validate()?;
        if !(1..=MAX_TURNS_LIMIT).contains(&max_turns) {
            return Err(format!("max turns must be between 1 and {MAX_TURNS_LIMIT}, got {max_turns}"));
        }
        let mut run = Self::from_plans(plans(cat, attacker, target, c, o), defence(target, c), o, max_turns);
        if o.full_chart() {
            let names: Vec<String> = cat.weapons.iter().map(|w| w.name.clone()).collect();
            let still = Conditions { immobile: true, ..*c };
            let sets = [plans(cat, attacker, target, c, o), plans(cat, attacker, target, &still, o)];
            let chart = &cat.charts[attacker.chart];
            let gates = sets.clone().map(|ps| {
                ps.iter().map(|p| p.weapons.iter().map(|w| Gate::new(chart, p.number, &w.name)).collect()).collect()
            });
            let target = ChartModel::new(target, &cat.charts[target.chart], &names)?;
            run.full = Some(FullChart { plans: sets, gates, target });
        }
        Ok(run)
    }

    /// Whether this run plays the full chart model (Monte Carlo only).
    pub fn is_full_chart(&self) -> bool {
        self.full.is_some()
    }

    /// Gunner `g` of the full model firing at a target (immobile: `still`), the
    /// attacker having lost the items in `destroyed`.
    #[inline]
    pub fn shooter<'a>(&'a self, f: &'a FullChart, still: bool, g: usize, destroyed: u32) -> Shooter<'a> {
        let k = usize::from(still);
        Shooter {
            plan: &f.plans[k][g],
            gates: &f.gates[k][g],
            destroyed,
            how: self.how,
            double_stacks: self.double_stacks,
            second_20_destroys: self.second_20_destroys,
        }
    }

    /// One run of the full chart model: (turn of the kill, attack of the kill) or `None`.
    fn play_full<R: Rng + ?Sized>(&self, f: &FullChart, rng: &mut R) -> Option<(u32, u32)> {
        let mut s = CardState::fresh(self.defence.armour);
        let mut action = 0;
        for t in 0..self.max_turns {
            let still = s.immobile; // effects start at the next turn (Aftermath)
            for g in 0..self.plans.len() {
                action += 1;
                if full_chart::step(&self.shooter(f, still, g, 0), &self.defence, &f.target, &mut s, rng) {
                    return Some((t + 1, action));
                }
            }
        }
        None
    }

    /// Compile from gunner plans and the target's defence.
    pub fn from_plans(plans: Vec<GunnerPlan>, defence: Defence, o: &Options, max_turns: u32) -> AttackRun {
        let how = o.damage_dice();
        let armour = defence.armour;
        let steps: Vec<Vec<StepLaw>> =
            plans.iter().map(|g| (0..=armour).map(|a| g.step_law(&defence, a, how)).collect()).collect();
        let (mut start, mut thresholds, mut packed) = (vec![0u32], Vec::new(), Vec::new());
        for laws in &steps {
            for law in laws {
                for (t, o) in table(law) {
                    thresholds.push(t);
                    packed.push(o);
                }
                start.push(thresholds.len() as u32);
            }
        }
        AttackRun {
            plans,
            defence,
            max_turns,
            how,
            dice_mode: o.mc_dice(),
            double_stacks: o.double_stacks(),
            second_20_destroys: o.second_20_destroys(),
            steps,
            start,
            thresholds,
            packed,
            full: None,
        }
    }

    /// Gunners that roll each turn.
    pub fn gunners(&self) -> usize {
        self.plans.len()
    }

    /// The untouched target.
    pub fn fresh(&self) -> State {
        State { armour: self.defence.armour, lines: 0 }
    }

    /// The exact law of gunner `g`'s step on armour `a` left.
    pub fn step_law(&self, g: usize, a: u32) -> &StepLaw {
        &self.steps[g][a as usize]
    }

    /// Gunner `g` rolls at the target in `s`; true when that destroys it.
    #[inline]
    pub fn step<R: Rng + ?Sized>(&self, g: usize, s: &mut State, rng: &mut R) -> bool {
        if self.dice_mode {
            return self.step_dice(g, s, rng);
        }
        let i = g * (self.defence.armour as usize + 1) + s.armour as usize;
        let (from, to) = (self.start[i] as usize, self.start[i + 1] as usize);
        let u = rng.next_u64();
        let mut j = from;
        while j + 1 < to && u >= self.thresholds[j] {
            j += 1;
        }
        let o = self.packed[j];
        if o == KILL {
            return true;
        }
        s.armour = o >> 8;
        s.lines += o & 0xff;
        s.lines >= CHART_LINES
    }

    /// [`AttackRun::step`] with every die rolled (`MC_SAMPLER = DICE`).
    fn step_dice<R: Rng + ?Sized>(&self, g: usize, s: &mut State, rng: &mut R) -> bool {
        let plan = &self.plans[g];
        let r = roll_dice(rng, plan.dice, plan.spread, self.double_stacks, self.second_20_destroys);
        if r.auto_miss {
            return false;
        }
        if r.second_20 {
            return true;
        }
        let k = if r.natural_20 {
            plan.weapons.len()
        } else {
            let reach = i64::from(r.total) + plan.gunnery;
            plan.weapons.iter().filter(|w| w.target_number <= reach).count()
        };
        if k == 0 {
            return false;
        }
        let m = MULTIPLIERS[r.multiplier];
        let [nd, ns, np] = plan.pools[k];
        let d = roll_pool(rng, nd, self.how) * m;
        let sh = roll_pool(rng, ns, self.how) * m;
        let p = roll_pool(rng, np, self.how) * m;
        let (after, internal) = self.defence.resolve(s.armour, d, sh, p);
        s.armour = after;
        match self.defence.internal(internal) {
            Internal::Dead => true,
            Internal::None => false,
            Internal::Lines(l) => {
                s.lines += l;
                s.lines >= CHART_LINES
            }
        }
    }

    /// Play one run: (turn of the kill from 1, attack of the kill from 1), or `None`.
    #[inline]
    pub fn play_one<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<(u32, u32)> {
        if let Some(f) = &self.full {
            return self.play_full(f, rng);
        }
        let mut s = self.fresh();
        let mut action = 0;
        for t in 0..self.max_turns {
            for g in 0..self.plans.len() {
                action += 1;
                if self.step(g, &mut s, rng) {
                    return Some((t + 1, action));
                }
            }
        }
        None
    }

    /// The exact time-to-kill law of the card-free model: the Markov chain over (armour
    /// left, lines marked). The full chart model has none (see [`AttackRun::is_full_chart`]).
    pub fn exact(&self) -> ExactTtk {
        let width = CHART_LINES as usize;
        let a0 = self.defence.armour as usize;
        let mut dist = vec![0.0f64; (a0 + 1) * width];
        dist[a0 * width] = 1.0;
        let (mut by_turn, mut by_action) = (Vec::new(), Vec::new());
        for _ in 0..self.max_turns {
            let mut turn_kill = 0.0;
            for g in 0..self.plans.len() {
                let mut next = vec![0.0f64; dist.len()];
                let mut kill = 0.0;
                for (i, &p) in dist.iter().enumerate() {
                    if p == 0.0 {
                        continue;
                    }
                    let (a, l) = (i / width, (i % width) as u32);
                    let law = &self.steps[g][a];
                    kill += p * law.kill;
                    for &(a2, dl, q) in &law.outcomes {
                        let l2 = l + dl;
                        if l2 >= CHART_LINES {
                            kill += p * q;
                        } else {
                            next[a2 as usize * width + l2 as usize] += p * q;
                        }
                    }
                }
                by_action.push(kill);
                turn_kill += kill;
                dist = next;
            }
            by_turn.push(turn_kill);
        }
        let mut cum = 0.0;
        let p_kill_by_turn: Vec<f64> = by_turn
            .iter()
            .map(|p| {
                cum += p;
                cum
            })
            .collect();
        let p_kill = cum;
        let mean = |v: &[f64]| {
            (p_kill > 0.0).then(|| v.iter().enumerate().map(|(i, p)| (i + 1) as f64 * p).sum::<f64>() / p_kill)
        };
        ExactTtk {
            mean_turns: mean(&by_turn),
            mean_actions: mean(&by_action),
            kill_by_turn: by_turn,
            p_kill_by_turn,
            kill_by_action: by_action,
            p_kill,
        }
    }
}

impl Kernel for AttackRun {
    type Tally = TtkTally;
    fn new_tally(&self) -> TtkTally {
        TtkTally::new(self.max_turns as usize, self.max_turns as usize * self.plans.len().max(1))
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        for _ in 0..trials {
            if let Some((t, a)) = self.play_one(rng) {
                tally.kills_by_turn[t as usize - 1] += 1;
                tally.kills_by_action[a as usize - 1] += 1;
            }
        }
        tally.trials += u64::from(trials);
    }
}
