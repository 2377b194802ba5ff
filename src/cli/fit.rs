//! `volley fit [BUILD...] --field FIELD`: the points cost at which each build's result
//! against a field equals a target (docs/fit.md); `--all`: every build at once.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueHint};
use serde_json::json;

use super::args::FormatArgs;
use super::progress::Progress;
use super::sweep::TableFormat;
use super::{Invocation, options_line, print_table, with_options_json, write_stdout};
use crate::engine::runner::MAX_TRIALS;
use crate::output::wording::count;
use crate::output::{Format, ReportDir, Table};
use crate::request::fit::{FitRequest, Fitted, fit};
use crate::rules::{RuleOptions, Ruleset};
use crate::sweep::fit::{FitMethod, FitOutput, UnwritableFit, fit_table};
use crate::sweep::fit_link::{FitMetric, FitStatus};
use crate::sweep::scenario::MAX_TURNS_LIMIT;

#[derive(Debug, Args)]
pub struct FitArgs {
    /// Builds to fit: names or selectors, as in scenarios (`all`, `kind:`, `faction:`, `era:`, `squad:` as the ruleset has them) [default: every build of the catalogue]
    #[arg(value_name = "BUILD")]
    pub builds: Vec<String>,
    /// The field, its costs held fixed: a [[field]] of the catalogue (its weights say how
    /// often each opponent is met) or sides or selectors separated by commas
    #[arg(long, value_name = "FIELD", required_unless_present = "all", conflicts_with = "all")]
    pub field: Option<String>,
    /// Fit the builds jointly, each against all the others (a fixed point; the costs'
    /// total is kept); takes no --field
    #[arg(long)]
    pub all: bool,
    /// Play over a scenario's grid (each point counts equally), options, turn cap, policy,
    /// seed and trials; its opponents are ignored
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<String>,
    /// The result aimed at, strictly between 0 and 1
    #[arg(long, value_name = "P", default_value_t = 0.5, value_parser = parse_target)]
    pub target_win: f64,
    /// What a cost buys: win (win chance per point, Bradley–Terry, draws half) or
    /// kill-points (share of the points destroyed that were the opponent's)
    #[arg(long, value_name = "METRIC", default_value = "win", value_parser = PossibleValuesParser::new(FitMetric::NAMES).map(|s| s.parse::<FitMetric>().expect("a listed name parses")))]
    pub metric: FitMetric,
    /// auto (exact where every matchup has an exact solution), exact, or monte-carlo
    #[arg(long, value_name = "METHOD", default_value = "auto", value_parser = PossibleValuesParser::new(FitMethod::NAMES).map(|s| s.parse::<FitMethod>().expect("a listed name parses")))]
    pub method: FitMethod,
    /// Monte Carlo: double the duels until every fitted cost's 95% interval half-width is
    /// at most P points (or --max-trials is reached)
    #[arg(long, value_name = "P", value_parser = parse_points)]
    pub precision: Option<f64>,
    /// Monte Carlo: duels per matchup in the first round [default: 20000, or the scenario's]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS))]
    pub trials: Option<u64>,
    /// Monte Carlo with --precision: the most duels per matchup
    #[arg(long, value_name = "N", default_value_t = 2_000_000, requires = "precision", value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS))]
    pub max_trials: u64,
    /// Random seed [default: 1, or the scenario's]
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Worker threads [default: all cores]
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Turn cap (MECHCOM: rounds): duels undecided after it are draws [default: 20, or the scenario's]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=MAX_TURNS_LIMIT as i64))]
    pub max_turns: Option<u32>,
    /// Firing policy of the ruleset [default: the ruleset's, or the scenario's]
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
    /// Also write the `fit` table and a manifest to this report directory
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace the report directory if it exists
    #[arg(long, requires = "out")]
    pub force: bool,
    /// With --out: skip the chart
    #[arg(long, requires = "out")]
    pub no_charts: bool,
    /// Table formats written to --out, comma-separated
    #[arg(long = "table-format", value_enum, value_delimiter = ',', default_value = "parquet,csv")]
    pub table_format: Vec<TableFormat>,
    #[command(flatten)]
    pub format: FormatArgs,
}

fn parse_target(text: &str) -> Result<f64, String> {
    let t: f64 = text.trim().parse().map_err(|_| "give a result such as 0.5".to_string())?;
    if !(t > 0.0 && t < 1.0) {
        return Err("the target must lie strictly between 0 and 1".into());
    }
    Ok(t)
}

fn parse_points(text: &str) -> Result<f64, String> {
    let p: f64 = text.trim().parse().map_err(|_| "give a half-width in points such as 0.5".to_string())?;
    if !(p > 0.0 && p.is_finite()) {
        return Err("the precision must be a positive number of points".into());
    }
    Ok(p)
}

impl FitArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> FitRequest {
        FitRequest {
            builds: self.builds.clone(),
            field: self.field.clone(),
            all: self.all,
            scenario: self.scenario.clone(),
            target: self.target_win,
            metric: self.metric,
            method: self.method,
            precision: self.precision,
            trials: self.trials,
            max_trials: self.max_trials,
            seed: self.seed,
            threads: self.threads,
            max_turns: self.max_turns,
            policy: self.policy.clone(),
        }
    }
}

pub fn run<R: Ruleset>(args: &FitArgs, ctx: &Invocation<'_>) -> Result<()> {
    let report = args.out.as_ref().map(|d| ReportDir::create(d, args.force)).transpose()?;
    let progress = Progress::new(args.quiet || args.format.format == Format::Json);
    let fitted = fit::<R>(&ctx.setting, &args.request(), &progress)?;
    progress.finish();
    let Fitted {
        catalogue: cat,
        field,
        grid,
        point_weights,
        options,
        policy,
        max_turns,
        config,
        scenario_name,
        output: out,
        ..
    } = fitted;
    let table = fit_table(R::NAME, args.metric, args.target_win, &out);
    let conditions_text: Vec<String> =
        grid.iter().map(|p| R::conditions(p).map_or_else(|_| p.key(), |c| R::describe(&c))).collect();
    let field_words = if args.all {
        "every build against all the others (joint fit)".to_string()
    } else {
        field.iter().map(|(b, w)| format!("{b} (weight {w})")).collect::<Vec<_>>().join(", ")
    };
    let doc = json!({
        "ruleset": R::NAME,
        "metric": args.metric.name(),
        "target": args.target_win,
        "method": out.method,
        "field": if args.all { json!("all") } else { json!(field.iter().map(|(b, w)| json!({ "build": b, "weight": w })).collect::<Vec<_>>()) },
        "field_text": field_words,
        "conditions": conditions_text,
        "condition_keys": grid.iter().map(|p| p.key()).collect::<Vec<_>>(),
        "cost_unit": R::COST_UNIT,
        "cost_granularity": out.granularity,
        "priced_out": out.priced_out,
        "one_sided": out.one_sided.iter().map(|m| json!({
            "build": m.build, "opponent": m.opponent, "conditions": m.conditions,
            "build_can_attack": m.build_can_attack, "opponent_can_attack": m.opponent_can_attack,
            "refused": m.refused,
        })).collect::<Vec<_>>(),
        "policy": policy.to_string(),
        "max_turns": max_turns,
        "seed": config.seed,
        "trials_per_matchup": out.trials_per_matchup,
        "convergence": out.convergence.map(|c| json!({
            "iterations": c.iterations, "converged": c.converged, "largest_residual": c.largest_residual,
        })),
        "rows": rows_json(&out),
    });
    // A range envelope: its ranges and weights (each range's matchups weighted so).
    let envelope = ctx.setting.envelope::<R>()?;
    let mut doc = doc;
    if let Some(e) = &envelope {
        doc["envelope"] = json!({
            "ranges": e.ranges.iter().map(|r| super::envelope::range_json(r)).collect::<Vec<_>>(),
            "weights": point_weights,
        });
    }
    let conditions_text: Vec<String> = match &envelope {
        Some(_) => conditions_text
            .iter()
            .zip(&point_weights)
            .map(|(c, w)| format!("{c} (weight {})", crate::output::number::exact(*w)))
            .collect(),
        None => conditions_text,
    };
    let stuck = out.not_converged();
    if !stuck.is_empty() {
        // No costs: a fit that did not converge has none to give.
        return Err(anyhow!(not_converged_text(&out, &stuck)));
    }
    if let Some(report) = report {
        write_report::<R>(args, report, &table, &doc, &cat, &options, scenario_name, &out)?;
    }
    match args.format.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&with_options_json(doc, &options))? + "\n")),
        format => {
            if format == Format::Table {
                write_stdout(&header::<R>(args, &out, &field_words, &conditions_text, &options_line(&options)))?;
            }
            if format == Format::Table {
                write_stdout(&summary_text(&out).to_text(4))
            } else {
                print_table(&summary(&table), format, 4)
            }
        }
    }
}

/// What `hopeless` means for the builds the joint fit priced out (empty when none).
fn priced_out_text(out: &FitOutput) -> String {
    if out.priced_out.is_empty() {
        return String::new();
    }
    format!(
        "Of the hopeless, {} {} priced out, not hopeless on their own: against the others at their fair costs \
         each one's fair cost came out below half the catalogue's step of {}, so no cost the catalogue can write \
         gives it 1/2 (a few builds far stronger than the rest do this; fit the priced-out builds without them). ",
        out.priced_out.join(", "),
        if out.priced_out.len() == 1 { "was" } else { "were" },
        out.granularity
    )
}

/// Why a joint fit gives no costs: no fixed point among several builds, or a lone build
/// left when every other has left the fit (nothing to price it against).
fn not_converged_text(out: &FitOutput, stuck: &[&str]) -> String {
    let c = out.convergence.expect("only joint fits fail to converge");
    if let Some(u) = &out.unwritable {
        return unwritable_text(out, u, stuck);
    }
    if let [lone] = stuck
        && c.iterations == 0
    {
        let left: Vec<String> = [FitStatus::Hopeless, FitStatus::Unbeatable, FitStatus::CannotAttack]
            .into_iter()
            .filter_map(|status| {
                let names: Vec<&str> =
                    out.rows.iter().filter(|r| r.status == status).map(|r| r.build.as_str()).collect();
                (!names.is_empty()).then(|| format!("{} {}: {}", names.len(), status.name(), names.join(", ")))
            })
            .collect();
        return format!(
            "the joint fit has nothing to price {lone} against: every other build left it ({}); no costs for: \
             {lone}. {}Fit it against a field instead (`volley fit \"{lone}\" --field ...`), or play conditions \
             where more builds can fight (see docs/fit.md)",
            left.join("; "),
            priced_out_text(out)
        );
    }
    format!(
        "the joint fit did not converge after {} steps (largest distance of a result from 1/2: {:.1e}); no costs \
         for: {} (see docs/fit.md: a subset that beats the rest too often has no fixed point)",
        c.iterations,
        c.largest_residual,
        stuck.join(", ")
    )
}

/// Why a joint fit that converged gives no costs: scaled to the catalogue's total, the
/// first solve put builds below half the catalogue's step, and solving the rest again
/// (and again) left fewer than two builds.
fn unwritable_text(out: &FitOutput, u: &UnwritableFit, stuck: &[&str]) -> String {
    let names = |v: &[(String, f64)]| v.iter().map(|x| x.0.as_str()).collect::<Vec<_>>().join(", ");
    let others: Vec<String> = [FitStatus::Hopeless, FitStatus::Unbeatable, FitStatus::CannotAttack]
        .into_iter()
        .filter_map(|status| {
            let names: Vec<&str> = out
                .rows
                .iter()
                .filter(|r| r.status == status && !u.below.iter().any(|b| b.0 == r.build))
                .map(|r| r.build.as_str())
                .collect();
            (!names.is_empty()).then(|| format!("{} {}", names.join(", "), status.name()))
        })
        .collect();
    let others = if others.is_empty() { String::new() } else { format!(" ({} on their own)", others.join("; ")) };
    format!(
        "the joint fit has no costs the catalogue can write: it converged ({}){others}, but its fair costs span a \
         factor of {:.0} (highest {}, lowest {}), so scaled to the catalogue's total, {} came out below half \
         the catalogue's step of {} {}: {}; fitting the others again without them left fewer than two builds to \
         price against each other; no costs for: {}. Fit the builds without the costliest ({}), against a field \
         (`--field`), or at other conditions (see docs/fit.md)",
        count(u.iterations as u64, "Newton step"),
        u.spread(),
        u.kept.first().or(u.below.first()).map_or("?", |x| x.0.as_str()),
        u.below.last().or(u.kept.last()).map_or("?", |x| x.0.as_str()),
        count(u.below.len() as u64, "build"),
        out.granularity,
        crate::output::wording::unit_for(out.granularity, "points"),
        names(&u.below),
        stuck.join(", "),
        names(&u.kept),
    )
}

fn rows_json(out: &FitOutput) -> Vec<serde_json::Value> {
    out.rows
        .iter()
        .map(|r| {
            json!({
                "build": r.build,
                "points": r.points,
                "fitted_points": r.fitted_points,
                "fitted_points_ci95": r.fitted_points_ci95.map(|(a, b)| [finite(a), finite(b)]),
                "cost": r.cost,
                "cost_ci95": r.cost_ci95.map(|(a, b)| [finite(a), finite(b)]),
                "result_at_current": finite(r.result_at_current),
                "result_at_current_ci95": [finite(r.result_at_current_ci95.0), finite(r.result_at_current_ci95.1)],
                "result_at_fitted": r.result_at_fitted,
                "status": r.status.name(),
            })
        })
        .collect()
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn header<R: Ruleset>(args: &FitArgs, out: &FitOutput, field: &str, conditions: &[String], options: &str) -> String {
    let how = match out.trials_per_matchup {
        Some(n) => format!("Monte Carlo, {} per matchup, common random numbers across costs", count(n, "duel")),
        None => "exact duels".to_string(),
    };
    let joint = out.convergence.map_or(String::new(), |c| {
        format!(
            "; joint fit converged in {} (largest distance from 1/2: {:.1e})",
            count(c.iterations as u64, "Newton step"),
            c.largest_residual
        )
    });
    let mut text = format!(
        "fitted costs ({unit}, rounded to the catalogue's step of {g}): metric {} at target {}\nfield: {field}\nconditions: {}\n{options}({how}{joint})\n",
        args.metric.name(),
        args.target_win,
        conditions.join("; "),
        unit = R::COST_UNIT,
        g = out.granularity,
    );
    let priced = priced_out_text(out);
    if !priced.is_empty() {
        text.push_str(priced.trim_end());
        text.push('\n');
    }
    if !out.one_sided.is_empty() {
        text.push_str(&format!(
            "left out: {} where a side cannot attack at these conditions (or the duel is not played):\n",
            count(out.one_sided.len() as u64, "matchup")
        ));
        for m in out.one_sided.iter().take(12) {
            let who = match (m.build_can_attack, m.opponent_can_attack) {
                _ if m.refused.is_some() => format!("not played: {}", m.refused.as_deref().unwrap_or("")),
                (false, false) => "neither can attack".to_string(),
                (false, true) => format!("{} cannot attack", m.build),
                _ => format!("{} cannot attack", m.opponent),
            };
            text.push_str(&format!("  {} vs {} ({}): {who}\n", m.build, m.opponent, m.described));
        }
        if out.one_sided.len() > 12 {
            text.push_str(&format!("  ... and {} more (--format json lists them all)\n", out.one_sided.len() - 12));
        }
    }
    text.push('\n');
    text
}

/// A cost at the catalogue's step `g`: with the step's decimals (`26`, `12.5`).
fn cost_at(x: f64, g: f64) -> String {
    if !x.is_finite() {
        return "unbounded".into();
    }
    let decimals = (0..4).find(|&d| ((g * 10f64.powi(d)) - (g * 10f64.powi(d)).round()).abs() < 1e-9).unwrap_or(3);
    crate::output::number::unsigned_zero_text(format!("{:.*}", decimals as usize, x))
}

/// The printed table for people: each fitted cost at the catalogue's step with its 95%
/// interval (`exact` when the duels were solved exactly), the result at today's costs
/// and the status.
fn summary_text(out: &FitOutput) -> Table {
    let g = out.granularity;
    let mut t = Table::new(["build", "points", "cost", "cost_ci95", "result_at_current", "status"]);
    for r in &out.rows {
        let ci = match (r.cost, r.cost_ci95) {
            (Some(_), Some((lo, hi))) if out.trials_per_matchup.is_none() && lo == hi => "exact".to_string(),
            (Some(_), Some((lo, hi))) => format!("{} to {}", cost_at(lo, g), cost_at(hi, g)),
            _ => "-".into(),
        };
        t.push(vec![
            r.build.as_str().into(),
            crate::output::wording::cost(r.points).into(),
            r.cost.map_or("-".into(), |c| cost_at(c, g)).into(),
            ci.into(),
            r.result_at_current.into(),
            r.status.name().into(),
        ]);
    }
    t
}

/// The printed columns (CSV).
fn summary(t: &Table) -> Table {
    let keep = ["build", "points", "cost", "cost_ci95_low", "cost_ci95_high", "result_at_current", "status"];
    let idx: Vec<usize> = keep.iter().map(|k| t.columns.iter().position(|c| c == k).expect("a fit column")).collect();
    let mut s = Table::new(keep);
    for r in &t.rows {
        s.push(idx.iter().map(|&i| r[i].clone()).collect());
    }
    s
}

#[allow(clippy::too_many_arguments)]
fn write_report<R: Ruleset>(
    args: &FitArgs,
    report: ReportDir,
    table: &Table,
    doc: &serde_json::Value,
    cat: &R::Catalogue,
    options: &R::Options,
    scenario_name: Option<String>,
    out: &FitOutput,
) -> Result<()> {
    let mut files = Vec::new();
    for f in &args.table_format {
        let e = f.exporter();
        let file = format!("fit.{}", e.extension());
        e.write(table, &report.path().join(&file))?;
        files.push(file);
    }
    let mut manifest = doc.clone();
    let m = manifest.as_object_mut().expect("an object");
    m.remove("rows");
    m.insert("volley_version".into(), json!(env!("CARGO_PKG_VERSION")));
    m.insert("kind".into(), json!("fit"));
    m.insert("scenario".into(), json!({ "name": "fit", "source": scenario_name }));
    m.insert("ruleset_label".into(), json!(R::LABEL));
    m.insert("axes".into(), json!([]));
    if let Some(n) = out.trials_per_matchup {
        m.insert("trials_per_cell".into(), json!({ "fixed": n }));
    }
    m.insert(
        "options".into(),
        options
            .pairs()
            .into_iter()
            .map(|(n, v)| (n, serde_json::Value::from(v)))
            .collect::<serde_json::Map<_, _>>()
            .into(),
    );
    m.insert("catalogue".into(), json!({ "origin": R::origin(cat).0, "hash": R::origin(cat).1 }));
    m.insert("cells".into(), json!(out.cells));
    m.insert("engagements".into(), json!(out.engagements));
    m.insert("wall_seconds".into(), json!(out.seconds));
    m.insert("files".into(), json!(&files));
    report.write_manifest(&mut manifest)?;
    let mut charts = Vec::new();
    if !args.no_charts
        && let Some(chart) = crate::charts::fit::fit_chart(table)
    {
        crate::charts::write_charts(std::slice::from_ref(&chart), &manifest, &report.path().join("charts"))?;
        charts.push(chart);
    }
    // The report page: what was fitted, one finding per build, the chart and the tables.
    let mut lines = vec![
        ("ruleset".to_string(), R::LABEL.to_string()),
        ("metric".to_string(), format!("{} (target {})", args.metric.name(), args.target_win)),
        ("method".to_string(), out.method.to_string()),
        ("field".to_string(), field_text(&manifest["field"])),
    ];
    if let Some(n) = out.trials_per_matchup {
        lines.push(("duels per matchup".to_string(), n.to_string()));
    }
    let info = crate::charts::page::PageInfo { title: "volley fit: fair points costs".into(), lines, files };
    crate::charts::page::write_column_guide(report.path(), &crate::sweep::column_guide::column_guide())?;
    crate::charts::page::write_page(report.path(), &info, &crate::charts::fit::fit_findings(table), &charts)?;
    super::signals::check()?;
    report.commit()?;
    Ok(())
}

/// The manifest's `field` for people: "A (weight 2), B (weight 1)", or the joint fit.
fn field_text(field: &serde_json::Value) -> String {
    match field.as_array() {
        Some(members) => members
            .iter()
            .map(|m| format!("{} (weight {})", m["build"].as_str().unwrap_or("?"), m["weight"]))
            .collect::<Vec<_>>()
            .join(", "),
        None => "every build against all the others (joint fit)".to_string(),
    }
}
