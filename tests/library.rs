//! Library-level integration tests, grouped by purpose in one binary:
//! catalogue validation, kernel odds against the catalogue, and (later) the engine.

mod catalogue {
    use volley::model::source::SourceFile;
    use volley::model::{CatalogErrors, Catalogue};

    const WEAPON: &str = r#"
[[weapon]]
name = "Gun"
damage = 8
shots = 3
fire_control = 1
opt = 24
linkable = 2
weight = 5
power = 5
"#;

    const UNIT: &str = r#"
[[unit]]
name = "Dwarf"
kind = "msv"
ac = 4
free_weight = 10
free_power = 12
"#;

    fn load(files: &[(&str, &str)]) -> Result<Catalogue, CatalogErrors> {
        let sources: Vec<SourceFile> =
            files.iter().map(|(n, t)| SourceFile { name: n.to_string(), text: t.to_string() }).collect();
        Catalogue::from_sources("test", &sources)
    }

    fn errors(files: &[(&str, &str)]) -> Vec<String> {
        match load(files) {
            Ok(_) => panic!("expected errors"),
            Err(e) => e.0.iter().map(ToString::to_string).collect(),
        }
    }

    fn one_error(files: &[(&str, &str)]) -> String {
        let e = errors(files);
        assert_eq!(e.len(), 1, "{e:#?}");
        e[0].clone()
    }

    #[test]
    fn the_embedded_catalogue_is_valid_and_complete() {
        let cat = Catalogue::embedded().expect("valid");
        for (name, ac) in [
            ("Rhino", 2),
            ("Troll", 3),
            ("Gladiator", 4),
            ("Beagle", 5),
            ("Paladin", 6),
            ("Pigeonhawk", 3),
            ("Stingray", 2),
            ("Hunter IV", 3),
            ("Dwarf", 4),
            ("ECBS Troop", 1),
            ("Crew", 1),
        ] {
            assert_eq!(cat.unit(name).unwrap_or_else(|| panic!("{name}")).ac, ac, "{name}");
        }
        assert!(cat.unit("ECBS Troop").unwrap().power_armor);
        assert!(!cat.unit("Crew").unwrap().power_armor);
        let bubble = cat.unit("Bubble Shield").expect("from the CSV sheet");
        assert_eq!((bubble.ac, bubble.damage_ac), (5, 1));
        let dev = cat.weapon("Devastator").unwrap();
        assert_eq!((dev.shots, dev.fire_control, dev.opt, dev.drop, dev.drop_per), (3, 1, 24, 1, 1));
        assert_eq!(cat.weapon("Kabaaam").unwrap().damage, 24);
        use volley::model::UnitKind;
        let msv_acs: std::collections::BTreeSet<u32> =
            cat.builds.iter().filter(|b| cat.unit_of(b).kind == UnitKind::Msv).map(|b| cat.unit_of(b).ac).collect();
        assert_eq!(msv_acs.into_iter().collect::<Vec<_>>(), vec![3, 4, 5, 6]);
        assert!(cat.builds.iter().filter(|b| cat.unit_of(b).kind == UnitKind::Msv).count() >= 6);
        assert!(cat.builds.iter().filter(|b| cat.unit_of(b).kind == UnitKind::Vehicle).count() >= 3);
        assert_eq!(cat.hash.len(), 16);
    }

    #[test]
    fn a_good_catalogue_loads() {
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gun\", count = 2 }]\n";
        let cat = load(&[("w.toml", WEAPON), ("u.toml", UNIT), ("b.toml", build)]).unwrap();
        assert_eq!(cat.builds[0].systems[0].copies, 2);
        assert_eq!(cat.builds[0].weight, 10.0);
        assert_eq!(cat.builds[0].points, 4.0, "points default to AC");
    }

    #[test]
    fn unknown_keys_are_named_with_position_and_suggestion() {
        let text = WEAPON.replace("fire_control = 1", "fire_control = 1\nfire_contrl = 1");
        let e = one_error(&[("w.toml", &text)]);
        assert!(
            e.starts_with(
                "w.toml:7:1: weapon \"Gun\": field `fire_contrl`: unknown key (did you mean `fire_control`?)"
            ),
            "{e}"
        );
    }

    #[test]
    fn missing_required_fields() {
        let text = WEAPON.replace("damage = 8\n", "");
        let e = one_error(&[("w.toml", &text)]);
        assert!(e.contains("weapon \"Gun\": field `damage`: missing required field"), "{e}");
        assert!(e.starts_with("w.toml:2:1"), "points at the entry: {e}");
    }

    #[test]
    fn wrong_types_name_the_value() {
        let text = WEAPON.replace("shots = 3", "shots = \"three\"");
        let e = one_error(&[("w.toml", &text)]);
        assert!(e.starts_with("w.toml:5:9: weapon \"Gun\": field `shots`: expected an integer, found a string"), "{e}");
    }

    #[test]
    fn zero_and_negative_values_are_refused() {
        for (from, to, field) in [
            ("shots = 3", "shots = 0", "shots"),
            ("damage = 8", "damage = -2", "damage"),
            ("weight = 5", "weight = -1", "weight"),
            ("linkable = 2", "linkable = 0", "linkable"),
        ] {
            let e = one_error(&[("w.toml", &WEAPON.replace(from, to))]);
            assert!(e.contains(&format!("field `{field}`: must be")), "{e}");
        }
        let e = one_error(&[("u.toml", &UNIT.replace("ac = 4", "ac = 0"))]);
        assert!(e.contains("field `ac`: must be between 1 and 1000000, got 0"), "{e}");
    }

    #[test]
    fn duplicate_names_point_at_the_first() {
        let e = one_error(&[("a.toml", WEAPON), ("b.toml", WEAPON)]);
        assert!(e.starts_with("b.toml:2:1: weapon \"Gun\": field `name`: duplicate name"), "{e}");
        assert!(e.contains("already defined at a.toml:2:1"), "{e}");
    }

    #[test]
    fn unknown_references_suggest_the_closest() {
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gunn\" }]\ngear = [\"Smoke\"]\n";
        let e = errors(&[("w.toml", WEAPON), ("u.toml", UNIT), ("b.toml", build)]);
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(
            e.iter().any(|m| m.contains("field `weapons[0].name`: unknown weapon `Gunn` (did you mean `Gun`?)")),
            "{e:#?}"
        );
        assert!(e.iter().any(|m| m.contains("field `gear[0]`: unknown gear `Smoke`")), "{e:#?}");
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwraf\"\nweapons = [{ name = \"Gun\" }]\n";
        let e = one_error(&[("w.toml", WEAPON), ("u.toml", UNIT), ("b.toml", build)]);
        assert!(
            e.starts_with("b.toml:3:8: build \"D\": field `unit`: unknown unit `Dwraf` (did you mean `Dwarf`?)"),
            "{e}"
        );
    }

    #[test]
    fn builds_over_free_weight_or_power_say_by_how_much() {
        let gear = "[[gear]]\nname = \"Armor\"\nweight = 1\npower = 3\n";
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gun\", count = 2 }]\ngear = [\"Armor\"]\n";
        let e = errors(&[("w.toml", WEAPON), ("u.toml", UNIT), ("g.toml", gear), ("b.toml", build)]);
        assert!(
            e.iter()
                .any(|m| m
                    .contains("over the free weight of unit `Dwarf` by 1: weapons and gear use 11, the unit has 10")),
            "{e:#?}"
        );
        assert!(
            e.iter()
                .any(|m| m
                    .contains("over the free power of unit `Dwarf` by 1: weapons and gear use 13, the unit has 12")),
            "{e:#?}"
        );
    }

    #[test]
    fn linked_groups_cannot_exceed_linkable_except_on_vehicles() {
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gun\", count = 3 }]\n";
        let unit = UNIT.replace("free_weight = 10", "free_weight = 20").replace("free_power = 12", "free_power = 40");
        let e = one_error(&[("w.toml", WEAPON), ("u.toml", &unit), ("b.toml", build)]);
        assert!(e.contains("field `weapons[0].count`: 3 copies of `Gun` fire together but it is linkable 2"), "{e}");
        let tank = "[[unit]]\nname = \"Tank\"\nkind = \"vehicle\"\nac = 2\n";
        let build = "[[build]]\nname = \"T\"\nunit = \"Tank\"\nweapons = [{ name = \"Gun\", count = 3 }]\n";
        assert!(
            load(&[("w.toml", WEAPON), ("u.toml", tank), ("b.toml", build)]).is_ok(),
            "auto-stabilized vehicles are not link-limited"
        );
    }

    #[test]
    fn msv_class_limits() {
        let e = one_error(&[("u.toml", &UNIT.replace("ac = 4", "ac = 2"))]);
        assert!(e.contains("field `ac`: an MSV's AC must be a class in the MSV classes table (3 to 6), got 2"), "{e}");
        let e = one_error(&[("u.toml", &UNIT.replace("free_weight = 10", "free_weight = 21"))]);
        assert!(e.contains("field `free_weight`: 21 is over the MEDIUM MSV class limit of 20 (AC4)"), "{e}");
        // standard weapons count toward the class's gear weight
        let unit = UNIT.replace("free_weight = 10", "free_weight = 12")
            + "standard_weapons = [{ name = \"Gun\", count = 2 }]\n";
        let heavy = WEAPON
            .replace("name = \"Gun\"", "name = \"Big\"")
            .replace("weight = 5", "weight = 11")
            .replace("linkable = 2", "linkable = 1");
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Big\" }]\n";
        let e = one_error(&[("w.toml", WEAPON), ("h.toml", &heavy), ("u.toml", &unit), ("b.toml", build)]);
        assert!(
            e.contains(
                "field `weapons`: breaks the MEDIUM MSV class limit (AC4): gear weight 21 is over the class's 20 by 1"
            ),
            "{e}"
        );
    }

    #[test]
    fn msvs_need_free_weight_and_power() {
        let e = one_error(&[("u.toml", &UNIT.replace("free_power = 12\n", ""))]);
        assert!(e.contains("field `free_power`: missing"), "{e}");
    }

    #[test]
    fn csv_sheets_are_checked_like_toml() {
        let csv = "name,damage,shots,fire_control,opt,weight,power\nGun,8,3,1,24,5,5\nBad,x,0,1,24,5,5\n";
        let e = errors(&[("sheet-weapons.csv", csv)]);
        assert_eq!(e.len(), 2, "{e:#?}");
        assert!(
            e[0].starts_with("sheet-weapons.csv:3:2: weapon \"Bad\": field `damage`: expected an integer, found `x`"),
            "{e:#?}"
        );
        assert!(e[1].starts_with("sheet-weapons.csv:3:3: weapon \"Bad\": field `shots`: must be"), "{e:#?}");
        let e = one_error(&[("stats.csv", csv)]);
        assert!(e.contains("must end in `weapons`, `units` or `gear`"), "{e}");
        let units = "name,kind,ac,free_weight,free_power,abilities\nDwarf,msv,4,10,12,Wet Wire Jacks; Jump\n";
        let cat = load(&[("units.csv", units)]).unwrap();
        assert_eq!(cat.units[0].abilities, vec!["Wet Wire Jacks", "Jump"]);
    }

    #[test]
    fn every_error_is_reported_not_just_the_first() {
        let text = WEAPON.replace("shots = 3", "shots = 0")
            + &WEAPON.replace("name = \"Gun\"", "name = \"Gun2\"").replace("damage = 8", "damage = 0");
        assert_eq!(errors(&[("w.toml", &text)]).len(), 2);
    }

    #[test]
    fn toml_syntax_errors_point_at_the_spot() {
        let e = one_error(&[("w.toml", "[[weapon]]\nname = \"Gun\nshots = 3\n")]);
        assert!(e.starts_with("w.toml:2:"), "{e}");
        assert!(e.contains("not valid TOML"), "{e}");
    }
}

mod odds {
    use volley::model::Catalogue;
    use volley::rules::techcommander::{Attacker, Conditions, Smoke, TargetSpec, all_odds};

    #[test]
    fn the_catalogue_reproduces_the_worked_example() {
        let cat = Catalogue::embedded().unwrap();
        let a = Attacker::from_build(&cat, cat.build("Dwarf ALPHA").unwrap());
        let t = TargetSpec::parse("Stingray").unwrap().resolve(&cat).unwrap();
        let rows = all_odds(&a, &t, &Conditions { range: 27.0, smoke: Smoke::Smoke, ..Conditions::default() });
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].target_number(), Some(5));
        assert_eq!(rows[0].shots, 6);
    }

    #[test]
    fn kabaaam_table_from_the_book() {
        // 24 damage against every AC of the book's table, with a sure hit.
        let cat = Catalogue::embedded().unwrap();
        let mut a = Attacker::from_build(&cat, cat.build("Pigeonhawk Standard").unwrap());
        let k = a.system_index("Kabaaam").unwrap();
        a.systems[k].weapon.fire_control = 20;
        for (target, lost) in [
            ("Crew", 24),
            ("ECBS Troop", 24),
            ("Rhino", 12),
            ("Troll", 8),
            ("Gladiator", 6),
            ("Beagle", 4),
            ("Paladin", 4),
            ("Building", 2),
        ] {
            let t = TargetSpec::parse(target).unwrap().resolve(&cat).unwrap();
            let row = &all_odds(&a, &t, &Conditions::at_range(12.0))[k];
            assert_eq!(row.odds.life_lost.get(lost).copied(), Some(1.0), "{target}");
        }
    }
}
