//! MECHCOM: exact odds, attack runs, duels and their pairings ([`crate::rules::ruleset::Engagements`]).

use super::*;
use crate::rules::ruleset::Catalogue as _;

impl crate::rules::ruleset::Engagements for Mechcom {
    type AttackRun = AttackRun;

    type Duel = DuelKernel;

    type PairedRun = QuantilePair;

    type PairedDuel = ReplayPaired<DuelKernel>;

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Setting,
        o: &Options,
    ) -> Result<OddsReport, String> {
        let (am, tm) = (model(cat, a, c.attacker)?, model(cat, t, c.target)?);
        let (an, tn) = (Self::display_name(cat, Role::Attacker, a)?, Self::display_name(cat, Role::Target, t)?);
        report::odds_report(&am, &an, weapon, &tm, &tn, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Setting,
        o: &Options,
        policy: RunPolicy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        AttackRun::new(&model(cat, a, c.attacker)?, &model(cat, t, c.target)?, &c.sit, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        shared(run.exact())
    }

    fn plan(_cat: &Catalogue, _a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        run.plan.iter().map(|s| (u32::from(s.round) + 1, run.weapons[s.weapon as usize].clone())).collect()
    }

    fn run_notes(run: &AttackRun) -> Vec<String> {
        run.not_modelled.clone()
    }

    fn run_played(run: &AttackRun) -> Vec<String> {
        run.played()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Setting,
        o: &Options,
        _policy: RunPolicy,
        max_turns: u32,
    ) -> Result<DuelKernel, String> {
        DuelKernel::new(&model(cat, a, c.attacker)?, &model(cat, b, c.target)?, &c.sit, o, max_turns)
    }

    /// A weapon the attack rules let fire at these conditions (range, cover, spotting),
    /// or once the attacker's own Spot actions have placed tokens (Artillery needs one;
    /// `SPOT_ACTION`, a model that does not play Heat and can spot the defender).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Setting, o: &Options) -> Result<bool, String> {
        use crate::rules::mechcom::{odds::compile_attack, spot};
        let (attacker, defender) = (model(cat, a, c.attacker)?, model(cat, d, c.target)?);
        let fires = |sit: &Situation| {
            attacker.mech.weapons.iter().any(|w| compile_attack(&attacker, w, &defender, sit, o).is_ok())
        };
        let spots = o.spot_action == crate::rules::mechcom::options::SpotAction::WhenItPays
            && !crate::rules::mechcom::duel_side::plays_heat(&attacker, o)
            && spot::spot_dice(&attacker, &defender, &c.sit, o).is_some();
        let spotted = Situation { spot_tokens: spot::MAX_SPOT_TOKENS.max(c.sit.spot_tokens), ..c.sit };
        Ok(fires(&c.sit) || (spots && fires(&spotted)))
    }

    fn exact_duel(d: &DuelKernel) -> Option<ExactDuelOdds> {
        d.exact().map(|e| ExactDuelOdds {
            p_a_wins: e.p_a_wins,
            p_b_wins: e.p_b_wins,
            p_mutual: e.p_mutual,
            p_timeout: e.p_undecided,
        })
    }

    fn solves_duel(d: &DuelKernel) -> bool {
        d.solvable()
    }

    /// Each side first in round 1, solved on its own ([`DuelKernel::exact_first`]).
    fn exact_initiative(d: &DuelKernel) -> (Option<f64>, Option<f64>) {
        let p = |first: usize| d.exact_first(first).map(|e| e.p_a_wins);
        (p(0), p(1))
    }

    fn duel_notes(d: &DuelKernel) -> Vec<String> {
        let mut v: Vec<String> = d.not_modelled.concat();
        v.dedup();
        v
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        QuantilePair::new(&shared(a.exact()), &shared(b.exact()), metric)
    }

    fn paired_duel(a: DuelKernel, b: DuelKernel, metric: Metric) -> Result<ReplayPaired<DuelKernel>, String> {
        ReplayPaired::new(a, b, metric)
    }
}
