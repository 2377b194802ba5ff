//! Scenario files: what a sweep plays. Parsed with positions, checked once, and resolved
//! against the catalogue (names checked, selectors expanded) before anything runs.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};
use serde::Serialize;

use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::fields::Fields;
use crate::catalogue::raw::{Section, parse_toml_document};
use crate::engine::Trials;
use crate::engine::runner::MAX_TRIALS;
use crate::rules::techcommander::attack_run::MAX_TURNS_LIMIT;
use crate::rules::techcommander::catalogue::{Catalogue, UnitKind};
use crate::rules::techcommander::{Cover, DEFAULT_MAX_TURNS, Movement, Policy, Smoke, Statuses, TargetSpec};

/// The `scenarios/` directory as built into the binary.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scenarios");

/// The scenario `volley sweep` runs with no argument.
pub const DEFAULT_SCENARIO: &str = "standard";

/// Every key a scenario file may have.
pub const SCENARIO_KEYS: &[&str] = &[
    "name",
    "description",
    "engagement",
    "seed",
    "trials",
    "precision",
    "max_trials",
    "max_turns",
    "policy",
    "attackers",
    "targets",
    "opponents",
    "grid",
    "charts",
    "loadouts_add",
];
/// Every key of `[grid]`.
pub const GRID_KEYS: &[&str] = &["range", "cover", "smoke", "movement", "status"];
/// Every key of `[charts]`.
pub const CHART_KEYS: &[&str] = &["ttk_conditions"];

/// What a sweep plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engagement {
    AttackRun,
    Duel,
}

impl Engagement {
    pub fn name(self) -> &'static str {
        match self {
            Engagement::AttackRun => "attack-run",
            Engagement::Duel => "duel",
        }
    }
}

/// The axes of the grid; the sweep plays their Cartesian product.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grid {
    /// Inches, >= 0.
    pub range: Vec<f64>,
    pub cover: Vec<Cover>,
    pub smoke: Vec<Smoke>,
    pub movement: Vec<Movement>,
    /// Each value one combination of statuses (`none`, `dug-in`, `dug-in+forest`).
    pub status: Vec<Statuses>,
}

impl Default for Grid {
    /// One point: range 12, no cover, no smoke, stationary, no status.
    fn default() -> Self {
        Grid {
            range: vec![12.0],
            cover: vec![Cover::None],
            smoke: vec![Smoke::None],
            movement: vec![Movement::Stationary],
            status: vec![Statuses::default()],
        }
    }
}

/// A condition set for the charts, each axis optional (`None` = the grid's first value).
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct ChartConditions {
    pub range: Option<f64>,
    pub cover: Option<Cover>,
    pub smoke: Option<Smoke>,
    pub movement: Option<Movement>,
    pub status: Option<Statuses>,
}

/// A scenario as written: checked, names not yet resolved.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scenario {
    pub name: String,
    pub description: Option<String>,
    pub engagement: Engagement,
    pub seed: u64,
    #[serde(serialize_with = "serialize_trials")]
    pub trials: Trials,
    pub max_turns: u32,
    #[serde(serialize_with = "serialize_display")]
    pub policy: Policy,
    /// Build names or selectors (`all`, `kind:msv`, ...).
    pub attackers: Vec<String>,
    /// Attack runs: unit or build names, `ac:N`.
    pub targets: Vec<String>,
    /// Duels: build names or selectors.
    pub opponents: Vec<String>,
    pub grid: Grid,
    /// Condition sets the time-to-kill charts show (default: open ground, stationary, no smoke).
    pub chart_conditions: Vec<ChartConditions>,
    /// Catalogue files or directories added to the active catalogue for this scenario,
    /// relative paths taken from the scenario file's directory.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loadouts_add: Vec<PathBuf>,
    /// The file it came from (`<embedded>/standard.toml` for built-in ones).
    #[serde(skip)]
    pub file: String,
    #[serde(skip)]
    positions: KeyPositions,
}

/// Where list keys were written, for errors found when resolving names.
#[derive(Debug, Clone, PartialEq, Default)]
struct KeyPositions {
    attackers: Vec<Option<Position>>,
    targets: Vec<Option<Position>>,
    opponents: Vec<Option<Position>>,
}

fn serialize_trials<S: serde::Serializer>(t: &Trials, s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut m = s.serialize_map(None)?;
    match *t {
        Trials::Fixed(n) => m.serialize_entry("trials", &n)?,
        Trials::Precision { half_width, max } => {
            m.serialize_entry("precision", &half_width)?;
            m.serialize_entry("max_trials", &max)?;
        }
    }
    m.end()
}

fn serialize_display<S: serde::Serializer, T: std::fmt::Display>(t: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(t)
}

/// The TOML text of the built-in scenario `name`, as shipped.
pub fn embedded_text(name: &str) -> Option<&'static str> {
    EMBEDDED.get_file(format!("{name}.toml")).and_then(|f| f.contents_utf8())
}

/// Whether a scenario argument names a file rather than a built-in scenario: it ends in
/// `.toml`, contains a path separator, or exists as a regular file. Anything else (a
/// directory of that name included) is the name of a built-in scenario.
pub fn is_scenario_path(spec: &str) -> bool {
    spec.ends_with(".toml") || spec.contains(['/', std::path::MAIN_SEPARATOR]) || Path::new(spec).is_file()
}

/// Names of the scenarios built into the binary.
pub fn embedded_names() -> Vec<String> {
    let mut names: Vec<String> = EMBEDDED
        .files()
        .filter(|f| f.path().extension().is_some_and(|e| e == "toml"))
        .filter_map(|f| f.path().file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    names.sort();
    names
}

impl Scenario {
    /// Load a scenario: a path to a TOML file, or the name of a built-in scenario (see
    /// [`is_scenario_path`] for the rule). Relative `loadouts_add` paths of a file are
    /// taken from the file's directory.
    pub fn load(spec: &str) -> Result<Scenario, CatalogErrors> {
        if is_scenario_path(spec) {
            let path = Path::new(spec);
            let text = std::fs::read_to_string(path)
                .map_err(|e| CatalogErrors(vec![CatalogError::new(spec, format!("cannot read scenario: {e}"))]))?;
            let mut scenario = Scenario::parse(spec, &text)?;
            let dir = path.parent().unwrap_or(Path::new(""));
            for p in &mut scenario.loadouts_add {
                if p.is_relative() {
                    *p = dir.join(&*p);
                }
            }
            return Ok(scenario);
        }
        match embedded_text(spec) {
            Some(text) => Scenario::parse(&format!("<embedded>/{spec}.toml"), text),
            None => Err(CatalogErrors(vec![CatalogError::new(
                spec,
                format!(
                    "no built-in scenario `{spec}`{} (built in: {}); to run a scenario file, give its path: \
                     a name ending in .toml or containing a /, e.g. ./{spec}",
                    did_you_mean(spec, embedded_names().iter().map(String::as_str)),
                    embedded_names().join(", "),
                ),
            )])),
        }
    }

    /// Parse and check a scenario file's text. Every error names the file, line and key.
    pub fn parse(file: &str, text: &str) -> Result<Scenario, CatalogErrors> {
        let entry = parse_toml_document(file, Section::SCENARIO, text).map_err(CatalogErrors)?;
        let mut errors = Vec::new();
        let mut f = Fields::new(&entry, &mut errors);
        let name = f.string("name", true).unwrap_or_default();
        if name.contains(['/', '\\']) || name.starts_with('.') {
            let pos = f.position_of("name");
            f.error(Some("name"), pos, "a scenario name becomes a directory name: no slashes, no leading dot");
        }
        let description = f.string("description", false);
        let engagement = match f.string("engagement", false).as_deref() {
            None | Some("attack-run") => Engagement::AttackRun,
            Some("duel") => Engagement::Duel,
            Some(other) => {
                let pos = f.position_of("engagement");
                f.error(Some("engagement"), pos, format!("unknown engagement `{other}`: expected attack-run or duel"));
                Engagement::AttackRun
            }
        };
        let seed = f.int("seed", Some(1), 0, i64::MAX) as u64;
        let trials = if f.has("precision") {
            if f.has("trials") {
                let pos = f.position_of("trials");
                f.error(Some("trials"), pos, "give either trials or precision, not both");
            }
            let pos = f.position_of("precision");
            let half_width = f.number("precision", Some(0.0));
            let max = f.int("max_trials", Some(10_000_000), 1, MAX_TRIALS as i64) as u64;
            let t = Trials::Precision { half_width, max };
            if let Err(e) = t.validate() {
                f.error(Some("precision"), pos, e);
            }
            t
        } else {
            Trials::Fixed(f.int("trials", Some(100_000), 1, MAX_TRIALS as i64) as u64)
        };
        let max_turns = f.int("max_turns", Some(DEFAULT_MAX_TURNS as i64), 1, MAX_TURNS_LIMIT as i64) as u32;
        let policy = parse_value::<Policy>(&mut f, "policy").unwrap_or_default();
        let (attackers, attacker_pos) = names(&mut f, "attackers");
        let (targets, target_pos) = names(&mut f, "targets");
        let (opponents, opponent_pos) = names(&mut f, "opponents");
        match engagement {
            Engagement::AttackRun => {
                require_nonempty(&mut f, "targets", &targets, "an attack-run scenario needs targets = [...]");
                if !opponents.is_empty() {
                    let pos = f.position_of("opponents");
                    f.error(Some("opponents"), pos, "opponents are for duel scenarios; an attack run has targets");
                }
            }
            Engagement::Duel => {
                require_nonempty(&mut f, "opponents", &opponents, "a duel scenario needs opponents = [...]");
                if !targets.is_empty() {
                    let pos = f.position_of("targets");
                    f.error(Some("targets"), pos, "targets are for attack-run scenarios; a duel has opponents");
                }
            }
        }
        require_nonempty(&mut f, "attackers", &attackers, "a scenario needs attackers = [...]");
        let grid = f.table("grid", read_grid).unwrap_or_default();
        let loadouts_add = f.string_list("loadouts_add").into_iter().map(|(p, _)| PathBuf::from(p)).collect();
        let chart_conditions = f
            .table("charts", |c| {
                let sets = c.table_list("ttk_conditions", |t| {
                    let set = ChartConditions {
                        range: t.has("range").then(|| t.number("range", Some(0.0))),
                        cover: parse_value(t, "cover"),
                        smoke: parse_value(t, "smoke"),
                        movement: parse_value(t, "movement"),
                        status: parse_value(t, "status"),
                    };
                    t.reject_unknown(GRID_KEYS);
                    Some(set)
                });
                c.reject_unknown(CHART_KEYS);
                sets
            })
            .unwrap_or_default();
        for (i, set) in chart_conditions.iter().enumerate() {
            let key = format!("charts.ttk_conditions[{i}]");
            let pos = f.position_of("charts");
            let missing = [
                set.range.filter(|r| !grid.range.contains(r)).map(|r| format!("range {r}")),
                set.cover.filter(|c| !grid.cover.contains(c)).map(|c| format!("cover {c}")),
                set.smoke.filter(|c| !grid.smoke.contains(c)).map(|c| format!("smoke {c}")),
                set.movement.filter(|c| !grid.movement.contains(c)).map(|c| format!("movement {c}")),
                set.status.filter(|c| !grid.status.contains(c)).map(|c| format!("status {c}")),
            ];
            for m in missing.into_iter().flatten() {
                f.error(Some(&key), pos, format!("{m} is not in the grid, so no cell would be charted"));
            }
        }
        let ok = f.finish(SCENARIO_KEYS);
        if !ok {
            return Err(CatalogErrors(errors));
        }
        Ok(Scenario {
            name,
            description,
            engagement,
            seed,
            trials,
            max_turns,
            policy,
            attackers,
            targets,
            opponents,
            grid,
            chart_conditions: if chart_conditions.is_empty() {
                vec![ChartConditions::default()]
            } else {
                chart_conditions
            },
            loadouts_add,
            file: file.to_string(),
            positions: KeyPositions { attackers: attacker_pos, targets: target_pos, opponents: opponent_pos },
        })
    }

    /// Resolve names and selectors against the catalogue.
    pub fn resolve(&self, catalogue: &Catalogue) -> Result<Resolved, CatalogErrors> {
        let mut errors = Vec::new();
        let attackers =
            self.select_builds(catalogue, "attackers", &self.attackers, &self.positions.attackers, &mut errors);
        let opponents =
            self.select_builds(catalogue, "opponents", &self.opponents, &self.positions.opponents, &mut errors);
        let mut targets = Vec::new();
        for (i, t) in self.targets.iter().enumerate() {
            match TargetSpec::parse(t).and_then(|spec| spec.resolve(catalogue).map(|_| spec)) {
                Ok(spec) => {
                    if !targets.contains(&spec) {
                        targets.push(spec)
                    }
                }
                Err(msg) => errors.push(self.error(
                    &format!("targets[{i}]"),
                    self.positions.targets.get(i).copied().flatten(),
                    msg,
                )),
            }
        }
        // Every selector selects something or is an error; an empty list never runs.
        let empty = [
            ("attackers", attackers.is_empty()),
            ("opponents", self.engagement == Engagement::Duel && opponents.is_empty()),
            ("targets", self.engagement == Engagement::AttackRun && targets.is_empty()),
        ];
        for (key, is_empty) in empty {
            if is_empty && errors.is_empty() {
                errors.push(self.error(
                    key,
                    None,
                    format!("selects nothing: a scenario with no {key} has nothing to run"),
                ));
            }
        }
        if errors.is_empty() { Ok(Resolved { attackers, targets, opponents }) } else { Err(CatalogErrors(errors)) }
    }

    fn error(&self, key: &str, position: Option<Position>, message: String) -> CatalogError {
        CatalogError::new(&self.file, message).at(position).entry(format!("scenario \"{}\"", self.name)).field(key)
    }

    fn select_builds(
        &self,
        catalogue: &Catalogue,
        key: &str,
        items: &[String],
        positions: &[Option<Position>],
        errors: &mut Vec<CatalogError>,
    ) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let pos = positions.get(i).copied().flatten();
            let selected: Result<Vec<String>, String> = if item == "all" {
                let v: Vec<String> = catalogue.builds.iter().map(|b| b.name.clone()).collect();
                if v.is_empty() {
                    Err(format!("`all` selects no build: the {} has no builds", catalogue.origin))
                } else {
                    Ok(v)
                }
            } else if let Some(kind) = item.strip_prefix("kind:") {
                match kind.parse::<UnitKind>() {
                    Ok(k) => {
                        let v: Vec<String> = catalogue
                            .builds
                            .iter()
                            .filter(|b| catalogue.unit_of(b).kind == k)
                            .map(|b| b.name.clone())
                            .collect();
                        if v.is_empty() {
                            Err(format!(
                                "`{item}` selects no build: no build in the {} has a unit of kind {k}",
                                catalogue.origin
                            ))
                        } else {
                            Ok(v)
                        }
                    }
                    Err(e) => Err(format!("`{item}`: {e}")),
                }
            } else {
                catalogue.find_build(item).map(|b| vec![b.name.clone()])
            };
            match selected {
                Ok(v) => {
                    for name in v {
                        if !out.contains(&name) {
                            out.push(name);
                        }
                    }
                }
                Err(msg) => errors.push(self.error(&format!("{key}[{i}]"), pos, msg)),
            }
        }
        out
    }
}

/// A scenario's builds and targets, checked against a catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub attackers: Vec<String>,
    pub targets: Vec<TargetSpec>,
    pub opponents: Vec<String>,
}

fn names(f: &mut Fields<'_>, key: &str) -> (Vec<String>, Vec<Option<Position>>) {
    f.string_list(key).into_iter().unzip()
}

fn require_nonempty(f: &mut Fields<'_>, key: &str, list: &[String], message: &str) {
    if list.is_empty() && !f.is_bad(key) {
        let pos = f.position_of(key);
        let msg = if f.has(key) { format!("must not be empty: {message}") } else { message.to_string() };
        f.error(Some(key), pos, msg);
    }
}

/// A string field parsed with `FromStr`; errors recorded at the field.
fn parse_value<T: std::str::FromStr<Err = String>>(f: &mut Fields<'_>, key: &str) -> Option<T> {
    let pos = f.position_of(key);
    let text = f.string(key, false)?;
    match text.parse::<T>() {
        Ok(v) => Some(v),
        Err(e) => {
            f.error(Some(key), pos, e);
            None
        }
    }
}

fn read_grid(g: &mut Fields<'_>) -> Grid {
    let default = Grid::default();
    let range = axis_numbers(g, "range", default.range);
    let cover = axis(g, "cover", default.cover);
    let smoke = axis(g, "smoke", default.smoke);
    let movement = axis(g, "movement", default.movement);
    let status = axis(g, "status", default.status);
    g.reject_unknown(GRID_KEYS);
    Grid { range, cover, smoke, movement, status }
}

fn axis_numbers(g: &mut Fields<'_>, key: &str, default: Vec<f64>) -> Vec<f64> {
    if !g.has(key) {
        return default;
    }
    let pos = g.position_of(key);
    let values = g.number_list(key);
    if values.is_empty() && !g.is_bad(key) {
        g.error(Some(key), pos, "an axis must list at least one value (leave the key out for the default)");
    }
    let mut out = Vec::new();
    for (v, p) in values {
        if !(v.is_finite() && (0.0..=100_000.0).contains(&v)) {
            g.error(Some(key), p, format!("range must be between 0 and 100000 inches, got {v}"));
        } else if out.contains(&v) {
            g.error(Some(key), p, format!("{v} is listed twice"));
        } else {
            out.push(v);
        }
    }
    out
}

fn axis<T: std::str::FromStr<Err = String> + PartialEq>(g: &mut Fields<'_>, key: &str, default: Vec<T>) -> Vec<T> {
    if !g.has(key) {
        return default;
    }
    let pos = g.position_of(key);
    let values = g.string_list(key);
    if values.is_empty() && !g.is_bad(key) {
        g.error(Some(key), pos, "an axis must list at least one value (leave the key out for the default)");
    }
    let mut out = Vec::new();
    for (text, p) in values {
        match text.parse::<T>() {
            Ok(v) if out.contains(&v) => g.error(Some(key), p, format!("`{text}` is listed twice")),
            Ok(v) => out.push(v),
            Err(e) => g.error(Some(key), p, e),
        }
    }
    out
}
