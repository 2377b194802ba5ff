//! Staged racing: find the top k of many candidates measured by Monte Carlo without
//! measuring every one at the final precision.
//!
//! Every candidate is a weighted mean of independent parts (its matchups against a
//! field, say), each the mean of a score in [0, 1] per trial: a rate (a score of 0 or
//! one) or a bounded score (an integer 0..=unit, as a share of the unit), optionally
//! scaled (per cost). A part with an exact value (where the maths gives one) keeps it
//! and is never played; a candidate whose parts all have one never plays. Stage 1 gives
//! every other candidate `first_trials` trials per part it plays; each later stage
//! multiplies that by `growth` for the candidates still in the race, and the counts are
//! pooled over the stages. After each
//! stage a candidate is dropped when its upper bound is below the k-th best lower bound
//! among the candidates still in the race.
//!
//! **Guarantee.** Every interval is the MOVER combination (see [`super::newcombe`]) of the
//! parts' Wilson intervals (of a bounded score: [`wilson_bounded`], conservative, since a
//! score in [0, 1] with mean μ has variance at most μ(1 − μ); of an exact part: the point)
//! at the normal quantile of a two-sided level α / (n · S), for n
//! candidates and at most S stages (Bonferroni over every interval the race may look
//! at). When all of them cover, which happens with probability at least 1 − α (up to
//! the normal approximation of the Wilson and MOVER intervals), no candidate of the true
//! top k is ever dropped: dropping one needs k candidates whose lower bounds exceed its
//! upper bound, so k candidates truly better than it. The race stops when k candidates
//! are left, when every remaining interval is narrower than the stated precision (the
//! remaining candidates are then reported in tie groups), or after S stages.
//!
//! References: O. Maron and A. W. Moore (1997), "The racing algorithm: model selection
//! for lazy learners", Artificial Intelligence Review 11:193-225; M. Birattari et al.
//! (2002), "A racing algorithm for configuring metaheuristics", GECCO.

use super::interval::{Interval, wilson_bounded};
use super::newcombe::weighted;
use super::tolerance::bonferroni_z;

/// How a race is run.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceSettings {
    /// How many of the best the race must find (≥ 1).
    pub top: usize,
    /// Trials per part in stage 1 (≥ 1).
    pub first_trials: u64,
    /// Each stage gives `growth` times the trials of the one before (≥ 2).
    pub growth: u64,
    /// The most stages (≥ 1).
    pub max_stages: u32,
    /// The family-wise error rate of the top-k claim (0 < α < 1).
    pub alpha: f64,
    /// Stop when every remaining interval's half-width, before scaling, is at most this
    /// (a rate's half-width; 0: only the separation and the stage cap stop the race).
    pub precision: f64,
}

impl RaceSettings {
    /// Trials per part that stage `s` (from 1) adds.
    pub fn stage_trials(&self, s: u32) -> u64 {
        self.first_trials.saturating_mul(self.growth.saturating_pow(s.saturating_sub(1)))
    }
    /// Trials per part a candidate has after `s` stages.
    pub fn cumulative_trials(&self, s: u32) -> u64 {
        (1..=s).map(|i| self.stage_trials(i)).fold(0u64, u64::saturating_add)
    }
    /// The normal quantile of every interval of a race of `n` candidates.
    pub fn z(&self, n: usize) -> f64 {
        bonferroni_z(self.alpha, n.max(1) * self.max_stages.max(1) as usize)
    }

    /// # Errors
    /// A setting outside its range, named.
    pub fn validate(&self) -> Result<(), String> {
        if self.top == 0 {
            return Err("the race must find at least one (top ≥ 1)".into());
        }
        if self.first_trials == 0 {
            return Err("stage 1 needs at least one trial".into());
        }
        if self.growth < 2 {
            return Err(format!("each stage must give at least twice the trials of the last (growth {})", self.growth));
        }
        if self.max_stages == 0 {
            return Err("a race needs at least one stage".into());
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err(format!("alpha must be between 0 and 1, got {}", self.alpha));
        }
        if !(self.precision >= 0.0 && self.precision.is_finite()) {
            return Err(format!("precision must be a finite number ≥ 0, got {}", self.precision));
        }
        Ok(())
    }
}

/// One part of a candidate's measure, pooled over its stages: a mean of per-trial scores,
/// each an integer in `0..=unit` read as a share of `unit`, or an exact value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// Its weight in the candidate's mean (≥ 0).
    pub weight: f64,
    /// The scores added up (successes, for a rate with `unit` 1); at most `trials · unit`.
    pub mass: u64,
    pub trials: u64,
    /// The most one trial scores (≥ 1).
    pub unit: u64,
    /// Its exact mean in [0, 1], where the maths gives one (then `mass` and `trials` are 0).
    pub exact: Option<f64>,
}

impl Part {
    /// A rate: `successes` of `trials`.
    pub fn rate(weight: f64, successes: u64, trials: u64) -> Part {
        Part { weight, mass: successes, trials, unit: 1, exact: None }
    }
    /// A bounded score: `trials` scores in `0..=unit` adding up to `mass`.
    pub fn scored(weight: f64, mass: u64, trials: u64, unit: u64) -> Part {
        Part { weight, mass, trials, unit: unit.max(1), exact: None }
    }
    /// An exact mean `value` in [0, 1].
    pub fn exact(weight: f64, value: f64) -> Part {
        Part { weight, mass: 0, trials: 0, unit: 1, exact: Some(value) }
    }
    /// Its mean in [0, 1] (0 with no trials).
    pub fn mean(&self) -> f64 {
        match self.exact {
            Some(v) => v,
            None => (self.mass as f64 / ((self.trials as u128 * self.unit as u128).max(1)) as f64).min(1.0),
        }
    }
    /// Its interval at normal quantile `z`: the Wilson interval of its scores, or the
    /// point of an exact part.
    pub fn interval(&self, z: f64) -> Interval {
        match self.exact {
            Some(v) => Interval { low: v, high: v },
            None => wilson_bounded(self.mass, self.unit, self.trials, z),
        }
    }
}

/// A candidate's estimate and interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Standing {
    pub estimate: f64,
    pub interval: Interval,
}

/// Σ wᵢ mᵢ / Σ wᵢ of the parts' means times `scale`, with its MOVER interval from the
/// parts' intervals ([`Part::interval`]) at quantile `z`. With no parts the interval is
/// the whole [0, scale].
pub fn standing(parts: &[Part], scale: f64, z: f64) -> Standing {
    let v: Vec<(f64, f64, Interval)> = parts.iter().map(|p| (p.weight, p.mean(), p.interval(z))).collect();
    match weighted(&v) {
        Some((p, i)) => Standing {
            estimate: p * scale,
            interval: Interval { low: i.low.max(0.0) * scale, high: i.high.min(1.0) * scale },
        },
        None => Standing { estimate: f64::NAN, interval: Interval { low: 0.0, high: scale } },
    }
}

/// The drop rule: which of the `alive` candidates stay after a stage. A candidate is
/// dropped when its upper bound is below the k-th best lower bound among the alive ones.
pub fn cut(standings: &[Standing], alive: &[bool], top: usize) -> Vec<bool> {
    let mut lows: Vec<f64> = standings.iter().zip(alive).filter(|(_, a)| **a).map(|(s, _)| s.interval.low).collect();
    if lows.len() <= top {
        return alive.to_vec();
    }
    lows.sort_by(|a, b| b.total_cmp(a));
    let bar = lows[top - 1];
    standings.iter().zip(alive).map(|(s, &a)| a && s.interval.high >= bar).collect()
}

/// Tie groups of candidates listed best first: a candidate joins the group of the one
/// that leads the current group when its interval reaches that leader's lower bound,
/// else it leads a new group. Groups are numbered from 1.
pub fn tie_groups(ranked: &[Standing]) -> Vec<u32> {
    let mut out = Vec::with_capacity(ranked.len());
    let mut group = 0;
    let mut leader_low = f64::INFINITY;
    for s in ranked {
        if s.interval.high < leader_low {
            group += 1;
            leader_low = s.interval.low;
        }
        out.push(group);
    }
    out
}

/// One stage of a race.
#[derive(Debug, Clone, PartialEq)]
pub struct StageRecord {
    /// From 1.
    pub stage: u32,
    /// Candidates that played it.
    pub candidates: usize,
    /// Candidates left after its cut.
    pub survivors: usize,
    /// Trials per part each candidate played in it.
    pub trials_each: u64,
}

/// Where a race left one candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    pub standing: Standing,
    /// Its counts, pooled over its stages, and its exact parts (empty before a candidate
    /// with no exact part plays).
    pub parts: Vec<Part>,
    /// The last stage it played (an exact candidate: the last it took part in, by its
    /// exact value, without playing).
    pub stage: u32,
    /// Trials per part it played in all, its exact parts not counted (0 for an exact
    /// candidate).
    pub trials: u64,
    /// Still in the race at the end.
    pub alive: bool,
    /// Its value is exact (every part is): it starts with it and plays no trial.
    pub exact: bool,
}

/// A finished race.
#[derive(Debug, Clone, PartialEq)]
pub struct Race {
    pub entrants: Vec<Entrant>,
    pub stages: Vec<StageRecord>,
    /// The quantile of every interval.
    pub z: f64,
    /// Why it stopped.
    pub stopped: Stop,
}

/// Why a race stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No more than k candidates were left.
    Separated,
    /// Every remaining interval was within the precision: the rest are ties.
    Precision,
    /// The last stage was played with more than k candidates left.
    StageCap,
}

impl Stop {
    /// `separated`, `precision` or `stage cap` (JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            Stop::Separated => "separated",
            Stop::Precision => "precision",
            Stop::StageCap => "stage cap",
        }
    }
}

impl Race {
    /// The candidates best first: those still in the race by estimate, then the dropped
    /// ones by the stage they reached and their estimate.
    pub fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.entrants.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&self.entrants[a], &self.entrants[b]);
            y.alive
                .cmp(&x.alive)
                .then(y.stage.cmp(&x.stage))
                .then(y.standing.estimate.total_cmp(&x.standing.estimate))
                .then(a.cmp(&b))
        });
        order
    }
    /// Trials per part summed over every candidate and stage.
    pub fn trials_used(&self) -> u64 {
        self.entrants.iter().map(|e| e.trials).sum()
    }
}

/// A race in progress, one stage at a time: [`RaceState::next`] says which candidates
/// play which stage, [`RaceState::record`] takes their results. A race can stop between
/// stages and go on later (a sharded search merges each stage's shards before the next):
/// [`RaceState::saved`] gives its integer counts, [`RaceState::restore`] rebuilds the
/// same state from them, bit for bit, since every standing is recomputed from the counts.
#[derive(Debug, Clone, PartialEq)]
pub struct RaceState {
    scales: Vec<f64>,
    settings: RaceSettings,
    z: f64,
    entrants: Vec<Entrant>,
    stages: Vec<StageRecord>,
    stopped: Option<Stop>,
}

/// One stage to play: its number (from 1), the candidates that play it (indexes, in
/// order; never an exact candidate, which takes part by its value) and the trials per
/// part each plays. `playing` may be empty when every candidate left is exact.
#[derive(Debug, Clone, PartialEq)]
pub struct StagePlan {
    pub stage: u32,
    pub playing: Vec<usize>,
    pub trials: u64,
}

/// A candidate's counts between stages: the last stage it played, whether it is still in
/// the race, and its (mass, trials) per part pooled over its stages ((0, 0) for an exact
/// part; none for an exact candidate: the search computes exact parts again).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedEntrant {
    pub stage: u32,
    pub alive: bool,
    pub trials: u64,
    pub counts: Vec<(u64, u64)>,
}

/// A race between stages, as integers: its stages so far and every candidate's counts.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SavedRace {
    pub stages: Vec<(u32, usize, usize, u64)>,
    pub entrants: Vec<SavedEntrant>,
}

impl RaceState {
    /// A race of `scales.len()` candidates (each estimate multiplied by its scale) that
    /// has played no stage. `exact` gives, for each candidate with an exact part, all its
    /// parts: the exact ones with their values, the others empty ([`Part::rate`] or
    /// [`Part::scored`] of no trial, in the shape its results will have), or `None` where
    /// every part plays; or it is empty when no part is exact.
    ///
    /// # Errors
    /// Invalid settings, `exact` of another length than `scales`, or a part given with
    /// trials, as a message.
    pub fn new(scales: &[f64], exact: &[Option<Vec<Part>>], settings: &RaceSettings) -> Result<RaceState, String> {
        settings.validate()?;
        if !exact.is_empty() && exact.len() != scales.len() {
            return Err(format!("exact values for {} candidates, the race has {}", exact.len(), scales.len()));
        }
        if let Some(i) = exact.iter().position(|e| e.iter().flatten().any(|p| p.trials > 0 || p.mass > 0)) {
            return Err(format!("candidate {}: a part starts with trials", i + 1));
        }
        let z = settings.z(scales.len());
        let entrants = scales
            .iter()
            .enumerate()
            .map(|(i, &s)| match exact.get(i).and_then(Option::as_ref) {
                Some(parts) => {
                    let all = parts.iter().all(|p| p.exact.is_some());
                    Entrant {
                        // a partly exact candidate stands nowhere before it plays
                        standing: if all { standing(parts, s, z) } else { standing(&[], s, z) },
                        parts: parts.clone(),
                        stage: 0,
                        trials: 0,
                        alive: true,
                        exact: all,
                    }
                }
                None => Entrant {
                    standing: standing(&[], s, z),
                    parts: Vec::new(),
                    stage: 0,
                    trials: 0,
                    alive: true,
                    exact: false,
                },
            })
            .collect();
        Ok(RaceState {
            scales: scales.to_vec(),
            settings: settings.clone(),
            z,
            entrants,
            stages: Vec::new(),
            stopped: None,
        })
    }

    /// The next stage to play, or `None` when the race has stopped (no more than k left,
    /// every interval within the precision, or the stage cap played).
    pub fn next(&self) -> Option<StagePlan> {
        let stage = self.stages.len() as u32 + 1;
        if self.stopped.is_some() || stage > self.settings.max_stages {
            return None;
        }
        let playing = (0..self.entrants.len()).filter(|&i| self.entrants[i].alive && !self.entrants[i].exact).collect();
        Some(StagePlan { stage, playing, trials: self.settings.stage_trials(stage) })
    }

    /// Take the results of `plan` (each playing candidate's parts for that stage alone,
    /// in order, with the same parts every stage; an exact part comes back unplayed, with
    /// no trial, and keeps its value), cut, and decide whether the race stops. The exact
    /// candidates still in the race take part in the cut by their values.
    ///
    /// # Errors
    /// A plan that is not [`RaceState::next`]'s, results of another length or shape, or
    /// an exact part played.
    pub fn record(&mut self, plan: &StagePlan, results: Vec<Vec<Part>>) -> Result<StageRecord, String> {
        if self.next().as_ref() != Some(plan) {
            return Err(format!("stage {} is not the race's next stage", plan.stage));
        }
        let s = plan.stage;
        if results.len() != plan.playing.len() {
            return Err(format!("stage {s}: {} results for {} candidates", results.len(), plan.playing.len()));
        }
        for (&i, parts) in plan.playing.iter().zip(results) {
            let e = &mut self.entrants[i];
            if e.parts.is_empty() {
                e.parts = parts;
            } else {
                if e.parts.len() != parts.len() {
                    return Err(format!("stage {s}: a candidate's parts changed"));
                }
                for (acc, p) in e.parts.iter_mut().zip(parts) {
                    if acc.exact.is_some() {
                        if p.trials > 0 {
                            return Err(format!("stage {s}: an exact part was played"));
                        }
                        continue;
                    }
                    acc.mass += p.mass;
                    acc.trials += p.trials;
                }
            }
            e.stage = s;
            e.trials += plan.trials;
            e.standing = standing(&e.parts, self.scales[i], self.z);
        }
        let mut exact = 0;
        for e in self.entrants.iter_mut().filter(|e| e.alive && e.exact) {
            e.stage = s;
            exact += 1;
        }
        let record = self.cut(s, plan.playing.len() + exact, plan.trials);
        self.stages.push(record.clone());
        Ok(record)
    }

    /// The cut after stage `s` and whether the race stops there.
    fn cut(&mut self, s: u32, candidates: usize, trials: u64) -> StageRecord {
        let standings: Vec<Standing> = self.entrants.iter().map(|e| e.standing).collect();
        let alive: Vec<bool> = self.entrants.iter().map(|e| e.alive).collect();
        let kept = cut(&standings, &alive, self.settings.top);
        for (e, k) in self.entrants.iter_mut().zip(&kept) {
            e.alive = *k;
        }
        let survivors = kept.iter().filter(|k| **k).count();
        self.stopped = self.stop_after(survivors);
        StageRecord { stage: s, candidates, survivors, trials_each: trials }
    }

    /// Why the race stops after a stage that left `survivors`, if it does.
    fn stop_after(&self, survivors: usize) -> Option<Stop> {
        if survivors <= self.settings.top {
            return Some(Stop::Separated);
        }
        let precise = self
            .entrants
            .iter()
            .zip(&self.scales)
            .filter(|(e, _)| e.alive)
            .all(|(e, s)| e.standing.interval.half_width() / s <= self.settings.precision);
        precise.then_some(Stop::Precision)
    }

    /// The race as it stands (a race that has not stopped reads as stopped by the
    /// stage cap).
    pub fn finish(self) -> Race {
        let stopped = self.stopped.unwrap_or(Stop::StageCap);
        Race { entrants: self.entrants, stages: self.stages, z: self.z, stopped }
    }

    /// The stages played so far.
    pub fn stages(&self) -> &[StageRecord] {
        &self.stages
    }

    /// This state's integer counts (see [`RaceState::restore`]).
    pub fn saved(&self) -> SavedRace {
        SavedRace {
            stages: self.stages.iter().map(|r| (r.stage, r.candidates, r.survivors, r.trials_each)).collect(),
            entrants: self
                .entrants
                .iter()
                .map(|e| SavedEntrant {
                    stage: e.stage,
                    alive: e.alive,
                    trials: e.trials,
                    counts: if e.exact || e.stage == 0 {
                        Vec::new()
                    } else {
                        e.parts.iter().map(|p| (p.mass, p.trials)).collect()
                    },
                })
                .collect(),
        }
    }

    /// The state `saved` describes, for candidates of `scales` and `exact` (as for
    /// [`RaceState::new`]) whose parts weigh and score as `parts` says ((weight, unit)
    /// per part): the same state, bit for bit, as the race that saved it.
    ///
    /// # Errors
    /// Invalid settings; counts for another number of candidates or parts; stages out
    /// of order or beyond the settings; an entrant whose counts disagree with the stages
    /// (more mass than its trials can score, trials that are not its stages' sum, a
    /// dropped candidate that played after its drop, counts for an exact candidate or
    /// part).
    pub fn restore(
        scales: &[f64],
        exact: &[Option<Vec<Part>>],
        parts: &[(f64, u64)],
        settings: &RaceSettings,
        saved: &SavedRace,
    ) -> Result<RaceState, String> {
        let mut state = RaceState::new(scales, exact, settings)?;
        if saved.entrants.len() != scales.len() {
            return Err(format!("counts for {} candidates, the space has {}", saved.entrants.len(), scales.len()));
        }
        for (k, &(stage, candidates, survivors, trials)) in saved.stages.iter().enumerate() {
            let s = k as u32 + 1;
            if stage != s || s > settings.max_stages || trials != settings.stage_trials(s) || survivors > candidates {
                return Err(format!("stage {} of the saved race does not follow the race's settings", k + 1));
            }
            state.stages.push(StageRecord { stage, candidates, survivors, trials_each: trials });
        }
        let played = state.stages.len() as u32;
        for (i, (e, saved_e)) in state.entrants.iter_mut().zip(&saved.entrants).enumerate() {
            let placed = saved_e.stage <= played && (saved_e.stage == played || !saved_e.alive);
            // each part's template: an exact value, or none where the part plays
            let known = |j: usize| e.parts.get(j).and_then(|p| p.exact);
            let ok = if e.exact {
                placed && saved_e.trials == 0 && saved_e.counts.is_empty()
            } else {
                placed
                    && saved_e.trials == settings.cumulative_trials(saved_e.stage)
                    && (saved_e.counts.is_empty() == (saved_e.stage == 0))
                    && (saved_e.counts.is_empty() || saved_e.counts.len() == parts.len())
                    && saved_e.counts.iter().zip(parts).enumerate().all(|(j, (&(m, n), &(_, unit)))| {
                        if known(j).is_some() {
                            (m, n) == (0, 0)
                        } else {
                            (m as u128) <= (n as u128) * (unit as u128) && n == saved_e.trials
                        }
                    })
            };
            if !ok {
                return Err(format!("the saved counts of candidate {} disagree with the race's stages", i + 1));
            }
            e.stage = saved_e.stage;
            e.alive = saved_e.alive;
            e.trials = saved_e.trials;
            if !e.exact && !saved_e.counts.is_empty() {
                let template = std::mem::take(&mut e.parts);
                e.parts = saved_e
                    .counts
                    .iter()
                    .zip(parts)
                    .enumerate()
                    .map(|(j, (&(m, n), &(w, unit)))| match template.get(j) {
                        Some(t) if t.exact.is_some() => *t,
                        _ => Part::scored(w, m, n, unit),
                    })
                    .collect();
                e.standing = standing(&e.parts, scales[i], state.z);
            }
        }
        for r in &state.stages {
            let played_it = state.entrants.iter().filter(|e| e.stage >= r.stage).count();
            if played_it != r.candidates {
                return Err(format!(
                    "stage {}: {played_it} candidates played it, the record says {}",
                    r.stage, r.candidates
                ));
            }
        }
        if let Some(last) = state.stages.last() {
            let alive = state.entrants.iter().filter(|e| e.alive).count();
            if alive != last.survivors {
                return Err(format!(
                    "{alive} candidates are in the race, stage {} left {}",
                    last.stage, last.survivors
                ));
            }
            state.stopped = state.stop_after(alive);
        }
        Ok(state)
    }
}

/// Run a race of `scales.len()` candidates (each estimate multiplied by its scale).
/// `play(stage, candidates, trials)` plays `trials` more trials per part for each listed
/// candidate and returns each one's parts for that stage alone, in the same order and
/// with the same parts every stage. `on_stage` hears each stage as it ends.
///
/// # Errors
/// Invalid settings (as a message), or what `play` returns.
pub fn race<E: From<String>>(
    scales: &[f64],
    settings: &RaceSettings,
    mut play: impl FnMut(u32, &[usize], u64) -> Result<Vec<Vec<Part>>, E>,
    mut on_stage: impl FnMut(&StageRecord),
) -> Result<Race, E> {
    let mut state = RaceState::new(scales, &[], settings).map_err(E::from)?;
    while let Some(plan) = state.next() {
        let results = play(plan.stage, &plan.playing, plan.trials)?;
        let record = state.record(&plan, results).map_err(E::from)?;
        on_stage(&record);
    }
    Ok(state.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_distr::{Binomial, Distribution};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn s(low: f64, est: f64, high: f64) -> Standing {
        Standing { estimate: est, interval: Interval { low, high } }
    }

    #[test]
    fn the_cut_drops_what_is_below_the_kth_lower_bound() {
        let st = [s(0.5, 0.6, 0.7), s(0.4, 0.5, 0.6), s(0.1, 0.2, 0.39), s(0.3, 0.35, 0.45), s(0.0, 0.1, 0.41)];
        let alive = [true; 5];
        assert_eq!(cut(&st, &alive, 1), vec![true, true, false, false, false]);
        assert_eq!(cut(&st, &alive, 2), vec![true, true, false, true, true]);
        // the dead stay dead, and k or fewer alive are all kept
        assert_eq!(cut(&st, &[false, true, false, false, true], 2), vec![false, true, false, false, true]);
    }

    #[test]
    fn tie_groups_follow_the_leaders_lower_bound() {
        let ranked = [s(0.5, 0.6, 0.7), s(0.45, 0.55, 0.65), s(0.3, 0.4, 0.49), s(0.2, 0.35, 0.45), s(0.0, 0.1, 0.19)];
        assert_eq!(tie_groups(&ranked), vec![1, 1, 2, 2, 3]);
    }

    #[test]
    fn stage_trials_grow_geometrically() {
        let r = RaceSettings { top: 1, first_trials: 10, growth: 4, max_stages: 3, alpha: 0.05, precision: 0.0 };
        assert_eq!((r.stage_trials(1), r.stage_trials(2), r.stage_trials(3)), (10, 40, 160));
        assert_eq!(r.cumulative_trials(3), 210);
        assert!(r.z(1000) > 4.0);
        for bad in [
            RaceSettings { top: 0, ..r.clone() },
            RaceSettings { growth: 1, ..r.clone() },
            RaceSettings { alpha: 1.0, ..r.clone() },
            RaceSettings { first_trials: 0, ..r.clone() },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    /// Candidates with known rates, each with two parts (weights 1 and 3), played by
    /// binomial draws from a stream keyed by candidate and stage.
    fn play_known(rates: &[f64]) -> impl FnMut(u32, &[usize], u64) -> Result<Vec<Vec<Part>>, String> + '_ {
        move |stage, who, trials| {
            Ok(who
                .iter()
                .map(|&i| {
                    let mut rng = Xoshiro256PlusPlus::seed_from_u64((i as u64) << 8 | stage as u64);
                    [1.0, 3.0]
                        .iter()
                        .map(|&w| Part::rate(w, Binomial::new(trials, rates[i]).unwrap().sample(&mut rng), trials))
                        .collect()
                })
                .collect())
        }
    }

    #[test]
    fn a_planted_best_is_found_with_a_small_share_of_the_exhaustive_trials() {
        // 400 candidates from 0.2 to 0.6, and one at 0.65
        let mut rates: Vec<f64> = (0..400).map(|i| 0.2 + 0.4 * i as f64 / 400.0).collect();
        rates.insert(123, 0.65);
        let settings = RaceSettings { top: 1, first_trials: 50, growth: 4, max_stages: 5, alpha: 0.05, precision: 0.0 };
        let mut heard = Vec::new();
        let race =
            race::<String>(&vec![1.0; rates.len()], &settings, play_known(&rates), |r| heard.push(r.clone())).unwrap();
        assert_eq!(race.ranking()[0], 123);
        assert_eq!(race.stopped, Stop::Separated);
        assert_eq!(heard, race.stages);
        let exhaustive = rates.len() as u64 * settings.cumulative_trials(race.stages.len() as u32);
        assert!(race.trials_used() * 20 <= exhaustive, "{} of {exhaustive}", race.trials_used());
        // the first stage played everyone, and every cut dropped some
        assert_eq!(race.stages[0].candidates, 401);
        assert!(race.stages.iter().all(|s| s.survivors < s.candidates), "{:?}", race.stages);
    }

    /// The race's top k equals the top k of every candidate measured at the race's final
    /// precision (its last stage's cumulative trials), when that top k is separated.
    #[test]
    fn the_racing_top_k_agrees_with_an_exhaustive_run() {
        // 117 candidates from 0.1 to 0.6 in a scrambled order, and three clear leaders
        let mut rates: Vec<f64> = (0..117).map(|i| 0.1 + 0.5 * ((i * 37) % 117) as f64 / 117.0).collect();
        rates.insert(20, 0.8);
        rates.insert(50, 0.74);
        rates.insert(90, 0.68);
        let settings = RaceSettings { top: 3, first_trials: 40, growth: 4, max_stages: 4, alpha: 0.05, precision: 0.0 };
        let race = race::<String>(&vec![1.0; rates.len()], &settings, play_known(&rates), |_| {}).unwrap();
        let top: Vec<usize> = race.ranking()[..3].to_vec();
        let mut play = play_known(&rates);
        let all: Vec<usize> = (0..rates.len()).collect();
        let full = settings.cumulative_trials(race.stages.len() as u32);
        let z = settings.z(rates.len());
        let measured: Vec<f64> = play(99, &all, full).unwrap().iter().map(|p| standing(p, 1.0, z).estimate).collect();
        let mut exhaustive = all.clone();
        exhaustive.sort_by(|&a, &b| measured[b].total_cmp(&measured[a]));
        let mut want = exhaustive[..3].to_vec();
        let mut got = top.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }

    /// A race saved after every stage and restored from its integer counts ends exactly
    /// as the race run through; counts that disagree with the stages are refused.
    #[test]
    fn a_race_saved_and_restored_between_stages_ends_the_same() {
        let rates: Vec<f64> = (0..60).map(|i| 0.2 + 0.5 * ((i * 13) % 60) as f64 / 60.0).collect();
        let settings = RaceSettings { top: 2, first_trials: 30, growth: 3, max_stages: 5, alpha: 0.05, precision: 0.0 };
        let scales: Vec<f64> = (0..60).map(|i| 1.0 + i as f64 / 100.0).collect();
        let whole = race::<String>(&scales, &settings, play_known(&rates), |_| {}).unwrap();
        let mut play = play_known(&rates);
        let mut state = RaceState::new(&scales, &[], &settings).unwrap();
        while let Some(plan) = state.next() {
            let results = play(plan.stage, &plan.playing, plan.trials).unwrap();
            state.record(&plan, results).unwrap();
            let json = serde_json::to_string(&state.saved()).unwrap();
            let saved: SavedRace = serde_json::from_str(&json).unwrap();
            state = RaceState::restore(&scales, &[], &[(1.0, 1), (3.0, 1)], &settings, &saved).unwrap();
        }
        assert!(whole.stages.len() > 1, "{:?}", whole.stages);
        assert_eq!(state.finish(), whole);
        // a forged count: more trials than the stages gave, or a survivor too many
        let mut state = RaceState::new(&scales, &[], &settings).unwrap();
        let plan = state.next().unwrap();
        state.record(&plan, play(1, &plan.playing, plan.trials).unwrap()).unwrap();
        let mut forged = state.saved();
        forged.entrants[3].counts[0].1 += 1;
        assert!(RaceState::restore(&scales, &[], &[(1.0, 1), (3.0, 1)], &settings, &forged).is_err());
        let mut forged = state.saved();
        let dropped = forged.entrants.iter().position(|e| !e.alive).unwrap();
        forged.entrants[dropped].alive = true;
        assert!(RaceState::restore(&scales, &[], &[(1.0, 1), (3.0, 1)], &settings, &forged).is_err());
        assert!(RaceState::restore(&scales[1..], &[], &[(1.0, 1), (3.0, 1)], &settings, &state.saved()).is_err());
    }

    /// A negative control: the same first stage cut on point estimates (z = 0, no
    /// interval) trusts noise and drops the true best among many close candidates, where
    /// the race's corrected intervals keep it.
    #[test]
    fn without_the_correction_the_cut_loses_the_best() {
        let mut rates = vec![0.50; 300];
        rates[7] = 0.53;
        let fine = RaceSettings { top: 1, first_trials: 20, growth: 4, max_stages: 6, alpha: 0.05, precision: 0.0 };
        let race_fine = race::<String>(&vec![1.0; rates.len()], &fine, play_known(&rates), |_| {}).unwrap();
        assert!(race_fine.entrants[7].alive, "the corrected race keeps the best");
        let all: Vec<usize> = (0..rates.len()).collect();
        let first = play_known(&rates)(1, &all, 20).unwrap();
        let narrow: Vec<Standing> = first.iter().map(|p| standing(p, 1.0, 0.0)).collect();
        let kept = cut(&narrow, &vec![true; rates.len()], 1);
        assert!(!kept[7], "an uncorrected cut drops it");
    }

    /// Bounded scores: a part of scores in 0..=unit reads as its share of the unit, its
    /// Wilson interval covers the true mean of a bounded score at least as often as
    /// stated (checked against the exact mean of a three-point law), and it is the rate's
    /// interval when the unit is 1.
    #[test]
    fn bounded_scores_race_as_shares_with_conservative_intervals() {
        assert_eq!(Part::scored(1.0, 7, 10, 1).interval(1.96), Part::rate(1.0, 7, 10).interval(1.96));
        let p = Part::scored(1.0, 30, 10, 4);
        assert_eq!(p.mean(), 0.75);
        // scores 0, 2, 4 with chances 0.3, 0.5, 0.2: mean 1.8 of 4 = 0.45
        let law = [(0u64, 0.3), (2, 0.5), (4, 0.2)];
        let truth = 0.45;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(11);
        let (runs, n) = (2000, 50u64);
        let mut missed = 0;
        let mut missed_normal = 0;
        for _ in 0..runs {
            let mut mass = 0;
            for _ in 0..n {
                let u: f64 = rand::RngExt::random(&mut rng);
                let score = if u < law[0].1 {
                    law[0].0
                } else if u < law[0].1 + law[1].1 {
                    law[1].0
                } else {
                    law[2].0
                };
                mass += score;
            }
            if !Part::scored(1.0, mass, n, 4).interval(crate::stats::Z95).contains(truth) {
                missed += 1;
            }
            // negative control: a z far below the 95% one misses far more often
            if !Part::scored(1.0, mass, n, 4).interval(0.5).contains(truth) {
                missed_normal += 1;
            }
        }
        // 95% intervals: at most 5% misses, with room for the run's own noise
        // (binomial(2000, 0.05) stays below 130 with probability > 0.999)
        assert!(missed < 130, "{missed} of {runs} missed");
        assert!(missed_normal > 600, "{missed_normal} of {runs} missed at z = 0.5");
    }

    /// Exact candidates take part by their values without playing: they are never in a
    /// stage's players, count as its candidates, keep zero trials, and a race saved and
    /// restored with them ends the same.
    #[test]
    fn exact_candidates_take_part_without_playing() {
        let rates: Vec<f64> = (0..40).map(|i| 0.2 + 0.5 * ((i * 7) % 40) as f64 / 40.0).collect();
        let exact: Vec<Option<Vec<Part>>> = (0..40)
            .map(|i| (i % 4 == 0).then(|| vec![Part::exact(1.0, rates[i]), Part::exact(3.0, rates[i])]))
            .collect();
        let settings = RaceSettings { top: 2, first_trials: 30, growth: 3, max_stages: 4, alpha: 0.05, precision: 0.0 };
        let scales = vec![1.0; 40];
        let mut state = RaceState::new(&scales, &exact, &settings).unwrap();
        let mut play = play_known(&rates);
        while let Some(plan) = state.next() {
            assert!(plan.playing.iter().all(|&i| i % 4 != 0), "{:?}", plan.playing);
            let results = play(plan.stage, &plan.playing, plan.trials).unwrap();
            let alive_exact = (0..40).filter(|&i| i % 4 == 0 && state.entrants[i].alive).count();
            let record = state.record(&plan, results).unwrap();
            assert_eq!(record.candidates, plan.playing.len() + alive_exact);
            let saved = state.saved();
            state = RaceState::restore(&scales, &exact, &[(1.0, 1), (3.0, 1)], &settings, &saved).unwrap();
        }
        let race = state.finish();
        for i in (0..40).step_by(4) {
            let e = &race.entrants[i];
            assert!(e.exact && e.trials == 0);
            assert_eq!(e.standing.estimate, rates[i]);
            assert_eq!(e.standing.interval.low, e.standing.interval.high);
        }
        // every candidate exact: one stage with no player settles it
        let all: Vec<Option<Vec<Part>>> = rates.iter().map(|&r| Some(vec![Part::exact(1.0, r)])).collect();
        let mut state = RaceState::new(&scales, &all, &settings).unwrap();
        let plan = state.next().unwrap();
        assert!(plan.playing.is_empty());
        let record = state.record(&plan, Vec::new()).unwrap();
        assert_eq!(record.candidates, 40);
        let race = state.finish();
        let best = race.ranking()[0];
        assert_eq!(rates[best], rates.iter().copied().fold(f64::MIN, f64::max));
        assert_eq!(race.trials_used(), 0);
        // counts forged for an exact candidate are refused
        let mut forged = RaceState::new(&scales, &exact, &settings).unwrap();
        let plan = forged.next().unwrap();
        forged.record(&plan, play(1, &plan.playing, plan.trials).unwrap()).unwrap();
        let mut saved = forged.saved();
        saved.entrants[0].counts = vec![(1, 30), (1, 30)];
        assert!(RaceState::restore(&scales, &exact, &[(1.0, 1), (3.0, 1)], &settings, &saved).is_err());
    }

    /// A partly exact candidate plays only its other parts: its exact part keeps its
    /// value through every stage, a save and a restore; its interval is narrower than
    /// the same counts all played; an exact part played, or counts forged for one, are
    /// refused.
    #[test]
    fn partly_exact_candidates_play_only_their_other_parts() {
        let rates: Vec<f64> = (0..40).map(|i| 0.2 + 0.5 * ((i * 7) % 40) as f64 / 40.0).collect();
        // every fourth candidate knows its first part (weight 1) exactly
        let exact: Vec<Option<Vec<Part>>> =
            (0..40).map(|i| (i % 4 == 1).then(|| vec![Part::exact(1.0, rates[i]), Part::rate(3.0, 0, 0)])).collect();
        let settings = RaceSettings { top: 2, first_trials: 30, growth: 3, max_stages: 4, alpha: 0.05, precision: 0.0 };
        let scales = vec![1.0; 40];
        let mut state = RaceState::new(&scales, &exact, &settings).unwrap();
        let mut play = play_known(&rates);
        // the player leaves the exact part unplayed
        let mut play_mixed = |stage, who: &[usize], trials| -> Result<Vec<Vec<Part>>, String> {
            let mut out = play(stage, who, trials)?;
            for (parts, &i) in out.iter_mut().zip(who) {
                if let Some(known) = &exact[i] {
                    parts[0] = known[0];
                }
            }
            Ok(out)
        };
        let mut stages = 0;
        while let Some(plan) = state.next() {
            let mixed_alive = (0..40).filter(|&i| i % 4 == 1 && state.entrants[i].alive).count();
            assert_eq!(plan.playing.iter().filter(|&&i| i % 4 == 1).count(), mixed_alive);
            let results = play_mixed(plan.stage, &plan.playing, plan.trials).unwrap();
            if stages == 0 {
                // an exact part played is refused
                let mut forged = state.clone();
                let mut bad = results.clone();
                let k = plan.playing.iter().position(|&i| i % 4 == 1).unwrap();
                bad[k][0] = Part::rate(1.0, 3, plan.trials);
                assert!(forged.record(&plan, bad).is_err());
            }
            state.record(&plan, results).unwrap();
            let saved = state.saved();
            let restored = RaceState::restore(&scales, &exact, &[(1.0, 1), (3.0, 1)], &settings, &saved).unwrap();
            assert_eq!(restored, state);
            if stages == 0 {
                // counts forged for the exact part are refused
                let mut forged = saved.clone();
                forged.entrants[1].counts[0] = (3, 30);
                assert!(RaceState::restore(&scales, &exact, &[(1.0, 1), (3.0, 1)], &settings, &forged).is_err());
            }
            state = restored;
            stages += 1;
        }
        let race = state.finish();
        let mut checked = 0;
        for i in (1..40).step_by(4) {
            let e = &race.entrants[i];
            assert!(!e.exact && e.trials == settings.cumulative_trials(e.stage), "{e:?}");
            assert_eq!(e.parts[0], Part::exact(1.0, rates[i]));
            assert_eq!(e.parts[1].trials, e.trials);
            // the same counts with the first part played at its exact rate are wider
            let played = Part::rate(1.0, (rates[i] * e.trials as f64).round() as u64, e.trials);
            let all_played = standing(&[played, e.parts[1]], 1.0, race.z);
            assert!(e.standing.interval.half_width() < all_played.interval.half_width(), "{e:?}");
            checked += 1;
        }
        assert_eq!(checked, 10);
    }
}
