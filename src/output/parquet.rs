//! Parquet and CSV files through polars: the same rows, typed columns.

use std::borrow::Cow;
use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::{
    Column, CompatLevel, CsvWriter, DataFrame, KeyValueMetadata, ParquetCompression, ParquetWriter, PlSmallStr,
    SchemaExt, SerWriter,
};

use super::csv_cell::{CsvCells, text_cell};
use super::table::{Cell, Kind, Table};

/// A file format for result tables.
pub trait Exporter {
    /// File extension, without the dot.
    fn extension(&self) -> &'static str;
    /// Write the table of `frame` to `path`.
    fn write_frame(&self, frame: &TableFrame<'_>, path: &Path) -> Result<()>;
    /// Write `table` to `path`.
    fn write(&self, table: &Table, path: &Path) -> Result<()> {
        self.write_frame(&TableFrame::new(table)?, path)
    }
}

/// A table with its typed polars frame, built once for every format it is written in.
pub struct TableFrame<'t> {
    table: &'t Table,
    frame: DataFrame,
}

impl<'t> TableFrame<'t> {
    /// The frame of `table`: one typed column per table column.
    ///
    /// # Errors
    /// Columns polars refuses to put side by side (a programming error).
    pub fn new(table: &'t Table) -> Result<TableFrame<'t>> {
        Ok(TableFrame { table, frame: to_dataframe(table)? })
    }
}

/// Parquet, zstd-compressed. Text columns are plain UTF-8 strings for every reader: the
/// file's Arrow schema (its `ARROW:schema` key) names them `large_string`, not the
/// `string_view` polars holds in memory, which pyarrow's compute functions reject. The
/// pages are the same Parquet `BYTE_ARRAY (UTF8)` either way.
pub struct ParquetExporter;
/// CSV with a header row. Text that a spreadsheet would evaluate as a formula is escaped
/// unless the process chose raw CSV (see [`super::csv_cell`]); numbers never are.
pub struct CsvExporter;

impl Exporter for ParquetExporter {
    fn extension(&self) -> &'static str {
        "parquet"
    }
    fn write_frame(&self, frame: &TableFrame<'_>, path: &Path) -> Result<()> {
        let mut df = frame.frame.clone();
        let plain = df.schema().to_arrow(CompatLevel::oldest());
        let arrow_schema = polars_parquet::write::schema_to_metadata_key(&plain);
        // Encoded in memory, then written: the Parquet writer reports a write that fails
        // part way (a full disk) as "Invalid thrift: transport error", hiding the cause.
        let mut bytes = Vec::new();
        ParquetWriter::new(&mut bytes)
            .with_compression(ParquetCompression::Zstd(None))
            .with_key_value_metadata(Some(KeyValueMetadata::Static(vec![arrow_schema])))
            .finish(&mut df)
            .with_context(|| format!("cannot encode {}", path.display()))?;
        std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))
    }
}

impl Exporter for CsvExporter {
    fn extension(&self) -> &'static str {
        "csv"
    }
    fn write_frame(&self, frame: &TableFrame<'_>, path: &Path) -> Result<()> {
        // The typed frame, unless escaping changes a name or a cell.
        let mut df = match csv_safe(frame.table, super::csv_cell::current()) {
            Cow::Borrowed(_) => frame.frame.clone(),
            Cow::Owned(escaped) => to_dataframe(&escaped)?,
        };
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        CsvWriter::new(file)
            .include_header(true)
            .finish(&mut df)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
}

/// The table with its column names and text cells written as CSV cells in `style`:
/// the table itself when no name or cell changes.
fn csv_safe(table: &Table, style: CsvCells) -> Cow<'_, Table> {
    let changes = |s: &str| matches!(text_cell(s, style), Cow::Owned(_));
    let changed = table.columns.iter().any(|c| changes(c))
        || table.rows.iter().flatten().any(|c| matches!(c, Cell::Text(s) if changes(s)));
    if !changed {
        return Cow::Borrowed(table);
    }
    let text = |s: &str| text_cell(s, style).into_owned();
    Cow::Owned(Table {
        columns: table.columns.iter().map(|c| text(c)).collect(),
        rows: table
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Text(s) => Cell::Text(text(s)),
                        other => other.clone(),
                    })
                    .collect()
            })
            .collect(),
        kinds: table.kinds.clone(),
    })
}

/// One column's values as polars takes them.
enum Values<'t> {
    /// Text cells read in place; another cell in a text column is written as its exact
    /// text.
    Text(Vec<Option<Cow<'t, str>>>),
    Int(Vec<Option<i64>>),
    Float(Vec<Option<f64>>),
    Bool(Vec<Option<bool>>),
}

/// A polars DataFrame of the table, one typed column per table column. The cells are
/// read row by row, in the order they lie in memory.
///
/// # Panics
/// When a row's length differs from the column count (a programming error).
fn to_dataframe(table: &Table) -> Result<DataFrame> {
    let n = table.rows.len();
    let mut values: Vec<Values<'_>> = (0..table.columns.len())
        .map(|i| match table.kind(i) {
            Kind::Text => Values::Text(Vec::with_capacity(n)),
            Kind::Int => Values::Int(Vec::with_capacity(n)),
            Kind::Float => Values::Float(Vec::with_capacity(n)),
            Kind::Bool => Values::Bool(Vec::with_capacity(n)),
        })
        .collect();
    for row in &table.rows {
        assert_eq!(row.len(), values.len(), "row length != column count");
        for (v, cell) in values.iter_mut().zip(row) {
            match v {
                Values::Text(v) => v.push(match cell {
                    Cell::Text(s) => Some(Cow::Borrowed(s.as_str())),
                    Cell::Null => None,
                    c => Some(Cow::Owned(c.to_exact_string())),
                }),
                Values::Int(v) => v.push(match cell {
                    Cell::Int(x) => Some(*x),
                    Cell::Bool(b) => Some(*b as i64),
                    _ => None,
                }),
                Values::Float(v) => v.push(match cell {
                    Cell::Float(x) if x.is_finite() => Some(super::number::tidy(*x)),
                    Cell::Int(x) => Some(*x as f64),
                    _ => None,
                }),
                Values::Bool(v) => v.push(match cell {
                    Cell::Bool(b) => Some(*b),
                    _ => None,
                }),
            }
        }
    }
    let columns: Vec<Column> = table
        .columns
        .iter()
        .zip(values)
        .map(|(name, v)| {
            let name = PlSmallStr::from(name.as_str());
            match v {
                Values::Text(v) => Column::new(name, v.iter().map(|c| c.as_deref()).collect::<Vec<Option<&str>>>()),
                Values::Int(v) => Column::new(name, v),
                Values::Float(v) => Column::new(name, v),
                Values::Bool(v) => Column::new(name, v),
            }
        })
        .collect();
    DataFrame::new(n, columns).context("building a table")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file's Arrow schema names text columns plain UTF-8 (`large_string`), which every
    /// Arrow reader's compute functions take, not polars' in-memory `string_view`.
    #[test]
    fn text_columns_are_written_as_plain_utf8() {
        let mut t = Table::typed(&[("name", Kind::Text), ("p", Kind::Float)]);
        t.push(vec![Cell::Text("Stingray".into()), Cell::Float(0.5)]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        ParquetExporter.write(&t, &path).unwrap();
        let meta = polars_parquet::read::read_metadata(&mut File::open(&path).unwrap()).unwrap();
        let written: Vec<Option<String>> = meta
            .key_value_metadata()
            .iter()
            .flatten()
            .filter(|kv| kv.key == "ARROW:schema")
            .map(|kv| kv.value.clone())
            .collect();
        let schema = to_dataframe(&t).unwrap().schema().clone();
        let key = |level| polars_parquet::write::schema_to_metadata_key(&schema.to_arrow(level)).value;
        assert_ne!(key(CompatLevel::oldest()), key(CompatLevel::newest()), "the two schemas differ");
        assert_eq!(written, vec![key(CompatLevel::oldest())]);
    }

    /// Every kind of cell reaches its column as the exporters write it: text in place or
    /// as its exact text, ints and bools in int columns, ints in float columns, tidied
    /// floats, and nulls (also for non-finite floats and cells of another kind). Rows of
    /// different values, so a column read out of order shows.
    #[test]
    fn each_cell_reaches_its_typed_column() {
        let kinds = [("t", Kind::Text), ("i", Kind::Int), ("f", Kind::Float), ("b", Kind::Bool)];
        let mut t = Table::typed(&kinds);
        t.push(vec![Cell::Text("a".into()), Cell::Int(3), Cell::Float(0.1 + 0.2), Cell::Bool(true)]);
        t.push(vec![Cell::Int(7), Cell::Bool(true), Cell::Int(2), Cell::Int(1)]);
        t.push(vec![Cell::Null, Cell::Null, Cell::Float(f64::NAN), Cell::Null]);
        t.push(vec![Cell::Float(0.5), Cell::Text("x".into()), Cell::Float(f64::INFINITY), Cell::Bool(false)]);
        let df = to_dataframe(&t).unwrap();
        let text: Vec<Option<&str>> = (0..4).map(|i| df.column("t").unwrap().str().unwrap().get(i)).collect();
        assert_eq!(text, [Some("a"), Some("7"), None, Some("0.5")]);
        let int: Vec<Option<i64>> = (0..4).map(|i| df.column("i").unwrap().i64().unwrap().get(i)).collect();
        assert_eq!(int, [Some(3), Some(1), None, None]);
        let float: Vec<Option<f64>> = (0..4).map(|i| df.column("f").unwrap().f64().unwrap().get(i)).collect();
        assert_eq!(float, [Some(0.3), Some(2.0), None, None]);
        let boolean: Vec<Option<bool>> = (0..4).map(|i| df.column("b").unwrap().bool().unwrap().get(i)).collect();
        assert_eq!(boolean, [Some(true), None, None, Some(false)]);
    }

    /// A text column of text cells only is read in place; a row of the wrong length is a
    /// programming error, refused rather than misread.
    #[test]
    #[should_panic(expected = "row length")]
    fn a_short_row_is_refused() {
        let mut t = Table::typed(&[("t", Kind::Text), ("i", Kind::Int)]);
        t.rows.push(vec![Cell::Text("a".into())]);
        let _ = to_dataframe(&t);
    }
}
