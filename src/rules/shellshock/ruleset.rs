//! Shellshock behind the ruleset boundary ([`crate::rules::Ruleset`]).

use std::fmt;
use std::str::FromStr;

use crate::catalogue::error::{CatalogError, CatalogErrors};
use crate::catalogue::raw::Sections;
use crate::catalogue::source::SourceFile;
use crate::output::{Cell, Kind, Table};
use crate::rules::axis::{AxisKind, AxisSpec, Point};
use crate::rules::battle::NoBattle;
use crate::rules::quantile_pair::QuantilePair;
use crate::rules::ruleset::{
    CostChart, CostRow, DetailChart, DetailRow, DetailTable, OddsReport, Role, RuleOptions, Ruleset, Weighted,
};
use crate::stats::{ExactDuelOdds, ExactTtk, Metric};

use super::attack_run::AttackRun;
use super::catalogue::{Catalogue, SECTIONS};
use super::conditions::{Conditions, Facing};
use super::duel::{DuelKernel, PairedDuels};
use super::gunner::{GunnerPlan, defence, plans};
use super::odds::{self, GunnerOdds};
use super::options::Options;
use super::roll::Dice;

/// The Shellshock ruleset.
#[derive(Debug, Clone, Copy)]
pub struct Shellshock;

/// How an attacker fires in engagements: every gunner rolls once a turn with every
/// weapon in range (§5: `ALL_WEAPONS_BEAR`). The only policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Policy;

impl Policy {
    pub const NAMES: &'static [&'static str] = &["all-gunners"];
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::NAMES[0])
    }
}

impl FromStr for Policy {
    type Err = String;
    fn from_str(s: &str) -> Result<Policy, String> {
        if s.trim().eq_ignore_ascii_case(Self::NAMES[0]) {
            Ok(Policy)
        } else {
            Err(format!("unknown Shellshock policy `{s}`: expected {}", Self::NAMES[0]))
        }
    }
}

const DICE_CHOICES: &[&str] = &["card", "d10+d4", "d10+d6", "d10+d8", "2d10"];

const AXES: [AxisSpec; 7] = [
    AxisSpec {
        name: "range",
        flag: "range",
        kind: AxisKind::Integer { min: 0, max: 100_000 },
        default: "24",
        help: "Hexes between attacker and target: +1 TN per RANGE_STEP (12) full hexes; weapons fire up to their range",
        duel_help: "Hexes between the two units",
        label: "Range (hexes)",
        unit: "hexes",
    },
    AxisSpec {
        name: "facing",
        flag: "facing",
        kind: AxisKind::Choice(&Facing::NAMES),
        default: "front",
        help: "The target's section hit: front and rear use the Front/Rear DVs, side the Sides DVs; armour of that section",
        duel_help: "The section each unit presents to the other",
        label: "Facing hit",
        unit: "",
    },
    AxisSpec {
        name: "hull_down",
        flag: "hull-down",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is hull down: the range modifier is doubled",
        duel_help: "Both units are hull down",
        label: "Hull down",
        unit: "",
    },
    AxisSpec {
        name: "point_blank",
        flag: "point-blank",
        kind: AxisKind::Switch,
        default: "false",
        help: "Adjacent hexes: every DV but Missile and Physical is halved (POINT_BLANK_ROUND); range 1 always is point blank, range 0 when this is set",
        duel_help: "The units are adjacent",
        label: "Point blank",
        unit: "",
    },
    AxisSpec {
        name: "immobile",
        flag: "immobile",
        kind: AxisKind::Switch,
        default: "false",
        help: "The target is immobile: its DVs are 0 (stealth and range still count); any natural 5+ hits",
        duel_help: "Both units are immobile",
        label: "Immobile target",
        unit: "",
    },
    AxisSpec {
        name: "dice",
        flag: "dice",
        kind: AxisKind::Choice(DICE_CHOICES),
        default: "card",
        help: "To-hit dice of every gunner: the card's (by era), or a level of the ladder d10+d4, d10+d6, d10+d8, 2d10",
        duel_help: "To-hit dice of both units' gunners",
        label: "To-hit dice",
        unit: "",
    },
    AxisSpec {
        name: "gunnery",
        flag: "gunnery",
        kind: AxisKind::Integer { min: -10, max: 20 },
        default: "0",
        help: "Added to every gunner's Gunnery skill (the catalogue's skill, else SKILL_DEFAULT)",
        duel_help: "Added to every gunner's Gunnery skill on both sides",
        label: "Gunnery bonus",
        unit: "skill",
    },
];

fn unit<'a>(cat: &'a Catalogue, name: &str) -> Result<&'a super::unit::Unit, String> {
    cat.unit(name)
}

fn compile(cat: &Catalogue, a: &str, t: &str, c: &Conditions, o: &Options) -> Result<Vec<GunnerPlan>, String> {
    o.validate()?;
    Ok(plans(cat, unit(cat, a)?, unit(cat, t)?, c, o))
}

impl Ruleset for Shellshock {
    const NAME: &'static str = "shellshock";
    const TITLE: &'static str = "Shellshock Combat System (1996-2016 battlefield rules; illustrative catalogue)";
    const LABEL: &'static str = "Shellshock";
    const TURN: &'static str = "turn";
    const SECTIONS: Sections = SECTIONS;
    const PAIRING: &'static str = "common random numbers: attack runs by one uniform per trial mapped through each side's exact time-to-kill law; duels by one generator per trial that A's and B's duels each replay";
    const POLICIES: &'static [&'static str] = Policy::NAMES;
    const SELECTORS: &'static [crate::rules::kit::select::Prefix] = super::catalogue::SELECTORS;
    const COST_UNIT: &'static str = "ECV";

    type Catalogue = Catalogue;
    type Options = Options;
    type Conditions = Conditions;
    type Policy = Policy;
    type AttackRun = AttackRun;
    type Duel = DuelKernel;
    type PairedRun = QuantilePair;
    type PairedDuel = PairedDuels;
    type Battle = NoBattle;

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
            "{} weapons, {} units, {} charts, {} fields",
            cat.weapons.len(),
            cat.units.len(),
            cat.charts.len(),
            cat.fields.len()
        )
    }

    fn listings() -> &'static [&'static str] {
        &["units", "weapons", "charts", "fields"]
    }

    fn listing(cat: &Catalogue, what: &str) -> Result<Table, String> {
        match what {
            "units" => {
                let mut t = Table::new([
                    "name",
                    "era",
                    "dice",
                    "defense",
                    "armor",
                    "shock_threshold",
                    "penetration_factor",
                    "dead_at",
                    "gunners",
                    "ecv",
                ]);
                for u in &cat.units {
                    let dv: Vec<String> =
                        super::unit::DvType::NAMES.iter().zip(u.defense).map(|(n, v)| format!("{n} {v}")).collect();
                    let gunners: Vec<String> = u
                        .gunners
                        .iter()
                        .map(|g| {
                            g.weapons.iter().map(|&i| cat.weapons[i].name.as_str()).collect::<Vec<_>>().join(" + ")
                        })
                        .collect();
                    t.push(vec![
                        u.name.as_str().into(),
                        u.era.name().into(),
                        u.dice.name().into(),
                        dv.join(", ").into(),
                        format!("{}/{}/{}", u.armor.front, u.armor.side, u.armor.rear).into(),
                        u.shock_threshold.into(),
                        u.penetration_factor.into(),
                        u.dead_at.into(),
                        gunners.join("; ").into(),
                        u.ecv.into(),
                    ]);
                }
                Ok(t)
            }
            "weapons" => {
                let mut t =
                    Table::new(["name", "type", "damage", "shock", "penetration", "spreadfire", "indirect", "range"]);
                for w in &cat.weapons {
                    t.push(vec![
                        w.name.as_str().into(),
                        w.kind.name().into(),
                        w.damage.into(),
                        w.shock.into(),
                        w.penetration.into(),
                        w.spreadfire.into(),
                        w.indirect.into(),
                        w.range.into(),
                    ]);
                }
                Ok(t)
            }
            "charts" => {
                let mut t = Table::new(["name", "equipment"]);
                for c in &cat.charts {
                    let items: Vec<String> = c
                        .equipment
                        .iter()
                        .map(|e| {
                            format!(
                                "{} {} ({} lines, {} hits)",
                                e.letter,
                                e.name,
                                c.lines.iter().filter(|l| **l == e.letter).count(),
                                e.hits
                            )
                        })
                        .collect();
                    t.push(vec![c.name.as_str().into(), items.join("; ").into()]);
                }
                Ok(t)
            }
            "fields" => Ok(crate::rules::sides::fields_table::<Shellshock>(cat)),
            other => Err(format!("unknown listing `{other}`: Shellshock lists units, weapons, charts, fields")),
        }
    }

    fn select(cat: &Catalogue, _role: Role, selector: &str) -> Result<Vec<String>, String> {
        cat.select(selector)
    }

    fn field(cat: &Catalogue, name: &str) -> Result<Vec<Weighted>, String> {
        let f = crate::rules::kit::names::lookup(&cat.fields, |f| f.name.as_str(), name, "field", &cat.origin)?;
        Ok(f.opponents.iter().map(|(n, w)| Weighted { name: n.clone(), weight: *w }).collect())
    }

    fn field_names(cat: &Catalogue) -> Vec<String> {
        cat.fields.iter().map(|f| f.name.clone()).collect()
    }

    fn points(cat: &Catalogue, name: &str) -> Result<f64, String> {
        Ok(unit(cat, name)?.ecv)
    }

    fn display_name(cat: &Catalogue, _role: Role, name: &str) -> Result<String, String> {
        Ok(unit(cat, name)?.name.clone())
    }

    fn target_columns() -> Vec<(&'static str, Kind)> {
        vec![("target_dead_at", Kind::Int)]
    }

    fn target_cells(cat: &Catalogue, target: &str) -> Vec<Cell> {
        vec![cat.unit(target).map_or(Cell::Null, |u| u.dead_at.into())]
    }

    fn axes() -> &'static [AxisSpec] {
        &AXES
    }

    fn flags() -> &'static [AxisSpec] {
        &[]
    }

    fn conditions(p: &Point) -> Result<Conditions, String> {
        let int = |n: &str| p.get(n).parse::<i64>().map_err(|_| format!("{n}: not a whole number"));
        let range = int("range")? as u32;
        let point_blank = p.get("point_blank") == "true";
        if point_blank && range > 1 {
            return Err(format!("point blank means adjacent hexes (range 0 or 1), not range {range}"));
        }
        let facing = match p.get("facing") {
            "side" => Facing::Side,
            "rear" => Facing::Rear,
            _ => Facing::Front,
        };
        let dice = match p.get("dice") {
            "card" | "" => None,
            d => Some(Dice::parse(d)?),
        };
        Ok(Conditions {
            range,
            facing,
            hull_down: p.get("hull_down") == "true",
            point_blank,
            immobile: p.get("immobile") == "true",
            dice,
            gunnery: int("gunnery")? as i32,
        })
    }

    fn describe(c: &Conditions) -> String {
        c.describe()
    }

    fn odds(
        cat: &Catalogue,
        a: &str,
        weapon: Option<&str>,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<OddsReport, String> {
        let (au, tu) = (unit(cat, a)?, unit(cat, t)?);
        if o.full_chart() {
            return Err("odds are exact: MODEL=FULL_CHART is played by Monte Carlo only (ttk, duel)".into());
        }
        let ps = compile(cat, a, t, c, o)?;
        let header = format!("{} vs {} ({})", au.name, tu.name, c.describe());
        let mut r = odds::report(header, &ps, &defence(tu, c), o.damage_dice(), weapon, &au.name, &tu.name)?;
        let turn1 = AttackRun::from_plans(ps, defence(tu, c), o, 1).exact().p_kill;
        r.json.as_object_mut().expect("an object").insert("p_destroyed_turn_1".into(), turn1.into());
        Ok(r)
    }

    fn attack_run(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        _policy: Policy,
        max_turns: u32,
    ) -> Result<AttackRun, String> {
        AttackRun::new(cat, unit(cat, a)?, unit(cat, t)?, c, o, max_turns)
    }

    fn exact_run(run: &AttackRun) -> ExactTtk {
        if run.is_full_chart() {
            // No exact law: every number is NaN rather than the card-free chain's.
            let n = run.max_turns as usize;
            return ExactTtk::unavailable(n, n * run.gunners());
        }
        run.exact()
    }

    fn plan(_cat: &Catalogue, _a: &str, run: &AttackRun) -> Vec<(u32, String)> {
        (1..=run.max_turns)
            .flat_map(|t| {
                run.plans.iter().map(move |g| {
                    let names: Vec<&str> = g.weapons.iter().map(|w| w.name.as_str()).collect();
                    (t, format!("gunner {}: {}", g.number, names.join(" + ")))
                })
            })
            .collect()
    }

    fn duel(
        cat: &Catalogue,
        a: &str,
        b: &str,
        c: &Conditions,
        o: &Options,
        _policy: Policy,
        max_turns: u32,
    ) -> Result<DuelKernel, String> {
        let (au, bu) = (unit(cat, a)?, unit(cat, b)?);
        DuelKernel::new(AttackRun::new(cat, au, bu, c, o, max_turns)?, AttackRun::new(cat, bu, au, c, o, max_turns)?)
    }

    /// A gunner with a weapon in range (type I not under the indirect minimum range).
    fn can_attack(cat: &Catalogue, a: &str, d: &str, c: &Conditions, o: &Options) -> Result<bool, String> {
        Ok(!plans(cat, unit(cat, a)?, unit(cat, d)?, c, o).is_empty())
    }

    fn exact_duel(d: &DuelKernel) -> Option<ExactDuelOdds> {
        (!d.is_full_chart()).then(|| d.exact())
    }

    fn paired_run(a: AttackRun, b: AttackRun, metric: Metric) -> Result<QuantilePair, String> {
        if a.is_full_chart() || b.is_full_chart() {
            return Err("compared attack runs map one uniform through exact laws: not with MODEL=FULL_CHART".into());
        }
        QuantilePair::new(&a.exact(), &b.exact(), metric)
    }

    fn paired_duel(a: DuelKernel, b: DuelKernel, metric: Metric) -> Result<PairedDuels, String> {
        if metric != Metric::Win {
            return Err("duels compare by win".into());
        }
        Ok(PairedDuels { a, b })
    }

    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "gunner_odds",
            attacker_columns: odds::detail_attacker_columns(),
            value_columns: odds::detail_value_columns(),
        }]
    }

    fn detail_charts() -> Vec<DetailChart> {
        vec![DetailChart {
            name: "gunner",
            table: "gunner_odds",
            value: "p_any_hit",
            value_label: "P(the gunner hits with at least one weapon)",
            per: &["attacker", "gunner"],
            rows: "target",
            row_order: Some("target_dead_at"),
            row_order_label: "Dead ",
            x_axes: &["range"],
            panel_axis: None,
        }]
    }

    fn cost_charts() -> Vec<CostChart> {
        vec![CostChart {
            name: "cost-internal-per-turn-per-ecv",
            column: "internal_per_turn_per_ecv",
            weapons: false,
            title: "Expected Internal damage per {turn} (every gunner on the full facing), per ECV",
            value_label: "Internal per {turn} per ECV",
            finding: "Most Internal damage per {turn} per ECV",
            unit: "Internal per {turn} per ECV",
            note: None,
        }]
    }

    fn detail_rows(
        _table: usize,
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<Vec<DetailRow>, String> {
        let ps = compile(cat, a, t, c, o)?;
        Ok(odds::detail_rows(&ps, &defence(unit(cat, t)?, c), o.damage_dice()))
    }

    fn cost_attacker_columns() -> Vec<(&'static str, Kind)> {
        vec![("gunners", Kind::Int)]
    }

    fn cost_value_columns() -> Vec<(&'static str, Kind)> {
        vec![
            ("attacks_per_turn", Kind::Int),
            ("expected_internal_per_turn", Kind::Float),
            ("internal_per_turn_per_ecv", Kind::Float),
            ("expected_internal_per_attack", Kind::Float),
            ("internal_per_ecv", Kind::Float),
        ]
    }

    fn cost_rows(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        run: &AttackRun,
    ) -> Result<Vec<CostRow>, String> {
        let au = unit(cat, a)?;
        let ecv = au.ecv;
        let per = |x: f64| if ecv > 0.0 { Cell::Float(x / ecv) } else { Cell::Null };
        let how = o.damage_dice();
        let odds: Vec<GunnerOdds> = run.plans.iter().map(|p| GunnerOdds::new(p, &run.defence, how)).collect();
        let per_turn: f64 = odds.iter().map(|g| g.expected_internal).sum();
        let n = odds.len();
        let mean = if n > 0 { per_turn / n as f64 } else { 0.0 };
        let _ = (t, c);
        let mut rows = vec![CostRow {
            weapon: None,
            attacker_cells: vec![(au.gunners.len() as u32).into()],
            value_cells: vec![(n as u32).into(), per_turn.into(), per(per_turn), mean.into(), per(mean)],
            p_kill_turn1: None,
        }];
        for (g, plan) in odds.iter().zip(&run.plans) {
            let names: Vec<&str> = plan.weapons.iter().map(|w| w.name.as_str()).collect();
            rows.push(CostRow {
                weapon: Some(format!("gunner {}: {}", g.number, names.join(" + "))),
                attacker_cells: vec![(au.gunners.len() as u32).into()],
                value_cells: vec![
                    1u32.into(),
                    g.expected_internal.into(),
                    per(g.expected_internal),
                    g.expected_internal.into(),
                    per(g.expected_internal),
                ],
                p_kill_turn1: Some(g.p_destroyed),
            });
        }
        Ok(rows)
    }
}

impl RuleOptions for Options {}
