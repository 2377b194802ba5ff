//! Raw tallies of a shard as Parquet (`tallies.parquet`): one row per count, long
//! format, zstd-compressed. Columns: `call` (UInt32, the sweep's engine call), `cell`
//! (UInt32, the cell's place in that call), `key` (UInt64, the cell key), `slot`
//! (UInt32, the count's place in the tally's raw layout, 0, 1, ... without gaps) and the
//! count as two UInt64 halves `hi`, `lo` (count = hi·2^64 + lo: sums of squares need
//! 128 bits). Rows are in (call, cell, slot) order.

use std::fs::File;
use std::path::Path;

use anyhow::{Context, Result, bail};
use polars::prelude::{
    Column, DataFrame, DataType, NamedFrom, ParquetCompression, ParquetReader, ParquetWriter, SerReader, Series,
};

use crate::engine::raw_tally::RawCell;

const COLUMNS: [(&str, DataType); 6] = [
    ("call", DataType::UInt32),
    ("cell", DataType::UInt32),
    ("key", DataType::UInt64),
    ("slot", DataType::UInt32),
    ("hi", DataType::UInt64),
    ("lo", DataType::UInt64),
];

/// Write `cells` to `path` (see the module documentation for the layout).
///
/// # Errors
/// The file cannot be written.
pub fn write_raw_tallies(cells: &[RawCell], path: &Path) -> Result<()> {
    let n: usize = cells.iter().map(|c| c.counts.len()).sum();
    let (mut call, mut cell, mut key, mut slot, mut hi, mut lo) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for c in cells {
        for (i, &x) in c.counts.iter().enumerate() {
            call.push(c.call);
            cell.push(c.cell);
            key.push(c.key);
            slot.push(i as u32);
            hi.push((x >> 64) as u64);
            lo.push(x as u64);
        }
    }
    let columns: Vec<Column> = vec![
        Series::new("call".into(), call).into(),
        Series::new("cell".into(), cell).into(),
        Series::new("key".into(), key).into(),
        Series::new("slot".into(), slot).into(),
        Series::new("hi".into(), hi).into(),
        Series::new("lo".into(), lo).into(),
    ];
    let mut df = DataFrame::new(n, columns).context("raw tally table")?;
    // Encoded in memory, then written (see `ParquetExporter`: a failing write's cause
    // would otherwise be hidden).
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .with_compression(ParquetCompression::Zstd(None))
        .finish(&mut df)
        .with_context(|| format!("cannot encode {}", path.display()))?;
    std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Read the raw tallies written by [`write_raw_tallies`].
///
/// # Errors
/// The file cannot be read, its columns are not the layout's, or a cell's slots are not
/// 0, 1, ... in order.
pub fn read_raw_tallies(path: &Path) -> Result<Vec<RawCell>> {
    let df = ParquetReader::new(File::open(path).with_context(|| format!("cannot open {}", path.display()))?)
        .finish()
        .with_context(|| format!("cannot read {}", path.display()))?;
    let names: Vec<String> = df.get_column_names().iter().map(|c| c.to_string()).collect();
    let types: Vec<DataType> = df.columns().iter().map(|c| c.dtype().clone()).collect();
    let expected: Vec<String> = COLUMNS.iter().map(|c| c.0.to_string()).collect();
    if names != expected || types.iter().zip(&COLUMNS).any(|(t, c)| *t != c.1) {
        bail!("{} is not a raw tally table (columns {names:?}, expected {expected:?})", path.display());
    }
    let u32s = |name: &str| -> Result<Vec<u32>> {
        Ok(df.column(name)?.u32()?.iter().map(|v| v.unwrap_or(u32::MAX)).collect())
    };
    let u64s = |name: &str| -> Result<Vec<u64>> {
        Ok(df.column(name)?.u64()?.iter().map(|v| v.unwrap_or(u64::MAX)).collect())
    };
    let (call, cell, key, slot, hi, lo) =
        (u32s("call")?, u32s("cell")?, u64s("key")?, u32s("slot")?, u64s("hi")?, u64s("lo")?);
    if df.columns().iter().any(|c| c.null_count() > 0) {
        bail!("{} has empty values in its raw tallies", path.display());
    }
    let mut out: Vec<RawCell> = Vec::new();
    for i in 0..df.height() {
        let x = ((hi[i] as u128) << 64) | lo[i] as u128;
        match out.last_mut() {
            Some(c)
                if c.call == call[i] && c.cell == cell[i] && c.key == key[i] && slot[i] as usize == c.counts.len() =>
            {
                c.counts.push(x)
            }
            _ if slot[i] == 0 => out.push(RawCell { call: call[i], cell: cell[i], key: key[i], counts: vec![x] }),
            _ => bail!("{} row {i}: slot {} of cell {} out of order", path.display(), slot[i], cell[i]),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_tallies_round_trip_through_parquet() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("tallies.parquet");
        let cells = vec![
            RawCell { call: 0, cell: 0, key: u64::MAX, counts: vec![5, 0, u128::MAX, 1 << 64] },
            RawCell { call: 0, cell: 3, key: 7, counts: vec![1] },
            RawCell { call: 1, cell: 0, key: 7, counts: vec![2, 3] },
        ];
        write_raw_tallies(&cells, &p).unwrap();
        assert_eq!(read_raw_tallies(&p).unwrap(), cells);
        write_raw_tallies(&[], &p).unwrap();
        assert_eq!(read_raw_tallies(&p).unwrap(), vec![]);
    }
}
