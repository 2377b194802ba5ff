//! Scenario files: what a sweep plays. Parsed with positions, checked once against the
//! ruleset's axes, policies and options, and resolved against the catalogue (names
//! checked, selectors expanded) before anything runs. This room names no ruleset: a
//! scenario's `ruleset` key picks one, and the ruleset's [`Ruleset`] says what its grid
//! and names mean.

use std::path::{Path, PathBuf};

use include_dir::{Dir, include_dir};

use super::limits;
use crate::catalogue::error::{CatalogError, CatalogErrors, Position, did_you_mean};
use crate::catalogue::fields::Fields;
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::{RawValue, Section, parse_toml_document};
use crate::engine::Trials;
use crate::engine::runner::MAX_TRIALS;
use crate::rules::RulesetId;
use crate::rules::axis::{AxisSpec, Point};
use crate::rules::battle::BattleSetup;
use crate::rules::ruleset::{Role, RuleOptions, Ruleset};

use super::forces::{Generate, Generated, generate, named_force};

/// Every axis and flag of `R`, in point order.
pub fn all_specs<R: Ruleset>() -> Vec<crate::rules::AxisSpec> {
    R::axes().iter().chain(R::flags()).copied().collect()
}

/// The `scenarios/` directory as built into the binary.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/scenarios");

/// The scenario `volley sweep` runs with no argument for the default ruleset
/// (TechCommander); see [`standard_scenario`] for the others.
pub const DEFAULT_SCENARIO: &str = "standard";

/// The built-in scenario `volley sweep` and `volley diff` play for `ruleset` when no
/// scenario is given: [`DEFAULT_SCENARIO`] (`standard`) for the default ruleset,
/// `<ruleset>-standard` (`mechcom-standard`, ...) for every other. Every registered
/// ruleset ships one in `scenarios/` (a test checks it). `ruleset` is the ruleset's id
/// (`Ruleset::NAME`).
pub fn standard_scenario(ruleset: &str) -> String {
    if ruleset == RulesetId::default().name() { DEFAULT_SCENARIO.to_string() } else { format!("{ruleset}-standard") }
}

/// The most turns (or rounds) an engagement may be capped at.
pub const MAX_TURNS_LIMIT: u32 = 1000;

/// Longest scenario `name`, in bytes: it becomes the report directory's name, and a file
/// system takes at most 255 bytes per name, less what staging adds around it.
pub const MAX_NAME_BYTES: usize = 200;

/// The turn cap when none is given.
pub const DEFAULT_MAX_TURNS: u32 = 20;

/// Every key a scenario file may have.
pub const SCENARIO_KEYS: &[&str] = &[
    "ruleset",
    "name",
    "description",
    "engagement",
    "seed",
    "trials",
    "precision",
    "max_trials",
    "max_turns",
    "policy",
    "options",
    "attackers",
    "targets",
    "opponents",
    "grid",
    "charts",
    "loadouts_add",
    "mode",
    "forces",
    "generate",
    "players",
    "teams",
    "seatings",
    "vary",
];
/// Every key of `[charts]`.
pub const CHART_KEYS: &[&str] = &["ttk_conditions"];

/// What a sweep plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engagement {
    AttackRun,
    Duel,
    /// Whole forces fight turn by turn ([`BattleSpec`]).
    Battle,
}

impl Engagement {
    pub fn name(self) -> &'static str {
        match self {
            Engagement::AttackRun => "attack-run",
            Engagement::Duel => "duel",
            Engagement::Battle => "battle",
        }
    }
}

/// The axes of the grid, each with the canonical values to play, in the ruleset's axis
/// order; the sweep plays their Cartesian product.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub axes: Vec<(&'static str, Vec<String>)>,
}

impl Grid {
    /// One point: every axis at its default.
    pub fn defaults(specs: &[AxisSpec]) -> Grid {
        Grid { axes: specs.iter().map(|s| (s.name, vec![s.default.to_string()])).collect() }
    }

    /// The values of axis `name` (empty when the grid has no such axis).
    pub fn values(&self, name: &str) -> &[String] {
        self.axes.iter().find(|(n, _)| *n == name).map_or(&[], |(_, v)| v.as_slice())
    }

    /// Every point of the grid, in a fixed order (the first axis varies slowest), with
    /// `fixed` values (axis or flag name, text) for what the grid does not vary and the
    /// defaults of the rest of `all` (the ruleset's axes then flags).
    ///
    /// # Errors
    /// A value that is not a value of its axis.
    pub fn expand(&self, all: &[AxisSpec], fixed: &[(&str, String)]) -> Result<Vec<Point>, Vec<String>> {
        let mut points: Vec<Vec<(&str, String)>> = vec![fixed.to_vec()];
        for (name, values) in &self.axes {
            let mut next = Vec::with_capacity(points.len() * values.len());
            for p in &points {
                for v in values {
                    let mut q = p.clone();
                    q.push((name, v.clone()));
                    next.push(q);
                }
            }
            points = next;
        }
        points.iter().map(|p| Point::new(all, p)).collect()
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.axes.iter().map(|(_, v)| v.len()).product()
    }

    /// Whether the grid has no point (an axis with no value).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A scenario as written: checked against its ruleset, names not yet resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The ruleset's id (the `ruleset` key, or the one the command line chose).
    pub ruleset: &'static str,
    pub name: String,
    pub description: Option<String>,
    pub engagement: Engagement,
    pub seed: u64,
    pub trials: Trials,
    pub max_turns: u32,
    /// The ruleset's policy, canonical text.
    pub policy: String,
    /// `[options]`: the ruleset's options as written (`NAME`, value text), checked.
    pub options: Vec<(String, String)>,
    /// Names or selectors (`all`, `kind:msv`, ...).
    pub attackers: Vec<String>,
    /// Attack runs: target names (the ruleset's own forms of target included).
    pub targets: Vec<String>,
    /// Duels: names or selectors.
    pub opponents: Vec<String>,
    pub grid: Grid,
    /// Condition sets the time-to-kill charts show, as (axis, canonical value); an
    /// axis left out takes the grid's first value.
    pub chart_conditions: Vec<Vec<(String, String)>>,
    /// Catalogue files or directories added to the active catalogue for this scenario,
    /// relative paths taken from the scenario file's directory.
    pub loadouts_add: Vec<PathBuf>,
    /// Battles: mode, policy, cap and forces; `None` for other engagements.
    pub battle: Option<BattleSpec>,
    /// `[vary]`: catalogue stats to vary (a sensitivity sweep; see [`super::vary`]).
    pub vary: Vec<super::vary_axis::VaryAxis>,
    /// The file it came from (`<embedded>/standard.toml` for built-in ones).
    pub file: String,
    positions: KeyPositions,
}

/// What a battle scenario (`engagement = "battle"`) plays.
#[derive(Debug, Clone, PartialEq)]
pub struct BattleSpec {
    /// One of the ruleset's battle modes (`mode`; default the ruleset's first).
    pub mode: String,
    /// A battle policy of the ruleset (`policy`), canonical; `None` = its default.
    pub policy: Option<String>,
    /// Turn cap (`max_turns`); `None` = the mode's own default.
    pub max_turns: Option<u32>,
    /// `forces = [...]`: `[[force]]` names or `BUILD+2*BUILD` text, as written.
    pub forces: Vec<String>,
    /// `generate = { ... }`: forces made from the catalogue's builds.
    pub generate: Option<Generate>,
    /// `players = N` (default 2): forces in each battle; 3 or more play every
    /// combination of N distinct forces as a free-for-all ([`super::battle_seats`]).
    pub players: u32,
    /// `teams = K` or `teams = [["A", "C"], ["B", "D"]]` (deathmatch, players >= 3): the
    /// team label of each seat, canonical ([`super::battle_teams`]); `None` without.
    pub teams: Option<Vec<usize>>,
    /// `seatings` (players = 3 or more): the seat orders of each matchup
    /// ([`super::seatings`]; default fixed, the force order).
    pub seatings: super::seatings::Seatings,
}

/// Where list keys were written, for errors found when resolving names.
#[derive(Debug, Clone, PartialEq, Default)]
struct KeyPositions {
    attackers: Vec<Option<Position>>,
    targets: Vec<Option<Position>>,
    opponents: Vec<Option<Position>>,
    forces: Vec<Option<Position>>,
    generate: Option<Position>,
    seatings: Option<Position>,
}

/// A scenario file's text, read but not parsed: its ruleset decides how to parse it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioText {
    /// The file as messages name it.
    pub file: String,
    pub text: String,
    /// The directory relative `loadouts_add` paths are taken from.
    dir: PathBuf,
}

/// The TOML text of the built-in scenario `name`, as shipped.
pub fn embedded_text(name: &str) -> Option<&'static str> {
    EMBEDDED.get_file(format!("{name}.toml")).and_then(|f| f.contents_utf8())
}

/// Whether a scenario argument names a file rather than a built-in scenario: it ends in
/// `.toml`, contains a path separator, or exists as a regular file. Anything else (a
/// directory of that name included) is the name of a built-in scenario.
fn is_scenario_path(spec: &str) -> bool {
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

impl ScenarioText {
    /// Parse and check the scenario for ruleset `R` and resolve its names in one pass:
    /// when the file has errors, its names are still checked against the catalogue
    /// `load` gives for its `loadouts_add` (`None`: it does not load; the command
    /// reports that later), and every error is reported together, in file order.
    ///
    /// # Errors
    /// Every error of the file and every unknown name.
    pub fn parse_with_names<R: Ruleset>(
        &self,
        load: impl FnOnce(&[PathBuf]) -> Option<R::Catalogue>,
    ) -> Result<Scenario, CatalogErrors> {
        let (mut s, errors) = Scenario::parse_partial::<R>(&self.file, &self.text)?;
        self.relative_to_file(&mut s);
        if errors.is_empty() {
            return Ok(s);
        }
        let cat = load(&s.loadouts_add);
        Err(with_unknown_names::<R>(&s, errors, cat.as_ref()))
    }

    /// As [`ScenarioText::parse_with_names`], with the catalogue already in hand.
    ///
    /// # Errors
    /// Every error of the file and every unknown name.
    pub fn parse_resolving<R: Ruleset>(&self, cat: &R::Catalogue) -> Result<Scenario, CatalogErrors> {
        let mut s = Scenario::parse_resolving::<R>(&self.file, &self.text, cat)?;
        self.relative_to_file(&mut s);
        Ok(s)
    }

    /// The scenario's `loadouts_add` (taken from the file's directory), read even when
    /// other keys of the file are wrong: the catalogue it names is needed to report the
    /// file's unknown names with its other errors.
    ///
    /// # Errors
    /// The file's syntax errors, or errors of `loadouts_add` itself.
    pub fn loadouts_add<R: Ruleset>(&self) -> Result<Vec<PathBuf>, CatalogErrors> {
        let (mut s, errors) = Scenario::parse_partial::<R>(&self.file, &self.text)?;
        let own: Vec<CatalogError> =
            errors.into_iter().filter(|e| e.field.as_deref().is_some_and(|f| f.starts_with("loadouts_add"))).collect();
        if !own.is_empty() {
            return Err(CatalogErrors(own));
        }
        self.relative_to_file(&mut s);
        Ok(s.loadouts_add)
    }

    /// Relative `loadouts_add` paths taken from the file's directory.
    fn relative_to_file(&self, s: &mut Scenario) {
        for p in &mut s.loadouts_add {
            if p.is_relative() {
                *p = self.dir.join(&*p);
            }
        }
    }

    /// Read a scenario: a path to a TOML file, or the name of a built-in scenario (see
    /// [`is_scenario_path`] for the rule).
    ///
    /// # Errors
    /// A file that cannot be read, or an unknown built-in name (with the nearest names).
    pub fn load(spec: &str) -> Result<ScenarioText, CatalogErrors> {
        if is_scenario_path(spec) {
            let path = Path::new(spec);
            let text = crate::catalogue::source::read_capped(path)
                .map_err(|e| CatalogErrors(vec![CatalogError::new(spec, format!("cannot read scenario: {e}"))]))?;
            let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
            return Ok(ScenarioText { file: spec.to_string(), text, dir });
        }
        match embedded_text(spec) {
            Some(text) => Ok(ScenarioText {
                file: format!("<embedded>/{spec}.toml"),
                text: text.to_string(),
                dir: PathBuf::new(),
            }),
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

    /// The ruleset the file names with its `ruleset` key; `None` when it has none (or
    /// cannot be parsed: [`ScenarioText::parse`] then reports why).
    ///
    /// # Errors
    /// A `ruleset` that volley does not play, at its position.
    pub fn ruleset(&self) -> Result<Option<RulesetId>, CatalogErrors> {
        let Ok(entry) = parse_toml_document(&self.file, Section::SCENARIO, &self.text) else {
            return Ok(None);
        };
        let Some((_, field)) = entry.fields.iter().find(|(k, _)| k == "ruleset") else {
            return Ok(None);
        };
        let RawValue::Str(name) = &field.value else {
            return Ok(None);
        };
        name.parse::<RulesetId>()
            .map(Some)
            .map_err(|e| CatalogErrors(vec![CatalogError::new(&self.file, e).at(field.position).field("ruleset")]))
    }

    /// Parse and check the scenario for ruleset `R`. Every error names the file, line
    /// and key; relative `loadouts_add` paths are taken from the file's directory.
    ///
    /// # Errors
    /// Every error found.
    pub fn parse<R: Ruleset>(&self) -> Result<Scenario, CatalogErrors> {
        let mut s = Scenario::parse::<R>(&self.file, &self.text)?;
        self.relative_to_file(&mut s);
        Ok(s)
    }
}

/// `errors` of scenario `s` with its unknown names in `cat` (when given) added, each
/// once, in file order.
fn with_unknown_names<R: Ruleset>(
    s: &Scenario,
    mut errors: Vec<CatalogError>,
    cat: Option<&R::Catalogue>,
) -> CatalogErrors {
    if let Some(cat) = cat
        && let Err(names) = s.resolve::<R>(cat)
    {
        for e in names.0 {
            if !errors.contains(&e) {
                errors.push(e);
            }
        }
    }
    errors.sort_by_key(|e| e.position);
    CatalogErrors(errors)
}

impl Scenario {
    /// Parse and check a scenario file's text for ruleset `R` with its catalogue in hand:
    /// every error of the file and every unknown name, reported together in file order.
    ///
    /// # Errors
    /// Every error found.
    pub fn parse_resolving<R: Ruleset>(file: &str, text: &str, cat: &R::Catalogue) -> Result<Scenario, CatalogErrors> {
        let (s, errors) = Scenario::parse_partial::<R>(file, text)?;
        if errors.is_empty() { Ok(s) } else { Err(with_unknown_names::<R>(&s, errors, Some(cat))) }
    }

    /// Parse and check a scenario file's text for ruleset `R`. Every error names the
    /// file, line and key.
    ///
    /// # Errors
    /// Every error found.
    pub fn parse<R: Ruleset>(file: &str, text: &str) -> Result<Scenario, CatalogErrors> {
        let (scenario, errors) = Scenario::parse_partial::<R>(file, text)?;
        if errors.is_empty() { Ok(scenario) } else { Err(CatalogErrors(errors)) }
    }

    /// Parse a scenario that may have errors: the scenario as read (defaults where a key
    /// was bad) and every error found; `Err` only when the TOML itself is broken.
    ///
    /// # Errors
    /// The file's syntax errors.
    fn parse_partial<R: Ruleset>(file: &str, text: &str) -> Result<(Scenario, Vec<CatalogError>), CatalogErrors> {
        let entry = parse_toml_document(file, Section::SCENARIO, text).map_err(CatalogErrors)?;
        let mut errors = Vec::new();
        let mut f = Fields::new(&entry, &mut errors);
        if let Some((name, pos)) = f.scalar("ruleset")
            && !name.eq_ignore_ascii_case(R::NAME)
        {
            f.error(Some("ruleset"), pos, format!("this scenario is read as a {} scenario, not `{name}`", R::NAME));
        }
        let name = f.string("name", true).unwrap_or_default();
        if name.contains(['/', '\\']) || name.starts_with('.') {
            let pos = f.position_of("name");
            f.error(Some("name"), pos, "a scenario name becomes a directory name: no slashes, no leading dot");
        }
        if name.len() > MAX_NAME_BYTES {
            let pos = f.position_of("name");
            f.error(
                Some("name"),
                pos,
                format!("a scenario name becomes a directory name: at most {MAX_NAME_BYTES} bytes, got {}", name.len()),
            );
        }
        let description = f.string("description", false);
        let engagement = match f.string("engagement", false).as_deref() {
            None | Some("attack-run") => Engagement::AttackRun,
            Some("duel") => Engagement::Duel,
            Some("battle") => Engagement::Battle,
            Some(other) => {
                let pos = f.position_of("engagement");
                f.error(
                    Some("engagement"),
                    pos,
                    format!("unknown engagement `{other}`: expected attack-run, duel or battle"),
                );
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
        let max_turns_written = f.has("max_turns");
        let max_turns = f.int("max_turns", Some(DEFAULT_MAX_TURNS as i64), 1, MAX_TURNS_LIMIT as i64) as u32;
        let battle_policy = if engagement == Engagement::Battle { read_battle_policy::<R>(&mut f) } else { None };
        let policy = if engagement == Engagement::Battle {
            battle_policy.clone().unwrap_or_else(|| R::BATTLE_POLICIES.first().unwrap_or(&"").to_string())
        } else {
            match f.scalar("policy") {
                None => R::Policy::default().to_string(),
                Some((text, pos)) => match text.parse::<R::Policy>() {
                    Ok(p) => p.to_string(),
                    Err(e) => {
                        f.error(Some("policy"), pos, e);
                        R::Policy::default().to_string()
                    }
                },
            }
        };
        let options = f.table("options", read_options::<R>).unwrap_or_default();
        let (attackers, attacker_pos) = names(&mut f, "attackers");
        let (targets, target_pos) = names(&mut f, "targets");
        let (opponents, opponent_pos) = names(&mut f, "opponents");
        let (battle, forces_pos, generate_pos) = if engagement == Engagement::Battle {
            let (mut b, fp, gp) = read_battle::<R>(&mut f, battle_policy, max_turns_written.then_some(max_turns));
            b.teams = super::battle_teams::read_scenario_teams(&mut f, &b.mode, b.players);
            (Some(b), fp, gp)
        } else {
            for key in ["mode", "forces", "generate", "players", "seatings"] {
                if f.has(key) {
                    let pos = f.position_of(key);
                    f.error(Some(key), pos, format!("{key} is for battle scenarios (engagement = \"battle\")"));
                }
            }
            if let Some(t) = f.raw("teams") {
                f.error(Some("teams"), t.position, "teams is for battle scenarios (engagement = \"battle\")");
            }
            (None, Vec::new(), None)
        };
        match engagement {
            Engagement::Battle => {
                for key in ["attackers", "targets", "opponents"] {
                    if f.has(key) {
                        let pos = f.position_of(key);
                        f.error(Some(key), pos, format!("{key} are not for battle scenarios: a battle has forces"));
                    }
                }
            }
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
        if engagement != Engagement::Battle {
            require_nonempty(&mut f, "attackers", &attackers, "a scenario needs attackers = [...]");
        }
        let grid = f.table("grid", |g| read_grid(g, R::axes())).unwrap_or_else(|| Grid::defaults(R::axes()));
        // The grid alone is checked here, before anything expands it; with the sides and
        // trials when names are resolved (`resolve`).
        let points = limits::product(grid.axes.iter().map(|(_, v)| v.len()));
        if let Err(e) = limits::check(points, 1, &format!("the grid's {points} points")) {
            let pos = f.position_of("grid");
            f.error(Some("grid"), pos, e);
        }
        let loadouts_add = f.string_list("loadouts_add").into_iter().map(|(p, _)| PathBuf::from(p)).collect();
        let chart_conditions = f
            .table("charts", |c| {
                let sets = c.table_list("ttk_conditions", |t| Some(read_chart_set(t, R::axes())));
                c.reject_unknown(CHART_KEYS);
                sets
            })
            .unwrap_or_default();
        for (i, set) in chart_conditions.iter().enumerate() {
            let key = format!("charts.ttk_conditions[{i}]");
            let pos = f.position_of("charts");
            for (axis, v) in set {
                if !grid.values(axis).contains(v) {
                    f.error(Some(&key), pos, format!("{axis} {v} is not in the grid, so no cell would be charted"));
                }
            }
        }
        let vary = f.table("vary", super::vary_axis::read_vary).unwrap_or_default();
        let seatings_pos = f.position_of("seatings");
        f.finish(SCENARIO_KEYS);
        let scenario = Scenario {
            ruleset: R::NAME,
            name,
            description,
            engagement,
            seed,
            trials,
            max_turns,
            policy,
            options,
            attackers,
            targets,
            opponents,
            grid,
            chart_conditions: if chart_conditions.is_empty() { vec![Vec::new()] } else { chart_conditions },
            loadouts_add,
            battle,
            vary,
            file: file.to_string(),
            positions: KeyPositions {
                attackers: attacker_pos,
                targets: target_pos,
                opponents: opponent_pos,
                forces: forces_pos,
                generate: generate_pos,
                seatings: seatings_pos,
            },
        };
        Ok((scenario, errors))
    }

    /// The scenario's options as the ruleset's value.
    ///
    /// # Errors
    /// As [`RuleOptions::set`] and [`RuleOptions::validate`] (checked when parsing, so
    /// only for a scenario built by hand).
    pub fn rule_options<R: Ruleset>(&self) -> Result<R::Options, String> {
        let mut o = R::Options::default();
        for (n, v) in &self.options {
            o.set(n, v)?;
        }
        o.validate()?;
        Ok(o)
    }

    /// Resolve names and selectors against the catalogue.
    ///
    /// # Errors
    /// Every unknown name or empty selection, at its position in the file.
    pub fn resolve<R: Ruleset>(&self, catalogue: &R::Catalogue) -> Result<Resolved, CatalogErrors> {
        let mut errors = Vec::new();
        let mut pick = |key: &str, role: Role, items: &[String], positions: &[Option<Position>]| {
            let mut out: Vec<String> = Vec::new();
            for (i, item) in items.iter().enumerate() {
                match R::select(catalogue, role, item) {
                    Ok(v) => {
                        for name in v {
                            if !out.contains(&name) {
                                out.push(name);
                            }
                        }
                    }
                    Err(msg) => {
                        errors.push(self.error(&format!("{key}[{i}]"), positions.get(i).copied().flatten(), msg))
                    }
                }
            }
            out
        };
        if self.engagement == Engagement::Battle {
            let (forces, generated) = self.resolve_forces::<R>(catalogue, &mut errors);
            if errors.is_empty() && forces.len() < 2 {
                errors.push(self.error("forces", None, "a battle scenario needs at least two distinct forces".into()));
            }
            let players = self.battle.as_ref().map_or(2, |b| b.players) as usize;
            if errors.is_empty() && forces.len() < players {
                errors.push(self.error(
                    "players",
                    None,
                    format!("players = {players} needs at least {players} distinct forces, got {}", forces.len()),
                ));
            }
            if let Some(b) = &self.battle
                && errors.is_empty()
                && b.seatings != super::seatings::Seatings::Fixed
                && let Err(e) = b.seatings.check(forces.len(), players)
            {
                errors.push(self.error("seatings", self.positions.seatings, e));
            }
            if errors.is_empty() {
                let points = self.points();
                let what = format!(
                    "{} forces at the grid's {points} point{}",
                    forces.len(),
                    if points == 1 { "" } else { "s" }
                );
                if let Err(e) = limits::check(self.battle_cells(forces.len()), self.trials_per_cell(), &what) {
                    let (key, pos) = match self.positions.generate {
                        Some(p) => ("generate", Some(p)),
                        None => ("forces", None),
                    };
                    errors.push(self.error(key, pos, e));
                }
            }
            return if errors.is_empty() {
                Ok(Resolved { forces, generated, ..Resolved::default() })
            } else {
                Err(CatalogErrors(errors))
            };
        }
        let attackers = pick("attackers", Role::Attacker, &self.attackers, &self.positions.attackers);
        let opponents = pick("opponents", Role::Opponent, &self.opponents, &self.positions.opponents);
        let targets = pick("targets", Role::Target, &self.targets, &self.positions.targets);
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
        if errors.is_empty() {
            let sides = match self.engagement {
                Engagement::Duel => opponents.len(),
                _ => targets.len(),
            };
            let what = format!(
                "the grid's {} points × {} attackers × {sides} {}",
                self.points(),
                attackers.len(),
                if self.engagement == Engagement::Duel { "opponents" } else { "targets" }
            );
            let cells = limits::product([attackers.len(), sides]).saturating_mul(self.points());
            if let Err(e) = limits::check(cells, self.trials_per_cell(), &what) {
                errors.push(self.error("grid", None, e));
            }
        }
        if errors.is_empty() {
            Ok(Resolved { attackers, targets, opponents, ..Resolved::default() })
        } else {
            Err(CatalogErrors(errors))
        }
    }

    /// Points of the grid (saturating).
    fn points(&self) -> u64 {
        limits::product(self.grid.axes.iter().map(|(_, v)| v.len()))
    }

    /// Most trials one cell may play: the fixed count, or the precision's maximum.
    fn trials_per_cell(&self) -> u64 {
        match self.trials {
            Trials::Fixed(n) => n,
            Trials::Precision { max, .. } => max,
        }
    }

    /// The cells of a battle sweep of `forces` forces: every ordered pair, or with
    /// three or more players every matchup in each of its seatings, at every point.
    fn battle_cells(&self, forces: usize) -> u64 {
        let Some(b) = &self.battle else { return 0 };
        let players = b.players as usize;
        let matchups: u128 = if players <= 2 {
            (forces as u128) * (forces.saturating_sub(1) as u128)
        } else {
            // n choose p, saturating.
            (0..players).fold(1u128, |acc, i| acc.saturating_mul(forces.saturating_sub(i) as u128) / (i as u128 + 1))
                * b.seatings.count(players).min(u64::MAX as u128)
        };
        u64::try_from(matchups).unwrap_or(u64::MAX).saturating_mul(self.points())
    }

    /// A battle scenario's forces: those listed, then the generated ones, each once (by
    /// canonical text). Each listed force is compiled once against itself at the grid's
    /// first point, so an unknown build or a force over budget is an error at its key.
    fn resolve_forces<R: Ruleset>(
        &self,
        catalogue: &R::Catalogue,
        errors: &mut Vec<CatalogError>,
    ) -> (Vec<ForceSpec>, Option<Generated>) {
        let Some(b) = &self.battle else { return (Vec::new(), None) };
        let mut out: Vec<ForceSpec> = Vec::new();
        // The first point only: the grid may be far too large to expand whole.
        let first_values =
            Grid { axes: self.grid.axes.iter().map(|(n, v)| (*n, v.iter().take(1).cloned().collect())).collect() };
        let first = first_values.expand(&all_specs::<R>(), &[]).ok().and_then(|p| p.into_iter().next());
        let conditions = first.and_then(|p| R::conditions(&p).ok());
        let options = self.rule_options::<R>().ok();
        for (i, text) in b.forces.iter().enumerate() {
            let pos = self.positions.forces.get(i).copied().flatten();
            let key = format!("forces[{i}]");
            let force = match named_force::<R>(catalogue, text) {
                Ok(f) => f,
                Err(e) => {
                    errors.push(self.error(&key, pos, format!("force `{text}`: {e}")));
                    continue;
                }
            };
            if let (Some(c), Some(o)) = (&conditions, &options) {
                let forces = [force.clone(), force.clone()];
                let setup = BattleSetup {
                    mode: &b.mode,
                    forces: &forces,
                    conditions: &[*c, *c],
                    options: o,
                    policy: b.policy.as_deref(),
                    max_turns: b.max_turns,
                };
                if let Err(e) = R::battle(catalogue, &setup) {
                    errors.push(self.error(&key, pos, e));
                    continue;
                }
            }
            if !out.iter().any(|f| f.canonical() == force.canonical()) {
                out.push(force);
            }
        }
        let generated = match &b.generate {
            None => None,
            Some(g) => match generate::<R>(catalogue, g) {
                Ok(g) => {
                    for f in &g.forces {
                        if !out.iter().any(|o| o.canonical() == f.canonical()) {
                            out.push(f.clone());
                        }
                    }
                    Some(g)
                }
                Err(e) => {
                    errors.push(self.error("generate", self.positions.generate, e));
                    None
                }
            },
        };
        (out, generated)
    }

    fn error(&self, key: &str, position: Option<Position>, message: String) -> CatalogError {
        CatalogError::new(&self.file, message).at(position).entry(format!("scenario \"{}\"", self.name)).field(key)
    }
}

/// A scenario's names, checked against a catalogue and selectors expanded.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Resolved {
    pub attackers: Vec<String>,
    pub targets: Vec<String>,
    pub opponents: Vec<String>,
    /// Battles: every force, listed ones first, then generated ones, each once.
    pub forces: Vec<ForceSpec>,
    /// Battles: the generated forces and whether the limit left some out.
    pub generated: Option<Generated>,
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

/// `[options]`: `NAME = value` per option of the ruleset.
fn read_options<R: Ruleset>(t: &mut Fields<'_>) -> Vec<(String, String)> {
    let mut o = R::Options::default();
    let mut out = Vec::new();
    for key in t.keys() {
        let Some((value, pos)) = t.scalar(&key) else { continue };
        match o.set(&key, &value) {
            Ok(()) => out.push((key, value)),
            Err(e) => t.error(Some(&key), pos, e),
        }
    }
    if let Err(e) = o.validate() {
        let pos = t.position();
        t.error(None, pos, e);
    }
    out
}

fn read_grid(g: &mut Fields<'_>, specs: &[AxisSpec]) -> Grid {
    let mut grid = Grid::defaults(specs);
    for (name, values) in &mut grid.axes {
        if !g.has(name) {
            continue;
        }
        let spec = specs.iter().find(|s| s.name == *name).expect("an axis of the grid");
        let pos = g.position_of(name);
        let read = g.scalar_list(name);
        if read.is_empty() && !g.is_bad(name) {
            g.error(Some(name), pos, "an axis must list at least one value (leave the key out for the default)");
        }
        let mut out: Vec<String> = Vec::new();
        for (text, p) in read {
            match spec.canonical(&text) {
                Ok(v) if out.contains(&v) => g.error(Some(name), p, format!("`{text}` is listed twice")),
                Ok(v) => out.push(v),
                Err(e) => g.error(Some(name), p, e),
            }
        }
        if !out.is_empty() {
            *values = out;
        }
    }
    let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
    g.reject_unknown(&known);
    grid
}

fn read_chart_set(t: &mut Fields<'_>, specs: &[AxisSpec]) -> Vec<(String, String)> {
    let mut set = Vec::new();
    for spec in specs {
        let Some((text, pos)) = t.scalar(spec.name) else { continue };
        match spec.canonical(&text) {
            Ok(v) => set.push((spec.name.to_string(), v)),
            Err(e) => t.error(Some(spec.name), pos, e),
        }
    }
    let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
    t.reject_unknown(&known);
    set
}

/// A battle scenario's `policy`: one of the ruleset's battle policies, canonical;
/// `None` when not written (the ruleset's default).
fn read_battle_policy<R: Ruleset>(f: &mut Fields<'_>) -> Option<String> {
    let (text, pos) = f.scalar("policy")?;
    match R::BATTLE_POLICIES.iter().find(|p| p.eq_ignore_ascii_case(text.trim())) {
        Some(p) => Some(p.to_string()),
        None => {
            f.error(
                Some("policy"),
                pos,
                format!("unknown battle policy `{text}`: expected one of {}", R::BATTLE_POLICIES.join(", ")),
            );
            None
        }
    }
}

/// The battle keys of a battle scenario: `mode`, `forces`, `generate`.
fn read_battle<R: Ruleset>(
    f: &mut Fields<'_>,
    policy: Option<String>,
    max_turns: Option<u32>,
) -> (BattleSpec, Vec<Option<Position>>, Option<Position>) {
    use super::forces::{MAX_GENERATED_FORCES, MAX_GENERATED_UNITS};
    if R::BATTLE_MODES.is_empty() {
        let pos = f.position_of("engagement");
        f.error(Some("engagement"), pos, format!("battles are not available for {} yet", R::LABEL));
    }
    let default_mode = R::BATTLE_MODES.first().map_or("", |m| m.name);
    let mode = match f.scalar("mode") {
        None => default_mode.to_string(),
        Some((text, pos)) => match crate::rules::battle::find_mode(R::BATTLE_MODES, &text) {
            Ok(m) => m.name.to_string(),
            Err(e) => {
                f.error(Some("mode"), pos, e);
                default_mode.to_string()
            }
        },
    };
    let players_pos = f.position_of("players");
    let players = f.int("players", Some(2), 2, crate::engine::battle::MAX_SIDES as i64) as u32;
    if let Some(m) = R::BATTLE_MODES.iter().find(|m| m.name == mode)
        && (players as usize) > m.sides.1
    {
        f.error(
            Some("players"),
            players_pos,
            format!("a {} takes {} to {} forces, not players = {players}", m.name, m.sides.0, m.sides.1),
        );
    }
    let seatings = read_seatings(f, players);
    let (forces, forces_pos) = names(f, "forces");
    let generate_pos = f.position_of("generate");
    let has_generate = f.has("generate");
    let generate = f.table("generate", |g| {
        let budget = g.positive_number("budget");
        if budget.is_none() && !g.is_bad("budget") {
            let pos = g.position();
            g.error(Some("budget"), pos, "generated forces need a budget (points, > 0)");
        }
        let max_units = g.int("max_units", Some(4), 1, MAX_GENERATED_UNITS as i64) as u32;
        let limit = g.int("limit", Some(20), 1, MAX_GENERATED_FORCES as i64) as u32;
        let mut builds: Vec<String> = g.string_list("builds").into_iter().map(|(b, _)| b).collect();
        if builds.is_empty() {
            builds.push("all".into());
        }
        g.reject_unknown(&["budget", "max_units", "limit", "builds"]);
        budget.map(|budget| Generate { budget, max_units, limit, builds })
    });
    let generate = generate.flatten();
    if forces.is_empty() && !has_generate && !f.is_bad("forces") {
        let pos = f.position_of("forces");
        f.error(
            Some("forces"),
            pos,
            "a battle scenario needs forces = [...] or generate = { budget = ..., max_units = ..., limit = ... }",
        );
    }
    (BattleSpec { mode, policy, max_turns, forces, generate, players, teams: None, seatings }, forces_pos, generate_pos)
}

/// A battle scenario's `seatings`: fixed (the default), or with `players` >= 3 rotate or
/// all.
fn read_seatings(f: &mut Fields<'_>, players: u32) -> super::seatings::Seatings {
    use super::seatings::Seatings;
    let Some((text, pos)) = f.scalar("seatings") else { return Seatings::Fixed };
    match Seatings::parse(&text) {
        Ok(s) if s != Seatings::Fixed && players < 3 => {
            f.error(
                Some("seatings"),
                pos,
                format!("seatings = \"{}\" is for players = 3 or more: two-player sweeps already play both orders of every pair", s.name()),
            );
            Seatings::Fixed
        }
        Ok(s) => s,
        Err(e) => {
            f.error(Some("seatings"), pos, e);
            Seatings::Fixed
        }
    }
}
