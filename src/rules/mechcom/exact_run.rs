//! The exact time to kill of an attack run: a Markov chain over the target's
//! (Integrity, tracked conditions), stepping through the run's fixed plan with each
//! attack's exact law given the current conditions, then the round's end (Burned
//! costs 1, Shocked ends). Procedure and state: see [`super::attack_run`]; a run with
//! Heat adds its mind to the state, one that places Spot tokens its token automaton
//! ([`super::token_run`]).

use std::collections::BTreeMap;

use super::attack_run::AttackRun;
use super::heat::Program;
use super::run_laws::{attack_step, idx, target_activation};
use super::tracked::STATES;
use crate::stats::ExactTtk;

/// The exact time-to-kill law of an attack run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactRun {
    /// P(destroyed in round r+1).
    pub kill_by_round: Vec<f64>,
    /// P(destroyed by round r+1), cumulative.
    pub p_kill_by_round: Vec<f64>,
    /// P(destroyed on the (a+1)-th attack).
    pub kill_by_attack: Vec<f64>,
    pub p_kill: f64,
    /// E[round of the kill | killed].
    pub mean_rounds: Option<f64>,
    /// E[attacks to kill | killed].
    pub mean_attacks: Option<f64>,
}

impl AttackRun {
    /// The exact time-to-kill law: a Markov chain over (Integrity, tracked conditions).
    pub fn exact(&self) -> ExactRun {
        if let Some(program) = &self.program {
            let (by_round, by_attack) = self.heat_pmfs(program);
            return Self::from_pmfs(by_round, by_attack);
        }
        if let Some(tokens) = &self.tokens {
            let (by_round, by_attack) = tokens.pmfs(&self.laws, self.integrity, self.start_state);
            return Self::from_pmfs(by_round, by_attack);
        }
        let full = self.integrity as usize;
        let mut alive = vec![0.0f64; (full + 1) * STATES];
        alive[idx(full, self.start_state as usize)] = 1.0;
        let mut kill_by_round = vec![0.0; self.max_rounds as usize];
        let mut kill_by_attack = vec![0.0; self.plan.len()];
        for (round, &(start, end)) in self.rounds.iter().enumerate() {
            for step in &self.plan[start..end] {
                let (next, killed) = attack_step(self.law(step), &alive, full);
                kill_by_round[round] += killed;
                kill_by_attack[step.attack as usize] += killed;
                alive = next;
            }
            let (after, burned_out) = target_activation(&alive, full);
            kill_by_round[round] += burned_out;
            if end > 0 {
                kill_by_attack[end - 1] += burned_out;
            }
            alive = after;
        }
        Self::from_pmfs(kill_by_round, kill_by_attack)
    }

    /// The exact kill pmfs (by round, by attack) of a run with Heat: the chain over
    /// (mind, attacks made) × (Integrity, tracked conditions).
    fn heat_pmfs(&self, prog: &Program) -> (Vec<f64>, Vec<f64>) {
        let full = self.integrity as usize;
        let mut grid = vec![0.0f64; (full + 1) * STATES];
        grid[idx(full, self.start_state as usize)] = 1.0;
        let mut cur: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::from([((prog.start, 0), grid)]);
        let mut by_round = vec![0.0; self.max_rounds as usize];
        let mut by_attack = vec![0.0; prog.max_attacks];
        for killed_in_round in by_round.iter_mut() {
            let mut next: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
            for (&(mind, made), grid) in &cur {
                for v in &prog.minds[mind] {
                    let mut alive: Vec<f64> = grid.iter().map(|&p| p * f64::from(v.sixths) / 6.0).collect();
                    for (i, &(law, _)) in v.steps.iter().enumerate() {
                        let (after, killed) = attack_step(&self.laws[law as usize], &alive, full);
                        *killed_in_round += killed;
                        by_attack[made + i] += killed;
                        alive = after;
                    }
                    let made = made + v.steps.len();
                    let (after, burned_out) = target_activation(&alive, full);
                    *killed_in_round += burned_out;
                    if made > 0 {
                        by_attack[made - 1] += burned_out;
                    }
                    let slot = next.entry((v.next, made)).or_insert_with(|| vec![0.0; (full + 1) * STATES]);
                    for (s, a) in slot.iter_mut().zip(after) {
                        *s += a;
                    }
                }
            }
            cur = next;
        }
        (by_round, by_attack)
    }

    /// The kit's law from the kill pmfs, in MECHCOM's words (rounds, attacks).
    fn from_pmfs(kill_by_round: Vec<f64>, kill_by_attack: Vec<f64>) -> ExactRun {
        let law = ExactTtk::from_kill_pmfs(kill_by_round, kill_by_attack);
        ExactRun {
            kill_by_round: law.kill_by_turn,
            p_kill_by_round: law.p_kill_by_turn,
            kill_by_attack: law.kill_by_action,
            p_kill: law.p_kill,
            mean_rounds: law.mean_turns,
            mean_attacks: law.mean_actions,
        }
    }
}
