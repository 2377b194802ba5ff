//! Exact time to kill for an attack run: a Markov chain over the target's life, stepping
//! through the run's fixed plan with each attack's exact distribution of life lost (at
//! each life, with Moneyshot's bonus where it applies).

use super::attack_run::AttackRun;
use super::rulings::STARTING_LIFE;

pub use crate::stats::ExactTtk;

impl AttackRun {
    /// Compute the time-to-kill distribution exactly.
    pub fn exact(&self) -> ExactTtk {
        let full = STARTING_LIFE as usize;
        // alive[l] = P(target alive with l life), l in 1..=20
        let mut alive = vec![0.0f64; full + 1];
        alive[full] = 1.0;
        let mut kill_by_turn = vec![0.0; self.max_turns as usize];
        let mut kill_by_action = vec![0.0; self.plan.len()];
        for (i, step) in self.plan.iter().enumerate() {
            // Life lost by the step, and with Moneyshot's bonus once the life is low enough.
            let plain = self.step_spec(i, false).odds().life_lost;
            let boosted = self.moneyshot_applies(i, 1).then(|| self.step_spec(i, true).odds().life_lost);
            let mut next = vec![0.0f64; full + 1];
            let mut killed = 0.0;
            for (l, &p_alive) in alive.iter().enumerate().skip(1) {
                if p_alive == 0.0 {
                    continue;
                }
                let lost = match &boosted {
                    Some(b) if self.moneyshot_applies(i, l as i32) => b,
                    _ => &plain,
                };
                for (d, &p) in lost.iter().enumerate() {
                    if d >= l {
                        killed += p_alive * p;
                    } else {
                        next[l - d] += p_alive * p;
                    }
                }
            }
            kill_by_turn[step.turn as usize] += killed;
            kill_by_action[step.action as usize] += killed;
            if step.reset_after {
                let survivors: f64 = next.iter().sum();
                next = vec![0.0; full + 1];
                next[full] = survivors;
            }
            alive = next;
        }
        ExactTtk::from_kill_pmfs(kill_by_turn, kill_by_action)
    }
}
