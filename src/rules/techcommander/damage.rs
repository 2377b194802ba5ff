//! Damage and life (§3): add all hitting shots, subtract the target's damage reduction
//! once per action (less armour piercing), divide by the damage AC, round down.

/// Damage reduction left after armour piercing.
pub fn effective_reduction(reduction: u32, armor_piercing: u32) -> u32 {
    reduction.saturating_sub(armor_piercing)
}

/// Life lost by a target of `damage_ac` from one action's `total_damage`, after
/// `reduction` (already net of armour piercing). The remainder splashes off.
pub fn life_lost(total_damage: u32, reduction: u32, damage_ac: u32) -> u32 {
    debug_assert!(damage_ac >= 1);
    total_damage.saturating_sub(reduction) / damage_ac
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulebook_vectors() {
        // 2nd ed.: an AC2 unit taking seven damage loses three life.
        assert_eq!(life_lost(7, 0, 2), 3);
        // The Kabaaam's 24 damage against AC1..AC6 and an AC10 building.
        let lost: Vec<u32> = [1, 2, 3, 4, 5, 6, 10].iter().map(|&ac| life_lost(24, 0, ac)).collect();
        assert_eq!(lost, vec![24, 12, 8, 6, 4, 4, 2]);
        // A 12-damage weapon with 4 hitting shots deals 48 (life lost on AC1 = 48).
        assert_eq!(life_lost(12 * 4, 0, 1), 48);
    }

    #[test]
    fn reduction_is_once_per_action_and_pierced() {
        assert_eq!(life_lost(3 * 8, 4, 4), 5); // (24 - 4) / 4
        assert_eq!(life_lost(3, 4, 1), 0); // never negative
        assert_eq!(effective_reduction(4, 3), 1);
        assert_eq!(effective_reduction(4, 9), 0);
    }
}
