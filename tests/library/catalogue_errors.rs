//! Catalogue errors: every independent error in one pass, the later duplicate blamed,
//! no knock-on errors of an entry that already failed, positions of array items.

use volley::catalogue::source::SourceFile;
use volley::rules::techcommander::catalogue::Catalogue;

use super::catalogue::errors;

const GUN: &str = r#"[[weapon]]
name = "Gun"
damage = 8
shots = 3
fire_control = 1
opt = 24
linkable = 2
weight = 5
power = 5
"#;

const DWARF: &str = r#"[[unit]]
name = "Dwarf"
kind = "msv"
ac = 4
free_weight = 20
free_power = 20
"#;

#[test]
fn independent_errors_of_one_entry_come_in_one_pass() {
    // Each of these used to hide behind the first error of its entry.
    let weapon = r#"[[weapon]]
name = "Odd"
damage = 8
shots = 3
fire_control = 1
min = 30
opt = 24
weight = 5
power = 5
colour = "red"
"#;
    let unit = r#"[[unit]]
name = "Runt"
kind = "msv"
ac = 4
free_weight = 10
colour = "red"
"#;
    let build = r#"[[build]]
name = "B"
unit = "Dwarf"
weapons = [{ name = "Gnu" }]
colour = "red"
"#;
    let field = "[[field]]\nname = \"meta\"\nopponents = []\ncolour = 1\n";
    let e =
        errors(&[("w.toml", weapon), ("u.toml", &(DWARF.to_string() + unit)), ("b.toml", build), ("f.toml", field)]);
    assert_eq!(
        e,
        [
            "b.toml:4:12: build \"B\": field `weapons[0].name`: unknown weapon `Gnu`",
            "b.toml:5:1: build \"B\": field `colour`: unknown key; known keys: name, unit, weapons, gear, points",
            "f.toml:1:1: field \"meta\": field `opponents`: a field needs at least one opponent",
            "f.toml:4:1: field \"meta\": field `colour`: unknown key; known keys: name, opponents",
            "u.toml:7:1: unit \"Runt\": field `free_power`: missing: an MSV card lists its free weight and free power",
            "u.toml:12:1: unit \"Runt\": field `colour`: unknown key; known keys: name, kind, ac, damage_ac, speed, free_weight, free_power, to_hit_bonus, damage_reduction, ignores_smoke, negates_fire_control, power_armor, points, command, crew, abilities, standard_weapons, standard_gear",
            "w.toml:1:1: weapon \"Odd\": field `min`: minimum range 30 is beyond optimum range 24",
            "w.toml:10:1: weapon \"Odd\": field `colour`: unknown key; known keys: name, damage, shots, fire_control, min, opt, drop, drop_per, linkable, rounds, weight, power, nlos, missile, armor_piercing, splash, ignores_smoke, class",
        ]
    );
}

#[test]
fn a_misplaced_table_or_a_bad_csv_row_does_not_hide_the_rest_of_the_file() {
    let text = "[[weapons]]\nname = \"x\"\n\n".to_string() + &GUN.replace("damage = 8", "damage = 0");
    let csv = "name,damage,shots,fire_control,opt,weight,power\nA,8,3,1,24,5,5\n\"B,8\n";
    let e = errors(&[
        ("w.toml", &text),
        ("more-weapons.csv", csv),
        ("v-weapons.csv", "name,damage,shots,fire_control,opt,weight,power\nC,x,3,1,24,5,5\n"),
    ]);
    assert_eq!(e.len(), 4, "{e:#?}");
    assert!(e[0].starts_with("more-weapons.csv:3:1: not valid CSV"), "{e:#?}");
    assert_eq!(e[1], "v-weapons.csv:2:2: weapon \"C\": field `damage`: expected an integer, found `x`");
    assert!(e[2].starts_with("w.toml:1:3: unknown top-level key `weapons`"), "{e:#?}");
    assert_eq!(e[3], "w.toml:6:10: weapon \"Gun\": field `damage`: must be between 1 and 10000, got 0");
}

#[test]
fn every_toml_syntax_error_of_a_file_is_reported() {
    let text = "[[weapon]]\nname = \"Gun\"\ndamage = 8x\nshots = 3\nopt = @\n";
    let e = errors(&[("w.toml", text)]);
    assert!(e.len() >= 2, "{e:#?}");
    assert!(e.iter().any(|m| m.starts_with("w.toml:3:") && m.contains("not valid TOML")), "{e:#?}");
    assert!(e.iter().any(|m| m.starts_with("w.toml:5:") && m.contains("not valid TOML")), "{e:#?}");
}

#[test]
fn names_in_a_file_that_cannot_be_parsed_are_not_reported_unknown() {
    let broken = GUN.replace("damage = 8", "damage = 8x");
    let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [\"Gun\"]\n";
    let e = errors(&[("b.toml", build), ("u.toml", DWARF), ("w.toml", &broken)]);
    assert_eq!(e.len(), 1, "only the syntax error: {e:#?}");
    assert!(e[0].starts_with("w.toml:3:") && e[0].contains("not valid TOML"), "{e:#?}");
}

#[test]
fn a_duplicate_in_a_later_file_is_the_error_and_builds_are_not_blamed() {
    // The second Gun differs (linkable 1): the builds using two copies are fine against
    // the first definition and must not get link errors from the duplicate.
    let second = GUN.replace("linkable = 2", "linkable = 1");
    let build = "[[build]]\nname = \"Pair\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gun\", count = 2 }]\n";
    let field = "[[field]]\nname = \"meta\"\nopponents = [{ build = \"Pair\" }]\n";
    let e = errors(&[("a.toml", GUN), ("b.toml", &(second + build)), ("f.toml", field), ("u.toml", DWARF)]);
    assert_eq!(
        e,
        ["b.toml:2:8: weapon \"Gun\": field `name`: duplicate name: weapon \"Gun\" was first defined at a.toml:1:1"]
    );
}

#[test]
fn a_duplicate_later_in_the_same_file_is_the_error() {
    let text = GUN.to_string() + "\n" + GUN;
    let e = errors(&[("w.toml", &text)]);
    assert_eq!(
        e,
        ["w.toml:12:8: weapon \"Gun\": field `name`: duplicate name: weapon \"Gun\" was first defined at w.toml:1:1"]
    );
}

#[test]
fn entries_that_use_a_failed_entry_get_no_errors_of_their_own() {
    let bad_weapon = GUN.replace("name = \"Gun\"", "name = \"Bad\"").replace("damage = 8", "damage = 0");
    let bad_unit = DWARF.replace("name = \"Dwarf\"", "name = \"Wreck\"").replace("ac = 4", "ac = 9");
    let builds = r#"[[build]]
name = "UsesBad"
unit = "Dwarf"
weapons = ["Gun", "Bad"]

[[build]]
name = "OnWreck"
unit = "Wreck"
weapons = [{ name = "Gun", count = 9 }]

[[build]]
name = "Good"
unit = "Dwarf"
weapons = ["Gun"]
"#;
    let field = "[[field]]\nname = \"meta\"\nopponents = [{ build = \"UsesBad\" }, { build = \"OnWreck\" }, { build = \"Good\" }]\n";
    let e = errors(&[
        ("b.toml", builds),
        ("f.toml", field),
        ("u.toml", &(DWARF.to_string() + "\n" + &bad_unit)),
        ("w.toml", &(GUN.to_string() + "\n" + &bad_weapon)),
    ]);
    assert_eq!(
        e,
        [
            "u.toml:8:1: unit \"Wreck\": field `ac`: an MSV's AC must be a class in the MSV classes table (3 to 6; 2 under the 2nd edition), got 9",
            "w.toml:13:10: weapon \"Bad\": field `damage`: must be between 1 and 10000, got 0",
        ]
    );
}

#[test]
fn a_failed_build_is_not_an_unknown_build_of_a_field() {
    let build = "[[build]]\nname = \"B\"\nunit = \"Dwarf\"\nweapons = [\"Gun\"]\npoints = -1\n";
    let field = "[[field]]\nname = \"meta\"\nopponents = [{ build = \"B\" }, { build = \"Nobody\" }]\n";
    let e = errors(&[("b.toml", build), ("f.toml", field), ("u.toml", DWARF), ("w.toml", GUN)]);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e[0].starts_with("b.toml:5:10: build \"B\": field `points`"), "{e:#?}");
    assert_eq!(e[1], "f.toml:3:31: field \"meta\": field `opponents[1].build`: unknown build `Nobody`");
}

#[test]
fn errors_inside_inline_arrays_point_at_the_item() {
    let build = r#"[[build]]
name = "B"
unit = "Dwarf"
weapons = [
  { name = "Gun", count = 1 },
  { name = "Gnu", count = 1 },
]
gear = ["Smoke", "Smok"]
"#;
    let unit = DWARF.to_string() + "standard_weapons = [\"Gun\", { name = \"Laser\" }]\nstandard_gear = [\"Flare\"]\n";
    let e = errors(&[("b.toml", build), ("u.toml", &unit), ("w.toml", GUN)]);
    assert_eq!(
        e,
        [
            "b.toml:6:3: build \"B\": field `weapons[1].name`: unknown weapon `Gnu`",
            "b.toml:8:9: build \"B\": field `gear[0]`: unknown gear `Smoke`",
            "b.toml:8:18: build \"B\": field `gear[1]`: unknown gear `Smok`",
            "u.toml:7:28: unit \"Dwarf\": field `standard_weapons[1].name`: unknown weapon `Laser`",
            "u.toml:8:18: unit \"Dwarf\": field `standard_gear[0]`: unknown gear `Flare`",
        ]
    );
}

#[test]
fn missing_keys_in_an_inline_table_point_at_the_table() {
    let build = "[[build]]\nname = \"B\"\nunit = \"Dwarf\"\nweapons = [\"Gun\",\n   { count = 2 }]\n";
    let e = errors(&[("b.toml", build), ("u.toml", DWARF), ("w.toml", GUN)]);
    assert_eq!(e, ["b.toml:5:4: build \"B\": field `weapons[1].name`: missing required field"]);
}

#[test]
fn wrong_types_take_the_right_article() {
    let e = errors(&[("w.toml", &GUN.replace("name = \"Gun\"", "name = 5"))]);
    assert_eq!(e, ["w.toml:2:8: weapon #1: field `name`: expected a string, found an integer"]);
    let e = errors(&[("w.toml", "weapon = [1]\n")]);
    assert_eq!(e, ["w.toml:1:11: weapon #1 must be a table, found an integer"]);
}

#[test]
fn layers_extend_a_base_and_blame_the_addition_for_a_clash() {
    use volley::catalogue::Layers;
    use volley::rules::techcommander::catalogue::CATALOGUE_DIR;
    let dir = tempfile::tempdir().unwrap();
    let extra = dir.path().join("extra.toml");
    let build = "[[build]]\nname = \"Dwarf Two\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Devastator\" }]\n";
    std::fs::write(&extra, build).unwrap();
    let sources = [SourceFile { name: "extra.toml".into(), text: build.into() }];
    assert!(Catalogue::refers_to_undefined(&sources), "uses the built-in Dwarf and Devastator");
    let mut layers = Layers::base(None, CATALOGUE_DIR);
    layers.add(std::slice::from_ref(&extra));
    let cat = layers.load(Catalogue::from_read).unwrap();
    assert!(cat.build("Dwarf Two").is_some() && cat.build("Dwarf ALPHA").is_some());
    assert_eq!(cat.origin, format!("embedded default catalogue with additions from {}", extra.display()));
    std::fs::write(&extra, GUN.replace("\"Gun\"", "\"Kabaaam\"")).unwrap();
    let mut clash = Layers::base(None, CATALOGUE_DIR);
    clash.add(std::slice::from_ref(&extra));
    let e: Vec<String> = clash.load(Catalogue::from_read).unwrap_err().0.iter().map(ToString::to_string).collect();
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].starts_with(&format!("{}:2:8: weapon \"Kabaaam\": field `name`: duplicate name: weapon \"Kabaaam\" was first defined at <embedded>/techcommander/weapons.toml:", extra.display())), "{e:#?}");
}
