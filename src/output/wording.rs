//! Words in text output: counts with the right plural, and point costs at the
//! catalogue's own granularity. Every text header that prints a count or a cost goes
//! through these two helpers.

use super::table::{Cell, Table};

/// `n` followed by `singular`, or by its plural (an `s` added) when `n` is not 1:
/// `count(1, "matchup")` is `1 matchup`, `count(3, "matchup")` is `3 matchups`.
/// For words whose plural is not the singular plus `s`, see [`count_as`].
pub fn count(n: impl Into<u64>, singular: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {singular}") } else { format!("{n} {singular}s") }
}

/// `n` followed by `singular` when `n` is 1, else by `plural` (`count_as(2, "die",
/// "dice")` is `2 dice`).
pub fn count_as(n: impl Into<u64>, singular: &str, plural: &str) -> String {
    let n = n.into();
    if n == 1 { format!("1 {singular}") } else { format!("{n} {plural}") }
}

/// The unit word for a measured quantity (`range 1 hex`, `range 3 hexes`): `plural`
/// unless `value` is exactly 1 (or -1), when it is `singular`. `plural` is how a ruleset
/// names its unit (`hexes`, `inches`, `dots`); its singular is read off the plural
/// (`hexes` → `hex`, `inches` → `inch`, `dots` → `dot`).
pub fn unit_for(value: f64, plural: &str) -> String {
    if value.abs() != 1.0 {
        return plural.to_string();
    }
    if plural == "dice" {
        return "die".to_string();
    }
    for (many, one) in [("ches", "ch"), ("shes", "sh"), ("xes", "x")] {
        if let Some(stem) = plural.strip_suffix(many) {
            return format!("{stem}{one}");
        }
    }
    plural.strip_suffix('s').unwrap_or(plural).to_string()
}

/// A points cost as the catalogue writes it: an integer cost without decimals (`230`,
/// not `230.0000`), a fractional one with the fewest decimals that show it (`4.5`,
/// `12.25`), rounded to at most 4 decimals. Never prints `-0`.
pub fn cost(points: f64) -> String {
    if !points.is_finite() {
        return points.to_string();
    }
    let text = format!("{points:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0".to_string() } else { text.to_string() }
}

/// The columns of volley's tables that hold a points cost (a side's, a target's, a
/// force's): [`costs_as_written`] prints them at the catalogue's granularity.
pub const COST_COLUMNS: &[&str] = &["points", "target_points", "a_points", "b_points", "points_a", "points_b"];

/// `table` for people: each [`COST_COLUMNS`] column whose values are all whole numbers
/// holds integer cells (`230`, not `230.0000`); other columns and fractional costs are
/// left as they are. For text output only: CSV, JSON and report tables keep their types.
pub fn costs_as_written(table: &Table) -> Table {
    let mut t = table.clone();
    for (i, name) in table.columns.iter().enumerate() {
        let whole = |c: &Cell| match c {
            Cell::Float(v) => v.fract() == 0.0 && v.abs() < 1e15,
            Cell::Null | Cell::Int(_) => true,
            _ => false,
        };
        if COST_COLUMNS.contains(&name.as_str()) && t.rows.iter().all(|r| r.get(i).is_some_and(whole)) {
            for r in &mut t.rows {
                if let Cell::Float(v) = r[i] {
                    r[i] = Cell::Int(v as i64);
                }
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_the_plural_except_for_one() {
        assert_eq!(count(1u32, "matchup"), "1 matchup");
        assert_eq!(count(0u32, "matchup"), "0 matchups");
        assert_eq!(count(12u64, "iteration"), "12 iterations");
        assert_eq!(count_as(1u32, "die", "dice"), "1 die");
        assert_eq!(count_as(3u32, "die", "dice"), "3 dice");
    }

    #[test]
    fn units_are_singular_at_exactly_one() {
        assert_eq!(unit_for(1.0, "hexes"), "hex");
        assert_eq!(unit_for(3.0, "hexes"), "hexes");
        assert_eq!(unit_for(1.0, "inches"), "inch");
        assert_eq!(unit_for(1.5, "inches"), "inches");
        assert_eq!(unit_for(1.0, "dots"), "dot");
        assert_eq!(unit_for(-1.0, "levels"), "level");
        assert_eq!(unit_for(0.0, "levels"), "levels");
        assert_eq!(unit_for(1.0, "dice"), "die");
        assert_eq!(unit_for(1.0, "hp"), "hp");
    }

    #[test]
    fn costs_print_at_their_own_granularity() {
        assert_eq!(cost(230.0), "230");
        assert_eq!(cost(4.5), "4.5");
        assert_eq!(cost(12.25), "12.25");
        assert_eq!(cost(0.0), "0");
        assert_eq!(cost(-0.0), "0");
        assert_eq!(cost(1.0 / 3.0), "0.3333");
        assert_eq!(cost(-2.0), "-2");
    }

    #[test]
    fn whole_cost_columns_print_as_integers_in_text() {
        let mut t = Table::new(["force", "points", "mean_points_destroyed"]);
        t.push(vec!["A".into(), 890.0.into(), 409.0.into()]);
        let text = costs_as_written(&t).to_text(4);
        assert!(text.contains(" 890 ") || text.contains(" 890\n") || text.contains("  890"), "{text}");
        assert!(!text.contains("890.0000"), "{text}");
        assert!(text.contains("409.0000"), "a mean stays a mean: {text}");
        let mut f = Table::new(["points"]);
        f.push(vec![4.5.into()]);
        assert_eq!(costs_as_written(&f), f, "a fractional cost is left as it is");
    }
}
