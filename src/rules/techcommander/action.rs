//! One attack action, exactly: the distribution of hits, damage and life lost.

use super::damage::life_lost;
use super::dice::hit_distribution;
use super::rulings::{DIE_SIDES, STARTING_LIFE};

/// Dice rolled together at one target number, each hit dealing `damage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceGroup {
    pub dice: u32,
    /// Faces that hit, 0..=20 (the clamped target number).
    pub faces: u32,
    pub damage: u32,
}

/// What one action rolls and how its damage turns into life.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ActionSpec {
    /// One group for a normal attack; one per weapon system for an Omega Override.
    pub groups: Vec<DiceGroup>,
    /// Damage reduction left after armour piercing, subtracted once.
    pub reduction: u32,
    pub damage_ac: u32,
}

/// Exact statistics of one action against a target at full life.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionOdds {
    pub dice: u32,
    pub expected_hits: f64,
    /// P(at least one shot hits).
    pub p_any_hit: f64,
    /// Expected damage of the hitting shots, before reduction and AC.
    pub expected_damage: f64,
    pub expected_life_loss: f64,
    /// `life_lost[n]` = P(the action takes exactly n life); index up to the maximum.
    pub life_lost: Vec<f64>,
    /// P(the action takes 20 or more life): kills a target at full life.
    pub p_one_action_kill: f64,
}

impl ActionSpec {
    /// The exact distribution of total damage (index = damage).
    pub fn damage_distribution(&self) -> Vec<f64> {
        let mut dist = vec![1.0];
        for g in &self.groups {
            let hits = hit_distribution(g.dice, g.faces);
            let max = (dist.len() - 1) + (g.dice * g.damage) as usize;
            let mut next = vec![0.0; max + 1];
            for (d, &pd) in dist.iter().enumerate() {
                if pd == 0.0 {
                    continue;
                }
                for (k, &pk) in hits.iter().enumerate() {
                    next[d + k * g.damage as usize] += pd * pk;
                }
            }
            dist = next;
        }
        dist
    }

    /// Exact odds of the action.
    pub fn odds(&self) -> ActionOdds {
        let damage = self.damage_distribution();
        let max_life = life_lost(damage.len() as u32 - 1, self.reduction, self.damage_ac) as usize;
        let mut life = vec![0.0; max_life + 1];
        for (d, &p) in damage.iter().enumerate() {
            life[life_lost(d as u32, self.reduction, self.damage_ac) as usize] += p;
        }
        let p_miss_all: f64 =
            self.groups.iter().map(|g| ((DIE_SIDES - g.faces) as f64 / DIE_SIDES as f64).powi(g.dice as i32)).product();
        ActionOdds {
            dice: self.groups.iter().map(|g| g.dice).sum(),
            expected_hits: sum(self.groups.iter().map(|g| g.dice as f64 * g.faces as f64 / DIE_SIDES as f64)),
            p_any_hit: 1.0 - p_miss_all,
            expected_damage: sum(damage.iter().enumerate().map(|(d, p)| d as f64 * p)),
            expected_life_loss: sum(life.iter().enumerate().map(|(n, p)| n as f64 * p)),
            p_one_action_kill: sum(life.iter().skip(STARTING_LIFE as usize).copied()),
            life_lost: life,
        }
    }
}

/// A sum that is +0.0 when empty (`Iterator::sum` of f64 starts from -0.0).
fn sum(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(0.0, |a, b| a + b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn single(dice: u32, faces: u32, damage: u32, ac: u32) -> ActionSpec {
        ActionSpec { groups: vec![DiceGroup { dice, faces, damage }], reduction: 0, damage_ac: ac }
    }

    #[test]
    fn reference_cell() {
        // 6 shots hitting on 5, 12 damage, AC2: each hit takes 6 life.
        let o = single(6, 5, 12, 2).odds();
        assert!((o.expected_hits - 1.5).abs() < 1e-15);
        assert!((o.expected_life_loss - 9.0).abs() < 1e-12);
        let p_miss = 0.75f64.powi(6);
        assert!((o.p_any_hit - (1.0 - p_miss)).abs() < 1e-15);
        // kill needs 4+ hits: P = sum_{k>=4} C(6,k) .25^k .75^(6-k)
        let p4 = 15.0 * 0.25f64.powi(4) * 0.75f64.powi(2) + 6.0 * 0.25f64.powi(5) * 0.75 + 0.25f64.powi(6);
        assert!((o.p_one_action_kill - p4).abs() < 1e-15);
        assert_eq!(o.life_lost.len(), 37);
        assert!((o.life_lost.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn groups_convolve() {
        // Two single-die groups: 24 damage always hitting + 8 damage never hitting.
        let spec = ActionSpec {
            groups: vec![DiceGroup { dice: 1, faces: 20, damage: 24 }, DiceGroup { dice: 1, faces: 0, damage: 8 }],
            reduction: 4,
            damage_ac: 5,
        };
        let o = spec.odds();
        assert_eq!(o.life_lost[4], 1.0); // (24 - 4) / 5
        assert_eq!(o.p_any_hit, 1.0);
        assert_eq!(o.expected_damage, 24.0);
    }
}
