//! Sensitivity sweeps: a scenario's `[vary]` table varies catalogue stats, e.g.
//!
//! ```toml
//! [vary]
//! "Devastator".damage = [6, 8, 10]
//! "Gladiator Lancer".points = [4, 5]
//! ```
//!
//! Each key names a catalogue entry (by its `name`; `"unit:Dwarf"` picks the section when
//! two sections use the name) and one of its numeric fields. A value is applied by
//! editing the entry in the catalogue's source files (the TOML value or the CSV cell;
//! a field the entry leaves out is written in) before the ruleset reads them, so `[vary]`
//! works for every ruleset and the ruleset's own checks judge every value. The sweep
//! plays the product of all varied values (the first key varies slowest); each varied
//! stat is a column `vary.ENTRY.FIELD` of every table and a `vary.ENTRY.FIELD=value`
//! pair of every cell key (only when `[vary]` is present, so other scenarios keep their
//! numbers).

use std::time::Instant;

use serde_json::{Value, json};

use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::raw::{RawEntry, RawValue, Sections, read_csv, read_toml};
use crate::catalogue::source::{SourceFile, content_hash};
use crate::engine::{Observer, RunConfig};
use crate::output::{Cell, Kind, Table};
use crate::rules::ruleset::Ruleset;

use super::run::{SweepOutput, run_sweep_with};
use super::scenario::Scenario;
use super::shard::Plays;
pub use super::vary_axis::{VaryAxis, read_vary, value_text, vary_json};

/// One catalogue entry as read from the files: which file, and the entry.
#[derive(Debug, Clone)]
struct Located {
    file: usize,
    entry: RawEntry,
}

/// Every entry of the files, read with ruleset `R`'s sections (unreadable files give
/// none: the ruleset's own load reports them).
fn entries<R: Ruleset>(files: &[SourceFile]) -> Vec<Located> {
    let mut out = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let parsed = if f.name.ends_with(".csv") {
            let stem = std::path::Path::new(&f.name).file_stem().and_then(|s| s.to_str()).unwrap_or("");
            match R::SECTIONS.from_csv_stem(stem) {
                Some(section) => read_csv(&f.name, section, &f.text),
                None => continue,
            }
        } else {
            read_toml(&f.name, &f.text, &R::SECTIONS)
        };
        out.extend(parsed.entries.into_iter().map(|entry| Located { file: i, entry }));
    }
    out
}

/// The entry `name` (`SECTION:NAME` picks the section) whose `field` to vary, among
/// `all`: the only entry of that name, or the only one of them that writes `field`.
fn find<'a>(all: &'a [Located], name: &str, field: &str) -> Result<&'a Located, String> {
    let (section, bare) = match name.split_once(':') {
        Some((s, n)) if all.iter().any(|l| l.entry.section.key() == s) => (Some(s), n),
        _ => (None, name),
    };
    let named: Vec<&Located> = all
        .iter()
        .filter(|l| l.entry.name() == Some(bare) && section.is_none_or(|s| l.entry.section.key() == s))
        .collect();
    match named.as_slice() {
        [] => {
            let names: Vec<&str> = all.iter().filter_map(|l| l.entry.name()).collect();
            Err(format!("no catalogue entry is named `{bare}`{}", did_you_mean(bare, names)))
        }
        [one] => Ok(one),
        many => {
            let writing: Vec<&&Located> =
                many.iter().filter(|l| l.entry.fields.iter().any(|(k, _)| k == field)).collect();
            match writing.as_slice() {
                [one] => Ok(one),
                _ => {
                    let forms: Vec<String> =
                        many.iter().map(|l| format!("\"{}:{bare}\"", l.entry.section.key())).collect();
                    Err(format!("`{bare}` names {} entries: write {}", many.len(), forms.join(" or ")))
                }
            }
        }
    }
}

/// Byte offset of `p` (1-based line and column in characters) in `text`.
fn offset_of(text: &str, p: Position) -> usize {
    let line_start =
        if p.line <= 1 { 0 } else { text.match_indices('\n').nth(p.line - 2).map_or(text.len(), |(i, _)| i + 1) };
    text[line_start..].char_indices().nth(p.column.saturating_sub(1)).map_or(text.len(), |(i, _)| line_start + i)
}

/// Whether a raw value is a number (a TOML integer or float, a CSV cell that reads as one).
fn is_number(v: &RawValue) -> bool {
    match v {
        RawValue::Int(_) | RawValue::Float(_) => true,
        RawValue::Cell(s) => s.trim().parse::<f64>().is_ok(),
        _ => false,
    }
}

/// The text of `file` with `entry`'s `field` set to `value` (written in when absent).
fn set_field(file: &SourceFile, entry: &RawEntry, field: &str, value: &str) -> Result<String, String> {
    if file.name.ends_with(".csv") {
        return set_csv_cell(&file.text, entry.index, field, value);
    }
    let text = &file.text;
    match entry.fields.iter().find(|(k, _)| k == field) {
        Some((_, f)) => {
            let pos = f.position.ok_or("the value has no position")?;
            let start = offset_of(text, pos);
            let len = text[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | '_')))
                .unwrap_or(text.len() - start);
            Ok(format!("{}{value}{}", &text[..start], &text[start + len..]))
        }
        None => {
            // Written in on the line before the entry's first key.
            let first = entry.fields.first().and_then(|(_, f)| f.key_position).ok_or("the entry has no keys")?;
            let start = offset_of(text, Position { line: first.line, column: 1 });
            Ok(format!("{}{field} = {value}\n{}", &text[..start], &text[start..]))
        }
    }
}

/// A CSV sheet's text with row `row` (1-based, as [`read_csv`] counts) of column `field`
/// set to `value` (the column added when absent). Comment lines are dropped.
fn set_csv_cell(text: &str, row: usize, field: &str, value: &str) -> Result<String, String> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).comment(Some(b'#')).from_reader(text.as_bytes());
    let mut headers: Vec<String> = reader.headers().map_err(|e| e.to_string())?.iter().map(str::to_string).collect();
    let col = match headers.iter().position(|h| h == field) {
        Some(c) => c,
        None => {
            headers.push(field.to_string());
            headers.len() - 1
        }
    };
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(&headers).map_err(|e| e.to_string())?;
    for (i, record) in reader.records().enumerate() {
        let mut cells: Vec<String> = record.map_err(|e| e.to_string())?.iter().map(str::to_string).collect();
        cells.resize(headers.len(), String::new());
        if i + 1 == row {
            cells[col] = value.to_string();
        }
        writer.write_record(&cells).map_err(|e| e.to_string())?;
    }
    String::from_utf8(writer.into_inner().map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// A checked `[vary]`: the base catalogue's files and the stats to vary, each found in
/// them and every value accepted by the ruleset.
#[derive(Debug, Clone)]
pub struct Plan {
    origin: String,
    files: Vec<SourceFile>,
    axes: Vec<VaryAxis>,
}

impl Plan {
    /// Check `scenario`'s `[vary]` against the catalogue `files` (named `origin`, already
    /// known to load): each key must name one entry and a field it writes as a number, or
    /// one the ruleset accepts a number for; the catalogue must load with each value
    /// alone. Every error names the scenario file, line and `[vary]` key.
    ///
    /// # Errors
    /// Every problem found, all at once.
    pub fn check<R: Ruleset>(scenario: &Scenario, origin: &str, files: &[SourceFile]) -> Result<Plan, CatalogErrors> {
        let all = entries::<R>(files);
        let mut errors = Vec::new();
        let error = |axis: &VaryAxis, pos: Option<Position>, message: String| {
            CatalogError::new(&scenario.file, message)
                .at(pos)
                .entry(format!("scenario \"{}\"", scenario.name))
                .field(axis.key())
        };
        for axis in &scenario.vary {
            let key_pos = axis.positions.first().copied().flatten();
            let located = match find(&all, &axis.entry, &axis.field) {
                Ok(l) => l,
                Err(e) => {
                    errors.push(error(axis, key_pos, e));
                    continue;
                }
            };
            if let Some((_, f)) = located.entry.fields.iter().find(|(k, _)| *k == axis.field)
                && !is_number(&f.value)
            {
                let found = match &f.value {
                    RawValue::Cell(s) | RawValue::Str(s) => format!("`{s}`"),
                    other => other.type_name().to_string(),
                };
                errors.push(error(
                    axis,
                    key_pos,
                    format!(
                        "{} writes {} as {found} ({}:{}), not a number: [vary] varies numeric fields only",
                        located.entry.label(),
                        axis.field,
                        located.entry.file,
                        f.position.map_or(0, |p| p.line),
                    ),
                ));
                continue;
            }
            // Every value alone: the ruleset's own checks (unknown field, range, type).
            let mut per_value: Vec<Vec<String>> = Vec::new();
            for &v in &axis.values {
                let messages = match with_values(files, &all, &[(axis, v)], &R::SECTIONS) {
                    Err(e) => vec![e],
                    Ok(changed) => match R::load(origin, &changed, Vec::new()) {
                        Ok(_) => Vec::new(),
                        Err(CatalogErrors(errs)) => errs.iter().map(describe).collect(),
                    },
                };
                per_value.push(messages);
            }
            // An error every value meets (an unknown field) is reported once, at the key.
            let common: Vec<String> =
                per_value[0].iter().filter(|m| per_value.iter().all(|vs| vs.contains(m))).cloned().collect();
            for m in &common {
                errors.push(error(axis, key_pos, format!("the catalogue refuses it: {m}")));
            }
            for ((v, messages), pos) in axis.values.iter().zip(&per_value).zip(&axis.positions) {
                for m in messages.iter().filter(|m| !common.contains(m)) {
                    errors.push(error(
                        axis,
                        *pos,
                        format!("the catalogue refuses {} = {}: {m}", axis.field, value_text(*v)),
                    ));
                }
            }
        }
        if errors.is_empty() {
            Ok(Plan { origin: origin.to_string(), files: files.to_vec(), axes: scenario.vary.clone() })
        } else {
            Err(CatalogErrors(errors))
        }
    }

    /// Every combination of varied values, as an index per axis (the first axis varies
    /// slowest).
    pub fn combinations(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = vec![Vec::new()];
        for a in &self.axes {
            out = out.iter().flat_map(|c| (0..a.values.len()).map(move |i| [c.clone(), vec![i]].concat())).collect();
        }
        out
    }

    /// The `(vary.ENTRY.FIELD, value)` pairs of a combination, for cell keys.
    pub fn pairs(&self, combination: &[usize]) -> Vec<(String, String)> {
        self.axes.iter().zip(combination).map(|(a, &i)| (a.column(), value_text(a.values[i]))).collect()
    }

    /// The catalogue files with a combination's values written in.
    ///
    /// # Errors
    /// An entry that can no longer be found or edited.
    pub fn files_for<R: Ruleset>(&self, combination: &[usize]) -> Result<Vec<SourceFile>, String> {
        let all = entries::<R>(&self.files);
        let set: Vec<(&VaryAxis, f64)> = self.axes.iter().zip(combination).map(|(a, &i)| (a, a.values[i])).collect();
        with_values(&self.files, &all, &set, &R::SECTIONS)
    }

    /// The varied stats.
    pub fn axes(&self) -> &[VaryAxis] {
        &self.axes
    }

    /// The names of the catalogue entries that carry `axis`'s entry: the entry itself and
    /// every entry that names a carrier in one of its fields (a build listing a weapon, a
    /// squad listing a trooper, a force listing a build), transitively. A text field
    /// names an entry when it is the name, or when one of its items is (items separated
    /// by `,`, `;`, `|` or `+`, each with an optional `N*` count, as lists in CSV cells
    /// and force texts are written).
    pub fn carriers<R: Ruleset>(&self, axis: &VaryAxis) -> Vec<String> {
        let all = entries::<R>(&self.files);
        let bare = match axis.entry.split_once(':') {
            Some((section, n)) if all.iter().any(|l| l.entry.section.key() == section) => n,
            _ => axis.entry.as_str(),
        };
        let mut names = vec![bare.to_string()];
        loop {
            let before = names.len();
            for l in &all {
                if let Some(n) = l.entry.name()
                    && !names.iter().any(|x| x == n)
                    && l.entry.fields.iter().any(|(k, f)| k != "name" && mentions(&f.value, &names))
                {
                    names.push(n.to_string());
                }
            }
            if names.len() == before {
                return names;
            }
        }
    }
}

/// Whether `v` names one of `names` (see [`Plan::carriers`]).
fn mentions(v: &RawValue, names: &[String]) -> bool {
    match v {
        RawValue::Str(s) | RawValue::Cell(s) => s.split([',', ';', '|', '+']).any(|item| {
            let item = item.trim();
            let item = match item.split_once('*') {
                Some((count, rest)) if count.trim().parse::<u32>().is_ok() => rest.trim(),
                _ => item,
            };
            names.iter().any(|n| n == item)
        }),
        RawValue::Array(a) => a.iter().any(|f| mentions(&f.value, names)),
        RawValue::Table(t) => t.iter().any(|(_, f)| mentions(&f.value, names)),
        _ => false,
    }
}

/// A catalogue error's text without the scenario's own file prefix noise: `entry: field: message`.
fn describe(e: &CatalogError) -> String {
    let mut s = String::new();
    if let Some(entry) = &e.entry {
        s.push_str(entry);
        s.push_str(": ");
    }
    if let Some(field) = &e.field {
        s.push_str(&format!("field `{field}`: "));
    }
    s.push_str(&e.message);
    s
}

/// `files` with each `(axis, value)` written into its entry (files re-read after each
/// edit, so several edits of one file keep their positions right).
fn with_values(
    files: &[SourceFile],
    all: &[Located],
    set: &[(&VaryAxis, f64)],
    sections: &Sections,
) -> Result<Vec<SourceFile>, String> {
    let mut files = files.to_vec();
    for (axis, v) in set {
        let located = find(all, &axis.entry, &axis.field)?;
        let file = &files[located.file];
        // Re-find the entry in the file as edited so far.
        let current = entries_of_file(file, located, sections);
        let text = set_field(file, &current, &axis.field, &value_text(*v))
            .map_err(|e| format!("cannot set {}: {e}", axis.column()))?;
        files[located.file].text = text;
    }
    Ok(files)
}

/// `located`'s entry as `file` (possibly edited) now holds it.
fn entries_of_file(file: &SourceFile, located: &Located, sections: &Sections) -> RawEntry {
    let e = &located.entry;
    let parsed = if file.name.ends_with(".csv") {
        read_csv(&file.name, e.section, &file.text)
    } else {
        read_toml(&file.name, &file.text, sections)
    };
    parsed.entries.into_iter().find(|x| x.section == e.section && x.index == e.index).unwrap_or_else(|| e.clone())
}

/// Run a scenario with a `[vary]` table: every combination of varied values in turn (the
/// catalogue rewritten, names resolved again), each cell keyed by the combination too.
/// The tables are those of a plain sweep with one `vary.ENTRY.FIELD` column per varied
/// stat at the end, the rows of every combination one after another.
///
/// # Errors
/// A combination the ruleset refuses, a scenario name it no longer resolves, or a
/// cancelled run.
pub fn run_varied<R: Ruleset>(
    scenario: &Scenario,
    plan: &Plan,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<SweepOutput, String> {
    run_varied_with::<R>(scenario, plan, config, observer, &Plays::all())
}

/// As [`run_varied`], with the tallies from `plays` (see [`super::shard`]): every
/// combination is one engine call of `plays`, in combination order, so a shard plays
/// its share of the streams of every combination together (dealt as one run), records
/// them by call, and a merge takes them back call by call. A shard's output has no
/// tables (its raw tallies are what it writes).
///
/// # Errors
/// As [`run_varied`], and what [`Plays::run`] refuses.
pub fn run_varied_with<R: Ruleset>(
    scenario: &Scenario,
    plan: &Plan,
    config: &RunConfig,
    observer: &dyn Observer,
    plays: &Plays<'_>,
) -> Result<SweepOutput, String> {
    let start = Instant::now();
    let mut tables: Vec<(&'static str, Table)> = Vec::new();
    let mut manifest = Value::Null;
    let (mut cells, mut engagements) = (0, 0);
    for combination in plan.combinations() {
        let pairs = plan.pairs(&combination);
        let describe = || pairs.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ");
        let files = plan.files_for::<R>(&combination)?;
        let catalogue = R::load(&plan.origin, &files, Vec::new()).map_err(|e| format!("with {}: {e}", describe()))?;
        let resolved = scenario.resolve::<R>(&catalogue).map_err(|e| format!("with {}: {e}", describe()))?;
        let out = run_sweep_with::<R>(scenario, &resolved, &catalogue, config, observer, &pairs, plays)?;
        cells += out.cells;
        engagements += out.engagements;
        let values: Vec<f64> = plan.axes.iter().zip(&combination).map(|(a, &i)| a.values[i]).collect();
        for (i, (name, mut table)) in out.tables.into_iter().enumerate() {
            add_columns(&mut table, &plan.axes, &values);
            match tables.get_mut(i) {
                Some((n, t)) if *n == name => t.rows.append(&mut table.rows),
                Some(_) => return Err(format!("with {}: the sweep's tables changed", describe())),
                None => tables.push((name, table)),
            }
        }
        if manifest.is_null() {
            manifest = out.manifest;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    if let Some(m) = manifest.as_object_mut() {
        m.insert("cells".into(), json!(cells));
        m.insert("engagements".into(), json!(engagements));
        m.insert("wall_seconds".into(), json!(seconds));
        m.insert(
            "engagements_per_second".into(),
            json!(if seconds > 0.0 { engagements as f64 / seconds } else { 0.0 }),
        );
        m.insert("catalogue".into(), json!({ "origin": plan.origin, "hash": content_hash(&plan.files) }));
        let mut vary = vary_json(&plan.axes);
        if let Some(list) = vary.as_array_mut() {
            for (v, axis) in list.iter_mut().zip(&plan.axes) {
                v["carriers"] = json!(plan.carriers::<R>(axis));
            }
        }
        m.insert("vary".into(), vary);
        m.insert(
            "tables".into(),
            json!(
                tables
                    .iter()
                    .map(|(n, t)| json!({ "name": n, "rows": t.rows.len(), "columns": t.columns }))
                    .collect::<Vec<_>>()
            ),
        );
    }
    Ok(SweepOutput { tables, manifest, cells, engagements, seconds })
}

/// Append one float column per varied stat, holding `values` on every row.
fn add_columns(table: &mut Table, axes: &[VaryAxis], values: &[f64]) {
    for a in axes {
        table.columns.push(a.column());
    }
    if let Some(kinds) = &mut table.kinds {
        kinds.extend(axes.iter().map(|_| Kind::Float));
    }
    for row in &mut table.rows {
        row.extend(values.iter().map(|&v| Cell::Float(v)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_named_in_lists_tables_and_force_texts() {
        let names = ["Devastator".to_string(), "Dwarf ALPHA".to_string()];
        let text = |s: &str| RawValue::Str(s.into());
        let field = |v: RawValue| crate::catalogue::raw::RawField { value: v, position: None, key_position: None };
        assert!(mentions(&text("Devastator"), &names));
        assert!(mentions(&RawValue::Cell("Scrapper Autocannon; Devastator".into()), &names));
        assert!(mentions(&text("Troll Brawler + 2*Dwarf ALPHA"), &names));
        assert!(mentions(
            &RawValue::Array(vec![field(RawValue::Table(vec![("name".into(), field(text("Devastator")))]))]),
            &names
        ));
        assert!(!mentions(&text("Devastator Mk II"), &names), "a longer name is another entry");
        assert!(!mentions(&RawValue::Int(8), &names));
    }

    #[test]
    fn values_are_written_as_catalogues_write_them() {
        assert_eq!(value_text(8.0), "8");
        assert_eq!(value_text(-1.0), "-1");
        assert_eq!(value_text(4.5), "4.5");
    }

    #[test]
    fn toml_values_are_replaced_and_missing_ones_written_in() {
        const W: crate::catalogue::Section = crate::catalogue::Section("weapon");
        let sections = crate::catalogue::raw::Sections { toml: &[W], csv: &[] };
        let text = "[[weapon]]\nname = \"Gun\"   # note\ndamage = 8 # x\nshots = 3\n";
        let file = SourceFile { name: "w.toml".into(), text: text.into() };
        let entry = read_toml("w.toml", text, &sections).entries.remove(0);
        let set = set_field(&file, &entry, "damage", "10").unwrap();
        assert_eq!(set, "[[weapon]]\nname = \"Gun\"   # note\ndamage = 10 # x\nshots = 3\n");
        let added = set_field(&file, &entry, "points", "4.5").unwrap();
        assert_eq!(added, "[[weapon]]\npoints = 4.5\nname = \"Gun\"   # note\ndamage = 8 # x\nshots = 3\n");
    }

    #[test]
    fn csv_cells_are_replaced_and_missing_columns_added() {
        let text = "name,damage\nGun,8\nCannon,12\n";
        assert_eq!(set_csv_cell(text, 2, "damage", "6").unwrap(), "name,damage\nGun,8\nCannon,6\n");
        assert_eq!(set_csv_cell(text, 1, "ac", "3").unwrap(), "name,damage,ac\nGun,8,3\nCannon,12,\n");
    }
}
