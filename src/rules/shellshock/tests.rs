//! The test vectors of shellshock.md §7, exactly (to 1e-12) where the document gives
//! fractions, to its printed digits where it gives decimals.

use super::attack_run::AttackRun;
use super::catalogue::Catalogue;
use super::chart::{hits_by_item, mark, p_sympathetic};
use super::conditions::Conditions;
use super::damage::{Defence, InternalBox};
use super::duel::DuelKernel;
use super::gunner::{defence, plans};
use super::odds::GunnerOdds;
use super::options::Options;
use super::roll::{Dice, RollLaw, required_depth};
use crate::catalogue::source::SourceFile;

/// A catalogue for the vectors: the book's 30mm Machine Gun and its example weapons.
pub(super) const VECTORS: &str = r#"
[[weapon]]
name = "30mm Machine Gun"
type = "SA"
damage = 3
shock = 2
penetration = 2
spreadfire = true
range = 60

[[weapon]]
name = "Two-Dice Gun"
type = "B"
damage = 2
range = 60

[[weapon]]
name = "Six Four Three"
type = "E"
damage = 6
shock = 4
penetration = 3
range = 60

[[weapon]]
name = "Four One Eight"
type = "B"
damage = 4
shock = 1
penetration = 8
range = 60

[[weapon]]
name = "MG 5/4/2"
type = "SA"
damage = 5
shock = 4
penetration = 2
spreadfire = true
range = 60

[[weapon]]
name = "MG 3/2/2"
type = "SA"
damage = 3
shock = 2
penetration = 2
spreadfire = true
range = 60

[[weapon]]
name = "Laser"
type = "E"
damage = 10
spreadfire = true
range = 60

[[chart]]
name = "plain"
lines = "ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ ABCDEFGHIJ"
equipment = [
  { letter = "A", name = "Crew" }, { letter = "B", name = "Flywheel engine", kind = "engine", hits = 3 },
  { letter = "C", name = "Battery" }, { letter = "D", name = "120mm Cannon", kind = "weapon" },
  { letter = "E", name = "Turbine", kind = "engine", hits = 2 }, { letter = "F", name = "Fuel", kind = "fuel" },
  { letter = "G", name = "Ammo", kind = "ammo" }, { letter = "H", name = "Treads", kind = "locomotion" },
  { letter = "I", name = "Radio" }, { letter = "J", name = "Sensors" },
]

[[unit]]
name = "Vector Tank"
era = "future"
defense = { B = 12, M = 10, E = 8, I = 10, SA = 11, P = 14 }
armor = { front = 20, side = 14, rear = 10 }
shock_threshold = 6
penetration_factor = 6
dead_at = 18
internal = [{ from = 2, percent = 5, hits = 1 }, { from = 5, percent = 10, hits = 1 }, { from = 8, percent = 20, hits = 2 }, { from = 13, percent = 30, hits = 3 }]
chart = "plain"
gunners = [{ skill = 0, weapons = ["30mm Machine Gun"] }]
ecv = 100

[[unit]]
name = "Soft Target"
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
name = "Pair Gunner"
era = "future"
defense = { B = 12, M = 10, E = 8, I = 10, SA = 24, P = 14 }
armor = { front = 20, side = 14, rear = 10 }
shock_threshold = 6
penetration_factor = 6
dead_at = 18
chart = "plain"
gunners = [{ weapons = ["Six Four Three", "Four One Eight"] }, { weapons = ["MG 5/4/2", "MG 5/4/2 b"] }]
ecv = 120

[[weapon]]
name = "MG 5/4/2 b"
type = "SA"
damage = 5
shock = 4
penetration = 2
spreadfire = true
range = 60

[[unit]]
name = "Paper Target"
era = "modern"
defense = { B = 9, M = 9, E = 9, I = 9, SA = 9, P = 9 }
armor = { front = 4, side = 2, rear = 0 }
shock_threshold = 3
penetration_factor = 3
dead_at = 100
internal = [{ from = 1, percent = 49, hits = 1 }]
chart = "plain"
gunners = [{ skill = 1, weapons = ["MG 3/2/2"] }]
ecv = 30

[[unit]]
name = "Spreader"
era = "ww2"
defense = { B = 12, M = 10, E = 8, I = 10, SA = 24, P = 14 }
armor = { front = 20, side = 14, rear = 10 }
shock_threshold = 6
penetration_factor = 6
dead_at = 18
chart = "plain"
gunners = [{ weapons = ["MG 3/2/2", "Laser"] }]
ecv = 80
"#;

pub(super) fn catalogue() -> Catalogue {
    Catalogue::from_read("vectors", &[SourceFile { name: "vectors.toml".into(), text: VECTORS.into() }], Vec::new())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn close(x: f64, y: f64, what: &str) {
    assert!((x - y).abs() < 1e-12, "{what}: {x} != {y}");
}

fn law(dice: Dice, spread: u32, max_t: i64) -> RollLaw {
    RollLaw::new(dice, spread, required_depth(max_t), false, true)
}

#[test]
fn v1_v14_p_hit_of_every_tn_and_dice() {
    let tns = [5, 8, 10, 12, 14, 16, 20, 24, 30];
    let expect: [(Dice, [f64; 9]); 3] = [
        (
            Dice::TwoD10,
            [
                47. / 50.,
                79. / 100.,
                16. / 25.,
                47. / 100.,
                167. / 500.,
                23. / 100.,
                59. / 500.,
                287. / 5000.,
                13. / 625.,
            ],
        ),
        (
            Dice::D10D8,
            [37. / 40., 59. / 80., 11. / 20., 29. / 80., 177. / 800., 1. / 8., 11. / 200., 177. / 8000., 11. / 2000.],
        ),
        (
            Dice::D10D6,
            [9. / 10., 13. / 20., 9. / 20., 4. / 15., 29. / 200., 1. / 12., 9. / 200., 29. / 2000., 9. / 2000.],
        ),
    ];
    for (dice, ps) in expect {
        let l = law(dice, 0, 30);
        for (tn, p) in tns.iter().zip(ps) {
            close(l.p_hit(*tn, 0), p, &format!("{} TN {tn}", dice.name()));
        }
    }
}

#[test]
fn v1_roll_flags_of_each_dice() {
    for (dice, miss, nat, doubled, destroyed) in [
        (Dice::TwoD10, 6. / 100., 1. / 100., 28. / 1000., 1. / 10000.),
        (Dice::D10D8, 3. / 40., 0.0, 1. / 100., 0.0),
        (Dice::D10D6, 1. / 10., 0.0, 1. / 100., 0.0),
    ] {
        let l = law(dice, 0, 12);
        close(l.p_auto_miss, miss, "auto-miss");
        close(l.p_natural_20(), nat, "natural 20");
        close(l.p_doubled(), doubled, "doubled");
        close(l.p_second_20, destroyed, "second 20");
    }
}

#[test]
fn v9_v10_v11_hand_computed_hits() {
    let l = law(Dice::TwoD10, 0, 21);
    close(l.p_hit(11, 0), 11. / 20., "TN 11");
    close(l.p_hit(21, 0), 1. / 10., "TN 21");
    close(law(Dice::D10D6, 0, 12).p_hit(12, 0), 4. / 15., "d10+d6 TN 12");
    // an immobile target at range < 12: TN 0
    close(l.p_hit(0, 0), 94. / 100., "immobile 2d10");
    close(law(Dice::D10D6, 0, 0).p_hit(0, 0), 9. / 10., "immobile d10+d6");
    let l = law(Dice::TwoD10, 0, 15);
    close(l.p_hit(15, 2), 199. / 500., "Gunnery 2 at TN 15");
    close(l.p_hit(13, 0), 199. / 500., "TN 13");
    close(l.p_hit(15, 0), 139. / 500., "TN 15");
    close(law(Dice::TwoD10, 1, 15).p_hit(15, 0), 389. / 750., "one spreadfire d6 at TN 15");
}

#[test]
fn v12_one_roll_against_two_weapons_is_correlated() {
    let l = law(Dice::TwoD10, 0, 12);
    let (classes, second) = l.hit_classes(&[8, 12], 0);
    let p = |k: usize| classes.iter().filter(|c| c.0 == k).map(|c| c.2).sum::<f64>();
    close(p(2) + second, 47. / 100., "both");
    close(p(1), 32. / 100., "E only");
    assert!((p(2) + second - 0.79 * 0.47).abs() > 0.08, "not the independent product");
}

#[test]
fn v1_a_roll_of_10_hits_energy_8_not_ballistic_12() {
    // The mass of the dice total 10 (no flags) falls in the class "first weapon only".
    let l = law(Dice::TwoD10, 0, 12);
    let only_10 = RollLaw {
        p_auto_miss: 0.0,
        p_nat20: [0.0; 4],
        p_second_20: 0.0,
        normal: [(0..=10).map(|t| if t == 10 { 1.0 } else { 0.0 }).collect(), vec![], vec![], vec![]],
        ..l
    };
    let (classes, _) = only_10.hit_classes(&[8, 12], 0);
    assert_eq!(classes, vec![(1, 0, 1.0)], "the energy weapon (TN 8) hits, the ballistic one (TN 12) misses");
}

#[test]
fn v2_v3_pools_and_spreadfire() {
    let cat = catalogue();
    let (o, c) = (Options::default(), Conditions::default());
    let pair = cat.unit("Pair Gunner").unwrap();
    let ps = plans(&cat, pair, cat.unit("Vector Tank").unwrap(), &c, &o);
    assert_eq!(*ps[0].pools.last().unwrap(), [10, 5, 11], "6/4/3 + 4/1/8");
    let mut o1 = Options::default();
    o1.set("SPREAD", "1").unwrap();
    let ps = plans(&cat, pair, cat.unit("Vector Tank").unwrap(), &c, &o1);
    assert_eq!(ps[0].spread, 0, "the 6/4/3 cannot spread: that gunner fires at level 0");
    assert_eq!(ps[1].spread, 1);
    assert!(ps[1].weapons.iter().all(|w| w.dice == [4, 3, 1]));
    o1.set("SPREAD", "2").unwrap();
    let ps = plans(&cat, pair, cat.unit("Vector Tank").unwrap(), &c, &o1);
    assert!(ps[1].weapons.iter().all(|w| w.dice == [3, 2, 0]));
    let spreader = cat.unit("Spreader").unwrap();
    let ps = plans(&cat, spreader, cat.unit("Vector Tank").unwrap(), &c, &o1);
    assert_eq!(*ps[0].pools.last().unwrap(), [8 + 1, 0, 0], "level 2 with one 3/2/2 MG and the laser");
    o1.set("SPREAD", "3").unwrap();
    let ps = plans(&cat, spreader, cat.unit("Vector Tank").unwrap(), &c, &o1);
    assert_eq!(*ps[0].pools.last().unwrap(), [7, 0, 0], "level 3: the MG adds nothing, the laser 7");
}

#[test]
fn v4_v5_boxes_lines_and_marking() {
    let def = Defence {
        armour: 0,
        shock_threshold: 6,
        penetration_factor: 6,
        dead_at: 18,
        boxes: vec![
            InternalBox { from: 2, percent: 5, hits: 1 },
            InternalBox { from: 8, percent: 20, hits: 2 },
            InternalBox { from: 13, percent: 30, hits: 3 },
        ],
    };
    assert_eq!(def.internal(9), super::damage::Internal::Lines(21));
    assert_eq!(def.internal(1), super::damage::Internal::Lines(1), "a Core Hit");
    assert_eq!(def.internal(18), super::damage::Internal::Dead);
    let mut marked = [false; 100];
    let lines = mark(&mut marked, 37, 21);
    assert_eq!(lines, (37..=57).collect::<Vec<_>>());
    // the book's letters: C engine (Flywheel 3), J battery, L cannon, each hit once per range
    let chart: Vec<char> = (0..100)
        .map(|i| {
            if i == 40 {
                'C'
            } else if i == 45 {
                'J'
            } else if i == 50 {
                'L'
            } else {
                'x'
            }
        })
        .collect();
    let hits = hits_by_item(&chart, &lines, 2);
    assert!(hits.contains(&('C', 2)) && hits.contains(&('J', 2)) && hits.contains(&('L', 2)));
    let mut marked = [false; 100];
    for l in 25..=50 {
        marked[l - 1] = true;
    }
    let mut m2 = marked;
    let a: Vec<usize> = mark(&mut marked, 20, 11);
    assert_eq!(a, (20..=24).chain(51..=56).collect::<Vec<_>>());
    assert_eq!(mark(&mut m2, 40, 11), (51..=61).collect::<Vec<_>>());
    let mut full = [true; 100];
    full[2] = false;
    assert_eq!(mark(&mut full, 99, 5), vec![3], "wraps after 100 (CHART_WRAPS) and stops when full");
}

#[test]
fn v8_range_modifier_and_v13_internal_and_v17_sympathetic() {
    let o = Options::default();
    let c = Conditions { range: 60, ..Conditions::default() };
    assert_eq!(c.range_modifier(&o), 5);
    assert_eq!(Conditions { hull_down: true, ..c }.range_modifier(&o), 10);
    let def = Defence { armour: 10, shock_threshold: 6, penetration_factor: 6, dead_at: 30, boxes: vec![] };
    assert_eq!(def.resolve(10, 14, 9, 5), (0, 7));
    close(p_sympathetic(0, 0), 9. / 20., "sympathetic explosion");
}

#[test]
fn v15_attack_run_by_hand() {
    let cat = catalogue();
    let o = Options::default();
    let c = Conditions { range: 0, ..Conditions::default() };
    let run =
        AttackRun::new(&cat, cat.unit("Soft Target").unwrap(), cat.unit("Soft Target").unwrap(), &c, &o, 12).unwrap();
    assert_eq!(run.plans[0].weapons[0].target_number, 11);
    let e = run.exact();
    for (k, p) in e.p_kill_by_turn.iter().enumerate() {
        close(*p, 1.0 - (749.0f64 / 800.0).powi(k as i32 + 1), &format!("turn {}", k + 1));
    }
}

fn vector_16(o: &Options) -> AttackRun {
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    AttackRun::new(&cat, t, t, &Conditions::default(), o, 12).unwrap()
}

#[test]
fn v16_reference_attack_run() {
    let run = vector_16(&Options::default());
    assert_eq!(run.plans[0].weapons[0].target_number, 13);
    let e = run.exact();
    let expect = [
        0.016572, 0.036595, 0.064926, 0.102198, 0.148428, 0.203426, 0.266368, 0.335558, 0.408573, 0.482647, 0.555083,
        0.623590,
    ];
    for (k, (p, x)) in e.p_kill_by_turn.iter().zip(expect).enumerate() {
        assert!((p - x).abs() < 5e-7, "turn {}: {p} vs {x}", k + 1);
    }
    let g = GunnerOdds::new(&run.plans[0], &run.defence, Options::default().damage_dice());
    let want = [
        ("miss", 0.602),
        ("no internal", 0.0643),
        ("core", 0.0514),
        ("5%", 0.1517),
        ("10%", 0.0841),
        ("20%", 0.0248),
        ("30%", 0.0051),
        ("dead", 0.0166),
    ];
    for ((name, p), (wn, wp)) in g.results.iter().zip(want) {
        assert_eq!(name, wn);
        let digits = if wn == "miss" { 5e-4 } else { 5e-5 };
        assert!((p - wp).abs() <= digits, "{name}: {p} vs {wp}");
    }
    close(g.results.iter().map(|r| r.1).sum::<f64>(), 1.0, "results cover every roll");
}

#[test]
fn the_benchmarks_reference_run_is_vector_16() {
    let e = super::reference::vector_16(12).exact();
    assert!((e.p_kill_by_turn[11] - 0.623590).abs() < 5e-7, "{:?}", e.p_kill_by_turn);
    assert_eq!(e.p_kill_by_turn, vector_16(&Options::default()).exact().p_kill_by_turn);
}

#[test]
fn v16_mirror_duel() {
    let run = vector_16(&Options::default());
    let d = DuelKernel::new(run.clone(), run).unwrap().exact();
    assert!((d.p_a_wins - 0.4104).abs() < 5e-5, "{d:?}");
    assert!((d.p_b_wins - 0.4104).abs() < 5e-5, "{d:?}");
    assert!((d.p_draw() - 0.1792).abs() < 5e-5, "{d:?}");
}

#[test]
fn the_depth_cut_is_exact_for_the_tns_asked() {
    // A deeper cut changes nothing at or below 10(D+1)+2.
    for t in [5i64, 22, 32, 33, 52] {
        let d = required_depth(t);
        assert!(10 * (i64::from(d) + 1) + 2 >= t && d >= 1);
        let shallow = RollLaw::new(Dice::TwoD10, 0, d, false, true);
        let deep = RollLaw::new(Dice::TwoD10, 0, d + 5, false, true);
        for tn in 0..=t {
            close(shallow.p_hit(tn, 0), deep.p_hit(tn, 0), &format!("TN {tn} at depth {d}"));
        }
    }
    // ... and is not exact past it (the test can fail).
    let d1 = RollLaw::new(Dice::TwoD10, 0, 1, false, true);
    let deep = RollLaw::new(Dice::TwoD10, 0, 8, false, true);
    assert!((d1.p_hit(40, 0) - deep.p_hit(40, 0)).abs() > 1e-6);
    assert_eq!(required_depth(52), 4);
}

#[test]
fn defence_of_the_facing() {
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    for (f, a) in [(super::Facing::Front, 20), (super::Facing::Side, 14), (super::Facing::Rear, 10)] {
        assert_eq!(defence(t, &Conditions { facing: f, ..Conditions::default() }).armour, a);
    }
}

#[test]
fn the_shipped_catalogue_loads_with_what_issue_13_asks() {
    let cat = Catalogue::embedded().unwrap_or_else(|e| panic!("{e}"));
    assert!(cat.units.len() >= 6);
    for era in ["ww2", "modern", "future"] {
        assert!(!cat.select(&format!("era:{era}")).unwrap().is_empty(), "{era}");
    }
    assert!(cat.weapons.len() >= 10);
    for t in super::unit::DvType::ALL {
        assert!(cat.weapons.iter().any(|w| w.kind == t), "a weapon of type {}", t.name());
    }
    assert!(cat.charts.len() >= 2);
    let mg = cat.weapons.iter().find(|w| w.name == "30mm Machine Gun").unwrap();
    assert_eq!((mg.damage, mg.shock, mg.penetration, mg.range, mg.spreadfire), (3, 2, 2, 60, true));
}

#[test]
fn every_catalogue_error_is_reported_at_once_with_file_line_entry_and_field() {
    let text = r#"
[[weapon]]
name = "Gun"
type = "X"
damage = 3
range = 10

[[weapon]]
name = "Gun2"
type = "B"
damage = 99
range = 10
colour = "red"

[[chart]]
name = "short"
lines = "AAB"
equipment = [{ letter = "A", name = "Crew" }]

[[unit]]
name = "Bad"
era = "ww2"
to_hit_dice = "2d10"
defense = { B = 1, M = 1, E = 1, I = 1, SA = 1 }
armor = { front = 1, side = 1, rear = 1 }
shock_threshold = 1
penetration_factor = 1
dead_at = 5
internal = [{ from = 3, percent = 5, hits = 1 }, { from = 2, percent = 10, hits = 1 }]
chart = "shorty"
gunners = [{ weapons = ["Gunn"] }]

[[unit]]
name = "Bad"
era = "space"
"#;
    let err = Catalogue::from_read("t", &[SourceFile { name: "bad.toml".into(), text: text.into() }], Vec::new())
        .unwrap_err();
    let all = err.to_string();
    for needle in [
        "unknown dVT `X`",
        "must be between 0 and 40, got 99",
        "unknown key",
        "has 100 lines, got 3",
        "letters `B` are not in the equipment list",
        "ww2 units roll d10+d6, not 2d10",
        "defense.P`: missing required field",
        "internal[1].from",
        "unknown chart `shorty`",
        "unknown weapon `Gunn`",
        "every unit needs its printed ECV",
        "defined twice",
        "unknown era `space`",
    ] {
        assert!(all.contains(needle), "missing `{needle}` in:\n{all}");
    }
    assert!(err.0.iter().all(|e| e.file == "bad.toml" && e.position.is_some()), "{all}");
    assert!(all.contains("unit \"Bad\""), "{all}");
}

#[test]
fn the_consulted_rulings_change_what_they_rule() {
    // DOUBLE_STACKS: a natural 20 with exactly one reroll 10 doubles twice (x4).
    let stacked = RollLaw::new(Dice::TwoD10, 0, 2, true, true);
    close(stacked.p_nat20[2], 1. / 100. * 2. * (1. / 10.) * (9. / 10.), "x4");
    close(law(Dice::TwoD10, 0, 12).p_nat20[2], 0.0, "DOUBLE_STACKS=false never multiplies by 4");
    // SECOND_20_DESTROYS=false: the second 20 is only a natural 20.
    let tame = RollLaw::new(Dice::TwoD10, 0, 2, false, false);
    close(tame.p_second_20, 0.0, "no destroying second 20");
    close(tame.p_natural_20(), 1. / 100., "natural 20 unchanged");
    // DAMAGE_DICE shortcuts.
    use super::damage::pool_law;
    use super::options::DamageDice;
    let m = pool_law(3, DamageDice::Multiply);
    for v in (3..=18).step_by(3) {
        close(m[v], 1. / 6., "3 x 1d6");
    }
    close(pool_law(1, DamageDice::BellD12)[3], 3. / 12., "bell d12 face 3");
    close(pool_law(2, DamageDice::Pool)[7], 6. / 36., "2d6 = 7");
    // RANGE_STEP and POINT_BLANK_ROUND.
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    let mut o = Options::default();
    o.set("RANGE_STEP", "10").unwrap();
    assert_eq!(Conditions::default().target_number(super::unit::DvType::SA, t, &o), 11 + 2);
    let pb = Conditions { range: 1, point_blank: true, ..Conditions::default() };
    assert_eq!(pb.target_number(super::unit::DvType::SA, t, &Options::default()), 5, "11 / 2 rounded down");
    assert_eq!(pb.target_number(super::unit::DvType::M, t, &Options::default()), 10, "M is never halved");
    o.set("POINT_BLANK_ROUND", "CEIL").unwrap();
    assert_eq!(pb.target_number(super::unit::DvType::SA, t, &o), 6);
    let immobile = Conditions { immobile: true, ..Conditions::default() };
    assert_eq!(immobile.target_number(super::unit::DvType::SA, t, &Options::default()), 2, "DV 0 + range 24");
}

#[test]
fn an_adjacent_target_is_point_blank_without_asking() {
    // "Point Blank": every DV but Missile and Physical is halved "when the target is in
    // an adjacent hex". The Vector Tank's Small Arms DV 11 halves to 5 (rounded down),
    // + range 1 / 12 = 0; its Missile DV 10 stays.
    let cat = catalogue();
    let t = cat.unit("Vector Tank").unwrap();
    let o = Options::default();
    let adjacent = Conditions { range: 1, point_blank: false, ..Conditions::default() };
    assert!(adjacent.is_point_blank());
    assert_eq!(adjacent.target_number(super::unit::DvType::SA, t, &o), 5);
    assert_eq!(adjacent.target_number(super::unit::DvType::M, t, &o), 10);
    assert!(adjacent.describe().contains("point blank"));
    // Two hexes away is not adjacent; the same hex only when asked for.
    let two = Conditions { range: 2, ..Conditions::default() };
    assert!(!two.is_point_blank());
    assert_eq!(two.target_number(super::unit::DvType::SA, t, &o), 11);
    assert!(!Conditions { range: 0, ..Conditions::default() }.is_point_blank());
    assert!(Conditions { range: 0, point_blank: true, ..Conditions::default() }.is_point_blank());
}
