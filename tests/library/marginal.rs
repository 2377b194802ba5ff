//! A weapon's marginal value where the book prices no weapon (MECHCOM): the build's
//! expected Integrity loss in round 1 with the weapon minus without it, the
//! run planned again with the Energy the weapon frees.

use volley::catalogue::source::{SourceFile, embedded};
use volley::output::Cell;
use volley::rules::axis::Point;
use volley::rules::mechcom::Mechcom;
use volley::rules::mechcom::catalogue::{CATALOGUE_DIR, Catalogue};
use volley::rules::ruleset::{CostRow, Engagements, Game, Reports};
use volley::sweep::scenario::all_specs;

const MECHS: &str = r#"
[[mech]]
name = "Solo"
faction = "HERAKLES"
cost = 100
energy = 9
movement = 4
sensors = 6
stability = 4
strength = 2
armour = 4
integrity = 11
weapons = ["Buzzkil Rifle"]

[[mech]]
name = "Pistolero"
faction = "HERAKLES"
cost = 100
energy = 9
movement = 4
sensors = 6
stability = 4
strength = 2
armour = 4
integrity = 11
weapons = ["Needle Pistol"]

[[mech]]
name = "Pair"
faction = "HERAKLES"
cost = 100
energy = 9
movement = 4
sensors = 6
stability = 4
strength = 2
armour = 4
integrity = 11
weapons = ["Buzzkil Rifle", "Needle Pistol"]
"#;

fn float(c: &Cell) -> f64 {
    match c {
        Cell::Float(x) => *x,
        other => panic!("not a number: {other:?}"),
    }
}

/// Columns of MECHCOM's value cells.
const PER_ROUND: usize = 1;
const PER_ATTACK: usize = 3;
const MARGINAL: usize = 5;
const MARGINAL_PER_POINT: usize = 6;
const ROUNDS_SAVED: usize = 7;

fn rows(cat: &Catalogue, attacker: &str) -> Vec<CostRow> {
    let point = Point::new(&all_specs::<Mechcom>(), &[("range", "4".to_string())]).unwrap();
    let c = <Mechcom as volley::rules::ruleset::ConditionRules>::conditions(&point).unwrap();
    let o = <Mechcom as Game>::Options::default();
    let policy = <Mechcom as Game>::Policy::default();
    let run = Mechcom::attack_run(cat, attacker, "Kerberos", &c, &o, policy, 12).unwrap();
    Mechcom::cost_rows(cat, attacker, "Kerberos", &c, &o, &run, policy, 12).unwrap()
}

#[test]
fn a_weapon_is_worth_what_the_build_loses_without_it() {
    let mut files = embedded(CATALOGUE_DIR);
    files.push(SourceFile { name: "marginal.toml".into(), text: MECHS.into() });
    let cat = Catalogue::from_read("test", &files, Vec::new()).unwrap_or_else(|e| panic!("{e}"));
    let (solo, pistolero, pair) = (rows(&cat, "Solo"), rows(&cat, "Pistolero"), rows(&cat, "Pair"));
    let per_round = |r: &[CostRow]| float(&r[0].value_cells[PER_ROUND]);
    let weapon = |r: &[CostRow], name: &str| r.iter().find(|x| x.weapon.as_deref() == Some(name)).cloned().unwrap();
    assert!(per_round(&solo) > 0.0 && per_round(&pistolero) > 0.0);
    assert!(matches!(solo[0].value_cells[MARGINAL], Cell::Null), "build rows carry no marginal value");
    // Alone, the rifle is the whole of the build's round.
    let rifle = weapon(&solo, "Buzzkil Rifle");
    assert!((float(&rifle.value_cells[MARGINAL]) - per_round(&solo)).abs() < 1e-12);
    assert!((float(&rifle.value_cells[MARGINAL_PER_POINT]) - per_round(&solo) / 100.0).abs() < 1e-14);
    // With two weapons, each is worth what the build loses without it (the round
    // planned again with the Energy it frees).
    let (r, p) = (weapon(&pair, "Buzzkil Rifle"), weapon(&pair, "Needle Pistol"));
    assert!((float(&r.value_cells[MARGINAL]) - (per_round(&pair) - per_round(&pistolero))).abs() < 1e-12);
    assert!((float(&p.value_cells[MARGINAL]) - (per_round(&pair) - per_round(&solo))).abs() < 1e-12);
    // The negative control: the pistol's own attack is worth something, but the rifle
    // makes it redundant (the same weapon may fire again, REPEAT_ACTIONS, and the Energy
    // goes to the better one), so its marginal value is less than its attack's.
    let pistol_attack = float(&p.value_cells[PER_ATTACK]);
    assert!(pistol_attack > 0.0);
    assert!(float(&p.value_cells[MARGINAL]) < pistol_attack - 1e-9, "{:?}", p.value_cells);
}

/// Shellshock: each gunner rolls for its own weapons, so a gunner's marginal value is its
/// roll's expected Internal and the gunners' marginal values add up to the unit's turn;
/// per ECV they divide by the unit's ECV, and the per-ECV columns of the build are not
/// repeated on weapon rows.
#[test]
fn shellshock_gunners_add_up_to_the_unit() {
    use volley::rules::shellshock::Shellshock;
    let cat = volley::rules::shellshock::Catalogue::embedded().unwrap_or_else(|e| panic!("{e}"));
    let point = Point::new(&all_specs::<Shellshock>(), &[("range", "12".to_string())]).unwrap();
    let c = <Shellshock as volley::rules::ruleset::ConditionRules>::conditions(&point).unwrap();
    let o = <Shellshock as Game>::Options::default();
    let policy = <Shellshock as Game>::Policy::default();
    let (a, t) = ("Main Battle Tank", "Hover Skirmisher");
    let run = Shellshock::attack_run(&cat, a, t, &c, &o, policy, 12).unwrap();
    let rows = Shellshock::cost_rows(&cat, a, t, &c, &o, &run, policy, 12).unwrap();
    assert!(rows.len() > 2, "a unit with several gunners: {rows:?}");
    let per_turn = float(&rows[0].value_cells[1]);
    let ecv = <Shellshock as volley::rules::ruleset::Catalogue>::points(&cat, a).unwrap();
    let marginals: f64 = rows[1..].iter().map(|r| float(&r.value_cells[5])).sum();
    assert!((marginals - per_turn).abs() < 1e-12, "{marginals} vs {per_turn}");
    for r in &rows[1..] {
        assert!((float(&r.value_cells[5]) - float(&r.value_cells[1])).abs() < 1e-12);
        assert!((float(&r.value_cells[6]) - float(&r.value_cells[5]) / ecv).abs() < 1e-15);
        assert!(matches!(r.value_cells[2], Cell::Null) && matches!(r.value_cells[4], Cell::Null), "{r:?}");
    }
}

/// The Typhon's round 1 is all Searing Wave, so its flamethrower adds nothing to round 1,
/// but over the run (Searing Wave has 5 uses a game) it saves rounds.
#[test]
fn a_weapon_held_back_in_round_one_still_saves_rounds() {
    let cat = Catalogue::embedded().unwrap_or_else(|e| panic!("{e}"));
    let point = Point::new(&all_specs::<Mechcom>(), &[("range", "3".to_string())]).unwrap();
    let c = <Mechcom as volley::rules::ruleset::ConditionRules>::conditions(&point).unwrap();
    let o = <Mechcom as Game>::Options::default();
    let policy = <Mechcom as Game>::Policy::default();
    let run = Mechcom::attack_run(&cat, "Typhon", "Kerberos", &c, &o, policy, 12).unwrap();
    let rows = Mechcom::cost_rows(&cat, "Typhon", "Kerberos", &c, &o, &run, policy, 12).unwrap();
    let flamer = rows.iter().find(|r| r.weapon.as_deref() == Some("Prometheus Model Flamethrower")).unwrap();
    assert!(float(&flamer.value_cells[MARGINAL]).abs() < 1e-12, "{:?}", flamer.value_cells);
    assert!(float(&flamer.value_cells[ROUNDS_SAVED]) > 0.5, "{:?}", flamer.value_cells);
}
