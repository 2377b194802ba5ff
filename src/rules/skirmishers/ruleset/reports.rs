//! Skirmishers: its detail and cost tables, charts and odds cards ([`crate::rules::ruleset::Reports`]).

use super::*;

impl crate::rules::ruleset::Reports for Skirmishers {
    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "track_odds",
            title: "exact odds of one attack",
            about: "One row per weapon of each attacker, per target and conditions: one attack on the fresh target, \
                    exact. A weapon that cannot attack has nulls and its reason in `no_attack`.",
            attacker_columns: vec![Column::text("weapon", "weapon name")],
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

    fn cost_attacker_columns() -> Vec<Column> {
        vec![Column::text("attacker_experience", "the attacker's experience")]
    }

    fn cost_value_columns() -> Vec<Column> {
        report::cost_value_columns()
    }

    fn column_notes() -> crate::rules::ruleset::ColumnNotes {
        crate::rules::ruleset::ColumnNotes {
            intro: "Every trooper of the built-in Skirmishers catalogue is illustrative; the weapons are the book's \
                    (`loadouts/skirmishers/README.md`). Turns are rounds of the turn sequence.",
            points: "`points` and `target_points` are the troopers' PV.",
            cost: "`attacker_experience` comes after `points`. Weapon rows are written only for weapons that can \
                   attack in the cell; a weapon row's `p_kill_turn1` is its `p_out`.",
        }
    }

    fn cost_rows(
        cat: &Catalogue,
        attacker: &str,
        target: &str,
        c: &Conditions,
        o: &Options,
        run: &AttackRun,
        _policy: <Self as crate::rules::ruleset::Game>::Policy,
        _max_turns: u32,
    ) -> Result<Vec<CostRow>, String> {
        Ok(report::cost_rows(trooper_of(cat, attacker)?, trooper_of(cat, target)?, c, o, run))
    }

    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        crate::rules::skirmishers::card::odds_card(cat, name, ranges, o)
    }
}
