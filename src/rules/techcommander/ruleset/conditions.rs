//! TechCommander: its condition axes, flags and their checks ([`crate::rules::ruleset::ConditionRules`]).

use super::*;

impl crate::rules::ruleset::ConditionRules for TechCommander {
    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let c = Conditions {
            range: parse_range(p.get("range"))?,
            cover: p.get("cover").parse()?,
            smoke: p.get("smoke").parse()?,
            movement: p.get("movement").parse()?,
            statuses: p.get("status").parse()?,
            designated: p.get("designated") == "true",
            jury_rig_failed: p.get("jury_rig_failed") == "true",
            under_crewed: p.get("under_crewed") == "true",
            friendly_msv: p.get("friendly_msv") == "true",
            mode: p.get("mode").parse()?,
        };
        c.validate()?;
        Ok(c)
    }

    fn check_engagement(c: &Conditions) -> Result<(), String> {
        if c.mode == AttackMode::OmegaOverride || c.mode.is_special() {
            return Err(format!(
                "--mode {} is an odds-only mode (use `volley odds`); engagements fire one weapon system per action",
                c.mode
            ));
        }
        Ok(())
    }

    fn check_battle(c: &Conditions) -> Result<(), String> {
        Self::check_engagement(c)?;
        if c.mode != AttackMode::Normal {
            return Err(format!(
                "--mode {} is an attack action of duels and attack runs; a battle's units choose their own actions \
                 (battles play --mode normal; the battle mode is --battle-mode)",
                c.mode
            ));
        }
        Ok(())
    }

    fn check_name(role: Role, name: &str) -> Result<(), String> {
        if role == Role::Target { TargetSpec::parse(name).map(|_| ()) } else { Ok(()) }
    }

    fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
        edition::check_conditions(c, o)
    }

    fn describe(c: &Conditions) -> String {
        report::describe(c)
    }
}
