//! Attack runs (§4): the attacker's fixed plan against an inert target; the exact Markov
//! chain over the target's card ([`AttackRun::exact`]) and the Monte Carlo kernel, which
//! samples each attack from the same integer counts with one draw, runs side by side in
//! lanes ([`super::run_lanes`]).

use rand_xoshiro::Xoshiro256PlusPlus;

use super::conditions::Conditions;
use super::graph::Graph;
use super::options::Options;
use super::plan::{Plan, RunPolicy, plan};
use super::run_lanes::RunLanes;
use super::setup::{card, firer_column, with_conditions};
use super::track::fresh;
use super::trooper::Trooper;
use crate::engine::Kernel;
use crate::stats::{ExactTtk, TtkTally};

/// A compiled attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct AttackRun {
    pub plan: Plan,
    pub graph: Graph,
    /// The plan's law indices, round after round.
    pub(super) steps: Vec<u8>,
    /// `round_end[r]`: end of round r's steps in `steps`.
    pub(super) round_end: Vec<u32>,
    /// The Monte Carlo kernel's tables.
    pub(super) lanes: RunLanes,
    pub max_rounds: u32,
}

impl AttackRun {
    /// Compile the run of `a` against `t`.
    ///
    /// # Errors
    /// No attack at these conditions, or a card too large to play.
    pub fn new(
        a: &Trooper,
        t: &Trooper,
        c: &Conditions,
        o: &Options,
        policy: RunPolicy,
        max_rounds: u32,
    ) -> Result<AttackRun, String> {
        o.validate()?;
        let (a, t) = (with_conditions(a, c, false), with_conditions(t, c, true));
        let plan = plan(&a, firer_column(&a, c), t.sneak_suit || c.sneak_suit, c, o, policy, max_rounds.max(1))?;
        let card = card(&t, o);
        let graph = Graph::build(card, fresh(t.armour_cells()), &plan.laws)?;
        let mut steps = Vec::new();
        let mut round_end = Vec::new();
        for r in &plan.rounds {
            steps.extend(r.iter().map(|s| s.law));
            round_end.push(steps.len() as u32);
        }
        let lanes = RunLanes::new(&graph)?;
        Ok(AttackRun { plan, graph, steps, round_end, lanes, max_rounds: max_rounds.max(1) })
    }

    /// The exact law of the round (and attack) the target goes out.
    pub fn exact(&self) -> ExactTtk {
        let g = &self.graph;
        let mut p = vec![0.0; g.len()];
        p[0] = 1.0;
        let mut out = g.p_out(&p);
        let (mut by_round, mut by_attack) = (Vec::new(), Vec::new());
        let mut start = 0;
        for &end in &self.round_end {
            let before = out;
            for &l in &self.steps[start..end as usize] {
                p = g.step(l as usize, &p);
                let now = g.p_out(&p);
                by_attack.push(now - out);
                out = now;
            }
            start = end as usize;
            by_round.push(out - before);
        }
        ExactTtk::from_kill_pmfs(by_round, by_attack)
    }
}

impl Kernel for AttackRun {
    type Tally = TtkTally;

    fn new_tally(&self) -> TtkTally {
        TtkTally::new(self.max_rounds as usize, self.steps.len())
    }

    /// Plays `trials` runs, [`LANES`](super::run_lanes) at a time; each attack is one
    /// unbiased draw through the exact counts of the target's current state.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut TtkTally) {
        tally.trials += trials as u64;
        self.lanes.play(&self.steps, &self.round_end, rng, trials, tally);
    }
}
