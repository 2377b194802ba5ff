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
    type Check<'a> = (&'a str, &'a dyn Fn(&Perk) -> bool);
    let checks: [Check; 14] = [
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

/// A small valid catalogue: two weapons, three mechs of two factions, pilots of each type.
const BASE: &str = r#"[[weapon]]
name = "Flamer"
range = 3
damage = 2
attacks = 2
perks = ["Condition: Burned", "Superheated"]

[[weapon]]
name = "Claw"
range = "M"
damage = "d3"
attacks = 3
perks = ["Rend 1"]

[[mech]]
name = "Typhon"
faction = "HERAKLES"
cost = 240
energy = 9
movement = 4
sensors = 8
stability = 4
strength = 1
armour = 4
integrity = 10
weapons = ["Flamer"]
profiles = [{ name = "Overclocked", cost = 40 }]

[[mech]]
name = "Kerberos"
faction = "herakles"
cost = 300
energy = 9
movement = 4
sensors = 6
stability = 4
strength = 2
armour = 4
integrity = 11
weapons = ["Claw", "Flamer"]

[[mech]]
name = "Bulwark"
faction = "Corpro"
cost = 300
energy = 9
movement = 3
sensors = 7
stability = 4
strength = 1
armour = 5
integrity = 14
weapons = ["Flamer"]

[[pilot]]
name = "Steady"
type = "regular"
cost = 30
faction = "HERAKLES"
bonus = { stability = -1 }

[[pilot]]
name = "Kade"
type = "ace"
cost = 40
faction = "HERAKLES"
mechs = ["Typhon"]
bonus = { integrity = 2 }

[[pilot]]
name = "Rook"
type = "mercenary"
cost = 50
bonus = { energy = 3 }
"#;

#[test]
fn a_valid_catalogue_resolves_models_costs_and_selectors() {
    let squad = r#"[[squad]]
name = "Pyre"
faction = "HERAKLES"
members = [{ mech = "Typhon", pilot = "Kade", profile = "overclocked" }, "Kerberos+Rook", { mech = "Kerberos", pilot = "Steady" }]

[[field]]
name = "meta"
opponents = [{ mech = "Typhon", weight = 2 }, "Bulwark+Rook"]
"#;
    let cat = load(&[("base.toml", BASE), ("s.toml", squad)]).unwrap_or_else(|e| panic!("{e}"));
    let pyre = cat.squad("Pyre").unwrap();
    // 240 + 40 (profile) + 40, 300 + 50, 300 + 30.
    assert_eq!(pyre.members.iter().map(|m| m.points).collect::<Vec<_>>(), [320, 350, 330]);
    assert_eq!(pyre.points, 1000);
    assert_eq!(pyre.budget, 1000, "the default budget");
    assert_eq!(cat.cost("Typhon", Some("Kade")), 280.0);
    assert_eq!(cat.model_cost("Kerberos + Rook"), 350.0);
    let m = cat.model("Typhon", Some("Kade")).unwrap();
    assert_eq!(m.mech.integrity, 12);
    assert_eq!(cat.model_named("Typhon+Steady").unwrap().mech.stability, 3);
    assert_eq!(cat.model_named("Kerberos+Rook").unwrap().mech.energy, 12);
    let meta = cat.field("meta").unwrap();
    let named: Vec<(&str, f64)> = meta.opponents.iter().map(|o| (o.model.as_str(), o.weight)).collect();
    assert_eq!(named, [("Typhon", 2.0), ("Bulwark+Rook", 1.0)]);
    assert_eq!(cat.names().collect::<Vec<_>>(), ["Typhon", "Kerberos", "Bulwark"]);
    assert_eq!(cat.select("all").unwrap(), ["Typhon", "Kerberos", "Bulwark"]);
    assert_eq!(cat.select("faction:HERAKLES").unwrap(), ["Typhon", "Kerberos"]);
    assert_eq!(cat.select("faction:corpro").unwrap(), ["Bulwark"]);
    assert_eq!(cat.select("squad:Pyre").unwrap(), ["Typhon+Kade", "Kerberos+Rook", "Kerberos+Steady"]);
    assert_eq!(cat.select("Typhon").unwrap(), ["Typhon"]);
    assert_eq!(cat.select("Typhon+Kade").unwrap(), ["Typhon+Kade"]);
    assert_eq!(
        cat.select("Tyfon").unwrap_err(),
        "no mech named `Tyfon` in the test (did you mean `Typhon`?); a selector is `all`, `faction:NAME`, `squad:NAME`, `MECH` or `MECH+PILOT`"
    );
    assert_eq!(cat.select("squad:Pire").unwrap_err(), "no squad named `Pire` in the test (did you mean `Pyre`?)");
    assert_eq!(
        cat.select("faction:Herakels").unwrap_err(),
        "unknown faction `Herakels` (did you mean `HERAKLES`?); factions: I.C.S.E., Sha'Viðaar, HERAKLES, Corpro, Scrap Monkeys"
    );
    assert_eq!(cat.select("Typhon+Kaed").unwrap_err(), "no pilot named `Kaed` in the test (did you mean `Kade`?)");
    assert_eq!(cat.model("Kerberos", Some("Kade")).unwrap_err(), "pilot `Kade` flies only Typhon; not `Kerberos`");
    assert_eq!(
        cat.model("Bulwark", Some("Steady")).unwrap_err(),
        "pilot `Steady` requires a HERAKLES mech; `Bulwark` is Corpro"
    );
}

#[test]
fn unknown_perks_conditions_and_perk_values_are_named_with_a_suggestion() {
    let w = r#"[[weapon]]
name = "Gun"
range = 4
damage = 1
attacks = 2
perks = ["Superheat", "Condition: Burnt", "Volatile", "Rend 9", "Flurry 2", "Volatile 1", "Volatile 2"]
"#;
    assert_eq!(
        errors(&[("w.toml", w)]),
        [
            "w.toml:6:10: weapon \"Gun\": field `perks[0]`: unknown perk `Superheat` (did you mean `Superheated`?)",
            "w.toml:6:23: weapon \"Gun\": field `perks[1]`: unknown condition `Burnt` (did you mean `Burned`?); conditions: Blinded, Burned, Corroded, Hacked, Immobilized, Invisible, Malfunctioning, Shocked, Stunned, Submerged, Tethered",
            "w.toml:6:43: weapon \"Gun\": field `perks[2]`: perk `Volatile` needs its value X: write `Volatile 1`",
            "w.toml:6:55: weapon \"Gun\": field `perks[3]`: perk `Rend`: X must be between 1 and 6, got 9",
            "w.toml:6:65: weapon \"Gun\": field `perks[4]`: perk `Flurry` takes no value, got `2`",
            "w.toml:6:91: weapon \"Gun\": field `perks[6]`: perk `Volatile 2` is listed twice",
        ]
    );
}

#[test]
fn stats_outside_the_rules_ranges_unknown_keys_factions_and_abilities_are_errors() {
    let m = r#"[[mech]]
name = "Odd"
faction = "Herakels"
cost = 100
energy = 9
movement = 4
sensors = 8
stability = 7
strength = 1
armour = 8
integrity = 0
abilities = ["Red Hot Reactor", "Teleport"]
colour = "red"
"#;
    assert_eq!(
        errors(&[("m.toml", m)]),
        [
            "m.toml:3:11: mech \"Odd\": field `faction`: unknown faction `Herakels` (did you mean `HERAKLES`?); factions: I.C.S.E., Sha'Viðaar, HERAKLES, Corpro, Scrap Monkeys, neutral",
            "m.toml:8:13: mech \"Odd\": field `stability`: must be between 0 and 6, got 7",
            "m.toml:10:10: mech \"Odd\": field `armour`: must be between 0 and 7, got 8",
            "m.toml:11:13: mech \"Odd\": field `integrity`: must be between 1 and 100, got 0",
            "m.toml:12:14: mech \"Odd\": field `abilities[0]`: unknown ability `Red Hot Reactor` (did you mean `Red-Hot Reactor`?); volley plays Programming, Red-Hot Reactor, Searing Wave, Vent Coolant",
            "m.toml:12:33: mech \"Odd\": field `abilities[1]`: unknown ability `Teleport`; volley plays Programming, Red-Hot Reactor, Searing Wave, Vent Coolant",
            "m.toml:13:1: mech \"Odd\": field `colour`: unknown key; known keys: name, faction, cost, energy, movement, sensors, stability, strength, armour, integrity, weapons, abilities, profiles",
        ]
    );
    let w = "[[weapon]]\nname = \"Gun\"\nrange = \"L\"\ndamage = \"d4\"\nattacks = 0\nperk = [\"Flurry\"]\n";
    assert_eq!(
        errors(&[("w.toml", w)]),
        [
            "w.toml:3:9: weapon \"Gun\": field `range`: expected hexes (0 to 100) or \"M\" for melee, found `L`",
            "w.toml:4:10: weapon \"Gun\": field `damage`: expected Integrity per hit (1 to 20) or \"d3\", found `d4`",
            "w.toml:5:11: weapon \"Gun\": field `attacks`: must be between 1 and 20, got 0",
            "w.toml:6:1: weapon \"Gun\": field `perk`: unknown key (did you mean `perks`?); known keys: name, range, damage, attacks, perks",
        ]
    );
}

#[test]
fn unknown_names_are_named_with_a_suggestion_wherever_they_are_used() {
    let extra = r#"[[mech]]
name = "Scout"
faction = "Corpro"
cost = 100
energy = 6
movement = 5
sensors = 9
stability = 4
strength = 0
armour = 3
integrity = 6
weapons = ["Flamr"]

[[pilot]]
name = "Ace Two"
type = "ace"
cost = 40
faction = "HERAKLES"
mechs = ["Tyhpon"]

[[squad]]
name = "S"
faction = "HERAKLES"
members = [{ mech = "Kerberus" }, { mech = "Typhon", pilot = "Stedy" }, { mech = "Typhon", profile = "Overclock" }, "Typhon+Rok"]

[[field]]
name = "F"
opponents = [{ mech = "Bulwak" }]
"#;
    assert_eq!(
        errors(&[("base.toml", BASE), ("x.toml", extra)]),
        [
            "x.toml:12:12: mech \"Scout\": field `weapons[0]`: unknown weapon `Flamr` (did you mean `Flamer`?)",
            "x.toml:19:10: pilot \"Ace Two\": field `mechs[0]`: unknown mech `Tyhpon` (did you mean `Typhon`?)",
            "x.toml:24:21: squad \"S\": field `members[0].mech`: unknown mech `Kerberus` (did you mean `Kerberos`?)",
            "x.toml:24:62: squad \"S\": field `members[1].pilot`: unknown pilot `Stedy` (did you mean `Steady`?)",
            "x.toml:24:102: squad \"S\": field `members[2].profile`: mech `Typhon` has no profile `Overclock` (did you mean `Overclocked`?); its profiles: BASE, Overclocked",
            "x.toml:24:117: squad \"S\": field `members[3]`: unknown pilot `Rok` (did you mean `Rook`?)",
            "x.toml:28:23: field \"F\": field `opponents[0].mech`: unknown mech `Bulwak` (did you mean `Bulwark`?)",
        ]
    );
}

#[test]
fn a_name_defined_twice_is_an_error_of_the_later_definition_and_its_users_get_none() {
    let dup = r#"[[weapon]]
name = "Flamer"
range = 2
damage = 1
attacks = 1

[[pilot]]
name = "Rook"
type = "mercenary"
cost = 10
"#;
    let squad = "[[squad]]\nname = \"S\"\nfaction = \"HERAKLES\"\nmembers = [\"Typhon+Rook\"]\n";
    assert_eq!(
        errors(&[("base.toml", BASE), ("dup.toml", dup), ("s.toml", squad)]),
        [
            "dup.toml:2:8: weapon \"Flamer\": field `name`: duplicate name: weapon \"Flamer\" was first defined at base.toml:1:1",
            "dup.toml:8:8: pilot \"Rook\": field `name`: duplicate name: pilot \"Rook\" was first defined at base.toml:70:1",
        ]
    );
}

#[test]
fn squads_over_budget_of_mixed_factions_with_repeated_aces_or_unmet_requirements_are_errors() {
    let squads = r#"[[squad]]
name = "Big"
faction = "HERAKLES"
budget = 800
members = ["Kerberos", "Kerberos", { mech = "Typhon", profile = "Overclocked", pilot = "Steady" }]

[[squad]]
name = "Mixed"
faction = "HERAKLES"
members = ["Typhon", "Bulwark+Rook"]

[[squad]]
name = "Aces"
faction = "HERAKLES"
budget = 2000
members = ["Typhon+Kade", "Typhon+Kade", "Kerberos+Rook", "Kerberos+Rook", "Typhon+Steady", "Typhon+Steady"]

[[squad]]
name = "Unmet"
faction = "HERAKLES"
members = [{ mech = "Kerberos", pilot = "Kade" }]

[[squad]]
name = "Corp"
faction = "Corpro"
members = [{ mech = "Bulwark", pilot = "Steady" }]
"#;
    assert_eq!(
        errors(&[("base.toml", BASE), ("s.toml", squads)]),
        [
            "s.toml:1:1: squad \"Big\": field `members`: over budget by 110: the squad costs 910 points (mechs 840, profiles 40, pilots 30) and its budget is 800",
            "s.toml:10:22: squad \"Mixed\": field `members[1]`: mixed factions: mech `Bulwark` is Corpro, the squad is HERAKLES",
            "s.toml:16:27: squad \"Aces\": field `members[1]`: Ace `Kade` is already in the squad (members[0]): each Ace or Mercenary card is taken at most once (`ACES_MERCS_UNIQUE`)",
            "s.toml:16:59: squad \"Aces\": field `members[3]`: Mercenary `Rook` is already in the squad (members[2]): each Ace or Mercenary card is taken at most once (`ACES_MERCS_UNIQUE`)",
            "s.toml:21:41: squad \"Unmet\": field `members[0].pilot`: pilot `Kade` flies only Typhon; not `Kerberos`",
            "s.toml:26:40: squad \"Corp\": field `members[0].pilot`: pilot `Steady` requires a HERAKLES mech; `Bulwark` is Corpro",
        ]
    );
}

#[test]
fn pilot_cards_are_checked_against_their_type_faction_and_mechs() {
    let pilots = r#"[[pilot]]
name = "Merc"
type = "mercenary"
cost = 10
faction = "Corpro"

[[pilot]]
name = "Reg"
type = "regulr"
cost = 10

[[pilot]]
name = "Lost"
type = "ace"
cost = 10
mechs = ["Typhon"]

[[pilot]]
name = "Wrong"
type = "ace"
cost = 10
faction = "Corpro"
mechs = ["Typhon"]
bonus = { stability = -1, aim = 2 }
"#;
    assert_eq!(
        errors(&[("base.toml", BASE), ("p.toml", pilots)]),
        [
            "p.toml:5:11: pilot \"Merc\": field `faction`: a Mercenary has no faction requirement: remove `faction` (list `mechs` to restrict it)",
            "p.toml:9:8: pilot \"Reg\": field `type`: unknown pilot type `regulr` (did you mean `regular`?); types: regular, ace, mercenary",
            "p.toml:12:1: pilot \"Lost\": field `faction`: missing required field: an ace pilot requires a faction",
            "p.toml:23:10: pilot \"Wrong\": field `mechs[0]`: pilot `Wrong` requires a Corpro mech; `Typhon` is HERAKLES",
            "p.toml:24:27: pilot \"Wrong\": field `bonus.aim`: unknown key; known keys: energy, movement, sensors, stability, strength, armour, integrity",
        ]
    );
}

#[test]
fn a_file_with_many_errors_reports_them_all_at_once_and_no_knock_on_errors() {
    // A broken weapon, a mech using it (no error of its own for that), a squad using
    // that mech (none either), and independent errors in every entry.
    let text = r#"[[weapon]]
name = "Broken"
range = 3
damage = 0
attacks = 2

[[mech]]
name = "User"
faction = "Corpro"
cost = 100
energy = 9
movement = 4
sensors = 8
stability = 4
strength = 1
armour = 9
integrity = 10
weapons = ["Broken", "Clw"]

[[squad]]
name = "Users"
faction = "Corpro"
budget = 50
members = ["User", "Bulwark+Steady"]
speed = 3

[[field]]
name = "Empty"
opponents = []
"#;
    let e = errors(&[("base.toml", BASE), ("all.toml", text)]);
    assert_eq!(
        e,
        [
            "all.toml:4:10: weapon \"Broken\": field `damage`: must be between 1 and 20, got 0",
            "all.toml:16:10: mech \"User\": field `armour`: must be between 0 and 7, got 9",
            "all.toml:18:22: mech \"User\": field `weapons[1]`: unknown weapon `Clw` (did you mean `Claw`?)",
            "all.toml:24:20: squad \"Users\": field `members[1]`: pilot `Steady` requires a HERAKLES mech; `Bulwark` is Corpro",
            "all.toml:25:1: squad \"Users\": field `speed`: unknown key; known keys: name, faction, budget, members",
            "all.toml:27:1: field \"Empty\": field `opponents`: a field needs at least one opponent",
        ]
    );
}

#[test]
fn csv_stat_sheets_read_like_toml_and_errors_name_the_cell() {
    let weapons = "name,range,damage,attacks,perks\nSaw,M,d3,2,Rend 1; Flurry\nGun,5,2,2,Volatil 1\n";
    let mechs = "name,faction,cost,energy,movement,sensors,stability,strength,armour,integrity,weapons\n\
                 Junker,Scrap Monkeys,190,9,4,6,5,2,4,11,Saw; Gun\n\
                 Wreck,Scrap Monkeys,190,9,4,6,9,2,4,11,Saw\n";
    assert_eq!(
        errors(&[("w-weapons.csv", weapons), ("m-mechs.csv", mechs)]),
        [
            "m-mechs.csv:3:7: mech \"Wreck\": field `stability`: must be between 0 and 6, got 9",
            "w-weapons.csv:3:5: weapon \"Gun\": field `perks[0]`: unknown perk `Volatil 1` (did you mean `Volatile`?)",
        ]
    );
    let weapons = "name,range,damage,attacks,perks\nSaw,M,d3,2,Rend 1; Flurry\n";
    let mechs = "name,faction,cost,energy,movement,sensors,stability,strength,armour,integrity,weapons\n\
                 Junker,Scrap Monkeys,190,9,4,6,5,2,4,11,Saw\n";
    let cat = load(&[("w-weapons.csv", weapons), ("m-mechs.csv", mechs)]).unwrap();
    let saw = cat.weapon("Saw").unwrap();
    assert!(saw.is_melee() && saw.damage == volley::rules::mechcom::Damage::D3);
    assert_eq!(saw.perks, [Perk::Rend(1), Perk::Flurry]);
    assert_eq!(cat.mech("Junker").unwrap().faction, Some(Faction::ScrapMonkeys));
}

#[test]
fn additions_layered_on_the_embedded_catalogue_use_its_names_and_may_not_redefine_them() {
    use volley::catalogue::Layers;
    let dir = tempfile::tempdir().unwrap();
    let squad = "[[squad]]\nname = \"Twins\"\nfaction = \"HERAKLES\"\nmembers = [\"Typhon\", \"Typhon+Iris Kade\"]\n";
    std::fs::write(dir.path().join("twins.toml"), squad).unwrap();
    let mut layers = Layers::base(None, CATALOGUE_DIR);
    layers.add(&[dir.path().to_path_buf()]);
    let cat = layers.load(Catalogue::from_read).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cat.squad("Twins").unwrap().points, 240 + 240 + cat.pilot("Iris Kade").unwrap().cost);
    assert_eq!(cat.select("squad:Twins").unwrap(), ["Typhon", "Typhon+Iris Kade"]);

    let again = "[[mech]]\nname = \"Typhon\"\nfaction = \"Corpro\"\ncost = 1\nenergy = 1\nmovement = 1\nsensors = 1\nstability = 4\nstrength = 0\narmour = 4\nintegrity = 1\n";
    std::fs::write(dir.path().join("typhon.toml"), again).unwrap();
    let mut layers = Layers::base(None, CATALOGUE_DIR);
    layers.add(&[dir.path().join("typhon.toml")]);
    let e = layers.load(Catalogue::from_read).unwrap_err();
    let file = dir.path().join("typhon.toml").display().to_string();
    assert_eq!(
        e.0.iter().map(ToString::to_string).collect::<Vec<_>>(),
        [format!(
            "{file}:2:8: mech \"Typhon\": field `name`: duplicate name: mech \"Typhon\" was first defined at <embedded>/mechcom/mechs.toml:6:1"
        )]
    );
}

#[test]
fn terrain_joins_no_squad_and_field_opponents_meet_their_pilots_requirements() {
    let text = r#"[[mech]]
name = "Building"
faction = "neutral"
cost = 0
energy = 0
movement = 0
sensors = 0
stability = 0
strength = 0
armour = 2
integrity = 4

[[squad]]
name = "Walls"
faction = "HERAKLES"
members = ["Building"]

[[field]]
name = "F"
opponents = ["Kerberos+Kade", { mech = "Building", pilot = "Rook", weight = 2 }]
"#;
    assert_eq!(
        errors(&[("base.toml", BASE), ("t.toml", text)]),
        [
            "t.toml:16:12: squad \"Walls\": field `members[0]`: mech `Building` is neutral terrain: it cannot join a squad",
            "t.toml:20:14: field \"F\": field `opponents[0]`: pilot `Kade` flies only Typhon; not `Kerberos`",
            "t.toml:20:60: field \"F\": field `opponents[1].pilot`: mech `Building` is neutral terrain: it takes no pilot",
        ]
    );
    // The Building is a target with no faction: it takes no condition.
    let cat = load(&[("base.toml", BASE), ("t.toml", &text[..text.find("[[squad]]").unwrap()])]).unwrap();
    assert!(!cat.model("Building", None).unwrap().takes_conditions());
    assert!(!cat.select("all").unwrap().contains(&"Building".to_string()));
    assert!(cat.names().any(|n| n == "Building"));
}
