//! Typed reading of a [`RawEntry`]'s fields, collecting every error with its position.

use super::error::{CatalogError, Position, did_you_mean, with_article};
use super::raw::{RawEntry, RawField, RawValue, split_cell};
use super::text::{forbidden_char, forbidden_message};

/// Largest magnitude of a number read by [`Fields::number`] (weights, points, costs,
/// ranges): a thousand times any value a game uses, and small enough that sums of
/// millions of them stay finite and exact to the unit (a weight of `1e308` would make a
/// field's total weight infinite and every share of it NaN).
const MAX_NUMBER: f64 = 1e12;

/// Reads the fields of one entry. Each getter records an error and returns a default
/// when the field is missing, of the wrong type or out of range; [`Fields::finish`] then
/// reports unknown keys and says whether the entry was clean. [`Fields::is_bad`] says
/// which keys had errors, so that checks combining several fields run only on values
/// that were read (an error is reported once, never again as a consequence).
pub struct Fields<'a> {
    entry: &'a RawEntry,
    label: String,
    /// Prefix for nested fields (`weapons[2].`).
    prefix: String,
    /// Where the table being read starts: the entry, or the item of an inline array.
    position: Option<Position>,
    fields: &'a [(String, RawField)],
    used: Vec<bool>,
    errors: &'a mut Vec<CatalogError>,
    failed: bool,
    /// Keys (of this table, without index or nested part) that had an error.
    bad: Vec<String>,
}

/// An entry as read: its value (defaults where a field was bad), whether it was clean,
/// and which of its keys had errors.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked<T> {
    pub value: T,
    pub ok: bool,
    pub bad_keys: Vec<String>,
}

impl<T> Checked<T> {
    /// Whether `key` had an error.
    pub fn is_bad(&self, key: &str) -> bool {
        self.bad_keys.iter().any(|k| k == key)
    }
    /// The value when the entry was clean.
    pub fn into_ok(self) -> Option<T> {
        self.ok.then_some(self.value)
    }
}

/// An inline table of a list, with where it starts.
type InlineTable = (Option<Position>, Vec<(String, RawField)>);

/// The key an error path belongs to: `weapons` for `weapons[2].count`.
fn key_root(path: &str) -> &str {
    path.split(['[', '.']).next().unwrap_or(path)
}

impl<'a> Fields<'a> {
    pub fn new(entry: &'a RawEntry, errors: &'a mut Vec<CatalogError>) -> Self {
        Fields {
            entry,
            label: entry.label(),
            prefix: String::new(),
            position: entry.position,
            fields: &entry.fields,
            used: vec![false; entry.fields.len()],
            errors,
            failed: false,
            bad: Vec::new(),
        }
    }

    /// Where the table being read starts (the entry, or an inline table's item).
    pub fn position(&self) -> Option<Position> {
        self.position
    }

    /// Whether an error was recorded about `key` (or anything inside it).
    pub fn is_bad(&self, key: &str) -> bool {
        self.bad.iter().any(|k| k == key)
    }

    /// The entry's label, as errors show it.
    pub fn label(&self) -> &str {
        &self.label
    }

    pub fn entry(&self) -> &RawEntry {
        self.entry
    }

    /// Record an error about `field` (None: the table itself) at `position` (None: where
    /// the table starts).
    pub fn error(&mut self, field: Option<&str>, position: Option<Position>, message: impl Into<String>) {
        let mut e =
            CatalogError::new(&self.entry.file, message).at(position.or(self.position)).entry(self.label.clone());
        if let Some(f) = field {
            e = e.field(format!("{}{f}", self.prefix));
            self.bad.push(key_root(f).to_string());
        }
        self.errors.push(e);
        self.failed = true;
    }

    fn take(&mut self, key: &str) -> Option<&'a RawField> {
        let i = self.fields.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some(&self.fields[i].1)
    }

    /// The field `key` as written (its raw value and where it was written), for a value
    /// no typed getter reads, such as "a number or an array of arrays"; `None` when
    /// absent. The key counts as read (so [`Fields::finish`] does not call it unknown).
    /// The caller checks the value and records what is wrong with [`Fields::error`] at
    /// the field's position (or an item's), so that its errors name the file, line and
    /// field as every getter's do.
    pub fn raw(&mut self, key: &str) -> Option<&'a RawField> {
        self.take(key)
    }

    fn missing(&mut self, key: &str) {
        self.error(Some(key), None, "missing required field");
    }

    fn wrong_type(&mut self, key: &str, field: &RawField, expected: &str) {
        let found = match &field.value {
            RawValue::Cell(s) => format!("`{s}`"),
            other => with_article(other.type_name()),
        };
        self.error(Some(key), field.position, format!("expected {expected}, found {found}"));
    }

    /// A string; `None` only when optional and absent.
    pub fn string(&mut self, key: &str, required: bool) -> Option<String> {
        let Some(field) = self.take(key) else {
            if required {
                self.missing(key);
            }
            return None;
        };
        match &field.value {
            RawValue::Str(s) | RawValue::Cell(s) if !s.trim().is_empty() => {
                // A name is one line of printable text; other text (a chart's `lines`, a
                // note) may also hold tabs and line breaks.
                let text = s.trim();
                match forbidden_char(text, key != "name") {
                    Some(c) => {
                        self.error(Some(key), field.position, forbidden_message(c));
                        None
                    }
                    None => Some(text.to_string()),
                }
            }
            RawValue::Str(_) | RawValue::Cell(_) => {
                self.error(Some(key), field.position, "must not be empty");
                None
            }
            _ => {
                self.wrong_type(key, field, "a string");
                None
            }
        }
    }

    /// An integer in `min..=max`; `default` when absent (`None` = required).
    pub fn int(&mut self, key: &str, default: Option<i64>, min: i64, max: i64) -> i64 {
        let fallback = default.unwrap_or(min.max(0));
        let Some(field) = self.take(key) else {
            if default.is_none() {
                self.missing(key);
            }
            return fallback;
        };
        let value = match &field.value {
            RawValue::Int(v) => Some(*v),
            RawValue::Cell(s) => s.parse::<i64>().ok(),
            _ => None,
        };
        let Some(v) = value else {
            self.wrong_type(key, field, "an integer");
            return fallback;
        };
        if v < min || v > max {
            let range = if max == i64::MAX { format!("at least {min}") } else { format!("between {min} and {max}") };
            self.error(Some(key), field.position, format!("must be {range}, got {v}"));
            return fallback;
        }
        v
    }

    /// A non-negative number (integer or float), `default` when absent (`None` = required).
    pub fn number(&mut self, key: &str, default: Option<f64>) -> f64 {
        let Some(field) = self.take(key) else {
            if default.is_none() {
                self.missing(key);
            }
            return default.unwrap_or(0.0);
        };
        let value = match &field.value {
            RawValue::Int(v) => Some(*v as f64),
            RawValue::Float(v) => Some(*v),
            RawValue::Cell(s) => s.parse::<f64>().ok(),
            _ => None,
        };
        match value {
            Some(v) if v.is_finite() && (0.0..=MAX_NUMBER).contains(&v) => v,
            Some(v) if v.is_finite() && v > MAX_NUMBER => {
                self.error(
                    Some(key),
                    field.position,
                    format!("must be at most {MAX_NUMBER:e} (sums of such values must stay finite), got {v:e}"),
                );
                0.0
            }
            Some(v) => {
                self.error(Some(key), field.position, format!("must be a number of at least 0, got {v}"));
                0.0
            }
            None => {
                self.wrong_type(key, field, "a number");
                0.0
            }
        }
    }

    /// A positive number, or `None` when absent.
    pub fn positive_number(&mut self, key: &str) -> Option<f64> {
        let position = self.fields.iter().find(|(k, _)| k == key).map(|(_, f)| f.position)?;
        let errors_before = self.errors.len();
        let v = self.number(key, Some(0.0));
        if self.errors.len() > errors_before {
            return None;
        }
        if v <= 0.0 {
            self.error(Some(key), position, format!("must be greater than 0, got {v}"));
            return None;
        }
        Some(v)
    }

    /// A boolean, `default` when absent. CSV cells accept true/false/yes/no/1/0.
    pub fn boolean(&mut self, key: &str, default: bool) -> bool {
        let Some(field) = self.take(key) else {
            return default;
        };
        let value = match &field.value {
            RawValue::Bool(b) => Some(*b),
            RawValue::Cell(s) => match s.to_lowercase().as_str() {
                "true" | "yes" | "y" | "1" => Some(true),
                "false" | "no" | "n" | "0" => Some(false),
                _ => None,
            },
            _ => None,
        };
        value.unwrap_or_else(|| {
            self.wrong_type(key, field, "true or false");
            default
        })
    }

    /// A list of strings (a TOML array, or a `;`-separated CSV cell); empty when absent.
    pub fn string_list(&mut self, key: &str) -> Vec<(String, Option<Position>)> {
        let Some(field) = self.take(key) else {
            return Vec::new();
        };
        let list = match &field.value {
            RawValue::Array(items) => self.items(key, items, "a non-empty string", |v| match v {
                RawValue::Str(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
                _ => None,
            }),
            RawValue::Cell(s) => split_cell(s).into_iter().map(|s| (s.into_owned(), field.position)).collect(),
            _ => {
                self.wrong_type(key, field, "an array of strings");
                Vec::new()
            }
        };
        self.printable(key, list)
    }

    /// `list` without the items that hold a control character, each an error at
    /// `key[i]` (names and values are printable text).
    fn printable(&mut self, key: &str, list: Vec<(String, Option<Position>)>) -> Vec<(String, Option<Position>)> {
        let mut out = Vec::with_capacity(list.len());
        for (i, (text, pos)) in list.into_iter().enumerate() {
            match forbidden_char(&text, false) {
                Some(c) => self.error(Some(&format!("{key}[{i}]")), pos, forbidden_message(c)),
                None => out.push((text, pos)),
            }
        }
        out
    }

    /// An array of inline tables (`[{ name = "x", count = 2 }]`), each read with `read`.
    /// In a CSV cell, items are `;`-separated `NAME` or `NAME*COUNT`, given to `read`
    /// as tables with `name` and `count`.
    pub fn table_list<T>(&mut self, key: &str, mut read: impl FnMut(&mut Fields<'_>) -> Option<T>) -> Vec<T> {
        let Some(field) = self.take(key) else {
            return Vec::new();
        };
        let tables: Vec<InlineTable> = match &field.value {
            RawValue::Array(items) => {
                let mut tables = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    match &item.value {
                        RawValue::Table(t) => tables.push((item.position, t.clone())),
                        RawValue::Str(name) => tables.push((
                            item.position,
                            vec![(
                                "name".into(),
                                RawField {
                                    value: RawValue::Str(name.clone()),
                                    position: item.position,
                                    key_position: item.position,
                                },
                            )],
                        )),
                        _ => {
                            self.wrong_type(&format!("{key}[{i}]"), item, "a table like { name = \"...\", count = 1 }")
                        }
                    }
                }
                tables
            }
            RawValue::Cell(s) => split_cell(s)
                .into_iter()
                .map(|item| {
                    let (name, count) = match item.rsplit_once('*') {
                        Some((n, c)) => (n.trim().to_string(), Some(c.trim().to_string())),
                        None => (item.to_string(), None),
                    };
                    let mut t = vec![(
                        "name".to_string(),
                        RawField {
                            value: RawValue::Cell(name),
                            position: field.position,
                            key_position: field.position,
                        },
                    )];
                    if let Some(c) = count {
                        t.push((
                            "count".to_string(),
                            RawField {
                                value: RawValue::Cell(c),
                                position: field.position,
                                key_position: field.position,
                            },
                        ));
                    }
                    (field.position, t)
                })
                .collect(),
            _ => {
                self.wrong_type(key, field, "an array of tables");
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for (i, (position, fields)) in tables.iter().enumerate() {
            if let Some(v) = self.nested(&format!("{key}[{i}]"), *position, fields, &mut read) {
                out.push(v);
            }
        }
        out
    }

    /// Read `fields` (a nested table at `key`, written at `position`) with `read`: errors
    /// name `key.field`, default to the nested table's position and count against this
    /// entry.
    fn nested<T>(
        &mut self,
        key: &str,
        position: Option<Position>,
        fields: &[(String, RawField)],
        read: impl FnOnce(&mut Fields<'_>) -> T,
    ) -> T {
        let mut nested_errors = Vec::new();
        let mut nested = Fields {
            entry: self.entry,
            label: self.label.clone(),
            prefix: format!("{}{key}.", self.prefix),
            position: position.or(self.position),
            fields,
            used: vec![false; fields.len()],
            errors: &mut nested_errors,
            failed: false,
            bad: Vec::new(),
        };
        let value = read(&mut nested);
        let failed = nested.failed;
        self.errors.append(&mut nested_errors);
        self.failed |= failed;
        if failed {
            self.bad.push(key_root(key).to_string());
        }
        value
    }

    /// Report keys nobody read as unknown; true when the entry had no error at all.
    pub fn finish(mut self, known: &[&str]) -> bool {
        self.reject_unknown(known);
        !self.failed
    }

    /// Report keys nobody read as unknown and return `value` with what was wrong.
    pub fn finish_checked<T>(mut self, known: &[&str], value: T) -> Checked<T> {
        self.reject_unknown(known);
        Checked { value, ok: !self.failed, bad_keys: self.bad }
    }

    /// Report keys nobody read as unknown.
    pub fn reject_unknown(&mut self, known: &[&str]) {
        let unknown: Vec<(String, Option<Position>)> = self
            .fields
            .iter()
            .zip(&self.used)
            .filter(|(_, used)| !**used)
            .map(|((k, f), _)| (k.clone(), f.key_position))
            .collect();
        for (key, position) in unknown {
            let hint = did_you_mean(&key, known.iter().copied());
            self.error(Some(&key), position, format!("unknown key{hint}; known keys: {}", known.join(", ")));
        }
    }

    /// True when an error was recorded so far.
    pub fn failed(&self) -> bool {
        self.failed
    }
}

impl Fields<'_> {
    /// Where `key`'s value was written, if present.
    pub fn position_of(&self, key: &str) -> Option<Position> {
        self.fields.iter().find(|(k, _)| k == key).and_then(|(_, f)| f.position)
    }

    /// Whether `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.fields.iter().any(|(k, _)| k == key)
    }

    /// The items of array `key` that `read` accepts, with their positions; the others are
    /// errors at `key[i]` saying `expected`.
    fn items<T>(
        &mut self,
        key: &str,
        items: &[RawField],
        expected: &str,
        read: impl Fn(&RawValue) -> Option<T>,
    ) -> Vec<(T, Option<Position>)> {
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match read(&item.value) {
                Some(v) => out.push((v, item.position)),
                None => self.wrong_type(&format!("{key}[{i}]"), item, expected),
            }
        }
        out
    }

    /// A list of numbers (integers or floats); empty when absent.
    pub fn number_list(&mut self, key: &str) -> Vec<(f64, Option<Position>)> {
        let Some(field) = self.take(key) else {
            return Vec::new();
        };
        match &field.value {
            RawValue::Array(items) => {
                self.items(key, items, &format!("a number between -{MAX_NUMBER:e} and {MAX_NUMBER:e}"), |v| match v {
                    RawValue::Int(v) if (*v as f64).abs() <= MAX_NUMBER => Some(*v as f64),
                    RawValue::Float(v) if v.abs() <= MAX_NUMBER => Some(*v),
                    _ => None,
                })
            }
            _ => {
                self.wrong_type(key, field, "an array of numbers");
                Vec::new()
            }
        }
    }

    /// A nested table (`[grid]`), read with `read` (field names prefixed `key.`).
    /// `None` when absent.
    pub fn table<T>(&mut self, key: &str, read: impl FnOnce(&mut Fields<'_>) -> T) -> Option<T> {
        let field = self.take(key)?;
        let RawValue::Table(fields) = &field.value else {
            self.wrong_type(key, field, "a table");
            return None;
        };
        Some(self.nested(key, field.position, fields, read))
    }

    /// A non-negative number, or `None` when absent.
    pub fn number_opt(&mut self, key: &str) -> Option<f64> {
        if self.fields.iter().any(|(k, _)| k == key) { Some(self.number(key, Some(0.0))) } else { None }
    }

    /// The keys of the table being read, in order.
    pub fn keys(&self) -> Vec<String> {
        self.fields.iter().map(|(k, _)| k.clone()).collect()
    }

    /// A scalar (string, number or boolean) as text, with where it was written; `None`
    /// when absent (or of another type: then an error is recorded).
    pub fn scalar(&mut self, key: &str) -> Option<(String, Option<Position>)> {
        let field = self.take(key)?;
        match scalar_text(&field.value) {
            Some(t) if forbidden_char(&t, false).is_some() => {
                let c = forbidden_char(&t, false).unwrap_or_default();
                self.error(Some(key), field.position, forbidden_message(c));
                None
            }
            Some(t) => Some((t, field.position)),
            None => {
                self.wrong_type(key, field, "a string, number or boolean");
                None
            }
        }
    }

    /// A list of scalars (strings, numbers, booleans) as text; a single scalar is a list
    /// of one. Empty when absent.
    pub fn scalar_list(&mut self, key: &str) -> Vec<(String, Option<Position>)> {
        let Some(field) = self.take(key) else {
            return Vec::new();
        };
        let list = match &field.value {
            RawValue::Array(items) => self.items(key, items, "a string, number or boolean", scalar_text),
            other => match scalar_text(other) {
                Some(t) => vec![(t, field.position)],
                None => {
                    self.wrong_type(key, field, "an array of values");
                    Vec::new()
                }
            },
        };
        self.printable(key, list)
    }
}

/// A scalar raw value as text (`12`, `26.5`, `true`, `half`).
fn scalar_text(v: &RawValue) -> Option<String> {
    match v {
        RawValue::Int(i) => Some(i.to_string()),
        RawValue::Float(f) => Some(format!("{f}")),
        RawValue::Bool(b) => Some(b.to_string()),
        RawValue::Str(s) | RawValue::Cell(s) => Some(s.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::raw::{Section, parse_toml_document};

    #[test]
    fn names_with_control_characters_and_numbers_too_large_to_sum_are_errors() {
        let text = "name = \"Gun\\u001b[2J\"\nnote = \"two\\nlines\\tok\"\nkind = \"a\\u0007\"\ntabbed = \"a\\tb\"\n\
                    list = [\"x\", \"y\\u0000\"]\nweight = 1e308\nok = 1e12\n";
        let entry = parse_toml_document("s.toml", Section::SCENARIO, text).unwrap();
        let mut errors = Vec::new();
        let mut f = Fields::new(&entry, &mut errors);
        assert_eq!(f.string("name", true), None);
        assert_eq!(f.string("note", false).as_deref(), Some("two\nlines\tok"), "text over lines keeps its breaks");
        assert_eq!(f.string("kind", false), None);
        assert_eq!(f.string("tabbed", false).as_deref(), Some("a\tb"), "a tab in a value that is no name");
        assert_eq!(f.string_list("list").len(), 1);
        assert_eq!(f.number("weight", None), 0.0);
        assert_eq!(f.number("ok", None), 1e12);
        let fields: Vec<_> = errors.iter().map(|e| e.field.clone().unwrap_or_default()).collect();
        assert_eq!(fields, ["name", "kind", "list[1]", "weight"]);
        assert!(errors[0].message.contains("control character \\u{1b}"), "{}", errors[0]);
        assert!(errors[0].to_string().contains("\"Gun\\u{1b}[2J\"") || !errors[0].to_string().contains('\u{1b}'));
        assert!(errors[3].message.contains("at most 1e12"), "{}", errors[3]);
    }

    #[test]
    fn a_raw_field_is_read_as_written_with_its_position() {
        let entry = parse_toml_document("s.toml", Section::SCENARIO, "name = \"x\"\nteams = [[\"A\"], [2]]\n").unwrap();
        let mut errors = Vec::new();
        let mut f = Fields::new(&entry, &mut errors);
        assert!(f.raw("absent").is_none());
        let teams = f.raw("teams").expect("present");
        let RawValue::Array(items) = &teams.value else { panic!("{teams:?}") };
        assert!(matches!(&items[1].value, RawValue::Array(seats) if seats[0].value == RawValue::Int(2)));
        let pos = teams.position;
        assert_eq!(pos.map(|p| p.line), Some(2));
        f.error(Some("teams[1]"), pos, "bad team");
        let _ = f.string("name", true);
        // Read, so not unknown: the one error is the caller's, naming file, line and field.
        assert!(!f.finish(&["name", "teams"]));
        assert_eq!(errors.len(), 1);
        let text = errors[0].to_string();
        assert!(text.starts_with("s.toml:2:") && text.contains("field `teams[1]`: bad team"), "{text}");
    }
}
