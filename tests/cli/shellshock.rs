//! Shellshock end to end through the binary, on a catalogue that is not in the
//! repository, against exact values computed here independently: both d10s enumerated
//! face by face (sixteen rerolls deep: the lost tail is 1e-16), the d6 pools by plain convolution, and kill-turn
//! laws from the per-turn kill chance (shellshock.md §1-§3, §5, §7). Monte Carlo must
//! agree within exact binomial bounds.

use super::*;
use volley::stats::binomial::consistent;

pub(super) const CATALOGUE: &str = r#"
[[weapon]]
name = "Probe Gun"
type = "B"
damage = 4
shock = 3
penetration = 2
range = 100

[[weapon]]
name = "Needle"
type = "SA"
damage = 1
penetration = 5
range = 100

[[chart]]
name = "tiny"
lines = "ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB ABABABABAB"
equipment = [{ letter = "A", name = "Crew" }, { letter = "B", name = "Engine", kind = "engine", hits = 2 }]

[[unit]]
name = "Probe"
era = "future"
defense = { B = 15, M = 15, E = 15, I = 15, SA = 19, P = 15 }
armor = { front = 5, side = 3, rear = 1 }
shock_threshold = 4
penetration_factor = 3
dead_at = 9
internal = [{ from = 3, percent = 10, hits = 1 }]
chart = "tiny"
gunners = [{ skill = 1, weapons = ["Probe Gun", "Needle"] }]
ecv = 70

[[unit]]
name = "Glass"
era = "modern"
to_hit_dice = "2d10"
defense = { B = 15, M = 15, E = 15, I = 15, SA = 19, P = 15 }
armor = { front = 0, side = 0, rear = 0 }
shock_threshold = 4
penetration_factor = 3
dead_at = 1
chart = "tiny"
gunners = [{ skill = 1, weapons = ["Probe Gun", "Needle"] }]
ecv = 60

[[field]]
name = "pair"
opponents = [{ unit = "Probe", weight = 2 }, "Glass"]
"#;

/// One exploding d10, 12 rerolls deep: (value, first roll 10, first two rolls 10, p).
fn d10() -> Vec<(i64, bool, bool, f64)> {
    let mut out = Vec::new();
    for tens in 0..16 {
        for r in 1..=9 {
            out.push((10 * tens + r, tens >= 1, tens >= 2, 0.1f64.powi(tens as i32 + 1)));
        }
    }
    out
}

/// Sum of n d6, by convolution.
fn d6s(n: usize) -> Vec<f64> {
    let mut law = vec![1.0];
    for _ in 0..n {
        let mut next = vec![0.0; law.len() + 6];
        for (s, p) in law.iter().enumerate() {
            for f in 1..=6 {
                next[s + f] += p / 6.0;
            }
        }
        law = next;
    }
    law
}

/// P(one gunner's Internal >= dead) for pools (d, s, p), multiplier m, on `armour`.
fn p_dead(pools: (usize, usize, usize), m: usize, armour: usize, thr: usize, pf: usize, dead: usize) -> f64 {
    let (ld, ls, lp) = (d6s(pools.0), d6s(pools.1), d6s(pools.2));
    let mut total = 0.0;
    for (d, pd) in ld.iter().enumerate() {
        for (s, ps) in ls.iter().enumerate() {
            for (p, pp) in lp.iter().enumerate() {
                let i = (m * d).saturating_sub(armour) + (m * s).saturating_sub(thr) + (m * p).saturating_sub(pf);
                if i >= dead {
                    total += pd * ps * pp;
                }
            }
        }
    }
    total
}

/// The exact odds of the Probe gunner (Gunnery 1, TNs 17 and 21 at range 30) against
/// a target with `armour`, threshold 4, factor 3, Dead `dead`: (P(B hits), P(SA hits),
/// P(natural 20), P(destroyed by this one roll)).
fn probe_odds(armour: usize, dead: usize) -> (f64, f64, f64, f64) {
    let (mut pb, mut psa, mut nat, mut kill) = (0.0, 0.0, 0.0, 0.0);
    for &(v1, t1, r1, p1) in &d10() {
        for &(v2, t2, r2, p2) in &d10() {
            let p = p1 * p2;
            let natural = if t1 { 10 } else { v1 } + if t2 { 10 } else { v2 };
            if (2..=4).contains(&natural) {
                continue;
            }
            let n20 = t1 && t2;
            if n20 {
                nat += p;
                if r1 && r2 {
                    pb += p;
                    psa += p;
                    kill += p;
                    continue;
                }
            }
            let total = v1 + v2 + 1;
            let (hb, hs) = (n20 || total >= 17, n20 || total >= 21);
            pb += p * f64::from(u8::from(hb));
            psa += p * f64::from(u8::from(hs));
            let m = if n20 || r1 || r2 { 2 } else { 1 };
            let pools = match (hb, hs) {
                (true, true) => (5, 3, 7),
                (true, false) => (4, 3, 2),
                (false, true) => (1, 0, 5),
                (false, false) => continue,
            };
            kill += p * p_dead(pools, m, armour, 4, 3, dead);
        }
    }
    (pb, psa, nat, kill)
}

fn shellshock(dir: &tempfile::TempDir, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--ruleset", "shellshock", "--loadouts", dir.path().to_str().unwrap()];
    all.extend_from_slice(args);
    volley().args(&all).output().unwrap()
}

fn json(dir: &tempfile::TempDir, args: &[&str]) -> serde_json::Value {
    let out = shellshock(dir, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

#[test]
fn odds_match_an_independent_enumeration() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    let j = json(&dir, &["odds", "--attacker", "Probe", "--target", "Probe", "--range", "30", "--format", "json"]);
    let g = &j["gunners"][0];
    assert_eq!(g["gunner"], 1);
    let (pb, psa, nat, kill) = probe_odds(5, 9);
    let w = &g["weapons"];
    assert_eq!((w[0]["name"].as_str(), w[0]["target_number"].as_i64()), (Some("Probe Gun"), Some(17)));
    assert_eq!((w[1]["name"].as_str(), w[1]["target_number"].as_i64()), (Some("Needle"), Some(21)));
    let close = |key: &serde_json::Value, x: f64| (key.as_f64().unwrap() - x).abs() < 1e-12;
    assert!(close(&w[0]["p_hit"], pb), "{} vs {pb}", w[0]["p_hit"]);
    assert!(close(&w[1]["p_hit"], psa), "{} vs {psa}", w[1]["p_hit"]);
    assert!(close(&g["p_any_hit"], pb), "nested hits: any = the lower TN");
    assert!(close(&g["p_natural_20"], nat));
    assert!(close(&g["p_destroyed"], kill), "{} vs {kill}", g["p_destroyed"]);
    let dist: f64 = g["internal_distribution"].as_object().unwrap().values().map(|v| v.as_f64().unwrap()).sum();
    assert!((dist + g["p_second_20"].as_f64().unwrap() - 1.0).abs() < 1e-12, "the Internal law covers every roll");
}

#[test]
fn attack_runs_exact_and_monte_carlo_match_the_independent_law() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    // Glass has no armour and dies on any Internal: every turn kills with the same chance.
    let (.., p) = probe_odds(0, 1);
    let base =
        ["ttk", "--attacker", "Probe", "--target", "Glass", "--range", "30", "--max-turns", "8", "--format", "json"];
    let e = json(&dir, &[&base[..], &["--exact"]].concat());
    let mc = json(&dir, &[&base[..], &["--trials", "40000", "--seed", "9"]].concat());
    for k in 0..8 {
        let want = 1.0 - (1.0 - p).powi(k + 1);
        let got = e["p_kill_by_turn"][k as usize].as_f64().unwrap();
        assert!((got - want).abs() < 1e-12, "turn {}: {got} vs {want}", k + 1);
        let kills = (mc["p_kill_by_turn"][k as usize].as_f64().unwrap() * 40000.0).round() as u64;
        assert!(consistent(kills, 40000, want, 1e-4 / 8.0), "turn {}: {kills}/40000 vs {want}", k + 1);
    }
}

#[test]
fn duels_are_simultaneous_and_match_the_independent_law() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    let (.., p) = probe_odds(0, 1);
    let turns = 6;
    // Glass against Glass: each kills the other with chance p each turn, at once.
    let q = 1.0 - p;
    let (mut a, mut draw) = (0.0, 0.0);
    for t in 0..turns {
        let both_alive = q.powi(2 * t);
        a += both_alive * p * q;
        draw += both_alive * p * p;
    }
    draw += q.powi(2 * turns);
    let args = ["duel", "Glass", "Glass", "--range", "30", "--max-turns", "6", "--format", "json"];
    let e = json(&dir, &[&args[..], &["--exact"]].concat());
    let text = e.to_string();
    let find = |key: &str| -> f64 {
        fn walk(v: &serde_json::Value, key: &str) -> Option<f64> {
            match v {
                serde_json::Value::Object(m) => {
                    m.get(key).and_then(serde_json::Value::as_f64).or_else(|| m.values().find_map(|x| walk(x, key)))
                }
                _ => None,
            }
        }
        walk(&e, key).unwrap_or_else(|| panic!("{key} in {text}"))
    };
    assert!((find("p_a_wins") - a).abs() < 1e-12, "{text} vs {a}");
    assert!((find("p_b_wins") - a).abs() < 1e-12, "{text}");
    assert!((find("p_draw") - draw).abs() < 1e-12, "{text} vs {draw}");
}

#[test]
fn catalogue_errors_exit_with_every_error_at_once() {
    let bad = CATALOGUE.replace("type = \"SA\"", "type = \"Z\"").replace("dead_at = 9", "dead_at = 0");
    let dir = catalogue_dir(&[("units.toml", &bad)]);
    let out = shellshock(&dir, &["validate"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("units.toml:") && err.contains("unknown dVT `Z`") && err.contains("dead_at"), "{err}");
    assert!(err.contains("weapon \"Needle\"") && err.contains("unit \"Probe\""), "{err}");
}

#[test]
fn sweep_writes_the_common_tables_and_gunner_odds() {
    let dir = tempfile::tempdir().unwrap();
    let out = volley()
        .current_dir(dir.path())
        .args(["sweep", "shellshock-quick", "--out", "r", "--trials", "2000", "--quiet", "--no-charts"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let r = dir.path().join("r");
    for t in ["time_to_kill", "ttk_by_turn", "cost_efficiency", "gunner_odds"] {
        assert!(r.join(format!("{t}.parquet")).exists() && r.join(format!("{t}.csv")).exists(), "{t}");
    }
    let manifest: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(r.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["ruleset"], "shellshock");
    assert_eq!(manifest["options"]["SECOND_20_DESTROYS"], "true", "{}", manifest["options"]);
    let odds = fs::read_to_string(r.join("gunner_odds.csv")).unwrap();
    let header = odds.lines().next().unwrap();
    assert!(
        header.starts_with("ruleset,attacker,gunner,weapons,target,target_dead_at,range,facing,hull_down,"),
        "{header}"
    );
    assert!(header.contains("p_any_hit") && header.contains("p_destroyed"), "{header}");
}

#[test]
fn compare_and_gauntlet_run_through_the_ruleset() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    let work = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["--ruleset", "shellshock", "--loadouts", dir.path().to_str().unwrap()];
        all.extend_from_slice(args);
        let out = volley().current_dir(work.path()).args(&all).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["gauntlet", "--field", "pair", "Probe", "--trials", "2000", "--quiet", "--no-charts", "--out", "g"]);
    run(&["compare", "Probe", "Glass", "--target", "Probe", "--trials", "2000", "--quiet"]);
    assert!(work.path().join("g/gauntlet.csv").exists() || work.path().join("g").exists());
}

#[test]
fn unplayed_rulings_are_refused_by_name() {
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    let out = shellshock(
        &dir,
        &[
            "ttk",
            "--attacker",
            "Probe",
            "--target",
            "Glass",
            "--option",
            "MODEL=FULL_CHART",
            "--option",
            "SYMPATHETIC_PER_ITEM=false",
        ],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("SYMPATHETIC_PER_ITEM=false"));
    // The full chart model has no exact odds.
    let out = shellshock(&dir, &["odds", "--attacker", "Probe", "--target", "Glass", "--option", "MODEL=FULL_CHART"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("MODEL=FULL_CHART"));
    // ... nor an exact time to kill: `ttk --exact` is a usage error, not a table of NaN.
    let out = shellshock(
        &dir,
        &["ttk", "--attacker", "Probe", "--target", "Glass", "--exact", "--option", "MODEL=FULL_CHART"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no exact solver"));
}

#[test]
fn full_chart_runs_and_duels_match_the_independent_law_where_the_chart_cannot_matter() {
    // Glass dies on any Internal, so its chart is never reached: the full chart model's
    // Monte Carlo must follow the same independent law as the card-free model.
    let dir = catalogue_dir(&[("units.toml", CATALOGUE)]);
    let (.., p) = probe_odds(0, 1);
    let full = ["--option", "MODEL=FULL_CHART", "--format", "json", "--trials", "40000", "--seed", "4"];
    let run = ["ttk", "--attacker", "Probe", "--target", "Glass", "--range", "30", "--max-turns", "8"];
    let mc = json(&dir, &[&run[..], &full[..]].concat());
    for k in 0..8 {
        let want = 1.0 - (1.0 - p).powi(k + 1);
        let kills = (mc["p_kill_by_turn"][k as usize].as_f64().unwrap() * 40000.0).round() as u64;
        assert!(consistent(kills, 40000, want, 1e-4 / 8.0), "turn {}: {kills}/40000 vs {want}", k + 1);
    }
    let duel = ["duel", "Glass", "Glass", "--range", "30", "--max-turns", "6"];
    let out = shellshock(&dir, &[&duel[..], &full[..]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn full_chart_ammunition_lines_kill_more_than_the_card_free_model() {
    // Probe's chart with its crew line made ammunition (half the lines explode with
    // 9/20), and Dead raised to 60 so that the chart, not the Dead box, decides.
    let cat = CATALOGUE
        .replace(r#"{ letter = "A", name = "Crew" }"#, r#"{ letter = "A", name = "Ammo", kind = "ammo" }"#)
        .replace("dead_at = 9", "dead_at = 60");
    let dir = catalogue_dir(&[("units.toml", &cat)]);
    let run =
        ["ttk", "--attacker", "Probe", "--target", "Probe", "--range", "30", "--max-turns", "8", "--format", "json"];
    let e = json(&dir, &[&run[..], &["--exact"]].concat());
    let mc = json(&dir, &[&run[..], &["--option", "MODEL=FULL_CHART", "--trials", "40000", "--seed", "4"]].concat());
    let exact = e["p_kill"].as_f64().unwrap();
    let kills = (mc["p_kill"].as_f64().unwrap() * 40000.0).round() as u64;
    assert!(kills as f64 / 40000.0 > exact && !consistent(kills, 40000, exact, 1e-4), "{kills}/40000 vs {exact}");
}

/// `volley --ruleset shellshock battle` on the embedded forces (400 ECV each): the
/// battle JSON of every ruleset, no initiative split (simultaneous fire), both sides
/// reach, the ECV of each side, and a force off equal ECV refused naming it and the
/// shortfall, accepted within `ECV_TOLERANCE`.
#[test]
fn battle_on_the_embedded_forces() {
    let run = |extra: &[&str]| {
        let mut args = vec!["--ruleset", "shellshock", "battle", "--trials", "300", "--seed", "4", "-q"];
        args.extend_from_slice(extra);
        volley().args(&args).output().unwrap()
    };
    let out = run(&["Panzer column", "Modern pair", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((j["ruleset"].as_str(), j["mode"].as_str()), (Some("shellshock"), Some("equal-ecv")));
    assert_eq!((j["policy"].as_str(), j["max_turns"].as_u64()), (Some("most-damaged"), Some(50)));
    assert_eq!((j["a_can_attack"].as_bool(), j["b_can_attack"].as_bool()), (Some(true), Some(true)));
    for k in ["p_a_wins_a_first", "p_a_wins_b_first", "p_a_wins_a_first_ci95", "p_a_wins_b_first_ci95"] {
        assert!(j[k].is_null(), "{k}: {}", j[k]);
    }
    assert_eq!(j["sides"][0]["points"].as_f64(), Some(400.0));
    assert_eq!(j["sides"][1]["points"].as_f64(), Some(400.0));
    assert_eq!(j["options"]["ECV_TOLERANCE"].as_str(), Some("0"));
    assert_eq!(j["units"].as_array().map(Vec::len), Some(6), "4 + 2 units");
    let total: f64 = ["p_a_wins", "p_b_wins", "p_draw", "p_undecided"].iter().map(|k| j[k].as_f64().unwrap()).sum();
    assert!((total - 1.0).abs() < 1e-12, "{total}");
    let text = String::from_utf8(run(&["Panzer column", "Modern pair"]).stdout).unwrap();
    assert!(text.contains("no side acts first"), "{text}");

    let refused = run(&["4*Panzer IV", "Modern pair"]);
    assert_eq!(refused.status.code(), Some(1));
    let e = String::from_utf8_lossy(&refused.stderr);
    assert!(e.contains("`4*Panzer IV` costs 360 ECV, under its budget of 400 ECV by 40"), "{e}");
    assert!(run(&["4*Panzer IV", "Modern pair", "--option", "ECV_TOLERANCE=10"]).status.success());
}
