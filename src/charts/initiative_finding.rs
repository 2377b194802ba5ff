//! The report's initiative finding: how many duel and battle matchups the side that acts
//! first decides, and how many have a side that cannot attack.

use super::ReportTables;
use crate::output::Table;
use crate::output::table::Cell;

/// A boolean cell (Parquet booleans, or `true`/`false` read back from CSV); `None` for
/// null or a missing column.
fn flag(t: &Table, row: usize, name: &str) -> Option<bool> {
    match t.get(row, name)? {
        Cell::Bool(b) => Some(*b),
        Cell::Text(s) => s.parse().ok(),
        _ => None,
    }
}

/// One sentence per table of `duels` and `battles` that has the columns: of its rows
/// (matchups at one condition set), how many are `decided_by_initiative` (the win rate
/// when acting first and when acting second differ by more than 0.25), how many have a
/// split at all, and how many have a side that cannot attack (`a_can_attack`,
/// `b_can_attack`). None for tables without the columns.
pub fn initiative_findings(tables: &ReportTables) -> Vec<String> {
    let mut out = Vec::new();
    for (name, what) in [("duels", "duel"), ("battles", "battle")] {
        let Some(t) = tables.get(name) else { continue };
        if t.column("decided_by_initiative").is_none() {
            continue;
        }
        let rows = t.rows.len();
        let decided = (0..rows).filter(|&i| flag(t, i, "decided_by_initiative") == Some(true)).count();
        let split = (0..rows).filter(|&i| t.float(i, "p_a_wins_a_first").is_some()).count();
        let one_sided = (0..rows)
            .filter(|&i| flag(t, i, "a_can_attack") == Some(false) || flag(t, i, "b_can_attack") == Some(false))
            .count();
        let mut s = format!(
            "Initiative decides {decided} of {rows} {what} rows (P(A wins) when A acts first and when B does differ by more than 0.25; {split} rows played both orders)"
        );
        if decided > 0 {
            s += ": their overall win rates average the two orders";
        }
        s += &format!("; {one_sided} of {rows} have a side that cannot attack at its conditions.");
        out.push(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_rows_initiative_decides_and_the_one_sided_ones() {
        let mut t = Table::new(["a_can_attack", "b_can_attack", "p_a_wins_a_first", "decided_by_initiative"]);
        t.push(vec![true.into(), true.into(), 0.9.into(), true.into()]);
        t.push(vec![true.into(), false.into(), 1.0.into(), false.into()]);
        t.push(vec![true.into(), true.into(), Cell::Null, false.into()]);
        let f = initiative_findings(&ReportTables::from_named(&[("duels", t)]));
        assert_eq!(f.len(), 1);
        assert!(f[0].starts_with("Initiative decides 1 of 3 duel rows"), "{}", f[0]);
        assert!(f[0].contains("2 rows played both orders") && f[0].contains("1 of 3 have a side that cannot attack"));
        // Tables without the columns (older reports) say nothing.
        let old = Table::new(["p_a_wins"]);
        assert!(initiative_findings(&ReportTables::from_named(&[("duels", old)])).is_empty());
    }
}
