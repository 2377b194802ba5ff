//! `compare --battle` on common random numbers (`--pairing crn`, the default) against
//! independent cells (`--pairing independent`).

use super::*;

fn compare(a: &str, b: &str, versus: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["compare", "--battle", a, b, "--versus", versus, "--seed", "11", "--quiet", "--format", "json"];
    args.extend_from_slice(extra);
    json_of(&args)
}

fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn half_width(v: &serde_json::Value) -> f64 {
    (f(&v[1]) - f(&v[0])) / 2.0
}

#[test]
fn a_force_against_itself_differs_by_exactly_zero_with_correlation_one() {
    let j = compare("Lance Group", "Lance Group", "Siege Group,Twin Paladins", &["--trials", "2000"]);
    assert_eq!(j["pairing"], "crn");
    for m in j["matchups"].as_array().unwrap() {
        let joint = m["joint"].as_array().unwrap();
        let mut total = 0;
        for (i, row) in joint.iter().enumerate() {
            for (k, n) in row.as_array().unwrap().iter().enumerate() {
                let n = n.as_u64().unwrap();
                total += n;
                assert!(i == k || n == 0, "A and B must agree in every battle: {joint:?}");
            }
        }
        assert_eq!(total, 2000);
        for r in [&m, &&m["draw"], &&m["loss"]] {
            assert_eq!(f(&r["difference"]), 0.0);
            assert_eq!(f(&r["a"]), f(&r["b"]));
        }
        assert_eq!(f(&m["correlation"]), 1.0, "{m}");
        let (p, i) = (half_width(&m["difference_ci95"]), half_width(&m["independent_ci95"]));
        assert_eq!(f(&m["difference_ci95"][0]), -f(&m["difference_ci95"][1]));
        // a narrow interval, never of zero width (Newcombe's shrunk correlation keeps it honest
        // when the result is rare)
        assert!(p < 0.5 * i && p < 0.003, "paired {p} vs independent {i}");
    }
    let o = &j["overall"];
    assert_eq!(f(&o["difference"]), 0.0);
    assert_eq!(f(&o["correlation"]), 1.0);
    assert_eq!(o["significant"], false);
}

#[test]
fn common_numbers_narrow_the_interval_of_similar_forces() {
    // Two 12-AC forces that differ in one unit (an AC3 vehicle for an AC3 MSV), against
    // a force they both fight evenly (seed 11: correlation of wins about 0.4).
    let (a, b) = ("Lance Group", "Gladiator Lancer+Beagle Hunter+Troll Brawler");
    let versus = "Twin Paladins";
    let crn = compare(a, b, versus, &["--trials", "3000"]);
    let ind = compare(a, b, versus, &["--trials", "3000", "--pairing", "independent"]);
    assert_eq!((crn["pairing"].as_str(), ind["pairing"].as_str()), (Some("crn"), Some("independent")));
    let (c, i) = (&crn["matchups"][0], &ind["matchups"][0]);
    let (wc, wi) = (half_width(&c["difference_ci95"]), half_width(&i["difference_ci95"]));
    assert!(wc < 0.9 * wi, "crn half-width {wc} must be well below independent {wi}");
    assert!(f(&c["correlation"]) > 0.2, "{c}");
    // the measured ratio is the paired width over the independent one of the same run
    let ratio = f(&c["paired_to_independent_width"]);
    assert!((ratio - wc / half_width(&c["independent_ci95"])).abs() < 1e-12 && ratio < 1.0);
    // independent pairing: no joint table, the interval is the independent one
    assert!(i["joint"].is_null() && i["correlation"].is_null());
    assert_eq!(i["difference_ci95"], i["independent_ci95"]);
    // the rates of the joint table's margins
    let joint: Vec<Vec<u64>> = serde_json::from_value(c["joint"].clone()).unwrap();
    let a_wins: u64 = joint[0].iter().sum();
    let b_wins: u64 = joint.iter().map(|r| r[0]).sum();
    assert_eq!(f(&c["a"]), a_wins as f64 / 3000.0);
    assert_eq!(f(&c["b"]), b_wins as f64 / 3000.0);
    let b_losses: u64 = joint.iter().map(|r| r[2]).sum();
    assert_eq!(f(&c["loss"]["b"]), b_losses as f64 / 3000.0);
}

#[test]
fn crn_results_are_bit_identical_for_any_thread_count() {
    let run = |threads: &str| {
        stdout_of(&[
            "compare",
            "--battle",
            "Lance Group",
            "Twin Paladins",
            "--versus",
            "Siege Group,Armour Column",
            "--trials",
            "1500",
            "--seed",
            "3",
            "--threads",
            threads,
            "--quiet",
            "--format",
            "json",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one, run("3"));
    assert!(one.contains("\"pairing\": \"crn\""));
}

#[test]
fn pairing_is_named_and_checked() {
    let j = compare("Lance Group", "Twin Paladins", "Siege Group", &["--trials", "50", "--pairing", "independent"]);
    assert_eq!(j["pairing"], "independent");
    assert!(j["pairing_method"].as_str().unwrap().contains("Newcombe's method 10 for independent"));
    let j = compare("Lance Group", "Twin Paladins", "Siege Group", &["--trials", "50"]);
    assert!(j["pairing_method"].as_str().unwrap().starts_with("common random numbers"));
    let table = stdout_of(&[
        "compare",
        "--battle",
        "Lance Group",
        "Twin Paladins",
        "--versus",
        "Siege Group",
        "--trials",
        "50",
        "--quiet",
    ]);
    assert!(table.contains("pairing: crn (common random numbers)"), "{table}");
    // an unknown pairing, and --pairing without --battle, are usage errors
    let out = volley()
        .args(["compare", "--battle", "Lance Group", "Twin Paladins", "--versus", "Siege Group", "--pairing", "same"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = volley()
        .args(["compare", "Gladiator Lancer", "Beagle Hunter", "--against", "Troll Brawler", "--pairing", "crn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
