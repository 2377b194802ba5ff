//! Shellshock: its detail and cost tables, charts and odds cards ([`crate::rules::ruleset::Reports`]).

use super::*;

impl crate::rules::ruleset::Reports for Shellshock {
    fn detail_tables() -> Vec<DetailTable> {
        vec![DetailTable {
            name: "gunner_odds",
            title: "exact odds of one gunner's roll",
            about: "One row per gunner of each attacker that fires, per target and conditions: one roll on the \
                    untouched facing, exact.",
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
        vec![
            CostChart {
                name: "cost-internal-per-turn-per-ecv",
                column: "internal_per_turn_per_ecv",
                weapons: false,
                title: "Expected Internal damage per {turn} (every gunner on the full facing), per ECV",
                value_label: "Internal per {turn} per ECV",
                finding: "Most Internal damage per {turn} per ECV",
                unit: "Internal per {turn} per ECV",
                note: None,
            },
            CostChart {
                name: "cost-gunner-internal-per-roll",
                column: "expected_internal_per_attack",
                weapons: true,
                title: "Gunners: expected Internal damage per roll (one roll a {turn})",
                value_label: "Internal per roll",
                finding: "Gunners that do the most Internal damage per roll",
                unit: "Internal per roll",
                note: None,
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
        let ps = compile(cat, a, t, c, o)?;
        Ok(odds::detail_rows(&ps, &defence(unit(cat, t)?, c), o.damage_dice()))
    }

    fn cost_attacker_columns() -> Vec<Column> {
        vec![Column::int("gunners", "the attacker's gunners")]
    }

    fn cost_value_columns() -> Vec<Column> {
        vec![
            Column::int("attacks_per_turn", "build rows: gunners that fire in turn 1; weapon rows: 1"),
            Column::float(
                "expected_internal_per_turn",
                "build rows: expected Internal of every gunner's roll in turn 1; weapon rows: of one roll",
            ),
            Column::float(
                "internal_per_turn_per_ecv",
                "build rows: `expected_internal_per_turn` / the attacker's ECV; null on weapon rows (see \
                 `marginal_internal_per_turn_per_ecv`)",
            ),
            Column::float(
                "expected_internal_per_attack",
                "build rows: the mean over the gunners that fire; weapon rows: one roll",
            ),
            Column::float(
                "internal_per_ecv",
                "build rows: `expected_internal_per_attack` / the attacker's ECV; null on weapon rows",
            ),
            Column::float(
                "marginal_internal_per_turn",
                "weapon rows: the gunner's marginal value, the unit's `expected_internal_per_turn` with the \
                 gunner's weapons minus without them (the book prices no weapon; each gunner rolls for its own \
                 weapons, so this is its roll's expected Internal); null on build rows",
            ),
            Column::float(
                "marginal_internal_per_turn_per_ecv",
                "weapon rows: `marginal_internal_per_turn` / the unit's ECV (is this gunner's fire worth its share \
                 of the unit's ECV?); null on build rows",
            ),
        ]
    }

    fn column_notes() -> crate::rules::ruleset::ColumnNotes {
        crate::rules::ruleset::ColumnNotes {
            intro: "Every unit and weapon of the built-in Shellshock catalogue but the 30mm Machine Gun is \
                    illustrative (`loadouts/shellshock/README.md`). Tables use the card-free model (shellshock.md \
                    §3).",
            points: "`points` and `target_points` are the units' ECV.",
            cost: "`gunners` comes after `points`. Weapon rows are one per gunner that fires, `weapon` naming it \
                   (`gunner 1: 88mm Gun + MG`); a weapon row's `p_kill_turn1` is its `p_destroyed`.",
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
            value_cells: vec![
                (n as u32).into(),
                per_turn.into(),
                per(per_turn),
                mean.into(),
                per(mean),
                Cell::Null,
                Cell::Null,
            ],
            p_kill_turn1: None,
        }];
        for (i, (g, plan)) in odds.iter().zip(&run.plans).enumerate() {
            let names: Vec<&str> = plan.weapons.iter().map(|w| w.name.as_str()).collect();
            let without: f64 = odds.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, x)| x.expected_internal).sum();
            let marginal = per_turn - without;
            rows.push(CostRow {
                weapon: Some(format!("gunner {}: {}", g.number, names.join(" + "))),
                attacker_cells: vec![(au.gunners.len() as u32).into()],
                value_cells: vec![
                    1u32.into(),
                    g.expected_internal.into(),
                    Cell::Null,
                    g.expected_internal.into(),
                    Cell::Null,
                    marginal.into(),
                    per(marginal),
                ],
                p_kill_turn1: Some(g.p_destroyed),
            });
        }
        Ok(rows)
    }

    const ODDS_CARDS: bool = true;

    fn odds_card(
        cat: &Catalogue,
        name: &str,
        ranges: &[f64],
        o: &Options,
    ) -> Result<crate::charts::card::Card, String> {
        crate::rules::shellshock::card::odds_card(cat, name, ranges, o)
    }
}
