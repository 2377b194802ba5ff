//! Gauntlets: each build duels every opponent of a field over a grid of conditions; the
//! field's weights say how often each opponent is met.

use crate::engine::{Cell, Observer, RunConfig, cell_key, run};
use crate::output::{Kind, Table};
use crate::rules::techcommander::catalogue::Catalogue;
use crate::rules::techcommander::{Attacker, Conditions, Duel, Policy, Target};
use crate::stats::newcombe::weighted;
use crate::stats::{DuelSummary, Interval, wilson95};

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

/// Weighted rate and its 95% interval from per-matchup (weight, successes, trials):
/// Σ w p / Σ w, with the MOVER interval of the matchups' Wilson intervals (matchups are
/// independent; see [`crate::stats::newcombe::weighted`]). Valid at 0 and 1: a rate of
/// 0 gets an upper limit above 0.
pub fn weighted_rate(parts: &[(f64, u64, u64)]) -> (f64, Interval) {
    let v: Vec<(f64, f64, Interval)> =
        parts.iter().map(|&(w, k, n)| (w, k as f64 / n.max(1) as f64, wilson95(k, n))).collect();
    let (p, i) = weighted(&v).unwrap_or((f64::NAN, Interval { low: f64::NAN, high: f64::NAN }));
    (p, Interval { low: i.low.max(0.0), high: i.high.min(1.0) })
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
                let kernel = Duel::new(
                    (&x.0, &x.1),
                    (&y.0, &y.1),
                    c,
                    &crate::rules::techcommander::Options::default(),
                    policy,
                    max_turns,
                )?;
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
        ("p_win_per_point", Kind::Float),
        ("field_points", Kind::Float),
    ]);
    // The field's points, weighted by how often each opponent is met.
    let field_weight: f64 = field.iter().map(|(_, w)| w).sum();
    let field_points =
        field.iter().map(|(o, w)| w * catalogue.build(o).map_or(f64::NAN, |x| x.points)).sum::<f64>() / field_weight;
    let per_condition = 1.0 / grid.len() as f64;
    for b in builds {
        let rows: Vec<usize> = (0..specs.len()).filter(|&i| &specs[i].0 == b).collect();
        let parts = |f: &dyn Fn(&crate::stats::DuelTally) -> u64| -> Vec<(f64, u64, u64)> {
            rows.iter().map(|&i| (specs[i].3 * per_condition, f(&tallies[i]), tallies[i].trials)).collect()
        };
        let (win, win_ci) = weighted_rate(&parts(&|d| d.a_wins()));
        let (draw, draw_ci) = weighted_rate(&parts(&|d| d.draws()));
        let (loss, loss_ci) = weighted_rate(&parts(&|d| d.b_wins()));
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
        let points = catalogue.build(b).map(|x| x.points).unwrap_or(0.0);
        summary.push(vec![
            b.as_str().into(),
            points.into(),
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
            (if points > 0.0 { win / points } else { f64::NAN }).into(),
            field_points.into(),
        ]);
    }
    Ok(GauntletOutput { matchups, summary, cells: specs.len(), engagements, seconds: start.elapsed().as_secs_f64() })
}
