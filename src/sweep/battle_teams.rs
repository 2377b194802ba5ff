//! Deathmatch teams as a user writes them (techcommander-battles.md §3.3): a count that
//! splits the seats in order into teams of equal size (`--teams 2`, `teams = 2`), or
//! explicit teams of seats (`--teams "A+C,B+D"`, `teams = [["A", "C"], ["B", "D"]]`),
//! each seat named by its letter (`A`, `B`, ..., any case) or its 1-based number.
//!
//! Both become one team label per seat, numbered in the order of each team's first seat
//! (so the team holding seat A is team 1). The labels are canonical: the same teams give
//! the same labels however they are written (`--teams 2` of 4 players, `"A+B,C+D"` and
//! `"C+D,B+A"` all give `[0, 0, 1, 1]`), hence the same battle and the same cell key.
//! Teams may differ in size where written explicitly (`"A+B,C"`): the engine pools each
//! team's actions by its size.

use crate::catalogue::fields::Fields;
use crate::catalogue::raw::RawValue;
use crate::engine::battle::MAX_SIDES;

/// How the seats of a deathmatch form teams, before the number of seats is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TeamChoice {
    /// Split the seats in order into this many teams of equal size.
    Count(usize),
    /// Explicit teams, each a list of seat names (letters or 1-based numbers), as written.
    Lists(Vec<Vec<String>>),
}

impl TeamChoice {
    /// Read the command-line form: a number (`2`) or teams separated by `,`, seats
    /// joined by `+` (`A+C,B+D`, `1+3,2+4`). Whitespace around names is ignored.
    ///
    /// # Errors
    /// Empty text or an empty team (`A+,B`).
    pub fn parse(text: &str) -> Result<TeamChoice, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("give a number of teams or teams of seats such as A+C,B+D".into());
        }
        if let Ok(n) = text.parse::<usize>() {
            return Ok(TeamChoice::Count(n));
        }
        let lists = text
            .split(',')
            .map(|team| {
                let seats: Vec<String> = team.split('+').map(|s| s.trim().to_string()).collect();
                if seats.iter().any(String::is_empty) {
                    Err(format!(
                        "empty seat name in team `{}`: join seats with + and teams with , (A+C,B+D)",
                        team.trim()
                    ))
                } else {
                    Ok(seats)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TeamChoice::Lists(lists))
    }

    /// The team label of each of `players` seats, canonical (teams numbered in order of
    /// their first seat, from 0).
    ///
    /// # Errors
    /// A count below 2 or that does not split the seats into teams of equal size; an
    /// unknown seat, a seat in two teams, a seat in no team, or fewer than 2 teams.
    pub fn labels(&self, players: usize) -> Result<Vec<usize>, String> {
        match self {
            TeamChoice::Count(teams) => {
                let teams = *teams;
                if teams < 2 {
                    return Err(format!("give at least 2 teams, got {teams}"));
                }
                if teams > players || players % teams != 0 {
                    return Err(format!(
                        "{players} players do not split into {teams} teams of equal size (list the teams, e.g. A+B,C, for teams of other sizes)"
                    ));
                }
                let size = players / teams;
                Ok((0..players).map(|p| p / size).collect())
            }
            TeamChoice::Lists(lists) => {
                if lists.len() < 2 {
                    return Err(format!("give at least 2 teams, got {}", lists.len()));
                }
                let mut team_of: Vec<Option<usize>> = vec![None; players];
                for (t, team) in lists.iter().enumerate() {
                    for name in team {
                        let seat = seat(name, players)?;
                        if team_of[seat].is_some() {
                            return Err(format!("seat {} is in more than one team", seat_letter(seat)));
                        }
                        team_of[seat] = Some(t);
                    }
                }
                let missing: Vec<String> = (0..players).filter(|&p| team_of[p].is_none()).map(seat_letter).collect();
                if !missing.is_empty() {
                    let (seats, are) = if missing.len() == 1 { ("seat", "is") } else { ("seats", "are") };
                    return Err(format!(
                        "{seats} {} {are} in no team: every player is in exactly one team",
                        missing.join(", ")
                    ));
                }
                Ok(canonical(&team_of.into_iter().map(|t| t.unwrap_or(0)).collect::<Vec<_>>()))
            }
        }
    }
}

/// Labels renumbered in the order of each team's first seat.
fn canonical(labels: &[usize]) -> Vec<usize> {
    let mut seen: Vec<usize> = Vec::new();
    labels
        .iter()
        .map(|l| match seen.iter().position(|s| s == l) {
            Some(t) => t,
            None => {
                seen.push(*l);
                seen.len() - 1
            }
        })
        .collect()
}

/// The seat (0-based) that `name` names among `players` seats: a letter (`A` is the
/// first, any case) or a 1-based number.
///
/// # Errors
/// A name that is neither, or a seat beyond the players.
pub fn seat(name: &str, players: usize) -> Result<usize, String> {
    let name = name.trim();
    let last = seat_letter(players.clamp(1, MAX_SIDES) - 1);
    let unknown = || format!("unknown seat `{name}`: {players} players sit at A to {last} (or 1 to {players})");
    let seat = match name.parse::<usize>() {
        Ok(n) => n.checked_sub(1).ok_or_else(unknown)?,
        Err(_) => match name.as_bytes() {
            [c] if c.is_ascii_alphabetic() => (c.to_ascii_uppercase() - b'A') as usize,
            _ => return Err(unknown()),
        },
    };
    if seat < players { Ok(seat) } else { Err(unknown()) }
}

/// The letter of seat `i` (`A`, `B`, ...).
fn seat_letter(i: usize) -> String {
    ((b'A' + i as u8) as char).to_string()
}

/// Whether `labels` make a team battle: some team has two or more players (teams of
/// one are the free-for-all, the same battle and key as no teams).
pub fn is_team_battle(labels: &[usize]) -> bool {
    team_members(labels).len() < labels.len()
}

/// Teams by label in order of their first player: each team's players (seats), the
/// first its captain.
pub fn team_members(labels: &[usize]) -> Vec<Vec<usize>> {
    let mut seen: Vec<usize> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (player, label) in labels.iter().enumerate() {
        match seen.iter().position(|l| l == label) {
            Some(t) => members[t].push(player),
            None => {
                seen.push(*label);
                members.push(vec![player]);
            }
        }
    }
    members
}

/// The name of team `i` (0-based) in tables and JSON: `team 1`, `team 2`, ...
pub fn team_name(i: usize) -> String {
    format!("team {}", i + 1)
}

/// Each of `players` seats' team name and captain (whose win is the team's) under
/// `labels`; `None` for every seat without teams.
pub fn seat_teams(labels: Option<&[usize]>, players: usize) -> Vec<Option<(String, usize)>> {
    let mut out = vec![None; players];
    for (i, members) in labels.map(team_members).unwrap_or_default().iter().enumerate() {
        for &p in members {
            out[p] = Some((team_name(i), members[0]));
        }
    }
    out
}

/// The mode part of a battle's cell key: the mode, and with a team battle's `labels`
/// the teams (`deathmatch|teams=0,0,1,1`). A free-for-all's (no labels, or teams of
/// one) is the mode alone, so it keeps the key it has without teams.
pub fn mode_key(mode: &str, labels: Option<&[usize]>) -> String {
    match labels.filter(|l| is_team_battle(l)) {
        Some(labels) => format!("{mode}|teams={}", labels.iter().map(usize::to_string).collect::<Vec<_>>().join(",")),
        None => mode.to_string(),
    }
}

/// A battle scenario's `teams` (`teams = 2` or `teams = [["A", "C"], ["B", "D"]]`, seats
/// by letter or 1-based number) as canonical labels of its `players` seats; `None` when
/// absent or bad. The key is read as written ([`Fields::raw`]: a number or an array of
/// arrays); errors are recorded on `f` at `teams` (or `teams[i]`), naming the problem.
pub fn read_scenario_teams(f: &mut Fields<'_>, mode: &str, players: u32) -> Option<Vec<usize>> {
    let raw = f.raw("teams")?;
    let bad = |f: &mut Fields<'_>, key: &str, pos, msg: String| {
        f.error(Some(key), pos, msg);
        None
    };
    if mode != "deathmatch" {
        return bad(
            f,
            "teams",
            raw.position,
            format!("teams play a deathmatch: give mode = \"deathmatch\", not `{mode}`"),
        );
    }
    if players < 3 {
        let msg = format!("teams need players = 3 or more (got {players}): each battle seats that many forces");
        return bad(f, "teams", raw.position, msg);
    }
    let choice = match &raw.value {
        RawValue::Int(n) => match usize::try_from(*n) {
            Ok(n) => TeamChoice::Count(n),
            Err(_) => return bad(f, "teams", raw.position, format!("give at least 2 teams, got {n}")),
        },
        RawValue::Array(teams) => {
            let mut lists = Vec::new();
            for (i, team) in teams.iter().enumerate() {
                let seats = match &team.value {
                    RawValue::Array(seats) if !seats.is_empty() => seats
                        .iter()
                        .map(|s| match &s.value {
                            RawValue::Str(t) => Some(t.clone()),
                            RawValue::Int(n) => Some(n.to_string()),
                            _ => None,
                        })
                        .collect::<Option<Vec<String>>>(),
                    _ => None,
                };
                match seats {
                    Some(seats) => lists.push(seats),
                    None => {
                        let msg = "expected a team: a non-empty array of seats (letters or 1-based numbers), such as [\"A\", \"C\"]";
                        return bad(f, &format!("teams[{i}]"), team.position.or(raw.position), msg.into());
                    }
                }
            }
            TeamChoice::Lists(lists)
        }
        other => {
            let msg = format!(
                "expected a number of teams (teams = 2: the seats in order) or teams of seats (teams = [[\"A\", \"C\"], [\"B\", \"D\"]]), found {}",
                crate::catalogue::error::with_article(other.type_name())
            );
            return bad(f, "teams", raw.position, msg);
        }
    };
    match choice.labels(players as usize) {
        Ok(labels) => Some(labels),
        Err(e) => bad(f, "teams", raw.position, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(text: &str, players: usize) -> Result<Vec<usize>, String> {
        TeamChoice::parse(text)?.labels(players)
    }

    #[test]
    fn lists_and_counts_give_the_same_canonical_labels() {
        assert_eq!(labels("2", 4).unwrap(), [0, 0, 1, 1]);
        assert_eq!(labels("A+B,C+D", 4).unwrap(), [0, 0, 1, 1]);
        assert_eq!(labels("c+d, b+a", 4).unwrap(), [0, 0, 1, 1]);
        assert_eq!(labels("1+3,2+4", 4).unwrap(), [0, 1, 0, 1]);
        assert_eq!(labels("B+D,A+C", 4).unwrap(), [0, 1, 0, 1]);
        assert_eq!(labels("A+B,C", 3).unwrap(), [0, 0, 1], "teams of unequal size");
        assert_eq!(labels("A,B,C", 3).unwrap(), [0, 1, 2]);
        assert_eq!(labels("3", 6).unwrap(), [0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn bad_teams_name_the_problem() {
        for (text, players, needle) in [
            ("A+E,B+C", 4, "unknown seat `E`: 4 players sit at A to D (or 1 to 4)"),
            ("1+5,2+3", 4, "unknown seat `5`"),
            ("0+1,2+3", 4, "unknown seat `0`"),
            ("A+B,Cx+D", 4, "unknown seat `Cx`"),
            ("A+B,B+C+D", 4, "seat B is in more than one team"),
            ("A+B,C", 4, "seat D is in no team"),
            ("A,B", 4, "seats C, D are in no team"),
            ("A+B+C+D", 4, "at least 2 teams, got 1"),
            ("1", 4, "at least 2 teams, got 1"),
            ("3", 4, "4 players do not split into 3 teams of equal size"),
            ("5", 4, "do not split into 5 teams"),
            ("A+,B", 2, "empty seat name in team `A+`"),
            ("A,,B", 2, "empty seat name"),
            (" ", 2, "give a number of teams"),
        ] {
            let e = labels(text, players).unwrap_err();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn only_teams_with_two_or_more_players_change_the_key() {
        assert_eq!(mode_key("deathmatch", Some(&[0, 0, 1, 1])), "deathmatch|teams=0,0,1,1");
        assert_eq!(mode_key("deathmatch", Some(&[0, 1, 2])), "deathmatch");
        assert_eq!(mode_key("deathmatch", None), "deathmatch");
        assert_eq!(team_members(&[0, 1, 0, 2]), [vec![0, 2], vec![1], vec![3]]);
    }
}
