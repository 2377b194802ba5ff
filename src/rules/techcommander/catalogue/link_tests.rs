//! Copies beyond a weapon's link limit (3rd edition "Linking weapons": copies "may be
//! fired together, up to the linkable maximum"; Omega Override "ignore linkable
//! limits"): carried as systems of their own, never refused.

use super::resolve::linked_groups;
use super::{Catalogue, UnitKind};
use crate::catalogue::source::SourceFile;

const CARDS: &str = r#"
[[weapon]]
name = "Blackout"
damage = 12
shots = 2
fire_control = 2
opt = 24
linkable = 1
weight = 6
power = 8

[[weapon]]
name = "Pair Gun"
damage = 8
shots = 3
fire_control = 1
opt = 24
linkable = 2
weight = 2
power = 2

[[unit]]
name = "Twin"
kind = "msv"
ac = 4
speed = 8
free_weight = 20
free_power = 40
standard_weapons = [{ name = "Pair Gun", count = 3 }]

[[unit]]
name = "Tank"
kind = "vehicle"
ac = 2

[[build]]
name = "Two Blackouts"
unit = "Twin"
weapons = [{ name = "Blackout", count = 2 }]

[[build]]
name = "Tank"
unit = "Tank"
weapons = [{ name = "Pair Gun", count = 3 }]
"#;

#[test]
fn copies_beyond_the_link_limit_form_systems_of_their_own() {
    assert_eq!(linked_groups(2, 1, UnitKind::Msv), [1, 1]);
    assert_eq!(linked_groups(5, 2, UnitKind::Msv), [2, 2, 1]);
    assert_eq!(linked_groups(4, 2, UnitKind::Troop), [2, 2]);
    assert_eq!(linked_groups(2, 2, UnitKind::Msv), [2]);
    // Auto-stabilized vehicles are not bound by the link limit: one system.
    assert_eq!(linked_groups(3, 1, UnitKind::Vehicle), [3]);
    let cat = Catalogue::from_sources("test", &[SourceFile { name: "t.toml".into(), text: CARDS.into() }])
        .expect("two Blackouts on an MSV build");
    let copies = |name: &str| -> Vec<u32> { cat.build(name).unwrap().systems.iter().map(|s| s.copies).collect() };
    // Standard weapons first (3 Pair Guns: a linked pair and one more), then the build's.
    assert_eq!(copies("Two Blackouts"), [2, 1, 1, 1]);
    assert_eq!(copies("Tank"), [3]);
    // Weight counts every copy once: two Blackouts weigh 12.
    assert_eq!(cat.build("Two Blackouts").unwrap().weight, 12.0);
}
