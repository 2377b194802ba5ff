//! `volley meta PLAYER...`: every player against every other, and the tournament that
//! implies: equilibrium shares with bootstrap intervals, domination, replicator
//! dynamics, and (`--diff OLD NEW`) how a catalogue change moves the equilibrium.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::{Args, ValueHint};
use serde_json::{Value, json};

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{Invocation, options_line, print_json, print_table, with_options_json, write_stdout};
use crate::output::{Format, ReportDir, Table};
use crate::request::CatalogueSource;
use crate::request::meta::{self, MetaRequest};
use crate::request::sides::{Sources, sources};
use crate::rules::Ruleset;
use crate::rules::axis::Point;
use crate::sweep::meta::Meta;

#[derive(Debug, Args)]
pub struct MetaArgs {
    /// The players: names or selectors, as for `gauntlet` (with --battle: forces, a [[force]] name or builds joined by +)
    #[arg(value_name = "PLAYER", required_unless_present = "search")]
    pub players: Vec<String>,
    /// Add the leaders of a search as players: a report written by `volley search ... --out DIR` (same ruleset; give the catalogue and conditions it was played with; a search of forces with --battle)
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub search: Option<PathBuf>,
    /// With --search: how many of its leaders, by rank
    #[arg(long, value_name = "N", default_value_t = 10, requires = "search", value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub top: u16,
    /// Battles instead of duels: the players are forces, each matchup a battle of the ruleset's mode
    #[arg(long)]
    pub battle: bool,
    /// With --battle: the battle mode [default: the ruleset's first; `volley rulesets` lists each ruleset's] (TechCommander's `--mode` is the attack action of duels)
    #[arg(long = "battle-mode", value_name = "MODE", requires = "battle")]
    pub battle_mode: Option<String>,
    /// Play over a scenario's grid, turn cap, policy, seed and trials (each condition point weighs the same)
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    /// Bootstrap replicates of the matchup tallies behind the shares' 95% intervals (0: none)
    #[arg(long, value_name = "B", default_value_t = 200, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub bootstrap: u32,
    /// Generations of replicator dynamics from the starting field
    #[arg(long, value_name = "G", default_value_t = 100, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub generations: u32,
    /// The starting field of the replicator: one weight per player, comma-separated, in the players' order [default: uniform]
    #[arg(long, value_name = "W,W,...", value_delimiter = ',')]
    pub start: Option<Vec<f64>>,
    /// The equilibrium before and after a catalogue change: the players played on the OLD and on the NEW catalogue (each a directory or file, with the --add files of the command line)
    #[arg(long, num_args = 2, value_names = ["OLD", "NEW"], value_hint = ValueHint::AnyPath)]
    pub diff: Option<Vec<PathBuf>>,
    #[command(flatten)]
    pub format: FormatArgs,
    /// Also write the tables (meta_shares, meta_matrix, meta_replicator; Parquet and CSV) and a manifest to this directory
    #[arg(long, value_name = "DIR", value_hint = ValueHint::DirPath)]
    pub out: Option<PathBuf>,
    /// Replace the --out directory if it is an earlier volley output
    #[arg(long, requires = "out")]
    pub force: bool,
}

impl MetaArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> MetaRequest {
        MetaRequest {
            players: self.players.clone(),
            battle: self.battle,
            mode: self.battle_mode.clone(),
            run: self.run.request(),
            bootstrap: self.bootstrap,
            generations: self.generations,
            start: self.start.clone(),
        }
    }
}

/// One solved meta with what it was played under.
struct Played<R: Ruleset> {
    meta: Meta,
    grid: Vec<Point>,
    options: R::Options,
    seed: u64,
}

fn play<R: Ruleset>(args: &MetaArgs, ctx: &Invocation<'_>, src: &Sources<R::Catalogue>) -> Result<Played<R>> {
    let req = args.request();
    let plan = meta::plan::<R>(&ctx.setting, &req, src)?;
    if let Some(out) = &args.out {
        crate::output::report_dir::refuse_inputs(out, &src.inputs)?;
    }
    let progress = Progress::new(args.run.quiet);
    let meta = meta::run::<R>(&plan, &req, &src.catalogue, &progress)?;
    progress.finish();
    Ok(Played { meta, grid: plan.grid.clone(), options: plan.options.clone(), seed: plan.config.seed })
}

pub fn run<R: Ruleset>(args: &MetaArgs, ctx: &Invocation<'_>) -> Result<()> {
    if let Some(paths) = &args.diff {
        let side = |p: &PathBuf| -> Result<Played<R>> {
            let source = CatalogueSource {
                base: Some(p.clone()),
                additions: ctx.setting.catalogue.additions.clone(),
                adhoc: ctx.setting.catalogue.adhoc.clone(),
            };
            play::<R>(args, ctx, &sources::<R>(&source, args.scenario.as_deref())?)
        };
        let (old, new) = (side(&paths[0])?, side(&paths[1])?);
        if old.meta.players.iter().map(|p| &p.0).ne(new.meta.players.iter().map(|p| &p.0)) {
            return Err(anyhow!("the players resolve differently on the two catalogues"));
        }
        if let Some(out) = &args.out {
            write_out::<R>(out, args.force, &[("old", &old), ("new", &new)])?;
        }
        return match args.format.format {
            Format::Json => {
                let doc = json!({
                    "old": document(&old, &paths[0].display()),
                    "new": document(&new, &paths[1].display()),
                    "changes": changes(&old.meta, &new.meta),
                });
                print_json(&with_options_json(doc, &new.options), false)
            }
            Format::Csv => print_table(&diff_table(&old.meta, &new.meta), Format::Csv, 4),
            Format::Table => write_stdout(&diff_text::<R>(&old, &new, paths)),
        };
    }
    let src = sources::<R>(&ctx.setting.catalogue, args.scenario.as_deref())?;
    let played = play::<R>(args, ctx, &src)?;
    if let Some(out) = &args.out {
        write_out::<R>(out, args.force, &[("", &played)])?;
    }
    match args.format.format {
        Format::Json => print_json(&with_options_json(document(&played, &src.origin), &played.options), false),
        Format::Csv => print_table(&played.meta.tables(R::NAME)[0], Format::Csv, 4),
        Format::Table => write_stdout(&(options_line(&played.options) + &text::<R>(&played))),
    }
}

/// `{ name: value }` over the players.
fn by_player(meta: &Meta, values: impl Fn(usize) -> Value) -> Value {
    Value::Object(meta.players.iter().enumerate().map(|(i, (n, _))| (n.clone(), values(i))).collect())
}

/// The JSON document of one meta.
fn document<R: Ruleset>(p: &Played<R>, origin: &dyn std::fmt::Display) -> Value {
    let m = &p.meta;
    json!({
        "ruleset": R::NAME,
        "catalogue": origin.to_string(),
        "players": m.players.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "costs": by_player(m, |i| json!(m.players[i].1)),
        "cost_unit": R::COST_UNIT,
        "conditions": p.grid.iter().map(Point::key).collect::<Vec<_>>(),
        "seed": p.seed,
        "trials_per_cell": m.trials,
        "matrix": m.matrix,
        "matrix_ci95": m.matrix_ci95.iter().map(|r| r.iter().map(|c| c.pair()).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "shares": by_player(m, |i| json!(m.shares[i])),
        "shares_ci95": by_player(m, |i| json!(m.shares_ci95[i].pair())),
        "value": by_player(m, |i| json!(m.value[i])),
        "game_value": m.game_value,
        "dominated": Value::Object(
            m.dominated.iter().enumerate().filter_map(|(i, d)| d.map(|j| (m.players[i].0.clone(), json!(m.players[j].0)))).collect()
        ),
        "bootstrap": m.bootstrap,
        "cannot_attack": m.cannot_attack.iter().map(|&(a, b)| json!({ "player": m.players[a].0, "opponent": m.players[b].0 })).collect::<Vec<_>>(),
        "replicator": {
            "generations": m.trajectory.len() - 1,
            "start": by_player(m, |i| json!(m.trajectory[0][i])),
            "final": by_player(m, |i| json!(m.trajectory[m.trajectory.len() - 1][i])),
        },
        "method": "matrix: each ordered pair played in both seatings, scores (win 1, draw 1/2) pooled as \
                   (s_ij + 1 - s_ji)/2 and averaged over the condition points; shares: a maximin linear program \
                   (one optimal vertex when several mixes are optimal); intervals: percentile bootstrap of the \
                   matchup tallies (binomial resampling), not of the choice among optimal mixes",
    })
}

/// The players' indices, the largest change in equilibrium share first (ties in the
/// players' order).
fn ranked(old: &Meta, new: &Meta) -> Vec<usize> {
    let change = |i: usize| (new.shares[i] - old.shares[i]).abs();
    let mut order: Vec<usize> = (0..old.players.len()).collect();
    order.sort_by(|&a, &b| change(b).total_cmp(&change(a)).then(a.cmp(&b)));
    order
}

/// The name of the player that dominates player `i` of `m`, if one does.
fn dominator(m: &Meta, i: usize) -> Option<String> {
    m.dominated[i].map(|j| m.players[j].0.clone())
}

/// Per player, ranked: the share before and after, and the change.
fn changes(old: &Meta, new: &Meta) -> Vec<Value> {
    ranked(old, new)
        .into_iter()
        .map(|i| {
            json!({
                "player": old.players[i].0,
                "cost_old": old.players[i].1, "cost_new": new.players[i].1,
                "share_old": old.shares[i], "share_old_ci95": old.shares_ci95[i].pair(),
                "share_new": new.shares[i], "share_new_ci95": new.shares_ci95[i].pair(),
                "change": new.shares[i] - old.shares[i],
                "dominated_old": dominator(old, i),
                "dominated_new": dominator(new, i),
            })
        })
        .collect()
}

/// A share as a percentage with one decimal, or as many more (up to 6) as it takes for a
/// share that is not exactly 0 or 1 not to read as 0% or 100%; beyond that "<0.000001%"
/// or ">99.999999%".
fn pct(v: f64) -> String {
    for d in 1..=6 {
        let text = format!("{:.*}", d, 100.0 * v);
        let zero = text.trim_start_matches(['0', '.', '-']).is_empty();
        let hundred = text.trim_end_matches('0').trim_end_matches('.') == "100";
        if (v == 0.0 || !zero) && (v == 1.0 || !hundred) {
            return format!("{text}%");
        }
    }
    if v < 0.5 { "<0.000001%".into() } else { ">99.999999%".into() }
}

fn diff_table(old: &Meta, new: &Meta) -> Table {
    let mut t = Table::new(["player", "share_old", "share_new", "change", "dominated_old", "dominated_new"]);
    for i in ranked(old, new) {
        t.push(vec![
            old.players[i].0.as_str().into(),
            old.shares[i].into(),
            new.shares[i].into(),
            (new.shares[i] - old.shares[i]).into(),
            dominator(old, i).unwrap_or_default().into(),
            dominator(new, i).unwrap_or_default().into(),
        ]);
    }
    t
}

fn diff_text<R: Ruleset>(old: &Played<R>, new: &Played<R>, paths: &[PathBuf]) -> String {
    let mut s = format!(
        "{} meta before and after: {} → {}\n{}",
        R::LABEL,
        paths[0].display(),
        paths[1].display(),
        options_line(&new.options)
    );
    s += &format!("{:<28} {:>22} {:>22} {:>9}\n", "player", "share old (95% CI)", "share new (95% CI)", "change");
    let (o, n) = (&old.meta, &new.meta);
    let share = |m: &Meta, i: usize| {
        let ci = m.shares_ci95[i];
        format!("{} ({}–{})", pct(m.shares[i]), pct(ci.low), pct(ci.high))
    };
    for i in ranked(o, n) {
        s += &format!(
            "{:<28} {:>22} {:>22} {:>+8.1}%\n",
            o.players[i].0,
            share(o, i),
            share(n, i),
            100.0 * (n.shares[i] - o.shares[i])
        );
    }
    s
}

/// The conditions of `point` that differ from the ruleset's defaults, `range=20,
/// cover=light`, or "the default conditions".
fn changed_conditions<R: Ruleset>(point: &Point) -> String {
    let changed: Vec<String> = point
        .pairs()
        .iter()
        .filter(|(name, value)| {
            R::axes()
                .iter()
                .chain(R::flags())
                .find(|a| a.name == *name)
                .is_none_or(|a| a.canonical(a.default).ok().as_ref() != Some(value))
        })
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    if changed.is_empty() { "the default conditions".into() } else { changed.join(", ") }
}

/// The text report of one meta.
fn text<R: Ruleset>(p: &Played<R>) -> String {
    let m = &p.meta;
    let mut s = format!(
        "{} meta of {} players at {}: every pair in both seatings, {} engagements a cell, seed {}\n",
        R::LABEL,
        m.players.len(),
        match p.grid.as_slice() {
            [one] => changed_conditions::<R>(one),
            grid => format!("{} condition points (each weighs the same)", grid.len()),
        },
        m.trials,
        p.seed
    );
    let width = m.players.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(6).max(6);
    let label = width + 2 + m.players.len().to_string().len();
    s += &format!(
        "\nequilibrium (the mix no player beats; 95% intervals from {} bootstrap replicates of the matchups):\n",
        m.bootstrap
    );
    s += &format!(
        "  {:<width$} {:>8} {:>7} {:>15} {:>15}  {}\n",
        "player",
        R::COST_UNIT,
        "share",
        "95% CI",
        "vs equilibrium",
        "dominated by"
    );
    let mut order: Vec<usize> = (0..m.players.len()).collect();
    order.sort_by(|&a, &b| m.shares[b].total_cmp(&m.shares[a]).then(m.value[b].total_cmp(&m.value[a])).then(a.cmp(&b)));
    for &i in &order {
        let ci = m.shares_ci95[i];
        s += &format!(
            "  {:<width$} {:>8} {:>7} {:>15} {:>15.3}  {}\n",
            m.players[i].0,
            format!("{:.0}", m.players[i].1),
            pct(m.shares[i]),
            format!("{}–{}", pct(ci.low), pct(ci.high)),
            m.value[i],
            dominator(m, i).unwrap_or_default(),
        );
    }
    s += &format!(
        "the equilibrium scores at least {:.3} against every player (a symmetric game's value is 0.5); a player \
         scoring below 0.5 against it is exploited by the mix\n",
        m.game_value
    );
    s += &format!(
        "\nmatrix: row's expected score against column (win 1, draw 1/2), both seatings pooled\n  {:<label$}",
        ""
    );
    for (j, _) in m.players.iter().enumerate() {
        s += &format!(" {:>6}", format!("#{}", j + 1));
    }
    s += "\n";
    for (i, (n, _)) in m.players.iter().enumerate() {
        s += &format!("  {:<label$}", format!("#{} {n}", i + 1));
        for v in &m.matrix[i] {
            s += &format!(" {:>6.3}", v);
        }
        s += "\n";
    }
    for &(a, b) in &m.cannot_attack {
        s += &format!(
            "one-sided: {} cannot attack {} (at one condition point or more): reach decides that matchup\n",
            m.players[a].0, m.players[b].0
        );
    }
    let costs: Vec<f64> = m.players.iter().map(|p| p.1).collect();
    if costs.iter().any(|c| *c != costs[0]) {
        s += &format!(
            "players are matched one against one whatever they cost ({}): for a meta at equal cost, give forces \
             of the same budget with --battle\n",
            R::COST_UNIT
        );
    }
    let last = m.trajectory.len() - 1;
    s += &format!("\nreplicator dynamics over {last} generations (share at start → end):\n");
    for &i in &order {
        s += &format!(
            "  {:<width$} {:>7} → {:>7}\n",
            m.players[i].0,
            pct(m.trajectory[0][i]),
            pct(m.trajectory[last][i])
        );
    }
    s
}

/// Write the tables of each (prefix, meta) and a manifest into `out`, atomically.
fn write_out<R: Ruleset>(out: &std::path::Path, force: bool, metas: &[(&str, &Played<R>)]) -> Result<()> {
    let report = ReportDir::create(out, force)?;
    let mut files = Vec::new();
    for (prefix, p) in metas {
        let [shares, matrix, replicator] = p.meta.tables(R::NAME);
        for (name, t) in [("meta_shares", &shares), ("meta_matrix", &matrix), ("meta_replicator", &replicator)] {
            let name = if prefix.is_empty() { name.to_string() } else { format!("{prefix}_{name}") };
            files.extend(report.write_both(&name, t)?);
        }
    }
    let mut manifest = json!({
        "volley_version": env!("CARGO_PKG_VERSION"),
        "kind": "meta",
        "ruleset": R::NAME,
        "players": metas[0].1.meta.players.iter().map(|(n, _)| n).collect::<Vec<_>>(),
        "seed": metas[0].1.seed,
        "files": files,
    });
    report.write_manifest(&mut manifest)?;
    super::signals::check()?;
    report.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::pct;

    #[test]
    fn shares_near_0_and_1_never_read_as_0_or_100() {
        assert_eq!(pct(0.0), "0.0%");
        assert_eq!(pct(1.0), "100.0%");
        assert_eq!(pct(0.25), "25.0%");
        assert_eq!(pct(0.9996), "99.96%");
        assert_eq!(pct(0.0004), "0.04%");
        assert_eq!(pct(1e-12), "<0.000001%");
        assert_eq!(pct(1.0 - 1e-12), ">99.999999%");
    }
}
