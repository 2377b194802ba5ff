//! Library-level integration tests, grouped by purpose in one binary:
//! catalogue validation, kernel odds against the catalogue, and (later) the engine.

#[path = "library/catalogue_errors.rs"]
mod catalogue_errors;

mod catalogue {
    use volley::catalogue::source::SourceFile;
    use volley::rules::techcommander::catalogue::{CatalogErrors, Catalogue};

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

    /// The catalogue of these files (named as given), checked as a whole.
    pub(crate) fn load(files: &[(&str, &str)]) -> Result<Catalogue, CatalogErrors> {
        let sources: Vec<SourceFile> =
            files.iter().map(|(n, t)| SourceFile { name: n.to_string(), text: t.to_string() }).collect();
        Catalogue::from_sources("test", &sources)
    }

    /// Every error message of these files, in the order reported (panics if none).
    pub(crate) fn errors(files: &[(&str, &str)]) -> Vec<String> {
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
        use volley::rules::techcommander::catalogue::UnitKind;
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
        assert!(e.starts_with("b.toml:3:8: weapon \"Gun\": field `name`: duplicate name"), "{e}");
        assert!(e.contains("first defined at a.toml:2:1"), "{e}");
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
    fn copies_beyond_linkable_are_systems_of_their_own_except_on_vehicles() {
        // The book limits how many copies fire together ("up to the linkable maximum"),
        // not how many are carried: 3 copies of a linkable-2 gun are a linked pair and a
        // third system (they were refused).
        let build = "[[build]]\nname = \"D\"\nunit = \"Dwarf\"\nweapons = [{ name = \"Gun\", count = 3 }]\n";
        let unit = UNIT.replace("free_weight = 10", "free_weight = 20").replace("free_power = 12", "free_power = 40");
        let cat = load(&[("w.toml", WEAPON), ("u.toml", &unit), ("b.toml", build)]).expect("extra copies are carried");
        let copies: Vec<u32> = cat.build("D").unwrap().systems.iter().map(|s| s.copies).collect();
        assert_eq!(copies, [2, 1]);
        let tank = "[[unit]]\nname = \"Tank\"\nkind = \"vehicle\"\nac = 2\n";
        let build = "[[build]]\nname = \"T\"\nunit = \"Tank\"\nweapons = [{ name = \"Gun\", count = 3 }]\n";
        assert!(
            load(&[("w.toml", WEAPON), ("u.toml", tank), ("b.toml", build)]).is_ok(),
            "auto-stabilized vehicles are not link-limited"
        );
    }

    #[test]
    fn msv_class_limits() {
        let e = one_error(&[("u.toml", &UNIT.replace("ac = 4", "ac = 1"))]);
        assert!(
            e.contains("field `ac`: an MSV's AC must be a class in the MSV classes table (3 to 6; 2 under the 2nd edition), got 1"),
            "{e}"
        );
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
    use volley::rules::techcommander::catalogue::Catalogue;
    use volley::rules::techcommander::{Attacker, Conditions, Smoke, TargetSpec, all_odds};

    #[test]
    fn the_catalogue_reproduces_the_worked_example() {
        let cat = Catalogue::embedded().unwrap();
        let a = Attacker::from_build(&cat, cat.build("Dwarf ALPHA").unwrap());
        let t = TargetSpec::parse("Stingray").unwrap().resolve(&cat).unwrap();
        let rows = all_odds(
            &a,
            &t,
            &Conditions { range: 27.0, smoke: Smoke::Smoke, ..Conditions::default() },
            &volley::rules::techcommander::Options::default(),
        );
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
            let row =
                &all_odds(&a, &t, &Conditions::at_range(12.0), &volley::rules::techcommander::Options::default())[k];
            assert_eq!(row.odds.life_lost.get(lost).copied(), Some(1.0), "{target}");
        }
    }
}

/// Builders for hand-made attackers and targets.
mod fixtures {
    use volley::rules::techcommander::catalogue::{UnitKind, Weapon};
    use volley::rules::techcommander::{Attacker, Target};

    pub fn weapon(name: &str, shots: u32, damage: u32, fire_control: i32) -> Weapon {
        Weapon { weight: 1.0, power: 1.0, ..Weapon::simple(name, shots, damage, fire_control) }
    }

    pub fn attacker(kind: UnitKind, weapons: Vec<Weapon>) -> Attacker {
        Attacker::simple("A", kind, 4, weapons)
    }

    /// The reference cell: one system of 6 shots hitting on 5 or less, 12 damage, vs AC2.
    pub fn reference() -> (Attacker, Target) {
        // T = 10 + 2 (size) + FC = 5  =>  FC = -7
        (attacker(UnitKind::Vehicle, vec![weapon("Reference", 6, 12, -7)]), Target::generic(2))
    }
}

mod engine {
    use super::fixtures::*;
    use volley::engine::{Cell, RunConfig, Silent, Trials, cell_key, run};
    use volley::rules::techcommander::catalogue::{Catalogue, UnitKind};
    use volley::rules::techcommander::*;
    use volley::stats::TtkTally;
    use volley::stats::binomial::consistent;
    use volley::stats::tolerance::{FAMILY_ALPHA, bonferroni_z};

    fn ttk(run_: &AttackRun, seed: u64, trials: u64) -> TtkTally {
        let cfg = RunConfig { seed, trials: Trials::Fixed(trials), ..RunConfig::default() };
        run(&[Cell { key: 7, kernel: run_ }], &cfg, &Silent).unwrap().remove(0)
    }

    /// Turns whose Monte Carlo count of kills by turn k is inconsistent with the exact
    /// P(killed by turn k) at two-sided level `alpha` (exact binomial test).
    fn outside(tally: &TtkTally, exact: &ExactTtk, alpha: f64) -> Vec<usize> {
        let mut cum = 0;
        let mut bad = Vec::new();
        for (k, &kills) in tally.kills_by_turn.iter().enumerate() {
            cum += kills;
            if !consistent(cum, tally.trials, exact.p_kill_by_turn[k], alpha) {
                bad.push(k + 1);
            }
        }
        bad
    }

    /// Many catalogue cells: every MSV and vehicle build against several targets and conditions.
    fn catalogue_cells() -> Vec<(String, AttackRun)> {
        let cat = Catalogue::embedded().unwrap();
        let conditions = [
            Conditions::at_range(12.0),
            Conditions { range: 30.0, cover: Cover::Half, smoke: Smoke::Smoke, ..Conditions::default() },
            Conditions {
                range: 24.0,
                movement: Movement::Full,
                statuses: "dug-in".parse().unwrap(),
                ..Conditions::default()
            },
        ];
        let mut cells = Vec::new();
        for b in &cat.builds {
            let a = Attacker::from_build(&cat, b);
            for t in ["ac:1", "ac:3", "ac:6", "ECBS Troop", "Paladin"] {
                let target = TargetSpec::parse(t).unwrap().resolve(&cat).unwrap();
                for c in &conditions {
                    let r = AttackRun::new(
                        &a,
                        &target,
                        c,
                        &volley::rules::techcommander::Options::default(),
                        Policy::BestExpected,
                        20,
                    )
                    .unwrap();
                    cells.push((format!("{} vs {t} {c:?}", b.name), r));
                }
            }
        }
        cells
    }

    #[test]
    fn monte_carlo_agrees_with_the_exact_chain_everywhere() {
        let cells = catalogue_cells();
        assert!(cells.len() >= 150, "{}", cells.len());
        let trials = 20_000;
        let m = cells.len() * 20;
        let alpha = FAMILY_ALPHA / m as f64;
        let z = bonferroni_z(FAMILY_ALPHA, m);
        let kernels: Vec<Cell<'_, AttackRun>> =
            cells.iter().map(|(name, r)| Cell { key: cell_key(name), kernel: r }).collect();
        let cfg = RunConfig { seed: 11, trials: Trials::Fixed(trials), ..RunConfig::default() };
        let tallies = run(&kernels, &cfg, &Silent).unwrap();
        let mut failures = Vec::new();
        let mut killing = 0;
        for ((name, r), tally) in cells.iter().zip(&tallies) {
            let exact = r.exact();
            if exact.p_kill > 0.0 {
                killing += 1;
            }
            let bad = outside(tally, &exact, alpha);
            if !bad.is_empty() {
                failures.push(format!("{name}: turns {bad:?}"));
            }
            // mean actions to kill: inside a Bonferroni-corrected normal interval too
            if let (Some(mc), Some(ex), Some(ci)) =
                (tally.summary().mean_actions, exact.mean_actions, tally.summary().mean_actions_ci)
            {
                let half = ci.half_width() / volley::stats::Z95 * z;
                assert!((mc - ex).abs() <= half, "{name}: mean actions {mc} vs exact {ex} ± {half}");
            }
        }
        assert!(killing > cells.len() / 2, "most cells should be able to kill: {killing}");
        assert!(failures.is_empty(), "{} cells outside alpha = {alpha:.1e}:\n{}", failures.len(), failures.join("\n"));
    }

    #[test]
    fn the_comparison_has_power_against_a_one_off_kernel() {
        // Negative control: a kernel one target number off must fail the same test.
        let (a, t) = reference();
        let mut off = a.clone();
        off.systems[0].weapon.fire_control += 1;
        let cond = Conditions::default();
        let right =
            AttackRun::new(&a, &t, &cond, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
                .unwrap();
        let wrong = AttackRun::new(
            &off,
            &t,
            &cond,
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let tally = ttk(&right, 3, 20_000);
        let alpha = FAMILY_ALPHA / (200.0 * 20.0);
        assert!(outside(&tally, &right.exact(), alpha).is_empty());
        assert!(!outside(&tally, &wrong.exact(), alpha).is_empty(), "the test cannot tell T=5 from T=6");
    }

    #[test]
    fn reference_cell_takes_about_3_08_actions() {
        let (a, t) = reference();
        let r = AttackRun::new(
            &a,
            &t,
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let exact = r.exact();
        assert!((exact.mean_actions.unwrap() - 3.08).abs() < 0.01, "{:?}", exact.mean_actions);
        assert!(exact.p_kill > 0.999_999);
    }

    #[test]
    fn same_seed_same_bits_for_any_threads_and_batches() {
        let cells = catalogue_cells();
        let picked: Vec<_> = cells.iter().step_by(17).collect();
        let kernels: Vec<Cell<'_, AttackRun>> =
            picked.iter().map(|(n, r)| Cell { key: cell_key(n), kernel: r }).collect();
        let base = RunConfig { seed: 5, trials: Trials::Fixed(50_000), threads: Some(1), batch_streams: 16 };
        let reference = run(&kernels, &base, &Silent).unwrap();
        for (threads, batch) in [(2, 16), (2, 1), (1, 3), (3, 5)] {
            let cfg = RunConfig { threads: Some(threads), batch_streams: batch, ..base };
            assert_eq!(run(&kernels, &cfg, &Silent).unwrap(), reference, "threads {threads} batch {batch}");
        }
        let other_seed = RunConfig { seed: 6, ..base };
        assert_ne!(run(&kernels, &other_seed, &Silent).unwrap(), reference);
    }

    #[test]
    fn duels_are_deterministic_too() {
        let cat = Catalogue::embedded().unwrap();
        let a = cat.build("Dwarf ALPHA").unwrap();
        let b = cat.build("Gladiator Lancer").unwrap();
        let duel = Duel::new(
            (&Attacker::from_build(&cat, a), &Target::from_build(&cat, a)),
            (&Attacker::from_build(&cat, b), &Target::from_build(&cat, b)),
            &Conditions::at_range(20.0),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let cells = [Cell { key: 1, kernel: &duel }];
        let base = RunConfig { seed: 9, trials: Trials::Fixed(30_000), threads: Some(1), batch_streams: 16 };
        let one = run(&cells, &base, &Silent).unwrap();
        let two = run(&cells, &RunConfig { threads: Some(2), batch_streams: 2, ..base }, &Silent).unwrap();
        assert_eq!(one, two);
        assert_eq!(one[0].trials, 30_000);
    }

    #[test]
    fn golden_seed_pins_the_reference_cell() {
        // Value stability: a change in how many random numbers a rule draws, or in
        // seeding, changes these counts. Update them only for an intended change.
        let (a, t) = reference();
        let r = AttackRun::new(
            &a,
            &t,
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let tally = ttk(&r, 1, 10_000);
        assert_eq!(&tally.kills_by_turn[..6], &GOLDEN_REFERENCE_BY_TURN, "{:?}", &tally.kills_by_turn[..8]);
        let cat = Catalogue::embedded().unwrap();
        let (x, y) = (cat.build("Dwarf ALPHA").unwrap(), cat.build("Stingray Standard").unwrap());
        let duel = Duel::new(
            (&Attacker::from_build(&cat, x), &Target::from_build(&cat, x)),
            (&Attacker::from_build(&cat, y), &Target::from_build(&cat, y)),
            &Conditions::at_range(27.0),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let cfg = RunConfig { seed: 1, trials: Trials::Fixed(10_000), ..RunConfig::default() };
        let d = run(&[Cell { key: 2, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        assert_eq!([d.a_wins(), d.b_wins(), d.draws()], GOLDEN_DUEL, "{:?}", [d.a_wins(), d.b_wins(), d.draws()]);
    }

    const GOLDEN_REFERENCE_BY_TURN: [u64; 6] = [367, 3106, 3361, 1998, 803, 242];
    const GOLDEN_DUEL: [u64; 3] = [9393, 33, 574];

    #[test]
    fn an_msv_second_attack_uses_another_system_and_rounds_run_out() {
        let mut big = weapon("Big", 2, 20, 0);
        big.rounds = 2;
        let small = weapon("Small", 2, 4, 0);
        let a = attacker(UnitKind::Msv, vec![small.clone(), big]);
        let r = AttackRun::new(
            &a,
            &Target::generic(6),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            4,
        )
        .unwrap();
        let fired: Vec<(u16, u8)> = r.plan.iter().map(|s| (s.turn, s.system)).collect();
        // Big first (more expected life), then Small; Big's 2 rounds are gone after turn 2.
        assert_eq!(fired, vec![(0, 1), (0, 0), (1, 1), (1, 0), (2, 0), (3, 0)]);
        // one system only: one attack a turn, never twice the same system
        let lone = attacker(UnitKind::Msv, vec![small]);
        let r = AttackRun::new(
            &lone,
            &Target::generic(6),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            3,
        )
        .unwrap();
        assert_eq!(r.plan.len(), 3);
        // under-crewed MSVs lose the second action
        let crewless = Conditions { under_crewed: true, ..Conditions::default() };
        let r = AttackRun::new(
            &a,
            &Target::generic(6),
            &crewless,
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            2,
        )
        .unwrap();
        assert_eq!(r.plan.len(), 2);
    }

    #[test]
    fn power_armour_resets_each_turn() {
        // Always hits for exactly 10 life: a power-armoured troop is never killed by one
        // attack a turn, an unarmoured one dies on turn 2.
        let a = attacker(UnitKind::Vehicle, vec![weapon("Ten", 1, 10, 20)]);
        let troop = Target { power_armor: true, ..Target::generic(1) };
        let crew = Target::generic(1);
        let cond = Conditions::default();
        let armoured = AttackRun::new(
            &a,
            &troop,
            &cond,
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            5,
        )
        .unwrap();
        let plain = AttackRun::new(
            &a,
            &crew,
            &cond,
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            5,
        )
        .unwrap();
        assert_eq!(armoured.exact().p_kill, 0.0);
        assert_eq!(plain.exact().kill_by_turn, vec![0.0, 1.0, 0.0, 0.0, 0.0]);
        let t = ttk(&armoured, 1, 1000);
        assert_eq!(t.censored(), 1000, "censored runs are counted, not dropped");
        assert_eq!(ttk(&plain, 1, 1000).kills_by_turn, vec![0, 1000, 0, 0, 0]);
        // an MSV's two attacks in one turn get through the reset
        let msv = attacker(UnitKind::Msv, vec![weapon("Ten", 1, 10, 20), weapon("Ten2", 1, 10, 20)]);
        let r = AttackRun::new(
            &msv,
            &troop,
            &cond,
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            5,
        )
        .unwrap();
        assert_eq!(ttk(&r, 1, 1000).kills_by_action[1], 1000);
    }

    #[test]
    fn censoring_at_the_cap() {
        let a = attacker(UnitKind::Vehicle, vec![weapon("Tickle", 1, 1, 20)]);
        let r = AttackRun::new(
            &a,
            &Target::generic(1),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            19,
        )
        .unwrap();
        let t = ttk(&r, 1, 500);
        assert_eq!((t.trials, t.kills(), t.censored()), (500, 0, 500));
        let s = t.summary();
        assert_eq!(s.p_kill, 0.0);
        assert_eq!(s.p_kill_by_turn.len(), 19);
        assert_eq!(s.mean_turns, None);
        // one more turn and every run kills on the last turn
        let r = AttackRun::new(
            &a,
            &Target::generic(1),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        assert_eq!(ttk(&r, 1, 500).kills_by_turn[19], 500);
    }

    #[test]
    fn duel_jury_rig_eliminated_units_act_and_mutual_kills() {
        // A always kills in one attack, even without fire control (to-hit bonus).
        let mut a = attacker(UnitKind::Vehicle, vec![weapon("Sure", 1, 20, 0)]);
        a.to_hit_bonus = 10;
        // B kills in one attack only with fire control: T = 10 + 1 + 20 - 11 = 20, else 0.
        let mut ranged = weapon("Needs FC", 1, 20, 20);
        ranged.opt = 0;
        ranged.drop = 11;
        ranged.drop_per = 100;
        let b = attacker(UnitKind::Vehicle, vec![ranged]);
        let target = Target::generic(1);
        let duel = Duel::new(
            (&a, &target),
            (&b, &target),
            &Conditions::at_range(1.0),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        // A first (1/2): A kills B; B, eliminated, still acts after a jury rig (1/2 keeps FC).
        // B first (1/2): B kills A; A, eliminated, still acts and always kills B.
        // So P(A wins) = 1/4, P(B wins) = 0, P(draw) = 3/4, all on turn 1.
        let n = 40_000;
        let cfg = RunConfig { seed: 4, trials: Trials::Fixed(n), ..RunConfig::default() };
        let d = run(&[Cell { key: 3, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        let alpha = FAMILY_ALPHA / 2.0;
        assert_eq!(d.b_wins(), 0);
        assert!(consistent(d.a_wins(), n, 0.25, alpha), "{}", d.a_wins());
        assert!(consistent(d.draws(), n, 0.75, alpha), "{}", d.draws());
        assert_eq!(d.a_wins_by_turn[0] + d.mutual_by_turn[0], n, "everything ends on turn 1");
    }

    #[test]
    fn duel_power_armour_resets_and_the_eliminated_still_shoot() {
        // Two identical units that surely take 10 life per attack (a to-hit bonus, so a
        // failed jury rig changes nothing), power armoured: nobody can die (10 < 20 per
        // turn), so every duel times out.
        let mut a = attacker(UnitKind::Vehicle, vec![weapon("Ten", 1, 10, 0)]);
        a.to_hit_bonus = 10;
        let armoured = Target { power_armor: true, ..Target::generic(1) };
        let duel = Duel::new(
            (&a, &armoured),
            (&a, &armoured),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            3,
        )
        .unwrap();
        let cfg = RunConfig { seed: 2, trials: Trials::Fixed(1000), ..RunConfig::default() };
        let d = run(&[Cell { key: 3, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        assert_eq!(d.timeouts, 1000);
        // Without armour both die on turn 2 whoever goes first: the second to act is
        // eliminated but still shoots. Always a mutual kill.
        let plain = Target::generic(1);
        let duel = Duel::new(
            (&a, &plain),
            (&a, &plain),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            3,
        )
        .unwrap();
        let d = run(&[Cell { key: 3, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        assert_eq!(d.mutual_by_turn[1], 1000);
    }

    #[test]
    fn duel_jury_rig_costs_fire_control_exactly_half_the_time() {
        // Same units, but the shots need fire control: hit surely with it (T = 10 + 1 + 20
        // = 31), 55% without (T = 11). Turn 2's second actor is eliminated and in the
        // red: P(mutual) = 1/2 + 1/2 * 11/20 = 0.775, else the first actor wins.
        let a = attacker(UnitKind::Vehicle, vec![weapon("Ten", 1, 10, 20)]);
        let plain = Target::generic(1);
        let duel = Duel::new(
            (&a, &plain),
            (&a, &plain),
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            3,
        )
        .unwrap();
        let n = 40_000;
        let cfg = RunConfig { seed: 8, trials: Trials::Fixed(n), ..RunConfig::default() };
        let d = run(&[Cell { key: 3, kernel: &duel }], &cfg, &Silent).unwrap().remove(0);
        let alpha = FAMILY_ALPHA / 3.0;
        assert!(consistent(d.draws(), n, 0.775, alpha), "{}", d.draws());
        // initiative is fair: A and B win equally often (0.1125 each)
        assert!(consistent(d.a_wins(), n, 0.1125, alpha), "{}", d.a_wins());
        assert!(consistent(d.b_wins(), n, 0.1125, alpha), "{}", d.b_wins());
    }

    #[test]
    fn precision_mode_reaches_its_target() {
        let (a, t) = reference();
        let r = AttackRun::new(
            &a,
            &t,
            &Conditions::default(),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let cfg = RunConfig {
            seed: 1,
            trials: Trials::Precision { half_width: 0.004, max: 10_000_000 },
            ..RunConfig::default()
        };
        let tally = run(&[Cell { key: 1, kernel: &r }], &cfg, &Silent).unwrap().remove(0);
        assert!(tally.max_half_width() <= 0.004);
        // doubling from 65536: the first count that reaches 0.004 at p ≈ 0.5 is 65536 * 2
        assert_eq!(tally.trials % 65_536, 0);
        let capped = RunConfig { trials: Trials::Precision { half_width: 0.0001, max: 100_000 }, ..cfg };
        let tally = run(&[Cell { key: 1, kernel: &r }], &capped, &Silent).unwrap().remove(0);
        assert_eq!(tally.trials, 100_000, "the cap stops the loop");
    }
}

#[path = "library/charts_axes.rs"]
mod charts;

mod paired {
    use super::fixtures::*;
    use volley::engine::{Cell, RunConfig, Silent, Trials, run};
    use volley::rules::techcommander::catalogue::UnitKind;
    use volley::rules::techcommander::paired::{Metric, PairedDuels, paired_runs};
    use volley::rules::techcommander::*;
    use volley::stats::binomial::consistent;
    use volley::stats::tolerance::FAMILY_ALPHA;

    #[test]
    fn paired_attack_runs_keep_the_exact_marginals() {
        // A = the reference cell; B = one target number better. Each side's P(kill by
        // turn k) must still match its exact chain.
        let (a, t) = reference();
        let mut b = a.clone();
        b.systems[0].weapon.fire_control += 1;
        let c = Conditions::default();
        let ra =
            AttackRun::new(&a, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
                .unwrap();
        let rb =
            AttackRun::new(&b, &t, &c, &volley::rules::techcommander::Options::default(), Policy::BestExpected, 20)
                .unwrap();
        let (ea, eb) = (ra.exact(), rb.exact());
        let n = 40_000u64;
        for k in 1..=6u32 {
            let kernel = paired_runs(&ra, &rb, Metric::KillByTurn(k)).unwrap();
            let cfg = RunConfig { seed: 12, trials: Trials::Fixed(n), ..RunConfig::default() };
            let tally = run(&[Cell { key: 9, kernel: &kernel }], &cfg, &Silent).unwrap().remove(0);
            let alpha = FAMILY_ALPHA / 12.0;
            assert!(consistent(tally.sum_a as u64, n, ea.p_kill_by_turn[k as usize - 1], alpha), "A turn {k}");
            assert!(consistent(tally.sum_b as u64, n, eb.p_kill_by_turn[k as usize - 1], alpha), "B turn {k}");
            // B dominates A trial by trial: the same draws never make B worse
            assert!(tally.sum_d <= 0, "turn {k}");
        }
    }

    #[test]
    fn paired_duels_keep_the_rules() {
        // The jury-rig duel of the engine tests, through the paired path.
        let mut a = attacker(UnitKind::Vehicle, vec![weapon("Sure", 1, 20, 0)]);
        a.to_hit_bonus = 10;
        let mut ranged = weapon("Needs FC", 1, 20, 20);
        ranged.opt = 0;
        ranged.drop = 11;
        ranged.drop_per = 100;
        let b = attacker(UnitKind::Vehicle, vec![ranged]);
        let t = Target::generic(1);
        let duel = Duel::new(
            (&a, &t),
            (&b, &t),
            &Conditions::at_range(1.0),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            20,
        )
        .unwrap();
        let kernel = PairedDuels::new(duel.clone(), duel);
        let n = 40_000;
        let cfg = RunConfig { seed: 4, trials: Trials::Fixed(n), ..RunConfig::default() };
        let tally = run(&[Cell { key: 3, kernel: &kernel }], &cfg, &Silent).unwrap().remove(0);
        assert!(consistent(tally.sum_a as u64, n, 0.25, FAMILY_ALPHA));
        assert_eq!(tally.sum_d, 0);
        assert_eq!(tally.sum_d2, 0, "identical sides, identical draws");
    }
}

#[path = "library/stats.rs"]
mod stats;

mod hand_computed {
    use volley::rules::techcommander::catalogue::Catalogue;
    use volley::rules::techcommander::*;

    #[test]
    fn beagle_against_a_power_armoured_troop() {
        // Heavy Cannon x2: 4 dice at T = 10 + 1 (AC1) + 1 (FC) = 12, 16 damage a hit: two
        // hits kill. Kabaaam: T = 11, 24 damage: one hit kills. The policy fires the
        // cannons first (38.4 expected life vs 13.2). The troop survives a turn only if
        // the cannons hit at most once and the Kabaaam misses, and then resets to 20.
        let cat = Catalogue::embedded().unwrap();
        let a = Attacker::from_build(&cat, cat.build("Beagle Hunter").unwrap());
        let t = TargetSpec::parse("ECBS Troop").unwrap().resolve(&cat).unwrap();
        let run = AttackRun::new(
            &a,
            &t,
            &Conditions::at_range(12.0),
            &volley::rules::techcommander::Options::default(),
            Policy::BestExpected,
            6,
        )
        .unwrap();
        let survive = (0.4f64.powi(4) + 4.0 * 0.6 * 0.4f64.powi(3)) * 0.45;
        let exact = run.exact();
        for k in 1..=6 {
            let expect = 1.0 - survive.powi(k);
            assert!((exact.p_kill_by_turn[k as usize - 1] - expect).abs() < 1e-14, "turn {k}");
        }
        // the Kabaaam's 6 rounds last the 6 turns
        assert_eq!(run.plan.len(), 12);
    }
}

#[path = "library/exactfit.rs"]
mod exactfit;
#[path = "library/fuzz.rs"]
mod fuzz;
#[path = "library/marginal.rs"]
mod marginal;
#[path = "library/mechcom_battle.rs"]
mod mechcom_battle;
#[path = "library/mechcom_catalogue.rs"]
mod mechcom_catalogue;
#[path = "library/pinning.rs"]
mod pinning;
