//! The card-free attack run (§5 "Attack run", §3, §8): every turn each gunner of the
//! attacker rolls once with every weapon in range at a target that never fires back;
//! the target's state is (armour left on the facing section, chart lines marked), and it
//! is out of action on the Dead box, a second 20 or 100 lines marked.
//!
//! Exact: the Markov chain over that state ([`AttackRun::exact`]). Monte Carlo
//! (`MC_SAMPLER`): `TABLE` (default) draws a gunner's whole step (roll, hits, the three
//! pools, armour, Internal, box) from one exact integer alias table per (gunner, armour
//! left) with one u64 and one lookup (`step_table`): no rule of the card-free model
//! needs the individual dice; its kernel plays eight runs side by side, so the loop has
//! no branch on the rules or on "is it dead yet". `DICE` rolls
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
use super::gunner::{Arsenal, GunnerPlan, MAX_COUNTED, StepLaw, defence, plans};
use super::options::{DamageDice, Options};
use super::roll::{MULTIPLIERS, roll_dice};
use super::step_table::StepTables;
use super::unit::Unit;

/// The most turns an engagement may last.
pub const MAX_TURNS_LIMIT: u32 = 1000;
pub use super::chart::CHART_LINES;

/// The target's card-free state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct State {
    pub armour: u32,
    pub lines: u32,
}

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    /// The gunners that roll in the first turn, in card order, each with the weapons it
    /// fires then (plan `g` is gunner `g`'s).
    pub plans: Vec<GunnerPlan>,
    /// The other sets the gunners fire in later turns, as rounds run out (`AMMO`): plans
    /// `plans.len()..` of [`AttackRun::step`].
    pub more: Vec<GunnerPlan>,
    /// What each gunner may fire against this target ([`Arsenal::choose`]), with plan
    /// indexes of this run; `None` for a run built from plans.
    pub arsenal: Option<Arsenal>,
    /// `schedule[t]`: the plans that roll in turn t (from 0), in card order; later turns
    /// repeat the last entry. Fire never depends on the dice, so the schedule is fixed.
    schedule: Vec<Vec<u32>>,
    pub defence: Defence,
    pub max_turns: u32,
    how: DamageDice,
    dice_mode: bool,
    double_stacks: bool,
    second_20_destroys: bool,
    /// `steps[p][a]`: plan p's exact step law on armour a left.
    steps: Vec<Vec<StepLaw>>,
    /// Alias table of (plan p, armour a): table `p * (A+1) + a`.
    tables: StepTables,
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
        if o.ammo_counted() {
            for (gi, g) in attacker.gunners.iter().enumerate() {
                let n = g.weapons.iter().filter(|&&i| cat.weapons[i].ammo.is_some()).count();
                if n > MAX_COUNTED {
                    return Err(format!(
                        "{} gunner {}: {n} weapons with an ammunition count; at most {MAX_COUNTED} per gunner are \
                         played (AMMO=CARD)",
                        attacker.name,
                        gi + 1
                    ));
                }
            }
        }
        let mut arsenal = Arsenal::new(cat, attacker, target, c, o);
        if o.full_chart() && arsenal.menus.iter().any(|m| !m.counted.is_empty()) {
            return Err("MODEL=FULL_CHART does not count ammunition yet: set AMMO=UNLIMITED, or drop the \
                        weapons' `ammo` counts"
                .into());
        }
        let first = arsenal.first_turn_first();
        let schedule = schedule(&arsenal, max_turns);
        let mut all = arsenal.plans.clone();
        let more = all.split_off(first);
        let mut run = Self::compile(all, more, schedule, defence(target, c), o, max_turns);
        run.arsenal = Some(arsenal);
        if o.full_chart() {
            let names: Vec<String> = cat.weapons.iter().map(|w| w.name.clone()).collect();
            let still = Conditions { immobile: true, target_dodging: false, ..*c };
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

    /// Compile from gunner plans and the target's defence: every gunner fires its plan
    /// every turn.
    pub fn from_plans(plans: Vec<GunnerPlan>, defence: Defence, o: &Options, max_turns: u32) -> AttackRun {
        let schedule = vec![(0..plans.len() as u32).collect()];
        Self::compile(plans, Vec::new(), schedule, defence, o, max_turns)
    }

    fn compile(
        plans: Vec<GunnerPlan>,
        more: Vec<GunnerPlan>,
        schedule: Vec<Vec<u32>>,
        defence: Defence,
        o: &Options,
        max_turns: u32,
    ) -> AttackRun {
        let how = o.damage_dice();
        let armour = defence.armour;
        let steps: Vec<Vec<StepLaw>> =
            plans.iter().chain(&more).map(|g| (0..=armour).map(|a| g.step_law(&defence, a, how)).collect()).collect();
        let tables = StepTables::new(steps.iter().flatten());
        AttackRun {
            plans,
            more,
            arsenal: None,
            schedule,
            defence,
            max_turns,
            how,
            dice_mode: o.mc_dice(),
            double_stacks: o.double_stacks(),
            second_20_destroys: o.second_20_destroys(),
            steps,
            tables,
            full: None,
        }
    }

    /// Gunners that roll in the first turn.
    pub fn gunners(&self) -> usize {
        self.plans.len()
    }

    /// The plans that roll in turn `t` (from 0), in card order.
    #[inline]
    pub fn turn(&self, t: u32) -> &[u32] {
        &self.schedule[(t as usize).min(self.schedule.len() - 1)]
    }

    /// Plan `p` (the first turn's, then [`AttackRun::more`]).
    pub fn plan(&self, p: usize) -> &GunnerPlan {
        if p < self.plans.len() { &self.plans[p] } else { &self.more[p - self.plans.len()] }
    }

    /// Gunner rolls over `max_turns` turns.
    pub fn actions(&self) -> usize {
        (0..self.max_turns).map(|t| self.turn(t).len()).sum()
    }

    /// The untouched target.
    pub fn fresh(&self) -> State {
        State { armour: self.defence.armour, lines: 0 }
    }

    /// The exact law of plan `g`'s step on armour `a` left.
    pub fn step_law(&self, g: usize, a: u32) -> &StepLaw {
        &self.steps[g][a as usize]
    }

    /// Plan `g`'s gunner rolls at the target in `s` with its weapons; true when that
    /// destroys it.
    #[inline]
    pub fn step<R: Rng + ?Sized>(&self, g: usize, s: &mut State, rng: &mut R) -> bool {
        if self.dice_mode {
            return self.step_dice(g, s, rng);
        }
        let o = self.tables.sample(g * (self.defence.armour as usize + 1) + s.armour as usize, rng.next_u64());
        s.armour = u32::from(o >> 8);
        s.lines += u32::from(o & 0xff);
        s.lines >= CHART_LINES
    }

    /// [`AttackRun::step`] with every die rolled (`MC_SAMPLER = DICE`).
    fn step_dice<R: Rng + ?Sized>(&self, g: usize, s: &mut State, rng: &mut R) -> bool {
        let plan = self.plan(g);
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
            for &g in self.turn(t) {
                action += 1;
                if self.step(g as usize, &mut s, rng) {
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
        for turn in 0..self.max_turns {
            let mut turn_kill = 0.0;
            for &g in self.turn(turn) {
                let g = g as usize;
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
        ExactTtk::from_kill_pmfs(by_turn, by_action)
    }
}

/// Runs played side by side; a lane whose run ends restarts at once, which keeps the
/// unpredictable "is it dead yet" branch out of the loop.
const LANES: usize = 8;

impl Kernel for AttackRun {
    type Tally = TtkTally;
    fn new_tally(&self) -> TtkTally {
        let actions = self.actions();
        TtkTally::new(self.max_turns as usize, if actions == 0 { self.max_turns as usize } else { actions })
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        if self.dice_mode || self.full.is_some() {
            for _ in 0..trials {
                if let Some((t, a)) = self.play_one(rng) {
                    tally.kills_by_turn[t as usize - 1] += 1;
                    tally.kills_by_action[a as usize - 1] += 1;
                }
            }
            tally.trials += u64::from(trials);
        } else {
            self.play_lanes(rng, trials, tally);
        }
    }
}

impl AttackRun {
    /// The table sampler's hot loop: [`LANES`] runs side by side, each step one u64 and
    /// one alias-table lookup, no branch on the rules. Draws one u64 per gunner step, as
    /// [`AttackRun::play_one`] does, but interleaved across the lanes.
    fn play_lanes(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        tally.trials += u64::from(trials);
        let width = self.defence.armour as usize + 1;
        let (mut table_of, mut turn_of) = (Vec::new(), Vec::new());
        for t in 0..self.max_turns {
            for &g in self.turn(t) {
                table_of.push(g * width as u32);
                turn_of.push(t as usize);
            }
        }
        let len = table_of.len();
        if len == 0 || trials == 0 {
            return; // nothing fires: every run is censored
        }
        let mut lanes = Lanes {
            tables: &self.tables,
            table_of,
            full: self.defence.armour,
            kills: vec![0u32; LANES * len],
            armour: [self.defence.armour; LANES],
            lines: [0; LANES],
            pos: [0; LANES],
        };
        let mut active = [false; LANES];
        let mut started = trials.min(LANES as u32);
        active.iter_mut().take(started as usize).for_each(|a| *a = true);
        // Steady state: every lane that finishes restarts at once.
        while trials - started >= LANES as u32 {
            for l in 0..LANES {
                started += u32::from(lanes.step(l, rng));
            }
        }
        // Drain: the last runs finish; lanes go idle once no run is left to start.
        let mut running = active.iter().filter(|&&a| a).count();
        while running > 0 {
            for (l, on) in active.iter_mut().enumerate() {
                if *on && lanes.step(l, rng) {
                    if started < trials {
                        started += 1;
                    } else {
                        *on = false;
                        running -= 1;
                    }
                }
            }
        }
        for (p, &turn) in turn_of.iter().enumerate() {
            let k: u64 = (0..LANES).map(|l| u64::from(lanes.kills[l * len + p])).sum();
            tally.kills_by_turn[turn] += k;
            tally.kills_by_action[p] += k;
        }
    }
}

/// The card-free state of [`LANES`] runs and their kills, for [`AttackRun::play_lanes`].
struct Lanes<'a> {
    tables: &'a StepTables,
    /// `table_of[p]`: the first table (armour 0) of the gunner who makes action p.
    table_of: Vec<u32>,
    /// Armour of a fresh target.
    full: u32,
    /// `kills[l * actions + p]`: lane l's runs that ended on action p (one row per lane
    /// keeps lanes from chaining read-modify-writes on one counter).
    kills: Vec<u32>,
    armour: [u32; LANES],
    lines: [u32; LANES],
    /// The action each lane makes next, from 0.
    pos: [usize; LANES],
}

impl Lanes<'_> {
    /// Lane `l` makes its next action; true when its run ended (destroyed or out of
    /// turns) and it was reset to a fresh run.
    #[inline(always)]
    fn step(&mut self, l: usize, rng: &mut Xoshiro256PlusPlus) -> bool {
        let p = self.pos[l];
        let o = self.tables.sample(self.table_of[p] as usize + self.armour[l] as usize, rng.next_u64());
        let marked = self.lines[l] + u32::from(o & 0xff);
        let dead = marked >= CHART_LINES;
        let len = self.table_of.len();
        self.kills[l * len + p] += u32::from(dead);
        let next = p + 1;
        let done = dead | (next == len);
        self.armour[l] = if done { self.full } else { u32::from(o >> 8) };
        self.lines[l] = if done { 0 } else { marked };
        self.pos[l] = if done { 0 } else { next };
        done
    }
}

/// The plans that roll each turn when every gunner fires its best set while rounds last
/// (`AMMO`): turn by turn until a turn spends no counted round (from then on every turn
/// is the same), at most `max_turns` entries.
fn schedule(a: &Arsenal, max_turns: u32) -> Vec<Vec<u32>> {
    let mut left: Vec<Vec<u32>> = a.menus.iter().map(|m| m.counted.iter().map(|c| c.1).collect()).collect();
    let mut out = Vec::new();
    for _ in 0..max_turns.max(1) {
        let masks: Vec<u32> =
            left.iter().map(|l| l.iter().enumerate().fold(0u32, |m, (b, &n)| m | (u32::from(n > 0) << b))).collect();
        let chosen = a.choose(&masks);
        let mut spent = false;
        for (m, p) in chosen.iter().enumerate() {
            if let Some(p) = p {
                for (b, n) in left[m].iter_mut().enumerate() {
                    if a.uses[*p] >> b & 1 == 1 {
                        *n -= 1;
                        spent = true;
                    }
                }
            }
        }
        out.push(chosen.into_iter().flatten().map(|p| p as u32).collect());
        if !spent {
            break;
        }
    }
    out
}
