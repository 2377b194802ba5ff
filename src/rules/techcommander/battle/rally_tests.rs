//! Rallied Attack, Rallied Assault, the group trample and under-crewed MSVs against
//! hand-computed values (techcommander-battles.md §2.2, §2.4, §4, §7).

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::policy::{FocusLowest, Greedy};
use super::test_support::{
    Audited, EVERY_POLICY, Part, SQUAD_CATALOGUE, TestBattle, assert_consistent, catalogue, close, embedded,
    first_action, lost_counts, options,
};
use crate::engine::battle::{BattlePolicy, BattleRules, Outcome, play_battle};
use crate::rules::techcommander::conditions::Conditions;
use crate::rules::techcommander::options::Options;

/// What [`TestBattle::assemble`] builds besides the tables and group laws: the special
/// attacks (trample).
const SPECIALS: &[Part] = &[Part::Specials];

// Hand values. A troop's Gun at an AC2 car, range 12: T = 10 + 2 = 12, P(hit) 12/20; a
// hit takes 20 / 2 = 10 life (two hits eliminate). At an AC4 box: T 14, P 14/20, 5 life.
// At AC1 crew: T 11, P 11/20, a hit eliminates.
const P_CAR: f64 = 12.0 / 20.0;
const P_BOX: f64 = 14.0 / 20.0;
const P_CREW: f64 = 11.0 / 20.0;

#[test]
fn the_single_shot_laws_are_the_hand_values() {
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Gun Trooper", "Target Car+Box+Unarmed Crew").max_turns(1).assemble(SPECIALS);
    let s = first_action(&g, 1);
    for (t, p, loss, v) in [(1, P_CAR, 10.0, 2.0), (2, P_BOX, 5.0, 4.0), (3, P_CREW, 20.0, 1.0)] {
        let kill = if loss >= 20.0 { p } else { 0.0 };
        let (_, score) = g.best_system_at(&s, 0, t, 20).unwrap();
        close(score, v * (kill + 0.25 * p * loss / 20.0), &format!("target {t}"));
    }
}

#[test]
fn greedy_picks_the_rallied_attack_when_it_beats_weapons_free() {
    // Two troops against an AC2 car (two hits eliminate it) and an AC4 box. Alone each
    // troop prefers the box: 4 × 0.25 × 0.7 × 5/20 = 0.175 > 2 × 0.25 × 0.6 × 10/20 =
    // 0.15, so Weapons Free scores 0.35. Together at the car: P(kill) = 0.36, E[min(loss,
    // 20)] = 2 × 0.6 × 10 = 12: 2 × 0.36 + 0.5 × 12/20 = 1.02.
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "2*Gun Trooper", "Target Car+Box").max_turns(1).assemble(SPECIALS);
    let s = first_action(&g, 1);
    let (car, bx) = (2, 3);
    close(g.rally_attack_score(&s, 0, car).unwrap(), 2.0 * P_CAR * P_CAR + 0.5 * 2.0 * P_CAR * 10.0 / 20.0, "car");
    // At the box no kill (10 life at most); damage 2 × 0.7 × 5 = 7 worth 0.25 × 4 / 20 each.
    close(g.rally_attack_score(&s, 0, bx).unwrap(), 0.25 * 4.0 * 2.0 * P_BOX * 5.0 / 20.0, "box");
    assert_eq!(g.best_rally_attack(&s, 0, false).map(|b| b.0), Some(car));
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::RallyAttack { target: car as u8 }));
    // Focus-lowest: both at 20 life, so the earlier target, the car, by Rallied Attack.
    assert_eq!(FocusLowest.choose(&g, &s, 0, 0, &mut rng), Some(Action::RallyAttack { target: car as u8 }));

    // In battle (one turn; side A's group acts once): P(car eliminated by turn 1) = 0.36.
    let n = 100_000;
    let lost = lost_counts(&g, Greedy, n, 2);
    assert_consistent(lost[car], n as u64, P_CAR * P_CAR, "car eliminated in turn 1");
    assert_eq!(lost[bx], 0, "the box takes at most 10 life");
}

#[test]
fn a_rallied_attack_at_a_dug_in_target_is_scored_at_its_penalty() {
    // POLICY_DIG_IN: at the car dug in each troop hits on 12 − 2 = 10, and the Rallied
    // Attack is scored member by member from the dug-in tables: P(kill) = 0.25, E[min(loss,
    // 20)] = 2 × 0.5 × 10 = 10: 2 × 0.25 + 0.5 × 10/20 = 0.75 (1.02 in the open).
    let cat = catalogue(SQUAD_CATALOGUE);
    let o = Options { policy_dig_in: true, ..options() };
    let k = TestBattle::skirmish(&cat, "2*Gun Trooper", "Target Car+Box").options(o).max_turns(1).kernel();
    let g = k.game();
    let mut s = first_action(g, 1);
    let car = 2;
    close(g.rally_attack_score(&s, 0, car).unwrap(), 2.0 * P_CAR * P_CAR + 0.5 * 2.0 * P_CAR * 10.0 / 20.0, "open");
    s.dug_in[car] = true;
    let p = 10.0 / 20.0;
    close(g.rally_attack_score(&s, 0, car).unwrap(), 2.0 * p * p + 0.5 * 2.0 * p * 10.0 / 20.0, "dug in");
}

#[test]
fn a_group_against_a_single_target_eliminates_it_by_the_convolution() {
    // Three troops at one AC2 car: eliminated when at least two of three hit.
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "3*Gun Trooper", "Target Car").max_turns(1).assemble(SPECIALS);
    let p2 = 3.0 * P_CAR * P_CAR * (1.0 - P_CAR) + P_CAR.powi(3);
    let s = first_action(&g, 1);
    let e_min = 10.0 * 3.0 * P_CAR * (1.0 - P_CAR).powi(2) + 20.0 * p2;
    close(g.rally_attack_score(&s, 0, 3).unwrap(), 2.0 * p2 + 0.5 * e_min / 20.0, "score");
    let n = 100_000;
    let lost = lost_counts(&g, Greedy, n, 3);
    assert_consistent(lost[3], n as u64, p2, "P(eliminated by turn 1)");
}

#[test]
fn a_rallied_assault_walks_the_enemy_group_in_order() {
    // Three troops assault two AC1 crew (a hit eliminates): the first crew falls with
    // the first hit, the second with the second. P(first) = 1 − 0.45³, P(both) =
    // P(≥ 2 hits of 3). Score: each kill is worth 1 + 0.25 × 20/20 = 1.25.
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "3*Gun Trooper", "2*Unarmed Crew").max_turns(1).assemble(SPECIALS);
    let q = 1.0 - P_CREW;
    let p1 = 1.0 - q.powi(3);
    let p2 = 3.0 * P_CREW * P_CREW * q + P_CREW.powi(3);
    let s = first_action(&g, 1);
    close(g.assault_score(&s, 0, 1).unwrap(), 1.25 * (p1 + p2), "assault score");
    // A scripted player assaults whenever the group may act.
    struct Assault;
    impl BattlePolicy<TcGame> for Assault {
        fn choose(&self, g: &TcGame, s: &State, side: usize, _: usize, _: &mut Xoshiro256PlusPlus) -> Option<Action> {
            (side == 0 && g.group_may_act(s, side)).then_some(Action::Assault { side: 1 })
        }
    }
    let n = 100_000;
    let lost = lost_counts(&g, Assault, n, 4);
    assert_consistent(lost[3], n as u64, p1, "first crew");
    assert_consistent(lost[4], n as u64, p2, "second crew");
}

#[test]
fn an_assault_on_partly_damaged_members_keeps_the_remaining_life() {
    // Two troops assault two AC1 crew, the first already at 5 life: a hit kills it all
    // the same; the score counts its kill at 1 + 0.25 × 5/20.
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "2*Gun Trooper", "2*Unarmed Crew").max_turns(1).assemble(SPECIALS);
    let mut s = first_action(&g, 1);
    s.life[2] = 5;
    s.stand(2);
    let q = 1.0 - P_CREW;
    let p1 = 1.0 - q * q;
    let p2 = P_CREW * P_CREW;
    close(g.assault_score(&s, 0, 1).unwrap(), (1.0 + 0.25 * 5.0 / 20.0) * p1 + 1.25 * p2, "assault score");
}

#[test]
fn a_trample_crosses_three_troops_each_dodging_alone() {
    // §7: trample AC5 over 3 troops: each 0.4 × 17/20 = 17/50; expected kills 51/50; all
    // three 4913/125000. The Stomper (speed 24, half 12 ≥ range 12) crosses all three.
    // Under-crewed, it has one action (else its second would overrun a survivor).
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Stomper", "3*Blank Trooper")
        .under_crewed(&[true, false])
        .max_turns(1)
        .assemble(SPECIALS);
    let s = first_action(&g, 1);
    let each = 17.0 / 50.0;
    // Score per member: P(kill) + 0.25 × E[min(loss, 20)] / 20, a hit taking 5 × d20
    // (5, 10, 15, then 20 for d20 ≥ 4): E = 0.4 × (5 + 10 + 15 + 17 × 20) / 20 = 7.4.
    close(g.trample_score(&s, 0, 1).unwrap(), 3.0 * (each + 0.25 * 7.4 / 20.0), "trample score");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Trample { actor: 0, side: 1 }));
    let n = 200_000;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let (mut all, mut kills) = (0u64, 0u64);
    let mut s = g.new_state();
    let mut out = Outcome::new();
    let mut first = 0u64;
    for _ in 0..n {
        play_battle(&g, &Audited(Greedy), &mut s, &mut rng, &mut out);
        let k: u64 = (1..4).map(|u| out.lost[u] as u64).sum();
        kills += k;
        all += (k == 3) as u64;
        first += out.lost[1] as u64;
    }
    assert_consistent(first, n as u64, each, "first troop");
    assert_consistent(all, n as u64, 4913.0 / 125000.0, "all three");
    let mean = kills as f64 / n as f64;
    let sd = (3.0 * each * (1.0 - each) / n as f64).sqrt();
    assert!((mean - 51.0 / 50.0).abs() < 5.0 * sd, "expected kills {mean} vs 51/50");
}

#[test]
fn a_trample_crosses_infiltrated_troops() {
    // 3rd edition "Trample": "Target a rallied group (regardless of infiltration)". Three
    // cloaked troops, untargetable by any attack, are trampled as in the open: each
    // 0.4 × 17/20 = 17/50, all three 4913/125000.
    let text = format!(
        "{SQUAD_CATALOGUE}\n[[gear]]\nname = \"Cloak\"\nweight = 0\npower = 0\ninfiltration = true\n\n[[build]]\nname = \"Cloaked Trooper\"\nunit = \"Trooper\"\nweapons = [{{ name = \"Blank\" }}]\ngear = [\"Cloak\"]\n"
    );
    let cat = catalogue(&text);
    let k =
        TestBattle::skirmish(&cat, "Stomper", "3*Cloaked Trooper").under_crewed(&[true, false]).max_turns(1).kernel();
    let g = k.game();
    let s = first_action(g, 1);
    assert!((1..4).all(|t| s.hidden[t] && !g.targetable(&s, t)), "all three infiltrated");
    close(g.trample_score(&s, 0, 1).unwrap(), 3.0 * (17.0 / 50.0 + 0.25 * 7.4 / 20.0), "trample score");
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    assert_eq!(Greedy.choose(g, &s, 0, 0, &mut rng), Some(Action::Trample { actor: 0, side: 1 }));
    assert_eq!(FocusLowest.choose(g, &s, 0, 0, &mut rng), Some(Action::Trample { actor: 0, side: 1 }));
    let n = 100_000;
    let lost = lost_counts(g, Greedy, n, 7);
    for (t, &k) in lost.iter().enumerate().take(4).skip(1) {
        assert_consistent(k, n as u64, 17.0 / 50.0, &format!("cloaked troop {t}"));
    }
}

#[test]
fn a_trample_crosses_at_most_half_its_speed_many() {
    // Speed 4: half 2 reaches range 2 and crosses two of three troops; its gun never hits.
    // Under-crewed: one action, so no overrun after the trample.
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Small Stomper", "3*Blank Trooper")
        .conditions(Conditions::at_range(2.0))
        .under_crewed(&[true, false])
        .max_turns(1)
        .assemble(SPECIALS);
    let s = first_action(&g, 1);
    close(g.trample_score(&s, 0, 1).unwrap(), 2.0 * (17.0 / 50.0 + 0.25 * 7.4 / 20.0), "two crossed");
    let n = 50_000;
    let lost = lost_counts(&g, Greedy, n, 6);
    assert_eq!(lost[3], 0, "the third troop is never crossed");
    assert_consistent(lost[2], n as u64, 17.0 / 50.0, "second troop");
}

#[test]
fn under_crewed_msvs_take_one_action_and_command_is_lost() {
    // Two-gun MSV (2 actions) + command car (1, command 1) + 3 gun cars: 6 unit actions;
    // the player's budget is 4 + 1 = 5. Under-crewed: the MSV takes one action and the
    // command is lost: budget 4.
    let cat = catalogue(SQUAD_CATALOGUE);
    let force = "Two-Gun Stomper+Gun Boss+3*Gun Car";
    for (under, budget, msv_actions) in [(false, [4, 1], 2), (true, [4, 0], 1)] {
        let g = TestBattle::skirmish(&cat, force, "Box+Box+Box+Box")
            .under_crewed(&[under, false])
            .max_turns(1)
            .assemble(SPECIALS);
        let s = first_action(&g, 1);
        assert_eq!(s.budget[0], budget, "under_crewed = {under}");
        assert_eq!(s.actions[0], msv_actions, "under_crewed = {under}");
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut s = g.new_state();
        let mut out = Outcome::new();
        play_battle(&g, &Audited(Greedy), &mut s, &mut rng, &mut out);
        assert_eq!(out.actions[0], budget[0] + budget[1], "actions given, under_crewed = {under}");
    }
    // The other side keeps its own: B under-crewed, A not.
    let g = TestBattle::skirmish(&cat, force, "Box").under_crewed(&[false, true]).max_turns(1).assemble(SPECIALS);
    assert_eq!(first_action(&g, 1).budget[0], [4, 1]);
}

#[test]
fn budgets_hold_with_group_actions_and_tramples_under_every_policy() {
    let cat = catalogue(SQUAD_CATALOGUE);
    let g = TestBattle::skirmish(&cat, "Stomper+3*Gun Trooper", "Two-Gun Stomper+3*Gun Trooper+2*Unarmed Crew")
        .max_turns(6)
        .assemble(SPECIALS);
    use std::sync::atomic::{AtomicBool, Ordering};
    /// Records which of Rallied Attack, Rallied Assault and trample were chosen.
    struct Spy<'a, P>(P, &'a [AtomicBool; 3]);
    impl<P: BattlePolicy<TcGame>> BattlePolicy<TcGame> for Spy<'_, P> {
        fn choose(
            &self,
            g: &TcGame,
            s: &State,
            side: usize,
            phase: usize,
            rng: &mut Xoshiro256PlusPlus,
        ) -> Option<Action> {
            let a = self.0.choose(g, s, side, phase, rng);
            match a {
                Some(Action::RallyAttack { .. }) => self.1[0].store(true, Ordering::Relaxed),
                Some(Action::Assault { .. }) => self.1[1].store(true, Ordering::Relaxed),
                Some(Action::Trample { .. }) => self.1[2].store(true, Ordering::Relaxed),
                _ => {}
            }
            a
        }
    }
    let seen = [AtomicBool::new(false), AtomicBool::new(false), AtomicBool::new(false)];
    for (policy, seed) in EVERY_POLICY {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut s = g.new_state();
        let mut out = Outcome::new();
        for _ in 0..2_000 {
            play_battle(&g, &Audited(Spy(policy, &seen)), &mut s, &mut rng, &mut out);
        }
    }
    assert!(seen.iter().all(|b| b.load(Ordering::Relaxed)), "every new action is played by some policy: {seen:?}");
}

#[test]
fn the_compiled_rallied_attack_scores_are_the_member_by_member_ones() {
    // Built-in catalogue: the common case read from the compiled table equals the
    // convolution step by step, bit for bit, at every target and life.
    let cat = embedded();
    let (a, b) = ("Stingray Standard+3*ECBS Pirate AT", "Gladiator Lancer+2*ECBS Pirate AT");
    let g = TestBattle::skirmish(&cat, a, b).options(Options::default()).max_turns(10).assemble(&[]);
    let mut s = first_action(&g, 1);
    let mut compared = 0;
    // Members out of the red, in it (3 life) and eliminated but still acting until
    // removal (-4 life, in the red too): every combination of the first members.
    for red in 0..8u32 {
        for side in 0..2 {
            for (i, &m) in g.groups[side].iter().enumerate() {
                s.life[m as usize] = match (red >> i.min(3)) & 1 {
                    0 => 20,
                    _ if i % 2 == 0 => 3,
                    _ => -4,
                };
                s.stand(m as usize);
            }
        }
        for side in 0..2 {
            for &t in &g.enemies[side] {
                if g.groups[side ^ 1].contains(&t) {
                    continue; // a member's life is the combination's
                }
                for life in 1..=20 {
                    s.life[t as usize] = life;
                    s.stand(t as usize);
                    let fast = g.common_case(&s, side, t as usize, life as usize);
                    assert!(fast.is_some(), "the compiled case holds for combination {red}");
                    let score = g.rally_attack_score(&s, side, t as usize);
                    let exact = g.rally_attack_exact(&s, side, t as usize);
                    assert_eq!(score.map(f32::to_bits), exact.map(f32::to_bits), "combination {red}");
                    compared += score.is_some() as u32;
                }
                s.life[t as usize] = 20;
                s.stand(t as usize);
            }
        }
    }
    assert!(compared > 100, "{compared}");
}

#[test]
fn the_compiled_rallied_attack_covers_members_with_spent_systems() {
    // A member whose best system is spent (a return attack fired it, say) fires its
    // second, or nothing: the compiled table holds these for the first CHOICE_MEMBERS
    // members of a group of at most CHOICE_GROUP, bit for bit the convolution; a later
    // member with its best spent, any member of a larger group with its best spent, or a
    // member with a third system ready, is scored member by member.
    let cat = embedded();
    let (mut compared, mut spent_in_case, mut left_out) = (0, 0, 0);
    for (a, b) in [
        ("Stingray Standard+3*ECBS Pirate AT", "Gladiator Lancer+2*ECBS Pirate AT"),
        ("Stingray Standard+4*ECBS Pirate AT", "Gladiator Lancer+2*ECBS Pirate AT"),
    ] {
        let g = TestBattle::skirmish(&cat, a, b).options(Options::default()).max_turns(10).assemble(&[]);
        let mut s = first_action(&g, 1);
        // Two bits per member: the ECBS Rifle and Rocket used this turn, for the first two
        // members of each group and the same two for every later member, in and out of
        // the red.
        for spent in 0..64u32 {
            for red in [0u32, 0b101] {
                for side in 0..2 {
                    for (i, &m) in g.groups[side].iter().enumerate() {
                        let m = m as usize;
                        s.used[m] = spent >> (2 * i.min(2)) & 3;
                        s.life[m] = if (red >> i.min(3)) & 1 == 0 { 20 } else { 3 };
                        s.stand(m);
                    }
                }
                for side in 0..2 {
                    for &t in &g.enemies[side] {
                        if g.groups[side ^ 1].contains(&t) {
                            continue;
                        }
                        for life in 1..=20 {
                            s.life[t as usize] = life;
                            s.stand(t as usize);
                            let fast = g.common_case(&s, side, t as usize, life as usize);
                            let score = g.rally_attack_score(&s, side, t as usize);
                            let exact = g.rally_attack_exact(&s, side, t as usize);
                            assert_eq!(
                                score.map(f32::to_bits),
                                exact.map(f32::to_bits),
                                "spent {spent:06b}, red {red:b}, side {side}, target {t} at {life}: {fast:?}"
                            );
                            // With only the first two members' systems spent, in a group of
                            // at most three, the case holds; in a larger group only with
                            // nothing spent.
                            let size = g.groups[side].len();
                            let first_two = size <= 3 && (spent < 16 || size < 3);
                            if first_two || spent == 0 {
                                assert!(fast.is_some(), "spent {spent:06b}, side {side}, target {t} at {life}");
                            }
                            if size > 3 && spent != 0 {
                                assert!(fast.is_none() || every_best_ready(&g, &s, side, t as usize, life));
                            }
                            spent_in_case += (fast.is_some() && spent != 0 && first_two) as u32;
                            left_out += fast.is_none() as u32;
                            compared += score.is_some() as u32;
                        }
                        s.life[t as usize] = 20;
                        s.stand(t as usize);
                    }
                }
            }
        }
    }
    assert!(compared > 2000 && spent_in_case > 500 && left_out > 1000, "{compared} {spent_in_case} {left_out}");
}

/// Whether every member of `side`'s group still has its best system at `t` (at `life`)
/// ready: then the compiled case holds whatever else is spent.
fn every_best_ready(g: &TcGame, s: &State, side: usize, t: usize, life: i32) -> bool {
    g.groups[side].iter().all(|&m| {
        let m = m as usize;
        match g.best_system_from(
            &g.tables,
            &State { used: [0; crate::engine::battle::MAX_UNITS], ..s.clone() },
            m,
            t,
            life,
        ) {
            Some((best, _)) => g.ready_systems(s, m) & (1 << best) != 0,
            None => true,
        }
    })
}
