//! MECHCOM behind the ruleset boundary ([`crate::rules::Ruleset`]).

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::force::ForceSpec;
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Kind, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};
use crate::rules::battle::{BattleInfo, BattleMode, BattleSetup};
use crate::rules::quantile_pair::QuantilePair;
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, OddsReport, Role, RuleOptions, Ruleset, Weighted,
};
use crate::stats::{ExactDuelOdds, ExactTtk, Metric};

use super::attack_run::AttackRun;
use super::battle::SquadBattle;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::{Condition, Conditions};
use super::duel_kernel::DuelKernel;
use super::exact_run::ExactRun;
use super::listing;
use super::mech::Model;
use super::options::Options;
use super::paired::PairedDuels;
use super::report::{self, Setting};
use super::run_policy::RunPolicy;
use super::situation::{Cover, Situation};

/// The MECHCOM ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Mechcom;

/// Condition names as the command line and scenarios write them.
const CONDITIONS: &[&str] = &[
    "blinded",
    "burned",
    "corroded",
    "hacked",
    "immobilized",
    "invisible",
    "malfunctioning",
    "shocked",
    "stunned",
    "submerged",
    "tethered",
];
const COVERS: &[&str] = &["none", "half", "soft", "total"];

const AXES: [AxisSpec; 6] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 0, max: 100 },
        default: "2",
        help: "Hexes between attacker and target; within melee range (1) melee weapons attack and shooters are engaged",
        duel_help: "Hexes between the two mechs",
        label: "Range (hexes)",
        unit: "hexes",
    },
    AxisSpec {
        name: "cover",
        flag: "cover",
        kind: AxisKind::Choice(COVERS),
        default: "none",
        help: "Cover of the target: half +2 Stability, soft (forest, snow, swimming) +2, total = no shot (Artillery exempt)",
        duel_help: "Cover of both mechs: half +2 Stability, soft +2, total = no shot (Artillery exempt)",
        label: "Target cover",
        unit: "",
    },
    AxisSpec {
        name: "engaged",
        flag: "engaged",
        kind: AxisKind::Switch,
        default: "false",
        help: "The shooter is engaged (an enemy within melee range): +2 Stability (ENGAGED_STABILITY; not with Ultralight)",
        duel_help: "Both mechs are engaged: +2 Stability to shoot (not with Ultralight)",
        label: "Engaged",
        unit: "",
    },
    AxisSpec {
        name: "levels_above",
        flag: "levels-above",
        kind: AxisKind::Integer { min: -10, max: 10 },
        default: "0",
        help: "Levels the attacker stands above the target (negative: below): height modifiers of §1",
        duel_help: "",
        label: "Levels above the target",
        unit: "levels",
    },
    AxisSpec {
        name: "spot_tokens",
        flag: "spot-tokens",
        kind: AxisKind::Integer { min: 0, max: 20 },
        default: "0",
        help: "Spot tokens on the target: -1 Stability each consumed (Sniper, Artillery per SPOT_POLICY)",
        duel_help: "",
        label: "Spot tokens",
        unit: "tokens",
    },
    AxisSpec {
        name: "target_conditions",
        flag: "target-condition",
        kind: AxisKind::Set(CONDITIONS),
        default: "none",
        help: "A condition the target starts with, repeatable (burned, corroded, shocked, invisible, submerged, ...)",
        duel_help: "A condition B starts with, repeatable",
        label: "Target conditions",
        unit: "",
    },
];

const FLAGS: [AxisSpec; 3] = [
    AxisSpec {
        name: "attacker_conditions",
        flag: "attacker-condition",
        kind: AxisKind::Set(CONDITIONS),
        default: "none",
        help: "A condition the attacker starts with, repeatable (blinded, shocked, stunned, ...)",
        duel_help: "A condition A starts with, repeatable",
        label: "Attacker conditions",
        unit: "",
    },
    AxisSpec {
        name: "heavy_moved",
        flag: "heavy-moved",
        kind: AxisKind::Switch,
        default: "false",
        help: "The attacker moved this turn (Heavy weapons: +Stability per HEAVY_MOVED_STABILITY)",
        duel_help: "Both mechs moved this turn (Heavy weapons)",
        label: "Moved with Heavy weapons",
        unit: "",
    },
    AxisSpec {
        name: "barrage_dice",
        flag: "barrage-dice",
        kind: AxisKind::Integer { min: 0, max: 10 },
        default: "0",
        help: "Extra dice bought with Barrage (1 Energy each), for Barrage weapons",
        duel_help: "",
        label: "Barrage dice",
        unit: "dice",
    },
];

fn conditions_of(text: &str) -> Result<Conditions, String> {
    let list: Vec<Condition> =
        text.split('+').filter(|p| !p.is_empty() && *p != "none").map(str::parse).collect::<Result<_, _>>()?;
    Ok(Conditions::of(&list))
}

fn model(cat: &Catalogue, name: &str, c: Conditions) -> Result<Model, String> {
    Ok(cat.model_named(name)?.with_conditions(c))
}

/// The exact law in the shared vocabulary (rounds are MECHCOM's turns).
fn shared(e: ExactRun) -> ExactTtk {
    ExactTtk {
        kill_by_turn: e.kill_by_round,
        p_kill_by_turn: e.p_kill_by_round,
        kill_by_action: e.kill_by_attack,
        p_kill: e.p_kill,
        mean_turns: e.mean_rounds,
        mean_actions: e.mean_attacks,
    }
}

impl Ruleset for Mechcom {
    const NAME: &'static str = "mechcom";
    const TITLE: &'static str = "MECHCOM (2024 rulebook; illustrative catalogue)";
    const LABEL: &'static str = "MECHCOM";
    const TURN: &'static str = "round";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = RunPolicy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;

    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Setting;
    type Policy = RunPolicy;
    type AttackRun = AttackRun;
    type Duel = DuelKernel;
    type PairedRun = QuantilePair;
    type PairedDuel = PairedDuels;
    type Battle = SquadBattle;

    fn load(origin: &str, files: &[SourceFile], read_errors: Vec<CatalogError>) -> Result<Catalogue, CatalogErrors> {
        Catalogue::from_read(origin, files, read_errors)
    }

    fn refers_to_undefined(files: &[SourceFile]) -> bool {
        Catalogue::refers_to_undefined(files)
    }

    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        super::card::odds_card(cat, name, ranges, o)
    }

    fn origin(cat: &Catalogue) -> (&str, &str) {
        (&cat.origin, &cat.hash)
    }

    fn counts(cat: &Catalogue) -> String {
        format!(
            "{} weapons, {} mechs, {} pilots, {} squads, {} fields, {} forces",
            cat.weapons.len(),
            cat.mechs.len(),
            cat.pilots.len(),
            cat.squads.len(),
            cat.fields.len(),
            cat.forces.len()
        )
    }

    fn listings() -> &'static [&'static str] {
        listing::LISTINGS
    }

    fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        match what {
            "forces" => Ok(crate::rules::sides::forces_table::<Self>(cat)),
            _ => listing::listing(cat, what),
        }
    }

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = crate::rules::kit::names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|o| Weighted { name: o.model.clone(), weight: o.weight }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        cat.model_named(name)?;
        Ok(cat.model_cost(name))
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        cat.model_named(name)?;
        let mut v = cat.select(name)?;
        Ok(if v.len() == 1 { v.remove(0) } else { name.trim().to_string() })
    }

    fn target_columns() -> Vec<(&'static str, Kind)> {
        vec![("target_integrity", Kind::Int)]
    }

    fn target_cells(cat: &Catalogue, name: &str) -> Vec<Cell> {
        vec![cat.model_named(name).map_or(Cell::Null, |m| m.mech.integrity.into())]
    }

    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Setting, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let cover = match p.get("cover") {
            "half" => Cover::Half,
            "soft" => Cover::Soft,
            "total" => Cover::Total,
            _ => Cover::None,
        };
        Ok(Setting {
            sit: Situation {
                range: int("range")? as u32,
                cover,
                engaged: p.get("engaged") == "true",
                levels_above: int("levels_above")? as i32,
                spot_tokens: int("spot_tokens")? as u32,
                heavy_moved: p.get("heavy_moved") == "true",
                barrage_dice: int("barrage_dice")? as u32,
            },
            attacker: conditions_of(p.get("attacker_conditions"))?,
            target: conditions_of(p.get("target_conditions"))?,
        })
    }

    fn describe(c: &Setting) -> String {
        report::describe(c)
    }

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Setting,
        o: &Options,
    ) -> Result<OddsReport, String> {
        let (am, tm) = (model(cat, a, c.attacker)?, model(cat, t, c.target)?);
        let (an, tn) = (Self::display_name(cat, Role::Attacker, a)?, Self::display_name(cat, Role::Target, t)?);
        report::odds_report(&am, &an, weapon, &tm, &tn, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Setting,
        o: &Options,
        policy: RunPolicy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        AttackRun::new(&model(cat, a, c.attacker)?, &model(cat, t, c.target)?, &c.sit, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        shared(run.exact())
    }

    fn plan(_cat: &Catalogue, _a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        run.plan.iter().map(|s| (u32::from(s.round) + 1, run.weapons[s.weapon as usize].clone())).collect()
    }

    fn run_notes(run: &AttackRun) -> Vec<String> {
        run.not_modelled.clone()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Setting,
        o: &Options,
        _policy: RunPolicy,
        max_turns: u32,
    ) -> Result<DuelKernel, String> {
        DuelKernel::new(&model(cat, a, c.attacker)?, &model(cat, b, c.target)?, &c.sit, o, max_turns)
    }

    /// A weapon the attack rules let fire at these conditions (range, cover, spotting).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Setting, o: &Options) -> Result<bool, String> {
        let (attacker, defender) = (model(cat, a, c.attacker)?, model(cat, d, c.target)?);
        Ok(attacker
            .mech
            .weapons
            .iter()
            .any(|w| super::odds::compile_attack(&attacker, w, &defender, &c.sit, o).is_ok()))
    }

    fn exact_duel(d: &DuelKernel) -> Option<ExactDuelOdds> {
        d.exact().map(|e| ExactDuelOdds { p_a_wins: e.p_a_wins, p_b_wins: e.p_b_wins, p_draw: e.p_draw() })
    }

    fn duel_notes(d: &DuelKernel) -> Vec<String> {
        let mut v: Vec<String> = d.not_modelled.concat();
        v.dedup();
        v
    }

    /// Mutual kills come from death explosions in melee (`EXPLOSION_TIMING`).
    fn exact_duel_outcomes(d: &DuelKernel) -> Option<[f64; 4]> {
        d.exact().map(|e| [e.p_a_wins, e.p_b_wins, e.p_mutual, e.p_undecided])
    }

    const BATTLE_MODES: &'static [BattleMode] = super::battle::BATTLE_MODES;
    const BATTLE_POLICIES: &'static [&'static str] = super::battle::BATTLE_POLICIES;

    fn forces(cat: &Catalogue) -> Vec<ForceSpec> {
        cat.forces.clone()
    }

    fn battle(cat: &Catalogue, setup: &BattleSetup<'_, Setting, Options>) -> Result<(SquadBattle, BattleInfo), String> {
        super::battle::battle(
            cat,
            setup.mode,
            setup.forces,
            setup.conditions,
            setup.options,
            setup.policy,
            setup.max_turns,
        )
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        QuantilePair::new(&shared(a.exact()), &shared(b.exact()), metric)
    }

    fn paired_duel(a: DuelKernel, b: DuelKernel, metric: Metric) -> Result<PairedDuels, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(PairedDuels { a, b })
    }

    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "attack_odds",
            attacker_columns: report::odds_attacker_columns(),
            value_columns: report::odds_value_columns(),
        }]
    }

    fn detail_charts() -> Vec<DetailChart> {
        vec![DetailChart {
            name: "odds",
            table: "attack_odds",
            value: "p_destroy",
            value_label: "P(destroy with one attack)",
            per: &["attacker", "weapon"],
            rows: "target",
            row_order: Some("target_integrity"),
            row_order_label: "Integrity ",
            x_axes: &["cover", "range"],
            panel_axis: Some("engaged"),
        }]
    }

    fn cost_charts() -> Vec<CostChart> {
        vec![
            CostChart {
                name: "cost-integrity-per-round-per-point",
                column: "integrity_per_round_per_point",
                weapons: false,
                title: "Expected Integrity taken per {turn} (all attacks of {turn} 1), per point",
                value_label: "Integrity per {turn} per point",
                finding: "Most Integrity taken per {turn} per point (every attack of its {turn})",
                unit: "Integrity per {turn} per point",
                note: None,
            },
            CostChart {
                name: "cost-weapon-integrity-per-attack",
                column: "expected_integrity_loss_per_attack",
                weapons: true,
                title: "Weapons: expected Integrity taken per attack",
                value_label: "Integrity per attack",
                finding: "Weapons that take the most Integrity per attack",
                unit: "Integrity per attack",
                note: None,
            },
        ]
    }

    fn detail_rows(
        _table: usize,
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Setting,
        o: &Options,
    ) -> Result<Vec<DetailRow>, String> {
        report::odds_rows(&model(cat, a, c.attacker)?, &model(cat, t, c.target)?, c, o)
    }

    fn cost_attacker_columns() -> Vec<(&'static str, Kind)> {
        report::cost_attacker_columns()
    }

    fn cost_value_columns() -> Vec<(&'static str, Kind)> {
        report::cost_value_columns()
    }

    fn cost_rows(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Setting,
        o: &Options,
        run: &AttackRun,
    ) -> Result<Vec<CostRow>, String> {
        let am = model(cat, a, c.attacker)?;
        report::cost_rows(&am, cat.model_cost(a), &model(cat, t, c.target)?, c, o, run)
    }
}

impl RuleOptions for Options {}
