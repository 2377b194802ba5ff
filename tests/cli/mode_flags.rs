//! One meaning per flag: `--mode` is TechCommander's attack action wherever a command
//! plays duels (`duel`, `fit`, `search`, and now `compare`, `gauntlet` and `meta`), and
//! the battle mode is `--battle-mode` on every command that plays battles (`battle
//! --mode`, its first name, still works there).

use super::*;

const A: &str = "Paladin Siege";
const B: &str = "Beagle Hunter";
/// The exact duel of A against B at range 20 under fire for effect, and under the normal
/// attack action (`duel --exact`): the Beagle cannot fire for effect, so A's chance rises
/// from about .21 to about .80.
fn exact_p_a_wins(mode: &str) -> f64 {
    let j = json_of(&["duel", A, B, "--range", "20", "--mode", mode, "--exact", "--format", "json", "-q"]);
    j["p_a_wins"].as_f64().unwrap()
}

/// Whether `p` is inside the interval `ci` (a JSON pair).
fn inside(p: f64, ci: &serde_json::Value) -> bool {
    ci[0].as_f64().unwrap() <= p && p <= ci[1].as_f64().unwrap()
}

#[test]
fn compare_gauntlet_and_meta_play_their_duels_in_the_attack_action_given() {
    let (ffe, normal) = (exact_p_a_wins("fire-for-effect"), exact_p_a_wins("normal"));
    assert!(ffe > normal + 0.4, "{ffe} {normal}");
    let common = ["--range", "20", "--mode", "fire-for-effect", "--trials", "4000", "-q"];

    let c = json_of(&[&["compare", A, "Gladiator Lancer", "--against", B, "--format", "json"], &common[..]].concat());
    let a = &c["matchups"][0];
    assert!(inside(ffe, &a["a_ci95"]) && !inside(normal, &a["a_ci95"]), "compare: {a}");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let g = [&["gauntlet", A, "--field", B, "--no-charts", "--out", out.to_str().unwrap()], &common[..]].concat();
    stdout_of(&g);
    let mut r = csv::Reader::from_path(out.join("gauntlet_matchups.csv")).unwrap();
    let head = r.headers().unwrap().clone();
    let row = r.records().next().unwrap().unwrap();
    let col = |name: &str| row[head.iter().position(|h| h == name).unwrap()].parse::<f64>().unwrap();
    assert!(col("p_win_ci95_low") <= ffe && ffe <= col("p_win_ci95_high"), "gauntlet: {row:?}");
    assert!(col("p_win_ci95_low") > normal, "gauntlet: {row:?}");

    // The meta's matrix scores a win 1 and a draw 1/2: the exact duel gives A's score.
    let m = json_of(&[&["meta", A, B, "--format", "json"], &common[..]].concat());
    assert!(m["conditions"][0].as_str().unwrap().contains("mode=fire-for-effect"), "{}", m["conditions"]);
    let score = ffe + (1.0 - ffe) / 2.0; // B never wins: the rest are draws
    assert!(inside(score, &m["matrix_ci95"][0][1]), "meta: {} {}", m["matrix"], m["matrix_ci95"]);
}

#[test]
fn the_battle_mode_is_battle_mode_everywhere_and_mode_is_refused_for_it() {
    let args = |flag: &str| {
        let mut v = vec!["battle", flag, "deathmatch", "Stingray Standard", "Pigeonhawk Standard", "3*ECBS Pirate AT"];
        v.extend(["--trials", "500", "--seed", "3", "--format", "json", "-q"]);
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |a: Vec<String>| stdout_of(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(run(args("--battle-mode")), run(args("--mode")), "battle: one flag, two names");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let o = out.to_str().unwrap();
    let field = "Stingray Standard,Beagle Hunter";
    let gauntlet = |flag: &str| {
        volley()
            .args(["gauntlet", "Lance Group", "--field", field, "--battle", flag, "skirmish"])
            .args(["--trials", "200", "--no-charts", "--force", "-q", "--out", o])
            .output()
            .unwrap()
    };
    let ok = gauntlet("--battle-mode");
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));
    // `--mode` is the attack action now: `skirmish` is not one, a usage error.
    let refused = gauntlet("--mode");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("fire-for-effect"), "lists the attack actions");
    // An attack action is refused before any battle (a usage error, exit 2), on every
    // command that plays battles with `--mode` as the attack action.
    let o2 = dir.path().join("g2");
    let out = o2.to_str().unwrap();
    let attack_in_battle: [&[&str]; 4] = [
        &["gauntlet", "Lance Group", "--field", field, "--battle", "--no-charts", "--out", out],
        &["compare", "Lance Group", "Siege Group", "--battle", "--versus", "Siege Group"],
        &["meta", "Lance Group", "Siege Group", "--battle"],
        &["search", "--forces", "--budget", "12", "--field", "Siege Group", "--out", out],
    ];
    for cmd in attack_in_battle {
        let ffe = volley().args(cmd).args(["--mode", "fire-for-effect", "--trials", "200", "-q"]).output().unwrap();
        let err = String::from_utf8_lossy(&ffe.stderr);
        assert_eq!(ffe.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(err.contains("--mode fire-for-effect is an attack action of duels and attack runs"), "{cmd:?}: {err}");
        assert!(!o2.exists(), "{cmd:?}: no half-written report");
    }

    // A battle mode the ruleset does not play is a usage error naming the flag, found
    // before any battle, on every command that plays battles.
    let battles: [&[&str]; 4] = [
        &["battle", "Lance Group", "Siege Group"],
        &["gauntlet", "Lance Group", "--field", field, "--battle", "--no-charts"],
        &["compare", "Lance Group", "Siege Group", "--battle", "--versus", "Siege Group"],
        &["meta", "Lance Group", "Siege Group", "--battle"],
    ];
    for cmd in battles {
        let o = volley().current_dir(dir.path()).args(cmd).args(["--battle-mode", "siege", "-q"]).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}: {err}");
        let want = "--battle-mode: unknown battle mode `siege`: expected one of skirmish, deathmatch";
        assert!(err.contains(want), "{cmd:?}: {err}");
    }
    for cmd in [
        &["compare", "Lance Group", "Siege Group", "--battle", "--versus", "Siege Group"][..],
        &["meta", "Lance Group", "Siege Group", "--battle"][..],
    ] {
        let o = volley()
            .args(cmd)
            .args(["--battle-mode", "skirmish", "--trials", "200", "-q", "--format", "json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn an_exact_duel_prints_a_tiny_share_in_scientific_notation() {
    // The timeouts of this duel are about 2.3e-117: printed whole they were 130 digits.
    let out = stdout_of(&["duel", A, B, "--range", "20", "--exact", "-q"]);
    let line = out.lines().find(|l| l.starts_with("method: exact; draws:")).unwrap();
    assert!(line.ends_with("2.33e-117 timeouts"), "{line}");
    assert!(line.len() < 80, "{line}");
}

#[test]
fn the_old_battle_mode_flag_is_refused_saying_where_the_battle_mode_went() {
    let cases: [(&str, &[&str], &str); 3] = [
        ("techcommander", &["gauntlet", A, "--field", B, "--mode", "skirmish"], "`skirmish` is not an attack action"),
        (
            "mechcom",
            &["gauntlet", "Kerberos Pack", "--field", "Hornet Lance", "--battle", "--mode", "squad"],
            "no `--mode`",
        ),
        (
            "skirmishers",
            &["compare", "Rifleman", "Machine Gunner", "--against", "Rifleman", "--mode=normal"],
            "no `--mode`",
        ),
    ];
    for (ruleset, args, what) in cases {
        let o = volley().args(["--ruleset", ruleset]).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{ruleset} {args:?}: {err}");
        assert!(err.contains(what) && err.contains("is `--battle-mode` (it was `--mode` before)"), "{ruleset}: {err}");
        assert!(!err.contains("similar argument"), "no misleading tip: {err}");
    }
    // Any other unknown flag keeps clap's own message.
    let o = volley().args(["gauntlet", A, "--field", B, "--bogus"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).contains("unexpected argument '--bogus'"));
}
