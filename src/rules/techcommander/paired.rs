//! Paired play for comparisons with common random numbers.
//!
//! Attack runs are coupled once per trial through their exact time-to-kill
//! distributions (see [`paired_runs`]). Duels, which have no exact solver, are coupled per
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
use crate::rules::quantile_pair::QuantilePair;
use crate::stats::{PairedTally, Scale};

use super::attack_run::AttackRun;
use super::compiled::{CompiledSide, TABLES};
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

/// One side's inverse CDFs of life lost: `cdf[table][system]` (the tables of
/// [`CompiledSide::specs`], then from [`TABLES`] those of its side compiled against the
/// other's bubble shield, [`Duel::covered`], empty without one), `None` where it cannot
/// fire.
#[derive(Debug, Clone, PartialEq)]
pub struct CoupledSide {
    pub cdf: Vec<Vec<Option<InverseCdf>>>,
}

impl CoupledSide {
    pub fn new(side: &CompiledSide, covered: Option<&CompiledSide>) -> CoupledSide {
        let tables = |s: &CompiledSide| {
            s.specs.clone().map(|v| v.iter().map(|s| s.as_ref().map(InverseCdf::life_lost)).collect::<Vec<_>>())
        };
        let mut cdf: Vec<_> = tables(side).into();
        cdf.extend(covered.map_or_else(|| std::array::from_fn::<_, TABLES, _>(|_| Vec::new()), tables));
        CoupledSide { cdf }
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
    fn life_lost(&mut self, who: usize, table: usize, system: u8, _sampler: &ActionSampler) -> u32 {
        let sides = self.sides;
        let (u, refine) = self.slot(who);
        sides[who].cdf[table][system as usize].as_ref().expect("ranked systems can fire").sample(u, refine)
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
        let coupled = [&a, &b].map(|d| [0, 1].map(|w| CoupledSide::new(&d.sides[w], d.covered[w].as_ref())));
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

/// A's and B's attack runs against the same target, paired by one uniform per trial
/// mapped through each side's exact time-to-kill law (the coupling any ruleset with an
/// exact law uses: [`QuantilePair`]).
///
/// # Errors
/// `Metric::Win` (a duel metric).
pub fn paired_runs(a: &AttackRun, b: &AttackRun, metric: Metric) -> Result<QuantilePair, String> {
    QuantilePair::new(&a.exact(), &b.exact(), metric)
}
