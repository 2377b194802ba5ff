//! Repairs as battle actions.
//!
//! **Repair gear** (3rd edition "Repair", the 2nd edition's likewise: "(Repair equipped
//! units only.) Repair works like an attack action to a friendly unit, except that the
//! unit gains life for the resulting 'damage' instead of losing it"; `REPAIR`): a unit
//! whose build carries a gear card with `repair_damage` spends an action and rolls that
//! gear's shots at a friendly unit exactly as an attack's: target number 10 + the
//! friend's size (capped) + the gear's `repair_fire_control` + the repairer's own to-hit
//! bonuses, fire control lost to a failed jury rig or an under-crewed side; the hitting
//! shots' damage, divided by the friend's damage AC, is the life gained, never above 20.
//! Rulings where the book is silent (docs/battles.md "Repair and the bubble shield"):
//! the repairer reaches its friend (range 0, stationary, no cover, no smoke: under fixed
//! geometry friends are together, as the badge's "half move to an MSV" implies); the
//! friend's defensive gear (damage reduction, fire-control negation) is not applied, nor
//! any status of an opposing target (dug in, hull down: "opposing units get a −2");
//! one repair per unit and turn with its first repair gear (a repair is one more system,
//! `SYSTEM_ONCE_PER_TURN`); a unit never repairs itself (an attack is made at another
//! unit); a repair spends no rounds. Under `REPAIR_REVIVES` (the book's reading) a friend
//! at 0 life or less that is still on the field may be brought back above 0 (see
//! [`TcGame::revived`]).
//!
//! The greedy policy scores a gear repair as the mirror of an attack (§2.7): with V the
//! friend's value as a target (skirmish: points + `COMMAND_TARGET_WEIGHT` × command;
//! deathmatch: AC) and L its life, the score is V × P(the repair brings it from L ≤ 0
//! above 0) plus `DAMAGE_WEIGHT` × V × E[life restored] / 20, where the life restored is
//! max(0, min(L + gain, 20)) − max(0, L) (the damage term is 0 for a power-armoured
//! friend, which resets to 20 anyway). An attack scores V × P(kill) plus
//! `DAMAGE_WEIGHT` × V × E[life removed] / 20 on an enemy, so the policy compares
//! expected life restored on a friend with expected life removed from an enemy, each
//! weighed by the unit's value, and repairs when the best repair scores more than its
//! best attack (ties: attack). A repairer in the red weighs its fire-control-kept and
//! -lost laws by the jury-rig odds, as an attacker does.
//!
//! **The 2nd edition's USSC *Advanced MSV Warfare Badge*** (techcommander-battles.md §5
//! row "faction training"; active only under `EDITION=2` with `FACTION_TRAINING` on): a
//! troop or crew unit with the ability `MSV Warfare Badge` moves half and repairs a
//! friendly MSV on a d20: 1-5 nothing, 6-10 2, 11-15 4, 16-20 8 life
//! ([`crate::rules::techcommander::edition::badge_repair`]), never above 20.
//!
//! Under fixed geometry the repairer reaches every friendly MSV. Only an MSV on the
//! field above 0 life and below 20 is repaired (a unit at 0 or less is eliminated and
//! stays so). The greedy policy scores a repair as an attack's damage term:
//! `DAMAGE_WEIGHT` × V(MSV) × E[min(repair, 20 − life)] / 20 (V as in §2.7), and repairs
//! when that beats its best attack; the highest-scoring MSV, ties to the earlier.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use super::tables::NONE;
use crate::engine::battle::Outcome;
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::dice::roll_d20;
use crate::rules::techcommander::edition::{badge_repair, faction_training};
use crate::rules::techcommander::rulings::{DIE_SIDES, STARTING_LIFE};

pub use super::repair_law::{REPAIR_BIT, Repairs, repair_law, repair_scores};

impl TcGame {
    /// `r` repairs friend `f` with its repair gear (`REPAIR`): jury rig, one draw of the
    /// life gained, capped at 20; a friend brought back above 0 is [`TcGame::revived`].
    pub(crate) fn gear_repair(
        &self,
        s: &mut State,
        r: usize,
        f: usize,
        rng: &mut Xoshiro256PlusPlus,
        out: &mut Outcome,
    ) {
        s.actions[r] -= 1;
        s.used[r] |= REPAIR_BIT;
        let fc_lost = self.jury_rig(s, r, rng);
        let e = self.repairs.entry(r, f, fc_lost);
        if e != NONE {
            let before = s.life[f];
            let gained = self.repairs.samplers[e as usize].sample(rng).min(STARTING_LIFE) as i32;
            s.life[f] = (before + gained).min(STARTING_LIFE as i32);
            self.fall_if_in_the_red(s, f);
            if before <= 0 && s.life[f] > 0 {
                self.revived(s, f, out);
            }
        }
        self.acted(s, r, rng);
    }

    /// `f` was brought back above 0 by a repair (`REPAIR_REVIVES`): it is no longer
    /// eliminated, so its kill is not its removal. A deathmatch scores the kill now, to
    /// the player credited (3rd edition: chips "are given immediately and retained even
    /// if the eliminated unit manages to heal or repair the unit back to a living
    /// status"); a skirmish, which scores destroyed units, scores nothing. Either way the
    /// credit is cleared, so a later kill is credited afresh (`KILL_CREDIT`).
    fn revived(&self, s: &mut State, f: usize, out: &mut Outcome) {
        let killer = s.credit[f] as usize;
        if self.dm.is_some() && killer < self.units.len() {
            let unit = &self.units[f];
            let ks = self.units[killer].side;
            let (points, kills) =
                super::dm_rules::kill_score(unit.ac, unit.kind, self.units[killer].kind, s.one_action[f], &[]);
            out.score[ks] += points;
            out.kills[killer] += kills as u16;
            s.chips[ks] += kills;
            s.kills_side[ks] += kills;
        }
        s.credit[f] = super::game::NO_CREDIT;
        s.one_action[f] = false;
    }

    /// Whether `r` may repair with its gear now: a repairer on the field with an action
    /// left that has not repaired this turn (`SYSTEM_ONCE_PER_TURN`).
    #[inline(always)]
    fn gear_repairer_ready(&self, s: &State, r: usize) -> bool {
        self.repairs.repairer[r]
            && s.present[r]
            && s.actions[r] > 0
            && (!self.o.system_once_per_turn || s.used[r] & REPAIR_BIT == 0)
    }

    /// The greedy score of `r` repairing `f` now; the fire-control states mixed by the
    /// jury-rig odds for a repairer in the red, as [`TcGame::score`] mixes an attack's.
    #[inline(always)]
    pub fn repair_score(&self, s: &State, r: usize, f: usize) -> f32 {
        let life = s.life[f];
        if !s.present[f] || life >= STARTING_LIFE as i32 || life <= 0 && !self.o.repair_revives {
            return 0.0;
        }
        let kept = self.repairs.entry(r, f, false);
        if kept == NONE {
            return 0.0;
        }
        let kept = self.repairs.score_at(kept, life);
        if !self.in_the_red(s, r) || s.jury[r] == 1 && !self.o.jury_rig_per_action {
            return kept;
        }
        let lost = match self.repairs.entry(r, f, true) {
            NONE => 0.0,
            e => self.repairs.score_at(e, life),
        };
        if s.jury[r] == 2 && !self.o.jury_rig_per_action {
            return lost;
        }
        self.jury_ok * kept + (1.0 - self.jury_ok) * lost
    }

    /// Offers `side`'s best gear repair to `best` (strictly better only): repairers and
    /// friends in force order.
    fn offer_gear_repairs(&self, s: &State, side: usize, best: &mut Option<(Action, f32)>) {
        for &r in &self.side_units[side] {
            let r = r as usize;
            if !self.gear_repairer_ready(s, r) {
                continue;
            }
            for &f in &self.side_units[side] {
                let f = f as usize;
                if f == r {
                    continue;
                }
                let score = self.repair_score(s, r, f);
                if score > 0.0 && best.is_none_or(|b| score > b.1) {
                    *best = Some((Action::GearRepair { unit: r as u8, target: f as u8 }, score));
                }
            }
        }
    }

    /// `u` repairs friendly MSV `m`: one d20 on the badge table, life capped at 20.
    pub(crate) fn repair(&self, s: &mut State, u: usize, m: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[u] -= 1;
        let gained = badge_repair(roll_d20(rng)) as i32;
        s.life[m] = (s.life[m] + gained).min(STARTING_LIFE as i32);
        s.stand(m);
        self.acted(s, u, rng);
    }

    /// Whether friendly MSV `m` may be repaired now.
    #[inline]
    fn repairable(&self, s: &State, m: usize) -> bool {
        self.units[m].kind == UnitKind::Msv && s.present[m] && s.life[m] > 0 && s.life[m] < STARTING_LIFE as i32
    }

    /// The greedy policy's best repair for `side` and its score (see the module docs): the
    /// badge's, then a gear repair that scores more.
    #[inline(always)]
    pub fn best_repair(&self, s: &State, side: usize) -> Option<(Action, f32)> {
        let mut best = if faction_training(&self.o) { self.best_repair_of(s, side) } else { None };
        if self.repairs.any_side.get(side).copied().unwrap_or(false) {
            self.offer_gear_repairs(s, side, &mut best);
        }
        best
    }

    /// [`TcGame::best_repair`] under faction training.
    fn best_repair_of(&self, s: &State, side: usize) -> Option<(Action, f32)> {
        let repairer = self.side_units[side]
            .iter()
            .map(|&u| u as usize)
            .find(|&u| self.units[u].badge && s.present[u] && s.actions[u] > 0)?;
        let mut best: Option<(Action, f32)> = None;
        for &m in &self.side_units[side] {
            let m = m as usize;
            if !self.repairable(s, m) {
                continue;
            }
            let missing = STARTING_LIFE as i32 - s.life[m];
            let expected: f32 =
                (1..=DIE_SIDES).map(|r| (badge_repair(r) as i32).min(missing) as f32).sum::<f32>() / DIE_SIDES as f32;
            let unit = &self.units[m];
            let value = unit.points + self.o.command_target_weight.0 * unit.command as f64;
            let score = (self.o.damage_weight.0 * value) as f32 * expected / STARTING_LIFE as f32;
            if score > 0.0 && best.is_none_or(|b| score > b.1) {
                best = Some((Action::Repair { unit: repairer as u8, target: m as u8 }, score));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    use super::super::game::Action;
    use super::super::kernel::TcBattle;
    use super::super::tables::NONE;
    use super::super::test_support::{TestBattle, catalogue, close};
    use super::REPAIR_BIT;
    use super::repair_law;
    use crate::engine::battle::{BattlePolicy, BattleRules, Outcome};
    use crate::rules::techcommander::battle::policy::Greedy;
    use crate::rules::techcommander::conditions::Conditions;
    use crate::rules::techcommander::options::Options;
    use crate::stats::binomial::consistent;

    const CATALOGUE: &str = r#"
[[weapon]]
name = "Blank"              # never hits at range 12
damage = 1
shots = 1
fire_control = 0
opt = 0
drop = 20
weight = 1
power = 0

[[unit]]
name = "Walker"
kind = "msv"
ac = 4
free_weight = 20
free_power = 20

[[unit]]
name = "Mechanic"
kind = "crew"
ac = 1
abilities = ["MSV Warfare Badge"]

[[build]]
name = "Walker"
unit = "Walker"
weapons = [{ name = "Blank" }]

[[build]]
name = "Mechanic"
unit = "Mechanic"
weapons = [{ name = "Blank" }]
"#;

    fn battle(o: &Options) -> TcBattle {
        let cat = catalogue(CATALOGUE);
        TestBattle::skirmish(&cat, "Walker+Mechanic", "Walker").options(*o).max_turns(1).kernel()
    }

    fn second() -> Options {
        Options { edition: 2, force_budget: 1000, ..Options::default() }
    }

    const GEAR_CATALOGUE: &str = r#"
[[weapon]]
name = "Blank"              # never hits at range 12
damage = 1
shots = 1
fire_control = 0
opt = 0
drop = 20
weight = 1
power = 0

[[weapon]]
name = "Gun"
damage = 20
shots = 1
fire_control = 0
opt = 24
drop = 1
weight = 1
power = 0

[[gear]]
name = "Repair Kit"          # 2 shots of 12 "damage" at fire control +1
weight = 1
power = 0
repair_damage = 12
repair_shots = 2
repair_fire_control = 1

[[unit]]
name = "Walker"
kind = "msv"
ac = 4
free_weight = 20
free_power = 20

[[unit]]
name = "Mechanic"
kind = "crew"
ac = 1

[[build]]
name = "Walker"
unit = "Walker"
weapons = [{ name = "Blank" }]

[[build]]
name = "Gunner"
unit = "Walker"
weapons = [{ name = "Blank" }, { name = "Gun" }]

[[build]]
name = "Mechanic"
unit = "Mechanic"
weapons = [{ name = "Blank" }]
gear = ["Repair Kit"]

[[build]]
name = "Dummy"
unit = "Mechanic"
weapons = [{ name = "Blank" }]
"#;

    fn gear_game(a: &str, b: &str, o: Options) -> super::super::game::TcGame {
        let cat = catalogue(GEAR_CATALOGUE);
        TestBattle::skirmish(&cat, a, b).options(o).max_turns(1).game()
    }

    fn defaults() -> Options {
        super::super::test_support::options()
    }

    // The Mechanic's kit at the AC4 Walker, as an attack: T = 10 + 4 (size) + 1 (fire
    // control) = 15, so each of 2 shots hits with 3/4; a hit's 12 "damage" / AC4 = 3
    // life. Gain 0, 3, 6 with 1/16, 6/16, 9/16; E[gain] = 4.5. Fire control lost: T 14,
    // 0.3² = 0.09, 2 × 0.7 × 0.3 = 0.42, 0.7² = 0.49.
    const LAW: [f64; 7] = [1.0 / 16.0, 0.0, 0.0, 6.0 / 16.0, 0.0, 0.0, 9.0 / 16.0];
    const LAW_FC_LOST: [f64; 7] = [0.09, 0.0, 0.0, 0.42, 0.0, 0.0, 0.49];

    #[test]
    fn a_gear_repair_is_rolled_as_an_attack_at_the_friend() {
        let g = gear_game("Walker+Mechanic", "Walker", defaults());
        let (walker, mechanic) = (0, 1);
        assert!(g.repairs.repairer[mechanic] && !g.repairs.repairer[walker]);
        for (fc_lost, law) in [(false, LAW), (true, LAW_FC_LOST)] {
            let e = g.repairs.entry(mechanic, walker, fc_lost);
            assert_ne!(e, NONE);
            let got = &g.repairs.laws[e as usize];
            assert_eq!(got.len(), law.len(), "{got:?}");
            for (x, y) in got.iter().zip(law) {
                assert!((x - y).abs() < 1e-12, "fc lost {fc_lost}: {got:?}");
            }
        }
        // A unit never repairs itself; the enemy is never repaired.
        assert_eq!(g.repairs.entry(mechanic, mechanic, false), NONE);
        assert_eq!(g.repairs.entry(mechanic, 2, false), NONE);
        // The friend's armour is not applied (the friend declines its defensive gear):
        // the same law for an armoured Walker.
        let (law, _) = {
            let mut armoured = g.units[walker].clone();
            armoured.target.damage_reduction = 5;
            repair_law(&g.units[mechanic], &armoured, &Conditions::at_range(12.0), false, &g.o).unwrap()
        };
        assert_eq!(law, g.repairs.laws[g.repairs.entry(mechanic, walker, false) as usize]);
    }

    #[test]
    fn the_greedy_score_of_a_gear_repair_by_life() {
        let g = gear_game("Walker+Mechanic", "Walker", defaults());
        let e = g.repairs.entry(1, 0, false);
        // V = 4 points (no command); damage weight 0.25.
        // Life 16: E[min(gain, 4)] = (6 × 3 + 9 × 4) / 16 = 3.375 → 0.25 × 4 × 3.375 / 20.
        close(g.repairs.score_at(e, 16), 0.16875, "life 16");
        // Life 10: E[gain] = 4.5 → 0.25 × 4 × 4.5 / 20 = 0.225.
        close(g.repairs.score_at(e, 10), 0.225, "life 10");
        // Life −2 (eliminated, on the field): revived with 15/16 (gain 3 → 1, 6 → 4):
        // 4 × 15/16 + 0.25 × 4 × (6 × 1 + 9 × 4) / 16 / 20 = 3.75 + 0.13125.
        close(g.repairs.score_at(e, -2), 3.88125, "life -2");
        // Life −5: only a gain of 6 lifts it, to 1: 4 × 9/16 + 0.25 × 4 × 9/16 / 20.
        close(g.repairs.score_at(e, -5), 2.278125, "life -5");
        // Beyond reach and at full life: nothing.
        close(g.repairs.score_at(e, -6), 0.0, "life -6");
        close(g.repairs.score_at(e, 20), 0.0, "life 20");
        // REPAIR_REVIVES=false: an eliminated friend scores nothing.
        let g = gear_game("Walker+Mechanic", "Walker", Options { repair_revives: false, ..defaults() });
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let mut s = super::super::test_support::turn_one(&g, &mut rng);
        s.life[0] = -2;
        s.stand(0);
        assert_eq!(g.repair_score(&s, 1, 0), 0.0);
        s.life[0] = 16;
        s.stand(0);
        close(g.repair_score(&s, 1, 0), 0.16875, "life 16, no revival");
    }

    /// Repairs of the Walker at life 10 by the Mechanic, `n` times: counts by the life
    /// after.
    fn repaired_counts(o: Options, n: u64) -> [u64; 21] {
        let g = gear_game("Walker+Mechanic", "Walker", o);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let mut out = Outcome::new();
        let mut counts = [0u64; 21];
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        for _ in 0..n {
            s.actions[1] = 1;
            s.used[1] = 0;
            s.left[0] = 4;
            s.life[0] = 10;
            s.stand(0);
            g.act(&mut s, 0, Action::GearRepair { unit: 1, target: 0 }, &mut rng, &mut out);
            counts[s.life[0] as usize] += 1;
        }
        counts
    }

    #[test]
    fn gear_repairs_restore_the_exact_law_and_not_when_repair_is_off() {
        let n = 40_000;
        let counts = repaired_counts(defaults(), n);
        for (life, p) in [(10, 1.0 / 16.0), (13, 6.0 / 16.0), (16, 9.0 / 16.0)] {
            assert!(consistent(counts[life], n, p, 1e-6), "life {life}: {}/{n}", counts[life]);
        }
        assert_eq!(counts[10] + counts[13] + counts[16], n);
        // Negative control: REPAIR=false gives the kit no repair, so the same check fails.
        let off = repaired_counts(Options { repair: false, ..defaults() }, n);
        assert_eq!(off[10], n);
        assert!(!consistent(off[13], n, 6.0 / 16.0, 1e-6));
    }

    #[test]
    fn life_is_capped_at_20_and_a_repair_is_once_a_turn() {
        let g = gear_game("Walker+Mechanic", "Walker", defaults());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut out = Outcome::new();
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        for _ in 0..200 {
            s.actions[1] = 1;
            s.used[1] = 0;
            s.life[0] = 17;
            s.stand(0);
            g.act(&mut s, 0, Action::GearRepair { unit: 1, target: 0 }, &mut rng, &mut out);
            assert!([17, 20].contains(&s.life[0]), "{}", s.life[0]);
            // Repaired this turn: not offered again.
            assert!(s.used[1] & REPAIR_BIT != 0);
            s.actions[1] = 1;
            s.life[0] = 10;
            s.stand(0);
            assert_eq!(g.best_repair(&s, 0), None);
        }
    }

    #[test]
    fn the_greedy_policy_repairs_when_the_repair_outscores_its_best_attack() {
        // Side A: a Gunner (Gun: T 11 at the AC1 Dummy, 0.55, one hit kills) and the
        // Mechanic. Best attack: 1 × 0.55 + 0.25 × 1 × 0.55 × 20 / 20 = 0.6875.
        let g = gear_game("Gunner+Mechanic", "Dummy", defaults());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let mut s = super::super::test_support::turn_one(&g, &mut rng);
        let attack = g.best_attack(&s, 0, false).unwrap();
        close(attack.1, 0.6875, "best attack");
        // Undamaged: nothing to repair, the Gunner fires.
        assert_eq!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(attack.0));
        // At 16 the repair scores 0.16875 < 0.6875: the Gunner still fires.
        s.life[0] = 16;
        s.stand(0);
        assert_eq!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(attack.0));
        // At −2 the revival scores 3.88125 > 0.6875: the Mechanic repairs.
        s.life[0] = -2;
        s.stand(0);
        assert_eq!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::GearRepair { unit: 1, target: 0 }));
        // REPAIR=false: it fires instead.
        let g = gear_game("Gunner+Mechanic", "Dummy", Options { repair: false, ..defaults() });
        let mut s = super::super::test_support::turn_one(&g, &mut rng);
        s.life[0] = -2;
        s.stand(0);
        assert!(matches!(Greedy.choose(&g, &s, 0, 0, &mut rng), Some(Action::Attack { .. })));
    }

    #[test]
    fn a_revived_friend_is_not_removed_and_its_credit_is_cleared() {
        let g = gear_game("Walker+Mechanic", "Walker", defaults());
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut revived = 0;
        for _ in 0..200 {
            let mut s = super::super::test_support::wounded(&g, &mut rng, &[(0, -2, 2)]);
            let mut out = Outcome::new();
            s.actions[1] = 1;
            g.act(&mut s, 0, Action::GearRepair { unit: 1, target: 0 }, &mut rng, &mut out);
            g.end_turn(&mut s, 0, &mut rng, &mut out);
            if s.life[0] > 0 {
                revived += 1;
                assert!(s.present[0], "a revived unit is removed");
                assert_eq!(s.credit[0], super::super::game::NO_CREDIT);
                assert_eq!((out.lost[0], out.score[1]), (0, 0));
            } else {
                assert!(!s.present[0]);
                assert_eq!((out.lost[0], out.score[1]), (1, 4));
            }
        }
        assert!(revived > 150, "{revived}");
    }

    #[test]
    fn a_deathmatch_scores_a_revived_units_kill_at_once() {
        let cat = catalogue(GEAR_CATALOGUE);
        // Under the starting cap of 3 player 0 fields three Mechanics (AC1 crew): one
        // repairs another (T 12, a hit gains 12 life).
        let k = TestBattle::deathmatch(&cat, &["Mechanic", "Dummy"]).kernel();
        let g = k.game();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let mut s = super::super::test_support::turn_one(g, &mut rng);
        let on = |side: usize| (0..g.units.len()).filter(move |&u| g.units[u].side == side);
        let mine: Vec<usize> = on(0).filter(|&u| s.present[u]).collect();
        let (walker, mechanic) = (mine[0], mine[1]); // `walker`: the friend, a Mechanic here
        let enemy = on(1).find(|&u| s.present[u]).unwrap();
        for _ in 0..100 {
            s.life[walker] = -2;
            s.stand(walker);
            s.credit[walker] = enemy as u8;
            s.actions[mechanic] = 1;
            s.used[mechanic] = 0;
            let mut out = Outcome::new();
            let chips = s.chips[1];
            g.act(&mut s, 0, Action::GearRepair { unit: mechanic as u8, target: walker as u8 }, &mut rng, &mut out);
            if s.life[walker] > 0 {
                // AC1, not from full life in one action: 1 point and a kill chip, kept.
                assert_eq!((out.score[1], out.kills[enemy], s.chips[1] - chips), (1, 1, 1));
                assert_eq!(s.credit[walker], super::super::game::NO_CREDIT);
                return;
            }
        }
        panic!("never revived");
    }

    #[test]
    fn a_badge_repair_restores_0_2_4_or_8_life_each_with_one_quarter() {
        let k = battle(&second());
        let g = k.game();
        assert!(g.units[1].badge);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        let mut out = Outcome::new();
        let n = 40_000u64;
        let mut counts = [0u64; 21];
        for _ in 0..n {
            let mut s = g.new_state();
            g.begin_battle(&mut s, &mut rng);
            s.actions[1] = 1;
            s.left[0] = 4;
            s.life[0] = 10;
            s.stand(0);
            g.act(&mut s, 0, Action::Repair { unit: 1, target: 0 }, &mut rng, &mut out);
            counts[s.life[0] as usize] += 1;
        }
        for life in [10, 12, 14, 18] {
            assert!(consistent(counts[life], n, 0.25, 1e-6), "life {life}: {}/{n}", counts[life]);
        }
        assert_eq!(counts[10] + counts[12] + counts[14] + counts[18], n);
        // Capped at 20: from 15, 8 gives 20 and 4 gives 19.
        let mut s = g.new_state();
        g.begin_battle(&mut s, &mut rng);
        s.life[0] = 15;
        s.stand(0);
        for _ in 0..200 {
            s.actions[1] = 1;
            g.act(&mut s, 0, Action::Repair { unit: 1, target: 0 }, &mut rng, &mut out);
            assert!(s.life[0] <= 20);
        }
        assert_eq!(s.life[0], 20);
    }

    #[test]
    fn the_greedy_policy_repairs_a_damaged_msv_only_under_the_second_edition() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        for (o, expect) in [(second(), true), (Options { force_budget: 1000, ..Options::default() }, false)] {
            let k = battle(&o);
            let g = k.game();
            let mut s = g.new_state();
            g.begin_battle(&mut s, &mut rng);
            let mut order = [0u8; crate::engine::battle::MAX_SIDES];
            g.begin_turn(&mut s, 0, &mut rng, &mut order);
            assert_eq!(Greedy.choose(g, &s, 0, 0, &mut rng), None, "nothing to repair at full life");
            s.life[0] = 12;
            s.stand(0);
            let chosen = Greedy.choose(g, &s, 0, 0, &mut rng);
            // Score: 0.25 × 4 points × E[min(r, 8)] / 20 = 0.25 × 4 × 3.5 / 20 = 0.175.
            assert_eq!(chosen == Some(Action::Repair { unit: 1, target: 0 }), expect, "edition {}", o.edition);
            if expect {
                let (_, score) = g.best_repair(&s, 0).unwrap();
                assert!((score - 0.175).abs() < 1e-6, "{score}");
            }
        }
    }
}
