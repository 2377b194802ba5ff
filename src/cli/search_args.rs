//! `volley search`'s arguments and the library request they make.

use clap::Args;

use super::args::FormatArgs;
use super::run_args::RunArgs;
use crate::request::search::{DEFAULT_LIMIT, SearchRequest};
use crate::rules::ruleset::SpaceFilter;
use crate::sweep::search_forces::ForceSpace;
use crate::sweep::search_metric::SearchMetric;

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The field the candidates are raced through: a catalogue field or selectors (as for gauntlet)
    #[arg(
        long,
        value_name = "FIELD",
        required_unless_present = "resume",
        default_value = "",
        hide_default_value = true
    )]
    pub field: String,
    /// How many of the best the race must find
    #[arg(long, value_name = "K", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub top: u64,
    /// What the race ranks by: win (duels, or battles with --forces), kill-by-turn:K (the chance to destroy each field member by turn K in an attack run against it), turns (turns to destroy it in an attack run; fewer is better), kill-points (with --forces: the share of the opposing force's points destroyed)
    #[arg(long, value_name = "METRIC", default_value = "win", value_parser = SearchMetric::parse)]
    pub metric: SearchMetric,
    /// Rank by the metric per 100 points of cost instead of the metric
    #[arg(long)]
    pub per_cost: bool,
    /// Race every candidate by Monte Carlo, even where the ruleset solves its engagements exactly (by default such a candidate starts with its exact value and plays no trial)
    #[arg(long)]
    pub no_exact: bool,
    /// Only builds on these bases (units, mechs, troopers); repeat or separate by commas
    #[arg(long = "unit", value_name = "NAME", value_delimiter = ',')]
    pub units: Vec<String>,
    /// Only builds that cost at most this many points
    #[arg(long, value_name = "POINTS")]
    pub max_cost: Option<f64>,
    /// Only builds that carry this part (weapon, gear); repeat for several
    #[arg(long, value_name = "PART")]
    pub must_include: Vec<String>,
    /// No build that carries this part or stands on this base; repeat for several
    #[arg(long, value_name = "NAME")]
    pub exclude: Vec<String>,
    /// Print the size of the space (listed and legal) and stop
    #[arg(long)]
    pub count: bool,
    /// Search forces instead of builds: every multiset of the catalogue's builds that spends --budget, each matchup a battle (the field: forces, a [[force]] name or builds joined by +, separated by commas, or a catalogue field)
    #[arg(long, requires = "budget")]
    pub forces: bool,
    /// With --forces: the points each force spends (at most this, and more than this minus its cheapest member build's points)
    #[arg(long, value_name = "POINTS", requires = "forces")]
    pub budget: Option<f64>,
    /// With --forces: the most units in a force
    #[arg(long, value_name = "U", default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=crate::sweep::search_forces::MAX_FORCE_UNITS as i64))]
    pub max_units: u32,
    /// With --forces: the member builds, as selectors (as for gauntlet); repeat or separate by commas [default: every build]
    #[arg(long = "builds", value_name = "SELECTOR", value_delimiter = ',', requires = "forces")]
    pub builds: Vec<String>,
    /// With --forces: the battle mode [default: the ruleset's first]
    #[arg(long = "battle-mode", value_name = "MODE", requires = "forces")]
    pub battle_mode: Option<String>,
    /// The largest space searched; a larger one is refused before any work
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT as u64, value_parser = clap::value_parser!(u64).range(1..=2_000_000))]
    pub limit: u64,
    /// The most stages of the race (stage 1 plays --trials per matchup, each later one --growth times more)
    #[arg(long, value_name = "S", default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub stages: u32,
    /// Each stage plays this many times the trials of the one before
    #[arg(long, value_name = "G", default_value_t = 4, value_parser = clap::value_parser!(u64).range(2..=64))]
    pub growth: u64,
    /// The family-wise error rate of the top-k claim (Bonferroni over candidates and stages)
    #[arg(long, value_name = "A", default_value_t = 0.05)]
    pub alpha: f64,
    /// Stop once every remaining candidate's interval half-width is at most this, as a share (a rate's; turns to kill: in turns over the turn cap; kill points: in shares of the opposing points) before any per-cost scaling (0: only separation and --stages stop it)
    #[arg(long, value_name = "E", default_value_t = 0.01)]
    pub search_precision: f64,
    /// Leaderboard rows printed in the text output [default: --top plus 10]
    #[arg(long, value_name = "N")]
    pub show: Option<usize>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub format: FormatArgs,
    /// Also write the tables (search_leaderboard, search_stages; Parquet and CSV) and a manifest to this directory
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out: Option<std::path::PathBuf>,
    /// Replace the --out directory if it is an earlier volley output
    #[arg(long, requires = "out")]
    pub force: bool,
    /// With --out: skip the charts (the report page is still written)
    #[arg(long)]
    pub no_charts: bool,
    /// Go on with a search whose stages so far were played as shards and merged: DIR is
    /// the state directory `volley merge` wrote. Plays the next stage's share with
    /// --shard (or a Slurm array's or Kubernetes job's index), else the rest of the race
    /// in this process. Every other flag is the recorded search's
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath, conflicts_with = "count")]
    pub resume: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub shard: super::shard::ShardArgs,
}

impl SearchArgs {
    /// These arguments as the library's request (`--trials`: stage 1's trials per matchup).
    pub fn request(&self) -> SearchRequest {
        SearchRequest {
            field: self.field.clone(),
            filter: SpaceFilter {
                bases: self.units.clone(),
                max_cost: self.max_cost,
                must_include: self.must_include.clone(),
                exclude: self.exclude.clone(),
            },
            top: self.top as usize,
            stages: self.stages,
            growth: self.growth,
            alpha: self.alpha,
            precision: self.search_precision,
            metric: self.metric,
            per_cost: self.per_cost,
            exact: !self.no_exact,
            limit: Some(self.limit as usize),
            forces: self.budget.filter(|_| self.forces).map(|budget| ForceSpace {
                budget,
                max_units: self.max_units,
                builds: self.builds.clone(),
            }),
            mode: self.battle_mode.clone(),
            run: self.run.request(),
        }
    }
}
