//! Reading a report's tables back (for `volley chart`): the Parquet file, or the CSV
//! file when it is the only one or was edited after the Parquet file was written.

use std::fs::File;
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};
use polars::prelude::{AnyValue, CsvReadOptions, DataFrame, ParquetReader, SerReader};

use super::table::{Cell, Table};

/// How much later than the Parquet file a CSV file must have been modified to count as
/// edited: a report writes both within moments of each other, a person much later.
const EDITED_AFTER: Duration = Duration::from_secs(2);

/// Read `path`, a file volley wrote into a report or shard directory: it must be a
/// regular file (followed through symbolic links: a device such as `/dev/zero`, a FIFO
/// or a directory is refused before it is opened, so it can neither stall the run nor
/// fill its memory) of at most `max` bytes (0: any size).
///
/// # Errors
/// Names the file: not a regular file, larger than `max` (with the flag that raises
/// the limit), or unreadable.
pub fn read_written(path: &Path, max: u64) -> Result<Vec<u8>> {
    use std::io::Read as _;
    check_regular(path)?;
    let too_large = || {
        anyhow::anyhow!(
            "{} is larger than {max} bytes, the limit for an input file (--max-input-bytes BYTES raises it, 0 \
             lifts it)",
            path.display()
        )
    };
    let cap = if max == 0 { u64::MAX } else { max + 1 };
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|f| f.take(cap).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if max != 0 && bytes.len() as u64 > max {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Refuse `path` unless it is a regular file (through symbolic links), before anything
/// opens it: see [`read_written`].
///
/// # Errors
/// Names the file and what it is instead.
pub fn check_regular(path: &Path) -> Result<()> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if !meta.is_file() {
        anyhow::bail!(
            "{} is not a regular file ({}): volley writes only regular files there, refused",
            path.display(),
            if meta.is_dir() { "a directory" } else { "a device, FIFO or socket" }
        );
    }
    Ok(())
}

/// Which file of table `name` in `dir` to read: the Parquet file, unless the CSV file was
/// modified more than [`EDITED_AFTER`] after it (an edited CSV is never silently ignored)
/// or is the only one; `None` when neither exists. The file name is returned.
pub fn table_file(dir: &Path, name: &str) -> Option<String> {
    let modified =
        |f: &str| std::fs::metadata(dir.join(f)).ok().map(|m| m.modified().unwrap_or(SystemTime::UNIX_EPOCH));
    let (parquet, csv) = (format!("{name}.parquet"), format!("{name}.csv"));
    match (modified(&parquet), modified(&csv)) {
        (Some(p), Some(c)) if c.duration_since(p).is_ok_and(|d| d > EDITED_AFTER) => Some(csv),
        (Some(_), _) => Some(parquet),
        (None, Some(_)) => Some(csv),
        (None, None) => None,
    }
}

/// Read table `name` from report directory `dir` (the file [`table_file`] chooses), with
/// the name of the file read; `Ok(None)` when neither file exists.
///
/// # Errors
/// A file that cannot be opened or is not a readable table (a corrupt Parquet file is an
/// error naming it, never a panic).
pub fn read_table(dir: &Path, name: &str) -> Result<Option<(Table, String)>> {
    let Some(file) = table_file(dir, name) else { return Ok(None) };
    let path = dir.join(&file);
    check_regular(&path)?;
    let df = if file.ends_with(".parquet") {
        let reader = File::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
        // The Parquet reader panics on some corrupt files: such a file is an error too.
        quietly(|| ParquetReader::new(reader).finish())
            .map_err(|_| anyhow::anyhow!("{} is corrupt: not a readable Parquet file", path.display()))?
            .with_context(|| format!("cannot read {}", path.display()))?
    } else {
        CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .try_into_reader_with_file_path(Some(path.clone()))
            .and_then(|r| r.finish())
            .with_context(|| format!("cannot read {}", path.display()))?
    };
    let mut table = from_dataframe(&df);
    if !file.ends_with(".parquet") {
        unescape_csv(&mut table);
    }
    Ok(Some((table, file)))
}

/// Undo the spreadsheet escaping of a CSV table's text (see [`super::csv_cell`]).
fn unescape_csv(table: &mut Table) {
    let plain = |s: &mut String| {
        let text = super::csv_cell::read_text_cell(s);
        if text.len() != s.len() {
            *s = text.to_string();
        }
    };
    table.columns.iter_mut().for_each(plain);
    for cell in table.rows.iter_mut().flatten() {
        if let Cell::Text(s) = cell {
            plain(s);
        }
    }
}

/// Run `f`, turning a panic into `Err` without the panic message on stderr (the caller
/// reports the failure as an error of its own).
fn quietly<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    result
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
