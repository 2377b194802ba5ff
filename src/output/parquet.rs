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
    /// Write `table` to `path`.
    fn write(&self, table: &Table, path: &Path) -> Result<()>;
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
    fn write(&self, table: &Table, path: &Path) -> Result<()> {
        let mut df = to_dataframe(table)?;
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
    fn write(&self, table: &Table, path: &Path) -> Result<()> {
        let mut df = to_dataframe(&csv_safe(table, super::csv_cell::current()))?;
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

/// A polars DataFrame of the table, one typed column per table column.
fn to_dataframe(table: &Table) -> Result<DataFrame> {
    let columns: Vec<Column> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let name = PlSmallStr::from(name.as_str());
            let cells = table.rows.iter().map(|r| &r[i]);
            match table.kind(i) {
                // Text cells are read in place; a column holding other cells too writes
                // each as its exact text.
                Kind::Text if cells.clone().all(|c| matches!(c, Cell::Text(_) | Cell::Null)) => Column::new(
                    name,
                    cells
                        .map(|c| match c {
                            Cell::Text(s) => Some(s.as_str()),
                            _ => None,
                        })
                        .collect::<Vec<Option<&str>>>(),
                ),
                Kind::Text => Column::new(
                    name,
                    cells
                        .map(|c| match c {
                            Cell::Null => None,
                            c => Some(c.to_exact_string()),
                        })
                        .collect::<Vec<Option<String>>>(),
                ),
                Kind::Int => Column::new(
                    name,
                    cells
                        .map(|c| match c {
                            Cell::Int(v) => Some(*v),
                            Cell::Bool(b) => Some(*b as i64),
                            _ => None,
                        })
                        .collect::<Vec<Option<i64>>>(),
                ),
                Kind::Float => Column::new(
                    name,
                    cells
                        .map(|c| match c {
                            Cell::Float(v) if v.is_finite() => Some(super::number::tidy(*v)),
                            Cell::Int(v) => Some(*v as f64),
                            _ => None,
                        })
                        .collect::<Vec<Option<f64>>>(),
                ),
                Kind::Bool => Column::new(
                    name,
                    cells
                        .map(|c| match c {
                            Cell::Bool(b) => Some(*b),
                            _ => None,
                        })
                        .collect::<Vec<Option<bool>>>(),
                ),
            }
        })
        .collect();
    DataFrame::new(table.rows.len(), columns).context("building a table")
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
}
