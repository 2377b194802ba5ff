//! The starred test vectors of `skirmishers.md` §6, reproduced exactly (counts out of 36
//! or 1296; chains compared to the fractions within 1e-12), and the book's examples.

use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::duel::Duel;
use super::law::{Law, TOTAL, transitions};
use super::odds::attack_odds;
use super::options::Options;
use super::plan::RunPolicy;
use super::setup::card;
use super::tn::target_number;
use super::track::{Hit, TrackKind, fresh};
use super::trooper::{Armour, Trooper};
use super::{AttackRun, weapon::Weapon};

mod monte_carlo;

pub(super) fn cat() -> Catalogue {
    Catalogue::embedded().expect("the embedded catalogue is valid")
}
pub(super) fn trooper(c: &Catalogue, name: &str) -> Trooper {
    c.trooper(name).unwrap().clone()
}
pub(super) fn weapon(c: &Catalogue, name: &str) -> Weapon {
    c.weapon(name).unwrap().clone()
}
pub(super) fn at(range: u32) -> Conditions {
    Conditions { range, ..Conditions::default() }
}
fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-12, "{a} != {b}");
}

fn tn(c: &Catalogue, w: &str, cond: &Conditions, firer_hp: i32, o: &Options) -> i32 {
    let rifleman = trooper(c, "Rifleman");
    let col = TrackKind::Basic.column_of(firer_hp);
    target_number(&weapon(c, w), cond, cond.sneak_suit, rifleman.track.mods(col), rifleman.max_ap(col), o).unwrap()
}

#[test]
fn target_number_vectors() {
    let c = cat();
    let o = Options::default();
    // Long range, open ground: 6 + 2 = 8, P(hit) = 15/36.
    assert_eq!(tn(&c, "Rifle", &at(50), 10, &o), 8);
    assert_eq!(super::dice::success_ways(8, true), 15);
    // Firer at HP 5, long range, 1 obstruction, prone target 3 dots away: 12, 1/36.
    let pistol_long = Conditions { range: 3, obstructions: 1, target_prone: true, ..Conditions::default() };
    // A weapon whose Short is under 3 dots puts 3 dots at long range.
    let mut w = weapon(&c, "Rifle");
    w.short = Some(2);
    let firer = trooper(&c, "Rifleman");
    let col = TrackKind::Basic.column_of(5);
    let t = target_number(&w, &pistol_long, false, firer.track.mods(col), firer.max_ap(col), &o).unwrap();
    assert_eq!(t, 12);
    assert_eq!(super::dice::success_ways(t, true), 1);
    // Melee on an adjacent prone trooper: 4 - 1 = 3, 35/36.
    let melee = Conditions { range: 1, target_prone: true, obstructions: 2, ..Conditions::default() };
    assert_eq!(tn(&c, "Sword", &melee, 10, &o), 3);
    assert_eq!(super::dice::success_ways(3, true), 35);
    // Long range, sneak suit, 2 smoke dots: 6 + 2 + 1 + 6 = 15, never.
    let smoke = Conditions { range: 50, sneak_suit: true, smoke_dots: 2, ..Conditions::default() };
    assert_eq!(tn(&c, "Rifle", &smoke, 10, &o), 15);
    assert_eq!(super::dice::success_ways(15, true), 0);
    // The rulings' alternatives: smoke +4 a dot, no sneak-suit extra.
    let mut alt = Options::default();
    alt.set("SMOKE_REPLACES_COVER", "off").unwrap();
    alt.set("SNEAK_SUIT_STACKS", "off").unwrap();
    assert_eq!(tn(&c, "Rifle", &smoke, 10, &alt), 16);
}

#[test]
fn obstructions_next_to_the_firer_give_no_cover() {
    // "Resolving Fire": +1 per obstruction on the path "except for any obstruction
    // between the firing trooper and any adjacent dots". At range 1 the target's dot is
    // adjacent, so none counts: a rifle at short range keeps TN 6 (26/36); a grenade
    // thrown 1 dot keeps TN 1 (always). At range 2 both obstructions count: 6 + 2 = 8.
    let c = cat();
    let o = Options::default();
    let adjacent = Conditions { range: 1, obstructions: 2, ..Conditions::default() };
    assert_eq!(tn(&c, "Rifle", &adjacent, 10, &o), 6);
    assert_eq!(tn(&c, "Hand Grenade", &adjacent, 10, &o), 1);
    let two = Conditions { range: 2, obstructions: 2, ..Conditions::default() };
    assert_eq!(tn(&c, "Rifle", &two, 10, &o), 8);
    // COVER_SKIPS_FIRER_ADJACENT=off: every obstruction counts, also at range 1.
    let mut every = Options::default();
    every.set("COVER_SKIPS_FIRER_ADJACENT", "off").unwrap();
    assert_eq!(tn(&c, "Rifle", &adjacent, 10, &every), 8);
    assert_eq!(tn(&c, "Rifle", &two, 10, &every), 8);
}

#[test]
fn advanced_terrain_conditions_add_their_target_number_modifiers_only_when_switched_on() {
    let c = cat();
    let mut on = Options::default();
    on.set("ADVANCED_TERRAIN", "on").unwrap();
    // Short range, open ground: 6; entangled +1, tunnel +2, target swimming +1.
    let short = at(20);
    assert_eq!(tn(&c, "Rifle", &short, 10, &on), 6);
    assert_eq!(tn(&c, "Rifle", &Conditions { entangled: true, ..short }, 10, &on), 7);
    assert_eq!(tn(&c, "Rifle", &Conditions { tunnel: true, ..short }, 10, &on), 8);
    assert_eq!(tn(&c, "Rifle", &Conditions { target_swimming: true, ..short }, 10, &on), 7);
    let all = Conditions { entangled: true, tunnel: true, target_swimming: true, ..short };
    assert_eq!(tn(&c, "Rifle", &all, 10, &on), 10);
    // Melee too: 4 + 2 in a tunnel.
    assert_eq!(tn(&c, "Sword", &Conditions { tunnel: true, ..at(1) }, 10, &on), 6);
    // Off (the default), the conditions are refused, naming each, rather than ignored.
    let off = Options::default();
    assert!(super::tn::check_conditions(&short, &off).is_ok());
    assert!(super::tn::check_conditions(&all, &on).is_ok());
    let e = super::tn::check_conditions(&all, &off).unwrap_err();
    for flag in ["--entangled", "--tunnel", "--target-swimming", "ADVANCED_TERRAIN=on"] {
        assert!(e.contains(flag), "{e}");
    }
}

/// One sure hit of `lethal` X on a fresh unarmoured basic trooper: counts per HP column.
fn sure_hit(lethal: u32) -> Vec<(u64, u32)> {
    let o = Options::default();
    let t = trooper(&cat(), "Rifleman");
    let law = Law { hit: 36, on_hit: Hit { lethal, blunt: 0 }, on_miss: None };
    transitions(&card(&t, &o), fresh(0), &law)
}

#[test]
fn one_smg_hit_on_a_fresh_trooper() {
    let o = Options::default();
    let t = trooper(&cat(), "Rifleman");
    let card = card(&t, &o);
    let mut by_col = [0u32; 12];
    for (s, n) in sure_hit(3) {
        by_col[card.column(s)] += n / 36;
    }
    // HP 7, 6, 5, 4, 3, 2, 1 w.p. 6, 4, 5, 6, 5, 4, 3 /36; HP 0 2/36, DEAD 1/36.
    assert_eq!(by_col, [0, 0, 0, 6, 4, 5, 6, 5, 4, 3, 2, 1]);
}

#[test]
fn p_out_given_a_hit_for_every_lethal_value() {
    let o = Options::default();
    let t = trooper(&cat(), "Rifleman");
    let card = card(&t, &o);
    let want = [0, 1, 3, 6, 10, 15, 21, 26, 30, 36, 36, 36];
    for x in 1..=12u32 {
        let out: u32 = sure_hit(x).iter().filter(|(s, _)| card.is_out(*s)).map(|x| x.1).sum();
        assert_eq!(out, want[x as usize - 1] * 36, "X = {x}");
    }
}

#[test]
fn rifle_one_attack_and_attack_run() {
    let c = cat();
    let o = Options::default();
    let (a, t) = (trooper(&c, "Rifleman"), trooper(&c, "Rifleman"));
    let x = attack_odds(&a, &weapon(&c, "Rifle"), &t, &at(20), &o);
    assert_eq!(x.target_number, Ok(6));
    // P(out) = 26/36 x 6/36 = 13/108.
    assert_eq!(x.out_ways() * 108, 13 * TOTAL);
    let run = AttackRun::new(&a, &t, &at(20), &o, RunPolicy::ActiveWeapon, 12).unwrap();
    let e = run.exact();
    close(e.p_kill_by_turn[0], 13.0 / 108.0);
    close(e.p_kill_by_turn[1], 40651.0 / 104976.0);
    for (k, want) in [(2, 0.6716), (3, 0.8493), (4, 0.9373)] {
        assert!((e.p_kill_by_turn[k] - want).abs() < 5e-5, "round {}: {}", k + 1, e.p_kill_by_turn[k]);
    }
}

#[test]
fn standard_armour_never_falls_to_one_rifle_hit() {
    let c = cat();
    let o = Options::default();
    let x = attack_odds(&trooper(&c, "Rifleman"), &weapon(&c, "Rifle"), &trooper(&c, "Armoured Rifleman"), &at(20), &o);
    assert_eq!(x.out_ways(), 0);
    // Every hit leaves armour 0 and HP 10; every miss leaves the card as it was.
    assert_eq!(x.armour, vec![(4, (36 - 26) * 36), (0, 26 * 36)]);
    assert_eq!(x.hp, vec![(Some(10), TOTAL)]);
}

#[test]
fn hand_grenades_thrown_five_dots() {
    let c = cat();
    let o = Options::default();
    let a = trooper(&c, "Rifleman");
    let g = weapon(&c, "Hand Grenade");
    let x = attack_odds(&a, &g, &trooper(&c, "Rifleman"), &at(5), &o);
    assert_eq!(x.target_number, Ok(5));
    // 5/6 x 15/36 + 1/6 x 3/36 = 13/36.
    assert_eq!(x.out_ways() * 36, 13 * TOTAL);
    // Four throws always take out an unarmoured trooper (one throw a round: 3 + 5 AP).
    let run = AttackRun::new(&a, &trooper(&c, "Rifleman"), &at(5), &o, RunPolicy::GrenadesFirst, 6).unwrap();
    let e = run.exact();
    assert_eq!(run.plan.rounds.iter().take(4).map(Vec::len).collect::<Vec<_>>(), vec![1, 1, 1, 1]);
    close(e.p_kill_by_turn[0], 13.0 / 36.0);
    close(e.p_kill_by_turn[3], 1.0);
    // On standard armour, round 1: 5/6 x 1/36 = 5/216.
    let armoured = trooper(&c, "Armoured Rifleman");
    let x = attack_odds(&a, &g, &armoured, &at(5), &o);
    assert_eq!(x.out_ways() * 216, 5 * TOTAL);
    let run = AttackRun::new(&a, &armoured, &at(5), &o, RunPolicy::GrenadesFirst, 6).unwrap();
    close(run.exact().p_kill_by_turn[0], 5.0 / 216.0);
}

#[test]
fn semi_portable_laser_always_puts_out_and_heavy_laser_never_downs_standard_power_armour() {
    let c = cat();
    let o = Options::default();
    let t = trooper(&c, "Rifleman");
    let laser = weapon(&c, "Semi-Portable Laser");
    let x = attack_odds(&trooper(&c, "Machine Gunner"), &laser, &t, &at(20), &o);
    assert_eq!(x.out_ways(), x.hit_ways * 36, "every hit puts the trooper out");
    let mut pa = trooper(&c, "Power Trooper");
    pa.armour = Armour::Standard;
    let heavy = weapon(&c, "PA Heavy Laser");
    let x = attack_odds(&trooper(&c, "Heavy Power Trooper"), &heavy, &pa, &at(20), &o);
    assert!(x.hit_ways > 0);
    assert_eq!(x.out_ways(), 0);
    // 6 soaked, 6 of 18 cells crossed: the lowest start (a roll of 2, cell 2) leaves (-4).
    assert!(x.hp.iter().all(|(h, _)| h.is_some_and(|h| h >= -4)), "{:?}", x.hp);
}

#[test]
fn rifle_duel_at_short_range_with_a_first() {
    let c = cat();
    let mut o = Options::default();
    o.set("FIRST_SIDE", "a").unwrap();
    let r = trooper(&c, "Rifleman");
    let d = Duel::new(&r, &r, &at(20), &o, 12).unwrap();
    assert!(d.solvable(), "a search learns it is exact without solving");
    let e = d.exact().unwrap();
    close(e.a_by_round[0], 13.0 / 108.0);
    close(e.b_by_round[1], 1157.0 / 15552.0);
    assert!((e.p_a_wins - 0.6477).abs() < 5e-5, "{}", e.p_a_wins);
    assert!((e.p_b_wins - 0.3513).abs() < 5e-5, "{}", e.p_b_wins);
    // FIRST_SIDE random averages the two orders: symmetric sides win equally often.
    let d = Duel::new(&r, &r, &at(20), &Options::default(), 12).unwrap();
    let e = d.exact().unwrap();
    close(e.p_a_wins, e.p_b_wins);
}

#[test]
fn fists_follow_the_firers_current_ap() {
    let c = cat();
    let o = Options::default();
    let fists = weapon(&c, "Fists");
    let r = trooper(&c, "Rifleman");
    let law_at = |hp: i32, o: &Options| {
        let col = TrackKind::Basic.column_of(hp);
        super::law::law(&fists, 4, r.max_ap(col), o).on_hit.blunt
    };
    assert_eq!(law_at(10, &o), 4);
    assert_eq!(law_at(2, &o), 2); // 5 AP: 2 rounded down
    let mut up = Options::default();
    up.set("FISTS_ROUND_DOWN", "off").unwrap();
    assert_eq!(law_at(2, &up), 3);
}

#[test]
fn out_when_cannot_attack_counts_a_spent_trooper_out() {
    let c = cat();
    let mut o = Options::default();
    let mut t = trooper(&c, "Green Rifleman");
    t.armour = Armour::Heavy; // 8 - 1 - 3 = 4 AP fresh; at HP 1: 0 AP
    let base = card(&t, &o);
    o.set("OUT_WHEN_CANNOT_ATTACK", "on").unwrap();
    let strict = card(&t, &o);
    assert!(!base.out[9] && strict.out[9]);
    assert!(strict.out.iter().filter(|x| **x).count() > base.out.iter().filter(|x| **x).count());
}

/// The duel's Monte Carlo tables ([`super::lanes`]) hold, for every (firer state, target state) of both sides, the graph's
/// exact edges under the firer's law at its column ("no attack": the target stays).
#[test]
fn every_row_holds_the_graphs_exact_counts() {
    let c = cat();
    let mut heavy = trooper(&c, "Green Rifleman");
    heavy.armour = super::trooper::Armour::Heavy;
    let cells: [(_, _, Conditions); 3] = [
        (trooper(&c, "Rifleman"), trooper(&c, "Rifleman"), at(20)),
        (heavy, trooper(&c, "Armoured Rifleman"), at(20)),
        (trooper(&c, "Veteran SMG Gunner"), trooper(&c, "Armoured Rifleman"), at(5)),
    ];
    let mut unpaid = 0;
    for (a, b, cond) in cells {
        let d = Duel::new(&a, &b, &cond, &Options::default(), 12).unwrap();
        let lanes = &d.lanes;
        let (na, nb) = (d.a.graph.len() as u32, d.b.graph.len() as u32);
        for (x, y, offset_x, offset_y) in [(&d.a, &d.b, 0, na), (&d.b, &d.a, na, 0)] {
            for f in 0..x.graph.len() {
                let law = x.fire[x.graph.cols[f] as usize];
                unpaid += law.is_none() as u32;
                for t in 0..y.graph.len() {
                    let mut got = lanes.row_counts(f as u32 + offset_x, t as u32 + offset_y);
                    let mut want: Vec<(u32, u32)> = match law {
                        Some(l) => y.graph.edges(l as usize, t).collect::<Vec<_>>(),
                        None => vec![(t, TOTAL)],
                    }
                    .into_iter()
                    .map(|(s, n)| ((s as u32 + offset_y) | if y.graph.out[s] { super::alias::OUT } else { 0 }, n))
                    .collect();
                    got.sort();
                    want.sort();
                    assert_eq!(got, want, "firer {f} target {t}");
                }
            }
        }
        assert_eq!(lanes.start(true), 0);
        assert_eq!(lanes.start(false), na);
        assert!(nb > 1);
    }
    assert!(unpaid > 0, "a side whose AP stops paying its arc");
}

#[test]
fn a_duel_side_with_no_weapon_in_reach_never_fires_and_the_duel_is_the_attackers_run() {
    let c = cat();
    let o = Options::default();
    let (a, b) = (trooper(&c, "Rifleman"), trooper(&c, "Veteran SMG Gunner"));
    let far = at(40);
    // The Rifle reaches 40 dots (Long 85, TN 8 at long range); neither the SMG (Long 17),
    // the Auto Pistol (22) nor a throw does.
    assert_eq!(target_number(&weapon(&c, "Rifle"), &far, false, 0, a.max_ap(0), &o), Ok(8));
    let d = Duel::new(&a, &b, &far, &o, 6).unwrap();
    assert_eq!((d.a.weapon.as_deref(), d.b.weapon.as_deref()), (Some("Rifle"), None));
    assert!(d.b.fire.iter().all(Option::is_none));
    // A fires once a round at a target that never shoots back: leading, in rounds 1..6
    // (6 attacks); second, in rounds 2..6 (5 attacks). So P(A wins | A leads) is P(out
    // within 6 attacks of A's law), P(A wins | B leads) within 5: the attack run's
    // P(kill by round 6) and by round 5 (one Rifle attack a round).
    let run = AttackRun::new(&a, &b, &far, &o, RunPolicy::ActiveWeapon, 6).unwrap();
    assert!(run.plan.rounds.iter().all(|r| r.len() == 1), "{:?}", run.plan.rounds);
    let kill = run.exact().p_kill_by_turn;
    // One attack: P(out) = P(hit) x P(out | hit), from the attack's own odds.
    let one = attack_odds(&a, &weapon(&c, "Rifle"), &b, &far, &o).out_ways() as f64 / TOTAL as f64;
    close(kill[0], one);
    let (lead, second) = d.exact_split();
    close(lead.unwrap(), kill[5]);
    close(second.unwrap(), kill[4]);
    let e = d.exact().unwrap();
    close(e.p_a_wins, (kill[5] + kill[4]) / 2.0);
    assert_eq!(e.p_b_wins, 0.0);
    close(e.p_undecided, 1.0 - e.p_a_wins);
    assert!(e.p_a_wins > 0.1 && e.p_a_wins < 0.99, "{}", e.p_a_wins);
    // Monte Carlo: B never wins.
    let mut rng = <rand_xoshiro::Xoshiro256PlusPlus as rand::SeedableRng>::seed_from_u64(7);
    assert!((0..2000).all(|_| d.play_one(&mut rng).0 != 2));
}

#[test]
fn a_duel_side_whose_only_weapon_in_reach_a_duel_does_not_play_is_refused() {
    // The Rocketeer's Rocket Launcher (a launcher) reaches where its Pistol does not:
    // it can attack, but not in a duel, so the duel refuses rather than call it harmless.
    let c = cat();
    let o = Options::default();
    let (a, b) = (trooper(&c, "Rocketeer"), trooper(&c, "Rifleman"));
    let pistol_long = weapon(&c, "Pistol").long.unwrap();
    let launcher_long = weapon(&c, "Rocket Launcher").long.unwrap();
    assert!(launcher_long > pistol_long, "{launcher_long} {pistol_long}");
    let e = Duel::new(&a, &b, &at(pistol_long + 1), &o, 6).unwrap_err();
    assert!(e.contains("duels play arc and melee weapons"), "{e}");
}
