//! Skirmishers: its condition axes, flags and their checks ([`crate::rules::ruleset::ConditionRules`]).

use super::*;

impl crate::rules::ruleset::ConditionRules for Skirmishers {
    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let hp = int("firer_hp")? as i32;
        Ok(Conditions {
            range: int("range")? as u32,
            obstructions: int("obstructions")? as u32,
            smoke_dots: int("smoke_dots")? as u32,
            attacker_prone: p.get("attacker_prone") == "true",
            target_prone: p.get("target_prone") == "true",
            sneak_suit: p.get("sneak_suit") == "true",
            firer_hp: (hp < 12).then_some(hp),
            armour: Armour::parse(p.get("armour")),
            experience: Experience::parse(p.get("experience")),
            entangled: p.get("entangled") == "true",
            tunnel: p.get("tunnel") == "true",
            target_swimming: p.get("target_swimming") == "true",
        })
    }

    fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
        check_conditions(c, o)
    }

    fn describe(c: &Conditions) -> String {
        c.describe()
    }
}
