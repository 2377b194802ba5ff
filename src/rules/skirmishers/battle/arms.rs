//! The melee weapons every trooper carries (§4 Melee): fists, and the bayonet on a rifle
//! or SMG; power armour's fists (Power Armor "Melee Combat"). Their use in a fight is
//! module `melee`.

use super::super::weapon::{ApCost, Blunt, Class, Slot, Weapon};

/// The book's Bayonet/Knife (Melee Secondary Weapons): 3X, 5 AP, range 1.
pub fn bayonet() -> Weapon {
    melee("Bayonet/Knife", 3, Blunt::Points(0))
}

/// The book's Fists: (max AP / 2)\, 5 AP, range 1.
pub fn fists() -> Weapon {
    melee("Fists", 0, Blunt::Fists)
}

/// The book's power-armour Fists (Power Armor Melee Weapons): 1X plus (max AP / 2)\, 5
/// AP ("It costs 5 AP to make a melee attack"), range 1.
pub fn power_fists() -> Weapon {
    melee("Power Armor Fists", 1, Blunt::Fists)
}

fn melee(name: &str, lethal: u32, blunt: Blunt) -> Weapon {
    Weapon {
        name: name.into(),
        class: Class::Melee,
        lethal: vec![lethal],
        blunt,
        shots: None,
        ap_cost: Some(ApCost::Fixed(5)),
        ammo: None,
        short: Some(1),
        long: None,
        pv: 0,
        crew: 0,
        incendiary: false,
        slot: Slot::Carried,
    }
}
