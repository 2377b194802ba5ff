//! TechCommander: its detail and cost tables, charts and odds cards ([`crate::rules::ruleset::Reports`]).

use super::*;

impl crate::rules::ruleset::Reports for TechCommander {
    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        crate::rules::techcommander::card::odds_card(cat, name, ranges, o)
    }

    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "hit_probability",
            title: "exact per-action odds",
            about: "One row per weapon system of each attacker, per target and conditions. All values exact. In duel \
                    scenarios, each side's weapons against the other.",
            attacker_columns: report::hit_attacker_columns(),
            value_columns: report::hit_value_columns(),
        }]
    }

    fn detail_charts() -> Vec<DetailChart> {
        vec![DetailChart {
            name: "hit",
            table: "hit_probability",
            value: "p_hit",
            value_label: "Hit chance per shot",
            per: &["attacker", "weapon"],
            rows: "target",
            row_order: Some("target_ac"),
            row_order_label: "AC",
            x_axes: &["cover", "range"],
            panel_axis: Some("smoke"),
        }]
    }

    fn cost_charts() -> Vec<CostChart> {
        vec![
            CostChart {
                name: "cost-life-per-turn-per-point",
                column: "life_per_turn_per_point",
                weapons: false,
                title: "Expected life taken per {turn} (all attacks of {turn} 1), per point",
                value_label: "life per {turn} per point",
                finding: "Most life taken per {turn} per point (every attack of its {turn})",
                unit: "life per {turn} per point",
                note: None,
            },
            CostChart {
                name: "cost-weapon-life-per-ton",
                column: "life_per_ton",
                weapons: true,
                title: "Weapons: expected life taken per attack (at most one a {turn}), per ton",
                value_label: "life per attack per ton (limited rounds in brackets)",
                finding: "Weapons that dominate per ton (one attack a {turn} each; limited rounds in brackets)",
                unit: "life per attack per ton",
                note: Some(("rounds", "rounds")),
            },
        ]
    }

    fn detail_rows(
        _table: usize,
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
    ) -> Result<Vec<DetailRow>, String> {
        edition::check_conditions(c, o)?;
        let a = attacker(cat, a, o)?;
        a.check_movement(c.movement)?;
        Ok(report::hit_rows(&a, &engaged_target(cat, t, o)?, c, o))
    }

    fn cost_attacker_columns() -> Vec<Column> {
        report::cost_attacker_columns()
    }

    fn cost_value_columns() -> Vec<Column> {
        report::cost_value_columns()
    }

    fn column_notes() -> crate::rules::ruleset::ColumnNotes {
        crate::rules::ruleset::ColumnNotes {
            intro: "",
            points: "`points` is the build's points cost (default: its AC); `target_points` the target's (AC for \
                     `ac:N`).",
            cost: "`weight`, `power` and `rounds` come after `points`; the life columns after the condition columns, \
                   in the order of this table.",
        }
    }

    fn cost_rows(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Conditions,
        o: &Options,
        run: &AttackRun,
        _policy: <Self as crate::rules::ruleset::Game>::Policy,
        _max_turns: u32,
    ) -> Result<Vec<CostRow>, String> {
        let b = cat.find_build(a)?;
        let attacker = attacker(cat, a, o)?;
        Ok(report::cost_rows(&attacker, b.weight, b.power, &engaged_target(cat, t, o)?, c, o, run))
    }
}
