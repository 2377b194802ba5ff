//! Shellshock: its condition axes, flags and their checks ([`crate::rules::ruleset::ConditionRules`]).

use super::*;

impl crate::rules::ruleset::ConditionRules for Shellshock {
    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &[]
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let range = int("range")? as u32;
        let point_blank = p.get("point_blank") == "true";
        if point_blank && range > 1 {
            return Err(format!("point blank means adjacent hexes (range 0 or 1), not range {range}"));
        }
        let facing = match p.get("facing") {
            "side" => Facing::Side,
            "rear" => Facing::Rear,
            _ => Facing::Front,
        };
        let dice = match p.get("dice") {
            "card" | "" => None,
            d => Some(Dice::parse(d)?),
        };
        Ok(Conditions {
            range,
            facing,
            hull_down: p.get("hull_down") == "true",
            point_blank,
            immobile: p.get("immobile") == "true",
            dice,
            gunnery: int("gunnery")? as i32,
            // Set by the engagement from `DODGE` (`Conditions::dodging`), never an axis.
            target_dodging: false,
            attacker_dodging: false,
        })
    }

    fn describe(c: &Conditions) -> String {
        c.describe()
    }
}
