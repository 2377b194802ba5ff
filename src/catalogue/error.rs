//! Catalogue errors: every problem names the file, the entry and the field.

use std::fmt;

/// Where a value sits in a source file (1-based line and column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// Line and column of a byte offset in `text` (an offset past the end is the end;
    /// one inside a character counts that character). For many offsets in one text use
    /// [`Lines`], which finds each in logarithmic time rather than scanning from the start.
    pub fn of_offset(text: &str, offset: usize) -> Position {
        Lines::new(text).position(offset)
    }
}

/// A text's line starts, to turn byte offsets into [`Position`]s: built in one pass,
/// then each lookup is a binary search plus a count of the characters before it on its
/// line. A catalogue file's fields are positioned through one of these, so reading a
/// file is linear in its length (a scan from the start per field was quadratic).
#[derive(Debug, Clone)]
pub struct Lines<'t> {
    text: &'t str,
    /// Byte offset of each line's first byte; `starts[0]` is 0.
    starts: Vec<usize>,
}

impl<'t> Lines<'t> {
    pub fn new(text: &'t str) -> Lines<'t> {
        let starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Lines { text, starts }
    }

    /// Line and column (1-based, the column in characters) of byte `offset`, clamped to
    /// the text's length.
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        // The last line starting at or before the offset (starts[0] = 0 always is).
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let column = self.text.as_bytes()[start..offset].iter().filter(|&&b| (b as i8) >= -0x40).count() + 1;
        Position { line, column }
    }
}

/// One problem found in a catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogError {
    /// The file as the user named it (or `<embedded>/NAME` for the built-in catalogue).
    pub file: String,
    pub position: Option<Position>,
    /// The entry, e.g. `weapon "Devastator"` or `build #3`.
    pub entry: Option<String>,
    /// The field, e.g. `shots` or `weapons[1].count`.
    pub field: Option<String>,
    pub message: String,
}

impl CatalogError {
    pub fn new(file: impl Into<String>, message: impl Into<String>) -> Self {
        CatalogError { file: file.into(), position: None, entry: None, field: None, message: message.into() }
    }
    pub fn at(mut self, position: Option<Position>) -> Self {
        self.position = position;
        self
    }
    pub fn entry(mut self, entry: impl Into<String>) -> Self {
        self.entry = Some(entry.into());
        self
    }
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // What files said is repeated with control characters escaped: a message never
        // sends a raw escape sequence to the terminal.
        use super::text::shown;
        write!(f, "{}", shown(&self.file))?;
        if let Some(p) = self.position {
            write!(f, ":{}:{}", p.line, p.column)?;
        }
        write!(f, ":")?;
        if let Some(e) = &self.entry {
            write!(f, " {}:", shown(e))?;
        }
        if let Some(field) = &self.field {
            write!(f, " field `{}`:", shown(field))?;
        }
        write!(f, " {}", shown(&self.message))
    }
}

/// Every problem found in catalogue or scenario files, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct CatalogErrors(pub Vec<CatalogError>);

impl fmt::Display for CatalogErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "{n} error{} found:", if n == 1 { "" } else { "s" })?;
        for (i, e) in self.0.iter().enumerate() {
            if i + 1 < n {
                writeln!(f, "  {e}")?;
            } else {
                write!(f, "  {e}")?;
            }
        }
        Ok(())
    }
}

/// Most characters of a name (and of each candidate) that [`closest`] compares: a typo is
/// a near miss of a short name, and comparing whole names costs the product of their
/// lengths (two 200 KB names would take a minute).
pub const SUGGEST_CHARS: usize = 64;

/// What [`closest`] compares of `name`: its first [`SUGGEST_CHARS`] characters, lower
/// case. Bounded whatever the name's length.
pub fn suggestion_key(name: &str) -> String {
    name.chars().take(SUGGEST_CHARS).flat_map(char::to_lowercase).collect()
}

/// The closest of `candidates` to `name`, when it is close enough to be a likely typo.
///
/// Compares [`suggestion_key`]s only, so the work is at most [`SUGGEST_CHARS`]² per
/// candidate whatever the names' lengths.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = suggestion_key(name);
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(&lower, &suggestion_key(c)), c))
        .filter(|(score, _)| *score >= 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `word` with its indefinite article: "an integer", "a string".
pub fn with_article(word: &str) -> String {
    let article = if word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) { "an" } else { "a" };
    format!("{article} {word}")
}

/// " (did you mean `X`?)" or "".
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(name, candidates).map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_columns() {
        let text = "a = 1\nbb = 2\n";
        assert_eq!(Position::of_offset(text, 0), Position { line: 1, column: 1 });
        assert_eq!(Position::of_offset(text, 6), Position { line: 2, column: 1 });
        assert_eq!(Position::of_offset(text, 11), Position { line: 2, column: 6 });
    }

    #[test]
    fn the_line_index_agrees_with_a_plain_scan_at_every_offset() {
        // Multi-byte characters, an empty line, CRLF, no final newline.
        let text = "name = \"Größe\"\n\nx = 'ä€'\r\ny = 1";
        let lines = Lines::new(text);
        for offset in 0..=text.len() + 3 {
            let o = offset.min(text.len());
            let before = &text.as_bytes()[..o];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
            // A cut inside a character counts it as one (the lossy decoding's U+FFFD).
            assert_eq!(lines.position(offset), Position { line, column }, "offset {offset}");
        }
    }

    #[test]
    fn display_names_file_entry_and_field() {
        let e = CatalogError::new("w.toml", "must be at least 1, got 0")
            .at(Some(Position { line: 3, column: 9 }))
            .entry("weapon \"Gun\"")
            .field("shots");
        assert_eq!(e.to_string(), "w.toml:3:9: weapon \"Gun\": field `shots`: must be at least 1, got 0");
    }

    #[test]
    fn articles_follow_the_first_sound() {
        assert_eq!(with_article("integer"), "an integer");
        assert_eq!(with_article("array"), "an array");
        assert_eq!(with_article("string"), "a string");
        assert_eq!(with_article("table"), "a table");
    }

    #[test]
    fn suggestions_find_typos_only() {
        let names = ["Devastator", "Kabaaam", "Blackout"];
        assert_eq!(closest("Devastater", names), Some("Devastator"));
        assert_eq!(closest("zzz", names), None);
    }
}
