//! Skirmishers behind the ruleset boundary ([`crate::rules::Ruleset`]).

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
use super::battle::SquadFight;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::Conditions;
use super::duel::Duel;
use super::options::Options;
use super::paired::PairedDuels;
use super::plan::RunPolicy;
use super::report;
use super::tn::check_conditions;
use super::trooper::{Armour, Experience};

/// The Skirmishers ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Skirmishers;

const ARMOURS: &[&str] = &["catalogue", "none", "basic", "standard", "heavy"];
const EXPERIENCES: &[&str] = &["catalogue", "green", "regular", "veteran", "elite"];

const AXES: [AxisSpec; 11] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 1, max: 1000 },
        default: "5",
        help: "Dots between firer and target (1 dot = 1 inch = 2.5 m): up to Short +0 TN, up to Long +2, beyond Long no attack; melee needs 1",
        duel_help: "Dots between the two troopers",
        label: "Range (dots)",
        unit: "dots",
    },
    AxisSpec {
        name: "obstructions",
        flag: "obstructions",
        kind: AxisKind::Integer { min: 0, max: 20 },
        default: "0",
        help: "Obstructions on the line of fire beyond the firer's adjacent dots (furniture, light vegetation, low wall, swamp, burning dot, intervening trooper): +1 TN each; none at range 1 (COVER_SKIPS_FIRER_ADJACENT); not for melee",
        duel_help: "",
        label: "Obstructions",
        unit: "obstructions",
    },
    AxisSpec {
        name: "smoke_dots",
        flag: "smoke-dots",
        kind: AxisKind::Integer { min: 0, max: 10 },
        default: "0",
        help: "Smoke dots on the line of fire: +3 TN each (SMOKE_REPLACES_COVER)",
        duel_help: "",
        label: "Smoke dots",
        unit: "dots",
    },
    AxisSpec {
        name: "attacker_prone",
        flag: "attacker-prone",
        kind: AxisKind::Switch,
        default: "false",
        help: "The firer is prone: -1 TN (throws cost double AP)",
        duel_help: "Both troopers fire prone: -1 TN",
        label: "Attacker prone",
        unit: "",
    },
    AxisSpec {
        name: "target_prone",
        flag: "target-prone",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is prone (or in a trench): +1 TN beyond 1 dot, -1 adjacent; never for explosives",
        duel_help: "Both troopers are prone targets",
        label: "Target prone",
        unit: "",
    },
    AxisSpec {
        name: "sneak_suit",
        flag: "sneak-suit",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target wears a sneak suit: +1 TN more at long range (SNEAK_SUIT_STACKS)",
        duel_help: "Both troopers wear sneak suits",
        label: "Sneak suit",
        unit: "",
    },
    AxisSpec {
        name: "armour",
        flag: "armour",
        kind: AxisKind::Choice(ARMOURS),
        default: "catalogue",
        help: "The target's armour instead of its card's: body armour none/basic/standard/heavy (2/4/6 cells, -1/-2/-3 AP), power armour basic/standard/heavy (4/6/8)",
        duel_help: "Both troopers' armour instead of their cards'",
        label: "Target armour",
        unit: "",
    },
    AxisSpec {
        name: "experience",
        flag: "experience",
        kind: AxisKind::Choice(EXPERIENCES),
        default: "catalogue",
        help: "Both sides' experience instead of their cards': green -1 AP, regular, veteran +1, elite +2",
        duel_help: "",
        label: "Experience",
        unit: "",
    },
    AxisSpec {
        name: "entangled",
        flag: "entangled",
        kind: AxisKind::Switch,
        default: "false",
        help: "The firer is entangled (barbed wire): +1 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "Both troopers are entangled: +1 TN (needs --option ADVANCED_TERRAIN=on)",
        label: "Entangled",
        unit: "",
    },
    AxisSpec {
        name: "tunnel",
        flag: "tunnel",
        kind: AxisKind::Switch,
        default: "false",
        help: "Tunnel combat (both inside a tunnel): +2 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "",
        label: "Tunnel combat",
        unit: "",
    },
    AxisSpec {
        name: "target_swimming",
        flag: "target-swimming",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is swimming: +1 TN (Advanced Terrain: needs --option ADVANCED_TERRAIN=on)",
        duel_help: "Both troopers are swimming targets: +1 TN (needs --option ADVANCED_TERRAIN=on)",
        label: "Target swimming",
        unit: "",
    },
];

const FLAGS: [AxisSpec; 1] = [AxisSpec {
    name: "firer_hp",
    flag: "firer-hp",
    kind: AxisKind::Integer { min: -5, max: 12 },
    default: "12",
    help: "The firer's current HP (its Mods row adds to the TN; its AP row pays arcs and sets fists damage); 12 = fresh (basic tracks top at 10)",
    duel_help: "",
    label: "Firer HP",
    unit: "hp",
}];

fn trooper_of<'a>(cat: &'a Catalogue, name: &str) -> Result<&'a super::trooper::Trooper, String> {
    cat.trooper(name)
}

impl Ruleset for Skirmishers {
    const NAME: &'static str = "skirmishers";
    const TITLE: &'static str = "Skirmishers v0.4 (War Department GM 1-1, 25 July 2025; illustrative troopers)";
    const LABEL: &'static str = "Skirmishers";
    const TURN: &'static str = "round";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = RunPolicy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;
    const COST_UNIT: &'static str = "PV";

    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Conditions;
    type Policy = RunPolicy;
    type AttackRun = AttackRun;
    type Duel = Duel;
    type PairedRun = QuantilePair;
    type PairedDuel = PairedDuels;
    type Battle = SquadFight;

    const BATTLE_MODES: &'static [BattleMode] = super::battle::BATTLE_MODES;
    const BATTLE_POLICIES: &'static [&'static str] = super::battle::BATTLE_POLICIES;

    fn forces(cat: &Catalogue) -> Vec<ForceSpec> {
        super::battle::squads_as_forces(cat)
    }

    fn battle(
        cat: &Catalogue,
        setup: &BattleSetup<'_, Conditions, Options>,
    ) -> Result<(SquadFight, BattleInfo), String> {
        for c in setup.conditions {
            check_conditions(c, setup.options)?;
        }
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
        format!("{} weapons, {} troopers, {} squads", cat.weapons.len(), cat.troopers.len(), cat.squads.len())
    }

    fn listings() -> &'static [&'static str] {
        &["troopers", "weapons", "squads", "forces"]
    }

    fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        match what {
            "forces" => Ok(crate::rules::sides::forces_table::<Self>(cat)),
            _ => report::listing(cat, what),
        }
    }

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let s = cat.squad(name)?;
        Ok(s.members.iter().map(|(i, n)| Weighted { name: cat.troopers[*i].name.clone(), weight: *n as f64 }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.squads.iter().map(|s| s.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        Ok(trooper_of(cat, name)?.pv as f64)
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        Ok(trooper_of(cat, name)?.name.clone())
    }

    fn target_columns() -> Vec<(&'static str, Kind)> {
        vec![("target_track", Kind::Text), ("target_armour_cells", Kind::Int)]
    }

    fn target_cells(cat: &Catalogue, target: &str) -> Vec<Cell> {
        match cat.trooper(target) {
            Ok(t) => vec![t.track.name().into(), t.armour_cells().into()],
            Err(_) => vec![Cell::Null, Cell::Null],
        }
    }

    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &FLAGS
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let hp = int("firer_hp")? as i32;
        Ok(Conditions {
            range: int("range")? as u32,
            obstructions: int("obstructions")? as u32,
            smoke_dots: int("smoke_dots")? as u32,
            attacker_prone: p.get("attacker_prone") == "true",
            target_prone: p.get("target_prone") == "true",
            sneak_suit: p.get("sneak_suit") == "true",
            firer_hp: (hp < 12).then_some(hp),
            armour: Armour::parse(p.get("armour")),
            experience: Experience::parse(p.get("experience")),
            entangled: p.get("entangled") == "true",
            tunnel: p.get("tunnel") == "true",
            target_swimming: p.get("target_swimming") == "true",
        })
    }

    fn check_conditions(c: &Conditions, o: &Options) -> Result<(), String> {
        check_conditions(c, o)
    }

    fn describe(c: &Conditions) -> String {
        c.describe()
    }

    fn odds(
        cat: &Catalogue,
        attacker: &str,
        weapon: Option<&str>,
        target: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        check_conditions(c, o)?;
        report::odds_report(cat, trooper_of(cat, attacker)?, weapon, trooper_of(cat, target)?, c, o)
    }

    fn attack_run(
        cat: &Catalogue,
        attacker: &str,
        target: &str,
        c: &Conditions,
        o: &Options,
        policy: RunPolicy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        check_conditions(c, o)?;
        AttackRun::new(trooper_of(cat, attacker)?, trooper_of(cat, target)?, c, o, policy, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        run.exact()
    }

    fn plan(_cat: &Catalogue, _attacker: &str, run: &AttackRun) -> Vec<(u32, String)> {
        run.plan
            .rounds
            .iter()
            .enumerate()
            .flat_map(|(r, steps)| {
                steps.iter().map(move |s| (r as u32 + 1, run.plan.weapons[s.weapon as usize].clone()))
            })
            .collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        _policy: RunPolicy,
        max_turns: u32,
    ) -> Result<Duel, String> {
        check_conditions(c, o)?;
        Duel::new(trooper_of(cat, a)?, trooper_of(cat, b)?, c, o, max_turns)
    }

    /// A weapon (or grenade) in range with a target number: the first round's plan of
    /// the default policy holds an attack.
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        check_conditions(c, o)?;
        let run = AttackRun::new(trooper_of(cat, a)?, trooper_of(cat, d)?, c, o, RunPolicy::default(), 1)?;
        Ok(run.plan.attacks() > 0)
    }

    fn exact_duel(d: &Duel) -> Option<ExactDuelOdds> {
        d.exact().map(|e| ExactDuelOdds { p_a_wins: e.p_a_wins, p_b_wins: e.p_b_wins, p_draw: e.p_undecided })
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        QuantilePair::new(&a.exact(), &b.exact(), metric)
    }

    fn paired_duel(a: Duel, b: Duel, metric: Metric) -> Result<PairedDuels, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(PairedDuels { a, b })
    }

    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "track_odds",
            attacker_columns: vec![("weapon", Kind::Text)],
            value_columns: report::odds_value_columns(),
        }]
    }

    fn detail_charts() -> Vec<DetailChart> {
        vec![
            DetailChart {
                name: "hit",
                table: "track_odds",
                value: "p_hit",
                value_label: "P(hit) of one attack",
                per: &["attacker"],
                rows: "weapon",
                row_order: None,
                row_order_label: "",
                x_axes: &["range", "obstructions"],
                panel_axis: None,
            },
            DetailChart {
                name: "out",
                table: "track_odds",
                value: "p_out",
                value_label: "P(out) after one attack",
                per: &["attacker", "weapon"],
                rows: "target",
                row_order: Some("target_armour_cells"),
                row_order_label: "armour ",
                x_axes: &["armour", "range"],
                panel_axis: None,
            },
        ]
    }

    fn cost_charts() -> Vec<CostChart> {
        vec![CostChart {
            name: "cost-weapon-p-out-per-attack",
            column: "p_out_per_attack",
            weapons: true,
            title: "Weapons: P(out) with one attack",
            value_label: "P(out) per attack",
            finding: "Weapons most likely to put a target out with one attack",
            unit: "P(out) per attack",
            note: None,
        }]
    }

    fn detail_rows(
        _table: usize,
        cat: &Catalogue,
        attacker: &str,
        target: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<Vec<DetailRow>, String> {
        Ok(report::odds_rows(trooper_of(cat, attacker)?, trooper_of(cat, target)?, c, o))
    }

    fn cost_attacker_columns() -> Vec<(&'static str, Kind)> {
        vec![("attacker_experience", Kind::Text)]
    }

    fn cost_value_columns() -> Vec<(&'static str, Kind)> {
        report::cost_value_columns()
    }

    fn cost_rows(
        cat: &Catalogue,
        attacker: &str,
        target: &str,
        c: &Conditions,
        o: &Options,
        run: &AttackRun,
    ) -> Result<Vec<CostRow>, String> {
        Ok(report::cost_rows(trooper_of(cat, attacker)?, trooper_of(cat, target)?, c, o, run))
    }
}

impl RuleOptions for Options {}
