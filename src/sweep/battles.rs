//! Battle sweeps: every ordered pair of distinct forces of a battle scenario fights at
//! every point of its grid (the point's conditions apply to both sides), one cell each.
//! Writes the `battles` table (one row per pair and point) and the `battle_units` table
//! (one row per unit slot of each cell). With `players = N` (3 or more), every
//! combination of N forces plays a free-for-all instead ([`super::battle_seats`]), or with
//! `teams` a team deathmatch ([`super::battle_teams`]).

use serde_json::{Value, json};

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::BattleTally;
use crate::engine::{Cell, Observer, RunConfig, cell_key};
use crate::output::wording::count;
use crate::output::{Column, Table};
use crate::rules::axis::Point;
use crate::rules::battle::{BattleInfo, BattleSetup};
use crate::rules::ruleset::{RuleOptions, Ruleset};
use crate::stats::Interval;

use super::battle_seats::{BATTLE_SETUP, kill_share, side_letter};
use super::battle_teams::{is_team_battle, mode_key, team_members};
use super::cells::CellSpec;
use super::reach::{BattleReach, battle_reach};
use super::scenario::{BattleSpec, Resolved};
use super::tables::{ENGAGEMENT_FACTS, Layout, Part, RULESET, TableDecl, engagement_cells};

/// What a battle plays besides its forces and conditions: the ruleset's battle mode,
/// policy and turn cap (sweeps, gauntlets and compares of forces).
#[derive(Debug, Clone, Copy)]
pub struct BattleTerms<'a> {
    pub mode: &'a str,
    /// A battle policy of the ruleset; `None` = its default.
    pub policy: Option<&'a str>,
    /// `None` = the mode's default cap.
    pub max_turns: Option<u32>,
}

impl BattleTerms<'_> {
    /// Compile force `a` against force `b`, both sides firing under `c`.
    ///
    /// # Errors
    /// What the ruleset refuses (unknown build, over budget, ...), naming the pair.
    pub fn compile<R: Ruleset>(
        &self,
        catalogue: &R::Catalogue,
        a: &ForceSpec,
        b: &ForceSpec,
        c: R::Conditions,
        options: &R::Options,
    ) -> Result<(R::Battle, BattleInfo), String> {
        let forces = [a.clone(), b.clone()];
        let setup = BattleSetup {
            mode: self.mode,
            forces: &forces,
            conditions: &[c, c],
            options,
            policy: self.policy,
            max_turns: self.max_turns,
        };
        R::battle(catalogue, &setup).map_err(|e| format!("{} vs {}: {e}", a.name, b.name))
    }

    /// Compile `forces` (one a side, in seat order), every side firing under `c`; with
    /// `teams`, the team label of each seat (a team deathmatch).
    ///
    /// # Errors
    /// What the ruleset refuses, naming the matchup.
    pub fn compile_seats<R: Ruleset>(
        &self,
        catalogue: &R::Catalogue,
        forces: &[ForceSpec],
        c: R::Conditions,
        options: &R::Options,
        teams: Option<&[usize]>,
    ) -> Result<(R::Battle, BattleInfo), String> {
        let conditions = vec![c; forces.len()];
        let setup = BattleSetup {
            mode: self.mode,
            forces,
            conditions: &conditions,
            options,
            policy: self.policy,
            max_turns: self.max_turns,
        };
        match teams {
            Some(labels) => R::team_battle(catalogue, &setup, labels),
            None => R::battle(catalogue, &setup),
        }
        .map_err(|e| format!("{}: {e}", forces.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(" vs ")))
    }
}

/// A finished battle sweep: its tables, cells, battles played and the manifest's
/// `battle` entry.
pub struct BattleSweep {
    pub tables: Vec<(&'static str, Table)>,
    pub cells: usize,
    pub engagements: u64,
    pub manifest: Value,
}

/// Cells of a battle sweep compiled and played at a time: a compiled battle takes about
/// 0.5 MB, so a chunk holds about 128 MB whatever the sweep's size; the tables keep only
/// each cell's facts and tally. Any chunk size gives the same numbers (every stream is
/// seeded by its cell's key and index), sharded or not: `VOLLEY_BATTLE_CHUNK=N` (N >= 1)
/// sets another, for tests (a merge then needs the shards' size: each chunk is one engine
/// call, and shards record their cells by call).
const CHUNK_CELLS: usize = 256;

/// [`CHUNK_CELLS`], or `VOLLEY_BATTLE_CHUNK` when it is a positive integer.
fn chunk_cells() -> usize {
    std::env::var("VOLLEY_BATTLE_CHUNK")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(CHUNK_CELLS)
}

/// A compiled cell of a battle sweep.
struct Compiled<K> {
    kernel: K,
    info: BattleInfo,
    key: u64,
    reach: BattleReach,
}

/// The sweep's observer seen through its chunks: each chunk's engine call plans its own
/// cells, but the progress shows the sweep's. When the whole run's engagements are known
/// up front (`announced`), the first call plans them all and later calls nothing more, so
/// the bar's length and ETA are right from the start; otherwise each call adds its own.
struct Chunks<'a> {
    inner: &'a dyn Observer,
    cells: u64,
    announced: Option<u64>,
    first: std::sync::atomic::AtomicBool,
}

impl<'a> Chunks<'a> {
    fn new(inner: &'a dyn Observer, cells: u64, announced: Option<u64>) -> Chunks<'a> {
        Chunks { inner, cells, announced, first: std::sync::atomic::AtomicBool::new(true) }
    }
}

impl Observer for Chunks<'_> {
    fn planned(&self, _cells: u64, trials: u64) {
        let first = self.first.swap(false, std::sync::atomic::Ordering::SeqCst);
        let trials = match self.announced {
            Some(all) if first => all,
            Some(_) => 0,
            None => trials,
        };
        self.inner.planned(self.cells, trials);
    }
    fn progressed(&self, trials: u64) {
        self.inner.progressed(trials);
    }
    fn cell_finished(&self) {
        self.inner.cell_finished();
    }
    fn cancelled(&self) -> bool {
        self.inner.cancelled()
    }
}

/// `battles` of two-player sweeps.
pub const BATTLES: TableDecl = TableDecl {
    name: "battles",
    title: "battle scenarios, `engagement = \"battle\"`",
    about: "One row per ordered pair of distinct forces and conditions (A against B and B against A; no mirror \
            matches; the conditions apply to both sides). A cell has the numbers of `volley battle FORCE_A \
            FORCE_B` with the same conditions and seed. N-player scenarios write another `battles` table (below).",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("force_a", "force A's name: a `[[force]]` name or builds joined by `+`"),
            Column::text("force_b", "force B's name"),
            Column::float("points_a", "force A's points"),
            Column::float("points_b", "force B's points"),
        ]),
        Part::Own(BATTLE_SETUP),
        Part::Conditions,
        Part::Own(&[
            Column::int("trials", "battles played for this cell"),
            Column::float("p_a_wins", "P(A wins), with its Wilson 95% interval").with_ci95(),
            Column::float("p_b_wins", "P(B wins), with its Wilson 95% interval").with_ci95(),
            Column::float("p_draw", "P(draw), with its Wilson 95% interval").with_ci95(),
            Column::float("p_undecided", "P(no result at the cap), for games without scoring at time"),
            Column::float("mean_turns", "mean turns (or rounds) of a battle, with its 95% interval").with_ci95(),
            Column::float("mean_points_destroyed_a", "points of enemy units A destroyed, per battle"),
            Column::float("mean_points_destroyed_b", "points of enemy units B destroyed, per battle"),
        ]),
        Part::Own(ENGAGEMENT_FACTS),
    ],
};

/// `battle_units`.
pub const BATTLE_UNITS: TableDecl = TableDecl {
    name: "battle_units",
    title: "battle scenarios",
    about: "One row per unit slot of each battle cell. In N-player scenarios, `force_a` is the force of the \
            unit's seat and `force_b` its opponents.",
    parts: &[
        Part::Own(&[
            RULESET,
            Column::text("force_a", "force A's name (N players: the unit's seat's force)"),
            Column::text("force_b", "force B's name (N players: the seat's opponents, joined by ` / `)"),
        ]),
        Part::Conditions,
        Part::Own(&[
            Column::text("side", "the unit's side: `A`, `B`, ..."),
            Column::int("slot", "the unit's index in the battle, A's first"),
            Column::text("unit", "its build"),
            Column::float("points", "its points"),
            Column::float("p_lost", "the share of battles it was destroyed in"),
            Column::float("mean_kills", "kills credited to it per battle"),
            Column::float("kill_share", "its share of its side's kills (0 when the side killed nothing)"),
        ]),
    ],
};

/// `battles`: one row per ordered force pair and grid point.
pub fn battles_table(l: &Layout) -> Table {
    l.schema(&BATTLES, &[], &[])
}

/// `battle_units`: one row per unit slot of each battle cell.
pub fn units_table(l: &Layout) -> Table {
    l.schema(&BATTLE_UNITS, &[], &[])
}

fn mean(m: Option<(f64, Interval)>) -> (f64, f64, f64) {
    m.map_or((f64::NAN, f64::NAN, f64::NAN), |(v, i)| (v, i.low, i.high))
}

/// One battle cell's rows: its `battles` row and its `battle_units` rows; `reach`: which
/// side can attack which.
pub fn push_battle(
    battles: &mut Table,
    units: &mut Table,
    l: &Layout,
    info: &BattleInfo,
    p: &Point,
    t: &BattleTally,
    reach: &BattleReach,
) {
    let s = t.summary();
    let (a, b) = (&info.sides[0], &info.sides[1]);
    let (turns, turns_low, turns_high) = mean(s.mean_turns);
    battles.push(
        l.row(
            vec![
                a.0.clone().into(),
                b.0.clone().into(),
                a.1.into(),
                b.1.into(),
                info.mode.into(),
                info.policy.clone().into(),
                info.max_turns.into(),
            ],
            p,
            vec![
                s.trials.into(),
                s.sides[0].p_wins.into(),
                s.sides[0].p_wins_ci.low.into(),
                s.sides[0].p_wins_ci.high.into(),
                s.sides[1].p_wins.into(),
                s.sides[1].p_wins_ci.low.into(),
                s.sides[1].p_wins_ci.high.into(),
                s.p_draw.into(),
                s.p_draw_ci.low.into(),
                s.p_draw_ci.high.into(),
                s.p_undecided.into(),
                turns.into(),
                turns_low.into(),
                turns_high.into(),
                mean(s.sides[0].mean_points_destroyed).0.into(),
                mean(s.sides[1].mean_points_destroyed).0.into(),
            ]
            .into_iter()
            .chain(engagement_cells((reach.can_attack(0), reach.can_attack(1)), &s.sides[0].initiative))
            .collect(),
        ),
    );
    let n = t.trials.max(1) as f64;
    for (u, unit) in info.units.iter().enumerate() {
        units.push(l.row(
            vec![a.0.clone().into(), b.0.clone().into()],
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

/// Play a battle scenario: every ordered pair of distinct forces of `resolved` (A
/// against B and B against A, no mirror matches) at every grid point of `points`, the
/// point's conditions for both sides.
///
/// # Errors
/// A battle the ruleset refuses (naming the pair), or a cancelled run.
#[allow(clippy::too_many_arguments)]
pub fn run_battles<R: Ruleset>(
    spec: &BattleSpec,
    resolved: &Resolved,
    catalogue: &R::Catalogue,
    points: &[(Point, R::Conditions)],
    options: &R::Options,
    key_extra: &[(String, String)],
    layout: &Layout,
    config: &RunConfig,
    observer: &dyn Observer,
    plays: &super::shard::Plays<'_>,
) -> Result<BattleSweep, String> {
    let pairs_text: Vec<(String, String)> = options.pairs().into_iter().chain(key_extra.iter().cloned()).collect();
    let forces = &resolved.forces;
    let canonical: Vec<String> = forces.iter().map(ForceSpec::canonical).collect();
    let terms = BattleTerms { mode: &spec.mode, policy: spec.policy.as_deref(), max_turns: spec.max_turns };
    let seated = spec.players > 2;
    // Teams of one are the free-for-all (the same battle and key as without teams).
    let teams = spec.teams.as_deref().filter(|l| is_team_battle(l));
    let matchups =
        if seated { super::battle_seats::combinations(forces.len(), spec.players as usize)? } else { Vec::new() };
    let seated_matchups = spec.seatings.seat(&matchups, forces.len())?;
    // Every cell as its sides (force indices, in seat order) and grid point, in table
    // order; compiled a chunk at a time below.
    let mut recipes: Vec<(Vec<usize>, usize)> = Vec::new();
    for m in &seated_matchups {
        recipes.extend((0..points.len()).map(|p| (m.clone(), p)));
    }
    if !seated {
        for ai in 0..forces.len() {
            for bi in (0..forces.len()).filter(|&bi| bi != ai) {
                recipes.extend((0..points.len()).map(|p| (vec![ai, bi], p)));
            }
        }
    }
    let compile = |(sides, pi): &(Vec<usize>, usize)| -> Result<Compiled<R::Battle>, String> {
        let (p, c) = &points[*pi];
        let texts: Vec<String> = sides.iter().map(|&i| canonical[i].clone()).collect();
        let (kernel, info, reach, mode) = if seated {
            let seats: Vec<ForceSpec> = sides.iter().map(|&i| forces[i].clone()).collect();
            let (kernel, info) = terms.compile_seats::<R>(catalogue, &seats, *c, options, teams)?;
            let reach = battle_reach::<R>(catalogue, &info, &[*c], options, teams);
            let mode = mode_key(info.mode, teams);
            (kernel, info, reach, mode)
        } else {
            let (kernel, info) = terms.compile::<R>(catalogue, &forces[sides[0]], &forces[sides[1]], *c, options)?;
            let reach = battle_reach::<R>(catalogue, &info, &[*c], options, None);
            let mode = info.mode.to_string();
            (kernel, info, reach, mode)
        };
        let key = CellSpec { ruleset: R::NAME, options: &pairs_text, policy: &info.policy, max_turns: info.max_turns }
            .battle(&mode, &texts, &vec![p.clone(); sides.len()]);
        Ok(Compiled { kernel, info, key: cell_key(&key), reach })
    };
    let mut battles = if seated { super::battle_seats::seats_table(layout) } else { battles_table(layout) };
    let mut units = units_table(layout);
    let mut engagements = 0;
    // What the tables and the manifest need of every cell once its battle is dropped.
    let mut played: Vec<(BattleInfo, BattleReach, BattleTally)> = Vec::with_capacity(recipes.len());
    let chunks = Chunks::new(observer, recipes.len() as u64, plays.announces(config, recipes.len() as u64));
    for chunk in recipes.chunks(chunk_cells()) {
        let compiled = crate::engine::install(config.threads, || {
            use rayon::prelude::*;
            chunk.par_iter().map(&compile).collect::<Vec<_>>()
        })?
        .into_iter()
        .collect::<Result<Vec<_>, String>>()?;
        let cells: Vec<Cell<'_, R::Battle>> = compiled.iter().map(|c| Cell { key: c.key, kernel: &c.kernel }).collect();
        let tallies = plays.run(&cells, config, &chunks)?;
        drop(cells);
        for (c, t) in compiled.into_iter().zip(tallies) {
            played.push((c.info, c.reach, t));
        }
    }
    for ((info, reach, t), (_, pi)) in played.iter().zip(&recipes) {
        let p = &points[*pi].0;
        engagements += t.trials;
        if seated {
            super::battle_seats::push_seats(&mut battles, &mut units, layout, info, p, t, teams, reach);
        } else {
            push_battle(&mut battles, &mut units, layout, info, p, t, reach);
        }
    }
    let mut tables = vec![("battles", battles), ("battle_units", units)];
    if seated && spec.seatings != super::seatings::Seatings::Fixed {
        let cells: Vec<_> = played.iter().map(|(info, reach, t)| (info, t, reach)).collect();
        let pts: Vec<&Point> = points.iter().map(|(p, _)| p).collect();
        let mut t = super::seatings::forces_table(layout);
        super::seatings::push_forces(&mut t, layout, spec.seatings, &seated_matchups, &pts, &cells);
        tables.push(("battle_forces", t));
    }
    let first = played.first().map(|c| &c.0);
    let force_points = |i: usize| -> f64 {
        played.iter().find_map(|c| c.0.sides.iter().find(|s| s.0 == forces[i].name).map(|s| s.1)).unwrap_or(f64::NAN)
    };
    let manifest = json!({
        "mode": first.map_or(spec.mode.as_str(), |i| i.mode),
        "policy": first.map(|i| i.policy.clone()),
        "max_turns": first.map(|i| i.max_turns),
        "pairs": if seated {
            format!("every combination of {} distinct forces ({}), seated in force order; one battles row per matchup, point and seat", spec.players, count(matchups.len() as u64, "matchup"))
        } else {
            "ordered pairs of distinct forces (A vs B and B vs A; no mirror matches)".to_string()
        },
        "forces": forces.iter().enumerate().map(|(i, f)| json!({
            "name": f.name, "canonical": canonical[i], "points": force_points(i), "units": f.size(),
        })).collect::<Vec<_>>(),
        "generated": resolved.generated.as_ref().zip(spec.generate.as_ref()).map(|(g, spec)| json!({
            "budget": spec.budget, "max_units": spec.max_units, "limit": spec.limit, "builds": spec.builds,
            "count": g.forces.len(), "truncated": g.truncated,
            "note": if g.truncated {
                format!("more forces fit the budget than the limit of {}: only the first {} in canonical order (fewest units first, then catalogue order) were played", spec.limit, g.forces.len())
            } else {
                format!("every force that fits the budget was played ({})", g.forces.len())
            },
        })),
    });
    let mut manifest = manifest;
    if seated {
        manifest["players"] = json!(spec.players);
    }
    if let Some(labels) = teams {
        manifest["teams"] = json!(
            team_members(labels)
                .iter()
                .map(|m| m.iter().map(|&s| side_letter(s)).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        );
    }
    if seated && spec.seatings != super::seatings::Seatings::Fixed {
        manifest["seatings"] = json!(spec.seatings.name());
        manifest["pairs"] = json!(format!(
            "every combination of {} distinct forces ({}), each in {} seatings ({}: {} cells per grid point); one battles row per seating, point and seat, one battle_forces row per matchup, point and force",
            spec.players,
            count(matchups.len() as u64, "matchup"),
            spec.seatings.count(spec.players as usize),
            spec.seatings.name(),
            seated_matchups.len()
        ));
    }
    Ok(BattleSweep { tables, cells: played.len(), engagements, manifest })
}
