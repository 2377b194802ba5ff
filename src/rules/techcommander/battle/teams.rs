//! Deathmatch teams (techcommander-battles.md §3.3, `DM_TEAM_ORDER` = teams alternate,
//! pooled budget).
//!
//! The engine's sides stay the players: each keeps its own spawn list, cap, kill chips,
//! score, kills and deaths. A team acts through its captain (its first player):
//! - initiative: one d20 per team (the captain's roll, `INITIATIVE_TIES` as for
//!   players), and only captains are in the acting order, so actions alternate between
//!   teams (base rounds, then command rounds);
//! - budget: the captain's side gives the team's pooled actions, 2 base actions per
//!   player plus the command of every unit of the team on the field;
//! - the captain's policy picks among all the team's units (its unit list and rallied
//!   group are the team's), and targets only units of other teams: a team's units never
//!   target teammates (no friendly fire);
//! - victory by team total points, then (`DM_TIEBREAK`) team kills, else shared; the
//!   winning team is reported as its captain's win.
//!
//! Other sides (non-captains) never act and never win: their tally rows read as players.

use crate::engine::battle::MAX_SIDES;

/// A deathmatch's teams of players.
///
/// Invariants: at least 2 teams, each with at least one player; teams are numbered in
/// the order of their first player, whose side is the team's captain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Teams {
    /// Team of each player (side), `0..teams`.
    pub team_of: Vec<u8>,
    /// Players of each team, in player order; the first is the captain.
    pub members: Vec<Vec<u8>>,
}

impl Teams {
    /// Teams from the team label of each player (any labels; a team is the players
    /// sharing one).
    ///
    /// # Errors
    /// Fewer than 2 teams, more than [`MAX_SIDES`] players.
    pub fn new(labels: &[usize]) -> Result<Teams, String> {
        if labels.len() > MAX_SIDES {
            return Err(format!("at most {MAX_SIDES} players, got {}", labels.len()));
        }
        let mut seen: Vec<usize> = Vec::new();
        let mut members: Vec<Vec<u8>> = Vec::new();
        let mut team_of = Vec::with_capacity(labels.len());
        for (player, label) in labels.iter().enumerate() {
            let team = match seen.iter().position(|l| l == label) {
                Some(t) => t,
                None => {
                    seen.push(*label);
                    members.push(Vec::new());
                    seen.len() - 1
                }
            };
            members[team].push(player as u8);
            team_of.push(team as u8);
        }
        if members.len() < 2 {
            return Err(format!("a team deathmatch takes at least 2 teams, got {}", members.len()));
        }
        Ok(Teams { team_of, members })
    }

    /// `players` players split, in order, into `teams` teams of equal size (players 1
    /// to k form team 1, and so on).
    ///
    /// # Errors
    /// Fewer than 2 teams, or a count that does not divide the players.
    pub fn split(players: usize, teams: usize) -> Result<Teams, String> {
        if teams < 2 || teams > players || players % teams != 0 {
            return Err(format!(
                "{players} players do not split into {teams} teams of equal size (give 2 or more teams that divide the players)"
            ));
        }
        let size = players / teams;
        Teams::new(&(0..players).map(|p| p / size).collect::<Vec<_>>())
    }

    /// Number of teams.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Never true (at least 2 teams).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// The captain (first player) of team `t`.
    pub fn captain(&self, t: usize) -> usize {
        self.members[t][0] as usize
    }

    /// Whether every team has one player (a free-for-all).
    pub fn all_single(&self) -> bool {
        self.members.iter().all(|m| m.len() == 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_split_in_order_and_number_by_first_player() {
        let t = Teams::split(4, 2).unwrap();
        assert_eq!(t.team_of, [0, 0, 1, 1]);
        assert_eq!(t.members, [vec![0, 1], vec![2, 3]]);
        assert_eq!((t.captain(0), t.captain(1)), (0, 2));
        let t = Teams::new(&[7, 3, 7, 3, 9]).unwrap();
        assert_eq!(t.team_of, [0, 1, 0, 1, 2]);
        assert!(Teams::split(5, 2).is_err());
        assert!(Teams::split(4, 1).is_err());
        assert!(Teams::new(&[1, 1]).is_err());
        assert!(Teams::split(3, 3).unwrap().all_single());
    }
}
