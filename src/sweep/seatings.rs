//! Seat orders of N-player battle sweeps (`seatings = "fixed" | "rotate" | "all"`, with
//! `players = N`, N >= 3) and the per-force table that pools a force's seats.
//!
//! Seat order can matter (initiative roll-offs, tie-breaks, spawn order), so a sweep that
//! seats every matchup in force order answers "is force X strong in a free-for-all" with
//! a bias from where X sits. A seating is an order of a matchup's forces; each seating
//! of each matchup is one cell per grid point, equal to `volley battle` of the forces in
//! that order (the same cell key, so the same numbers for the same seed):
//! - `fixed` (default): one seating, the forces in scenario order (side A = the
//!   earliest); the tables are those of a sweep without the key, bit for bit, and no
//!   `battle_forces` table is written.
//! - `rotate`: the N cyclic rotations; rotation r seats the matchup's force (i + r) mod N
//!   (in force order) at seat i, so every force holds every seat once.
//! - `all`: the N! orders, in lexicographic order of the forces' places in the matchup
//!   (the force order first); every force holds every seat (N - 1)! times.
//!
//! Matchups times seatings are capped by [`MAX_MATCHUPS`] per grid point.
//!
//! `battle_forces` (rotate and all): one row per matchup, force and grid point, the
//! force's outcomes pooled over every seating of the matchup (the integer tallies of its
//! seats merged, then the intervals as in `battles`):
//! `ruleset`, `matchup` (the matchup's forces in force order, joined by ` / `), `force`,
//! `field` (its opponents in force order, joined by ` / `), `points` (the force's);
//! `mode`, `policy`, `max_turns`; the grid axes; `seatings` (`rotate` or `all`),
//! `seats` (the seats the force held, A, B, ..., joined by ` / `), `cells` (seatings
//! pooled), `trials` (battles pooled), `p_wins` (the force wins outright) with its
//! Wilson interval (`p_wins_ci95_low`/`_high`), `p_draw` (a shared result) with its
//! interval, `p_undecided`, `mean_score` (the game's points) with its interval,
//! `mean_points_destroyed`, `mean_kills`, `mean_deaths` (per battle).

use itertools::Itertools;

use crate::engine::battle::BattleTally;
use crate::output::{Column, Table};
use crate::rules::axis::Point;
use crate::rules::battle::BattleInfo;

use super::battle_seats::BATTLE_SETUP;
use super::battle_seats::{MAX_MATCHUPS, side_letter};
use super::reach::BattleReach;
use super::tables::{ENGAGEMENT_FACTS, Layout, Part, RULESET, TableDecl, engagement_cells};
use crate::stats::InitiativeSplit;

/// How an N-player sweep seats each matchup (the scenario's `seatings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seatings {
    /// The forces in scenario order only.
    #[default]
    Fixed,
    /// The N cyclic rotations of the force order.
    Rotate,
    /// All N! orders.
    All,
}

impl Seatings {
    /// Every value's name, as the scenario writes it.
    pub const NAMES: [&'static str; 3] = ["fixed", "rotate", "all"];

    /// The value named `text` (case and surrounding blanks ignored).
    ///
    /// # Errors
    /// An unknown name, listing the known ones.
    pub fn parse(text: &str) -> Result<Seatings, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "fixed" => Ok(Seatings::Fixed),
            "rotate" => Ok(Seatings::Rotate),
            "all" => Ok(Seatings::All),
            _ => Err(format!("unknown seatings `{text}`: expected one of {}", Seatings::NAMES.join(", "))),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Seatings::Fixed => "fixed",
            Seatings::Rotate => "rotate",
            Seatings::All => "all",
        }
    }

    /// Seatings of one matchup of `players` forces: 1, N or N!.
    pub fn count(self, players: usize) -> u128 {
        match self {
            Seatings::Fixed => 1,
            Seatings::Rotate => players as u128,
            Seatings::All => (1..=players as u128).product(),
        }
    }

    /// The seat orders of a matchup of `players` forces: `order[seat]` is the place (in
    /// force order) of the force seated there. The first order is the force order.
    pub fn orders(self, players: usize) -> Vec<Vec<usize>> {
        match self {
            Seatings::Fixed => vec![(0..players).collect()],
            Seatings::Rotate => (0..players).map(|r| (0..players).map(|i| (i + r) % players).collect()).collect(),
            Seatings::All => (0..players).permutations(players).collect(),
        }
    }

    /// Check that `forces` forces, `players` a battle, fit the limit of seated matchups
    /// per grid point.
    ///
    /// # Errors
    /// More than [`MAX_MATCHUPS`] matchups times seatings, naming both counts.
    pub fn check(self, forces: usize, players: usize) -> Result<(), String> {
        if players > forces {
            return Ok(());
        }
        let matchups = num_integer::binomial(forces as u128, players as u128);
        let cells = matchups.saturating_mul(self.count(players));
        if cells > MAX_MATCHUPS as u128 {
            return Err(format!(
                "seatings = \"{}\" plays each of the {matchups} matchups of {players} players in {} seatings: {cells} battles per grid point, over the limit of {MAX_MATCHUPS}: use seatings = \"rotate\" or \"fixed\", or list fewer forces",
                self.name(),
                self.count(players)
            ));
        }
        Ok(())
    }

    /// Every seating of every matchup (each a list of force indices in force order), as
    /// force indices in seat order: matchup by matchup, each matchup's seatings in
    /// [`Seatings::orders`] order.
    ///
    /// # Errors
    /// As [`Seatings::check`].
    pub fn seat(self, matchups: &[Vec<usize>], forces: usize) -> Result<Vec<Vec<usize>>, String> {
        let Some(players) = matchups.first().map(Vec::len) else { return Ok(Vec::new()) };
        self.check(forces, players)?;
        let orders = self.orders(players);
        Ok(matchups.iter().flat_map(|m| orders.iter().map(|o| o.iter().map(|&i| m[i]).collect())).collect())
    }
}

/// One seat of a battle tally as a one-side tally: its wins, score, points and units,
/// with the battle's trials, draws, undecided and turns (so seats merge with
/// [`BattleTally::merge`]).
pub fn seat_tally(t: &BattleTally, seat: usize) -> BattleTally {
    let keep: Vec<usize> = (0..t.unit_side.len()).filter(|&u| t.unit_side[u] as usize == seat).collect();
    let mut v = BattleTally::new(1, vec![0; keep.len()], t.ended_in_turn.len());
    v.trials = t.trials;
    v.wins[0] = t.wins[seat];
    v.draws = t.draws;
    v.undecided = t.undecided;
    v.ended_in_turn.clone_from(&t.ended_in_turn);
    v.turns_sum = t.turns_sum;
    v.turns_sq = t.turns_sq;
    v.actions[0] = t.actions[seat];
    v.escaped[0] = t.escaped[seat];
    v.score[0] = t.score[seat];
    v.points_lost[0] = t.points_lost[seat];
    v.points_destroyed[0] = t.points_destroyed[seat];
    v.lost = keep.iter().map(|&u| t.lost[u]).collect();
    v.kills = keep.iter().map(|&u| t.kills[u]).collect();
    v
}

/// `battle_forces`.
pub const BATTLE_FORCES: TableDecl = TableDecl {
    name: "battle_forces",
    title: "N-player battle scenarios with `seatings = \"rotate\"` or `\"all\"`",
    about: "One row per matchup, condition set and force, the force's results pooled over every seating of the \
            matchup (integer tallies merged, then intervals). In the engagement columns side A is the force and B \
            its opponents: `a_can_attack` is whether the force can attack some opponent in every seating, \
            `b_can_attack` whether some opponent can attack it in every seating, and the initiative split pools \
            the seatings' battles in which the force acted first against those in which another seat did.",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("matchup", "the matchup's forces in force order, joined by ` / `"),
            Column::text("force", "the force"),
            Column::text("field", "its opponents in force order, joined by ` / `"),
            Column::float("points", "the force's points"),
        ]),
        Part::Own(BATTLE_SETUP),
        Part::Conditions,
        Part::Own(&[
            Column::text("seatings", "`rotate` or `all`"),
            Column::text("seats", "the seats the force held (`A`, `B`, ...), joined by ` / `"),
            Column::int("cells", "seatings pooled"),
            Column::int("trials", "battles pooled"),
            Column::float("p_wins", "P(the force wins outright), with its Wilson 95% interval").with_ci95(),
            Column::float("p_draw", "P(a shared result), with its Wilson 95% interval").with_ci95(),
            Column::float("p_undecided", "P(no result at the cap)"),
            Column::float("mean_score", "the force's mean score (the game's points), with its 95% interval")
                .with_ci95(),
            Column::float("mean_points_destroyed", "points of enemy units the force destroyed, per battle"),
            Column::float("mean_kills", "kills by the force's units, per battle"),
            Column::float("mean_deaths", "the force's units lost, per battle"),
        ]),
        Part::Own(ENGAGEMENT_FACTS),
    ],
};

/// `battle_forces` (columns in [`BATTLE_FORCES`]).
pub fn forces_table(l: &Layout) -> Table {
    l.schema(&BATTLE_FORCES, &[], &[])
}

/// The `battle_forces` rows of a seated sweep.
///
/// `seated` is [`Seatings::seat`]'s list; `cells` holds one (info, tally, reach) per
/// seated matchup and grid point, in that order (seating by seating, each over `points`).
pub fn push_forces(
    table: &mut Table,
    l: &Layout,
    seatings: Seatings,
    seated: &[Vec<usize>],
    points: &[&Point],
    cells: &[(&BattleInfo, &BattleTally, &BattleReach)],
) {
    let Some(players) = seated.first().map(Vec::len) else { return };
    let per = seatings.count(players) as usize;
    let at = |s: usize, p: usize| cells[s * points.len() + p];
    for (m, orders) in seated.chunks(per).enumerate() {
        // The first seating is the force order.
        let first = orders[0].clone();
        for (pi, point) in points.iter().enumerate() {
            let info = at(m * per, pi).0;
            let names: Vec<&str> = info.sides.iter().map(|s| s.0.as_str()).collect();
            for (place, force) in first.iter().enumerate() {
                let mut pooled: Option<BattleTally> = None;
                let mut seats = Vec::new();
                let mut facts = Facts { can: (true, true), own: (0, 0), other: (0, 0) };
                for (s, order) in orders.iter().enumerate() {
                    let seat = order.iter().position(|f| f == force).expect("every seating seats every force");
                    let (_, tally, reach) = at(m * per + s, pi);
                    facts.add(tally, reach, seat);
                    let view = seat_tally(tally, seat);
                    match &mut pooled {
                        None => pooled = Some(view),
                        Some(t) => t.merge(&view),
                    }
                    seats.push(seat);
                }
                seats.sort_unstable();
                seats.dedup();
                let t = pooled.expect("a matchup has at least one seating");
                push_row(table, l, info, point, (&names, place), &seats, seatings, orders.len(), &t, &facts);
            }
        }
    }
}

/// A force's engagement facts over a matchup's seatings: whether it can attack some
/// opponent, and be attacked, in every seating, and its pooled (wins, battles) with it
/// acting first and with another seat first.
struct Facts {
    can: (bool, bool),
    own: (u64, u64),
    other: (u64, u64),
}

impl Facts {
    /// Add seat `seat` of one seating's tally and reach.
    fn add(&mut self, t: &BattleTally, reach: &BattleReach, seat: usize) {
        self.can.0 &= reach.can_attack(seat);
        self.can.1 &= reach.attacked(seat);
        let ((kf, nf), (ko, no)) = t.initiative_counts(seat);
        self.own = (self.own.0 + kf, self.own.1 + nf);
        self.other = (self.other.0 + ko, self.other.1 + no);
    }
}

#[allow(clippy::too_many_arguments)]
fn push_row(
    table: &mut Table,
    l: &Layout,
    info: &BattleInfo,
    point: &Point,
    (names, place): (&[&str], usize),
    seats: &[usize],
    seatings: Seatings,
    cells: usize,
    t: &BattleTally,
    facts: &Facts,
) {
    let s = t.summary();
    let x = &s.sides[0];
    let n = t.trials.max(1) as f64;
    let m = |v: Option<(f64, crate::stats::Interval)>| {
        v.map_or((f64::NAN, f64::NAN, f64::NAN), |(v, i)| (v, i.low, i.high))
    };
    let field: Vec<&str> = names.iter().enumerate().filter(|(i, _)| *i != place).map(|(_, n)| *n).collect();
    let (score, score_low, score_high) = m(x.mean_score);
    table.push(
        l.row(
            vec![
                names.join(" / ").into(),
                names[place].into(),
                field.join(" / ").into(),
                info.sides[place].1.into(),
                info.mode.into(),
                info.policy.clone().into(),
                info.max_turns.into(),
            ],
            point,
            vec![
                seatings.name().into(),
                seats.iter().map(|&s| side_letter(s)).collect::<Vec<_>>().join(" / ").into(),
                (cells as u64).into(),
                s.trials.into(),
                x.p_wins.into(),
                x.p_wins_ci.low.into(),
                x.p_wins_ci.high.into(),
                s.p_draw.into(),
                s.p_draw_ci.low.into(),
                s.p_draw_ci.high.into(),
                s.p_undecided.into(),
                score.into(),
                score_low.into(),
                score_high.into(),
                m(x.mean_points_destroyed).0.into(),
                (t.kills.iter().sum::<u64>() as f64 / n).into(),
                (t.lost.iter().sum::<u64>() as f64 / n).into(),
            ]
            .into_iter()
            .chain(engagement_cells(facts.can, &InitiativeSplit::new(facts.own, facts.other)))
            .collect(),
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_orders_of_each_kind() {
        assert_eq!(Seatings::Fixed.orders(3), [vec![0, 1, 2]]);
        assert_eq!(Seatings::Rotate.orders(3), [vec![0, 1, 2], vec![1, 2, 0], vec![2, 0, 1]]);
        let all = Seatings::All.orders(3);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0], [0, 1, 2]);
        assert_eq!(all[5], [2, 1, 0]);
        // Every force holds every seat: once under rotate, (N - 1)! times under all.
        for (s, times) in [(Seatings::Rotate, 1), (Seatings::All, 6)] {
            let orders = s.orders(4);
            assert_eq!(orders.len() as u128, s.count(4));
            for force in 0..4 {
                for seat in 0..4 {
                    assert_eq!(orders.iter().filter(|o| o[seat] == force).count(), times, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn seating_maps_places_to_forces_matchup_by_matchup() {
        let matchups = [vec![0, 2, 5], vec![1, 3, 4]];
        assert_eq!(Seatings::Fixed.seat(&matchups, 6).unwrap(), matchups);
        assert_eq!(
            Seatings::Rotate.seat(&matchups, 6).unwrap(),
            [vec![0, 2, 5], vec![2, 5, 0], vec![5, 0, 2], vec![1, 3, 4], vec![3, 4, 1], vec![4, 1, 3]]
        );
    }

    #[test]
    fn the_limit_counts_seated_battles() {
        // 20 forces: 1140 matchups of 3; rotated 3420, every order 6840.
        assert!(Seatings::Rotate.check(20, 3).is_ok());
        let e = Seatings::All.check(20, 3).unwrap_err();
        assert!(e.contains("1140 matchups") && e.contains("6840 battles"), "{e}");
        assert!(Seatings::Fixed.check(20, 4).is_ok());
        assert!(Seatings::Rotate.check(20, 4).unwrap_err().contains("19380 battles"));
        assert!(Seatings::parse(" Rotate ").is_ok());
        assert!(Seatings::parse("shuffle").unwrap_err().contains("fixed, rotate, all"));
    }

    #[test]
    fn a_seat_tally_keeps_its_seat_and_the_battle_totals() {
        let mut t = BattleTally::new(3, vec![0, 1, 1, 2], 4);
        t.trials = 10;
        t.wins = vec![2, 5, 1];
        t.draws = 2;
        t.score = vec![(3, 9), (7, 49), (1, 1)];
        t.lost = vec![1, 2, 3, 4];
        t.kills = vec![4, 3, 2, 1];
        let v = seat_tally(&t, 1);
        assert_eq!((v.trials, v.wins.as_slice(), v.draws), (10, &[5][..], 2));
        assert_eq!(v.score, [(7, 49)]);
        assert_eq!((v.lost.as_slice(), v.kills.as_slice()), (&[2, 3][..], &[3, 2][..]));
        let mut pooled = v.clone();
        pooled.merge(&seat_tally(&t, 2));
        assert_eq!((pooled.trials, pooled.wins[0], pooled.draws), (20, 6, 4));
        assert_eq!(pooled.kills.iter().sum::<u64>(), 6);
    }
}
