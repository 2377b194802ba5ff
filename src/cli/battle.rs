//! `volley battle`: two forces fight turn by turn under the game's action economy.

use anyhow::Result;
use clap::Args;
use serde_json::{Value, json};

use super::args::FormatArgs;
use super::progress::Progress;
use super::run_args::TrialArgs;
use super::shard::{Mode, RunRecord, ShardRun, command_line};
use super::usage::usage;
use super::{Invocation, options_line, print_table, write_stdout};
use crate::engine::battle::{BattleSummary, BattleTally};
use crate::output::wording::count;
use crate::output::{Format, Table};
use crate::request::battle::{self, BattlePlan, BattleRequest};
use crate::rules::battle::BattleInfo;
use crate::rules::{RuleOptions, Ruleset};
use crate::stats::Interval;
use crate::sweep::battle_seats::kill_share;
use crate::sweep::battle_teams::{team_members, team_name};
use crate::sweep::reach::{BattleReach, one_sided_warning};
use crate::sweep::shard::Plays;

#[derive(Debug, Args)]
pub struct BattleArgs {
    /// The forces, side A first: each a `[[force]]` of the catalogue, or builds joined by + (`Gladiator Lancer+2*Stingray Standard`); a skirmish takes two, a deathmatch 2 to 8 (spawn lists, in order)
    #[arg(value_name = "FORCE", num_args = 2.., required = true)]
    pub forces: Vec<String>,
    /// Battle mode [default: the ruleset's first; TechCommander: skirmish; `volley rulesets` lists each ruleset's]; named as in gauntlet, compare and meta with --battle and search --forces (`--mode` is its older name)
    #[arg(long = "battle-mode", visible_alias = "mode", value_name = "MODE")]
    pub mode: Option<String>,
    /// Battle policy of both sides [default: the ruleset's; TechCommander: greedy, focus-lowest, random]
    #[arg(long, value_name = "POLICY")]
    pub policy: Option<String>,
    /// A condition of the shots of side B (and any later side) only, AXIS=VALUE (repeatable; e.g. `--b-condition cover=half`); the condition flags set side A and, unless overridden, the others
    #[arg(long = "b-condition", value_name = "AXIS=VALUE")]
    pub b_conditions: Vec<String>,
    /// Rulebook edition, where the ruleset has editions (TechCommander: 3, or 2 for the 2nd edition's rules); the same as `--option EDITION=N`
    #[arg(long, value_name = "N")]
    pub edition: Option<u32>,
    /// Turn cap [default: the mode's; TechCommander skirmish: SKIRMISH_MAX_TURNS]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub max_turns: Option<u32>,
    /// Print the per-unit contribution table (kills, losses) instead of the per-side one (table and csv)
    #[arg(long)]
    pub units: bool,
    /// Deathmatch teams: N splits the players, in order, into N teams of equal size (4 players, `--teams 2`: A+B against C+D; N = the player count is the free-for-all); or list the teams, seats joined by + and teams by commas, each seat by its letter or 1-based number (`--teams A+C,B+D`, `--teams 1+3,2+4`; every player in exactly one team, at least 2 teams, sizes may differ: `A+B,C`). Teams are numbered by their first seat. Each team's captain (its first player) rolls initiative, actions alternate between teams, a team pools its players' actions (2 each plus command) and never fires at teammates; each player deploys from its own spawn list with its own cap and kill chips; the most team points win (tie: team kills). Prints per team and per player (points, kills, deaths)
    #[arg(long, value_name = "N|TEAMS")]
    pub teams: Option<String>,
    /// Print the per-player table (points, kills, deaths; with --teams, each player's team) instead of the per-side or per-team one (table and csv)
    #[arg(long, conflicts_with = "units")]
    pub players: bool,
    #[command(flatten)]
    pub trials: TrialArgs,
    /// No progress bar
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub format: FormatArgs,
    #[command(flatten)]
    pub shard: super::shard::ShardArgs,
    /// With --shard (or a shard from the environment): the shard directory [default:
    /// reports/battle-shards/shard-K-of-N]. `volley merge` of the shards prints what the
    /// unsharded command prints and writes a report directory (sides.csv, units.csv,
    /// battle.json)
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub out: Option<std::path::PathBuf>,
    /// Replace the shard directory if it exists
    #[arg(long)]
    pub force: bool,
}

/// The files of a merged battle's report directory: what `volley battle` prints with
/// `--format csv`, `--units --format csv` and `--format json`.
const SIDES_FILE: &str = "sides.csv";
const UNITS_FILE: &str = "units.csv";
const JSON_FILE: &str = "battle.json";
/// With `--teams`: the per-team and per-player tables of the report directory.
const TEAMS_FILE: &str = "teams.csv";
const PLAYERS_FILE: &str = "players.csv";

/// A battle's catalogue: the catalogue, how messages name it and its files (a merge
/// takes them from the shards).
pub struct BattleCatalogue<C> {
    pub catalogue: C,
    pub origin: String,
    pub files: Vec<crate::catalogue::source::SourceFile>,
}

impl<C> BattleCatalogue<C> {
    /// The command's catalogue with the files it was read from.
    ///
    /// # Errors
    /// A catalogue that does not load.
    pub fn read<R: Ruleset<Catalogue = C>>(ctx: &Invocation<'_>) -> Result<BattleCatalogue<C>> {
        let (catalogue, layers) = ctx.setting.catalogue.read_adding::<R>(&[])?;
        Ok(BattleCatalogue { catalogue, origin: layers.origin(), files: layers.files().to_vec() })
    }
}

impl BattleArgs {
    /// These arguments as the library's request.
    pub fn request(&self) -> BattleRequest {
        BattleRequest {
            forces: self.forces.clone(),
            mode: self.mode.clone(),
            policy: self.policy.clone(),
            b_conditions: self.b_conditions.clone(),
            edition: self.edition,
            max_turns: self.max_turns,
            teams: self.teams.clone(),
            trials: self.trials.request(),
        }
    }
}

/// `volley battle` at one range (a range envelope goes to [`super::envelope_battle`]).
///
/// # Errors
/// A usage error for `--out`/`--force` without a shard; what the battle fails with.
pub fn run_battle<R: Ruleset>(args: &BattleArgs, ctx: &Invocation<'_>) -> Result<()> {
    let choice = super::shard::choose(&args.shard, &|name| std::env::var(name).ok())?;
    if choice.is_none() && (args.out.is_some() || args.force) {
        return Err(usage("--out and --force name the shard directory of a sharded battle: give --shard K/N"));
    }
    let cat = BattleCatalogue::read::<R>(ctx)?;
    play_battle::<R>(args, ctx, &cat, choice.as_ref().map_or(Mode::Whole, Mode::Shard))
}

/// Play a battle on `cat` in `mode`: whole (printed), one shard (a shard directory), or
/// merged from its shards' tallies (printed, and the report directory `report` written).
///
/// # Errors
/// What the battle, its checks or writing fail with.
pub fn play_battle<R: Ruleset>(
    args: &BattleArgs,
    ctx: &Invocation<'_>,
    cat: &BattleCatalogue<R::Catalogue>,
    run_mode: Mode<'_>,
) -> Result<()> {
    let plan = battle::plan::<R>(&ctx.setting, &args.request(), &cat.catalogue)?;
    let BattlePlan { info, options, conditions: conds, config, reach, .. } = &plan;
    let teams = plan.teams.as_deref();
    let progress = Progress::new(args.quiet);
    match run_mode {
        Mode::Whole => {
            let tally = plan.run(&progress, &Plays::all())?;
            progress.finish();
            print::<R>(args, &plan, &tally)
        }
        Mode::Shard(choice) => {
            let shard = ShardRun::start(choice, "battle", args.out.as_deref(), args.force, config)?;
            plan.run(&progress, shard.plays())?;
            progress.finish();
            let record = RunRecord {
                command: "battle",
                args: command_line()?,
                name: "battle".into(),
                scenario_file: String::new(),
                scenario_text: String::new(),
                options: options.pairs(),
                vary: Value::Null,
                catalogue_origin: cat.origin.clone(),
                catalogue_files: &cat.files,
                state_text: String::new(),
                exact_text: String::new(),
            };
            shard.finish::<R>(record, &cat.catalogue, config, args.quiet)
        }
        Mode::Merged(plays) => {
            let report = args.out.as_deref().expect("a merge names its report directory");
            let dir = crate::output::ReportDir::create(report, args.force)?;
            let tally = plan.run(&progress, plays)?;
            // As `--format json` prints it (`print_json`: no float noise, no -0).
            let mut value = battle_json::<R>(info, &tally, conds, config.seed, teams, &options.pairs(), reach);
            crate::output::number::tidy_json(&mut value, false);
            let json = serde_json::to_string_pretty(&value)? + "\n";
            dir.write(SIDES_FILE, sides_table(info, &tally).to_csv().as_bytes())?;
            dir.write(UNITS_FILE, units_table(info, &tally).to_csv().as_bytes())?;
            dir.write(JSON_FILE, json.as_bytes())?;
            if let Some(labels) = teams {
                dir.write(TEAMS_FILE, teams_table(info, &tally, labels).to_csv().as_bytes())?;
                dir.write(PLAYERS_FILE, players_table(info, &tally, teams).to_csv().as_bytes())?;
            }
            super::signals::check()?;
            dir.commit()?;
            print::<R>(args, &plan, &tally)
        }
    }
}

fn ci(i: Interval) -> Value {
    json!(i.pair())
}

fn mean_json(m: Option<(f64, Interval)>) -> (Value, Value) {
    match m {
        Some((v, i)) if i.low.is_finite() => (json!(v), json!(i.pair())),
        Some((v, _)) => (json!(v), Value::Null),
        None => (Value::Null, Value::Null),
    }
}

/// One player's (side's) or team's results per battle.
struct Standing {
    /// Mean points (the game's score) and, for one player, its 95% interval.
    points: f64,
    points_ci: Option<Interval>,
    kills: f64,
    deaths: f64,
}

/// The standing of the sides in `sides`: points summed (a team's total, whose mean is
/// the sum of its players' means), kills and deaths of their units per battle.
fn standing(t: &BattleTally, s: &BattleSummary, sides: &[usize]) -> Standing {
    let n = t.trials.max(1) as f64;
    let of = |v: &[u64]| {
        v.iter().zip(&t.unit_side).filter(|(_, side)| sides.contains(&(**side as usize))).map(|(k, _)| *k).sum::<u64>()
            as f64
            / n
    };
    let points = sides.iter().map(|&i| s.sides[i].mean_score.map_or(f64::NAN, |m| m.0)).sum();
    let points_ci = match sides {
        [one] => s.sides[*one].mean_score.map(|m| m.1).filter(|i| i.low.is_finite()),
        _ => None,
    };
    Standing { points, points_ci, kills: of(&t.kills), deaths: of(&t.lost) }
}

fn forces_of(info: &BattleInfo, players: &[usize]) -> String {
    players.iter().map(|&p| info.sides[p].0.as_str()).collect::<Vec<_>>().join(" + ")
}

fn letters(players: &[usize]) -> String {
    players.iter().map(|&p| side_letter(p)).collect::<Vec<_>>().join("+")
}

/// Per-team rows of a team battle: its win (its captain's), points, kills, deaths.
fn teams_json(info: &BattleInfo, t: &BattleTally, labels: &[usize]) -> Vec<Value> {
    let s = t.summary();
    team_members(labels)
        .iter()
        .enumerate()
        .map(|(i, members)| {
            let x = &s.sides[members[0]];
            let st = standing(t, &s, members);
            json!({
                "team": team_name(i), "players": letters(members), "forces": forces_of(info, members),
                "p_wins": x.p_wins, "p_wins_ci95": ci(x.p_wins_ci),
                "mean_points": st.points, "mean_kills": st.kills, "mean_deaths": st.deaths,
                "mean_actions": x.mean_actions,
            })
        })
        .collect()
}

/// Per-player rows: points (with interval), kills, deaths, and the team with teams.
fn players_json(info: &BattleInfo, t: &BattleTally, labels: Option<&[usize]>) -> Vec<Value> {
    let s = t.summary();
    let team = team_index(labels, info.sides.len());
    (0..info.sides.len())
        .map(|p| {
            let st = standing(t, &s, &[p]);
            json!({
                "player": side_letter(p), "team": team[p].map(team_name), "force": info.sides[p].0,
                "mean_points": st.points, "mean_points_ci95": st.points_ci.map(|i| i.pair()),
                "mean_kills": st.kills, "mean_deaths": st.deaths,
            })
        })
        .collect()
}

/// The team (0-based, in order of first player) of each of `players` players.
fn team_index(labels: Option<&[usize]>, players: usize) -> Vec<Option<usize>> {
    let mut team = vec![None; players];
    if let Some(labels) = labels {
        for (i, members) in team_members(labels).iter().enumerate() {
            for &p in members {
                team[p] = Some(i);
            }
        }
    }
    team
}

fn side_letter(i: usize) -> String {
    ((b'A' + i as u8) as char).to_string()
}

/// The results as JSON (the keys the issue names, then the detail): `a_can_attack`,
/// `b_can_attack` (some unit of the side can attack some enemy unit at its conditions),
/// `units_cannot_attack` (the units that reach no enemy), A's initiative split
/// (`p_a_wins_a_first`: A first in turn 1's initiative order; `p_a_wins_b_first`:
/// another side first; `decided_by_initiative`). With teams
/// (`labels`), `a`, `b`, `p_a_wins`, `p_b_wins` and `mean_points_destroyed_a|b` are
/// teams 1 and 2's, and `teams` lists every team. `options` are the ruleset's option
/// pairs the battle was played with (edition included), recorded as a sweep's
/// manifest.json records them: `options` maps each `NAME` to its canonical value, and
/// `edition` is the `EDITION` option's number (null for a ruleset without one).
pub fn battle_json<R: Ruleset>(
    info: &BattleInfo,
    t: &BattleTally,
    conditions: &[String],
    seed: u64,
    labels: Option<&[usize]>,
    options: &[(String, String)],
    reach: &BattleReach,
) -> Value {
    let mut j = sides_json::<R>(info, t, conditions, seed, reach);
    let edition = options.iter().find(|(n, _)| n == "EDITION").and_then(|(_, v)| v.parse::<u32>().ok());
    j["edition"] = json!(edition);
    j["options"] = Value::Object(options.iter().map(|(n, v)| (n.clone(), Value::from(v.clone()))).collect());
    j["not_modelled"] = json!(info.not_modelled);
    j["played"] = json!(info.played);
    j["players"] = json!(players_json(info, t, labels));
    if let Some(labels) = labels {
        let s = t.summary();
        let members = team_members(labels);
        let destroyed = |m: &[usize]| -> f64 {
            m.iter().map(|&p| s.sides[p].mean_points_destroyed.map_or(f64::NAN, |v| v.0)).sum()
        };
        for (key, i) in [("a", 0), ("b", 1)] {
            let x = &s.sides[members[i][0]];
            j[key] = json!(forces_of(info, &members[i]));
            j[format!("p_{key}_wins")] = json!(x.p_wins);
            j[format!("p_{key}_wins_ci95")] = ci(x.p_wins_ci);
            j[format!("mean_points_destroyed_{key}")] = json!(destroyed(&members[i]));
            j[format!("mean_points_destroyed_{key}_ci95")] = Value::Null;
            j[format!("{key}_can_attack")] = json!(members[i].iter().any(|&p| reach.can_attack(p)));
        }
        super::engagement::insert_split(&mut j, &s.sides[members[0][0]].initiative);
        j["teams"] = json!(teams_json(info, t, labels));
    }
    j
}

/// The per-side JSON of any battle.
fn sides_json<R: Ruleset>(
    info: &BattleInfo,
    t: &BattleTally,
    conditions: &[String],
    seed: u64,
    reach: &BattleReach,
) -> Value {
    let s: BattleSummary = t.summary();
    let side = |i: usize| &s.sides[i];
    let (mt, mt_ci) = mean_json(s.mean_turns);
    let (pa, pa_ci) = mean_json(side(0).mean_points_destroyed);
    let (pb, pb_ci) = mean_json(side(1).mean_points_destroyed);
    let units: Vec<Value> = info
        .units
        .iter()
        .enumerate()
        .map(|(u, unit)| {
            json!({
                "side": unit.side, "unit": unit.name, "points": unit.points,
                "mean_lost": t.lost[u] as f64 / s.trials.max(1) as f64,
                "mean_kills": t.kills[u] as f64 / s.trials.max(1) as f64,
                "kill_share": kill_share(t, u),
            })
        })
        .collect();
    let sides: Vec<Value> = (0..s.sides.len())
        .map(|i| {
            let x = side(i);
            let (score, score_ci) = mean_json(x.mean_score);
            let (lost, lost_ci) = mean_json(x.mean_points_lost);
            json!({
                "force": info.sides[i].0, "points": info.sides[i].1, "conditions": conditions[i],
                "p_wins": x.p_wins, "p_wins_ci95": ci(x.p_wins_ci),
                "mean_score": score, "mean_score_ci95": score_ci,
                "mean_points_lost": lost, "mean_points_lost_ci95": lost_ci,
                "mean_actions": x.mean_actions, "mean_escaped": x.mean_escaped,
                "can_attack": reach.can_attack(i),
                "p_wins_first": x.initiative.own_first.map(|c| c.p),
                "p_wins_first_ci95": x.initiative.own_first.map(|c| c.ci.pair()),
                "p_wins_other_first": x.initiative.other_first.map(|c| c.p),
                "p_wins_other_first_ci95": x.initiative.other_first.map(|c| c.ci.pair()),
            })
        })
        .collect();
    let idle: Vec<Value> = (0..s.sides.len())
        .flat_map(|i| reach.idle_units(info, i).into_iter().map(move |u| json!({"side": side_letter(i), "unit": u})))
        .collect();
    let mut j = json!({
        "ruleset": R::NAME, "mode": info.mode, "policy": info.policy, "max_turns": info.max_turns,
        "a": info.sides[0].0, "b": info.sides[1].0, "seed": seed, "trials": s.trials,
        "p_a_wins": side(0).p_wins, "p_a_wins_ci95": ci(side(0).p_wins_ci),
        "p_b_wins": side(1).p_wins, "p_b_wins_ci95": ci(side(1).p_wins_ci),
        "p_draw": s.p_draw, "p_draw_ci95": ci(s.p_draw_ci),
        "p_undecided": s.p_undecided, "p_undecided_ci95": ci(s.p_undecided_ci),
        "mean_turns": mt, "mean_turns_ci95": mt_ci,
        "mean_points_destroyed_a": pa, "mean_points_destroyed_a_ci95": pa_ci,
        "mean_points_destroyed_b": pb, "mean_points_destroyed_b_ci95": pb_ci,
        "p_decided_by_turn": s.p_decided_by_turn.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        "p_decided_by_turn_ci95": s.p_decided_by_turn.iter().map(|(_, i)| i.pair()).collect::<Vec<_>>(),
        "sides": sides,
        "units": units,
        "a_can_attack": reach.can_attack(0), "b_can_attack": reach.can_attack(1),
        "units_cannot_attack": idle,
    });
    super::engagement::insert_split(&mut j, &side(0).initiative);
    j
}

/// Per-side results as a table.
fn sides_table(info: &BattleInfo, t: &BattleTally) -> Table {
    let s = t.summary();
    let mut table = Table::new([
        "side",
        "force",
        "points",
        "p_wins",
        "ci95_low",
        "ci95_high",
        "mean_points_destroyed",
        "mean_points_lost",
        "mean_score",
        "mean_actions",
    ]);
    let m = |x: Option<(f64, Interval)>| x.map_or(f64::NAN, |v| v.0);
    for (i, x) in s.sides.iter().enumerate() {
        table.push(vec![
            ((b'A' + i as u8) as char).to_string().into(),
            info.sides[i].0.clone().into(),
            info.sides[i].1.into(),
            x.p_wins.into(),
            x.p_wins_ci.low.into(),
            x.p_wins_ci.high.into(),
            m(x.mean_points_destroyed).into(),
            m(x.mean_points_lost).into(),
            m(x.mean_score).into(),
            x.mean_actions.into(),
        ]);
    }
    table
}

/// Per-team results of a team battle as a table: its win (its captain's), points (the
/// sum of its players' means), kills and deaths per battle, actions given.
fn teams_table(info: &BattleInfo, t: &BattleTally, labels: &[usize]) -> Table {
    let s = t.summary();
    let mut table = Table::new([
        "team",
        "players",
        "forces",
        "p_wins",
        "ci95_low",
        "ci95_high",
        "mean_points",
        "mean_kills",
        "mean_deaths",
        "mean_actions",
    ]);
    for (i, members) in team_members(labels).iter().enumerate() {
        let x = &s.sides[members[0]];
        let st = standing(t, &s, members);
        table.push(vec![
            team_name(i).into(),
            letters(members).into(),
            forces_of(info, members).into(),
            x.p_wins.into(),
            x.p_wins_ci.low.into(),
            x.p_wins_ci.high.into(),
            st.points.into(),
            st.kills.into(),
            st.deaths.into(),
            x.mean_actions.into(),
        ]);
    }
    table
}

/// Per-player results as a table: points (the game's score: skirmish AC destroyed,
/// deathmatch points) with its 95% interval, kills and deaths (units lost) per battle;
/// with teams, each player's team.
fn players_table(info: &BattleInfo, t: &BattleTally, labels: Option<&[usize]>) -> Table {
    let s = t.summary();
    let team = team_index(labels, info.sides.len());
    let mut table =
        Table::new(["player", "team", "force", "mean_points", "ci95_low", "ci95_high", "mean_kills", "mean_deaths"]);
    for (p, team) in team.iter().enumerate() {
        let st = standing(t, &s, &[p]);
        let ci = st.points_ci.unwrap_or(Interval { low: f64::NAN, high: f64::NAN });
        table.push(vec![
            side_letter(p).into(),
            team.map_or(String::new(), team_name).into(),
            info.sides[p].0.clone().into(),
            st.points.into(),
            ci.low.into(),
            ci.high.into(),
            st.kills.into(),
            st.deaths.into(),
        ]);
    }
    table
}

/// Per-unit contribution as a table: times each unit slot was destroyed per battle (in a
/// skirmish, P(lost); a deathmatch slot may respawn and fall again), its kills per battle
/// and its share of its side's kills.
pub fn units_table(info: &BattleInfo, t: &BattleTally) -> Table {
    let n = t.trials.max(1) as f64;
    let mut table = Table::new(["side", "unit", "points", "mean_lost", "mean_kills", "kill_share"]);
    for (u, unit) in info.units.iter().enumerate() {
        table.push(vec![
            ((b'A' + unit.side as u8) as char).to_string().into(),
            unit.name.clone().into(),
            unit.points.into(),
            (t.lost[u] as f64 / n).into(),
            (t.kills[u] as f64 / n).into(),
            kill_share(t, u).into(),
        ]);
    }
    table
}

fn print<R: Ruleset>(args: &BattleArgs, plan: &BattlePlan<R>, t: &BattleTally) -> Result<()> {
    let BattlePlan { info, options, conditions: conds, config, reach, .. } = plan;
    let (seed, teams) = (config.seed, plan.teams.as_deref());
    match args.format.format {
        Format::Json => {
            super::print_json(&battle_json::<R>(info, t, conds, seed, teams, &options.pairs(), reach), false)
        }
        format => {
            let table = match teams {
                _ if args.units => units_table(info, t),
                _ if args.players => players_table(info, t, teams),
                Some(labels) => teams_table(info, t, labels),
                None => sides_table(info, t),
            };
            if format == Format::Table {
                let s = t.summary();
                let turn = R::TURN;
                let mean = s.mean_turns.map_or("-".into(), |m| format!("{:.2}", m.0));
                let names: Vec<&str> = info.sides.iter().map(|x| x.0.as_str()).collect();
                let wins: Vec<String> = match teams {
                    Some(labels) => team_members(labels)
                        .iter()
                        .enumerate()
                        .map(|(i, m)| {
                            let x = &s.sides[m[0]];
                            let (team, players) = (team_name(i), letters(m));
                            format!(
                                "{team} ({players}) wins {:.4} [{:.4}, {:.4}]",
                                x.p_wins, x.p_wins_ci.low, x.p_wins_ci.high
                            )
                        })
                        .collect(),
                    None => s
                        .sides
                        .iter()
                        .enumerate()
                        .map(|(i, x)| {
                            let side = (b'A' + i as u8) as char;
                            format!("{side} wins {:.4} [{:.4}, {:.4}]", x.p_wins, x.p_wins_ci.low, x.p_wins_ci.high)
                        })
                        .collect(),
                };
                let shoots: Vec<String> = conds
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("{} shoots in {c}", (b'A' + i as u8) as char))
                    .collect();
                write_stdout(&format!(
                    "{} ({} {}, {} max, policy {})\n{}{}{}\n{}Monte Carlo, {}, seed {seed}; mean length {mean} {turn}s\n{}  draw {:.4} [{:.4}, {:.4}]  undecided {:.4}\n{}\n",
                    names.join(" vs "),
                    R::LABEL,
                    info.mode,
                    count(info.max_turns, turn),
                    info.policy,
                    options_line(options),
                    played_text(&info.played) + &super::duel::notes_text(&info.not_modelled),
                    shoots.join("; "),
                    reach_lines(info, reach, conds),
                    count(s.trials, "battle"),
                    wins.join("  "),
                    s.p_draw,
                    s.p_draw_ci.low,
                    s.p_draw_ci.high,
                    s.p_undecided,
                    super::engagement::split_line(
                        "A",
                        if s.sides.len() > 2 { "another side" } else { "B" },
                        &s.sides[0].initiative
                    ),
                ))?;
            }
            print_table(&table, format, 4)?;
            if format == Format::Table && teams.is_some() && !args.units && !args.players {
                write_stdout("\n")?;
                print_table(&players_table(info, t, teams), format, 4)?;
            }
            Ok(())
        }
    }
}

/// The reach lines of a battle's header: a warning for each side that cannot attack, and
/// the units of each side that reach no enemy (empty when every unit can attack).
pub(super) fn reach_lines(info: &BattleInfo, reach: &BattleReach, conds: &[String]) -> String {
    let mut out = String::new();
    for (i, side) in info.sides.iter().enumerate() {
        let at = conds.get(i).or(conds.last()).map_or("these conditions", String::as_str);
        if !reach.can_attack(i) {
            out += &one_sided_warning(&format!("side {}", side_letter(i)), &side.0, at);
            out += "\n";
        }
        let idle = reach.idle_units(info, i);
        let units = info.units.iter().filter(|u| u.side == i).count();
        if !idle.is_empty() && idle.len() < units {
            out += &format!(
                "reach: {} of {units} units of side {} ({}) cannot attack any enemy unit at {at}: {}\n",
                idle.len(),
                side_letter(i),
                side.0,
                idle.join(", ")
            );
        }
    }
    out
}

/// The `played:` lines of a battle report: what it plays beyond the cards.
fn played_text(played: &[String]) -> String {
    played.iter().map(|p| format!("played: {p}\n")).collect()
}
