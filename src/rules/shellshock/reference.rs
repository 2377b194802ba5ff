//! The reference attack run of shellshock.md §7 vector 16, built from typed stats (no
//! catalogue file): the book's 30mm Machine Gun (SA 3/2/2), Gunnery 0, 2d10, range 24
//! against SA DV 11 (TN 13), armour 20, Shock Threshold 6, Penetration Factor 6, boxes
//! 2+ 5%/1, 5+ 10%/1, 8+ 20%/2, 13+ 30%/3, Dead 18+. The speed benchmark runs it.

use super::attack_run::AttackRun;
use super::catalogue::Catalogue;
use super::conditions::Conditions;
use super::damage::InternalBox;
use super::options::Options;
use super::roll::Dice;
use super::unit::{Armor, Chart, DvType, Era, Gunner, Unit, Weapon, WeaponClass};

/// The vector-16 unit (attacker and target alike) and its one-weapon catalogue.
fn vector_16_catalogue() -> Catalogue {
    let weapon = Weapon {
        name: "30mm Machine Gun".into(),
        kind: DvType::SA,
        damage: 3,
        shock: 2,
        penetration: 2,
        spreadfire: true,
        indirect: false,
        range: 60,
        class: WeaponClass::Other,
        ammo: None,
    };
    let unit = Unit {
        name: "Reference".into(),
        era: Era::Future,
        dice: Dice::TwoD10,
        defense: [12, 10, 8, 10, 11, 14],
        defense_side: [12, 10, 8, 10, 11, 14],
        stealth: 0,
        armor: Armor { front: 20, side: 14, rear: 10, top: 8 },
        shock_threshold: 6,
        penetration_factor: 6,
        dead_at: 18,
        internal: [(2, 5, 1), (5, 10, 1), (8, 20, 2), (13, 30, 3)]
            .map(|(from, percent, hits)| InternalBox { from, percent, hits })
            .to_vec(),
        chart: 0,
        gunners: vec![Gunner { skill: Some(0), weapons: vec![0] }],
        piloting: None,
        pilot: None,
        ecv: 100.0,
    };
    Catalogue {
        weapons: vec![weapon],
        units: vec![unit],
        charts: vec![Chart { name: "none".into(), lines: vec!['A'; 100], equipment: Vec::new(), locomotion: None }],
        fields: Vec::new(),
        forces: Vec::new(),
        crew: Vec::new(),
        cards: 1,
        origin: "shellshock.md §7 vector 16".into(),
        hash: String::new(),
    }
}

/// The vector-16 attack run with `max_turns` turns (the vector reports 12).
pub fn vector_16(max_turns: u32) -> AttackRun {
    let cat = vector_16_catalogue();
    let u = &cat.units[0];
    AttackRun::new(&cat, u, u, &Conditions::default(), &Options::default(), max_turns)
        .expect("the reference run compiles")
}
