//! MECHCOM: its detail and cost tables, charts and odds cards ([`crate::rules::ruleset::Reports`]).

use super::*;

impl crate::rules::ruleset::Reports for Mechcom {
    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "attack_odds",
            title: "exact odds of one attack",
            about: "One row per weapon of each attacker (its own weapons, then `Unarmed`), per target and \
                    conditions: one attack, exact. In duel scenarios, each side's weapons against the other. A \
                    weapon that cannot attack (out of range, total cover, Artillery without a Spot token, ...) has \
                    nulls and its reason in `no_attack`.",
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

    fn cost_attacker_columns() -> Vec<Column> {
        report::cost_attacker_columns()
    }

    fn cost_value_columns() -> Vec<Column> {
        report::cost_value_columns()
    }

    fn column_notes() -> crate::rules::ruleset::ColumnNotes {
        crate::rules::ruleset::ColumnNotes {
            intro: "Every number of the built-in MECHCOM catalogue apart from the book's printed ones is illustrative \
                    (`loadouts/mechcom/README.md`). Turns are rounds: `mean_turns`, `turn` and `p_kill_turn1` count \
                    rounds, and `mean_actions` counts attacks.",
            points: "`points` and `target_points` are the models' costs (mech, profile and pilot).",
            cost: "`energy` comes after `points`. Weapon rows are written only for weapons that can attack in the \
                   cell; a weapon row's `p_kill_turn1` is its `p_destroy`. The Integrity columns come after the \
                   condition columns, in the order of this table.",
        }
    }

    fn cost_rows(
        cat: &Catalogue,
        a: &str,
        t: &str,
        c: &Setting,
        o: &Options,
        run: &AttackRun,
        policy: RunPolicy,
        max_turns: u32,
    ) -> Result<Vec<CostRow>, String> {
        let am = model(cat, a, c.attacker)?;
        report::cost_rows(&am, cat.model_cost(a), &model(cat, t, c.target)?, c, o, run, (policy, max_turns))
    }

    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        crate::rules::mechcom::card::odds_card(cat, name, ranges, o)
    }
}
