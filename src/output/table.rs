//! A small typed table: the one result shape every exporter reads.

use std::fmt::Write as _;

use super::csv_cell::{CsvCells, text_cell};
use super::number::{self, tidy, unsigned_zero_text};

/// One typed cell.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    Null,
}

impl From<&str> for Cell {
    fn from(s: &str) -> Cell {
        Cell::Text(s.to_string())
    }
}
impl From<String> for Cell {
    fn from(s: String) -> Cell {
        Cell::Text(s)
    }
}
impl From<f64> for Cell {
    fn from(v: f64) -> Cell {
        Cell::Float(v)
    }
}
impl From<u32> for Cell {
    fn from(v: u32) -> Cell {
        Cell::Int(v as i64)
    }
}
impl From<u64> for Cell {
    fn from(v: u64) -> Cell {
        Cell::Int(v as i64)
    }
}
impl From<i32> for Cell {
    fn from(v: i32) -> Cell {
        Cell::Int(v as i64)
    }
}
impl From<bool> for Cell {
    fn from(v: bool) -> Cell {
        Cell::Bool(v)
    }
}
impl<T: Into<Cell>> From<Option<T>> for Cell {
    fn from(v: Option<T>) -> Cell {
        v.map_or(Cell::Null, Into::into)
    }
}

impl Cell {
    /// An exact value (not a Monte Carlo estimate), rounded to
    /// [`number::EXACT_DIGITS`] significant digits so that arithmetic noise never
    /// reaches an output (see [`number`]).
    pub fn exact(v: f64) -> Cell {
        Cell::Float(number::exact(v))
    }

    /// This cell as an exact value: a float rounded as by [`Cell::exact`], any other
    /// cell unchanged.
    #[must_use]
    pub fn into_exact(self) -> Cell {
        match self {
            Cell::Float(v) => Cell::exact(v),
            other => other,
        }
    }

    /// Full-precision text (shortest round-trip for floats, tidied by
    /// [`number::tidy`]: never `-0`, no noise around a short decimal), empty for null:
    /// CSV form.
    pub fn to_exact_string(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            Cell::Int(v) => v.to_string(),
            Cell::Float(v) => format!("{}", tidy(*v)),
            Cell::Bool(b) => b.to_string(),
            Cell::Null => String::new(),
        }
    }

    /// Human form: floats to `digits` decimals (a value that rounds to zero unsigned),
    /// null as `-`.
    pub fn to_display_string(&self, digits: usize) -> String {
        match self {
            Cell::Float(v) => unsigned_zero_text(format!("{v:.digits$}")),
            Cell::Null => "-".into(),
            other => other.to_exact_string(),
        }
    }

    /// JSON value.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Cell::Text(s) => serde_json::Value::String(s.clone()),
            Cell::Int(v) => (*v).into(),
            Cell::Float(v) => {
                serde_json::Number::from_f64(tidy(*v)).map_or(serde_json::Value::Null, serde_json::Value::Number)
            }
            Cell::Bool(b) => (*b).into(),
            Cell::Null => serde_json::Value::Null,
        }
    }
}

/// The type of a column in typed formats (Parquet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Text,
    Int,
    Float,
    Bool,
}

/// Rows of typed cells under named columns.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Table {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
    /// Declared column types; `None`: inferred from the cells.
    pub kinds: Option<Vec<Kind>>,
}

impl Table {
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = S>) -> Table {
        Table { columns: columns.into_iter().map(Into::into).collect(), rows: Vec::new(), kinds: None }
    }

    /// A table with declared column types: typed formats keep them even when every
    /// value of a column is null.
    pub fn typed(schema: &[(&str, Kind)]) -> Table {
        Table {
            columns: schema.iter().map(|(c, _)| c.to_string()).collect(),
            rows: Vec::new(),
            kinds: Some(schema.iter().map(|(_, k)| *k).collect()),
        }
    }

    /// The type of column `i`: declared, or inferred (text if all null).
    pub fn kind(&self, i: usize) -> Kind {
        if let Some(k) = &self.kinds {
            return k[i];
        }
        let mut kind = None;
        for r in &self.rows {
            kind = match (&r[i], kind) {
                (Cell::Null, k) => k,
                (Cell::Text(_), _) => return Kind::Text,
                (Cell::Bool(_), _) => Some(Kind::Bool),
                (Cell::Float(_), _) | (Cell::Int(_), Some(Kind::Float)) => Some(Kind::Float),
                (Cell::Int(_), _) => Some(Kind::Int),
            };
        }
        kind.unwrap_or(Kind::Text)
    }

    /// Append a row; panics if its length differs from the columns' (a programming error).
    pub fn push(&mut self, row: Vec<Cell>) {
        assert_eq!(row.len(), self.columns.len(), "row length != column count");
        self.rows.push(row);
    }

    /// Index of a column by name.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c == name)
    }

    /// Aligned text for a terminal: text left, numbers right, floats to `digits` decimals.
    pub fn to_text(&self, digits: usize) -> String {
        let cells: Vec<Vec<String>> =
            self.rows.iter().map(|r| r.iter().map(|c| c.to_display_string(digits)).collect()).collect();
        let widths: Vec<usize> = self
            .columns
            .iter()
            .enumerate()
            .map(|(i, h)| cells.iter().map(|r| r[i].chars().count()).chain([h.chars().count()]).max().unwrap_or(0))
            .collect();
        let numeric: Vec<bool> = (0..self.columns.len())
            .map(|i| self.rows.iter().all(|r| matches!(r[i], Cell::Int(_) | Cell::Float(_) | Cell::Null)))
            .collect();
        let mut out = String::new();
        let line = |out: &mut String, row: &[String]| {
            let parts: Vec<String> = row
                .iter()
                .enumerate()
                .map(
                    |(i, c)| {
                        if numeric[i] { format!("{c:>w$}", w = widths[i]) } else { format!("{c:<w$}", w = widths[i]) }
                    },
                )
                .collect();
            let _ = writeln!(out, "{}", parts.join("  ").trim_end());
        };
        line(&mut out, &self.columns);
        line(&mut out, &widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>());
        for r in &cells {
            line(&mut out, r);
        }
        out
    }

    /// CSV with a header row and full-precision numbers; nulls are empty cells. Text
    /// that a spreadsheet would evaluate as a formula is escaped unless the process
    /// chose raw CSV (see [`super::csv_cell`]).
    pub fn to_csv(&self) -> String {
        self.to_csv_with(super::csv_cell::current())
    }

    /// [`Table::to_csv`] with text cells written in `style`. Number cells are never
    /// changed.
    pub fn to_csv_with(&self, style: CsvCells) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(self.columns.iter().map(|c| text_cell(c, style).into_owned())).expect("write to memory");
        for r in &self.rows {
            w.write_record(r.iter().map(|c| match c {
                Cell::Text(s) => text_cell(s, style).into_owned(),
                other => other.to_exact_string(),
            }))
            .expect("write to memory");
        }
        String::from_utf8(w.into_inner().expect("flush to memory")).expect("CSV is UTF-8")
    }

    /// JSON array of objects, one per row, keys in column order.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.rows
                .iter()
                .map(|r| {
                    let map: serde_json::Map<String, serde_json::Value> =
                        self.columns.iter().cloned().zip(r.iter().map(Cell::to_json)).collect();
                    serde_json::Value::Object(map)
                })
                .collect(),
        )
    }
}

impl Table {
    /// Round every float of a table whose every number is an exact value (odds, exact
    /// laws) as [`Cell::exact`] does. Never for a table holding Monte Carlo estimates.
    pub fn round_exact(&mut self) {
        for row in &mut self.rows {
            for cell in row.iter_mut() {
                if let Cell::Float(v) = cell {
                    *v = number::exact(*v);
                }
            }
        }
    }

    /// The cell at (`row`, column `name`), or `None` without such a column.
    pub fn get(&self, row: usize, name: &str) -> Option<&Cell> {
        self.column(name).map(|c| &self.rows[row][c])
    }

    /// A numeric cell as f64 (ints widen); `None` for null, text or a missing column.
    pub fn float(&self, row: usize, name: &str) -> Option<f64> {
        match self.get(row, name)? {
            Cell::Float(v) => Some(*v),
            Cell::Int(v) => Some(*v as f64),
            _ => None,
        }
    }

    /// A text cell; `None` for null or a missing column.
    pub fn text(&self, row: usize, name: &str) -> Option<&str> {
        match self.get(row, name)? {
            Cell::Text(s) => Some(s),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(["name", "p"]);
        t.push(vec!["a, b".into(), 0.25.into()]);
        t.push(vec!["c".into(), Cell::Null]);
        t
    }

    #[test]
    fn csv_quotes_and_keeps_precision() {
        assert_eq!(sample().to_csv(), "name,p\n\"a, b\",0.25\nc,\n");
    }

    #[test]
    fn csv_escapes_formulas_in_text_but_never_numbers() {
        let mut t = Table::new(["name", "modifier", "p"]);
        t.push(vec!["=HYPERLINK(\"x\")".into(), "-1".into(), Cell::Float(-0.5)]);
        t.push(vec!["+cmd|' /C calc'!A0".into(), "+2".into(), Cell::Int(-3)]);
        t.push(vec!["@x".into(), "-".into(), Cell::Null]);
        assert_eq!(
            t.to_csv_with(CsvCells::Escaped),
            "name,modifier,p\n\"'=HYPERLINK(\"\"x\"\")\",-1,-0.5\n'+cmd|' /C calc'!A0,+2,-3\n'@x,-,\n"
        );
        assert_eq!(
            t.to_csv_with(CsvCells::Raw),
            "name,modifier,p\n\"=HYPERLINK(\"\"x\"\")\",-1,-0.5\n+cmd|' /C calc'!A0,+2,-3\n@x,-,\n"
        );
    }

    #[test]
    fn text_aligns_numbers_right() {
        let text = sample().to_text(3);
        assert_eq!(text, "name      p\n----  -----\na, b  0.250\nc         -\n");
    }

    #[test]
    fn negative_zero_and_noise_never_reach_an_output() {
        let mut t = Table::new(["p"]);
        t.push(vec![Cell::Float(-0.0)]);
        t.push(vec![Cell::Float(-0.00001)]);
        t.push(vec![Cell::Float(0.36000000000000004)]);
        assert_eq!(t.to_csv(), "p\n0\n-0.00001\n0.36\n");
        assert_eq!(t.to_text(3), "    p\n-----\n0.000\n0.000\n0.360\n");
        let j = t.to_json();
        assert!(j[0]["p"].as_f64().unwrap().is_sign_positive());
        assert_eq!((j[1]["p"].as_f64(), j[2]["p"].as_f64()), (Some(-0.00001), Some(0.36)));
    }

    #[test]
    fn exact_tables_print_shortest_decimals() {
        let mut t = Table::new(["n", "p"]);
        t.push(vec![Cell::Int(3), Cell::Float(0.5500000000000002)]);
        t.round_exact();
        assert_eq!(t.to_csv(), "n,p\n3,0.55\n");
        assert_eq!(Cell::exact(0.14500000000000002), Cell::Float(0.145));
        assert_eq!(Cell::Text("x".into()).into_exact(), Cell::Text("x".into()));
    }

    #[test]
    fn json_is_an_array_of_objects() {
        let j = sample().to_json();
        assert_eq!(j[0]["p"], 0.25);
        assert!(j[1]["p"].is_null());
    }
}
