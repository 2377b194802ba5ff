//! Gauntlets: each build duels every opponent of a field over a grid of conditions; the
//! field's weights say how often each opponent is met.

use crate::engine::{Cell, Observer, RunConfig, cell_key, run};
use crate::model::Catalogue;
use crate::output::{Kind, Table};
use crate::rules::techcommander::{Attacker, Conditions, Duel, Policy, Target};
use crate::stats::{DuelSummary, Interval, Z95};

use super::cells::duel_key;
use super::tables::CONDITION_COLUMNS;

/// A gauntlet's tables: per matchup and per build.
pub struct GauntletOutput {
    pub matchups: Table,
    pub summary: Table,
    pub cells: usize,
    pub engagements: u64,
    pub seconds: f64,
}

/// Weighted rate with a normal 95% interval: Σ w p and var Σ w² p(1−p)/n (weights
/// normalised; matchups independent).
pub fn weighted_rate(parts: &[(f64, f64, u64)]) -> (f64, Interval) {
    let total: f64 = parts.iter().map(|p| p.0).sum();
    let p = parts.iter().map(|(w, p, _)| w * p).sum::<f64>() / total;
    let var = parts.iter().map(|(w, p, n)| w * w * p * (1.0 - p) / *n.max(&1) as f64).sum::<f64>() / (total * total);
    let h = Z95 * var.sqrt();
    (p, Interval { low: (p - h).max(0.0), high: (p + h).min(1.0) })
}

/// Run builds against a field of (opponent, weight) over `grid`.
#[allow(clippy::too_many_arguments)]
pub fn run_gauntlet(
    catalogue: &Catalogue,
    builds: &[String],
    field: &[(String, f64)],
    grid: &[Conditions],
    policy: Policy,
    max_turns: u32,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<GauntletOutput, String> {
    let start = std::time::Instant::now();
    let side = |name: &str| -> Result<(Attacker, Target), String> {
        let b = catalogue.find_build(name)?;
        Ok((Attacker::from_build(catalogue, b), Target::from_build(catalogue, b)))
    };
    let mut specs = Vec::new();
    for b in builds {
        let x = side(b)?;
        for (o, w) in field {
            let y = side(o)?;
            for c in grid {
                let kernel = Duel::new((&x.0, &x.1), (&y.0, &y.1), c, policy, max_turns)?;
                specs.push((
                    b.clone(),
                    x.0.points,
                    o.clone(),
                    *w,
                    *c,
                    kernel,
                    cell_key(&duel_key(b, o, c, policy, max_turns)),
                ));
            }
        }
    }
    let cells: Vec<Cell<'_, Duel>> = specs.iter().map(|s| Cell { key: s.6, kernel: &s.5 }).collect();
    let tallies = run(&cells, config, observer)?;
    let summaries: Vec<DuelSummary> = tallies.iter().map(|t| t.summary()).collect();
    let engagements = tallies.iter().map(|t| t.trials).sum();

    let mut matchups = Table::typed(
        &[("build", Kind::Text), ("opponent", Kind::Text), ("weight", Kind::Float)]
            .into_iter()
            .chain(CONDITION_COLUMNS)
            .chain([
                ("trials", Kind::Int),
                ("p_win", Kind::Float),
                ("p_win_ci95_low", Kind::Float),
                ("p_win_ci95_high", Kind::Float),
                ("p_draw", Kind::Float),
                ("p_draw_ci95_low", Kind::Float),
                ("p_draw_ci95_high", Kind::Float),
                ("p_loss", Kind::Float),
                ("p_loss_ci95_low", Kind::Float),
                ("p_loss_ci95_high", Kind::Float),
                ("mean_turns", Kind::Float),
            ])
            .collect::<Vec<_>>(),
    );
    for (s, d) in specs.iter().zip(&summaries) {
        let c = &s.4;
        matchups.push(vec![
            s.0.as_str().into(),
            s.2.as_str().into(),
            s.3.into(),
            c.range.into(),
            c.cover.name().into(),
            c.smoke.name().into(),
            c.movement.name().into(),
            c.statuses.label().into(),
            d.trials.into(),
            d.p_a_wins.into(),
            d.p_a_wins_ci.low.into(),
            d.p_a_wins_ci.high.into(),
            d.p_draw.into(),
            d.p_draw_ci.low.into(),
            d.p_draw_ci.high.into(),
            d.p_b_wins.into(),
            d.p_b_wins_ci.low.into(),
            d.p_b_wins_ci.high.into(),
            d.mean_turns.into(),
        ]);
    }
    let mut summary = Table::typed(&[
        ("build", Kind::Text),
        ("points", Kind::Float),
        ("opponents", Kind::Int),
        ("conditions", Kind::Int),
        ("weighted_p_win", Kind::Float),
        ("weighted_p_win_ci95_low", Kind::Float),
        ("weighted_p_win_ci95_high", Kind::Float),
        ("weighted_p_draw", Kind::Float),
        ("weighted_p_draw_ci95_low", Kind::Float),
        ("weighted_p_draw_ci95_high", Kind::Float),
        ("weighted_p_loss", Kind::Float),
        ("weighted_p_loss_ci95_low", Kind::Float),
        ("weighted_p_loss_ci95_high", Kind::Float),
        ("best_matchup", Kind::Text),
        ("best_p_win", Kind::Float),
        ("worst_matchup", Kind::Text),
        ("worst_p_win", Kind::Float),
    ]);
    let per_condition = 1.0 / grid.len() as f64;
    for b in builds {
        let rows: Vec<usize> = (0..specs.len()).filter(|&i| &specs[i].0 == b).collect();
        let parts = |f: &dyn Fn(&DuelSummary) -> f64| -> Vec<(f64, f64, u64)> {
            rows.iter().map(|&i| (specs[i].3 * per_condition, f(&summaries[i]), summaries[i].trials)).collect()
        };
        let (win, win_ci) = weighted_rate(&parts(&|d| d.p_a_wins));
        let (draw, draw_ci) = weighted_rate(&parts(&|d| d.p_draw));
        let (loss, loss_ci) = weighted_rate(&parts(&|d| d.p_b_wins));
        // best and worst opponent: win rate averaged over conditions
        let mut by_opponent: Vec<(String, f64)> = field
            .iter()
            .map(|(o, _)| {
                let ps: Vec<f64> = rows.iter().filter(|&&i| &specs[i].2 == o).map(|&i| summaries[i].p_a_wins).collect();
                (o.clone(), ps.iter().sum::<f64>() / ps.len().max(1) as f64)
            })
            .collect();
        by_opponent.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let best = by_opponent.first().cloned().unwrap_or_default();
        let worst = by_opponent.last().cloned().unwrap_or_default();
        summary.push(vec![
            b.as_str().into(),
            catalogue.build(b).map(|x| x.points).unwrap_or(0.0).into(),
            (field.len() as u32).into(),
            (grid.len() as u32).into(),
            win.into(),
            win_ci.low.into(),
            win_ci.high.into(),
            draw.into(),
            draw_ci.low.into(),
            draw_ci.high.into(),
            loss.into(),
            loss_ci.low.into(),
            loss_ci.high.into(),
            best.0.into(),
            best.1.into(),
            worst.0.into(),
            worst.1.into(),
        ]);
    }
    Ok(GauntletOutput { matchups, summary, cells: specs.len(), engagements, seconds: start.elapsed().as_secs_f64() })
}
