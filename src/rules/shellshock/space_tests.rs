//! The build space and ad-hoc builds (`space`, `build`) on a small catalogue written
//! here: sizes counted by hand, filters, a build equal to its hand-written twin, errors.

use crate::catalogue::adhoc::AdHocBuild;
use crate::catalogue::source::SourceFile;
use crate::rules::ruleset::SpaceFilter;

use super::space::{adhoc_entry, build_space};
use super::{AttackRun, Catalogue, Conditions, DuelKernel, Options};

/// Three cards: Two (G1 Gunnery 1, G2 no skill), Ace (Gunnery 7, which has no price) and
/// One (Gunnery 0, Piloting 1); gunners priced at 0, 1, 2; a hand-written build.
const TINY: &str = r#"
[[weapon]]
name = "Gun"
type = "B"
damage = 5
shock = 3
penetration = 3
range = 120

[[chart]]
name = "c"
lines = "ABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABABAB"
equipment = [{ letter = "A", name = "Crew" }, { letter = "B", name = "Engine" }]

[[unit]]
name = "Two"
era = "future"
defense = { B = 12, M = 10, E = 8, I = 10, SA = 22, P = 14 }
armor = { front = 10, side = 6, rear = 4 }
shock_threshold = 4
penetration_factor = 4
dead_at = 12
internal = [{ from = 3, percent = 10, hits = 1 }]
chart = "c"
gunners = [{ skill = 1, weapons = ["Gun"] }, { weapons = ["Gun"] }]
ecv = 100

[[unit]]
name = "Ace"
era = "ww2"
defense = { B = 11, M = 10, E = 8, I = 10, SA = 22, P = 14 }
armor = { front = 8, side = 6, rear = 4 }
shock_threshold = 4
penetration_factor = 4
dead_at = 10
chart = "c"
gunners = [{ skill = 7, weapons = ["Gun"] }]
ecv = 60

[[unit]]
name = "One"
era = "modern"
defense = { B = 10, M = 10, E = 8, I = 10, SA = 20, P = 12 }
armor = { front = 6, side = 4, rear = 2 }
shock_threshold = 3
penetration_factor = 3
dead_at = 9
chart = "c"
gunners = [{ skill = 0, weapons = ["Gun"] }]
piloting = 1
ecv = 50

[[build]]
name = "Two Vet"
unit = "Two"
gunnery = { G1 = 2 }

[[crew]]
role = "gunner"
skill = 0
ecv = 0

[[crew]]
role = "gunner"
skill = 1
ecv = 5

[[crew]]
role = "gunner"
skill = 2
ecv = 12

[[crew]]
role = "pilot"
skill = 1
ecv = 3

[[crew]]
role = "pilot"
skill = 2
ecv = 8
"#;

fn load(extra: &str) -> Result<Catalogue, String> {
    let files = [
        SourceFile { name: "tiny.toml".into(), text: TINY.into() },
        SourceFile { name: "extra.toml".into(), text: extra.into() },
    ];
    Catalogue::from_read("tiny catalogue", &files, Vec::new()).map_err(|e| e.to_string())
}

fn tiny() -> Catalogue {
    load("").unwrap_or_else(|e| panic!("{e}"))
}

fn names(space: &[AdHocBuild]) -> Vec<String> {
    space.iter().map(AdHocBuild::to_string).collect()
}

fn space(filter: SpaceFilter) -> Vec<String> {
    names(&build_space(&tiny(), &filter).unwrap())
}

/// The catalogue with the ad-hoc build `text` added as the game writes it.
fn with_adhoc(text: &str) -> Result<Catalogue, String> {
    let cat = tiny();
    let b = AdHocBuild::parse(text)?;
    let entry = adhoc_entry(&cat, &b, text)?;
    load(&entry)
}

#[test]
fn the_space_is_every_priced_gunnery_level_of_every_gunner_counted_by_hand() {
    let all = space(SpaceFilter::default());
    // Two: 3 levels x 3 levels; Ace: its Gunnery 7 has no price, so only the card;
    // One: 3 levels. The hand-written build is not a base.
    assert_eq!(all.len(), 9 + 1 + 3, "{all:?}");
    assert_eq!(
        all[..4],
        [
            "Two[Gunnery 0]",
            "Two[G1 Gunnery 0, G2 Gunnery 1]",
            "Two[G1 Gunnery 0, G2 Gunnery 2]",
            "Two[G1 Gunnery 1, G2 Gunnery 0]"
        ]
    );
    assert_eq!(all[4], "Two[Gunnery 1]");
    assert_eq!(all[9..], ["Ace[]", "One[Gunnery 0]", "One[Gunnery 1]", "One[Gunnery 2]"]);
    let mut unique = all.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), all.len());
}

#[test]
fn every_candidate_loads_and_costs_the_card_plus_the_crew_swapped() {
    let cat = tiny();
    let builds = build_space(&cat, &SpaceFilter::default()).unwrap();
    let entries: Vec<String> = builds.iter().map(|b| adhoc_entry(&cat, b, &b.to_string()).unwrap()).collect();
    let loaded = load(&entries.join("\n")).unwrap_or_else(|e| panic!("{e}"));
    let ecv = |n: &str| loaded.unit(n).unwrap().ecv;
    // Two: 100 + p(G1) - p(1) + p(G2) - p(0), with p = 0, 5, 12
    assert_eq!(ecv("Two[Gunnery 0]"), 95.0);
    assert_eq!(ecv("Two[G1 Gunnery 1, G2 Gunnery 0]"), 100.0);
    assert_eq!(ecv("Two[Gunnery 2]"), 119.0);
    assert_eq!(ecv("Ace[]"), 60.0);
    assert_eq!(ecv("One[Gunnery 2]"), 62.0);
    assert_eq!(ecv("Two Vet"), 107.0);
    let u = loaded.unit("Two[G1 Gunnery 2, G2 Gunnery 1]").unwrap();
    assert_eq!((u.gunners[0].skill, u.gunners[1].skill, u.ecv), (Some(2), Some(1), 112.0));
}

#[test]
fn filters_restrict_the_space() {
    let f = |bases: &[&str], max: Option<f64>, must: &[&str], not: &[&str]| SpaceFilter {
        bases: bases.iter().map(|s| s.to_string()).collect(),
        max_cost: max,
        must_include: must.iter().map(|s| s.to_string()).collect(),
        exclude: not.iter().map(|s| s.to_string()).collect(),
    };
    assert_eq!(space(f(&["two"], None, &[], &[])).len(), 9);
    // Two at most 100: p(G1) + p(G2) <= 5 (3 ways); Ace 60; One 50 + p <= 100 (3)
    assert_eq!(space(f(&[], Some(100.0), &[], &[])).len(), 3 + 1 + 3);
    // a gunner at Gunnery 2: Two 9 - 4 = 5, One 1
    let two = space(f(&[], None, &["gunnery 2"], &[]));
    assert_eq!(two.len(), 6, "{two:?}");
    assert_eq!(space(f(&[], None, &[], &["Gunnery 2"])).len(), 13 - 6);
    assert_eq!(space(f(&[], None, &["G2 Gunnery 1"], &[])).len(), 3);
    assert_eq!(space(f(&[], None, &["Piloting 1"], &[])), ["One[Gunnery 0]", "One[Gunnery 1]", "One[Gunnery 2]"]);
    assert_eq!(space(f(&[], None, &[], &["ace"])).len(), 12);
    // a card's own level (Gunnery 7) is one a filter may name
    assert_eq!(space(f(&[], None, &["Gunnery 7"], &[])), ["Ace[]"]);
    let err = |filter: SpaceFilter| build_space(&tiny(), &filter).unwrap_err();
    let e = err(f(&[], None, &["Gunery 2"], &[]));
    assert!(e.contains("Gunnery 2"), "{e}");
    let e = err(f(&[], None, &["Gunnery 9"], &[]));
    assert!(e.contains("no build has Gunnery 9") && e.contains("0, 1, 2, 7"), "{e}");
    let e = err(f(&[], None, &["G3 Gunnery 1"], &[]));
    assert!(e.contains("G3"), "{e}");
    let e = err(f(&["Tw"], None, &[], &[]));
    assert!(e.contains("Two"), "{e}");
    let e = err(f(&["Two Vet"], None, &[], &[]));
    assert!(e.contains("[[build]]"), "{e}");
}

#[test]
fn an_adhoc_build_plays_bit_for_bit_as_its_hand_written_twin() {
    let twin = r#"
[[unit]]
name = "Two Twin"
era = "future"
defense = { B = 12, M = 10, E = 8, I = 10, SA = 22, P = 14 }
armor = { front = 10, side = 6, rear = 4 }
shock_threshold = 4
penetration_factor = 4
dead_at = 12
internal = [{ from = 3, percent = 10, hits = 1 }]
chart = "c"
gunners = [{ skill = 2, weapons = ["Gun"] }, { skill = 1, weapons = ["Gun"] }]
ecv = 112
"#;
    let text = "two[ G2 gunnery 1,Gunnery 2 ]";
    let cat = tiny();
    let entry = adhoc_entry(&cat, &AdHocBuild::parse(text).unwrap(), text).unwrap();
    let both = load(&format!("{twin}\n{entry}")).unwrap_or_else(|e| panic!("{e}"));
    let adhoc = both.unit(text).unwrap();
    let hand = both.unit("Two Twin").unwrap();
    assert_eq!(adhoc.name, text);
    assert_eq!(super::unit::Unit { name: hand.name.clone(), ..adhoc.clone() }, *hand);
    let duel = |a: &str| {
        let (a, b) = (both.unit(a).unwrap(), both.unit("One").unwrap());
        let (c, o) = (Conditions::default(), Options::default());
        let ab = AttackRun::new(&both, a, b, &c, &o, 12).unwrap();
        let ba = AttackRun::new(&both, b, a, &c, &o, 12).unwrap();
        DuelKernel::new(ab, ba).unwrap().exact()
    };
    let (x, y) = (duel(text), duel("Two Twin"));
    assert_eq!(
        (x.p_a_wins.to_bits(), x.p_b_wins.to_bits(), x.p_mutual.to_bits(), x.p_timeout.to_bits()),
        (y.p_a_wins.to_bits(), y.p_b_wins.to_bits(), y.p_mutual.to_bits(), y.p_timeout.to_bits())
    );
    // and the skill counts: the card itself plays differently
    assert_ne!(duel("Two").p_a_wins, x.p_a_wins);
    // an empty build is the card
    let card = with_adhoc("Two[]").unwrap();
    let (e, t) = (card.unit("Two[]").unwrap(), card.unit("Two").unwrap());
    assert_eq!(super::unit::Unit { name: t.name.clone(), ..e.clone() }, *t);
    // the pilot's level is priced too
    assert_eq!(with_adhoc("One[Piloting 2]").unwrap().unit("One[Piloting 2]").unwrap().ecv, 55.0);
}

#[test]
fn bad_adhoc_builds_are_refused_with_clear_errors() {
    let cat = tiny();
    let entry = |t: &str| adhoc_entry(&cat, &AdHocBuild::parse(t).unwrap(), t);
    for (text, want) in [
        ("Twoo[Gunnery 1]", "did you mean `Two`"),
        ("Two[Gunery 1]", "Gunnery 1"),
        ("Two[Veteran]", "`Gunnery N` (every gunner)"),
        ("Two[2*Gunnery 1]", "once, not 2 times"),
        ("Two[G3 Gunnery 1]", "2 gunners"),
        ("Two[Gunnery 1, Gunnery 2]", "two levels"),
        ("Two[G1 Gunnery 1, g1 gunnery 2]", "two levels"),
        ("Two[Piloting 1, Piloting 2]", "two levels"),
        ("Two Vet[Gunnery 1]", "[[build]]"),
    ] {
        let e = entry(text).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
    // the loader prices the levels
    for (text, want) in [
        ("Two[Gunnery 5]", "Gunnery 5 has no ECV"),
        ("Ace[Gunnery 1]", "card's Gunnery 7 has no ECV"),
        ("One[Piloting 0]", "Piloting 0 has no ECV"),
        ("Two[Gunnery 30]", "gunnery.G1"),
    ] {
        let e = with_adhoc(text).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn hand_written_builds_and_crew_prices_are_checked_like_every_entry() {
    for (extra, want) in [
        ("[[build]]\nname = \"X\"\nunit = \"Twoo\"\n", "did you mean `Two`"),
        ("[[build]]\nname = \"X\"\nunit = \"Two\"\ngunnery = { X1 = 2 }\n", "G1, G2"),
        ("[[build]]\nname = \"X\"\nunit = \"Two\"\ngunnery = { G3 = 2 }\n", "has 2 gunners"),
        ("[[build]]\nname = \"one\"\nunit = \"Two\"\n", "the name of a unit"),
        ("[[build]]\nname = \"X\"\nunit = \"Two\"\nskill = 2\n", "unknown key"),
        ("[[crew]]\nrole = \"gunner\"\nskill = 2\necv = 3\n", "priced twice"),
        ("[[crew]]\nrole = \"driver\"\nskill = 2\necv = 3\n", "unknown crew role"),
        ("[[crew]]\nrole = \"pilot\"\nskill = 3\necv = -1\n", "at least 0"),
        (
            "[[build]]\nname = \"X\"\nunit = \"Two\"\ngunnery = { G1 = 0, G2 = 0 }\n[[crew]]\nrole = \"gunner\"\nskill = 0\necv = 200\n",
            "priced twice",
        ),
    ] {
        let e = load(extra).unwrap_err();
        assert!(e.contains(want), "{extra}: {e}");
        assert!(e.contains("extra.toml"), "{e}");
    }
    // a build's ECV must stay positive: 4 - p(2) + p(0) = -8
    let cheap = TINY[TINY.find("[[unit]]\nname = \"One\"").unwrap()..TINY.find("[[build]]").unwrap()]
        .replace("name = \"One\"", "name = \"Cheap\"")
        .replace("skill = 0", "skill = 2")
        .replace("ecv = 50", "ecv = 4");
    let e = load(&format!("{cheap}\n[[build]]\nname = \"X\"\nunit = \"Cheap\"\ngunnery = {{ G1 = 0 }}\n")).unwrap_err();
    assert!(e.contains("ECV would be -8"), "{e}");
}
