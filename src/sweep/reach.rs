//! Reach: whether each side of an engagement can attack at its conditions
//! ([`Ruleset::can_attack`]: a weapon in range, a reach for a special attack). A side
//! that cannot is harmless whatever the dice, so its results say nothing about its
//! worth; the commands flag it (`a_can_attack`, `b_can_attack`).

use std::collections::HashMap;

use crate::rules::battle::BattleInfo;
use crate::rules::ruleset::Ruleset;

/// Whether duel side `a` can attack `b` and `b` can attack `a`, both at `c`.
///
/// # Errors
/// Unknown names, or what the ruleset's reach check refuses, naming the pair.
pub fn duel_reach<R: Ruleset>(
    cat: &R::Catalogue,
    a: &str,
    b: &str,
    c: &R::Conditions,
    o: &R::Options,
) -> Result<(bool, bool), String> {
    let one = |x: &str, y: &str| R::can_attack(cat, x, y, c, o).map_err(|e| format!("{x} vs {y}: {e}"));
    Ok((one(a, b)?, one(b, a)?))
}

/// The reach of a battle's sides: which side can attack which, and the units that can
/// attack no enemy unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleReach {
    /// `reaches[s][t]`: some unit of side `s` can attack some unit of side `t` (false
    /// for `s == t` and for teammates).
    pub reaches: Vec<Vec<bool>>,
    /// Per unit slot ([`BattleInfo::units`]): whether it can attack some enemy unit.
    pub unit_can_attack: Vec<bool>,
}

impl BattleReach {
    /// Whether side `s` can attack: some unit of it can attack some enemy unit.
    pub fn can_attack(&self, s: usize) -> bool {
        self.reaches[s].iter().any(|&r| r)
    }

    /// Whether some enemy of side `s` can attack it (for two sides: the other side can
    /// attack).
    pub fn attacked(&self, s: usize) -> bool {
        self.reaches.iter().any(|row| row[s])
    }

    /// The units of side `s` that can attack no enemy unit, by name, in slot order.
    pub fn idle_units<'a>(&self, info: &'a BattleInfo, s: usize) -> Vec<&'a str> {
        info.units
            .iter()
            .zip(&self.unit_can_attack)
            .filter(|(u, can)| u.side == s && !**can)
            .map(|(u, _)| u.name.as_str())
            .collect()
    }
}

/// The reach of a compiled battle: every unit of a side against every enemy unit (units
/// of another side; with `teams`, each side's team label, of another team), at the
/// attacking side's conditions (`conditions[side]`, or the last one for later sides).
/// A pair the reach check cannot judge (it refuses the pair) counts as reaching, so a
/// side is never called harmless on a guess.
pub fn battle_reach<R: Ruleset>(
    cat: &R::Catalogue,
    info: &BattleInfo,
    conditions: &[R::Conditions],
    o: &R::Options,
    teams: Option<&[usize]>,
) -> BattleReach {
    let sides = info.sides.len();
    let team = |s: usize| teams.and_then(|t| t.get(s).copied()).unwrap_or(s);
    let mut memo: HashMap<(&str, &str, usize), bool> = HashMap::new();
    let mut reaches = vec![vec![false; sides]; sides];
    let mut unit_can_attack = vec![false; info.units.len()];
    for (i, u) in info.units.iter().enumerate() {
        let ci = u.side.min(conditions.len().saturating_sub(1));
        for v in info.units.iter().filter(|v| team(v.side) != team(u.side)) {
            let can = *memo
                .entry((u.name.as_str(), v.name.as_str(), ci))
                .or_insert_with(|| R::can_attack(cat, &u.name, &v.name, &conditions[ci], o).unwrap_or(true));
            if can {
                reaches[u.side][v.side] = true;
                unit_can_attack[i] = true;
            }
        }
    }
    BattleReach { reaches, unit_can_attack }
}

/// A warning line for each side that cannot attack (`None` when every side can): the
/// side's letter and name, and the conditions.
pub fn warnings(names: &[String], can_attack: &[bool], conditions: &str) -> Vec<String> {
    names
        .iter()
        .zip(can_attack)
        .enumerate()
        .filter(|(_, (_, can))| !**can)
        .map(|(i, (name, _))| {
            format!(
                "one-sided: side {} ({name}) cannot attack at {conditions} (no weapon in range): its results say nothing of its worth",
                super::battle_seats::side_letter(i)
            )
        })
        .collect()
}
