//! The greedy search with twin classes chooses exactly what a plain scan of every actor
//! and every target chooses.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::{Action, State, TcGame};
use super::super::policy::{FocusLowest, Greedy};
use super::super::test_support::{TestBattle, embedded, options};
use super::NO_CLASS;
use crate::dice::uniform::roll;
use crate::engine::battle::{BattlePolicy, BattleRules, Outcome, play_battle};
use crate::rules::techcommander::options::Options;
use crate::rules::techcommander::rulings::STARTING_LIFE;

/// `g` without twin classes: every step scans every actor against every target.
fn plain(g: &TcGame) -> TcGame {
    let mut p = g.clone();
    p.class = vec![NO_CLASS; p.units.len()];
    p
}

/// Score bits, so that a mismatch of a single ulp fails.
fn bits(b: Option<(Action, f32)>) -> Option<(Action, u32)> {
    b.map(|(a, score)| (a, score.to_bits()))
}

/// Plays every step through `policy`, first checking that `g` and its plain twin find the
/// same best attack (greedy and focus, both sides) and the same greedy choice in the
/// state, and in `perturbed` copies of it with some units' life, jury rig, systems used
/// and smoke redrawn. Counts the steps where the classes left some actor or target out.
struct Checked<'g, P> {
    plain: &'g TcGame,
    policy: P,
    perturbed: u32,
    rng: Mutex<Xoshiro256PlusPlus>,
    deduped: AtomicU64,
}

impl<P> Checked<'_, P> {
    fn check(&self, g: &TcGame, s: &State, side: usize) {
        for focus in [false, true] {
            for side in [side, 1 - side] {
                let fast = bits(g.best_attack(s, side, focus));
                let full = bits(self.plain.best_attack(s, side, focus));
                assert_eq!(fast, full, "side {side}, focus {focus}");
                let seen = g.sights(s, side, focus).targets.len();
                let all = self.plain.sights(s, side, focus).targets.len();
                if seen < all {
                    self.deduped.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(0);
        assert_eq!(
            Greedy.choose(g, s, side, 0, &mut rng),
            Greedy.choose(self.plain, s, side, 0, &mut rng),
            "the greedy choice"
        );
    }
}

impl<P: BattlePolicy<TcGame>> BattlePolicy<TcGame> for Checked<'_, P> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        self.check(g, s, side);
        for _ in 0..self.perturbed {
            let mut p = s.clone();
            {
                let r = &mut *self.rng.lock().unwrap();
                for u in 0..g.units.len() {
                    match roll(r, 8) {
                        1 => {
                            p.life[u] = roll(r, STARTING_LIFE as u64 + 4) as i32 - 4;
                            p.stand(u);
                        }
                        2 | 3 => {
                            p.life[u] = roll(r, 4) as i32 * 5;
                            p.stand(u);
                        }
                        4 => p.jury[u] = roll(r, 3) as u8 - 1,
                        5 => p.used[u] = roll(r, 4) as u32 - 1,
                        6 => p.smoked[u] = roll(r, 5) == 1,
                        _ => {}
                    }
                }
            }
            self.check(g, &p, side);
        }
        self.policy.choose(g, s, side, phase, rng)
    }
}

/// Plays `battles` battles of `g` under `policy` from `seed`, every step checked (with
/// `perturbed` redrawn states); returns the steps where twins were left out.
fn check_under<P: BattlePolicy<TcGame>>(
    g: &TcGame,
    plain: &TcGame,
    policy: P,
    seed: u64,
    battles: u32,
    perturbed: u32,
) -> u64 {
    let checked = Checked {
        plain,
        policy,
        perturbed,
        rng: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(seed + 10)),
        deduped: AtomicU64::new(0),
    };
    let mut s = g.new_state();
    let mut out = Outcome::new();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    for _ in 0..battles {
        play_battle(g, &checked, &mut s, &mut rng, &mut out);
    }
    checked.deduped.load(Ordering::Relaxed)
}

/// Plays `battles` battles of `g` under greedy and focus-lowest, every step checked.
fn check_battles(g: &TcGame, battles: u32, perturbed: u32) -> u64 {
    let plain = plain(g);
    check_under(g, &plain, Greedy, 1, battles, perturbed) + check_under(g, &plain, FocusLowest, 2, battles, perturbed)
}

#[test]
fn twins_are_classes_and_a_unit_alone_is_not() {
    let cat = embedded();
    let g = TestBattle::skirmish(&cat, "3*Stingray Standard+Rhino Standard", "Paladin Siege+2*ECBS Pirate AT").game();
    let n = NO_CLASS;
    assert_eq!(g.class, [0, 0, 0, n, n, 1, 1]);
}

#[test]
fn the_search_with_classes_chooses_as_a_full_scan_does() {
    let cat = embedded();
    let ed2 = Options { edition: 2, ..options() };
    let dig = Options { policy_dig_in: true, ..options() };
    let cases: [(&str, &str, Options); 6] = [
        ("12*Stingray Standard", "12*Stingray Standard", options()),
        ("8*Stingray Standard", "8*Stingray Standard", ed2),
        ("6*Stingray Standard+4*ECBS Pirate AT", "3*Hunter IV Standard+5*ECBS Pirate AT", dig),
        (
            "Gladiator Lancer+Beagle Hunter+Hunter IV Standard",
            "Paladin Siege+Stingray Standard+Rhino Standard+2*ECBS Pirate AT",
            options(),
        ),
        ("Gladiator Lancer+2*Beagle Hunter", "Paladin Siege+2*Stingray Standard+2*ECBS Pirate AT", ed2),
        ("2*Gladiator Lancer+3*Rhino Standard", "4*Hunter IV Standard+2*Rhino Standard", options()),
    ];
    let mut deduped = 0;
    for (a, b, o) in cases {
        let g = TestBattle::skirmish(&cat, a, b).options(o).game();
        deduped += check_battles(&g, 6, 2);
    }
    // The classes were at work: some steps saw fewer targets than the full scan.
    assert!(deduped > 100, "{deduped} steps with twins left out");
}

#[test]
fn a_deathmatch_with_classes_chooses_as_a_full_scan_does() {
    let cat = embedded();
    let g = TestBattle::deathmatch(
        &cat,
        &["4*Stingray Standard+2*ECBS Pirate AT", "5*Stingray Standard", "3*Hunter IV Standard"],
    )
    .game();
    assert!(g.class.iter().any(|&c| c != NO_CLASS));
    let plain = plain(&g);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let mut s = g.new_state();
    let mut out = Outcome::new();
    for _ in 0..20 {
        let c = Checked {
            plain: &plain,
            policy: Greedy,
            perturbed: 0,
            rng: Mutex::new(Xoshiro256PlusPlus::seed_from_u64(4)),
            deduped: AtomicU64::new(0),
        };
        play_battle(&g, &DmChecked(c), &mut s, &mut rng, &mut out);
    }
}

/// [`Checked`] for a battle of more than two sides: every side's search, each focus.
struct DmChecked<'g>(Checked<'g, Greedy>);

impl BattlePolicy<TcGame> for DmChecked<'_> {
    fn choose(&self, g: &TcGame, s: &State, side: usize, phase: usize, rng: &mut Xoshiro256PlusPlus) -> Option<Action> {
        for other in 0..g.sides_count() {
            for focus in [false, true] {
                assert_eq!(bits(g.best_attack(s, other, focus)), bits(self.0.plain.best_attack(s, other, focus)));
            }
        }
        let mut r = Xoshiro256PlusPlus::seed_from_u64(0);
        assert_eq!(Greedy.choose(g, s, side, phase, &mut r), Greedy.choose(self.0.plain, s, side, phase, &mut r));
        Greedy.choose(g, s, side, phase, rng)
    }
}
