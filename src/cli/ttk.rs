//! `volley ttk`: time to kill a target that does not shoot back.

use anyhow::{Result, anyhow};
use clap::Args;
use serde_json::json;

use super::args::{FormatArgs, TargetArgs};
use super::progress::Progress;
use super::run_args::RunArgs;
use super::{Invocation, options_line, print_json, print_table, with_options_json, write_stdout};
use crate::engine::{Cell, cell_key, run};
use crate::output::wording::count;
use crate::output::{Cell as TableCell, Format, Table, number};
use crate::rules::{Role, RuleOptions, Ruleset};
use crate::stats::Interval;
use crate::sweep::cells::CellSpec;

#[derive(Debug, Args)]
pub struct TtkArgs {
    /// Attacker from the catalogue (TechCommander: a build; MECHCOM: a mech or MECH+PILOT)
    #[arg(long, value_name = "NAME")]
    pub attacker: String,
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Compute the distribution exactly (Markov chain over the target's state) instead of simulating; takes no --trials, --precision, --max-trials or --seed
    #[arg(long, conflicts_with_all = ["trials", "precision", "max_trials", "seed"])]
    pub exact: bool,
    #[command(flatten)]
    pub format: FormatArgs,
}

/// One time-to-kill result, Monte Carlo or exact.
struct Result_ {
    method: &'static str,
    trials: u64,
    p_kill: f64,
    p_kill_ci: Option<Interval>,
    by_turn: Vec<f64>,
    by_turn_ci: Option<Vec<Interval>>,
    mean_turns: Option<f64>,
    mean_turns_ci: Option<Interval>,
    mean_actions: Option<f64>,
    mean_actions_ci: Option<Interval>,
}

pub fn run_ttk<R: Ruleset>(args: &TtkArgs, ctx: &Invocation<'_>) -> Result<()> {
    let target = args.target.name::<R>()?;
    let cond = ctx.setting.engagement_conditions::<R>()?;
    let options = ctx.setting.options::<R>()?;
    let policy = args.run.policy::<R>()?;
    let config = args.run.config()?;
    let cat = ctx.setting.catalogue.load::<R>()?;
    let attacker = R::display_name(&cat, Role::Attacker, &args.attacker).map_err(|e| anyhow!(e))?;
    let target_name = R::display_name(&cat, Role::Target, &target).map_err(|e| anyhow!(e))?;
    let kernel =
        R::attack_run(&cat, &attacker, &target, &cond, &options, policy, args.run.max_turns).map_err(|e| anyhow!(e))?;
    let result = if args.exact {
        let e = R::exact_run(&kernel);
        if !e.is_available() {
            return Err(super::usage::usage(format!(
                "--exact: {} has no exact solver for this run under these options (a Monte Carlo-only model); \
                 drop --exact to sample it",
                R::LABEL
            )));
        }
        // Exact values: rounded as such, so arithmetic noise never prints.
        Result_ {
            method: "exact",
            trials: 0,
            p_kill: number::exact(e.p_kill),
            p_kill_ci: None,
            by_turn: e.p_kill_by_turn.iter().map(|&p| number::exact(p)).collect(),
            by_turn_ci: None,
            mean_turns: e.mean_turns.map(number::exact),
            mean_turns_ci: None,
            mean_actions: e.mean_actions.map(number::exact),
            mean_actions_ci: None,
        }
    } else {
        // The sweep's key: the same cell and seed give the same numbers in both commands.
        let pairs = options.pairs();
        let policy_name = policy.to_string();
        let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &policy_name, max_turns: args.run.max_turns };
        let key = cell_key(&spec.attack_run(&attacker, &target_name, &ctx.setting.point::<R>()?));
        let progress = Progress::new(args.run.quiet);
        let tally = run(&[Cell { key, kernel: &kernel }], &config, &progress).map_err(|e| anyhow!(e))?.remove(0);
        progress.finish();
        let s = tally.summary();
        Result_ {
            method: "monte-carlo",
            trials: s.trials,
            p_kill: s.p_kill,
            p_kill_ci: Some(s.p_kill_ci),
            by_turn: s.p_kill_by_turn,
            by_turn_ci: Some(s.p_kill_by_turn_ci),
            mean_turns: s.mean_turns,
            mean_turns_ci: s.mean_turns_ci,
            mean_actions: s.mean_actions,
            mean_actions_ci: s.mean_actions_ci,
        }
    };
    let plan: Vec<serde_json::Value> = R::plan(&cat, &attacker, &kernel)
        .into_iter()
        .map(|(turn, weapon)| json!({ R::TURN: turn, "weapon": weapon }))
        .collect();
    let turns = format!("{}s", R::TURN);
    match args.format.format {
        Format::Json => {
            let mut j = json!({
                "ruleset": R::NAME,
                "attacker": attacker,
                "target": target_name,
                "conditions": R::describe(&cond),
                "policy": policy.to_string(),
                "max_turns": args.run.max_turns,
                "turn": R::TURN,
                "method": result.method,
                "seed": config.seed,
                "trials": result.trials,
                "p_kill": result.p_kill,
                "p_kill_by_turn": result.by_turn,
                "mean_turns": result.mean_turns,
                "mean_actions": result.mean_actions,
                "plan": plan,
                "not_modelled": R::run_notes(&kernel),
                "played": R::run_played(&kernel),
            });
            if let Some(ci) = &result.by_turn_ci {
                let obj = j.as_object_mut().expect("object");
                obj.insert("p_kill_ci95".into(), json!(result.p_kill_ci.map(|i| i.pair())));
                obj.insert("p_kill_by_turn_ci95".into(), json!(ci.iter().map(Interval::pair).collect::<Vec<_>>()));
                obj.insert("mean_turns_ci95".into(), json!(result.mean_turns_ci.map(|i| i.pair())));
                obj.insert("mean_actions_ci95".into(), json!(result.mean_actions_ci.map(|i| i.pair())));
            }
            print_json(&with_options_json(j, &options), false)
        }
        Format::Csv => print_table(&by_turn_table(&result), Format::Csv, 4),
        Format::Table => {
            let mut text = format!(
                "{} vs {} ({}, {} max, policy {})\n",
                attacker,
                target_name,
                R::describe(&cond),
                count(args.run.max_turns, R::TURN),
                policy
            );
            text += &options_line(&options);
            let how = if result.method == "exact" {
                "exact".to_string()
            } else {
                format!("Monte Carlo, {}, seed {}", count(result.trials, "engagement"), config.seed)
            };
            text += &super::duel::notes_text(&R::run_notes(&kernel));
            text += &R::run_played(&kernel).iter().map(|p| format!("played: {p}\n")).collect::<String>();
            text += &format!("method: {how}\n");
            text += &format!(
                "P(kill within {}): {}\n",
                count(args.run.max_turns, R::TURN),
                with_ci(Some(result.p_kill), result.p_kill_ci, 4)
            );
            text += &format!("mean {turns} to kill:  {}\n", with_ci(result.mean_turns, result.mean_turns_ci, 3));
            text += &format!("mean attacks to kill: {}\n\n", with_ci(result.mean_actions, result.mean_actions_ci, 3));
            // For people, the by-turn table counts in the ruleset's own word (rounds).
            let mut table = by_turn_table(&result);
            table.columns[0] = R::TURN.to_string();
            table.columns[1] = format!("p_killed_by_{}", R::TURN);
            text += &table.to_text(4);
            write_stdout(&text)
        }
    }
}

fn with_ci(v: Option<f64>, ci: Option<Interval>, digits: usize) -> String {
    match (v, ci) {
        (Some(v), Some(ci)) => format!("{v:.digits$} (95% CI {:.digits$} to {:.digits$})", ci.low, ci.high),
        (Some(v), None) => format!("{v:.digits$}"),
        (None, _) => "- (no kills)".into(),
    }
}

fn by_turn_table(r: &Result_) -> Table {
    let mut t = Table::new(["turn", "p_killed_by_turn", "ci95_low", "ci95_high"]);
    for (k, &p) in r.by_turn.iter().enumerate() {
        let ci = r.by_turn_ci.as_ref().map(|c| c[k]);
        t.push(vec![
            ((k + 1) as u32).into(),
            p.into(),
            ci.map_or(TableCell::Null, |c| c.low.into()),
            ci.map_or(TableCell::Null, |c| c.high.into()),
        ]);
    }
    t
}
