//! The column guide (`COLUMNS.md`, written into every report and kept in the repository
//! as `reports/COLUMNS.md`), rendered from the same declarations the table writers build
//! their schemas from: the common tables' [`TableDecl`]s, and for every registered
//! ruleset its condition axes, target columns, detail tables, cost columns and charts.
//! A column cannot be written without being documented, and a ruleset added to the
//! registry gets its section. The prose between the tables is text kept here.

use std::fmt::Write as _;

use crate::output::{Column, Kind};
use crate::rules::axis::{AxisKind, AxisSpec};
use crate::rules::ruleset::{ColumnNotes, CostChart, DetailChart, DetailTable};
use crate::rules::{Ruleset, RulesetId, Visit};

use super::tables::{self, Part, Supplied, TableDecl};
use super::{battle_seats, battles, fit, gauntlet, meta, search, seatings};

/// The cell tables of sweeps, in the guide's order.
pub const CELL_TABLES: [&TableDecl; 8] = [
    &tables::TIME_TO_KILL,
    &tables::TTK_BY_TURN,
    &tables::COST_EFFICIENCY,
    &tables::DUELS,
    &battles::BATTLES,
    &battles::BATTLE_UNITS,
    &battle_seats::SEATED_BATTLES,
    &seatings::BATTLE_FORCES,
];

/// The tables of a gauntlet report.
pub const GAUNTLET_TABLES: [&TableDecl; 2] = [&gauntlet::MATCHUPS, &gauntlet::SUMMARY];

/// The tables `volley meta --out` writes.
pub const META_TABLES: [&TableDecl; 3] = [&meta::SHARES, &meta::MATRIX, &meta::REPLICATOR];
/// `volley search --out`'s tables.
pub const SEARCH_TABLES: [&TableDecl; 2] = [&search::LEADERBOARD, &search::STAGES];

/// Every common report table (those every ruleset writes alike), in the guide's order.
pub fn common_tables() -> Vec<&'static TableDecl> {
    CELL_TABLES.into_iter().chain(GAUNTLET_TABLES).chain([&fit::FIT]).chain(META_TABLES).chain(SEARCH_TABLES).collect()
}

/// What the guide reads of one ruleset: its names and every column it declares.
#[derive(Debug, Clone)]
pub struct GameColumns {
    /// Its id (`--ruleset`).
    pub name: &'static str,
    /// Its name for people: the section's heading.
    pub label: &'static str,
    /// Its word for a turn.
    pub turn: &'static str,
    pub axes: &'static [AxisSpec],
    pub flags: &'static [AxisSpec],
    pub target: Vec<Column>,
    pub details: Vec<DetailTable>,
    pub detail_charts: Vec<DetailChart>,
    pub cost_attacker: Vec<Column>,
    pub cost_value: Vec<Column>,
    pub cost_charts: Vec<CostChart>,
    pub notes: ColumnNotes,
}

impl GameColumns {
    /// What this ruleset supplies to the places of `decl`: its target columns and axes,
    /// and its cost columns where `decl` is `cost_efficiency`.
    pub fn supplied(&self, decl: &TableDecl) -> Supplied<'_> {
        let cost = decl.name == tables::COST_EFFICIENCY.name;
        Supplied {
            target: &self.target,
            axes: self.axes,
            attacker: if cost { &self.cost_attacker } else { &[] },
            values: if cost { &self.cost_value } else { &[] },
        }
    }

    /// Every report table this ruleset writes, with all its columns, each with whether
    /// the ruleset supplies it: the common tables, then its detail tables.
    pub fn tables(&self) -> Vec<(&'static str, Vec<(Column, bool)>)> {
        let common = common_tables().into_iter().map(|d| (d.name, d.sourced_columns(&self.supplied(d))));
        let details = self.details.iter().map(|d| {
            let supplied = Supplied {
                target: &self.target,
                axes: self.axes,
                attacker: &d.attacker_columns,
                values: &d.value_columns,
            };
            (d.name, tables::detail_decl(d).sourced_columns(&supplied))
        });
        common.chain(details).collect()
    }
}

struct Gather;

impl Visit for Gather {
    type Output = GameColumns;
    fn visit<R: Ruleset>(self) -> GameColumns {
        GameColumns {
            name: R::NAME,
            label: R::LABEL,
            turn: R::TURN,
            axes: R::axes(),
            flags: R::flags(),
            target: R::target_columns(),
            details: R::detail_tables(),
            detail_charts: R::detail_charts(),
            cost_attacker: R::cost_attacker_columns(),
            cost_value: R::cost_value_columns(),
            cost_charts: R::cost_charts(),
            notes: R::column_notes(),
        }
    }
}

/// The declarations of every registered ruleset, in registry order.
pub fn games() -> Vec<GameColumns> {
    RulesetId::ALL.iter().map(|r| r.visit(Gather)).collect()
}

/// The column guide of this volley: [`render`] of every registered ruleset.
pub fn column_guide() -> String {
    render(&games())
}

/// The column guide for `games`: the introduction, the common tables, gauntlet and fit
/// reports, the manifest and the charts, then one section per ruleset.
pub fn render(games: &[GameColumns]) -> String {
    let mut s = String::new();
    intro(&mut s, games);
    s += "## Common columns\n\n";
    key_columns(&mut s, games);
    for decl in CELL_TABLES {
        common_table(&mut s, "###", decl, games);
    }
    s += GAUNTLET;
    for decl in GAUNTLET_TABLES {
        common_table(&mut s, "####", decl, games);
    }
    common_table(&mut s, "###", &fit::FIT, games);
    for decl in META_TABLES {
        common_table(&mut s, "###", decl, games);
    }
    for decl in SEARCH_TABLES {
        common_table(&mut s, "###", decl, games);
    }
    s += MANIFEST;
    charts(&mut s, games);
    for g in games {
        game_section(&mut s, g);
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

const TITLE: &str = "# Columns of volley's report tables

What every table of a report holds, column by column. volley writes this guide as
`COLUMNS.md` into every report directory it writes (`volley sweep`, `volley gauntlet`,
`volley fit --out`, `volley chart`); it is rendered from the same column declarations
the tables are written from. Each table is written as `TABLE.parquet` and/or
`TABLE.csv` with the same rows; nulls are empty cells in CSV.

In CSV, a text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return gets
a leading `'`, so that a spreadsheet shows it as text instead of running it as a formula
(a build named `=HYPERLINK(...)` is written `'=HYPERLINK(...)`). Numbers never change: a
number cell, a text cell that is a plain number (`-1`, `+2.5`, `-12%`) and the lone `-`
are written as they are. Parquet files hold the text as written. `--csv-raw` (or
`VOLLEY_CSV_RAW=1`) writes CSV text as written, for scripts; `volley chart` reads either.

The tables are the same for every ruleset: `time_to_kill`, `ttk_by_turn`,
`cost_efficiency`, `duels`, the battle tables, the gauntlet tables and `fit`, with the
same key and result columns, so scripts and charts work for every game. What differs by
ruleset is listed in its own section below: the condition columns (one per axis of the
ruleset), the target columns, a few `cost_efficiency` columns and the ruleset's detail
tables (";

fn anchor(label: &str) -> String {
    label.to_lowercase().replace(' ', "-")
}

fn intro(s: &mut String, games: &[GameColumns]) {
    *s += TITLE;
    let listed: Vec<String> = games
        .iter()
        .map(|g| {
            let details: Vec<String> = g.details.iter().map(|d| format!("`{}`", d.name)).collect();
            format!("[{}](#{}): {}", g.label, anchor(g.label), details.join(", "))
        })
        .collect();
    *s += &listed.join("; ");
    *s += ").\nThe report's `manifest.json` names the ruleset and lists its axes. A \"turn\" is the\nruleset's turn: ";
    let turns: Vec<String> = games.iter().map(|g| format!("a {} {}", g.label, g.turn)).collect();
    *s += &turns.join(", ");
    *s += ".\n\n";
}

/// `a, b and c`.
fn and_list(items: &[String]) -> String {
    joined(items, "and")
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    joined(items, "or")
}

fn joined(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}

fn ticked(cols: &[Column]) -> String {
    let names: Vec<String> = cols.iter().flat_map(Column::names).map(|n| format!("`{n}`")).collect();
    names.join(", ")
}

/// `TechCommander `target_ac`; MECHCOM `target_integrity``: what each ruleset puts in a
/// place (`none` where it puts nothing).
fn by_game(games: &[GameColumns], cols: impl Fn(&GameColumns) -> Vec<Column>) -> String {
    let parts: Vec<String> = games
        .iter()
        .map(|g| {
            let c = cols(g);
            format!("{} {}", g.label, if c.is_empty() { "none".to_string() } else { ticked(&c) })
        })
        .collect();
    parts.join("; ")
}

fn header(s: &mut String) {
    *s += "| column | type | meaning |\n|---|---|---|\n";
}

fn row(s: &mut String, names: &str, kind: &str, doc: &str) {
    let _ = writeln!(s, "| {names} | {kind} | {doc} |");
}

/// Rows of `cols`, consecutive columns of one type and meaning in one row.
fn column_rows(s: &mut String, cols: &[Column]) {
    let mut i = 0;
    while i < cols.len() {
        let mut j = i + 1;
        while j < cols.len() && cols[j].doc == cols[i].doc && cols[j].kind == cols[i].kind {
            j += 1;
        }
        row(s, &ticked(&cols[i..j]), cols[i].kind_name(), cols[i].doc);
        i = j;
    }
}

fn key_columns(s: &mut String, games: &[GameColumns]) {
    *s += "### Key columns (every cell table)\n\nEvery table starts with these, in this order:\n\n";
    header(s);
    let ids: Vec<String> = games.iter().map(|g| format!("`{}`", g.name)).collect();
    row(s, "`ruleset`", "string", &format!("{}: {}", tables::RULESET.doc, or_list(&ids)));
    row(
        s,
        "`attacker` (`a`, `b` in `duels`; `force_a`, `force_b` in battles; `build`, `opponent` in gauntlets)",
        "string",
        tables::ATTACKER.doc,
    );
    row(s, "ruleset attacker columns", "", "only in detail and cost tables (e.g. `weapon`)");
    row(s, "`target`", "string", "the target's name (attack runs, detail tables, `cost_efficiency`)");
    row(s, "target columns", "", &by_game(games, |g| g.target.clone()));
    row(s, "condition columns", "", "one column per axis of the ruleset, in the ruleset's order (see its section)");
    *s += "\nSensitivity sweeps (a scenario with `[vary]`) add one float column per varied stat at
the end of every table, `vary.ENTRY.FIELD` (e.g. `vary.Devastator.damage`): the value the
row's catalogue had.

";
}

fn heading(s: &mut String, level: &str, decl: &TableDecl) {
    if decl.title.is_empty() {
        let _ = writeln!(s, "{level} `{}`\n", decl.name);
    } else {
        let _ = writeln!(s, "{level} `{}`: {}\n", decl.name, decl.title);
    }
    if !decl.about.is_empty() {
        let _ = writeln!(s, "{}\n", decl.about);
    }
}

/// A common table: its own columns, and the places of the rulesets' columns with what
/// each ruleset puts there.
fn common_table(s: &mut String, level: &str, decl: &TableDecl, games: &[GameColumns]) {
    heading(s, level, decl);
    header(s);
    for part in decl.parts {
        match part {
            Part::Own(cols) => column_rows(s, cols),
            Part::Target => {
                row(s, "`target`", "string", tables::TARGET.doc);
                row(s, "target columns", "", &by_game(games, |g| g.target.clone()));
            }
            Part::Conditions => row(s, "condition columns", "", "one column per axis of the ruleset, in its order"),
            Part::Attacker => row(
                s,
                "ruleset attacker columns",
                "",
                &format!(
                    "the attacker in the game's own terms (see its section): {}",
                    by_game(games, |g| g.supplied(decl).attacker.to_vec())
                ),
            ),
            Part::Values => row(
                s,
                "ruleset value columns",
                "",
                &format!(
                    "the game's own measures (see its section): {}",
                    by_game(games, |g| g.supplied(decl).values.to_vec())
                ),
            ),
        }
    }
    *s += "\n";
}

const GAUNTLET: &str = "### Gauntlet reports (`volley gauntlet`)

`reports/gauntlet-<field>/` holds `gauntlet_summary` and `gauntlet_matchups`
(Parquet/CSV), `manifest.json`, `charts/` and the page.

";

const MANIFEST: &str = "### `manifest.json`

`kind` (`attack-run-sweep`, `duel-sweep`, `battle-sweep` or `gauntlet`: what `volley
chart` redraws; `fit` for fit reports),
`volley_version`, `ruleset` (id) and `ruleset_label` (its name, as in the headings of
this guide), `turn` (the ruleset's word for a turn: `turn` or `round`), `axes` (one
object per condition axis, in column order: `name`, `kind`, `label`, `unit`, `names`
(the allowed values of a choice) and `values` (the values swept)), `detail_charts` (the
detail heatmaps: `table`, `value`, `value_label`, `per`, `rows`, `row_order`, `x_axes`,
`panel_axis`, ...), `options` (every option of the ruleset, `NAME` → value as used:
defaults included), the fully resolved `scenario` (after command-line overrides;
`chart_conditions` as a list of maps from axis name to value), seed, trials per cell
(fixed, or precision and cap), cells, engagements, wall time, engagements per second,
threads, the catalogue's origin and content hash (and `catalogue.saved`: the directory
`catalogue/` of the report, holding the catalogue's files as they were read, base then
additions, and their names; `volley diff REPORT/catalogue NEW` compares a later catalogue
with it), `vary` for sensitivity sweeps, the resolved attackers/targets/opponents, every
table with its rows and columns, the files written and the time spent writing them. A
gauntlet's manifest records instead its `builds`, its `field` (each opponent with its
weight), its `conditions` (one canonical key per grid point), policy and turn cap. A
battle sweep's (and a `--battle` gauntlet's) manifest adds `battle`: mode, policy, turn
cap, every force (`name`, `canonical` text, `points`, `units`) and, for generated forces,
`generated` (`budget`, `max_units`, `limit`, `builds`, `count`, `truncated` and a `note`
saying whether the limit left forces out).

Every Monte Carlo cell is seeded from its key, which names the engagement kind, the
ruleset, the sides, every axis value, every option as `NAME=value`, the policy and the
turn cap: changing any of them gives other random numbers, never a reused cell.

";

const CHARTS: &str = "### Charts and the report page

Unless `--no-charts`, the report also holds `charts/` (each chart as `NAME.svg` and
`NAME.png`, 300 dpi with the resolution recorded in the PNG), `index.md` and a
self-contained `index.html` (charts inline, no network), and this guide as `COLUMNS.md`.
`volley chart DIR` redraws them from the tables (Parquet, else CSV) and `manifest.json`
alone, for every kind of report (the manifest's `kind`) and every ruleset (the
manifest's `axes`, `turn` and `detail_charts`); it refuses, changing nothing, when a
table or a column the charts read is missing, and names every one.

| file | what it shows |
|---|---|
| `DETAIL-ATTACKER-...-AXIS` | each detail chart of the ruleset (listed below): the value as a percentage, rows ordered by the ruleset's order column, columns the values of one axis in the ruleset's order, one panel per value of the panel axis, the other axes at the first chart condition set; the first axis always, the others when the grid has several values |
";

const CHARTS_COMMON: &str = "| `ttk[-SET]` | P(target destroyed by turn k) (by round k where the ruleset plays rounds) per attacker (panels) and target (curves), 95% band shaded, one chart per condition set |
| `cost-kill-points-per-point[-SET]` | target points destroyed per turn per point, with 95% whiskers, per build, mean over targets: the ranking the headline findings state |
";

const CHARTS_END: &str = "| `duel-matrix[-SET]` | duel scenarios: P(row beats column), draw rate in each cell |
| `gauntlet-win-rate` | gauntlets: each build's weighted win rate against the field, 95% whiskers |
| `gauntlet-matchups` | gauntlets: P(build beats opponent) and draw rate, mean over conditions |
| `vary-ENTRY-FIELD` | sensitivity sweeps: each headline metric (exact where the tables have it) against the varied value, one line per build, mean over targets, opponents and conditions |

The headline findings rank builds by the same quantities, at the same conditions, as the
cost charts of the first condition set, so page and charts agree. The page lists the
grid axis by axis (\"Grid: AXIS (unit)\") and the policy and turn (or round) cap; the
footer of every chart names the ruleset.

Condition sets come from the scenario's `[charts] ttk_conditions`, each a map from axis
name to value (an axis left out takes its first value). The first set has no suffix;
the others carry a suffix of their values in axis order (a number led by its axis's
initial, e.g. `-r24-half-none-stationary-none`). Chart titles name every axis (\"range
24, cover half, ...\"). Reports from before axes were recorded (no `axes` in
manifest.json) are ";

fn charts(s: &mut String, games: &[GameColumns]) {
    *s += CHARTS;
    for g in games {
        for c in &g.detail_charts {
            let per: String = c.per.iter().map(|p| format!("-{}", p.to_uppercase())).collect();
            let axes: Vec<String> = c.x_axes.iter().map(|x| format!("`{x}`")).collect();
            let mut what =
                format!("{}: {} (`{}` of `{}`), rows by `{}`", g.label, c.value_label, c.value, c.table, c.rows);
            if let Some(order) = c.row_order {
                let _ = write!(what, " ordered by `{order}`");
            }
            let _ = write!(what, ", one chart per axis of {}", axes.join(", "));
            if let Some(panel) = c.panel_axis {
                let _ = write!(what, ", panels by `{panel}`");
            }
            row_file(s, &format!("`{}{per}-AXIS`", c.name), &what);
        }
    }
    *s += CHARTS_COMMON;
    for g in games {
        for c in &g.cost_charts {
            let title = c.title.replace("{turn}", g.turn);
            let rows = if c.weapons { "one bar per weapon and side" } else { "one bar per side, mean over targets" };
            let mut what = format!("{}: {title} (`{}`; {rows}", g.label, c.column);
            if let Some((column, word)) = c.note {
                let _ = write!(what, "; a label states a positive `{column}` as \"N {word}\"");
            }
            row_file(s, &format!("`{}[-SET]`", c.name), &format!("{what})"));
        }
    }
    *s += CHARTS_END;
    let _ = write!(s, "{}'s and redraw as before.\n\n", games.first().map_or("", |g| g.label));
}

fn row_file(s: &mut String, file: &str, what: &str) {
    let _ = writeln!(s, "| {file} | {what} |");
}

/// The values an axis takes and its default, for its row of the guide.
fn axis_values(a: &AxisSpec) -> String {
    let list = |names: &[&str]| names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ");
    let values = match a.kind {
        AxisKind::Number { .. } if a.unit.is_empty() => "a number".to_string(),
        AxisKind::Number { .. } => format!("a number of {}", a.unit),
        AxisKind::Integer { min, max } if a.unit.is_empty() => format!("a whole number from {min} to {max}"),
        AxisKind::Integer { min, max } => format!("a whole number of {} from {min} to {max}", a.unit),
        AxisKind::Choice(names) => list(names),
        AxisKind::Switch => "`true` or `false`".to_string(),
        AxisKind::Set(names) => {
            let named: Vec<&str> = names.iter().copied().filter(|n| *n != "none").collect();
            format!("`none`, or any of {} joined by `+`", list(&named))
        }
    };
    format!("values: {values}; default `{}`", a.default)
}

fn kind_name(k: Kind) -> &'static str {
    Column { name: "", kind: k, doc: "", ci95: false }.kind_name()
}

fn game_section(s: &mut String, g: &GameColumns) {
    let _ = writeln!(s, "## {}\n", g.label);
    if !g.notes.intro.is_empty() {
        let _ = writeln!(s, "{}\n", g.notes.intro);
    }
    *s += "### Condition columns\n\n";
    header(s);
    for a in g.axes {
        let help = a.help.trim_end_matches('.');
        row(s, &format!("`{}`", a.name), kind_name(a.column_kind()), &format!("{help}; {}", axis_values(a)));
    }
    *s += "\nThe modifiers shown are the defaults; `--option` and a scenario's `[options]` change\nthem (the \
           manifest's `options` records the values used).";
    if !g.flags.is_empty() {
        let flags: Vec<String> = g.flags.iter().map(|f| format!("`--{}`", f.flag)).collect();
        let what = if flags.len() == 1 {
            "is a flag of a single run, not a table column"
        } else {
            "are flags of a single run, not table columns"
        };
        let _ = write!(s, " {} {what}.", and_list(&flags));
    }
    *s += "\n\n### Target columns\n\nAfter `target` in every table with a target:\n\n";
    header(s);
    column_rows(s, &g.target);
    if !g.notes.points.is_empty() {
        let _ = write!(s, "\n{}\n", g.notes.points);
    }
    *s += "\n";
    for d in &g.details {
        let decl = tables::detail_decl(d);
        heading(s, "###", &decl);
        header(s);
        for part in decl.parts {
            match part {
                Part::Own(cols) => column_rows(s, cols),
                Part::Attacker => column_rows(s, &d.attacker_columns),
                Part::Target => column_rows(s, &[&[tables::TARGET][..], &g.target[..]].concat()),
                Part::Conditions => row(s, "condition columns", "", "as above"),
                Part::Values => column_rows(s, &d.value_columns),
            }
        }
        *s += "\n";
    }
    let _ = writeln!(s, "### `cost_efficiency`: {} columns\n", g.label);
    header(s);
    column_rows(s, &g.cost_attacker);
    column_rows(s, &g.cost_value);
    if !g.notes.cost.is_empty() {
        let _ = write!(s, "\n{}\n", g.notes.cost);
    }
    *s += "\n";
}

/// The declared columns `guide` leaves out, as `ruleset table.column`: a column must be
/// named in the first cell of a row of the guide's tables, a column the ruleset supplies
/// (its target, detail and cost columns, one per axis) in the ruleset's section
/// (`## LABEL`), any other in a section of its table (a heading naming `` `table` ``).
/// Empty when the guide documents them all.
pub fn undocumented(guide: &str, games: &[GameColumns]) -> Vec<String> {
    let mut missing = Vec::new();
    for g in games {
        let in_game = row_names(section(guide, g.label));
        for (table, cols) in g.tables() {
            let in_table = row_names(&table_sections(guide, table));
            if in_table.is_empty() {
                missing.push(format!("{} {table}", g.name));
            }
            for (c, theirs) in cols {
                let within = if theirs { &in_game } else { &in_table };
                for name in c.names() {
                    if !within.contains(&name) {
                        missing.push(format!("{} {table}.{name}", g.name));
                    }
                }
            }
        }
    }
    missing.dedup();
    missing
}

/// The names in backticks in the first cell of each table row of `text`.
fn row_names(text: &str) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    for line in text.lines().filter_map(|l| l.strip_prefix("| ")) {
        let first = line.split(" | ").next().unwrap_or("");
        names.extend(first.split('`').skip(1).step_by(2).map(str::to_string));
    }
    names
}

/// The text of `## LABEL` up to the next second-level heading (empty without one).
fn section<'a>(guide: &'a str, label: &str) -> &'a str {
    let start = format!("\n## {label}\n");
    let Some(at) = guide.find(&start) else {
        return "";
    };
    let body = &guide[at + start.len()..];
    body.find("\n## ").map_or(body, |end| &body[..end])
}

/// The text under every heading that names table `` `table` ``, each up to the next
/// heading.
fn table_sections(guide: &str, table: &str) -> String {
    let named = format!("`{table}`");
    let mut out = String::new();
    let mut inside = false;
    for line in guide.lines() {
        if line.starts_with('#') {
            inside = line.starts_with("###") && line.split(':').next().is_some_and(|h| h.contains(&named));
        } else if inside {
            out += line;
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::Table;
    use crate::sweep::run::layout;

    const REPOSITORY_GUIDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/reports/COLUMNS.md");

    /// `reports/COLUMNS.md` is the rendered guide. `VOLLEY_UPDATE_DOCS=1 cargo test --lib
    /// column_guide` rewrites it after a declaration changed.
    #[test]
    fn the_repository_guide_is_the_rendered_one() {
        let guide = column_guide();
        if std::env::var("VOLLEY_UPDATE_DOCS").is_ok_and(|v| v == "1") {
            std::fs::write(REPOSITORY_GUIDE, &guide).unwrap();
        }
        let kept = std::fs::read_to_string(REPOSITORY_GUIDE).unwrap();
        assert!(
            kept == guide,
            "reports/COLUMNS.md differs from the guide the declarations render: run \
             `VOLLEY_UPDATE_DOCS=1 cargo test --lib column_guide` and commit the file"
        );
    }

    #[test]
    fn every_declared_column_of_every_ruleset_is_in_the_guide() {
        let games = games();
        assert_eq!(games.len(), RulesetId::ALL.len());
        let guide = render(&games);
        assert_eq!(undocumented(&guide, &games), Vec::<String>::new());
        for g in &games {
            assert!(section(&guide, g.label).contains("### Condition columns"), "{} has no section", g.label);
            for d in &g.details {
                assert!(section(&guide, g.label).contains(&format!("### `{}`", d.name)), "{}", d.name);
            }
        }
        // One line per row: no meaning may break the Markdown tables.
        for g in &games {
            for (_, cols) in g.tables() {
                for (c, _) in cols {
                    assert!(!c.doc.contains('|') && !c.doc.contains('\n'), "{}: {}", c.name, c.doc);
                }
            }
        }
    }

    #[test]
    fn a_declared_column_missing_from_the_guide_is_found() {
        let games = games();
        // A column declared but not rendered: the writer would write it, the guide not.
        let mut declared = games.clone();
        declared[0].cost_value.push(Column::float("p_probe_of_the_guide", "not rendered"));
        let guide = render(&games);
        assert_eq!(
            undocumented(&guide, &declared),
            [format!("{} cost_efficiency.p_probe_of_the_guide", games[0].name)]
        );
        // A ruleset's column dropped from its section, though another section names it.
        let last = games.len() - 1;
        let mut dropped = games.clone();
        let gone = dropped[last].details[0].value_columns.pop().expect("a value column");
        let name = format!("{} {}.{}", games[last].name, games[last].details[0].name, gone.name);
        assert!(undocumented(&render(&dropped), &games).contains(&name), "{name}");
        // A common table's column: its interval ends included.
        let guide = render(&games).replace("`p_kill_ci95_high`", "`p_kill_high`");
        assert!(undocumented(&guide, &games).contains(&format!("{} time_to_kill.p_kill_ci95_high", games[0].name)));
    }

    struct Written;

    impl Visit for Written {
        type Output = Vec<(&'static str, Table)>;
        fn visit<R: Ruleset>(self) -> Vec<(&'static str, Table)> {
            let l = layout::<R>();
            let mut out = vec![
                ("time_to_kill", tables::time_to_kill(&l)),
                ("ttk_by_turn", tables::ttk_by_turn(&l)),
                ("cost_efficiency", tables::cost_efficiency(&l, &R::cost_attacker_columns(), &R::cost_value_columns())),
                ("duels", tables::duels(&l)),
                ("battles", battles::battles_table(&l)),
                ("battle_units", battles::units_table(&l)),
                ("battles", battle_seats::seats_table(&l)),
                ("battle_forces", seatings::forces_table(&l)),
            ];
            let (matchups, summary) = gauntlet::gauntlet_tables(R::NAME, R::axes(), &[], &[], 0.0, 1, &[]);
            out.push(("gauntlet_matchups", matchups));
            out.push(("gauntlet_summary", summary));
            let fitted = fit::FitOutput {
                rows: Vec::new(),
                method: "exact",
                trials_per_matchup: None,
                convergence: None,
                cells: 0,
                one_sided: Vec::new(),
                granularity: 1.0,
                priced_out: Vec::new(),
                unwritable: None,
                engagements: 0,
                seconds: 0.0,
            };
            out.push(("fit", fit::fit_table(R::NAME, super::super::fit_link::FitMetric::Win, 0.5, &fitted)));
            let none = meta::Meta {
                players: Vec::new(),
                matrix: Vec::new(),
                matrix_ci95: Vec::new(),
                trials: 0,
                shares: Vec::new(),
                shares_ci95: Vec::new(),
                value: Vec::new(),
                game_value: 0.5,
                dominated: Vec::new(),
                trajectory: Vec::new(),
                bootstrap: 0,
                cannot_attack: Vec::new(),
            };
            let [shares, matrix, replicator] = none.tables(R::NAME);
            out.extend([("meta_shares", shares), ("meta_matrix", matrix), ("meta_replicator", replicator)]);
            let race = crate::stats::racing::Race {
                entrants: Vec::new(),
                stages: Vec::new(),
                z: 0.0,
                stopped: crate::stats::racing::Stop::StageCap,
            };
            let none = search::SearchOutput {
                race,
                parts: Vec::new(),
                value: Vec::new(),
                pareto: Vec::new(),
                engagements: 0,
                seconds: 0.0,
            };
            let [board, stages] =
                search::tables(R::NAME, &[], &none, crate::sweep::search_metric::SearchMetric::Win, 1);
            out.extend([("search_leaderboard", board), ("search_stages", stages)]);
            out.extend(R::detail_tables().iter().map(|d| (d.name, tables::detail(&l, d))));
            out
        }
    }

    /// The writers' schemas are the guide's declarations: the same tables, columns, order
    /// and types.
    #[test]
    fn the_writers_write_the_declared_columns() {
        for (id, g) in RulesetId::ALL.iter().zip(games()) {
            let written = id.visit(Written);
            let declared = g.tables();
            assert_eq!(written.len(), declared.len(), "{id}");
            for ((name, table), (decl_name, cols)) in written.iter().zip(&declared) {
                assert_eq!(name, decl_name, "{id}");
                let cols: Vec<Column> = cols.iter().map(|(c, _)| *c).collect();
                assert_eq!(*table, Table::declared(&cols), "{id} {name}");
                assert!(table.kinds.is_some(), "{id} {name}");
            }
        }
    }

    #[test]
    fn axis_rows_state_their_values_and_default() {
        let a = AxisSpec {
            name: "weather",
            flag: "weather",
            kind: AxisKind::Set(&["none", "rain", "fog"]),
            default: "none",
            help: "The weather.",
            duel_help: "",
            label: "Weather",
            unit: "",
        };
        assert_eq!(axis_values(&a), "values: `none`, or any of `rain`, `fog` joined by `+`; default `none`");
        let n = AxisSpec { kind: AxisKind::Integer { min: 0, max: 9 }, unit: "hexes", default: "1", ..a };
        assert_eq!(axis_values(&n), "values: a whole number of hexes from 0 to 9; default `1`");
    }
}
