//! The hot loop against the plain one it replaces: the same lanes in the same order,
//! every attack drawn through the step's [`ActionSampler`]. Random builds (one to three
//! weapons of up to 20 shots, so some steps span two hit tables; limited rounds; MSVs and
//! vehicles; Moneyshot under the 2nd edition) against generic targets with reduction and
//! power armour give the same tallies and leave the generator in the same state.

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::Kernel;
use crate::rules::techcommander::catalogue::{UnitKind, Weapon};
use crate::rules::techcommander::compiled::{FC_NORMAL, MONEYSHOT};
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::policy::Policy;
use crate::rules::techcommander::profile::{Attacker, Target};
use crate::stats::TtkTally;

use super::super::AttackRun;
use super::{LANES, STARTING_LIFE};

/// The lanes of [`super::lanes`], one attack at a time through the samplers.
fn plain(run: &AttackRun, rng: &mut Xoshiro256PlusPlus, trials: u32) -> TtkTally {
    let mut tally = run.new_tally();
    tally.trials += trials as u64;
    let len = run.plan.len();
    if len == 0 {
        return tally;
    }
    let full = STARTING_LIFE as i32;
    let (mut life, mut pos) = ([full; LANES], [0usize; LANES]);
    let mut started = trials.min(LANES as u32);
    let mut active: Vec<bool> = (0..LANES).map(|l| (l as u32) < started).collect();
    while active.iter().any(|&a| a) {
        for l in 0..LANES {
            if !active[l] {
                continue;
            }
            let step = &run.plan[pos[l]];
            let moneyshot = life[l] <= run.side.moneyshot_life[step.system as usize];
            // Straight from the compiled side, not through the run's own tables.
            let i = step.system as usize;
            let plain = run.side.samplers[FC_NORMAL][i].as_ref();
            let boosted = run.side.samplers[FC_NORMAL + MONEYSHOT][i].as_ref().or(plain);
            let sampler = if moneyshot { boosted } else { plain }.expect("a planned system fires");
            let left = life[l] - sampler.sample(rng) as i32;
            if left <= 0 {
                tally.kills_by_turn[step.turn as usize] += 1;
                tally.kills_by_action[step.action as usize] += 1;
            }
            if left <= 0 || pos[l] + 1 == len {
                if started < trials {
                    started += 1;
                } else {
                    active[l] = false;
                }
                (life[l], pos[l]) = (full, 0);
            } else {
                life[l] = if step.reset_after { full } else { left };
                pos[l] += 1;
            }
        }
    }
    tally
}

fn random_run(g: &mut Xoshiro256PlusPlus) -> Option<AttackRun> {
    let weapons = (0..g.random_range(1..=3))
        .map(|i| Weapon {
            rounds: if g.random_bool(0.3) { g.random_range(1..=3) } else { 0 },
            ..Weapon::simple(&format!("W{i}"), g.random_range(1..=20), g.random_range(1..=25), g.random_range(-4..=8))
        })
        .collect();
    let kind = if g.random_bool(0.5) { UnitKind::Msv } else { UnitKind::Vehicle };
    let mut a = Attacker::simple("X", kind, g.random_range(1..=6), weapons);
    a.moneyshot = g.random_bool(0.4);
    let ac = g.random_range(1..=6);
    let t = Target { damage_reduction: g.random_range(0..=8), power_armor: g.random_bool(0.4), ..Target::generic(ac) };
    let o = if a.moneyshot { Options::default().with("EDITION", "2").ok()? } else { Options::default() };
    let c = Conditions::at_range([4.0, 20.0, 40.0][g.random_range(0..3)]);
    AttackRun::new(&a, &t, &c, &o, Policy::BestExpected, g.random_range(1..=20)).ok()
}

#[test]
fn the_hot_loop_draws_and_counts_as_the_samplers_do() {
    let mut g = Xoshiro256PlusPlus::seed_from_u64(20);
    let (mut played, mut chunked, mut moneyshot, mut killed) = (0, 0, 0, 0);
    while played < 300 {
        let Some(run) = random_run(&mut g) else { continue };
        played += 1;
        chunked += usize::from(run.hot.iter().any(|h| h.chunked));
        moneyshot += usize::from(run.any_moneyshot);
        for trials in [1, 7, 8, 9, 500] {
            let seed = g.random();
            let (mut a, mut b) = (Xoshiro256PlusPlus::seed_from_u64(seed), Xoshiro256PlusPlus::seed_from_u64(seed));
            let want = plain(&run, &mut a, trials);
            let mut got = run.new_tally();
            run.play(&mut b, trials, &mut got);
            assert_eq!(got, want, "trials {trials}, plan {:?}", run.plan);
            assert_eq!(a, b, "the generators part");
        }
        killed += usize::from(run.exact().p_kill > 0.0);
    }
    // The mix exercises every path.
    assert!(
        chunked > 10 && moneyshot > 10 && killed > 100,
        "{chunked} chunked, {moneyshot} Moneyshot, {killed} can kill"
    );
}
