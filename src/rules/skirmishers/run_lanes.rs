//! The attack run's Monte Carlo kernel: the target card's transitions as exact integer
//! alias tables ([`super::alias`]), and runs played side by side in lanes.
//!
//! [`LANES`] runs share one generator, lane by lane in a fixed order; a lane whose run
//! ends (the target out, or the plan's last attack made) starts the next run at once,
//! so the loop has no "is it over yet" branch. Each attack is one draw through the row
//! of (the plan step's law, the target's state), which gives the next state and whether
//! the target is out in it: the same counts out of 1296 that the exact chain steps
//! through, so both play exactly one law.
//!
//! Contract: a tally depends only on the generator's state and the trial count (not on
//! how trials are split into calls beyond that), and every attack draws exactly once.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::alias::{Column, INDEX, MAX_BITS, OUT, card_rows, draw, rejects};
use super::graph::Graph;
use crate::stats::TtkTally;

/// Runs played side by side.
const LANES: usize = 8;

/// The compiled tables of one attack run's target card.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct RunLanes {
    /// The card's states (law `l` at state `s` is row `l * states + s`).
    states: u32,
    /// Per row: `offset << 5 | b` (see [`super::alias`]).
    rows: Vec<u32>,
    columns: Vec<Column>,
    reject: [u64; MAX_BITS as usize + 1],
}

impl RunLanes {
    /// The tables of target card `g`.
    ///
    /// # Errors
    /// A card too large for the alias tables (never, with graphs' own limit).
    pub(super) fn new(g: &Graph) -> Result<RunLanes, String> {
        let (mut rows, mut columns) = (Vec::new(), Vec::new());
        card_rows(g, 0, false, &mut rows, &mut columns)?;
        Ok(RunLanes { states: g.len() as u32, rows, columns, reject: rejects() })
    }

    /// One attack of law `law` at state `state`: the packed next state.
    #[inline(always)]
    fn attack(&self, law: u8, state: u32, rng: &mut Xoshiro256PlusPlus) -> u32 {
        let row = self.rows[(law as u32 * self.states + state) as usize];
        draw(row, &self.columns, &self.reject, rng)
    }

    /// The next attack of lane `l`'s run, (its state, its next attack) in `lane`, of the
    /// plan `steps`: counted in `counts` (a kill at its attack number, else in the
    /// lane's scratch slot after the plan's), and the lane left at a fresh run when this
    /// run ended. Whether it ended.
    #[inline(always)]
    fn advance(
        &self,
        steps: &[u8],
        l: usize,
        lane: &mut (u32, u32),
        counts: &mut [u32],
        rng: &mut Xoshiro256PlusPlus,
    ) -> bool {
        let (state, k) = (lane.0, lane.1 as usize);
        let next = self.attack(steps[k], state, rng);
        let out = next & OUT != 0;
        counts[if out { k } else { steps.len() + l }] += 1;
        let done = out | (k + 1 == steps.len());
        *lane = if done { (0, 0) } else { (next & INDEX, k as u32 + 1) };
        done
    }

    /// Play `trials` runs of the plan `steps` (the law of each attack, in order) into
    /// `tally`'s kills; `round_end[r]` is the end of round `r`'s attacks in `steps`. The
    /// caller counts the trials.
    pub(super) fn play(
        &self,
        steps: &[u8],
        round_end: &[u32],
        rng: &mut Xoshiro256PlusPlus,
        trials: u32,
        tally: &mut TtkTally,
    ) {
        let len = steps.len();
        if len == 0 || trials == 0 {
            return; // nothing is attacked: every run is censored
        }
        let mut r = rng.clone();
        // Kills by attack, then one scratch slot a lane: an attack that puts nothing out
        // adds there, so the count has no branch.
        let mut counts = vec![0u32; len + LANES];
        // Each lane's run: the target's state and the next attack.
        let mut lanes = [(0u32, 0u32); LANES];
        let mut started = trials.min(LANES as u32);
        let mut active = [false; LANES];
        active.iter_mut().take(started as usize).for_each(|a| *a = true);
        // Steady state: every lane that finishes restarts at once.
        while trials - started >= LANES as u32 {
            for (l, lane) in lanes.iter_mut().enumerate() {
                started += self.advance(steps, l, lane, &mut counts, &mut r) as u32;
            }
        }
        // Drain: lanes go idle once no run is left to start.
        let mut running = active.iter().filter(|&&a| a).count();
        while running > 0 {
            for (l, lane) in lanes.iter_mut().enumerate() {
                if active[l] && self.advance(steps, l, lane, &mut counts, &mut r) {
                    if started < trials {
                        started += 1;
                    } else {
                        active[l] = false;
                        running -= 1;
                    }
                }
            }
        }
        *rng = r;
        let mut round = 0;
        for (k, &n) in counts.iter().take(len).enumerate() {
            while k as u32 >= round_end[round] {
                round += 1;
            }
            tally.kills_by_turn[round] += n as u64;
            tally.kills_by_action[k] += n as u64;
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::super::alias::row_counts;
    use super::super::tests::{at, cat, trooper};
    use super::super::{AttackRun, Conditions, Options, RunPolicy};
    use super::*;
    use crate::engine::Kernel;

    /// Runs of different plans, cards and ammunition (grenades, rockets, armour, power
    /// armour, a damaged firer).
    fn runs() -> Vec<AttackRun> {
        let c = cat();
        let t = |n| trooper(&c, n);
        let o = Options::default();
        let cases = [
            ("Rifleman", "Rifleman", at(20), RunPolicy::ActiveWeapon),
            ("Rifleman", "Armoured Rifleman", at(3), RunPolicy::GrenadesFirst),
            ("Rocketeer", "Rifleman", at(6), RunPolicy::ActiveWeapon),
            ("Heavy Power Trooper", "Power Trooper", at(50), RunPolicy::ActiveWeapon),
            ("Rifleman", "Green Rifleman", Conditions { firer_hp: Some(3), ..at(20) }, RunPolicy::ActiveWeapon),
        ];
        cases.iter().map(|(a, b, c, p)| AttackRun::new(&t(a), &t(b), c, &o, *p, 6).unwrap()).collect()
    }

    /// Every row's alias columns hold exactly the graph's counts out of 1296 for that
    /// (law, state), with the out flag on exactly the out states.
    #[test]
    fn every_row_draws_the_graph_s_exact_counts() {
        let mut rows = 0;
        for run in runs() {
            let (g, lanes) = (&run.graph, &run.lanes);
            for l in 0..g.laws() {
                for s in 0..g.len() {
                    let mut got = row_counts(lanes.rows[l * g.len() + s], &lanes.columns);
                    let mut want: Vec<(u32, u32)> =
                        g.edges(l, s).map(|(t, n)| (t as u32 | if g.out[t] { OUT } else { 0 }, n)).collect();
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "law {l}, state {s}");
                    rows += 1;
                }
            }
        }
        assert!(rows > 100, "{rows} rows");
    }

    /// The lanes written plainly: each lane an `Option` of (state, attack), idle once no
    /// run is left to start, kills counted where they happen.
    fn plain(run: &AttackRun, rng: &mut Xoshiro256PlusPlus, trials: u32) -> TtkTally {
        let mut tally = run.new_tally();
        tally.trials += trials as u64;
        let mut lanes: Vec<Option<(u32, usize)>> =
            (0..LANES).map(|l| ((l as u32) < trials).then_some((0, 0))).collect();
        let mut started = trials.min(LANES as u32);
        while lanes.iter().any(Option::is_some) {
            for lane in lanes.iter_mut() {
                let Some((state, k)) = *lane else { continue };
                let next = run.lanes.attack(run.steps[k], state, rng);
                if next & OUT != 0 {
                    tally.kills_by_turn[run.round_end.partition_point(|&e| e as usize <= k)] += 1;
                    tally.kills_by_action[k] += 1;
                }
                *lane = if next & OUT == 0 && k + 1 < run.steps.len() {
                    Some((next & INDEX, k + 1))
                } else if started < trials {
                    started += 1;
                    Some((0, 0))
                } else {
                    None
                };
            }
        }
        tally
    }

    /// The loop's steady state and drain count as the plain lanes do, for trial counts
    /// around the lane count, and leave the generator where they leave it.
    #[test]
    fn the_lanes_count_as_the_plain_loop_does() {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(31);
        for run in runs() {
            for trials in [0, 1, 7, 8, 9, 17, 500] {
                let seed = g.random();
                let (mut a, mut b) = (Xoshiro256PlusPlus::seed_from_u64(seed), Xoshiro256PlusPlus::seed_from_u64(seed));
                let want = plain(&run, &mut a, trials);
                let mut got = run.new_tally();
                run.play(&mut b, trials, &mut got);
                assert_eq!(got, want, "trials {trials}");
                assert_eq!(a, b, "the generators part");
            }
        }
    }
}
