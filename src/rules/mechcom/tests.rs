//! The test vectors of `shared/rules/mechcom.md` §6, each reproduced exactly (as
//! fractions where the law is a count, to 1e-12 otherwise), plus the book's examples.

use super::roll::hit_counts;
use super::*;

/// Exact: count/total == num/den.
fn is_frac(count: u128, total: u128, num: u128, den: u128) -> bool {
    count * den == num * total
}

fn assert_fracs(counts: &[u128], total: u128, expect: &[(u128, u128)]) {
    assert_eq!(counts.len(), expect.len(), "outcomes: {counts:?} over {total}");
    for (k, (&c, &(n, d))) in counts.iter().zip(expect).enumerate() {
        assert!(is_frac(c, total, n, d), "outcome {k}: {c}/{total} is not {n}/{d}");
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn aim(s: i32) -> Aim {
    Aim { stability: s, spot_consumed: 0, die_bonus: 0 }
}

/// P(>= k hits) for k = 1.., as (count, total).
fn at_least(dice: u32, s: i32, o: &Options) -> (Vec<u128>, u128) {
    let d = hit_counts(dice, &aim(s), o);
    let tails = (1..d.len()).map(|k| d.weights[k..].iter().sum()).collect();
    (tails, d.total)
}

fn shooter(stability: i32) -> Model {
    Model::new(&Mech::simple("shooter", stability, 0, 4, 10), None)
}

fn target(armour: i32, integrity: u32) -> Model {
    Model::new(&Mech::simple("target", 4, 0, armour, integrity), None)
}

fn building() -> Model {
    Model::new(&Mech::building(), None)
}

fn odds(attacker: &Model, w: &Weapon, t: &Model) -> AttackOdds {
    attack_odds(attacker, w, t, &Situation::at_range(2), &Options::default()).unwrap()
}

#[test]
fn two_dice_at_stability_4() {
    let d = hit_counts(2, &aim(4), &Options::default());
    assert_fracs(&d.weights, d.total, &[(9, 36), (12, 36), (10, 36), (4, 36), (1, 36)]);
    let (tails, total) = at_least(2, 4, &Options::default());
    assert!(is_frac(tails[1], total, 5, 12));
}

fn three_dice(s: i32, o: &Options, fracs: [(u128, u128); 4]) {
    let (tails, total) = at_least(3, s, o);
    assert_fracs(&tails[..4], total, &fracs);
}

#[test]
fn three_dice_at_least_1_to_4_hits_at_stability_2() {
    three_dice(2, &Options::default(), [(215, 216), (203, 216), (19, 27), (8, 27)]);
}

#[test]
fn three_dice_at_least_1_to_4_hits_at_stability_3() {
    three_dice(3, &Options::default(), [(26, 27), (43, 54), (53, 108), (43, 216)]);
}

#[test]
fn three_dice_at_least_1_to_4_hits_at_stability_4() {
    three_dice(4, &Options::default(), [(7, 8), (5, 8), (1, 3), (7, 54)]);
}

#[test]
fn three_dice_at_least_1_to_4_hits_at_stability_5() {
    three_dice(5, &Options::default(), [(19, 27), (13, 27), (11, 54), (19, 216)]);
}

#[test]
fn three_dice_at_least_1_to_4_hits_at_stability_6_or_7_under_six_always_crits() {
    let fracs = [(91, 216), (91, 216), (2, 27), (2, 27)];
    three_dice(6, &Options::default(), fracs);
    three_dice(7, &Options::default(), fracs);
    three_dice(9, &Options::default(), fracs);
}

#[test]
fn four_dice_at_stability_4_and_5() {
    let (tails, total) = at_least(4, 4, &Options::default());
    assert_fracs(&tails[..4], total, &[(15, 16), (37, 48), (25, 48), (121, 432)]);
    let (tails, total) = at_least(4, 5, &Options::default());
    assert!(is_frac(tails[2], total, 1, 3));
}

#[test]
fn one_die_at_stability_7_default_and_strict_six() {
    let d = hit_counts(1, &aim(7), &Options::default());
    assert_fracs(&d.weights, d.total, &[(5, 6), (0, 1), (1, 6)]);
    let strict = Options { six_always_crits: false, ..Options::default() };
    let d = hit_counts(1, &aim(7), &strict);
    assert_fracs(&d.weights, d.total, &[(1, 1), (0, 1), (0, 1)]);
}

#[test]
fn stability_base_3_in_melee_range_half_cover_one_spot_token_is_6() {
    let sit = Situation { range: 3, engaged: true, cover: Cover::Half, spot_tokens: 1, ..Situation::default() };
    let a = shooting_aim(&shooter(3), &Weapon::prometheus_flamethrower(), &target(4, 10), &sit, &Options::default());
    assert_eq!(a.unwrap().stability, 6);
}

#[test]
fn book_example_buzzkil_rifle_at_5_hexes_one_level_up_has_no_modifier() {
    let rifle = Weapon::ranged("Buzzkil Rifle", 5, Damage::Fixed(1), 2, &[]);
    let sit = Situation { range: 5, levels_above: 1, ..Situation::default() };
    let a = shooting_aim(&shooter(4), &rifle, &target(4, 10), &sit, &Options::default()).unwrap();
    assert_eq!(a.stability, 4);
    // two full levels: one better
    let sit = Situation { levels_above: 2, ..sit };
    assert_eq!(shooting_aim(&shooter(4), &rifle, &target(4, 10), &sit, &Options::default()).unwrap().stability, 3);
}

#[test]
fn book_example_half_cover_adds_2_stability() {
    let w = Weapon::prometheus_flamethrower();
    let sit = Situation { cover: Cover::Half, ..Situation::default() };
    assert_eq!(shooting_aim(&shooter(4), &w, &target(4, 10), &sit, &Options::default()).unwrap().stability, 6);
}

#[test]
fn flamethrower_at_stability_4_vs_building_integrity_lost() {
    let o = odds(&shooter(4), &Weapon::prometheus_flamethrower(), &building());
    let (counts, total) = o.exact_loss.clone().expect("exact counts");
    let even: Vec<u128> = counts.iter().step_by(2).copied().collect();
    assert!(counts.iter().skip(1).step_by(2).all(|&c| c == 0), "odd losses are impossible");
    assert_fracs(&even, total, &[(14641, 46656), (4235, 11664), (1825, 7776), (875, 11664), (625, 46656)]);
    // neutral terrain never gets a condition
    assert!(o.conditions.is_empty());
}

#[test]
fn flamethrower_destroys_a_building_with_one_and_two_attacks() {
    let o = odds(&shooter(4), &Weapon::prometheus_flamethrower(), &building());
    let (counts, total) = o.exact_loss.clone().unwrap();
    let destroyed: u128 = counts[4..].iter().sum();
    assert!(is_frac(destroyed, total, 1675, 5184));
    assert!(close(o.p_destroy, 1675.0 / 5184.0));
    // two attacks in one activation (6⚡): the sum of two independent losses
    let mut two = 0u128;
    for (a, &ca) in counts.iter().enumerate() {
        for (b, &cb) in counts.iter().enumerate() {
            if a + b >= 4 {
                two += ca * cb;
            }
        }
    }
    assert!(is_frac(two, total * total, 1466386375, 2176782336));
}

#[test]
fn death_explosion_vs_armour_4_and_vs_a_building() {
    let o = explosion_odds(&target(4, 10), &Options::default());
    let (counts, total) = o.exact_loss.clone().unwrap();
    let by4: Vec<u128> = counts.iter().step_by(4).copied().collect();
    assert_fracs(&by4, total, &[(13, 24), (5, 12), (1, 24)]);
    assert!(close(o.expected_integrity_loss, 2.0));
    let b = explosion_odds(&building(), &Options::default());
    let (counts, total) = b.exact_loss.unwrap();
    assert!(is_frac(counts[4..].iter().sum(), total, 155, 216));
}

#[test]
fn unarmed_melee_with_equal_strength() {
    let a = Model::new(&Mech::simple("a", 4, 1, 4, 10), None);
    let t = Model::new(&Mech::simple("t", 4, 1, 4, 10), None);
    let sit = Situation::at_range(1);
    let o = attack_odds(&a, &Weapon::unarmed(), &t, &sit, &Options::default()).unwrap();
    let (counts, total) = o.exact_loss.unwrap();
    assert_fracs(&counts, total, &[(7, 12), (5, 36), (5, 36), (5, 36)]);
}

#[test]
fn melee_weapon_3_dice_damage_2_strength_2_vs_1_rend_1() {
    let a = Model::new(&Mech::simple("a", 4, 2, 4, 10), None);
    let t = Model::new(&Mech::simple("t", 4, 1, 4, 10), None);
    let blade = Weapon::melee("blade", Damage::Fixed(2), 3, &[Perk::Rend(1)]);
    let o = attack_odds(&a, &blade, &t, &Situation::at_range(1), &Options::default()).unwrap();
    let (counts, total) = o.exact_loss.clone().unwrap();
    let even: Vec<u128> = counts.iter().step_by(2).copied().collect();
    assert_fracs(&even, total, &[(25, 324), (5, 27), (25, 108), (41, 81)]);
    assert!(close(o.expected_integrity_loss, 13.0 / 3.0));
}

#[test]
fn flurry_one_die_at_stability_4_through_armour_1() {
    let w = Weapon::ranged("flurry gun", 4, Damage::Fixed(1), 1, &[Perk::Flurry]);
    let o = odds(&shooter(4), &w, &target(1, 10));
    let l = &o.integrity_loss;
    for (k, p) in [1.0 / 2.0, 1.0 / 3.0, 1.0 / 12.0, 1.0 / 18.0].into_iter().enumerate() {
        assert!(close(l[k], p), "P({k}) = {} not {p}", l[k]);
    }
    for k in 0..10 {
        let six = 6f64.powi(-(k as i32));
        assert!(close(l[2 * k], six / 2.0) && close(l[2 * k + 1], six / 3.0), "k = {k}");
    }
    assert!(close(o.expected_hits, 4.0 / 5.0));
    assert!(close(o.expected_integrity_loss, 4.0 / 5.0));
}

#[test]
fn flamethrower_at_stability_4_burns_an_armour_4_target() {
    let o = odds(&shooter(4), &Weapon::prometheus_flamethrower(), &target(4, 10));
    assert_eq!(o.conditions.len(), 1);
    assert_eq!(o.conditions[0].0, Condition::Burned);
    assert!(close(o.conditions[0].1, 3.0 / 4.0));
}

fn typhon_like() -> Model {
    let mut m = Mech::simple("flamer", 4, 0, 4, 10);
    m.energy = 6;
    m.weapons = vec![Weapon::prometheus_flamethrower()];
    Model::new(&m, None)
}

#[test]
fn attack_run_flamethrower_twice_a_round_vs_integrity_10_armour_4() {
    let run = AttackRun::new(
        &typhon_like(),
        &target(4, 10),
        &Situation::at_range(3),
        &Options::default(),
        RunPolicy::default(),
        12,
    )
    .unwrap();
    assert_eq!(run.plan.len(), 24, "two attacks a round for 6⚡");
    let e = run.exact();
    let p = &e.p_kill_by_round;
    assert!(close(p[0], 799.0 / 110592.0), "round 1: {}", p[0]);
    assert!(close(p[1], 30289992775.0 / 110075314176.0), "round 2: {}", p[1]);
    // the book's vector gives rounds 3-6 to 6 decimals
    for (r, x) in [(2, 0.575911), (3, 0.897108), (4, 0.965961), (5, 0.995971)] {
        assert!((p[r] - x).abs() < 5e-7, "round {}: {} vs {x}", r + 1, p[r]);
    }
}

#[test]
fn a_spot_token_is_used_up_by_the_first_attack_of_a_run() {
    // §1 "Stats › Stability": a token gives "a one-time bonus"; `SPOT_POLICY` consumes one
    // per attack. With one token the first attack shoots at S 3 and the second at S 4.
    // Per die against Armour 4 (q = 1/2), unblocked hits 0/1/2: S 3: 15/24, 8/24, 1/24;
    // S 4: 17/24, 6/24, 1/24. Integrity 10 at Damage 2 falls on >= 5 unblocked hits of
    // the round's four dice (Burned cannot finish an even Integrity in round 1):
    // P = 3077/331776 (all four dice at S 3, the token never used up: 3965/331776).
    let sit = Situation { spot_tokens: 1, ..Situation::at_range(3) };
    let run =
        AttackRun::new(&typhon_like(), &target(4, 10), &sit, &Options::default(), RunPolicy::default(), 4).unwrap();
    let e = run.exact();
    assert!(close(e.p_kill_by_round[0], 3077.0 / 331776.0), "round 1: {}", e.p_kill_by_round[0]);
    // From the second attack on the run is the tokenless run: the same law per attack.
    let plain = AttackRun::new(
        &typhon_like(),
        &target(4, 10),
        &Situation::at_range(3),
        &Options::default(),
        RunPolicy::default(),
        4,
    )
    .unwrap();
    assert_eq!(run.expected_loss(&run.plan[1]), plain.expected_loss(&plain.plan[1]));
    assert!(run.expected_loss(&run.plan[0]) > plain.expected_loss(&plain.plan[0]));
    // Three tokens: the first three attacks take the bonus, the fourth does not.
    let three = Situation { spot_tokens: 3, ..Situation::at_range(3) };
    let run =
        AttackRun::new(&typhon_like(), &target(4, 10), &three, &Options::default(), RunPolicy::default(), 4).unwrap();
    let spotted = run.expected_loss(&run.plan[0]);
    let losses: Vec<f64> = run.plan.iter().map(|s| run.expected_loss(s)).collect();
    assert_eq!(losses[..3], [spotted; 3]);
    assert!(losses[3..].iter().all(|&l| l == plain.expected_loss(&plain.plan[0])), "{losses:?}");
}

#[test]
fn sniper_spends_every_token_at_once_and_artillery_stops_when_none_is_left() {
    let sniper = Weapon::ranged("sniper", 8, Damage::Fixed(2), 2, &[Perk::Sniper]);
    let arty = Weapon::ranged("arty", 8, Damage::Fixed(3), 3, &[Perk::Artillery]);
    let gun = Weapon::ranged("gun", 8, Damage::Fixed(1), 2, &[]);
    let mech = |weapons: Vec<Weapon>| {
        let mut m = Mech::simple("a", 4, 0, 4, 10);
        m.energy = 9;
        m.weapons = weapons;
        Model::new(&m, None)
    };
    let sit = Situation { spot_tokens: 2, ..Situation::at_range(4) };
    let t = target(4, 30);
    // Without the Spot action, which would place more tokens for the Artillery
    // (token_run_tests): only the starting tokens are used up.
    let o = Options { spot_action: super::options::SpotAction::Never, ..Options::default() };
    // Sniper: the first attack consumes both tokens (S 2), the next ones none (S 4).
    let run = AttackRun::new(&mech(vec![sniper.clone()]), &t, &sit, &o, RunPolicy::default(), 2).unwrap();
    let s2 = attack_odds(&mech(vec![]), &sniper, &t, &sit, &o).unwrap().expected_integrity_loss;
    let s4 = attack_odds(&mech(vec![]), &sniper, &t, &Situation::at_range(4), &o).unwrap().expected_integrity_loss;
    let losses: Vec<f64> = run.plan.iter().map(|s| run.expected_loss(s)).collect();
    assert_eq!(losses, vec![s2, s4, s4, s4, s4, s4]);
    // Artillery must consume a token: two attacks with it, then the gun.
    let run = AttackRun::new(&mech(vec![arty.clone(), gun.clone()]), &t, &sit, &o, RunPolicy::default(), 2).unwrap();
    let names: Vec<&str> = run.plan.iter().map(|s| run.weapons[s.weapon as usize].as_str()).collect();
    assert_eq!(names, vec!["arty", "arty", "gun", "gun", "gun", "gun"]);
    // With it, the attacker spots for the Artillery once the tokens are gone; the plan
    // (the likeliest path, each Spot placing a token) fires the Artillery only.
    let run = AttackRun::new(&mech(vec![arty, gun]), &t, &sit, &Options::default(), RunPolicy::default(), 2).unwrap();
    assert!(run.tokens.as_ref().is_some_and(|t| t.spots()));
    let names: Vec<&str> = run.plan.iter().map(|s| run.weapons[s.weapon as usize].as_str()).collect();
    assert_eq!(names, vec!["arty", "arty", "arty", "arty"]);
}

fn duellist(name: &str, stability: i32, dice: u32, damage: u32) -> Model {
    let mut m = Mech::simple(name, stability, 0, 4, 8);
    m.energy = 6;
    m.weapons = vec![Weapon::ranged("gun", 4, Damage::Fixed(damage), dice, &[])];
    Model::new(&m, None)
}

#[test]
fn duel_3_dice_damage_2_s4_vs_2_dice_damage_3_s3_both_integrity_8_armour_4() {
    let a = duellist("A", 4, 3, 2);
    let b = duellist("B", 3, 2, 3);
    let d = exact_duel(&a, &b, &Situation::at_range(3), &Options::default(), 12).unwrap();
    // the vector is printed to 10 decimals: agree to half a unit of the last one
    assert!((d.p_a_wins - 0.4285772269).abs() <= 5e-11, "P(A wins) = {}", d.p_a_wins);
    assert!((d.p_b_wins - 0.5714227731).abs() <= 5e-11, "P(B wins) = {}", d.p_b_wins);
    assert!(d.p_undecided < 1e-14, "undecided {}", d.p_undecided);
}

#[test]
fn duels_with_conditions_are_not_solved_as_independent_runs() {
    let mut m = Mech::simple("flamer", 4, 0, 4, 8);
    m.energy = 6;
    m.weapons = vec![Weapon::prometheus_flamethrower()];
    let a = Model::new(&m, None);
    let b = duellist("B", 3, 2, 3);
    assert!(exact_duel(&a, &b, &Situation::at_range(3), &Options::default(), 12).is_err());
}

#[test]
fn odds_json_has_the_documented_keys() {
    let o = odds(&shooter(4), &Weapon::prometheus_flamethrower(), &building());
    let j = o.to_json();
    for key in ["weapon", "stability", "dice", "expected_hits", "expected_integrity_loss", "p_destroy"] {
        assert!(j.get(key).is_some(), "{key}");
    }
    let dist = j["integrity_loss_distribution"].as_object().unwrap();
    assert_eq!(dist.keys().collect::<Vec<_>>(), ["0", "2", "4", "6", "8"]);
    assert!(close(dist["4"].as_f64().unwrap(), 1825.0 / 7776.0));
    let flurry = Weapon::ranged("f", 4, Damage::Fixed(1), 1, &[Perk::Flurry]);
    let j = odds(&shooter(4), &flurry, &target(1, 10)).to_json();
    assert!(j["integrity_loss_distribution"].as_object().unwrap().keys().any(|k| k.starts_with(">=")));
}

#[test]
fn flurry_with_every_face_a_crit_is_refused() {
    let o = Options { modifiers_move_stability: false, ..Options::default() };
    let w = Weapon::ranged("f", 4, Damage::Fixed(1), 1, &[Perk::Flurry, Perk::Sniper]);
    let sit = Situation { spot_tokens: 5, ..Situation::at_range(2) };
    assert_eq!(attack_odds(&shooter(4), &w, &target(4, 10), &sit, &o), Err(NoAttack::EndlessFlurry));
}

/// Every row of the §1 Stability table, one at a time from base 4.
#[test]
fn every_stability_modifier_of_the_table() {
    let o = Options::default();
    let plain = Weapon::ranged("gun", 6, Damage::Fixed(1), 2, &[]);
    let s = |a: &Model, w: &Weapon, t: &Model, sit: Situation, o: &Options| shooting_aim(a, w, t, &sit, o);
    let (a, t) = (shooter(4), target(4, 10));
    let at = Situation::at_range(3);
    let with = |c: Condition, m: &Model| m.clone().with_conditions(Conditions::of(&[c]));
    let st = |r: Result<Aim, NoAttack>| r.unwrap().stability;
    assert_eq!(st(s(&a, &plain, &t, at, &o)), 4);
    // engaged (+2), not with Ultralight; range 1 is melee distance
    assert_eq!(st(s(&a, &plain, &t, Situation { engaged: true, ..at }, &o)), 6);
    assert_eq!(st(s(&a, &plain, &t, Situation::at_range(1), &o)), 6);
    let light = Weapon::ranged("light", 6, Damage::Fixed(1), 2, &[Perk::Ultralight]);
    assert_eq!(st(s(&a, &light, &t, Situation::at_range(1), &o)), 4);
    // cover: half and soft +2, soft nothing when not half cover, total no shot but Artillery
    for cover in [Cover::Half, Cover::Soft] {
        assert_eq!(st(s(&a, &plain, &t, Situation { cover, ..at }, &o)), 6);
    }
    let hard = Options { soft_cover_is_half_cover: false, ..o.clone() };
    assert_eq!(st(s(&a, &plain, &t, Situation { cover: Cover::Soft, ..at }, &hard)), 4);
    let total = Situation { cover: Cover::Total, spot_tokens: 1, ..at };
    assert_eq!(s(&a, &plain, &t, total, &o), Err(NoAttack::TotalCover));
    let arty = Weapon::ranged("arty", 12, Damage::Fixed(2), 2, &[Perk::Artillery]);
    // Artillery consumes its token for no bonus, and fires over total cover
    assert_eq!(s(&a, &arty, &t, total, &o).unwrap(), Aim { stability: 4, spot_consumed: 1, die_bonus: 0 });
    assert_eq!(s(&a, &arty, &t, at, &o), Err(NoAttack::NoSpotToken));
    // a Submerged target is in half cover; two sources stack only with COVER_STACKS
    let sub = with(Condition::Submerged, &t);
    let half = Situation { cover: Cover::Half, ..at };
    // (Submerged also puts the target 2 levels down: one better)
    assert_eq!(st(s(&a, &plain, &sub, half, &o)), 5);
    let stacks = Options { cover_stacks: true, ..o.clone() };
    assert_eq!(st(s(&a, &plain, &sub, half, &stacks)), 7);
    // height: per full 2 levels above; none from below
    assert_eq!(st(s(&a, &plain, &t, Situation { levels_above: 5, ..at }, &o)), 2);
    assert_eq!(st(s(&a, &plain, &t, Situation { levels_above: -3, ..at }, &o)), 4);
    // Heavy after moving
    let heavy = Weapon::ranged("heavy", 6, Damage::Fixed(3), 2, &[Perk::Heavy]);
    assert_eq!(st(s(&a, &heavy, &t, Situation { heavy_moved: true, ..at }, &o)), 6);
    assert_eq!(st(s(&a, &plain, &t, Situation { heavy_moved: true, ..at }, &o)), 4);
    // conditions: Blinded +2, Shocked +1 on the attacker, Invisible +2 on the target
    assert_eq!(st(s(&with(Condition::Blinded, &a), &plain, &t, at, &o)), 6);
    assert_eq!(st(s(&with(Condition::Shocked, &a), &plain, &t, at, &o)), 5);
    assert_eq!(st(s(&a, &plain, &with(Condition::Invisible, &t), at, &o)), 6);
    // spot tokens: one at most, any number with Sniper, none under SPOT_POLICY never
    let spotted = Situation { spot_tokens: 3, ..at };
    assert_eq!(s(&a, &plain, &t, spotted, &o).unwrap(), Aim { stability: 3, spot_consumed: 1, die_bonus: 0 });
    let sniper = Weapon::ranged("sniper", 12, Damage::Fixed(2), 1, &[Perk::Sniper]);
    assert_eq!(st(s(&a, &sniper, &t, spotted, &o)), 1);
    let never = Options { spot_policy: options::SpotPolicy::Never, ..o.clone() };
    assert_eq!(st(s(&a, &plain, &t, spotted, &never)), 4);
    // MODIFIERS_MOVE_STABILITY off: the bonus goes on the die instead
    let faces = Options { modifiers_move_stability: false, ..o.clone() };
    assert_eq!(s(&a, &plain, &t, spotted, &faces).unwrap(), Aim { stability: 4, spot_consumed: 1, die_bonus: 1 });
}

// Each switchable ruling the one-attack maths consults, against values worked by hand.

fn one_die(s: i32, o: &Options) -> DieOdds {
    let w = Weapon::ranged("one", 6, Damage::Fixed(1), 1, &[]);
    attack_odds(&shooter(s), &w, &target(4, 10), &Situation::at_range(3), o).unwrap().per_die
}

#[test]
fn no_automatic_miss_off_makes_a_natural_1_miss() {
    let d = one_die(1, &Options::default());
    assert!(close(d.miss, 0.0) && close(d.hit, 5.0 / 6.0) && close(d.crit, 1.0 / 6.0));
    let d = one_die(0, &Options { no_automatic_miss: false, ..Options::default() });
    assert!(close(d.miss, 1.0 / 6.0) && close(d.hit, 4.0 / 6.0));
}

#[test]
fn armour_automatic_results_when_switched_on() {
    let w = Weapon::ranged("one", 6, Damage::Fixed(1), 1, &[]);
    let sit = Situation::at_range(3);
    let default = attack_odds(&shooter(2), &w, &target(7, 10), &sit, &Options::default()).unwrap();
    assert_eq!(default.integrity_loss[0], 1.0);
    let o = Options { armour_no_automatic_result: false, ..Options::default() };
    let auto = attack_odds(&shooter(2), &w, &target(7, 10), &sit, &o).unwrap();
    // hit 4/6 through on a 6; crit 1/6 with two armour rolls
    let (counts, total) = auto.exact_loss.unwrap();
    assert!(is_frac(counts[1..].iter().sum(), total, 35, 216));
}

#[test]
fn melee_armour_roll_and_melee_crit_switches() {
    let a = Model::new(&Mech::simple("a", 4, 1, 4, 10), None);
    let t = Model::new(&Mech::simple("t", 4, 1, 4, 10), None);
    let sit = Situation::at_range(1);
    let d = attack_odds(&a, &Weapon::unarmed(), &t, &sit, &Options::default()).unwrap();
    assert!(close(d.p_crit, 5.0 / 36.0), "a winning natural 6: {}", d.p_crit);
    let o = Options { melee_armour_roll: true, ..Options::default() };
    let (counts, total) = attack_odds(&a, &Weapon::unarmed(), &t, &sit, &o).unwrap().exact_loss.unwrap();
    assert_fracs(&counts, total, &[(19, 24), (5, 72), (5, 72), (5, 72)]);
    let o = Options { melee_crit: false, ..Options::default() };
    assert_eq!(attack_odds(&a, &Weapon::unarmed(), &t, &sit, &o).unwrap().p_crit, 0.0);
    // one die: one d3 for the attack is the same as one per winning die
    let o = Options { unarmed_d3_per_die: false, ..Options::default() };
    let (counts, total) = attack_odds(&a, &Weapon::unarmed(), &t, &sit, &o).unwrap().exact_loss.unwrap();
    assert_fracs(&counts, total, &[(7, 12), (5, 36), (5, 36), (5, 36)]);
}

#[test]
fn modifiers_on_the_die_turn_a_5_into_a_crit() {
    let w = Weapon::ranged("one", 6, Damage::Fixed(1), 1, &[]);
    let sit = Situation { spot_tokens: 1, ..Situation::at_range(3) };
    let d = attack_odds(&shooter(4), &w, &target(4, 10), &sit, &Options::default()).unwrap().per_die;
    assert!(close(d.miss, 2.0 / 6.0) && close(d.hit, 3.0 / 6.0) && close(d.crit, 1.0 / 6.0));
    let o = Options { modifiers_move_stability: false, ..Options::default() };
    let d = attack_odds(&shooter(4), &w, &target(4, 10), &sit, &o).unwrap().per_die;
    assert!(close(d.miss, 2.0 / 6.0) && close(d.hit, 2.0 / 6.0) && close(d.crit, 2.0 / 6.0));
}

#[test]
fn hit_means_an_unblocked_hit_when_switched_off() {
    let o = Options { hit_means_attack_roll_hit: false, ..Options::default() };
    let w = Weapon::prometheus_flamethrower();
    let d = attack_odds(&shooter(4), &w, &target(4, 10), &Situation::at_range(2), &o).unwrap();
    // P(a die costs nothing) = 1/2 + 2/6·1/2 + 1/6·1/4 = 17/24
    assert!(close(d.conditions[0].1, 1.0 - (17.0f64 / 24.0).powi(2)));
}

#[test]
fn reactor_heat_blast_and_barrage() {
    let mut hot = Mech::simple("Typhon", 4, 0, 4, 10);
    hot.abilities = vec![Ability::RedHotReactor];
    let hot = Model::new(&hot, None);
    let sit = Situation::at_range(2);
    let o = Options::default();
    let d = attack_odds(&shooter(4), &Weapon::prometheus_flamethrower(), &hot, &sit, &o).unwrap();
    assert!(close(d.expected_reactor_heat, 1.0 / 3.0));
    assert_eq!((d.superheat, d.backfire), (1, 0));
    let flurry = Weapon::ranged("f", 4, Damage::Fixed(1), 1, &[Perk::Flurry]);
    assert!(close(attack_odds(&shooter(4), &flurry, &hot, &sit, &o).unwrap().expected_reactor_heat, 1.0 / 5.0));
    let first_roll = Options { reactor_counts_flurry_crits: false, ..Options::default() };
    let d = attack_odds(&shooter(4), &flurry, &hot, &sit, &first_roll).unwrap();
    assert!(close(d.expected_reactor_heat, 1.0 / 6.0));
    let blast = Weapon::ranged("b", 4, Damage::Fixed(1), 2, &[Perk::Blast, Perk::Barrage]);
    let d = attack_odds(&shooter(4), &blast, &target(4, 10), &sit, &o).unwrap();
    assert!(close(d.p_blast.unwrap(), 1.0 / 4.0));
    let more = Situation { barrage_dice: 2, ..sit };
    assert_eq!(attack_odds(&shooter(4), &blast, &target(4, 10), &more, &o).unwrap().dice, 4);
    let plain = Weapon::ranged("p", 4, Damage::Fixed(1), 2, &[]);
    assert_eq!(attack_odds(&shooter(4), &plain, &target(4, 10), &more, &o).unwrap().dice, 2);
}

#[test]
fn out_of_range_and_melee_height_limits() {
    let o = Options::default();
    let w = Weapon::prometheus_flamethrower();
    let far = attack_odds(&shooter(4), &w, &target(4, 10), &Situation::at_range(4), &o);
    assert_eq!(far, Err(NoAttack::OutOfRange { range: 4 }));
    let unarmed = attack_odds(&shooter(4), &Weapon::unarmed(), &target(4, 10), &Situation::at_range(2), &o);
    assert_eq!(unarmed, Err(NoAttack::OutOfRange { range: 2 }));
    let up = Situation { levels_above: 2, ..Situation::at_range(1) };
    let high = attack_odds(&shooter(4), &Weapon::unarmed(), &target(4, 10), &up, &o);
    assert_eq!(high, Err(NoAttack::TooFarApartForMelee { levels: 2 }));
}

#[test]
fn a_pilot_adds_its_bonus_to_the_mech() {
    let mut m = Mech::simple("Typhon", 4, 1, 4, 10);
    m.energy = 6;
    let ace = Pilot {
        name: "steady hands".into(),
        kind: PilotKind::Regular,
        cost: 20,
        faction: Some(Faction::Herakles),
        mechs: Vec::new(),
        bonus: StatBonus { stability: -1, strength: 1, energy: 3, integrity: -20, ..StatBonus::default() },
        weapons: Vec::new(),
        abilities: Vec::new(),
    };
    let model = Model::new(&m, Some(&ace));
    assert_eq!((model.mech.stability, model.mech.strength, model.mech.energy), (3, 2, 9));
    assert_eq!(model.mech.integrity, 1, "Integrity stays at least 1");
    assert_eq!(Model::new(&m, None).mech, m);
    assert!(!Model::new(&Mech::building(), None).takes_conditions());
}

/// A catalogue of one file.
fn catalogue_of(text: &str) -> Result<catalogue::Catalogue, String> {
    let file = crate::catalogue::source::SourceFile { name: "c.toml".into(), text: text.into() };
    catalogue::Catalogue::from_sources("test", &[file]).map_err(|e| e.to_string())
}

const BRUTE: &str = r#"
[[weapon]]
name = "Gun"
range = 6
damage = 2
attacks = 2

[[weapon]]
name = "Lance"
range = "M"
damage = 3
attacks = 1

[[mech]]
name = "Brute"
faction = "HERAKLES"
cost = 200
energy = 6
movement = 3
sensors = 6
stability = 4
strength = 1
armour = 4
integrity = 10
weapons = ["Lance"]
"#;

#[test]
fn an_ace_gives_its_weapons_and_abilities_to_the_mech() {
    // "Aces ... often provide new abilities or equipment": the card's weapons join the
    // Arsenal after the mech's (one it already carries adds nothing), its abilities the
    // mech's. At range 4 only the Ace's gun reaches: 2 dice at S 4 against Armour 4,
    // Damage 2, take 4/3 Integrity in expectation.
    let cat = catalogue_of(&format!(
        "{BRUTE}\n[[pilot]]\nname = \"Kade\"\ntype = \"ace\"\ncost = 40\nfaction = \"HERAKLES\"\n\
         weapons = [\"Gun\", \"Lance\"]\nabilities = [\"Vent Coolant\"]\n"
    ))
    .unwrap();
    let flown = cat.model_named("Brute+Kade").unwrap();
    let names: Vec<&str> = flown.mech.weapons.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["Lance", "Gun"]);
    assert_eq!(flown.mech.abilities, [Ability::VentCoolant]);
    let alone = cat.model_named("Brute").unwrap();
    assert!(alone.mech.abilities.is_empty() && alone.mech.weapons.len() == 1);
    let target = Model::new(&Mech::simple("target", 4, 0, 4, 10), None);
    let sit = Situation::at_range(4);
    let k = DuelKernel::new(&flown, &target, &sit, &Options::default(), 5).unwrap();
    assert_eq!(k.weapons(0).collect::<Vec<_>>(), ["Gun"]);
    let odds = attack_odds(&flown, &flown.mech.weapons[1], &target, &sit, &Options::default()).unwrap();
    assert!((odds.expected_integrity_loss - 4.0 / 3.0).abs() < 1e-15);
    assert!(DuelKernel::new(&alone, &target, &sit, &Options::default(), 5).unwrap().weapons(0).next().is_none());
}

#[test]
fn a_pilots_unknown_weapon_or_ability_is_an_error_of_its_entry() {
    let err = catalogue_of(&format!(
        "{BRUTE}\n[[pilot]]\nname = \"Rook\"\ntype = \"mercenary\"\ncost = 50\nweapons = [\"Gnu\"]\n\
         abilities = [\"Vent Colant\"]\n"
    ))
    .unwrap_err();
    assert!(err.contains("pilot \"Rook\": field `weapons[0]`: unknown weapon `Gnu`"), "{err}");
    assert!(
        err.contains("field `abilities[0]`: unknown ability `Vent Colant` (did you mean `Vent Coolant`?)"),
        "{err}"
    );
}
