//! The compiled repair gear of one battle (`REPAIR`): per (repairer, friend, fire-control
//! state) the exact law of the life gained, its sampler, and the greedy policy's score by
//! the friend's life. Built once per battle before any is played; the actions that use
//! them are in [`super::repair`], whose module text gives the rulings.

use super::tables::{NONE, Value};
use super::units::BattleUnit;
use crate::rules::techcommander::catalogue::Weapon;
use crate::rules::techcommander::catalogue::gear::RepairProfile;
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::odds::system_action_with;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::profile::{Attacker, System, Target};
use crate::rules::techcommander::rulings::STARTING_LIFE;
use crate::rules::techcommander::sampler::ActionSampler;

/// The bit of [`super::game::State::used`] a gear repair sets: a repair is one more system, made once
/// a turn (above every weapon system and special attack).
pub const REPAIR_BIT: u32 = 1 << 31;

/// The compiled gear repairs of one battle (`REPAIR`): per ordered pair of friendly
/// units (repairer, friend) and fire-control state, the exact law of the life gained, its
/// sampler and the greedy score by the friend's life. Empty when no unit has repair gear.
#[derive(Debug, Clone, Default)]
pub struct Repairs {
    units: usize,
    /// `entry[(r * units + f) * 2 + fc_lost]`: index into the vectors below, or [`NONE`].
    entry: Vec<u32>,
    pub samplers: Vec<ActionSampler>,
    /// The exact law of each entry's life gained (`laws[e][n]` = P(exactly n)), before
    /// the cap at 20.
    pub laws: Vec<Vec<f64>>,
    /// Per entry, the greedy score by the friend's life L, at `score[e][L + floor[e]]`
    /// for L in −floor..=19; a life below that cannot come back above 0 (score 0).
    pub score: Vec<Vec<f32>>,
    /// Per entry: the most life one repair gains (the law's last index), so the lowest
    /// life a repair can lift above 0 is 1 − that.
    pub floor: Vec<i32>,
    /// Per unit: it has repair gear and a friend to repair.
    pub repairer: Vec<bool>,
    /// Per side: some unit of it is a repairer.
    pub any_side: Vec<bool>,
}

/// The repair gear as the weapon its attack is rolled with: a plain weapon (its range
/// fields are moot at range 0; no rounds: a repair spends none).
fn repair_weapon(p: RepairProfile) -> Weapon {
    Weapon::simple("repair", p.shots, p.damage, p.fire_control)
}

/// The repair of `friend` by `repairer` as an attack: the repairer with its repair gear
/// as its one system, the friend with no defensive gear applied, at range 0, stationary,
/// no cover, smoke or status; fire control lost when `fc_lost` or the side is
/// under-crewed. Returns the law of the life gained, or `None` when the repairer has no
/// repair gear.
pub fn repair_law(
    repairer: &BattleUnit,
    friend: &BattleUnit,
    side: &Conditions,
    fc_lost: bool,
    o: &Options,
) -> Option<(Vec<f64>, ActionSampler)> {
    let profile = repairer.repair?;
    let attacker = Attacker {
        systems: vec![System { weapon: repair_weapon(profile), copies: 1 }],
        moneyshot: false,
        ..repairer.attacker.clone()
    };
    let target = Target { damage_reduction: 0, negates_fire_control: false, ..friend.target.clone() };
    let cond = Conditions {
        jury_rig_failed: fc_lost,
        under_crewed: side.under_crewed,
        friendly_msv: side.friendly_msv,
        ..Conditions::at_range(0.0)
    };
    let (_, spec) = system_action_with(&attacker, 0, &target, &cond, o, false).ok()?;
    Some((spec.odds().life_lost, ActionSampler::new(&spec)))
}

/// The greedy score of a repair whose life gained has law `law`, by the friend's life L
/// from −floor to 19 (see the module docs), with `v` the friend's value.
pub fn repair_scores(law: &[f64], v: Value, revives: bool) -> (Vec<f32>, i32) {
    let top = STARTING_LIFE as i32;
    let floor = law.len() as i32 - 1;
    let lowest = if revives { 1 - floor } else { 1 };
    let mut score = vec![0f32; (top + floor) as usize];
    for life in lowest.min(top)..top {
        let mut revive = 0.0;
        let mut restored = 0.0;
        for (g, &p) in law.iter().enumerate() {
            let after = (life + g as i32).min(top);
            if life <= 0 && after > 0 {
                revive += p;
            }
            restored += p * (after.max(0) - life.max(0)) as f64;
        }
        score[(life + floor) as usize] = (v.kill * revive + v.damage * restored / STARTING_LIFE as f64) as f32;
    }
    (score, floor)
}

impl Repairs {
    /// Compile the repairs of `units`; `conditions[side]` are the conditions of `side`
    /// (its under-crewed and friendly-MSV flags); `value` as for the battle's tables.
    pub fn new(
        units: &[BattleUnit],
        conditions: &[Conditions],
        o: &Options,
        value: fn(&BattleUnit, &BattleUnit, &Options) -> Value,
    ) -> Repairs {
        let n = units.len();
        let sides = conditions.len();
        let mut r = Repairs { units: n, any_side: vec![false; sides], repairer: vec![false; n], ..Repairs::default() };
        if !o.repair || units.iter().all(|u| u.repair.is_none()) {
            return r;
        }
        r.entry = vec![NONE; n * n * 2];
        for (a, ua) in units.iter().enumerate() {
            if ua.repair.is_none() {
                continue;
            }
            for (f, uf) in units.iter().enumerate() {
                if f == a || uf.side != ua.side {
                    continue;
                }
                for fc_lost in [false, true] {
                    let Some((law, sampler)) = repair_law(ua, uf, &conditions[ua.side], fc_lost, o) else {
                        continue;
                    };
                    let (score, floor) = repair_scores(&law, value(ua, uf, o), o.repair_revives);
                    r.entry[(a * n + f) * 2 + fc_lost as usize] = r.samplers.len() as u32;
                    r.samplers.push(sampler);
                    r.laws.push(law);
                    r.score.push(score);
                    r.floor.push(floor);
                    r.repairer[a] = true;
                    r.any_side[ua.side] = true;
                }
            }
        }
        r
    }

    /// The entry of `r` repairing `f` with fire control kept or lost, or [`NONE`].
    #[inline(always)]
    pub fn entry(&self, r: usize, f: usize, fc_lost: bool) -> u32 {
        self.entry.get((r * self.units + f) * 2 + fc_lost as usize).copied().unwrap_or(NONE)
    }

    /// The greedy score of entry `e` at the friend's `life` (0 at full life or beyond
    /// reach).
    #[inline(always)]
    pub fn score_at(&self, e: u32, life: i32) -> f32 {
        let e = e as usize;
        let i = life + self.floor[e];
        if i < 0 || life >= STARTING_LIFE as i32 {
            return 0.0;
        }
        self.score[e][i as usize]
    }
}
