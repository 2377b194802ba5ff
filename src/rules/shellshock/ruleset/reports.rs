//! Shellshock: its detail and cost tables, charts and odds cards ([`crate::rules::ruleset::Reports`]).

use super::*;

impl crate::rules::ruleset::Reports for Shellshock {
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
