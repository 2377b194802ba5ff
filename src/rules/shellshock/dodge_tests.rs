//! Dodging (`DODGE`, the book's (Dodging) paragraph): exact vectors by hand, Monte
//! Carlo against them inside exact binomial bounds with a negative control, and battles
//! that replay the duel draw for draw.
//!
//! Every unit here is shellshock.md §7 vector 15's "Soft Target": every DV 11, armour 0,
//! Shock Threshold and Penetration Factor 6, Dead 11+, one 2/0/0 gunner (range 0: no range
//! modifier, not point blank). A hit destroys when 2d6 (doubled or not) reaches 11:
//! undoubled 3/36, doubled (2d6 >= 6) 26/36. The to-hit dice lose two levels per dodging
//! side (`DICE_LADDER`: 2d10, d10+d8, d10+d6, d10+d4), by hand (Gunnery 0):
//! - d10+d6 at TN 11: a 10 on the d10 (1/10) always reaches 12; faces 5-9 need the d6 to
//!   make 11: (1+2+3+4+5)/60 = 1/4; P(hit) = 7/20. Doubled (10 then 10 on the d10) 1/100,
//!   which always hits; no natural 20. P(destroyed) = 34/100 x 3/36 + 1/100 x 26/36 =
//!   128/3600 = **8/225**.
//! - d10+d6 at TN 13 (a Piloting of 2): a 10 then reroll + d6 >= 3: 1/10 x 59/60; faces
//!   7-9: (1+2+3)/60; P(hit) = 119/600, 6/600 of it doubled. P(destroyed) = 113/600 x
//!   3/36 + 1/100 x 26/36 = **11/480**.
//! - d10+d4 at TN 11 (both sides dodge): 1/10 + (1+2+3)/40 = 1/4. P(destroyed) = 24/100 x
//!   3/36 + 1/100 x 26/36 = **49/1800**.
//! - d10+d4 at TN 12 (both dodge, the firer's own Piloting 1): 1/10 + (1+2)/40 = 7/40.
//!   P(destroyed) = 33/200 x 3/36 + 1/100 x 26/36 = **151/7200**.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::engine::battle::{BattleRules, Ending, Outcome, play_battle};
use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::rules::ruleset::Engagements;
use crate::stats::ExactTtk;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use super::Shellshock;
use super::attack_run::AttackRun;
use super::battle::{ForceBattle, battle};
use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::duel::{DuelKernel, Winner};
use super::options::Options;
use super::ruleset::Policy;

const DODGE: &str = r#"
[[weapon]]
name = "Two-Dice Gun"
type = "B"
damage = 2
range = 60

[[weapon]]
name = "Second Gun"
type = "B"
damage = 2
range = 60

[[chart]]
name = "plain"
lines = "ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB"
equipment = [{ letter = "A", name = "Crew", kind = "crew" }, { letter = "B", name = "Hull" }]

[[unit]]
name = "Soft"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 11
chart = "plain"
gunners = [{ weapons = ["Two-Dice Gun"] }]
ecv = 50

[[unit]]
name = "Ace"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 11
chart = "plain"
gunners = [{ weapons = ["Two-Dice Gun"] }]
piloting = 2
ecv = 50

[[unit]]
name = "Pilot Pair"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 6
penetration_factor = 6
dead_at = 11
chart = "plain"
gunners = [{ weapons = ["Two-Dice Gun"] }, { weapons = ["Second Gun"] }]
pilot = 1
piloting = 1
ecv = 50
"#;

const TURNS: u32 = 12;

fn catalogue() -> Catalogue {
    Catalogue::from_read("dodge", &[SourceFile { name: "dodge.toml".into(), text: DODGE.into() }], Vec::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn near() -> Conditions {
    Conditions { range: 0, ..Conditions::default() }
}

fn attack_run(cat: &Catalogue, a: &str, t: &str, c: &Conditions, o: &Options) -> AttackRun {
    <Shellshock as Engagements>::attack_run(cat, a, t, c, o, Policy, TURNS).unwrap()
}

fn duel(cat: &Catalogue, a: &str, b: &str, c: &Conditions, o: &Options) -> DuelKernel {
    <Shellshock as Engagements>::duel(cat, a, b, c, o, Policy, TURNS).unwrap()
}

fn geometric(e: &ExactTtk, q: f64, what: &str) {
    for (k, p) in e.p_kill_by_turn.iter().enumerate() {
        let want = 1.0 - (1.0 - q).powi(k as i32 + 1);
        assert!((p - want).abs() < 1e-12, "{what}, turn {}: {p} != {want}", k + 1);
    }
}

#[test]
fn a_dodging_target_by_hand() {
    let cat = catalogue();
    let always = opts(&[("DODGE", "ALWAYS")]);
    // Not dodging: §7 vector 15.
    geometric(&attack_run(&cat, "Soft", "Soft", &near(), &Options::default()).exact(), 51.0 / 800.0, "NEVER");
    // The target dodges: two dice levels off (2d10 -> d10+d6), + its Piloting 0.
    let r = attack_run(&cat, "Soft", "Soft", &near(), &always);
    assert_eq!(r.plans[0].dice.name(), "d10+d6");
    geometric(&r.exact(), 8.0 / 225.0, "ALWAYS, Piloting 0");
    // Piloting 2: TN 13.
    let r = attack_run(&cat, "Soft", "Ace", &near(), &always);
    assert_eq!(r.plans[0].weapons[0].target_number, 13);
    geometric(&r.exact(), 11.0 / 480.0, "ALWAYS, Piloting 2");
    // An immobile target does not dodge (DV 0: every roll of 5 or more hits).
    let still = Conditions { immobile: true, ..near() };
    let a = attack_run(&cat, "Soft", "Soft", &still, &always).exact();
    let b = attack_run(&cat, "Soft", "Soft", &still, &Options::default()).exact();
    assert_eq!(a.p_kill_by_turn, b.p_kill_by_turn);
    // The attacker of an attack run is not under fire: it does not dodge.
    let r = attack_run(&cat, "Pilot Pair", "Soft", &near(), &always);
    assert_eq!(r.gunners(), 2);
}

#[test]
fn dodging_duellists_by_hand() {
    let cat = catalogue();
    let always = opts(&[("DODGE", "ALWAYS")]);
    // Both dodge: four levels off (d10+d4) for both, TN 11.
    let d = duel(&cat, "Soft", "Soft", &near(), &always);
    assert_eq!(d.a.plans[0].dice.name(), "d10+d4");
    let q = 49.0 / 1800.0;
    geometric(&d.a.exact(), q, "duel, both dodging");
    let e = d.exact();
    let want: f64 = (0..TURNS).map(|t| (1.0 - q).powi(2 * t as i32) * q * (1.0 - q)).sum();
    assert!((e.p_a_wins - want).abs() < 1e-12, "{} != {want}", e.p_a_wins);
    // A dodging pilot does not fire; the other gunner adds its own Piloting (1): TN 12.
    let d = duel(&cat, "Pilot Pair", "Soft", &near(), &always);
    assert_eq!(d.a.gunners(), 1);
    assert_eq!(d.a.plans[0].number, 2);
    assert_eq!(d.a.plans[0].weapons[0].target_number, 12);
    geometric(&d.a.exact(), 151.0 / 7200.0, "the pilot's partner");
    // Not dodging: both gunners fire at 2d10, TN 11.
    let d = duel(&cat, "Pilot Pair", "Soft", &near(), &Options::default());
    geometric(&d.a.exact(), 1.0 - (749.0f64 / 800.0).powi(2), "NEVER, two gunners");
}

#[test]
fn monte_carlo_plays_dodging_and_not_without_it() {
    let cat = catalogue();
    let cases = [("Soft", "Ace"), ("Pilot Pair", "Soft")];
    let alpha = FAMILY_ALPHA / (cases.len() as f64 * 2.0 * f64::from(TURNS));
    for (a, t) in cases {
        for sampler in ["TABLE", "DICE"] {
            let on = opts(&[("DODGE", "ALWAYS"), ("MC_SAMPLER", sampler)]);
            let r = attack_run(&cat, a, t, &near(), &on);
            let cfg = RunConfig { seed: 31, trials: Trials::Fixed(20_000), ..RunConfig::default() };
            let tally = run(&[Cell { key: 9, kernel: &r }], &cfg, &Silent).unwrap().remove(0);
            let fits = |e: &ExactTtk| {
                let mut cum = 0;
                tally.kills_by_turn.iter().enumerate().all(|(k, &n)| {
                    cum += n;
                    consistent(cum, tally.trials, e.p_kill_by_turn[k].min(1.0), alpha)
                })
            };
            assert!(fits(&r.exact()), "{a} -> {t} ({sampler}) outside the exact bounds");
            // Negative control: the same tally against the law without dodging.
            let off = attack_run(&cat, a, t, &near(), &opts(&[("MC_SAMPLER", sampler)]));
            assert!(!fits(&off.exact()), "{a} -> {t} ({sampler}): the law without dodging was not rejected");
        }
    }
}

/// Trials (of `n`) where a battle of `a` against `b` parts from their duel, one seed each.
fn mismatches(cat: &Catalogue, a: &str, b: &str, battle_o: &Options, duel_o: &Options, n: u64) -> usize {
    let f = [ForceSpec::parse(a).unwrap(), ForceSpec::parse(b).unwrap()];
    let loose = Options { ecv_tolerance: 100, ..battle_o.clone() };
    let (bat, _) = battle(cat, "equal-ecv", &f, &[near()], &loose, None, Some(TURNS)).unwrap();
    let d: DuelKernel = duel(cat, a, b, &near(), duel_o);
    (0..n)
        .filter(|&i| {
            let (mut r1, mut r2) = (Xoshiro256PlusPlus::seed_from_u64(i), Xoshiro256PlusPlus::seed_from_u64(i));
            let want = match d.play_one(&mut r1) {
                (Winner::A, t, _) => (Ending::Winner(0), t, true),
                (Winner::B, t, _) => (Ending::Winner(1), t, true),
                (Winner::Draw, t, mutual) => (Ending::Draw, t, mutual),
            };
            let mut out = Outcome::new();
            if let ForceBattle::MostDamaged(x) = &bat {
                play_battle(&x.game, &x.policy, &mut x.game.new_state(), &mut r2, &mut out);
            }
            (out.ending, out.turns, out.decided) != want || r1 != r2
        })
        .count()
}

#[test]
fn battles_dodge_as_the_duel_does() {
    let cat = catalogue();
    let always = opts(&[("DODGE", "ALWAYS")]);
    for (a, b) in [("Pilot Pair", "Soft"), ("Soft", "Ace")] {
        assert_eq!(mismatches(&cat, a, b, &always, &always, 300), 0, "{a} v {b}");
    }
    // Negative control: a battle without dodging parts from the dodging duel.
    assert!(mismatches(&cat, "Pilot Pair", "Soft", &Options::default(), &always, 300) > 0);
}

#[test]
fn a_pilot_that_names_no_gunner_is_an_error() {
    let bad = DODGE.replace("pilot = 1", "pilot = 3");
    let err = Catalogue::from_read("bad", &[SourceFile { name: "bad.toml".into(), text: bad }], Vec::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("pilot 3 names no gunner: the unit has 2"), "{err}");
    // The shipped catalogue gives no Piloting and no pilot, and loads as it is.
    let e = Catalogue::embedded().unwrap();
    assert!(e.units.iter().all(|u| u.piloting.is_none() && u.pilot.is_none()));
}
