//! N-player battle sweeps (`players = N`, N >= 3): every combination of N distinct forces
//! plays a free-for-all (with `teams`, a team deathmatch of those seats:
//! [`super::battle_teams`]) at every grid point, one cell each, the forces seated in the
//! scenario's force order (side A = the earliest). The cell is the one `volley battle`
//! plays for the same forces in that order, conditions and seed (the same cell key).
//! `seatings = "rotate" | "all"` plays every matchup in more seat orders ([`super::seatings`]).
//!
//! Tables, long form (one row per matchup, point and seat), so any N fits the same
//! columns and the report's force matrix reads a seat against its field:
//! - `battles`: `matchup` (the forces in seat order, joined by ` / `), `seat` (A, B,
//!   ...), `team` (with `teams`, the seat's team: `team 1`, ...; else empty),
//!   `force_a` (the seat's force), `force_b` (its opponents, joined by ` / `),
//!   `points_a`; mode, policy, turn cap; the grid axes; `trials`, `p_a_wins` (the seat
//!   wins outright; with teams, a team wins as its captain, its first seat) with its
//!   interval, `p_team_wins` (the seat's team wins; empty without teams) with its
//!   interval, `p_draw` (shared) with its interval,
//!   `p_undecided`, `mean_turns` with its interval, `mean_points_destroyed_a`,
//!   `mean_score_a` (the game's points), `mean_kills_a`, `mean_deaths_a`; the reach
//!   and initiative columns (`a_can_attack`: the seat can attack, `b_can_attack`: some
//!   opponent can attack the seat; `p_a_wins_a_first`: the seat first in turn 1,
//!   `p_a_wins_b_first`: another seat first; `decided_by_initiative`).
//! - `battle_units`: as for pairs, with `force_a` the unit's seat's force and `force_b`
//!   its opponents.

use crate::engine::battle::BattleTally;
use crate::output::{Column, Table};
use crate::rules::axis::Point;
use crate::rules::battle::BattleInfo;

use super::reach::BattleReach;
use super::tables::{ENGAGEMENT_FACTS, Layout, Part, RULESET, TableDecl, engagement_cells};

/// `mode`, `policy` and `max_turns` of battle tables.
pub const BATTLE_SETUP: &[Column] = &[
    Column::text("mode", "the battle mode played"),
    Column::text("policy", "the policy both sides play"),
    Column::int("max_turns", "the turn (or round) cap"),
];

/// Most matchups (combinations of forces) one N-player sweep plays at each grid point.
pub const MAX_MATCHUPS: usize = 5_000;

/// Every combination of `k` of `n` forces, each in increasing order, in lexicographic
/// order.
///
/// # Errors
/// More than [`MAX_MATCHUPS`] combinations.
pub fn combinations(n: usize, k: usize) -> Result<Vec<Vec<usize>>, String> {
    if k > n {
        return Err(format!("{k} players need at least {k} forces, got {n}"));
    }
    let count = (0..k).fold(1u128, |c, i| c * (n - i) as u128 / (i + 1) as u128);
    if count > MAX_MATCHUPS as u128 {
        return Err(format!(
            "{n} forces give {count} matchups of {k} players, over the limit of {MAX_MATCHUPS}: list fewer forces or lower generate.limit"
        ));
    }
    let mut out = Vec::new();
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return Ok(out);
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// `battles` of N-player sweeps.
pub const SEATED_BATTLES: TableDecl = TableDecl {
    name: "battles",
    title: "N-player battle scenarios, `players = N`",
    about: "Long form: one row per matchup, condition set and seat, so any N fits the same columns. `matchup` \
            lists the forces in seat order, so each seating has its own rows.",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("matchup", "the matchup's forces in seat order, joined by ` / `"),
            Column::text("seat", "the seat: `A`, `B`, ..."),
            Column::text("team", "with `teams`, the seat's team (`team 1`, ...); else empty"),
            Column::text("force_a", "the seat's force"),
            Column::text("force_b", "its opponents, joined by ` / `"),
            Column::float("points_a", "the seat's force's points"),
        ]),
        Part::Own(BATTLE_SETUP),
        Part::Conditions,
        Part::Own(&[
            Column::int("trials", "battles played for this cell"),
            Column::float(
                "p_a_wins",
                "P(the seat wins outright; with teams, a team wins as its captain, its first seat), with its Wilson \
                 95% interval",
            )
            .with_ci95(),
            Column::float("p_team_wins", "P(the seat's team wins), with its interval; empty without teams").with_ci95(),
            Column::float("p_draw", "P(a shared result), with its Wilson 95% interval").with_ci95(),
            Column::float("p_undecided", "P(no result at the cap)"),
            Column::float("mean_turns", "mean turns (or rounds) of a battle, with its 95% interval").with_ci95(),
            Column::float("mean_points_destroyed_a", "points of enemy units the seat destroyed, per battle"),
            Column::float("mean_score_a", "the seat's mean score (the game's points)"),
            Column::float("mean_kills_a", "kills by the seat's units, per battle"),
            Column::float("mean_deaths_a", "the seat's units lost, per battle"),
        ]),
        Part::Own(ENGAGEMENT_FACTS),
    ],
};

/// `battles` of an N-player sweep.
pub fn seats_table(l: &Layout) -> Table {
    l.schema(&SEATED_BATTLES, &[], &[])
}

/// The opponents of seat `seat`, joined by ` / `.
fn field(info: &BattleInfo, seat: usize) -> String {
    info.sides.iter().enumerate().filter(|(i, _)| *i != seat).map(|(_, s)| s.0.as_str()).collect::<Vec<_>>().join(" / ")
}

/// One N-player cell's rows: one `battles` row per seat, one `battle_units` row per unit
/// slot. With `teams` (each seat's team label), each seat's row names its team and
/// the team's win (its captain's, as `volley battle` reports it).
#[allow(clippy::too_many_arguments)]
pub fn push_seats(
    battles: &mut Table,
    units: &mut Table,
    l: &Layout,
    info: &BattleInfo,
    p: &Point,
    t: &BattleTally,
    teams: Option<&[usize]>,
    reach: &BattleReach,
) {
    let s = t.summary();
    let team_of = super::battle_teams::seat_teams(teams, s.sides.len());
    let n = t.trials.max(1) as f64;
    let matchup = info.sides.iter().map(|x| x.0.as_str()).collect::<Vec<_>>().join(" / ");
    let m = |x: Option<(f64, crate::stats::Interval)>| {
        x.map_or((f64::NAN, f64::NAN, f64::NAN), |(v, i)| (v, i.low, i.high))
    };
    let (turns, turns_low, turns_high) = m(s.mean_turns);
    for (seat, x) in s.sides.iter().enumerate() {
        let of = |v: &[u64]| {
            v.iter().zip(&t.unit_side).filter(|(_, side)| **side as usize == seat).map(|(k, _)| *k).sum::<u64>() as f64
                / n
        };
        battles.push(
            l.row(
                vec![
                    matchup.clone().into(),
                    side_letter(seat).into(),
                    team_of[seat].as_ref().map(|(name, _)| name.clone()).into(),
                    info.sides[seat].0.clone().into(),
                    field(info, seat).into(),
                    info.sides[seat].1.into(),
                    info.mode.into(),
                    info.policy.clone().into(),
                    info.max_turns.into(),
                ],
                p,
                vec![
                    s.trials.into(),
                    x.p_wins.into(),
                    x.p_wins_ci.low.into(),
                    x.p_wins_ci.high.into(),
                    team_of[seat].as_ref().map(|(_, c)| s.sides[*c].p_wins).into(),
                    team_of[seat].as_ref().map(|(_, c)| s.sides[*c].p_wins_ci.low).into(),
                    team_of[seat].as_ref().map(|(_, c)| s.sides[*c].p_wins_ci.high).into(),
                    s.p_draw.into(),
                    s.p_draw_ci.low.into(),
                    s.p_draw_ci.high.into(),
                    s.p_undecided.into(),
                    turns.into(),
                    turns_low.into(),
                    turns_high.into(),
                    m(x.mean_points_destroyed).0.into(),
                    m(x.mean_score).0.into(),
                    of(&t.kills).into(),
                    of(&t.lost).into(),
                ]
                .into_iter()
                .chain(engagement_cells((reach.can_attack(seat), reach.attacked(seat)), &x.initiative))
                .collect(),
            ),
        );
    }
    for (u, unit) in info.units.iter().enumerate() {
        units.push(l.row(
            vec![info.sides[unit.side].0.clone().into(), field(info, unit.side).into()],
            p,
            vec![
                side_letter(unit.side).into(),
                (u as u64).into(),
                unit.name.clone().into(),
                unit.points.into(),
                (t.lost[u] as f64 / n).into(),
                (t.kills[u] as f64 / n).into(),
                kill_share(t, u).into(),
            ],
        ));
    }
}

/// A unit's share of its side's kills (0 when the side killed nothing).
pub fn kill_share(t: &BattleTally, u: usize) -> f64 {
    let side = t.unit_side[u];
    let total: u64 = t.kills.iter().zip(&t.unit_side).filter(|(_, s)| **s == side).map(|(k, _)| k).sum();
    if total == 0 { 0.0 } else { t.kills[u] as f64 / total as f64 }
}

/// The letter of side `i` (`A`, `B`, ...).
pub fn side_letter(i: usize) -> String {
    ((b'A' + i as u8) as char).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_every_subset_in_order() {
        assert_eq!(combinations(4, 3).unwrap(), [vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]);
        assert_eq!(combinations(3, 3).unwrap(), [vec![0, 1, 2]]);
        assert_eq!(combinations(20, 4).unwrap().len(), 4845);
        assert!(combinations(40, 4).unwrap_err().contains("91390 matchups"));
    }
}
