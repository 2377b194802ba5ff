//! `volley search --field FIELD`: every legal build of the ruleset's build space raced
//! through a field; the leaderboard with corrected intervals and tie groups, the stages,
//! the Pareto front of win rate against cost, and the leaders' matchups.

use anyhow::Result;
use serde_json::json;

pub use super::search_args::SearchArgs;
use super::search_report::whole;
use super::{Invocation, print_json, write_stdout};
use crate::output::Format;
use crate::request::search::{self, SearchSpace};
use crate::rules::Ruleset;
use crate::sweep::search_exact::Solve;

pub fn run<R: Ruleset>(args: &SearchArgs, ctx: &Invocation<'_>) -> Result<()> {
    if let Some(dir) = &args.resume {
        return super::search_stages::resume(args, dir);
    }
    let choice = super::shard::choose(&args.shard, &|name| std::env::var(name).ok())?;
    let req = args.request();
    // A first-stage shard solves its share of the exact values; `--count` none.
    let solve = match (&choice, args.count) {
        (_, true) => Solve::Nothing,
        (None, false) => Solve::All,
        (Some(c), false) => Solve::Share { index: c.share.index() as usize, count: c.share.count() as usize },
    };
    let space = search::plan::<R>(&ctx.setting, &req, solve)?;
    if args.count {
        return count::<R>(args, &space);
    }
    space.check_top(req.top)?;
    let state = space.search_plan(req.per_cost).start().map_err(anyhow::Error::msg)?;
    match choice {
        None => whole::<R>(args, &space, state, 0),
        Some(choice) => {
            let recorded = super::shard::command_line()?;
            let exact = space.exact_records(|i| solve.solves(i));
            super::search_stages::play_share::<R>(args, &space, state, &choice, recorded, String::new(), &exact)
        }
    }
}

/// `--count`: the space's size.
fn count<R: Ruleset>(args: &SearchArgs, space: &SearchSpace<R>) -> Result<()> {
    let legal = space.candidates.len();
    match args.format.format {
        Format::Json => print_json(
            &json!({ "ruleset": R::NAME, "kind": space.noun(), "space": space.describe(), "space_size": legal, "listed": space.listed, "refused": space.refused, "unplayable": space.unplayable, "refusal": space.refusal }),
            false,
        ),
        _ => write_stdout(
            &(format!(
                "{legal} legal {} {} ({} listed, {} refused by the {} rules{})\nspace: {}\n",
                R::LABEL,
                space.noun(),
                space.listed,
                space.refused,
                if space.battles.is_some() { "battle" } else { "construction" },
                space.unplayable_text(),
                space.describe()
            ) + &space.refusal.as_ref().map(|r| format!("first dropped: {r}\n")).unwrap_or_default()),
        ),
    }
}
