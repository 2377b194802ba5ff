//! Range envelopes on the command line (`--range 6,12,24`, `--range 3..30:3`, with
//! `--range-weights`; see [`crate::request::envelope`]): per-range results, their
//! weighted average with its 95% interval, and each side's best range. A single range
//! never comes here: its output is the command's own.

use anyhow::{Result, anyhow};
use serde_json::{Value, json};

use super::duel::{DuelArgs, DuelHead, exact_json, exact_values, notes_text, outcome_names, reach_note, sampled_json};
use super::progress::Progress;
use super::{Invocation, options_line, print_json, print_table, with_options_json, write_stdout};
use crate::engine::{Cell, cell_key, run};
use crate::output::wording::count;
use crate::output::{Format, Table};
use crate::request::envelope::{Best, Envelope, Estimate, RANGE_AXIS, average, best};
use crate::rules::{Role, RuleOptions, Ruleset};
use crate::stats::{Interval, PairedSummary, Standing};
use crate::sweep::cells::CellSpec;
use crate::sweep::compare::{BattleCompare, CompareResult, CompareSpec, ResultComparison, Versus};

/// A range as a JSON number (whole ranges as integers).
pub fn range_json(range: &str) -> Value {
    match range.parse::<f64>() {
        Ok(v) if v.fract() == 0.0 && v.abs() < 1e15 => json!(v as i64),
        Ok(v) => json!(v),
        Err(_) => json!(range),
    }
}

/// The `envelope` object's description of the ranges: `ranges` and their normalised
/// `weights`.
pub(super) fn envelope_json(env: &Envelope) -> serde_json::Map<String, Value> {
    let mut o = serde_json::Map::new();
    o.insert("ranges".into(), Value::Array(env.ranges.iter().map(|r| range_json(r)).collect()));
    o.insert("weights".into(), json!(env.weights));
    o
}

/// `objects` (one per range of `env`, in order), each with its `range` and `weight`.
pub(super) fn tag_ranges(objects: impl IntoIterator<Item = Value>, env: &Envelope) -> Vec<Value> {
    objects
        .into_iter()
        .zip(env.ranges.iter().zip(&env.weights))
        .map(|(mut o, (r, w))| {
            o["range"] = range_json(r);
            o["weight"] = json!(w);
            o
        })
        .collect()
}

/// The `best_range` object: A's and B's best ranges ([`best_json`]) among `values`.
fn best_range_json(
    names: (&str, &str),
    best: (Option<&Best>, Option<&Best>),
    env: &Envelope,
    values: (&[Estimate], &[Estimate]),
) -> Value {
    json!({
        "a": best_json(names.0, best.0, env, values.0),
        "b": best_json(names.1, best.1, env, values.1),
    })
}

/// A side's best range as JSON: `side`, `range`, `value` and `ci95` there, `tie` and the
/// ranges `tied_with` it.
pub(super) fn best_json(side: &str, best: Option<&Best>, env: &Envelope, values: &[Estimate]) -> Value {
    let Some(b) = best else { return Value::Null };
    let e = values[b.index];
    json!({
        "side": side,
        "range": range_json(&env.ranges[b.index]),
        "value": e.value,
        "ci95": e.ci.pair(),
        "tie": !b.tied.is_empty(),
        "tied_with": b.tied.iter().map(|&i| range_json(&env.ranges[i])).collect::<Vec<_>>(),
    })
}

/// One line for people: where `side` does best, and whether that is a statistical tie.
pub(super) fn best_line(
    side: &str,
    what: &str,
    best: Option<&Best>,
    env: &Envelope,
    values: &[Estimate],
    exact: bool,
) -> String {
    let Some(b) = best else { return format!("best range for {side}: none (no result)\n") };
    let e = values[b.index];
    let value =
        if exact { format!("{:.6}", e.value) } else { format!("{:.4} [{:.4}, {:.4}]", e.value, e.ci.low, e.ci.high) };
    let verdict = match (b.tied.is_empty(), exact) {
        (true, true) => "better than at every other range".to_string(),
        (true, false) => "ahead of every other range (95%)".to_string(),
        (false, true) => format!("equal at {}", tied_ranges(b, env)),
        (false, false) => format!("a statistical tie with {} (95%)", tied_ranges(b, env)),
    };
    format!("best range for {side}: {} ({what} {value}), {verdict}\n", env.ranges[b.index])
}

fn tied_ranges(b: &Best, env: &Envelope) -> String {
    b.tied.iter().map(|&i| env.ranges[i].as_str()).collect::<Vec<_>>().join(", ")
}

/// One range of a duel envelope: A wins, B wins, draw, and who can attack.
struct DuelRow {
    a: Estimate,
    b: Estimate,
    draw: Estimate,
    can: (bool, bool),
}

/// `volley duel A B --range LIST`: every range played (or solved) as `volley duel` plays
/// it alone, so each range's object equals that command's output at the same seed.
///
/// # Errors
/// As `volley duel` at any of the ranges; `--exact` where a range has no exact solution.
pub fn run_duel<R: Ruleset>(args: &DuelArgs, ctx: &Invocation<'_>, env: &Envelope) -> Result<()> {
    let options = ctx.setting.options::<R>()?;
    let policy = args.run.policy::<R>()?;
    let cat = ctx.setting.catalogue.load::<R>()?;
    let a = R::display_name(&cat, Role::Opponent, &args.a).map_err(|e| anyhow!(e))?;
    let b = R::display_name(&cat, Role::Opponent, &args.b).map_err(|e| anyhow!(e))?;
    let policy_name = policy.to_string();
    let max_turns = args.run.max_turns;
    let mut legs = Vec::new();
    for r in &env.ranges {
        let s = ctx.setting.at_range(r);
        let cond = s.engagement_conditions::<R>()?;
        let kernel =
            R::duel(&cat, &a, &b, &cond, &options, policy, max_turns).map_err(|e| anyhow!("range {r}: {e}"))?;
        let reach = |x: &str, y: &str| R::can_attack(&cat, x, y, &cond, &options).map_err(|e| anyhow!(e));
        let can = (reach(&a, &b)?, reach(&b, &a)?);
        legs.push((s.point::<R>()?, R::describe(&cond), kernel, can));
    }
    let mut notes: Vec<String> = Vec::new();
    for (.., k, _) in &legs {
        for n in R::duel_notes(k) {
            if !notes.contains(&n) {
                notes.push(n);
            }
        }
    }
    let (rows, objects, seed, how) = if args.exact {
        let mut rows = Vec::new();
        let mut objects = Vec::new();
        for (leg, r) in legs.iter().zip(&env.ranges) {
            let Some(e) = R::exact_duel(&leg.2) else {
                return Err(anyhow!(
                    "no exact solution for this {} duel at range {r}: run it without --exact for Monte Carlo",
                    R::NAME
                ));
            };
            let [pa, pb, pd, ..] = exact_values(&e);
            let point = |v: f64| Estimate { value: v, ci: Interval { low: v, high: v } };
            rows.push(DuelRow { a: point(pa), b: point(pb), draw: point(pd), can: leg.3 });
            let head = DuelHead { a: &a, b: &b, conditions: &leg.1, policy: &policy_name, can: leg.3 };
            objects.push(exact_json::<R>(&head, max_turns, &e, R::exact_initiative(&leg.2), &R::duel_notes(&leg.2)));
        }
        (rows, objects, None, "method: exact".to_string())
    } else {
        let config = args.run.config()?;
        let pairs = options.pairs();
        let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns };
        let cells: Vec<Cell<'_, R::Duel>> =
            legs.iter().map(|l| Cell { key: cell_key(&spec.duel(&a, &b, &l.0)), kernel: &l.2 }).collect();
        let progress = Progress::new(args.run.quiet);
        let tallies = run(&cells, &config, &progress).map_err(|e| anyhow!(e))?;
        progress.finish();
        let mut rows = Vec::new();
        let mut objects = Vec::new();
        for (leg, t) in legs.iter().zip(&tallies) {
            let s = t.summary();
            let e = |value: f64, ci: Interval| Estimate { value, ci };
            rows.push(DuelRow {
                a: e(s.p_a_wins, s.p_a_wins_ci),
                b: e(s.p_b_wins, s.p_b_wins_ci),
                draw: e(s.p_draw, s.p_draw_ci),
                can: leg.3,
            });
            let exact = R::exact_duel(&leg.2);
            let head = DuelHead { a: &a, b: &b, conditions: &leg.1, policy: &policy_name, can: leg.3 };
            objects.push(sampled_json::<R>(&head, max_turns, config.seed, &s, exact, &R::duel_notes(&leg.2)));
        }
        let trials = tallies.first().map_or(0, |t| t.trials);
        (
            rows,
            objects,
            Some(config.seed),
            format!("Monte Carlo, {} per range, seed {}", count(trials, "duel"), config.seed),
        )
    };
    let exact = args.exact;
    let avg = |f: &dyn Fn(&DuelRow) -> Estimate| {
        let parts: Vec<(f64, Estimate)> = env.weights.iter().zip(&rows).map(|(w, r)| (*w, f(r))).collect();
        average(&parts).map(|e| if exact { exact_estimate(e) } else { e })
    };
    let (avg_a, avg_b, avg_draw) = (avg(&|r| r.a), avg(&|r| r.b), avg(&|r| r.draw));
    let a_values: Vec<Estimate> = rows.iter().map(|r| r.a).collect();
    let b_values: Vec<Estimate> = rows.iter().map(|r| r.b).collect();
    let (best_a, best_b) = (best(&a_values, true), best(&b_values, true));
    let (name_a, name_b) = outcome_names(&a, &b);
    match args.format.format {
        Format::Json => {
            let ranges = tag_ranges(objects, env);
            let mut e = envelope_json(env);
            for (key, v) in [("p_a_wins", avg_a), ("p_b_wins", avg_b), ("p_draw", avg_draw)] {
                e.insert(key.into(), json!(v.map(|v| v.value)));
                e.insert(format!("{key}_ci95"), json!(v.map(|v| v.ci.pair())));
            }
            e.insert("intervals".into(), json!(AVERAGE_INTERVALS));
            let j = json!({
                "ruleset": R::NAME, "a": a, "b": b, "policy": policy_name, "max_turns": max_turns,
                "method": if exact { "exact" } else { "monte-carlo" }, "seed": seed,
                "ranges": ranges,
                "envelope": e,
                "best_range": best_range_json((&a, &b), (best_a.as_ref(), best_b.as_ref()), env, (&a_values, &b_values)),
            });
            print_json(&with_options_json(j, &options), exact)
        }
        format => {
            let mut t = Table::new([
                "range",
                "weight",
                "a_wins",
                "a_ci95_low",
                "a_ci95_high",
                "b_wins",
                "b_ci95_low",
                "b_ci95_high",
                "draw",
                "draw_ci95_low",
                "draw_ci95_high",
                "a_can_attack",
                "b_can_attack",
            ]);
            let mut push = |range: &str, w: f64, x: [Option<Estimate>; 3], can: Option<(bool, bool)>| {
                let mut row = vec![range.into(), w.into()];
                for e in x {
                    row.extend([e.map(|e| e.value).into(), e.map(|e| e.ci.low).into(), e.map(|e| e.ci.high).into()]);
                }
                row.extend([can.map(|c| c.0).into(), can.map(|c| c.1).into()]);
                t.push(row);
            };
            for ((r, w), row) in env.ranges.iter().zip(&env.weights).zip(&rows) {
                push(r, *w, [Some(row.a), Some(row.b), Some(row.draw)], Some(row.can));
            }
            push("average", env.weights.iter().sum(), [avg_a, avg_b, avg_draw], None);
            if format == Format::Table {
                let reach: String = env
                    .ranges
                    .iter()
                    .zip(&rows)
                    .map(|(r, row)| match reach_note((&a, &b), row.can) {
                        n if n.is_empty() => n,
                        n => format!("range {r}: {n}"),
                    })
                    .collect();
                let average_line = match (avg_a, avg_b) {
                    (Some(x), Some(y)) if exact => {
                        format!(
                            "weighted average: {name_a} wins {:.6}, {name_b} wins {:.6} (exact)\n",
                            x.value, y.value
                        )
                    }
                    (Some(x), Some(y)) => format!(
                        "weighted average: {name_a} wins {:.4} [{:.4}, {:.4}], {name_b} wins {:.4} [{:.4}, {:.4}] (95%, {AVERAGE_INTERVALS})\n",
                        x.value, x.ci.low, x.ci.high, y.value, y.ci.low, y.ci.high
                    ),
                    _ => String::new(),
                };
                write_stdout(&format!(
                    "{a} vs {b} over {} ({} max, policy {policy_name})\n{reach}{}{}{how}\n{average_line}{}{}\n",
                    env.describe(),
                    count(max_turns, R::TURN),
                    options_line(&options),
                    notes_text(&notes),
                    best_line(&name_a, &format!("P({name_a} wins)"), best_a.as_ref(), env, &a_values, exact),
                    best_line(&name_b, &format!("P({name_b} wins)"), best_b.as_ref(), env, &b_values, exact),
                ))?;
            }
            print_table(&t, format, if exact { 6 } else { 4 })
        }
    }
}

/// How the weighted average's interval is made (JSON `intervals`, the average line).
pub const AVERAGE_INTERVALS: &str =
    "MOVER over the per-range intervals, which are independent: variances combined with the weights";

/// An exact average rounded as exact values are.
fn exact_estimate(e: Estimate) -> Estimate {
    let v = crate::output::number::exact(e.value);
    Estimate { value: v, ci: Interval { low: v, high: v } }
}

/// A comparison over a range envelope: each range's overall comparison (over the
/// opponents or targets, weighted as a single-range comparison weights them, so it
/// equals `volley compare` at that range), their weighted average, and A's and B's best
/// ranges.
pub struct CompareEnvelope {
    pub rows: Vec<PairedSummary>,
    pub average: PairedSummary,
    pub best_a: Option<Best>,
    pub best_b: Option<Best>,
}

impl CompareEnvelope {
    /// The envelope's readings of comparison `r` run over `env`'s ranges.
    pub fn new<R: Ruleset>(spec: &CompareSpec<R>, r: &CompareResult, env: &Envelope) -> CompareEnvelope {
        let weight_of = |versus: &str| match &spec.versus {
            Versus::Opponents(o) => o.iter().find(|(n, _)| n == versus).map_or(1.0, |(_, w)| *w),
            Versus::Targets(_) => 1.0,
        };
        let rows: Vec<PairedSummary> = env
            .ranges
            .iter()
            .map(|range| {
                let parts: Vec<(f64, PairedSummary)> = r
                    .matchups
                    .iter()
                    .filter(|m| m.point.get(RANGE_AXIS) == range)
                    .map(|m| (weight_of(&m.versus), m.summary))
                    .collect();
                PairedSummary::weighted(&parts)
            })
            .collect();
        let average =
            PairedSummary::weighted(&env.weights.iter().copied().zip(rows.iter().copied()).collect::<Vec<_>>());
        let est = |f: &dyn Fn(&PairedSummary) -> Estimate| rows.iter().map(f).collect::<Vec<_>>();
        let higher = r.metric.higher_is_better();
        let best_a = best(&est(&|s| Estimate { value: s.a, ci: s.a_ci() }), higher);
        let best_b = best(&est(&|s| Estimate { value: s.b, ci: s.b_ci() }), higher);
        CompareEnvelope { rows, average, best_a, best_b }
    }

    /// The JSON keys `ranges`, `envelope` and `best_range`, each range's and the
    /// average's object made by `summary`.
    pub fn json(&self, env: &Envelope, names: (&str, &str), summary: impl Fn(&PairedSummary) -> Value) -> Value {
        let ranges = tag_ranges(self.rows.iter().map(&summary), env);
        let mut e = envelope_json(env);
        if let Value::Object(o) = summary(&self.average) {
            e.extend(o);
        }
        e.insert("intervals".into(), json!(AVERAGE_INTERVALS));
        let (a, b) = self.estimates();
        json!({
            "ranges": ranges,
            "envelope": e,
            "best_range": best_range_json(names, (self.best_a.as_ref(), self.best_b.as_ref()), env, (&a, &b)),
        })
    }

    fn estimates(&self) -> (Vec<Estimate>, Vec<Estimate>) {
        (
            self.rows.iter().map(|s| Estimate { value: s.a, ci: s.a_ci() }).collect(),
            self.rows.iter().map(|s| Estimate { value: s.b, ci: s.b_ci() }).collect(),
        )
    }

    /// Lines for people: each range's A, B and A − B, the weighted average, and each
    /// side's best range.
    pub fn lines(&self, env: &Envelope, names: (&str, &str), exact: bool) -> String {
        let mut out = String::new();
        for ((r, w), s) in env.ranges.iter().zip(&env.weights).zip(&self.rows) {
            out += &format!("range {r} (weight {}): {}\n", crate::output::number::exact(*w), summary_text(s, exact));
        }
        out += &format!("weighted average: {}\n", summary_text(&self.average, exact));
        let (a, b) = self.estimates();
        out += &best_line(names.0, "A", self.best_a.as_ref(), env, &a, exact);
        out += &best_line(names.1, "B", self.best_b.as_ref(), env, &b, exact);
        out
    }
}

fn summary_text(s: &PairedSummary, exact: bool) -> String {
    if exact {
        return format!("A {:.6}, B {:.6}, A − B {:+.6}", s.a, s.b, s.difference);
    }
    let d = s.paired_ci();
    format!("A {:.4}, B {:.4}, A − B {:+.4} [{:+.4}, {:+.4}]", s.a, s.b, s.difference, d.low, d.high)
}

/// A battle comparison over a range envelope (`compare --battle --range LIST`): each
/// range's win comparison (over the `--versus` forces, as a single-range run weighs them),
/// and A's and B's best ranges. The weighted average is the comparison's overall.
pub struct BattleCompareEnvelope {
    pub rows: Vec<ResultComparison>,
    pub best_a: Option<Best>,
    pub best_b: Option<Best>,
}

impl BattleCompareEnvelope {
    /// The envelope's readings of battle comparison `r` run over `env`'s ranges.
    pub fn new(r: &BattleCompare, env: &Envelope) -> BattleCompareEnvelope {
        let rows: Vec<ResultComparison> =
            env.ranges.iter().map(|range| r.at_range(range)[Standing::Win as usize]).collect();
        let (a, b) = Self::estimates(&rows);
        BattleCompareEnvelope { best_a: best(&a, true), best_b: best(&b, true), rows }
    }

    fn estimates(rows: &[ResultComparison]) -> (Vec<Estimate>, Vec<Estimate>) {
        (
            rows.iter().map(|c| Estimate { value: c.a, ci: c.a_ci }).collect(),
            rows.iter().map(|c| Estimate { value: c.b, ci: c.b_ci }).collect(),
        )
    }

    /// The JSON keys `ranges` (each range's win comparison made by `object`, with its
    /// `range` and `weight`), `envelope` (the ranges, their weights and the intervals'
    /// method) and `best_range`.
    pub fn json(&self, env: &Envelope, names: (&str, &str), object: impl Fn(&ResultComparison) -> Value) -> Value {
        let ranges = tag_ranges(self.rows.iter().map(object), env);
        let mut e = envelope_json(env);
        e.insert("intervals".into(), json!(AVERAGE_INTERVALS));
        let (a, b) = Self::estimates(&self.rows);
        json!({
            "ranges": ranges,
            "envelope": e,
            "best_range": best_range_json(names, (self.best_a.as_ref(), self.best_b.as_ref()), env, (&a, &b)),
        })
    }

    /// Lines for people: each range's A, B and A − B win rates, and each side's best range.
    pub fn lines(&self, env: &Envelope, names: (&str, &str)) -> String {
        let mut out = String::new();
        for ((r, w), c) in env.ranges.iter().zip(&env.weights).zip(&self.rows) {
            let d = c.difference_ci;
            out += &format!(
                "range {r} (weight {}): A {:.4}, B {:.4}, A − B {:+.4} [{:+.4}, {:+.4}]\n",
                crate::output::number::exact(*w),
                c.a,
                c.b,
                c.difference,
                d.low,
                d.high
            );
        }
        let (a, b) = Self::estimates(&self.rows);
        out += &best_line(names.0, "A", self.best_a.as_ref(), env, &a, false);
        out += &best_line(names.1, "B", self.best_b.as_ref(), env, &b, false);
        out
    }
}
