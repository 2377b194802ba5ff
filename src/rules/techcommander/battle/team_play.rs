//! How a team deathmatch plays through [`TcGame`] ([`super::teams`]: the teams
//! themselves): the captains' unit lists and groups, pooled base actions, team
//! initiative.

use rand_xoshiro::Xoshiro256PlusPlus;

use super::game::TcGame;
use super::teams::Teams;
use crate::engine::battle::MAX_SIDES;

impl TcGame {
    /// Make the sides play as `teams`: each captain's unit list and rallied group become
    /// its team's (in player order), other players' empty; every player's enemies are
    /// the units of the other teams. Call once after [`TcGame::new`].
    pub(crate) fn form_teams(&mut self, teams: &Teams) {
        let player_units = self.side_units.clone();
        let player_groups = self.groups.clone();
        let sides = player_units.len();
        for t in 0..teams.len() {
            let captain = teams.captain(t);
            let team = |per: &Vec<Vec<u8>>| -> Vec<u8> {
                teams.members[t].iter().flat_map(|&p| per[p as usize].iter().copied()).collect()
            };
            let (units, group) = (team(&player_units), team(&player_groups));
            for &p in &teams.members[t] {
                self.side_units[p as usize].clear();
                self.groups[p as usize].clear();
            }
            self.side_units[captain] = units;
            self.groups[captain] = group;
        }
        self.enemies = (0..sides)
            .map(|side| {
                (0..self.units.len())
                    .filter(|&u| teams.team_of[self.units[u].side] != teams.team_of[side])
                    .map(|u| u as u8)
                    .collect()
            })
            .collect();
        self.has_command =
            self.side_units.iter().map(|v| v.iter().any(|&u| self.units[u as usize].command > 0)).collect();
        self.derive_lists();
        // The compiled Rallied Attack scores are per player's group; a team's group
        // spans players, so its attacks are scored member by member.
        self.rally.attack.clear();
    }

    /// Players whose base actions side `side` gives: its team's size for a team's
    /// captain, else 1.
    #[inline]
    pub(crate) fn players_acting_for(&self, side: usize) -> u32 {
        match self.dm.as_ref().and_then(|dm| dm.teams.as_ref()) {
            Some(teams) => {
                let t = teams.team_of[side] as usize;
                if teams.captain(t) == side { teams.members[t].len() as u32 } else { 0 }
            }
            None => 1,
        }
    }

    /// Initiative of the teams: one d20 per team (ties as for players); writes the
    /// captains in acting order into `order` and returns the number of teams.
    pub(crate) fn team_order(&self, teams: &Teams, rng: &mut Xoshiro256PlusPlus, order: &mut [u8; MAX_SIDES]) -> usize {
        let n = self.d20_order(teams.len(), rng, order);
        for slot in &mut order[..n] {
            *slot = teams.captain(*slot as usize) as u8;
        }
        n
    }
}
