//! The charts of `volley search`: the leaders with their corrected intervals, and the
//! Pareto front of win rate against cost, both read from the `search_leaderboard` table.

use crate::output::{Cell, Table};

use super::axes::number_text;
use super::data::{Bar, Bars};
use super::render::{Chart, ChartKind};

/// The most leaders drawn.
pub const LEADERS_DRAWN: usize = 20;

fn flag(t: &Table, i: usize, col: &str) -> bool {
    matches!(t.get(i, col), Some(Cell::Bool(true)))
}

/// How a search's estimates read: the metric's short name (`win rate`, `turns to
/// kill`) and whether it is a share (drawn in percent) or a number (drawn as it is).
#[derive(Debug, Clone, Copy)]
pub struct Reading<'a> {
    pub name: &'a str,
    pub share: bool,
}

/// The leaders (at most `shown`, best first) and the Pareto front, from a
/// `search_leaderboard` table in rank order. `per_cost`: the estimate is per 100 points
/// of cost (drawn as it is); otherwise the metric `reading` names (a share drawn in
/// percent). Empty for an empty table.
pub fn search_charts(board: &Table, per_cost: bool, shown: usize, reading: Reading<'_>) -> Vec<Chart> {
    let scale = if per_cost || !reading.share { 1.0 } else { 100.0 };
    let front_scale = if reading.share { 100.0 } else { 1.0 };
    let leaders: Vec<Bar> = (0..board.rows.len().min(shown))
        .filter_map(|i| {
            let name = board.text(i, "candidate")?;
            let cost = number_text(board.float(i, "cost")?);
            let dropped = if flag(board, i, "in_race") { "" } else { ", dropped" };
            let tie = board.float(i, "tie_group").map_or(String::new(), |g| format!(", tie group {g}"));
            Some(Bar {
                label: format!("{}. {name} ({cost}{tie}{dropped})", i + 1),
                value: board.float(i, "estimate")? * scale,
                low: board.float(i, "estimate_ci95_low").map(|v| v * scale),
                high: board.float(i, "estimate_ci95_high").map(|v| v * scale),
            })
        })
        .collect();
    let mut front: Vec<(f64, Bar)> = (0..board.rows.len())
        .filter(|&i| flag(board, i, "pareto"))
        .filter_map(|i| {
            let cost = board.float(i, "cost")?;
            let estimate = board.float(i, "estimate")?;
            let rate = if per_cost { estimate * cost / 100.0 } else { estimate };
            let label = format!("{} ({})", board.text(i, "candidate")?, number_text(cost));
            Some((cost, Bar { label, value: rate * front_scale, low: None, high: None }))
        })
        .collect();
    front.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.label.cmp(&b.1.label)));
    let mut charts = Vec::new();
    let unit = if reading.share { format!("{} (%)", reading.name) } else { reading.name.to_string() };
    if !leaders.is_empty() {
        let (title, unit) = if per_cost {
            (
                format!(
                    "The leaders: {} per 100 points of cost against the field (race-corrected intervals)",
                    reading.name
                ),
                format!("{} per 100 points", reading.name),
            )
        } else {
            (format!("The leaders: {} against the field (race-corrected intervals)", reading.name), unit.clone())
        };
        charts.push(Chart {
            name: "search-leaders".into(),
            kind: ChartKind::Bars(Bars { title, value_label: unit, bars: leaders }),
            exact: false,
        });
    }
    if !front.is_empty() {
        charts.push(Chart {
            name: "search-pareto".into(),
            kind: ChartKind::Bars(Bars {
                title: format!(
                    "The Pareto front: no cheaper candidate does better by {} (cheapest first; cost in brackets)",
                    reading.name
                ),
                value_label: unit,
                bars: front.into_iter().map(|(_, b)| b).collect(),
            }),
            exact: false,
        });
    }
    charts
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIN: Reading<'static> = Reading { name: "win rate", share: true };

    fn board() -> Table {
        let mut t = Table::new(
            [
                "rank",
                "candidate",
                "cost",
                "estimate",
                "estimate_ci95_low",
                "estimate_ci95_high",
                "in_race",
                "tie_group",
                "pareto",
            ]
            .map(String::from),
        );
        for (i, (name, cost, est, alive, group, pareto)) in [
            ("A[x]", 6.0, 0.6, true, Some(1u64), true),
            ("B[y]", 4.0, 0.55, true, Some(1), true),
            ("C[z]", 3.0, 0.3, false, None, false),
        ]
        .into_iter()
        .enumerate()
        {
            t.push(vec![
                (i as u64 + 1).into(),
                name.into(),
                cost.into(),
                est.into(),
                (est - 0.05).into(),
                (est + 0.05).into(),
                alive.into(),
                group.into(),
                pareto.into(),
            ]);
        }
        t
    }

    #[test]
    fn leaders_in_rank_order_and_the_front_by_cost() {
        let charts = search_charts(&board(), false, 2, WIN);
        let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["search-leaders", "search-pareto"]);
        let ChartKind::Bars(leaders) = &charts[0].kind else { panic!("bars") };
        assert_eq!(leaders.bars.len(), 2, "only the shown leaders");
        assert_eq!(leaders.bars[0].label, "1. A[x] (6, tie group 1)");
        assert!((leaders.bars[1].value - 55.0).abs() < 1e-9 && leaders.bars[1].low.is_some());
        let ChartKind::Bars(front) = &charts[1].kind else { panic!("bars") };
        let labels: Vec<&str> = front.bars.iter().map(|b| b.label.as_str()).collect();
        assert_eq!(labels, ["B[y] (4)", "A[x] (6)"], "cheapest first; the dropped C is not on the front");
        // per cost: the estimate is drawn as it is, the front in win rate
        let per_cost = search_charts(&board(), true, 5, WIN);
        let ChartKind::Bars(leaders) = &per_cost[0].kind else { panic!("bars") };
        assert_eq!(leaders.bars.len(), 3);
        assert!(leaders.bars[2].label.ends_with("dropped)"), "{}", leaders.bars[2].label);
        assert!((leaders.bars[0].value - 0.6).abs() < 1e-9);
        let ChartKind::Bars(front) = &per_cost[1].kind else { panic!("bars") };
        assert!((front.bars[0].value - 0.55 * 4.0).abs() < 1e-9, "{}", front.bars[0].value);
    }
}
