//! Names and selectors: one matcher and the same selectors on the command line and in scenarios.
//!
//! Every ruleset finds a name whatever its case and prints it as the catalogue spells it;
//! every place that takes sides or a field reads `all` and the ruleset's `kind:`,
//! `faction:`, `era:`, `squad:`, `track:` selectors as scenario files do; a selector that
//! selects nothing is refused, naming it. Also the catalogue listings every ruleset has
//! (forces, fields) and `validate` on a file of additions.

use super::*;

/// Run `volley --ruleset R ARGS` in `dir`: (success, stdout, stderr, exit code).
fn run_in(dir: &std::path::Path, ruleset: &str, args: &[&str]) -> (bool, String, String, Option<i32>) {
    let mut all = vec!["--ruleset", ruleset];
    all.extend_from_slice(args);
    let o = volley().current_dir(dir).args(&all).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code(),
    )
}

fn ok_in(dir: &std::path::Path, ruleset: &str, args: &[&str]) -> String {
    let (ok, out, err, _) = run_in(dir, ruleset, args);
    assert!(ok, "--ruleset {ruleset} {args:?} failed: {err}");
    out
}

/// Each ruleset with two sides of its built-in catalogue, spelled as the catalogue does.
const SIDES: [(&str, &str, &str); 4] = [
    ("techcommander", "Gladiator Lancer", "Stingray Standard"),
    ("mechcom", "Kerberos", "Pythia"),
    ("skirmishers", "Rifleman", "Power Trooper"),
    ("shellshock", "Panzer IV", "Jagdpanther"),
];

#[test]
fn names_match_in_any_case_and_print_as_the_catalogue_spells_them() {
    let dir = tempfile::tempdir().unwrap();
    for (ruleset, a, b) in SIDES {
        let (lower, upper) = (a.to_lowercase(), format!("  {}", b.to_uppercase()));
        let out = ok_in(
            dir.path(),
            ruleset,
            &["duel", &lower, &upper, "--trials", "50", "--range", "3", "--format", "json", "--quiet"],
        );
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let text = v.to_string();
        assert!(text.contains(&format!("\"{a}\"")) && text.contains(&format!("\"{b}\"")), "{ruleset}: {text}");
        assert!(!text.contains(&format!("\"{lower}\"")), "{ruleset} keys by the user's spelling: {text}");
    }
}

#[test]
fn an_unknown_name_suggests_in_every_ruleset() {
    let dir = tempfile::tempdir().unwrap();
    for (ruleset, a, b) in SIDES {
        let typo = &a[..a.len() - 1];
        let (ok, _, err, _) = run_in(dir.path(), ruleset, &["duel", typo, b, "--trials", "10", "--quiet"]);
        assert!(!ok);
        assert!(err.contains(&format!("did you mean `{a}`?")), "{ruleset}: {err}");
    }
}

/// (ruleset, sides to put through a gauntlet, field): selectors on both.
const GAUNTLETS: [(&str, &str, &str); 5] = [
    ("techcommander", "kind:vehicle", "kind:msv"),
    ("techcommander", "all", "Stingray Standard"),
    ("mechcom", "faction:I.C.S.E.", "squad:Hornet Wing"),
    ("skirmishers", "track:power", "squad:Power lance"),
    ("shellshock", "era:ww2", "era:modern"),
];

#[test]
fn gauntlets_take_selectors_for_sides_and_field_as_scenarios_do() {
    let dir = tempfile::tempdir().unwrap();
    for (i, (ruleset, sides, field)) in GAUNTLETS.into_iter().enumerate() {
        let out = format!("g{i}");
        let (ok, stdout, err, _) = run_in(
            dir.path(),
            ruleset,
            &["gauntlet", sides, "--field", field, "--trials", "20", "--range", "3", "--quiet", "--out", &out],
        );
        assert!(ok, "{ruleset} gauntlet {sides} --field {field}: {err}");
        assert!(!stdout.is_empty());
        assert!(dir.path().join(&out).exists());
    }
}

#[test]
fn a_selector_that_selects_nothing_or_nothing_known_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("techcommander", "kind:robot", "unknown kind"),
        ("mechcom", "squad:Nobody", "no squad named `Nobody`"),
        ("skirmishers", "track:steam", "unknown track `steam`"),
        ("shellshock", "era:bronze", "unknown era `bronze`"),
    ];
    for (ruleset, sel, says) in cases {
        let (ok, _, err, code) = run_in(dir.path(), ruleset, &["gauntlet", sel, "--field", "all", "--quiet"]);
        assert!(!ok && code == Some(2), "{ruleset} {sel}: {code:?} {err}");
        assert!(err.contains(says), "{ruleset} {sel}: {err}");
    }
    // the built-in catalogue has terrain units but no terrain build
    let (ok, _, err, code) =
        run_in(dir.path(), "techcommander", &["gauntlet", "kind:terrain", "--field", "all", "--quiet"]);
    assert!(!ok && code == Some(2), "{code:?} {err}");
    assert!(err.contains("`kind:terrain` selects no build"), "{err}");
}

#[test]
fn fit_takes_a_faction_selector() {
    // MECHCOM's I.C.S.E. mechs fitted against the arena field: the selector used to be
    // read as a mech's name ("no mech named `faction:I.C.S.E.`").
    let dir = tempfile::tempdir().unwrap();
    let out =
        ok_in(dir.path(), "mechcom", &["fit", "faction:I.C.S.E.", "--field", "arena", "--trials", "10", "--out", "f"]);
    let fitted: Vec<&str> =
        out.lines().filter(|l| l.ends_with("fitted")).filter_map(|l| l.split_whitespace().next()).collect();
    assert_eq!(fitted, ["Wasp", "Sentinel"], "{out}");
}

#[test]
fn compare_targets_take_every_name_a_selector_picks() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok_in(
        dir.path(),
        "shellshock",
        &["compare", "Panzer IV", "Jagdpanther", "--target", "era:future", "--trials", "20", "--range", "3", "--quiet"],
    );
    assert!(!out.is_empty());
}

#[test]
fn a_skirmishers_squad_in_versus_is_one_force_not_a_field_of_troopers() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok_in(
        dir.path(),
        "skirmishers",
        &[
            "compare",
            "Rifle squad",
            "Power lance",
            "--battle",
            "--versus",
            "rifle squad",
            "--trials",
            "10",
            "--format",
            "json",
            "--quiet",
        ],
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let text = v.to_string();
    // a field of troopers would play each trooper of the squad as a one-trooper force
    assert!(text.contains("\"versus\":\"Rifle squad\""), "{text}");
    assert!(!text.contains("\"versus\":\"Rifleman\""), "{text}");
}

#[test]
fn skirmishers_validate_checks_additions_against_the_active_catalogue() {
    let dir = catalogue_dir(&[(
        "extra.toml",
        "[[trooper]]\nname = \"Pistolero\"\nprimary = \"SMG\"\ngrenades = 0\n\n[[squad]]\nname = \"Duo\"\nmembers = [{ trooper = \"Rifleman\", count = 2 }]\n",
    )]);
    let out = ok_in(dir.path(), "skirmishers", &["validate", "extra.toml"]);
    assert!(out.starts_with("OK: "), "{out}");
    // the shipped troopers alone use the shipped weapons: additions to a catalogue of
    // those weapons, checked as such (they were 30 "unknown weapon" errors)
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/loadouts/skirmishers/");
    let weapons = catalogue_dir(&[("weapons.toml", &fs::read_to_string(format!("{shipped}weapons.toml")).unwrap())]);
    let out = ok_in(
        dir.path(),
        "skirmishers",
        &["--loadouts", weapons.path().to_str().unwrap(), "validate", &format!("{shipped}troopers.toml")],
    );
    assert!(out.starts_with("OK: ") && out.contains("11 troopers"), "{out}");
    // a true typo is still an error, with a suggestion
    let bad = catalogue_dir(&[("bad.toml", "[[trooper]]\nname = \"X\"\nprimary = \"Pistl\"\ngrenades = 0\n")]);
    let (ok, _, err, _) = run_in(bad.path(), "skirmishers", &["validate", "bad.toml"]);
    assert!(!ok && err.contains("did you mean `Pistol`?"), "{err}");
}

#[test]
fn catalog_lists_forces_and_fields_and_validate_counts_forces() {
    let dir = tempfile::tempdir().unwrap();
    for (ruleset, first) in
        [("techcommander", "Lance Group"), ("mechcom", "Kerberos Pack"), ("skirmishers", "Rifle squad")]
    {
        let out = ok_in(dir.path(), ruleset, &["catalog", "forces", "--format", "csv"]);
        assert!(out.starts_with("name,members,units,points,budget\n"), "{ruleset}: {out}");
        assert!(out.lines().nth(1).unwrap().starts_with(first), "{ruleset}: {out}");
    }
    let out = ok_in(dir.path(), "mechcom", &["catalog", "forces", "--format", "csv"]);
    assert!(out.contains("Kerberos Pack,Kerberos+Steady Hand+2*Kerberos+Pythia,4,890,"), "{out}");
    let out = ok_in(dir.path(), "shellshock", &["catalog", "fields", "--format", "csv"]);
    assert!(out.starts_with("field,opponent,weight\nww2,"), "{out}");
    for ruleset in ["techcommander", "mechcom"] {
        let out = ok_in(dir.path(), ruleset, &["validate"]);
        assert!(out.contains(" forces ("), "{ruleset}: {out}");
    }
}

#[test]
fn mechcom_abilities_print_as_the_book_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = ok_in(dir.path(), "mechcom", &["catalog", "mechs", "--format", "csv"]);
    assert!(out.contains("Red-Hot Reactor") && out.contains("Searing Wave"), "{out}");
    assert!(!out.contains("RedHotReactor"), "{out}");
}
