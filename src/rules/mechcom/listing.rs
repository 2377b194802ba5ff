//! `volley catalog` listings of a MECHCOM catalogue.

use crate::output::{Cell, Table};

use super::catalogue::{Catalogue, ability_name, perk_name};
use super::weapon::{Damage, Weapon, WeaponRange};

/// What `volley catalog` lists for MECHCOM, the default first.
pub const LISTINGS: &[&str] = &["mechs", "weapons", "pilots", "squads", "fields", "forces"];

/// One listing as a table.
///
/// # Errors
/// A listing that is not one of [`LISTINGS`].
pub fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
    Ok(match what {
        "mechs" => mechs(cat),
        "weapons" => weapons(&cat.weapons),
        "pilots" => pilots(cat),
        "squads" => squads(cat),
        "fields" => fields(cat),
        other => return Err(format!("mechcom catalogues list {}, not `{other}`", LISTINGS.join(", "))),
    })
}

/// A weapon's range as the catalogue writes it: `M` or hexes.
pub fn range_text(w: &Weapon) -> String {
    match w.range {
        WeaponRange::Melee => "M".into(),
        WeaponRange::Hexes(h) => h.to_string(),
    }
}

/// A weapon's damage as the catalogue writes it: a number or `d3`.
pub fn damage_text(d: Damage) -> String {
    match d {
        Damage::Fixed(n) => n.to_string(),
        Damage::D3 => "d3".into(),
    }
}

fn weapons(list: &[Weapon]) -> Table {
    let mut t = Table::new(["name", "range", "damage", "attacks", "perks"]);
    for w in list {
        let perks: Vec<String> = w.perks.iter().map(|&p| perk_name(p)).collect();
        t.push(vec![
            w.name.as_str().into(),
            range_text(w).into(),
            damage_text(w.damage).into(),
            w.attacks.into(),
            perks.join("; ").into(),
        ]);
    }
    t
}

fn mechs(cat: &Catalogue) -> Table {
    let mut t = Table::new([
        "name",
        "faction",
        "cost",
        "energy",
        "movement",
        "sensors",
        "stability",
        "strength",
        "armour",
        "integrity",
        "weapons",
        "abilities",
    ]);
    for m in &cat.mechs {
        let weapons: Vec<&str> = m.weapons.iter().map(|w| w.name.as_str()).collect();
        let abilities: Vec<String> = m.abilities.iter().map(|&a| ability_name(a).to_string()).collect();
        t.push(vec![
            m.name.as_str().into(),
            m.faction.map_or(Cell::Text("neutral".into()), |f| f.name().into()),
            m.cost.into(),
            m.energy.into(),
            m.movement.into(),
            m.sensors.into(),
            Cell::Int(m.stability.into()),
            Cell::Int(m.strength.into()),
            Cell::Int(m.armour.into()),
            m.integrity.into(),
            weapons.join("; ").into(),
            abilities.join("; ").into(),
        ]);
    }
    t
}

fn pilots(cat: &Catalogue) -> Table {
    let mut t = Table::new(["name", "kind", "cost", "faction", "mechs", "bonus"]);
    for p in &cat.pilots {
        let b = &p.bonus;
        let bonus: Vec<String> = [
            ("energy", b.energy),
            ("movement", b.movement),
            ("sensors", b.sensors),
            ("stability", b.stability),
            ("strength", b.strength),
            ("armour", b.armour),
            ("integrity", b.integrity),
        ]
        .iter()
        .filter(|(_, v)| *v != 0)
        .map(|(n, v)| format!("{n} {v:+}"))
        .collect();
        t.push(vec![
            p.name.as_str().into(),
            format!("{:?}", p.kind).to_lowercase().into(),
            p.cost.into(),
            p.faction.map_or(Cell::Null, |f| f.name().into()),
            p.mechs.join("; ").into(),
            bonus.join(", ").into(),
        ]);
    }
    t
}

/// One row per squad (`name`, as every ruleset lists its squads), its members with their
/// points in one cell.
fn squads(cat: &Catalogue) -> Table {
    let mut t = Table::new(["name", "faction", "budget", "points", "members"]);
    for s in &cat.squads {
        let members: Vec<String> = s.members.iter().map(|m| format!("{} ({})", cat.member_name(m), m.points)).collect();
        t.push(vec![
            s.name.as_str().into(),
            s.faction.name().into(),
            s.budget.into(),
            s.points.into(),
            members.join("; ").into(),
        ]);
    }
    t
}

fn fields(cat: &Catalogue) -> Table {
    let mut t = Table::new(["field", "opponent", "weight"]);
    for f in &cat.fields {
        for o in &f.opponents {
            t.push(vec![f.name.as_str().into(), o.model.as_str().into(), Cell::Float(o.weight)]);
        }
    }
    t
}
