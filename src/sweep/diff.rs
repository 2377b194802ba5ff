//! Catalogue diffs: one scenario played on an old and a new catalogue, and the change of
//! every headline metric per build (and per weapon), with paired intervals.
//!
//! - Attack runs are exact (the ruleset's exact law): per build and target, `p_kill`,
//!   `mean_turns`, `p_kill_turn1`, `kill_points_per_turn_per_point` and `points`; per
//!   weapon, `p_kill_turn1` (one attack's kill chance). The difference is exact and its
//!   interval has zero width.
//! - Duels are Monte Carlo with common random numbers: both catalogues' duels of a cell
//!   use the cell key a sweep would (so the same streams), trial `i` of the old duel is
//!   paired with trial `i` of the new one, and [`PairedTally`]s give `p_a_wins`,
//!   `p_b_wins`, `p_draw` (Newcombe's paired interval) and `mean_turns` (normal
//!   interval of the paired differences). A duel no change touches draws the same
//!   numbers in both and plays identically: its difference is exactly 0 with no changed
//!   trial (`changed_trials` = 0).
//!
//! Builds are listed whether or not a change touches them. Besides the rows, each build
//! is summed up over its matchups and cells ([`super::diff_summary`]): the patch notes.

use serde_json::{Value, json};

use crate::engine::{Cell, Kernel, Observer, RunConfig, Tally, cell_key, run};
use crate::output::{Cell as Out, Kind, Table};
use crate::rules::axis::{self, Point};
use crate::rules::ruleset::{Role, RuleOptions, Ruleset};
use crate::stats::paired::Scale;
use crate::stats::{DuelTally, Interval, PairedTally};
use rand_xoshiro::Xoshiro256PlusPlus;

use super::cells::CellSpec;
use super::diff_summary::{BuildChange, BuildParts, Change, summarise};
use super::scenario::{Engagement, Resolved, Scenario, all_specs};

/// One catalogue of a diff: the catalogue and the scenario's names resolved against it.
pub struct Side<'a, C> {
    pub catalogue: &'a C,
    pub resolved: &'a Resolved,
}

/// One line of a diff.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffRow {
    pub build: String,
    /// `None` on a build's own rows.
    pub weapon: Option<String>,
    /// The target (attack runs) or opponent (duels).
    pub against: String,
    pub point: Point,
    pub metric: &'static str,
    /// `exact` or `monte-carlo`.
    pub method: &'static str,
    /// `None` where the metric has no value (no kill within the cap, or a weapon the
    /// catalogue does not give the build).
    pub old: Option<f64>,
    pub new: Option<f64>,
    /// new − old.
    pub difference: Option<f64>,
    /// 95% interval of new − old (zero width when exact).
    pub difference_ci95: Option<Interval>,
    /// Monte Carlo: trials per catalogue, and trials whose outcome differs.
    pub trials: Option<u64>,
    pub changed_trials: Option<u64>,
}

impl DiffRow {
    fn exact(
        build: &str,
        weapon: Option<&str>,
        against: &str,
        point: &Point,
        metric: &'static str,
        old: Option<f64>,
        new: Option<f64>,
    ) -> DiffRow {
        // Exact values, rounded as such (`output::number::exact`), so float noise of the
        // chains never prints; the difference is of the rounded values.
        let (old, new) = (old.map(crate::output::number::exact), new.map(crate::output::number::exact));
        let difference = old.zip(new).map(|(o, n)| crate::output::number::exact(n - o));
        DiffRow {
            build: build.to_string(),
            weapon: weapon.map(str::to_string),
            against: against.to_string(),
            point: point.clone(),
            metric,
            method: "exact",
            old,
            new,
            difference,
            difference_ci95: difference.map(|d| Interval { low: d, high: d }),
            trials: None,
            changed_trials: None,
        }
    }
}

/// A diff: every row, and the per-build summary ranked by the size of the change.
#[derive(Debug, Clone)]
pub struct Diff {
    pub rows: Vec<DiffRow>,
    pub summary: Vec<BuildChange>,
    /// Attack runs or duels.
    pub engagement: Engagement,
    /// The scenario's name.
    pub scenario: String,
}

impl Diff {
    /// How the summary's intervals are made: `exact` (attack runs: exact laws) or
    /// `paired` (duels: both catalogues on common random numbers, trial by trial).
    pub fn method(&self) -> &'static str {
        if self.engagement == Engagement::Duel { "paired" } else { "exact" }
    }
}

/// A value for the summary: `None` for NaN, and exact values rounded as the rows round
/// them, so float noise of the chains never reads as a change.
fn exact(v: f64) -> Option<f64> {
    (!v.is_nan()).then(|| crate::output::number::exact(v))
}

/// Play `scenario` on both catalogues and list the changes (attack-run and duel
/// scenarios).
///
/// # Errors
/// A battle scenario, catalogues whose selections differ, a cell a ruleset refuses, or
/// a cancelled run.
pub fn run_diff<R: Ruleset>(
    scenario: &Scenario,
    old: Side<'_, R::Catalogue>,
    new: Side<'_, R::Catalogue>,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Diff, String> {
    if !scenario.vary.is_empty() {
        return Err("diff plays a scenario without [vary]: the two catalogues are what varies".into());
    }
    for (key, o, n) in [
        ("attackers", &old.resolved.attackers, &new.resolved.attackers),
        ("targets", &old.resolved.targets, &new.resolved.targets),
        ("opponents", &old.resolved.opponents, &new.resolved.opponents),
    ] {
        if o != n {
            return Err(format!(
                "the scenario's {key} select different names in the two catalogues: old {o:?}, new {n:?}; \
                 diff compares the same builds (name them in the scenario)"
            ));
        }
    }
    let points: Vec<(Point, R::Conditions)> = scenario
        .grid
        .expand(&all_specs::<R>(), &[])
        .map_err(|e| e.join("; "))?
        .into_iter()
        .map(|p| {
            let c = R::conditions(&p)?;
            R::check_engagement(&c)?;
            Ok((p, c))
        })
        .collect::<Result<_, String>>()?;
    let options = scenario.rule_options::<R>()?;
    let diff = match scenario.engagement {
        Engagement::AttackRun => attack_runs::<R>(scenario, &old, &new, &points, &options),
        Engagement::Duel => duels::<R>(scenario, &old, &new, &points, &options, config, observer),
        Engagement::Battle => Err("diff plays attack-run and duel scenarios, not battles".into()),
    }?;
    Ok(Diff { scenario: scenario.name.clone(), ..diff })
}

fn attack_runs<R: Ruleset>(
    scenario: &Scenario,
    old: &Side<'_, R::Catalogue>,
    new: &Side<'_, R::Catalogue>,
    points: &[(Point, R::Conditions)],
    options: &R::Options,
) -> Result<Diff, String> {
    let policy: R::Policy = scenario.policy.parse()?;
    let mut rows = Vec::new();
    let mut parts = Vec::new();
    for a in &old.resolved.attackers {
        let mut build = BuildParts {
            build: R::display_name(old.catalogue, Role::Attacker, a)?,
            cost_old: Some(R::points(old.catalogue, a)?),
            cost_new: Some(R::points(new.catalogue, a)?),
            win: Vec::new(),
            kill_points_per_100: Vec::new(),
            own_kill_points_per_100: Vec::new(),
            opponents_repriced: false,
            results_moved: false,
        };
        for t in &old.resolved.targets {
            for (p, c) in points {
                // Per catalogue: the exact law, points, and the cost rows (per weapon).
                let eval = |cat: &R::Catalogue| -> Result<_, String> {
                    let kernel = R::attack_run(cat, a, t, c, options, policy, scenario.max_turns)
                        .map_err(|e| format!("{a} vs {t}: {e}"))?;
                    let exact = R::exact_run(&kernel);
                    let costs = R::cost_rows(cat, a, t, c, options, &kernel, policy, scenario.max_turns)?;
                    Ok((exact, R::points(cat, a)?, R::points(cat, t)?, costs))
                };
                let (eo, po, to, co) = eval(old.catalogue)?;
                let (en, pn, tn, cn) = eval(new.catalogue)?;
                let shown = R::display_name(old.catalogue, Role::Attacker, a)?;
                let target = R::display_name(old.catalogue, Role::Target, t)?;
                let kp = |e: &crate::stats::ExactTtk, points: f64, target_points: f64| {
                    (points > 0.0).then(|| e.kill_rate() * target_points / points)
                };
                let metrics: [(&'static str, Option<f64>, Option<f64>); 5] = [
                    ("p_kill", Some(eo.p_kill), Some(en.p_kill)),
                    ("mean_turns", eo.mean_turns, en.mean_turns),
                    ("p_kill_turn1", eo.p_kill_by_turn.first().copied(), en.p_kill_by_turn.first().copied()),
                    ("kill_points_per_turn_per_point", kp(&eo, po, to), kp(&en, pn, tn)),
                    ("points", Some(po), Some(pn)),
                ];
                for (m, o, n) in metrics {
                    rows.push(DiffRow::exact(&shown, None, &target, p, m, o, n));
                }
                build.win.push(Change::Exact { old: exact(eo.p_kill), new: exact(en.p_kill) });
                let per_100 = |v: Option<f64>| v.and_then(|v| exact(100.0 * v));
                build
                    .kill_points_per_100
                    .push(Change::Exact { old: per_100(kp(&eo, po, to)), new: per_100(kp(&en, pn, tn)) });
                // The build's own change: the target priced as in the new catalogue in both.
                build
                    .own_kill_points_per_100
                    .push(Change::Exact { old: per_100(kp(&eo, po, tn)), new: per_100(kp(&en, pn, tn)) });
                build.opponents_repriced |= to != tn;
                build.results_moved |=
                    exact(eo.p_kill) != exact(en.p_kill) || exact(eo.kill_rate()) != exact(en.kill_rate());
                // Weapons, in the old catalogue's order, then any only the new one has.
                let weapon = |rows: &[crate::rules::ruleset::CostRow], w: &str| {
                    rows.iter().find(|r| r.weapon.as_deref() == Some(w)).and_then(|r| r.p_kill_turn1)
                };
                let mut names: Vec<&str> = co.iter().filter_map(|r| r.weapon.as_deref()).collect();
                for w in cn.iter().filter_map(|r| r.weapon.as_deref()) {
                    if !names.contains(&w) {
                        names.push(w);
                    }
                }
                for w in names {
                    rows.push(DiffRow::exact(
                        &shown,
                        Some(w),
                        &target,
                        p,
                        "p_kill_turn1",
                        weapon(&co, w),
                        weapon(&cn, w),
                    ));
                }
            }
        }
        parts.push(build);
    }
    Ok(Diff { rows, summary: summarise(&parts), engagement: Engagement::AttackRun, scenario: String::new() })
}

/// Paired tallies of one duel cell played on both catalogues.
#[derive(Debug, Clone)]
pub struct DuelDiffTally {
    pub old: DuelTally,
    pub new: DuelTally,
    pub a_wins: PairedTally,
    pub b_wins: PairedTally,
    pub draws: PairedTally,
    /// B destroyed (A won, or both were destroyed together).
    pub b_destroyed: PairedTally,
    /// The turn each duel ended (timeouts: the cap).
    pub turns: PairedTally,
    /// Trials whose outcome (result or turn) differs between the catalogues.
    pub changed: u64,
}

impl Tally for DuelDiffTally {
    fn merge(&mut self, o: &Self) {
        self.old.merge(&o.old);
        self.new.merge(&o.new);
        self.a_wins.merge(&o.a_wins);
        self.b_wins.merge(&o.b_wins);
        self.draws.merge(&o.draws);
        self.b_destroyed.merge(&o.b_destroyed);
        self.turns.merge(&o.turns);
        self.changed += o.changed;
    }
    fn trials(&self) -> u64 {
        self.a_wins.trials
    }
    /// The largest paired half-width among the three outcome rates.
    fn max_half_width(&self) -> f64 {
        [&self.a_wins, &self.b_wins, &self.draws].iter().map(|t| t.paired_half_width()).fold(0.0, f64::max)
    }
}

/// The outcome of the one duel recorded in `t` (A won, B won, draw; the turn it ended),
/// whether B was destroyed (A won or both fell), and `t` emptied again.
fn take_one(t: &mut DuelTally) -> ((i64, i64, i64, i64), i64) {
    let cap = t.a_wins_by_turn.len() as i64;
    let (mut out, mut b_destroyed) = ((0, 0, 1, cap), 0);
    for (i, hist) in [&mut t.a_wins_by_turn, &mut t.b_wins_by_turn, &mut t.mutual_by_turn].into_iter().enumerate() {
        if let Some(turn) = hist.iter().position(|&c| c > 0) {
            hist[turn] = 0;
            out = (i64::from(i == 0), i64::from(i == 1), i64::from(i == 2), turn as i64 + 1);
            b_destroyed = i64::from(i != 1);
        }
    }
    t.timeouts = 0;
    t.trials = 0;
    (out, b_destroyed)
}

/// The old and the new duel of one cell, trial by trial from the same stream: the old
/// duel's numbers are exactly those a sweep draws for the cell.
struct PairedDuel<'k, K> {
    old: &'k K,
    new: &'k K,
    max_turns: i64,
}

impl<K: Kernel<Tally = DuelTally>> Kernel for PairedDuel<'_, K> {
    type Tally = DuelDiffTally;

    fn new_tally(&self) -> DuelDiffTally {
        DuelDiffTally {
            old: self.old.new_tally(),
            new: self.new.new_tally(),
            a_wins: PairedTally::new(Scale::Proportion),
            b_wins: PairedTally::new(Scale::Proportion),
            draws: PairedTally::new(Scale::Proportion),
            b_destroyed: PairedTally::new(Scale::Proportion),
            turns: PairedTally::new(Scale::Range { low: 1, high: self.max_turns }),
            changed: 0,
        }
    }

    /// A duel kernel plays `n` trials as `n` single trials from one generator, so the
    /// old side here draws exactly the numbers of an unpaired run of the same stream.
    fn play(&self, rng: &mut Xoshiro256PlusPlus, trials: u32, tally: &mut DuelDiffTally) {
        let mut new_rng = rng.clone();
        // One-trial scratch tallies, emptied after each trial (one allocation per stream).
        let (mut o1, mut n1) = (self.old.new_tally(), self.new.new_tally());
        for _ in 0..trials {
            self.old.play(rng, 1, &mut o1);
            self.new.play(&mut new_rng, 1, &mut n1);
            tally.old.merge(&o1);
            tally.new.merge(&n1);
            let ((o, ob), (n, nb)) = (take_one(&mut o1), take_one(&mut n1));
            tally.b_destroyed.add(nb, ob);
            tally.a_wins.add(n.0, o.0);
            tally.b_wins.add(n.1, o.1);
            tally.draws.add(n.2, o.2);
            tally.turns.add(n.3, o.3);
            tally.changed += u64::from(o != n);
        }
    }
}

fn duels<R: Ruleset>(
    scenario: &Scenario,
    old: &Side<'_, R::Catalogue>,
    new: &Side<'_, R::Catalogue>,
    points: &[(Point, R::Conditions)],
    options: &R::Options,
    config: &RunConfig,
    observer: &dyn Observer,
) -> Result<Diff, String> {
    let policy: R::Policy = scenario.policy.parse()?;
    let pairs = options.pairs();
    let key = CellSpec { ruleset: R::NAME, options: &pairs, policy: &scenario.policy, max_turns: scenario.max_turns };
    let mut compiled = Vec::new();
    for a in &old.resolved.attackers {
        for b in &old.resolved.opponents {
            for (p, c) in points {
                let duel = |cat: &R::Catalogue| {
                    R::duel(cat, a, b, c, options, policy, scenario.max_turns).map_err(|e| format!("{a} vs {b}: {e}"))
                };
                compiled.push((a, b, p, duel(old.catalogue)?, duel(new.catalogue)?, cell_key(&key.duel(a, b, p))));
            }
        }
    }
    let max_turns = scenario.max_turns as i64;
    let kernels: Vec<PairedDuel<'_, R::Duel>> =
        compiled.iter().map(|c| PairedDuel { old: &c.3, new: &c.4, max_turns }).collect();
    let cells: Vec<Cell<'_, PairedDuel<'_, R::Duel>>> =
        compiled.iter().zip(&kernels).map(|(c, k)| Cell { key: c.5, kernel: k }).collect();
    let tallies = run(&cells, config, observer)?;
    let mut rows = Vec::new();
    let mut parts: Vec<BuildParts> = Vec::new();
    for a in &old.resolved.attackers {
        parts.push(BuildParts {
            build: a.to_string(),
            cost_old: Some(R::points(old.catalogue, a)?),
            cost_new: Some(R::points(new.catalogue, a)?),
            win: Vec::new(),
            kill_points_per_100: Vec::new(),
            own_kill_points_per_100: Vec::new(),
            opponents_repriced: false,
            results_moved: false,
        });
    }
    for ((a, b, p, ..), t) in compiled.iter().zip(&tallies) {
        let build = parts.iter_mut().find(|x| x.build == **a).expect("every attacker has its parts");
        build.win.push(Change::Paired { tally: t.a_wins, scales: (1.0, 1.0) });
        // 100 · opponent cost / own cost, in each catalogue.
        let scale = |cat: &R::Catalogue| -> Result<Option<f64>, String> {
            let (ca, cb) = (R::points(cat, a)?, R::points(cat, b)?);
            Ok((ca > 0.0 && ca.is_finite() && cb.is_finite()).then(|| 100.0 * cb / ca))
        };
        build.kill_points_per_100.push(match (scale(new.catalogue)?, scale(old.catalogue)?) {
            (Some(sn), Some(so)) => Change::Paired { tally: t.b_destroyed, scales: (sn, so) },
            _ => Change::Exact { old: None, new: None },
        });
        // The build's own change: the opponent priced as in the new catalogue in both.
        let (ca_old, ca_new, cb_new) =
            (R::points(old.catalogue, a)?, R::points(new.catalogue, a)?, R::points(new.catalogue, b)?);
        let own = |ca: f64| (ca > 0.0 && ca.is_finite() && cb_new.is_finite()).then(|| 100.0 * cb_new / ca);
        build.own_kill_points_per_100.push(match (own(ca_new), own(ca_old)) {
            (Some(sn), Some(so)) => Change::Paired { tally: t.b_destroyed, scales: (sn, so) },
            _ => Change::Exact { old: None, new: None },
        });
        build.opponents_repriced |= R::points(old.catalogue, b)? != cb_new;
        build.results_moved |= t.changed > 0;
        let (so, sn) = (t.old.summary(), t.new.summary());
        let metrics: [(&'static str, &PairedTally, Option<f64>, Option<f64>); 4] = [
            ("p_a_wins", &t.a_wins, Some(so.p_a_wins), Some(sn.p_a_wins)),
            ("p_b_wins", &t.b_wins, Some(so.p_b_wins), Some(sn.p_b_wins)),
            ("p_draw", &t.draws, Some(so.p_draw), Some(sn.p_draw)),
            ("mean_turns", &t.turns, so.mean_turns, sn.mean_turns),
        ];
        for (metric, paired, o, n) in metrics {
            let s = paired.summary();
            rows.push(DiffRow {
                build: a.to_string(),
                weapon: None,
                against: b.to_string(),
                point: (*p).clone(),
                metric,
                method: "monte-carlo",
                old: o,
                new: n,
                // Paired sums: new − old, exactly 0 when every pair agrees.
                difference: Some(s.difference),
                difference_ci95: Some(s.paired_ci()),
                trials: Some(t.trials()),
                changed_trials: Some(t.changed),
            });
        }
    }
    Ok(Diff { rows, summary: summarise(&parts), engagement: Engagement::Duel, scenario: String::new() })
}

/// The diff as a table: `ruleset`, `build`, `weapon`, `against`, one column per axis,
/// `metric`, `method`, `old`, `new`, `difference`, `difference_ci95_low`/`_high`,
/// `trials`, `changed_trials`.
pub fn diff_table<R: Ruleset>(rows: &[DiffRow]) -> Table {
    let cols: Vec<(&str, Kind)> =
        [("ruleset", Kind::Text), ("build", Kind::Text), ("weapon", Kind::Text), ("against", Kind::Text)]
            .into_iter()
            .chain(axis::columns(R::axes()))
            .chain([
                ("metric", Kind::Text),
                ("method", Kind::Text),
                ("old", Kind::Float),
                ("new", Kind::Float),
                ("difference", Kind::Float),
                ("difference_ci95_low", Kind::Float),
                ("difference_ci95_high", Kind::Float),
                ("trials", Kind::Int),
                ("changed_trials", Kind::Int),
            ])
            .collect();
    let mut t = Table::typed(&cols);
    for r in rows {
        let row: Vec<Out> = [R::NAME.into(), r.build.clone().into(), r.weapon.clone().into(), r.against.clone().into()]
            .into_iter()
            .chain(r.point.cells(R::axes()))
            .chain([
                r.metric.into(),
                r.method.into(),
                r.old.into(),
                r.new.into(),
                r.difference.into(),
                r.difference_ci95.map(|i| i.low).into(),
                r.difference_ci95.map(|i| i.high).into(),
                r.trials.into(),
                r.changed_trials.into(),
            ])
            .collect();
        t.push(row);
    }
    t
}

/// The rows as a table for people ([`diff_table`]'s columns, every cell text): `old`,
/// `new`, `difference` and its interval with the fewest decimals (at least 4) at which
/// values that differ print differently and none that is not 0 prints as 0 (a
/// difference within float noise, [`NOISE`] of the larger value, prints as 0); other
/// numbers as written (`12`, not `12.0000`).
pub fn diff_text_table<R: Ruleset>(rows: &[DiffRow]) -> Table {
    let t = diff_table::<R>(rows);
    let at = |name: &str| t.columns.iter().position(|c| c == name).expect("a diff column");
    let values = [at("old"), at("new"), at("difference"), at("difference_ci95_low"), at("difference_ci95_high")];
    let mut out = Table::new(t.columns.clone());
    for (cells, r) in t.rows.iter().zip(rows) {
        let noise = match (r.old, r.new, r.difference) {
            (Some(o), Some(n), Some(d)) => d.abs() <= NOISE * o.abs().max(n.abs()),
            _ => false,
        };
        let shown = |i: usize, v: f64| if noise && i != values[0] && i != values[1] { 0.0 } else { v };
        let floats: Vec<f64> = values
            .iter()
            .filter_map(|&i| match cells[i] {
                Out::Float(v) if v.is_finite() => Some(shown(i, v)),
                _ => None,
            })
            .collect();
        let d = crate::output::number::decimals_apart(&floats, 1.0, 4);
        let row: Vec<Out> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| match c {
                Out::Float(v) if values.contains(&i) => {
                    let v = shown(i, *v);
                    let text = crate::output::number::unsigned_zero_text(format!("{v:.d$}"));
                    if i >= values[2] && v != 0.0 && !text.starts_with('-') { format!("+{text}") } else { text }.into()
                }
                Out::Float(v) => crate::output::wording::cost(*v).into(),
                Out::Null => "-".into(),
                other => other.clone(),
            })
            .collect();
        out.push(row);
    }
    out
}

/// Differences at most this fraction of the larger value are float noise, not changes
/// (the rule `diff --changed` filters with).
pub const NOISE: f64 = 1e-9;

/// The rows as JSON: one object per row with the table's keys and `difference_ci95` as
/// `[low, high]` (null when there is no difference) in place of its two columns.
pub fn rows_json<R: Ruleset>(rows: &[DiffRow]) -> Value {
    let t = diff_table::<R>(rows);
    Value::Array(
        t.rows
            .iter()
            .zip(rows)
            .map(|(cells, r)| {
                let mut o = serde_json::Map::new();
                for (c, v) in t.columns.iter().zip(cells) {
                    if c == "difference_ci95_low" {
                        o.insert(
                            "difference_ci95".into(),
                            r.difference_ci95.map_or(Value::Null, |i| json!([i.low, i.high])),
                        );
                    } else if c != "difference_ci95_high" {
                        o.insert(c.clone(), v.to_json());
                    }
                }
                Value::Object(o)
            })
            .collect(),
    )
}
