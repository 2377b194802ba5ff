//! The MECHCOM catalogue: the shipped catalogue loads and every weapon attacks every
//! mech; every kind of error is reported with file, line, column, entry and field, all
//! at once; model names, costs and selectors.

use volley::catalogue::source::SourceFile;
use volley::rules::mechcom::catalogue::{CATALOGUE_DIR, CatalogErrors, Catalogue};
use volley::rules::mechcom::{Faction, Options, Perk, PilotKind, Situation, WeaponRange, attack_odds};

/// The catalogue of these files (named as given), checked as a whole.
fn load(files: &[(&str, &str)]) -> Result<Catalogue, CatalogErrors> {
    let sources: Vec<SourceFile> =
        files.iter().map(|(n, t)| SourceFile { name: n.to_string(), text: t.to_string() }).collect();
    Catalogue::from_read("test", &sources, Vec::new())
}

/// Every error message of these files, in the order reported (panics if none).
fn errors(files: &[(&str, &str)]) -> Vec<String> {
    match load(files) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e.0.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn the_embedded_catalogue_loads_with_no_error() {
    assert_eq!(CATALOGUE_DIR, "mechcom");
    let cat = Catalogue::embedded().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cat.origin, "embedded default catalogue");
    assert_eq!(cat.hash.len(), 16);
    let factions: std::collections::HashSet<_> = cat.mechs.iter().filter_map(|m| m.faction).collect();
    assert_eq!(factions.len(), Faction::ALL.len(), "every faction has a mech");
    assert!(cat.mechs.iter().filter(|m| m.faction.is_some()).count() >= 6);
    assert!(cat.weapons.len() >= 10);
    let kinds: Vec<PilotKind> = cat.pilots.iter().map(|p| p.kind).collect();
    assert!(cat.pilots.len() >= 4);
    for k in [PilotKind::Regular, PilotKind::Ace, PilotKind::Mercenary] {
        assert!(kinds.contains(&k), "{k:?}");
    }
    assert!(cat.squads.len() >= 3);
    for s in &cat.squads {
        assert_eq!(s.budget, 1000, "{}", s.name);
        assert!(s.points <= s.budget, "{}", s.name);
    }
    assert!(!cat.fields.is_empty());
    // The book's printed numbers.
    let typhon = cat.mech("Typhon").unwrap();
    assert_eq!(typhon.cost, 240);
    let flamer = cat.weapon("Prometheus Model Flamethrower").unwrap();
    assert_eq!(*flamer, volley::rules::mechcom::Weapon::prometheus_flamethrower());
    assert_eq!(typhon.weapons, vec![flamer.clone()]);
    let building = cat.mech("Building").unwrap();
    assert_eq!((building.faction, building.integrity, building.armour), (None, 4, 2));
}

#[test]
fn the_shipped_weapons_cover_every_perk_the_kernel_plays() {
    let cat = Catalogue::embedded().unwrap();
    let has = |f: &dyn Fn(&Perk) -> bool| cat.weapons.iter().any(|w| w.perks.iter().any(f));
    let checks: [(&str, &dyn Fn(&Perk) -> bool); 14] = [
        ("Ammo", &|p| matches!(p, Perk::Ammo(_))),
        ("Artillery", &|p| *p == Perk::Artillery),
        ("Backfire", &|p| matches!(p, Perk::Backfire(_))),
        ("Barrage", &|p| *p == Perk::Barrage),
        ("Blast", &|p| *p == Perk::Blast),
        ("Condition", &|p| matches!(p, Perk::Condition(_))),
        ("Critical condition", &|p| matches!(p, Perk::CriticalCondition(_))),
        ("Flurry", &|p| *p == Perk::Flurry),
        ("Heavy", &|p| *p == Perk::Heavy),
        ("Rend", &|p| matches!(p, Perk::Rend(_))),
        ("Sniper", &|p| *p == Perk::Sniper),
        ("Superheated", &|p| *p == Perk::Superheated),
        ("Ultralight", &|p| *p == Perk::Ultralight),
        ("Volatile", &|p| matches!(p, Perk::Volatile(_))),
    ];
    for (name, check) in checks {
        assert!(has(check), "no shipped weapon has {name}");
    }
    assert!(cat.weapons.iter().any(|w| w.is_melee()), "a melee weapon");
    assert!(cat.weapons.iter().any(|w| w.damage == volley::rules::mechcom::Damage::D3), "d3 damage");
}

#[test]
fn every_shipped_weapon_attacks_every_shipped_mech_at_range_1_and_at_its_own_range() {
    let cat = Catalogue::embedded().unwrap();
    let o = Options::default();
    let mut attacks = 0;
    for weapon in &cat.weapons {
        let carriers: Vec<_> = cat.mechs.iter().filter(|m| m.weapons.contains(weapon)).collect();
        assert!(!carriers.is_empty(), "no mech carries {}", weapon.name);
        let own = match weapon.range {
            WeaponRange::Hexes(r) => r,
            WeaponRange::Melee => o.melee_range_hexes,
        };
        for carrier in carriers {
            let attacker = cat.model(&carrier.name, None).unwrap();
            for target in &cat.mechs {
                let target = cat.model(&target.name, None).unwrap();
                for range in [1, own] {
                    // Artillery must consume a Spot token.
                    let spot_tokens = weapon.has(Perk::Artillery) as u32;
                    let sit = Situation { spot_tokens, ..Situation::at_range(range) };
                    let odds = attack_odds(&attacker, weapon, &target, &sit, &o).unwrap_or_else(|e| {
                        panic!("{} with {} at {} ({range} hexes): {e}", carrier.name, weapon.name, target.mech.name)
                    });
                    let total: f64 = odds.integrity_loss.iter().sum();
                    assert!((total - 1.0).abs() < 1e-9, "{}: {total}", weapon.name);
                    attacks += 1;
                }
            }
        }
    }
    assert!(attacks > 100);
}
