//! Shellshock: exact odds, attack runs, duels and their pairings ([`crate::rules::ruleset::Engagements`]).

use super::*;

impl crate::rules::ruleset::Engagements for Shellshock {
    /// Duels fire simultaneously (shellshock.md §4): no side acts first.
    const ONE_SIDE_ACTS_FIRST: bool = false;

    type AttackRun = AttackRun;

    type Duel = DuelKernel;

    type PairedRun = QuantilePair;

    type PairedDuel = ReplayPaired<DuelKernel>;

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        let (au, tu) = (unit(cat, a)?, unit(cat, t)?);
        if o.full_chart() {
            return Err("odds are exact: MODEL=FULL_CHART is played by Monte Carlo only (ttk, duel)".into());
        }
        let c = &c.dodging(o, false);
        let ps = compile(cat, a, t, c, o)?;
        let header = format!("{} vs {} ({})", au.name, tu.name, c.describe());
        let mut r = odds::report(header, &ps, &defence(tu, c), o.damage_dice(), weapon, &au.name, &tu.name)?;
        let turn1 = AttackRun::from_plans(ps, defence(tu, c), o, 1).exact().p_kill;
        r.json.as_object_mut().expect("an object").insert("p_destroyed_turn_1".into(), turn1.into());
        Ok(r)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        _policy: Policy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        AttackRun::new(cat, unit(cat, a)?, unit(cat, t)?, &c.dodging(o, false), o, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        if !Self::solves_run(run) {
            // No exact law: every number is NaN rather than the card-free chain's.
            let n = run.max_turns as usize;
            return ExactTtk::unavailable(n, n * run.gunners());
        }
        run.exact()
    }

    fn solves_run(run: &AttackRun) -> bool {
        !run.is_full_chart()
    }

    fn plan(_cat: &Catalogue, _a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        (1..=run.max_turns)
            .flat_map(|t| {
                run.turn(t - 1).iter().map(move |&p| {
                    let g = run.plan(p as usize);
                    let names: Vec<&str> = g.weapons.iter().map(|w| w.name.as_str()).collect();
                    (t, format!("gunner {}: {}", g.number, names.join(" + ")))
                })
            })
            .collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        _policy: Policy,
        max_turns: u32,
    ) -> Result<DuelKernel, String> {
        let (au, bu) = (unit(cat, a)?, unit(cat, b)?);
        let c = &c.dodging(o, true);
        DuelKernel::new(AttackRun::new(cat, au, bu, c, o, max_turns)?, AttackRun::new(cat, bu, au, c, o, max_turns)?)
    }

    /// A gunner with a weapon in range (type I not under the indirect minimum range).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        Ok(!plans(cat, unit(cat, a)?, unit(cat, d)?, &c.dodging(o, false), o).is_empty())
    }

    fn exact_duel(d: &DuelKernel) -> Option<ExactDuelOdds> {
        Self::solves_duel(d).then(|| d.exact())
    }

    fn solves_duel(d: &DuelKernel) -> bool {
        !d.is_full_chart()
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        if a.is_full_chart() || b.is_full_chart() {
            return Err("compared attack runs map one uniform through exact laws: not with MODEL=FULL_CHART".into());
        }
        QuantilePair::new(&a.exact(), &b.exact(), metric)
    }

    fn paired_duel(a: DuelKernel, b: DuelKernel, metric: Metric) -> Result<ReplayPaired<DuelKernel>, String> {
        ReplayPaired::new(a, b, metric)
    }
}
