//! Source-level catalogue entries: what a TOML table or a CSV row says, with positions,
//! before any field is interpreted. Both formats become the same [`RawEntry`], so one
//! validation path serves both.

use std::borrow::Cow;

use toml::Spanned;
use toml::de::{DeTable, DeValue};

use super::error::{CatalogError, Lines, Position, with_article};

/// The name of a kind of entry a catalogue file may hold: the TOML array-of-tables
/// name (`[[weapon]]`) and the word used in messages. Each ruleset declares its own
/// ([`Sections`]); the reader knows none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Section(pub &'static str);

impl Section {
    /// A scenario file (not part of a catalogue).
    pub const SCENARIO: Section = Section("scenario");

    /// The TOML key (`[[weapon]]`) and the word used in messages.
    pub fn key(self) -> &'static str {
        self.0
    }
}

/// The sections one ruleset's catalogue files hold: the TOML tables, and the CSV files
/// by the end of their file stem (`homebrew-weapons.csv` holds `weapon` entries when
/// `csv` lists `("weapons", weapon)`).
#[derive(Debug, Clone, Copy)]
pub struct Sections {
    pub toml: &'static [Section],
    pub csv: &'static [(&'static str, Section)],
}

impl Sections {
    fn by_key(&self, key: &str) -> Option<Section> {
        self.toml.iter().copied().find(|s| s.key() == key)
    }

    /// The section a CSV file holds, named by the end of its file stem (any case).
    pub fn from_csv_stem(&self, stem: &str) -> Option<Section> {
        let stem = stem.to_lowercase();
        self.csv.iter().find(|(suffix, _)| stem.ends_with(suffix)).map(|&(_, s)| s)
    }

    /// "[[weapon]], [[unit]] and [[field]]": the tables, as messages list them.
    pub fn table_list(&self) -> String {
        let names: Vec<String> = self.toml.iter().map(|s| format!("[[{}]]", s.key())).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        }
    }

    /// "`weapons`, `units` or `gear`": the CSV stem endings, as messages list them.
    pub fn csv_list(&self) -> String {
        let names: Vec<String> = self.csv.iter().map(|(s, _)| format!("`{s}`")).collect();
        match names.split_last() {
            None => String::new(),
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// A value as written in the source.
#[derive(Debug, Clone, PartialEq)]
pub enum RawValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Str(String),
    /// A CSV cell: untyped text, read as whatever type the field wants.
    Cell(String),
    Array(Vec<RawField>),
    Table(Vec<(String, RawField)>),
    /// A TOML value of a type no catalogue field takes (a datetime).
    Other(&'static str),
}

impl RawValue {
    /// The type's name in messages ("integer", "string", ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            RawValue::Int(_) => "integer",
            RawValue::Float(_) => "float",
            RawValue::Bool(_) => "boolean",
            RawValue::Str(_) => "string",
            RawValue::Cell(_) => "text",
            RawValue::Array(_) => "array",
            RawValue::Table(_) => "table",
            RawValue::Other(name) => name,
        }
    }
}

/// A value and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct RawField {
    pub value: RawValue,
    pub position: Option<Position>,
    /// Where the key was written (TOML); the cell's position for CSV.
    pub key_position: Option<Position>,
}

/// One `[[weapon]]`/`[[unit]]`/... table or one CSV row.
#[derive(Debug, Clone, PartialEq)]
pub struct RawEntry {
    pub file: String,
    pub section: Section,
    /// 1-based index of the entry among its section in its file.
    pub index: usize,
    pub position: Option<Position>,
    pub fields: Vec<(String, RawField)>,
}

impl RawEntry {
    /// The `name` field when it is a string.
    pub fn name(&self) -> Option<&str> {
        self.fields.iter().find(|(k, _)| k == "name").and_then(|(_, f)| match &f.value {
            RawValue::Str(s) | RawValue::Cell(s) => Some(s.as_str()),
            _ => None,
        })
    }

    /// How messages name the entry: `weapon "Devastator"`, or `weapon #3` without a name.
    pub fn label(&self) -> String {
        match self.name() {
            Some(n) => format!("{} \"{n}\"", self.section.key()),
            None => format!("{} #{}", self.section.key(), self.index),
        }
    }
}

/// What reading one file gave: the entries that could be read and every error found.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ParsedFile {
    pub entries: Vec<RawEntry>,
    pub errors: Vec<CatalogError>,
    /// The file's syntax is broken: no entry of it was read, so names it may define are
    /// unknown (references to them are not reported as unknown).
    pub unreadable: bool,
}

/// Parse a TOML catalogue file into entries. Errors name the file and position.
pub fn parse_toml(file: &str, text: &str, sections: &Sections) -> Result<Vec<RawEntry>, Vec<CatalogError>> {
    let parsed = read_toml(file, text, sections);
    if parsed.errors.is_empty() { Ok(parsed.entries) } else { Err(parsed.errors) }
}

/// Every TOML syntax error the recovering parser found, each at its position.
fn syntax_errors(file: &str, text: &str, syntax: &[toml::de::Error]) -> Vec<CatalogError> {
    let lines = Lines::new(text);
    let mut errors: Vec<CatalogError> = syntax
        .iter()
        .map(|e| {
            let position = e.span().map(|s| lines.position(s.start));
            CatalogError::new(file, format!("not valid TOML: {}", e.message().trim())).at(position)
        })
        .collect();
    errors.dedup();
    errors
}

/// Read a TOML catalogue file: every syntax error (the parser recovers to find the next
/// one), or, when the syntax is fine, the entries and the errors of misplaced tables (the
/// other entries are still read).
pub fn read_toml(file: &str, text: &str, sections: &Sections) -> ParsedFile {
    let (root, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        let errors = syntax_errors(file, text, &syntax);
        return ParsedFile { entries: Vec::new(), errors, unreadable: true };
    }
    let lines = Lines::new(text);
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut top: Vec<_> = root.get_ref().iter().collect();
    top.sort_by_key(|(k, _)| k.span().start);
    for (key, value) in top {
        let pos = lines.position(key.span().start);
        let Some(section) = sections.by_key(key.get_ref()) else {
            let keys = sections.toml.iter().map(|s| s.key());
            errors.push(
                CatalogError::new(
                    file,
                    format!(
                        "unknown top-level key `{}`: a catalogue file holds {} tables{}",
                        key.get_ref(),
                        sections.table_list(),
                        super::error::did_you_mean(key.get_ref(), keys)
                    ),
                )
                .at(Some(pos)),
            );
            continue;
        };
        let DeValue::Array(items) = value.get_ref() else {
            errors.push(
                CatalogError::new(file, format!("`{0}` must be an array of tables, written [[{0}]]", section.key()))
                    .at(Some(pos)),
            );
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let item_pos = lines.position(item.span().start);
            match item.get_ref() {
                DeValue::Table(t) => entries.push(RawEntry {
                    file: file.to_string(),
                    section,
                    index: i + 1,
                    position: Some(item_pos),
                    fields: table_fields(&lines, t),
                }),
                other => errors.push(
                    CatalogError::new(
                        file,
                        format!(
                            "{} #{} must be a table, found {}",
                            section.key(),
                            i + 1,
                            with_article(other.type_str())
                        ),
                    )
                    .at(Some(item_pos)),
                ),
            }
        }
    }
    ParsedFile { entries, errors, unreadable: false }
}

fn table_fields(lines: &Lines<'_>, table: &DeTable<'_>) -> Vec<(String, RawField)> {
    let mut fields: Vec<_> = table
        .iter()
        .map(|(k, v)| {
            let mut field = convert(lines, v);
            field.key_position = Some(lines.position(k.span().start));
            (k.span().start, k.get_ref().to_string(), field)
        })
        .collect();
    fields.sort_by_key(|(start, _, _)| *start);
    fields.into_iter().map(|(_, k, v)| (k, v)).collect()
}

fn convert(lines: &Lines<'_>, value: &Spanned<DeValue<'_>>) -> RawField {
    let position = Some(lines.position(value.span().start));
    let value = match value.get_ref() {
        DeValue::String(s) => RawValue::Str(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(v) => RawValue::Int(v),
            Err(_) => RawValue::Other("integer out of range"),
        },
        DeValue::Float(f) => match f.as_str().replace('_', "").parse::<f64>() {
            Ok(v) => RawValue::Float(v),
            Err(_) => RawValue::Other("float"),
        },
        DeValue::Boolean(b) => RawValue::Bool(*b),
        DeValue::Datetime(_) => RawValue::Other("datetime"),
        DeValue::Array(a) => RawValue::Array(a.iter().map(|v| convert(lines, v)).collect()),
        DeValue::Table(t) => RawValue::Table(table_fields(lines, t)),
    };
    RawField { value, position, key_position: position }
}

/// Parse a CSV stat sheet: a header row of field names, one entry per row. Empty cells
/// are absent fields. Positions are (line, 1-based spreadsheet column).
pub fn parse_csv(file: &str, section: Section, text: &str) -> Result<Vec<RawEntry>, Vec<CatalogError>> {
    let parsed = read_csv(file, section, text);
    if parsed.errors.is_empty() { Ok(parsed.entries) } else { Err(parsed.errors) }
}

/// Read a CSV stat sheet: the rows that could be read, and an error for each that could
/// not (a broken header makes the whole file unreadable).
pub fn read_csv(file: &str, section: Section, text: &str) -> ParsedFile {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).comment(Some(b'#')).from_reader(text.as_bytes());
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h.iter().map(str::to_string).collect(),
        Err(e) => {
            return ParsedFile {
                entries: Vec::new(),
                errors: vec![CatalogError::new(file, format!("not valid CSV: {e}"))],
                unreadable: true,
            };
        }
    };
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    for (i, record) in reader.records().enumerate() {
        match record {
            Ok(record) => {
                let line = record.position().map_or(0, |p| p.line() as usize);
                let fields = headers
                    .iter()
                    .zip(record.iter())
                    .enumerate()
                    .filter(|(_, (_, cell))| !cell.is_empty())
                    .map(|(col, (h, cell))| {
                        (
                            h.clone(),
                            RawField {
                                value: RawValue::Cell(cell.to_string()),
                                position: Some(Position { line, column: col + 1 }),
                                key_position: Some(Position { line, column: col + 1 }),
                            },
                        )
                    })
                    .collect();
                entries.push(RawEntry {
                    file: file.to_string(),
                    section,
                    index: i + 1,
                    position: Some(Position { line, column: 1 }),
                    fields,
                });
            }
            Err(e) => {
                let position = e.position().map(|p| Position { line: p.line() as usize, column: 1 });
                errors.push(CatalogError::new(file, format!("not valid CSV: {e}")).at(position));
            }
        }
    }
    // A row that could not be read may define a name others refer to.
    let unreadable = !errors.is_empty();
    ParsedFile { entries, errors, unreadable }
}

/// Parse a whole TOML document as one entry (a scenario file): its top-level keys are
/// the entry's fields.
pub fn parse_toml_document(file: &str, section: Section, text: &str) -> Result<RawEntry, Vec<CatalogError>> {
    let (root, syntax) = DeTable::parse_recoverable(text);
    if !syntax.is_empty() {
        let errors = syntax_errors(file, text, &syntax);
        return Err(errors);
    }
    Ok(RawEntry {
        file: file.to_string(),
        section,
        index: 1,
        position: Some(Position { line: 1, column: 1 }),
        fields: table_fields(&Lines::new(text), root.get_ref()),
    })
}

/// Split a CSV list cell (`a; b; c`) into trimmed items.
pub fn split_cell(cell: &str) -> Vec<Cow<'_, str>> {
    cell.split(';').map(str::trim).filter(|s| !s.is_empty()).map(Cow::Borrowed).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEAPON: Section = Section("weapon");
    const UNIT: Section = Section("unit");
    const SECTIONS: Sections = Sections { toml: &[WEAPON, UNIT], csv: &[("weapons", WEAPON), ("units", UNIT)] };

    #[test]
    fn toml_entries_keep_positions_and_order() {
        let text = "[[weapon]]\nname = \"Gun\"\nshots = 3\n\n[[unit]]\nname = \"Dwarf\"\n";
        let entries = parse_toml("t.toml", text, &SECTIONS).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].section, WEAPON);
        assert_eq!(entries[0].label(), "weapon \"Gun\"");
        let (key, shots) = &entries[0].fields[1];
        assert_eq!(key, "shots");
        assert_eq!(shots.value, RawValue::Int(3));
        assert_eq!(shots.position, Some(Position { line: 3, column: 9 }));
    }

    #[test]
    fn toml_syntax_errors_have_positions() {
        let errs = parse_toml("t.toml", "[[weapon]]\nname = \n", &SECTIONS).unwrap_err();
        assert_eq!(errs.len(), 1);
        assert!(errs[0].position.is_some(), "{:?}", errs[0]);
        assert!(errs[0].to_string().starts_with("t.toml:2:"), "{}", errs[0]);
    }

    #[test]
    fn unknown_sections_are_named() {
        let errs = parse_toml("t.toml", "[[weapons]]\nname = \"x\"\n", &SECTIONS).unwrap_err();
        assert!(errs[0].message.contains("did you mean `weapon`"), "{}", errs[0]);
    }

    #[test]
    fn csv_rows_become_entries_with_cells() {
        let text = "name,damage,shots\nGun,8,3\nCannon,,1\n";
        let entries = parse_csv("w.csv", WEAPON, text).unwrap();
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].fields.len(), 2, "empty cells are absent");
        assert_eq!(entries[1].fields[1].1.position, Some(Position { line: 3, column: 3 }));
    }

    #[test]
    fn csv_sections_come_from_the_file_stem() {
        assert_eq!(SECTIONS.from_csv_stem("homebrew-weapons"), Some(WEAPON));
        assert_eq!(SECTIONS.from_csv_stem("Units"), Some(UNIT));
        assert_eq!(SECTIONS.from_csv_stem("notes"), None);
    }
}
