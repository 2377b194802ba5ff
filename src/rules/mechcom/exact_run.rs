//! The exact time to kill of an attack run: a Markov chain over the target's
//! (Integrity, tracked conditions), stepping through the run's fixed plan with each
//! attack's exact law given the current conditions, then the round's end (Burned
//! costs 1, Shocked ends). Procedure and state: see [`super::attack_run`].

use super::attack_run::AttackRun;
use super::tracked::{BURNED, SHOCKED, STATES};
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
            let (by_round, by_attack) = super::heat::exact_pmfs(self, program);
            return Self::from_pmfs(by_round, by_attack);
        }
        let full = self.integrity as usize;
        let idx = |life: usize, s: usize| life * STATES + s;
        let mut alive = vec![0.0f64; (full + 1) * STATES];
        alive[idx(full, self.start_state as usize)] = 1.0;
        let mut kill_by_round = vec![0.0; self.max_rounds as usize];
        let mut kill_by_attack = vec![0.0; self.plan.len()];
        for (round, &(start, end)) in self.rounds.iter().enumerate() {
            for step in &self.plan[start..end] {
                let law = self.law(step);
                let mut next = vec![0.0f64; alive.len()];
                let mut killed = 0.0;
                for life in 1..=full {
                    for s in 0..STATES {
                        let p = alive[idx(life, s)];
                        if p == 0.0 {
                            continue;
                        }
                        for out in &law.outcomes[s] {
                            if out.loss as usize >= life {
                                killed += p * out.p;
                            } else {
                                next[idx(life - out.loss as usize, s | out.adds as usize)] += p * out.p;
                            }
                        }
                    }
                }
                kill_by_round[round] += killed;
                kill_by_attack[step.attack as usize] += killed;
                alive = next;
            }
            // The target's activation: Burned costs 1, Shocked ends.
            let mut after = vec![0.0f64; alive.len()];
            let mut burned_out = 0.0;
            for life in 1..=full {
                for s in 0..STATES {
                    let p = alive[idx(life, s)];
                    let left = life - (s as u8 & BURNED != 0) as usize;
                    if left == 0 {
                        burned_out += p;
                    } else {
                        after[idx(left, s & !(SHOCKED as usize))] += p;
                    }
                }
            }
            kill_by_round[round] += burned_out;
            if end > 0 {
                kill_by_attack[end - 1] += burned_out;
            }
            alive = after;
        }
        Self::from_pmfs(kill_by_round, kill_by_attack)
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
