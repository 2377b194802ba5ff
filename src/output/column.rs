//! A report table's column declared with its meaning: the table writers build their
//! schemas from these declarations and the column guide (`COLUMNS.md`) is rendered from
//! the same ones, so the two cannot disagree.

use super::table::{Kind, Table};

/// One declared column of a report table: its name, type and meaning. A column declared
/// [`Column::with_ci95`] stands for three table columns, `NAME`, `NAME_ci95_low` and
/// `NAME_ci95_high` (the value and its 95% interval), all of its type, with one meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// The column's name in the table (lower case, `_` between words).
    pub name: &'static str,
    pub kind: Kind,
    /// Its meaning for the column guide: one Markdown line, no `|`.
    pub doc: &'static str,
    /// Followed by `NAME_ci95_low` and `NAME_ci95_high`.
    pub ci95: bool,
}

impl Column {
    /// A text column.
    pub const fn text(name: &'static str, doc: &'static str) -> Column {
        Column { name, kind: Kind::Text, doc, ci95: false }
    }

    /// A whole-number column.
    pub const fn int(name: &'static str, doc: &'static str) -> Column {
        Column { name, kind: Kind::Int, doc, ci95: false }
    }

    /// A floating-point column.
    pub const fn float(name: &'static str, doc: &'static str) -> Column {
        Column { name, kind: Kind::Float, doc, ci95: false }
    }

    /// A true/false column.
    pub const fn boolean(name: &'static str, doc: &'static str) -> Column {
        Column { name, kind: Kind::Bool, doc, ci95: false }
    }

    /// This column followed by its 95% interval, `NAME_ci95_low` and `NAME_ci95_high`.
    #[must_use]
    pub const fn with_ci95(self) -> Column {
        Column { ci95: true, ..self }
    }

    /// The table columns this declaration stands for, in order: its name, then the
    /// interval's two ends when it has one.
    pub fn names(&self) -> Vec<String> {
        let mut out = vec![self.name.to_string()];
        if self.ci95 {
            out.push(format!("{}_ci95_low", self.name));
            out.push(format!("{}_ci95_high", self.name));
        }
        out
    }

    /// The type's name in the column guide: `string`, `int`, `float` or `bool`.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            Kind::Text => "string",
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Bool => "bool",
        }
    }
}

impl Table {
    /// An empty table with the declared `columns` (each interval column expanded into
    /// its three), typed as declared.
    pub fn declared(columns: &[Column]) -> Table {
        let mut t = Table::default();
        let mut kinds = Vec::new();
        for c in columns {
            for name in c.names() {
                t.columns.push(name);
                kinds.push(c.kind);
            }
        }
        t.kinds = Some(kinds);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_column_stands_for_three_of_its_type() {
        const P: Column = Column::float("p_win", "P(win)").with_ci95();
        let t = Table::declared(&[Column::text("build", "the build"), P, Column::int("trials", "duels")]);
        assert_eq!(t.columns, ["build", "p_win", "p_win_ci95_low", "p_win_ci95_high", "trials"]);
        assert_eq!(t.kinds, Some(vec![Kind::Text, Kind::Float, Kind::Float, Kind::Float, Kind::Int]));
        assert_eq!((P.kind_name(), Column::boolean("melee", "").kind_name()), ("float", "bool"));
    }
}
