//! The 2nd edition's USSC *Advanced MSV Warfare Badge* as a battle action
//! (techcommander-battles.md §5 row "faction training"; active only under `EDITION=2`
//! with `FACTION_TRAINING` on): a troop or crew unit with the ability `MSV Warfare
//! Badge` moves half and repairs a friendly MSV on a d20: 1-5 nothing, 6-10 2, 11-15 4,
//! 16-20 8 life ([`crate::rules::techcommander::edition::badge_repair`]), never above 20.
//!
//! Under fixed geometry the repairer reaches every friendly MSV. Only an MSV on the
//! field above 0 life and below 20 is repaired (a unit at 0 or less is eliminated and
//! stays so). The greedy policy scores a repair as an attack's damage term:
//! `DAMAGE_WEIGHT` × V(MSV) × E[min(repair, 20 − life)] / 20 (V as in §2.7), and repairs
//! when that beats its best attack; the highest-scoring MSV, ties to the earlier.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::{Action, State, TcGame};
use crate::rules::techcommander::catalogue::UnitKind;
use crate::rules::techcommander::dice::roll_d20;
use crate::rules::techcommander::edition::{badge_repair, faction_training};
use crate::rules::techcommander::rulings::{DIE_SIDES, STARTING_LIFE};

impl TcGame {
    /// `u` repairs friendly MSV `m`: one d20 on the badge table, life capped at 20.
    pub(crate) fn repair(&self, s: &mut State, u: usize, m: usize, rng: &mut Xoshiro256PlusPlus) {
        s.actions[u] -= 1;
        let gained = badge_repair(roll_d20(rng)) as i32;
        s.life[m] = (s.life[m] + gained).min(STARTING_LIFE as i32);
        self.acted(s, u, rng);
    }

    /// Whether friendly MSV `m` may be repaired now.
    #[inline]
    fn repairable(&self, s: &State, m: usize) -> bool {
        self.units[m].kind == UnitKind::Msv && s.present[m] && s.life[m] > 0 && s.life[m] < STARTING_LIFE as i32
    }

    /// The greedy policy's best repair for `side` and its score (see the module docs).
    #[inline(always)]
    pub fn best_repair(&self, s: &State, side: usize) -> Option<(Action, f32)> {
        if !faction_training(&self.o) {
            return None;
        }
        self.best_repair_of(s, side)
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
    use super::super::test_support::{TestBattle, catalogue};
    use crate::engine::battle::{BattlePolicy, BattleRules, Outcome};
    use crate::rules::techcommander::battle::policy::Greedy;
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
