use super::*;
use crate::rules::RuleOptions;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    Minor,
    HowToAttack,
}

crate::option_choices! {
    Band { Minor = "minor", HowToAttack = "how-to-attack" }
}

crate::rule_options! {
    "Test";
    /// A table with one option of each kind.
    #[derive(Debug, Clone, PartialEq)]
    pub struct Toy {
        smoke_pop: bool = true, switch, "a switch";
        smoke_penalty: u32 = 6, int(0, 100), "an integer";
        height: i32 = -1, int(-5, 5), "a signed integer";
        damage_weight: f64 = 3.0, num(0, 100), "a number";
        band: Band = Band::Minor, choice, "a choice of an enum";
        half: Pick = Pick("FLOOR"), choice("FLOOR", "CEIL"), "a choice of names";
        depth: AutoOr = AutoOr::Auto, auto_or_int(1, 60), "AUTO or an integer";
        no_map: bool = true, switch, "played only as true", fixed;
    }
}

impl RuleOptions for Toy {}

#[test]
fn defaults_are_declared_once_and_pairs_follow_the_declaration() {
    let pairs = Toy::default().pairs();
    let text: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    assert_eq!(
        text,
        [
            "SMOKE_POP=true",
            "SMOKE_PENALTY=6",
            "HEIGHT=-1",
            "DAMAGE_WEIGHT=3.0",
            "BAND=minor",
            "HALF=FLOOR",
            "DEPTH=AUTO",
            "NO_MAP=true"
        ]
    );
    let specs = Toy::specs();
    assert_eq!(specs.len(), 8);
    assert_eq!((specs[3].default.as_str(), specs[3].help.as_str()), ("3.0", "a number"));
    assert_eq!(specs[1].values, "a whole number from 0 to 100");
    assert!(Toy::default().non_default().is_empty());
    assert!(Toy::default().canonical().starts_with("SMOKE_POP=true,SMOKE_PENALTY=6,"));
    assert_eq!(Toy::default().validate(), Ok(()));
}

#[test]
fn switches_take_true_false_on_off_yes_no_in_any_case() {
    for (text, want) in [("true", true), ("OFF", false), ("On", true), ("no", false), ("YES", true), ("False", false)] {
        let o = Toy::default().with("smoke-pop", text).unwrap();
        assert_eq!(o.smoke_pop, want, "{text}");
        assert_eq!(o.pairs()[0].1, want.to_string(), "written true/false whatever was read");
    }
    assert!(matches!(Toy::default().with("SMOKE_POP", "maybe"), Err(OptionError::BadValue { .. })));
}

#[test]
fn names_and_choices_match_in_any_case_with_dash_or_underscore() {
    let mut o = Toy::default();
    o.set("Damage-Weight", "0.25").unwrap();
    o.set("band", "HOW_TO_ATTACK").unwrap();
    o.set("HALF", "ceil").unwrap();
    o.set("depth", "12").unwrap();
    assert_eq!((o.damage_weight, o.band, o.half, o.depth), (0.25, Band::HowToAttack, Pick("CEIL"), AutoOr::Int(12)));
    assert_eq!(o.non_default().len(), 4);
    assert_eq!(o.non_default()[1], ("BAND".to_string(), "how-to-attack".to_string()));
    o.set("depth", "auto").unwrap();
    assert_eq!(o.depth, AutoOr::Auto);
}

#[test]
fn unknown_names_and_bad_values_are_typed_usage_errors() {
    let mut o = Toy::default();
    let e = o.set("SMOKE_PENALTIES", "4").unwrap_err();
    assert!(e.is_usage());
    assert_eq!(e.to_string(), "unknown Test option `SMOKE_PENALTIES` (did you mean SMOKE_PENALTY?)");
    for (name, value) in [("SMOKE_PENALTY", "101"), ("SMOKE_PENALTY", "-1"), ("HEIGHT", "6"), ("DAMAGE_WEIGHT", "nan")]
    {
        let e = o.set(name, value).unwrap_err();
        assert!(matches!(e, OptionError::BadValue { .. }), "{name}={value}: {e}");
        assert!(e.to_string().contains(name), "{e}");
    }
    assert!(o.set("BAND", "bullets").unwrap_err().to_string().contains("one of minor, how-to-attack"));
    assert!(o.set("DEPTH", "0").is_err());
    assert_eq!(o, Toy::default(), "a refused value changes nothing");
}

#[test]
fn fixed_options_and_values_out_of_range_are_refused_by_validate() {
    let o = Toy::default().with("NO_MAP", "off").unwrap();
    let e = o.validate().unwrap_err();
    assert_eq!(e, OptionError::NotPlayed { ruleset: "Test", pairs: vec!["NO_MAP=false".into()] });
    let o = Toy { smoke_penalty: 101, damage_weight: f64::INFINITY, ..Toy::default() };
    let e = o.validate().unwrap_err().to_string();
    assert!(e.contains("SMOKE_PENALTY=101 (a whole number from 0 to 100)") && e.contains("DAMAGE_WEIGHT"), "{e}");
}
