//! Gauntlets: each build duels every opponent of a field over a grid of conditions; the
//! field's weights say how often each opponent is met.

use crate::catalogue::force::ForceSpec;
use crate::engine::{Cell, Observer, RunConfig, cell_key};
use crate::output::{Column, Table};
use crate::rules::axis::{Point, RANGE_AXIS};
use crate::rules::ruleset::{RuleOptions, Ruleset};
use crate::stats::estimate::{Estimate, best};
use crate::stats::newcombe::weighted;
use crate::stats::{InitiativeSplit, Interval, wilson95};

use super::battles::BattleTerms;
use super::cells::CellSpec;
use super::reach::{battle_reach, duel_reach};
use super::shard::Plays;
use super::tables::{ENGAGEMENT_FACTS, Part, RULESET, Supplied, TableDecl, engagement_cells};

/// A gauntlet's tables: per matchup and per build.
pub struct GauntletOutput {
    pub matchups: Table,
    pub summary: Table,
    /// The matchup counts behind the tables (empty for a shard's share).
    pub rows: Vec<Matchup>,
    /// The sides (builds or forces) and their costs, in order (empty for a shard's share).
    pub sides: Vec<(String, f64)>,
    pub cells: usize,
    pub engagements: u64,
    pub seconds: f64,
    /// One warning line per matchup in which a side cannot attack (build or opponent,
    /// its name and the conditions in words), in matchup order; no newlines.
    pub one_sided: Vec<String>,
}

/// The warning lines of `rows` whose build or opponent cannot attack; `describe` gives
/// a point's conditions in words.
fn one_sided_lines(rows: &[Matchup], describe: &dyn Fn(&Point) -> String) -> Vec<String> {
    let mut out = Vec::new();
    for m in rows.iter().filter(|m| m.one_sided()) {
        let at = describe(&m.point);
        if !m.can_attack.0 {
            out.push(format!(
                "one-sided: build {} cannot attack {} at {at} (none of its weapons can fire there)",
                m.side, m.opponent
            ));
        }
        if !m.can_attack.1 {
            out.push(format!(
                "one-sided: opponent {} cannot attack {} at {at} (none of its weapons can fire there)",
                m.opponent, m.side
            ));
        }
    }
    out
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

/// One matchup cell of a gauntlet: a side against one opponent at one point, counted
/// from the side's view.
#[derive(Debug, Clone)]
pub struct Matchup {
    pub side: String,
    pub opponent: String,
    /// How often the opponent is met (the field's weight).
    pub weight: f64,
    pub point: Point,
    /// The point's weight in the grid (the grid's weights add to 1; an even grid's are
    /// 1/n; a range envelope's are its range weights).
    pub point_weight: f64,
    pub trials: u64,
    pub wins: u64,
    /// Draws (duels: mutual kills and timeouts; battles: draws and undecided battles).
    pub draws: u64,
    pub losses: u64,
    pub mean_turns: Option<f64>,
    /// Whether the side can attack the opponent, and the opponent the side, at the point.
    pub can_attack: (bool, bool),
    /// The side's win rate by who acted first.
    pub initiative: InitiativeSplit,
    /// Battles: the opponent's points the side destroyed, in thousandths, summed over
    /// the trials, and the opponent's points in thousandths (a battle destroys at most
    /// that); (0, 0) for duels.
    pub destroyed_milli: (u64, u64),
}

impl Matchup {
    /// Whether either side cannot attack.
    pub fn one_sided(&self) -> bool {
        !(self.can_attack.0 && self.can_attack.1)
    }
}

impl GauntletOutput {
    /// A shard's share of a gauntlet: cells and engagements played, no tables.
    fn played(cells: usize, engagements: u64, start: std::time::Instant) -> GauntletOutput {
        let none = || Table::new(Vec::<String>::new());
        GauntletOutput {
            matchups: none(),
            summary: none(),
            rows: Vec::new(),
            sides: Vec::new(),
            cells,
            engagements,
            seconds: start.elapsed().as_secs_f64(),
            one_sided: Vec::new(),
        }
    }

    /// A whole gauntlet's output (or the merged shards'): the tables of `rows` for the
    /// `sides` (name, cost) against `field` (name, weight), whose mean cost weighted by
    /// how often each opponent is met is `field_points`, over `n_points` condition points.
    #[allow(clippy::too_many_arguments)]
    fn tabled<R: Ruleset>(
        sides: Vec<(String, f64)>,
        field: &[(String, f64)],
        field_points: f64,
        n_points: usize,
        rows: Vec<Matchup>,
        cells: usize,
        engagements: u64,
        start: std::time::Instant,
    ) -> GauntletOutput {
        let (matchups, summary) = gauntlet_tables(R::NAME, R::axes(), &sides, field, field_points, n_points, &rows);
        let describe = |p: &Point| R::conditions(p).map_or_else(|_| p.key(), |c| R::describe(&c));
        GauntletOutput {
            matchups,
            summary,
            one_sided: one_sided_lines(&rows, &describe),
            rows,
            sides,
            cells,
            engagements,
            seconds: start.elapsed().as_secs_f64(),
        }
    }
}

/// Point `i`'s weight of a grid of `n` points: `weights[i]` (weights that add to 1), or
/// 1/n when `weights` is empty (every point alike).
pub fn point_weight(weights: &[f64], i: usize, n: usize) -> f64 {
    weights.get(i).copied().unwrap_or(1.0 / n.max(1) as f64)
}

/// Run sides against a field of (opponent, weight) over the grid `points`, weighted by
/// `point_weights` (one per point, adding to 1; empty: every point alike), with the
/// tallies from `plays` (every stream, a shard's share, or the merged shards: see
/// [`super::shard`]; a share's output has no tables).
///
/// # Errors
/// Unknown names, cells the ruleset refuses, or a cancelled run.
#[allow(clippy::too_many_arguments)]
pub fn run_gauntlet<R: Ruleset>(
    catalogue: &R::Catalogue,
    builds: &[String],
    field: &[(String, f64)],
    points: &[Point],
    point_weights: &[f64],
    options: &R::Options,
    policy: R::Policy,
    max_turns: u32,
    config: &RunConfig,
    observer: &dyn Observer,
    plays: &Plays<'_>,
) -> Result<GauntletOutput, String> {
    let start = std::time::Instant::now();
    let pairs = options.pairs();
    let policy_name = policy.to_string();
    let key = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns };
    let mut specs = Vec::new();
    let mut sides = Vec::new();
    for b in builds {
        sides.push((b.clone(), R::points(catalogue, b)?));
        for (o, w) in field {
            for (i, p) in points.iter().enumerate() {
                let c = R::conditions(p)?;
                R::check_engagement(&c)?;
                let kernel = R::duel(catalogue, b, o, &c, options, policy, max_turns)?;
                let can = duel_reach::<R>(catalogue, b, o, &c, options);
                let pw = point_weight(point_weights, i, points.len());
                specs.push((b.clone(), o.clone(), *w, p.clone(), kernel, cell_key(&key.duel(b, o, p)), can, pw));
            }
        }
    }
    let cells: Vec<Cell<'_, R::Duel>> = specs.iter().map(|s| Cell { key: s.5, kernel: &s.4 }).collect();
    let tallies = plays.run(&cells, config, observer)?;
    let engagements = tallies.iter().map(|t| t.trials).sum();
    if !plays.wants_tables() {
        return Ok(GauntletOutput::played(specs.len(), engagements, start));
    }
    let rows: Vec<Matchup> = specs
        .iter()
        .zip(&tallies)
        .map(|(s, t)| Matchup {
            side: s.0.clone(),
            opponent: s.1.clone(),
            weight: s.2,
            point: s.3.clone(),
            point_weight: s.7,
            trials: t.trials,
            wins: t.a_wins(),
            draws: t.draws(),
            losses: t.b_wins(),
            mean_turns: t.summary().mean_turns,
            can_attack: s.6,
            initiative: t.initiative(),
            destroyed_milli: (0, 0),
        })
        .collect();
    // The field's points, weighted by how often each opponent is met.
    let field_weight: f64 = field.iter().map(|(_, w)| w).sum();
    let field_points =
        field.iter().map(|(o, w)| w * R::points(catalogue, o).unwrap_or(f64::NAN)).sum::<f64>() / field_weight;
    Ok(GauntletOutput::tabled::<R>(sides, field, field_points, points.len(), rows, specs.len(), engagements, start))
}

/// Forces against a field of (force, weight) over the grid `points` (weighted as
/// [`run_gauntlet`] weighs them), the point's conditions for both sides: the same tables as [`run_gauntlet`], a force as a side
/// (`build` column) and as an opponent. Cells are keyed as `volley battle` keys them, so
/// a matchup has the numbers of `volley battle FORCE OPPONENT` at that point and seed.
/// The tallies come from `plays`, as for [`run_gauntlet`].
///
/// # Errors
/// A battle the ruleset refuses (unknown build, over budget), or a cancelled run.
#[allow(clippy::too_many_arguments)]
pub fn run_battle_gauntlet<R: Ruleset>(
    catalogue: &R::Catalogue,
    forces: &[ForceSpec],
    field: &[(ForceSpec, f64)],
    points: &[Point],
    point_weights: &[f64],
    options: &R::Options,
    rules: BattleTerms<'_>,
    config: &RunConfig,
    observer: &dyn Observer,
    plays: &Plays<'_>,
) -> Result<GauntletOutput, String> {
    let start = std::time::Instant::now();
    let pairs = options.pairs();
    let mut specs = Vec::new();
    let mut sides: Vec<(String, f64)> = Vec::new();
    let mut opponent_points = vec![f64::NAN; field.len()];
    for f in forces {
        for (oi, (o, w)) in field.iter().enumerate() {
            for (i, p) in points.iter().enumerate() {
                let c = R::conditions(p)?;
                R::check_engagement(&c)?;
                let (kernel, info) = rules.compile::<R>(catalogue, f, o, c, options)?;
                let reach = battle_reach::<R>(catalogue, &info, &[c], options, None);
                let can = (reach.can_attack(0), reach.can_attack(1));
                if !sides.iter().any(|s| s.0 == f.name) {
                    sides.push((f.name.clone(), info.sides[0].1));
                }
                opponent_points[oi] = info.sides[1].1;
                let whole = super::forces::milli(info.sides[1].1);
                let spec =
                    CellSpec { ruleset: R::NAME, options: &pairs, policy: &info.policy, max_turns: info.max_turns };
                let key = spec.battle(info.mode, &[f.canonical(), o.canonical()], &[p.clone(), p.clone()]);
                let pw = point_weight(point_weights, i, points.len());
                specs.push((f.name.clone(), o.name.clone(), *w, p.clone(), kernel, cell_key(&key), can, pw, whole));
            }
        }
    }
    let cells: Vec<Cell<'_, R::Battle>> = specs.iter().map(|s| Cell { key: s.5, kernel: &s.4 }).collect();
    let tallies = plays.run(&cells, config, observer)?;
    let engagements = tallies.iter().map(|t| t.trials).sum();
    if !plays.wants_tables() {
        return Ok(GauntletOutput::played(specs.len(), engagements, start));
    }
    let rows: Vec<Matchup> = specs
        .iter()
        .zip(&tallies)
        .map(|(s, t)| Matchup {
            side: s.0.clone(),
            opponent: s.1.clone(),
            weight: s.2,
            point: s.3.clone(),
            point_weight: s.7,
            trials: t.trials,
            wins: t.wins[0],
            draws: t.draws + t.undecided,
            losses: t.wins[1],
            mean_turns: t.summary().mean_turns.map(|m| m.0),
            can_attack: s.6,
            initiative: t.initiative(0),
            destroyed_milli: (u64::try_from(t.points_destroyed[0].0).unwrap_or(u64::MAX), s.8),
        })
        .collect();
    let named: Vec<(String, f64)> = field.iter().map(|(f, w)| (f.name.clone(), *w)).collect();
    let field_weight: f64 = named.iter().map(|(_, w)| w).sum();
    let field_points = named.iter().zip(&opponent_points).map(|((_, w), p)| w * p).sum::<f64>() / field_weight;
    Ok(GauntletOutput::tabled::<R>(sides, &named, field_points, points.len(), rows, specs.len(), engagements, start))
}

/// `gauntlet_matchups`.
pub const MATCHUPS: TableDecl = TableDecl {
    name: "gauntlet_matchups",
    title: "",
    about: "One row per build, opponent and conditions. With `--battle`, `build` and `opponent` are forces and \
            `p_draw` counts draws and undecided battles. Side A is the build, side B the opponent.",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("build", "the build (or force) run against the field"),
            Column::text("opponent", "the opponent of the field"),
            Column::float("weight", "the opponent's weight in the field"),
        ]),
        Part::Conditions,
        Part::Own(&[
            Column::int("trials", "duels (or battles) played"),
            Column::float("p_win", "P(build wins), with its Wilson 95% interval").with_ci95(),
            Column::float("p_draw", "P(draw), with its Wilson 95% interval").with_ci95(),
            Column::float("p_loss", "P(build loses), with its Wilson 95% interval").with_ci95(),
            Column::float("mean_turns", "mean turns (or rounds) of a duel (or battle)"),
        ]),
        Part::Own(ENGAGEMENT_FACTS),
    ],
};

/// `gauntlet_summary`.
pub const SUMMARY: TableDecl = TableDecl {
    name: "gauntlet_summary",
    title: "",
    about: "One row per build. The weighted rates weight the opponents by their weights (normalised) and the \
            conditions by theirs (equally, or a range envelope's weights); their intervals are MOVER \
            combinations of the matchups' Wilson intervals.",
    parts: &[Part::Own(&[
        RULESET,
        Column::text("build", "the build (or force)"),
        Column::float("points", "its points cost"),
        Column::int("opponents", "opponents in the field"),
        Column::int("conditions", "condition sets played"),
        Column::float("weighted_p_win", "the weighted win rate against the field, with its 95% interval").with_ci95(),
        Column::float("weighted_p_draw", "the weighted draw rate, with its 95% interval").with_ci95(),
        Column::float("weighted_p_loss", "the weighted loss rate, with its 95% interval").with_ci95(),
        Column::text("best_matchup", "the opponent it beats most often (win rate averaged over conditions)"),
        Column::float("best_p_win", "its win rate against `best_matchup`"),
        Column::text("worst_matchup", "the opponent it beats least often (win rate averaged over conditions)"),
        Column::float("worst_p_win", "its win rate against `worst_matchup`"),
        Column::float(
            "p_win_per_point",
            "`weighted_p_win` / the build's points, with its 95% interval (`weighted_p_win`'s interval divided by the \
             points: the cost is a constant); times 100, the wins per 100 points",
        )
        .with_ci95(),
        Column::text(
            "p_win_per_point_tied_with",
            "the other builds whose `p_win_per_point` is a statistical tie with this one's (the 95% interval of the \
             difference holds 0: Newcombe's interval for independent rates, each scaled by 1/points, as builds play \
             on separate streams), separated by commas; empty: none",
        ),
        Column::float("field_points", "the field's mean points, weighted by how often each opponent is met"),
        Column::text("best_range", "the range at which its weighted win rate is highest (the first of equal ones)"),
        Column::float("best_range_p_win", "its weighted win rate at `best_range`, with its 95% interval").with_ci95(),
        Column::text(
            "best_range_tied_with",
            "the other ranges whose win rate is a statistical tie with `best_range`'s (the 95% interval of the \
             difference holds 0), separated by commas; empty: none, or one range played",
        ),
        Column::int(
            "one_sided_matchups",
            "matchup rows (opponent and conditions) in which the build or its opponent cannot attack (see \
             `gauntlet_matchups`' `a_can_attack`, `b_can_attack`): they count in the rates above",
        ),
    ])],
};

/// The `gauntlet_matchups` and `gauntlet_summary` tables from matchup counts: per side
/// (name, points), the field's weighted win, draw and loss rates over the field and the
/// `n_points` condition points (each point weighted equally).
pub(super) fn gauntlet_tables(
    ruleset: &str,
    axes: &[crate::rules::axis::AxisSpec],
    sides: &[(String, f64)],
    field: &[(String, f64)],
    field_points: f64,
    n_points: usize,
    rows: &[Matchup],
) -> (Table, Table) {
    let mut matchups = MATCHUPS.table(&Supplied { axes, ..Supplied::default() });
    let p = |k: u64, n: u64| k as f64 / n.max(1) as f64;
    for m in rows {
        let mut row = vec![ruleset.into(), m.side.as_str().into(), m.opponent.as_str().into(), m.weight.into()];
        row.extend(m.point.cells(axes));
        let (win, draw, loss) = (wilson95(m.wins, m.trials), wilson95(m.draws, m.trials), wilson95(m.losses, m.trials));
        row.extend([
            m.trials.into(),
            p(m.wins, m.trials).into(),
            win.low.into(),
            win.high.into(),
            p(m.draws, m.trials).into(),
            draw.low.into(),
            draw.high.into(),
            p(m.losses, m.trials).into(),
            loss.low.into(),
            loss.high.into(),
            m.mean_turns.into(),
        ]);
        row.extend(engagement_cells(m.can_attack, &m.initiative));
        matchups.push(row);
    }
    let mut summary = SUMMARY.table(&Supplied::default());
    let mut ranges: Vec<&str> = Vec::new();
    for m in rows {
        let r = m.point.get(RANGE_AXIS);
        if !ranges.contains(&r) {
            ranges.push(r);
        }
    }
    let per_point = per_point_rates(sides, rows);
    for (bi, (b, b_points)) in sides.iter().enumerate() {
        let mine: Vec<&Matchup> = rows.iter().filter(|m| &m.side == b).collect();
        let parts_of = |ms: &[&Matchup], f: &dyn Fn(&Matchup) -> u64| -> Vec<(f64, u64, u64)> {
            ms.iter().map(|m| (m.weight * m.point_weight, f(m), m.trials)).collect()
        };
        let parts = |f: &dyn Fn(&Matchup) -> u64| parts_of(&mine, f);
        let (win, win_ci) = weighted_rate(&parts(&|m| m.wins));
        let (draw, draw_ci) = weighted_rate(&parts(&|m| m.draws));
        let (loss, loss_ci) = weighted_rate(&parts(&|m| m.losses));
        let at_range: Vec<Estimate> = ranges
            .iter()
            .map(|r| {
                let here: Vec<&Matchup> = mine.iter().copied().filter(|m| m.point.get(RANGE_AXIS) == *r).collect();
                let (value, ci) = weighted_rate(&parts_of(&here, &|m| m.wins));
                Estimate { value, ci }
            })
            .collect();
        let best_range = best(&at_range, true);
        // best and worst opponent: win rate averaged over conditions (by their weights)
        let mut by_opponent: Vec<(String, f64)> = field
            .iter()
            .map(|(o, _)| {
                let ps: Vec<(f64, f64)> =
                    mine.iter().filter(|m| &m.opponent == o).map(|m| (m.point_weight, p(m.wins, m.trials))).collect();
                let total: f64 = ps.iter().map(|x| x.0).sum();
                (o.clone(), if total > 0.0 { ps.iter().map(|(w, x)| w * x).sum::<f64>() / total } else { 0.0 })
            })
            .collect();
        by_opponent.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(&y.0)));
        let best = by_opponent.first().cloned().unwrap_or_default();
        let worst = by_opponent.last().cloned().unwrap_or_default();
        summary.push(vec![
            ruleset.into(),
            b.as_str().into(),
            (*b_points).into(),
            (field.len() as u32).into(),
            (n_points as u32).into(),
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
            per_point[bi].map_or(f64::NAN, |e| e.value).into(),
            per_point[bi].map_or(f64::NAN, |e| e.ci.low).into(),
            per_point[bi].map_or(f64::NAN, |e| e.ci.high).into(),
            tied_per_point(sides, &per_point, bi).join(", ").into(),
            field_points.into(),
            best_range.as_ref().map(|x| ranges[x.index].to_string()).into(),
            best_range.as_ref().map(|x| at_range[x.index].value).into(),
            best_range.as_ref().map(|x| at_range[x.index].ci.low).into(),
            best_range.as_ref().map(|x| at_range[x.index].ci.high).into(),
            best_range.as_ref().map(|x| x.tied.iter().map(|&i| ranges[i]).collect::<Vec<_>>().join(", ")).into(),
            (mine.iter().filter(|m| m.one_sided()).count() as u64).into(),
        ]);
    }
    (matchups, summary)
}

/// Each side's weighted win rate per point of its cost, with its 95% interval (the win
/// rate's interval divided by the cost, a constant); `None` without a positive cost.
fn per_point_rates(sides: &[(String, f64)], rows: &[Matchup]) -> Vec<Option<Estimate>> {
    sides
        .iter()
        .map(|(b, points)| {
            let parts: Vec<(f64, u64, u64)> =
                rows.iter().filter(|m| &m.side == b).map(|m| (m.weight * m.point_weight, m.wins, m.trials)).collect();
            let (win, ci) = weighted_rate(&parts);
            (*points > 0.0 && points.is_finite() && win.is_finite()).then(|| Estimate {
                value: win / points,
                ci: Interval { low: ci.low / points, high: ci.high / points },
            })
        })
        .collect()
}

/// The sides whose per-point win rate is a statistical tie with side `i`'s: the 95%
/// interval of the difference (Newcombe's, for independent estimates) holds 0.
fn tied_per_point<'a>(sides: &'a [(String, f64)], per_point: &[Option<Estimate>], i: usize) -> Vec<&'a str> {
    let Some(x) = per_point[i] else { return Vec::new() };
    (0..sides.len())
        .filter(|&j| j != i)
        .filter(|&j| {
            per_point[j].is_some_and(|y| {
                let d = crate::stats::newcombe::difference(x.value, x.ci, y.value, y.ci);
                d.low <= 0.0 && d.high >= 0.0
            })
        })
        .map(|j| sides[j].0.as_str())
        .collect()
}
