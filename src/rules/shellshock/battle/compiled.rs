//! Everything a battle's hot loop reads, compiled once: per unit slot its side, ECV and
//! gunners; per (shooter, enemy) pair the Shellshock attack run of the shooter's
//! gunners against that enemy ([`AttackRun`], the one the duel plays: its exact step
//! laws and alias tables), shared by every pair of the same cards; per unit its fresh
//! card-free state under the enemy's fire.

use std::collections::HashMap;

use super::super::attack_run::{AttackRun, State};
use super::super::catalogue::Catalogue;
use super::super::conditions::Conditions;
use super::super::options::Options;
use super::force::Roster;

/// No attack run: the two slots are on one side.
const NO_RUN: u32 = u32::MAX;

/// One unit slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    pub name: String,
    pub side: u8,
    pub ecv: f64,
    /// Gunners that roll each turn (those with a weapon in range at its side's
    /// conditions; the same against every enemy).
    pub gunners: usize,
    /// Whether what its gunners fire changes with rounds left or with their targets (a
    /// counted weapon, or a physical attack to choose: [`Arsenal::choose`]); if not,
    /// gunner g fires plan g of its run every turn.
    pub choosy: bool,
    /// Where its counted weapons' rounds start in [`FireState::ammo`]: gunner g's `b`-th
    /// counted weapon is at `ammo_at[g] + b`.
    ///
    /// [`Arsenal::choose`]: super::super::gunner::Arsenal::choose
    /// [`FireState::ammo`]: super::state::FireState::ammo
    pub ammo_at: Vec<usize>,
}

/// A compiled battle of two forces.
#[derive(Debug, Clone, PartialEq)]
pub struct Forces {
    pub units: Vec<Slot>,
    /// Units per side; side 0's slots come first.
    pub count: [usize; 2],
    runs: Vec<AttackRun>,
    /// `run_of[u * n + v]`: index into `runs` of `u`'s run against `v`, or [`NO_RUN`].
    run_of: Vec<u32>,
    /// Per slot: its card-free state at the start of a battle, under the enemy's
    /// conditions (armour of the facing they hit, no line marked).
    pub fresh: Vec<State>,
    /// Rounds of every counted weapon at the start of a battle (see [`Slot::ammo_at`]).
    pub ammo_start: Vec<u32>,
    pub max_turns: u32,
}

impl Forces {
    /// Compile two rosters; `conditions[s]` is the setting of the shots side `s` fires
    /// (range, the facing of the enemy it hits, ...), as in a duel.
    ///
    /// # Errors
    /// What [`AttackRun::new`] refuses (options not played, a turn cap out of range).
    pub fn new(
        cat: &Catalogue,
        rosters: [&Roster; 2],
        conditions: [&Conditions; 2],
        o: &Options,
        max_turns: u32,
    ) -> Result<Forces, String> {
        let mut units = Vec::new();
        let mut cards = Vec::new();
        for (s, r) in rosters.iter().enumerate() {
            for u in &r.units {
                units.push(Slot {
                    name: u.name.clone(),
                    side: s as u8,
                    ecv: u.ecv,
                    gunners: 0,
                    choosy: false,
                    ammo_at: Vec::new(),
                });
                cards.push(u);
            }
        }
        let n = units.len();
        let mut runs: Vec<AttackRun> = Vec::new();
        let mut run_of = vec![NO_RUN; n * n];
        let mut memo: HashMap<(u8, &str, &str), u32> = HashMap::new();
        let mut fresh = vec![State { armour: 0, lines: 0 }; n];
        let mut ammo_start = Vec::new();
        for u in 0..n {
            for v in 0..n {
                let side = units[u].side;
                if units[v].side == side {
                    continue;
                }
                let key = (side, cards[u].name.as_str(), cards[v].name.as_str());
                let i = match memo.get(&key) {
                    Some(&i) => i,
                    None => {
                        let c = &conditions[side as usize].dodging(o, true);
                        runs.push(AttackRun::new(cat, cards[u], cards[v], c, o, max_turns)?);
                        memo.insert(key, runs.len() as u32 - 1);
                        runs.len() as u32 - 1
                    }
                };
                run_of[u * n + v] = i;
                let run = &runs[i as usize];
                units[u].gunners = run.gunners();
                fresh[v] = run.fresh();
                if let Some(a) = &run.arsenal {
                    units[u].choosy |= a.choosy;
                    if units[u].ammo_at.is_empty() {
                        for m in &a.menus {
                            units[u].ammo_at.push(ammo_start.len());
                            ammo_start.extend(m.counted.iter().map(|c| c.1));
                        }
                    }
                }
            }
        }
        for slot in &mut units {
            if slot.choosy {
                slot.gunners = slot.ammo_at.len();
            }
        }
        let count = [rosters[0].units.len(), rosters[1].units.len()];
        Ok(Forces { units, count, runs, run_of, fresh, ammo_start, max_turns })
    }

    /// Unit `u`'s attack run against enemy `v`.
    #[inline(always)]
    pub fn run(&self, u: usize, v: usize) -> &AttackRun {
        &self.runs[self.run_of[u * self.units.len() + v] as usize]
    }

    /// The slots of `side`.
    #[inline]
    pub fn slots(&self, side: usize) -> std::ops::Range<usize> {
        if side == 0 { 0..self.count[0] } else { self.count[0]..self.units.len() }
    }
}
