//! `volley catalog` listings of a TechCommander catalogue.

use crate::output::{Cell, Table};

use super::catalogue::Catalogue;

/// What `volley catalog` lists for TechCommander, the default first.
pub const LISTINGS: &[&str] = &["builds", "weapons", "units", "gear", "fields", "forces"];

/// One listing as a table.
///
/// # Errors
/// A listing that is not one of [`LISTINGS`].
pub fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
    Ok(match what {
        "weapons" => weapons(cat),
        "units" => units(cat),
        "gear" => gear(cat),
        "builds" => builds(cat),
        "fields" => fields(cat),
        other => return Err(format!("techcommander catalogues list {}, not `{other}`", LISTINGS.join(", "))),
    })
}

fn weapons(cat: &Catalogue) -> Table {
    let mut t = Table::new([
        "name",
        "damage",
        "shots",
        "fire_control",
        "min",
        "opt",
        "drop",
        "drop_per",
        "linkable",
        "rounds",
        "weight",
        "power",
        "nlos",
        "missile",
        "armor_piercing",
        "splash",
        "ignores_smoke",
    ]);
    for w in &cat.weapons {
        t.push(vec![
            w.name.as_str().into(),
            w.damage.into(),
            w.shots.into(),
            w.fire_control.into(),
            w.min.into(),
            w.opt.into(),
            w.drop.into(),
            w.drop_per.into(),
            w.linkable.into(),
            w.rounds.into(),
            w.weight.into(),
            w.power.into(),
            w.nlos.into(),
            w.missile.into(),
            w.armor_piercing.into(),
            w.splash.into(),
            w.ignores_smoke.into(),
        ]);
    }
    t
}

fn units(cat: &Catalogue) -> Table {
    let mut t = Table::new([
        "name",
        "kind",
        "ac",
        "damage_ac",
        "speed",
        "free_weight",
        "free_power",
        "to_hit_bonus",
        "damage_reduction",
        "power_armor",
        "points",
        "abilities",
    ]);
    for u in &cat.units {
        t.push(vec![
            u.name.as_str().into(),
            u.kind.as_str().into(),
            u.ac.into(),
            u.damage_ac.into(),
            u.speed.into(),
            u.free_weight.into(),
            u.free_power.into(),
            u.effects.to_hit_bonus.into(),
            u.effects.damage_reduction.into(),
            u.power_armor.into(),
            u.points.into(),
            u.abilities.join("; ").into(),
        ]);
    }
    t
}

fn gear(cat: &Catalogue) -> Table {
    let mut t = Table::new([
        "name",
        "weight",
        "power",
        "rounds",
        "to_hit_bonus",
        "damage_reduction",
        "ignores_smoke",
        "negates_fire_control",
    ]);
    for g in &cat.gear {
        t.push(vec![
            g.name.as_str().into(),
            g.weight.into(),
            g.power.into(),
            g.rounds.into(),
            g.effects.to_hit_bonus.into(),
            g.effects.damage_reduction.into(),
            g.effects.ignores_smoke.into(),
            g.effects.negates_fire_control.into(),
        ]);
    }
    t
}

fn builds(cat: &Catalogue) -> Table {
    let mut t = Table::new(["name", "unit", "kind", "ac", "points", "weapons", "gear", "weight", "power"]);
    for b in &cat.builds {
        let unit = cat.unit_of(b);
        let weapons: Vec<String> = b
            .systems
            .iter()
            .map(|s| {
                let name = &cat.weapons[s.weapon].name;
                if s.copies > 1 { format!("{}x {name}", s.copies) } else { name.clone() }
            })
            .collect();
        let gear: Vec<&str> = b.gear.iter().map(|&g| cat.gear[g].name.as_str()).collect();
        t.push(vec![
            b.name.as_str().into(),
            unit.name.as_str().into(),
            unit.kind.as_str().into(),
            unit.ac.into(),
            b.points.into(),
            weapons.join(" + ").into(),
            gear.join(", ").into(),
            b.weight.into(),
            b.power.into(),
        ]);
    }
    t
}

fn fields(cat: &Catalogue) -> Table {
    let mut t = Table::new(["field", "opponent", "weight"]);
    for f in &cat.fields {
        for &(b, w) in &f.opponents {
            t.push(vec![f.name.as_str().into(), cat.builds[b].name.as_str().into(), Cell::Float(w)]);
        }
    }
    t
}
