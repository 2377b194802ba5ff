//! Parquet and CSV files through polars: the same rows, typed columns.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::{Column, CsvWriter, DataFrame, ParquetCompression, ParquetWriter, PlSmallStr, SerWriter};

use super::table::{Cell, Kind, Table};

/// A file format for result tables.
pub trait Exporter {
    /// File extension, without the dot.
    fn extension(&self) -> &'static str;
    /// Write `table` to `path`.
    fn write(&self, table: &Table, path: &Path) -> Result<()>;
}

/// Parquet, zstd-compressed.
pub struct ParquetExporter;
/// CSV with a header row.
pub struct CsvExporter;

impl Exporter for ParquetExporter {
    fn extension(&self) -> &'static str {
        "parquet"
    }
    fn write(&self, table: &Table, path: &Path) -> Result<()> {
        let mut df = to_dataframe(table)?;
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        ParquetWriter::new(file)
            .with_compression(ParquetCompression::Zstd(None))
            .finish(&mut df)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
}

impl Exporter for CsvExporter {
    fn extension(&self) -> &'static str {
        "csv"
    }
    fn write(&self, table: &Table, path: &Path) -> Result<()> {
        let mut df = to_dataframe(table)?;
        let file = File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        CsvWriter::new(file)
            .include_header(true)
            .finish(&mut df)
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(())
    }
}

/// A polars DataFrame of the table, one typed column per table column.
pub fn to_dataframe(table: &Table) -> Result<DataFrame> {
    let columns: Vec<Column> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let name = PlSmallStr::from(name.as_str());
            let cells = table.rows.iter().map(|r| &r[i]);
            match table.kind(i) {
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
