//! `battle`: forces fighting turn by turn, resolved into one compiled battle cell.

use crate::catalogue::force::ForceSpec;
use crate::engine::battle::BattleTally;
use crate::engine::{Cell, Observer, RunConfig, cell_key};
use crate::error::{Error, Result};
use crate::rules::battle::{BattleInfo, BattleSetup};
use crate::rules::ruleset::Battles;
use crate::rules::{Point, RuleOptions, Ruleset};
use crate::sweep::battle_teams::{TeamChoice, is_team_battle, mode_key};
use crate::sweep::cells::CellSpec;
use crate::sweep::reach::{BattleReach, battle_reach};
use crate::sweep::run::all_specs;
use crate::sweep::shard::Plays;

use super::setting::{Setting, TrialRequest};

/// A battle as the command line asks for it.
#[derive(Debug, Clone)]
pub struct BattleRequest {
    /// The forces, side A first: `[[force]]` names or builds joined by `+`.
    pub forces: Vec<String>,
    /// The mode; `None` = the ruleset's first.
    pub mode: Option<String>,
    /// A battle policy; `None` = the ruleset's default.
    pub policy: Option<String>,
    /// `AXIS=VALUE` overrides of the setting's conditions for side B and later sides.
    pub b_conditions: Vec<String>,
    /// The rulebook edition, as `EDITION=N`.
    pub edition: Option<u32>,
    /// `None` = the mode's cap.
    pub max_turns: Option<u32>,
    /// Deathmatch teams: a count, or seats joined by `+` and teams by commas.
    pub teams: Option<String>,
    pub trials: TrialRequest,
}

/// A battle compiled and keyed, ready to run.
pub struct BattlePlan<R: Ruleset> {
    pub kernel: <R as Battles>::Battle,
    pub info: BattleInfo,
    pub key: u64,
    pub options: R::Options,
    /// Each side's conditions in words.
    pub conditions: Vec<String>,
    /// Team battles: each player's team label; `None` for a free-for-all.
    pub teams: Option<Vec<usize>>,
    /// Which side can attack which at its conditions, and the units that reach no enemy.
    pub reach: BattleReach,
    pub config: RunConfig,
}

/// A force by name: the catalogue's `[[force]]` of that name (any case), else builds
/// joined by `+`.
///
/// # Errors
/// (usage) A malformed force text.
pub fn force<R: Ruleset>(cat: &R::Catalogue, text: &str) -> Result<ForceSpec> {
    if let Some(f) = R::forces(cat).into_iter().find(|f| f.name.eq_ignore_ascii_case(text.trim())) {
        return Ok(f);
    }
    ForceSpec::parse(text).map_err(|e| Error::usage(format!("force `{text}`: {e}")))
}

/// The battle mode `given` under `flag` (`--mode` or `--battle-mode`), checked against
/// the ruleset's modes before any work: its canonical name, or `None` when none is given.
///
/// # Errors
/// (usage) A mode the ruleset does not play, naming the flag and the modes it plays.
pub fn checked_mode<R: Ruleset>(given: Option<&str>, flag: &str) -> Result<Option<String>> {
    given
        .map(|m| {
            crate::rules::battle::find_mode(R::BATTLE_MODES, m)
                .map(|b| b.name.to_string())
                .map_err(|e| Error::usage(format!("{flag}: {e} ({} plays these)", R::LABEL)))
        })
        .transpose()
}

/// The team label of each of `players` players from a teams text (a count splitting
/// them in order into teams of equal size, or explicit teams of seats), canonical: teams
/// numbered by their first player; `None` without one.
///
/// # Errors
/// (usage) A malformed text, a count that does not divide the players, an unknown seat,
/// a seat in two teams or in none.
fn team_labels(players: usize, teams: Option<&str>) -> Result<Option<Vec<usize>>> {
    let Some(text) = teams else {
        return Ok(None);
    };
    TeamChoice::parse(text)
        .and_then(|t| t.labels(players))
        .map(Some)
        .map_err(|e| Error::usage(format!("--teams {text}: {e}")))
}

/// Side B's point: the setting's conditions with the `AXIS=VALUE` overrides.
fn side_point<R: Ruleset>(setting: &Setting, overrides: &[String]) -> Result<Point> {
    let specs = all_specs::<R>();
    let mut values: Vec<(&str, String)> = setting.conditions.clone();
    for o in overrides {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| Error::usage(format!("--b-condition {o}: give AXIS=VALUE (axes: see `volley rulesets`)")))?;
        let spec = specs.iter().find(|s| s.name.eq_ignore_ascii_case(name.trim())).ok_or_else(|| {
            let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
            Error::usage(format!(
                "--b-condition {o}: unknown axis `{}`: expected one of {}",
                name.trim(),
                names.join(", ")
            ))
        })?;
        values.retain(|(n, _)| *n != spec.name);
        values.push((spec.name, value.trim().to_string()));
    }
    Point::new(&specs, &values).map_err(|e| Error::usage(format!("--b-condition: {}", e.join("; "))))
}

/// Resolve and compile a battle on `cat`.
///
/// # Errors
/// (usage) Battles not available for the ruleset, options, conditions, forces or teams
/// that no run could accept; (failure) what the ruleset refuses (an unknown build, a force
/// over its budget, a side count the mode does not take).
pub fn plan<R: Ruleset>(setting: &Setting, req: &BattleRequest, cat: &R::Catalogue) -> Result<BattlePlan<R>> {
    if R::BATTLE_MODES.is_empty() {
        return Err(Error::unavailable("battles", R::LABEL));
    }
    let mut options = setting.options::<R>()?;
    if let Some(e) = req.edition {
        options.set("EDITION", &e.to_string()).map_err(|e| Error::usage(format!("--edition: {e}")))?;
        options.validate().map_err(|e| Error::usage(format!("--edition: {e}")))?;
    }
    let point_a = setting.point::<R>()?;
    let point_b = side_point::<R>(setting, &req.b_conditions)?;
    let points: Vec<Point> =
        (0..req.forces.len()).map(|i| if i == 0 { point_a.clone() } else { point_b.clone() }).collect();
    let conditions = points
        .iter()
        .map(|p| {
            let c = R::conditions(p).map_err(Error::usage)?;
            R::check_battle(&c).map_err(Error::usage)?;
            Ok(c)
        })
        .collect::<Result<Vec<_>>>()?;
    let config = req.trials.config()?;
    let forces = req.forces.iter().map(|f| force::<R>(cat, f)).collect::<Result<Vec<_>>>()?;
    let mode = checked_mode::<R>(req.mode.as_deref(), "--battle-mode")?;
    let mode = mode.as_deref().unwrap_or(R::BATTLE_MODES[0].name);
    let setup = BattleSetup {
        mode,
        forces: &forces,
        conditions: &conditions,
        options: &options,
        policy: req.policy.as_deref(),
        max_turns: req.max_turns,
    };
    let labels = team_labels(forces.len(), req.teams.as_deref())?;
    let (kernel, info) = match &labels {
        Some(labels) => R::team_battle(cat, &setup, labels),
        None => R::battle(cat, &setup),
    }?;
    // Teams of one are the free-for-all: same battle, key and output.
    let teams = labels.filter(|l| is_team_battle(l));
    let reach = battle_reach::<R>(cat, &info, &conditions, &options, teams.as_deref());
    let pairs = options.pairs();
    let spec = CellSpec { ruleset: R::NAME, options: &pairs, policy: &info.policy, max_turns: info.max_turns };
    let canonical: Vec<String> = forces.iter().map(ForceSpec::canonical).collect();
    // A team battle's key names the teams; a free-for-all's is unchanged.
    let key = cell_key(&spec.battle(&mode_key(info.mode, teams.as_deref()), &canonical, &points));
    let conditions = conditions.iter().map(R::describe).collect();
    Ok(BattlePlan { kernel, info, key, options, conditions, teams, reach, config })
}

impl<R: Ruleset> BattlePlan<R> {
    /// Play the battle with the tallies of `plays` (every stream, a shard's share, or
    /// the merged shards).
    ///
    /// # Errors
    /// (failure) A cancelled run.
    pub fn run(&self, observer: &dyn Observer, plays: &Plays<'_>) -> Result<BattleTally> {
        let cells = [Cell { key: self.key, kernel: &self.kernel }];
        let mut tallies = plays.run(&cells, &self.config, observer)?;
        Ok(tallies.remove(0))
    }
}

/// Refuse conditions battles cannot play at any of `points` ([`ConditionRules::check_battle`]),
/// before any battle.
///
/// [`ConditionRules::check_battle`]: crate::rules::ruleset::ConditionRules::check_battle
///
/// # Errors
/// (usage) The first point's message.
pub fn check_battle_points<R: Ruleset>(points: &[Point]) -> Result<()> {
    for p in points {
        R::check_battle(&R::conditions(p).map_err(Error::usage)?).map_err(Error::usage)?;
    }
    Ok(())
}
