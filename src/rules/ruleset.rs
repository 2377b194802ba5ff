//! The ruleset boundary: everything the shared rooms (catalogue reader, engine, sweep,
//! output, charts, command line) need from a game, and nothing more.
//!
//! A ruleset is a zero-sized type implementing [`Ruleset`]. The command line picks one
//! with a single `match` on [`super::RulesetId`] and calls generic code with it, so every
//! kernel is a concrete type and the hot loops stay monomorphic: no dynamic dispatch per
//! action. The ruleset owns its catalogue sections and checks, its condition axes, its
//! options (rulings and edition), its compiled kernels and exact solvers, and its detail
//! tables; the shared rooms see names, canonical `axis=value` pairs, kernels and tallies.

use std::fmt::{Debug, Display};
use std::str::FromStr;

use serde_json::Value;

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Kind, Table};
use crate::stats::{DuelTally, ExactDuelOdds, ExactTtk, Metric, PairedTally, TtkTally};

use super::axis::{AxisSpec, Point};
use super::battle::{BattleInfo, BattleMode, BattleSetup};
use super::kit::options::{self, Declared, OptionError};
use crate::catalogue::force::ForceSpec;
use crate::engine::Kernel;
use crate::engine::battle::BattleTally;

/// One ruling or switch of a ruleset, for `volley rulesets` and manifests.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionSpec {
    /// `NAME` as written on the command line (`--option NAME=value`) and in scenarios.
    pub name: String,
    /// The documented default, as canonical text.
    pub default: String,
    /// The values it takes ("true or false (on/off)", "a whole number from 0 to 100").
    pub values: String,
    /// One line: what it rules and where the rules document discusses it.
    pub help: String,
}

/// A ruleset's options: its rulings and edition as a runtime value, declared once on the
/// kit's option table ([`crate::rule_options!`]); every method is the kit's.
pub trait RuleOptions: Declared + Clone + Default + Debug + Send + Sync {
    /// Every option with its default, values and help, in a stable order.
    fn specs() -> Vec<OptionSpec> {
        Self::defs()
            .iter()
            .map(|d| OptionSpec {
                name: d.name.clone(),
                default: d.default.to_string(),
                values: d.kind.describe(),
                help: d.help.to_string(),
            })
            .collect()
    }
    /// Set option `name` (any case, `-` or `_`) from text (`true`/`false`, `on`/`off`,
    /// `yes`/`no`; a number; a choice in any case).
    ///
    /// # Errors
    /// An unknown name (with the nearest name) or a value the option does not take.
    fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        options::set(self, name, value)
    }
    /// Every option as canonical `(NAME, value)` text: recorded in manifests and part of
    /// every cell key, so a changed ruling gives other random streams and other numbers.
    fn pairs(&self) -> Vec<(String, String)> {
        options::pairs(self)
    }
    /// The options whose value is not the default, as canonical `(NAME, value)`: what
    /// output headers echo.
    fn non_default(&self) -> Vec<(String, String)> {
        options::non_default(self)
    }
    /// Refuse values out of range and combinations the kernels cannot play.
    ///
    /// # Errors
    /// An [`OptionError`] naming the options at fault.
    fn validate(&self) -> Result<(), OptionError> {
        options::check_played(self)
    }
}

/// Which list a selector picks from (scenario `attackers`, `targets`, `opponents`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Attacker,
    Target,
    Opponent,
}

/// A weighted opponent of a catalogue field (gauntlets).
#[derive(Debug, Clone, PartialEq)]
pub struct Weighted {
    pub name: String,
    /// Relative weight, > 0.
    pub weight: f64,
}

/// What `volley odds` prints: a header line, one row per weapon (or attack), and JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct OddsReport {
    /// One line naming the sides and the conditions (text output only).
    pub header: String,
    pub table: Table,
    pub json: Value,
}

/// A detail table the ruleset adds to sweeps (`hit_probability`, `attack_odds`): its
/// name and the columns after the shared keys (`ruleset`, `attacker`, `target`, the
/// target columns and one column per axis).
#[derive(Debug, Clone, PartialEq)]
pub struct DetailTable {
    pub name: &'static str,
    /// Columns between `attacker` and `target` (e.g. `weapon`).
    pub attacker_columns: Vec<(&'static str, Kind)>,
    /// Columns after the axes.
    pub value_columns: Vec<(&'static str, Kind)>,
}

/// One row of a detail table, split as its [`DetailTable`] is.
#[derive(Debug, Clone, PartialEq)]
pub struct DetailRow {
    pub attacker_cells: Vec<Cell>,
    /// Exact values: the sweep rounds their floats as exact values when it writes them
    /// (`output::number::exact`).
    pub value_cells: Vec<Cell>,
}

/// One row of `cost_efficiency`: the whole side (`weapon: None`, rated by its attack
/// run) or one of its weapons (rated by one attack). See [`Ruleset::cost_rows`].
#[derive(Debug, Clone, PartialEq)]
pub struct CostRow {
    pub weapon: Option<String>,
    /// Cells of [`Ruleset::cost_attacker_columns`].
    pub attacker_cells: Vec<Cell>,
    /// Cells of [`Ruleset::cost_value_columns`]: exact values, rounded as such when
    /// written (`output::number::exact`).
    pub value_cells: Vec<Cell>,
    /// P(target destroyed by one attack of this weapon); `None` for the whole side,
    /// whose first-turn kill chance the sweep takes from the run's exact law.
    pub p_kill_turn1: Option<f64>,
}

/// A chart of a detail table, described for the shared chart code (which reads no
/// column by a ruleset's name except through this description).
#[derive(Debug, Clone, PartialEq)]
pub struct DetailChart {
    /// File-name prefix of its charts (`hit`).
    pub name: &'static str,
    pub table: &'static str,
    /// The column shown (a probability).
    pub value: &'static str,
    pub value_label: &'static str,
    /// One chart per distinct value of these columns.
    pub per: &'static [&'static str],
    /// Heatmap rows: distinct values of this column ...
    pub rows: &'static str,
    /// ... ordered by this numeric column when given ...
    pub row_order: Option<&'static str>,
    /// ... and labelled with it after this text (`AC` gives "Stingray (AC4)").
    pub row_order_label: &'static str,
    /// One chart per axis here: heatmap columns are that axis's values.
    pub x_axes: &'static [&'static str],
    /// One panel per value of this axis.
    pub panel_axis: Option<&'static str>,
}

/// A cost ranking of the ruleset beyond the common one (target points destroyed per
/// turn per point), drawn from a column of `cost_efficiency`. `{turn}` in the texts
/// stands for the ruleset's word for a turn.
#[derive(Debug, Clone, PartialEq)]
pub struct CostChart {
    /// The chart files' stem (`cost-life-per-turn-per-point`).
    pub name: &'static str,
    /// The `cost_efficiency` column ranked, averaged over targets.
    pub column: &'static str,
    /// Rank weapons (rows with a weapon, labelled "weapon (side)") instead of sides.
    pub weapons: bool,
    pub title: &'static str,
    pub value_label: &'static str,
    /// The finding's opening on the report page ("Most life taken per {turn} per point").
    pub finding: &'static str,
    /// The unit a weapon finding states after each value ("life per attack per ton").
    pub unit: &'static str,
    /// A column whose positive value a weapon's label states (`rounds`), with its word.
    pub note: Option<(&'static str, &'static str)>,
}

/// Turns over which [`Ruleset::can_attack`]'s default looks for a kill.
pub const CAN_ATTACK_TURNS: u32 = 20;

/// A game volley plays. See the module documentation.
///
/// Names (`attacker`, `target`, `a`, `b`) are the catalogue's names as the ruleset
/// accepts them (a build, a unit, `ac:N`, `Mech+Pilot`, ...); every method that takes
/// one reports an unknown name as an error message with the nearest names.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The id on the command line and in manifests, tables and cell keys.
    const NAME: &'static str;
    /// The game's title and edition, for people.
    const TITLE: &'static str;
    /// The game's name as reports print it (`TechCommander`).
    const LABEL: &'static str;
    /// What this game calls a turn (`turn`, `round`): `ttk_by_turn` counts these.
    const TURN: &'static str;
    /// The catalogue's sections; the embedded catalogue is `loadouts/<NAME>/`.
    const SECTIONS: Sections;
    /// How `compare` pairs A and B (common random numbers), for its reports.
    const PAIRING: &'static str;
    /// The names [`Ruleset::Policy`] parses, the default first.
    const POLICIES: &'static [&'static str];
    /// The selector prefixes this game's catalogue has (`kind:`, `faction:`, `era:`,
    /// `squad:`, ...), read by [`super::kit::select::Selector::parse`] for [`Ruleset::select`].
    const SELECTORS: &'static [super::kit::prefix::Prefix];
    /// What the game calls its cost unit (`points`, `PV`, `ECV`): cost-aware verdicts
    /// print values "per 100" of it.
    const COST_UNIT: &'static str = "points";

    type Catalogue: Send + Sync;
    type Options: RuleOptions;
    /// The typed conditions of one engagement, made from a [`Point`].
    type Conditions: Copy + Debug + Send + Sync;
    /// How a side picks its attacks (named, documented, deterministic).
    type Policy: Copy + Debug + Display + Default + FromStr<Err = String> + Send + Sync;
    type AttackRun: Kernel<Tally = TtkTally>;
    type Duel: Kernel<Tally = DuelTally>;
    type PairedRun: Kernel<Tally = PairedTally>;
    type PairedDuel: Kernel<Tally = PairedTally>;
    /// Whole forces in battle ([`super::battle::NoBattle`] for a game without battles).
    type Battle: Kernel<Tally = BattleTally>;

    // ---- catalogue -------------------------------------------------------------------

    /// Check and resolve catalogue files in one pass, reporting every error.
    ///
    /// # Errors
    /// Every error found, each naming file, line, entry and field.
    fn load(
        origin: &str,
        files: &[SourceFile],
        read_errors: Vec<CatalogError>,
    ) -> Result<Self::Catalogue, CatalogErrors>;
    /// Whether the files use names they do not define: additions to another catalogue
    /// rather than a catalogue of their own (`volley validate FILES`).
    fn refers_to_undefined(_files: &[SourceFile]) -> bool {
        false
    }
    /// Where the catalogue came from and its content hash (manifests).
    fn origin(cat: &Self::Catalogue) -> (&str, &str);
    /// "12 weapons, 8 units, ...": what `volley validate` counts.
    fn counts(cat: &Self::Catalogue) -> String;
    /// What `volley catalog` can list (`weapons`, `builds`, `mechs`, ...), first = default.
    fn listings() -> &'static [&'static str];
    /// One listing as a table.
    ///
    /// # Errors
    /// A listing this ruleset does not have.
    fn listing(cat: &Self::Catalogue, what: &str) -> Result<Table, String>;
    /// Expand a selector (`all`, a name, or a ruleset's `kind:...`/`faction:...` form)
    /// into names, in catalogue order.
    ///
    /// # Errors
    /// An unknown name or selector.
    fn select(cat: &Self::Catalogue, role: Role, selector: &str) -> Result<Vec<String>, String>;
    /// The catalogue's named fields of weighted opponents (gauntlets).
    ///
    /// # Errors
    /// An unknown field.
    fn field(cat: &Self::Catalogue, name: &str) -> Result<Vec<Weighted>, String>;
    /// Names of the catalogue's fields.
    fn field_names(cat: &Self::Catalogue) -> Vec<String>;
    /// The cost of a named side in this game's points (`points` columns).
    ///
    /// # Errors
    /// An unknown name.
    fn points(cat: &Self::Catalogue, name: &str) -> Result<f64, String>;
    /// The name as tables show it (the catalogue's spelling).
    ///
    /// # Errors
    /// An unknown name.
    fn display_name(cat: &Self::Catalogue, role: Role, name: &str) -> Result<String, String>;
    /// The target name that means opponent `opponent` (a duel side) as the target of an
    /// attack run, for the detail and cost rows of duel sweeps.
    fn as_target(opponent: &str) -> String {
        opponent.to_string()
    }
    /// Columns describing a target in every cell table, after `target`
    /// (TechCommander: `target_ac`).
    fn target_columns() -> Vec<(&'static str, Kind)>;
    /// Cells of [`Ruleset::target_columns`] for a target.
    fn target_cells(cat: &Self::Catalogue, target: &str) -> Vec<Cell>;

    // ---- conditions ------------------------------------------------------------------

    /// The axes a sweep may vary, in grid order: one table column each.
    fn axes() -> &'static [AxisSpec];
    /// Further conditions, set on the command line (or fixed in a scenario) but not
    /// swept and not table columns.
    fn flags() -> &'static [AxisSpec];
    /// The typed conditions of a point of [`Ruleset::axes`] + [`Ruleset::flags`].
    ///
    /// # Errors
    /// Values that contradict each other.
    fn conditions(point: &Point) -> Result<Self::Conditions, String>;
    /// Refuse conditions that `odds` accepts but engagements cannot play (an odds-only
    /// attack mode): a usage error of `ttk`, `duel`, `sweep`, `compare`, `gauntlet`.
    ///
    /// # Errors
    /// A message saying why.
    fn check_engagement(_c: &Self::Conditions) -> Result<(), String> {
        Ok(())
    }
    /// Refuse conditions that need a rule the options leave off (e.g. a terrain
    /// condition of an advanced rule that is switched off): a usage error on the command
    /// line; the engagements' constructors refuse them too.
    ///
    /// # Errors
    /// A message naming the conditions and the option.
    fn check_conditions(_c: &Self::Conditions, _o: &Self::Options) -> Result<(), String> {
        Ok(())
    }
    /// Check how a name is written before looking it up (`ac:0` is malformed): a usage
    /// error on the command line.
    ///
    /// # Errors
    /// A message saying how to write it.
    fn check_name(_role: Role, _name: &str) -> Result<(), String> {
        Ok(())
    }
    /// One line describing conditions for people ("range 12, cover none, ...").
    fn describe(c: &Self::Conditions) -> String;

    // ---- engagements -----------------------------------------------------------------

    /// Exact odds of one attack (or each weapon) of `attacker` against `target`.
    ///
    /// # Errors
    /// Unknown names or weapon, or an attack the rules do not allow.
    fn odds(
        cat: &Self::Catalogue,
        attacker: &str,
        weapon: Option<&str>,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<OddsReport, String>;

    /// Compile the attack run of `attacker` against an inert `target`.
    ///
    /// # Errors
    /// Unknown names, or what the kernel refuses to play.
    fn attack_run(
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        policy: Self::Policy,
        max_turns: u32,
    ) -> Result<Self::AttackRun, String>;
    /// The run's exact time-to-kill law, or [`ExactTtk::unavailable`] where the options
    /// choose a model with no exact solver (`ttk --exact` then refuses the run).
    fn exact_run(run: &Self::AttackRun) -> ExactTtk;
    /// The run's plan for people: (turn from 1, weapon) per attack.
    fn plan(cat: &Self::Catalogue, attacker: &str, run: &Self::AttackRun) -> Vec<(u32, String)>;
    /// What the run leaves out of the rules, one sentence each, for its report
    /// (`not modelled:` lines and the JSON key `not_modelled`); none by default.
    fn run_notes(_run: &Self::AttackRun) -> Vec<String> {
        Vec::new()
    }

    /// Whether duel side `attacker` has an attack that can reach duel side `defender` at
    /// conditions `c` (a weapon in range, a reach for a special attack): a side that
    /// cannot is harmless in that engagement, whatever the dice. Engagements flag such
    /// sides and `fit` leaves their matchups out.
    ///
    /// The default reads the exact attack run of `attacker` against `defender` (as
    /// [`Ruleset::as_target`] names it) with the default policy over
    /// [`CAN_ATTACK_TURNS`] turns: it can attack when the target can be destroyed at all
    /// (and, where the run has no exact law, it is assumed to). Rooms override it with
    /// their own range and reach data, which is exact and cheap.
    ///
    /// # Errors
    /// Unknown names, or what the attack run refuses to play.
    fn can_attack(
        cat: &Self::Catalogue,
        attacker: &str,
        defender: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<bool, String> {
        let target = Self::as_target(defender);
        let run = Self::attack_run(cat, attacker, &target, c, o, Self::Policy::default(), CAN_ATTACK_TURNS)?;
        let law = Self::exact_run(&run);
        Ok(!law.is_available() || law.p_kill > 0.0)
    }

    /// Compile a duel of `a` and `b`, each attacking the other.
    ///
    /// # Errors
    /// Unknown names, or what the kernel refuses to play.
    fn duel(
        cat: &Self::Catalogue,
        a: &str,
        b: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        policy: Self::Policy,
        max_turns: u32,
    ) -> Result<Self::Duel, String>;

    /// The duel's exact outcome, where the ruleset has an exact solver for it (sides that
    /// cannot change each other's state); `None` otherwise.
    fn exact_duel(_duel: &Self::Duel) -> Option<ExactDuelOdds> {
        None
    }

    /// The duel's exact outcome split four ways, [P(A wins), P(B wins), P(mutual kill),
    /// P(timeout)] summing to 1, where the ruleset's exact solver tells mutual kills from
    /// timeouts (`volley fit --metric kill-points` needs it); `None` otherwise.
    fn exact_duel_outcomes(_duel: &Self::Duel) -> Option<[f64; 4]> {
        None
    }

    /// What the duel leaves out of the rules, one sentence each (both sides), for its
    /// report (`not modelled:` lines and the JSON key `not_modelled`); none by default.
    fn duel_notes(_duel: &Self::Duel) -> Vec<String> {
        Vec::new()
    }

    /// Pair two attack runs against the same target for `compare` (common random
    /// numbers: the kernel draws each trial's numbers once for both).
    ///
    /// # Errors
    /// A metric the pairing cannot measure.
    fn paired_run(a: Self::AttackRun, b: Self::AttackRun, metric: Metric) -> Result<Self::PairedRun, String>;
    /// Pair two duels against the same opponent for `compare` and `gauntlet`.
    ///
    /// # Errors
    /// A metric the pairing cannot measure.
    fn paired_duel(a: Self::Duel, b: Self::Duel, metric: Metric) -> Result<Self::PairedDuel, String>;

    /// Whether the game has odds cards ([`Ruleset::odds_card`]); `volley odds-card`
    /// refuses a game without them as a usage error (exit 2) before reading any name.
    const ODDS_CARDS: bool = false;

    /// A printable odds card of side `name` over `ranges` (in the game's distance
    /// unit; empty: the game's own ranges), when the game has one (set
    /// [`Ruleset::ODDS_CARDS`] too).
    ///
    /// # Errors
    /// An unknown name, or a game without odds cards.
    fn odds_card(
        _cat: &Self::Catalogue,
        _name: &str,
        _ranges: &[f64],
        _o: &Self::Options,
    ) -> Result<crate::charts::card::Card, String> {
        Err(format!("odds cards are not available for {} yet", Self::NAME))
    }

    // ---- battles -----------------------------------------------------------------------

    /// The battles this game plays, the default first; empty: none.
    const BATTLE_MODES: &'static [BattleMode] = &[];
    /// The battle policies [`Ruleset::battle`] accepts, the default first.
    const BATTLE_POLICIES: &'static [&'static str] = &[];

    /// The catalogue's named forces (`[[force]]`), in catalogue order.
    fn forces(_cat: &Self::Catalogue) -> Vec<ForceSpec> {
        Vec::new()
    }

    /// Compile a battle: forces resolved and checked against their budget, conditions
    /// and options compiled, every table the policy reads precomputed.
    ///
    /// # Errors
    /// An unknown mode, policy or name, a force over its budget (naming the force and the
    /// excess), a side count the mode does not take, or a game without battles.
    fn battle(
        _cat: &Self::Catalogue,
        _setup: &BattleSetup<'_, Self::Conditions, Self::Options>,
    ) -> Result<(Self::Battle, BattleInfo), String> {
        Err(format!("battles are not available for {} yet", Self::LABEL))
    }

    /// Compile a battle of teams: as [`Ruleset::battle`], with `teams[i]` the team label
    /// of side `i` (sides sharing a label are one team).
    ///
    /// # Errors
    /// As [`Ruleset::battle`]; a mode without teams, or a game without team battles.
    fn team_battle(
        _cat: &Self::Catalogue,
        _setup: &BattleSetup<'_, Self::Conditions, Self::Options>,
        _teams: &[usize],
    ) -> Result<(Self::Battle, BattleInfo), String> {
        Err(format!("team battles are not available for {} yet", Self::LABEL))
    }

    // ---- tables ------------------------------------------------------------------------

    /// The ruleset's detail tables in sweeps.
    fn detail_tables() -> Vec<DetailTable>;
    /// How the report draws them.
    fn detail_charts() -> Vec<DetailChart>;
    /// The report's cost rankings beyond the common one.
    fn cost_charts() -> Vec<CostChart> {
        Vec::new()
    }
    /// Rows of detail table number `table` for one attacker, target and conditions.
    ///
    /// # Errors
    /// Unknown names.
    fn detail_rows(
        table: usize,
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
    ) -> Result<Vec<DetailRow>, String>;
    /// Columns of `cost_efficiency` after `points` that describe the attacker's cost in
    /// the game's own terms (TechCommander: `weight`, `power`, `rounds`).
    fn cost_attacker_columns() -> Vec<(&'static str, Kind)>;
    /// Columns of `cost_efficiency` after the axes: the game's damage measures per turn,
    /// per attack and per point (`attacks_per_turn` first).
    fn cost_value_columns() -> Vec<(&'static str, Kind)>;
    /// The whole side's row, then one row per weapon, for the run `run` of `attacker`
    /// against `target` in `c`.
    ///
    /// # Errors
    /// Unknown names.
    fn cost_rows(
        cat: &Self::Catalogue,
        attacker: &str,
        target: &str,
        c: &Self::Conditions,
        o: &Self::Options,
        run: &Self::AttackRun,
    ) -> Result<Vec<CostRow>, String>;
}
