//! MECHCOM, Skirmishers and Shellshock against their rulebooks: each contradiction fixed.
//! Expected values are worked out by hand from the books (the sums are in the comments).

use super::*;

fn with(ruleset: &str, dir: Option<&tempfile::TempDir>, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--ruleset", ruleset];
    if let Some(d) = dir {
        all.extend(["--loadouts", d.path().to_str().unwrap()]);
    }
    all.extend_from_slice(args);
    volley().args(&all).output().unwrap()
}

fn ok_json(ruleset: &str, dir: Option<&tempfile::TempDir>, args: &[&str]) -> serde_json::Value {
    let out = with(ruleset, dir, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn ok_text(ruleset: &str, dir: Option<&tempfile::TempDir>, args: &[&str]) -> String {
    let out = with(ruleset, dir, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

mod mechcom {
    use super::*;

    /// A plain flamer: 6⚡ (two attacks a round) of 2 dice, Damage 2, at Stability 4,
    /// against itself (Armour 4, Integrity 10).
    const FLAMERS: &str = r#"
[[weapon]]
name = "Torch"
range = 3
damage = 2
attacks = 2

[[mech]]
name = "Flamer"
faction = "Corpro"
cost = 200
energy = 6
movement = 4
sensors = 8
stability = 4
strength = 0
armour = 4
integrity = 10
weapons = ["Torch"]
"#;

    #[test]
    fn a_spot_token_is_spent_by_the_first_attack() {
        // §1: a Spot token is "a one-time bonus" and an attack consumes it. One token:
        // attack 1 at S 3, attack 2 at S 4. Per die vs Armour 4, unblocked hits 0/1/2 are
        // 15/24, 8/24, 1/24 at S 3 and 17/24, 6/24, 1/24 at S 4; 10 Integrity at Damage 2
        // falls on >= 5 of the round's four dice: 3077/331776 = 0.0092743. A token never
        // used up would give all four dice S 3: 3965/331776 = 0.0119508.
        let dir = catalogue_dir(&[("flamers.toml", FLAMERS)]);
        let ttk = |extra: &[&str]| {
            let base = ["ttk", "--attacker", "Flamer", "--target", "Flamer", "--range", "3", "--format", "json"];
            ok_json("mechcom", Some(&dir), &[&base[..], extra].concat())
        };
        let exact = ttk(&["--spot-tokens", "1", "--exact"]);
        let round1 = exact["p_kill_by_turn"][0].as_f64().unwrap();
        assert!((round1 - 3077.0 / 331776.0).abs() < 1e-12, "round 1: {round1}");
        // Monte Carlo plays the same law: within exact binomial bounds of it.
        let mc = ttk(&["--spot-tokens", "1", "--trials", "200000", "--seed", "5", "-q"]);
        let rounds = exact["p_kill_by_turn"].as_array().unwrap().len();
        for k in 0..rounds {
            let p = exact["p_kill_by_turn"][k].as_f64().unwrap();
            let kills = (mc["p_kill_by_turn"][k].as_f64().unwrap() * 200000.0).round() as u64;
            let alpha = 1e-4 / rounds as f64;
            assert!(volley::stats::binomial::consistent(kills, 200000, p.min(1.0), alpha), "round {}", k + 1);
        }
    }

    #[test]
    fn the_typhon_plays_heat_in_attack_runs() {
        // The shipped Typhon: its attack runs play Heat (`HEAT_PLAYED`), so they carry no
        // note that it is not modelled; with `HEAT_PLAYED=false` the old notes come back
        // (9⚡, three Superheated flamethrower attacks a round: 6 Heat after its 6th
        // attack, in round 2, when Programming makes it Malfunctioning).
        let run = ["ttk", "--attacker", "Typhon", "--target", "Kerberos", "--range", "3", "--exact"];
        let j = ok_json("mechcom", None, &[&run[..], &["--format", "json"]].concat());
        let notes: Vec<&str> = j["not_modelled"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert!(notes.iter().all(|n| !n.contains("Heat")), "{notes:?}");
        let off = [&run[..], &["--option", "HEAT_PLAYED=false", "--format", "json"]].concat();
        let j = ok_json("mechcom", None, &off);
        let notes: Vec<&str> = j["not_modelled"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
        assert!(notes.iter().any(|n| n.contains("Superheated") && n.contains("Heat is not modelled")), "{notes:?}");
        assert!(
            notes.iter().any(|n| n.starts_with("Typhon: Programming") && n.contains("after attack 6 in round 2")),
            "{notes:?}"
        );
        // One attack's odds say that its Heat is not part of them, in the header and per
        // weapon.
        let odds = ["odds", "--attacker", "Typhon", "--target", "Kerberos", "--range", "3"];
        let text = ok_text("mechcom", None, &odds);
        assert!(text.contains("not modelled: Prometheus Model Flamethrower: Superheated"), "{text}");
        let j = ok_json("mechcom", None, &[&odds[..], &["--format", "json"]].concat());
        let flamer = j.as_array().unwrap().iter().find(|w| w["weapon"] == "Prometheus Model Flamethrower").unwrap();
        assert!(flamer["not_modelled"][0].as_str().unwrap().contains("Malfunctioning at 6 Heat"), "{flamer}");
    }

    #[test]
    fn a_duel_uses_its_spot_tokens_up() {
        // Duels use Spot tokens up as attack runs do: each Flamer's first attack takes
        // the token on the other (p = 3077/331776 to kill in round 1, as the run above),
        // so P(A wins in one round) = p/2 + (1 − p) p/2, and nothing is noted.
        let dir = catalogue_dir(&[("flamers.toml", FLAMERS)]);
        let duel = ["duel", "Flamer", "Flamer", "--range", "3", "--spot-tokens", "1", "--max-turns", "1"];
        let j = ok_json("mechcom", Some(&dir), &[&duel[..], &["--exact", "--format", "json"]].concat());
        let p = 3077.0 / 331776.0;
        let a = j["p_a_wins"].as_f64().unwrap();
        assert!((a - (p / 2.0 + (1.0 - p) * p / 2.0)).abs() < 1e-12, "{j}");
        assert_eq!(j["not_modelled"], serde_json::json!([]), "{j}");
        let text = ok_text("mechcom", Some(&dir), &[&duel[..], &["--trials", "200", "-q"]].concat());
        assert!(!text.contains("Spot tokens"), "{text}");
    }

    #[test]
    fn engaged_is_plus_two_stability_in_the_help() {
        // "Shooting": "Models that are in melee range of an Enemy model add 2 to their
        // Stability when shooting".
        let text = ok_text("mechcom", None, &["rulesets", "mechcom"]);
        let line = text.lines().find(|l| l.contains("--engaged")).expect("the --engaged line");
        assert!(line.contains("+2 Stability") && !line.contains("+1 Stability"), "{line}");
    }
}

mod skirmishers {
    use super::*;

    fn rifle_tn(args: &[&str]) -> i64 {
        let base = ["odds", "--attacker", "Rifleman", "--target", "Rifleman", "--format", "json"];
        let j = ok_json("skirmishers", None, &[&base[..], args].concat());
        let rifle = j.as_array().unwrap().iter().find(|r| r["weapon"] == "Rifle").expect("a Rifle row");
        rifle["target_number"].as_i64().unwrap()
    }

    #[test]
    fn obstructions_next_to_the_firer_give_no_cover() {
        // "Resolving Fire": +1 per obstruction, "except for any obstruction between the
        // firing trooper and any adjacent dots". Range 1: the target is adjacent, so the
        // rifle keeps its short-range TN 6; at range 2 both count: 8.
        assert_eq!(rifle_tn(&["--range", "1", "--obstructions", "2"]), 6);
        assert_eq!(rifle_tn(&["--range", "2", "--obstructions", "2"]), 8);
        assert_eq!(rifle_tn(&["--range", "1", "--obstructions", "2", "--option", "COVER_SKIPS_FIRER_ADJACENT=off"]), 8);
    }

    #[test]
    fn an_explosive_with_shots_is_refused_naming_file_line_entry_and_field() {
        let bad = "[[weapon]]\nname = \"Sticky Bomb\"\nclass = \"explosive\"\nlethal = [6, 3, 1]\nap_cost = \
                   \"1/dot\"\nammo = 4\nshots = 2\n";
        let dir = catalogue_dir(&[("bombs.toml", bad)]);
        let out = with("skirmishers", None, &["validate", dir.path().join("bombs.toml").to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        for part in ["bombs.toml", ":7", "Sticky Bomb", "shots", "has no shots"] {
            assert!(err.contains(part), "{part} missing from: {err}");
        }
    }
}

mod shellshock {
    use super::*;

    // The catalogue of the Shellshock end-to-end tests (its `Probe`).
    use super::super::shellshock::CATALOGUE as UNITS;

    fn tns(dir: &tempfile::TempDir, args: &[&str]) -> Vec<i64> {
        let base = ["odds", "--attacker", "Probe", "--target", "Probe", "--format", "json"];
        let j = ok_json("shellshock", Some(dir), &[&base[..], args].concat());
        j["gunners"][0]["weapons"].as_array().unwrap().iter().map(|w| w["target_number"].as_i64().unwrap()).collect()
    }

    #[test]
    fn an_adjacent_target_is_point_blank() {
        // "Point Blank": every DV but Missile and Physical is halved "when the target is
        // in an adjacent hex". B DV 15 -> 7, SA DV 19 -> 9 (rounded down), + 1 / 12 = 0.
        let dir = catalogue_dir(&[("units.toml", UNITS)]);
        assert_eq!(tns(&dir, &["--range", "1"]), vec![7, 9]);
        assert_eq!(tns(&dir, &["--range", "1", "--point-blank"]), vec![7, 9]);
        assert_eq!(tns(&dir, &["--range", "2"]), vec![15, 19]);
    }
}
