//! Heat in attack runs ([`super::heat`]): exact vectors computed by hand from the book's
//! text (Typhon sheet, Superheated, Malfunctioning, the HERAKLES AI table) and the
//! rulings `HEAT_PLAYED`, `HEAT_POLICY`, `MALFUNCTION_ONE_ACTION`, `ABILITY_BRACKET`,
//! `TYPHON_ABILITY_COST`, `TYPHON_ABILITY_LIMIT`; Monte Carlo against the exact chain
//! with exact binomial bounds, and negative controls.

use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::tolerance::FAMILY_ALPHA;

use super::monte_carlo_tests::{monte_carlo, outside};
use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// A melee weapon that costs exactly `damage` Integrity per attack for an attacker of
/// Strength 10 against Strength 0: every attack die (d6 + 10) beats the defence die
/// (d6), and melee sixes are not worth two (`MELEE_CRIT`).
fn brand(damage: u32, perks: &[Perk]) -> Weapon {
    Weapon::melee("brand", Damage::Fixed(damage), 1, perks)
}

fn attacker(energy: u32, weapons: Vec<Weapon>, abilities: &[Ability]) -> Model {
    let mut m = Mech::simple("hot", 4, 10, 4, 10);
    m.energy = energy;
    m.weapons = weapons;
    m.abilities = abilities.to_vec();
    Model::new(&m, None)
}

fn inert(armour: i32, integrity: u32) -> Model {
    Model::new(&Mech::simple("target", 4, 0, armour, integrity), None)
}

fn exact(a: &Model, t: &Model, sit: &Situation, o: &Options, rounds: u32) -> ExactRun {
    AttackRun::new(a, t, sit, o, RunPolicy::default(), rounds).unwrap().exact()
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn assert_cumulative(e: &ExactRun, want: &[f64]) {
    for (r, (&got, &w)) in e.p_kill_by_round.iter().zip(want).enumerate() {
        assert!(close(got, w), "round {}: {got} vs {w} ({:?})", r + 1, e.p_kill_by_round);
    }
}

#[test]
fn a_malfunctioning_attacker_acts_by_the_ai_table_until_it_rolls_a_six() {
    // 9⚡ and a weapon that costs exactly 3 an attack, against Integrity 9. Each round starts
    // with the d6: a 6 (1/6) clears Malfunctioning and the round is normal, three
    // attacks; otherwise the AI table attacks once. Killed in round 1 with 1/6, in
    // round 2 with 5/6 · 1/6 = 5/36, in round 3 always after that (25/36), and always by
    // the third attack: mean rounds (6 + 10 + 75)/36 = 91/36.
    let a = attacker(9, vec![brand(3, &[])], &[]).with_conditions(Conditions::of(&[Condition::Malfunctioning]));
    let t = inert(4, 9);
    let sit = Situation::at_range(1);
    let e = exact(&a, &t, &sit, &Options::default(), 5);
    assert_cumulative(&e, &[1.0 / 6.0, 11.0 / 36.0, 1.0, 1.0, 1.0]);
    assert!(close(e.kill_by_attack[2], 1.0) && e.kill_by_attack.len() >= 3, "{:?}", e.kill_by_attack);
    assert!(close(e.mean_rounds.unwrap(), 91.0 / 36.0));
    // MALFUNCTION_ONE_ACTION off: the AI table's attack is repeated while Energy allows.
    let e = exact(&a, &t, &sit, &opts(&[("MALFUNCTION_ONE_ACTION", "false")]), 5);
    assert_cumulative(&e, &[1.0, 1.0]);
    // HEAT_PLAYED off: the AI table is not played, so the run is refused.
    let off = opts(&[("HEAT_PLAYED", "false")]);
    assert!(AttackRun::new(&a, &t, &sit, &off, RunPolicy::default(), 5).is_err());
}

#[test]
fn programming_malfunctions_on_the_sixth_superheated_attack_and_venting_prevents_it() {
    // 10⚡, a Superheated weapon that costs exactly 3 an attack, Integrity 27: nine
    // attacks. Three attacks a round (9⚡) bring Heat to 3, then 6 on the sixth attack:
    // Malfunctioning. From round 3 the d6: a 6 (1/6) gives a normal round of three
    // attacks, else one AI-table attack. Killed in round 3 with 1/6, in round 4 with
    // 5/6 · 1/6 = 5/36, else in round 5 (25/36).
    let heated = brand(3, &[Perk::Superheated]);
    let a = attacker(10, vec![heated.clone()], &[Ability::Programming, Ability::VentCoolant]);
    let t = inert(4, 27);
    let sit = Situation::at_range(1);
    let ignore = opts(&[("HEAT_POLICY", "ignore-heat")]);
    assert_cumulative(&exact(&a, &t, &sit, &ignore, 6), &[0.0, 0.0, 1.0 / 6.0, 11.0 / 36.0, 1.0, 1.0]);
    // vent-before-overheat: round 2 makes two attacks (Heat 5), vents (1⚡, 3⚡ left)
    // and attacks a third time: three attacks every round, never Malfunctioning.
    assert_cumulative(&exact(&a, &t, &sit, &Options::default(), 6), &[0.0, 0.0, 1.0, 1.0]);
    // Without Vent Coolant the default policy cannot vent: at Heat 5 it takes the best
    // attack that stays below 6, unarmed melee.
    let no_vent = attacker(10, vec![heated], &[Ability::Programming]);
    let r = AttackRun::new(&no_vent, &t, &sit, &Options::default(), RunPolicy::default(), 3).unwrap();
    assert_eq!(plan_by_round(&r)[1], vec!["brand", "brand", "Unarmed"]);
    // HEAT_PLAYED off: the old fixed plan, three attacks every round, with the notes.
    let off = opts(&[("HEAT_PLAYED", "false")]);
    let r = AttackRun::new(&a, &t, &sit, &off, RunPolicy::default(), 6).unwrap();
    assert_cumulative(&r.exact(), &[0.0, 0.0, 1.0]);
    assert!(r.not_modelled.iter().any(|n| n.contains("Programming")), "{:?}", r.not_modelled);
    let on = AttackRun::new(&a, &t, &sit, &ignore, RunPolicy::default(), 6).unwrap();
    assert!(on.not_modelled.is_empty(), "{:?}", on.not_modelled);
}

#[test]
fn searing_wave_is_a_2d6_damage_2_shot_with_its_own_cost_and_limit() {
    // Stability 1 (every die hits, a 6 twice) against Armour 1 (every hit costs): one
    // die is 1 hit with 5/6, 2 with 1/6, so a wave costs 4, 6 or 8 Integrity with
    // 25/36, 10/36, 1/36. 1⚡ a round pays exactly one wave ([1/5]: 1⚡, Limit 5); with
    // no weapon in reach at range 2 the wave is the only attack. Integrity 21 survives
    // only five waves of 4 each: P(killed) = 1 - (25/36)^5, and never after round 5.
    let mut m = Mech::simple("waver", 1, 0, 4, 10);
    m.energy = 1;
    m.abilities = vec![Ability::SearingWave];
    let a = Model::new(&m, None);
    let t = inert(1, 21);
    let sit = Situation::at_range(2);
    let e = exact(&a, &t, &sit, &Options::default(), 8);
    let p = 1.0 - (25.0f64 / 36.0).powi(5);
    assert!(close(e.p_kill, p), "{} vs {p}", e.p_kill);
    assert!(e.kill_by_round[5..].iter().all(|&k| k == 0.0), "{:?}", e.kill_by_round);
    // Integrity 5: killed by the first wave unless it costs 4 (then by the second).
    let e = exact(&a, &inert(1, 5), &sit, &Options::default(), 3);
    assert_cumulative(&e, &[11.0 / 36.0, 1.0]);
    // TYPHON_ABILITY_LIMIT 6: six waves cost at least 24 > 21.
    assert!(close(exact(&a, &t, &sit, &opts(&[("TYPHON_ABILITY_LIMIT", "6")]), 8).p_kill, 1.0));
    // TYPHON_ABILITY_COST 2, or ABILITY_BRACKET limit-cost (Limit 1 at 5⚡): 1⚡ pays
    // no wave.
    assert_eq!(exact(&a, &t, &sit, &opts(&[("TYPHON_ABILITY_COST", "2")]), 8).p_kill, 0.0);
    assert_eq!(exact(&a, &t, &sit, &opts(&[("ABILITY_BRACKET", "limit-cost")]), 8).p_kill, 0.0);
    // Beyond 3 hexes the wave does not reach.
    assert_eq!(exact(&a, &t, &Situation::at_range(4), &Options::default(), 8).p_kill, 0.0);
}

fn typhon() -> Model {
    // The catalogue's illustrative stat line with the printed weapon and abilities.
    let mut m = Mech::simple("Typhon", 4, 1, 4, 10);
    m.energy = 9;
    m.weapons = vec![Weapon::prometheus_flamethrower()];
    m.abilities = vec![Ability::Programming, Ability::RedHotReactor, Ability::SearingWave, Ability::VentCoolant];
    Model::new(&m, None)
}

/// The likeliest path's attacks per round and names.
fn plan_by_round(r: &AttackRun) -> Vec<Vec<&str>> {
    r.rounds
        .iter()
        .map(|&(s, e)| r.plan[s..e].iter().map(|p| r.weapons[p.weapon as usize].as_str()).collect())
        .collect()
}

#[test]
fn the_typhon_no_longer_plans_three_flamethrower_attacks_every_round() {
    // 9⚡, Searing Wave and Vent Coolant at 1⚡, Limit 5 each. Round 1: waves (1⚡,
    // +2 Heat: the best expected loss per ⚡) to Heat 4, vent, two waves, vent, the
    // fifth wave (2⚡ left: no flamethrower). Round 2: three flamethrower attacks to
    // Heat 5. Odd rounds from 3: vent, two attacks (Heat 2); even rounds: three (Heat
    // 5). Round 9: no vent left, no attack stays below 6: it attacks and malfunctions
    // (the activation ends); then, likeliest, one AI-table attack a round.
    let t = inert(4, 200);
    let r =
        AttackRun::new(&typhon(), &t, &Situation::at_range(2), &Options::default(), RunPolicy::default(), 11).unwrap();
    let plan = plan_by_round(&r);
    let counts: Vec<usize> = plan.iter().map(Vec::len).collect();
    assert_eq!(counts, vec![5, 3, 2, 3, 2, 3, 2, 3, 1, 1, 1]);
    assert_eq!(plan[0], vec!["Searing Wave"; 5]);
    assert_eq!(plan[1], vec!["Prometheus Model Flamethrower"; 3]);
    assert_eq!(plan[9], vec!["Prometheus Model Flamethrower (AI table)"]);
    // ignore-heat: three attacks in rounds 1 and 2, Malfunctioning on the sixth.
    let ignore = opts(&[("HEAT_POLICY", "ignore-heat")]);
    let r = AttackRun::new(&typhon(), &t, &Situation::at_range(2), &ignore, RunPolicy::default(), 4).unwrap();
    assert_eq!(plan_by_round(&r).iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 3, 1, 1]);
}

/// (name, attacker, target, situation, options) of runs with Heat.
fn cells() -> Vec<(&'static str, Model, Model, Situation, Options)> {
    let kerberos = {
        let mut m = Mech::simple("Kerberos", 4, 2, 4, 11);
        m.energy = 9;
        Model::new(&m, None)
    };
    vec![
        ("typhon, default policy", typhon(), kerberos.clone(), Situation::at_range(2), Options::default()),
        (
            "typhon, ignore-heat",
            typhon(),
            kerberos.clone(),
            Situation::at_range(3),
            opts(&[("HEAT_POLICY", "ignore-heat")]),
        ),
        (
            "typhon starting Malfunctioning with two spot tokens",
            typhon().with_conditions(Conditions::of(&[Condition::Malfunctioning])),
            inert(3, 16),
            Situation { spot_tokens: 2, ..Situation::at_range(2) },
            Options::default(),
        ),
    ]
}

const ROUNDS: u32 = 12;

#[test]
fn monte_carlo_runs_with_heat_agree_with_the_exact_chain() {
    let cells = cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * 2.0 * ROUNDS as f64);
    for (name, a, t, sit, o) in &cells {
        let r = AttackRun::new(a, t, sit, o, RunPolicy::default(), ROUNDS).unwrap();
        assert!(r.program.is_some() && !r.is_compact(), "{name}");
        let exact = r.exact();
        assert!((exact.kill_by_round.iter().sum::<f64>() - exact.p_kill).abs() < 1e-12);
        let tally = monte_carlo(&r, 2027);
        assert!(outside(&tally, &exact, alpha).is_empty(), "{name}: rounds {:?}", outside(&tally, &exact, alpha));
        let mut cum = 0;
        for (k, &kills) in tally.kills_by_action.iter().enumerate() {
            cum += kills;
            let p: f64 = exact.kill_by_attack[..=k].iter().sum();
            assert!(
                crate::stats::binomial::consistent(cum, tally.trials, p.min(1.0), alpha),
                "{name}: attack {}",
                k + 1
            );
        }
    }
}

#[test]
fn the_check_rejects_a_typhon_that_never_clears_malfunctioning() {
    // Negative control: the Monte Carlo of the ignore-heat Typhon against the exact law
    // of a run whose Malfunctioning is cleared on no roll (the AI table every round after
    // the sixth attack: MALFUNCTION_ONE_ACTION's one attack, never a normal round) must
    // fail. That law is the run with Heat whose clearing variant is dropped.
    let (_, a, t, sit, o) = cells().remove(1);
    let r = AttackRun::new(&a, &t, &sit, &o, RunPolicy::default(), ROUNDS).unwrap();
    let mut stuck = r.clone();
    let program = stuck.program.as_mut().unwrap();
    for variants in &mut program.minds {
        if variants.len() == 2 {
            let ai = variants.remove(1);
            *variants = vec![heat::Variant { sixths: 6, ..ai }];
        }
    }
    let alpha = FAMILY_ALPHA / ROUNDS as f64;
    let tally = monte_carlo(&r, 2027);
    assert!(outside(&tally, &r.exact(), alpha).is_empty());
    assert!(!outside(&tally, &stuck.exact(), alpha).is_empty());
    // And against the old plan, Heat not played.
    let off = AttackRun::new(&a, &t, &sit, &opts(&[("HEAT_PLAYED", "false")]), RunPolicy::default(), ROUNDS).unwrap();
    assert!(!outside(&tally, &off.exact(), alpha).is_empty());
}

#[test]
fn runs_with_heat_give_the_same_tally_for_any_thread_count() {
    let (_, a, t, sit, o) = cells().remove(2);
    let r = AttackRun::new(&a, &t, &sit, &o, RunPolicy::default(), ROUNDS).unwrap();
    let tally = |threads| {
        let cfg = RunConfig { seed: 5, trials: Trials::Fixed(20_000), threads: Some(threads), ..RunConfig::default() };
        run(&[Cell { key: 3, kernel: &r }], &cfg, &Silent).unwrap().remove(0)
    };
    assert_eq!(tally(1), tally(2));
}

#[test]
fn the_crit_joint_counts_the_crits_of_the_attack_roll() {
    // Red-Hot Reactor: "for every crit in the attack roll, it gains a Heat token". One
    // die at Stability 6 against Armour 1 (every hit costs), Damage 1: a miss (5/6)
    // costs nothing, a 6 is a crit (1/6), two hits, 2 Integrity. Two such dice: crits
    // 0/1/2 with 25/36, 10/36, 1/36, and the loss is twice the crits.
    let a = attacker(3, vec![], &[]);
    let mut m = Mech::simple("reactor", 4, 0, 1, 10);
    m.abilities = vec![Ability::Programming, Ability::RedHotReactor];
    let t = Model::new(&m, None);
    let gun = Weapon::ranged("gun", 4, Damage::Fixed(1), 2, &[]);
    let steady = Model::new(&Mech { stability: 6, ..a.mech.clone() }, None);
    let (roll, _) = compile_attack(&steady, &gun, &t, &Situation::at_range(2), &Options::default()).unwrap();
    let j = roll.crit_joint(10, 6, &Options::default()).unwrap();
    let mut by_crits = [0.0; 3];
    for i in 0..j.probs.len() {
        let p = j.probs.prob(i);
        if p > 0.0 {
            let (crits, _, loss) = j.split(i);
            assert_eq!(loss, 2 * crits, "outcome {i}");
            by_crits[crits as usize] += p;
        }
    }
    for (k, want) in [25.0 / 36.0, 10.0 / 36.0, 1.0 / 36.0].into_iter().enumerate() {
        assert!(close(by_crits[k], want), "{k} crits: {} vs {want}", by_crits[k]);
    }
}

fn duel_wins_by_round(d: &DuelKernel, seed: u64, trials: u64) -> crate::stats::DuelTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    run(&[Cell { key: 17, kernel: d }], &cfg, &Silent).unwrap().remove(0)
}

#[test]
fn a_duel_plays_programming_and_the_ai_table() {
    // The Forge of the run above against a Post that never attacks (0⚡): the duel is
    // the run, so A wins by round 3 with 1/6, by round 4 with 11/36, by round 5 always
    // (ignore-heat); the Post's activations change nothing (no Burned). Monte Carlo only:
    // the exact chain does not carry Heat.
    let heated = brand(3, &[Perk::Superheated]);
    let a = attacker(10, vec![heated], &[Ability::Programming, Ability::VentCoolant]);
    let t = inert(4, 27);
    let sit = Situation::at_range(1);
    let ignore = opts(&[("HEAT_POLICY", "ignore-heat")]);
    let d = DuelKernel::new(&a, &t, &sit, &ignore, 6).unwrap();
    assert!(d.exact().is_none() && !d.solvable() && !d.independent);
    let trials = 100_000;
    let tally = duel_wins_by_round(&d, 2028, trials);
    let want = [0.0, 0.0, 1.0 / 6.0, 11.0 / 36.0, 1.0, 1.0];
    let stuck = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0];
    let alpha = FAMILY_ALPHA / want.len() as f64;
    let (mut cum, mut against_stuck) = (0, 0);
    for (k, &wins) in tally.a_wins_by_turn.iter().enumerate() {
        cum += wins;
        assert!(crate::stats::binomial::consistent(cum, trials, want[k], alpha), "round {}: {cum}", k + 1);
        against_stuck += !crate::stats::binomial::consistent(cum, trials, stuck[k], alpha) as u32;
    }
    // Negative control: a Forge that never clears Malfunctioning would win in round 5
    // only; the same counts reject it.
    assert!(against_stuck > 0);
    // The default vents: three attacks a round, A wins in round 3 every time.
    let d = DuelKernel::new(&a, &t, &sit, &Options::default(), 6).unwrap();
    let tally = duel_wins_by_round(&d, 2028, 2_000);
    assert_eq!(tally.a_wins_by_turn[..3], [0, 0, 2_000]);
    // A starting Malfunctioning duellist is played, not refused.
    let malf = a.clone().with_conditions(Conditions::of(&[Condition::Malfunctioning]));
    assert!(DuelKernel::new(&malf, &t, &sit, &Options::default(), 6).is_ok());
    assert!(DuelKernel::new(&malf, &t, &sit, &opts(&[("HEAT_PLAYED", "false")]), 6).is_err());
}

#[test]
fn red_hot_reactor_heats_a_duellist_by_the_crits_it_takes() {
    // A: Programming and Red-Hot Reactor, 6⚡ (two attacks of the exact brand, 3 each),
    // Integrity 100. B: Integrity 12 (four of A's attacks), Strength -10, 3⚡ for one
    // attack of 20 dice at Stability 6 + 2 (in melee range) and Damage 0: it costs
    // nothing, but every natural 6 is a crit and gives A one Heat. X and Y, B's crits
    // in rounds 1 and 2, are Binomial(20, 1/6); S = X + Y is Binomial(40, 1/6). At 6
    // Heat A is Malfunctioning: at its next activation a 6 (1/6) clears it and its Heat
    // and it attacks twice, else the AI table attacks once. A wins by round 2 exactly
    // when it makes four attacks in rounds 1 and 2. By the roll-offs (each order 1/4):
    // - A, A: malfunctioning in round 2 iff X >= 6: P(X < 6) + P(X >= 6)/6.
    // - A, B: iff S >= 6: P(S < 6) + P(S >= 6)/6.
    // - B, A: round 1 needs X < 6, or the 6 that clears (then no Heat):
    //   P(X < 6) + P(X >= 6)/6.
    // - B, B: X < 6 and S < 6; or X < 6, S >= 6 and the 6; or X >= 6, the 6 in round 1,
    //   then Y < 6 or the 6 again: P(S<6) + (P(X<6) - P(S<6))/6 + P(X>=6)/6 (P(Y<6) +
    //   P(Y>=6)/6).
    let binomial_below_6 = |n: i32| -> f64 {
        (0..6)
            .map(|k| {
                let c = (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1));
                c * (1.0f64 / 6.0).powi(k) * (5.0f64 / 6.0).powi(n - k)
            })
            .sum()
    };
    let (x, s) = (binomial_below_6(20), binomial_below_6(40));
    let once = x + (1.0 - x) / 6.0;
    let bb = s + (x - s) / 6.0 + (1.0 - x) / 6.0 * once;
    let p = (once + (s + (1.0 - s) / 6.0) + once + bb) / 4.0;
    let mut a = Mech::simple("reactor", 4, 10, 4, 100);
    a.energy = 6;
    a.weapons = vec![brand(3, &[])];
    a.abilities = vec![Ability::Programming, Ability::RedHotReactor];
    let mut b = Mech::simple("sparker", 6, -10, 4, 12);
    b.energy = 3;
    b.weapons = vec![Weapon::ranged("sparks", 1, Damage::Fixed(0), 20, &[])];
    let (a, b) = (Model::new(&a, None), Model::new(&b, None));
    let d = DuelKernel::new(&a, &b, &Situation::at_range(1), &Options::default(), 2).unwrap();
    let trials = 100_000;
    let t = duel_wins_by_round(&d, 2029, trials);
    let wins = t.a_wins_by_turn.iter().sum::<u64>();
    assert!(crate::stats::binomial::consistent(wins, trials, p, FAMILY_ALPHA), "{wins} vs {p}");
    // Negative control: without the Reactor's Heat A always wins in round 2.
    assert!(!crate::stats::binomial::consistent(wins, trials, 1.0, FAMILY_ALPHA));
    assert!(p < 0.97, "{p}");
}

#[test]
fn the_crit_joint_of_a_flurry_chain_counts_its_crits() {
    // One Flurry die at Stability 4 against Armour 1: each crit (1/6) rolls one more die,
    // so the chain has k crits with (1/6)^k · 5/6 (`REACTOR_COUNTS_FLURRY_CRITS`); only the
    // first roll's: 1 crit with 1/6. The loss marginal is the attack's own law.
    let flurry = Weapon::ranged("flurry", 4, Damage::Fixed(1), 1, &[Perk::Flurry]);
    let t = inert(1, 12);
    let a = Model::new(&Mech::simple("a", 4, 0, 4, 10), None);
    let (roll, _) = compile_attack(&a, &flurry, &t, &Situation::at_range(2), &Options::default()).unwrap();
    let loss = roll.joint(12, &Options::default()).loss();
    for (chained, want) in [(true, vec![5.0 / 6.0, 5.0 / 36.0, 5.0 / 216.0]), (false, vec![5.0 / 6.0, 1.0 / 6.0, 0.0])]
    {
        let o = Options { reactor_counts_flurry_crits: chained, ..Options::default() };
        let j = roll.crit_joint(12, 6, &o).unwrap();
        let (mut crits, mut by_loss) = ([0.0; 7], [0.0; 13]);
        for i in 0..j.probs.len() {
            let (c, _, l) = j.split(i);
            crits[c as usize] += j.probs.prob(i);
            by_loss[l as usize] += j.probs.prob(i);
        }
        for (k, w) in want.iter().enumerate() {
            assert!((crits[k] - w).abs() < 1e-12, "chained {chained}: {k} crits {} vs {w}", crits[k]);
        }
        for (l, p) in loss.iter().enumerate() {
            assert!((by_loss[l] - p).abs() < 1e-12, "loss {l}: {} vs {p}", by_loss[l]);
        }
    }
}
