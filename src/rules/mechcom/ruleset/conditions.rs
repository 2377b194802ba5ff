//! MECHCOM: its condition axes, flags and their checks ([`crate::rules::ruleset::ConditionRules`]).

use super::*;

impl crate::rules::ruleset::ConditionRules for Mechcom {
    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Setting, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let cover = match p.get("cover") {
            "half" => Cover::Half,
            "soft" => Cover::Soft,
            "total" => Cover::Total,
            _ => Cover::None,
        };
        Ok(Setting {
            sit: Situation {
                range: int("range")? as u32,
                cover,
                engaged: p.get("engaged") == "true",
                levels_above: int("levels_above")? as i32,
                spot_tokens: int("spot_tokens")? as u32,
                heavy_moved: p.get("heavy_moved") == "true",
                barrage_dice: int("barrage_dice")? as u32,
            },
            attacker: conditions_of(p.get("attacker_conditions"))?,
            target: conditions_of(p.get("target_conditions"))?,
        })
    }

    fn describe(c: &Setting) -> String {
        report::describe(c)
    }
}
