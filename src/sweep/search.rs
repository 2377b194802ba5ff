//! Searching a build space: every legal candidate through a weighted field by staged
//! racing ([`crate::stats::racing`]), each stage a gauntlet of the candidates still in
//! the race.
//!
//! Candidates are ad-hoc builds ([`crate::catalogue::adhoc`]). Their catalogue entries
//! are written by the game ([`crate::rules::ruleset::Builds::adhoc_entry`]) and checked
//! by its loader beside the catalogue's own files, a chunk at a time, so legality is
//! decided by the same checks as a hand-written `[[build]]`.
//!
//! **Streams.** A stage plays each matchup cell under the cell key `volley gauntlet`
//! gives it, with the seed of stage 1 the run's seed and that of stage s > 1 derived
//! from it ([`stage_seed`]): a candidate's numbers depend only on the seed, its name,
//! its opponents, the conditions and the stage, never on the other candidates, the
//! chunking or the thread count. Stage 1's rows are those of `volley gauntlet` at the
//! same seed and trials.

use crate::catalogue::force::ForceSpec;
use crate::catalogue::source::SourceFile;
use crate::engine::{Observer, RunConfig, Trials};
use crate::rules::axis::Point;
use crate::rules::ruleset::Ruleset;
use crate::stats::Interval;
use crate::stats::racing::{self, Part, Race, RaceSettings, RaceState, StagePlan, StageRecord};

use super::battles::BattleTerms;
use super::gauntlet::{Matchup, run_battle_gauntlet};
use super::search_candidate::with_entries;
pub use super::search_candidate::{CHUNK, Candidate, keep_accepted, legal_candidates};
use super::search_forces::ForceSpace;
use super::search_measure::Measure;
use super::search_metric::SearchMetric;
use super::shard::Plays;
use super::tables::{Part as Columns, RULESET, Supplied, TableDecl};
use crate::output::{Column, Table};

/// The seed of stage `stage` (from 1): the run's seed for stage 1, then a fixed odd
/// multiple of the stage added, so stages draw independent streams.
pub fn stage_seed(seed: u64, stage: u32) -> u64 {
    seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(u64::from(stage.saturating_sub(1))))
}

/// What a force search plays: every candidate force of `space` against each field
/// force in a battle of `mode`, the candidate as side A.
#[derive(Debug, Clone)]
pub struct ForceBattles {
    /// The forces listed.
    pub space: ForceSpace,
    /// The field: forces and their weights.
    pub field: Vec<(ForceSpec, f64)>,
    /// A battle mode of the ruleset.
    pub mode: String,
    /// A battle policy of the ruleset; `None`: its default.
    pub policy: Option<String>,
    /// Each field force's points in thousandths (what a battle can destroy of it), in
    /// the order of `field`.
    pub field_milli: Vec<u64>,
}

/// Battle cells compiled at a time in a force search's stage (a compiled battle holds
/// about 0.5 MB): whole candidates, at least one.
const BATTLE_CELLS: usize = 256;

/// Everything a search plays under.
pub struct SearchPlan<'a, R: Ruleset> {
    /// The catalogue's files and how messages name them.
    pub files: &'a [SourceFile],
    pub origin: &'a str,
    pub candidates: &'a [Candidate],
    /// The field: (build or force name, weight).
    pub field: &'a [(String, f64)],
    /// A force search's battles (its field's forces in the order of `field`); `None`:
    /// duels of builds.
    pub battles: Option<&'a ForceBattles>,
    pub grid: &'a [Point],
    /// Each point's weight, adding to 1 (a range envelope's weights), or empty: every
    /// point alike.
    pub point_weights: &'a [f64],
    pub options: &'a R::Options,
    pub policy: R::Policy,
    pub max_turns: u32,
    /// The run's seed, threads and batch size (its trials are the race's).
    pub config: &'a RunConfig,
    /// What the race ranks by.
    pub metric: SearchMetric,
    /// Rank by the metric per 100 points of cost rather than by the metric.
    pub per_cost: bool,
    /// Each candidate's exact parts where the ruleset solved them (empty: none).
    pub exact: &'a [Option<Vec<Part>>],
    pub race: RaceSettings,
}

/// A finished search.
#[derive(Debug, Clone)]
pub struct SearchOutput {
    pub race: Race,
    /// The parts' labels, in the order of each entrant's parts: (opponent, point).
    pub parts: Vec<(String, Point)>,
    /// Each candidate's metric against the field in the metric's own unit (a share, or
    /// turns), before any per-cost scaling.
    pub value: Vec<f64>,
    /// Indexes of the candidates on the Pareto front of the metric against cost,
    /// cheapest first.
    pub pareto: Vec<usize>,
    /// Engagements played in all.
    pub engagements: u64,
    pub seconds: f64,
}

/// The scale of a candidate's estimate: 1, or 100 / cost with `per_cost`.
fn scale(per_cost: bool, cost: f64) -> f64 {
    if per_cost { 100.0 / cost } else { 1.0 }
}

impl<R: Ruleset> SearchPlan<'_, R> {
    /// Each candidate's scale: 1, or 100 / cost for a per-cost search.
    ///
    /// # Errors
    /// A candidate with no positive finite cost under `per_cost`.
    pub fn scales(&self) -> Result<Vec<f64>, String> {
        if self.per_cost
            && let Some(c) = self.candidates.iter().find(|c| !(c.cost > 0.0 && c.cost.is_finite()))
        {
            return Err(format!("{} costs {}: a per-cost search needs every cost above 0", c.name, c.cost));
        }
        Ok(self.candidates.iter().map(|c| scale(self.per_cost, c.cost)).collect())
    }

    /// The weight of each part (field member, then conditions): the member's weight
    /// times the point's.
    pub fn part_weights(&self) -> Vec<f64> {
        part_weights(self.field, self.grid.len(), self.point_weights)
    }

    /// Each part's (weight, unit): the most one engagement scores in it (1 for a rate;
    /// the turn cap for turns to kill; the field force's points in thousandths for kill
    /// points).
    pub fn part_shapes(&self) -> Vec<(f64, u64)> {
        let points = self.grid.len().max(1);
        self.part_weights()
            .into_iter()
            .enumerate()
            .map(|(i, w)| {
                let unit = match (self.metric, self.battles) {
                    (SearchMetric::Turns, _) => u64::from(self.max_turns.max(1)),
                    (SearchMetric::KillPoints, Some(b)) => b.field_milli.get(i / points).copied().unwrap_or(1).max(1),
                    _ => 1,
                };
                (w, unit)
            })
            .collect()
    }

    /// The race's starting state.
    ///
    /// # Errors
    /// What [`SearchPlan::scales`] and the race settings refuse.
    pub fn start(&self) -> Result<RaceState, String> {
        RaceState::new(&self.scales()?, self.exact, &self.race)
    }

    /// How a build search measures its candidates.
    pub fn measure<'w>(&'w self, weights: &'w [f64]) -> Measure<'w, R> {
        Measure {
            metric: self.metric,
            field: self.field,
            grid: self.grid,
            weights,
            options: self.options,
            policy: self.policy,
            max_turns: self.max_turns,
            exact: false,
        }
    }

    /// A candidate's value in the metric's unit from its race score (before scaling).
    pub fn shown(&self, score: f64) -> f64 {
        self.metric.shown(score, self.max_turns)
    }

    /// Play one stage of the race through `plays`: each playing candidate's parts for
    /// that stage alone (none when `plays` is a shard's share, whose tallies are
    /// recorded instead), and the engagements played.
    ///
    /// # Errors
    /// Cells the ruleset refuses, a catalogue that does not load with the candidates, a
    /// cancelled run, or tallies the merge refuses.
    pub fn play_stage(
        &self,
        stage: &StagePlan,
        observer: &dyn Observer,
        plays: &Plays<'_>,
    ) -> Result<(Vec<Vec<Part>>, u64), String> {
        let weights = self.part_weights();
        let config = RunConfig {
            seed: stage_seed(self.config.seed, stage.stage),
            trials: Trials::Fixed(stage.trials),
            ..*self.config
        };
        if let Some(b) = self.battles {
            return self.play_battles(b, stage, &config, &weights, observer, plays);
        }
        let mut out = Vec::with_capacity(stage.playing.len());
        let mut engagements = 0;
        for chunk in stage.playing.chunks(CHUNK) {
            let entries: Vec<&str> = chunk.iter().map(|&i| self.candidates[i].entry.as_str()).collect();
            let cat =
                R::load(self.origin, &with_entries(self.files, &entries), Vec::new()).map_err(|e| e.to_string())?;
            let names: Vec<String> = chunk.iter().map(|&i| self.candidates[i].name.clone()).collect();
            let known: Vec<Option<&[Part]>> =
                chunk.iter().map(|&i| self.exact.get(i).and_then(|e| e.as_deref())).collect();
            let (parts, played) = self.measure(&weights).play(&cat, &names, &known, &config, observer, plays)?;
            engagements += played;
            out.extend(parts);
        }
        Ok((out, engagements))
    }

    /// [`SearchPlan::play_stage`] for a force search: battles, whole candidates of
    /// [`BATTLE_CELLS`] cells at a time, in the catalogue alone.
    fn play_battles(
        &self,
        b: &ForceBattles,
        stage: &StagePlan,
        config: &RunConfig,
        weights: &[f64],
        observer: &dyn Observer,
        plays: &Plays<'_>,
    ) -> Result<(Vec<Vec<Part>>, u64), String> {
        let cat = R::load(self.origin, self.files, Vec::new()).map_err(|e| e.to_string())?;
        let rules = BattleTerms { mode: &b.mode, policy: b.policy.as_deref(), max_turns: None };
        let per = (BATTLE_CELLS / weights.len().max(1)).max(1);
        let mut out = Vec::with_capacity(stage.playing.len());
        let mut engagements = 0;
        for chunk in stage.playing.chunks(per) {
            let forces: Vec<ForceSpec> = chunk
                .iter()
                .map(|&i| {
                    self.candidates[i]
                        .force
                        .clone()
                        .ok_or_else(|| format!("{} is not a force", self.candidates[i].name))
                })
                .collect::<Result<_, _>>()?;
            let g = run_battle_gauntlet::<R>(
                &cat,
                &forces,
                &b.field,
                self.grid,
                self.point_weights,
                self.options,
                rules,
                config,
                observer,
                plays,
            )?;
            engagements += g.engagements;
            for rows in g.rows.chunks(weights.len().max(1)) {
                out.push(rows.iter().zip(weights).map(|(m, &w)| battle_part(self.metric, m, w)).collect());
            }
        }
        Ok((out, engagements))
    }

    /// The search's output from its finished race.
    pub fn output(&self, race: Race, engagements: u64, seconds: f64) -> SearchOutput {
        let parts =
            self.field.iter().flat_map(|(o, _)| self.grid.iter().map(move |p| (o.clone(), p.clone()))).collect();
        let score: Vec<f64> = race
            .entrants
            .iter()
            .zip(self.candidates)
            .map(|(e, c)| e.standing.estimate / scale(self.per_cost, c.cost))
            .collect();
        // The front is of scores (higher is better, turns included), shown in the unit.
        let costed: Vec<(f64, f64)> = self.candidates.iter().zip(&score).map(|(c, w)| (c.cost, *w)).collect();
        let value = score.iter().map(|&s| self.shown(s)).collect();
        SearchOutput { pareto: pareto_front(&costed), value, race, parts, engagements, seconds }
    }
}

/// Race the candidates through the field in one process, from `state` (the race's
/// start, or a merged stage's state that had played `engagements`) to its end.
/// `on_stage` hears each stage as it ends.
///
/// # Errors
/// Cells the ruleset refuses, or a cancelled run.
pub fn run_search<R: Ruleset>(
    plan: &SearchPlan<'_, R>,
    mut state: RaceState,
    engagements: u64,
    observer: &dyn Observer,
    mut on_stage: impl FnMut(&StageRecord),
) -> Result<SearchOutput, String> {
    let start = std::time::Instant::now();
    let mut engagements = engagements;
    while let Some(stage) = state.next() {
        let (results, played) = plan.play_stage(&stage, observer, &Plays::all())?;
        engagements += played;
        on_stage(&state.record(&stage, results)?);
    }
    Ok(plan.output(state.finish(), engagements, start.elapsed().as_secs_f64()))
}

/// The Pareto front of (cost, strength) pairs: the indexes of the points no other point
/// beats on both (cheaper or as cheap, and stronger or as strong, one of them strictly),
/// cheapest first. Points with a NaN strength are never on it.
pub fn pareto_front(points: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).filter(|&i| !points[i].1.is_nan()).collect();
    order.sort_by(|&a, &b| {
        points[a].0.total_cmp(&points[b].0).then(points[b].1.total_cmp(&points[a].1)).then(a.cmp(&b))
    });
    let mut front = Vec::new();
    let mut best = f64::NEG_INFINITY;
    for i in order {
        if points[i].1 > best {
            front.push(i);
            best = points[i].1;
        }
    }
    front
}

/// A candidate's score against one part (opponent and point) with its 95% interval
/// (Wilson, of its pooled scores; a point for an exact part).
pub fn part_rate(part: &Part) -> (f64, Interval) {
    (part.mean(), part.interval(crate::stats::Z95))
}

/// The weight of each part (field member, then point) of a field over `points` points
/// weighted by `point_weights` (empty: alike): the member's weight times the point's.
pub fn part_weights(field: &[(String, f64)], points: usize, point_weights: &[f64]) -> Vec<f64> {
    field
        .iter()
        .flat_map(|(_, w)| (0..points).map(move |i| w * super::gauntlet::point_weight(point_weights, i, points)))
        .collect()
}

/// A battle matchup as a race part of `weight` under `metric`: wins of side A, or the
/// opponent's points it destroyed (thousandths) out of the opponent's points.
fn battle_part(metric: SearchMetric, m: &Matchup, weight: f64) -> Part {
    match metric {
        SearchMetric::KillPoints => {
            let (destroyed, whole) = m.destroyed_milli;
            let whole = whole.max(1);
            Part::scored(weight, destroyed.min(whole.saturating_mul(m.trials)), m.trials, whole)
        }
        _ => Part::rate(weight, m.wins, m.trials),
    }
}

/// The leaderboard's rows, best first: (candidate index, rank from 1, tie group). Tie
/// groups are those of the candidates still in the race ([`racing::tie_groups`]); a
/// dropped candidate has none.
pub fn ranked(race: &Race) -> Vec<(usize, usize, Option<u32>)> {
    let order = race.ranking();
    let alive: Vec<usize> = order.iter().copied().filter(|&i| race.entrants[i].alive).collect();
    let standings: Vec<_> = alive.iter().map(|&i| race.entrants[i].standing).collect();
    let groups = racing::tie_groups(&standings);
    order.iter().enumerate().map(|(r, &i)| (i, r + 1, alive.iter().position(|&a| a == i).map(|k| groups[k]))).collect()
}

/// `search_leaderboard`.
pub const LEADERBOARD: TableDecl = TableDecl {
    name: "search_leaderboard",
    title: "",
    about: "One row per candidate of `volley search`, best first: the candidates still in the race by estimate, \
            then the dropped ones by the stage they reached. Intervals are corrected for the whole race \
            (Bonferroni over candidates and stages), not 95% each.",
    parts: &[Columns::Own(&[
        RULESET,
        Column::int("rank", "its place, from 1"),
        Column::text("candidate", "the build, as an ad-hoc build name (BASE[PART, N*PART])"),
        Column::float("cost", "its cost in the ruleset's unit"),
        Column::float(
            "estimate",
            "its value of the search's metric against the field (win rate by default; or per 100 points of cost with \
             --per-cost; turns for --metric turns, where fewer is better), with the race's corrected interval",
        )
        .with_ci95(),
        Column::boolean("exact", "its value is exact (every engagement solved exactly): it played no trial"),
        Column::int("stage", "the last stage it played, or took part in by its exact value"),
        Column::int(
            "trials",
            "engagements it played per matchup (field member and conditions), over all its stages; 0 when exact",
        ),
        Column::boolean("in_race", "still in the race at the end"),
        Column::int(
            "tie_group",
            "its tie group among those still in the race (1 = tied with the leader); empty when dropped",
        ),
        Column::boolean("pareto", "on the Pareto front: no candidate as cheap or cheaper does as well or better"),
    ])],
};

/// `search_stages`.
pub const STAGES: TableDecl = TableDecl {
    name: "search_stages",
    title: "",
    about: "One row per stage of `volley search`'s race.",
    parts: &[Columns::Own(&[
        RULESET,
        Column::int("stage", "from 1"),
        Column::int("candidates", "candidates that played it"),
        Column::int("trials_each", "duels each played per matchup in it"),
        Column::int("survivors", "candidates left after its cut"),
    ])],
};

/// The `search_leaderboard` and `search_stages` tables of a finished search ranked by
/// `metric` (estimates in its unit; `cap`: the attack runs' turn cap).
pub fn tables(
    ruleset: &str,
    candidates: &[Candidate],
    out: &SearchOutput,
    metric: SearchMetric,
    cap: u32,
) -> [Table; 2] {
    let none = Supplied::default();
    let mut board = LEADERBOARD.table(&none);
    for (i, rank, group) in ranked(&out.race) {
        let e = &out.race.entrants[i];
        let ci = metric.shown_interval(e.standing.interval, cap);
        board.push(vec![
            ruleset.into(),
            (rank as u64).into(),
            candidates[i].name.as_str().into(),
            candidates[i].cost.into(),
            metric.shown(e.standing.estimate, cap).into(),
            ci.low.into(),
            ci.high.into(),
            e.exact.into(),
            u64::from(e.stage).into(),
            e.trials.into(),
            e.alive.into(),
            group.map(u64::from).into(),
            out.pareto.contains(&i).into(),
        ]);
    }
    let mut stages = STAGES.table(&none);
    for st in &out.race.stages {
        stages.push(vec![
            ruleset.into(),
            u64::from(st.stage).into(),
            (st.candidates as u64).into(),
            st.trials_each.into(),
            (st.survivors as u64).into(),
        ]);
    }
    [board, stages]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pareto_front_keeps_what_nothing_beats_on_both() {
        let pts = [(3.0, 0.5), (4.0, 0.4), (4.0, 0.7), (5.0, 0.7), (6.0, 0.9), (2.0, f64::NAN), (3.0, 0.5)];
        assert_eq!(pareto_front(&pts), vec![0, 2, 4]);
    }

    #[test]
    fn stage_one_plays_the_runs_seed_and_later_stages_others() {
        assert_eq!(stage_seed(7, 1), 7);
        let seeds: Vec<u64> = (1..6).map(|s| stage_seed(7, s)).collect();
        let mut d = seeds.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), 5);
    }
}
