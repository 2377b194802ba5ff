//! Grid expansion and stable cell keys.

use crate::rules::techcommander::{Conditions, Policy};

use super::scenario::Grid;

/// Every point of the grid, in a fixed order: range, then cover, smoke, movement, status.
pub fn expand(grid: &Grid) -> Vec<Conditions> {
    let mut out = Vec::with_capacity(
        grid.range.len() * grid.cover.len() * grid.smoke.len() * grid.movement.len() * grid.status.len(),
    );
    for &range in &grid.range {
        for &cover in &grid.cover {
            for &smoke in &grid.smoke {
                for &movement in &grid.movement {
                    for &statuses in &grid.status {
                        out.push(Conditions { range, cover, smoke, movement, statuses, ..Conditions::default() });
                    }
                }
            }
        }
    }
    out
}

/// A canonical text of every condition field: the same conditions give the same text.
pub fn conditions_key(c: &Conditions) -> String {
    format!(
        "range={}|cover={}|smoke={}|movement={}|status={}|designated={}|jury_rig_failed={}|under_crewed={}|friendly_msv={}|mode={}",
        c.range,
        c.cover,
        c.smoke,
        c.movement,
        c.statuses,
        c.designated,
        c.jury_rig_failed,
        c.under_crewed,
        c.friendly_msv,
        c.mode
    )
}

/// The description an attack-run cell's random streams are keyed by. `volley ttk` and
/// `volley sweep` use the same key, so the same cell and seed give the same numbers.
pub fn attack_run_key(attacker: &str, target: &str, c: &Conditions, policy: Policy, max_turns: u32) -> String {
    format!("attack-run|{attacker}|{target}|{}|policy={policy}|max_turns={max_turns}", conditions_key(c))
}

/// The description a duel cell's random streams are keyed by.
pub fn duel_key(a: &str, b: &str, c: &Conditions, policy: Policy, max_turns: u32) -> String {
    format!("duel|{a}|{b}|{}|policy={policy}|max_turns={max_turns}", conditions_key(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::techcommander::{Cover, Smoke};

    #[test]
    fn expansion_is_the_product_in_order() {
        let grid = Grid {
            range: vec![12.0, 24.0],
            cover: vec![Cover::None, Cover::Half],
            smoke: vec![Smoke::None, Smoke::Smoke, Smoke::Designated],
            ..Grid::default()
        };
        let cells = expand(&grid);
        assert_eq!(cells.len(), 12);
        assert_eq!((cells[0].range, cells[0].cover, cells[0].smoke), (12.0, Cover::None, Smoke::None));
        assert_eq!((cells[1].range, cells[1].cover, cells[1].smoke), (12.0, Cover::None, Smoke::Smoke));
        assert_eq!(cells[11].range, 24.0);
        let keys: std::collections::HashSet<String> = cells.iter().map(conditions_key).collect();
        assert_eq!(keys.len(), 12);
    }
}
