//! The exact one-attack law against dice rolled one by one, as the book reads, by a
//! simulator written apart from `roll` (default rulings only), with exact binomial
//! bounds on every outcome.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::dice::uniform::roll;
use crate::stats::binomial::consistent;
use crate::stats::tolerance::FAMILY_ALPHA;

use super::*;

const SAMPLES: u64 = 200_000;

fn d6(rng: &mut Xoshiro256PlusPlus) -> i32 {
    roll(rng, 6) as i32
}

fn damage(rng: &mut Xoshiro256PlusPlus, d: Damage) -> u32 {
    match d {
        Damage::Fixed(x) => x,
        Damage::D3 => (d6(rng) as u32).div_ceil(2),
    }
}

/// One Shooting attack rolled die by die: (Integrity lost, any hit, any crit).
fn shoot(rng: &mut Xoshiro256PlusPlus, dice: u32, s: i32, armour: i32, dmg: Damage, flurry: bool) -> (u32, bool, bool) {
    let (mut loss, mut hit, mut crit) = (0, false, false);
    let mut left = dice;
    while left > 0 {
        left -= 1;
        let a = d6(rng);
        let hits = if a == 6 {
            2
        } else if a >= s {
            1
        } else {
            0
        };
        if a == 6 {
            crit = true;
            if flurry {
                left += 1;
            }
        }
        hit |= hits > 0;
        for _ in 0..hits {
            if d6(rng) >= armour {
                loss += damage(rng, dmg);
            }
        }
    }
    (loss, hit, crit)
}

/// One Melee attack rolled die by die against one defence die.
fn melee(
    rng: &mut Xoshiro256PlusPlus,
    dice: u32,
    attack: i32,
    defence: i32,
    dmg: Damage,
    flurry: bool,
) -> (u32, bool, bool) {
    let def = d6(rng) + defence;
    let (mut loss, mut hit, mut crit) = (0, false, false);
    let mut left = dice;
    while left > 0 {
        left -= 1;
        let a = d6(rng);
        if a + attack > def {
            hit = true;
            loss += damage(rng, dmg);
            if a == 6 {
                crit = true;
                if flurry {
                    left += 1;
                }
            }
        }
    }
    (loss, hit, crit)
}

fn check(name: &str, odds: &AttackOdds, mut sample: impl FnMut(&mut Xoshiro256PlusPlus) -> (u32, bool, bool)) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(99);
    let shown = odds.integrity_loss.len() - 1;
    let mut losses = vec![0u64; shown + 1];
    let (mut hits, mut crits) = (0u64, 0u64);
    for _ in 0..SAMPLES {
        let (l, h, c) = sample(&mut rng);
        losses[(l as usize).min(shown)] += 1;
        hits += h as u64;
        crits += c as u64;
    }
    let alpha = FAMILY_ALPHA / (losses.len() + 2) as f64;
    for (l, (&k, &p)) in losses.iter().zip(&odds.integrity_loss).enumerate() {
        assert!(consistent(k, SAMPLES, p.min(1.0), alpha), "{name}: loss {l}: {k} of {SAMPLES} vs p {p}");
    }
    assert!(consistent(hits, SAMPLES, odds.p_hit, alpha), "{name}: P(hit)");
    assert!(consistent(crits, SAMPLES, odds.p_crit, alpha), "{name}: P(crit)");
}

fn model(stability: i32, strength: i32, armour: i32) -> Model {
    Model::new(&Mech::simple("m", stability, strength, armour, 30), None)
}

#[test]
fn shooting_laws_match_dice_rolled_one_by_one() {
    let o = Options::default();
    let cases = [
        ("3 dice d3 S3 vs A4", 3, 3, 4, Damage::D3, false),
        ("4 dice D2 S5 vs A2, Flurry", 4, 5, 2, Damage::Fixed(2), true),
        ("2 dice d3 S2 vs A5, Flurry", 2, 2, 5, Damage::D3, true),
        ("6 dice D1 S4 vs A3", 6, 4, 3, Damage::Fixed(1), false),
    ];
    for (name, dice, s, armour, dmg, flurry) in cases {
        let perks: &[Perk] = if flurry { &[Perk::Flurry] } else { &[] };
        let w = Weapon::ranged(name, 6, dmg, dice, perks);
        let odds = attack_odds(&model(s, 0, 4), &w, &model(4, 0, armour), &Situation::at_range(4), &o).unwrap();
        check(name, &odds, |rng| shoot(rng, dice, s, armour, dmg, flurry));
    }
}

#[test]
fn melee_laws_match_dice_rolled_one_by_one() {
    let o = Options::default();
    let cases = [
        ("3 dice D2, Str 2 vs 1, Rend 1", 3, 2, 1, 1, Damage::Fixed(2), false),
        ("2 dice d3, Str 0 vs 2, Flurry", 2, 0, 2, 0, Damage::D3, true),
        ("4 dice D1, Str -1 vs 0", 4, -1, 0, 0, Damage::Fixed(1), false),
    ];
    for (name, dice, sa, st, rend, dmg, flurry) in cases {
        let mut perks = vec![Perk::Rend(rend)];
        if flurry {
            perks.push(Perk::Flurry);
        }
        let w = Weapon::melee(name, dmg, dice, &perks);
        let odds = attack_odds(&model(4, sa, 4), &w, &model(4, st, 4), &Situation::at_range(1), &o).unwrap();
        check(name, &odds, |rng| melee(rng, dice, sa, st - rend as i32, dmg, flurry));
    }
}
