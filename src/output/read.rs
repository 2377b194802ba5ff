//! Reading a report's tables back (for `volley chart`): Parquet when present, else CSV.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result};
use polars::prelude::{AnyValue, CsvReadOptions, DataFrame, ParquetReader, SerReader};

use super::table::{Cell, Table};

/// Read table `name` from report directory `dir`; `Ok(None)` when neither file exists.
pub fn read_table(dir: &Path, name: &str) -> Result<Option<Table>> {
    let parquet = dir.join(format!("{name}.parquet"));
    let csv = dir.join(format!("{name}.csv"));
    let df = if parquet.exists() {
        ParquetReader::new(File::open(&parquet).with_context(|| format!("cannot open {}", parquet.display()))?)
            .finish()
            .with_context(|| format!("cannot read {}", parquet.display()))?
    } else if csv.exists() {
        CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .try_into_reader_with_file_path(Some(csv.clone()))
            .and_then(|r| r.finish())
            .with_context(|| format!("cannot read {}", csv.display()))?
    } else {
        return Ok(None);
    };
    Ok(Some(from_dataframe(&df)))
}

/// A table of the DataFrame's columns and rows.
pub fn from_dataframe(df: &DataFrame) -> Table {
    let columns: Vec<String> = df.get_column_names().iter().map(|c| c.to_string()).collect();
    let mut table = Table::new(columns);
    let cols = df.columns();
    for i in 0..df.height() {
        table.rows.push(
            cols.iter()
                .map(|c| match c.get(i).unwrap_or(AnyValue::Null) {
                    AnyValue::Null => Cell::Null,
                    AnyValue::Boolean(b) => Cell::Bool(b),
                    AnyValue::String(s) => Cell::Text(s.to_string()),
                    AnyValue::StringOwned(s) => Cell::Text(s.to_string()),
                    AnyValue::Float64(v) => Cell::Float(v),
                    AnyValue::Float32(v) => Cell::Float(v as f64),
                    v => match v.extract::<i64>() {
                        Some(x) => Cell::Int(x),
                        None => Cell::Text(v.to_string()),
                    },
                })
                .collect(),
        );
    }
    table
}
