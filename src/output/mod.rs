//! Result tables and their formats. Exporters read [`Table`]s only; they know nothing of
//! rules or engines.

pub mod atomic_file;
pub mod column;
pub mod csv_cell;
pub mod fault;
pub mod number;
pub mod parquet;
pub mod percent;
pub mod raw_tallies;
pub mod read;
pub mod report_dir;
pub mod report_kind;
pub mod saved_catalogue;
pub mod table;
pub mod wording;

pub use column::Column;
pub use parquet::{CsvExporter, Exporter, ParquetExporter, TableFrame};
pub use report_dir::ReportDir;
pub use table::{Cell, Kind, Table};

use std::fmt;
use std::str::FromStr;

/// How a command prints its result on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text for people.
    #[default]
    Table,
    Csv,
    Json,
}

impl Format {
    pub const NAMES: [&'static str; 3] = ["table", "csv", "json"];
}

impl FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_lowercase().as_str() {
            "table" | "text" => Ok(Format::Table),
            "csv" => Ok(Format::Csv),
            "json" => Ok(Format::Json),
            _ => Err(format!("unknown format `{s}`: expected table, csv or json")),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
        })
    }
}
