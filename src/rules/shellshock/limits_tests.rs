//! Firing-class limits (`FIRING_LIMITS`, "Weapons Selection"), ammunition (`AMMO`) and
//! physical attacks (`PHYSICAL`, "Physical Attacks"): exact vectors by hand, Monte
//! Carlo against them inside exact binomial bounds with negative controls, and battles
//! that replay the duel draw for draw.
//!
//! Every vector below shoots at "Box": every DV 11, armour 0, Shock Threshold and
//! Penetration Factor 100, Dead 7+, no Internal %'s box; every weapon is 1 or 2 Damage
//! dice and nothing else, at range 0 (no range modifier, not point blank), 2d10 at
//! Gunnery 0. So one roll hits every weapon it fires or none, and it destroys when the
//! Damage rolled (doubled or not) reaches 7, or on a second 20. With 2d10 at TN 11
//! (shellshock.md §7 vectors 9 and 15): P(hit, not doubled) = 261/500, P(doubled, not
//! destroyed) = 279/10000, P(second 20) = 1/10000. With k dice fired:
//!
//! K(k) = 261/500 P(kd6 >= 7) + 279/10000 P(kd6 >= 4) + 1/10000
//!
//! K(1) = 279/10000 x 1/2 + 1/10000 = 281/20000; K(2) = 261/500 x 21/36 + 279/10000 x
//! 33/36 + 1/10000 = 118863/360000; K(3) = 261/500 x 196/216 + 279/10000 x 215/216 +
//! 1/10000 = 1083321/2160000. A Damage of 1-6 is a Core Hit (one line): at most 3 rolls a
//! turn for 12 turns never reach 100 lines, so kills come only from the Dead box or a
//! second 20, and P(destroyed by turn k) = 1 - prod over the rolls of (1 - K).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::engine::battle::{BattleRules, Ending, Outcome, play_battle};
use crate::engine::{Cell, RunConfig, Silent, Trials, run};
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;
use crate::stats::{ExactTtk, TtkTally};

use super::attack_run::AttackRun;
use super::battle::{ForceBattle, battle};
use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::duel::{DuelKernel, Winner};
use super::gunner::{fire_sets, plans};
use super::options::{FiringLimits, Options};
use super::unit::WeaponClass;

const LIMITS: &str = r#"
[[weapon]]
name = "Cannon"
type = "B"
damage = 1
range = 60

[[weapon]]
name = "Pod A"
type = "M"
class = "rocket-pod"
damage = 1
range = 60

[[weapon]]
name = "Pod B"
type = "M"
class = "rocket-pod"
damage = 1
range = 60

[[weapon]]
name = "Missile C"
type = "M"
class = "missile"
damage = 1
range = 60

[[weapon]]
name = "Pod Two Rounds"
type = "M"
class = "rocket-pod"
damage = 1
range = 60
ammo = 2

[[weapon]]
name = "Pod One Round"
type = "M"
class = "rocket-pod"
damage = 1
range = 60
ammo = 1

[[weapon]]
name = "Fist"
type = "P"
damage = 1
range = 5

[[weapon]]
name = "Kick"
type = "P"
damage = 2
range = 1

[[chart]]
name = "plain"
lines = "ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB"
equipment = [{ letter = "A", name = "Crew", kind = "crew" }, { letter = "B", name = "Hull" }]

[[unit]]
name = "Box"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon"] }]
ecv = 10

[[unit]]
name = "Battery"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Pod A", "Pod B"] }]
ecv = 10

[[unit]]
name = "Launcher"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Pod A", "Missile C"] }]
ecv = 10

[[unit]]
name = "Triple"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Pod A", "Pod B", "Missile C"] }]
ecv = 10

[[unit]]
name = "Two Rounds"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Pod Two Rounds"] }]
ecv = 10

[[unit]]
name = "Cannon And Round"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Pod One Round"] }]
ecv = 10

[[unit]]
name = "Brawler"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon"] }, { weapons = ["Fist"] }, { weapons = ["Kick"] }]
ecv = 10

[[unit]]
name = "Kicker"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Kick"] }]
ecv = 10

[[unit]]
name = "Puncher"
era = "future"
defense = { B = 11, M = 11, E = 11, I = 11, SA = 11, P = 11 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 100
penetration_factor = 100
dead_at = 7
chart = "plain"
gunners = [{ weapons = ["Cannon", "Fist"] }]
ecv = 10
"#;

const K1: f64 = 281.0 / 20000.0;
const K2: f64 = 118863.0 / 360000.0;
const K3: f64 = 1083321.0 / 2160000.0;
const TURNS: u32 = 10;

fn catalogue() -> Catalogue {
    Catalogue::from_read("limits", &[SourceFile { name: "limits.toml".into(), text: LIMITS.into() }], Vec::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn opts(pairs: &[(&str, &str)]) -> Options {
    let mut o = Options::default();
    for (k, v) in pairs {
        o.set(k, v).unwrap();
    }
    o
}

fn at(range: u32) -> Conditions {
    Conditions { range, ..Conditions::default() }
}

fn run_of(cat: &Catalogue, a: &str, c: &Conditions, o: &Options) -> AttackRun {
    AttackRun::new(cat, cat.unit(a).unwrap(), cat.unit("Box").unwrap(), c, o, TURNS).unwrap()
}

/// P(destroyed by turn k), k = 1..=TURNS, when turn t's rolls destroy with `per_turn(t)`
/// (t from 1) each.
fn by_hand(per_turn: impl Fn(u32) -> Vec<f64>) -> Vec<f64> {
    let mut alive = 1.0;
    (1..=TURNS)
        .map(|t| {
            alive *= per_turn(t).iter().map(|k| 1.0 - k).product::<f64>();
            1.0 - alive
        })
        .collect()
}

fn assert_law(e: &ExactTtk, want: &[f64], what: &str) {
    for (k, (p, w)) in e.p_kill_by_turn.iter().zip(want).enumerate() {
        assert!((p - w).abs() < 1e-12, "{what}, turn {}: {p} != {w}", k + 1);
    }
}

fn weapons_of(cat: &Catalogue, a: &str, c: &Conditions, o: &Options) -> Vec<Vec<String>> {
    plans(cat, cat.unit(a).unwrap(), cat.unit("Box").unwrap(), c, o)
        .iter()
        .map(|p| {
            let mut n: Vec<String> = p.weapons.iter().map(|w| w.name.clone()).collect();
            n.sort();
            n
        })
        .collect()
}

#[test]
fn the_weapons_selection_sets() {
    let cat = catalogue();
    let w = |n: &str| cat.weapons.iter().find(|w| w.name == n).unwrap();
    let (cannon, a, b, m) = (w("Cannon"), w("Pod A"), w("Pod B"), w("Missile C"));
    assert_eq!(a.class, WeaponClass::RocketPod);
    assert_eq!(m.class, WeaponClass::Missile);
    assert_eq!(cannon.class, WeaponClass::Other);
    // One limited weapon (or none): everything fires together.
    assert_eq!(fire_sets(&[cannon, a], FiringLimits::Book), vec![vec![0, 1]]);
    // Two with a cannon: the cannon with one of them, or the two alone.
    assert_eq!(fire_sets(&[cannon, a, b], FiringLimits::Book), vec![vec![0, 1], vec![0, 2], vec![1, 2]]);
    // A pair of two classes: allowed by BOOK, not by SAME_CLASS_PAIRS (one at a time).
    assert_eq!(fire_sets(&[a, m], FiringLimits::Book), vec![vec![0], vec![1], vec![0, 1]]);
    assert_eq!(fire_sets(&[a, m], FiringLimits::SameClassPairs), vec![vec![0], vec![1]]);
    assert_eq!(fire_sets(&[a, b, m], FiringLimits::SameClassPairs), vec![vec![0], vec![1], vec![2], vec![0, 1]]);
    assert_eq!(fire_sets(&[cannon, a, b, m], FiringLimits::Off), vec![vec![0, 1, 2, 3]]);
}

#[test]
fn firing_limits_by_hand() {
    let cat = catalogue();
    let c = at(0);
    let law = |a: &str, o: &Options| run_of(&cat, a, &c, o).exact();
    let book = Options::default();
    let same = opts(&[("FIRING_LIMITS", "SAME_CLASS_PAIRS")]);
    let off = opts(&[("FIRING_LIMITS", "OFF")]);
    // Cannon + two rocket pods: the cannon and one pod (2 dice), not all three.
    assert_eq!(weapons_of(&cat, "Battery", &c, &book), vec![vec!["Cannon".to_string(), "Pod A".into()]]);
    assert_law(&law("Battery", &book), &by_hand(|_| vec![K2]), "Battery, BOOK");
    assert_law(&law("Battery", &same), &by_hand(|_| vec![K2]), "Battery, SAME_CLASS_PAIRS");
    assert_law(&law("Battery", &off), &by_hand(|_| vec![K3]), "Battery, OFF");
    // A rocket pod and a missile alone: a pair (BOOK) or one at a time.
    assert_law(&law("Launcher", &book), &by_hand(|_| vec![K2]), "Launcher, BOOK");
    assert_law(&law("Launcher", &same), &by_hand(|_| vec![K1]), "Launcher, SAME_CLASS_PAIRS");
    // Three limited weapons alone: a pair, never three.
    assert_law(&law("Triple", &book), &by_hand(|_| vec![K2]), "Triple, BOOK");
    assert_law(&law("Triple", &same), &by_hand(|_| vec![K2]), "Triple, SAME_CLASS_PAIRS (the two pods)");
    assert_law(&law("Triple", &off), &by_hand(|_| vec![K3]), "Triple, OFF");
}

#[test]
fn ammunition_by_hand() {
    let cat = catalogue();
    let c = at(0);
    let card = Options::default();
    let unlimited = opts(&[("AMMO", "UNLIMITED")]);
    // Two rounds: two turns of fire, then nothing.
    let r = run_of(&cat, "Two Rounds", &c, &card);
    assert_eq!(r.actions(), 2);
    let e = r.exact();
    assert_law(&e, &by_hand(|t| if t <= 2 { vec![K1] } else { vec![] }), "Two Rounds, CARD");
    assert!(e.kill_by_turn[2..].iter().all(|&k| k == 0.0), "{:?}", e.kill_by_turn);
    assert_law(&run_of(&cat, "Two Rounds", &c, &unlimited).exact(), &by_hand(|_| vec![K1]), "Two Rounds, UNLIMITED");
    // A cannon and a one-round pod: both in turn 1, the cannon alone after.
    let r = run_of(&cat, "Cannon And Round", &c, &card);
    assert_eq!(r.actions(), TURNS as usize);
    assert_law(&r.exact(), &by_hand(|t| vec![if t == 1 { K2 } else { K1 }]), "Cannon And Round, CARD");
    assert_law(
        &run_of(&cat, "Cannon And Round", &c, &unlimited).exact(),
        &by_hand(|_| vec![K2]),
        "Cannon And Round, UNLIMITED",
    );
}

#[test]
fn physical_attacks_by_hand() {
    let cat = catalogue();
    let book = Options::default();
    let off = opts(&[("PHYSICAL", "OFF")]);
    let law = |a: &str, c: &Conditions, o: &Options| run_of(&cat, a, c, o).exact();
    // One physical attack per unit: the kick (2 dice) rather than the fist (1 die).
    assert_eq!(weapons_of(&cat, "Brawler", &at(0), &book), vec![vec!["Cannon".to_string()], vec!["Kick".into()]]);
    assert_law(&law("Brawler", &at(0), &book), &by_hand(|_| vec![K1, K2]), "Brawler, BOOK");
    assert_law(&law("Brawler", &at(0), &off), &by_hand(|_| vec![K1, K1, K2]), "Brawler, OFF");
    // A gunner kicks or fires, never both: the kick is worth more than the cannon.
    assert_law(&law("Kicker", &at(0), &book), &by_hand(|_| vec![K2]), "Kicker, BOOK");
    assert_law(&law("Kicker", &at(0), &off), &by_hand(|_| vec![K3]), "Kicker, OFF");
    // A fist worth what the cannon is: the cannon (ties go to fire).
    assert_eq!(weapons_of(&cat, "Puncher", &at(0), &book), vec![vec!["Cannon".to_string()]]);
    assert_law(&law("Puncher", &at(0), &book), &by_hand(|_| vec![K1]), "Puncher, BOOK");
    assert_law(&law("Puncher", &at(0), &off), &by_hand(|_| vec![K2]), "Puncher, OFF");
    // Not adjacent: no physical attack, whatever the card's range (the Fist's is 5).
    assert_law(&law("Puncher", &at(2), &book), &by_hand(|_| vec![K1]), "Puncher at 2, BOOK");
    assert_law(&law("Puncher", &at(2), &off), &by_hand(|_| vec![K2]), "Puncher at 2, OFF");
    assert_law(&law("Brawler", &at(2), &book), &by_hand(|_| vec![K1]), "Brawler at 2, BOOK");
}

fn monte_carlo(r: &AttackRun, seed: u64, trials: u64) -> TtkTally {
    let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
    run(&[Cell { key: 27, kernel: r }], &cfg, &Silent).unwrap().remove(0)
}

/// Turns whose count of kills by turn k is inconsistent with `e`.
fn outside(t: &TtkTally, e: &ExactTtk, alpha: f64) -> Vec<usize> {
    let mut cum = 0;
    let mut bad = Vec::new();
    for (k, &kills) in t.kills_by_turn.iter().enumerate() {
        cum += kills;
        if !consistent(cum, t.trials, e.p_kill_by_turn[k].min(1.0), alpha) {
            bad.push(k + 1);
        }
    }
    bad
}

/// (unit, options of the rule, the same with the rule off, whether the rule-off law is
/// far enough from it for 20 000 runs to tell them apart).
fn cells() -> Vec<(&'static str, Options, Options, bool)> {
    vec![
        ("Battery", Options::default(), opts(&[("FIRING_LIMITS", "OFF")]), true),
        ("Triple", Options::default(), opts(&[("FIRING_LIMITS", "OFF")]), true),
        ("Two Rounds", Options::default(), opts(&[("AMMO", "UNLIMITED")]), true),
        ("Cannon And Round", Options::default(), opts(&[("AMMO", "UNLIMITED")]), true),
        // One more 1-die roll a turn (K(1) = 0.014): too close to tell in 20 000 runs.
        ("Brawler", Options::default(), opts(&[("PHYSICAL", "OFF")]), false),
        ("Kicker", Options::default(), opts(&[("PHYSICAL", "OFF")]), true),
    ]
}

#[test]
fn monte_carlo_plays_the_exact_law_and_not_the_rule_switched_off() {
    let cat = catalogue();
    let c = at(0);
    let cells = cells();
    let alpha = FAMILY_ALPHA / (cells.len() as f64 * 2.0 * f64::from(TURNS));
    for (a, on, off, control) in &cells {
        for sampler in ["TABLE", "DICE"] {
            let (mut on, mut off) = (on.clone(), off.clone());
            on.set("MC_SAMPLER", sampler).unwrap();
            off.set("MC_SAMPLER", sampler).unwrap();
            let r = run_of(&cat, a, &c, &on);
            let t = monte_carlo(&r, 2027, 20_000);
            let bad = outside(&t, &r.exact(), alpha);
            assert!(bad.is_empty(), "{a} ({sampler}): turns {bad:?} outside the exact bounds");
            if !control {
                continue;
            }
            // Negative control: the same tally against the law with the rule off.
            let other = run_of(&cat, a, &c, &off).exact();
            assert!(!outside(&t, &other, alpha).is_empty(), "{a} ({sampler}): the rule-off law was not rejected");
        }
    }
}

fn duel(cat: &Catalogue, a: &str, b: &str, c: &Conditions, o: &Options) -> DuelKernel {
    let (au, bu) = (cat.unit(a).unwrap(), cat.unit(b).unwrap());
    DuelKernel::new(
        AttackRun::new(cat, au, bu, c, o, TURNS).unwrap(),
        AttackRun::new(cat, bu, au, c, o, TURNS).unwrap(),
    )
    .unwrap()
}

#[test]
fn duels_count_rounds_and_physical_attacks() {
    let cat = catalogue();
    let c = at(0);
    let o = Options::default();
    let alpha = FAMILY_ALPHA / 6.0;
    for (a, b) in [("Two Rounds", "Cannon And Round"), ("Brawler", "Kicker"), ("Battery", "Launcher")] {
        let d = duel(&cat, a, b, &c, &o);
        let e = d.exact();
        let cfg = RunConfig { seed: 5, trials: Trials::Fixed(20_000), ..RunConfig::default() };
        let t = run(&[Cell { key: 3, kernel: &d }], &cfg, &Silent).unwrap().remove(0);
        let n = t.trials;
        let wins_a: u64 = t.a_wins_by_turn.iter().sum();
        let wins_b: u64 = t.b_wins_by_turn.iter().sum();
        assert!(consistent(wins_a, n, e.p_a_wins, alpha), "{a} v {b}: A {wins_a} of {n} vs {e:?}");
        assert!(consistent(wins_b, n, e.p_b_wins, alpha), "{a} v {b}: B {wins_b} of {n} vs {e:?}");
    }
    // Two rounds against unlimited fire, by hand: A (Two Rounds) destroys with K1 in
    // turns 1-2 only; B with K2 in turn 1, then K1.
    let e = duel(&cat, "Two Rounds", "Cannon And Round", &c, &o).exact();
    let (a1, b1) = (K1, K2);
    let mut want_a = a1 * (1.0 - b1);
    want_a += (1.0 - a1) * (1.0 - b1) * K1 * (1.0 - K1);
    assert!((e.p_a_wins - want_a).abs() < 1e-12, "{} vs {want_a}", e.p_a_wins);
}

/// One battle of `a` against `b` (one unit a side) from each seed, against the duel from
/// the same seed: the trials that part.
fn mismatches(cat: &Catalogue, a: &str, b: &str, c: &Conditions, o: &Options, policy: &str, n: u64) -> usize {
    let loose = Options { ecv_tolerance: 100, ..o.clone() };
    let f = [ForceSpec::parse(a).unwrap(), ForceSpec::parse(b).unwrap()];
    let (bat, _) = battle(cat, "equal-ecv", &f, &[*c], &loose, Some(policy), Some(TURNS)).unwrap();
    let d = duel(cat, a, b, c, o);
    (0..n)
        .filter(|&i| {
            let (mut r1, mut r2) = (Xoshiro256PlusPlus::seed_from_u64(i), Xoshiro256PlusPlus::seed_from_u64(i));
            let want = match d.play_one(&mut r1) {
                (Winner::A, t, _) => (Ending::Winner(0), t, true),
                (Winner::B, t, _) => (Ending::Winner(1), t, true),
                (Winner::Draw, t, mutual) => (Ending::Draw, t, mutual),
            };
            let mut out = Outcome::new();
            match &bat {
                ForceBattle::MostDamaged(x) => {
                    play_battle(&x.game, &x.policy, &mut x.game.new_state(), &mut r2, &mut out)
                }
                ForceBattle::HighestEcv(x) => {
                    play_battle(&x.game, &x.policy, &mut x.game.new_state(), &mut r2, &mut out)
                }
                ForceBattle::Random(x) => play_battle(&x.game, &x.policy, &mut x.game.new_state(), &mut r2, &mut out),
            }
            (out.ending, out.turns, out.decided) != want || r1 != r2
        })
        .count()
}

#[test]
fn battles_spend_rounds_and_punch_as_the_duel_does() {
    let cat = catalogue();
    let c = at(0);
    for (a, b) in [("Two Rounds", "Cannon And Round"), ("Brawler", "Kicker"), ("Battery", "Triple")] {
        for sampler in ["TABLE", "DICE"] {
            let o = opts(&[("MC_SAMPLER", sampler)]);
            let bad = mismatches(&cat, a, b, &c, &o, "most-damaged", 300);
            assert_eq!(bad, 0, "{a} v {b}, {sampler}: {bad} of 300 trials differ from the duel");
        }
    }
    // Negative control: a battle played with the rules off parts from the duel with them on.
    let loose = opts(&[("AMMO", "UNLIMITED")]);
    let f = [ForceSpec::parse("Two Rounds").unwrap(), ForceSpec::parse("Cannon And Round").unwrap()];
    let (bat, _) =
        battle(&cat, "equal-ecv", &f, &[c], &Options { ecv_tolerance: 100, ..loose }, None, Some(TURNS)).unwrap();
    let d = duel(&cat, "Two Rounds", "Cannon And Round", &c, &Options::default());
    let parted = (0..300u64).any(|i| {
        let (mut r1, mut r2) = (Xoshiro256PlusPlus::seed_from_u64(i), Xoshiro256PlusPlus::seed_from_u64(i));
        let _ = d.play_one(&mut r1);
        let mut out = Outcome::new();
        if let ForceBattle::MostDamaged(x) = &bat {
            play_battle(&x.game, &x.policy, &mut x.game.new_state(), &mut r2, &mut out);
        }
        r1 != r2
    });
    assert!(parted, "the draw-for-draw check must see unlimited rounds");
}

#[test]
fn counted_rounds_beyond_the_limit_and_in_the_full_chart_model_are_refused() {
    let cat = catalogue();
    let full = opts(&[("MODEL", "FULL_CHART")]);
    let (a, t) = (cat.unit("Two Rounds").unwrap(), cat.unit("Box").unwrap());
    let e = AttackRun::new(&cat, a, t, &at(0), &full, TURNS).unwrap_err();
    assert!(e.contains("AMMO=UNLIMITED"), "{e}");
    let full_unlimited = opts(&[("MODEL", "FULL_CHART"), ("AMMO", "UNLIMITED")]);
    assert!(AttackRun::new(&cat, a, t, &at(0), &full_unlimited, TURNS).is_ok());
    // A weapon class or count the catalogue does not know is an error naming the field.
    let bad = LIMITS.replace("class = \"missile\"", "class = \"torpedo\"").replace("ammo = 1\n", "ammo = 0\n");
    let err = Catalogue::from_read("bad", &[SourceFile { name: "bad.toml".into(), text: bad }], Vec::new())
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown weapon class `torpedo`") && err.contains("class"), "{err}");
    assert!(err.contains("ammo"), "{err}");
}
