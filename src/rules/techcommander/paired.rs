//! Paired play for comparisons with common random numbers.
//!
//! Each trial re-seeds one generator per role (initiative, the compared build, the
//! opponent) from the stream, and every action slot draws a fixed number of numbers from
//! its side's generator (one jury-rig d20, one attack draw, even when unused). So trial i
//! of A and trial i of B see the same initiative and the same opponent dice, and their own
//! attacks use the same uniform draws, which map monotonically to hits: wherever the
//! rules allow, A and B meet the same luck. The outcome distribution of each side is
//! exactly that of the unpaired kernels; only the pairing is new.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::rules::Kernel;
use crate::stats::PairedTally;

use super::attack_run::AttackRun;
use super::compiled::{FC_LOST, FC_NORMAL};
use super::dice::roll_d20;
use super::duel::Duel;
use super::policy::{UNLIMITED, choose};
use super::rulings::{IN_THE_RED_LIFE, JURY_RIG_SUCCESS_MAX, MSV_ACTIONS_PER_TURN, STARTING_LIFE};

/// The generators of one trial, one per role.
#[derive(Debug, Clone)]
pub struct TrialRngs {
    pub initiative: Xoshiro256PlusPlus,
    /// The compared build's dice.
    pub own: Xoshiro256PlusPlus,
    /// The opponent's dice.
    pub opponent: Xoshiro256PlusPlus,
}

impl TrialRngs {
    /// Seed the roles of the next trial from the stream.
    pub fn next(stream: &mut Xoshiro256PlusPlus) -> TrialRngs {
        TrialRngs {
            initiative: Xoshiro256PlusPlus::seed_from_u64(stream.next_u64()),
            own: Xoshiro256PlusPlus::seed_from_u64(stream.next_u64()),
            opponent: Xoshiro256PlusPlus::seed_from_u64(stream.next_u64()),
        }
    }
}

impl Duel {
    /// One duel with per-role generators; side 0 uses `own`, side 1 `opponent`.
    /// Returns (turn index, outcome: 0 side 0 wins, 1 side 1 wins, 2 mutual), or `None`
    /// for a timeout. Same rules as the unpaired kernel.
    pub fn play_paired(&self, r: &mut TrialRngs) -> Option<(usize, u8)> {
        let full = STARTING_LIFE as i32;
        let mut life = [full; 2];
        let mut rounds = [self.sides[0].rounds, self.sides[1].rounds];
        let apt = [self.sides[0].actions_per_turn, self.sides[1].actions_per_turn];
        for turn in 0..self.max_turns as usize {
            let first = loop {
                let (ra, rb) = (roll_d20(&mut r.initiative), roll_d20(&mut r.initiative));
                if ra != rb {
                    break if ra < rb { 0 } else { 1 };
                }
            };
            let mut left = apt;
            let mut used = [0u32; 2];
            let mut who = first;
            while left[0] + left[1] > 0 {
                if left[who] == 0 {
                    who = 1 - who;
                    continue;
                }
                left[who] -= 1;
                let rng = if who == 0 { &mut r.own } else { &mut r.opponent };
                let jury = roll_d20(rng);
                let fc = if life[who] <= IN_THE_RED_LIFE && jury > JURY_RIG_SUCCESS_MAX { FC_LOST } else { FC_NORMAL };
                let side = &self.sides[who];
                match choose(&side.ranking[fc], used[who], &rounds[who]) {
                    Some(s) => {
                        used[who] |= 1 << s;
                        if rounds[who][s as usize] != UNLIMITED {
                            rounds[who][s as usize] -= 1;
                        }
                        let sampler = side.samplers[fc][s as usize].as_ref().expect("ranked systems can fire");
                        life[1 - who] -= sampler.sample(rng) as i32;
                    }
                    None => {
                        rng.next_u64(); // keep the slot's draws aligned
                    }
                }
                who = 1 - who;
            }
            match (life[0] <= 0, life[1] <= 0) {
                (true, true) => return Some((turn, 2)),
                (false, true) => return Some((turn, 0)),
                (true, false) => return Some((turn, 1)),
                (false, false) => {
                    for (l, &armoured) in life.iter_mut().zip(&self.power_armor) {
                        if armoured {
                            *l = full;
                        }
                    }
                }
            }
        }
        None
    }
}

impl AttackRun {
    /// One attack run drawing two numbers per turn (one per possible action slot), used
    /// or not. Returns the 1-based turn of the kill, or `None` if censored.
    pub fn play_paired(&self, rng: &mut Xoshiro256PlusPlus) -> Option<u32> {
        let full = STARTING_LIFE as i32;
        let mut life = full;
        let mut p = 0;
        for turn in 0..self.max_turns as u16 {
            for _ in 0..MSV_ACTIONS_PER_TURN {
                if p < self.plan.len() && self.plan[p].turn == turn {
                    life -= self.samplers[p].sample(rng) as i32;
                    p += 1;
                    if life <= 0 {
                        return Some(turn as u32 + 1);
                    }
                } else {
                    rng.next_u64();
                }
            }
            if self.power_armor {
                life = full;
            }
        }
        None
    }
}

/// What a paired comparison measures per trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Duels: 1 when the compared build wins.
    Win,
    /// Attack runs: 1 when the target is destroyed by turn k.
    KillByTurn(u32),
    /// Attack runs: turns to kill, a censored run counting as the cap + 1 (a restricted mean).
    Turns,
}

impl Metric {
    /// Parse `win`, `turns` or `kill-by-turn:K`.
    pub fn parse(s: &str) -> Result<Metric, String> {
        match s.trim() {
            "win" => Ok(Metric::Win),
            "turns" => Ok(Metric::Turns),
            other => match other.strip_prefix("kill-by-turn:").map(str::parse::<u32>) {
                Some(Ok(k)) if k >= 1 => Ok(Metric::KillByTurn(k)),
                _ => Err(format!("unknown metric `{s}`: expected win, turns or kill-by-turn:K")),
            },
        }
    }
    /// Whether a larger value is better for the attacker (fewer turns to kill is better).
    pub fn higher_is_better(&self) -> bool {
        !matches!(self, Metric::Turns)
    }

    pub fn name(&self) -> String {
        match self {
            Metric::Win => "p_win".into(),
            Metric::KillByTurn(k) => format!("p_kill_by_turn_{k}"),
            Metric::Turns => "turns_to_kill".into(),
        }
    }
}

/// A and B each duel the same opponent: `a` is A vs O, `b` is B vs O.
pub struct PairedDuels {
    pub a: Duel,
    pub b: Duel,
}

impl Kernel for PairedDuels {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::default()
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        for _ in 0..trials {
            let seeds = TrialRngs::next(rng);
            let win = |o: Option<(usize, u8)>| matches!(o, Some((_, 0))) as i64;
            let a = win(self.a.play_paired(&mut seeds.clone()));
            let b = win(self.b.play_paired(&mut seeds.clone()));
            tally.add(a, b);
        }
    }
}

/// A and B each attack the same target under the same conditions.
pub struct PairedRuns {
    pub a: AttackRun,
    pub b: AttackRun,
    pub metric: Metric,
}

impl Kernel for PairedRuns {
    type Tally = PairedTally;
    fn new_tally(&self) -> PairedTally {
        PairedTally::default()
    }
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut PairedTally) {
        let cap = self.a.max_turns;
        for _ in 0..trials {
            let seed = rng.next_u64();
            let value = |run: &AttackRun| {
                let t = run.play_paired(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
                match self.metric {
                    Metric::KillByTurn(k) => t.is_some_and(|t| t <= k) as i64,
                    Metric::Turns | Metric::Win => t.unwrap_or(cap + 1) as i64,
                }
            };
            tally.add(value(&self.a), value(&self.b));
        }
    }
}
