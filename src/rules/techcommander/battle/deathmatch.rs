//! The deathmatch game type (techcommander-battles.md §3) in the turn machinery of
//! [`TcGame`]: deployment at Initiative (chips buy cap, then respawn or reinforce from the
//! ordered spawn list, first fit), scoring at Resolve Damage, the result at `DM_TURNS`.
//!
//! 2 base actions a player, free-for-all of N players (any unit of another player is a
//! target), or teams ([`super::teams`]: each player still deploys from its own spawn list
//! with its own cap and chips, and scores for itself; the team total decides). Skulls,
//! smack-talk wagers, map-bound perks and crew survival (`DM_CREW_SURVIVAL` = not
//! attempted) stay off.

use super::dm_rules::{DmRules, cap_after, kill_score, survival_score};
use super::game::{State, TcGame};
use crate::engine::battle::{Ending, MAX_SIDES, Outcome};
use crate::rules::techcommander::options::{DmPerks, DmTiebreak};

impl TcGame {
    /// Deployment at Initiative (§3.2): chips buy cap, then respawn or reinforce from
    /// the spawn list, first fit.
    pub(crate) fn deploy(&self, dm: &DmRules, s: &mut State) {
        for (side, list) in dm.spawn.iter().enumerate() {
            if dm.o.dm_perks == DmPerks::CapFirst {
                (s.cap[side], s.chips[side]) = cap_after(s.cap[side], dm.max_cap, dm.o.dm_cap_step, s.chips[side]);
            }
            let present: Vec<usize> =
                dm.player_units[side].iter().map(|&u| u as usize).filter(|&u| s.present[u]).collect();
            if !present.is_empty() && !dm.o.dm_reinforce {
                continue;
            }
            let mut used: f64 = present.iter().map(|&u| self.units[u].points).sum();
            for entry in list {
                for &slot in &entry.slots {
                    if used + entry.points > s.cap[side] as f64 + 1e-9 {
                        break;
                    }
                    if !s.present[slot as usize] {
                        self.reset_unit(s, slot as usize);
                        s.present[slot as usize] = true;
                        s.stand(slot as usize);
                        used += entry.points;
                    }
                }
            }
        }
    }

    /// Resolve Damage and scoring of a deathmatch turn (§3.4).
    pub(crate) fn resolve_deathmatch(&self, dm: &DmRules, s: &mut State, out: &mut Outcome) {
        for u in 0..self.units.len() {
            if let Some(Some(killer)) = self.remove(s, u, out) {
                let unit = &self.units[u];
                let ks = self.units[killer].side;
                let (points, kills) = kill_score(unit.ac, unit.kind, self.units[killer].kind, s.one_action[u], &[]);
                out.score[ks] += points;
                out.kills[killer] += kills as u16;
                s.chips[ks] += kills;
                s.kills_side[ks] += kills;
            }
        }
        for side in 0..self.sides_count() {
            let alive = dm.player_units[side].iter().filter(|&&u| s.present[u as usize]).count() as u32;
            out.score[side] += survival_score(alive, dm.o.dm_survival_units);
        }
    }

    /// The winner at the end (§3.6): most points, then (`DM_TIEBREAK`) most kills; else
    /// shared. With teams, team totals decide and the winning team's captain wins.
    pub(crate) fn deathmatch_result(&self, dm: &DmRules, s: &State, out: &Outcome) -> Ending {
        let mut score = [0u32; MAX_SIDES];
        let mut kills = [0u32; MAX_SIDES];
        let n = match &dm.teams {
            Some(teams) => {
                for (player, &t) in teams.team_of.iter().enumerate() {
                    score[t as usize] += out.score[player];
                    kills[t as usize] += s.kills_side[player];
                }
                teams.len()
            }
            None => {
                let n = self.sides_count();
                score[..n].copy_from_slice(&out.score[..n]);
                kills[..n].copy_from_slice(&s.kills_side[..n]);
                n
            }
        };
        let side = |c: usize| dm.teams.as_ref().map_or(c, |t| t.captain(c)) as u8;
        let best = score[..n].iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..n).filter(|&i| score[i] == best).collect();
        if leaders.len() == 1 {
            return Ending::Winner(side(leaders[0]));
        }
        if dm.o.dm_tiebreak == DmTiebreak::Kills {
            let most = leaders.iter().map(|&i| kills[i]).max().unwrap_or(0);
            let top: Vec<usize> = leaders.into_iter().filter(|&i| kills[i] == most).collect();
            if top.len() == 1 {
                return Ending::Winner(side(top[0]));
            }
        }
        Ending::Draw
    }
}
