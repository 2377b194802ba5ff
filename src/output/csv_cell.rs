//! Spreadsheet-safe CSV cells.
//!
//! A spreadsheet reads a cell that begins with `=`, `+`, `-` or `@` as a formula, and
//! some also after a leading tab or carriage return (OWASP "CSV injection"). A name in a
//! catalogue or scenario is free text, so every CSV writer prefixes such a text cell with
//! a single quote (`'`), which spreadsheets show as text and do not evaluate.
//!
//! Numbers are never changed: a number cell is written as is, and so is a text cell that
//! is a plain number (`-1`, `+2.5`, `1e-3`, `-12.5%`) or the lone `-` that stands for a
//! missing value, since a spreadsheet reads none of them as a formula.
//!
//! Machine consumers that want the text exactly as written switch the escaping off for
//! the whole process with [`set_raw`] (the command line's `--csv-raw` and
//! `VOLLEY_CSV_RAW=1`).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};

/// How text cells are written in CSV.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvCells {
    /// Text that a spreadsheet would evaluate gets a leading `'` (the default).
    Escaped,
    /// Text exactly as written.
    Raw,
}

static RAW: AtomicBool = AtomicBool::new(false);

/// Write every CSV of this process raw (`true`) or escaped (`false`, the default).
pub fn set_raw(raw: bool) {
    RAW.store(raw, Ordering::Relaxed);
}

/// The process-wide choice set by [`set_raw`].
pub fn current() -> CsvCells {
    if RAW.load(Ordering::Relaxed) { CsvCells::Raw } else { CsvCells::Escaped }
}

/// The characters that make a spreadsheet read a cell as a formula when they lead it.
const FORMULA_LEADS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// `text` as a CSV cell in `style`: with a leading `'` when it begins with one of
/// [`FORMULA_LEADS`] and is neither a plain number nor the lone `-`.
pub fn text_cell(text: &str, style: CsvCells) -> Cow<'_, str> {
    if style == CsvCells::Raw || !needs_quote(text) { Cow::Borrowed(text) } else { Cow::Owned(format!("'{text}")) }
}

/// A text cell as written by [`text_cell`] read back as the text it stands for: one
/// leading `'` removed where [`text_cell`] added it, anything else unchanged (so a text
/// survives the round trip exactly, even one that began with `'`).
pub fn read_text_cell(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if needs_quote(rest) => rest,
        _ => cell,
    }
}

/// Whether the text, after any leading `'`s, begins with a formula lead and is neither a
/// plain number nor the lone `-`. Quoting the leading-`'` texts too makes the escaping
/// reversible ([`read_text_cell`]).
fn needs_quote(text: &str) -> bool {
    let rest = text.trim_start_matches('\'');
    rest.starts_with(FORMULA_LEADS) && rest != "-" && !is_plain_number(rest)
}

/// A decimal number as a spreadsheet types it: an optional sign, digits with at most
/// one point, an optional exponent, an optional `%`.
fn is_plain_number(text: &str) -> bool {
    let t = text.strip_suffix('%').unwrap_or(text);
    let t = t.strip_prefix(['+', '-']).unwrap_or(t);
    let (mantissa, exponent) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], Some(&t[i + 1..])),
        None => (t, None),
    };
    let digits = mantissa.chars().filter(char::is_ascii_digit).count();
    let points = mantissa.chars().filter(|&c| c == '.').count();
    let mantissa_ok = digits > 0 && points <= 1 && digits + points == mantissa.len();
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_get_a_leading_quote() {
        for hostile in ["=HYPERLINK(\"x\")", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\rx", "=1"] {
            assert_eq!(text_cell(hostile, CsvCells::Escaped), format!("'{hostile}"), "{hostile:?}");
            assert_eq!(text_cell(hostile, CsvCells::Raw), hostile);
        }
    }

    #[test]
    fn escaped_cells_read_back_as_written() {
        for text in ["=1", "'=1", "''=1", "'", "'x", "-1", "'-1", "+cmd", "plain", "-", "'-", "@"] {
            let cell = text_cell(text, CsvCells::Escaped);
            assert_eq!(read_text_cell(&cell), text, "{text:?} written as {cell:?}");
        }
    }

    #[test]
    fn numbers_and_plain_names_stay_as_written() {
        for plain in ["-1", "+2.5", "-0.00001", "1e-3", "-1.5E+7", "-12.5%", "+3%", "-", "Stingray", "a=b", "", "3-4"] {
            assert_eq!(text_cell(plain, CsvCells::Escaped), plain, "{plain:?}");
        }
        for quoted in ["'=1", "''@x"] {
            assert_eq!(text_cell(quoted, CsvCells::Escaped), format!("'{quoted}"), "{quoted:?}");
        }
        assert_eq!(text_cell("'-1", CsvCells::Escaped), "'-1");
        for not_number in ["-1-1", "--1", "-.", "-1e", "+e5", "-1.2.3", "-inf", "-NaN"] {
            assert_eq!(text_cell(not_number, CsvCells::Escaped), format!("'{not_number}"), "{not_number:?}");
        }
    }
}
