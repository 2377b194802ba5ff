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
use super::dice::roll_d20;
use super::duel::{Duel, DuelDice};
use super::rulings::{MSV_ACTIONS_PER_TURN, STARTING_LIFE};

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
    /// One duel with per-role generators; side 0 uses `own`, side 1 `opponent`, and each
    /// action slot draws its jury-rig d20 and one attack draw whether it uses them or not.
    /// Same rules and outcome encoding as the unpaired kernel.
    pub fn play_paired(&self, r: &mut TrialRngs) -> Option<(usize, u8)> {
        self.play_with(r)
    }
}

impl TrialRngs {
    fn side(&mut self, who: usize) -> &mut Xoshiro256PlusPlus {
        if who == 0 { &mut self.own } else { &mut self.opponent }
    }
}

impl DuelDice for TrialRngs {
    #[inline(always)]
    fn initiative(&mut self) -> u32 {
        roll_d20(&mut self.initiative)
    }
    #[inline(always)]
    fn jury_rig(&mut self, who: usize, in_the_red: bool) -> Option<u32> {
        let roll = roll_d20(self.side(who));
        in_the_red.then_some(roll)
    }
    #[inline(always)]
    fn attack(&mut self, who: usize) -> &mut Xoshiro256PlusPlus {
        self.side(who)
    }
    #[inline(always)]
    fn idle(&mut self, who: usize) {
        self.side(who).next_u64(); // keep the slot's draws aligned
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
