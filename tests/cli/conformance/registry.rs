//! The fixture list and the registry agree: every registered ruleset has a fixture
//! entry, and each fixture's sections and capabilities are the ruleset's own.

use super::*;

#[test]
fn contract_every_registered_ruleset_has_a_fixture() {
    let all = json_of(&["rulesets", "--format", "json"]);
    let registered: Vec<&str> = all.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    let fixtures: Vec<&str> = FIXTURES.iter().map(|f| f.ruleset).collect();
    assert_eq!(fixtures, registered, "add one entry to conformance::FIXTURES per registered ruleset, in order");
    for (fx, r) in FIXTURES.iter().zip(all.as_array().unwrap()) {
        let listings: Vec<&str> = r["listings"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect();
        assert_eq!(fx.listings, listings.as_slice(), "{}: the fixture lists every `catalog` section", fx.ruleset);
        let has_battles = r["battle_modes"].as_array().is_some_and(|m| !m.is_empty());
        assert_eq!(fx.battles, has_battles, "{}: battles", fx.ruleset);
        assert_eq!(fx.battles, fx.builtin.forces.is_some() && fx.tiny.forces.is_some(), "{}", fx.ruleset);
        let option = fx.option.split_once('=').unwrap();
        let opt = r["options"].as_array().unwrap().iter().find(|o| o["name"] == option.0);
        let default = opt.unwrap_or_else(|| panic!("{}: no option {}", fx.ruleset, option.0))["default"].clone();
        assert_ne!(default.as_str(), Some(option.1), "{}: {} is not a default", fx.ruleset, fx.option);
        let switch = r["options"].as_array().unwrap().iter().find(|o| o["name"] == fx.switch);
        assert!(switch.is_some(), "{}: no option {}", fx.ruleset, fx.switch);
    }
}
