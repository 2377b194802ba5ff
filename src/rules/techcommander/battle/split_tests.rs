//! `SPLIT_SHOTS`: one system's shots at several targets, against hand-computed vectors.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::{Action, State, TcGame};
use super::super::policy::{FocusLowest, Greedy};
use super::super::test_support::{TestBattle, catalogue, embedded, options, tally, turn_one};
use super::MAX_SPLIT;
use crate::dice::uniform::roll;
use crate::engine::battle::{BattlePolicy, BattleRules, Outcome, play_battle};
use crate::rules::techcommander::options::Options;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

const CATALOGUE: &str = include_str!("book_cards.toml");

fn close(x: f32, y: f64) -> bool {
    (x as f64 - y).abs() < 1e-5 * y.abs().max(1.0)
}

#[test]
fn a_two_shot_system_splits_between_two_troopers() {
    // The post (speed 0: no special attack) fires a 2-shot, 20-damage system at two
    // unarmed AC1 troopers (slots 1 and 2), undug: each shot kills with p = 11/20 (T 11),
    // q = 9/20. Greedy score of k shots at one trooper, V its points, DAMAGE_WEIGHT 1/4:
    // 1 shot V (p + p/4) = 1.25 × 11/20 V = 0.6875 V; 2 shots 1.25 × (1 − q²) V =
    // 1.25 × 319/400 V = 0.996875 V. The second shot adds 0.309375 V at the same trooper,
    // 0.6875 V at the other: one shot each, score 1.375 V > 0.996875 V.
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(options()).max_turns(1).game();
    let s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
    let v = g.units[1].points;
    assert!(close(g.part_score(&s, 0, 0, 1, 1), 0.6875 * v));
    assert!(close(g.part_score(&s, 0, 0, 1, 2), 0.996875 * v));
    let plan = g.split_plan(&s, 0, 0, 1).expect("splits");
    assert_eq!(&plan.parts[..plan.len], &[(1, 1), (2, 1)]);
    assert!(close(plan.score, 1.375 * v));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
    assert!(matches!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Split { actor: 0, system: 0, target: 1 })));
    // The battle, one turn, one action: both troopers die with p² = 121/400 (every
    // shot at one trooper: never). A one-off kernel (T 10: 1/4) must not fit.
    let n = 40_000u64;
    let alpha = FAMILY_ALPHA / 3.0;
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(options()).max_turns(1).kernel();
    let t = tally(&k, n as u32, 11);
    let won = t.decided_by_turn()[0];
    assert!(consistent(won, n, 121.0 / 400.0, alpha), "{won}/{n}");
    assert!(!consistent(won, n, 100.0 / 400.0, alpha), "{won}/{n} fits the one-off 1/4 too");
    // SPLIT_SHOTS=false: both shots at one trooper, the other survives the turn.
    let o = Options { split_shots: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(o).max_turns(1).kernel();
    assert_eq!(tally(&k, 2000, 11).decided_by_turn()[0], 0, "SPLIT_SHOTS=false");
    // At the defaults the troopers are dug in for free (FREE_DIG_IN): p = 9/20, both
    // die with 81/400.
    let defaults = Options { force_budget: 1000, ..Options::default() };
    let k = TestBattle::skirmish(&cat, "Twin Gun Post", "2*Blank Trooper").options(defaults).max_turns(1).kernel();
    let t = tally(&k, n as u32, 12);
    let won = t.decided_by_turn()[0];
    assert!(consistent(won, n, 81.0 / 400.0, alpha), "defaults: {won}/{n}");
}

#[test]
fn a_target_that_needs_no_more_shots_gets_none() {
    // Shots that always hit and kill: one shot at a trooper is worth all it can be
    // (the second adds 0), so the second goes at the next trooper. Against three
    // troopers exactly two die, every time; SPLIT_SHOTS=false: exactly one.
    let cat = catalogue(CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Twin Sure Post", "3*Blank Trooper").options(options()).max_turns(1).game();
    let s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
    assert!(close(g.part_score(&s, 0, 0, 1, 1), g.part_score(&s, 0, 0, 1, 2) as f64));
    let plan = g.split_plan(&s, 0, 0, 1).expect("splits");
    assert_eq!(&plan.parts[..plan.len], &[(1, 1), (2, 1)]);
    for (split, dead) in [(true, 2), (false, 1)] {
        let o = Options { split_shots: split, ..options() };
        let g = TestBattle::skirmish(&cat, "Twin Sure Post", "3*Blank Trooper").options(o).max_turns(1).game();
        let mut s = turn_one(&g, &mut Xoshiro256PlusPlus::seed_from_u64(3));
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let a = Greedy.choose(&g, &s, 0, 0, &mut rng).expect("an attack");
        g.act(&mut s, 0, a, &mut rng, &mut Outcome::new());
        let killed = (1..4).filter(|&t| s.life[t] <= 0).count();
        assert_eq!(killed, dead, "SPLIT_SHOTS={split}");
        assert_ne!(s.used[0], 0, "the system is spent");
    }
}

/// The plan as first written: every shot re-reads [`TcGame::part_score`] at every
/// candidate, which the candidates' rows replaced. (target, shots) in order, and the score.
fn plain_plan(g: &TcGame, s: &State, a: usize, system: usize, primary: usize) -> Option<(Vec<(u8, u8)>, f32)> {
    if system >= g.facts[a].nsys as usize {
        return None;
    }
    let tables = g.aim(&g.tables, s, a, primary).tables;
    let e = g.split_entry(tables, s, a, system, primary, false);
    if e == super::NONE || tables.any_moneyshot {
        return None;
    }
    let n = tables.part[e as usize].len();
    if n < 2 {
        return None;
    }
    let mut cand = vec![(primary as u8, 0u8)];
    for &t in &g.enemies[g.units[a].side] {
        let t = t as usize;
        if cand.len() == MAX_SPLIT {
            break;
        }
        if t == primary || !g.targetable_by(s, a, t) {
            continue;
        }
        let tables = g.aim(&g.tables, s, a, t).tables;
        let e = g.split_entry(tables, s, a, system, t, false);
        if e == super::NONE || tables.part[e as usize].len() != n {
            continue;
        }
        cand.push((t as u8, 0));
    }
    if cand.len() < 2 {
        return None;
    }
    let mut now = vec![0f32; cand.len()];
    for _ in 0..n {
        let mut pick = 0;
        let mut gain = f32::NEG_INFINITY;
        for (i, &(t, k)) in cand.iter().enumerate() {
            let g = g.part_score(s, a, system, t as usize, k as usize + 1) - now[i];
            if g > gain {
                gain = g;
                pick = i;
            }
        }
        cand[pick].1 += 1;
        now[pick] = g.part_score(s, a, system, cand[pick].0 as usize, cand[pick].1 as usize);
    }
    let parts: Vec<(u8, u8)> = cand.into_iter().filter(|p| p.1 > 0).collect();
    (parts.len() >= 2).then(|| (parts, now.iter().sum()))
}

/// Before every choice, compares [`TcGame::split_plan`] with [`plain_plan`] for every
/// actor, system and primary target, in the state and in `perturbed` redrawn ones (the
/// actor in the red with each jury-rig result, other lives and smoke).
struct Compared<P> {
    policy: P,
    perturbed: u32,
    rng: Mutex<Xoshiro256PlusPlus>,
    plans: AtomicU64,
}

impl<P> Compared<P> {
    fn check(&self, g: &TcGame, s: &State) {
        for a in 0..g.units.len() {
            for system in 0..g.facts[a].nsys as usize {
                for &t in &g.enemies[g.units[a].side] {
                    let t = t as usize;
                    let plan = g.split_plan(s, a, system, t);
                    let plain = plain_plan(g, s, a, system, t);
                    let got = plan.map(|p| (p.parts[..p.len].to_vec(), p.score.to_bits()));
                    assert_eq!(
                        got,
                        plain.map(|(parts, score)| (parts, score.to_bits())),
                        "actor {a} system {system} at {t}"
                    );
                    self.plans.fetch_add(got.is_some() as u64, Ordering::Relaxed);
                }
            }
        }
    }
}

impl<P: BattlePolicy<TcGame>> BattlePolicy<TcGame> for Compared<P> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        self.check(g, s);
        for _ in 0..self.perturbed {
            let mut p = s.clone();
            {
                let r = &mut *self.rng.lock().unwrap();
                for u in 0..g.units.len() {
                    match roll(r, 6) {
                        1 => p.life[u] = roll(r, 24) as i32 - 4,
                        2 => p.jury[u] = roll(r, 3) as u8 - 1,
                        3 => p.smoked[u] = roll(r, 3) == 1,
                        4 => p.dug_in[u] = roll(r, 2) == 1,
                        _ => {}
                    }
                    p.stand(u);
                }
            }
            self.check(g, &p);
        }
        self.policy.choose(g, s, side, phase, rng)
    }
}

#[test]
fn the_plan_gives_the_shots_as_the_plain_allocation_does() {
    // Against the plan as first written, bit for bit, on every state of played battles
    // and redrawn ones: reference forces, multi-shot Stingrays against troops, the 2nd
    // edition, per-turn jury rigs, dug-in targets.
    let cat = embedded();
    let per_turn = Options { jury_rig_per_action: false, ..options() };
    let dig = Options { policy_dig_in: true, ..options() };
    let ed2 = Options { edition: 2, ..options() };
    let (lance, siege) = (
        "Gladiator Lancer+Beagle Hunter+Hunter IV Standard",
        "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT",
    );
    let mut plans = 0;
    for (a, b, o) in [
        (lance, siege, options()),
        ("3*Stingray Standard", "Paladin Siege+2*ECBS Pirate AT", options()),
        (lance, siege, per_turn),
        (siege, lance, dig),
        (lance, siege, ed2),
    ] {
        let g = TestBattle::skirmish(&cat, a, b).options(o).game();
        let compared = Compared {
            policy: Greedy,
            perturbed: 2,
            rng: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(9)),
            plans: AtomicU64::new(0),
        };
        let focus = Compared {
            policy: FocusLowest,
            perturbed: 1,
            rng: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(10)),
            plans: AtomicU64::new(0),
        };
        let (mut s, mut out, mut rng) = (g.new_state(), Outcome::new(), Xoshiro256PlusPlus::seed_from_u64(11));
        for _ in 0..20 {
            play_battle(&g, &compared, &mut s, &mut rng, &mut out);
            play_battle(&g, &focus, &mut s, &mut rng, &mut out);
        }
        plans += compared.plans.into_inner() + focus.plans.into_inner();
    }
    // The comparison saw real splits, not only refusals.
    assert!(plans > 1000, "{plans} plans compared");
}
