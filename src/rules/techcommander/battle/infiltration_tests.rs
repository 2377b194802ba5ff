//! Infiltration and scanning against hand-computed vectors (techcommander-battles.md
//! §2.4, §5 row "scan").

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use super::super::game::{Action, TcGame};
use super::super::test_support::{TestBattle, assert_consistent, catalogue, options, parse_catalogue, tally};
use crate::engine::battle::{BattleRules, Outcome};
use crate::rules::techcommander::conditions::{Conditions, Cover, Movement};
use crate::rules::techcommander::options::Options;

/// A 1-shot 20-damage gun (T 11 against AC1 at any range up to 100), troopers with and
/// without a cloak (infiltration gear), a cloaked unarmed trooper, MSVs and a vehicle of
/// speed 12 (they reach a scan at range 12), and a fort the gun barely scratches.
const CATALOGUE: &str = r#"
[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 100
weight = 1
power = 0

[[weapon]]
name = "Blank"              # never hits at range 6 or more: T drops by 20 per inch past 0
damage = 1
shots = 1
fire_control = 0
opt = 0
drop = 20
weight = 1
power = 0

[[gear]]
name = "Cloak"
weight = 0
power = 0
infiltration = true

[[gear]]
name = "Scanner"
weight = 0
power = 0
scan_bonus = 2

[[unit]]
name = "Trooper"
kind = "troop"
ac = 1

[[unit]]
name = "Walker"
kind = "msv"
ac = 4
speed = 12
free_weight = 20
free_power = 20

[[unit]]
name = "Scout Car"
kind = "vehicle"
ac = 3
speed = 12

[[unit]]
name = "Fort"
kind = "vehicle"
ac = 10

[[build]]
name = "Sneak"
unit = "Trooper"
weapons = [{ name = "Blank" }]
gear = ["Cloak"]

[[build]]
name = "Sneak Gunner"
unit = "Trooper"
weapons = [{ name = "Gun" }]
gear = ["Cloak"]

[[build]]
name = "Gun Trooper"
unit = "Trooper"
weapons = [{ name = "Gun" }]

[[build]]
name = "Gun Walker"
unit = "Walker"
weapons = [{ name = "Gun" }]

[[build]]
name = "Scanner Walker"
unit = "Walker"
weapons = [{ name = "Gun" }]
gear = ["Scanner"]

[[build]]
name = "Scout Car"
unit = "Scout Car"
weapons = [{ name = "Gun" }]

[[build]]
name = "Fort"
unit = "Fort"
weapons = [{ name = "Blank" }]
"#;

#[test]
fn infiltration_gear_is_for_troops_and_crew_only() {
    let bad = format!(
        "{CATALOGUE}\n[[build]]\nname = \"Cloaked Car\"\nunit = \"Scout Car\"\nweapons = [{{ name = \"Gun\" }}]\ngear = [\"Cloak\"]\n\n[[unit]]\nname = \"Cloaked Walker\"\nkind = \"msv\"\nac = 4\nfree_weight = 20\nfree_power = 20\nstandard_gear = [\"Cloak\"]\n"
    );
    let e = parse_catalogue(&bad).unwrap_err();
    assert!(e.contains("build \"Cloaked Car\": field `gear[0]`") && e.contains("infiltration system"), "{e}");
    assert!(e.contains("unit \"Cloaked Walker\": field `standard_gear[0]`"), "{e}");
}

#[test]
fn scan_numbers_follow_edition_cover_gear_and_reach() {
    let cat = catalogue(CATALOGUE);
    let number = |build: &str, cond: Conditions, o: &Options| {
        let k = TestBattle::skirmish(&cat, build, "Sneak").options(*o).conditions(cond).max_turns(1).kernel();
        k.game().infiltration.scan_number[0]
    };
    let at12 = Conditions::at_range(12.0);
    let half = Conditions { cover: Cover::Half, ..at12 };
    // 3rd edition: 12 whatever the cover, + 2 with the scanner gear.
    assert_eq!(number("Gun Walker", at12, &options()), 12);
    assert_eq!(number("Gun Walker", half, &options()), 12);
    assert_eq!(number("Scanner Walker", half, &options()), 14);
    // 2nd edition: 12 − 2 for 50% cover = 10 (P = 10/20), + gear.
    let second = Options { edition: 2, ..options() };
    assert_eq!(number("Gun Walker", half, &second), 10);
    assert_eq!(number("Scanner Walker", half, &second), 12);
    // Out of reach (speed 12 < range 13), a unit of speed 0, or SCANNING off: no scan.
    assert_eq!(number("Gun Walker", Conditions::at_range(13.0), &options()), 0);
    assert_eq!(number("Gun Trooper", at12, &options()), 0);
    assert_eq!(number("Gun Walker", at12, &Options { scanning: false, ..options() }), 0);
}

#[test]
fn an_infiltrated_unit_cannot_be_targeted_and_never_acting_is_never_found() {
    // The cloaked trooper never acts (its gun cannot hit): without a scan nobody may
    // target it, so the vehicle never wins; with INFILTRATION off it does.
    let cat = catalogue(CATALOGUE);
    let o = Options { scanning: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Scout Car", "Sneak").options(o).max_turns(3).kernel();
    let t = tally(&k, 20_000, 1);
    assert_eq!(t.wins[0], 0, "an infiltrated unit was shot");
    let off = Options { infiltration: false, ..o };
    let k = TestBattle::skirmish(&cat, "Scout Car", "Sneak").options(off).max_turns(3).kernel();
    let t = tally(&k, 20_000, 1);
    // One action a turn. The shot (T 11 against AC1, 20 damage) scores 11/20; the
    // overrun (`OVERRUN_FIRE`) scores 8/20 × 14/20 = .28 (a failed dodge, then 3 × d20 ≥
    // 20) plus its fire at the auto-stabilized −1 (T 10): .5, so .78: it overruns.
    // P(decided by turn 1) = .28 + .72 × 1/2 = 16/25.
    assert_consistent(t.decided_by_turn()[0], 20_000, 16.0 / 25.0, "INFILTRATION=false");
}

#[test]
fn an_msv_scans_and_fires_in_one_player_action() {
    // 3rd edition: a scan d20 <= 12 reveals, then the MSV's other action: the shot (T 11)
    // scores 11/20; the overrun 8/20 × 16/20 = .32 (4 × d20 ≥ 20) plus its fire at the
    // full-move −4 (T 7): .35, so .67: it overruns (`OVERRUN_FIRE`), and kills with
    // .32 + .68 × 7/20 = 279/500. P(the sneak dies in turn 1) = 12/20 × 279/500 = 837/2500.
    let cat = catalogue(CATALOGUE);
    let at12 = Conditions::at_range(12.0);
    let n = 100_000;
    let k = TestBattle::skirmish(&cat, "Gun Walker", "Sneak").conditions(at12).max_turns(2).kernel();
    let t = tally(&k, n, 2);
    assert_consistent(t.decided_by_turn()[0], n as u64, 837.0 / 2500.0, "3rd edition scan");
    // Scanner gear +2: 14/20 × 279/500 = 1953/5000.
    let k = TestBattle::skirmish(&cat, "Scanner Walker", "Sneak").conditions(at12).max_turns(2).kernel();
    let t = tally(&k, n, 3);
    assert_consistent(t.decided_by_turn()[0], n as u64, 1953.0 / 5000.0, "scan bonus");
    // 2nd edition, 50% cover: the scan number is 10 (10/20), the shot's T 11 − 2 = 9
    // (score .45); the overrun ignores cover (.32) and its fire takes it (T 5: .25), so
    // .57: it overruns and kills with .32 + .68 × 5/20 = .49. 10/20 × .49 = 49/200.
    let half = Conditions { cover: Cover::Half, ..at12 };
    let k = TestBattle::skirmish(&cat, "Gun Walker", "Sneak")
        .options(Options { edition: 2, ..options() })
        .conditions(half)
        .max_turns(2)
        .kernel();
    let t = tally(&k, n, 4);
    assert_consistent(t.decided_by_turn()[0], n as u64, 49.0 / 200.0, "2nd edition scan in 50% cover");
    // Without scanning the MSV never finds it.
    let k = TestBattle::skirmish(&cat, "Gun Walker", "Sneak")
        .options(Options { scanning: false, ..options() })
        .conditions(at12)
        .max_turns(2)
        .kernel();
    let t = tally(&k, 20_000, 5);
    assert_eq!(t.wins[0], 0);
}

#[test]
fn a_vehicle_scan_spends_its_only_action() {
    // A vehicle's scan is its action: the revealed sneak re-infiltrates at Reset before
    // the vehicle can fire again, so it never wins (and the policy still scans rather
    // than pass: nothing else scores).
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Scout Car", "Sneak").max_turns(3).kernel();
    let t = tally(&k, 20_000, 6);
    assert_eq!(t.wins[0], 0);
}

#[test]
fn close_troops_not_moving_full_ignore_infiltration() {
    // A trooper at range 6, stationary: sees the sneak and kills it with P 11/20 a turn.
    let cat = catalogue(CATALOGUE);
    let n = 50_000;
    let at6 = Conditions::at_range(6.0);
    let k = TestBattle::skirmish(&cat, "Gun Trooper", "Sneak").conditions(at6).max_turns(1).kernel();
    let t = tally(&k, n, 7);
    assert_consistent(t.decided_by_turn()[0], n as u64, 11.0 / 20.0, "range 6");
    // At range 7, or moving full at range 6: never.
    let k =
        TestBattle::skirmish(&cat, "Gun Trooper", "Sneak").conditions(Conditions::at_range(7.0)).max_turns(3).kernel();
    let t = tally(&k, 20_000, 8);
    assert_eq!(t.wins[0], 0, "range 7");
    let full = Conditions { movement: Movement::Full, ..at6 };
    let k = TestBattle::skirmish(&cat, "Gun Trooper", "Sneak").conditions(full).max_turns(3).kernel();
    let t = tally(&k, 20_000, 9);
    assert_eq!(t.wins[0], 0, "moving full");
    // A vehicle at range 6 does not see through (only troop and crew).
    let no_scan = Options { scanning: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Scout Car", "Sneak").options(no_scan).conditions(at6).max_turns(3).kernel();
    assert_eq!(tally(&k, 20_000, 10).wins[0], 0, "a vehicle");
    // Nor does an MSV, but its trample (half speed 6 reaches range 6) crosses a rallied
    // group "regardless of infiltration" (3rd edition "Trample").
    let k = TestBattle::skirmish(&cat, "Gun Walker", "Sneak").options(no_scan).conditions(at6).max_turns(3).kernel();
    assert!(tally(&k, 20_000, 10).wins[0] > 0, "an MSV tramples");
}

#[test]
fn a_close_rallied_group_attacks_and_assaults_infiltrated_enemies() {
    // Two troopers at range 6, stationary, see the sneaks, so their group may target
    // them: a Rallied Attack at the first sneak kills it unless both miss, 1 − (9/20)²,
    // scored (V = 1) 0.7975 + 0.25 × 20 × 0.7975 / 20; a Rallied Assault walks both.
    let cat = catalogue(CATALOGUE);
    let at6 = Conditions::at_range(6.0);
    let k = TestBattle::skirmish(&cat, "2*Gun Trooper", "2*Sneak").conditions(at6).max_turns(1).kernel();
    let g = k.game();
    assert_eq!(g.infiltration.group_sees[..2], [true, true], "troops both sides, range 6");
    let s = super::super::test_support::first_action(g, 11);
    assert!(s.hidden[2] && s.hidden[3], "both sneaks infiltrated");
    let kill = 1.0 - (9.0f64 / 20.0).powi(2);
    let (t, score) = g.best_rally_attack(&s, 0, false).expect("a Rallied Attack at a sneak");
    assert_eq!(t, 2);
    assert!((score as f64 - 1.25 * kill).abs() < 1e-6, "{score}");
    assert!(g.best_assault(&s, 0, false).is_some(), "a Rallied Assault through the sneaks");
    let mut choices = Vec::new();
    g.rally_choices(&s, 0, |a| {
        choices.push(a);
        false
    });
    assert!(choices.contains(&Action::RallyAttack { target: 2 }) && choices.contains(&Action::Assault { side: 1 }));
    // At range 7 they do not see them: no group action at them.
    let k = TestBattle::skirmish(&cat, "2*Gun Trooper", "2*Sneak")
        .conditions(Conditions::at_range(7.0))
        .max_turns(1)
        .kernel();
    let g = k.game();
    let s = super::super::test_support::first_action(g, 11);
    assert_eq!(g.best_rally_attack(&s, 0, false), None);
    assert_eq!(g.best_assault(&s, 0, false), None);
}

/// Drives `g` by hand: the cloaked gunner (slot 1) attacks the fort (slot 0) `k` times
/// in one turn with side `last` last in initiative; returns whether it is still hidden.
fn hidden_after(g: &TcGame, k: usize, last: u8, rng: &mut Xoshiro256PlusPlus) -> bool {
    let mut s = g.new_state();
    let mut out = Outcome::new();
    g.begin_battle(&mut s, rng);
    s.last_side = last;
    s.left = [100; crate::engine::battle::MAX_SIDES];
    assert!(s.hidden[1] && !s.hidden[0]);
    for _ in 0..k {
        s.actions[1] = 1;
        s.used[1] = 0;
        g.act(&mut s, 1, Action::Attack { actor: 1, system: 0, target: 0 }, rng, &mut out);
    }
    s.hidden[1]
}

#[test]
fn stealth_rolls_reveal_with_one_half_per_action_unless_last_in_initiative() {
    let cat = catalogue(CATALOGUE);
    let o = Options { rally_at_deploy: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Fort", "Sneak Gunner").options(o).max_turns(1).kernel();
    let g = k.game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
    let n = 40_000u64;
    // Not last: P(still hidden after k actions) = (10/20)^k.
    for (k, p) in [(1, 0.5), (2, 0.25), (3, 0.125)] {
        let hidden = (0..n).filter(|_| hidden_after(g, k, 0, &mut rng)).count() as u64;
        assert_consistent(hidden, n, p, &format!("hidden after {k} actions"));
    }
    // Last in initiative: infiltration kept.
    assert!((0..1000).all(|_| hidden_after(g, 3, 1, &mut rng)));
    // STEALTH_TARGET=20: never revealed; 0: revealed at once.
    let sure = TestBattle::skirmish(&cat, "Fort", "Sneak Gunner")
        .options(Options { stealth_target: 20, ..o })
        .max_turns(1)
        .kernel();
    assert!((0..1000).all(|_| hidden_after(sure.game(), 3, 0, &mut rng)));
    let none = TestBattle::skirmish(&cat, "Fort", "Sneak Gunner")
        .options(Options { stealth_target: 0, ..o })
        .max_turns(1)
        .kernel();
    assert!((0..1000).all(|_| !hidden_after(none.game(), 1, 0, &mut rng)));
}

#[test]
fn revealed_units_re_infiltrate_at_reset() {
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Fort", "Sneak Gunner").max_turns(5).kernel();
    let g = k.game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
    let mut s = g.new_state();
    let mut out = Outcome::new();
    g.begin_battle(&mut s, &mut rng);
    assert!(s.hidden[1] && !g.targetable(&s, 1), "infiltrated when deployed");
    s.hidden[1] = false;
    assert!(g.targetable(&s, 1));
    assert_eq!(g.end_turn(&mut s, 0, &mut rng, &mut out), None);
    assert!(s.hidden[1] && !g.targetable(&s, 1), "re-infiltrated at Reset");
}

#[test]
fn without_infiltration_gear_nothing_changes() {
    // A force without the gear: no unit infiltrates and no hook runs.
    let cat = catalogue(CATALOGUE);
    let k = TestBattle::skirmish(&cat, "Gun Walker", "Gun Trooper").max_turns(5).kernel();
    assert!(!k.game().infiltration.any);
}

/// 2nd edition "Scanning": "roll a single D20 and compare the roll to the needed value
/// to scan each figure in range". Two infiltrated figures in the same (scenario) cover
/// are revealed together or not at all, on P = 12/20 in the open.
#[test]
fn a_second_edition_scan_rolls_one_d20_for_every_figure() {
    let cat = catalogue(CATALOGUE);
    for edition in [2, 3] {
        let o = Options { edition, ..options() };
        let k = TestBattle::skirmish(&cat, "Gun Walker", "2*Sneak").options(o).max_turns(1).kernel();
        let g = k.game();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(13);
        let n = 20_000u64;
        let (mut both, mut one) = (0u64, 0u64);
        for _ in 0..n {
            let mut s = g.new_state();
            g.begin_battle(&mut s, &mut rng);
            assert!(s.hidden[1] && s.hidden[2]);
            s.actions[0] = 1;
            g.scan(&mut s, 0, &mut rng);
            match (s.hidden[1], s.hidden[2]) {
                (false, false) => both += 1,
                (true, true) => {}
                _ => one += 1,
            }
        }
        assert_eq!(one, 0, "EDITION={edition}: a single scan d20 never reveals one figure of two");
        assert_consistent(both, n, 12.0 / 20.0, &format!("EDITION={edition}: both revealed"));
    }
}

/// Kernel §4 (rules "In the red: jury rig"): a failed jury rig means that, for that
/// action, the unit "is revealed". The cloaked gunner at 5 life, its side last in
/// initiative (so no stealth roll), stays hidden only when its rig passes: d20 ≤ 10,
/// P = 10/20. Out of the red it always stays hidden.
#[test]
fn a_failed_jury_rig_reveals_an_infiltrated_unit() {
    let cat = catalogue(CATALOGUE);
    let o = Options { rally_at_deploy: false, ..options() };
    let k = TestBattle::skirmish(&cat, "Fort", "Sneak Gunner").options(o).max_turns(1).kernel();
    let g = k.game();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(14);
    let n = 20_000u64;
    let act = |life: i32, rng: &mut Xoshiro256PlusPlus| {
        let mut s = g.new_state();
        let mut out = Outcome::new();
        g.begin_battle(&mut s, rng);
        s.last_side = 1;
        s.left = [100; crate::engine::battle::MAX_SIDES];
        s.life[1] = life;
        s.stand(1);
        s.actions[1] = 1;
        g.act(&mut s, 1, Action::Attack { actor: 1, system: 0, target: 0 }, rng, &mut out);
        s.hidden[1]
    };
    let hidden = (0..n).filter(|_| act(5, &mut rng)).count() as u64;
    assert_consistent(hidden, n, 0.5, "in the red: hidden after one action");
    assert!((0..1000).all(|_| act(6, &mut rng)), "out of the red: no jury rig, still hidden");
}
