//! `volley compare A B`: is A better than B, and by how much, from paired runs.

use anyhow::Result;
use clap::Args;
use serde_json::json;

use super::args::FormatArgs;
use super::envelope::{BattleCompareEnvelope, CompareEnvelope};
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{Invocation, options_line, print_table, with_options_json, write_stdout};
use crate::output::percent::{percent, signed_percent, signed_percent_interval};
use crate::output::wording::{cost, count};
use crate::output::{Format, Table};
use crate::request::compare::{BattleCompareRequest, CompareRequest, compare, compare_battles};
use crate::request::envelope::Envelope;
use crate::rules::Ruleset;
use crate::rules::axis::Point;
use crate::stats::Standing;
use crate::stats::{Metric, PairedSummary};
use crate::sweep::compare::{BattleCompare, CompareResult, CompareSpec, Pairing, ResultComparison, Versus};
use crate::sweep::per_cost::{Better, PerCost};
use crate::sweep::reach::CompareReach;

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The side to judge (A): a build, a mech or MECH+PILOT
    #[arg(value_name = "A")]
    pub a: String,
    /// The side to compare it with (B)
    #[arg(value_name = "B")]
    pub b: String,
    /// Duel a field: a [[field]] of the catalogue (weights apply) or builds or selectors separated by commas
    #[arg(long, value_name = "FIELD", conflicts_with_all = ["target", "scenario"])]
    pub against: Option<String>,
    /// Battles: A and B are forces ([[force]] names or builds joined by +), each fighting the forces of --versus; compares P(A wins) − P(B wins)
    #[arg(long, requires = "versus", conflicts_with_all = ["against", "target", "exact", "metric"])]
    pub battle: bool,
    /// With --battle: the opposing forces, separated by commas (equal weights), or a [[field]] whose builds fight as one-unit forces
    #[arg(long, value_name = "FORCES", requires = "battle")]
    pub versus: Option<String>,
    /// With --battle: the battle mode [default: the ruleset's first; `volley rulesets` lists each ruleset's] (TechCommander's `--mode` is the attack action of duels)
    #[arg(long = "battle-mode", value_name = "MODE", requires = "battle")]
    pub battle_mode: Option<String>,
    /// With --battle: crn plays A's and B's battles on common random numbers (the same generator per trial; paired interval), independent plays them as separate cells keyed as `volley battle` keys them
    #[arg(long, value_name = "PAIRING", default_value = "crn", value_parser = ["crn", "independent"], requires = "battle")]
    pub pairing: String,
    /// Attack-run targets instead (TechCommander: units, builds or ac:N; MECHCOM: mechs), repeatable
    #[arg(long, value_name = "TARGET", conflicts_with = "scenario")]
    pub target: Vec<String>,
    /// Take opponents or targets, conditions, turn cap, policy, seed and trials from a scenario file or built-in scenario
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<String>,
    /// What to compare: win (duels), turns (attack runs: turns to kill, censored = cap + 1), kill-by-turn:K [default: win for duels, turns for attack runs]
    #[arg(long, value_name = "METRIC")]
    pub metric: Option<String>,
    /// With --target: compute A, B and their difference exactly from the time-to-kill chains (no Monte Carlo, intervals of zero width)
    #[arg(long)]
    pub exact: bool,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// How a summary's intervals were made (see `crate::stats::paired`).
fn method(s: &PairedSummary, metric: Metric) -> &'static str {
    match (s.exact, metric) {
        (true, _) => "exact",
        (false, Metric::Turns) => "normal (bounded when the sample has no spread)",
        (false, _) => "Wilson; difference: Newcombe paired method 10",
    }
}

fn summary_json(s: &PairedSummary, metric: &str) -> serde_json::Value {
    let (p, i) = (s.paired_ci(), s.independent_ci());
    json!({
        "metric": metric,
        "a": s.a,
        "a_ci95": s.a_ci().pair(),
        "b": s.b,
        "b_ci95": s.b_ci().pair(),
        "difference": s.difference,
        "difference_ci95": p.pair(),
        "independent_ci95": i.pair(),
        "paired_to_independent_width": ratio(&p, &i),
        "significant": p.low > 0.0 || p.high < 0.0,
        "trials": s.trials,
    })
}

/// "A costs 5 points, B 4" (or "A and B both cost 5 points"), in the game's cost unit.
fn cost_line<R: Ruleset>(spec: &CompareSpec<R>, r: &CompareResult) -> String {
    costs_text::<R>((&spec.a, &spec.b), (r.a_points, r.b_points))
}

/// As [`cost_line`], for names `(a, b)` at costs `(ca, cb)`.
fn costs_text<R: Ruleset>((a, b): (&str, &str), (ca, cb): (f64, f64)) -> String {
    let unit = R::COST_UNIT;
    if ca == cb {
        format!("{a} and {b} both cost {} {unit}", cost(ca))
    } else {
        format!("{a} costs {} {unit}, {b} {}", cost(ca), cost(cb))
    }
}

/// Two values as text with the fewest decimals (at least those `text(x, 0)` would
/// pick, see [`first_decimals`]) at which different values read differently.
fn distinct(a: f64, b: f64, start: usize, text: impl Fn(f64, usize) -> String) -> (String, String) {
    let mut d = start;
    while a != b && text(a, d) == text(b, d) && d < 12 {
        d += 1;
    }
    (text(a, d), text(b, d))
}

/// The decimals [`percent`] gives `x` (at least 1).
fn first_decimals(x: f64) -> usize {
    percent(x).split_once('.').map_or(1, |(_, f)| f.trim_end_matches('%').len())
}

/// A probability-like value (may exceed 1 per cost) as a percentage with `d` decimals.
fn pct(x: f64, d: usize) -> String {
    if x.is_nan() { "-".into() } else { format!("{:.*}%", d, x * 100.0) }
}

/// A per-cost difference and its interval's ends as text (a count per 100 cost units
/// for probabilities, turns otherwise), with enough decimals that none of the three
/// that differ read alike and none that is not 0 reads as 0.
fn per_cost_text(x: f64, low: f64, high: f64) -> [String; 3] {
    // Per 100 cost units a probability is a count (of wins, kills) per 100 units of
    // copies, not a percentage: a plain number, never a `%` that can exceed 100.
    let values = [x, low, high];
    let d = crate::output::number::decimals_apart(&values, 1.0, 2);
    values.map(|v| format!("{v:+.d$}"))
}

/// A's and B's overall value per point, for metrics where more is better and a rate
/// per point means something (probabilities).
fn per_point(r: &CompareResult) -> Option<(f64, f64)> {
    per_point_of(r, &r.overall)
}

/// As [`per_point`], for summary `s` of `r`'s matchups.
fn per_point_of(r: &CompareResult, s: &PairedSummary) -> Option<(f64, f64)> {
    (r.metric != Metric::Turns && r.a_points > 0.0 && r.b_points > 0.0).then(|| (s.a / r.a_points, s.b / r.b_points))
}

/// The `overall` object of `compare --format json` for summary `s` of `r`'s matchups:
/// [`summary_json`] and, where it means something, `a_per_point` and `b_per_point`.
fn overall_json(r: &CompareResult, s: &PairedSummary, metric: &str) -> serde_json::Value {
    let mut overall = summary_json(s, metric);
    if let Some((a, b)) = per_point_of(r, s) {
        let o = overall.as_object_mut().expect("object");
        o.insert("a_per_point".into(), json!(a));
        o.insert("b_per_point".into(), json!(b));
    }
    overall
}

/// A metric value for the summary lines: a percentage for probabilities (signed for
/// differences), else a number.
fn value_text(x: f64, probability: bool, signed: bool) -> String {
    match (probability, signed) {
        (true, true) => signed_percent(x),
        (true, false) => percent(x),
        (false, true) => format!("{x:+.4}"),
        (false, false) => format!("{x:.4}"),
    }
}

/// The per-cost fields of `compare --format json` (names are an interface).
fn per_cost_json(c: &PerCost, metric: Metric) -> serde_json::Value {
    let finite = |x: f64| x.is_finite().then_some(x);
    json!({
        "per_cost_basis": if metric.higher_is_better() {
            "value per 100 cost units: 100 × value / cost"
        } else {
            "turns a 100-unit budget of copies takes: turns × cost / 100 (fewer is better)"
        },
        "a_per_100": c.a,
        "b_per_100": c.b,
        "difference_per_100": c.difference,
        "difference_per_100_ci95": c.difference_ci.pair(),
        "better_per_cost": c.better.name(),
        "a_never_kills": c.never[0],
        "b_never_kills": c.never[1],
        "cost_granularity": c.granularity,
        "parity_cost": c.parity.map(|p| p.rounded),
        "parity_cost_ci95": c.parity.map(|p| [finite(p.rounded_ci.0), finite(p.rounded_ci.1)]),
        "parity_cost_unrounded": c.parity.map(|p| p.cost),
        "parity_cost_unrounded_ci95": c.parity.map(|p| [finite(p.ci.0), finite(p.ci.1)]),
    })
}

fn ratio(p: &crate::stats::Interval, i: &crate::stats::Interval) -> Option<f64> {
    (i.half_width() > 0.0).then(|| p.half_width() / i.half_width())
}

pub fn run<R: Ruleset>(args: &CompareArgs, ctx: &Invocation<'_>) -> Result<()> {
    if args.battle {
        return run_battle::<R>(args, ctx);
    }
    let request = CompareRequest {
        a: args.a.clone(),
        b: args.b.clone(),
        against: args.against.clone(),
        targets: args.target.clone(),
        scenario: args.scenario.clone(),
        metric: args.metric.clone(),
        exact: args.exact,
        run: args.run.request(),
    };
    let progress = Progress::new(args.run.quiet);
    let compared = compare::<R>(&ctx.setting, &request, &progress)?;
    progress.finish();
    let envelope = ctx.setting.envelope::<R>()?;
    output(args, &compared.spec, &compared.result, compared.seed, envelope.as_ref())
}

/// Conditions of a matchup in words.
fn describe<R: Ruleset>(p: &Point) -> String {
    R::conditions(p).map_or_else(|_| p.key(), |c| R::describe(&c))
}

fn output<R: Ruleset>(
    args: &CompareArgs,
    spec: &CompareSpec<R>,
    r: &CompareResult,
    seed: u64,
    envelope: Option<&Envelope>,
) -> Result<()> {
    let metric = r.metric.name();
    let over = envelope.map(|e| (e, CompareEnvelope::new(spec, r, e)));
    let versus_key = if matches!(spec.versus, Versus::Opponents(_)) { "opponent" } else { "target" };
    match args.format.format {
        Format::Json => {
            let matchups: Vec<serde_json::Value> = r
                .matchups
                .iter()
                .map(|m| {
                    let mut j = summary_json(&m.summary, &metric);
                    let o = j.as_object_mut().expect("object");
                    o.insert(versus_key.into(), json!(m.versus));
                    o.insert("conditions".into(), json!(describe::<R>(&m.point)));
                    o.insert("weight".into(), json!(m.weight));
                    o.insert("intervals".into(), json!(method(&m.summary, r.metric)));
                    super::engagement::insert_compare_reach(o, &m.reach, versus_key);
                    j
                })
                .collect();
            let overall = overall_json(r, &r.overall, &metric);
            let mut j = json!({
                "ruleset": R::NAME, "a": spec.a, "b": spec.b, "metric": metric, "seed": seed,
                "method": if r.exact { "exact" } else { "monte-carlo" },
                "intervals": method(&r.overall, r.metric),
                "a_points": r.a_points, "b_points": r.b_points, "cost": cost_line(spec, r),
                "pairing": if r.exact { "none needed: exact values" } else { R::PAIRING },
                "cost_unit": R::COST_UNIT,
                "overall": overall,
                "matchups": matchups,
            });
            if let (Some(c), Some(o)) = (&r.per_cost, j.as_object_mut()) {
                o.extend(per_cost_json(c, r.metric).as_object().expect("object").clone());
            }
            if let (Some((e, over)), Some(o)) = (&over, j.as_object_mut()) {
                let keys = over.json(e, (&spec.a, &spec.b), |s| overall_json(r, s, &metric));
                o.extend(keys.as_object().expect("object").clone());
            }
            super::print_json(&with_options_json(j, &spec.options), false)
        }
        format => {
            let mut t = Table::new([
                versus_key,
                "conditions",
                "weight",
                "a",
                "b",
                "difference",
                "ci95_low",
                "ci95_high",
                "independent_ci95_low",
                "independent_ci95_high",
                "paired_width_ratio",
                "significant",
                "a_can_attack",
                "b_can_attack",
            ]);
            let mut push = |name: &str, cond: String, w: f64, s: &PairedSummary, reach: Option<&CompareReach>| {
                let (p, i) = (s.paired_ci(), s.independent_ci());
                t.push(vec![
                    name.into(),
                    cond.into(),
                    w.into(),
                    s.a.into(),
                    s.b.into(),
                    s.difference.into(),
                    p.low.into(),
                    p.high.into(),
                    i.low.into(),
                    i.high.into(),
                    ratio(&p, &i).into(),
                    (p.low > 0.0 || p.high < 0.0).into(),
                    reach.map(|x| x.a).into(),
                    reach.map(|x| x.b).into(),
                ]);
            };
            for m in &r.matchups {
                push(&m.versus, describe::<R>(&m.point), m.weight, &m.summary, Some(&m.reach));
            }
            push("overall", String::new(), r.matchups.iter().map(|m| m.weight).sum(), &r.overall, None);
            if format == Format::Table {
                let o = &r.overall;
                let (p, i) = (o.paired_ci(), o.independent_ci());
                let probability = r.metric != Metric::Turns;
                let diff = if r.exact {
                    format!("A − B = {} (exact)", value_text(o.difference, probability, true))
                } else if probability {
                    format!(
                        "A − B = {} (95% CI {})",
                        signed_percent(o.difference),
                        signed_percent_interval(p.low, p.high)
                    )
                } else {
                    format!("A − B = {:+.4} (95% CI {:+.4} to {:+.4})", o.difference, p.low, p.high)
                };
                let verdict = if r.exact && o.difference != 0.0 {
                    let a_better = (o.difference > 0.0) == r.metric.higher_is_better();
                    format!("{diff}: {} is better", if a_better { &spec.a } else { &spec.b })
                } else if r.exact {
                    format!("{diff}: no difference")
                } else if p.low > 0.0 || p.high < 0.0 {
                    let a_better = (p.low > 0.0) == r.metric.higher_is_better();
                    format!("{diff}: {} is better", if a_better { &spec.a } else { &spec.b })
                } else {
                    format!("{diff}: no significant difference")
                };
                let shrink = ratio(&p, &i).map_or("-".into(), |x| format!("{:.0}%", x * 100.0));
                let (a_text, b_text) = if probability {
                    distinct(o.a, o.b, first_decimals(o.a).max(first_decimals(o.b)), pct)
                } else {
                    distinct(o.a, o.b, 4, |x, d| format!("{x:.*}", d))
                };
                let per_point_text = per_point(r).map_or(String::new(), |(a, b)| {
                    let (a, b) = distinct(a, b, first_decimals(a).max(first_decimals(b)), pct);
                    format!("; per {}: A {a}, B {b}", singular(R::COST_UNIT))
                });
                let values = format!("A = {a_text}, B = {b_text}{per_point_text}");
                let pairing = if r.exact {
                    "method: exact (time-to-kill chains, no sampling)".to_string()
                } else {
                    format!(
                        "pairing: the paired 95% interval is {shrink} of the width two independent runs of the same size would give (measured)"
                    )
                };
                let reach = super::engagement::compare_reach_lines(
                    (&spec.a, &spec.b),
                    r.matchups.iter().map(|m| (m.versus.as_str(), describe::<R>(&m.point), &m.reach)),
                );
                let over_lines = over.as_ref().map_or(String::new(), |(e, over)| {
                    format!("over {}:\n{}", e.describe(), over.lines(e, (&spec.a, &spec.b), r.exact))
                });
                write_stdout(&format!(
                    "{} (A) vs {} (B), metric {metric}, {}, seed {seed}\n{}{reach}{}\n{values}\n{verdict} before cost\n{}{pairing}\n{over_lines}\n",
                    spec.a,
                    spec.b,
                    count(r.matchups.len() as u64, "matchup"),
                    options_line(&spec.options),
                    cost_line(spec, r),
                    per_cost_lines::<R>(spec, r),
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}

/// "points" for people as a singular unit ("per point", "per PV").
fn singular(unit: &str) -> &str {
    unit.strip_suffix('s').unwrap_or(unit)
}

/// The per-cost verdict (difference per 100 cost units with its interval, which side
/// is better per cost) and the parity cost, one line each; empty without costs.
fn per_cost_lines<R: Ruleset>(spec: &CompareSpec<R>, r: &CompareResult) -> String {
    let Some(c) = &r.per_cost else { return String::new() };
    let reach = Unreached::of(r.matchups.iter().map(|m| &m.reach));
    per_cost_verdict::<R>((&spec.a, &spec.b), c, r.metric, r.exact, reach)
}

/// In how many of a comparison's matchups A and B cannot attack, of how many.
#[derive(Debug, Clone, Copy)]
struct Unreached {
    a: usize,
    b: usize,
    of: usize,
}

impl Unreached {
    fn of<'a>(reach: impl Iterator<Item = &'a CompareReach>) -> Unreached {
        reach.fold(Unreached { a: 0, b: 0, of: 0 }, |u, r| Unreached {
            a: u.a + usize::from(!r.a),
            b: u.b + usize::from(!r.b),
            of: u.of + 1,
        })
    }

    /// Why a side that never scores does not: no weapon in reach in all, some or none of
    /// the matchups (`cannot` of them); leading space, for people.
    fn why(&self, cannot: usize) -> String {
        if cannot == self.of {
            " (it has no weapon in reach at these conditions)".into()
        } else if cannot > 0 {
            format!(
                " (it has no weapon in reach in {cannot} of {} matchups, and scored in none of the others)",
                self.of
            )
        } else {
            " (it can attack, but scored in none of the engagements)".into()
        }
    }
}

/// The parity line when there is no parity cost: a side's value is 0, so no price of B
/// makes the two equal per cost. Says which build never scores and why.
fn no_parity_line((a, b): (&str, &str), c: &PerCost, u: Unreached) -> String {
    let positive = |x: f64| x > 0.0;
    let (a_zero, b_zero) = (!positive(c.a), !positive(c.b));
    match (a_zero, b_zero) {
        (true, true) if u.a == u.of && u.b == u.of => format!(
            "parity cost: none: neither {a} (A) nor {b} (B) ever scores here (neither has a weapon in reach at these \
             conditions), so there is nothing to break even on\n"
        ),
        (true, true) => format!(
            "parity cost: none: neither {a} (A){} nor {b} (B){} ever scores here, so there is nothing to break even on\n",
            u.why(u.a),
            u.why(u.b)
        ),
        (false, true) => format!(
            "parity cost: none: {b} (B) never scores here{}, so it is worth nothing at any price and no cost of it breaks even with {a}\n",
            u.why(u.b)
        ),
        _ => format!(
            "parity cost: none: {a} (A) never scores here{}, so {b} is better per cost at any price it could have\n",
            u.why(u.a)
        ),
    }
}

/// The per-cost and parity lines of turns to kill when A or B never kills in some
/// matchup ([`PerCost::never`]): its turns per cost are unbounded, so the other is better
/// per cost at any price and there is no parity cost.
fn never_killing_verdict((a, b): (&str, &str), c: &PerCost, unit: &str, u: Unreached) -> String {
    let why = |cannot: usize| {
        if cannot == u.of {
            " (it has no weapon in reach at these conditions)".to_string()
        } else if cannot > 0 {
            format!(" (it has no weapon in reach in {cannot} of {} matchups)", u.of)
        } else {
            " (it reaches, but no run of it kills within the turn cap)".to_string()
        }
    };
    let basis = format!("per cost (turns a 100-{} budget of copies takes, fewer is better)", singular(unit));
    let turns = |never: bool, x: f64| if never { "unbounded".to_string() } else { format!("{x:.4}") };
    let values = format!("A {}, B {}", turns(c.never[0], c.a), turns(c.never[1], c.b));
    // The build that never kills, with its reason, and the one better at any price of B.
    let (never, cannot, better) = match c.never {
        [true, true] => {
            return format!(
                "{basis}: neither {a} (A){} nor {b} (B){} kills in every matchup, so no number of copies of either \
                 does: not comparable per cost\nparity cost: none: neither side kills\n",
                why(u.a),
                why(u.b)
            );
        }
        [false, true] => (b, u.b, a),
        _ => (a, u.a, b),
    };
    format!(
        "{basis}: {values}: {never} never kills in some matchup{}, and no number of copies changes that: {better} is \
         better per {} at any price of {b}\nparity cost: none: no price of {b} breaks even with {a}\n",
        why(cannot),
        singular(unit)
    )
}

/// As [`per_cost_lines`], for names `(a, b)`, per-cost reading `c` of `metric` and the
/// matchups' reach `u`.
fn per_cost_verdict<R: Ruleset>(
    (a, b): (&str, &str),
    c: &PerCost,
    metric: Metric,
    exact: bool,
    u: Unreached,
) -> String {
    let unit = R::COST_UNIT;
    let probability = metric != Metric::Turns;
    if c.never != [false, false] {
        return never_killing_verdict((a, b), c, unit, u);
    }
    let [d, low, high] = per_cost_text(c.difference, c.difference_ci.low, c.difference_ci.high);
    let how = if exact { "exact".to_string() } else { format!("95% CI {low} to {high}") };
    let basis = if probability {
        // A count (of wins, of kills) per 100 cost units spent on copies: a plain number,
        // not a percentage.
        let what = if metric == Metric::Win { "wins" } else { "kills" };
        format!("A − B in {what} per 100 {unit} spent on copies")
    } else {
        let (a, b) = distinct(c.a, c.b, 4, |x, d| format!("{x:.*}", d));
        format!(
            "per cost (turns a 100-{} budget of copies takes, fewer is better): A {a}, B {b}; A − B",
            singular(unit)
        )
    };
    let verdict = match c.better {
        Better::A => format!("{} is better per {}", a, singular(unit)),
        Better::B => format!("{} is better per {}", b, singular(unit)),
        Better::Tie if exact => "equal per cost".to_string(),
        Better::Tie => "tied within the interval (sidegrade)".to_string(),
    };
    let g = c.granularity;
    let parity = match &c.parity {
        Some(p) => {
            let ci = if exact {
                String::new()
            } else {
                let high = if p.rounded_ci.1.is_finite() { cost_text(p.rounded_ci.1, g) } else { "unbounded".into() };
                format!(" (95% CI {} to {high})", cost_text(p.rounded_ci.0, g))
            };
            format!(
                "parity cost: {} would break even with {} per cost here at {} {unit}{ci}, to the catalogue's step of {} {}\n",
                b,
                a,
                cost_text(p.rounded, g),
                cost_text(g, g),
                if g == 1.0 { singular(unit) } else { unit },
            )
        }
        None => no_parity_line((a, b), c, u),
    };
    format!("{basis} = {d} ({how}): {verdict}\n{parity}")
}

/// A cost rounded to step `g` as text, with the step's decimals.
fn cost_text(x: f64, g: f64) -> String {
    let decimals = (0..4).find(|&d| ((g * 10f64.powi(d)) - (g * 10f64.powi(d)).round()).abs() < 1e-9).unwrap_or(3);
    format!("{:.*}", decimals as usize, x)
}

/// `--battle`: forces A and B against the forces of `--versus`.
fn run_battle<R: Ruleset>(args: &CompareArgs, ctx: &Invocation<'_>) -> Result<()> {
    let request = BattleCompareRequest {
        a: args.a.clone(),
        b: args.b.clone(),
        versus: args.versus.clone().unwrap_or_default(),
        mode: args.battle_mode.clone(),
        pairing: args.pairing.clone(),
        scenario: args.scenario.clone(),
        run: args.run.request(),
    };
    let progress = Progress::new(args.run.quiet);
    let r = compare_battles::<R>(&ctx.setting, &request, &progress)?;
    progress.finish();
    let envelope = ctx.setting.envelope::<R>()?;
    battle_output::<R>(args, (&r.a, &r.b), &r.result, r.seed, &r.options, envelope.as_ref())
}

/// One result's comparison as JSON fields.
fn result_json(c: &ResultComparison) -> serde_json::Value {
    json!({
        "a": c.a, "a_ci95": c.a_ci.pair(), "b": c.b, "b_ci95": c.b_ci.pair(),
        "difference": c.difference, "difference_ci95": c.difference_ci.pair(),
        "independent_ci95": c.independent_ci.pair(),
        "paired_to_independent_width": c.width_ratio(),
        "correlation": c.correlation,
        "significant": c.significant(),
    })
}

/// The win comparison's fields, then `draw` and `loss` objects, plus `extra`.
fn results_json(results: &[ResultComparison; 3], extra: serde_json::Value) -> serde_json::Value {
    let mut j = result_json(&results[Standing::Win as usize]);
    let o = j.as_object_mut().expect("object");
    for r in [Standing::Draw, Standing::Loss] {
        o.insert(r.name().into(), result_json(&results[r as usize]));
    }
    if let serde_json::Value::Object(e) = extra {
        o.extend(e);
    }
    j
}

fn battle_output<R: Ruleset>(
    args: &CompareArgs,
    (a, b): (&str, &str),
    r: &BattleCompare,
    seed: u64,
    options: &R::Options,
    envelope: Option<&Envelope>,
) -> Result<()> {
    let win = |m: &[ResultComparison; 3]| m[Standing::Win as usize];
    let over = envelope.map(|e| (e, BattleCompareEnvelope::new(r, e)));
    match args.format.format {
        Format::Json => {
            let matchups: Vec<serde_json::Value> = r
                .matchups
                .iter()
                .map(|m| {
                    results_json(
                        &m.results,
                        json!({
                            "versus": m.versus, "conditions": describe::<R>(&m.point), "weight": m.weight,
                            "a_trials": m.a_trials, "b_trials": m.b_trials,
                            "joint": m.joint.map(|j| j.counts),
                        }),
                    )
                })
                .zip(&r.matchups)
                .map(|(mut j, m)| {
                    super::engagement::insert_compare_reach(j.as_object_mut().expect("object"), &m.reach, "opponent");
                    insert_initiative(&mut j, m);
                    j
                })
                .collect();
            let j = json!({
                "ruleset": R::NAME, "a": a, "b": b, "metric": "win", "seed": seed, "battle": true,
                "a_points": r.a_points, "b_points": r.b_points,
                "pairing": r.pairing.name(),
                "pairing_method": r.pairing.method(),
                "joint_order": "rows: A's result, columns: B's result, each win, draw (or no result at the cap), loss",
                "overall": results_json(&r.overall, json!({})),
                "matchups": matchups,
                "cost_unit": R::COST_UNIT,
                "cost": costs_text::<R>((a, b), (r.a_points, r.b_points)),
                "decided_by_initiative": r.matchups.iter().any(|m| m.decided_by_initiative()),
            });
            let mut j = j;
            if let (Some(c), Some(o)) = (&r.per_cost, j.as_object_mut()) {
                o.extend(per_cost_json(c, Metric::Win).as_object().expect("object").clone());
            }
            if let Some((env, e)) = &over
                && let (Some(o), serde_json::Value::Object(x)) = (j.as_object_mut(), e.json(env, (a, b), result_json))
            {
                o.extend(x);
            }
            super::print_json(&with_options_json(j, options), false)
        }
        format => {
            let mut t = Table::new([
                "versus",
                "conditions",
                "weight",
                "a",
                "b",
                "difference",
                "ci95_low",
                "ci95_high",
                "independent_ci95_low",
                "independent_ci95_high",
                "paired_width_ratio",
                "correlation",
                "significant",
                "draw_difference",
                "draw_ci95_low",
                "draw_ci95_high",
                "loss_difference",
                "loss_ci95_low",
                "loss_ci95_high",
                "a_can_attack",
                "b_can_attack",
            ]);
            let mut push = |name: String,
                            cond: String,
                            weight: f64,
                            results: &[ResultComparison; 3],
                            reach: Option<&CompareReach>| {
                let w = win(results);
                let (d, l) = (results[Standing::Draw as usize], results[Standing::Loss as usize]);
                t.push(vec![
                    name.into(),
                    cond.into(),
                    weight.into(),
                    w.a.into(),
                    w.b.into(),
                    w.difference.into(),
                    w.difference_ci.low.into(),
                    w.difference_ci.high.into(),
                    w.independent_ci.low.into(),
                    w.independent_ci.high.into(),
                    w.width_ratio().into(),
                    w.correlation.into(),
                    w.significant().into(),
                    d.difference.into(),
                    d.difference_ci.low.into(),
                    d.difference_ci.high.into(),
                    l.difference.into(),
                    l.difference_ci.low.into(),
                    l.difference_ci.high.into(),
                    reach.map(|x| x.a).into(),
                    reach.map(|x| x.b).into(),
                ]);
            };
            for m in &r.matchups {
                push(m.versus.clone(), describe::<R>(&m.point), m.weight, &m.results, Some(&m.reach));
            }
            push("overall".into(), String::new(), r.matchups.iter().map(|m| m.weight).sum(), &r.overall, None);
            if format == Format::Table {
                let o = win(&r.overall);
                let d = o.difference_ci;
                let verdict = if d.low > 0.0 {
                    format!("{a} is better")
                } else if d.high < 0.0 {
                    format!("{b} is better")
                } else {
                    "no significant difference".into()
                };
                let pairing = match r.pairing {
                    Pairing::Crn => format!(
                        "pairing: crn (common random numbers): the paired 95% interval is {} of the width two independent runs of the same size would give (measured); correlation of A's and B's wins {}",
                        o.width_ratio().map_or("-".into(), |x| format!("{:.0}%", x * 100.0)),
                        o.correlation.map_or("-".into(), |c| format!("{c:.3}")),
                    ),
                    Pairing::Independent => format!("pairing: {}", r.pairing.method()),
                };
                let reach = super::engagement::compare_reach_lines(
                    (a, b),
                    r.matchups.iter().map(|m| (m.versus.as_str(), describe::<R>(&m.point), &m.reach)),
                );
                let reach = reach + &initiative_caveat::<R>((a, b), r);
                let ranges = over.as_ref().map_or(String::new(), |(env, e)| {
                    format!("over {}; the overall is their weighted average\n{}", env.describe(), e.lines(env, (a, b)))
                });
                let per_cost = r.per_cost.as_ref().map_or(String::new(), |c| {
                    let u = Unreached::of(r.matchups.iter().map(|m| &m.reach));
                    per_cost_verdict::<R>((a, b), c, Metric::Win, false, u)
                });
                write_stdout(&format!(
                    "{a} (A) vs {b} (B) in battles, metric win, {}, seed {seed}\n{}{reach}{ranges}A = {}, B = {}\nA − B = {} (95% CI {}): {verdict} before cost\n{}\n{per_cost}{pairing}\n\n",
                    count(r.matchups.len() as u64, "matchup"),
                    options_line(options),
                    percent(o.a),
                    percent(o.b),
                    signed_percent(o.difference),
                    signed_percent_interval(d.low, d.high),
                    costs_text::<R>((a, b), (r.a_points, r.b_points)),
                ))?;
            }
            print_table(&t, format, 4)
        }
    }
}

/// Add a battle matchup's initiative split to its JSON: `a_initiative` and `b_initiative`
/// (A's and B's battle against the opposing force), each with `volley battle`'s keys
/// ([`super::engagement::insert_split`]: `p_a_wins_a_first` is P(the compared force wins
/// | it acted first), `p_a_wins_b_first` the same when the opposing force did, their
/// `_ci95`, `decided_by_initiative`, `trials_a_first`, `trials_b_first`), and
/// `decided_by_initiative` (either battle is).
fn insert_initiative(j: &mut serde_json::Value, m: &crate::sweep::compare::BattleMatchup) {
    for (key, split) in [("a_initiative", &m.initiative[0]), ("b_initiative", &m.initiative[1])] {
        let mut o = json!({});
        super::engagement::insert_split(&mut o, split);
        j[key] = o;
    }
    j["decided_by_initiative"] = json!(m.decided_by_initiative());
}

/// Most matchups the initiative caveat names one by one.
const CAVEAT_EXAMPLES: usize = 3;

/// The caveat for people when initiative decides some matchups' battles (empty
/// otherwise): how many, a few of them with their split, and that the rates pool both
/// orders. Ends with a newline.
fn initiative_caveat<R: Ruleset>((a, b): (&str, &str), r: &BattleCompare) -> String {
    let mut decided = Vec::new();
    for m in &r.matchups {
        for (side, name, split) in [("A", a, &m.initiative[0]), ("B", b, &m.initiative[1])] {
            if let (true, Some(x), Some(y)) = (split.decided_by_initiative(), split.own_first, split.other_first) {
                decided.push(format!(
                    "{side} ({name}) vs {} at {}: P({side} wins | {side} acts first) {:.4} [{:.4}, {:.4}], P({side} wins | the opponent acts first) {:.4} [{:.4}, {:.4}]",
                    m.versus,
                    describe::<R>(&m.point),
                    x.p,
                    x.ci.low,
                    x.ci.high,
                    y.p,
                    y.ci.low,
                    y.ci.high,
                ));
            }
        }
    }
    if decided.is_empty() {
        return String::new();
    }
    let matchups = r.matchups.iter().filter(|m| m.decided_by_initiative()).count();
    let mut out = format!(
        "initiative: DECIDED BY INITIATIVE in {matchups} of {}: the win rates below average both orders, so \
         they hide that the order of play decides these battles (run `volley battle` on a matchup for its split)\n",
        count(r.matchups.len() as u64, "matchup"),
    );
    for line in decided.iter().take(CAVEAT_EXAMPLES) {
        out += &format!("  {line}\n");
    }
    if decided.len() > CAVEAT_EXAMPLES {
        out += &format!(
            "  and {} more battles (JSON: `a_initiative`, `b_initiative` per matchup)\n",
            decided.len() - CAVEAT_EXAMPLES
        );
    }
    out
}
