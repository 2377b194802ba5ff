//! Exact time to kill for an attack run: a Markov chain over the target's life, stepping
//! through the run's fixed plan with each attack's exact distribution of life lost (at
//! each life, with Moneyshot's bonus where it applies).

use super::attack_run::AttackRun;
use super::rulings::STARTING_LIFE;

pub use crate::stats::ExactTtk;

impl AttackRun {
    /// Compute the time-to-kill distribution exactly.
    pub fn exact(&self) -> ExactTtk {
        if let Some(law) = self.exact_shielded() {
            return law;
        }
        // Life lost by each (system, Moneyshot) fired, computed once: plan steps repeat
        // the same few systems.
        let mut odds: Vec<Option<Vec<f64>>> = Vec::new();
        self.chain(|i, moneyshot| {
            let slot = 2 * self.plan[i].system as usize + usize::from(moneyshot);
            if odds.len() <= slot {
                odds.resize(slot + 1, None);
            }
            odds[slot].get_or_insert_with(|| self.step_spec(i, moneyshot).odds().life_lost).clone()
        })
    }

    /// The chain through the plan, `life_lost(i, moneyshot)` giving plan step `i`'s law
    /// of life lost (index: life), with Moneyshot's bonus or without.
    fn chain(&self, mut life_lost: impl FnMut(usize, bool) -> Vec<f64>) -> ExactTtk {
        let full = STARTING_LIFE as usize;
        // alive[l] = P(target alive with l life), l in 1..=20
        let mut alive = vec![0.0f64; full + 1];
        alive[full] = 1.0;
        let mut kill_by_turn = vec![0.0; self.max_turns as usize];
        let mut kill_by_action = vec![0.0; self.plan.len()];
        for (i, step) in self.plan.iter().enumerate() {
            // Life lost by the step, and with Moneyshot's bonus once the life is low enough.
            let plain = life_lost(i, false);
            let boosted = self.moneyshot_applies(i, 1).then(|| life_lost(i, true));
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

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::*;
    use crate::rules::techcommander::catalogue::{UnitKind, Weapon};
    use crate::rules::techcommander::conditions::Conditions;
    use crate::rules::techcommander::options::Options;
    use crate::rules::techcommander::policy::Policy;
    use crate::rules::techcommander::profile::{Attacker, Target};

    /// The chain with every step's odds computed afresh, as before they were cached.
    fn plain(run: &AttackRun) -> ExactTtk {
        run.chain(|i, moneyshot| run.step_spec(i, moneyshot).odds().life_lost)
    }

    #[test]
    fn cached_step_odds_give_the_chain_of_fresh_odds_to_the_bit() {
        let mut g = Xoshiro256PlusPlus::seed_from_u64(23);
        let (mut checked, mut moneyshot, mut systems) = (0, 0, 0);
        while checked < 200 {
            let weapons = (0..g.random_range(1..=3))
                .map(|i| Weapon {
                    rounds: if g.random_bool(0.3) { g.random_range(1..=3) } else { 0 },
                    ..Weapon::simple(
                        &format!("W{i}"),
                        g.random_range(1..=20),
                        g.random_range(1..=25),
                        g.random_range(-4..=8),
                    )
                })
                .collect();
            let kind = if g.random_bool(0.5) { UnitKind::Msv } else { UnitKind::Vehicle };
            let mut a = Attacker::simple("X", kind, g.random_range(1..=6), weapons);
            a.moneyshot = g.random_bool(0.4);
            let t = Target {
                damage_reduction: g.random_range(0..=8),
                power_armor: g.random_bool(0.4),
                ..Target::generic(g.random_range(1..=6))
            };
            let Ok(o) = (if a.moneyshot { Options::default().with("EDITION", "2") } else { Ok(Options::default()) })
            else {
                continue;
            };
            let c = Conditions::at_range([4.0, 20.0, 40.0][g.random_range(0..3)]);
            let Ok(run) = AttackRun::new(&a, &t, &c, &o, Policy::BestExpected, g.random_range(1..=20)) else {
                continue;
            };
            moneyshot += usize::from((0..run.plan.len()).any(|i| run.moneyshot_applies(i, 1)));
            systems += usize::from(run.plan.iter().any(|s| s.system != run.plan[0].system));
            let (got, want) = (run.exact(), plain(&run));
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "plan {:?}", run.plan);
            checked += 1;
        }
        assert!(moneyshot > 10 && systems > 10, "{moneyshot} with Moneyshot, {systems} with several systems");
    }
}
