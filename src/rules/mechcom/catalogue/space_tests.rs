//! The MECHCOM build space counted by hand on a catalogue written here, its filters,
//! ad-hoc builds against the same model written by hand, and the errors.

use super::*;
use crate::catalogue::source::{SourceFile, embedded};
use crate::rules::mechcom::battle::force::resolve_force;
use crate::rules::mechcom::catalogue::CATALOGUE_DIR;
use crate::rules::mechcom::duel_kernel::DuelKernel;
use crate::rules::mechcom::options::Options;
use crate::rules::mechcom::situation::Situation;

/// Four mechs (Alpha with two extra profiles, Beta with none, Gamma of another faction
/// with one, neutral Wall) and four pilots (a Regular of each faction, an Ace that flies
/// only Alpha, a Mercenary).
const TINY: &str = r#"
[[weapon]]
name = "Gun"
range = 5
damage = 2
attacks = 2

[[mech]]
name = "Alpha"
faction = "HERAKLES"
cost = 200
energy = 6
movement = 4
sensors = 6
stability = 4
strength = 0
armour = 4
integrity = 8
weapons = ["Gun"]
profiles = [{ name = "Hot", cost = 30 }, { name = "Cold", cost = 10 }]

[[mech]]
name = "Beta"
faction = "HERAKLES"
cost = 150
energy = 6
movement = 4
sensors = 6
stability = 3
strength = 0
armour = 3
integrity = 7
weapons = ["Gun"]

[[mech]]
name = "Gamma"
faction = "I.C.S.E."
cost = 180
energy = 9
movement = 4
sensors = 6
stability = 4
strength = 0
armour = 4
integrity = 8
weapons = ["Gun"]
profiles = [{ name = "Scout", cost = 20 }]

[[mech]]
name = "Wall"
faction = "neutral"
cost = 0
energy = 0
movement = 0
sensors = 0
stability = 0
strength = 0
armour = 2
integrity = 4

[[pilot]]
name = "Calm"
type = "regular"
cost = 20
faction = "HERAKLES"
bonus = { stability = -1 }

[[pilot]]
name = "Kade"
type = "ace"
cost = 40
faction = "HERAKLES"
mechs = ["Alpha"]
bonus = { integrity = 2 }

[[pilot]]
name = "Hired"
type = "mercenary"
cost = 50
bonus = { energy = 3 }

[[pilot]]
name = "Eye"
type = "regular"
cost = 10
faction = "I.C.S.E."
"#;

fn load(texts: &[&str]) -> Result<Catalogue, String> {
    let files: Vec<SourceFile> =
        texts.iter().enumerate().map(|(i, t)| SourceFile { name: format!("f{i}.toml"), text: t.to_string() }).collect();
    Catalogue::from_sources("test catalogue", &files).map_err(|e| e.to_string())
}

fn tiny() -> Catalogue {
    load(&[TINY]).unwrap()
}

fn names_of(space: &[AdHocBuild]) -> Vec<String> {
    space.iter().map(ToString::to_string).collect()
}

fn size(cat: &Catalogue, filter: SpaceFilter) -> usize {
    build_space(cat, &filter).unwrap().len()
}

/// The entries of `builds` (canonical names) loaded with the tiny catalogue.
fn with_builds(extra: &[&str], builds: &[&str]) -> Result<Catalogue, String> {
    let cat = load(&[&[TINY][..], extra].concat())?;
    let mut entries = Vec::new();
    for b in builds {
        let build = AdHocBuild::parse(b)?;
        entries.push(adhoc_entry(&cat, &build, b)?);
    }
    let all = entries.join("\n");
    load(&[&[TINY][..], extra, &[all.as_str()]].concat())
}

/// Alpha: (no pilot, Calm, Kade, Hired) × (BASE, Hot, Cold) = 12; Beta: (none, Calm,
/// Hired) × BASE = 3 (Kade flies only Alpha, Eye is I.C.S.E.); Gamma: (none, Hired, Eye)
/// × (BASE, Scout) = 6; Wall (neutral) none: 21.
#[test]
fn the_space_is_mech_times_pilot_times_profile_counted_by_hand() {
    let cat = tiny();
    let space = build_space(&cat, &SpaceFilter::default()).unwrap();
    assert_eq!(space.len(), 21);
    let names = names_of(&space);
    let gamma: Vec<&str> = names.iter().filter(|n| n.starts_with("Gamma")).map(String::as_str).collect();
    assert_eq!(
        gamma,
        ["Gamma[]", "Gamma[Scout]", "Gamma[Hired]", "Gamma[Hired, Scout]", "Gamma[Eye]", "Gamma[Eye, Scout]"]
    );
    assert_eq!(names.iter().filter(|n| n.starts_with("Alpha")).count(), 12);
    assert_eq!(names.iter().filter(|n| n.starts_with("Beta")).count(), 3);
    assert!(!names.iter().any(|n| n.starts_with("Wall")
        || n.starts_with("Beta[Kade")
        || n.starts_with("Alpha[Eye")
        || n.starts_with("Beta[Eye")));
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 21, "every candidate once");
    // Every candidate is legal: its entry loads, and costs mech + pilot + profile.
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let loaded = with_builds(&[], &refs).unwrap();
    assert_eq!(loaded.builds.len(), 21);
    for (name, cost) in
        [("Alpha[Kade, Hot]", 270.0), ("Alpha[]", 200.0), ("Beta[Hired]", 200.0), ("Gamma[Eye, Scout]", 210.0)]
    {
        assert_eq!(loaded.model_cost(name), cost, "{name}");
    }
}

#[test]
fn filters_restrict_the_space() {
    let cat = tiny();
    let f = SpaceFilter::default;
    assert_eq!(size(&cat, SpaceFilter { bases: vec!["beta".into()], ..f() }), 3);
    assert_eq!(size(&cat, SpaceFilter { bases: vec!["Beta".into(), "GAMMA".into()], ..f() }), 9);
    // Alpha alone 200; Beta alone, with Calm, with Hired; Gamma alone, with Eye, in Scout.
    assert_eq!(size(&cat, SpaceFilter { max_cost: Some(200.0), ..f() }), 7);
    assert_eq!(size(&cat, SpaceFilter { max_cost: Some(149.0), ..f() }), 0);
    assert_eq!(size(&cat, SpaceFilter { must_include: vec!["hired".into()], ..f() }), 6);
    assert_eq!(size(&cat, SpaceFilter { must_include: vec!["Hot".into()], ..f() }), 4);
    assert_eq!(size(&cat, SpaceFilter { must_include: vec!["BASE".into()], ..f() }), 10);
    assert_eq!(size(&cat, SpaceFilter { must_include: vec!["pilot:Kade".into(), "Cold".into()], ..f() }), 1);
    assert_eq!(size(&cat, SpaceFilter { exclude: vec!["Alpha".into()], ..f() }), 9);
    // Alpha: (none, Calm, Kade) × (BASE, Hot); Beta: none, Calm; Gamma: (none, Eye) × 2.
    assert_eq!(size(&cat, SpaceFilter { exclude: vec!["Hired".into(), "Cold".into()], ..f() }), 12);
    for (filter, near) in [
        (SpaceFilter { bases: vec!["Alpah".into()], ..f() }, "Alpha"),
        (SpaceFilter { must_include: vec!["Kad".into()], ..f() }, "Kade"),
        (SpaceFilter { exclude: vec!["Scot".into()], ..f() }, "Scout"),
        (SpaceFilter { must_include: vec!["profile:Kade".into()], ..f() }, "no profile named `Kade`"),
    ] {
        let e = build_space(&cat, &filter).unwrap_err();
        assert!(e.contains(near), "{filter:?}: {e}");
    }
}

/// A pilot that shares a name with a profile of the mech: the space writes the prefix,
/// and a bare name is refused as ambiguous.
#[test]
fn a_pilot_named_as_a_profile_is_written_with_its_kind() {
    let extra = "[[pilot]]\nname = \"Hot\"\ntype = \"mercenary\"\ncost = 5\n";
    let cat = load(&[TINY, extra]).unwrap();
    let names =
        names_of(&build_space(&cat, &SpaceFilter { bases: vec!["Alpha".into()], ..Default::default() }).unwrap());
    assert_eq!(names.len(), 15);
    for n in ["Alpha[pilot:Hot]", "Alpha[pilot:Hot, profile:Hot]", "Alpha[Calm, profile:Hot]"] {
        assert!(names.contains(&n.to_string()), "{n}: {names:?}");
    }
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let loaded = with_builds(&[extra], &refs).unwrap();
    assert_eq!(loaded.model_cost("Alpha[pilot:Hot, profile:Hot]"), 235.0);
    let e = adhoc_entry(&cat, &AdHocBuild::parse("Alpha[hot]").unwrap(), "x").unwrap_err();
    assert!(e.contains("both") && e.contains("pilot:hot"), "{e}");
    // On a mech without that profile, the bare name is the pilot.
    assert!(adhoc_entry(&cat, &AdHocBuild::parse("Beta[Hot]").unwrap(), "x").unwrap().contains("pilot = \"Hot\""));
}

#[test]
fn bad_adhoc_builds_get_clear_errors() {
    let cat = tiny();
    for (text, want) in [
        ("Alpah[Calm]", "Alpha"),
        ("Alpha[Clam]", "did you mean `Calm`"),
        ("Alpha[Gun]", "`Gun` is a weapon"),
        ("Alpha[Beta]", "`Beta` is a mech"),
        ("Beta[Scout]", "`Scout` is a profile of `Gamma`, not of `Beta`"),
        ("Alpha[pilot:Cold]", "no pilot named `Cold`"),
        ("Alpha[Calm, Kade]", "one pilot card, not both `Calm` and `Kade`"),
        ("Alpha[Hot, cold]", "one profile, not both `Hot` and `Cold`"),
        ("Alpha[2*Calm]", "not 2 copies of `Calm`"),
        ("Alpha[Calm, calm]", "not 2 copies of `Calm`"),
    ] {
        let e = adhoc_entry(&cat, &AdHocBuild::parse(text).unwrap(), text).unwrap_err();
        assert!(e.contains(want), "{text}: {e}");
    }
    // What the loader decides: the pilot's requirements, neutral terrain.
    for (text, want) in [
        ("Beta[Kade]", "pilot `Kade` flies only Alpha; not `Beta`"),
        ("Gamma[Calm]", "pilot `Calm` requires a HERAKLES mech; `Gamma` is I.C.S.E."),
        ("Wall[]", "neutral terrain"),
    ] {
        let e = with_builds(&[], &[text]).unwrap_err();
        assert!(e.contains(want) && e.contains(&format!("build \"{text}\"")), "{text}: {e}");
    }
    // Names match in any case and are written as the catalogue spells them.
    let entry = adhoc_entry(&cat, &AdHocBuild::parse("alpha[COLD, kade]").unwrap(), "alpha[COLD, kade]").unwrap();
    assert_eq!(
        entry,
        "[[build]]\nname = \"alpha[COLD, kade]\"\nmech = \"Alpha\"\npilot = \"Kade\"\nprofile = \"Cold\"\n"
    );
}

#[test]
fn hand_written_builds_are_checked_like_squad_members() {
    let build = |body: &str| format!("[[build]]\n{body}\n");
    for (body, want) in [
        ("name = \"alpha\"\nmech = \"Beta\"", "may not take the name of mech `Alpha`"),
        ("name = \"A+B\"\nmech = \"Beta\"", "must not contain `+`"),
        ("name = \"X\"\nmech = \"Alpha\"\nprofile = \"Hott\"", "did you mean `Hot`"),
        ("name = \"X\"\nmech = \"Alfa\"", "did you mean `Alpha`"),
        ("name = \"X\"\nmech = \"Alpha\"\npilot = \"Kaed\"", "did you mean `Kade`"),
        ("name = \"X\"\nmech = \"Alpha\"\ngun = \"Gun\"", "gun"),
    ] {
        let e = load(&[TINY, &build(body)]).unwrap_err();
        assert!(e.contains(want), "{body}: {e}");
    }
    let twice = build("name = \"X\"\nmech = \"Alpha\"") + &build("name = \"X\"\nmech = \"Beta\"");
    assert!(load(&[TINY, &twice]).unwrap_err().contains("duplicate name: build \"X\""));
    // A force may name a build; its pilot counts as the build's pilot card.
    let ok = build("name = \"Kade Hot\"\nmech = \"Alpha\"\npilot = \"Kade\"\nprofile = \"Hot\"");
    let force =
        |count: u32| format!("[[force]]\nname = \"F\"\nunits = [{{ build = \"Kade Hot\", count = {count} }}]\n");
    let cat = load(&[TINY, &ok, &force(1)]).unwrap();
    let f = resolve_force(&cat, &cat.forces[0], &Options::default()).unwrap();
    assert_eq!(f.points, 270);
    assert_eq!(f.models[0].model, cat.model_named("Alpha+Kade").unwrap());
    let cat = load(&[TINY, &ok, &force(2)]).unwrap();
    let e = resolve_force(&cat, &cat.forces[0], &Options::default()).unwrap_err();
    assert!(e.contains("pilot `Kade` is taken 2 times"), "{e}");
    let e = load(&[TINY, &force(1)]).unwrap_err();
    assert!(e.contains("unknown mech `Kade Hot`"), "{e}");
}

/// An ad-hoc build is the model its mech and pilot make, as `Mech+Pilot` and a squad
/// member write it: the same stats, bit-identical exact duel odds, and the squad's cost.
#[test]
fn an_adhoc_build_plays_and_costs_as_the_same_model_written_by_hand() {
    let squad = "[[squad]]\nname = \"Hand\"\nfaction = \"HERAKLES\"\nmembers = [\
                 { mech = \"Kerberos\", pilot = \"Steady Hand\" }, \
                 { mech = \"Typhon\", pilot = \"Iris Kade\", profile = \"Overclocked\" }]\n";
    let base = Catalogue::embedded().unwrap();
    let adhoc = ["Kerberos[Steady Hand]", "typhon [ overclocked, IRIS KADE ]"];
    let mut files = embedded(CATALOGUE_DIR);
    files.push(SourceFile { name: "squad.toml".into(), text: squad.into() });
    let entries: Vec<String> =
        adhoc.iter().map(|t| adhoc_entry(&base, &AdHocBuild::parse(t).unwrap(), t.trim()).unwrap()).collect();
    files.push(SourceFile { name: "adhoc.toml".into(), text: entries.join("\n") });
    let cat = Catalogue::from_sources("test", &files).unwrap();
    let hand = &cat.squad("Hand").unwrap().members;
    for (name, twin, member) in
        [(adhoc[0], "Kerberos+Steady Hand", &hand[0]), (adhoc[1].trim(), "Typhon+Iris Kade", &hand[1])]
    {
        assert_eq!(cat.model_named(name).unwrap(), cat.model_named(twin).unwrap(), "{name}");
        assert_eq!(cat.model_cost(name), f64::from(member.points), "{name}");
        assert_eq!(cat.select(name).unwrap(), [name]);
    }
    assert_eq!(cat.model_cost(adhoc[1].trim()), 320.0);
    let wasp = cat.model_named("Wasp").unwrap();
    let exact = |name: &str| {
        let k =
            DuelKernel::new(&cat.model_named(name).unwrap(), &wasp, &Situation::at_range(2), &Options::default(), 12);
        k.unwrap().exact().unwrap()
    };
    let (a, b) = (exact(adhoc[0]), exact("Kerberos+Steady Hand"));
    assert_eq!(a, b);
    assert_ne!(a, exact("Kerberos"), "the pilot plays");
}
