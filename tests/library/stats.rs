//! Common random numbers in paired comparisons: slots stay aligned, each side keeps the
//! unpaired kernel's distribution, and the seeding path is pinned.

use super::fixtures::*;
use volley::engine::{Cell, RunConfig, Silent, Trials, run};
use volley::rules::Kernel;
use volley::rules::techcommander::catalogue::UnitKind;
use volley::rules::techcommander::paired::{Metric, PairedDuels, paired_runs};
use volley::rules::techcommander::*;
use volley::stats::binomial::consistent;
use volley::stats::tolerance::{FAMILY_ALPHA, bonferroni_z};
use volley::stats::{DuelTally, PairedTally};

fn paired<K: Kernel<Tally = PairedTally>>(kernel: &K, seed: u64, n: u64) -> PairedTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(n), ..RunConfig::default() };
    run(&[Cell { key: 5, kernel }], &cfg, &Silent).unwrap().remove(0)
}

/// A duel where the jury rig matters: `a` fires 16 dice (two sampling tables unpaired)
/// and the opponent 8.
fn jury_rig_duel(a_dice: u32) -> (Attacker, Attacker, Target) {
    let a = attacker(UnitKind::Vehicle, vec![weapon("Spray", a_dice, 4, -4)]);
    let o = attacker(UnitKind::Vehicle, vec![weapon("Gun", 8, 6, -3)]);
    (a, o, Target::generic(2))
}

#[test]
fn an_unused_slot_still_takes_its_draws() {
    // The same single weapon on an MSV (two slots a turn, the second idle: no second
    // system) and on a vehicle (one slot a turn): with slots aligned, every trial of
    // both sees the same uniforms, so the outcomes agree exactly, in attack runs and
    // in duels against the same opponent.
    let w = weapon("Gun", 6, 6, -3);
    let (msv, vehicle) = (attacker(UnitKind::Msv, vec![w.clone()]), attacker(UnitKind::Vehicle, vec![w]));
    let t = Target::generic(2);
    let c = Conditions::default();
    let runs = paired_runs(
        &AttackRun::new(&msv, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap(),
        &AttackRun::new(&vehicle, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap(),
        Metric::Turns,
    )
    .unwrap();
    let tally = paired(&runs, 1, 5_000);
    assert!(tally.sum_a > 5_000, "several turns per kill");
    assert_eq!(tally.sum_d2, 0, "attack runs out of step");
    // An MSV firing the same gun plus a pistol every turn: its first action of each
    // turn sees the vehicle's uniform, so it kills by turn k whenever the vehicle does
    // (d = 0 or 1 in every trial), which a slot skipped when unused would break.
    let twin = attacker(UnitKind::Msv, vec![weapon("Gun", 6, 6, -3), weapon("Pistol", 1, 2, -3)]);
    for k in [2, 3, 4] {
        let runs = paired_runs(
            &AttackRun::new(&twin, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
                .unwrap(),
            &AttackRun::new(
                &vehicle,
                &t,
                &c,
                &volley::rules::techcommander::Options::default(),
                Policy::BestExpected,
                20,
            )
            .unwrap(),
            Metric::KillByTurn(k),
        )
        .unwrap();
        let tally = paired(&runs, 4, 5_000);
        assert!(tally.sum_d > 0, "the twin is better");
        assert_eq!(tally.sum_d, tally.sum_d2, "k = {k}: the twin fell behind in some trial");
    }
    let (_, o, _) = jury_rig_duel(8);
    let duel = |x: &Attacker| {
        Duel::new((x, &t), (&o, &t), &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap()
    };
    let duels = PairedDuels::new(duel(&msv), duel(&vehicle));
    let tally = paired(&duels, 2, 5_000);
    assert!(tally.sum_a > 500 && tally.sum_a < 4_500, "both outcomes occur: {}", tally.sum_a);
    assert_eq!(tally.sum_d2, 0, "duels out of step");
}

#[test]
fn paired_duels_keep_the_unpaired_distribution() {
    // 16 dice against 8 and 8 against 8: each side's P(win) in paired play must match
    // the unpaired kernel's (two-sample test of proportions, Bonferroni over 2 at the
    // family level). A 16-dice action is sampled from two tables unpaired and from one
    // inverse CDF paired.
    let n = 60_000u64;
    let (a16, o, t) = jury_rig_duel(16);
    let (a8, _, _) = jury_rig_duel(8);
    let c = Conditions::default();
    let duel = |x: &Attacker| {
        Duel::new((x, &t), (&o, &t), &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap()
    };
    let pairs = paired(&PairedDuels::new(duel(&a16), duel(&a8)), 3, n);
    let z = bonferroni_z(FAMILY_ALPHA, 2);
    for (d, wins) in [(duel(&a16), pairs.sum_a), (duel(&a8), pairs.sum_b)] {
        let cfg = RunConfig { seed: 99, trials: Trials::Fixed(n), ..RunConfig::default() };
        let u: DuelTally = run(&[Cell { key: 7, kernel: &d }], &cfg, &Silent).unwrap().remove(0);
        let (p1, p2) = (wins as f64 / n as f64, u.a_wins() as f64 / n as f64);
        let pooled = (p1 + p2) / 2.0;
        let se = (pooled * (1.0 - pooled) * 2.0 / n as f64).sqrt();
        assert!((p1 - p2).abs() <= z * se, "paired {p1} vs unpaired {p2}");
    }
    // the coupling shows: the better side never wins less often in a pair (nesting is
    // not guaranteed in duels, but the correlation is strong)
    assert!(pairs.sum_d > 0);
}

#[test]
fn paired_attack_runs_of_sixteen_dice_keep_the_exact_marginals() {
    // 16 dice against 8: P(kill by turn k) of each side against its exact chain.
    let t = Target::generic(4);
    let c = Conditions::default();
    let run16 = AttackRun::new(
        &attacker(UnitKind::Vehicle, vec![weapon("Spray", 16, 4, -4)]),
        &t,
        &c,
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap();
    let run8 = AttackRun::new(
        &attacker(UnitKind::Vehicle, vec![weapon("Spray", 8, 4, -4)]),
        &t,
        &c,
        &volley::rules::techcommander::Options::default(),
        Policy::BestExpected,
        20,
    )
    .unwrap();
    let (e16, e8) = (run16.exact(), run8.exact());
    let n = 40_000u64;
    let alpha = FAMILY_ALPHA / 8.0;
    for k in 1..=4u32 {
        let tally = paired(&paired_runs(&run16, &run8, Metric::KillByTurn(k)).unwrap(), 11, n);
        assert!(consistent(tally.sum_a as u64, n, e16.p_kill_by_turn[k as usize - 1], alpha), "16 dice, turn {k}");
        assert!(consistent(tally.sum_b as u64, n, e8.p_kill_by_turn[k as usize - 1], alpha), "8 dice, turn {k}");
        // monotone coupling: the 16-dice side is never behind in any trial
        assert_eq!(tally.sum_d, tally.sum_d2, "d is 0 or 1 in every trial");
    }
}

#[test]
fn value_stability_of_the_paired_seeding_path() {
    // Literal sums for a fixed seed: a change of seeding, of draws per slot or per trial,
    // or of the inverse-CDF (duels) or time-to-kill quantile (attack runs) mapping fails here.
    let (a, t) = reference();
    let mut b = a.clone();
    b.systems[0].weapon.fire_control += 1;
    let c = Conditions::default();
    let runs = paired_runs(
        &AttackRun::new(&a, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap(),
        &AttackRun::new(&b, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap(),
        Metric::Turns,
    )
    .unwrap();
    let r = paired(&runs, 2026, 1_000);
    let (a16, o, t2) = jury_rig_duel(16);
    let duel = |x: &Attacker| {
        Duel::new((x, &t2), (&o, &t2), &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
            .unwrap()
    };
    let d = paired(&PairedDuels::new(duel(&a16), duel(&o)), 2026, 1_000);
    assert_eq!((r.sum_a, r.sum_b, r.sum_d2), (3031, 2605, 430), "attack runs");
    assert_eq!((d.sum_a, d.sum_b, d.sum_d2), (315, 210, 111), "duels");
}
