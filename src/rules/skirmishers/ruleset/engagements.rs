//! Skirmishers: exact odds, attack runs, duels and their pairings ([`crate::rules::ruleset::Engagements`]).

use super::*;

impl crate::rules::ruleset::Engagements for Skirmishers {
    type AttackRun = AttackRun;

    type Duel = Duel;

    type PairedRun = QuantilePair;

    type PairedDuel = ReplayPaired<Duel>;

    fn odds(
        cat: &Catalogue,
        attacker: &str,
        weapon: Option<&str>,
        target: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        check_conditions(c, o)?;
        report::odds_report(cat, trooper_of(cat, attacker)?, weapon, trooper_of(cat, target)?, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        attacker: &str,
        target: &str,
        c: &Conditions,
        o: &Options,
        policy: RunPolicy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        check_conditions(c, o)?;
        AttackRun::new(trooper_of(cat, attacker)?, trooper_of(cat, target)?, c, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        run.exact()
    }

    fn plan(_cat: &Catalogue, _attacker: &str, run: &AttackRun) -> Vec<(u32, String)> {
        run.plan
            .rounds
            .iter()
            .enumerate()
            .flat_map(|(r, steps)| {
                steps.iter().map(move |s| (r as u32 + 1, run.plan.weapons[s.weapon as usize].clone()))
            })
            .collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        _policy: RunPolicy,
        max_turns: u32,
    ) -> Result<Duel, String> {
        check_conditions(c, o)?;
        Duel::new(trooper_of(cat, a)?, trooper_of(cat, b)?, c, o, max_turns)
    }

    /// A weapon (or grenade) in range with a target number: the first round's plan of
    /// the default policy holds an attack.
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        check_conditions(c, o)?;
        let run = AttackRun::new(trooper_of(cat, a)?, trooper_of(cat, d)?, c, o, RunPolicy::default(), 1)?;
        Ok(run.plan.attacks() > 0)
    }

    fn exact_duel(d: &Duel) -> Option<ExactDuelOdds> {
        // Sides act in turn: no mutual kill.
        d.exact().map(|e| ExactDuelOdds {
            p_a_wins: e.p_a_wins,
            p_b_wins: e.p_b_wins,
            p_mutual: 0.0,
            p_timeout: e.p_undecided,
        })
    }

    fn solves_duel(d: &Duel) -> bool {
        d.solvable()
    }

    fn exact_initiative(d: &Duel) -> (Option<f64>, Option<f64>) {
        d.exact_split()
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        QuantilePair::new(&a.exact(), &b.exact(), metric)
    }

    fn paired_duel(a: Duel, b: Duel, metric: Metric) -> Result<ReplayPaired<Duel>, String> {
        ReplayPaired::new(a, b, metric)
    }
}
