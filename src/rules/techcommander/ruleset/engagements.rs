//! TechCommander: exact odds, attack runs, duels and their pairings ([`crate::rules::ruleset::Engagements`]).

use super::*;

impl crate::rules::ruleset::Engagements for TechCommander {
    type AttackRun = AttackRun;

    type Duel = Duel;

    type PairedRun = QuantilePair;

    type PairedDuel = PairedDuels;

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        if c.mode.is_special() {
            return crate::rules::techcommander::special::special_report(&a, weapon, &engaged_target(cat, t, o)?, c, o);
        }
        report::odds_report(&a, weapon, &engaged_target(cat, t, o)?, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        AttackRun::new(&a, &engaged_target(cat, t, o)?, c, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        run.exact()
    }

    fn run_played(run: &AttackRun) -> Vec<String> {
        run.shield_text().into_iter().collect()
    }

    fn plan(cat: &Catalogue, a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        let Ok(a) = cat.find_build(a).map(|b| Attacker::from_build(cat, b)) else { return Vec::new() };
        run.plan.iter().map(|s| (u32::from(s.turn) + 1, a.systems[s.system as usize].weapon.name.clone())).collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        policy: Policy,
        max_turns: u32,
    ) -> Result<Duel, String> {
        edition::check_conditions(c, o)?;
        let (a, b) = (side(cat, a, o)?, side(cat, b, o)?);
        a.0.check_movement(c.movement)?;
        b.0.check_movement(c.movement)?;
        Duel::new((&a.0, &a.1), (&b.0, &b.1), c, o, policy, max_turns)
    }

    /// A weapon system with a shot at these conditions (range, line of sight, mode).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        let (attacker, defender) = (side(cat, a, o)?.0, side(cat, d, o)?.1);
        Ok(crate::rules::techcommander::odds::all_odds(&attacker, &defender, c, o)
            .iter()
            .any(|r| r.no_shot().is_none()))
    }

    /// Every TechCommander duel has an exact solution, bubble shields included (see
    /// [`Duel::exact`]).
    fn exact_duel(duel: &Duel) -> Option<ExactDuelOdds> {
        Self::solves_duel(duel).then(|| duel.exact().odds())
    }

    fn solves_duel(_duel: &Duel) -> bool {
        true
    }

    /// Each order of turn 1 solved on its own ([`Duel::exact_first`]).
    fn exact_initiative(duel: &Duel) -> (Option<f64>, Option<f64>) {
        (Some(duel.exact_first(0).p_a_wins()), Some(duel.exact_first(1).p_a_wins()))
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        paired_runs(&a, &b, metric)
    }

    fn paired_duel(a: Duel, b: Duel, metric: Metric) -> Result<PairedDuels, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(PairedDuels::new(a, b))
    }
}
