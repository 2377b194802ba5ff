//! Paired play for comparisons with common random numbers.
//!
//! Attack runs are coupled once per trial through their exact time-to-kill
//! distributions (see [`PairedRuns`]). Duels, which have no exact solver, are coupled per
//! action slot: each trial re-seeds one generator per role (initiative, the compared build, the
//! opponent) from the stream. Every side has [`SLOTS_PER_TURN`] action slots a turn, and
//! every slot takes exactly two u64 from its side's generator, used or not (a unit with
//! fewer actions, an action with no system to fire): one for the jury-rig d20, one
//! uniform for the attack. The attack maps that uniform through the inverse CDF of the
//! action's life lost ([`super::coupled`]), so the k-th action of A and of B see the
//! same uniform and get monotonically coupled outcomes whatever their numbers of dice.
//! Initiative rolls come from their own generator and do not depend on the builds.
//!
//! Each side's outcome distribution is exactly that of the unpaired kernels (the inverse
//! CDF is exact; see [`super::coupled`]); only the pairing is new. The unpaired kernels
//! draw as before and are untouched by this module.

use std::convert::Infallible;

use rand::{Rng, SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::stats::{PairedTally, Scale};

use super::attack_run::AttackRun;
use super::compiled::CompiledSide;
use super::coupled::InverseCdf;
use super::dice::roll_d20;
use super::duel::{Duel, DuelDice};
use super::rulings::{DIE_SIDES, MSV_ACTIONS_PER_TURN, OTHER_ACTIONS_PER_TURN};
use super::sampler::ActionSampler;

/// Action slots per side and turn: the most actions any unit takes in a turn.
pub const SLOTS_PER_TURN: u32 =
    if MSV_ACTIONS_PER_TURN > OTHER_ACTIONS_PER_TURN { MSV_ACTIONS_PER_TURN } else { OTHER_ACTIONS_PER_TURN };

/// A trial's refinement stream for the rare ties of [`InverseCdf::sample`]: a
/// long-jumped (2^192 steps ahead, so never overlapping) copy of a generator seeded
/// from `seed`, created only when a tie needs it.
#[derive(Debug, Clone)]
pub struct Refine {
    seed: u64,
    rng: Option<Xoshiro256PlusPlus>,
}

impl Refine {
    pub fn new(seed: u64) -> Refine {
        Refine { seed, rng: None }
    }
}

impl TryRng for Refine {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let seed = self.seed;
        let rng = self.rng.get_or_insert_with(|| {
            let mut r = Xoshiro256PlusPlus::seed_from_u64(seed);
            r.long_jump();
            r
        });
        Ok(rng.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let bytes = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

/// The generators of one trial, one per role.
#[derive(Debug, Clone)]
pub struct TrialRngs {
    pub initiative: Xoshiro256PlusPlus,
    /// The compared build's slots.
    pub own: Xoshiro256PlusPlus,
    /// The opponent's slots.
    pub opponent: Xoshiro256PlusPlus,
    /// Further digits of a uniform in the rare ties (see [`super::coupled`]).
    pub refine: Refine,
}

impl TrialRngs {
    /// Seed the roles of the next trial from the stream: three u64 per trial.
    pub fn next(stream: &mut Xoshiro256PlusPlus) -> TrialRngs {
        let initiative = stream.next_u64();
        let own = stream.next_u64();
        let opponent = stream.next_u64();
        TrialRngs {
            initiative: Xoshiro256PlusPlus::seed_from_u64(initiative),
            own: Xoshiro256PlusPlus::seed_from_u64(own),
            opponent: Xoshiro256PlusPlus::seed_from_u64(opponent),
            refine: Refine::new(own),
        }
    }
}

/// One side's inverse CDFs of life lost: `cdf[fc][system]`, `None` where it cannot fire.
#[derive(Debug, Clone, PartialEq)]
pub struct CoupledSide {
    pub cdf: [Vec<Option<InverseCdf>>; 2],
}

impl CoupledSide {
    pub fn new(side: &CompiledSide) -> CoupledSide {
        CoupledSide {
            cdf: side.specs.clone().map(|v| v.iter().map(|s| s.as_ref().map(InverseCdf::life_lost)).collect()),
        }
    }
}

/// A duel's dice for paired play: slots aligned, attacks through inverse CDFs.
struct PairedDice<'a> {
    r: &'a mut TrialRngs,
    sides: &'a [CoupledSide; 2],
    d20: &'a InverseCdf,
}

impl PairedDice<'_> {
    #[inline(always)]
    fn slot(&mut self, who: usize) -> (u64, &mut Refine) {
        let rng = if who == 0 { &mut self.r.own } else { &mut self.r.opponent };
        (rng.next_u64(), &mut self.r.refine)
    }
}

impl DuelDice for PairedDice<'_> {
    #[inline(always)]
    fn initiative(&mut self) -> u32 {
        roll_d20(&mut self.r.initiative)
    }
    #[inline(always)]
    fn jury_rig(&mut self, who: usize, in_the_red: bool) -> Option<u32> {
        let d20 = self.d20;
        let (u, refine) = self.slot(who);
        let roll = d20.sample(u, refine) + 1;
        in_the_red.then_some(roll)
    }
    #[inline(always)]
    fn life_lost(&mut self, who: usize, fc: usize, system: u8, _sampler: &ActionSampler) -> u32 {
        let sides = self.sides;
        let (u, refine) = self.slot(who);
        sides[who].cdf[fc][system as usize].as_ref().expect("ranked systems can fire").sample(u, refine)
    }
    #[inline(always)]
    fn idle(&mut self, who: usize) {
        self.slot(who); // the slot's uniform, unused
    }
    #[inline(always)]
    fn end_turn(&mut self, actions: [u32; 2]) {
        for (who, &n) in actions.iter().enumerate() {
            for _ in n..SLOTS_PER_TURN {
                self.slot(who); // jury rig
                self.slot(who); // attack
            }
        }
    }
}

pub use crate::stats::Metric;

/// A and B each duel the same opponent: `a` is A vs O, `b` is B vs O.
pub struct PairedDuels {
    pub a: Duel,
    pub b: Duel,
    coupled: [[CoupledSide; 2]; 2],
    d20: InverseCdf,
}

impl PairedDuels {
    pub fn new(a: Duel, b: Duel) -> PairedDuels {
        let coupled = [&a, &b].map(|d| [CoupledSide::new(&d.sides[0]), CoupledSide::new(&d.sides[1])]);
        PairedDuels { a, b, coupled, d20: InverseCdf::uniform(DIE_SIDES) }
    }

    /// Play trial `r` of duel `which` (0 = A vs O, 1 = B vs O). Same rules and outcome
    /// encoding as the unpaired kernel.
    pub fn play(&self, which: usize, r: &mut TrialRngs) -> Option<(usize, u8)> {
        let duel = if which == 0 { &self.a } else { &self.b };
        duel.play_with(&mut PairedDice { r, sides: &self.coupled[which], d20: &self.d20 })
    }
}

impl Kernel for PairedDuels {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::new(Scale::Proportion)
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let seeds = TrialRngs::next(rng);
            let win = |o: Option<(usize, u8)>| matches!(o, Some((_, 0))) as i64;
            let a = win(PairedDuels::play(self, 0, &mut seeds.clone()));
            let b = win(PairedDuels::play(self, 1, &mut seeds.clone()));
            tally.add(a, b);
        }
    }
}

/// A and B each attack the same target under the same conditions.
///
/// Attack runs are coupled once per trial, through their exact time-to-kill
/// distributions ([`AttackRun::exact`]): one uniform u per trial, and each side's turn of
/// the kill is its quantile at u. This comonotone coupling is the strongest pairing two
/// distributions admit: whenever one build kills by every turn at least as often as the
/// other, it kills no later in every trial, and the paired interval of any monotone
/// metric (turns, kill by turn k) is as narrow as any pairing can make it. Coupling per
/// action cannot do this: once the stronger build has killed, the weaker one's later
/// actions would see numbers the stronger one never used.
///
/// Each side's turn is drawn from its exact chain computed in f64: every probability is
/// within a few ulps (about 1e-15) of the exact rational, far below what any sample
/// size here can resolve. The unpaired attack-run kernel is untouched.
pub struct PairedRuns {
    pub a: AttackRun,
    pub b: AttackRun,
    pub metric: Metric,
    /// Per side, per turn t: ⌈P(killed by turn t+1) · 2^64⌉ as a u128 (2^64 when certain).
    quantiles: [Vec<u128>; 2],
}

/// `u < thresholds[t]` ⇔ the kill comes by turn t+1, for u uniform on [0, 2^64).
fn turn_thresholds(run: &AttackRun) -> Vec<u128> {
    const TWO_64: f64 = 18_446_744_073_709_551_616.0;
    run.exact().p_kill_by_turn.iter().map(|&f| (f.clamp(0.0, 1.0) * TWO_64).ceil() as u128).collect()
}

impl PairedRuns {
    pub fn new(a: AttackRun, b: AttackRun, metric: Metric) -> PairedRuns {
        let quantiles = [turn_thresholds(&a), turn_thresholds(&b)];
        PairedRuns { a, b, metric, quantiles }
    }

    /// The 1-based turn of the kill at uniform `u` for side `who`, or `None` if censored.
    #[inline]
    fn turn(&self, who: usize, u: u64) -> Option<u32> {
        self.quantiles[who].iter().position(|&t| (u as u128) < t).map(|t| t as u32 + 1)
    }

    /// The metric's value for one run (turn of the kill or `None`).
    fn value(&self, t: Option<u32>) -> i64 {
        match self.metric {
            Metric::KillByTurn(k) => t.is_some_and(|t| t <= k) as i64,
            Metric::Turns | Metric::Win => t.unwrap_or(self.a.max_turns + 1) as i64,
        }
    }
}

impl Kernel for PairedRuns {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::new(match self.metric {
            Metric::KillByTurn(_) => Scale::Proportion,
            Metric::Turns | Metric::Win => Scale::Range { low: 1, high: self.a.max_turns as i64 + 1 },
        })
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let u = rng.next_u64();
            tally.add(self.value(self.turn(0, u)), self.value(self.turn(1, u)));
        }
    }
}
